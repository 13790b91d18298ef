// End-to-end test of a whole DSF tile in the previewer, in a real headless
// Chromium (as e2e/serve.test.mjs: Debian's /usr/bin/chromium driven by the
// pinned playwright-core).
//
// It serves a copy of examples/ with tests/fixtures/whole_demo/ in its dsf/
// folder, opens dsf/whole_demo.dsf (one of every kind a DSF places, its
// paths relative to examples/) from the page's DSF list and checks, against
// `agkit place --dsf dsf/whole_demo.dsf --all --scenery .` run on the same
// folder: the Tile tab's counts per kind (in the DSF, placed, not drawn)
// equal the CLI's, the 2-D view draws as many objects, facades, trees,
// draped polygons, lines and autogen tiles as the CLI's JSON holds, a click
// on a DSF object selects it (its placement named), the 3-D view loads the
// tile's scene and draws; a broken DSF shows its error (file and byte) and
// the server still answers.
//
// Run from the repository root after `cargo build`:  node --test e2e/tile.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifacts, bin, launch, repo, serve } from './harness.mjs';

const TILE = 'dsf/whole_demo.dsf';

/**
 * What the CLI says of the tile: the per-kind lines of `whole tile:` on
 * stderr ({kind: {in_dsf, placed, not_drawn}}) and the item counts of its
 * JSON placements.
 */
function cli(dir) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-tile-cli-')), 'tile.json');
  const r = spawnSync(bin, ['place', '--dsf', TILE, '--all', '--scenery', '.', '-o', out], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const counts = {};
  for (const m of r.stderr.matchAll(/^ {2}(\S+)\s+(\d[\d,]*) in the DSF\s+(\d[\d,]*) placed\s+(\d[\d,]*) not drawn$/gm)) {
    const n = (s) => Number(s.replace(/,/g, ''));
    counts[m[1]] = { in_dsf: n(m[2]), placed: n(m[3]), not_drawn: n(m[4]) };
  }
  const placements = JSON.parse(fs.readFileSync(out, 'utf8'));
  const sum = (list) => placements.reduce((a, p) => a + (p[list] || []).length, 0);
  return {
    counts,
    placements: placements.length,
    items: {
      objects: sum('objects'), facades: sum('facades'), trees: sum('trees'),
      draped: sum('draped'), lines: sum('lines'),
      tiles: sum('tiles'),
    },
  };
}

