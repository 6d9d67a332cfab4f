#!/usr/bin/env bash
# Whether two sitemapgen binaries write byte-identical sitemaps, index and children:
# on the example site with sitemap.toml.example, on every generator fixture under
# tests/fixtures (configured by `init`, as a user would), and on the given built trees
# (bench/run.sh's, with its command line); the views, robots.txt's lines, two shards'
# manifests and their merge, written into a copy of each site; and with every feature on (the "content"
# source with a previous state, images, a section) on the example site, the dates
# fixtures and the trees. A speed-up must not change a byte (the state files' fingerprints
# aside, which the "content" runs compare with their own build's).
#
#   bench/identical.sh OLD_BIN NEW_BIN [PUBLIC_DIR...]
#
# Prints one line per site; exits 1 if any differs.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/identical.sh OLD_BIN NEW_BIN [PUBLIC_DIR...]" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
contents=()

# compare NAME DIR ARGS...: builds in DIR with each binary into its own folder, then cmp.
compare() {
  local name=$1 dir=$2
  shift 2
  local bin which
  for which in old new; do
    bin=${!which}
    mkdir -p "$work/out/$name/$which"
    (cd "$dir" && "$bin" build "$@" -o "$work/out/$name/$which/sitemap.xml" -q 2>/dev/null) ||
      { echo "FAILED     $name: $which: (cd $dir && $bin build $*)" >&2; status=1; return; }
  done
  if diff -r "$work/out/$name/old" "$work/out/$name/new" >/dev/null; then
    echo "identical  $name ($(ls "$work/out/$name/new" | wc -l) files)"
  else
    echo "DIFFERENT  $name: diff -r $work/out/$name/old $work/out/$name/new" >&2
    status=1
  fi
}

cp -r "$root/example-site" "$root/sitemap.toml.example" "$work/"
(cd "$work" && mv sitemap.toml.example sitemap.toml)
compare example-site "$work"
# Every field an entry can carry, split into sections and small files, as text too.
mkdir -p "$work/extras"
cp -r "$root/example-site" "$work/extras/"
sed -e 's/^max_urls_per_file = .*/max_urls_per_file = 2/' -e 's/^\[defaults\]/images = true\n[defaults]/' \
  "$root/sitemap.toml.example" > "$work/extras/sitemap.toml"
printf '[[section]]\nname = "blog"\nmatch = "blog/**"\n' >> "$work/extras/sitemap.toml"
compare example-extras "$work/extras"
sed -e 's/^max_urls_per_file = .*/max_urls_per_file = 2/' -e 's/^format = .*/format = "txt"/' \
  "$root/sitemap.toml.example" > "$work/extras/sitemap.toml"
