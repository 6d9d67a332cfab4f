#!/usr/bin/env bash
# Times `sitemapgen build` against the floor `find DIR -name '*.html' -printf '%T@ %p\n'`
# on one generated tree, in one run, and prints the ratio (the machines are shared and
# noisy, so only same-run ratios mean anything).
#
#   bench/walk.sh [PAGES] [DIR]      defaults: 200000 pages in a fresh temporary directory
#
# Needs hyperfine (Debian package `hyperfine`) and python3.
set -euo pipefail
pages=${1:-200000}
dir=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)

command -v hyperfine >/dev/null || { echo "bench/walk.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/release/sitemapgen

if [ ! -f "$dir/.generated-$pages" ]; then
  echo "generating $pages pages under $dir/public ..." >&2
  python3 - "$dir/public" "$pages" <<'PY'
import os, sys
# A Hugo-like tree: 50 sections, posts as dir/index.html, pagination dirs, some assets.
out, n = sys.argv[1], int(sys.argv[2])
page = "<!DOCTYPE html><html><head><title>p</title></head><body><main><p>text</p></main></body></html>\n"
for i in range(n):
    s = i % 50
    if i % 10 == 9:
        rel = f"section-{s}/page/{i // 500 + 2}/index.html"
    else:
        rel = f"section-{s}/post-{i}/index.html"
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(page)
    if i % 100 == 0:
        with open(os.path.join(os.path.dirname(path), "cover.jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff")
PY
  touch "$dir/.generated-$pages"
fi
html=$(find "$dir/public" -name '*.html' | wc -l)
echo "tree: $dir/public ($html HTML files), $(nproc) cores" >&2

hyperfine --warmup 2 --runs 10 --export-json "$dir/walk.json" \
  -n "find -printf (floor)" "find '$dir/public' -name '*.html' -printf '%T@ %p\n' >/dev/null" \
  -n "sitemapgen build" "'$bin' build '$dir/public' --base-url https://example.org/ -o '$dir/sitemap.xml' -q"

python3 - "$dir/walk.json" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
floor, ours = r["find -printf (floor)"], r["sitemapgen build"]
print(f"floor  find -printf : {floor['mean']*1000:8.1f} ms (median {floor['median']*1000:.1f})")
print(f"sitemapgen build   : {ours['mean']*1000:8.1f} ms (median {ours['median']*1000:.1f})")
print(f"ratio (median)     : {ours['median'] / floor['median']:.2f}x the find floor")
PY
