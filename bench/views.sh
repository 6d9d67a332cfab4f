#!/usr/bin/env bash
# What the views cost at scale:
#   1. sitemap.html of a large site: its size, and how long headless Chromium takes to
#      open it (first paint, load, and the page fully laid out), against a floor in the
#      same run: the same links as one flat list (no folders, no dates), which is what a
#      browser must lay out at the least to show every link. Folders start closed past
#      2,000 pages; the same page with every folder open is measured too.
#   2. Markdown twins: the build with llms_txt + llms_markdown (the twins, and the walk
#      that finds stale ones) against the build with llms_txt alone, in interleaved rounds.
#
#   bench/views.sh [PAGES]            default: 200000
#   BENCH_DIR=/tmp/sitemapgen-bench   where the tree is generated (and kept for reruns)
#   RUNS=5                            rounds
#
# The tree is examples/gen-site.rs's; the binary is the glibc build users download
# (cargo-zigbuild against glibc 2.17, --profile dist). Chromium, node and npm are needed;
# puppeteer-core is the one tests/views.sh installs into target/views-tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pages=${1:-200000}
runs=${RUNS:-5}
dir=${BENCH_DIR:-/tmp/sitemapgen-bench}/$pages
command -v cargo-zigbuild >/dev/null || { echo "bench/views.sh: put cargo-zigbuild on PATH (pip install $(grep -o 'ziglang==[^ ]* cargo-zigbuild==[^ ]*' "$root/.github/build-setup.yml"))" >&2; exit 2; }
for tool in chromium node npm; do
  command -v "$tool" >/dev/null || { echo "bench/views.sh: install $tool" >&2; exit 2; }
done
tools=${VIEWS_TOOLS:-$root/target/views-tools}
[ -d "$tools/node_modules/puppeteer-core" ] ||
  npm install --no-save --no-audit --no-fund --silent --prefix "$tools" puppeteer-core@24.43.1 >/dev/null
gnu=x86_64-unknown-linux-gnu
target_dir=${CARGO_TARGET_DIR:-$root/target}
"$root/.github/cargo-glibc.sh" build --profile dist --target "$gnu" --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen --example gen-site
bin=$target_dir/$gnu/dist/sitemapgen
[ -d "$dir/public" ] || "$target_dir/$gnu/dist/examples/gen-site" --pages "$pages" "$dir/public"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The views are written into the tree; a copy of the config per case, the tree shared.
config() { printf 'base_url = "https://example.org/"\npublic_dir = "%s"\nlastmod = "mtime"\n%s' "$dir/public" "$1" > "$work/$2.toml"; }
config $'html_sitemap = true\nhtml_sitemap_dates = true\n' html
config $'llms_txt = true\n' llms
config $'llms_txt = true\nllms_markdown = true\n' twins
run() { "$bin" -c "$work/$1.toml" -o "$work/sitemap.xml" --json; }

# 1. sitemap.html: the page as written, the same with every folder open, and the floor.
run html > /dev/null
cp "$dir/public/sitemap.html" "$work/nested.html"
sed 's/<details>/<details open>/' "$work/nested.html" > "$work/open.html"
python3 - "$work/nested.html" "$work/flat.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
head, body = page.split("<main>", 1)
links = re.findall(r'<li><a href="[^"]*">.*?</a>', body)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write(head + "<main>\n<ul>\n")
    out.writelines(link + "</li>\n" for link in links)
    out.write("</ul>\n</main>\n</body>\n</html>\n")
PY
VIEWS_TOOLS=$tools node - "$work" "$runs" "$pages" <<'JS'
const { createRequire } = require('node:module');
const { statSync } = require('node:fs');
const req = createRequire(`${process.env.VIEWS_TOOLS}/`);
const puppeteer = req('puppeteer-core');
const [work, runs, pages] = process.argv.slice(2);
const cases = ['flat', 'nested', 'open'];
(async () => {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--allow-file-access-from-files'],
  });
  const times = Object.fromEntries(cases.map((c) => [c, []]));
  for (let round = 0; round < Number(runs) + 1; round++) {
    for (const name of cases) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1000, height: 800 });
      const start = Date.now();
      await page.goto(`file://${work}/${name}.html`, { waitUntil: 'load', timeout: 600000 });
      // Layout of the whole page, forced: what scrolling to the end needs.
      const laidOut = await page.evaluate(() => { document.body.getBoundingClientRect(); return document.body.scrollHeight; });
      const total = Date.now() - start;
      const paint = await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const nav = performance.getEntriesByType('navigation')[0];
        return { fcp: fcp ? fcp.startTime : NaN, load: nav.loadEventEnd, height: document.body.scrollHeight };
      });
      if (round > 0) times[name].push({ total, ...paint, laidOut });
      await page.close();
    }
  }
  await browser.close();
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
  const rows = {};
  for (const name of cases) {
    rows[name] = {
      bytes: statSync(`${work}/${name}.html`).size,
      fcp: median(times[name].map((t) => t.fcp)),
      load: median(times[name].map((t) => t.load)),
      total: median(times[name].map((t) => t.total)),
      height: times[name][0].height,
    };
  }
  console.log(`sitemap.html at ${pages} pages, headless Chromium, median of ${runs} rounds:`);
  for (const name of cases) {
    const r = rows[name];
    const label = { flat: 'floor: flat list of the links', nested: 'as written (folders closed)', open: 'every folder open' }[name];
    console.log(`  ${label.padEnd(32)} ${(r.bytes / 1048576).toFixed(1).padStart(6)} MiB  first paint ${r.fcp.toFixed(0).padStart(6)} ms  load ${r.load.toFixed(0).padStart(6)} ms  laid out ${String(r.total).padStart(6)} ms  (${(r.total / rows.flat.total).toFixed(2)}x the floor)`);
  }
})().catch((e) => { console.error(e); process.exit(1); });
JS

# 2. The twins: the build with them against the build without, interleaved.
run twins > /dev/null # warm-up; twins in place, as on every later build
for round in $(seq "$runs"); do
  run llms > "$work/llms-$round.json"
  run twins > "$work/twins-$round.json"
done
python3 - "$work" "$runs" "$pages" <<'PY'
import json, statistics, sys
work, runs, pages = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def total(name, r):
    d = json.load(open(f"{work}/{name}-{r}.json"))["durations_ms"]
    return d["collect"] + d["write"]
llms = [total("llms", r) for r in range(1, runs + 1)]
twins = [total("twins", r) for r in range(1, runs + 1)]
ratios = sorted(t / l for t, l in zip(twins, llms))
print(f"Markdown twins at {pages} pages (300 twins, the stale-twin walk), median of {runs} rounds:")
print(f"  llms_txt {statistics.median(llms):.0f} ms, with llms_markdown {statistics.median(twins):.0f} ms: {statistics.median(ratios):.3f}x (rounds {ratios[0]:.2f}-{ratios[-1]:.2f}x)")
PY
# The views were written into the shared tree: take them away again.
rm -f "$dir/public/sitemap.html" "$dir/public/llms.txt"
find "$dir/public" -name '*.md' -exec grep -l -m1 '^<!-- Generated by sitemapgen' {} + 2>/dev/null | xargs -r rm -f
