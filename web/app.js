// agkit serve — the previewer page. Plain JS + SVG (and WebGL for the 3-D
// view), no dependencies.
//
// Coordinates: the drawing is in local metres of the current polygon's frame
// (x east, y north); SVG y grows down, so every y is negated when drawn. Pan
// and zoom only change the SVG viewBox: the drawing is never rebuilt for
// them. A placement is drawn at its local coordinates plus `offset` (where
// its own origin lies in the polygon's frame).
'use strict';

const $ = (id) => document.getElementById(id);
const NS = 'http://www.w3.org/2000/svg';

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
];

const state = {
  files: null,            // /api/files answer
  bundled: [],            // bundled test polygons
  asset: null,            // selected asset path
  kind: null,             // agp | agb | ags
  source: '',             // asset text
  lines: [],
  diagnostics: [],
  polyKey: 'bundled:lake',
  poly: null,             // {origin, windings (local metres)}
  pristine: null,         // the polygon as loaded (for Reset)
  edited: {},             // polyKey -> windings edited by dragging
  seed: 0, height: 0, low: 0, density: 6, heading: 0,
  result: null,           // last /api/place answer (placement + extras)
  error: null,
  layers: Object.fromEntries(LAYERS.map(([k]) => [k, true])),
  style: 'textured',
  selected: null,         // {t: kind, i: index}
  hlLine: null,
  version: -1,
  renders: 0,
  inflight: false, dirty: false, seq: 0,
  view: { cx: 0, cy: 0, scale: 2 }, // metres → px; cx/cy in SVG units
  fitted: false,
  lowAuto: true,          // AGS: low byte follows the polygon's winding count
  labelSize: 1,           // median tile-id font size, metres
};
window.__agkit = state; // hook for tests and the curious

// ------------------------------------------------------------ utilities --

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
const f1 = (v) => (Math.round(v * 10) / 10).toString();
const f2 = (v) => (Math.round(v * 100) / 100).toString();
const P = (x, y) => `${f2(x)},${f2(-y)}`; // local metres → SVG user units

async function api(path, opts) {
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw Object.assign(new Error('Lost contact with agkit serve — is it still running?'), { network: true });
  }
  let body = null;
  try { body = await res.json(); } catch (e) { body = { error: `HTTP ${res.status}: the answer is not JSON` }; }
  return { status: res.status, ok: res.ok, body };
}

function saveHash() {
  const h = new URLSearchParams();
  if (state.asset) h.set('asset', state.asset);
  h.set('polygon', state.polyKey);
  for (const k of ['seed', 'height', 'density', 'heading']) if (state[k]) h.set(k, state[k]);
  if (!state.lowAuto) h.set('low', state.low);
  history.replaceState(null, '', '#' + h.toString());
}

function loadHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get('asset')) state.asset = h.get('asset');
  if (h.get('polygon')) state.polyKey = h.get('polygon');
  for (const k of ['seed', 'height', 'low', 'density', 'heading']) {
    const v = Number(h.get(k));
    if (h.has(k) && Number.isFinite(v)) state[k] = v;
  }
  if (h.has('low')) state.lowAuto = false;
}

// ------------------------------------------------------------- view box --

const svg = $('view');

// Pan and zoom: during a gesture only a CSS transform of the <svg> element
// changes (the browser moves the already painted picture, whatever the
// number of tiles); 150 ms after the gesture the viewBox is set once and the
// drawing repainted sharp.
let committed = null;
let commitTimer = 0;
let frameQueued = false;

function commitView() {
  const r = svg.getBoundingClientRect();
  const w = Math.max(r.width, 1), h = Math.max(r.height, 1);
  const v = state.view;
  const vw = w / v.scale, vh = h / v.scale;
  svg.setAttribute('viewBox', `${v.cx - vw / 2} ${v.cy - vh / 2} ${vw} ${vh}`);
  svg.style.transform = '';
  committed = { cx: v.cx, cy: v.cy, scale: v.scale };
  // Handle and corner radii in CSS pixels whatever the zoom.
  for (const id of ['l-handles', 'l-corners', 'l-point']) $(id).style.setProperty('--px', String(1 / v.scale));
  // Grid lines one and two pixels wide (patterns ignore non-scaling strokes).
  $('grid-minor').style.strokeWidth = String(1 / v.scale);
  $('grid-major').style.strokeWidth = String(1.5 / v.scale);
  // Tile ids only where they are big enough to read.
  $('l-labels').classList.toggle('tiny', state.labelSize * v.scale < 6);
  scaleBar();
}

function scaleBar() {
  // A round number of metres near 120 px.
  const v = state.view;
  const target = 120 / v.scale;
  const p10 = Math.pow(10, Math.floor(Math.log10(target)));
  const m = [1, 2, 5, 10].map((k) => k * p10).filter((x) => x <= target).pop() || p10;
  $('scalebar-bar').style.width = `${m * v.scale}px`;
  $('scalebar-text').textContent = m >= 1000 ? `${m / 1000} km` : `${m} m`;
}

function applyView(now) {
  clearTimeout(commitTimer);
  if (now || !committed) { commitView(); return; }
  if (!frameQueued) {
    frameQueued = true;
    requestAnimationFrame(() => {
      frameQueued = false;
      if (!committed) return;
      const r = svg.getBoundingClientRect();
      const t = state.view, c = committed, k = t.scale / c.scale;
      if (t.cx === c.cx && t.cy === c.cy && t.scale === c.scale) return;
      const tx = (c.cx - t.cx) * t.scale + (r.width / 2) * (1 - k);
      const ty = (c.cy - t.cy) * t.scale + (r.height / 2) * (1 - k);
      svg.style.transform = `translate(${tx}px, ${ty}px) scale(${k})`;
      scaleBar();
    });
  }
  commitTimer = setTimeout(commitView, 150);
}

function clientToLocal(ev) {
  const r = svg.getBoundingClientRect();
  const v = state.view;
  const sx = v.cx + (ev.clientX - r.left - r.width / 2) / v.scale;
  const sy = v.cy + (ev.clientY - r.top - r.height / 2) / v.scale;
  return [sx, -sy];
}

function bounds() {
  let b = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x, y) => { b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)]; };
  if (state.poly && state.kind !== 'agp') state.poly.windings.forEach((w) => w.forEach((p) => add(p[0], p[1])));
  const pl = state.result && state.result.placement;
  if (pl) {
    const [ox, oy] = state.result.offset;
    pl.tiles.forEach((t) => t.polygon.forEach((p) => add(p[0] + ox, p[1] + oy)));
    pl.facades.forEach((f) => f.polygon.forEach((p) => add(p[0] + ox, p[1] + oy)));
    pl.objects.forEach((o) => add(o.x + ox, o.y + oy));
  }
  if (!Number.isFinite(b[0])) b = [-50, -50, 50, 50];
  return b;
}

function fit() {
  const b = bounds();
  const r = svg.getBoundingClientRect();
  const w = Math.max(b[2] - b[0], 10), h = Math.max(b[3] - b[1], 10);
  state.view.scale = Math.min((r.width - 60) / w, (r.height - 60) / h);
  if (!Number.isFinite(state.view.scale) || state.view.scale <= 0) state.view.scale = 2;
  state.view.cx = (b[0] + b[2]) / 2;
  state.view.cy = -(b[1] + b[3]) / 2;
  applyView(true);
}

