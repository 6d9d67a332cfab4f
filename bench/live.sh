#!/usr/bin/env bash
# Times `sitemapgen check --live` on a site served locally: URLs a second and peak memory.
#
#   bench/live.sh [PAGES]             default: 10000
#   BENCH_DIR=/tmp/sitemapgen-live    where the site is generated (kept for reruns)
#   PORT=8731                         the local server's port (on 127.0.0.1 only)
#   FLAGS="--rate 0 -j 8"             the check's flags (--rate 0: no pacing; never on
#                                     a server that is not yours)
#   BIN=path/to/sitemapgen            default: builds --release
#
# The site is examples/gen-site.rs's, its https://example.org links made the local
# server's, built by sitemapgen and served by python3's http.server (threaded). The
# check's binary is the release build. /usr/bin/time -v gives the peak memory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pages=${1:-10000}
port=${PORT:-8731}
flags=${FLAGS:---rate 0 -j 8}
dir=${BENCH_DIR:-/tmp/sitemapgen-live}/$pages
base="http://127.0.0.1:$port"
target_dir=${CARGO_TARGET_DIR:-$root/target}
if [ -z "${BIN:-}" ] || [ ! -x "$target_dir/release/examples/gen-site" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen --example gen-site
fi
bin=${BIN:-$target_dir/release/sitemapgen}
if [ ! -f "$dir/public/sitemap.xml" ]; then
  rm -rf "$dir"
  "$target_dir/release/examples/gen-site" --pages "$pages" "$dir/public" > /dev/null
  grep -rlZ --include='*.html' 'https://example.org' "$dir/public" | xargs -0 sed -i "s|https://example.org|$base|g"
  "$bin" "$dir/public" --base-url "$base/" -q
fi
python3 -m http.server --bind 127.0.0.1 --directory "$dir/public" "$port" > /dev/null 2>&1 &
server=$!
trap 'kill "$server"; wait "$server" 2> /dev/null || true' EXIT
for _ in $(seq 50); do
  curl -sf -o /dev/null "$base/sitemap.xml" && break
  sleep 0.1
done
# shellcheck disable=SC2086 # FLAGS is a list of flags
/usr/bin/time -v "$bin" check --live "$base/sitemap.xml" $flags --json > "$dir/report.json" 2> "$dir/time.txt" || true
python3 - "$dir/report.json" "$dir/time.txt" <<'EOF'
import json, re, sys
report = json.load(open(sys.argv[1]))
time = open(sys.argv[2]).read()
wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", time)
seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", time).group(1))
fetched = report["fetched"]
print(f"{report['urls']} URLs in {report['files']} sitemap(s), {fetched} fetched in {seconds:.2f} s: "
      f"{fetched / seconds:,.0f} URLs/s, peak RSS {rss / 1024:.1f} MiB; "
      f"{report['errors']} errors, {report['warnings']} warnings, {report['retried']} retried")
EOF
