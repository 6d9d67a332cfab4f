#!/usr/bin/env python3
"""Packs the PyPI wheels from the release archives, as npm/assemble.mjs packs the npm
packages: one wheel per release target (npm/platforms.json, its "wheel" tags), carrying
the archive's own binary as the script `sitemapgen`, so pip installs the very build the
archives, the installers and npm ship (checksummed once, built once).

    python3 python/assemble.py --version 0.1.0 --archives DIR --out OUT
        DIR holds dist's archives: sitemapgen-<target>.tar.xz (unix), .zip (Windows)
    python3 python/assemble.py --version 0.1.0 --binary TARGET=PATH [--binary ...] --out OUT
        only the named targets' wheels, from local binaries (for tests)

Needs the pinned tools of python/tools.txt: pyproject-metadata writes the core metadata
from pyproject.toml's [project] table and `wheel pack` zips the tree with its RECORD
(maturin builds a wheel from source; it cannot pack a binary already built).
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile

from pyproject_metadata import StandardMetadata

HERE = pathlib.Path(__file__).resolve().parent
PLATFORMS = json.loads((HERE.parent / "npm" / "platforms.json").read_text())
NAME = "sitemapgen_cli"


def fail(message):
    print(f"assemble: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args():
    parser = argparse.ArgumentParser(description="Pack the PyPI wheels from release binaries.")
    parser.add_argument("--version", required=True)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--archives", type=pathlib.Path)
    source.add_argument("--binary", action="append", metavar="TARGET=PATH")
    args = parser.parse_args()
    if not re.fullmatch(r"\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?", args.version):
        fail(f"--version '{args.version}' is not a version such as 0.1.0")
    return args


def metadata(version):
    """pyproject.toml's [project] table as core metadata, with the release's version."""
    data = tomllib.loads((HERE / "pyproject.toml").read_text())
    project = data["project"]
    project["version"] = version
    project["dynamic"] = [key for key in project.get("dynamic", []) if key != "version"]
    return bytes(StandardMetadata.from_pyproject(data, HERE).as_rfc822())


def extract(archives, platform, to):
    """The binary of `platform` out of its release archive in `archives`, written to `to`."""
    target, exe = platform["target"], platform["exe"]
    unix = archives / f"sitemapgen-{target}.tar.xz"
    windows = archives / f"sitemapgen-{target}.zip"
    if unix.is_file():
        with tarfile.open(unix) as tar:
            member = tar.extractfile(f"sitemapgen-{target}/{exe}")
            if member is None:
                fail(f"{unix} holds no sitemapgen-{target}/{exe}")
            with member, open(to, "wb") as out:
                shutil.copyfileobj(member, out)
    elif windows.is_file():
        with zipfile.ZipFile(windows) as archive, archive.open(exe) as member, open(to, "wb") as out:
            shutil.copyfileobj(member, out)
    else:
        fail(f"no release archive for {target} in {archives} (looked for {unix.name} and {windows.name})")


def pack(ctx, platform, copy_binary):
    """One wheel: the binary as a script, the metadata, and the platform's tags."""
    tree = pathlib.Path(ctx["work"]) / platform["target"] / f"{NAME}-{ctx['version']}"
    scripts = tree / f"{NAME}-{ctx['version']}.data" / "scripts"
    info = tree / f"{NAME}-{ctx['version']}.dist-info"
    scripts.mkdir(parents=True)
    info.mkdir()
    binary = scripts / platform["exe"]
    copy_binary(binary)
    binary.chmod(0o755)
    (info / "METADATA").write_bytes(ctx["metadata"])
    tags = "".join(f"Tag: py3-none-{tag}\n" for tag in platform["wheel"])
    (info / "WHEEL").write_text(
        f"Wheel-Version: 1.0\nGenerator: sitemapgen python/assemble.py\nRoot-Is-Purelib: false\n{tags}"
    )
    subprocess.run(
        [sys.executable, "-m", "wheel", "pack", "--dest-dir", str(ctx["out"]), str(tree)],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def main():
    args = parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sitemapgen-wheels-") as work:
        ctx = {"work": work, "version": args.version, "out": args.out, "metadata": metadata(args.version)}
        if args.binary:
            for pair in args.binary:
                target, _, binary = pair.partition("=")
                platform = next((p for p in PLATFORMS if p["target"] == target), None)
                if platform is None:
                    fail(f"--binary {pair}: no target {target} in npm/platforms.json")
                if not pathlib.Path(binary).is_file():
                    fail(f"--binary {pair}: {binary} is not a file")
                pack(ctx, platform, lambda to, binary=binary: shutil.copyfile(binary, to))
        else:
            for platform in PLATFORMS:
                pack(ctx, platform, lambda to, platform=platform: extract(args.archives, platform, to))
    wheels = sorted(path.name for path in args.out.glob("*.whl"))
    print(f"assemble: wrote {', '.join(wheels)} in {args.out}")


if __name__ == "__main__":
    main()