// Pan with the mouse (or one finger), zoom with the wheel around the cursor.
let pan = null;
svg.addEventListener('pointerdown', (ev) => {
  if (ev.button !== 0 || ev.target.classList.contains('handle')) return;
  pan = { x: ev.clientX, y: ev.clientY, cx: state.view.cx, cy: state.view.cy, moved: false, target: ev.target };
  svg.setPointerCapture(ev.pointerId);
});
svg.addEventListener('pointermove', (ev) => {
  if (drag) return dragMove(ev);
  if (!pan) return hover(ev);
  const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) { pan.moved = true; svg.classList.add('panning'); hideTip(); }
  state.view.cx = pan.cx - dx / state.view.scale;
  state.view.cy = pan.cy - dy / state.view.scale;
  applyView();
});
svg.addEventListener('pointerup', (ev) => {
  if (drag) return dragEnd(ev);
  if (pan && !pan.moved) click(pan.target);
  pan = null;
  svg.classList.remove('panning');
});
svg.addEventListener('pointerleave', hideTip);
svg.addEventListener('wheel', (ev) => {
  ev.preventDefault();
  const r = svg.getBoundingClientRect();
  const v = state.view;
  const mx = ev.clientX - r.left - r.width / 2, my = ev.clientY - r.top - r.height / 2;
  const before = [v.cx + mx / v.scale, v.cy + my / v.scale];
  const k = Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015));
  v.scale = Math.min(Math.max(v.scale * k, 0.005), 500);
  v.cx = before[0] - mx / v.scale;
  v.cy = before[1] - my / v.scale;
  applyView();
}, { passive: false });
window.addEventListener('resize', () => applyView(true));

// ------------------------------------------------------- polygon editing --

let drag = null;
$('l-handles').addEventListener('pointerdown', (ev) => {
  const h = ev.target;
  if (!h.classList.contains('handle')) return;
  ev.stopPropagation();
  const w = Number(h.dataset.w), i = Number(h.dataset.i);
  if (ev.altKey) { // remove a vertex (keep at least 3)
    if (state.poly.windings[w].length > 3) {
      state.poly.windings[w].splice(i, 1);
      polygonEdited();
    }
    return;
  }
  drag = { w, i, id: ev.pointerId };
  svg.setPointerCapture(ev.pointerId);
});
function dragMove(ev) {
  const p = clientToLocal(ev);
  state.poly.windings[drag.w][drag.i] = [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
  drawPolygonOnly();
  requestPlacement();
}
function dragEnd() {
  drag = null;
  polygonEdited();
}
svg.addEventListener('dblclick', (ev) => {
  if (!state.poly || state.kind === 'agp' || !state.layers.polygon) return;
  // Insert a vertex on the nearest edge if it is within 12 px.
  const p = clientToLocal(ev);
  let best = null;
  state.poly.windings.forEach((w, wi) => w.forEach((a, i) => {
    const b = w[(i + 1) % w.length];
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
    const q = [a[0] + t * dx, a[1] + t * dy];
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (!best || d < best.d) best = { d, wi, i, q };
  }));
  if (best && best.d * state.view.scale < 12) {
    state.poly.windings[best.wi].splice(best.i + 1, 0, best.q.map((v) => Math.round(v * 10) / 10));
    polygonEdited();
  }
});
function polygonEdited() {
  state.edited[state.polyKey] = state.poly.windings.map((w) => w.map((p) => p.slice()));
  saveEdits();
  drawPolygonOnly();
  requestPlacement();
}
// Reshaped polygons survive a page reload (per browser tab).
function saveEdits() {
  try { sessionStorage.setItem('agkit-edited', JSON.stringify(state.edited)); } catch (e) { /* full or disabled */ }
}
function loadEdits() {
  try { state.edited = JSON.parse(sessionStorage.getItem('agkit-edited')) || {}; } catch (e) { state.edited = {}; }
}
$('reset-poly').addEventListener('click', () => {
  delete state.edited[state.polyKey];
  saveEdits();
  if (state.pristine) state.poly = { origin: state.pristine.origin, windings: clone(state.pristine.windings) };
  requestPlacement();
});
const clone = (w) => w.map((r) => r.map((p) => p.slice()));

// ------------------------------------------------------------- loading --

async function loadFiles() {
  const r = await api('/api/files');
  if (!r.ok) throw new Error(r.body.error || 'cannot list the files');
  state.files = r.body;
  $('root').textContent = r.body.root;
  renderAssetList();
  renderPolygonSelect();
  const paths = r.body.assets.map((a) => a.path);
  if (!state.asset || !paths.includes(state.asset)) state.asset = paths[0] || null;
}

function renderAssetList() {
  const ul = $('assets');
  const q = $('filter').value.trim().toLowerCase();
  ul.textContent = '';
  const assets = (state.files ? state.files.assets : []).filter((a) => a.path.toLowerCase().includes(q));
  if (!assets.length) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = state.files && state.files.assets.length ? 'no match' : 'no .agp/.agb/.ags files under this folder';
    ul.append(li);
  }
  for (const a of assets) {
    const li = document.createElement('li');
    li.dataset.path = a.path;
    li.title = a.path;
    li.className = a.path === state.asset ? 'on' : '';
    const k = document.createElement('span');
    k.className = 'kind';
    k.textContent = a.kind;
    li.append(k, a.path);
    li.addEventListener('click', () => selectAsset(a.path));
    ul.append(li);
  }
}
$('filter').addEventListener('input', renderAssetList);

function renderPolygonSelect() {
  const sel = $('polygon');
  sel.textContent = '';
  const g1 = document.createElement('optgroup');
  g1.label = 'Test polygons';
  for (const p of state.bundled) g1.append(new Option(p.label, 'bundled:' + p.name));
  sel.append(g1);
  const files = state.files ? state.files.polygon_files : [];
  if (files.length) {
    const g2 = document.createElement('optgroup');
    g2.label = 'GeoJSON files';
    for (const f of files) g2.append(new Option(f, 'file:' + f));
    sel.append(g2);
  }
  const ok = [...sel.options].some((o) => o.value === state.polyKey);
  if (!ok) state.polyKey = 'bundled:lake';
  sel.value = state.polyKey;
}

async function loadPolygon() {
  let poly;
  if (state.polyKey.startsWith('file:')) {
    const r = await api('/api/polygon?path=' + encodeURIComponent(state.polyKey.slice(5)));
    if (!r.ok) { showMessage('Polygon file', r.body.error); return; }
    poly = { origin: r.body.origin, windings: r.body.windings };
  } else {
    const b = state.bundled.find((p) => 'bundled:' + p.name === state.polyKey) || state.bundled[0];
    poly = { origin: b.origin, windings: b.windings };
  }
  state.pristine = { origin: poly.origin, windings: clone(poly.windings) };
  const edited = state.edited[state.polyKey];
  state.poly = { origin: poly.origin, windings: clone(edited || poly.windings) };
}

async function loadAsset() {
  if (!state.asset) return;
  const r = await api('/api/asset?path=' + encodeURIComponent(state.asset));
  if (!r.ok) {
    state.source = '';
    state.diagnostics = [];
    renderSource();
    showMessage('Cannot read the asset', r.body.error);
    return;
  }
  state.source = r.body.source;
  state.lines = state.source.split(/\r?\n/);
  state.diagnostics = r.body.diagnostics || [];
  const ext = state.asset.split('.').pop().toLowerCase();
  state.kind = ext;
  renderSource();
  renderKindControls();
}

