// End-to-end test of `agkit serve` in a real headless Chromium (Debian's
// /usr/bin/chromium, driven by the playwright-core pinned in
// package-lock.json; no browser download).
//
// It serves a temporary COPY of examples/ and, in the page: picks the AGS
// asset string/town_edge.ags and the lake polygon, checks that tiles are
// drawn, that hovering a tile names its source line, that the diagnostics
// panel lists what `agkit check` prints, that the Explain panel and the
// layer toggles work; changes the seed and sees the drawing change; shows
// the 3-D view (WebGL, the .glb scene) and sees it draw, follow a new seed
// and turn with the mouse; drags a
// polygon vertex and sees the placement follow; zooms, saves an edit to the
// asset file and sees the drawing change within a second with pan/zoom,
// polygon and seed kept; breaks the asset and sees the error; picks an AGB
// on the lake and sees the polygon switched to one the AGB takes, the block
// drawn in 2-D and 3-D; turns an AGP with the heading control; checks that the page fetched nothing but its own
// server (it works offline). Screenshots go to e2e/artifacts/.
//
// Run from the repository root after `cargo build`:  node --test e2e/serve.test.mjs
// Set AGKIT_BIN to test another binary; UPDATE_DOCS_SCREENSHOT=1 also
// writes docs/img/serve.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { artifacts, bin, launch, repo, serve } from './harness.mjs';

const ASSET = 'string/town_edge.ags';
const POINT_ASSET = 'point/plaza.agp';
const BLOCK_ASSET = 'block/city_block.agb';

