#!/usr/bin/env bash
# What the site audit (`build --check`) costs: the same build with the audit off and on,
# in interleaved rounds of one run, and the ratio of the audited build's collect, write
# and audit phases to the plain build's collect and write (the check of the written
# files, which `--check` ran before the audit, is not the audit's and is left out).
#
#   bench/audit.sh [PAGES]            default: 200000
#   BENCH_DIR=/tmp/sitemapgen-bench   where the tree is generated (and kept for reruns)
#   RUNS=7                            rounds
#
# The tree is examples/gen-site.rs's (10% of pages in en/de hreflang pairs); the binary is
# the glibc build users download (cargo-zigbuild against glibc 2.17, --profile dist).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pages=${1:-200000}
runs=${RUNS:-7}
dir=${BENCH_DIR:-/tmp/sitemapgen-bench}/$pages
command -v cargo-zigbuild >/dev/null || { echo "bench/audit.sh: put cargo-zigbuild on PATH (pip install $(grep -o 'ziglang==[^ ]* cargo-zigbuild==[^ ]*' "$root/.github/build-setup.yml"))" >&2; exit 2; }
gnu=x86_64-unknown-linux-gnu
target_dir=${CARGO_TARGET_DIR:-$root/target}
"$root/.github/cargo-glibc.sh" build --profile dist --target "$gnu" --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen --example gen-site
bin=$target_dir/$gnu/dist/sitemapgen
[ -d "$dir/public" ] || "$target_dir/$gnu/dist/examples/gen-site" --pages "$pages" "$dir/public"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'base_url = "https://example.org/"\npublic_dir = "%s"\nlastmod = "mtime"\n' "$dir/public" > "$work/plain.toml"
run() { "$bin" -c "$work/plain.toml" -o "$work/sitemap.xml" --json "$@"; }
run -q > /dev/null # warm-up: the tree in the page cache
for round in $(seq "$runs"); do
  run > "$work/plain-$round.json"
  run --check > "$work/audit-$round.json"
done
python3 - "$work" "$runs" "$pages" <<'PY'
import json, statistics, sys
work, runs, pages = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def phases(name, r):
    return json.load(open(f"{work}/{name}-{r}.json"))["durations_ms"]
plain = [phases("plain", r) for r in range(1, runs + 1)]
audit = [phases("audit", r) for r in range(1, runs + 1)]
base = [p["collect"] + p["write"] for p in plain]
audited = [a["collect"] + a["write"] + a["audit"] for a in audit]
ratios = sorted(a / b for a, b in zip(audited, base))
print(f"{pages} pages: build {statistics.median(base)} ms; with the audit {statistics.median(audited)} ms "
      f"(audit phase {statistics.median(a['audit'] for a in audit)} ms): "
      f"{statistics.median(ratios):.3f}x (rounds {ratios[0]:.3f}x-{ratios[-1]:.3f}x)")
PY