function renderKindControls() {
  const point = state.kind === 'agp';
  $('poly-controls').hidden = point;
  $('point-controls').hidden = !point;
  $('low-label').textContent = state.kind === 'agb' ? 'Spelling set (low byte)'
    : state.kind === 'ags' ? 'Spawning contours (low byte)' : 'Low byte';
  $('asset-title').textContent = state.asset || '';
}

async function selectAsset(path) {
  state.asset = path;
  state.selected = null;
  state.hlLine = null;
  state.fitted = false;
  renderAssetList();
  await loadAsset();
  saveHash();
  requestPlacement();
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

// One request in flight at a time; changes made meanwhile coalesce into the
// next one, so dragging a vertex stays smooth however slow the engine is.
function requestPlacement() {
  if (!state.asset || !state.poly) return;
  if (state.inflight) { state.dirty = true; return; }
  state.inflight = true;
  state.dirty = false;
  const seq = ++state.seq;
  const started = performance.now();
  document.body.dataset.state = 'loading';
  api('/api/place', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(placeBody()),
  }).then((r) => {
    if (seq !== state.seq) return;
    if (r.ok) {
      state.result = r.body;
      state.error = null;
    } else {
      state.result = null;
      state.error = r.body;
    }
    const ms = performance.now() - started;
    $('timing').textContent = r.ok ? `placed in ${f1(r.body.elapsed_ms)} ms (round trip ${Math.round(ms)} ms)` : '';
    render();
  }).catch((e) => {
    state.error = { error: e.message, stage: 'network' };
    render();
  }).finally(() => {
    state.inflight = false;
    if (state.dirty) requestPlacement();
  });
}

// ------------------------------------------------------------- drawing --

function render() {
  if (state.style === '3d') v3Update().catch((e) => { $('view3d').dataset.error = e.message; });
  drawPlacement();
  drawPolygonOnly();
  renderMessage();
  renderExplain();
  renderCounts();
  markUsedLines();
  if (state.selected) renderInfo();
  if (!state.fitted) { fit(); state.fitted = true; }
  state.renders++;
  document.body.dataset.state = state.error ? 'error' : 'ready';
  document.body.dataset.renders = String(state.renders);
}

function pathOf(points, ox, oy) {
  if (!points.length) return '';
  return 'M' + points.map((p) => P(p[0] + ox, p[1] + oy)).join('L') + 'Z';
}

// The affine map taking the points `from` onto `to` ([a, b, c, d, e, f]:
// x' = a·x + c·y + e, y' = b·x + d·y + f), fitted on the first point and the
// two others spanning the largest triangle; null when they are on a line.
function affineOf(from, to) {
  const n = Math.min(from.length, to.length);
  let best = [0, 0, 0];
  for (let j = 1; j < n; j++) {
    for (let k = j + 1; k < n; k++) {
      const det = (from[j][0] - from[0][0]) * (from[k][1] - from[0][1]) - (from[k][0] - from[0][0]) * (from[j][1] - from[0][1]);
      if (Math.abs(det) > Math.abs(best[0])) best = [det, j, k];
    }
  }
  const [det, j, k] = best;
  if (Math.abs(det) < 1e-9) return null;
  const q1 = [from[j][0] - from[0][0], from[j][1] - from[0][1]], q2 = [from[k][0] - from[0][0], from[k][1] - from[0][1]];
  const p1 = [to[j][0] - to[0][0], to[j][1] - to[0][1]], p2 = [to[k][0] - to[0][0], to[k][1] - to[0][1]];
  const inv = [q2[1] / det, -q2[0] / det, -q1[1] / det, q1[0] / det];
  const a = p1[0] * inv[0] + p2[0] * inv[2], c = p1[0] * inv[1] + p2[0] * inv[3];
  const b = p1[1] * inv[0] + p2[1] * inv[2], d = p1[1] * inv[1] + p2[1] * inv[3];
  return [a, b, c, d, to[0][0] - a * from[0][0] - c * from[0][1], to[0][1] - b * from[0][0] - d * from[0][1]];
}

// Textured view: each shown tile drawn with its texture (served as PNG by
// /api/texture), the texture's TEXTURE_SCALE pixels mapped onto the tile
// by the affine map its vertices give, and cut to the tile's outline.
function groundOf(pl, tex, ox, oy) {
  const out = [];
  const [sw, sh] = tex.scale;
  const href = `/api/texture?path=${encodeURIComponent(tex.path)}`;
  pl.tiles.forEach((t, i) => {
    if (t.hidden || t.uv.length !== t.polygon.length) return;
    const from = t.uv.map(([u, v]) => [u, sh - v]);
    const to = t.polygon.map(([x, y]) => [x + ox, -(y + oy)]);
    const m = affineOf(from, to);
    if (!m) return;
    out.push(`<clipPath id="gc${i}"><path d="${pathOf(t.polygon, ox, oy)}"/></clipPath><g clip-path="url(#gc${i})"><image class="ground" data-i="${i}" href="${esc(href)}" width="${sw}" height="${sh}" preserveAspectRatio="none" transform="matrix(${m.map((v) => v.toFixed(6)).join(' ')})"/></g>`);
  });
  return out;
}

