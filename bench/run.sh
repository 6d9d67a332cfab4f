#!/usr/bin/env bash
# Times sitemapgen against two floors on generated trees, in one run per tree, and
# prints the ratios (the machines are shared and noisy: only same-run ratios mean much).
#
#   bench/run.sh [PAGES...]          default: 200000
#   BENCH_DIR=/tmp/sitemapgen-bench  where trees are generated (and kept for reruns)
#   RUNS=3                           hyperfine runs per command (after one warm-up)
#   COLD=1                           also time each command once with caches dropped
#                                    (needs root and a writable /proc/sys/vm/drop_caches)
#   BASELINE=path/to/sitemapgen      also check that this build's sitemaps are
#                                    byte-identical to BASELINE's on every tree and
#                                    fixture (bench/identical.sh)
#
# For each tree: the warm median (hyperfine), the peak RSS (/usr/bin/time) and, with
# COLD=1, a cold-cache time, of
#   find -printf       find DIR -name '*.html' -printf '%T@ %p\n'                       (floor)
#   find | xargs head  find DIR -name '*.html' -print0 | xargs -0 -P$(nproc) head -q -c 8192  (floor)
#   syscall floor      bench/floor.c: readdir (d_type) and, for every page, open, fstat,
#                      read 16 KiB, close, on one thread per core: what no head-reading
#                      sitemap generator can avoid (floor)
#   full-read floor    bench/floor.c -a: the same, reading every page to its end (floor)
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
#   init               sitemapgen init --force DIR: the setup it writes (DIR/sitemap.toml,
#                      from what it finds of the generator and the output), glibc build
#   init, musl         the same with the musl build
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

for pages in "${sizes[@]}"; do
  dir=$base/$pages
  if [ ! -f "$dir/.generated" ]; then
    echo "generating $pages pages under $dir/public ..." >&2
    rm -rf "$dir" && mkdir -p "$dir"
    "$target_dir/$gnu/dist/examples/gen-site" --pages "$pages" "$dir/public"
    touch "$dir/.generated"
  fi
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
    ["init"]="'$bin' init --force '$dir' >/dev/null 2>&1"
    ["init, musl"]="'$release' init --force '$dir' >/dev/null 2>&1"
  )
  names=("find -printf" "find | xargs head" "syscall floor" "full-read floor" "sitemapgen" "heads off" "musl" "every feature" "every, musl" "init" "init, musl")
  echo "== $pages pages ($(find "$dir/public" -name '*.html' | wc -l) HTML files, $(du -sh "$dir/public" | cut -f1)), $(nproc) cores" >&2
  args=()
  for n in "${names[@]}"; do args+=(-n "$n" "${cmd[$n]}"); done
  hyperfine --warmup 1 --runs "$runs" --style basic --export-json "$dir/warm.json" "${args[@]}" >&2

  : > "$dir/measures.tsv"
  for n in "${names[@]}"; do
    /usr/bin/time -f "%M" -o "$dir/rss" bash -c "${cmd[$n]}"
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

  python3 - "$dir/warm.json" "$pages" "$tsv" "$fds" "$dir/measures.tsv" <<'PY'
import json, sys
warm, pages, tsv, fds, measures = sys.argv[1:6]
rss, cold = {}, {}
for line in open(measures):
    name, kb, c = line.rstrip("\n").split("\t")
    rss[name], cold[name] = kb, c
r = {x["command"]: x["median"] for x in json.load(open(warm))["results"]}
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
print(f"  init / find -printf: glibc {r['init'] / r['find -printf']:.2f}x, musl {r['init, musl'] / r['find -printf']:.2f}x")
print(f"  musl / glibc: default {r['musl'] / r['sitemapgen']:.2f}x, every feature {r['every, musl'] / r['every feature']:.2f}x, "
      f"init {r['init, musl'] / r['init']:.2f}x")
print(f"  peak RSS, every feature: glibc {int(rss['every feature']) // 1024} MiB, musl {int(rss['every, musl']) // 1024} MiB (targets: 96 MiB at 200,000 pages, 256 MiB at 1,000,000)")
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
