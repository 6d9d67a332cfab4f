#!/usr/bin/env bash
# The `cargo` that dist runs (its CARGO variable) for the release's Linux glibc builds:
# a build for x86_64- or aarch64-unknown-linux-gnu goes through cargo-zigbuild against
# glibc 2.17, the oldest glibc those archives run on (min-glibc-version in
# dist-workspace.toml, which the installers read); every other cargo command, and every
# other target, is cargo's own. Used by .github/build-setup.yml (the release workflow),
# tests/dist.sh and bench/run.sh, so what is tested and timed is what ships.
set -euo pipefail
unset CARGO
glibc=2.17
case "${1:-}" in
  build | zigbuild) ;;
  *) exec cargo "$@" ;;
esac
args=()
gnu=
for arg in "${@:2}"; do
  case "$arg" in
    x86_64-unknown-linux-gnu | aarch64-unknown-linux-gnu) gnu=1; args+=("$arg.$glibc") ;;
    *) args+=("$arg") ;;
  esac
done
[ -n "$gnu" ] || exec cargo "$@"
command -v cargo-zigbuild >/dev/null \
  || { echo "error: cargo-zigbuild is not on PATH; the glibc $glibc builds need it: pip install ziglang cargo-zigbuild" >&2; exit 1; }
exec cargo-zigbuild zigbuild "${args[@]}"
