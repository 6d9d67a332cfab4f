#!/usr/bin/env bash
# Times the match of pages to their sources by text (issue 60) against the same run
# with routes for every page, in interleaved rounds, and prints the ratio of the medians.
#
#   bench/by_text.sh [PAGES]          default: 200000
#   BENCH_DIR=/tmp/sitemapgen-bytext  where the two projects are generated (kept)
#   BIN=path/to/sitemapgen            default: builds --profile dist
#   RUNS=7                            rounds
#
# Two Hugo projects of PAGES pages each (public/sN/pI/index.html, a menu and footer on
# every page and a paragraph of 60 words of its own in <main>; a list page per section),
# with a source per page (content/sN/pI.md, the same paragraph), committed in git:
#   routed    every source named for its page, so every route reaches its page
#   unrouted  one source in ten named otherwise (content/sN/nI.md), so one page in ten
#             is reached by no route and is matched by its text
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pages=${1:-200000}
base=${BENCH_DIR:-/tmp/sitemapgen-bytext}/$pages
runs=${RUNS:-7}
command -v hyperfine >/dev/null || { echo "bench/by_text.sh: install hyperfine" >&2; exit 2; }
bin=${BIN:-}
if [ -z "$bin" ]; then
  cargo build --profile dist --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen
  bin=${CARGO_TARGET_DIR:-$root/target}/dist/sitemapgen
fi

make_project() {
  local dir=$1 every=$2
  rm -rf "$dir" && mkdir -p "$dir"
  python3 - "$dir" "$pages" "$every" <<'PY'
import os, random, sys
root, pages, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(60)
words = [
    "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
    for _ in range(5000)
]
chrome = "<nav><a href=/>Home</a> <a href=/about/>About the project and its people</a></nav>"
footer = "<footer>Written by hand in a small town, shared under a licence that lets you copy it.</footer>"
sections = {}
for i in range(pages):
    s = f"s{i % 100}"
    text = " ".join(rng.choice(words) for _ in range(60))
    out = os.path.join(root, "public", s, f"p{i}", "index.html")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(f"<!doctype html><html lang=en><title>Page {i}</title>{chrome}"
                f"<main><h1>Page {i}</h1><p>{text}</p></main>{footer}</html>\n")
    name = f"n{i}" if every and i % every == 0 else f"p{i}"
    src = os.path.join(root, "content", s, f"{name}.md")
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as f:
        f.write(f"+++\ntitle = 'Page {i}'\n+++\n{text}\n")
    sections.setdefault(s, []).append(i)
for s, members in sections.items():
    with open(os.path.join(root, "public", s, "index.html"), "w") as f:
        items = "".join(f"<li><a href=/{s}/p{i}/>Page {i}</a></li>" for i in members[:50])
        f.write(f"<!doctype html><title>{s}</title>{chrome}<main><ul>{items}</ul></main>{footer}\n")
with open(os.path.join(root, "public", "index.html"), "w") as f:
    f.write(f"<!doctype html><title>Home</title>{chrome}<main>Welcome.</main>{footer}\n")
PY
  printf "baseURL = 'https://example.org/'\n" > "$dir/hugo.toml"
  printf '/public/\n/sitemap.toml\n' > "$dir/.gitignore"
  git -C "$dir" init -q
  git -C "$dir" add -A
  GIT_COMMITTER_DATE=2024-05-06T07:08:09Z git -C "$dir" -c user.name=b -c user.email=b@example.org commit -qm all
  "$bin" init --force "$dir" >/dev/null
  touch "$dir/.generated"
}

for kind in routed unrouted; do
  every=0
  [ "$kind" = unrouted ] && every=10
  [ -f "$base/$kind/.generated" ] || { echo "generating $base/$kind ..." >&2; make_project "$base/$kind" "$every"; }
done
for kind in routed unrouted; do
  "$bin" -c "$base/$kind/sitemap.toml" -o "$base/$kind.xml" 2>&1 | tail -1
done
# Interleaved rounds (one run of each a round, a warm-up first): the machine's drift
# meets both terms of each round's ratio alike.
rm -f "$base"/round-*.json
for round in $(seq "$runs"); do
  warmup=()
  [ "$round" = 1 ] && warmup=(-w 1)
  hyperfine -N "${warmup[@]}" -r 1 --style none --export-json "$base/round-$round.json" \
    -n routed "$bin -c $base/routed/sitemap.toml -o $base/routed.xml" \
    -n "one in ten by text" "$bin -c $base/unrouted/sitemap.toml -o $base/unrouted.xml" >&2
done
python3 - "$base" "$runs" <<'PY'
import json, statistics, sys
base, runs = sys.argv[1], int(sys.argv[2])
times = {"routed": [], "one in ten by text": []}
cpu = {k: [] for k in times}
for r in range(1, runs + 1):
    for x in json.load(open(f"{base}/round-{r}.json"))["results"]:
        times[x["command"]].append(x["times"][0])
        cpu[x["command"]].append(x["user"] + x["system"])
routed, by_text = (statistics.median(times[k]) for k in times)
ratios = [b / a for a, b in zip(times["routed"], times["one in ten by text"])]
print(f"one in ten by text / routed: {by_text / routed:.2f}x ({by_text:.2f} s against "
      f"{routed:.2f} s, medians of {runs} interleaved rounds; per round "
      f"{min(ratios):.2f}x-{max(ratios):.2f}x; CPU "
      f"{statistics.median(cpu['one in ten by text']):.2f} s against "
      f"{statistics.median(cpu['routed']):.2f} s)")
PY