/** What `agkit check --format json REL` prints, run in `dir`. */
function checkJson(dir, rel) {
  const r = spawnSync(bin, ['check', '--format', 'json', rel], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(r.stdout);
}

test('agkit serve in a browser: place, inspect, reseed, reshape, live reload, errors', { timeout: 180000 }, async () => {
  const t0 = Date.now();
  assert.ok(fs.existsSync(bin), `build agkit first (${bin} is missing)`);
  fs.mkdirSync(artifacts, { recursive: true });
  fs.rmSync(path.join(artifacts, 'serve-failure.png'), { force: true });

  // A temporary copy of examples/: the test edits files in it.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-'));
  const served = path.join(tmp, 'examples');
  fs.cpSync(path.join(repo, 'examples'), served, { recursive: true });
  const assetPath = path.join(served, ...ASSET.split('/'));
  const original = fs.readFileSync(assetPath, 'utf8');
  assert.match(original, /^TEXTURE_WIDTH\s+[\d.]+/m, `${ASSET} has no TEXTURE_WIDTH to edit`);
  const sourceLines = original.split('\n');

  const { child, url } = await serve(served);
  let ctx = null;
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'agkit-e2e-chromium-'));
  const pageErrors = [];
  const foreign = [];
  let page = null;
  try {
    ctx = await launch(userData);
    page = ctx.pages()[0] || await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // Console errors too, except the browser's note on the expected 422
    // answers while the asset is broken.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 422/.test(m.text())) pageErrors.push(m.text());
    });
    // Offline: everything the page loads comes from agkit serve itself.
    page.on('request', (r) => { if (!r.url().startsWith(url)) foreign.push(r.url()); });
    await page.goto(url);
    await page.waitForFunction(() => document.body.dataset.state !== 'loading');

    const renders = () => page.evaluate(() => window.__agkit.renders);
    const tileCount = () => page.evaluate(() => Number(document.getElementById('view').dataset.tiles));
    const drawing = () => page.evaluate(() => ['l-tiles', 'l-objects', 'l-trees', 'l-facades']
      .map((id) => document.getElementById(id).innerHTML).join('\n'));
    const settled = (r, state = 'ready') => page.waitForFunction(([r, s]) => window.__agkit.renders > r
      && !window.__agkit.inflight && !window.__agkit.dirty && document.body.dataset.state === s,
    [r, state], { timeout: 15000 });

    // Every asset of examples/ is listed.
    const listed = await page.locator('#assets li[data-path]').evaluateAll((els) => els.map((e) => e.dataset.path));
    assert.ok(listed.includes(ASSET) && listed.includes(POINT_ASSET), `assets listed: ${listed}`);
    assert.ok(listed.every((p) => /\.ag[pbs]$/.test(p)));

    // Pick the AGS asset and the lake.
    let r0 = await renders();
    await page.locator(`#assets li[data-path="${ASSET}"]`).click();
    await page.selectOption('#polygon', 'bundled:lake');
    await page.waitForFunction(() => window.__agkit.poly && window.__agkit.poly.windings.length === 2
      && window.__agkit.result && window.__agkit.result.polygon.length === 2);
    await settled(r0).catch(async (e) => {
      await page.screenshot({ path: path.join(artifacts, 'serve-failure.png') });
      const msg = await page.evaluate(() => document.getElementById('message').textContent);
      throw new Error(`no placement drawn: ${msg || e.message}`);
    });
    // Both windings spawn tiles until the user sets the low byte.
    assert.equal(await page.inputValue('#low'), '2');
    const n1 = await tileCount();
    assert.ok(n1 > 0, 'tiles drawn');
    assert.equal(await page.locator('#l-tiles path.tile').count(), n1);
    assert.ok(await page.locator('#l-objects path.obj').count() > 0, 'objects drawn');
    assert.ok(await page.locator('#l-corners circle').count() > 0, 'corners drawn');
    assert.equal(await page.locator('#l-handles circle.handle').count(),
      await page.evaluate(() => window.__agkit.poly.windings.flat().length), 'a handle per vertex');
    console.log(`${ASSET} on the lake: ${n1} tiles`);

    // The placement shown, downloaded as a 3-D scene: a GLB whose JSON
    // chunk is a glTF 2.0 document with the placement's origin.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-glb')]);
    assert.match(download.suggestedFilename(), /\.glb$/);
    const glb = fs.readFileSync(await download.path());
    assert.equal(glb.subarray(0, 4).toString('latin1'), 'glTF', 'GLB magic');
    assert.equal(glb.readUInt32LE(4), 2, 'GLB version');
    assert.equal(glb.readUInt32LE(8), glb.length, 'GLB length');
    assert.equal(glb.subarray(16, 20).toString('latin1'), 'JSON');
    const gltf = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
    assert.equal(gltf.asset.version, '2.0');
    const origin = await page.evaluate(() => window.__agkit.result.placement.origin);
    assert.deepEqual([gltf.scenes[0].extras.origin.lon, gltf.scenes[0].extras.origin.lat], origin);
    assert.ok(gltf.meshes.length > 0, 'the scene has meshes');
    console.log(`downloaded ${download.suggestedFilename()}: ${glb.length} bytes, ${gltf.nodes.length} nodes`);

    // The diagnostics panel is what `agkit check` prints for the file.
    const cli = checkJson(served, ASSET);
    if (cli.length) {
      assert.equal(await page.locator('#diagnostics li[data-line]').count(), cli.length);
    } else {
      assert.match(await page.textContent('#diagnostics'), /agkit check: no problems/);
    }
    assert.equal(await page.locator('#source .ln').count(), sourceLines.length);

    // Hovering a tile tells its id and the directive's source line. Find a
    // spot where a tile is the topmost thing under the mouse, and go there.
    const spot = await page.evaluate(() => {
      for (const el of document.querySelectorAll('#l-tiles path.tile')) {
        const b = el.getBoundingClientRect();
        for (let i = 1; i < 8; i++) {
          for (let j = 1; j < 8; j++) {
            const x = b.left + (b.width * i) / 8, y = b.top + (b.height * j) / 8;
            if (document.elementFromPoint(x, y) === el) return { x, y, line: Number(el.dataset.line) };
          }
        }
      }
      return null;
    });
    assert.ok(spot && spot.line > 0, 'no tile can be hovered');
    await page.mouse.move(spot.x, spot.y);
    await page.waitForSelector('#tooltip:not([hidden])');
    const tip = await page.textContent('#tooltip');
    assert.match(tip, /tile: \d+ \((edge|corner|cap)/);
    assert.ok(tip.includes(`line: ${spot.line}: ${sourceLines[spot.line - 1].trim()}`), tip);

    // The Explain panel shows the engine's record.
    await page.click('.tabs button[data-tab="explain"]');
    assert.ok(await page.locator('#explain li:not(.dim)').count() > 0, 'explain is empty');
    await page.click('.tabs button[data-tab="source"]');

    // Layers toggle.
    await page.uncheck('#layers input[data-layer="tiles"]');
    assert.equal(await page.locator('#l-tiles path').count(), 0);
    await page.check('#layers input[data-layer="tiles"]');
    assert.equal(await page.locator('#l-tiles path.tile').count(), n1);

    // Views: textured (the default) draws the tiles with their texture,
    // served as PNG; schematic draws no image at all.
    assert.equal(await page.inputValue('#style'), 'textured');
    assert.ok(await page.locator('#l-ground image').count() > 0, 'the textured view draws no texture');
    const png = await page.evaluate(async () => {
      const r = await fetch(document.querySelector('#l-ground image').getAttribute('href'));
      return [r.status, r.headers.get('content-type')];
    });
    assert.deepEqual(png, [200, 'image/png']);
    await page.selectOption('#style', 'schematic');
    assert.equal(await page.locator('#view image').count(), 0, 'the schematic view draws images');
    assert.equal(await page.locator('#l-tiles path.tile').count(), n1);
    await page.selectOption('#style', 'textured');
    assert.ok(await page.locator('#l-ground image').count() > 0);

    // Change the seed: the drawing changes.
    const seed0 = await drawing();
    r0 = await renders();
    await page.fill('#seed', '4242');
    await settled(r0);
    assert.equal(await page.evaluate(() => window.__agkit.result.placement.seed), 4242);
    assert.notEqual(await drawing(), seed0, 'seed 4242 draws the same as seed 0');

    // The 3-D view: the scene the .glb download holds, drawn with WebGL
    // (no library) beside the textured and schematic views. It draws the
    // ground and buildings lit (not the background, not black), and follows
    // an edit (another seed) like the 2-D view.
    const shown3d = () => page.evaluate(() => Number(document.getElementById('view3d').dataset.shown || 0));
    const pixels3d = () => page.evaluate(() => {
      const c = document.getElementById('view3d');
      const gl = c.getContext('webgl2');
      const px = new Uint8Array(c.width * c.height * 4);
      gl.readPixels(0, 0, c.width, c.height, gl.RGBA, gl.UNSIGNED_BYTE, px);
      // The background is rgb(207, 219, 230).
      let drawn = 0, black = 0, green = 0, sum = 0, hash = 0;
      for (let i = 0; i < px.length; i += 4) {
        const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
        hash = (hash * 31 + r + 7 * g + 13 * b) >>> 0;
        if (Math.abs(r - 207) + Math.abs(g - 219) + Math.abs(b - 230) < 12) continue;
        drawn++;
        sum += (r + g + b) / 3;
        if (r + g + b < 30) black++;
        if (g > r + 10 && g > b) green++;
      }
      return { total: px.length / 4, drawn, black, green, mean: drawn ? sum / drawn : 0, hash, error: c.dataset.error || null };
    });
    await page.selectOption('#style', '3d');
    await page.waitForFunction(() => Number(document.getElementById('view3d').dataset.shown || 0) > 0, null, { timeout: 30000 });
    assert.ok(await page.isVisible('#view3d'), 'the 3-D view is not shown');
    const px3a = await pixels3d();
    console.log(`3-D view: ${px3a.drawn} of ${px3a.total} px drawn, mean ${px3a.mean.toFixed(0)}, ${px3a.black} black, ${px3a.green} green`);
    assert.equal(px3a.error, null);
    assert.ok(px3a.drawn > 0.05 * px3a.total, `the 3-D view draws little: ${JSON.stringify(px3a)}`);
    assert.ok(px3a.mean > 60 && px3a.black < 0.05 * px3a.drawn, `the 3-D view is dark: ${JSON.stringify(px3a)}`);
    assert.ok(px3a.green > 0, `no tree drawn green: ${JSON.stringify(px3a)}`);
    await page.screenshot({ path: path.join(artifacts, 'serve-3d.png') });
    let s3 = await shown3d();
    r0 = await renders();
    await page.fill('#seed', '7');
    await settled(r0);
    await page.waitForFunction((s) => Number(document.getElementById('view3d').dataset.shown || 0) > s, s3, { timeout: 30000 });
    const px3b = await pixels3d();
    assert.notEqual(px3b.hash, px3a.hash, 'another seed draws the same 3-D picture');
    assert.ok(px3b.drawn > 0.05 * px3b.total);
    // Drag to turn the camera: the picture turns.
    const c3 = await page.locator('#view3d').boundingBox();
    await page.mouse.move(c3.x + c3.width / 2, c3.y + c3.height / 2);
    await page.mouse.down();
    await page.mouse.move(c3.x + c3.width / 2 + 120, c3.y + c3.height / 2, { steps: 4 });
    await page.mouse.up();
    assert.notEqual((await pixels3d()).hash, px3b.hash, 'dragging does not turn the 3-D view');
    s3 = await shown3d();
    r0 = await renders();
    await page.fill('#seed', '4242');
    await settled(r0);
    await page.waitForFunction((s) => Number(document.getElementById('view3d').dataset.shown || 0) > s, s3, { timeout: 30000 });
    await page.selectOption('#style', 'textured');
    assert.ok(!(await page.isVisible('#view3d')));

    // Drag a vertex of the outer ring 40 px east: the placement follows.
    const handle = page.locator('#l-handles circle[data-w="0"][data-i="1"]');
    const box = await handle.boundingBox();
    const beforeDrag = await drawing();
    const vertex = await page.evaluate(() => window.__agkit.poly.windings[0][1].slice());
    r0 = await renders();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let k = 1; k <= 4; k++) await page.mouse.move(box.x + box.width / 2 + 10 * k, box.y + box.height / 2);
    await page.mouse.up();
    await settled(r0);
    const moved = await page.evaluate(() => window.__agkit.poly.windings[0][1].slice());
    assert.ok(moved[0] > vertex[0] + 1 && Math.abs(moved[1] - vertex[1]) < 1, `vertex ${vertex} → ${moved}`);
    assert.deepEqual(await page.evaluate(() => window.__agkit.result.polygon[0][1]), moved, 'placed on the dragged polygon');
    assert.notEqual(await drawing(), beforeDrag, 'dragging a vertex changes the placement');
    r0 = await renders();
    await page.click('#reset-poly');
    await settled(r0);
    assert.deepEqual(await page.evaluate(() => window.__agkit.poly.windings[0][1]), vertex);

    // Zoom in; the view must survive live reloads.
    await page.mouse.move(700, 430);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction(() => !document.getElementById('view').style.transform);
    const viewBox = await page.getAttribute('#view', 'viewBox');

    // Save an edit to the asset file: halve TEXTURE_WIDTH (every tile shrinks).
    const before = await drawing();
    r0 = await renders();
    const edited = original.replace(/^(TEXTURE_WIDTH\s+)([\d.]+)/m, (_, a, w) => `${a}${Number(w) / 2}`);
    const saved = Date.now();
    fs.writeFileSync(assetPath, edited);
    await page.waitForFunction(([r, html]) => window.__agkit.renders > r
      && ['l-tiles', 'l-objects', 'l-trees', 'l-facades'].map((id) => document.getElementById(id).innerHTML).join('\n') !== html,
    [r0, before], { timeout: 10000 });
    const reloadMs = Date.now() - saved;
    console.log(`redrawn ${reloadMs} ms after saving; ${await tileCount()} tiles`);
    assert.ok(reloadMs < 1000, `live reload took ${reloadMs} ms (must be under a second)`);
    assert.equal(await page.getAttribute('#view', 'viewBox'), viewBox, 'pan/zoom kept');
    assert.equal(await page.inputValue('#polygon'), 'bundled:lake', 'polygon kept');
    assert.equal(await page.inputValue('#seed'), '4242', 'seed kept');
    assert.ok((await page.textContent('#source')).includes(`TEXTURE_WIDTH${edited.match(/^TEXTURE_WIDTH(\s+[\d.]+)/m)[1]}`),
      'the source panel shows the saved text');

    // Restore, fit and take the screenshot.
    r0 = await renders();
    fs.writeFileSync(assetPath, original);
    await page.waitForFunction((r) => window.__agkit.renders > r && document.body.dataset.state === 'ready', r0);
    await page.click('#fit');
    await page.waitForFunction(() => !document.getElementById('view').style.transform);
    await page.screenshot({ path: path.join(artifacts, 'serve.png') });
    if (process.env.UPDATE_DOCS_SCREENSHOT) {
      fs.mkdirSync(path.join(repo, 'docs', 'img'), { recursive: true });
      fs.copyFileSync(path.join(artifacts, 'serve.png'), path.join(repo, 'docs', 'img', 'serve.png'));
    }

    // Break the asset: a clear message linking the line at fault, the
    // polygon still drawn, never a blank page.
    r0 = await renders();
    fs.writeFileSync(assetPath, 'A\n1000\nAG_STRING\nTILE 0 0 oops\n');
    await page.waitForFunction((r) => window.__agkit.renders > r && document.body.dataset.state === 'error', r0, { timeout: 10000 });
    assert.ok(await page.isVisible('#message'));
    assert.match(await page.textContent('#message'), /has errors \(agkit check\)/);
    assert.ok(await page.locator('#message a').count() > 0, 'the errors link to their lines');
    assert.ok(await page.locator('#l-handles circle').count() > 0, 'the polygon is still drawn');
    assert.equal(await page.locator('#diagnostics li[data-line]').count(), checkJson(served, ASSET).length);
    await page.screenshot({ path: path.join(artifacts, 'serve-error.png') });

    // An AGB picked while the lake is the polygon (an AGB needs one winding
    // of 4 points; the lake has two): the page switches to the first test
    // polygon that takes it, as /api/polygons says, and says so beside the
    // menu; the block is placed and drawn in 2-D and 3-D, without an error.
    assert.equal(await page.inputValue('#polygon'), 'bundled:lake');
    r0 = await renders();
    await page.locator(`#assets li[data-path="${BLOCK_ASSET}"]`).click();
    await settled(r0);
    assert.equal(await page.inputValue('#polygon'), 'bundled:square', 'not switched to a polygon the AGB takes');
    assert.equal(await page.evaluate(() => window.__agkit.polyKey), 'bundled:square');
    assert.equal(await page.evaluate(() => window.__agkit.error), null);
    assert.equal(await page.evaluate(() => window.__agkit.result.placement.kind), 'agb');
    assert.ok(await tileCount() > 0, 'the block has no tiles drawn');
    assert.ok(await page.isVisible('#poly-note'), 'the switch is not said');
    assert.match(await page.textContent('#poly-note'),
      /^“Lake with an island \(hole\)” cannot take an AGB, which needs one counter-clockwise winding of 4 points.*: switched to “Square block 120 m”\.$/);
    s3 = await shown3d();
    await page.selectOption('#style', '3d');
    await page.waitForFunction((s) => Number(document.getElementById('view3d').dataset.shown || 0) > s, s3, { timeout: 30000 });
    const px3c = await pixels3d();
    assert.equal(px3c.error, null);
    assert.ok(px3c.drawn > 0.05 * px3c.total, `the AGB's 3-D view draws little: ${JSON.stringify(px3c)}`);
    await page.screenshot({ path: path.join(artifacts, 'serve-agb-switched.png') });
    await page.selectOption('#style', 'textured');
    // The lake chosen by hand: the engine's error, which says the polygons
    // that take an AGB; the note goes.
    r0 = await renders();
    await page.selectOption('#polygon', 'bundled:lake');
    await settled(r0, 'error');
    assert.ok(await page.isHidden('#poly-note'));
    assert.match(await page.textContent('#message'),
      /cannot place this asset here[\s\S]*got 2 windings[\s\S]*Test polygons that take an AGB: Square block 120 m, /);

    // An AGP: a point with a heading control.
    r0 = await renders();
    await page.locator(`#assets li[data-path="${POINT_ASSET}"]`).click();
    await settled(r0);
    assert.ok(await page.isVisible('#dial'));
    assert.ok(!(await page.isVisible('#polygon')));
    assert.equal(await tileCount(), 1);
    const north = await page.evaluate(() => window.__agkit.result.placement.tiles[0].polygon);
    r0 = await renders();
    await page.fill('#heading', '90');
    await settled(r0);
    assert.equal(await page.getAttribute('#dial-needle', 'transform'), 'rotate(90)');
    const east = await page.evaluate(() => window.__agkit.result.placement.tiles[0].polygon);
    // Turning the point by 90° clockwise maps (x, y) to (y, −x).
    north.forEach(([x, y], i) => {
      assert.ok(Math.abs(east[i][0] - y) < 1e-6 && Math.abs(east[i][1] + x) < 1e-6, `${north[i]} → ${east[i]}`);
    });

    assert.deepEqual(foreign, [], 'the page fetched something from elsewhere');
    assert.deepEqual(pageErrors, []);
  } catch (e) {
    if (page) await page.screenshot({ path: path.join(artifacts, 'serve-failure.png') }).catch(() => {});
    throw e;
  } finally {
    if (ctx) await ctx.close();
    child.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
  console.log(`e2e done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});
