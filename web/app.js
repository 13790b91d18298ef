// agkit serve — the previewer page. Plain JavaScript modules, SVG and WebGL,
// no dependencies and no build step (docs/serve.md, "The page's code"):
//
//   state.js   the one store (subscribe) and the selection {kind, index}
//   api.js     the calls to /api/*
//   view2d.js  the SVG view: drawing, pan and zoom, polygon editing
//   view3d.js  the WebGL view of /api/place.glb, picking through node extras
//   panels.js  assets, source, diagnostics, explain, selection, messages
//   dom.js     helpers building elements with DOM calls
//   fit.js     which polygon an asset picked goes on (the server's rule)
//   geom.js, items.js, glb.js  the pure parts (tested by node --test web/test/)
//
// This module holds the store and wires the controls, the loading, the
// placement requests and the live reload to it.

import { createStore, select } from './state.js';
import * as api from './api.js';
import { f1 } from './geom.js';
import { itemOf } from './items.js';
import { pickNote, polygonFor } from './fit.js';
import { createView2d } from './view2d.js';
import { createView3d } from './view3d.js';
import { createPanels } from './panels.js';
import { $ } from './dom.js';

const LAYERS = [
  ['tiles', 'Tiles', '#3f88c5'],
  ['labels', 'Tile ids', '#102a43'],
  ['objects', 'Objects', '#1a202c'],
  ['facades', 'Facades', '#c05621'],
  ['trees', 'Trees', '#2f855a'],
  ['stops', 'Stop points', '#c53030'],
  ['pivots', 'Pivot points', '#d53f8c'],
  ['corners', 'Corners', '#c53030'],
  ['sides', 'Sides (crease)', '#dd6b20'],
  ['polygon', 'Polygon', '#fffbe6'],
  ['draped', 'Draped polygons', '#8c8c84'],
  ['lines', 'Painted lines', '#d69e2e'],
  ['airports', 'Airports (apt.dat)', '#6b6b66'],
  ['conflicts', 'Conflicts (--xplane)', '#d9381e'],
];

const store = createStore({
  files: null,            // /api/files answer
  bundled: [],            // bundled test polygons, each with the asset kinds it takes
  needs: {},              // what each asset kind needs of a polygon (/api/polygons)
  mode: 'asset',          // asset: one asset placed; tile: a whole DSF tile
  tile: null,             // the DSF tile opened (mode 'tile')
  asset: null,            // selected asset path
  kind: null,             // agp | agb | ags
  source: '',             // asset text
  lines: [],
  diagnostics: [],
  polyKey: 'bundled:lake',
  poly: null,             // {origin, windings (local metres), takes (asset kinds), label}
  pristine: null,         // the polygon as loaded (for Reset)
  polyNote: '',           // why the polygon was switched when an asset was picked
  edited: {},             // polyKey -> windings edited by dragging
  seed: 0, height: 0, low: 0, density: 6, heading: 0,
  result: null,           // last /api/place answer (placement + extras)
  conflicts: null,        // mode 'tile': the /api/conflicts answer of the tile, in its frame
  conflictsStatus: 0,     // its HTTP status (409: the server has no installation)
  error: null,
  layers: Object.fromEntries(LAYERS.map(([k]) => [k, true])),
  style: 'textured',
  selection: null,        // {kind, index, placement, from}: see state.js
  hlLine: null,           // the source line whose items stand out
  version: -1,
  renders: 0,
  inflight: false, dirty: false, seq: 0,
  view: { cx: 0, cy: 0, scale: 2 }, // metres → px; cx/cy in SVG units
  fitted: false,
  lowAuto: true,          // AGS: low byte follows the polygon's winding count
  labelSize: 1,           // median tile-id font size, metres
});
const state = store.state;
window.__agkit = state; // hook for tests and the curious

const clone = (w) => w.map((r) => r.map((p) => p.slice()));

// ------------------------------------------------------ hash and edits --

