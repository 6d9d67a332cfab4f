// The hosts' own routing code, asked what they answer for a path. Each host gives
// `ask(path)` -> { status, location, robots, page } (robots: the X-Robots-Tag values
// joined by ", "; page: the file served, from the page's <meta name="x-page">, or from
// the emulator's file lookup) and `close()`.
//
//   cloudflare  the real thing: `wrangler pages dev` (workerd, Cloudflare's asset server)
//   firebase    the real thing: superstatic, the open-source server of Firebase Hosting
//               (the Firebase CLI's emulator serves with it), given firebase.json's
//               `hosting` as read by cjson, the Firebase CLI's reader
//   netlify     an EMULATOR, not the host: netlify-redirector (the WebAssembly matcher
//               netlify-cli runs) on rules parsed by @netlify/redirect-parser, headers
//               from @netlify/headers-parser combined as netlify-cli combines them; the
//               file lookup ("shadowing") is netlify-cli's
//   vercel      an EMULATOR, not the host: @vercel/routing-utils compiles vercel.json
//               into Vercel's route table; walking that table is our reading of Vercel's
//               documented route semantics (Build Output API v3, "routes")
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";

const tools = process.env.HOSTS_TOOLS;
const require = createRequire(path.join(tools, "node_modules", "_.js"));

// What a crawler's request carries: the site's host, Googlebot's user agent, no
// cookie, no query, no other header; from the United States, in English.
const CRAWLER = {
  host: "example.org",
  headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
};

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function askHttp(port, urlPath) {
  const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
    redirect: "manual",
    headers: { "user-agent": CRAWLER.headers["user-agent"] },
  });
  const body = await response.text();
  const page = /<meta name="x-page" content="([^"]*)">/.exec(body);
  return {
    status: response.status,
    location: response.headers.get("location"),
    robots: response.headers.get("x-robots-tag"),
    page: page ? page[1] : null,
  };
}

