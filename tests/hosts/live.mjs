// `sitemapgen check --live` against a host's own server (issue 62): a site with planted
// problems, served by Firebase Hosting's server (superstatic) with a firebase.json whose
// rules plant some of them, and a sitemap written by hand that lists every page. Each
// planted problem must be reported once, with its kind, and nothing else.
// (Slow answers, 429 with Retry-After and resets are tests/integration/live.rs's, whose
// server can be made to misbehave; a host's cannot.)
//   node live.mjs WORK SITEMAPGEN
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.env.HOSTS_TOOLS, "package.json"));
const [work, bin] = process.argv.slice(2);
const site = path.join(work, "live", "public");

const page = (head = "", body = "") =>
  `<!doctype html><html lang="en"><head><title>t</title>${head}</head><body>${body}</body></html>\n`;
const link = (rel, href, lang = "") =>
  `<link rel="${rel}" href="BASE${href}"${lang ? ` hreflang="${lang}"` : ""}>`;

// Each page, and what the check must say of it (null: nothing).
const PAGES = {
  "index.html": [page(), null],
  "fine.html": [page(link("canonical", "/fine.html")), null],
  "drafts/d.html": [page(), "noindex"], // firebase.json's header
  "old.html": [page(), "status"], // firebase.json's redirect
  "meta.html": [page('<meta name="robots" content="noindex">'), "noindex"],
  "canonical.html": [page(link("canonical", "/fine.html")), "canonical"],
  "en.html": [page(link("alternate", "/en.html", "en") + link("alternate", "/de.html", "de")), "hreflang_return"],
  "de.html": [page(link("alternate", "/de.html", "de")), null],
  "dated.html": [page('<meta property="article:modified_time" content="2020-01-01T00:00:00Z">'), "lastmod_newer"],
};
const LISTED_ONLY = { "/gone.html": "status" }; // listed, no file: a 404

const firebase = {
  public: "public",
  headers: [{ source: "/drafts/**", headers: [{ key: "X-Robots-Tag", value: "noindex" }] }],
  redirects: [{ source: "/old.html", destination: "/fine.html", type: 301 }],
};

async function main() {
  const superstatic = require("superstatic");
  const handler = (superstatic.default || superstatic)({ config: firebase, cwd: path.dirname(site), compression: false });
  const server = http.createServer((req, res) => handler(req, res, () => { res.statusCode = 404; res.end(); }));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  for (const [file, [html]] of Object.entries(PAGES)) {
    fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    fs.writeFileSync(path.join(site, file), html.replaceAll("BASE", base));
  }
  const urls = [...Object.keys(PAGES).map((f) => `/${f}`.replace(/\/index\.html$/, "/")), ...Object.keys(LISTED_ONLY)];
  const lastmod = (u) => (u === "/dated.html" ? "<lastmod>2024-06-01</lastmod>" : "");
  fs.writeFileSync(path.join(site, "sitemap.xml"), '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `<url><loc>${base}${u}</loc>${lastmod(u)}</url>\n`).join("") + "</urlset>\n");
  fs.writeFileSync(path.join(site, "robots.txt"), "User-agent: *\nAllow: /\n");

  // Run asynchronously: the server answers in this process.
  const run = await new Promise((resolve) => {
    const child = spawn(bin,
      ["check", "--live", `${base}/sitemap.xml`, "--json", "--rate", "0"], { cwd: work });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (status) => resolve({ status, out, err }));
  });
  server.close();
  const report = JSON.parse(run.out || "{}");
  const found = new Set((report.problems ?? []).map((p) => `${p.url.replace(base, "")} ${p.kind}`));
  const want = new Set([
    ...Object.entries(PAGES).filter(([, [, kind]]) => kind).map(([f, [, kind]]) => `/${f} ${kind}`),
    ...Object.entries(LISTED_ONLY).map(([u, kind]) => `${u} ${kind}`),
  ]);
  const missing = [...want].filter((w) => !found.has(w));
  const extra = [...found].filter((f) => !want.has(f));
  const count = (report.problems ?? []).length;
  if (missing.length || extra.length || count !== want.size || run.status !== 1) {
    console.error(`live: check --live against superstatic (exit ${run.status})`);
    for (const m of missing) console.error(`  not reported: ${m}`);
    for (const e of extra) console.error(`  reported, not planted: ${e}`);
    if (count !== found.size) console.error(`  ${count} problems for ${found.size} distinct`);
    console.error(run.err);
    process.exit(1);
  }
  console.log(`live: check --live against superstatic reported each of the ${want.size} planted problems once`);
}

main().catch((e) => { console.error(e); process.exit(1); });
