#!/usr/bin/env bash
# Times sitemapgen against two floors on generated trees, in one run per tree, and
# prints the ratios (the machines are shared and noisy: only same-run ratios mean much).
#
#   bench/run.sh [PAGES...]          default: 200000
#   BENCH_DIR=/tmp/sitemapgen-bench  where trees are generated (and kept for reruns)
#   RUNS=3                           rounds, each timing every command once (hyperfine;
#                                    one warm-up first), interleaved against drift
#   COLD=1                           also time each command once with caches dropped
#                                    (needs root and a writable /proc/sys/vm/drop_caches)
#   BASELINE=path/to/sitemapgen      also check that this build's sitemaps are
#                                    byte-identical to BASELINE's on every tree and
#                                    fixture (bench/identical.sh)
#
# Each tree is a Hugo project as `init` finds one: the built site (examples/gen-site.rs)
# in public/, a source for every page in content/, committed to git, and a hugo.toml.
# For each tree: the warm median over the rounds (hyperfine), the median of three peak
# RSS samples (/usr/bin/time) and, with
# COLD=1, a cold-cache time, of
#   find -printf       find DIR -name '*.html' -printf '%T@ %p\n'                       (floor)
#   find | xargs head  find DIR -name '*.html' -print0 | xargs -0 -P$(nproc) head -q -c 8192  (floor)
#   syscall floor      bench/floor.c: readdir (d_type) and, for every page, open, fstat,
#                      read 16 KiB, close, on one thread per core: what no head-reading
#                      sitemap generator can avoid (floor)
#   full-read floor    bench/floor.c -a: the same, reading every page to its end (floor)
#   git log            git log over content/ alone, as sitemapgen runs it (floor)
#   sitemapgen         sitemapgen build DIR (default settings: reads every page's head),
#                      the glibc build users download: against glibc 2.17 through
#                      cargo-zigbuild (.github/cargo-glibc.sh), --profile dist, as the
#                      release workflow builds it
#   heads off          sitemapgen build with head reading and its lastmod source off
#   musl               the static musl build users on hosts without glibc download, built
#                      as the release workflow builds it (--profile dist), default settings
#   every feature      lastmod = ["content", "mtime"] (state and change list), images,
#                      a section: a second run, the state there (glibc build)
#   every, musl        the same with the musl build
#   setup              the sitemap.toml `sitemapgen init` writes for the project
#                      (lastmod = ["source", "meta"]) with html_sitemap and llms_txt on:
#                      against the full-read floor plus git log (glibc build)
#   setup, musl        the same with the musl build
# plus the most files sitemapgen holds open (sampled from /proc). Results go to
# bench/results/results.tsv, and bench/results/scale.png plots wall time against pages
# when gnuplot is installed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${BENCH_DIR:-/tmp/sitemapgen-bench}
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200000)
command -v hyperfine >/dev/null || { echo "bench/run.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
for tool in python3 git; do command -v "$tool" >/dev/null || { echo "bench/run.sh: install $tool (it makes the project the trees are built in)" >&2; exit 2; }; done
command -v musl-gcc >/dev/null || { echo "bench/run.sh: install musl-tools (apt-get install -y musl-tools): the musl build compiles ring's C with musl-gcc" >&2; exit 2; }
command -v cargo-zigbuild >/dev/null || { echo "bench/run.sh: put cargo-zigbuild on PATH (pip install $(grep -o 'ziglang==[^ ]* cargo-zigbuild==[^ ]*' "$root/.github/build-setup.yml")): the glibc build is made against glibc 2.17 with it" >&2; exit 2; }
target_dir=${CARGO_TARGET_DIR:-$root/target}
gnu=x86_64-unknown-linux-gnu
"$root/.github/cargo-glibc.sh" build --profile dist --target "$gnu" --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen --example gen-site
bin=$target_dir/$gnu/dist/sitemapgen
musl=x86_64-unknown-linux-musl
rustup target list --installed 2>/dev/null | grep -qx "$musl" || rustup target add "$musl"
# The flags dist builds its musl archives with (static, self-contained).
RUSTFLAGS="-Ctarget-feature=+crt-static -Clink-self-contained=yes" CC_x86_64_unknown_linux_musl=musl-gcc \
  cargo build --profile dist --target "$musl" --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen
release=$target_dir/$musl/dist/sitemapgen
mkdir -p "$target_dir/dist"
floor=$target_dir/dist/floor
cc -O2 -Wall -pthread -o "$floor" "$root/bench/floor.c"
results=$root/bench/results
mkdir -p "$results"
tsv=$results/results.tsv
[ -f "$tsv" ] || printf 'pages\tcommand\twarm_median_s\tpeak_rss_kb\tcold_s\n' > "$tsv"

peak_fds() {
  local pid=$1 max=0 n
  while kill -0 "$pid" 2>/dev/null; do
    n=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l || true)
    if [ "${n:-0}" -gt "$max" ]; then max=$n; fi
    sleep 0.002
  done
  echo "$max"
}