function saveHash() {
  const h = new URLSearchParams();
  if (state.mode === 'tile' && state.tile) h.set('tile', state.tile);
  else if (state.asset) h.set('asset', state.asset);
  h.set('polygon', state.polyKey);
  for (const k of ['seed', 'height', 'density', 'heading']) if (state[k]) h.set(k, state[k]);
  if (!state.lowAuto) h.set('low', state.low);
  history.replaceState(null, '', '#' + h.toString());
}

function loadHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get('asset')) state.asset = h.get('asset');
  if (h.get('tile')) { state.tile = h.get('tile'); state.mode = 'tile'; }
  if (h.get('polygon')) state.polyKey = h.get('polygon');
  for (const k of ['seed', 'height', 'low', 'density', 'heading']) {
    const v = Number(h.get(k));
    if (h.has(k) && Number.isFinite(v)) state[k] = v;
  }
  if (h.has('low')) state.lowAuto = false;
}

// Reshaped polygons survive a page reload (per browser tab).
function saveEdits() {
  try { sessionStorage.setItem('agkit-edited', JSON.stringify(state.edited)); } catch (e) { /* full or disabled */ }
}
function loadEdits() {
  try { state.edited = JSON.parse(sessionStorage.getItem('agkit-edited')) || {}; } catch (e) { state.edited = {}; }
}

// ----------------------------------------------------------- placement --

// For an AGS the low byte counts the tile-spawning contours; until the user
// sets it, every winding of the polygon spawns tiles.
function effectiveLow() {
  if (state.kind === 'ags' && state.lowAuto && state.poly) return Math.min(state.poly.windings.length, 255);
  return state.low;
}

function placeBody() {
  const low = effectiveLow();
  if (document.activeElement !== $('low')) $('low').value = low;
  $('dsf-param').textContent = String(((Math.round(state.height / 4) & 255) << 8) | (low & 255));
  const body = {
    asset: state.asset, seed: state.seed, height: state.height, low,
    density: state.density, heading: state.heading, explain: true,
  };
  if (state.kind === 'agp') body.at = state.poly ? state.poly.origin : [13, 47.5];
  else body.polygon = { origin: state.poly.origin, local: state.poly.windings };
  return body;
}

/** The answer (or error) of a placement, shown by every view. */
function placed(result, error) {
  // The selection is kept while the item it names is still placed.
  const selection = result && itemOf(result, state.selection) ? state.selection : null;
  store.set({ result, error, selection });
  if (!state.fitted) { view2d.fit(); state.fitted = true; }
  state.renders++;
  document.body.dataset.state = state.error ? 'error' : 'ready';
  document.body.dataset.renders = String(state.renders);
}

/** The query of /api/tile and /api/tile.glb: the tile opened, seed, density. */
function tileQuery() {
  return { path: state.tile, seed: String(state.seed), density: String(state.density) };
}

// One request in flight at a time; changes made meanwhile coalesce into the
// next one, so dragging a vertex stays smooth however slow the engine is.
function requestPlacement() {
  const tile = state.mode === 'tile';
  if (tile ? !state.tile : !state.asset || !state.poly) return;
  if (state.inflight) { state.dirty = true; return; }
  state.inflight = true;
  state.dirty = false;
  const seq = ++state.seq;
  const started = performance.now();
  document.body.dataset.state = 'loading';
  (tile ? api.tile(tileQuery()) : api.place(placeBody())).then((r) => {
    if (seq !== state.seq) return;
    const ms = performance.now() - started;
    $('timing').textContent = r.ok ? `placed in ${f1(r.body.elapsed_ms)} ms (round trip ${Math.round(ms)} ms)` : '';
    if (r.ok && tile) $('timing').dataset.bytes = String(r.bytes || 0);
    if (r.ok) placed(r.body, null);
    else placed(null, r.body);
    if (r.ok && tile) requestConflicts(r.body, seq);
  }).catch((e) => {
    placed(state.result, { error: e.message, stage: 'network' });
  }).finally(() => {
    state.inflight = false;
    if (state.dirty) requestPlacement();
  });
}

