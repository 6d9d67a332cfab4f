#!/usr/bin/env node
// Runs the sitemapgen binary of this platform's package (installed through
// optionalDependencies, as esbuild and Biome ship theirs): no download at install time,
// so it works offline, in locked-down CI and with --ignore-scripts.
// `require("node:...")` needs Node 14.18 or 16 (not 15): package.json's `engines`.
"use strict";
const { spawnSync } = require("node:child_process");
const { optionalDependencies, version } = require("../package.json");

function fail(message) {
  process.stderr.write(`sitemapgen: ${message}\n`);
  process.exit(1);
}

/**
 * The platform packages that can run here, best first. On Linux: the glibc build where
 * Node runs on glibc 2.17 or newer (what it is built against), then the static musl build,
 * which runs anywhere; without glibc (Alpine), the musl build only. Node reports the glibc
 * it runs on (undefined under musl), as esbuild's and Biome's launchers read it.
 */
function candidates() {
  const platform = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return [`sitemapgen-${platform}`];
  const glibc = process.report.getReport().header.glibcVersionRuntime;
  const [major, minor] = String(glibc ?? "").split(".").map(Number);
  const glibcOk = major > 2 || (major === 2 && minor >= 17);
  return glibcOk ? [`sitemapgen-${platform}`, `sitemapgen-${platform}-musl`] : [`sitemapgen-${platform}-musl`];
}

function binaryPath() {
  // An escape hatch for platforms without a package, or a binary built locally.
  if (process.env.SITEMAPGEN_BINARY) return process.env.SITEMAPGEN_BINARY;
  const platform = `${process.platform}-${process.arch}`;
  const known = Object.keys(optionalDependencies || {});
  const wanted = candidates().filter((pkg) => known.includes(pkg));
  if (wanted.length === 0) {
    fail(
      `no prebuilt binary for ${platform} (there are: ${known
        .map((p) => p.replace(/^sitemapgen-/, ""))
        .join(", ")}); install it with \`cargo install sitemapgen\` and set SITEMAPGEN_BINARY, or use another route from the README`
    );
  }
  const exe = process.platform === "win32" ? "sitemapgen.exe" : "sitemapgen";
  for (const pkg of wanted) {
    try {
      return require.resolve(`${pkg}/bin/${exe}`);
    } catch {
      // Not installed (npm skips a package whose os, cpu or libc is not this host's): the next.
    }
  }
  fail(
    `the package ${wanted.map((pkg) => `${pkg}@${version}`).join(" or ")} for this platform (${platform}) is not installed; reinstall without --no-optional / --omit=optional, or set SITEMAPGEN_BINARY to a sitemapgen binary`
  );
}

const result = spawnSync(binaryPath(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) fail(`cannot run ${result.error.path || "the binary"}: ${result.error.message}`);
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status === null ? 1 : result.status);