compare example-txt "$work/extras"
# base_of OUTPUT: the origin a dates fixture was built for: its sitemap's first URL's, or
# for a generator that writes no sitemap (SvelteKit), the one its home page names
# canonical; empty when neither says.
base_of() {
  local base
  base=$(cat "$1"sitemap*.xml 2>/dev/null | grep -o '<loc>https\?://[^/<]*' | head -1 | sed 's/<loc>//' || true)
  [ -n "$base" ] || base=$(grep -o 'rel="canonical" href="https\?://[^/"]*' "$1"index.html 2>/dev/null \
    | head -1 | sed 's/.*href="//' || true)
  echo "$base"
}
# The dates fixtures: each generator's output (its project is a git bundle beside it).
for output in "$root"/tests/fixtures/dates/*/output/; do
  name=dates-$(basename "$(dirname "$output")")
  mkdir -p "$work/fixtures/$name" && cp -r "$output". "$work/fixtures/$name"
  base=$(base_of "$output")
  compare "$name" "$work/fixtures/$name" "$work/fixtures/$name" --base-url "${base:-https://example.org}/"
done
for fixture in "$root"/tests/fixtures/*/; do
  name=$(basename "$fixture")
  [ "$name" != dates ] || continue
  copy=$work/fixtures/$name
  mkdir -p "$copy" && cp -r "$fixture". "$copy"
  # A generator's project (its source beside its output, or in source/) is set up by
  # `init`, as a user would; a folder of pages is the site itself.
  project=$copy
  [ -d "$copy/source" ] && [ ! -f "$copy/package.json" ] && project=$copy/source
  [ -n "$(find "$copy" -name '*.htm*' -print -quit)" ] || continue
  if (cd "$project" && "$new" init >/dev/null 2>&1) && grep -q '^base_url' "$project/sitemap.toml"; then
    # Hugo's and Jekyll's output is built beside source/, not in it.
    [ "$project" = "$copy" ] || mv "$project/sitemap.toml" "$copy/"
    compare "$name" "$copy"
    site=$copy/$(sed -n 's/^public_dir = "\(.*\)"$/\1/p' "$copy/sitemap.toml")
    base=$(sed -n 's/^base_url = "\(.*\)"$/\1/p' "$copy/sitemap.toml")
    contents+=("$name" "$site" "$base")
  else
    rm -f "$project/sitemap.toml"
    site=$copy
    for d in public _site; do [ -d "$copy/$d" ] && site=$copy/$d; done
    # The host the site was built for, from the generator's own sitemap if it has one.
    base=$(grep -o -m1 '<loc>https\?://[^/<]*' "$site/sitemap.xml" 2>/dev/null | sed 's/<loc>//' || true)
    compare "$name" "$copy" "$site" --base-url "${base:-https://example.org}/"
    contents+=("$name" "$site" "${base:-https://example.org}/")
  fi
