#!/usr/bin/env bash
# The PyPI wheels, packed by python/assemble.py from the two x86-64 Linux binaries as
# publish-pypi.yml packs them from the release archives (the glibc build tagged
# manylinux2014, the static musl build musllinux_1_2), then pip's choice between them:
# installed by name from the two files with no index into a fresh venv of this machine's
# Python (glibc), which must take the glibc wheel, and the musl wheel picked for a
# musllinux platform; the venv's sitemapgen is run; the wheel's binary is the one given.
# Usage: bash python/test.sh GLIBC_BINARY MUSL_BINARY   (SCHEMAS: the schema directory,
# default ../shared/schemas; ARCHIVES: a directory of release archives to assemble from;
# PYTHON: a python3 with python/tools.txt installed, else they go into a throwaway venv)
set -euo pipefail
binary=$(realpath "${1:?usage: python/test.sh GLIBC_BINARY MUSL_BINARY}")
musl_binary=$(realpath "${2:?usage: python/test.sh GLIBC_BINARY MUSL_BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
schemas=${SCHEMAS:-$root/../shared/schemas}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "python: FAILED: $*" >&2; exit 1; }
ok() { echo "python: ok: $*"; }

[ "$(uname -sm)" = "Linux x86_64" ] || fail "this check packs the x86-64 Linux wheels; run it on x86-64 Linux"
python=${PYTHON:-}
if [ -z "$python" ]; then
  python3 -m venv "$work/tools"
  "$work/tools/bin/pip" install --quiet -r "$here/tools.txt"
  python=$work/tools/bin/python
fi
"$python" "$here/assemble.py" --version "$version" --binary "x86_64-unknown-linux-gnu=$binary" \
  --binary "x86_64-unknown-linux-musl=$musl_binary" --out "$work/wheels" >/dev/null
gnu_wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl) \
  || fail "no manylinux2014 wheel was packed: $(ls "$work/wheels")"
musl_wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-py3-none-musllinux_1_2_x86_64.whl) \
  || fail "no musllinux_1_2 wheel was packed: $(ls "$work/wheels")"
ok "packed $(basename "$gnu_wheel") and $(basename "$musl_wheel")"
python3 -m venv "$work/pick"
"$work/pick/bin/pip" download --quiet --no-index --find-links "$work/wheels" --only-binary=:all: \
  --platform musllinux_1_2_x86_64 --python-version 3.12 -d "$work/musl-pick" sitemapgen-cli \
  || fail "pip found no wheel for a musllinux_1_2_x86_64 host"
[ "$(ls "$work/musl-pick")" = "$(basename "$musl_wheel")" ] || fail "pip picked $(ls "$work/musl-pick") for a musl host"
ok "for a musllinux_1_2_x86_64 host pip picks $(basename "$musl_wheel")"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --find-links "$work/wheels" sitemapgen-cli
cmp -s "$work/venv/bin/sitemapgen" "$binary" || fail "pip on this glibc host did not install the glibc build"
ok "pip on this glibc host, offered both wheels, installs the manylinux2014 one: the glibc build, byte for byte"
[ "$("$work/venv/bin/sitemapgen" --version)" = "sitemapgen $version" ] || fail "sitemapgen --version from the venv"
ok "sitemapgen --version from the fresh venv prints sitemapgen $version"
site=$work/site
mkdir -p "$site/public"
for page in index about blog; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "$site/public/$page.html"; done
(cd "$site" && PATH="$work/venv/bin:$PATH" sitemapgen build public --base-url https://example.org/ -q)
xmllint --noout --schema "$schemas/sitemap.xsd" "$site/public/sitemap.xml" 2>/dev/null || fail "the venv's sitemapgen wrote an invalid sitemap"
ok "the venv's sitemapgen wrote a valid sitemap"

# From release archives (ARCHIVES: a directory of dist's archives, when given): with only
# the two x86-64 Linux archives there, packing names the first target it lacks.
if [ -n "${ARCHIVES:-}" ]; then
  if out=$("$python" "$here/assemble.py" --version "$version" --archives "$ARCHIVES" --out "$work/all" 2>&1); then
    ok "packed every platform's wheel from $ARCHIVES"
  else
    grep -q "no release archive for" <<< "$out" || fail "assemble from archives: $out"
    for kind in "manylinux2014_x86_64.manylinux_2_17_x86_64 $binary" "musllinux_1_2_x86_64 $musl_binary"; do
      wheel=$work/all/sitemapgen_cli-$version-py3-none-${kind%% *}.whl
      [ -f "$wheel" ] || fail "the x86-64 Linux archives' wheels were not packed before: $out"
      unzip -p "$wheel" "sitemapgen_cli-$version.data/scripts/sitemapgen" | cmp -s - "${kind#* }" \
        || fail "$(basename "$wheel") does not carry the archive's binary"
    done
    ok "from archives, each wheel carries its archive's binary; then $out"
  fi
fi
echo "python: passed"