function drawPlacement() {
  const pl = state.result && state.result.placement;
  const L = state.layers;
  const textured = state.style === 'textured';
  document.body.classList.toggle('textured', textured);
  const parts = { ground: [], tiles: [], labels: [], facades: [], trees: [], objects: [], stops: [], pivots: [], corners: [], point: [] };
  let nTiles = 0;
  const labelSizes = [];
  if (pl) {
    const [ox, oy] = state.result.offset;
    const tex = textured && state.result.texture;
    if (tex) parts.ground = groundOf(pl, tex, ox, oy);
    pl.tiles.forEach((t, i) => {
      const cls = `tile role-${t.role}${t.hidden ? ' hidden' : ''}${t.unit % 2 ? ' alt' : ''}${tex && !t.hidden ? ' drawn' : ''}`;
      parts.tiles.push(`<path class="${cls}" data-t="tile" data-i="${i}" data-line="${t.source_line}" d="${pathOf(t.polygon, ox, oy)}"/>`);
      nTiles++;
      // Label at the centroid, sized to the tile.
      let cx = 0, cy = 0;
      t.polygon.forEach((p) => { cx += p[0]; cy += p[1]; });
      const n = t.polygon.length || 1;
      cx = cx / n + ox; cy = cy / n + oy;
      let minD = Infinity;
      t.polygon.forEach((p, k) => {
        const q = t.polygon[(k + 1) % n];
        minD = Math.min(minD, Math.hypot(q[0] - p[0], q[1] - p[1]));
      });
      const fs = Math.max(0.4, Math.min(minD * 0.4, 4));
      labelSizes.push(fs);
      parts.labels.push(`<text class="label" x="${f2(cx)}" y="${f2(-cy)}" font-size="${f2(fs)}" stroke-width="${f2(fs * 0.1)}">${esc(t.id)}</text>`);
      t.stop_points.forEach((s) => {
        const [x, y] = [s[0] + ox, s[1] + oy], d = 0.9;
        parts.stops.push(`<path class="stop" data-t="stop" data-i="${i}" data-line="${t.source_line}" d="M${P(x - d, y - d)}L${P(x + d, y + d)}M${P(x - d, y + d)}L${P(x + d, y - d)}"/>`);
      });
    });
    pl.facades.forEach((f, i) => {
      parts.facades.push(`<path class="facade" data-t="facade" data-i="${i}" data-line="${f.source_line}" d="${pathOf(f.polygon, ox, oy)}"/>`);
    });
    pl.trees.forEach((t, i) => {
      parts.trees.push(`<circle class="tree" data-t="tree" data-i="${i}" data-line="${t.source_line}" cx="${f2(t.x + ox)}" cy="${f2(-(t.y + oy))}" r="${f2(Math.max(t.width / 2, 0.5))}"/>`);
    });
    pl.objects.forEach((o, i) => {
      const x = o.x + ox, y = o.y + oy, a = o.heading * Math.PI / 180, len = 3;
      // One path per object: a 1.2 m disc and its heading tick.
      const r = 0.9, tx = x + Math.sin(a) * len, ty = y + Math.cos(a) * len;
      if (textured && o.footprint && o.footprint.length >= 3) {
        parts.objects.push(`<path class="footprint" data-t="object" data-i="${i}" data-line="${o.source_line}" d="${pathOf(o.footprint, ox, oy)}"/>`);
      }
      parts.objects.push(`<path class="obj" data-t="object" data-i="${i}" data-line="${o.source_line}" d="M${f2(x - r)},${f2(-y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0M${P(x, y)}L${P(tx, ty)}"/>`);
    });
    (state.result.pivots || []).forEach((p, i) => {
      const x = p.x + ox, y = p.y + oy, d = 1.1;
      parts.pivots.push(`<path class="pivot" data-t="pivot" data-i="${i}" data-line="${p.source_line}" d="M${P(x, y + d)}L${P(x + d, y)}L${P(x, y - d)}L${P(x - d, y)}Z"/>`);
    });
    pl.corners.forEach((c, i) => {
      parts.corners.push(`<circle class="corner" data-t="corner" data-i="${i}" cx="${f2(c.x + ox)}" cy="${f2(-(c.y + oy))}"/>`);
    });
    if (pl.kind === 'agp') {
      const a = state.heading * Math.PI / 180, len = 12;
      parts.point.push(`<line class="dsf-heading" x1="${f2(ox)}" y1="${f2(-oy)}" x2="${f2(ox + Math.sin(a) * len)}" y2="${f2(-(oy + Math.cos(a) * len))}"/><circle class="dsf-point" cx="${f2(ox)}" cy="${f2(-oy)}"/>`);
    }
  }
  const set = (id, key, on) => { $(id).innerHTML = on ? parts[key].join('') : ''; };
  set('l-ground', 'ground', L.tiles);
  set('l-tiles', 'tiles', L.tiles);
  set('l-labels', 'labels', L.labels && L.tiles);
  set('l-facades', 'facades', L.facades);
  set('l-trees', 'trees', L.trees);
  set('l-objects', 'objects', L.objects);
  set('l-stops', 'stops', L.stops);
  set('l-pivots', 'pivots', L.pivots);
  set('l-corners', 'corners', L.corners);
  set('l-point', 'point', true);
  svg.dataset.tiles = String(L.tiles ? nTiles : 0);
  labelSizes.sort((a, b) => a - b);
  state.labelSize = labelSizes.length ? labelSizes[labelSizes.length >> 1] : 1;
  $('l-labels').classList.toggle('tiny', state.labelSize * state.view.scale < 6);
  svg.dataset.placedTiles = String(nTiles);
  svg.dataset.style = state.style;
  applyHighlight();
}

// The polygon, its handles and its sides split at the corners the engine
// found (alternating colours show where the crease angle cut).
function drawPolygonOnly() {
  const L = state.layers;
  const poly = state.poly;
  if (!poly || state.kind === 'agp') {
    for (const id of ['l-fill', 'l-sides', 'l-handles']) $(id).innerHTML = '';
    return;
  }
  const d = poly.windings.map((w) => pathOf(w, 0, 0)).join('');
  $('l-fill').innerHTML = L.polygon ? `<path class="poly-fill" d="${d}"/><path class="outline" d="${d}"/>` : '';
  const handles = [];
  if (L.polygon) {
    poly.windings.forEach((w, wi) => w.forEach((p, i) => {
      handles.push(`<circle class="handle" data-w="${wi}" data-i="${i}" cx="${f2(p[0])}" cy="${f2(-p[1])}"><title>vertex ${i} of winding ${wi}: ${f1(p[0])}, ${f1(p[1])} m</title></circle>`);
    }));
  }
  $('l-handles').innerHTML = handles.join('');
  const sides = [];
  const pl = state.result && state.result.placement;
  if (L.sides && pl && pl.corners.length) {
    const [ox, oy] = state.result.offset;
    const isCorner = (p) => pl.corners.some((c) => Math.hypot(c.x + ox - p[0], c.y + oy - p[1]) < 0.05);
    poly.windings.forEach((w) => {
      const n = w.length;
      const start = w.findIndex(isCorner);
      if (start < 0) { sides.push(`<path class="side side-a" d="${pathOf(w, 0, 0)}"/>`); return; }
      let run = [w[start]], k = 0;
      for (let s = 1; s <= n; s++) {
        const p = w[(start + s) % n];
        run.push(p);
        if (isCorner(p)) {
          sides.push(`<path class="side ${k % 2 ? 'side-b' : 'side-a'}" d="M${run.map((q) => P(q[0], q[1])).join('L')}"/>`);
          run = [p]; k++;
        }
      }
    });
  }
  $('l-sides').innerHTML = sides.join('');
}

function renderCounts() {
  const pl = state.result && state.result.placement;
  $('counts').textContent = pl
    ? `${pl.tiles.length} tiles · ${pl.objects.length} objects · ${pl.facades.length} facades · ${pl.trees.length} trees · ${pl.corners.length} corners${pl.warnings.length ? ` · ${pl.warnings.length} warnings` : ''}`
    : '';
}

function showMessage(title, text, info) {
  const m = $('message');
  m.className = info ? 'message info' : 'message';
  m.textContent = '';
  const h = document.createElement('h4');
  h.textContent = title;
  const x = document.createElement('button');
  x.type = 'button';
  x.className = 'close';
  x.title = 'Hide this message';
  x.textContent = '×';
  x.addEventListener('click', () => { m.hidden = true; });
  m.append(x, h, document.createTextNode(text || ''));
  m.hidden = false;
}

function renderMessage() {
  const m = $('message');
  const e = state.error;
  const pl = state.result && state.result.placement;
  if (!e) {
    if (pl && pl.warnings.length) {
      showMessage(`${pl.warnings.length} warning(s) while placing`, '', true);
      const ul = document.createElement('ul');
      pl.warnings.slice(0, 6).forEach((w) => { const li = document.createElement('li'); li.textContent = w; ul.append(li); });
      m.append(ul);
    } else if (pl && !pl.tiles.length && !pl.objects.length) {
      showMessage('Nothing placed', 'The engine placed no tiles and no objects for these settings.', true);
    } else {
      m.hidden = true;
    }
    return;
  }
  const title = e.stage === 'check' ? 'The asset has errors (agkit check)'
    : e.stage === 'parse' ? 'The asset cannot be parsed'
    : e.stage === 'place' ? 'The engine cannot place this asset here'
    : e.stage === 'network' ? 'No connection' : 'Request failed';
  showMessage(title, e.error || 'unknown error');
  const errs = (e.diagnostics || []).filter((d) => d.severity === 'error');
  if (errs.length) {
    const ul = document.createElement('ul');
    errs.slice(0, 5).forEach((d) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = `line ${d.line ?? '?'}: ${d.code} ${d.message}`;
      a.addEventListener('click', (ev) => { ev.preventDefault(); gotoLine(d.line); });
      li.append(a);
      ul.append(li);
    });
    if (errs.length > 5) {
      const li = document.createElement('li');
      li.textContent = `and ${errs.length - 5} more in the Source tab`;
      ul.append(li);
    }
    m.append(ul);
  }
}

