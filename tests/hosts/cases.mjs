// The cases of tests/hosts.sh: a site of HTML pages, a host and its host files, each
// written to a folder of its own with the sitemap.toml that names the host.
//   - generated: seeded (the same cases on every run), a random choice of pages and of
//     rule shapes for each host, every shape in at least one case;
//   - pinned: written by hand, one per shape a random case may hide;
//   - from public repositories: tests/fixtures/hosts/<case>/ holds a host file copied
//     from a repository (its SOURCE file names repository, path and commit), a `host`
//     file naming the host, a `pages` file listing the site's pages that its rules
//     touch, and for a firebase.json whose `public` is not "public", a `public` file
//     naming it.
import fs from "node:fs";
import path from "node:path";

export const BASE = "https://example.org";

// mulberry32: a small seeded generator, so the cases are the same on every run.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pickSome = (r, list, min, max) => {
  const copy = [...list];
  const n = min + Math.floor(r() * (max - min + 1));
  const out = [];
  while (out.length < n && copy.length) out.push(copy.splice(Math.floor(r() * copy.length), 1)[0]);
  return out;
};

// Files and folders never share a name, so every page has one file. index.html and
// about.html (the target of many rules) are in every site.
const ALWAYS = ["index.html", "about.html"];
const POOL = [
  "contact/index.html", "blog/index.html", "blog/post-1.html",
  "blog/post-2/index.html", "blog/Post-3.html", "docs/guide.html", "docs/api/index.html",
  "docs/api/v1.html", "drafts/index.html", "drafts/a.html", "legal/index.html",
  "legal/faq/index.html", "legal/terms.html", "en/b/index.html", "x.y.html", "a b.html",
  "old/page.html", "private/x.html", "shop/item-42.html", "news/2024/01/post.html",
];
// Pages whose head says more than a title.
const HEAD = {
  // A canonical naming another form of the page's own URL (issue 62).
  "en/b/index.html": `<link rel="canonical" href="${BASE}/en/b">`,
};

const xrt = (value) => ({ key: "X-Robots-Tag", value });

