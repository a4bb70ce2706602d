#!/usr/bin/env node
// Opens our charts and reports in Debian's headless Chromium (playwright-core)
// straight from file:// (as a user opens a mailed report) and checks, on the
// page after its scripts ran: a PNG screenshot that is not blank, no alert,
// page error, console error or request; for the report, the region tree's
// rows, click-to-sort, folding, the filter (text and /regex/), and hostile
// names shown as text.
//
//   node check_report.js report HTML EXPECTED_ROWS [--screenshot PNG]
//   node check_report.js hostile HTML
//   node check_report.js svg SVG... [--screenshot PNG]
//   node check_report.js load HTML          (prints the load event time in ms)
//   node check_report.js compare HTML SHOT_PREFIX
//        (report A B of tests/plot's compare_{a,b}.h5: the difference flame
//        graph drawn inside its canvas with both runs in its tooltips, the
//        300-character name cut in the tables, whole in its tooltip, found by
//        the filter; no overflow at 800 px)
//   node check_report.js big HTML MAX_BYTES MAX_LOAD_MS MAX_ROWS SHOT_PREFIX
//        (a big run's report: size, load time and tree rows bounded; the
//        charts reachable from the contents bar; screenshots at 1400 and 800 px)
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { chromium } = require('playwright-core');

const HOSTILE = ['<script>alert(1)</script>', '" onmouseover="x', 'ünï/cöde & <b>',
                 '<img src=x onerror=alert(2)>', '"host"<i>'];

function fail(msg) {
  throw new Error(msg);
}

// Distinct colours of a PNG screenshot (8-bit RGB or RGBA, as Chromium writes):
// a blank page has one.
function pngColours(buf) {
  let pos = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = { 2: 3, 6: 4 }[data[9]];
      if (data[8] !== 8 || !channels) fail('unexpected PNG format');
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels, out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 255;
    }
  }
  const colours = new Set();
  for (let i = 0; i < out.length; i += channels * 7) colours.add(out.readUIntBE(i, 3));
  return colours.size;
}

async function open(browser, file, problems) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('dialog', async (d) => { problems.push(`alert: ${d.message()}`); await d.dismiss(); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('request', (r) => { if (!r.url().startsWith('file://')) problems.push(`request: ${r.url()}`); });
  await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
  return page;
}

async function notBlank(page, shot, what) {
  const png = await page.screenshot({ fullPage: false });
  if (shot) fs.writeFileSync(shot, png);
  const n = pngColours(png);
  if (n < 8) fail(`${what}: the screenshot has ${n} colours (blank?)`);
}

const visibleNames = (page) => page.$$eval('#tree tbody tr', (rows) => rows
  .filter((r) => r.style.display !== 'none')
  .map((r) => (r.classList.contains('own') ? '(own)' : r.getAttribute('data-name'))));

// The filter redraws 150 ms after typing stops.
async function typeFilter(page, text) {
  await page.fill('#filter', text);
  await page.waitForTimeout(400);
}

// Every label of a chart inside the canvas, and a label drawn on a bar inside
// that bar (getBBox: the width the browser really gave the text).
async function labelsInside(page, what) {
  const bad = await page.evaluate(() => {
    const out = [];
    for (const svg of document.querySelectorAll('svg')) {
      const w = svg.viewBox.baseVal.width, h = svg.viewBox.baseVal.height;
      const rects = Array.from(svg.querySelectorAll('rect[data-r]')).map((r) => r.getBBox());
      for (const t of svg.querySelectorAll('text')) {
        const b = t.getBBox();
        if (!b.width) continue;
        const label = t.textContent.slice(0, 60);
        if (b.x < -0.5 || b.x + b.width > w + 0.5 || b.y < -0.5 || b.y + b.height > h + 0.5)
          out.push(`${label} outside the ${w}x${h} canvas (x ${b.x.toFixed(1)}..${(b.x + b.width).toFixed(1)})`);
        if (t.getAttribute('class') === 'in' || t.getAttribute('class') === 'lb') {
          const cx = b.x + 1, cy = b.y + b.height / 2;
          const bar = rects.find((r) => cx >= r.x && cx <= r.x + r.width && cy >= r.y && cy <= r.y + r.height);
          if (bar && b.x + b.width > bar.x + bar.width + 0.5)
            out.push(`${label} overflows its bar by ${(b.x + b.width - bar.x - bar.width).toFixed(1)} px`);
        }
      }
    }
    return out;
  });
  if (bad.length) fail(`${what}: ${bad.slice(0, 5).join('; ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`);
}

async function checkBig(browser, file, maxBytes, maxMs, maxRows, prefix, problems) {
  const bytes = fs.statSync(file).size;
  if (bytes > maxBytes) fail(`${file}: ${bytes} bytes, more than ${maxBytes}`);
  const page = await open(browser, file, problems);
  const ms = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return n.loadEventEnd - n.startTime;
  });
  if (ms > maxMs) fail(`${file}: loaded in ${ms.toFixed(0)} ms, more than ${maxMs}`);
  const rows = await page.$$eval('#tree tbody tr:not(.own)', (r) => r.length);
  if (rows > maxRows) fail(`${file}: ${rows} tree rows, more than ${maxRows}`);
  const folded = await page.$eval('#folded-paths', (e) => e.textContent).catch(() => '');
  if (!/more paths \(/.test(folded)) fail(`${file}: no "N more paths" note`);
  // The contents bar reaches the charts: after following its link they are on screen.
  await page.click('nav.toc a[href="#chart-gantt"]');
  await page.waitForTimeout(300);
  const top = await page.$eval('#chart-gantt', (e) => e.getBoundingClientRect().top);
  if (top < 0 || top > 900) fail(`the Gantt link left the chart at ${top} px`);
  const t0 = Date.now();
  await typeFilter(page, 'kernel');
  const filterMs = Date.now() - t0 - 400;
  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await typeFilter(page, '');
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (over > 1) fail(`at ${width} px the page is ${over} px wider than the window`);
    await notBlank(page, `${prefix}-${width}.png`, `${file} at ${width} px`);
  }
  console.log(`big_report bytes ${bytes} load_event_ms ${ms.toFixed(0)} tree_rows ${rows} filter_ms ${filterMs}`);
}

