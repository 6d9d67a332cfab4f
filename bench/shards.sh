#!/usr/bin/env bash
# Times `sitemapgen merge` against reading the shards' sitemaps once (`cat`, the floor),
# in the same run, and prints the ratio and the merge's peak memory.
#
#   bench/shards.sh [URLS] [SHARDS]   default: 10000000 10
#   BENCH_DIR=/tmp/sitemapgen-bench   where the shards are written (and kept for reruns)
#   RUNS=7                            rounds, each timing both commands once (hyperfine;
#                                     one warm-up first), interleaved against drift
#
# The shards (examples/bench-shards.rs): URLS entries with lastmod, changefreq and
# priority in SHARDS shards, written by the shard writer `build --shard` uses. The merge
# is the glibc build users download (cargo-zigbuild against glibc 2.17, --profile dist,
# as the release workflow builds it), run as the CI recipe runs it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
urls=${1:-10000000}
shards=${2:-10}
runs=${RUNS:-7}
dir=${BENCH_DIR:-/tmp/sitemapgen-bench}/shards-$urls-$shards
command -v hyperfine >/dev/null || { echo "bench/shards.sh: install hyperfine (apt-get install -y hyperfine)" >&2; exit 2; }
command -v cargo-zigbuild >/dev/null || { echo "bench/shards.sh: put cargo-zigbuild on PATH (pip install $(grep -o 'ziglang==[^ ]* cargo-zigbuild==[^ ]*' "$root/.github/build-setup.yml"))" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/shards.sh: install GNU time (apt-get install -y time)" >&2; exit 2; }
gnu=x86_64-unknown-linux-gnu
target_dir=${CARGO_TARGET_DIR:-$root/target}
"$root/.github/cargo-glibc.sh" build --profile dist --target "$gnu" --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen --example bench-shards
bin=$target_dir/$gnu/dist/sitemapgen
if [ ! -f "$dir/.generated" ]; then
  rm -rf "$dir"
  "$target_dir/$gnu/dist/examples/bench-shards" "$dir" "$urls" "$shards" > /dev/null
  touch "$dir/.generated"
fi
cd "$dir"
floor="cat sitemap-part-*-*.xml > /dev/null"
merge="$bin merge sitemap-part-*.manifest.json --base-url https://example.org/ -o . -q"
bytes=$(cat sitemap-part-*-*.xml | wc -c)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One warm-up of each: the files in the page cache, as CI's merge job finds them after its
# download.
hyperfine --warmup 1 --runs 1 --style none "$floor" "$merge" > /dev/null
for round in $(seq "$runs"); do
  hyperfine --runs 1 --style none --export-json "$work/round-$round.json" "$floor" "$merge" > /dev/null
done
python3 - "$work" "$runs" <<'PY' > "$work/times"
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
times = [[], []]
for r in range(1, runs + 1):
    for i, result in enumerate(json.load(open(f"{work}/round-{r}.json"))["results"]):
        times[i].append(result["mean"])
floor, merge = (statistics.median(t) for t in times)
ratios = sorted(m / f for f, m in zip(*times))
print(f"{floor:.3f} {merge:.3f} {merge / floor:.2f} {ratios[0]:.2f} {ratios[-1]:.2f}")
PY
read -r floor_s merge_s ratio low high < "$work/times"
rss=()
for _ in 1 2 3; do
  /usr/bin/time -f %M -o "$work/rss" sh -c "$merge"
  rss+=("$(cat "$work/rss")")
done
rss_kb=$(printf '%s\n' "${rss[@]}" | sort -n | sed -n 2p)
printf '%s URLs in %s shards, %s children, %s MB of sitemaps\n' "$urls" "$shards" "$(ls sitemap-part-*-*.xml | wc -l)" "$(( bytes / 1000000 ))"
printf 'cat (floor)  %ss\nmerge        %ss  %sx the floor (rounds %sx-%sx), peak RSS %s MiB\n' \
  "$floor_s" "$merge_s" "$ratio" "$low" "$high" "$(( rss_kb / 1024 ))"