done
# compare_content NAME PUBLIC_DIR BASE_URL: with every feature (the "content" source and
# its state, images, a section), a second run against a previous state, which each
# build's first run wrote and this edits alike: some pages changed, some new, one gone,
# some recorded earlier or undated. Sitemaps, change lists and state files must match,
# the states' fingerprints aside (a build may hash otherwise: both compare their own).
compare_content() {
  local name=$1 site=$2 base=$3 which bin
  local dir=$work/content/$name
  mkdir -p "$dir"
  for which in old new; do
    bin=${!which}
    for run in first second; do
      cat > "$dir/$which-$run.toml" <<TOML
base_url = "$base"
public_dir = "$site"
lastmod = ["content", "meta", "mtime"]
images = true
state_file = "$dir/$which-$run/state.json"
[[section]]
name = "first"
match = "*/**"
TOML
    done
    mkdir -p "$dir/$which-first" "$dir/$which-second"
    "$bin" build --config "$dir/$which-first.toml" -o "$dir/$which-first/sitemap.xml" -q 2>/dev/null ||
      { echo "FAILED     content-$name: $which, first run" >&2; status=1; return; }
    python3 - "$dir/$which-first/state.json" <<'PY'
import json, sys
path = sys.argv[1]
state = json.load(open(path))
pages = state["pages"]
for i, url in enumerate(sorted(pages)):
    record = pages[url]
    if i % 7 == 1:
        fp = record["fingerprint"]
        record["fingerprint"] = ("0" if fp[0] != "0" else "1") + fp[1:]
    elif i % 11 == 2:
        del pages[url]
    elif i % 13 == 3:
        record["lastmod"] = "2020-01-02T03:04:05Z"
    elif i % 17 == 4:
        del record["lastmod"]
pages[next(iter(sorted(pages)), "https://example.org/") + "gone/"] = {"fingerprint": "0" * 32}
json.dump(state, open(path, "w"), indent=2)
PY
    cp "$dir/$which-first/state.json" "$dir/$which-second/"
    "$bin" build --config "$dir/$which-second.toml" -o "$dir/$which-second/sitemap.xml" -q 2>/dev/null ||
      { echo "FAILED     content-$name: $which, second run" >&2; status=1; return; }
    # The change list says when it was built; the fingerprints (and so the state's format
    # version) are the build's own.
    sed -i 's/"built_at": "[^"]*"/"built_at": ""/' "$dir/$which-second/.sitemap-changes.json"
    sed -i -e 's/"fingerprint": "[0-9a-f]*"/"fingerprint": ""/' \
      -e 's/"sitemapgen_state": [0-9]*/"sitemapgen_state": 0/' "$dir/$which-second/state.json"
  done
  if diff -r "$dir/old-second" "$dir/new-second" >/dev/null; then
    echo "identical  content-$name ($(ls -A "$dir/new-second" | wc -l) files)"
  else
    echo "DIFFERENT  content-$name: diff -r $dir/old-second $dir/new-second" >&2
    status=1
  fi
}
# compare_outputs NAME PUBLIC_DIR BASE_URL: every file a build writes into the site, on a
# copy per binary: the views (sitemap.html, llms.txt, llms-full.txt, the Markdown twins,
# each section's llms.txt) and robots.txt's lines; then the site as two shards (the
# pages under its largest folder, and the rest), their manifests, side files and change
# lists, and their merge. The change lists say when they were built.
compare_outputs() {
  local name=$1 site=$2 base=$3 which bin first
  local dir=$work/outputs/$name
  first=$(cd "$site" && find . -mindepth 2 -name '*.htm*' -printf '%P\n' | cut -d/ -f1 | sort | uniq -c |
    sort -k1,1nr -k2 | awk 'NR == 1 { print $2 }')
  [ -n "$first" ] || first=none
  # robots.txt is at the root of a host: a base URL with a path leaves it.
  local robots=leave
  [[ $base =~ ^https?://[^/]+/?$ ]] && robots=update
  for which in old new; do
    bin=${!which}
    mkdir -p "$dir/$which" && cp -a "$site/." "$dir/$which/"
    cat > "$dir/$which.toml" <<TOML
base_url = "$base"
public_dir = "$dir/$which"
robots_txt = "$robots"
changes = true
state_file = "$dir/$which-state.json"
html_sitemap = true
html_sitemap_dates = true
llms_txt = true
llms_full_txt = true
llms_markdown = true
llms_txt_per_section = true
[[section]]
name = "first"
match = "$first/**"
TOML
    "$bin" build --config "$dir/$which.toml" -q 2>>"$dir/$which.log" &&
      "$bin" build "$dir/$which/$first" --base-url "$base$first/" --shard first -q 2>>"$dir/$which.log" &&
      sed "s|^\[\[section|exclude = [\"$first/**\"]\n&|" "$dir/$which.toml" > "$dir/$which-rest.toml" &&
      "$bin" build --config "$dir/$which-rest.toml" --shard rest -q 2>>"$dir/$which.log" &&
      (cd "$dir/$which" && "$bin" merge sitemap-rest.manifest.json "$first/sitemap-first.manifest.json" \
        --base-url "$base" -o . -q 2>>"$dir/$which.log") ||
      { echo "FAILED     outputs-$name: $which: $(tail -1 "$dir/$which.log")" >&2; status=1; return; }
    find "$dir/$which" -name '.sitemap-changes*.json' -exec sed -i 's/"built_at": "[^"]*"/"built_at": ""/' {} +
  done
  if diff -r "$dir/old" "$dir/new" >/dev/null; then
    echo "identical  outputs-$name ($(find "$dir/new" -newer "$dir/old.toml" -type f | wc -l) files written)"
  else
    echo "DIFFERENT  outputs-$name: diff -r $dir/old $dir/new" >&2
    status=1
  fi
}
compare_outputs example-site "$work/example-site" https://example.com/
for ((i = 0; i < ${#contents[@]}; i += 3)); do
  compare_outputs "${contents[@]:i:3}"
done
compare_content example-site "$work/example-site" https://example.com/
for ((i = 0; i < ${#contents[@]}; i += 3)); do
  compare_content "${contents[@]:i:3}"
done
for output in "$root"/tests/fixtures/dates/*/output/; do
  name=dates-$(basename "$(dirname "$output")")
  base=$(base_of "$output")
  compare_content "$name" "$work/fixtures/$name" "${base:-https://example.org}/"
done
for public in "$@"; do
  compare "tree-$(basename "$(dirname "$public")")" "$public" "$public" --base-url https://example.org/
  compare_content "tree-$(basename "$(dirname "$public")")" "$public" https://example.org/
done
exit $status
