#!/usr/bin/env bash
# The views as their readers read them: builds a small site (sections, pages in none,
# deep folders, non-ASCII and hostile titles, a noindex page, a page whose canonical is
# another) with html_sitemap (nested, dated), llms_txt and Markdown twins, then
#   - opens sitemap.html in headless Chromium (tests/views.mjs): one link per URL the
#     sitemap lists and no other, the folders as open <details>, no script element, the
#     left-out pages absent, and no axe-core accessibility violation, in the light and
#     the dark colour scheme;
#   - parses llms.txt with the llmstxt.org reference parser (PyPI `llms-txt`): the
#     site's name and description, one part per group, a link per listed URL;
#   - serves the site over HTTP and fetches each link of llms.txt, which names each
#     page's Markdown twin (its URL with .md appended): each is there, marked as ours.
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
page docs/guide/install/index.html 'Install'
page docs/guide/install/linux.html 'Install on Linux'
page docs/guide/install/macos.html 'Install on macOS'
page docs/api/v1/pages.html 'Pages API'
page misc/a.html 'Misc A'
page misc/b.html 'Misc B'
cat > "$work/sitemap.toml" <<TOML
base_url = "https://example.org/"
lastmod = "mtime"
html_sitemap = true
html_sitemap_dates = true
llms_txt = true
llms_markdown = true
llms_links = "markdown"
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
absent = ["Hidden draft", "Copied post", "alert(2)"]
# docs: guide (guide/install inside it), api/v1 folds; blog: none nested.
print(json.dumps({"urls": urls, "paths": paths, "absent": absent, "folders": 2}))
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
twins = sorted(u + "index.html.md" if u.endswith("/") else u + ".md" for u in expected["urls"])
if sorted(l["url"] for l in links) != twins:
    fail(f"links {[l['url'] for l in links]} are not the twins of the sitemap's {expected['urls']}")
if any(not l["title"] for l in links):
    fail("a link without a title")
print(f"llms.txt: {len(links)} links in {len(parsed.sections)} parts, read by llms_txt.parse_llms_file")
json.dump([l["url"] for l in links], open(sys.argv[2] + ".links", "w"))
PY

# Each twin fetched over HTTP at the URL llms.txt gives it.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
python3 - "$port" "$work/expected.json.links" <<'PY'
import json, sys, time, urllib.request
port, links = sys.argv[1], json.load(open(sys.argv[2]))
for attempt in range(50):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
        break
    except OSError:
        time.sleep(0.1)
for url in links:
    local = url.replace("https://example.org/", f"http://127.0.0.1:{port}/", 1)
    with urllib.request.urlopen(local, timeout=5) as response:
        text = response.read().decode("utf-8")
    if not text.startswith("<!-- Generated by sitemapgen from the built site:"):
        sys.exit(f"tests/views.sh: {url}: not a twin of ours:\n{text[:200]}")
    if "\nSource: " not in text:
        sys.exit(f"tests/views.sh: {url}: no Source line:\n{text[:200]}")
print(f"twins: {len(links)} fetched over HTTP at their llms.txt links")
PY
echo "tests/views.sh passed"