test('agkit serve in a browser: open a DSF tile whole, 2-D and 3-D, with the CLI\'s counts', { timeout: 180000 }, async () => {
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  fs.mkdirSync(artifacts, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-tile-'));
  const served = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), served, { recursive: true });
  for (const f of fs.readdirSync(path.join(repo, 'tests/fixtures/whole_demo'))) {
    fs.copyFileSync(path.join(repo, 'tests/fixtures/whole_demo', f), path.join(served, 'dsf', f));
  }
  // A broken tile beside it: the first half of the demo.
  const whole = fs.readFileSync(path.join(served, TILE));
  fs.writeFileSync(path.join(served, 'dsf/broken.dsf'), whole.subarray(0, whole.length >> 1));
  const want = cli(served);
  assert.ok(Object.keys(want.counts).length >= 8, `the CLI printed no counts: ${JSON.stringify(want)}`);

  const { child, url } = await serve(served);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-tile-chromium-'));
  const pageErrors = [];
  let ctx = null;
  let page = null;
  try {
    ctx = await launch(userData);
    page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' && !/status of 422/.test(m.text())) pageErrors.push(m.text()); });
    await page.goto(url);
    const settled = (r) => page.waitForFunction((r) => window.__agkit.renders > r
      && !window.__agkit.inflight && !window.__agkit.dirty && document.body.dataset.state !== 'loading', r, { timeout: 30000 });
    await settled(0);

    // The DSF list holds both tiles; a click opens the demo.
    const listed = await page.evaluate(() => [...document.querySelectorAll('#tiles li')].map((li) => li.dataset.path));
    assert.deepEqual(listed, ['dsf/autogen_demo.dsf', 'dsf/broken.dsf', TILE]);
    let r0 = await page.evaluate(() => window.__agkit.renders);
    await page.click(`#tiles li[data-path="${TILE}"]`);
    await settled(r0);
    assert.equal(await page.evaluate(() => window.__agkit.mode), 'tile');
    assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
    assert.ok(await page.isVisible('#tab-tile'), 'the Tile tab is not shown');
    assert.match(await page.evaluate(() => location.hash), /tile=dsf%2Fwhole_demo\.dsf/);

    // The Tile tab's counts are the CLI's, kind by kind.
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#tile-counts tr[data-kind]')]
      .filter((tr) => tr.dataset.kind !== 'all')
      .map((tr) => [tr.dataset.kind, { in_dsf: Number(tr.dataset.inDsf), placed: Number(tr.dataset.placed), not_drawn: Number(tr.dataset.notDrawn) }])));
    assert.deepEqual(shown, want.counts);
    const tabText = await page.textContent('#tab-tile');
    assert.match(tabText, /road networks need Laminar's \.net/);
    assert.match(tabText, /beaches are not drawn/);

    // The 2-D view draws every item the CLI's JSON holds.
    const drawn = await page.evaluate(() => ({
      objects: document.querySelectorAll('#l-objects path.obj').length,
      facades: document.querySelectorAll('#l-facades path.facade').length,
      trees: document.querySelectorAll('#l-trees circle.tree').length,
      draped: document.querySelectorAll('#l-draped path.draped').length,
      lines: document.querySelectorAll('#l-lines path.paint').length,
      tiles: document.querySelectorAll('#l-tiles path.tile').length,
    }));
    assert.deepEqual(drawn, want.items);
    const counted = await page.evaluate(() => ({ ...document.getElementById('counts').dataset }));
    assert.equal(Number(counted.placements), want.placements);
    assert.equal(Number(counted.objects), want.items.objects);
    await page.screenshot({ path: path.join(artifacts, 'tile-2d.png') });

    // A click on an object selects it, in its placement.
    const at = await page.evaluate(() => {
      for (const el of document.querySelectorAll('#l-objects path.obj')) {
        const b = el.getBoundingClientRect();
        const x = b.left + b.width / 2, y = b.top + b.height / 2;
        if (document.elementFromPoint(x, y) === el) return { x, y };
      }
      return null;
    });
    assert.ok(at, 'no object can be clicked in the 2-D view');
    await page.mouse.click(at.x, at.y);
    const sel = await page.evaluate(() => window.__agkit.selection);
    assert.equal(sel.kind, 'object');
    assert.ok((await page.textContent('#info')).includes('placement'), 'the details do not name the placement');
    assert.equal(await page.getAttribute('#view', 'data-selected'), sel.placement ? `${sel.placement}/object:${sel.index}` : `object:${sel.index}`);

    // The 3-D view loads the tile's scene and draws it.
    const shown3d = await page.evaluate(() => Number(document.getElementById('view3d').dataset.shown || 0));
    await page.selectOption('#style', '3d');
    await page.waitForFunction((n) => Number(document.getElementById('view3d').dataset.shown || 0) > n
      || document.getElementById('view3d').dataset.error, shown3d, { timeout: 60000 });
    const v3 = await page.evaluate(() => ({ ...document.getElementById('view3d').dataset }));
    assert.ok(!v3.error, `3-D: ${v3.error}`);
    assert.ok(Number(v3.draws) >= want.placements, `3-D draws ${v3.draws}`);
    // The selection carried over: the same key in the 3-D view.
    assert.equal(v3.selected, sel.placement ? `${sel.placement}/object:${sel.index}` : `object:${sel.index}`);
    const painted = await page.evaluate(() => {
      const c = document.getElementById('view3d');
      const gl = c.getContext('webgl2');
      const px = new Uint8Array(4 * 64 * 64);
      gl.readPixels((c.width >> 1) - 32, (c.height >> 1) - 32, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, px);
      const seen = new Set();
      for (let i = 0; i < px.length; i += 4) seen.add(`${px[i]},${px[i + 1]},${px[i + 2]}`);
      return seen.size;
    });
    assert.ok(painted > 4, `the 3-D view drew nothing (${painted} colours)`);
    await page.screenshot({ path: path.join(artifacts, 'tile-3d.png') });
    await page.selectOption('#style', 'textured');

    // A broken tile: its error in the page, naming the file and the byte.
    r0 = await page.evaluate(() => window.__agkit.renders);
    await page.click('#tiles li[data-path="dsf/broken.dsf"]');
    await settled(r0);
    assert.equal(await page.getAttribute('body', 'data-state'), 'error');
    const msg = await page.textContent('#message');
    assert.match(msg, /The DSF tile cannot be read/);
    assert.match(msg, /dsf\/broken\.dsf: .*byte \d+/);
    // …and the server still answers: back to the whole tile.
    r0 = await page.evaluate(() => window.__agkit.renders);
    await page.click(`#tiles li[data-path="${TILE}"]`);
    await settled(r0);
    assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    if (page) await page.screenshot({ path: path.join(artifacts, 'tile-failure.png') }).catch(() => {});
    throw e;
  } finally {
    if (ctx) await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
});