// Rule shapes of each host. Each is [redirect lines, header blocks] for the _redirects
// hosts, or a function adding to the JSON config for Vercel and Firebase.
const NETLIFY = [
  ["/old/* /new/:splat 301", null],
  ["/old/* /about.html 301!", null],
  ["/blog/:slug /blog/ 301!", null],
  ["/drafts/ /drafts/ 301", null],
  ["/drafts/a /drafts/a.html 301!", null],
  ["/private/* /404.html 404!", null],
  ["/legal/* /about.html 302! Country=de", null],
  ["/legal/* /about.html 302! Country=us", null],
  ["/docs/* /about.html 301! Language=fr", null],
  ["/shop/* /about.html 301! id=:id", null],
  ["/Docs/* /about.html 301!", null],
  ["/about /about.html 301!", null],
  ["/news/:year/:month/:slug /blog/:slug 301!", null],
  ["/blog/* /about.html 200!", null],
  ["/x.y.html /about.html 308!", null],
  ["/contact /contact/ 301!", null],
  [null, "/drafts/*\n  X-Robots-Tag: noindex"],
  [null, "/private/*\n  X-Robots-Tag: googlebot: noindex"],
  [null, "/legal/*\n  X-Robots-Tag: noindex, nofollow"],
  [null, "/blog/*\n  X-Robots-Tag: otherbot: noindex"],
  [null, "/docs/*\n  X-Robots-Tag: none"],
  [null, "/*\n  X-Robots-Tag: nofollow\n/about.html\n  X-Robots-Tag: noindex"],
  [null, "/about.html\n  X-Robots-Tag: noindex\n/*\n  X-Robots-Tag: nofollow"],
  [null, "/blog\n  X-Robots-Tag: noindex"],
  [null, "/en/b/\n  X-Robots-Tag: noindex\n/en/*\n  X-Robots-Tag: noarchive"],
  [null, "/x.y.html\n  X-Robots-Tag: noindex"],
  [null, "/a%20b.html\n  X-Robots-Tag: noindex"],
  [null, "https://preview.example.org/*\n  X-Robots-Tag: noindex"],
  [null, "/DRAFTS/*\n  X-Robots-Tag: noindex"],
  [null, "/news/:year/*\n  X-Robots-Tag: noindex"],
];
const CLOUDFLARE = [
  ["/old/* /new/:splat 301", null],
  ["/blog/:slug /blog/ 302", null],
  ["/drafts/ /drafts/ 301", null],
  ["/docs/guide /docs/guide 301", null],
  ["/about /about/ 301", null],
  ["/private/* /about 308", null],
  ["/Drafts/a /about 301", null],
  ["/news/:y/:m/:slug /blog/:slug 301", null],
  ["/legal/* /about 200", null],
  ["/x.y /about 301", null],
  [null, "/drafts/*\n  X-Robots-Tag: noindex"],
  [null, "/*\n  X-Robots-Tag: noindex\n/blog/*\n  ! X-Robots-Tag"],
  [null, "/private/*\n  X-Robots-Tag: googlebot: noindex"],
  [null, "/legal/*\n  X-Robots-Tag: noindex\n/legal/*\n  X-Robots-Tag: nofollow"],
  [null, "/docs/:page\n  X-Robots-Tag: none"],
  [null, "/about\n  X-Robots-Tag: noindex"],
  [null, "/a%20b\n  X-Robots-Tag: noindex"],
  [null, "https://:sub.pages.dev/*\n  X-Robots-Tag: noindex"],
];
const VERCEL = [
  (c) => c.headers.push({ source: "/drafts/(.*)", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/legal/:path*", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/blog/:slug", headers: [xrt("googlebot: noindex")] }),
  (c) => c.headers.push({ source: "/(.*)", has: [{ type: "host", value: "example.org" }], headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/(.*)", has: [{ type: "host", value: "preview.example.org" }], headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/docs/(.*)", missing: [{ type: "header", key: "x-custom" }], headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/docs/(.*)", has: [{ type: "cookie", key: "preview" }], headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/private/:file", has: [{ type: "query", key: "q" }], headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/shop/item-:id(\\d+)(.*)", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/x.y", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/about", headers: [xrt("nofollow")] }, { source: "/about", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/(.*)", headers: [xrt("noindex")] }, { source: "/blog/(.*)", headers: [xrt("all")] }),
  (c) => c.headers.push({ source: "/Legal/(.*)", headers: [xrt("noindex")] }),
  (c) => c.redirects.push({ source: "/drafts/", destination: "/drafts/", permanent: true }),
  (c) => c.redirects.push({ source: "/old/:path*", destination: "/about", permanent: true }),
  (c) => c.redirects.push({ source: "/news/:y/:m/:slug", destination: "/blog/:slug", permanent: false }),
  (c) => c.redirects.push({ source: "/Blog/post-1", destination: "/", statusCode: 301 }),
  (c) => c.redirects.push({ source: "/legal/:path*", has: [{ type: "header", key: "user-agent", value: "(?i).*googlebot.*" }], destination: "/", permanent: false }),
  (c) => c.redirects.push({ source: "/contact", missing: [{ type: "cookie", key: "seen" }], destination: "/about", permanent: false }),
  (c) => c.redirects.push({ source: "/docs/api/:v(v\\d+)", destination: "/docs/", permanent: true }),
  (c) => c.redirects.push({ source: "/private/(.*)", destination: "/", permanent: true }),
];
const FIREBASE = [
  (c) => c.headers.push({ source: "/drafts/**", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/legal", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/docs/**/*.html", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/a b.html", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/a b", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "{/private,/shop}/**", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ regex: "^/blog/post-\\d+.*$", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/about**", headers: [xrt("nofollow")] }, { source: "/about**", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "/en/b/", headers: [xrt("googlebot: noindex")] }),
  (c) => c.headers.push({ source: "/Legal/**", headers: [xrt("noindex")] }),
  (c) => c.headers.push({ source: "**", headers: [xrt("noindex")] }, { source: "/blog/**", headers: [xrt("all")] }),
  (c) => c.redirects.push({ source: "/old/:rest*", destination: "/about", type: 301 }),
  (c) => c.redirects.push({ source: "/drafts/", destination: "/drafts/", type: 301 }),
  (c) => c.redirects.push({ source: "/news/**", destination: "/", type: 302 }),
  (c) => c.redirects.push({ regex: "^/shop/item-(\\d+)(\\.html)?$", destination: "/", type: 301 }),
  (c) => c.redirects.push({ source: "/Contact/**", destination: "/", type: 301 }),
  (c) => c.redirects.push({ source: "/en/b", destination: "/en/b/", type: 301 }),
  (c) => c.redirects.push({ source: "/x.y", destination: "/", type: 301 }),
];
// Hand-written cases, one per rule shape whose disagreement a seeded draw may hide (a
// broader rule of the same case noindexing the page anyway).
const PINNED = [
  { name: "cloudflare-pinned", host: "cloudflare", files: {
    _headers: "/legal/*\n  X-Robots-Tag: noindex\n/legal/*\n  X-Robots-Tag: nofollow\n" +
      "/docs/*\n  X-Robots-Tag: nofollow\n/docs/guide\n  X-Robots-Tag: noindex\n/a%20b\n  X-Robots-Tag: noindex\n" },
    pages: ["legal/index.html", "legal/terms.html", "docs/guide.html", "docs/api/index.html", "a b.html"] },
  { name: "netlify-pinned", host: "netlify", files: {
    _redirects: "/legal/* /about.html 302! Country=us\n/shop/* /about.html 301! Country=de\n",
    _headers: "/x.y.html\n  X-Robots-Tag: noindex\n/en/b/\n  X-Robots-Tag: noindex\n/en/*\n  X-Robots-Tag: noarchive\n" },
    pages: ["legal/faq/index.html", "shop/item-42.html", "x.y.html", "en/b/index.html"] },
  { name: "vercel-pinned", host: "vercel", files: { "vercel.json": JSON.stringify({
    cleanUrls: true, trailingSlash: true,
    headers: [
      { source: "/legal/:path*", headers: [xrt("noindex")] },
      { source: "/docs/(.*)", missing: [{ type: "header", key: "x-custom" }], headers: [xrt("noindex")] },
      { source: "/blog/(.*)", has: [{ type: "host", value: "example.org" }], headers: [xrt("noindex")] },
    ],
    redirects: [{ source: "/news/:path*", has: [{ type: "header", key: "user-agent", value: "(?i).*googlebot.*" }], destination: "/", permanent: false }],
  }, null, 2) + "\n" },
    pages: ["legal/faq/index.html", "legal/terms.html", "docs/guide.html", "blog/post-1.html", "news/2024/01/post.html", "x.y.html"] },
  { name: "firebase-pinned", host: "firebase", files: { "firebase.json": JSON.stringify({ hosting: {
    public: "public",
    headers: [
      { source: "/docs/**/*.html", headers: [xrt("noindex")] },
      { source: "/legal", headers: [xrt("noindex")] },
      { source: "/a b.html", headers: [xrt("noindex")] },
    ],
    redirects: [
      { source: "/old/:rest*", destination: "/about", type: 301 },
      { source: "/en/c", destination: "/en/c/", type: 301 },
    ],
  } }, null, 2) + "\n" },
    pages: ["docs/guide.html", "docs/api/v1.html", "legal/index.html", "a b.html", "old/page.html", "en/c/index.html"] },
];
const FORMS = [undefined, true, false];
const AGENTS = [["robots"], ["robots"], ["robots", "googlebot"]];

function writePage(site, file, extraHead = "") {
  const full = path.join(site, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, `<!doctype html><html><head><title>${file}</title>` +
    `<meta name="x-page" content="${file}">${extraHead}</head><body><p>${file}</p></body></html>\n`);
}

function writeCase(root, c) {
  const dir = path.join(root, c.name);
  const site = path.join(dir, c.publicDir ?? "public");
  fs.mkdirSync(site, { recursive: true });
  for (const file of c.pages) writePage(site, file, HEAD[file]);
  for (const [name, text] of Object.entries(c.files)) {
    const target = name.startsWith("_") ? path.join(site, name) : path.join(dir, name);
    fs.writeFileSync(target, text);
  }
  const agents = c.agents.map((a) => JSON.stringify(a)).join(", ");
  fs.writeFileSync(path.join(dir, "sitemap.toml"), `base_url = "${BASE}/"\npublic_dir = "${c.publicDir ?? "public"}"\n` +
    `hosting = "${c.host}"\nformat = "txt"\nnoindex_agents = [${agents}]\n`);
  return { ...c, dir, site };
}

function textCase(r, host, chosen) {
  const redirects = chosen.map((s) => s[0]).filter(Boolean);
  const headers = chosen.map((s) => s[1]).filter(Boolean);
  const files = {};
  if (redirects.length) files._redirects = redirects.join("\n") + "\n";
  if (headers.length) files._headers = headers.join("\n") + "\n";
  return files;
}

function jsonCase(r, host, chosen, i) {
  const config = { headers: [], redirects: [] };
  const cleanUrls = FORMS[Math.floor(r() * 3)];
  const trailingSlash = FORMS[Math.floor(r() * 3)];
  if (cleanUrls !== undefined) config.cleanUrls = cleanUrls;
  if (trailingSlash !== undefined) config.trailingSlash = trailingSlash;
  for (const shape of chosen) shape(config);
  if (host === "vercel") return { "vercel.json": JSON.stringify(config, null, 2) + "\n" };
  const text = JSON.stringify({ hosting: { public: "public", ...config } }, null, 2);
  // Every fourth Firebase case carries comments, as the Firebase CLI (cjson) allows (not
  // more: while we ignore such a file, its cases show nothing else).
  const commented = (r(), i % 4 === 0) ? `// generated case\n${text.replace("{\n", "{\n  /* hosting */\n")}` : text;
  return { "firebase.json": commented + "\n" };
}

const GENERATED = { netlify: [NETLIFY, textCase, 8], cloudflare: [CLOUDFLARE, textCase, 5],
  vercel: [VERCEL, jsonCase, 10], firebase: [FIREBASE, jsonCase, 10] };

/// Every case, written under `root`: the generated ones, the pinned ones, the fixtures.
export function writeCases(root, fixtures, seed) {
  const r = rng(seed);
  const cases = [];
  for (const [host, [shapes, make, count]] of Object.entries(GENERATED)) {
    // Every shape in some case: dealt out in a shuffled order, then one or two more each.
    const dealt = pickSome(r, shapes, shapes.length, shapes.length);
    for (let i = 1; i <= count; i++) {
      const own = dealt.filter((_, k) => k % count === i - 1);
      const extra = pickSome(r, shapes.filter((s) => !own.includes(s)), 1, 2);
      const files = make(r, host, [...own, ...extra], i);
      const pages = [...ALWAYS, ...pickSome(r, POOL, 13, 19).sort()];
      const agents = AGENTS[Math.floor(r() * AGENTS.length)];
      cases.push(writeCase(root, { name: `${host}-${i}`, host, pages, files, agents }));
    }
  }
  for (const c of PINNED) cases.push(writeCase(root, { ...c, pages: [...ALWAYS, ...c.pages], agents: ["robots"] }));
  for (const name of fs.existsSync(fixtures) ? fs.readdirSync(fixtures).sort() : []) {
    const from = path.join(fixtures, name);
    const host = fs.readFileSync(path.join(from, "host"), "utf8").trim();
    const pages = fs.readFileSync(path.join(from, "pages"), "utf8").split("\n").map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    const files = {};
    for (const file of fs.readdirSync(from)) {
      if (["_headers", "_redirects", "vercel.json", "firebase.json"].includes(file)) {
        files[file] = fs.readFileSync(path.join(from, file), "utf8");
      }
    }
    const publicFile = path.join(from, "public");
    const publicDir = fs.existsSync(publicFile) ? fs.readFileSync(publicFile, "utf8").trim() : undefined;
    cases.push(writeCase(root, { name, host, pages, files, agents: ["robots"], publicDir }));
  }
  return cases;
}