// What the installation places on the open tile's airports, in the frame
// of the tile's view. A server without an installation (`installation`
// false in /api/files) is not asked, and the Tile tab says how to get one. Asked again with each placement of the tile (a
// saved change may have moved what it finds).
function requestConflicts(body, seq) {
  // Without an installation there is nothing to ask: the Tile tab says so.
  if (!(state.files && state.files.installation)) {
    store.set({ conflicts: { error: 'no installation' }, conflictsStatus: 409 });
    return;
  }
  const o = body.origin;
  if (!Array.isArray(o) || o.length !== 2) return;
  api.conflicts({ path: state.tile, origin: `${o[0]},${o[1]}` }).then((r) => {
    if (seq !== state.seq) return;
    store.set({ conflicts: r.body, conflictsStatus: r.status });
  }).catch(() => { /* the placement's own request reports a lost server */ });
}

// ------------------------------------------------------ views, panels --

const view2d = createView2d(store, {
  reshaped(done) {
    if (done) {
      state.edited[state.polyKey] = clone(state.poly.windings);
      saveEdits();
    }
    store.touch('poly');
    requestPlacement();
  },
});
const view3d = createView3d(store, placeBody, tileQuery);
window.__agkitView3d = { screenOf: view3d.screenOf, selectionAt: view3d.selectionAt }; // for the e2e test
const panels = createPanels(store, { selectAsset, selectTile });

// ------------------------------------------------------------- loading --

async function loadFiles() {
  const r = await api.files();
  if (!r.ok) throw new Error(r.body.error || 'cannot list the files');
  $('root').textContent = r.body.root;
  const paths = r.body.assets.map((a) => a.path);
  const asset = !state.asset || !paths.includes(state.asset) ? paths[0] || null : state.asset;
  store.set({ files: r.body, asset });
}

async function loadPolygon() {
  let poly;
  if (state.polyKey.startsWith('file:')) {
    const r = await api.polygon(state.polyKey.slice(5));
    if (!r.ok) { panels.showMessage('Polygon file', r.body.error); return; }
    poly = { origin: r.body.origin, windings: r.body.windings, takes: r.body.takes, label: state.polyKey.slice(5) };
  } else {
    const b = state.bundled.find((p) => 'bundled:' + p.name === state.polyKey) || state.bundled[0];
    poly = { origin: b.origin, windings: b.windings, takes: b.takes, label: b.label };
  }
  state.pristine = { ...poly, windings: clone(poly.windings) };
  const edited = state.edited[state.polyKey];
  store.set({ poly: { ...poly, windings: clone(edited || poly.windings) } });
}

// An asset picked on a polygon it cannot take (an AGB on the lake) goes on
// the first test polygon that takes it, as the server says which take
// which (/api/polygons); the page says so beside the polygon menu, or, when
// none can, what the asset needs.
async function fitPolygon() {
  const pick = polygonFor(state.kind, state.poly, state.bundled);
  if (!pick) return;
  store.set({ polyNote: pickNote(state.kind, pick, state.poly.label, state.needs) });
  if (!pick.key) return;
  state.polyKey = pick.key;
  $('polygon').value = pick.key;
  await loadPolygon();
  state.fitted = false;
}

async function loadAsset() {
  if (!state.asset) return;
  const r = await api.asset(state.asset);
  if (!r.ok) {
    store.set({ source: '', lines: [], diagnostics: [] });
    panels.showMessage('Cannot read the asset', r.body.error);
    return;
  }
  const kind = state.asset.split('.').pop().toLowerCase();
  store.set({ source: r.body.source, lines: r.body.source.split(/\r?\n/), diagnostics: r.body.diagnostics || [], kind });
}

async function selectAsset(path) {
  store.set({ asset: path, mode: 'asset', result: null, selection: null, hlLine: null, polyNote: '' });
  state.fitted = false;
  await loadAsset();
  await fitPolygon();
  saveHash();
  requestPlacement();
}

