#!/usr/bin/env bash
# robots.txt matching cost: two sitemapgen binaries on one generated site whose
# robots.txt has RULES rules (Allow and Disallow, `*` and a final `$`), five interleaved
# runs each, the median wall time of each and their ratio; the two must list the same URLs.
#
#   bench/robots.sh OLD_BIN NEW_BIN [PAGES] [RULES]
set -euo pipefail
old=$1 new=$2 pages=${3:-20000} rules=${4:-400}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
python3 - "$dir/public" "$pages" "$rules" <<'PY'
import os, sys, random
root, pages, rules = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(7)
for i in range(pages):
    d = os.path.join(root, f"s{i % 50}", f"t{i % 7}")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, f"p{i}.html"), "w").write(f"<html><head><title>p{i}</title></head><body>p</body></html>")
lines = ["User-agent: *"]
for r in range(rules):
    kind = random.choice(["Disallow", "Disallow", "Allow"])
    shape = random.choice(["/s{a}/t{b}/p{c}", "/s{a}/*/p{c}$", "/*p{c}*.html", "/s{a}/t{b}/", "/x{c}/"])
    lines.append(f"{kind}: " + shape.format(a=random.randrange(60), b=random.randrange(9), c=random.randrange(pages)))
open(os.path.join(root, "robots.txt"), "w").write("\n".join(lines) + "\n")
PY
run() { local s e; s=$(date +%s.%N); "$1" build "$dir/public" --base-url https://example.org/ -o "$dir/out-$2.xml" -q; e=$(date +%s.%N); echo "$e - $s" | bc; }
: > "$dir/old.t"; : > "$dir/new.t"
for i in 1 2 3 4 5; do run "$old" old >> "$dir/old.t"; run "$new" new >> "$dir/new.t"; done
# The same URLs left out by both matchers.
cmp <(grep -o "<loc>[^<]*" "$dir/out-old.xml") <(grep -o "<loc>[^<]*" "$dir/out-new.xml") ||
  { echo "the two binaries list different URLs" >&2; exit 1; }
echo "listed: $(grep -c "<loc>" "$dir/out-new.xml") of $pages"
med() { sort -n "$1" | sed -n 3p; }
o=$(med "$dir/old.t") n=$(med "$dir/new.t")
echo "pages=$pages rules=$rules old=${o}s new=${n}s new/old=$(echo "scale=2; $n / $o" | bc)"
