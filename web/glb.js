// A small GLB reader and the math of the 3-D view: the scene's nodes with
// their world matrices and extras, the orbit camera, and the ray through a
// pixel hitting the nearest triangle. No DOM and no WebGL: `node --test
// web/test/` runs this module as it is.
//
// Matrices are column-major 4 × 4 Float32Arrays (glTF's and WebGL's order).

/** The JSON document and the binary chunk of a GLB. */
export function glbChunks(buf) {
  const dv = new DataView(buf);
  if (buf.byteLength < 20 || dv.getUint32(0, true) !== 0x46546c67) throw new Error('not a GLB file');
  const jsonLen = dv.getUint32(12, true);
  if (20 + jsonLen > buf.byteLength) throw new Error('GLB JSON chunk runs past the end');
  const doc = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 20, jsonLen)));
  const at = 20 + jsonLen;
  let bin = new Uint8Array(0);
  if (at + 8 <= buf.byteLength) {
    const len = Math.min(dv.getUint32(at, true), buf.byteLength - at - 8);
    bin = new Uint8Array(buf, at + 8, len);
  }
  return { doc, bin };
}

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const ARRAYS = { 5126: Float32Array, 5125: Uint32Array, 5123: Uint16Array, 5121: Uint8Array };

/** The typed array of accessor `i` (tightly packed, as agkit writes them). */
export function glbAccessor(doc, bin, i) {
  const a = doc.accessors[i];
  const view = doc.bufferViews[a.bufferView];
  const n = a.count * COMPONENTS[a.type];
  const Kind = ARRAYS[a.componentType];
  if (!Kind || !n) throw new Error(`accessor ${i}: unsupported`);
  const off = (view.byteOffset || 0) + (a.byteOffset || 0);
  if (off + n * Kind.BYTES_PER_ELEMENT > bin.byteLength || (bin.byteOffset + off) % Kind.BYTES_PER_ELEMENT) {
    throw new Error(`accessor ${i}: outside the binary chunk`);
  }
  return new Kind(bin.buffer, bin.byteOffset + off, n);
}

/** The identity matrix. */
export const M4_ID = Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** a × b. */
export function m4mul(a, b) {
  const o = new Float32Array(16);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  }
  return o;
}

/** The local matrix of a glTF node (matrix, or translation·rotation·scale). */
export function m4node(n) {
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

/** The inverse of an affine matrix `m` (null when it is singular). */
export function m4invertAffine(m) {
  const [a, b, c] = [m[0], m[1], m[2]];
  const [d, e, f] = [m[4], m[5], m[6]];
  const [g, h, i] = [m[8], m[9], m[10]];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
  const r = 1 / det;
  // The inverse of the 3 × 3 part, column-major.
  const inv = [
    A * r, -(b * i - c * h) * r, (b * f - c * e) * r,
    B * r, (a * i - c * g) * r, -(a * f - c * d) * r,
    C * r, -(a * h - b * g) * r, (a * e - b * d) * r,
  ];
  const [tx, ty, tz] = [m[12], m[13], m[14]];
  return Float32Array.from([
    inv[0], inv[1], inv[2], 0,
    inv[3], inv[4], inv[5], 0,
    inv[6], inv[7], inv[8], 0,
    -(inv[0] * tx + inv[3] * ty + inv[6] * tz),
    -(inv[1] * tx + inv[4] * ty + inv[7] * tz),
    -(inv[2] * tx + inv[5] * ty + inv[8] * tz),
    1,
  ]);
}

/** The point p transformed by m (w = 1). */
export function m4point(m, p) {
  return [0, 1, 2].map((k) => m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k]);
}

/** The direction d transformed by m (w = 0). */
export function m4dir(m, d) {
  return [0, 1, 2].map((k) => m[k] * d[0] + m[4 + k] * d[1] + m[8 + k] * d[2]);
}

/**
 * Every node drawing a mesh, in scene order: {node, mesh, model (world
 * matrix), extras, placement (the index of the nearest placement node above
 * or at it, from its extras; 0 when there is none), frame (that placement
 * node's world matrix: its local metres are the placement's)}. Node cycles
 * and out-of-range references are skipped.
 */
export function sceneNodes(doc) {
  const out = [];
  const nodes = doc.nodes || [];
  const seen = new Set();
  const visit = (i, parent, placement, frame) => {
    const n = nodes[i];
    if (!n || seen.has(i)) return;
    seen.add(i);
    const m = m4mul(parent, m4node(n));
    const ex = n.extras && typeof n.extras === 'object' ? n.extras : null;
    const top = ex && ex.item === 'placement' && Number.isInteger(ex.index);
    const here = top ? ex.index : placement;
    const f = top ? m : frame;
    if (n.mesh !== undefined) out.push({ node: i, mesh: n.mesh, model: m, extras: ex, placement: here, frame: f });
    for (const c of n.children || []) visit(c, m, here, f);
  };
  const scene = (doc.scenes || [])[doc.scene || 0] || { nodes: [] };
  for (const r of scene.nodes || []) visit(r, M4_ID, 0, M4_ID);
  return out;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a) => { const l = Math.hypot(...a) || 1; return a.map((x) => x / l); };