// --------------------------------------------------------- side panels --

function renderSource() {
  const box = $('source');
  const byLine = new Map();
  for (const d of state.diagnostics) {
    if (d.line == null) continue;
    const prev = byLine.get(d.line);
    const rank = { error: 0, warning: 1, note: 2 };
    if (!prev || rank[d.severity] < rank[prev.severity]) byLine.set(d.line, d);
  }
  const frag = document.createDocumentFragment();
  state.lines.forEach((text, i) => {
    const n = i + 1;
    const div = document.createElement('div');
    const d = byLine.get(n);
    div.className = 'ln' + (d ? ' ' + d.severity : '');
    div.dataset.line = String(n);
    if (d) div.title = `${d.severity} ${d.code}: ${d.message}`;
    const no = document.createElement('span');
    no.className = 'no';
    no.textContent = String(n);
    const code = document.createElement('span');
    // Light highlighting: the directive keyword and whole-line comments.
    const m = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(text);
    if (/^\s*#/.test(text)) {
      code.className = 'cm';
      code.textContent = text;
    } else if (m) {
      const kw = document.createElement('b');
      kw.className = 'kw';
      kw.textContent = m[2];
      code.append(m[1], kw, m[3]);
    } else {
      code.textContent = text || ' ';
    }
    div.append(no, code);
    frag.append(div);
  });
  box.textContent = '';
  box.append(frag);
  const ul = $('diagnostics');
  ul.textContent = '';
  const nErr = state.diagnostics.filter((d) => d.severity === 'error').length;
  const nWarn = state.diagnostics.filter((d) => d.severity === 'warning').length;
  $('diag-count').textContent = state.diagnostics.length ? `(${nErr}✗ ${nWarn}⚠)` : '';
  if (!state.diagnostics.length && state.asset) {
    const li = document.createElement('li');
    li.className = 'ok';
    li.textContent = '✓ agkit check: no problems';
    ul.append(li);
  }
  for (const d of state.diagnostics) {
    const li = document.createElement('li');
    li.className = d.severity;
    li.dataset.line = d.line ?? '';
    const sev = document.createElement('span');
    sev.className = 'sev';
    sev.textContent = `${d.severity}[${d.code}] `;
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = d.line != null ? ` ${d.file}:${d.line}:${d.column}` : ` ${d.file}`;
    li.append(sev, document.createTextNode(d.message), where);
    li.addEventListener('click', () => gotoLine(d.line));
    ul.append(li);
  }
  markUsedLines();
}

// Clicking a source line highlights what it placed.
$('source').addEventListener('click', (ev) => {
  const ln = ev.target.closest('.ln');
  if (!ln) return;
  const n = Number(ln.dataset.line);
  state.hlLine = state.hlLine === n ? null : n;
  focusLine(state.hlLine, false);
  applyHighlight();
});

function markUsedLines() {
  const used = new Set();
  const pl = state.result && state.result.placement;
  if (pl) {
    for (const x of [...pl.tiles, ...pl.objects, ...pl.facades, ...pl.trees]) used.add(x.source_line);
  }
  for (const el of $('source').children) el.classList.toggle('used', used.has(Number(el.dataset.line)));
}

function focusLine(n, scroll = true) {
  for (const el of $('source').querySelectorAll('.focus')) el.classList.remove('focus');
  if (!n) return;
  const el = $('source').querySelector(`.ln[data-line="${n}"]`);
  if (!el) return;
  el.classList.add('focus');
  if (scroll) el.scrollIntoView({ block: 'center' });
}

function gotoLine(n) {
  showTab('source');
  focusLine(n);
}

function applyHighlight() {
  const content = $('content');
  for (const el of content.querySelectorAll('.hl')) el.classList.remove('hl');
  content.classList.toggle('hl-mode', !!state.hlLine);
  if (!state.hlLine) return;
  for (const el of content.querySelectorAll(`[data-line="${state.hlLine}"]`)) el.classList.add('hl');
}

function renderExplain() {
  const ol = $('explain');
  ol.textContent = '';
  const ex = state.result && state.result.placement ? state.result.placement.explain || [] : [];
  if (!ex.length) {
    const li = document.createElement('li');
    li.className = 'dim';
    li.textContent = state.error ? 'No placement.' : 'The engine recorded no explanation.';
    ol.append(li);
  }
  for (const line of ex) {
    const li = document.createElement('li');
    li.textContent = line;
    ol.append(li);
  }
}

function showTab(name) {
  for (const b of document.querySelectorAll('.tabs button')) b.classList.toggle('on', b.dataset.tab === name);
  for (const t of ['source', 'explain', 'info']) $('tab-' + t).hidden = t !== name;
}
for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));

// ------------------------------------------------- hover and selection --

function itemOf(el) {
  const hit = el && el.closest && el.closest('[data-t]');
  if (!hit || !state.result) return null;
  return { t: hit.dataset.t, i: Number(hit.dataset.i) };
}

function lineText(n) {
  return n && state.lines[n - 1] !== undefined ? state.lines[n - 1].trim() : '';
}

function describe(it) {
  const r = state.result, pl = r.placement;
  const rows = [];
  const line = (n) => rows.push(['line', n ? `${n}: ${lineText(n)}` : '—', n]);
  if (it.t === 'tile' || it.t === 'stop') {
    const t = pl.tiles[it.i];
    rows.push(['tile', `${t.id} (${t.role}${t.hidden ? ', hidden' : ''})`]);
    rows.push(['unit / order', `${t.unit} / ${t.order}`]);
    const us = t.uv.map((p) => p[0]), vs = t.uv.map((p) => p[1]);
    if (us.length) rows.push(['texture px', `${f1(Math.min(...us))} ${f1(Math.min(...vs))} → ${f1(Math.max(...us))} ${f1(Math.max(...vs))}`]);
    const n = t.polygon.length;
    if (n) rows.push(['sides m', t.polygon.map((p, k) => { const q = t.polygon[(k + 1) % n]; return f1(Math.hypot(q[0] - p[0], q[1] - p[1])); }).join(', ')]);
    if (t.stop_points.length) rows.push(['stop points', t.stop_points.map((p) => `(${f1(p[0])}, ${f1(p[1])})`).join(' ')]);
    if (t.ground_point) rows.push(['ground point', `(${f1(t.ground_point[0])}, ${f1(t.ground_point[1])})`]);
    line(t.source_line);
  } else if (it.t === 'object') {
    const o = pl.objects[it.i];
    rows.push(['object', o.asset]);
    rows.push(['index / mode', `${o.index} / ${o.mode}`]);
    rows.push(['heading', `${f1(o.heading)}°`]);
    rows.push(['height', `${f1(o.height)} m`]);
    if (o.show) rows.push(['show levels', o.show.join('–')]);
    rows.push(['at', `(${f1(o.x)}, ${f1(o.y)}) m · ${o.lat.toFixed(7)}, ${o.lon.toFixed(7)}`]);
    rows.push(['on tile', `${pl.tiles[o.tile] ? pl.tiles[o.tile].id : o.tile}`]);
    line(o.source_line);
  } else if (it.t === 'facade') {
    const f = pl.facades[it.i];
    rows.push(['facade', f.asset]);
    rows.push(['height', `${f1(f.height)} m`]);
    rows.push(['points', String(f.polygon.length)]);
    if (f.walls) rows.push(['walls', f.walls.join(' ')]);
    line(f.source_line);
  } else if (it.t === 'tree') {
    const t = pl.trees[it.i];
    rows.push(['tree', `width ${f1(t.width)} m, layer ${t.layer}`]);
    rows.push(['heading', `${f1(t.heading)}°`]);
    rows.push(['tile', t.tile == null ? 'fill tree' : String(pl.tiles[t.tile] ? pl.tiles[t.tile].id : t.tile)]);
    line(t.source_line);
  } else if (it.t === 'pivot') {
    const p = r.pivots[it.i];
    rows.push(['pivot', `${p.kind} of tile ${pl.tiles[p.tile] ? pl.tiles[p.tile].id : p.tile}`]);
    rows.push(['at', `(${f1(p.x)}, ${f1(p.y)}) m`]);
    line(p.source_line);
  } else if (it.t === 'corner') {
    const c = pl.corners[it.i];
    rows.push(['corner', `turn ${f1(c.turn)}° (${c.turn >= 0 ? 'right' : 'left'})`]);
    rows.push(['at', `(${f1(c.x)}, ${f1(c.y)}) m`]);
  }
  return rows;
}

