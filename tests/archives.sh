#!/usr/bin/env bash
# The release archives as users download them, whatever platform they are for: each
# archive of a release target (npm/platforms.json) holds the binary and the documents
# where the installers, cargo-binstall and npm/assemble.mjs look (unix:
# sitemapgen-<target>/sitemapgen beside README.md, CHANGELOG.md and both licenses; Windows:
# flat), and the binary is an executable of the target's format and architecture: ELF
# for Linux (the glibc build dynamic, asking for no glibc newer than its wheel's
# manylinux tag; the musl build static), Mach-O for macOS (built for no macOS newer than
# its wheel's macosx tag), PE32+ console for Windows. Run by tests/dist.sh on the two
# x86-64 Linux archives and by the publish workflows on all of them before anything is
# published to npm or PyPI.
# Usage: bash tests/archives.sh DIR [--all]   (DIR: dist's archives; --all: every target
# of npm/platforms.json must have one)
#        bash tests/archives.sh --binary TARGET=PATH...   (binaries built outside an
# archive, tests/platforms.sh's: only their format)
set -euo pipefail
usage="usage: tests/archives.sh DIR [--all] | --binary TARGET=PATH..."
dir=${1:?$usage}
all=${2:-}
platforms=$(dirname "$0")/../npm/platforms.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "archives: FAILED: $*" >&2; exit 1; }
ok() { echo "archives: ok: $*"; }
docs=(CHANGELOG.md LICENSE-APACHE LICENSE-MIT README.md)

# The newest version in LIST (one per line), by version order.
newest() { sort -u -V | tail -n 1; }
# Whether version $1 is at most $2.
at_most() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | tail -n 1)" = "$2" ]; }
# The system version a wheel platform tag names: manylinux_2_17_x86_64 -> 2.17,
# macosx_10_12_x86_64 -> 10.12.
tag_version() { [[ $1 =~ ^[a-z]+_([0-9]+)_([0-9]+)_ ]] && echo "${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"; }

# The archive's files, checked, then its binary extracted to $work/bin.
unpack() { # TARGET ARCHIVE EXE
  local expected listed
  if [[ $2 == *.zip ]]; then
    expected=$(printf '%s\n' "$3" "${docs[@]}" | sort)
    listed=$(unzip -Z1 "$2" | sort)
    [ "$listed" != "$expected" ] || unzip -p "$2" "$3" > "$work/bin"
  else
    expected=$(printf 'sitemapgen-%s/\n' "$1"; printf "sitemapgen-$1/%s\n" "$3" "${docs[@]}" | sort)
    listed=$(tar -tJf "$2")
    listed=$(head -n 1 <<< "$listed"; tail -n +2 <<< "$listed" | sort)
  fi
  [ "$listed" = "$expected" ] || fail "$(basename "$2") holds $(tr '\n' ' ' <<< "$listed")instead of $(tr '\n' ' ' <<< "$expected")"
  if [[ $2 == *.tar.xz ]]; then
    tar -xJOf "$2" "sitemapgen-$1/$3" > "$work/bin"
    [[ $(tar -tvJf "$2" "sitemapgen-$1/$3") == -rwxr-xr-x* ]] || fail "$(basename "$2"): the binary is not mode 755"
  fi
}

# The binary's format and architecture, and the oldest system its wheel tag promises.
format() { # TARGET WHEEL_TAG
  local kind arch
  kind=$(file -b "$work/bin")
  case $1 in
    x86_64-*-linux-*) arch="x86-64" ;;
    aarch64-*-linux-*) arch="ARM aarch64" ;;
    x86_64-apple-*) arch="x86_64" ;;
    aarch64-apple-*) arch="arm64" ;;
    x86_64-pc-windows-*) arch="x86-64" ;;
    *) fail "$1: no known format (add it to tests/archives.sh)" ;;
  esac
  case $1 in
    *-linux-gnu)
      [[ $kind == "ELF 64-bit LSB pie executable, $arch,"*"dynamically linked"* ]] || fail "$1: $kind"
      local glibc
      glibc=$(readelf -V -W "$work/bin" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | newest)
      at_most "$glibc" "$(tag_version "$2")" || fail "$1 asks for glibc $glibc, newer than its wheel's $2"
      kind="$kind; glibc $glibc at most" ;;
    *-linux-musl)
      [[ $kind == "ELF 64-bit LSB "*", $arch,"*"static"* ]] || fail "$1 is not a static $arch executable: $kind" ;;
    *-apple-darwin)
      [[ $kind == "Mach-O 64-bit $arch executable"* ]] || fail "$1: $kind"
      local minos
      # The linker writes LC_BUILD_VERSION (its "minos") for macOS 10.14 and newer, and
      # LC_VERSION_MIN_MACOSX (its "version") for older ones: the x86-64 build's 10.12.
      minos=$(llvm-objdump --macho --private-headers "$work/bin" | awk '
        $1 == "cmd" { key = $2 == "LC_BUILD_VERSION" ? "minos" : $2 == "LC_VERSION_MIN_MACOSX" ? "version" : "" }
        key != "" && $1 == key { print $2; exit }')
      [ -n "$minos" ] || fail "$1: no minimum macOS (LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX) in the Mach-O headers"
      at_most "$minos" "$(tag_version "$2")" || fail "$1 needs macOS $minos, newer than its wheel's $2"
      kind="$kind; macOS $minos or newer" ;;
    *-windows-*)
      [[ $kind == "PE32+ executable (console) $arch"* ]] || fail "$1: $kind" ;;
  esac
  echo "$kind"
}

# A target's wheel tag, which names the oldest system it promises.
wheel_tag() { jq -r --arg t "$1" '.[] | select(.target == $t) | .wheel[0]' "$platforms"; }

if [ "$dir" = --binary ]; then
  shift
  [ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
  for pair in "$@"; do
    target=${pair%%=*} binary=${pair#*=}
    tag=$(wheel_tag "$target")
    [ -n "$tag" ] || fail "--binary $pair: no target $target in npm/platforms.json"
    cp "$binary" "$work/bin" || fail "--binary $pair: cannot read $binary"
    kind=$(format "$target" "$tag")
    ok "$target: $kind"
  done
  exit 0
fi
found=0
while IFS=$'\t' read -r target exe tag; do
  archive=$dir/sitemapgen-$target.tar.xz
  [ -f "$archive" ] || archive=$dir/sitemapgen-$target.zip
  if [ ! -f "$archive" ]; then
    [ "$all" != --all ] || fail "no archive for $target in $dir"
    continue
  fi
  unpack "$target" "$archive" "$exe"
  # Assigned first: a failure inside $(...) within a word would not stop the script.
  kind=$(format "$target" "$tag")
  ok "$(basename "$archive"): the binary and its documents where the installers look; $kind"
  found=$((found + 1))
done < <(jq -r '.[] | [.target, .exe, .wheel[0]] | @tsv' "$platforms")
[ "$found" -gt 0 ] || fail "no release archive in $dir"