// A whole DSF tile: placed by the server as `agkit place --dsf TILE --all`
// places it, drawn by the same views; the Tile tab counts it.
function selectTile(path) {
  store.set({ tile: path, mode: 'tile', result: null, error: null, selection: null, hlLine: null, conflicts: null, conflictsStatus: 0 });
  state.fitted = false;
  panels.showTab('tile');
  saveHash();
  requestPlacement();
}

// ------------------------------------------------------------ controls --

function bindNumber(id, key, out, fmt) {
  const el = $(id);
  el.value = state[key];
  if (out) $(out).textContent = fmt(state[key]);
  el.addEventListener('input', () => {
    const v = Number(el.value);
    if (!Number.isFinite(v)) return;
    store.set({ [key]: v });
    if (out) $(out).textContent = fmt(v);
    saveHash();
    requestPlacement();
  });
}

function setSeed(v) {
  store.set({ seed: Math.max(0, Math.floor(v)) >>> 0 });
  $('seed').value = state.seed;
  saveHash();
  requestPlacement();
}
$('seed-prev').addEventListener('click', () => setSeed(state.seed - 1));
$('seed-next').addEventListener('click', () => setSeed(state.seed + 1));
$('seed-rand').addEventListener('click', () => setSeed(Math.floor(Math.random() * 1e6)));

$('polygon').addEventListener('change', async () => {
  state.polyKey = $('polygon').value;
  store.set({ polyNote: '' });
  saveHash();
  await loadPolygon();
  state.fitted = false;
  requestPlacement();
});

$('reset-poly').addEventListener('click', () => {
  delete state.edited[state.polyKey];
  saveEdits();
  if (state.pristine) store.set({ poly: { ...state.pristine, windings: clone(state.pristine.windings) } });
  requestPlacement();
});

function setHeading(v) {
  store.set({ heading: ((Math.round(v) % 360) + 360) % 360 });
  $('heading').value = state.heading;
  $('dial-needle').setAttribute('transform', `rotate(${state.heading})`);
  saveHash();
  requestPlacement();
}
$('heading').addEventListener('input', () => { const v = Number($('heading').value); if (Number.isFinite(v)) setHeading(v); });
(() => {
  const dial = $('dial');
  let on = false;
  const at = (ev) => {
    const r = dial.getBoundingClientRect();
    const dx = ev.clientX - (r.left + r.width / 2), dy = ev.clientY - (r.top + r.height / 2);
    let a = Math.atan2(dx, -dy) * 180 / Math.PI;
    if (ev.shiftKey) a = Math.round(a / 15) * 15;
    setHeading(a);
  };
  dial.addEventListener('pointerdown', (ev) => { on = true; dial.setPointerCapture(ev.pointerId); at(ev); });
  dial.addEventListener('pointermove', (ev) => { if (on) at(ev); });
  dial.addEventListener('pointerup', () => { on = false; });
  dial.addEventListener('keydown', (ev) => {
    if (ev.key === 'ArrowLeft' || ev.key === 'ArrowDown') setHeading(state.heading - (ev.shiftKey ? 15 : 1));
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowUp') setHeading(state.heading + (ev.shiftKey ? 15 : 1));
  });
})();

$('style').addEventListener('change', (ev) => store.set({ style: ev.target.value }));

function buildLayers() {
  const box = $('layers');
  for (const [key, label, color] of LAYERS) {
    const l = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = state.layers[key];
    cb.dataset.layer = key;
    cb.addEventListener('change', () => { state.layers[key] = cb.checked; store.touch('layers'); });
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = color;
    l.append(cb, sw, label);
    box.append(l);
  }
}

$('fit').addEventListener('click', () => view2d.fit());

