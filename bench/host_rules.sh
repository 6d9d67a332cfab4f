#!/usr/bin/env bash
# The hosts' rules at scale (issue 61): builds the sites of the security review's
# findings and runs `sitemapgen build` on each under GNU time, printing the wall time,
# the peak RSS and the warnings. Usage: bench/host_rules.sh [path/to/sitemapgen]
# Each run is limited to 4 GiB of address space.
set -euo pipefail
BIN=${1:-target/release/sitemapgen}
BIN=$(realpath "$BIN")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

# A site of $1 pages, public/p<i>/index.html, with its sitemap.toml.
site() {
  local root=$1 pages=$2
  mkdir -p "$root/public"
  printf "base_url = 'https://example.org/'\npublic_dir = 'public'\n" >"$root/sitemap.toml"
  (cd "$root/public" && for ((i = 0; i < pages; i++)); do
    mkdir -p "p$i" && echo '<html><head></head></html>' >"p$i/index.html"
  done)
}

run() {
  local name=$1 root=$2
  local out
  out=$( (cd "$root" && prlimit --as=$((4 << 30)) /usr/bin/time -f "%e s %M KiB" "$BIN" build -q) 2>&1 || true)
  local stats warnings
  stats=$(tail -n 1 <<<"$out")
  warnings=$(head -n -1 <<<"$out" | grep -c . || true)
  echo "$name: $stats, $warnings lines on stderr"
  head -n -1 <<<"$out" | cut -c1-200 | head -n 3 | sed 's/^/    /'
}

# 1. firebase.json: 10,000 `regex` header rules (859 KB).
site "$DIR/firebase" 20
python3 - "$DIR/firebase/firebase.json" <<'PY'
import json, sys
rules = [{"regex": f"/p{i}/\\w{{20}}", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]} for i in range(10000)]
rules.append({"source": "/p1/**", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]})
json.dump({"hosting": {"public": "public", "headers": rules}}, open(sys.argv[1], "w"), indent=1)
PY
run "firebase.json, 10,000 regex rules" "$DIR/firebase"

# 1b. vercel.json: 10,000 rules "/p<i>/:id(\\w{20})", and 300 of them.
for n in 10000 300; do
  site "$DIR/vercel$n" 20
  python3 - "$DIR/vercel$n/vercel.json" "$n" <<'PY'
import json, sys
n = int(sys.argv[2])
rules = [{"source": f"/p{i}/:id(\\w{{20}})", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]} for i in range(n)]
rules.append({"source": "/p1/(.*)", "headers": [{"key": "X-Robots-Tag", "value": "noindex"}]})
json.dump({"headers": rules}, open(sys.argv[1], "w"), indent=1)
PY
  run "vercel.json, $n rules /p<i>/:id(\\w{20})" "$DIR/vercel$n"
done

# 2. 10,000 _redirects and 10,000 _headers rules over 20,000 pages, and none.
site "$DIR/many" 20000
cp "$DIR/many/sitemap.toml" "$DIR/many.toml"
run "20,000 pages, no rules" "$DIR/many"
python3 - "$DIR/many/public" <<'PY'
import sys
d = sys.argv[1]
with open(f"{d}/_redirects", "w") as f:
    for i in range(10000):
        f.write(f"/q{i}/*  /new/:splat  301!\n" if i % 2 else f"/p{i}/:slug  /new/:slug  301!\n")
with open(f"{d}/_headers", "w") as f:
    for i in range(10000):
        f.write(f"/p{i}/*\n  X-Robots-Tag: noindex\n" if i % 2 else f"/r{i}/:x/*.html\n  X-Robots-Tag: noindex\n")
PY
run "20,000 pages, 10,000 _redirects + 10,000 _headers rules" "$DIR/many"

# 3. one 4 MiB pattern line in _redirects, before a rule that applies.
site "$DIR/long" 20
{ printf '/%s  /x  301!\n' "$(head -c 4194000 /dev/zero | tr '\0' a)"; echo '/p1/*  /x  301!'; } >"$DIR/long/public/_redirects"
run "one 4 MiB pattern line" "$DIR/long"
