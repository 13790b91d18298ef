// End-to-end test of the selection the previewer's views share, in a real
// headless Chromium (as e2e/serve.test.mjs: Debian's /usr/bin/chromium
// driven by the pinned playwright-core).
//
// On string/town_edge.ags and the lake: a click on an object in the 2-D
// view selects it in the Selection tab and its list of placed items, and the
// 3-D view follows (the object's node tinted, a ring on the ground, the
// picture changed); a click in the list selects a facade in both views; a
// real mouse click on an object and on a tile of the ground in the 3-D view
// (picked through the glTF node extras and the point hit) selects them in the
// 2-D view and the panel; Escape clears the selection everywhere.
//
// Run from the repository root after `cargo build`:  node --test e2e/select.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifacts, bin, launch, repo, serve } from './harness.mjs';

const ASSET = 'string/town_edge.ags';

test('agkit serve in a browser: one selection shared by the 2-D view, the 3-D view and the panel', { timeout: 180000 }, async () => {
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  fs.mkdirSync(artifacts, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-sel-'));
  const served = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), served, { recursive: true });
  const { child, url } = await serve(served);
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-sel-chromium-'));
  const pageErrors = [];
  let ctx = null;
  let page = null;
  try {
    ctx = await launch(userData);
    page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
    // The asset and polygon named in the address (as the page keeps them).
    await page.goto(`${url}#asset=${encodeURIComponent(ASSET)}&polygon=bundled:lake`);

    const renders = () => page.evaluate(() => window.__agkit.renders);
    const settled = (r) => page.waitForFunction((r) => window.__agkit.renders > r
      && !window.__agkit.inflight && !window.__agkit.dirty && document.body.dataset.state === 'ready', r, { timeout: 15000 });
    const selected = () => page.evaluate(() => window.__agkit.selection);
    const key2d = () => page.getAttribute('#view', 'data-selected');
    const key3d = () => page.getAttribute('#view3d', 'data-selected');
    const listed = () => page.evaluate(() => [...document.querySelectorAll('#items li.on')].map((li) => li.dataset.key));

    await settled(0);
    assert.equal(await page.evaluate(() => window.__agkit.asset), ASSET);
    assert.equal(await page.evaluate(() => window.__agkit.result.polygon.length), 2, 'not the lake');
    let r0;
    const counts = await page.evaluate(() => {
      const pl = window.__agkit.result.placement;
      return { objects: pl.objects.length, facades: pl.facades.length, trees: pl.trees.length, tiles: pl.tiles.length };
    });
    assert.ok(counts.objects > 0 && counts.facades > 0, `placed: ${JSON.stringify(counts)}`);
    assert.equal(await page.locator('#items li[data-kind="object"]').count(), Math.min(counts.objects, 200));

    // 2-D → panel: click an object where it is the topmost thing.
    const spot = await page.evaluate(() => {
      for (const el of document.querySelectorAll('#l-objects path.obj')) {
        const b = el.getBoundingClientRect();
        const x = b.left + b.width / 2, y = b.top + b.height / 2;
        for (const [dx, dy] of [[0, 0], [-1, 0], [1, 0], [0, -1], [0, 1]]) {
          if (document.elementFromPoint(x + dx, y + dy) === el) return { x: x + dx, y: y + dy };
        }
      }
      return null;
    });
    assert.ok(spot, 'no object can be clicked in the 2-D view');
    await page.mouse.click(spot.x, spot.y);
    const sel = await selected();
    assert.equal(sel.kind, 'object');
    assert.equal(sel.from, '2d');
    const key = `object:${sel.index}`;
    assert.equal(await key2d(), key);
    assert.ok(await page.locator('#l-objects path.obj.sel').count() === 1, 'the clicked object is not marked');
    assert.ok(await page.isVisible('#tab-info'), 'the Selection tab is not shown');
    const asset = await page.evaluate((i) => window.__agkit.result.placement.objects[i].asset, sel.index);
    assert.ok((await page.textContent('#info')).includes(asset), 'the details do not name the object');
    assert.deepEqual(await listed(), [key], 'the list does not mark the object');

    // …and the 3-D view follows: the same key, the object's node tinted and
    // ringed, a picture that differs from the one without a selection.
    const hash3d = () => page.evaluate(() => {
      const c = document.getElementById('view3d');
      const gl = c.getContext('webgl2');
      const px = new Uint8Array(c.width * c.height * 4);
      gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
      let h = 0;
      for (let i = 0; i < px.length; i += 4) h = (h * 31 + px[i] + 7 * px[i + 1] + 13 * px[i + 2]) >>> 0;
      return h;
    });
    const shown = () => page.evaluate(() => Number(document.getElementById('view3d').dataset.shown || 0));
    await page.selectOption('#style', '3d');
    await page.waitForFunction(() => Number(document.getElementById('view3d').dataset.shown || 0) > 0, null, { timeout: 30000 });
    assert.equal(await key3d(), key);
    assert.ok(Number(await page.getAttribute('#view3d', 'data-tinted')) >= 1, 'the selected object is not tinted in 3-D');
    assert.equal(await page.getAttribute('#view3d', 'data-ringed'), '1');
    const withSel = await hash3d();
    await page.screenshot({ path: path.join(artifacts, 'select-3d.png') });
    // Escape, with the focus out of the View select (keys typed there are its own).
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.keyboard.press('Escape');
    assert.equal(await selected(), null);
    assert.equal(await key3d(), '');
    assert.equal(await key2d(), '');
    assert.deepEqual(await listed(), []);
    assert.notEqual(await hash3d(), withSel, 'the selection does not show in the 3-D view');

    // Panel → both views: a facade picked in the list.
    await page.locator('#items li[data-kind="facade"][data-index="0"]').click();
    assert.deepEqual(await selected(), { kind: 'facade', index: 0, placement: 0, from: 'panel' });
    assert.equal(await key3d(), 'facade:0');
    assert.equal(await key2d(), 'facade:0');
    assert.equal(await page.locator('#l-facades path.facade.sel').count(), 1);

    // 3-D → 2-D and panel: a real mouse click on an object and on a tile of
    // the ground, each aimed where the item shows unhidden.
    const box = await page.locator('#view3d').boundingBox();
    const aim = (kind, count, up) => page.evaluate(([kind, count, up]) => {
      const v = window.__agkitView3d;
      const c = document.getElementById('view3d').getBoundingClientRect();
      for (let index = 0; index < count; index++) {
        const p = v.screenOf({ kind, index, placement: 0 }, up);
        if (!p || p.x < c.left + 2 || p.y < c.top + 2 || p.x > c.right - 2 || p.y > c.bottom - 2) continue;
        const s = v.selectionAt(p.x - c.left, p.y - c.top);
        if (s && s.kind === kind && s.index === index) return { index, ...p };
      }
      return null;
    }, [kind, count, up]);
    for (const [kind, count, up] of [['object', counts.objects, 1], ['tile', counts.tiles, 0.05]]) {
      const target = await aim(kind, count, up);
      assert.ok(target, `no ${kind} shows in the 3-D view to be clicked`);
      assert.ok(target.x >= box.x && target.y >= box.y);
      const before = await shown();
      await page.mouse.click(target.x, target.y);
      const s = await selected();
      assert.deepEqual(s, { kind, index: target.index, placement: 0, from: '3d' }, `clicked ${kind} ${target.index}`);
      const k = `${kind}:${target.index}`;
      assert.equal(await key3d(), k);
      assert.equal(await key2d(), k, 'the 2-D view does not follow the 3-D click');
      const layer = kind === 'object' ? '#l-objects path.obj.sel' : '#l-tiles path.tile.sel';
      assert.equal(await page.locator(layer).count(), 1);
      if (target.index < 200) assert.deepEqual(await listed(), [k]);
      assert.ok(await page.isVisible('#tab-info'));
      assert.equal(await shown(), before, 'a click turned or reloaded the 3-D view');
      console.log(`3-D click at (${Math.round(target.x)}, ${Math.round(target.y)}) selected ${k}`);
    }

    // The selection follows a new placement while the item is still there.
    r0 = await renders();
    await page.fill('#seed', '3');
    await settled(r0);
    const after = await selected();
    const exists = await page.evaluate(() => {
      const s = window.__agkit.selection;
      return !s || !!window.__agkit.result.placement.tiles[s.index];
    });
    assert.ok(exists, `the selection ${JSON.stringify(after)} names nothing placed`);
    assert.equal(await key2d(), after ? `${after.kind}:${after.index}` : '');

    await page.selectOption('#style', 'textured');
    await page.screenshot({ path: path.join(artifacts, 'select.png') });
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    if (page) await page.screenshot({ path: path.join(artifacts, 'select-failure.png') }).catch(() => {});
    throw e;
  } finally {
    if (ctx) await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
});
