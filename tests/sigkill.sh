#!/usr/bin/env bash
# SIGKILL while a large split sitemap set is being replaced, at random moments of the
# write, ROUNDS times; after every kill the published set must be exactly the previous
# one or exactly the new one, byte for byte.
#
#   tests/sigkill.sh [PAGES] [ROUNDS] [STRACE]   (defaults 500000, 50, yes)
#
# .ci/run runs `tests/sigkill.sh 500000 50 no` and `tests/sigkill.sh 20000 0 yes`: under
# strace every system call stops the run, which makes 500,000 pages slow, and the
# renames and unlinks are the same calls for a smaller site.
#
# Two configurations, A and B, write different sets for the same pages (other base URL,
# other split size: 10 vs 12 children). Each is first written whole, validated with
# xmllint against the official schemas and with `sitemapgen check --strict`, and its
# files' SHA-256 sums kept as the reference. Then every round starts a run of the other
# configuration, waits for its first temporary file (the write has begun), sleeps a
# random time up to the write's measured length and sends SIGKILL. Checked after
# each round:
#   - the index and every child it names equal reference A or B byte for byte (so no
#     truncated file and no missing child), and it is the previous set or the new one;
#   - no temporary file of an earlier round is left (each run sweeps them).
# Then, with STRACE=yes, the moments that matter are hit on purpose: strace injects
# SIGKILL at the k-th rename (k = 1, 2, ... until a run gets through), then at the k-th
# unlink, with the same checks.
# At the end one run is left to finish, and the directory must hold the pages, the index
# and its children only.
set -euo pipefail
# The runs here are not a CI build of a site: without this, CI's own CI=true makes
# every run warn that its pages are dated by their mtimes, into CI's log.
unset CI

PAGES=${1:-500000}
ROUNDS=${2:-50}
STRACE=${3:-yes}
cd "$(dirname "$0")/.."
BIN=${SITEMAPGEN:-target/release/sitemapgen}
SCHEMAS=${SITEMAPGEN_SCHEMAS:-../shared/schemas}
[ -x "$BIN" ] || cargo build --release --quiet
command -v xmllint >/dev/null || { echo "sigkill: xmllint is needed (apt-get install libxml2-utils)" >&2; exit 1; }

# Where the site goes: $SIGKILL_DIR, else /dev/shm when it has 2 GiB free (creating a
# file costs ~0.7 ms on some CI disks, which would make 500,000 pages take minutes; a
# SIGKILL cuts a run short the same way on any file system), else $TMPDIR.
dir=${SIGKILL_DIR:-}
if [ -z "$dir" ] && [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 2097152 ]; then
  dir=/dev/shm
