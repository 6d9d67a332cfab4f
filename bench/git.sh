#!/usr/bin/env bash
# What the "git" lastmod source costs: sitemapgen with lastmod = ["git", "mtime"] against
# lastmod = "mtime" on a repository of committed pages, in one hyperfine run.
#
#   bench/git.sh [PAGES] [DIR]      defaults: 20000 pages in a fresh temporary directory
#
# The pages are committed in 50 commits (one per section) plus 200 small edit commits,
# so the log has some history to read. Needs hyperfine, python3 and git.
set -euo pipefail
pages=${1:-20000}
dir=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v hyperfine >/dev/null || { echo "bench/git.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
cargo build --profile dist --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/dist/sitemapgen

if [ ! -f "$dir/.generated-$pages" ]; then
  echo "generating and committing $pages pages under $dir ..." >&2
  cargo run --profile dist --quiet --manifest-path "$root/Cargo.toml" --example gen-site -- --pages "$pages" "$dir/public"
  g() { git -C "$dir" -c user.name=bench -c user.email=bench@example.org "$@"; }
  g init -q
  for section in "$dir"/public/*/; do g add "$section"; g commit -qm "add $(basename "$section")"; done
  g add -A; g commit -qm "rest" || true
  mapfile -t all < <(find "$dir/public" -name index.html | sort)
  for i in $(seq 1 200); do
    f=${all[$(( i * 97 % ${#all[@]} ))]}
    echo "<!-- edit $i -->" >> "$f"
    g commit -qam "edit $i"
  done
  touch "$dir/.generated-$pages"
fi
echo "repository: $dir ($(find "$dir/public" -name '*.html' | wc -l) HTML files, $(git -C "$dir" rev-list --count HEAD) commits), $(nproc) cores" >&2

printf 'base_url = "https://example.org/"\npublic_dir = "public"\nlastmod = "mtime"\n' > "$dir/mtime.toml"
printf 'base_url = "https://example.org/"\npublic_dir = "public"\nlastmod = ["git", "mtime"]\n' > "$dir/git.toml"
hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$dir/git.json" \
  -n mtime "'$bin' build --config '$dir/mtime.toml' -o '$dir/sitemap-mtime.xml' -q" \
  -n git "'$bin' build --config '$dir/git.toml' -o '$dir/sitemap-git.xml' -q"
python3 - "$dir/git.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"mtime: {r['mtime']*1000:.0f} ms, git: {r['git']*1000:.0f} ms (medians): git adds {(r['git'] - r['mtime'])*1000:.0f} ms")
PY
