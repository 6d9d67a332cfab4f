#!/usr/bin/env bash
# The Action's install step: puts the released sitemapgen for this runner on PATH,
# checked against the release's published SHA-256, or says that it must be built.
#
# Inputs come from the environment (never pasted into a script):
#   INPUT_VERSION    the version to install ("" = the action's own ref when it is a
#                    version tag, else the version in the action's Cargo.toml)
#   ACTION_PATH      the action's checkout; ACTION_REF its ref
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT  (set by the runner)
#   SITEMAPGEN_RELEASES_URL  where release assets are downloaded from, without the
#                    version (default the GitHub releases); tests point it at a local server
# Outputs: version, target, installed=true|false (false: build from source instead).
set -euo pipefail

fail() { echo "::error::sitemapgen: $*" >&2; exit 1; }
output() { echo "$1=$2" >> "$GITHUB_OUTPUT"; }

# The version a source build gives: the action's own checkout's.
own=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$ACTION_PATH/Cargo.toml" | head -n 1)
version=${INPUT_VERSION#v}
if [ -z "$version" ] && [[ "${ACTION_REF:-}" =~ ^v?([0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?)$ ]]; then
  version=${BASH_REMATCH[1]}
fi
if [ -z "$version" ]; then
  version=$own
fi
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] \
  || fail "version '$version' is not a version such as 0.1.0; set the action's version input"
output version "$version"

# No release to install: the step builds the action's checkout, which is only right when
# that is the version asked for; another version fails rather than report one and run
# another.
build_instead() {
  if [ "$version" != "$own" ]; then
    fail "$1, and building from source would give the action's own $own, not $version: use a released version, or pin the action to v$version"
  fi
  echo "sitemapgen: $1; building $own from the action's checkout"
  output installed false
  exit 0
}

# On Linux, the glibc build where the host's glibc is 2.17 or newer (what the release's
# glibc builds need), else the static musl build (Alpine, or a container without glibc),
# as the release's shell installer chooses. glibc's getconf knows GNU_LIBC_VERSION;
# musl's does not.
linux_libc() {
  local version
  version=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '$1 == "glibc" { print $2 }') || version=
  if [[ "$version" =~ ^([0-9]+)\.([0-9]+) ]] \
    && { [ "${BASH_REMATCH[1]}" -gt 2 ] || { [ "${BASH_REMATCH[1]}" = 2 ] && [ "${BASH_REMATCH[2]}" -ge 17 ]; }; }; then
    echo gnu
  else
    echo musl
  fi
}

# The release targets, as the release workflow builds them (dist-workspace.toml).
case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
  Linux/X64) target=x86_64-unknown-linux-$(linux_libc) ;;
  Linux/ARM64) target=aarch64-unknown-linux-$(linux_libc) ;;
  macOS/X64) target=x86_64-apple-darwin ;;
  macOS/ARM64) target=aarch64-apple-darwin ;;
  Windows/X64) target=x86_64-pc-windows-msvc ;;
  *) target="" ;;
esac
output target "$target"
if [ -z "$target" ]; then
  build_instead "no release build for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
fi

case "$target" in
  *windows*) archive="sitemapgen-$target.zip" ;;
  *) archive="sitemapgen-$target.tar.xz" ;;
esac
base=${SITEMAPGEN_RELEASES_URL:-https://github.com/sitemapgen/sitemapgen/releases/download}
url="$base/v$version/$archive"
work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/sitemapgen.XXXXXX")
# A missing asset (404) means no release of this version: build instead, if that builds
# this version. Any other failure (network, server error) fails the step rather than
# silently compiling.
status=$(curl --silent --show-error --location --retry 3 --output "$work/$archive" \
  --write-out '%{http_code}' "$url") || fail "cannot download $url"
if [ "$status" = 404 ]; then
  build_instead "no release v$version (nothing at $url)"
fi
[ "$status" = 200 ] || fail "downloading $url answered HTTP $status"
curl --silent --show-error --location --fail --retry 3 --output "$work/$archive.sha256" \
  "$url.sha256" || fail "cannot download $url.sha256, the archive's published checksum"

want=$(awk '{ print $1; exit }' "$work/$archive.sha256")
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$work/$archive" | awk '{ print $1 }')
else
  got=$(shasum -a 256 "$work/$archive" | awk '{ print $1 }')
fi
[[ "$want" =~ ^[0-9a-f]{64}$ ]] || fail "$url.sha256 holds no SHA-256"
[ "$got" = "$want" ] \
  || fail "$archive has SHA-256 $got, but the release publishes $want; not installing it"

bin="$work/bin"
mkdir -p "$bin"
case "$archive" in
  *.zip) unzip -q -o -j "$work/$archive" -d "$bin" ;;
  *) tar -xJf "$work/$archive" -C "$bin" --strip-components=1 ;;
esac
[ -f "$bin/sitemapgen" ] || [ -f "$bin/sitemapgen.exe" ] || fail "$archive holds no sitemapgen binary"
echo "$bin" >> "$GITHUB_PATH"
echo "sitemapgen: installed $version for $target (SHA-256 verified)"
output installed true