async function checkCompare(page, prefix) {
  const svg = '#chart-difference-1 svg';
  const bars = await page.$$eval(`${svg} rect[data-r]`, (rs) => rs.map((r) => {
    const b = r.getBBox(), t = r.querySelector('title');
    return { x: b.x, w: b.width, fill: r.getAttribute('fill'), tip: t ? t.textContent : '' };
  }));
  const width = await page.$eval(svg, (s) => s.viewBox.baseVal.width);
  if (bars.length !== 5) fail(`difference flame graph: ${bars.length} bars, expected 5`);
  for (const b of bars) {
    if (b.x < 0 || b.x + b.w > width + 0.01) fail(`bar at ${b.x}+${b.w} leaves the ${width} px canvas`);
    if (!b.tip.includes('this run: ') || !b.tip.includes('baseline: ')) fail(`tooltip without both runs: ${b.tip}`);
  }
  const rgb = (f) => [1, 3, 5].map((i) => parseInt(f.slice(i, i + 2), 16));
  const bar = (leaf) => {
    const b = bars.find((x) => x.tip.split('\n')[0].endsWith(leaf));
    if (!b) fail(`no bar for ${leaf}`);
    return b;
  };
  const kernel = bar(' > kernel'), io = bar(' > io'), extra = bar(' > extra');
  if (!kernel.tip.includes('this run: 40.0 ms') || !kernel.tip.includes('baseline: 20.0 ms') ||
      !kernel.tip.includes('+100.0% (2.00x)')) fail(`kernel tooltip: ${kernel.tip}`);
  const [kr, , kb] = rgb(kernel.fill), [ir, , ib] = rgb(io.fill);
  if (!(kr > 150 && kb < 80)) fail(`kernel (2x slower) is ${kernel.fill}, not red`);
  if (!(ib > 150 && ir < 80)) fail(`io (2x faster) is ${io.fill}, not blue`);
  if (!extra.tip.includes('baseline: not called') || extra.fill !== kernel.fill)
    fail(`extra (new): ${extra.fill} ${extra.tip}`);
  // The long name: cut in the tree and the changes table, whole in the tooltip.
  const full = await page.$eval('#tree tr[data-name^="__fluid"]', (r) => r.getAttribute('data-name'));
  if (full.length !== 300) fail(`the long name is ${full.length} characters`);
  const cells = await page.$$eval('td.name span.cut', (ss) => ss.map((s) => [s.textContent, s.title]));
  // tree, changes table, and two hotspot paths (its own time and kernel's)
  if (cells.length !== 4) fail(`${cells.length} cut names, expected 4`);
  for (const [shown, title] of cells) {
    if (!title.includes(full)) fail(`cut name's title ${title.slice(0, 40)}...`);
    if ([...shown].length > 80) fail(`cut name shows ${[...shown].length} characters`);
    if (!/^(main > )?__fluid_dynamics_solver_module_MOD_/.test(shown) || !shown.includes('\u2026'))
      fail(`cut name shows ${shown}`);
  }
  // The filter searches the whole name: a part the cut hides.
  const hidden = full.slice(150, 175);
  if (cells.some(([shown]) => shown.includes(hidden))) fail('the probe is visible');
  await typeFilter(page, hidden);
  const kept = await visibleNames(page);
  if (!kept.includes(full) || kept.includes('io')) fail(`filter on the hidden part: ${JSON.stringify(kept)}`);
  await typeFilter(page, '');
  for (const w of [1280, 800]) {
    await page.setViewportSize({ width: w, height: 900 });
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (over > 1) fail(`at ${w} px the page is ${over} px wider than the window`);
    await notBlank(page, `${prefix}-${w}.png`, `compare at ${w} px`);
  }
  await labelsInside(page, 'compare report');
}

