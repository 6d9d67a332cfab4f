// sitemap.html in headless Chromium (tests/views.sh runs it): the rendered DOM has one
// link per listed URL and no script, and axe-core finds no accessibility violation, in
// the light and the dark colour scheme. With VIEWS_SCREENSHOTS=DIR, pictures of both.
//
//   VIEWS_TOOLS=DIR node tests/views.mjs SITEMAP_HTML EXPECTED_JSON
//
// DIR holds node_modules with puppeteer-core and axe-core (tests/views.sh installs them).
// EXPECTED_JSON: {"paths": [the listed URLs' paths, in any order], "absent": [text that
// must not appear], "folders": the fewest nested folders shown}; every link is dated.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(`${process.env.VIEWS_TOOLS}/`);
const puppeteer = require('puppeteer-core');
const axe_path = require.resolve('axe-core/axe.min.js');
const [page_path, expected_path] = process.argv.slice(2);
const expected = JSON.parse(readFileSync(expected_path, 'utf8'));
const shots = process.env.VIEWS_SCREENSHOTS || '';
const failures = [];

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--allow-file-access-from-files'],
});
try {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(true);
  for (const scheme of ['light', 'dark']) {
    await page.setViewport({ width: 1000, height: 800 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await page.goto(pathToFileURL(page_path).href, { waitUntil: 'load' });
    const dom = await page.evaluate(() => ({
      links: [...document.querySelectorAll('main section li > a')].map((a) => a.getAttribute('href')),
      folders: [...document.querySelectorAll('main section details')].map((d) => d.open),
      dates: document.querySelectorAll('main section li > time[datetime]').length,
      scripts: document.querySelectorAll('script').length,
      text: document.body.innerText,
      lang: document.documentElement.lang,
      background: getComputedStyle(document.body).backgroundColor,
    }));
    const got = [...dom.links].sort();
    const want = [...expected.paths].sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      failures.push(`${scheme}: links ${JSON.stringify(got)} are not the sitemap's ${JSON.stringify(want)}`);
    }
    if (dom.scripts !== 0) failures.push(`${scheme}: ${dom.scripts} script elements in the page`);
    if (dom.folders.length < (expected.folders || 0) || dom.folders.some((open) => !open)) {
      failures.push(`${scheme}: folders ${JSON.stringify(dom.folders)}, want ${expected.folders} or more, all open`);
    }
    if (dom.dates !== got.length) failures.push(`${scheme}: ${dom.dates} dates for ${got.length} links`);
    for (const text of expected.absent) {
      if (dom.text.includes(text)) failures.push(`${scheme}: '${text}' is shown`);
    }
    if (scheme === 'dark' && dom.background === 'rgb(255, 255, 255)') {
      failures.push('dark: the background stayed white');
    }
    // axe runs inside the page; the page itself loads no script of its own.
    await page.addScriptTag({ path: axe_path });
    const result = await page.evaluate(async () =>
      // eslint-disable-next-line no-undef
      axe.run(document, { resultTypes: ['violations'] }),
    );
    for (const v of result.violations) {
      const nodes = v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`);
      failures.push(`${scheme}: axe ${v.id} (${v.impact}): ${v.help}; ${nodes.slice(0, 3).join(' | ')}`);
    }
    console.log(`${scheme}: ${got.length} links, ${dom.folders.length} folders, lang=${dom.lang}, axe: ${result.violations.length} violations, ${result.passes ? result.passes.length : 0} passes`);
    if (shots) {
      await page.reload({ waitUntil: 'load' });
      const name = scheme === 'light' ? 'sitemap-html.png' : 'sitemap-html-dark-phone.png';
      if (scheme === 'dark') await page.setViewport({ width: 390, height: 780 });
      await page.screenshot({ path: `${shots}/${name}` });
    }
  }
} finally {
  await browser.close();
}
if (failures.length) {
  for (const f of failures) console.error(`tests/views.mjs: ${f}`);
  process.exit(1);
}