// `agkit serve TILE.dsf`: the tile's package folder is served (the one
// holding `Earth nav data`) and the printed URL opens the tile at once,
// with the CLI's counts.
test('agkit serve TILE.dsf opens that tile in the page it prints', { timeout: 120000 }, async () => {
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-tile-arg-'));
  const pkg = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), pkg, { recursive: true });
  const tiles = path.join(pkg, 'Earth nav data', '+40+010');
  fs.mkdirSync(tiles, { recursive: true });
  fs.copyFileSync(path.join(repo, 'tests/fixtures/whole_demo/whole_demo.dsf'), path.join(tiles, 'whole_demo.dsf'));
  const rel = 'Earth nav data/+40+010/whole_demo.dsf';
  const want = (() => {
    const r = spawnSync(bin, ['place', '--dsf', rel, '--all', '--scenery', '.', '-o', path.join(tmp, 'tile.json')], { cwd: pkg, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const counts = {};
    for (const m of r.stderr.matchAll(/^ {2}(\S+)\s+(\d[\d,]*) in the DSF\s+(\d[\d,]*) placed\s+(\d[\d,]*) not drawn$/gm)) {
      const n = (s) => Number(s.replace(/,/g, ''));
      counts[m[1]] = { in_dsf: n(m[2]), placed: n(m[3]), not_drawn: n(m[4]) };
    }
    return counts;
  })();
  assert.ok(Object.keys(want).length >= 8, `the CLI printed no counts: ${JSON.stringify(want)}`);

  const { child, url } = await serve(path.join(tiles, 'whole_demo.dsf'));
  assert.match(url, /#tile=Earth%20nav%20data\/%2B40%2B010\/whole_demo\.dsf$/);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-tile-arg-chromium-'));
  let ctx = null;
  try {
    ctx = await launch(userData, { width: 1200, height: 800 });
    const page = ctx.pages()[0] || await ctx.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__agkit.renders > 0 && !window.__agkit.inflight
      && !window.__agkit.dirty && document.body.dataset.state !== 'loading', null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => window.__agkit.mode), 'tile');
    assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
    const shown = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#tile-counts tr[data-kind]')]
      .filter((tr) => tr.dataset.kind !== 'all')
      .map((tr) => [tr.dataset.kind, { in_dsf: Number(tr.dataset.inDsf), placed: Number(tr.dataset.placed), not_drawn: Number(tr.dataset.notDrawn) }])));
    assert.deepEqual(shown, want);
  } finally {
    if (ctx) await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
});

// A tile using an AGP that exists nowhere beside one that does (issue 46):
// the use not placed is drawn at its point in the 2-D view, marked red, and
// listed in the Tile tab; the 3-D view loads its scene (a red box there).
test('a use whose asset is missing is drawn where the DSF puts it', { timeout: 120000 }, async () => {
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-unplaced-'));
  const served = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), served, { recursive: true });
  const text = path.join(tmp, 'missing.txt');
  fs.writeFileSync(text, [
    'I', '800 written by the e2e test', 'DSF2TEXT', '',
    'PROPERTY sim/west 13', 'PROPERTY sim/south 47', 'PROPERTY sim/east 14', 'PROPERTY sim/north 48',
    'PROPERTY sim/overlay 1',
    'OBJECT_DEF point/plaza.agp', 'OBJECT_DEF point/gone.agp',
    'OBJECT 0 13.5 47.5 0', 'OBJECT 1 13.5013 47.5 0', '',
  ].join('\n'));
  const built = spawnSync(bin, ['dsf', 'build', text, '-o', path.join(served, 'dsf/missing.dsf')], { encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  const { child, url } = await serve(served);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-unplaced-chromium-'));
  const pageErrors = [];
  let ctx = null;
  let page = null;
  try {
    ctx = await launch(userData);
    page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(url);
    const settled = (r) => page.waitForFunction((r) => window.__agkit.renders > r
      && !window.__agkit.inflight && !window.__agkit.dirty && document.body.dataset.state !== 'loading', r, { timeout: 30000 });
    await settled(0);
    const r0 = await page.evaluate(() => window.__agkit.renders);
    await page.click('#tiles li[data-path="dsf/missing.dsf"]');
    await settled(r0);
    assert.equal(await page.getAttribute('body', 'data-state'), 'ready');
    const marks = await page.evaluate(() => [...document.querySelectorAll('#l-objects path.unplaced')]
      .map((p) => p.querySelector('title').textContent));
    assert.deepEqual(marks, ['point/gone.agp: its asset resolves nowhere']);
    assert.match(await page.textContent('#tab-tile'), /Not placed \(1 use\(s\), drawn in red/);
    await page.selectOption('#style', '3d');
    await page.waitForFunction(() => Number(document.getElementById('view3d').dataset.shown || 0) > 0
      || document.getElementById('view3d').dataset.error, null, { timeout: 60000 });
    const v3 = await page.evaluate(() => ({ ...document.getElementById('view3d').dataset }));
    assert.ok(!v3.error, `3-D: ${v3.error}`);
    await page.screenshot({ path: path.join(artifacts, 'tile-unplaced-3d.png') });
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    if (page) await page.screenshot({ path: path.join(artifacts, 'tile-unplaced-failure.png') }).catch(() => {});
    throw e;
  } finally {
    if (ctx) await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
});
