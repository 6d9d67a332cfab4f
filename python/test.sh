#!/usr/bin/env bash
# The PyPI wheel: built by maturin (reusing the repository's release build), installed
# from the file into a fresh venv with no index, run from that venv.
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
(cd "$here" && CARGO_TARGET_DIR=$root/target "$maturin" build --release --quiet --out "$work/wheels") \
  > "$work/maturin.log" 2>&1 || fail "maturin build: $(tail -n 5 "$work/maturin.log")"
wheel=$(ls "$work"/wheels/sitemapgen_cli-"$version"-*.whl) || fail "no sitemapgen_cli-$version wheel was built"
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