// Ready once the home page (every case has one) is answered with anything but a 404 or
// a 5xx: on a busy machine wrangler answers 404 for a while before its asset server has
// read the folder, which read every page as missing. After 10 s of those, the answers
// are taken as they come.
async function waitFor(port, child, log) {
  let missing = 0;
  for (let i = 0; i < 600 && missing < 100; i++) {
    if (child.exitCode !== null) throw new Error(`wrangler exited:\n${fs.readFileSync(log, "utf8")}`);
    try {
      // Bounded: whatever holds the port when wrangler could not bind it may never answer.
      const answer = await fetch(`http://127.0.0.1:${port}/`, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      if (answer.status !== 404 && answer.status < 500) return;
      missing += 1;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (missing >= 100) return;
  throw new Error(`wrangler did not answer on ${port}:\n${fs.readFileSync(log, "utf8")}`);
}

// A port found free may be taken before workerd binds it (by another case's wrangler,
// or by any connection's ephemeral port on a busy machine): wrangler then exits with
// "Address already in use", and the case starts again on fresh ports.
async function cloudflare(c, attempts = 3) {
  const [port, inspector] = [await freePort(), await freePort()];
  const log = path.join(c.dir, "wrangler.log");
  const out = fs.openSync(log, "w");
  const child = spawn(path.join(tools, "node_modules/.bin/wrangler"), ["pages", "dev", path.relative(c.dir, c.site),
    "--port", String(port), "--inspector-port", String(inspector), "--ip", "127.0.0.1",
    "--compatibility-date", "2024-09-23", "--show-interactive-dev-session=false"],
  // In a process group of its own: wrangler runs its CLI and workerd as children, which
  // outlive the parent unless the whole group is ended.
  { cwd: c.dir, stdio: ["ignore", out, out], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } });
  fs.closeSync(out);
  const stop = () => { try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ } };
  process.on("exit", stop);
  try {
    await waitFor(port, child, log);
  } catch (error) {
    stop();
    if (attempts > 1 && /Address already in use/.test(error.message)) {
      console.error(`hosts: ${c.name}: a port was taken before wrangler bound it; starting again on others`);
      return cloudflare(c, attempts - 1);
    }
    throw error;
  }
  return { ask: (p) => askHttp(port, p), close: stop };
}

async function firebase(c) {
  const superstatic = require("superstatic");
  const cjson = require("cjson");
  const hosting = cjson.parse(fs.readFileSync(path.join(c.dir, "firebase.json"), "utf8")).hosting;
  const config = Array.isArray(hosting) ? hosting[0] : hosting;
  const handler = (superstatic.default || superstatic)({ config, cwd: c.dir, compression: false });
  const server = http.createServer((req, res) => handler(req, res, () => { res.statusCode = 404; res.end(); }));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return { ask: (p) => askHttp(port, p), close: () => server.close() };
}

// netlify-cli's getStatic: the request's path, then its alternatives.
function netlifyFile(site, decoded) {
  const alternatives = decoded.endsWith("/")
    ? [`${decoded}index.html`, `${decoded.slice(0, -1)}.html`]
    : [decoded, `${decoded}.html`, `${decoded}/index.html`];
  return alternatives.map((p) => p.slice(1)).find((p) => p && fs.statSync(path.join(site, p), { throwIfNoEntry: false })?.isFile()) ?? null;
}

async function netlify(c) {
  const { parseAllRedirects } = await import(require.resolve("@netlify/redirect-parser"));
  const { parseAllHeaders } = await import(require.resolve("@netlify/headers-parser"));
  const redirector = require("netlify-redirector");
  const redirects = await parseAllRedirects({ redirectsFiles: [path.join(c.site, "_redirects")], minimal: false, configRedirects: [] });
  const headers = await parseAllHeaders({ headersFiles: [path.join(c.site, "_headers")], minimal: false, configHeaders: [] });
  // netlify-cli's normalizeRedirect (src/utils/redirects.ts): the matcher's field names.
  const rules = redirects.redirects.map(({ conditions: { country, language, role, ...rest }, from, query, ...r }) => ({
    ...r, origin: from, params: query,
    conditions: { ...rest, ...(role && { Role: role }), ...(country && { Country: country }), ...(language && { Language: language }) },
  }));
  const matcher = await redirector.parseJSON(JSON.stringify(rules), {});
  const requestHeaders = { ...CRAWLER.headers, "x-country": "us", "x-language": "en" };
  return {
    ask: (p) => {
      const decoded = decodeURIComponent(p);
      // netlify-cli's headersForPath: every matching rule, a later one's header replacing
      // an earlier one's of the same name (Object.assign).
      const values = Object.assign({}, ...headers.headers.filter((h) => h.forRegExp.test(decoded)).map((h) => h.values));
      const robots = Object.entries(values).filter(([k]) => k.toLowerCase() === "x-robots-tag").map(([, v]) => v).join(", ") || null;
      const match = matcher.match({ scheme: "https", host: CRAWLER.host, path: decoded, query: "",
        getHeader: (name) => requestHeaders[name.toLowerCase()] || "", getCookie: () => "" });
      const file = netlifyFile(c.site, decoded);
      if (!match || (file && !match.force)) return { status: file ? 200 : 404, location: null, robots, page: file };
      if (match.force404) return { status: 404, location: null, robots, page: null };
      if (match.status >= 300 && match.status < 400) return { status: match.status, location: match.to, robots, page: null };
      const target = netlifyFile(c.site, new URL(match.to, `https://${CRAWLER.host}`).pathname);
      return { status: match.status === 200 && !target ? 404 : match.status, location: null, robots, page: target };
    },
    close: () => {},
  };
}

// Vercel's `has`/`missing` for a crawler's request. A value is matched whole, as a
// regular expression ("(?i)" read as the case-insensitive flag).
function vercelCondition({ type, key, value }) {
  const got = type === "host" ? CRAWLER.host : type === "header" ? CRAWLER.headers[key.toLowerCase()] : undefined;
  if (got === undefined) return false;
  if (value === undefined) return true;
  const insensitive = value.startsWith("(?i)");
  return new RegExp(`^(?:${insensitive ? value.slice(4) : value})$`, insensitive ? "i" : "").test(got);
}

// Our model of Vercel's file lookup for a static build: the path, its folder's
// index.html, and with cleanUrls the path plus .html (a trailing slash dropped).
function vercelFile(site, decoded, cleanUrls) {
  const bare = decoded.endsWith("/") ? decoded.slice(0, -1) : decoded;
  const candidates = decoded.endsWith("/") ? [`${decoded}index.html`] : [decoded, `${decoded}/index.html`];
  if (cleanUrls) candidates.push(`${bare}.html`);
  return candidates.map((p) => p.slice(1)).find((p) => p && fs.statSync(path.join(site, p), { throwIfNoEntry: false })?.isFile()) ?? null;
}

const substitute = (text, m) => text.replace(/\$(\d+|[A-Za-z_]\w*)/g, (_, k) => (/^\d+$/.test(k) ? m[Number(k)] : m.groups?.[k]) ?? "");

// The route table, walked in order (our reading of Vercel's route semantics): `src`
// matched case-insensitively unless `caseSensitive`; `has` all present and `missing`
// all absent in the crawler's request; `headers` set (a later route's header replacing
// an earlier's); a 3xx `status` answers with its Location; `dest` rewrites the path;
// without `continue` the walk stops at the first match; `handle: "filesystem"` serves
// a file if there is one, and the phases after it (misses, errors) end the walk; any
// other `status` is the status the file is then served with.
async function vercel(c) {
  const { getTransformedRoutes } = require("@vercel/routing-utils");
  const config = JSON.parse(fs.readFileSync(path.join(c.dir, "vercel.json"), "utf8"));
  const { routes, error } = getTransformedRoutes(config);
  if (error) throw new Error(`${c.name}: vercel.json: ${error.message}`);
  return {
    ask: (p) => {
      let current = decodeURIComponent(p);
      let status = 200;
      const headers = {};
      const answer = (status, location, page) => ({ status, location, robots: headers["x-robots-tag"] ?? null, page });
      for (const route of routes) {
        if (route.handle) {
          if (route.handle !== "filesystem") break;
          const file = vercelFile(c.site, current, config.cleanUrls);
          if (file) return answer(status, null, file);
          continue;
        }
        const m = new RegExp(route.src, route.caseSensitive ? "" : "i").exec(current);
        if (!m || !(route.has ?? []).every(vercelCondition) || (route.missing ?? []).some(vercelCondition)) continue;
        let location = null;
        for (const [key, value] of Object.entries(route.headers ?? {})) {
          if (key.toLowerCase() === "location") location = substitute(value, m);
          else headers[key.toLowerCase()] = substitute(value, m);
        }
        if (route.status >= 300 && route.status < 400) return answer(route.status, location, null);
        if (route.status) status = route.status;
        if (route.dest) current = substitute(route.dest, m).split("?")[0];
        if (!route.continue) break;
      }
      const file = vercelFile(c.site, current, config.cleanUrls);
      return answer(file ? status : 404, null, file);
    },
    close: () => {},
  };
}

export const HOSTS = { cloudflare, firebase, netlify, vercel };
