#!/usr/bin/env bash
# The hosts' own rules, checked against the hosts' own code (issue 62): generated sites
# (seeded: many rule shapes per host) and host files from public repositories
# (tests/fixtures/hosts/), each built with sitemapgen and then served by
#   - Cloudflare Pages: `wrangler pages dev` (workerd, offline)          the real server
#   - Firebase Hosting: superstatic, with firebase.json read by cjson    the real server
#   - Netlify: netlify-redirector + @netlify/redirect-parser and
#     @netlify/headers-parser, as netlify-cli runs them                  an emulator
#   - Vercel: @vercel/routing-utils' route table, walked by our reading
#     of Vercel's route semantics                                         an emulator
# For every page, in every URL form, the host's answer (status, Location, X-Robots-Tag)
# is compared with what the sitemap lists (tests/hosts/run.mjs). Known disagreements are
# listed in tests/hosts/known.txt; a new one fails, and so does a known one that is gone.
#
#   bash tests/hosts.sh                 needs node (18 or later) and npm, a release build
#   KEEP=1 bash tests/hosts.sh          keeps the cases' folders and says where
#   bash tests/hosts.sh --install-only  installs the tools and stops (CI runs it beside
#                                       the compilation)
#
# The npm tools are installed once, pinned (tests/hosts/package-lock.json), into
# target/hosts-tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "tests/hosts.sh: install $tool" >&2; exit 2; }
done

tools=${HOSTS_TOOLS:-$root/target/hosts-tools}
if [ ! -f "$tools/.installed-1" ]; then
  rm -rf "$tools"
  mkdir -p "$tools"
  cp "$root/tests/hosts/package.json" "$root/tests/hosts/package-lock.json" "$tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --silent >/dev/null)
  touch "$tools/.installed-1"
fi
[ "${1:-}" = --install-only ] && exit 0

bin=${SITEMAPGEN:-${CARGO_TARGET_DIR:-$root/target}/release/sitemapgen}
[ -x "$bin" ] || cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen

work=$(mktemp -d)
if [ "${KEEP:-0}" = 1 ]; then echo "cases in $work"; else trap 'rm -rf "$work"' EXIT; fi
HOSTS_TOOLS=$tools node "$root/tests/hosts/run.mjs" "$work" "$root/tests/fixtures/hosts" \
  "$root/tests/hosts/known.txt" "$bin"
# check --live against a host's own server, on a site with planted problems.
HOSTS_TOOLS=$tools node "$root/tests/hosts/live.mjs" "$work" "$bin"
echo "tests/hosts.sh passed"
