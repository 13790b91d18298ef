// The 2-D view: the placement drawn as SVG (built with DOM calls), pan and
// zoom, polygon editing, hover and selection.
//
// Coordinates: the drawing is in local metres of the current polygon's frame
// (x east, y north); SVG y grows down, so every y is negated when drawn. Pan
// and zoom only change the SVG viewBox: the drawing is never rebuilt for
// them. A placement is drawn at its local coordinates plus `offset` (where
// its own origin lies in the polygon's frame).
//
// Each drawn item is remembered with the selection it stands for (a
// WeakMap, not attributes read back): a click selects it through the
// store, and the store's selection marks it, wherever that came from.

import { keyOf, sameItem, selection, select } from './state.js';
import { P, affineOf, bounds, f1, f2, linePath, ringPath, ringsPath, strokePath } from './geom.js';
import { describe, partsOf } from './items.js';
import { textureUrl } from './api.js';
import { $, fill, svgEl } from './dom.js';
import { conflictMarks } from './conflicts.js';

/**
 * The 2-D view over `store`. `actions.reshaped(done)` is called when the
 * user moves (done false, while dragging) or edits (done true) a polygon
 * vertex in `store.state.poly`.
 */
export function createView2d(store, actions) {
  const state = store.state;
  const svg = $('view');
  const tip = $('tooltip');
  /** Drawn element → the selection it stands for. */
  let itemOfEl = new WeakMap();
  /** The layers drawing each kind of item. */
  const LAYER_OF = {
    tile: 'l-tiles', stop: 'l-stops', object: 'l-objects', facade: 'l-facades',
    tree: 'l-trees', pivot: 'l-pivots', corner: 'l-corners',
    draped: 'l-draped', line: 'l-lines',
  };

  // ---------------------------------------------------------- view box --
  // During a gesture only a CSS transform of the <svg> element changes (the
  // browser moves the already painted picture, whatever the number of
  // tiles); 150 ms after the gesture the viewBox is set once and the
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

  function fit() {
    const b = bounds(state.mode === 'tile' ? null : state.poly, partsOf(state.result), state.kind === 'agp');
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
  let drag = null;
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
  svg.addEventListener('pointerup', () => {
    if (drag) return dragEnd();
    if (pan && !pan.moved) select(store, selectionAt(pan.target));
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

  // ----------------------------------------------------- polygon editing --
  $('l-handles').addEventListener('pointerdown', (ev) => {
    const h = ev.target;
    if (!h.classList.contains('handle')) return;
    ev.stopPropagation();
    const w = Number(h.dataset.w), i = Number(h.dataset.i);
    if (ev.altKey) { // remove a vertex (keep at least 3)
      if (state.poly.windings[w].length > 3) {
        state.poly.windings[w].splice(i, 1);
        actions.reshaped(true);
      }
      return;
    }
    drag = { w, i, id: ev.pointerId };
    svg.setPointerCapture(ev.pointerId);
  });
  function dragMove(ev) {
    const p = clientToLocal(ev);
    state.poly.windings[drag.w][drag.i] = [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
    actions.reshaped(false);
  }
  function dragEnd() {
    drag = null;
    actions.reshaped(true);
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
      actions.reshaped(true);
    }
  });

  // ------------------------------------------------------------ drawing --

  /** Remembers `el` as drawing the item (kind, index) of placement `pi`. */
  function item(el, kind, index, pi = 0) {
    itemOfEl.set(el, selection(kind, index, pi, '2d'));
    return el;
  }

  function selectionAt(target) {
    for (let e = target; e && e !== svg; e = e.parentNode) {
      const sel = itemOfEl.get(e);
      if (sel) return sel;
    }
    return null;
  }

  // Textured view: each shown tile drawn with its texture (served as PNG by
  // /api/texture), the texture's TEXTURE_SCALE pixels mapped onto the tile
  // by the affine map its vertices give, and cut to the tile's outline.
  function ground(pl, tex, ox, oy, pi) {
    const out = [];
    const [sw, sh] = tex.scale;
    const href = textureUrl(tex.path);
    pl.tiles.forEach((t, i) => {
      if (t.hidden || t.uv.length !== t.polygon.length) return;
      const from = t.uv.map(([u, v]) => [u, sh - v]);
      const to = t.polygon.map(([x, y]) => [x + ox, -(y + oy)]);
      const m = affineOf(from, to);
      if (!m) return;
      out.push(svgEl('clipPath', { id: `gc${pi}-${i}` }, [svgEl('path', { d: ringPath(t.polygon, ox, oy) })]));
      out.push(svgEl('g', { 'clip-path': `url(#gc${pi}-${i})` }, [svgEl('image', {
        class: 'ground', href, width: sw, height: sh, preserveAspectRatio: 'none',
        transform: `matrix(${m.map((v) => v.toFixed(6)).join(' ')})`,
      })]));
    });
    return out;
  }

  function drawPlacement() {
    const L = state.layers;
    const textured = state.style === 'textured';
    document.body.classList.toggle('textured', textured);
    itemOfEl = new WeakMap();
    const parts = { draped: [], lines: [], ground: [], tiles: [], labels: [], facades: [], trees: [], objects: [], stops: [], pivots: [], corners: [], point: [] };
    let nTiles = 0;
    const labelSizes = [];
    // One placement (an asset's) or many (a whole DSF tile's: its autogen
    // uses, then one per definition), each drawn at its offset.
    partsOf(state.result).forEach((part, pi) => {
      const pl = part.placement;
      const [ox, oy] = part.offset;
      const tex = textured && part.texture;
      if (tex) parts.ground.push(...ground(pl, tex, ox, oy, pi));
      pl.tiles.forEach((t, i) => {
        const cls = `tile role-${t.role}${t.hidden ? ' hidden' : ''}${t.unit % 2 ? ' alt' : ''}${tex && !t.hidden ? ' drawn' : ''}`;
        parts.tiles.push(item(svgEl('path', { class: cls, 'data-line': t.source_line, d: ringPath(t.polygon, ox, oy) }), 'tile', i, pi));
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
        const label = svgEl('text', { class: 'label', x: f2(cx), y: f2(-cy), 'font-size': f2(fs), 'stroke-width': f2(fs * 0.1) });
        label.textContent = String(t.id);
        parts.labels.push(label);
        t.stop_points.forEach((s) => {
          const [x, y] = [s[0] + ox, s[1] + oy], d = 0.9;
          parts.stops.push(item(svgEl('path', {
            class: 'stop', 'data-line': t.source_line,
            d: `M${P(x - d, y - d)}L${P(x + d, y + d)}M${P(x - d, y + d)}L${P(x + d, y - d)}`,
          }), 'stop', i, pi));
        });
      });
      // A whole tile's draped polygons (holes left empty) and painted lines
      // (strokes of their width, metres), under everything else.
      (pl.draped || []).forEach((d, i) => {
        parts.draped.push(item(svgEl('path', { class: 'draped', d: ringsPath(d.rings, ox, oy) }), 'draped', i, pi));
      });
      (pl.lines || []).forEach((l, i) => {
        const w = Number.isFinite(l.width) && l.width > 0 ? l.width : 0.5;
        // An object string's line is only where its objects stand.
        parts.lines.push(item(svgEl('path', {
          class: pl.kind === 'str' ? 'paint string' : 'paint', d: strokePath(l.points, ox, oy, l.closed), 'stroke-width': f2(pl.kind === 'str' ? 0.3 : w),
        }), 'line', i, pi));
      });
      pl.facades.forEach((f, i) => {
        parts.facades.push(item(svgEl('path', { class: 'facade', 'data-line': f.source_line, d: ringPath(f.polygon, ox, oy) }), 'facade', i, pi));
      });
      pl.trees.forEach((t, i) => {
        parts.trees.push(item(svgEl('circle', {
          class: 'tree', 'data-line': t.source_line, cx: f2(t.x + ox), cy: f2(-(t.y + oy)), r: f2(Math.max(t.width / 2, 0.5)),
        }), 'tree', i, pi));
      });
      pl.objects.forEach((o, i) => {
        const x = o.x + ox, y = o.y + oy, a = o.heading * Math.PI / 180, len = 3;
        // One path per object: a 1.2 m disc and its heading tick.
        const r = 0.9, tx = x + Math.sin(a) * len, ty = y + Math.cos(a) * len;
        if (textured && o.footprint && o.footprint.length >= 3) {
          parts.objects.push(item(svgEl('path', { class: 'footprint', 'data-line': o.source_line, d: ringPath(o.footprint, ox, oy) }), 'object', i, pi));
        }
        parts.objects.push(item(svgEl('path', {
          class: 'obj', 'data-line': o.source_line,
          d: `M${f2(x - r)},${f2(-y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0M${P(x, y)}L${P(tx, ty)}`,
        }), 'object', i, pi));
      });
      (part.pivots || []).forEach((p, i) => {
        const x = p.x + ox, y = p.y + oy, d = 1.1;
        parts.pivots.push(item(svgEl('path', {
          class: 'pivot', 'data-line': p.source_line, d: `M${P(x, y + d)}L${P(x + d, y)}L${P(x, y - d)}L${P(x - d, y)}Z`,
        }), 'pivot', i, pi));
      });
      pl.corners.forEach((c, i) => {
        parts.corners.push(item(svgEl('circle', { class: 'corner', cx: f2(c.x + ox), cy: f2(-(c.y + oy)) }), 'corner', i, pi));
      });
      // The DSF point of an asset's AGP (a whole tile's have no control).
      if (pl.kind === 'agp' && state.mode !== 'tile') {
        const a = state.heading * Math.PI / 180, len = 12;
        parts.point.push(svgEl('line', {
          class: 'dsf-heading', x1: f2(ox), y1: f2(-oy), x2: f2(ox + Math.sin(a) * len), y2: f2(-(oy + Math.cos(a) * len)),
        }));
        parts.point.push(svgEl('circle', { class: 'dsf-point', cx: f2(ox), cy: f2(-oy) }));
      }
    });
    // A whole tile's uses not placed (their asset is missing, does not
    // load, or the engine refused them), where the DSF puts them, marked
    // as the 3-D scene marks them: a red 2 m box at an AGP's point, a red
    // dashed outline of an AGB's or AGS's polygon.
    ((state.result && state.result.unplaced) || []).forEach((part) => {
      const pl = part.placement;
      const [ox, oy] = part.offset;
      const title = svgEl('title');
      title.textContent = `${pl.asset}: ${pl.unplaced}`;
      const rings = (pl.polygon || []).filter((w) => w.length >= 2);
      const h = 1;
      const d = rings.length
        ? rings.map((w) => ringPath(w, ox, oy)).join('')
        : `M${P(ox - h, oy - h)}L${P(ox + h, oy - h)}L${P(ox + h, oy + h)}L${P(ox - h, oy + h)}Z`;
      parts.objects.push(svgEl('path', { class: rings.length ? 'unplaced ring' : 'unplaced', d }, [title]));
    });
    // The tile's airports (runways, helipads, pavement of the apt.dat
    // files the installation gives it), in the view's frame, under all.
    const shapes = state.mode === 'tile' && state.result ? state.result.airport_shapes || [] : [];
    parts.airports = shapes.map((s) => {
      const title = svgEl('title');
      title.textContent = `${s.airport} ${s.part} ${s.name} (apt.dat line ${s.line})`;
      const part = String(s.part).replace(/[^a-z]+/g, '-');
      return svgEl('path', { class: `airport part-${part}`, 'data-airport': s.airport, d: ringsPath(s.rings) }, [title]);
    });
    // What the installation places on the tile's airports: a ring at
    // each finding's deepest point (red an error, orange a warning).
    const marks = state.mode === 'tile' ? conflictMarks(state.conflicts) : [];
    parts.conflicts = marks.map((m) => {
      const title = svgEl('title');
      title.textContent = m.title;
      return svgEl('circle', { class: `conflict ${m.severity}`, 'data-code': m.code, cx: f2(m.x), cy: f2(-m.y), r: '4' }, [title]);
    });
    svg.dataset.conflicts = String(L.conflicts ? marks.length : 0);
    const put = (id, key, on) => fill($(id), on ? parts[key] : []);
    put('l-airports', 'airports', L.airports);
    put('l-draped', 'draped', L.draped);
    put('l-lines', 'lines', L.lines);
    put('l-ground', 'ground', L.tiles);
    put('l-tiles', 'tiles', L.tiles);
    put('l-labels', 'labels', L.labels && L.tiles);
    put('l-facades', 'facades', L.facades);
    put('l-trees', 'trees', L.trees);
    put('l-objects', 'objects', L.objects);
    put('l-stops', 'stops', L.stops);
    put('l-pivots', 'pivots', L.pivots);
    put('l-corners', 'corners', L.corners);
    put('l-point', 'point', true);
    put('l-conflicts', 'conflicts', L.conflicts);
    svg.dataset.tiles = String(L.tiles ? nTiles : 0);
    labelSizes.sort((a, b) => a - b);
    state.labelSize = labelSizes.length ? labelSizes[labelSizes.length >> 1] : 1;
    $('l-labels').classList.toggle('tiny', state.labelSize * state.view.scale < 6);
    svg.dataset.placedTiles = String(nTiles);
    svg.dataset.style = state.style;
    highlight();
    markSelection();
  }

  // The polygon, its handles and its sides split at the corners the engine
  // found (alternating colours show where the crease angle cut).
  function drawPolygon() {
    const L = state.layers;
    const poly = state.poly;
    if (!poly || state.kind === 'agp' || state.mode === 'tile') {
      for (const id of ['l-fill', 'l-sides', 'l-handles']) $(id).replaceChildren();
      return;
    }
    const d = poly.windings.map((w) => ringPath(w)).join('');
    fill($('l-fill'), L.polygon ? [svgEl('path', { class: 'poly-fill', d }), svgEl('path', { class: 'outline', d })] : []);
    const handles = [];
    if (L.polygon) {
      poly.windings.forEach((w, wi) => w.forEach((p, i) => {
        const title = svgEl('title');
        title.textContent = `vertex ${i} of winding ${wi}: ${f1(p[0])}, ${f1(p[1])} m`;
        handles.push(svgEl('circle', { class: 'handle', 'data-w': wi, 'data-i': i, cx: f2(p[0]), cy: f2(-p[1]) }, [title]));
      }));
    }
    fill($('l-handles'), handles);
    const sides = [];
    const part = partsOf(state.result)[0];
    const pl = part && part.placement;
    if (L.sides && pl && pl.corners.length) {
      const [ox, oy] = part.offset;
      const isCorner = (p) => pl.corners.some((c) => Math.hypot(c.x + ox - p[0], c.y + oy - p[1]) < 0.05);
      poly.windings.forEach((w) => {
        const n = w.length;
        const start = w.findIndex(isCorner);
        if (start < 0) { sides.push(svgEl('path', { class: 'side side-a', d: ringPath(w) })); return; }
        let run = [w[start]], k = 0;
        for (let s = 1; s <= n; s++) {
          const p = w[(start + s) % n];
          run.push(p);
          if (isCorner(p)) {
            sides.push(svgEl('path', { class: `side ${k % 2 ? 'side-b' : 'side-a'}`, d: linePath(run) }));
            run = [p]; k++;
          }
        }
      });
    }
    fill($('l-sides'), sides);
  }

  /** Everything the highlighted source line placed stands out. */
  function highlight() {
    const content = $('content');
    for (const el of content.querySelectorAll('.hl')) el.classList.remove('hl');
    content.classList.toggle('hl-mode', !!state.hlLine);
    if (!state.hlLine) return;
    for (const el of content.querySelectorAll(`[data-line="${state.hlLine}"]`)) el.classList.add('hl');
  }

  /**
   * The selected item is marked (class `sel`), and nothing else: one pass
   * over the layer of its kind when the selection changes, so drawing
   * keeps no index of its own.
   */
  function markSelection() {
    for (const el of $('content').querySelectorAll('.sel')) el.classList.remove('sel');
    const sel = state.selection;
    const layer = sel && LAYER_OF[sel.kind] && $(LAYER_OF[sel.kind]);
    if (layer) {
      for (const el of layer.children) if (sameItem(itemOfEl.get(el), sel)) el.classList.add('sel');
    }
    svg.dataset.selected = keyOf(sel);
  }

  // ------------------------------------------------------------- hover --
  function hover(ev) {
    const sel = selectionAt(ev.target);
    const rows = sel ? describe(state.result, sel, state.lines) : [];
    if (!rows.length) return hideTip();
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

  store.subscribe(['result', 'layers', 'style'], () => { drawPlacement(); drawPolygon(); });
  store.subscribe(['conflicts'], drawPlacement);
  store.subscribe(['poly', 'kind'], drawPolygon);
  store.subscribe(['hlLine'], highlight);
  store.subscribe(['selection'], markSelection);

  return { fit, applyView, drawPlacement, drawPolygon };
}
