// End-to-end test of `agkit serve` in a real headless Chromium (Debian's
// /usr/bin/chromium, driven by the pinned playwright-core).
//
// It serves a temporary COPY of examples/, picks an AGS asset and the lake
// polygon, checks that tiles are drawn, changes the seed, edits the asset
// file on disk and waits for the redraw, breaks the asset and checks the
// error panel, and saves screenshots to e2e/artifacts/.
//
// Run from the repository root after `cargo build`:  node --test e2e/serve.test.mjs
// Set AGKIT_BIN to test another binary; UPDATE_DOCS_SCREENSHOT=1 also
// writes docs/img/serve.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bin = process.env.AGKIT_BIN || path.join(repo, 'target', 'debug', 'agkit');
const artifacts = path.join(here, 'artifacts');

function findFiles(dir, ext) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, ext));
    else if (e.name.toLowerCase().endsWith(ext)) out.push(p);
  }
  return out.sort();
}

/** Starts `agkit serve DIR --port 0` and resolves with {child, url}. */
function serve(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed; got ${JSON.stringify(buf)}`)), 15000);
    child.on('error', reject);
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/agkit serve: (http:\/\/127\.0\.0\.1:(\d+)\/)/);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
  });
}

test('agkit serve: pick an AGS, see tiles, change seed, live reload, errors', { timeout: 120000 }, async () => {
  const t0 = Date.now();
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  fs.mkdirSync(artifacts, { recursive: true });

  // A temporary copy of examples/: the test edits files in it.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-'));
  const served = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), served, { recursive: true });
  let agsFiles = findFiles(served, '.ags');
  if (!agsFiles.length) {
    // examples/ has no string asset yet: use the test's own.
    fs.copyFileSync(path.join(here, 'fixtures', 'shore_houses.ags'), path.join(served, 'shore_houses.ags'));
    agsFiles = findFiles(served, '.ags');
    console.log('examples/ has no .ags; using e2e/fixtures/shore_houses.ags');
  }
  // The richest string asset (the largest file) makes the best test and picture.
  const agsPath = process.env.AGKIT_E2E_ASSET
    ? path.join(served, process.env.AGKIT_E2E_ASSET)
    : agsFiles.map((f) => [fs.statSync(f).size, f]).sort((a, b) => b[0] - a[0])[0][1];
  const agsRel = path.relative(served, agsPath).split(path.sep).join('/');
  const original = fs.readFileSync(agsPath, 'utf8');
  assert.match(original, /^\s*TEXTURE_WIDTH\s+[\d.]+/m, `${agsRel} has no TEXTURE_WIDTH to edit`);

  const { child, url } = await serve(served);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-chromium-'));
  const ctx = await chromium.launchPersistentContext(userData, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 860 },
  });
  const pageErrors = [];
  try {
    const page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.state !== 'loading');

    // The asset list shows the AGS; pick it and the lake.
    const item = page.locator(`#assets li[data-path="${agsRel}"]`);
    await item.click();
    await page.selectOption('#polygon', 'bundled:lake');
    await page.waitForFunction(() => window.__agkit.poly && window.__agkit.poly.windings.length === 2);
    // The lake has 2 windings: let both spawn tiles (AGS low byte).
    await page.fill('#low', '2');
    const tileCount = () => page.evaluate(() => Number(document.getElementById('view').dataset.tiles));
    const drawn = () => page.evaluate(() => document.getElementById('l-tiles').innerHTML);
    await page.waitForFunction(() => Number(document.getElementById('view').dataset.tiles) > 0
      && document.body.dataset.state === 'ready', null, { timeout: 15000 }).catch(async (e) => {
      await page.screenshot({ path: path.join(artifacts, 'serve-failure.png') });
      const msg = await page.evaluate(() => document.getElementById('message').textContent);
      throw new Error(`no tiles drawn: ${msg || e.message}`);
    });
    const n1 = await tileCount();
    assert.ok(n1 > 0);
    assert.equal(await page.locator('#l-tiles path.tile').count(), n1);
    console.log(`${agsRel} on the lake: ${n1} tiles`);

    // Hovering a tile tells what it is.
    await page.locator('#l-tiles path.tile').first().hover({ force: true });
    await page.waitForSelector('#tooltip:not([hidden])');
    assert.match(await page.textContent('#tooltip'), /tile: .*line: \d+/s);

    // Change the seed: a new placement with that seed is drawn.
    const renders = () => page.evaluate(() => window.__agkit.renders);
    let r0 = await renders();
    await page.fill('#seed', '4242');
    await page.waitForFunction((r) => window.__agkit.renders > r && window.__agkit.result
      && window.__agkit.result.placement.seed === 4242, r0);
    assert.ok(await tileCount() > 0);

    // Zoom in a little; the view must survive live reloads.
    await page.mouse.move(700, 430);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => !document.getElementById('view').style.transform);
    const viewBox = await page.getAttribute('#view', 'viewBox');

    // Save an edit to the asset file: halve TEXTURE_WIDTH (every tile shrinks).
    const before = await drawn();
    r0 = await renders();
    const edited = original.replace(/^(\s*TEXTURE_WIDTH\s+)([\d.]+)/m, (_, a, w) => `${a}${Number(w) / 2}`);
    const saved = Date.now();
    fs.writeFileSync(agsPath, edited);
    await page.waitForFunction(([r, html]) => window.__agkit.renders > r
      && document.getElementById('l-tiles').innerHTML !== html, [r0, before], { timeout: 10000 });
    const reloadMs = Date.now() - saved;
    console.log(`redrawn ${reloadMs} ms after saving; ${await tileCount()} tiles`);
    assert.ok(reloadMs < 5000, `live reload took ${reloadMs} ms`);
    assert.equal(await page.getAttribute('#view', 'viewBox'), viewBox, 'pan/zoom kept');
    assert.equal(await page.inputValue('#polygon'), 'bundled:lake', 'polygon kept');
    assert.ok(await page.locator('#source .ln').count() >= edited.split('\n').length - 1);

    // Restore and take the screenshots.
    r0 = await renders();
    fs.writeFileSync(agsPath, original);
    await page.waitForFunction((r) => window.__agkit.renders > r && document.body.dataset.state === 'ready', r0);
    await page.click('#fit');
    await page.waitForTimeout(100);
    await page.screenshot({ path: path.join(artifacts, 'serve.png') });
    if (process.env.UPDATE_DOCS_SCREENSHOT) {
      fs.mkdirSync(path.join(repo, 'docs', 'img'), { recursive: true });
      fs.copyFileSync(path.join(artifacts, 'serve.png'), path.join(repo, 'docs', 'img', 'serve.png'));
    }

    // Break the asset: a clear message, the polygon still drawn, never a blank page.
    r0 = await renders();
    fs.writeFileSync(agsPath, 'A\n1000\nAG_STRING\nTILE 0 0 oops\n');
    await page.waitForFunction((r) => window.__agkit.renders > r && document.body.dataset.state === 'error', r0, { timeout: 10000 });
    assert.ok(await page.isVisible('#message'));
    assert.ok((await page.textContent('#message')).length > 10);
    assert.ok(await page.locator('#l-handles circle').count() > 0, 'the polygon is still drawn');
    await page.screenshot({ path: path.join(artifacts, 'serve-error.png') });

    assert.deepEqual(pageErrors, []);
  } finally {
    await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
  console.log(`e2e done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});