async function checkReport(page, expected) {
  const rows = await visibleNames(page);
  if (JSON.stringify(rows) !== JSON.stringify(expected))
    fail(`tree rows ${JSON.stringify(rows)}, expected ${JSON.stringify(expected)}`);
  // Sort by total (column 2): descending on the first click, siblings within parents.
  await page.click('#tree thead th:nth-child(3)');
  const sorted = await page.$$eval('#tree tbody tr', (rs) => rs.map((r) => [r.getAttribute('data-name'),
    r.getAttribute('data-parent'), r.classList.contains('own'), parseFloat(r.cells[2].getAttribute('data-v'))]));
  const byParent = {};
  for (const [, parent, own, v] of sorted) if (!own) (byParent[parent] = byParent[parent] || []).push(v);
  for (const [p, vs] of Object.entries(byParent))
    for (let i = 1; i < vs.length; i++)
      if (vs[i] > vs[i - 1]) fail(`not sorted descending under ${p}: ${vs}`);
  const aria = await page.getAttribute('#tree thead th:nth-child(3)', 'aria-sort');
  if (aria !== 'descending') fail(`aria-sort ${aria}`);
  await page.click('#tree thead th:nth-child(3)');
  const asc = await page.$$eval('#tree tbody tr:not(.own)', (rs) => rs.filter((r) => !r.getAttribute('data-parent'))
    .map((r) => parseFloat(r.cells[2].getAttribute('data-v'))));
  for (let i = 1; i < asc.length; i++) if (asc[i] < asc[i - 1]) fail(`roots not ascending: ${asc}`);
  // Fold the first subtree, then unfold.
  const before = (await visibleNames(page)).length;
  await page.click('#tree button.tg');
  const folded = (await visibleNames(page)).length;
  if (!(folded < before)) fail(`folding hid nothing (${before} -> ${folded})`);
  await page.click('#tree button.tg');
  if ((await visibleNames(page)).length !== before) fail('unfolding did not restore the rows');
  // Filter: a substring keeps matching rows and their ancestors; charts dim the rest.
  await typeFilter(page, 'solve');
  const kept = await visibleNames(page);
  if (!kept.includes('solve') || kept.includes('setup')) fail(`filter "solve": ${JSON.stringify(kept)}`);
  const dimmed = await page.$$eval('svg [data-r].off', (els) => els.length);
  if (dimmed === 0) fail('filter dimmed nothing in the charts');
  await typeFilter(page, '/^set/');
  const re = await visibleNames(page);
  if (!re.includes('setup') || re.includes('solve')) fail(`filter /^set/: ${JSON.stringify(re)}`);
  await typeFilter(page, '/[/');
  if (!(await page.$eval('#filter', (e) => e.classList.contains('bad')))) fail('bad regex not marked');
  await typeFilter(page, '');
  if ((await visibleNames(page)).length !== before) fail('clearing the filter did not restore the rows');
}

async function checkHostile(page) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const h of HOSTILE) if (!text.includes(h)) fail(`hostile text ${JSON.stringify(h)} not shown`);
  const injected = await page.evaluate(() => document.querySelectorAll('img, b, i, body script:not([id]) ~ script').length);
  if (injected) fail(`${injected} elements made from names`);
  const scripts = await page.evaluate(() => document.scripts.length);
  if (scripts !== 2) fail(`${scripts} scripts`);
  await page.hover('svg [data-r="1"]').catch(() => {}); // the onmouseover name: nothing may fire
}

async function main() {
  const args = process.argv.slice(2);
  let shot = null;
  const i = args.indexOf('--screenshot');
  if (i >= 0) shot = args.splice(i, 2)[1];
  const [mode, ...files] = args;
  const problems = [];
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    if (mode === 'load') {
      const t0 = Date.now();
      const page = await open(browser, files[0], problems);
      const ms = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0];
        return n.loadEventEnd - n.startTime;
      });
      console.log(`load_event_ms ${ms.toFixed(0)} wall_ms ${Date.now() - t0}`);
    } else if (mode === 'big') {
      await checkBig(browser, files[0], +files[1], +files[2], +files[3], files[4], problems);
    } else if (mode === 'svg') {
      for (const f of files) {
        const page = await open(browser, f, problems);
        await notBlank(page, shot && files.length === 1 ? shot : null, f);
        const texts = await page.$$eval('text', (t) => t.length);
        if (texts === 0) fail(`${f}: no text rendered`);
        await labelsInside(page, f);
        await page.close();
      }
    } else if (mode === 'report') {
      const page = await open(browser, files[0], problems);
      await notBlank(page, shot, files[0]);
      await checkReport(page, JSON.parse(files[1]));
    } else if (mode === 'compare') {
      const page = await open(browser, files[0], problems);
      await checkCompare(page, files[1]);
    } else if (mode === 'hostile') {
      const page = await open(browser, files[0], problems);
      await notBlank(page, null, files[0]);
      await checkHostile(page);
    } else {
      fail(`unknown mode ${mode}`);
    }
    if (problems.length) fail(problems.join('; '));
  } finally {
    await browser.close();
  }
  console.log(`${mode}: ok`);
}

main().catch((e) => {
  console.error(`check_report.js: ${e.message}`);
  process.exit(1);
});