// The placement shown, as a 3-D scene: the same request to /api/place.glb,
// saved under the name the server gives.
async function downloadGlb() {
  const tile = state.mode === 'tile';
  if (tile ? !state.tile : !state.asset || !state.poly) return;
  const r = tile ? await api.tileGlb(tileQuery()) : await api.placeGlb(placeBody());
  if (!r.ok) { panels.showMessage('Cannot make the 3-D scene', r.error); return; }
  const url = URL.createObjectURL(new Blob([r.buffer], { type: 'model/gltf-binary' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: r.name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
$('download-glb').addEventListener('click', () => { downloadGlb().catch((e) => panels.showMessage('Cannot download', e.message)); });

document.addEventListener('keydown', (ev) => {
  if (ev.target.closest('input, select, textarea')) return;
  if (ev.key === 'f') { view2d.fit(); view3d.refit(); }
  if (ev.key === '[') setSeed(state.seed - 1);
  if (ev.key === ']') setSeed(state.seed + 1);
  if (ev.key === 'Escape') { store.set({ hlLine: null }); select(store, null); }
});

// --------------------------------------------------------- live reload --

async function onVersion(info) {
  if (info.version === state.version) return;
  const first = state.version < 0;
  state.version = info.version;
  if (first) return;
  const live = $('live');
  live.classList.add('flash');
  setTimeout(() => live.classList.remove('flash'), 400);
  const changed = info.changed || [];
  try {
    await loadFiles();
    if (state.polyKey.startsWith('file:') && changed.includes(state.polyKey.slice(5))) {
      delete state.edited[state.polyKey];
      saveEdits();
      await loadPolygon();
    }
    if (!changed.length || changed.includes(state.asset)) await loadAsset();
    // A tile draws from any file under the folder (its definitions, their
    // art): every change places it again.
    requestPlacement();
  } catch (e) {
    placed(state.result, { error: e.message, stage: 'network' });
  }
}

function onLive(on) {
  const live = $('live');
  live.textContent = on ? 'live' : 'reconnecting…';
  live.className = on ? 'live on' : 'live off';
}

// ---------------------------------------------------------------- start --

async function start() {
  loadHash();
  loadEdits();
  buildLayers();
  bindNumber('height', 'height', 'height-out', (v) => `${v} m`);
  $('low').addEventListener('input', () => { state.lowAuto = false; });
  bindNumber('low', 'low');
  bindNumber('density', 'density', 'density-out', (v) => String(v));
  $('seed').value = state.seed;
  $('seed').addEventListener('input', () => { const v = Number($('seed').value); if (Number.isFinite(v)) setSeed(v); });
  $('heading').value = state.heading;
  $('dial-needle').setAttribute('transform', `rotate(${state.heading})`);
  view2d.applyView(true);
  try {
    const polys = await api.polygons();
    store.set({ bundled: polys.body.polygons || [], needs: polys.body.needs || {} });
    await loadFiles();
    await loadPolygon();
    await loadAsset();
    if (state.mode !== 'tile') await fitPolygon();
    const tiles = (state.files.dsf_files || []).map((t) => t.path);
    if (state.mode === 'tile' && !tiles.includes(state.tile)) store.set({ mode: 'asset', tile: null });
    // No asset but a tile (a scenery package's folder): the
    // first tile is opened.
    if (!state.asset && state.mode !== 'tile' && tiles.length) store.set({ mode: 'tile', tile: tiles[0] });
    store.touch('mode');
    if (state.mode === 'tile') panels.showTab('tile');
    saveHash();
    if (!state.asset && state.mode !== 'tile') {
      panels.showMessage('No assets', tiles.length ? 'There are no .agp, .agb or .ags files under the served folder; open a DSF tile from the list.'
        : 'There are no .agp, .agb or .ags files (nor .dsf tiles) under the served folder.', true);
      document.body.dataset.state = 'ready';
    }
    requestPlacement();
  } catch (e) {
    panels.showMessage('Cannot start', e.message);
    document.body.dataset.state = 'error';
  }
  api.watch(onVersion, onLive);
}

start();