const tip = $('tooltip');
function hover(ev) {
  const it = itemOf(ev.target);
  if (!it) return hideTip();
  let rows;
  try { rows = describe(it); } catch (e) { return hideTip(); }
  tip.textContent = '';
  rows.forEach(([k, v]) => {
    const b = document.createElement('b');
    b.textContent = k + ': ';
    tip.append(b, document.createTextNode(v), document.createElement('br'));
  });
  const r = $('stage').getBoundingClientRect();
  tip.hidden = false;
  const x = Math.min(ev.clientX - r.left + 14, r.width - tip.offsetWidth - 4);
  const y = Math.min(ev.clientY - r.top + 14, r.height - tip.offsetHeight - 4);
  tip.style.left = `${Math.max(x, 4)}px`;
  tip.style.top = `${Math.max(y, 4)}px`;
}
function hideTip() { tip.hidden = true; }

function click(target) {
  const it = itemOf(target);
  for (const el of $('content').querySelectorAll('.sel')) el.classList.remove('sel');
  state.selected = it;
  if (!it) return;
  const el = target.closest('[data-t]');
  el.classList.add('sel');
  renderInfo();
  showTab('info');
}

function renderInfo() {
  const box = $('info');
  box.textContent = '';
  const it = state.selected;
  if (!it || !state.result) return;
  let rows;
  try { rows = describe(it); } catch (e) { return; }
  const table = document.createElement('table');
  for (const [k, v, n] of rows) {
    const tr = document.createElement('tr');
    const a = document.createElement('td'), b = document.createElement('td');
    a.textContent = k;
    if (n) {
      const link = document.createElement('a');
      link.textContent = v;
      link.addEventListener('click', () => { state.hlLine = n; applyHighlight(); gotoLine(n); });
      b.append(link);
    } else {
      b.textContent = v;
    }
    tr.append(a, b);
    table.append(tr);
  }
  box.append(table);
  // The texture rectangle of the selected tile, or of the tile the selected
  // object, facade, tree or pivot belongs to.
  const pl = state.result.placement;
  const owner = it.t === 'tile' || it.t === 'stop' ? it.i
    : it.t === 'object' ? pl.objects[it.i].tile
    : it.t === 'facade' ? pl.facades[it.i].tile
    : it.t === 'tree' ? pl.trees[it.i].tile
    : it.t === 'pivot' ? state.result.pivots[it.i].tile : null;
  renderTexture(owner);
}

// The texture space with every placed tile's rectangle; v grows up.
function renderTexture(selTile) {
  const tex = $('texture');
  const pl = state.result && state.result.placement;
  if (!pl || !pl.tiles.length) { tex.innerHTML = ''; return; }
  let b = [Infinity, Infinity, -Infinity, -Infinity];
  pl.tiles.forEach((t) => t.uv.forEach((p) => { b = [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])]; }));
  if (!Number.isFinite(b[0])) { tex.innerHTML = ''; return; }
  const w = Math.max(b[2] - b[0], 1), h = Math.max(b[3] - b[1], 1), m = Math.max(w, h) * 0.03;
  tex.setAttribute('viewBox', `${b[0] - m} ${-b[3] - m} ${w + 2 * m} ${h + 2 * m}`);
  const seen = new Set();
  const parts = [];
  pl.tiles.forEach((t, i) => {
    const d = 'M' + t.uv.map((p) => `${f1(p[0])},${f1(-p[1])}`).join('L') + 'Z';
    if (i !== selTile && seen.has(d)) return;
    seen.add(d);
    if (i !== selTile) parts.push(`<path class="uv" d="${d}"/>`);
  });
  if (selTile != null && pl.tiles[selTile]) {
    const t = pl.tiles[selTile];
    parts.push(`<path class="uv sel" d="M${t.uv.map((p) => `${f1(p[0])},${f1(-p[1])}`).join('L')}Z"/>`);
  }
  tex.innerHTML = parts.join('');
}

// ------------------------------------------------------------ controls --

function bindNumber(id, key, out, fmt) {
  const el = $(id);
  el.value = state[key];
  if (out) $(out).textContent = fmt(state[key]);
  el.addEventListener('input', () => {
    const v = Number(el.value);
    if (!Number.isFinite(v)) return;
    state[key] = v;
    if (out) $(out).textContent = fmt(v);
    saveHash();
    requestPlacement();
  });
}

function setSeed(v) {
  state.seed = Math.max(0, Math.floor(v)) >>> 0;
  $('seed').value = state.seed;
  saveHash();
  requestPlacement();
}
$('seed-prev').addEventListener('click', () => setSeed(state.seed - 1));
$('seed-next').addEventListener('click', () => setSeed(state.seed + 1));
$('seed-rand').addEventListener('click', () => setSeed(Math.floor(Math.random() * 1e6)));

$('polygon').addEventListener('change', async () => {
  state.polyKey = $('polygon').value;
  saveHash();
  await loadPolygon();
  state.fitted = false;
  requestPlacement();
});

