// What a selection names in a placement: its description (the tooltip and
// the Selection tab), its source line, the tile it belongs to, and the item
// a node of the 3-D scene stands for. No DOM: `node --test web/test/` runs
// this module as it is.
//
// `result` is the answer of /api/place ({placement, offset, pivots, …}: one
// placement) or of /api/tile ({placements: [{placement, offset, texture}],
// whole, …}: a whole DSF tile, one placement per autogen use and per
// definition). A selection's `placement` is the index in that list.

import { selection } from './state.js';
import { centroid, f1, inside } from './geom.js';

/**
 * The placements of `result`, each {placement, offset, texture, pivots}:
 * offset is where the placement's origin lies in the view's frame.
 */
export function partsOf(result) {
  if (!result) return [];
  if (Array.isArray(result.placements)) return result.placements;
  if (!result.placement) return [];
  return [{ placement: result.placement, offset: result.offset || [0, 0], texture: result.texture, pivots: result.pivots || [] }];
}

/** Kinds of item and the list of a placement each is kept in. */
export const LISTS = [
  ['tile', 'tiles'], ['object', 'objects'], ['facade', 'facades'], ['tree', 'trees'],
  ['draped', 'draped'], ['line', 'lines'], ['corner', 'corners'],
];

/**
 * How many items of each list all the placements of `result` hold:
 * {placements, tiles, objects, facades, trees, draped, lines, corners,
 * warnings}.
 */
export function totals(result) {
  const t = { placements: 0, warnings: 0 };
  for (const [, list] of LISTS) t[list] = 0;
  for (const part of partsOf(result)) {
    t.placements++;
    for (const [, list] of LISTS) t[list] += (part.placement[list] || []).length;
    t.warnings += (part.placement.warnings || []).length;
  }
  return t;
}

/** The list `kind` is counted in, in placement `pi` ([] when there is none). */
function listOf(result, kind, pi = 0) {
  const part = partsOf(result)[pi];
  const pl = part && part.placement;
  if (!pl) return [];
  switch (kind) {
    case 'tile': case 'stop': return pl.tiles || [];
    case 'object': return pl.objects || [];
    case 'facade': return pl.facades || [];
    case 'tree': return pl.trees || [];
    case 'corner': return pl.corners || [];
    case 'draped': return pl.draped || [];
    case 'line': return pl.lines || [];
    case 'pivot': return part.pivots || [];
    default: return [];
  }
}

/** The item `sel` names in `result`, or null when there is none. */
export function itemOf(result, sel) {
  if (!sel) return null;
  return listOf(result, sel.kind, sel.placement || 0)[sel.index] ?? null;
}

/** The source line of the item `sel` names (null for none). */
export function lineOf(result, sel) {
  const it = itemOf(result, sel);
  return it && Number.isInteger(it.source_line) ? it.source_line : null;
}

/** The tile index the selected item belongs to (null for none). */
export function ownerTile(result, sel) {
  const it = itemOf(result, sel);
  if (!it) return null;
  if (sel.kind === 'tile' || sel.kind === 'stop') return sel.index;
  return Number.isInteger(it.tile) ? it.tile : null;
}

/**
 * Rows [label, text, line?] describing the item `sel` names; `lines` are
 * the asset's source lines. [] when there is no such item.
 */
