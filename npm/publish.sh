#!/usr/bin/env bash
# Publishes the packages npm/assemble.mjs wrote to OUT_DIR: the platform packages first,
# then `sitemapgen`, so its optional dependencies exist when it appears.
# Usage: bash npm/publish.sh OUT_DIR [--dry-run]   (NODE_AUTH_TOKEN set by the workflow)
set -euo pipefail
out=${1:?usage: publish.sh OUT_DIR [--dry-run]}
shift
[ -f "$out/sitemapgen/package.json" ] || { echo "publish: $out/sitemapgen/package.json is missing; run npm/assemble.mjs first" >&2; exit 2; }
for dir in "$out"/sitemapgen-*/ "$out/sitemapgen/"; do
  (cd "$dir" && npm publish --access public "$@")
done
