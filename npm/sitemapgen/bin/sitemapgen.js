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

function binaryPath() {
  // An escape hatch for platforms without a package, or a binary built locally.
  if (process.env.SITEMAPGEN_BINARY) return process.env.SITEMAPGEN_BINARY;
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `sitemapgen-${platform}`;
  if (!(pkg in (optionalDependencies || {}))) {
    fail(
      `no prebuilt binary for ${platform} (there are: ${Object.keys(optionalDependencies || {})
        .map((p) => p.replace(/^sitemapgen-/, ""))
        .join(", ")}); install it with \`cargo install sitemapgen\` and set SITEMAPGEN_BINARY, or use another route from the README`
    );
  }
  const exe = process.platform === "win32" ? "sitemapgen.exe" : "sitemapgen";
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(
      `the package ${pkg}@${version} for this platform (${platform}) is not installed; reinstall without --no-optional / --omit=optional, or set SITEMAPGEN_BINARY to a sitemapgen binary`
    );
  }
}

const result = spawnSync(binaryPath(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) fail(`cannot run ${result.error.path || "the binary"}: ${result.error.message}`);
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status === null ? 1 : result.status);
