// tests/hosts.sh's checks: for each case (tests/hosts/cases.mjs), build the sitemap with
// sitemapgen (format = "txt": the same URLs as the XML, one a line), then ask the host's
// code (tests/hosts/hosts.mjs) about every page in every URL form it could be served
// under, and compare:
//   - a listed URL must be served with 200 and no noindex for the case's noindex_agents
//     ("listed-redirect", "listed-noindex", "listed-error" when it is not);
//   - a page that is not listed must not be served with 200 and no noindex under its
//     served form, the first of its forms (file.html, file, file/; folder/, folder) the
//     host answers with that page and 200 ("left-out-served" when it is).
// Each disagreement is one line: case, URL, what the host does, what we did. A line of
// tests/hosts/known.txt ("<case> <url> <kind>  # why") accepts a known one; the run fails
// on any disagreement not there, and on any line there that no longer disagrees.
//   node run.mjs WORK FIXTURES KNOWN SITEMAPGEN
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BASE, writeCases } from "./cases.mjs";
import { HOSTS } from "./hosts.mjs";

const SEED = 62;
// Cloudflare's servers start at once, this many at a time (a few seconds each).
const CLOUDFLARE_AT_ONCE = 3;
const [work, fixtures, knownFile, bin] = process.argv.slice(2);
const started = Date.now();

const enc = (p) => p.split("/").map(encodeURIComponent).join("/");
// The URL forms a host could serve a page under, the file's own first (an index.html
// page's is its folder's; its /index.html URL is an alias, never its form).
function forms(file) {
  if (file === "index.html") return ["/"];
  if (file.endsWith("/index.html")) {
    const dir = `/${file.slice(0, -"/index.html".length)}`;
    return [`${dir}/`, dir].map(enc);
  }
  const bare = `/${file.slice(0, -".html".length)}`;
  return [`/${file}`, bare, `${bare}/`].map(enc);
}

// X-Robots-Tag as Google reads it: "agent: directive" names the agent of the
// directives after it; noindex or none for no agent, or an agent of noindex_agents
// ("robots" standing for no agent), is a noindex.
const VALUED = new Set(["unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"]);
function noindex(robots, agents) {
  let agent = null;
  for (let token of (robots ?? "").split(",")) {
    token = token.trim().toLowerCase();
    const named = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(token);
    if (named && !VALUED.has(named[1])) [agent, token] = [named[1], named[2].trim()];
    if ((token === "noindex" || token === "none") && (agent === null || agents.includes(agent))) return true;
  }
  return false;
}

const describe = (r, agents) => `${r.status}${r.location ? ` -> ${r.location}` : ""}${r.robots ? ` X-Robots-Tag "${r.robots}"` : ""}` +
  `${noindex(r.robots, agents) ? " (noindex)" : ""}`;

function sitemapPaths(c) {
  const run = spawnSync(bin, ["build", "-q"], { cwd: c.dir, encoding: "utf8" });
  // Every page left out is a refusal to write an empty sitemap: nothing is listed.
  if (run.status !== 0 && /a sitemap needs at least one URL/.test(run.stderr)) return [];
  if (run.status !== 0) throw new Error(`${c.name}: sitemapgen build failed:\n${run.stderr}`);
  const text = fs.readFileSync(path.join(c.site, "sitemap.txt"), "utf8");
  return text.split("\n").filter(Boolean).map((u) => u.slice(BASE.length));
}

async function check(c, host) {
  const found = [];
  const listed = new Set(sitemapPaths(c));
  counts.listed += listed.size;
  counts.pages += c.pages.length;
  for (const url of listed) {
    const r = await host.ask(url);
    const kind = r.status >= 300 && r.status < 400 ? "listed-redirect" : r.status !== 200 ? "listed-error" : noindex(r.robots, c.agents) ? "listed-noindex" : null;
    if (kind) found.push({ key: `${c.name} ${url} ${kind}`, text: `host: ${describe(r, c.agents)}; we: listed` });
  }
  // An error page (404.html) is served at its own URL with 200 too, but is no page to list.
  for (const page of c.pages.filter((p) => path.basename(p) !== "404.html")) {
    const own = forms(page);
    if (own.some((u) => listed.has(u))) continue;
    // The page's served form: the first of its forms the host answers with it, 200.
    for (const url of own) {
      const r = await host.ask(url);
      if (r.status !== 200 || r.page !== page) continue;
      if (!noindex(r.robots, c.agents)) {
        found.push({ key: `${c.name} ${url} left-out-served`, text: `host: ${describe(r, c.agents)} (${page}); we: left ${page} out` });
      }
      break;
    }
  }
  return found;
}

// How many URLs the hosts were asked about, and the pages and listed URLs checked.
const counts = { asked: 0, pages: 0, listed: 0 };

async function runCase(c) {
  const served = await HOSTS[c.host](c);
  const host = { ask: (url) => { counts.asked++; return served.ask(url); }, close: served.close };
  try {
    return await check(c, host);
  } finally {
    host.close();
  }
}

// Cloudflare's cases a few at a time, beside the others, which run in-process.
async function runAll(cases) {
  const results = new Map();
  const queue = cases.filter((c) => c.host === "cloudflare");
  const workers = Array.from({ length: CLOUDFLARE_AT_ONCE }, async () => {
    for (let c = queue.shift(); c; c = queue.shift()) results.set(c.name, await runCase(c));
  });
  for (const c of cases.filter((x) => x.host !== "cloudflare")) results.set(c.name, await runCase(c));
  await Promise.all(workers);
  return cases.flatMap((c) => results.get(c.name));
}

function readKnown() {
  const known = new Map();
  for (const [i, line] of fs.readFileSync(knownFile, "utf8").split("\n").entries()) {
    const key = line.replace(/#.*/, "").trim().split(/\s+/).join(" ");
    if (key) known.set(key, i + 1);
  }
  return known;
}

const cases = writeCases(work, fixtures, SEED);
const found = await runAll(cases);
const known = readKnown();
const keys = new Set(found.map((f) => f.key));
const fresh = found.filter((f) => !known.has(f.key));
const gone = [...known].filter(([key]) => !keys.has(key));
const agree = cases.filter((c) => !found.some((f) => f.key.startsWith(`${c.name} `))).length;
for (const f of found) console.log(`${known.has(f.key) ? "known" : "NEW  "} ${f.key}: ${f.text}`);
for (const [key, line] of gone) console.log(`GONE  ${key} (known.txt:${line} no longer disagrees: remove the line)`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(`hosts: ${cases.length} cases (${agree} agree; ${counts.pages} pages, ${counts.listed} listed URLs, ` +
  `${counts.asked} answers of the hosts), ${found.length} disagreements (${found.length - fresh.length} known), ` +
  `${fresh.length} new, ${gone.length} known ones gone, in ${seconds} s`);
process.exit(fresh.length || gone.length ? 1 : 0);
