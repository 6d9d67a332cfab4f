#!/usr/bin/env bash
# The build tools' venv, shared by tests/dist.sh and tests/platforms.sh: zig and
# cargo-zigbuild at the versions the release workflow installs (.github/build-setup.yml)
# and python/tools.txt (the wheels' packer). Kept beside the build: its path is part of
# the zig wrappers cargo-zigbuild hands cargo, so a new path would rebuild the glibc
# builds from scratch. Made under a lock, as CI's two lanes may ask for it at once.
# Prints its path.   Usage: VENV=$(bash tests/tools-venv.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${CARGO_TARGET_DIR:-$PWD/target}/dist-tools-venv
zig_pins=$(grep -o 'ziglang==[^ ]* cargo-zigbuild==[^ ]*' .github/build-setup.yml) || {
  echo "error: .github/build-setup.yml no longer pins ziglang and cargo-zigbuild: update tests/tools-venv.sh with it" >&2
  exit 1
}
mkdir -p "$(dirname "$venv")"
exec 9> "$venv.lock"
flock 9
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
# shellcheck disable=SC2086
"$venv/bin/pip" install --quiet -r python/tools.txt $zig_pins >&2
echo "$venv"
