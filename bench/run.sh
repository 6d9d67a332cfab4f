#!/usr/bin/env bash
# Times sitemapgen against two floors on one generated tree, in one run, and prints the
# ratios (the machines are shared and noisy: only same-run ratios mean anything).
#
#   bench/run.sh [PAGES] [DIR]      defaults: 200000 pages in a fresh temporary directory
#
# Floors:  find DIR -name '*.html' -printf '%T@ %p\n'                     (walk + stat)
#          find DIR -name '*.html' -print0 | xargs -0 -P2 head -q -c 8192  (walk + read heads)
# Needs hyperfine (Debian package `hyperfine`) and python3 (for the ratios). RUNS=N sets the runs per command.
set -euo pipefail
pages=${1:-200000}
dir=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)

command -v hyperfine >/dev/null || { echo "bench/run.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/sitemapgen

if [ ! -f "$dir/.generated-$pages" ]; then
  echo "generating $pages pages under $dir/public ..." >&2
  cargo run --release --quiet --manifest-path "$root/Cargo.toml" --example gen-site -- --pages "$pages" "$dir/public"
  touch "$dir/.generated-$pages"
fi
html=$(find "$dir/public" -name '*.html' | wc -l)
echo "tree: $dir/public ($html HTML files, $(du -sh "$dir/public" | cut -f1)), $(nproc) cores" >&2

cat > "$dir/heads-off.toml" <<TOML
base_url = "https://example.org/"
public_dir = "public"
lastmod = "mtime"
respect_noindex = false
skip_redirects = false
respect_canonical = false
alternates = false
TOML

hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$dir/bench.json" \
  -n "find -printf" "find '$dir/public' -name '*.html' -printf '%T@ %p\n' >/dev/null" \
  -n "find | xargs -P2 head" "find '$dir/public' -name '*.html' -print0 | xargs -0 -P2 head -q -c 8192 >/dev/null" \
  -n "sitemapgen (default)" "'$bin' build '$dir/public' --base-url https://example.org/ -o '$dir/sitemap.xml' -q" \
  -n "sitemapgen (heads off)" "'$bin' build --config '$dir/heads-off.toml' -o '$dir/sitemap-off.xml' -q"

# Peak RSS and the most files open at once (sampled from /proc every few milliseconds).
/usr/bin/time -f "%M" -o "$dir/rss" "$bin" build "$dir/public" --base-url https://example.org/ -o "$dir/sitemap.xml" -q &
pid=$!
maxfd=0
while kill -0 "$pid" 2>/dev/null; do
  for p in $(pgrep -P "$pid" 2>/dev/null || true) "$pid"; do
    n=$(ls "/proc/$p/fd" 2>/dev/null | wc -l || true)
    if [ "${n:-0}" -gt "$maxfd" ]; then maxfd=$n; fi
  done
  sleep 0.002
done
wait "$pid" || { echo "bench/run.sh: sitemapgen failed" >&2; exit 1; }
echo "sitemapgen (default): peak RSS $(( $(cat "$dir/rss") / 1024 )) MiB, at most $maxfd file descriptors open (stdin/out/err included)"

python3 - "$dir/bench.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
for name, t in r.items():
    print(f"{name:24s} {t*1000:9.1f} ms (median)")
print(f"default   / find|xargs head : {r['sitemapgen (default)'] / r['find | xargs -P2 head']:.2f}x")
print(f"heads off / find -printf    : {r['sitemapgen (heads off)'] / r['find -printf']:.2f}x")
PY
