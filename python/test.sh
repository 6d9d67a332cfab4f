#!/usr/bin/env bash
# The PyPI wheels: built by maturin as publish-pypi.yml builds them (on Linux: the glibc
# build tagged manylinux2014, against glibc 2.17 through zig where the workflow uses the
# manylinux2014 container, and the static musl build tagged musllinux_1_2), then pip's
# choice between them: installed by name from the two files with no index into a fresh
# venv of this machine's Python (glibc on Linux), which must take the glibc wheel, and
# the musl wheel picked for a musllinux platform; the venv's sitemapgen is run.
# Usage: bash python/test.sh   (SCHEMAS: the schema directory, default ../shared/schemas;
# MATURIN: a maturin to use whose Python has ziglang, else both are installed into a
# throwaway venv)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
schemas=${SCHEMAS:-$root/../shared/schemas}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "python: FAILED: $*" >&2; exit 1; }
ok() { echo "python: ok: $*"; }

maturin=${MATURIN:-}
if [ -z "$maturin" ]; then
  python3 -m venv "$work/build"
  # shellcheck disable=SC2046
  "$work/build/bin/pip" install --quiet maturin $(grep -o 'ziglang==[^ ]*' "$root/.github/build-setup.yml")
  maturin=$work/build/bin/maturin
fi
build() { # the wheel(s) of FLAGS...
  # maturin finds zig as `python3 -m ziglang`, in its own venv.
  (cd "$here" && PATH="$(dirname "$maturin"):$PATH" CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target} "$maturin" build --profile dist --quiet "$@" --out "$work/wheels") \
    > "$work/maturin.log" 2>&1 || fail "maturin build $*: $(tail -n 5 "$work/maturin.log")"
}
if [ "$(uname -s)" != Linux ]; then
  build
  wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-py3-none-*.whl) || fail "no wheel was built: $(ls "$work/wheels")"
  ok "built $(basename "$wheel")"
else
  # The release's flags, checked to be there, so the two cannot drift apart.
  workflow=$root/.github/workflows/publish-pypi.yml
  grep -q 'target: x86_64-unknown-linux-gnu, manylinux: "2014" }' "$workflow" \
    && grep -q 'target: x86_64-unknown-linux-musl, manylinux: musllinux_1_2 }' "$workflow" \
    && grep -q 'args: --profile dist ' "$workflow" \
    || fail "publish-pypi.yml no longer builds with --profile dist, manylinux 2014 (glibc) and musllinux_1_2 (musl): update python/test.sh with it"
  arch=$(uname -m)
  musl=$arch-unknown-linux-musl
  rustup target list --installed 2>/dev/null | grep -qx "$musl" || fail "the release's target $musl is not installed: rustup target add $musl"
  build --zig --target "$arch-unknown-linux-gnu" --compatibility manylinux2014
  # What dist passes for its musl archives (rustc's static, self-contained musl linking,
  # written out): with the same profile, the wheel's binary is the archive's build.
  RUSTFLAGS="-Ctarget-feature=+crt-static -Clink-self-contained=yes" build --target "$musl" --compatibility musllinux_1_2
  gnu_wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-py3-none-manylinux2014_"$arch".manylinux_2_17_"$arch".whl) \
    || fail "no manylinux2014 wheel was built: $(ls "$work/wheels")"
  musl_wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-py3-none-musllinux_1_2_"$arch".whl) \
    || fail "no musllinux_1_2 wheel was built: $(ls "$work/wheels")"
  ok "built $(basename "$gnu_wheel") and $(basename "$musl_wheel")"
  python3 -m venv "$work/pick"
  "$work/pick/bin/pip" download --quiet --no-index --find-links "$work/wheels" --only-binary=:all: \
    --platform "musllinux_1_2_$arch" --python-version 3.12 -d "$work/musl-pick" sitemapgen-cli \
    || fail "pip found no wheel for a musllinux_1_2_$arch host"
  [ "$(ls "$work/musl-pick")" = "$(basename "$musl_wheel")" ] || fail "pip picked $(ls "$work/musl-pick") for a musl host"
  ok "for a musllinux_1_2_$arch host pip picks $(basename "$musl_wheel")"
fi

python3 -m venv "$work/venv"
if [ "$(uname -s)" = Linux ]; then
  "$work/venv/bin/pip" install --quiet --no-index --find-links "$work/wheels" sitemapgen-cli
  readelf -l "$work/venv/bin/sitemapgen" | grep -q 'Requesting program interpreter' || fail "pip installed the musl wheel on this glibc host"
  ok "pip on this glibc host, offered both wheels, installs the manylinux2014 one"
else
  "$work/venv/bin/pip" install --quiet --no-index "$wheel"
fi
[ "$("$work/venv/bin/sitemapgen" --version)" = "sitemapgen $version" ] || fail "sitemapgen --version from the venv"
ok "sitemapgen --version from the fresh venv prints sitemapgen $version"

site=$work/site
mkdir -p "$site/public"
for page in index about blog; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "$site/public/$page.html"; done
(cd "$site" && PATH="$work/venv/bin:$PATH" sitemapgen build public --base-url https://example.org/ -q)
xmllint --noout --schema "$schemas/sitemap.xsd" "$site/public/sitemap.xml" 2>/dev/null || fail "the venv's sitemapgen wrote an invalid sitemap"
ok "the venv's sitemapgen wrote a valid sitemap"
echo "python: passed"
