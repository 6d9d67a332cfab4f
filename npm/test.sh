#!/usr/bin/env bash
# The npm packages, built from a local binary and used offline as a project would:
# `npx sitemapgen`, an npm `postbuild` that writes a valid sitemap, the error when the
# platform package is missing, and SITEMAPGEN_BINARY.
# Usage: bash npm/test.sh BINARY   (SCHEMAS: the schema directory, default ../shared/schemas)
set -euo pipefail
binary=$(realpath "${1:?usage: npm/test.sh BINARY}")
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
schemas=${SCHEMAS:-$root/../shared/schemas}
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "npm: FAILED: $*" >&2; exit 1; }
ok() { echo "npm: ok: $*"; }
export npm_config_loglevel=error npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# The launcher's `require("node:...")` exists from Node 14.18 on the 14 line and from 16:
# `engines` may admit nothing older (14.0-14.17 and 15 fail with "Cannot find module").
node -e '
const fs = require("fs");
const launcher = fs.readFileSync(process.argv[1], "utf8");
const range = require(process.argv[2]).engines.node;
const ok = (part) => {
  const m = /^(?:\^|>=)(\d+)\.(\d+)\.\d+$/.exec(part.trim());
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return part.trim().startsWith("^") ? (major === 14 && minor >= 18) || major >= 16 : major >= 16;
};
if (/require\("node:/.test(launcher) && !range.split("||").every(ok)) {
  console.error(`npm: FAILED: engines.node "${range}" admits a Node without require("node:...")`);
  process.exit(1);
}' "$here/sitemapgen/bin/sitemapgen.js" "$here/sitemapgen/package.json"
ok "engines.node admits only Nodes that have require(\"node:...\")"
node "$here/assemble.mjs" --version "$version" --host-binary "$binary" --out "$work/out" >/dev/null
platform=$(node -p 'process.platform + "-" + process.arch')
for pkg in sitemapgen "sitemapgen-$platform"; do
  (cd "$work/out/$pkg" && npm pack --silent --pack-destination "$work" >/dev/null)
done
ok "packed sitemapgen-$version.tgz and sitemapgen-$platform-$version.tgz"

project=$work/project
mkdir -p "$project/public"
cd "$project"
cat > package.json <<JSON
{ "name": "site", "private": true, "scripts": { "build": "node -e \"\"", "postbuild": "sitemapgen" } }
JSON
printf "base_url = 'https://example.org/'\npublic_dir = 'public'\n" > sitemap.toml
for page in index about blog; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "public/$page.html"; done
# Offline: the other platforms' optional packages are not fetched, and that is no error.
npm install --offline --no-save "$work/sitemapgen-$platform-$version.tgz" "$work/sitemapgen-$version.tgz" >/dev/null
[ "$(npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "npx sitemapgen --version"
ok "npm install --offline, then npx sitemapgen --version prints sitemapgen $version"
npm run --silent build
xmllint --noout --schema "$schemas/sitemap.xsd" public/sitemap.xml 2>/dev/null || fail "postbuild's sitemap does not validate"
[ "$(grep -c '<loc>' public/sitemap.xml)" = 3 ] || fail "postbuild's sitemap does not list the 3 pages"
ok "npm run build: postbuild's sitemapgen wrote a valid sitemap of 3 URLs"
# The recipe the READMEs give first: sitemapgen chained in build itself.
rm public/sitemap.xml
npm pkg set scripts.build="node -e \"\" && sitemapgen" && npm pkg delete scripts.postbuild
npm run --silent build
xmllint --noout --schema "$schemas/sitemap.xsd" public/sitemap.xml 2>/dev/null || fail "build && sitemapgen: the sitemap does not validate"
[ "$(grep -c '<loc>' public/sitemap.xml)" = 3 ] || fail "build && sitemapgen: the sitemap does not list the 3 pages"
ok "npm run build with \"... && sitemapgen\": a valid sitemap of 3 URLs"

rm -rf "node_modules/sitemapgen-$platform"
if out=$(npx --offline sitemapgen --version 2>&1); then fail "ran without its platform package"; fi
grep -q "the package sitemapgen-$platform@$version for this platform ($platform) is not installed" <<< "$out" \
  || fail "the missing-package error does not name the platform: $out"
ok "without its platform package: $out"
[ "$(SITEMAPGEN_BINARY=$binary npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "SITEMAPGEN_BINARY"
ok "SITEMAPGEN_BINARY runs the binary it names"
# From release archives (ARCHIVES: a directory of dist's archives, when given): with only
# this machine's archive there, assembling names the first target it lacks.
if [ -n "${ARCHIVES:-}" ]; then
  if out=$(node "$here/assemble.mjs" --version "$version" --archives "$ARCHIVES" --out "$work/all" 2>&1); then
    ok "assembled every platform from $ARCHIVES"
  else
    grep -q "no release archive for" <<< "$out" || fail "assemble from archives: $out"
    [ -x "$work/all/sitemapgen-$platform/bin/sitemapgen" ] || [ "$platform" != linux-x64 ] \
      || fail "the archive's binary was not extracted"
    ok "from archives: $out"
  fi
fi
echo "npm: passed"
