#!/usr/bin/env bash
# The views as their readers read them: builds a small site (sections, pages in none,
# non-ASCII and hostile titles, a noindex page, a page whose canonical is another) with
# html_sitemap and llms_txt, then
#   - opens sitemap.html in headless Chromium (tests/views.mjs): one link per URL the
#     sitemap lists and no other, no script element, the left-out pages absent, and no
#     axe-core accessibility violation, in the light and the dark colour scheme;
#   - parses llms.txt with the llmstxt.org reference parser (PyPI `llms-txt`): the
#     site's name and description, one part per group, and the sitemap's URLs as links.
#
#   bash tests/views.sh                 needs chromium, node, npm, python3, a release build
#   SCREENSHOTS=1 bash tests/views.sh   also refreshes docs/sitemap-html*.png
#
# The npm and PyPI tools are installed once, pinned, into target/views-tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SITEMAPGEN:-$root/target/release/sitemapgen}
[ -x "$bin" ] || cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen
for tool in chromium node npm python3; do
  command -v "$tool" >/dev/null || { echo "tests/views.sh: install $tool" >&2; exit 2; }
done

tools=${VIEWS_TOOLS:-$root/target/views-tools}
if [ ! -f "$tools/.installed-1" ]; then
  mkdir -p "$tools"
  npm install --no-save --no-audit --no-fund --silent --prefix "$tools" \
    puppeteer-core@24.43.1 axe-core@4.14.1 >/dev/null
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet llms-txt==0.0.7
  touch "$tools/.installed-1"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
site=$work/public
page() { # page PATH TITLE-HTML [EXTRA-HEAD] [BODY]
  mkdir -p "$(dirname "$site/$1")"
  printf '<!doctype html><html lang="en"><head><title>%s</title>%s</head><body><main>%s</main></body></html>\n' \
    "$2" "${3:-}" "${4:-<p>text</p>}" > "$site/$1"
}
page index.html 'Café Ünïcode — Home' '<meta name="description" content="A small site &amp; its views.">'
page about/index.html 'Über uns'
page contact.html 'Contact'
for i in 1 2 3 4 5; do page "blog/post-$i/index.html" "Post $i: notes" "<meta name=\"description\" content=\"Post number $i.\">"; done
page blog/index.html 'Blog'
page blog/hostile/index.html '&lt;script&gt;alert(1)&lt;/script&gt; "q" &amp; '"'"'a'"'"' [x]' \
  '<meta name="description" content="&lt;img src=x onerror=alert(2)&gt;">'
page blog/hidden/index.html 'Hidden draft' '<meta name="robots" content="noindex">'
page blog/copy/index.html 'Copied post' '<link rel="canonical" href="https://example.org/blog/post-1/">'
page docs/index.html 'Docs'
page docs/guide/start.html 'Οδηγός — Руководство'
page docs/guide/next.html 'Next steps'
page misc/a.html 'Misc A'
page misc/b.html 'Misc B'
cat > "$work/sitemap.toml" <<TOML
base_url = "https://example.org/"
lastmod = "none"
html_sitemap = true
llms_txt = true
[[section]]
name = "blog"
match = "blog/**"
[[section]]
name = "docs"
match = "docs/**"
TOML
(cd "$work" && "$bin" build -q)

# The sitemap's URLs, from the index's children.
python3 - "$site" > "$work/expected.json" <<'PY'
import json, sys, pathlib, xml.etree.ElementTree as ET
ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
site = pathlib.Path(sys.argv[1])
index = ET.parse(site / "sitemap.xml").getroot()
urls = []
for loc in index.findall("s:sitemap/s:loc", ns):
    child = site / loc.text.removeprefix("https://example.org/")
    urls += [u.text for u in ET.parse(child).getroot().findall("s:url/s:loc", ns)]
paths = [u.removeprefix("https://example.org") for u in urls]
print(json.dumps({"urls": urls, "paths": paths, "absent": ["Hidden draft", "Copied post", "alert(2)"]}))
PY

VIEWS_TOOLS=$tools node "$root/tests/views.mjs" "$site/sitemap.html" "$work/expected.json"
if [ "${SCREENSHOTS:-0}" = 1 ]; then
  VIEWS_TOOLS=$tools VIEWS_SCREENSHOTS=$root/docs node "$root/tests/views.mjs" "$site/sitemap.html" "$work/expected.json" >/dev/null
  echo "screenshots in docs/"
fi

"$tools/venv/bin/python" - "$site/llms.txt" "$work/expected.json" <<'PY'
import json, sys
from llms_txt import parse_llms_file
text = open(sys.argv[1], encoding="utf-8").read()
expected = json.load(open(sys.argv[2]))
parsed = parse_llms_file(text)
def fail(message):
    sys.exit(f"tests/views.sh: llms.txt: {message}\n{text}")
if parsed.title != "Café Ünïcode — Home":
    fail(f"title {parsed.title!r}")
if parsed.summary != "A small site & its views.":
    fail(f"summary {parsed.summary!r}")
if list(parsed.sections) != ["blog", "docs", "Other pages"]:
    fail(f"sections {list(parsed.sections)}")
links = [link for part in parsed.sections.values() for link in part]
if sorted(l["url"] for l in links) != sorted(expected["urls"]):
    fail(f"links {[l['url'] for l in links]} are not the sitemap's {expected['urls']}")
if any(not l["title"] for l in links):
    fail("a link without a title")
print(f"llms.txt: {len(links)} links in {len(parsed.sections)} parts, read by llms_txt.parse_llms_file")
PY
echo "tests/views.sh passed"