fi
WORK=$(mktemp -d "${dir:-${TMPDIR:-/tmp}}/sitemapgen-sigkill.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PUB=$WORK/public
fail() { echo "sigkill: FAIL (round ${round:-setup}): $*" >&2; exit 1; }

# Empty pages: the head reader has nothing to read, so the run's time is the walk and
# the write, and the write (of ~50 MB) is a large share of it.
echo "sigkill: generating $PAGES pages in $PUB"
dirs=$(( (PAGES + 999) / 1000 ))
for ((d = 0; d < dirs; d++)); do
  n=$(( PAGES - d * 1000 < 1000 ? PAGES - d * 1000 : 1000 ))
  mkdir -p "$PUB/s$d"
  # One date per directory, so lastmod varies as on a real site.
  (cd "$PUB/s$d" && eval "touch -d @$((1767225600 + d * 3600)) p{0..$((n - 1))}.html")
done

common="public_dir = 'public'
lastmod = ['mtime']
respect_noindex = false
skip_redirects = false
respect_canonical = false
alternates = false"
cap() { echo $(( $1 < 50000 ? $1 : 50000 )); }
printf "base_url = 'https://a.example/'\nmax_urls_per_file = %d\n%s\n" \
  "$(cap $(( (PAGES + 9) / 10 )))" "$common" >"$WORK/A.toml"
printf "base_url = 'https://b.example/'\nmax_urls_per_file = %d\n%s\n" \
  "$(cap $(( (PAGES + 11) / 12 )))" "$common" >"$WORK/B.toml"

# The index and the children it names, as "sha256  name" lines; fails when a child is
# missing.
published() {
  local names
  grep -q '<sitemapindex' "$PUB/sitemap.xml" || fail "sitemap.xml is not an index"
  names=$(sed -n 's|.*<loc>.*/\([^/<]*\)</loc>.*|\1|p' "$PUB/sitemap.xml")
  (cd "$PUB" && sha256sum sitemap.xml $names 2>/dev/null) || return 1
}

now_ms() { date +%s%3N; }

# After run `next` has ended, the published set must be that of `state` (the previous)
# or of `next`; sets `outcome` and moves `state`. Temporary files of an earlier run must
# have been swept; counts what this one left (`stale`) and the children no index names
# (`orphans`: left by a kill between the children's renames and the index's).
verify() {
  local sums t named
  sums=$(published) || fail "the index names a child that is missing"
  if [ "$sums" = "$(cat "$WORK/$state.sums")" ]; then
    outcome=previous; kept=$((kept + 1))
  elif [ "$sums" = "$(cat "$WORK/$next.sums")" ]; then
    outcome=new; switched=$((switched + 1)); state=$next
  else
    fail "the published set is neither the previous ($state) nor the new ($next) one"
  fi
  for t in "${!stale[@]}"; do
    [ -e "$t" ] && fail "temporary file $t of an earlier run was not swept"
  done
  stale=()
  for t in "$PUB"/.sitemap.xml.*.tmp; do
    [ -e "$t" ] && stale[$t]=1
  done
  named=$(awk '{ print $2 }' <<<"$sums")
  orphans=0
  for t in "$PUB"/sitemap-*.xml; do
    grep -qxF "${t##*/}" <<<"$named" || orphans=$((orphans + 1))
  done
}

# A millisecond's nap without forking `sleep` (a read that times out on a pipe that
# never speaks), so polling does not load the machine.
exec {nap_fd}<> <(:)
nap() { read -r -t 0.001 -u "$nap_fd" || true; }

# Waits until run $1 has a temporary file that is not in the list `stale` (its write has
# begun), or has exited.
declare -A stale=()
wait_for_write() {
  local t
  while kill -0 "$1" 2>/dev/null; do
    for t in "$PUB"/.sitemap.xml.*.tmp; do
      [ -e "$t" ] && [ -z "${stale[$t]:-}" ] && return 0
    done
    nap
  done
}

# Reference sets, and how long a write takes (first temporary file to exit).
write_ms=0
for cfg in A B; do
  start=$(now_ms)
  "$BIN" build --config "$WORK/$cfg.toml" -q
  echo "sigkill: $cfg written in $(( $(now_ms) - start )) ms"
  published >"$WORK/$cfg.sums" || fail "reference $cfg incomplete"
  xmllint --noout --schema "$SCHEMAS/siteindex.xsd" "$PUB/sitemap.xml" 2>/dev/null || fail "$cfg index invalid"
  for child in $(awk 'NR > 1 { print $2 }' "$WORK/$cfg.sums"); do
    xmllint --noout --huge --schema "$SCHEMAS/sitemap.xsd" "$PUB/$child" 2>/dev/null || fail "$cfg $child invalid"
  done
  "$BIN" check "$PUB" --strict -q || fail "check of $cfg"
done
for cfg in A B; do
  "$BIN" build --config "$WORK/$cfg.toml" -q &
  pid=$!
  wait_for_write $pid
  start=$(now_ms)
  wait $pid
  ms=$(( $(now_ms) - start ))
  (( ms > write_ms )) && write_ms=$ms
done
echo "sigkill: a write takes up to $write_ms ms; killing at random within it"
cmp -s <(published) "$WORK/B.sums" || fail "B is not reproducible"
state=B
kept=0 switched=0 finished=0

for ((round = 1; round <= ROUNDS; round++)); do
  next=$([ "$state" = A ] && echo B || echo A)
  "$BIN" build --config "$WORK/$next.toml" -q &
  pid=$!
  wait_for_write $pid
  delay=$(( RANDOM * 32768 + RANDOM ))
  delay=$(( delay % (write_ms + 1) ))
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  if kill -9 $pid 2>/dev/null; then killed=yes; else killed=no; fi
  wait $pid 2>/dev/null || true

  verify
  [ $killed = no ] && finished=$((finished + 1))
  echo "sigkill: round $round: killed after $delay ms: $outcome set ($state), ${#stale[@]} temporary files left, $orphans unnamed children"
done

if [ "$STRACE" != yes ]; then
  :
elif command -v strace >/dev/null; then
  # The rename call this platform's libc makes (renameat, renameat2 or rename).
  rename=$(strace -f -qq -e trace=rename,renameat,renameat2 -o /dev/stdout \
    "$BIN" build --config "$WORK/$state.toml" -q | sed -n '1s/^\([0-9]* \)*\([a-z0-9]*\)(.*/\2/p')
  [ -n "$rename" ] || fail "strace saw no rename"
  for call in "$rename" unlink,unlinkat; do
    for ((k = 1; ; k++)); do
      round="$call #$k"
      next=$([ "$state" = A ] && echo B || echo A)
      killed=yes
      # In a subshell that outlives strace, so the shell's "Killed" notice goes to /dev/null.
      (strace -f -qq -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when=$k \
        "$BIN" build --config "$WORK/$next.toml" -q; exit $?) 2>/dev/null && killed=no
      verify
      echo "sigkill: SIGKILL at $call #$k: $outcome set ($state), ${#stale[@]} temporary files left, $orphans unnamed children"
      [ $killed = no ] && break
    done
  done
else
  case ${SITEMAPGEN_REQUIRE_TOOLS:-0} in ''|0) ;; *) fail "strace is needed (apt-get install strace); SITEMAPGEN_REQUIRE_TOOLS is set" ;; esac
  echo "sigkill: strace is not installed; the kills at each rename and unlink are skipped" >&2
fi

"$BIN" build --config "$WORK/$([ "$state" = A ] && echo B || echo A).toml" -q
present=$(ls -A "$PUB" | grep -v '^s[0-9]*$' | sort)
named=$(published | awk '{ print $2 }' | sort)
left=$(comm -23 <(echo "$present") <(echo "$named"))
[ -z "$left" ] || fail "left over after a finished run: $(echo $left)"
echo "sigkill: passed: $kept kills kept the previous set, $switched switched to the new one ($finished random ones finished before the kill); no leftovers after a finished run"
