// Plane geometry of the page, in local metres (x east, y north). No DOM:
// `node --test web/test/` runs this module as it is.

/** One decimal, as text. */
export const f1 = (v) => (Math.round(v * 10) / 10).toString();
/** Two decimals, as text. */
export const f2 = (v) => (Math.round(v * 100) / 100).toString();

/** A point of local metres as SVG user units (y grows down): "x,-y". */
export const P = (x, y) => `${f2(x)},${f2(-y)}`;

/** SVG path data of the closed ring `points` moved by (ox, oy). */
export function ringPath(points, ox = 0, oy = 0) {
  if (!points.length) return '';
  return 'M' + points.map((p) => P(p[0] + ox, p[1] + oy)).join('L') + 'Z';
}

/**
 * SVG path data of a polygon with holes: `rings` (the outer ring, then its
 * holes) each closed, moved by (ox, oy); drawn with fill-rule evenodd, the
 * holes are left empty whichever way they run.
 */
export function ringsPath(rings, ox = 0, oy = 0) {
  return (rings || []).filter((r) => r.length >= 3).map((r) => ringPath(r, ox, oy)).join('');
}

/**
 * SVG path data of the line through `points` moved by (ox, oy), back to
 * its first point when `closed`.
 */
export function strokePath(points, ox = 0, oy = 0, closed = false) {
  if (!points || points.length < 2) return '';
  return 'M' + points.map((p) => P(p[0] + ox, p[1] + oy)).join('L') + (closed ? 'Z' : '');
}

/** SVG path data of the open line `points`. */
export function linePath(points) {
  return points.length ? 'M' + points.map((p) => P(p[0], p[1])).join('L') : '';
}

/**
 * The affine map taking the points `from` onto `to` ([a, b, c, d, e, f]:
 * x' = a·x + c·y + e, y' = b·x + d·y + f), fitted on the first point and
 * the two others spanning the largest triangle; null when they are on a
 * line.
 */
export function affineOf(from, to) {
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

/** Whether `p` lies inside the ring `ring` (even-odd rule). */
export function inside(p, ring) {
  let on = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) on = !on;
  }
  return on;
}

/** The mean of the points of `ring` ([0, 0] for none). */
export function centroid(ring) {
  if (!ring.length) return [0, 0];
  let x = 0, y = 0;
  for (const p of ring) { x += p[0]; y += p[1]; }
  return [x / ring.length, y / ring.length];
}

/**
 * The bounds [minX, minY, maxX, maxY] of the polygon `poly` (unless `point`)
 * and of the placements `parts` ([{placement, offset}], each moved by its
 * offset); a 100 m square when there is nothing.
 */
export function bounds(poly, parts, point) {
  let b = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (x, y) => { b = [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)]; };
  if (poly && !point) poly.windings.forEach((w) => w.forEach((p) => add(p[0], p[1])));
  for (const { placement: pl, offset } of parts || []) {
    const [ox, oy] = offset;
    pl.tiles.forEach((t) => t.polygon.forEach((p) => add(p[0] + ox, p[1] + oy)));
    pl.facades.forEach((f) => f.polygon.forEach((p) => add(p[0] + ox, p[1] + oy)));
    pl.objects.forEach((o) => add(o.x + ox, o.y + oy));
    pl.trees.forEach((t) => add(t.x + ox, t.y + oy));
    // A whole tile's draped polygons and painted lines.
    (pl.draped || []).forEach((d) => (d.rings[0] || []).forEach((p) => add(p[0] + ox, p[1] + oy)));
    (pl.lines || []).forEach((l) => l.points.forEach((p) => add(p[0] + ox, p[1] + oy)));
  }
  if (!Number.isFinite(b[0])) b = [-50, -50, 50, 50];
  return b;
}
