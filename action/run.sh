#!/usr/bin/env bash
# The Action's run step: `sitemapgen build --check --json` (with INPUT_SHARD, one shard's
# build), the JSON kept for the step's outputs (sitemap, urls) and its warnings shown as
# annotations; with command `merge`, `sitemapgen merge --json` over the shards'
# manifests, then `sitemapgen check` on the index; with command `submit` or `status`,
# `sitemapgen submit` or `sitemapgen status` after the deploy; or, with command
# `check-live`, `sitemapgen check --live --json` on the deployed sitemap, each finding an
# annotation.
#
# Inputs come from the environment (never pasted into a script): INPUT_CONFIG,
# INPUT_BASE_URL, INPUT_PUBLIC_DIR, INPUT_ARGS (split on spaces), INPUT_COMMAND,
# INPUT_INDEXNOW_KEY, INPUT_GOOGLE_CREDENTIALS, INPUT_BING_API_KEY, INPUT_SHARD,
# INPUT_MANIFESTS (split on spaces), INPUT_SITEMAP_URL; GITHUB_OUTPUT. Secrets become the
# environment variables sitemapgen reads, never arguments (which `ps` shows).
set -euo pipefail

if [ -n "${INPUT_INDEXNOW_KEY:-}" ]; then export INDEXNOW_KEY="$INPUT_INDEXNOW_KEY"; fi
if [ -n "${INPUT_GOOGLE_CREDENTIALS:-}" ]; then export SITEMAPGEN_GOOGLE_CREDENTIALS="$INPUT_GOOGLE_CREDENTIALS"; fi
if [ -n "${INPUT_BING_API_KEY:-}" ]; then export BING_WEBMASTER_API_KEY="$INPUT_BING_API_KEY"; fi
read -r -a extra <<< "${INPUT_ARGS:-}"
mode=${INPUT_COMMAND:-build}
case "$mode" in
  build|merge|check-live) ;;
  submit|status)
    cmd=(sitemapgen "$mode")
    if [ -n "${INPUT_CONFIG:-}" ]; then cmd+=(--config "$INPUT_CONFIG"); fi
    if [ -n "${INPUT_BASE_URL:-}" ]; then cmd+=(--base-url "$INPUT_BASE_URL"); fi
    exec "${cmd[@]}" "${extra[@]}"
    ;;
  *) echo "::error::sitemapgen: command must be build, merge, submit, status or check-live, not '${INPUT_COMMAND//[$'\r\n']/ }'"; exit 2 ;;
esac

# The step's outputs and annotations are read from the JSON with jq: without it they
# would be empty and the warnings lost behind a green step.
command -v jq >/dev/null || { echo "::error::sitemapgen: jq is not installed on this runner; the action reads sitemapgen's JSON with it (GitHub-hosted runners have it; install it with apt-get install -y jq, apk add jq or brew install jq)"; exit 2; }

escape='gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A")'

if [ "$mode" = check-live ]; then
  url=${INPUT_SITEMAP_URL:-}
  if [ -z "$url" ] && [ -n "${INPUT_BASE_URL:-}" ]; then url="${INPUT_BASE_URL%/}/sitemap.xml"; fi
  [ -n "$url" ] || { echo "::error::sitemapgen: check-live needs sitemap-url (or base-url, whose sitemap.xml is checked)"; exit 2; }
  cmd=(sitemapgen check --live "$url" --json)
  if [ -n "${INPUT_CONFIG:-}" ]; then cmd+=(--config "$INPUT_CONFIG"); fi
  json=$(mktemp)
  status=0
  "${cmd[@]}" "${extra[@]}" > "$json" || status=$?
  # Each finding an annotation, its values escaped as workflow commands require.
  jq -r "(.problems // [])[] | \"::\" + .severity + \"::sitemapgen: \" + (.file + \":\" + (.line | tostring) + \": \" + .url + \" \" + .message | $escape)" "$json" 2>/dev/null || true
  urls=$(jq -r '.urls // empty' "$json" 2>/dev/null || true)
  if [ -n "$urls" ]; then echo "urls=$urls" >> "$GITHUB_OUTPUT"; fi
  summary=$(jq -r '"checked \(.urls) URLs live (\(.fetched) fetched): \(.errors) errors, \(.warnings) warnings"' "$json" 2>/dev/null || true)
  if [ "$status" -ne 0 ]; then
    echo "::error::sitemapgen: check-live of $url failed${summary:+: $summary}"
    exit "$status"
  fi
  echo "sitemapgen: $summary"
  exit 0
fi

if [ "$mode" = merge ]; then
  dir=${INPUT_PUBLIC_DIR:-}
  [ -n "$dir" ] || { echo "::error::sitemapgen: merge needs public-dir, the directory holding every shard's files"; exit 2; }
  read -r -a manifests <<< "${INPUT_MANIFESTS:-}"
  if [ ${#manifests[@]} -eq 0 ]; then
    shopt -s globstar nullglob
    manifests=("$dir"/**/sitemap*-*.manifest.json)
    shopt -u globstar nullglob
  fi
  [ ${#manifests[@]} -gt 0 ] || { echo "::error::sitemapgen: no sitemap-*.manifest.json under $dir; download every shard's output there first, or give manifests"; exit 2; }
  cmd=(sitemapgen merge --json -o "$dir")
else
  cmd=(sitemapgen build --check --json)
  if [ -n "${INPUT_SHARD:-}" ]; then cmd+=(--shard "$INPUT_SHARD"); fi
  if [ -n "${INPUT_PUBLIC_DIR:-}" ]; then cmd+=("$INPUT_PUBLIC_DIR"); fi
fi
if [ -n "${INPUT_CONFIG:-}" ]; then cmd+=(--config "$INPUT_CONFIG"); fi
if [ -n "${INPUT_BASE_URL:-}" ]; then cmd+=(--base-url "$INPUT_BASE_URL"); fi
if [ "$mode" = merge ]; then cmd+=("${manifests[@]}"); fi

json=$(mktemp)
status=0
"${cmd[@]}" "${extra[@]}" > "$json" || status=$?

# One JSON document on stdout, success or not.
# Values from the site (file names in warnings) are escaped as workflow commands
# require, so none can end an annotation and start a command of its own.
field() { jq -r "($1 // empty) | tostring | $escape" "$json" 2>/dev/null || true; }
if [ "$mode" = merge ]; then sitemap=$(field '.indexes[0]'); else sitemap=$(field .sitemap); fi
urls=$(field .urls)
jq -r "(.warnings // [])[] | tostring | $escape | \"::warning::sitemapgen: \" + ." "$json" 2>/dev/null || true
if [ "$status" -ne 0 ]; then
  message=$(field .error)
  echo "::error::sitemapgen: ${message:-exit $status}"
  exit "$status"
fi
if [ -z "$sitemap" ] || [ -z "$urls" ]; then
  echo "::error::sitemapgen: its JSON gave no sitemap or URL count: $(head -c 300 "$json" | tr '\r\n' '  ')"
  exit 1
fi
if [ "$mode" = merge ]; then
  # The index and every shard's sitemaps it names, as build --check checks its own.
  sitemapgen check -q "$sitemap" || { echo "::error::sitemapgen: the merged index $sitemap fails its check (above)"; exit 1; }
fi
echo "sitemap=$sitemap" >> "$GITHUB_OUTPUT"
echo "urls=$urls" >> "$GITHUB_OUTPUT"
echo "sitemapgen: wrote $sitemap with $urls URLs"
