#!/usr/bin/env bash
# The bundled stylesheet as a browser shows it: builds a small site with
# stylesheet = "default" (sections, so an index and children; hreflang alternates;
# images), serves it on 127.0.0.1 (browsers apply XSLT only over http), opens the index
# and a child in headless Chromium and checks the rendered DOM has one table row per
# child and per URL, counted from the XML itself.
#
#   bash tests/stylesheet.sh              needs chromium, python3, xmllint, a release build
#   SCREENSHOTS=1 bash tests/stylesheet.sh   also refreshes docs/stylesheet-*.png
#
# Chromium 142 and later show a banner saying XSLT is being removed; the screenshots are
# taken with it hidden (--disable-features=GenerateXSLTWarningBanner), the checks with it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${SITEMAPGEN:-$root/target/release/sitemapgen}
[ -x "$bin" ] || cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin sitemapgen
command -v chromium >/dev/null || { echo "tests/stylesheet.sh: install chromium" >&2; exit 2; }
xmllint --noout "$root/src/stylesheet.xsl"

work=$(mktemp -d)
server=
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
site=$work/public
mkdir -p "$site/blog" "$site/docs/guide"
page() { # page PATH TITLE [EXTRA-HEAD] [BODY]
  mkdir -p "$(dirname "$site/$1")"
  printf '<!doctype html><html lang="en"><head><title>%s</title>%s</head><body><main>%s</main></body></html>\n' \
    "$2" "${3:-}" "${4:-<p>text</p>}" > "$site/$1"
}
page index.html Home '<link rel="alternate" hreflang="en" href="/"><link rel="alternate" hreflang="de" href="/de/">' \
  '<img src="/img/hero.webp"><img src="/img/team.jpg">'
page de/index.html Start '<link rel="alternate" hreflang="en" href="/"><link rel="alternate" hreflang="de" href="/de/">'
page about/index.html About
for i in $(seq 1 12); do page "blog/post-$i/index.html" "Post $i" '' "<img src=\"/img/post-$i.png\">"; done
for i in $(seq 1 5); do page "docs/guide/step-$i.html" "Step $i"; done
cat > "$work/sitemap.toml" <<TOML
base_url = "http://127.0.0.1:$port/"
stylesheet = "default"
images = true
lastmod = "mtime"
[defaults]
changefreq = "weekly"
[[rule]]
match = "index.html"
priority = 1.0
[[section]]
name = "blog"
match = "blog/**"
[[section]]
name = "docs"
match = "docs/**"
TOML
touch -d 2026-11-01T10:00:00Z $(find "$site" -name '*.html')
(cd "$work" && "$bin" build -q)
(cd "$site" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/sitemap.xml" && break; sleep 0.1; done

browse() { # browse MODE URL [FLAGS...]: MODE is --dump-dom or --screenshot=FILE
  local mode=$1 url=$2; shift 2
  timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --no-first-run --user-data-dir="$work/profile" "$@" "$mode" "$url" 2>/dev/null
}

# rows NAME XML: the rendered view of XML has a table with one row per entry.
rows() {
  local name=$1 file=$2 want got dom
  want=$(grep -c '<loc>' "$site/$file")
  dom=$(browse --dump-dom "http://127.0.0.1:$port/$file")
  got=$(grep -o '<td class="url">' <<<"$dom" | wc -l)
  if ! grep -q '<table>' <<<"$dom" || [ "$got" != "$want" ]; then
    echo "tests/stylesheet.sh: $name: $got table rows in the rendered page, want $want (one per <loc>)" >&2
    exit 1
  fi
  echo "$name: $got rows for $want entries"
}
rows index sitemap.xml
children=$(grep -o "http://127.0.0.1:$port/[^<]*" "$site/sitemap.xml" | sed "s|http://127.0.0.1:$port/||")
for child in $children; do rows "$child" "$child"; done
blog=$(grep -m1 -o 'sitemap-blog-[^<]*' "$site/sitemap.xml")
rest=$(grep -o 'sitemap-1-[^<]*' "$site/sitemap.xml")
dom=$(browse --dump-dom "http://127.0.0.1:$port/$rest")
for want in '<th scope="col">Languages</th>' '<span class="lang">de</span>' '<th scope="col" class="num">Images</th>' '2 images'; do
  grep -qF "$want" <<<"$dom" || { echo "tests/stylesheet.sh: $rest: no '$want' in the rendered page" >&2; exit 1; }
done

if [ "${SCREENSHOTS:-0}" = 1 ]; then
  shot() { browse "--screenshot=$root/docs/$1" "http://127.0.0.1:$port/$2" \
    --window-size=1100,560 --disable-features=GenerateXSLTWarningBanner "${@:3}" >/dev/null; }
  mkdir -p "$root/docs"
  shot stylesheet-index.png sitemap.xml
  shot stylesheet-sitemap.png "$rest"
  shot stylesheet-blog-dark.png "$blog" --force-dark-mode --blink-settings=preferredColorScheme=0
  echo "screenshots in docs/"
fi
echo "tests/stylesheet.sh passed"
