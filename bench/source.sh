#!/usr/bin/env bash
# What the "source" lastmod source costs: sitemapgen with lastmod = ["source", "mtime"]
# against lastmod = "mtime", and the setup `init` writes (lastmod = ["source", "meta"],
# html_sitemap, llms_txt) against the sum of two floors, the full-read floor
# (bench/floor.c -a) and `git log` alone over the content directory as sitemapgen runs
# it, on a generated site whose every page has a Hugo-style
# source (`content/<path>.md`, `_index.md` for a directory's index; one in 50 with a
# `lastmod` key) committed to git, in one hyperfine run. The built site is not committed.
#
#   bench/source.sh [PAGES] [DIR]   defaults: 200000 pages in a fresh temporary directory
#
# The sources are committed in one commit per top-level section plus 200 edit commits.
# Needs hyperfine, python3 and git.
set -euo pipefail
pages=${1:-200000}
dir=${2:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd)
command -v hyperfine >/dev/null || { echo "bench/source.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
cargo build --profile dist --quiet --manifest-path "$root/Cargo.toml"
bin=$root/target/dist/sitemapgen

if [ ! -f "$dir/.generated-$pages" ]; then
  echo "generating $pages pages and their sources under $dir ..." >&2
  cargo run --profile dist --quiet --manifest-path "$root/Cargo.toml" --example gen-site -- --pages "$pages" "$dir/public"
  python3 - "$dir" <<'PY'
import os, sys
root = sys.argv[1]
public = os.path.join(root, "public")
n = 0
for base, dirs, files in os.walk(public):
    for f in files:
        if not f.endswith(".html"):
            continue
        rel = os.path.relpath(os.path.join(base, f), public)
        if f == "index.html":
            d = os.path.dirname(rel)
            src = os.path.join(d, "_index.md") if d else "_index.md"
            # A leaf page `x/index.html` is `x.md` when its directory holds nothing else.
            if d and not dirs and files == ["index.html"]:
                src = d + ".md"
        else:
            src = rel[:-5] + ".md"
        path = os.path.join(root, "content", src)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        key = "lastmod = 2024-01-02T03:04:05Z\n" if n % 50 == 0 else ""
        with open(path, "w") as out:
            out.write(f"+++\ntitle = 'page {n}'\n{key}+++\nText of page {n}.\n")
        n += 1
print(f"{n} sources", file=sys.stderr)
PY
  g() { git -C "$dir" -c user.name=bench -c user.email=bench@example.org "$@"; }
  g init -q
  echo "/public/" > "$dir/.gitignore"
  g add .gitignore
  for section in "$dir"/content/*/; do g add "$section"; GIT_COMMITTER_DATE="2023-0$(( RANDOM % 9 + 1 ))-10T10:00:00Z" g commit -qm "add $(basename "$section")"; done
  g add -A; g commit -qm "rest" || true
  mapfile -t all < <(find "$dir/content" -name '*.md' | sort)
  for i in $(seq 1 200); do
    f=${all[$(( i * 97 % ${#all[@]} ))]}
    echo "Edit $i." >> "$f"
    GIT_COMMITTER_DATE="2024-06-$(( i % 28 + 1 ))T12:00:00+02:00" g commit -qam "edit $i"
  done
  touch "$dir/.generated-$pages"
fi
echo "project: $dir ($(find "$dir/public" -name '*.html' | wc -l) HTML files, $(find "$dir/content" -name '*.md' | wc -l) sources, $(git -C "$dir" rev-list --count HEAD) commits), $(nproc) cores" >&2

printf 'base_url = "https://example.org/"\npublic_dir = "public"\nlastmod = "mtime"\n' > "$dir/mtime.toml"
printf 'base_url = "https://example.org/"\npublic_dir = "public"\nlastmod = ["source", "mtime"]\n[source]\ngenerator = "hugo"\n' > "$dir/source.toml"
printf 'base_url = "https://example.org/"\npublic_dir = "public"\nlastmod = ["source", "meta"]\nhtml_sitemap = true\nllms_txt = true\n[source]\ngenerator = "hugo"\n' > "$dir/setup.toml"
floor=$root/target/dist/floor
cc -O2 -Wall -pthread -o "$floor" "$root/bench/floor.c"
# The history as sitemapgen reads it (lastmod/git/log.rs), read to its end.
printf '#!/bin/sh\nexec git -C %q/content --git-dir %q/.git --work-tree %q log --no-ext-diff --no-textconv --format=%%x00%%ct%%x20%%H --name-only -z --relative --no-renames -- . >/dev/null\n' "$dir" "$dir" "$dir" > "$dir/git-log.sh"
chmod +x "$dir/git-log.sh"
"$bin" build --config "$dir/source.toml" -o "$dir/sitemap-source.xml" 2>&1 | tail -1
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$dir/source.json" \
  -n mtime "'$bin' build --config '$dir/mtime.toml' -o '$dir/sitemap-mtime.xml' -q" \
  -n source "'$bin' build --config '$dir/source.toml' -o '$dir/sitemap-source.xml' -q" \
  -n "full-read floor" "'$floor' -a '$dir/public'" \
  -n "git log" "'$dir/git-log.sh'" \
  -n setup "'$bin' build --config '$dir/setup.toml' -o '$dir/sitemap-setup.xml' -q"
python3 - "$dir/source.json" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open(sys.argv[1]))["results"]}
print(f"mtime: {r['mtime']:.2f} s, source: {r['source']:.2f} s (medians): source adds {r['source'] - r['mtime']:.2f} s ({r['source'] / r['mtime']:.2f}x)")
floors = r["full-read floor"] + r["git log"]
print(f"init's setup: {r['setup']:.2f} s against full-read floor {r['full-read floor']:.2f} s + git log {r['git log']:.2f} s: {r['setup'] / floors:.2f}x")
PY