export function describe(result, sel, lines) {
  const it = itemOf(result, sel);
  if (!it) return [];
  const pl = partsOf(result)[sel.placement || 0].placement;
  const rows = [];
  // A whole tile's item: the definition (or autogen use) placing it.
  if (Array.isArray(result.placements)) rows.push(['placement', `${sel.placement || 0}: ${pl.kind} ${pl.asset}`]);
  const lineText = (n) => (n && lines[n - 1] !== undefined ? lines[n - 1].trim() : '');
  // A whole tile's lines are those of the asset each use placed, not of
  // the asset shown in the Source tab: named, not linked.
  const line = Array.isArray(result.placements)
    ? (n) => rows.push(['line', n ? `${n} of ${pl.asset}` : '—'])
    : (n) => rows.push(['line', n ? `${n}: ${lineText(n)}` : '—', n]);
  const tileName = (i) => (pl.tiles[i] ? pl.tiles[i].id : i);
  switch (sel.kind) {
    case 'tile': case 'stop': {
      const t = it;
      rows.push(['tile', `${t.id} (${t.role}${t.hidden ? ', hidden' : ''})`]);
      rows.push(['unit / order', `${t.unit} / ${t.order}`]);
      const us = t.uv.map((p) => p[0]), vs = t.uv.map((p) => p[1]);
      if (us.length) rows.push(['texture px', `${f1(Math.min(...us))} ${f1(Math.min(...vs))} → ${f1(Math.max(...us))} ${f1(Math.max(...vs))}`]);
      const n = t.polygon.length;
      if (n) rows.push(['sides m', t.polygon.map((p, k) => { const q = t.polygon[(k + 1) % n]; return f1(Math.hypot(q[0] - p[0], q[1] - p[1])); }).join(', ')]);
      if (t.stop_points.length) rows.push(['stop points', t.stop_points.map((p) => `(${f1(p[0])}, ${f1(p[1])})`).join(' ')]);
      if (t.ground_point) rows.push(['ground point', `(${f1(t.ground_point[0])}, ${f1(t.ground_point[1])})`]);
      line(t.source_line);
      break;
    }
    case 'object': {
      const o = it;
      rows.push(['object', o.asset]);
      rows.push(['index / mode', `${o.index} / ${o.mode}`]);
      rows.push(['heading', `${f1(o.heading)}°`]);
      rows.push(['height', `${f1(o.height)} m`]);
      if (o.show) rows.push(['show levels', o.show.join('–')]);
      rows.push(['at', `(${f1(o.x)}, ${f1(o.y)}) m · ${o.lat.toFixed(7)}, ${o.lon.toFixed(7)}`]);
      if (pl.tiles.length) rows.push(['on tile', `${tileName(o.tile)}`]);
      line(o.source_line);
      break;
    }
    case 'facade': {
      const f = it;
      rows.push(['facade', f.asset]);
      rows.push(['height', `${f1(f.height)} m`]);
      rows.push(['points', String(f.polygon.length)]);
      if (f.walls) rows.push(['walls', f.walls.join(' ')]);
      line(f.source_line);
      break;
    }
    case 'tree': {
      const t = it;
      rows.push(['tree', `width ${f1(t.width)} m, layer ${t.layer}`]);
      rows.push(['heading', `${f1(t.heading)}°`]);
      rows.push(['tile', t.tile == null ? 'fill tree' : String(tileName(t.tile))]);
      line(t.source_line);
      break;
    }
    case 'pivot': {
      const p = it;
      rows.push(['pivot', `${p.kind} of tile ${tileName(p.tile)}`]);
      rows.push(['at', `(${f1(p.x)}, ${f1(p.y)}) m`]);
      line(p.source_line);
      break;
    }
    case 'draped': {
      const d = it;
      rows.push(['draped polygon', d.asset]);
      rows.push(['points', `${(d.rings[0] || []).length}${d.rings.length > 1 ? `, ${d.rings.length - 1} hole(s)` : ''}`]);
      rows.push(['texture', `${d.texture || '—'}${d.uv ? ' (UV planes)' : d.scale ? ` (${f1(d.scale[0])} × ${f1(d.scale[1])} m, ${f1(d.heading || 0)}°)` : ''}`]);
      rows.push(['DSF entity', String(d.entity)]);
      break;
    }
    case 'line': {
      const l = it;
      rows.push(['line', l.asset]);
      rows.push(['points', `${l.points.length}${l.closed ? ', closed' : ''}`]);
      if (Number.isFinite(l.width)) rows.push(['width', `${f1(l.width)} m`]);
      rows.push(['DSF entity', `${l.entity} winding ${l.winding}`]);
      break;
    }
    case 'corner': {
      const c = it;
      rows.push(['corner', `turn ${f1(c.turn)}° (${c.turn >= 0 ? 'right' : 'left'})`]);
      rows.push(['at', `(${f1(c.x)}, ${f1(c.y)}) m`]);
      break;
    }
    default:
  }
  return rows;
}

/** A short name of the item `sel` names, for lists: "object 3 house_a.obj". */
export function nameOf(result, sel) {
  const it = itemOf(result, sel);
  if (!it) return '';
  switch (sel.kind) {
    case 'tile': case 'stop': return `tile ${it.id}`;
    case 'object': case 'facade': case 'draped': case 'line':
      return `${sel.kind} ${sel.index} ${String(it.asset || '').split('/').pop()}`;
    case 'tree': return `tree ${sel.index} (${f1(it.width)} m)`;
    default: return `${sel.kind} ${sel.index}`;
  }
}

/**
 * The selection a node of the 3-D scene stands for. `extras` are the node's
 * glTF extras ({item, index, …}), `placement` the index of the placement
 * node above it, and `at` the point hit, in that placement's local metres
 * (x east, y north): the ground is one mesh of all tiles and the trees one
 * mesh of all trees, so the point says which tile or tree; a node of any
 * other kind the views select ("tile", "tree", …) names its item itself.
 * Null for anything else (the placement's own node, unknown items, items
 * not in `result`).
 */
export function fromNode(result, extras, placement, at) {
  if (!extras || typeof extras !== 'object') return null;
  const pi = Number.isInteger(extras.placement) ? extras.placement : placement;
  const part = partsOf(result)[pi];
  const pl = part && part.placement;
  switch (extras.item) {
    case 'object': case 'facade': {
      const sel = selection(extras.item, extras.index, pi, '3d');
      return sel && itemOf(result, sel) ? sel : null;
    }
    case 'ground': {
      if (!pl || !at) return null;
      const hit = pl.tiles.findIndex((t) => !t.hidden && inside(at, t.polygon));
      return hit >= 0 ? selection('tile', hit, pi, '3d') : null;
    }
    case 'trees': case 'tree': {
      if (!pl || !at) return null;
      if (extras.item === 'tree' && Number.isInteger(extras.index)) return selection('tree', extras.index, pi, '3d');
      let best = -1, bestD = Infinity;
      pl.trees.forEach((t, i) => {
        const d = Math.hypot(t.x - at[0], t.y - at[1]);
        if (d < bestD && d <= Math.max(t.width, 1)) { best = i; bestD = d; }
      });
      return best >= 0 ? selection('tree', best, pi, '3d') : null;
    }
    default: {
      // A node of its own for any other kind the views select ("tile",
      // "pivot", …), should the scene give one.
      const sel = selection(extras.item, extras.index, pi, '3d');
      return sel && itemOf(result, sel) ? sel : null;
    }
  }
}

/** Where the item `sel` names lies, in placement-local metres (null for none). */
export function anchorOf(result, sel) {
  const it = itemOf(result, sel);
  if (!it) return null;
  switch (sel.kind) {
    case 'tile': case 'stop': return centroid(it.polygon);
    case 'facade': return centroid(it.polygon);
    case 'draped': return centroid(it.rings[0] || []);
    case 'line': return it.points.length ? centroid(it.points) : null;
    default: return Number.isFinite(it.x) && Number.isFinite(it.y) ? [it.x, it.y] : null;
  }
}