function setHeading(v) {
  state.heading = ((Math.round(v) % 360) + 360) % 360;
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

$('style').addEventListener('change', (ev) => { state.style = ev.target.value; drawPlacement(); v3Show(); });

function buildLayers() {
  const box = $('layers');
  for (const [key, label, color] of LAYERS) {
    const l = document.createElement('label');
    const cb = document.createElement('input');
    cb.type = 'checkbox';
    cb.checked = state.layers[key];
    cb.dataset.layer = key;
    cb.addEventListener('change', () => { state.layers[key] = cb.checked; drawPlacement(); drawPolygonOnly(); });
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = color;
    l.append(cb, sw, label);
    box.append(l);
  }
}

$('fit').addEventListener('click', fit);

// The placement shown, as a 3-D scene: the same request to /api/place.glb,
// saved under the name the server gives.
async function downloadGlb() {
  if (!state.asset || !state.poly) return;
  const res = await fetch('/api/place.glb', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(placeBody()),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    showMessage('Cannot make the 3-D scene', body.error || `HTTP ${res.status}`);
    return;
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '')?.[1] || 'placement.glb';
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
$('download-glb').addEventListener('click', () => { downloadGlb().catch((e) => showMessage('Cannot download', e.message)); });
document.addEventListener('keydown', (ev) => {
  if (ev.target.closest('input, select, textarea')) return;
  if (ev.key === 'f') {
    fit();
    if (state.style === '3d') { v3.fitted = false; v3Update().catch(() => {}); }
  }
  if (ev.key === '[') setSeed(state.seed - 1);
  if (ev.key === ']') setSeed(state.seed + 1);
  if (ev.key === 'Escape') { state.hlLine = null; focusLine(null); applyHighlight(); }
});

// ------------------------------------------------------------ 3-D view --
// The placement shown as the glTF writer makes it: the same request to
// /api/place.glb, read here (a small GLB reader: meshes, node transforms,
// materials, embedded PNG textures) and drawn with WebGL 2, lit by a sun,
// with an orbit camera (drag to turn, wheel to zoom, f to fit). It follows
// every change the 2-D view follows.

const v3 = {
  gl: null, prog: null, loc: null, draws: [], textures: [], buffers: [],
  yaw: -0.7, pitch: 0.65, dist: 100, target: [0, 0, 0], radius: 50,
  seq: 0, shown: 0, fitted: false, fitKey: null, drag: null,
};

const V3_VS = `#version 300 es
in vec3 pos; in vec3 nrm; in vec2 uv;
uniform mat4 model; uniform mat4 viewProj;
out vec3 vN; out vec2 vUv;
void main() {
  vN = mat3(model) * nrm;
  vUv = uv;
  gl_Position = viewProj * model * vec4(pos, 1.0);
}`;
const V3_FS = `#version 300 es
precision mediump float;
in vec3 vN; in vec2 vUv;
uniform vec4 color; uniform sampler2D tex; uniform bool hasTex;
uniform float cutoff; uniform vec3 sun;
out vec4 frag;
void main() {
  vec4 c = color;
  if (hasTex) c *= texture(tex, vUv);
  if (c.a < cutoff) discard;
  vec3 n = normalize(vN);
  if (!gl_FrontFacing) n = -n;
  float light = 0.45 + 0.7 * max(dot(n, sun), 0.0);
  frag = vec4(c.rgb * light, 1.0);
}`;

function v3Init() {
  if (v3.gl) return v3.gl;
  const canvas = $('view3d');
  const gl = canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
  if (!gl) throw new Error('this browser has no WebGL 2');
  const shader = (type, src) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  };
  const p = gl.createProgram();
  gl.attachShader(p, shader(gl.VERTEX_SHADER, V3_VS));
  gl.attachShader(p, shader(gl.FRAGMENT_SHADER, V3_FS));
  gl.bindAttribLocation(p, 0, 'pos');
  gl.bindAttribLocation(p, 1, 'nrm');
  gl.bindAttribLocation(p, 2, 'uv');
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  v3.prog = p;
  v3.loc = Object.fromEntries(['model', 'viewProj', 'color', 'tex', 'hasTex', 'cutoff', 'sun']
    .map((n) => [n, gl.getUniformLocation(p, n)]));
  v3.gl = gl;
  canvas.addEventListener('pointerdown', (ev) => {
    v3.drag = { x: ev.clientX, y: ev.clientY };
    canvas.setPointerCapture(ev.pointerId);
  });
  canvas.addEventListener('pointermove', (ev) => {
    if (!v3.drag) return;
    v3.yaw -= (ev.clientX - v3.drag.x) * 0.01;
    v3.pitch = Math.min(1.55, Math.max(0.05, v3.pitch + (ev.clientY - v3.drag.y) * 0.01));
    v3.drag = { x: ev.clientX, y: ev.clientY };
    v3Draw();
  });
  canvas.addEventListener('pointerup', () => { v3.drag = null; });
  canvas.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    v3.dist = Math.min(v3.radius * 50, Math.max(1, v3.dist * Math.exp(ev.deltaY * 0.001)));
    v3Draw();
  }, { passive: false });
  new ResizeObserver(() => v3Draw()).observe(canvas);
  return gl;
}

// The JSON and binary chunks of a GLB.
function glbChunks(buf) {
  const dv = new DataView(buf);
  if (buf.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB file');
  const jsonLen = dv.getUint32(12, true);
  const doc = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 20, jsonLen)));
  const at = 20 + jsonLen;
  const bin = at + 8 <= buf.byteLength ? new Uint8Array(buf, at + 8, dv.getUint32(at, true)) : new Uint8Array(0);
  return { doc, bin };
}

function glbAccessor(doc, bin, i) {
  const a = doc.accessors[i];
  const view = doc.bufferViews[a.bufferView];
  const n = a.count * ({ SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 })[a.type];
  const off = bin.byteOffset + (view.byteOffset || 0) + (a.byteOffset || 0);
  const Kind = ({ 5126: Float32Array, 5125: Uint32Array, 5123: Uint16Array, 5121: Uint8Array })[a.componentType];
  return new Kind(bin.buffer, off, n);
}

// Column-major 4 × 4 matrices.
function m4mul(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    o[c * 4 + r] = s;
  }
  return o;
}
function m4node(n) {
  if (n.matrix) return Float32Array.from(n.matrix);
  const [x, y, z, w] = n.rotation || [0, 0, 0, 1];
  const [sx, sy, sz] = n.scale || [1, 1, 1];
  const [tx, ty, tz] = n.translation || [0, 0, 0];
  return Float32Array.from([
    (1 - 2 * (y * y + z * z)) * sx, 2 * (x * y + z * w) * sx, 2 * (x * z - y * w) * sx, 0,
    2 * (x * y - z * w) * sy, (1 - 2 * (x * x + z * z)) * sy, 2 * (y * z + x * w) * sy, 0,
    2 * (x * z + y * w) * sz, 2 * (y * z - x * w) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
    tx, ty, tz, 1,
  ]);
}
const M4_ID = Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

function v3Clear() {
  const gl = v3.gl;
  for (const b of v3.buffers) gl.deleteBuffer(b);
  for (const v of v3.draws) gl.deleteVertexArray(v.vao);
  for (const t of v3.textures) if (t) gl.deleteTexture(t);
  v3.buffers = []; v3.draws = []; v3.textures = [];
}

