#!/usr/bin/env bash
# The PyPI wheel: built by maturin as publish-pypi.yml builds it (on Linux: the static
# musl binary, tagged manylinux_2_17 and musllinux_1_2), installed from the file into a
# fresh venv of this machine's Python (glibc on Linux) with no index, run from that venv.
# Usage: bash python/test.sh   (SCHEMAS: the schema directory, default ../shared/schemas;
# MATURIN: a maturin to use, else one is installed into a throwaway venv)
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
  "$work/build/bin/pip" install --quiet maturin
  maturin=$work/build/bin/maturin
fi
# The release's flags: the workflow's `manylinux` input becomes `--manylinux`, its
# `tags` are added; both are checked to be there, so the two cannot drift apart.
flags=()
pattern=py3-none-*
if [ "$(uname -s)" = Linux ]; then
  workflow=$root/.github/workflows/publish-pypi.yml
  grep -q '^ *manylinux: musllinux_1_2$' "$workflow" && grep -q 'tags: --compatibility manylinux_2_17 }' "$workflow" \
    && grep -q 'args: --profile dist ' "$workflow" \
    || fail "publish-pypi.yml no longer builds with --profile dist, musllinux_1_2 and manylinux_2_17: update python/test.sh with it"
  arch=$(uname -m)
  target=$arch-unknown-linux-musl
  rustup target list --installed 2>/dev/null | grep -qx "$target" \
    || fail "the release's target $target is not installed: rustup target add $target"
  flags=(--target "$target" --manylinux musllinux_1_2 --compatibility manylinux_2_17)
  # What dist passes for its musl archives (rustc's static, self-contained musl linking,
  # written out): with the same profile, the wheel's binary is the archive's build, not a
  # second one.
  export RUSTFLAGS="-Ctarget-feature=+crt-static -Clink-self-contained=yes"
  pattern="py3-none-manylinux2014_$arch.manylinux_2_17_$arch.musllinux_1_2_$arch"
fi
(cd "$here" && CARGO_TARGET_DIR=$root/target "$maturin" build --profile dist --quiet "${flags[@]}" --out "$work/wheels") \
  > "$work/maturin.log" 2>&1 || fail "maturin build: $(tail -n 5 "$work/maturin.log")"
wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-$pattern.whl) \
  || fail "no sitemapgen_cli-$version-$pattern.whl was built: $(ls "$work/wheels")"
ok "built $(basename "$wheel")"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index "$wheel"
[ "$("$work/venv/bin/sitemapgen" --version)" = "sitemapgen $version" ] || fail "sitemapgen --version from the venv"
ok "pip install --no-index of the wheel into a fresh venv; sitemapgen --version prints sitemapgen $version"

site=$work/site
mkdir -p "$site/public"
for page in index about blog; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "$site/public/$page.html"; done
(cd "$site" && PATH="$work/venv/bin:$PATH" sitemapgen build public --base-url https://example.org/ -q)
xmllint --noout --schema "$schemas/sitemap.xsd" "$site/public/sitemap.xml" 2>/dev/null || fail "the venv's sitemapgen wrote an invalid sitemap"
ok "the venv's sitemapgen wrote a valid sitemap"
echo "python: passed"