# A Hugo project as `init` finds one: the built site (gen-site) in public/, and for
# every page a source (`content/<path>.md`, `_index.md` for a directory's index; one in
# 50 with a `lastmod` key), committed to git in one commit per top-level section plus
# 200 edits, and a hugo.toml.
make_project() {
  local dir=$1 pages=$2 all i f section
  echo "generating $pages pages and their sources under $dir ..." >&2
  rm -rf "$dir" && mkdir -p "$dir"
  "$target_dir/$gnu/dist/examples/gen-site" --pages "$pages" "$dir/public"
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
  printf "baseURL = 'https://example.org/'\ntitle = 'bench'\ndisableKinds = ['sitemap']\n" > "$dir/hugo.toml"
  g() { git -C "$dir" -c user.name=bench -c user.email=bench@example.org "$@"; }
  g init -q
  printf '/public/\n/*.toml\n!/hugo.toml\n/*.json\n/*.xml\n/every-*/\n' > "$dir/.gitignore"
  g add .gitignore hugo.toml
  for section in "$dir"/content/*/; do
    g add "$section"
    GIT_COMMITTER_DATE="2023-0$(( RANDOM % 9 + 1 ))-10T10:00:00Z" g commit -qm "add $(basename "$section")"
  done
  g add -A
  g commit -qm "rest" || true
  mapfile -t all < <(find "$dir/content" -name '*.md' | sort)
  for i in $(seq 1 200); do
    f=${all[$(( i * 97 % ${#all[@]} ))]}
    echo "Edit $i." >> "$f"
    GIT_COMMITTER_DATE="2024-06-$(( i % 28 + 1 ))T12:00:00+02:00" g commit -qam "edit $i"
  done
  touch "$dir/.generated"
}

for pages in "${sizes[@]}"; do
  dir=$base/$pages
  [ -f "$dir/.generated" ] || make_project "$dir" "$pages"
  cat > "$dir/heads-off.toml" <<TOML
base_url = "https://example.org/"
public_dir = "public"
lastmod = "mtime"
respect_noindex = false
skip_redirects = false
respect_canonical = false
alternates = false
TOML
  for build in glibc release; do
    cat > "$dir/every-$build.toml" <<TOML
base_url = "https://example.org/"
public_dir = "public"
output = "every-$build/sitemap.xml"
lastmod = ["content", "mtime"]
images = true
state_file = "every-$build-state.json"
[[section]]
name = "first"
match = "section-0/**"
TOML
  done
  # The setup `init` writes for this project, with the views on.
  "$bin" init --force "$dir" >/dev/null 2>&1
  for build in glibc release; do
    { printf 'output = "setup-%s/sitemap.xml"\nhtml_sitemap = true\nllms_txt = true\n' "$build"
      cat "$dir/sitemap.toml"; } > "$dir/setup-$build.toml"
  done
  # The history as sitemapgen reads it (lastmod/git/log.rs), read to its end.
  printf '#!/bin/sh\nexec git -C %q/content --git-dir %q/.git --work-tree %q log --no-ext-diff --no-textconv --format=%%x00%%ct%%x20%%H --name-only -z --relative --no-renames -- . >/dev/null\n' "$dir" "$dir" "$dir" > "$dir/git-log.sh"
  chmod +x "$dir/git-log.sh"
  # The every-feature runs are second runs: their state is there.
  "$bin" build --config "$dir/every-glibc.toml" -q
  "$release" build --config "$dir/every-release.toml" -q
  declare -A cmd=(
    ["find -printf"]="find '$dir/public' -name '*.html' -printf '%T@ %p\n' >/dev/null"
    ["find | xargs head"]="find '$dir/public' -name '*.html' -print0 | xargs -0 -P$(nproc) head -q -c 8192 >/dev/null"
    ["syscall floor"]="'$floor' '$dir/public' >/dev/null"
    ["full-read floor"]="'$floor' -a '$dir/public' >/dev/null"
    ["sitemapgen"]="'$bin' build '$dir/public' --base-url https://example.org/ -o '$dir/sitemap.xml' -q"
    ["heads off"]="'$bin' build --config '$dir/heads-off.toml' -o '$dir/sitemap-off.xml' -q"
    ["musl"]="'$release' build '$dir/public' --base-url https://example.org/ -o '$dir/sitemap-release.xml' -q"
    ["every feature"]="'$bin' build --config '$dir/every-glibc.toml' -q"
    ["every, musl"]="'$release' build --config '$dir/every-release.toml' -q"
    ["git log"]="'$dir/git-log.sh'"
    ["setup"]="'$bin' build --config '$dir/setup-glibc.toml' -q"
    ["setup, musl"]="'$release' build --config '$dir/setup-release.toml' -q"
  )
  names=("find -printf" "find | xargs head" "syscall floor" "full-read floor" "git log" "sitemapgen" "heads off" "musl" "every feature" "every, musl" "setup" "setup, musl")
  echo "== $pages pages ($(find "$dir/public" -name '*.html' | wc -l) HTML files, $(du -sh "$dir/public" | cut -f1)), $(nproc) cores" >&2
  args=()
  for n in "${names[@]}"; do args+=(-n "$n" "${cmd[$n]}"); done
  # One run of every command a round, RUNS rounds: on a shared machine the load drifts
  # over minutes, and a command timed in one stretch against floors timed in another
  # measures the drift; interleaved, each ratio's terms meet the same load.
  rm -f "$dir"/warm-*.json
  for round in $(seq "$runs"); do
    warmup=()
    [ "$round" = 1 ] && warmup=(--warmup 1)
    hyperfine "${warmup[@]}" --runs 1 --style none --export-json "$dir/warm-$round.json" "${args[@]}" >&2
  done

  : > "$dir/measures.tsv"
  for n in "${names[@]}"; do
    # The median of three peaks: a run's peak moves with its threads' timing.
    for i in 1 2 3; do
      /usr/bin/time -f "%M" -o "$dir/rss-$i" bash -c "${cmd[$n]}"
    done
    tail -qn 1 "$dir"/rss-[123] | sort -n | sed -n 2p > "$dir/rss"
    cold=
    if [ "${COLD:-0}" = 1 ] && sync && (echo 3 > /proc/sys/vm/drop_caches) 2>/dev/null; then
      start=$(date +%s.%N)
      bash -c "${cmd[$n]}"
      cold=$(echo "$(date +%s.%N) - $start" | bc)
    fi
    printf '%s\t%s\t%s\n' "$n" "$(tail -n 1 "$dir/rss")" "$cold" >> "$dir/measures.tsv"
  done
  "$bin" build "$dir/public" --base-url https://example.org/ -o "$dir/sitemap.xml" -q &
  fds=$(peak_fds $!)
  wait

  python3 - "$dir" "$pages" "$tsv" "$fds" "$dir/measures.tsv" <<'PY'
import glob, json, statistics, sys
dir, pages, tsv, fds, measures = sys.argv[1:6]
rss, cold = {}, {}
for line in open(measures):
    name, kb, c = line.rstrip("\n").split("\t")
    rss[name], cold[name] = kb, c
rounds = [json.load(open(f))["results"] for f in sorted(glob.glob(f"{dir}/warm-*.json"))]
times = {}
for results in rounds:
    for x in results:
        times.setdefault(x["command"], []).extend(x["times"])
r = {name: statistics.median(t) for name, t in times.items()}
with open(tsv, "a") as out:
    for name, t in r.items():
        out.write(f"{pages}\t{name}\t{t:.4f}\t{rss[name]}\t{cold[name]}\n")
print(f"{int(pages):,} pages: warm medians, peak RSS" + (", cold" if any(cold.values()) else ""))
for name, t in r.items():
    c = f", cold {float(cold[name]):.2f} s" if cold[name] else ""
    print(f"  {name:18s} {t:8.3f} s  {int(rss[name]) // 1024:5d} MiB{c}")
print(f"  sitemapgen / find|xargs head: {r['sitemapgen'] / r['find | xargs head']:.2f}x   "
      f"heads off / find -printf: {r['heads off'] / r['find -printf']:.2f}x   most open files: {fds}")
print(f"  default / syscall floor: glibc {r['sitemapgen'] / r['syscall floor']:.2f}x, "
      f"musl {r['musl'] / r['syscall floor']:.2f}x (target 1.3x)")
print(f"  every feature / full-read floor: glibc {r['every feature'] / r['full-read floor']:.2f}x, "
      f"musl {r['every, musl'] / r['full-read floor']:.2f}x (target 1.5x)")
floors = r["full-read floor"] + r["git log"]
print(f"  setup / (full-read floor + git log): glibc {r['setup'] / floors:.2f}x, musl {r['setup, musl'] / floors:.2f}x (target 1.5x)")
print(f"  musl / glibc: default {r['musl'] / r['sitemapgen']:.2f}x, every feature {r['every, musl'] / r['every feature']:.2f}x, "
      f"setup {r['setup, musl'] / r['setup']:.2f}x")
mib = lambda name: int(rss[name]) // 1024
print(f"  peak RSS (target 96 MiB at 200,000 pages, 256 MiB at 1,000,000): "
      f"default {mib('sitemapgen')}/{mib('musl')} MiB, every feature {mib('every feature')}/{mib('every, musl')} MiB, "
      f"setup {mib('setup')}/{mib('setup, musl')} MiB (glibc/musl)")
if all(cold[k] for k in ("sitemapgen", "find | xargs head")):
    print(f"  cold: sitemapgen / find|xargs head: {float(cold['sitemapgen']) / float(cold['find | xargs head']):.2f}x")
PY
done

if command -v gnuplot >/dev/null; then
  # The newest measurement of each (pages, command).
  i=0
  for c in "sitemapgen" "heads off" "find | xargs head" "find -printf" "syscall floor"; do
    i=$((i + 1))
    awk -F'\t' -v c="$c" 'NR > 1 && $2 == c { t[$1] = $3 } END { for (p in t) print p "\t" t[p] }' "$tsv" \
      | sort -n > "$base/series-$i.tsv"
  done
  gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced
set output "$results/scale.png"
set title "sitemapgen: wall time against pages (warm cache, medians, $(nproc) cores)"
set logscale xy
set xlabel "pages"
set ylabel "seconds"
set key top left
set grid
plot "$base/series-1.tsv" using 1:2 with linespoints lw 2 title "sitemapgen build (reads heads)", \
     "$base/series-2.tsv" using 1:2 with linespoints lw 2 title "sitemapgen build, heads off", \
     "$base/series-3.tsv" using 1:2 with linespoints dt 2 title "find | xargs head -c 8192 (floor)", \
     "$base/series-4.tsv" using 1:2 with linespoints dt 2 title "find -printf (floor)", \
     "$base/series-5.tsv" using 1:2 with linespoints dt 3 lw 2 title "open, fstat, read 16 KiB, close (syscall floor)"
GP
  echo "plot: $results/scale.png" >&2
fi

if [ -n "${BASELINE:-}" ]; then
  trees=()
  for pages in "${sizes[@]}"; do trees+=("$base/$pages/public"); done
  "$root/bench/identical.sh" "$BASELINE" "$bin" "${trees[@]}"
fi
