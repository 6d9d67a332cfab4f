#!/usr/bin/env node
// Assembles the npm packages from release artifacts: `sitemapgen` (the shim, with every
// platform package as an optional dependency) and one `sitemapgen-<os>-<cpu>[-musl]`
// package per release target (platforms.json), each carrying its binary; on Linux the
// glibc build's package says `"libc": ["glibc"]` and the musl build's `["musl"]`, so an npm
// that reads the field installs only the host's.
//
//   node npm/assemble.mjs --version 0.1.0 --archives DIR --out OUT
//       DIR holds dist's archives: sitemapgen-<target>.tar.xz (unix), .zip (Windows)
//   node npm/assemble.mjs --version 0.1.0 --binary TARGET=PATH [--binary ...] --out OUT
//       only the named targets' packages, from local binaries (for tests)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const platforms = JSON.parse(fs.readFileSync(path.join(here, "platforms.json"), "utf8"));

function fail(message) {
  console.error(`assemble: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i];
    if (!["--version", "--archives", "--binary", "--out"].includes(key)) {
      fail(`unknown argument '${key}'; use --version V --out DIR and --archives DIR or --binary TARGET=PATH`);
    }
    if (i + 1 >= argv.length) fail(`${key} needs a value`);
    if (key === "--binary") (args.binary ??= []).push(argv[++i]);
    else args[key.slice(2)] = argv[++i];
  }
  if (!/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/.test(args.version || "")) {
    fail(`--version '${args.version ?? ""}' is not a version such as 0.1.0`);
  }
  if (!args.out) fail("--out DIR is required");
  if (!args.archives === !args.binary) fail("give one of --archives DIR or --binary TARGET=PATH");
  return args;
}

/** The binary of `platform` out of its release archive in `dir`, copied to `to`. */
function extract(dir, platform, to) {
  const unix = path.join(dir, `sitemapgen-${platform.target}.tar.xz`);
  const zip = path.join(dir, `sitemapgen-${platform.target}.zip`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sitemapgen-npm-"));
  try {
    if (fs.existsSync(unix)) {
      execFileSync("tar", ["-xJf", unix, "-C", tmp]);
      fs.copyFileSync(path.join(tmp, `sitemapgen-${platform.target}`, platform.exe), to);
    } else if (fs.existsSync(zip)) {
      execFileSync("unzip", ["-q", zip, platform.exe, "-d", tmp]);
      fs.copyFileSync(path.join(tmp, platform.exe), to);
    } else {
      fail(`no release archive for ${platform.target} in ${dir} (looked for ${path.basename(unix)} and ${path.basename(zip)})`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** "linux x64 (glibc 2.17 or newer)", "linux x64 (musl, static)", "darwin arm64". */
function describe(platform) {
  const libc = { glibc: " (glibc 2.17 or newer)", musl: " (musl, static: Alpine and other hosts without glibc)" };
  return `${platform.os} ${platform.cpu}${libc[platform.libc] ?? ""}`;
}

function writePlatformPackage(out, version, platform, copyBinary) {
  const dir = path.join(out, platform.package);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const binary = path.join(dir, "bin", platform.exe);
  copyBinary(binary);
  fs.chmodSync(binary, 0o755);
  const main = JSON.parse(fs.readFileSync(path.join(here, "sitemapgen", "package.json"), "utf8"));
  const pkg = {
    name: platform.package,
    version,
    description: `The sitemapgen binary for ${describe(platform)} (${platform.target}); install \`sitemapgen\`, which picks it`,
    license: main.license,
    repository: main.repository,
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    preferUnplugged: true,
    files: [`bin/${platform.exe}`, "README.md"],
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${platform.package}\n\nThe \`sitemapgen\` binary for ${describe(platform)}. ` +
      "Install [`sitemapgen`](https://www.npmjs.com/package/sitemapgen) instead: it depends on this " +
      "package on this platform only and puts `sitemapgen` on PATH.\n"
  );
}

function writeMainPackage(out, version) {
  const dir = path.join(out, "sitemapgen");
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const main = JSON.parse(fs.readFileSync(path.join(here, "sitemapgen", "package.json"), "utf8"));
  main.version = version;
  main.optionalDependencies = Object.fromEntries(platforms.map((p) => [p.package, version]));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(main, null, 2) + "\n");
  fs.copyFileSync(path.join(here, "sitemapgen", "bin", "sitemapgen.js"), path.join(dir, "bin", "sitemapgen.js"));
  fs.chmodSync(path.join(dir, "bin", "sitemapgen.js"), 0o755);
  fs.copyFileSync(path.join(here, "sitemapgen", "README.md"), path.join(dir, "README.md"));
}

const args = parseArgs(process.argv.slice(2));
fs.mkdirSync(args.out, { recursive: true });
if (args.binary) {
  for (const pair of args.binary) {
    const [target, binary] = pair.split(/=(.*)/s);
    const platform = platforms.find((p) => p.target === target);
    if (!platform) fail(`--binary ${pair}: no target ${target} in platforms.json`);
    if (!fs.statSync(binary ?? "", { throwIfNoEntry: false })?.isFile()) fail(`--binary ${pair}: ${binary} is not a file`);
    writePlatformPackage(args.out, args.version, platform, (to) => fs.copyFileSync(binary, to));
  }
} else {
  for (const platform of platforms) {
    writePlatformPackage(args.out, args.version, platform, (to) => extract(args.archives, platform, to));
  }
}
writeMainPackage(args.out, args.version);
console.log(`assemble: wrote ${fs.readdirSync(args.out).sort().join(", ")} ${args.version} in ${args.out}`);
