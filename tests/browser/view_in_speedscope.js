#!/usr/bin/env node
// Opens an export in speedscope's own web application (the pinned npm package
// speedscope, served with the export from a 127.0.0.1 HTTP server) in Debian's
// headless Chromium, driven by playwright-core, and checks that it loaded:
// the page title names the profile (speedscope sets it once an import
// succeeded), the sandwich view lists every expected frame, and no alert, page
// error, console error or failed request appeared.
//
//   node view_in_speedscope.js EXPORT_FILE TITLE FRAME... [--screenshot PNG]
// (TITLE "*" accepts any profile name)
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
let screenshot = null;
const shot = args.indexOf('--screenshot');
if (shot >= 0) screenshot = args.splice(shot, 2)[1];
const [exportFile, title, ...frames] = args;
if (!exportFile || !title || frames.length === 0) {
  console.error('usage: view_in_speedscope.js EXPORT_FILE TITLE FRAME... [--screenshot PNG]');
  process.exit(2);
}
const appDir = path.join(__dirname, 'node_modules', 'speedscope', 'dist', 'release');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css',
                '.png': 'image/png', '.json': 'application/json', '.wasm': 'application/wasm' };

function serve(req, res) {
  const url = new URL(req.url, 'http://127.0.0.1');
  let file = null;
  if (url.pathname === '/data/export') file = exportFile;
  else if (url.pathname.startsWith('/app/')) {
    const rel = path.normalize(decodeURIComponent(url.pathname.slice(5)));
    if (!rel.startsWith('..')) file = path.join(appDir, rel);
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

async function main() {
  const server = http.createServer(serve);
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const problems = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    // playwright gives the browser a fresh temporary profile itself.
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', async (d) => { problems.push(`alert: ${d.message()}`); await d.dismiss(); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    const url = `${base}/app/index.html#profileURL=${encodeURIComponent(base + '/data/export')}` +
                '&view=sandwich';
    await page.goto(url);
    // TITLE "*": any profile name (the title still shows that the import succeeded).
    await page.waitForFunction((t) => t === '*' ? / - speedscope$/.test(document.title)
                                                : document.title === `${t} - speedscope`,
                               title, { timeout: 30000 }).catch(async () => {
      const now = await page.title();
      problems.push(`title never became "${title} - speedscope" (it is "${now}")`);
    });
    if (problems.length === 0) {
      await page.waitForFunction((names) => names.every((n) => document.body.innerText.includes(n)),
                                 frames, { timeout: 30000 }).catch(async () => {
        const text = await page.evaluate(() => document.body.innerText);
        problems.push(`frames missing from the sandwich view: ${JSON.stringify(frames)} in ` +
                      JSON.stringify(text.slice(0, 400)));
      });
    }
    if (screenshot) await page.screenshot({ path: screenshot });
  } finally {
    await browser.close();
    server.close();
  }
  if (problems.length) {
    for (const p of problems) console.error(`FAIL ${exportFile}: ${p}`);
    process.exit(1);
  }
  console.log(`ok: speedscope loaded ${path.basename(exportFile)} (${frames.join(', ')})`);
}

main().catch((e) => { console.error(`FAIL ${exportFile}: ${e.stack || e}`); process.exit(1); });
