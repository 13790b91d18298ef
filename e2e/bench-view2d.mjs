// Benchmark (not a test): how long the previewer's 2-D view takes to draw a
// placement of N tiles (each with a stop point, an object with its
// footprint and a tree) built with DOM calls (web/view2d.js), against the
// page's drawing before issue 32 (markup strings set as innerHTML, taken
// from git at b3e3635), in headless Chromium; and how long a click in the
// 3-D view takes to pick (a ray against every triangle of town_edge.ags on
// the lake).
//
// Run from the repository root after `cargo build` and `(cd e2e && npm ci)`:
//   node e2e/bench-view2d.mjs            # N = 1000, 5000, 20000
// Each figure is the median of 3 draws, alternating old and new.

import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bin = process.env.AGKIT_BIN
  || path.join(path.resolve(repo, process.env.CARGO_TARGET_DIR || 'target'), 'debug', 'agkit');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);

// The old page's own drawing code, as it was.
const oldApp = execFileSync('git', ['show', 'b3e3635:web/app.js'], { cwd: repo, encoding: 'utf8' });
const cut = (from, to) => oldApp.slice(oldApp.indexOf(from), oldApp.indexOf(to, oldApp.indexOf(from)));
const OLD = cut('function esc(s)', 'async function api(')
  + cut('function pathOf(points, ox, oy)', '// The polygon, its handles').replace('applyHighlight();', '');

const child = spawn(bin, ['serve', path.join(repo, 'examples'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => {
  let b = '';
  child.stdout.on('data', (d) => { b += d; const m = b.match(/agkit serve: (http:\S+)/); if (m) resolve(m[1]); });
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  // bypassCSP: the old code is evaluated from a string.
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 }, bypassCSP: true });
  await page.goto(`${url}#asset=string%2Ftown_edge.ags&polygon=bundled:lake`);
  await page.waitForFunction(() => window.__agkit.renders > 0 && window.__agkit.result);
  for (const n of sizes.length ? sizes : [1000, 5000, 20000]) {
    const r = await page.evaluate(async ([n, OLD]) => {
      const { createStore } = await import('/state.js');
      const { createView2d } = await import('/view2d.js');
      const base = window.__agkit.result;
      const t0 = base.placement.tiles[0], o0 = base.placement.objects[0], tr0 = base.placement.trees[0];
      const side = Math.ceil(Math.sqrt(n));
      const tiles = [], objects = [], trees = [];
      for (let i = 0; i < n; i++) {
        const x = (i % side) * 40, y = Math.floor(i / side) * 40;
        tiles.push({ ...t0, hidden: false, polygon: [[x, y], [x + 32, y], [x + 32, y + 32], [x, y + 32]], stop_points: [[x + 1, y + 1]] });
        objects.push({ ...o0, x: x + 10, y: y + 10, footprint: [[x + 8, y + 8], [x + 12, y + 8], [x + 12, y + 12], [x + 8, y + 12]] });
        trees.push({ ...tr0, x: x + 20, y: y + 20 });
      }
      const result = { ...base, placement: { ...base.placement, tiles, objects, trees, facades: [], corners: [] }, pivots: [] };
      const oldDraw = new Function('state', '$', 'svg', `${OLD}; return drawPlacement;`)(
        { ...window.__agkit, result, style: 'textured' },
        (id) => document.getElementById(id), document.getElementById('view'));
      const store = createStore({ ...window.__agkit, result: null, selection: null });
      createView2d(store, { reshaped() {} });
      const news = [], olds = [];
      for (let k = 0; k < 3; k++) {
        let a = performance.now();
        store.set({ result: { ...result } });
        news.push(performance.now() - a);
        a = performance.now();
        oldDraw();
        olds.push(performance.now() - a);
      }
      const med = (v) => Math.round(v.sort((x, y) => x - y)[1]);
      return { tiles: n, elements: document.querySelectorAll('#content *').length, dom_ms: med(news), old_innerHTML_ms: med(olds) };
    }, [n, OLD]);
    console.log(JSON.stringify(r));
  }
  await page.selectOption('#style', '3d');
  await page.waitForFunction(() => Number(document.getElementById('view3d').dataset.shown || 0) > 0, null, { timeout: 60000 });
  console.log(JSON.stringify(await page.evaluate(() => {
    const c = document.getElementById('view3d');
    const w = c.clientWidth, h = c.clientHeight;
    const a = performance.now();
    let hits = 0;
    for (let i = 0; i < 200; i++) if (window.__agkitView3d.selectionAt((i * 37) % w, (i * 53) % h)) hits++;
    return { picks: 200, items_hit: hits, ms_per_pick: +((performance.now() - a) / 200).toFixed(2), draws: Number(c.dataset.draws) };
  })));
} finally {
  await browser.close();
  child.kill();
}
