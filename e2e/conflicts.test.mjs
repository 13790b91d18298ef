// End-to-end test of the conflicts of a tile in the previewer (issue 50
// item 3), in a real headless Chromium (as e2e/tile.test.mjs).
//
// It serves the Town package of the repository's fixture installation
// (tests/fixtures/xplane, with tests/fixtures/apt/conflicts_xtst.dat as
// the Airport package's apt.dat: a runway under the Town pack's shed)
// with `--xplane` the installation, opens its tile and checks: the 2-D
// view marks the one finding `agkit scenery conflicts --tile` reports, an
// error ring whose title names its code, its definition and the fix,
// inside the runway the 2-D view draws from the apt.dat; the Tile tab says
// what it counts. Served without `--xplane`, the Tile tab
// says how to get the conflicts and nothing is marked.
//
// Run from the repository root after `cargo build`:  node --test e2e/conflicts.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifacts, bin, launch, repo, serve } from './harness.mjs';

const TILE = 'Earth nav data/+40+010/+47+013.dsf';

function installation() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-conflicts-'));
  fs.cpSync(path.join(repo, 'tests/fixtures/xplane'), tmp, { recursive: true });
  fs.copyFileSync(path.join(repo, 'tests/fixtures/apt/conflicts_xtst.dat'),
    path.join(tmp, 'Custom Scenery/Airport/Earth nav data/apt.dat'));
  return tmp;
}

/** Opens the tile of `served` in a page; runs `check(page)`. */
async function withTile(served, extra, name, check) {
  const { child, url } = await serve(served, extra);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-conflicts-chromium-'));
  const pageErrors = [];
  let ctx = null;
  try {
    ctx = await launch(userData);
    const page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' && !/status of 409/.test(m.text())) pageErrors.push(m.text()); });
    await page.goto(url);
    await page.waitForFunction(() => window.__agkit.renders > 0 && !window.__agkit.inflight
      && document.body.dataset.state !== 'loading', null, { timeout: 30000 });
    const listed = await page.evaluate(() => [...document.querySelectorAll('#tiles li')].map((li) => li.dataset.path));
    assert.deepEqual(listed, [TILE]);
    if (await page.evaluate(() => window.__agkit.mode) !== 'tile') await page.click('#tiles li');
    await page.waitForFunction(() => window.__agkit.mode === 'tile' && window.__agkit.conflictsStatus !== 0, null, { timeout: 60000 });
    await check(page);
    if (name) await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
    assert.deepEqual(pageErrors, []);
  } finally {
    if (ctx) await ctx.close();
    child.kill();
  }
}

test('agkit serve --xplane marks what the installation places on the tile\'s airports', { timeout: 180000 }, async () => {
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  fs.mkdirSync(artifacts, { recursive: true });
  const xplane = installation();
  const town = path.join(xplane, 'Custom Scenery/Town');
  const r = spawnSync(bin, ['scenery', 'conflicts', '--xplane', xplane, '--tile', '47.5,13.5', '--format', 'json'], { encoding: 'utf8' });
  const want = JSON.parse(r.stdout);
  assert.equal(want.findings.length, 1, r.stderr);

  await withTile(town, ['--xplane', xplane], null, async (page) => {
    assert.equal(await page.evaluate(() => window.__agkit.conflictsStatus), 200);
    const rings = await page.evaluate(() => [...document.querySelectorAll('#l-conflicts circle.conflict')]
      .map((c) => ({ cls: c.getAttribute('class'), code: c.dataset.code, title: c.textContent })));
    assert.equal(rings.length, want.findings.length);
    assert.equal(rings[0].cls, 'conflict error');
    assert.equal(rings[0].code, want.findings[0].code);
    assert.ok(rings[0].title.includes(want.findings[0].definition), rings[0].title);
    assert.ok(rings[0].title.includes(want.findings[0].advice), rings[0].title);
    assert.equal(await page.getAttribute('#view', 'data-conflicts'), String(want.findings.length));
    const said = await page.textContent('#tile-conflicts');
    assert.match(said, /^Conflicts on 1 airport\(s\): 1 finding\(s\), 1 error\(s\)/);
    // The runway the finding is on is drawn, and the ring's centre is
    // inside it.
    const onRunway = await page.evaluate((name) => {
      const ring = document.querySelector('#l-conflicts circle.conflict');
      const pt = new DOMPoint(Number(ring.getAttribute('cx')), Number(ring.getAttribute('cy')));
      const runways = [...document.querySelectorAll('#l-airports path.airport.part-runway')];
      return runways.filter((r) => r.textContent.includes(name)).map((r) => r.isPointInFill(pt));
    }, want.findings[0].feature_name);
    assert.deepEqual(onRunway, [true]);
    // The ring lies on the drawn shed: the object nearest it is within a
    // few metres (the finding's deepest point is inside the shed).
    const gap = await page.evaluate(() => {
      const c = document.querySelector('#l-conflicts circle.conflict').getBoundingClientRect();
      const cx = c.left + c.width / 2, cy = c.top + c.height / 2;
      let best = Infinity;
      for (const o of document.querySelectorAll('#l-objects path.obj')) {
        const b = o.getBoundingClientRect();
        best = Math.min(best, Math.hypot(b.left + b.width / 2 - cx, b.top + b.height / 2 - cy) / Math.max(c.width, 1));
      }
      return best;
    });
    assert.ok(gap < 3, `the ring is ${gap} ring-widths from the nearest object`);
    await page.screenshot({ path: path.join(artifacts, 'conflicts-2d.png') });
    // The layer's box hides it.
    await page.click('#layers input[data-layer="conflicts"]');
    assert.equal(await page.evaluate(() => document.querySelectorAll('#l-conflicts circle').length), 0);
  });

  await withTile(town, [], 'conflicts-none', async (page) => {
    assert.equal(await page.evaluate(() => window.__agkit.conflictsStatus), 409);
    assert.match(await page.textContent('#tile-conflicts'), /--xplane DIR/);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#l-conflicts circle').length), 0);
  });
});
