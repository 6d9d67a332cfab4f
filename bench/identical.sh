#!/usr/bin/env bash
# Whether two sitemapgen binaries write byte-identical sitemaps, index and children:
# on the example site with sitemap.toml.example, on every generator fixture under
# tests/fixtures (configured by `init`, as a user would), and on the given built trees
# (bench/run.sh's, with its command line). A speed-up must not change a byte.
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
# The dates fixtures: each generator's output (its project is a git bundle beside it).
for output in "$root"/tests/fixtures/dates/*/output/; do
  name=dates-$(basename "$(dirname "$output")")
  mkdir -p "$work/fixtures/$name" && cp -r "$output". "$work/fixtures/$name"
  base=$(cat "$output"sitemap*.xml 2>/dev/null | grep -o '<loc>https\?://[^/<]*' | head -1 | sed 's/<loc>//' || true)
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
  else
    rm -f "$project/sitemap.toml"
    site=$copy
    for d in public _site; do [ -d "$copy/$d" ] && site=$copy/$d; done
    # The host the site was built for, from the generator's own sitemap if it has one.
    base=$(grep -o -m1 '<loc>https\?://[^/<]*' "$site/sitemap.xml" 2>/dev/null | sed 's/<loc>//' || true)
    compare "$name" "$copy" "$site" --base-url "${base:-https://example.org}/"
  fi
done
for public in "$@"; do
  compare "tree-$(basename "$(dirname "$public")")" "$public" "$public" --base-url https://example.org/
done
exit $status