// Reads a GLB into GPU buffers and draw calls; the camera fits the scene
// the first time and when the asset changes.
async function v3Load(buf, fitKey) {
  const gl = v3Init();
  const { doc, bin } = glbChunks(buf);
  const bitmaps = await Promise.all((doc.images || []).map((im) => {
    const view = doc.bufferViews[im.bufferView];
    const bytes = new Uint8Array(bin.buffer, bin.byteOffset + (view.byteOffset || 0), view.byteLength);
    return createImageBitmap(new Blob([bytes], { type: im.mimeType || 'image/png' })).catch(() => null);
  }));
  v3Clear();
  v3.textures = bitmaps.map((bmp) => {
    if (!bmp) return null;
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bmp);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
    return t;
  });
  const meshes = (doc.meshes || []).map((m) => m.primitives.map((p) => {
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const attr = (slot, i, size) => {
      if (i === undefined) return;
      const b = gl.createBuffer();
      v3.buffers.push(b);
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, glbAccessor(doc, bin, i), gl.STATIC_DRAW);
      gl.enableVertexAttribArray(slot);
      gl.vertexAttribPointer(slot, size, gl.FLOAT, false, 0, 0);
    };
    attr(0, p.attributes.POSITION, 3);
    attr(1, p.attributes.NORMAL, 3);
    attr(2, p.attributes.TEXCOORD_0, 2);
    const idx = glbAccessor(doc, bin, p.indices);
    const ib = gl.createBuffer();
    v3.buffers.push(ib);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, idx, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    const a = doc.accessors[p.attributes.POSITION];
    const mat = (doc.materials || [])[p.material] || {};
    const pbr = mat.pbrMetallicRoughness || {};
    const ti = pbr.baseColorTexture ? doc.textures[pbr.baseColorTexture.index].source : null;
    return {
      vao, count: idx.length,
      type: idx instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT,
      min: a.min, max: a.max,
      // Linear base colour to the screen's sRGB.
      color: (pbr.baseColorFactor || [1, 1, 1, 1]).map((c, k) => (k < 3 ? Math.pow(c, 1 / 2.2) : c)),
      tex: ti === null ? null : v3.textures[ti],
      cutoff: mat.alphaMode === 'MASK' ? (mat.alphaCutoff ?? 0.5) : -1,
      twoSided: !!mat.doubleSided,
    };
  }));
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const visit = (i, parent) => {
    const n = doc.nodes[i];
    const m = m4mul(parent, m4node(n));
    if (n.mesh !== undefined) {
      for (const p of meshes[n.mesh] || []) {
        v3.draws.push({ ...p, model: m });
        for (let c = 0; c < 8; c++) {
          const q = [0, 1, 2].map((k) => ((c >> k) & 1 ? p.max[k] : p.min[k]));
          for (let k = 0; k < 3; k++) {
            const w = m[k] * q[0] + m[4 + k] * q[1] + m[8 + k] * q[2] + m[12 + k];
            lo[k] = Math.min(lo[k], w);
            hi[k] = Math.max(hi[k], w);
          }
        }
      }
    }
    for (const c of n.children || []) visit(c, m);
  };
  const scene = (doc.scenes || [])[doc.scene || 0] || { nodes: [] };
  for (const r of scene.nodes) visit(r, M4_ID);
  if (v3.draws.length && (!v3.fitted || fitKey !== v3.fitKey)) {
    v3.target = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
    v3.radius = Math.max(1, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    v3.dist = v3.radius * 2.4;
    v3.fitted = true;
    v3.fitKey = fitKey;
  }
  v3Draw();
  v3.shown++;
  $('view3d').dataset.draws = String(v3.draws.length);
  $('view3d').dataset.shown = String(v3.shown);
}

function v3Draw() {
  const gl = v3.gl;
  if (!gl) return;
  const canvas = gl.canvas;
  const w = Math.max(1, Math.round(canvas.clientWidth * (window.devicePixelRatio || 1)));
  const h = Math.max(1, Math.round(canvas.clientHeight * (window.devicePixelRatio || 1)));
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  gl.viewport(0, 0, w, h);
  gl.clearColor(0.81, 0.86, 0.9, 1);
  gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  gl.enable(gl.DEPTH_TEST);
  gl.useProgram(v3.prog);
  // Camera: glTF's frame (y up); yaw 0 looks north from the south.
  const cp = Math.cos(v3.pitch);
  const eye = [
    v3.target[0] + v3.dist * cp * Math.sin(v3.yaw),
    v3.target[1] + v3.dist * Math.sin(v3.pitch),
    v3.target[2] + v3.dist * cp * Math.cos(v3.yaw),
  ];
  const f = [0, 1, 2].map((k) => v3.target[k] - eye[k]);
  const fl = Math.hypot(...f);
  const fz = f.map((x) => x / fl);
  let sx = [fz[1] * 0 - fz[2] * 1, fz[2] * 0 - fz[0] * 0, fz[0] * 1 - fz[1] * 0];
  const sl = Math.hypot(...sx) || 1;
  sx = sx.map((x) => x / sl);
  const up = [sx[1] * fz[2] - sx[2] * fz[1], sx[2] * fz[0] - sx[0] * fz[2], sx[0] * fz[1] - sx[1] * fz[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const view = Float32Array.from([
    sx[0], up[0], -fz[0], 0, sx[1], up[1], -fz[1], 0, sx[2], up[2], -fz[2], 0,
    -dot(sx, eye), -dot(up, eye), dot(fz, eye), 1,
  ]);
  const near = Math.max(0.05, v3.dist / 500);
  const far = v3.dist + v3.radius * 4;
  const t = 1 / Math.tan((45 * Math.PI) / 360);
  const proj = Float32Array.from([
    t / (w / h), 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1,
    0, 0, (2 * far * near) / (near - far), 0,
  ]);
  gl.uniformMatrix4fv(v3.loc.viewProj, false, m4mul(proj, view));
  const sun = [0.35, 0.8, 0.45];
  const sn = Math.hypot(...sun);
  gl.uniform3fv(v3.loc.sun, sun.map((x) => x / sn));
  gl.uniform1i(v3.loc.tex, 0);
  for (const d of v3.draws) {
    if (d.twoSided) gl.disable(gl.CULL_FACE);
    else gl.enable(gl.CULL_FACE);
    gl.uniformMatrix4fv(v3.loc.model, false, d.model);
    gl.uniform4fv(v3.loc.color, d.color);
    gl.uniform1f(v3.loc.cutoff, d.cutoff);
    gl.uniform1i(v3.loc.hasTex, d.tex ? 1 : 0);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, d.tex);
    gl.bindVertexArray(d.vao);
    gl.drawElements(gl.TRIANGLES, d.count, d.type, 0);
  }
  gl.bindVertexArray(null);
}

// Fetches the scene of the placement shown and draws it (the newest
// request wins; older answers are dropped).
async function v3Update() {
  if (state.style !== '3d' || !state.asset || !state.poly) return;
  const seq = ++v3.seq;
  const res = await fetch('/api/place.glb', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(placeBody()),
  });
  if (seq !== v3.seq) return;
  if (!res.ok) {
    const body = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    $('view3d').dataset.error = body.error || `HTTP ${res.status}`;
    return;
  }
  const buf = await res.arrayBuffer();
  if (seq !== v3.seq) return;
  delete $('view3d').dataset.error;
  await v3Load(buf, state.asset);
}

function v3Show() {
  const on = state.style === '3d';
  $('view3d').hidden = !on;
  $('view').style.visibility = on ? 'hidden' : '';
  if (on) v3Update().catch((e) => { $('view3d').dataset.error = e.message; });
}

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
    requestPlacement();
  } catch (e) {
    state.error = { error: e.message, stage: 'network' };
    render();
  }
}

function connectEvents() {
  const live = $('live');
  if (!window.EventSource) return pollVersion();
  const es = new EventSource('/api/events');
  es.addEventListener('open', () => { live.textContent = 'live'; live.className = 'live on'; });
  es.addEventListener('version', (ev) => { try { onVersion(JSON.parse(ev.data)); } catch (e) { /* ignore */ } });
  es.addEventListener('error', () => { live.textContent = 'reconnecting…'; live.className = 'live off'; });
}

function pollVersion() {
  setInterval(async () => {
    try {
      const r = await api('/api/version');
      if (r.ok) onVersion({ version: r.body.version, changed: [] });
    } catch (e) { /* server away; keep trying */ }
  }, 1000);
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
  applyView(true);
  try {
    const polys = await api('/api/polygons');
    state.bundled = polys.body.polygons || [];
    await loadFiles();
    await loadPolygon();
    await loadAsset();
    saveHash();
    if (!state.asset) {
      showMessage('No assets', 'There are no .agp, .agb or .ags files under the served folder.', true);
      document.body.dataset.state = 'ready';
    }
    requestPlacement();
  } catch (e) {
    showMessage('Cannot start', e.message);
    document.body.dataset.state = 'error';
  }
  connectEvents();
}

start();