/**
 * The orbit camera of the view: `cam` = {yaw, pitch, dist, target, radius}
 * in glTF's frame (y up; yaw 0 looks north from the south), for a `w` × `h`
 * picture with a 45° vertical field. Returns its eye, axes and viewProj.
 */
export function camera(cam, w, h) {
  const cp = Math.cos(cam.pitch);
  const eye = [
    cam.target[0] + cam.dist * cp * Math.sin(cam.yaw),
    cam.target[1] + cam.dist * Math.sin(cam.pitch),
    cam.target[2] + cam.dist * cp * Math.cos(cam.yaw),
  ];
  const fwd = norm(sub(cam.target, eye));
  const right = norm(cross(fwd, [0, 1, 0]));
  const up = cross(right, fwd);
  const view = Float32Array.from([
    right[0], up[0], -fwd[0], 0, right[1], up[1], -fwd[1], 0, right[2], up[2], -fwd[2], 0,
    -dot(right, eye), -dot(up, eye), dot(fwd, eye), 1,
  ]);
  const near = Math.max(0.05, cam.dist / 500);
  const far = cam.dist + cam.radius * 4;
  const t = 1 / Math.tan((45 * Math.PI) / 360);
  const aspect = w / h;
  const proj = Float32Array.from([
    t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (far + near) / (near - far), -1,
    0, 0, (2 * far * near) / (near - far), 0,
  ]);
  return { eye, fwd, right, up, aspect, tan: 1 / t, viewProj: m4mul(proj, view) };
}

/** The ray from the eye through the pixel (px, py) of a w × h picture. */
export function rayAt(c, px, py, w, h) {
  const nx = (2 * px) / w - 1, ny = 1 - (2 * py) / h;
  const d = [0, 1, 2].map((k) => c.fwd[k] + c.right[k] * nx * c.tan * c.aspect + c.up[k] * ny * c.tan);
  return { origin: c.eye, dir: norm(d) };
}

/** Where the world point p lands on a w × h picture ([x, y] from the top left; null behind the eye). */
export function project(c, p, w, h) {
  const m = c.viewProj;
  const x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
  const y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
  const ww = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
  if (ww <= 0) return null;
  return [((x / ww + 1) / 2) * w, ((1 - y / ww) / 2) * h];
}

/**
 * The distance along the ray (origin o, direction d) to the triangle
 * (a, b, c), either face (Möller–Trumbore); null when it misses.
 */
export function hitTriangle(o, d, a, b, c) {
  const e1 = sub(b, a), e2 = sub(c, a);
  const p = cross(d, e2);
  const det = dot(e1, p);
  if (Math.abs(det) < 1e-12) return null;
  const inv = 1 / det;
  const s = sub(o, a);
  const u = dot(s, p) * inv;
  if (u < 0 || u > 1) return null;
  const q = cross(s, e1);
  const v = dot(d, q) * inv;
  if (v < 0 || u + v > 1) return null;
  const t = dot(e2, q) * inv;
  return t > 1e-6 ? t : null;
}

/**
 * Whether the ray (origin o, direction d) meets the box [min, max] ahead
 * of its origin (the slab test).
 */
export function hitBox(o, d, min, max) {
  let t0 = 0, t1 = Infinity;
  for (let k = 0; k < 3; k++) {
    if (Math.abs(d[k]) < 1e-12) {
      if (o[k] < min[k] || o[k] > max[k]) return false;
      continue;
    }
    let a = (min[k] - o[k]) / d[k], b = (max[k] - o[k]) / d[k];
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
    if (t0 > t1) return false;
  }
  return true;
}

/**
 * The nearest triangle a world ray hits among `draws` (each {model,
 * positions, indices, and the positions' min and max when known}): {draw,
 * t, point (world)}, or null. Each draw's triangles are tested in its own
 * frame (the ray moved by the inverse of its model matrix), so no vertex is
 * transformed, and only when the ray meets the draw's box.
 */
export function pick(draws, ray) {
  let best = null;
  for (const dr of draws) {
    if (!dr.positions || !dr.indices) continue;
    const inv = dr.inverse || (dr.inverse = m4invertAffine(dr.model));
    if (!inv) continue;
    const o = m4point(inv, ray.origin);
    const d = m4dir(inv, ray.dir);
    if (dr.min && dr.max && !hitBox(o, d, dr.min, dr.max)) continue;
    const pos = dr.positions, idx = dr.indices;
    const v = (k) => [pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]];
    for (let i = 0; i + 2 < idx.length; i += 3) {
      const t = hitTriangle(o, d, v(idx[i]), v(idx[i + 1]), v(idx[i + 2]));
      if (t === null) continue;
      // The same parameter t in the world: d is the world direction moved.
      const point = m4point(dr.model, [o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t]);
      const dist = Math.hypot(...sub(point, ray.origin));
      if (!best || dist < best.t) best = { draw: dr, t: dist, point };
    }
  }
  return best;
}

/** A glTF-frame point (x east, y up, z south) as local metres [east, north]. */
export function groundOf(p) {
  return [p[0], -p[2]];
}
