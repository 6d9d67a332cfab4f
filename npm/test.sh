#!/usr/bin/env bash
# The npm packages, built from the two x86-64 Linux binaries and used offline as a
# project would: `npx sitemapgen`, an npm `postbuild` that writes a valid sitemap, the
# launcher's choice between the glibc and the musl package (on this glibc host, and on a
# host Node reports without glibc), the error when no package for the platform is
# installed, and SITEMAPGEN_BINARY.
# Usage: bash npm/test.sh GLIBC_BINARY MUSL_BINARY   (SCHEMAS: the schema directory,
# default ../shared/schemas; ARCHIVES: a directory of release archives to assemble from)
set -euo pipefail
binary=$(realpath "${1:?usage: npm/test.sh GLIBC_BINARY MUSL_BINARY}")
musl_binary=$(realpath "${2:?usage: npm/test.sh GLIBC_BINARY MUSL_BINARY}")
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
[ "$(node -p 'process.platform + "-" + process.arch')" = linux-x64 ] || fail "this check packs the x86-64 Linux packages; run it on x86-64 Linux"
platform=linux-x64
node "$here/assemble.mjs" --version "$version" --binary "x86_64-unknown-linux-gnu=$binary" \
  --binary "x86_64-unknown-linux-musl=$musl_binary" --out "$work/out" >/dev/null
for pkg in sitemapgen "sitemapgen-$platform" "sitemapgen-$platform-musl"; do
  (cd "$work/out/$pkg" && npm pack --silent --pack-destination "$work" >/dev/null)
done
[ "$(node -p 'require(process.argv[1]).libc.join()' "$work/out/sitemapgen-$platform/package.json")" = glibc ] \
  && [ "$(node -p 'require(process.argv[1]).libc.join()' "$work/out/sitemapgen-$platform-musl/package.json")" = musl ] \
  || fail "the Linux packages do not declare their libc"
ok "packed sitemapgen, sitemapgen-$platform (libc glibc) and sitemapgen-$platform-musl (libc musl) $version"

project=$work/project
mkdir -p "$project/public"
cd "$project"
cat > package.json <<JSON
{ "name": "site", "private": true, "scripts": { "build": "node -e \"\"", "postbuild": "sitemapgen" } }
JSON
printf "base_url = 'https://example.org/'\npublic_dir = 'public'\n" > sitemap.toml
for page in index about blog; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "public/$page.html"; done
# Offline: the other platforms' optional packages are not fetched, and that is no error.
# Both Linux packages are given by file, with --force, which installs the musl one on this
# glibc host as an npm that does not read `libc` does (this one refuses it otherwise).
npm install --offline --no-save --force "$work/sitemapgen-$platform-$version.tgz" \
  "$work/sitemapgen-$platform-musl-$version.tgz" "$work/sitemapgen-$version.tgz" > "$work/install.log" 2>&1 \
  || fail "npm install: $(tail -n 5 "$work/install.log")"
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

# Which package the launcher runs: the other one's binary is swapped for one that fails.
# NODE_OPTIONS loads a module that makes Node report no glibc, as it does under musl.
printf 'process.report.getReport = () => ({ header: {} });\n' > "$work/musl-host.cjs"
musl_host=(env "NODE_OPTIONS=--require $work/musl-host.cjs")
swap() { # PACKAGE: its binary fails with 3; `swap PACKAGE back` restores it
  local bin=node_modules/$1/bin/sitemapgen
  if [ "${2:-}" = back ]; then mv "$bin.real" "$bin"; else mv "$bin" "$bin.real" && printf '#!/bin/sh\nexit 3\n' > "$bin" && chmod +x "$bin"; fi
}
swap "sitemapgen-$platform-musl"
[ "$(npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "on this glibc host the launcher did not run the glibc package"
if "${musl_host[@]}" npx --offline sitemapgen --version >/dev/null 2>&1; then fail "on a host without glibc the launcher did not run the musl package"; fi
swap "sitemapgen-$platform-musl" back
swap "sitemapgen-$platform"
[ "$("${musl_host[@]}" npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "on a host without glibc the launcher did not run the musl package"
swap "sitemapgen-$platform" back
ok "the launcher runs sitemapgen-$platform on this glibc host and sitemapgen-$platform-musl where Node reports no glibc"
rm -rf "node_modules/sitemapgen-$platform"
[ "$(npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "a glibc host with only the musl package installed did not run it"
ok "a glibc host with only sitemapgen-$platform-musl installed runs it"
rm -rf "node_modules/sitemapgen-$platform-musl"
if out=$(npx --offline sitemapgen --version 2>&1); then fail "ran without its platform package"; fi
grep -q "the package sitemapgen-$platform@$version or sitemapgen-$platform-musl@$version for this platform ($platform) is not installed" <<< "$out" \
  || fail "the missing-package error does not name the platform's packages: $out"
ok "without its platform packages: $out"
if out=$("${musl_host[@]}" npx --offline sitemapgen --version 2>&1); then fail "ran without its platform package"; fi
grep -q "the package sitemapgen-$platform-musl@$version for this platform ($platform) is not installed" <<< "$out" \
  || fail "the missing-package error on a host without glibc does not name the musl package: $out"
ok "without it, on a host without glibc: $out"
[ "$(SITEMAPGEN_BINARY=$binary npx --offline sitemapgen --version)" = "sitemapgen $version" ] || fail "SITEMAPGEN_BINARY"
ok "SITEMAPGEN_BINARY runs the binary it names"
# From release archives (ARCHIVES: a directory of dist's archives, when given): with only
# the two x86-64 Linux archives there, assembling names the first target it lacks.
if [ -n "${ARCHIVES:-}" ]; then
  if out=$(node "$here/assemble.mjs" --version "$version" --archives "$ARCHIVES" --out "$work/all" 2>&1); then
    ok "assembled every platform from $ARCHIVES"
  else
    grep -q "no release archive for" <<< "$out" || fail "assemble from archives: $out"
    [ -x "$work/all/sitemapgen-$platform/bin/sitemapgen" ] && [ -x "$work/all/sitemapgen-$platform-musl/bin/sitemapgen" ] \
      || fail "the x86-64 Linux archives' binaries were not extracted"
    ok "from archives: $out"
  fi
fi
echo "npm: passed"
