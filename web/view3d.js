// The 3-D view: the placement shown as the glTF writer makes it, fetched
// from /api/place.glb (the download's bytes), read by ./glb.js and drawn
// with WebGL 2, lit by a sun, with an orbit camera (drag to turn, wheel to
// zoom, f to fit). It follows every change the 2-D view follows.
//
// Selection: each node's glTF extras say which item it draws ({item:
// "object"|"facade"|"trees"|"ground"|"placement", index, …}); a click casts
// a ray through the pixel, and the node it hits first, with the point hit
// (which tile of the ground, which tree of the trees), is selected through
// the store. The store's selection is drawn here too: the selected object or
// facade tinted, and any selected item ringed on the ground.

import { keyOf, select } from './state.js';
import { anchorOf, fromNode, itemOf } from './items.js';
import {
  camera, glbAccessor, glbChunks, groundOf, M4_ID, m4invertAffine, m4point, pick, project, rayAt, sceneNodes,
} from './glb.js';
import { placeGlb, tileGlb } from './api.js';

const VS = `#version 300 es
in vec3 pos; in vec3 nrm; in vec2 uv;
uniform mat4 model; uniform mat4 viewProj;
out vec3 vN; out vec2 vUv;
void main() {
  vN = mat3(model) * nrm;
  vUv = uv;
  gl_Position = viewProj * model * vec4(pos, 1.0);
}`;
const FS = `#version 300 es
precision mediump float;
in vec3 vN; in vec2 vUv;
uniform vec4 color; uniform sampler2D tex; uniform bool hasTex; uniform bool unlit;
uniform float cutoff; uniform vec3 sun; uniform vec4 tint;
out vec4 frag;
void main() {
  if (unlit) { frag = color; return; }
  vec4 c = color;
  if (hasTex) c *= texture(tex, vUv);
  if (c.a < cutoff) discard;
  vec3 n = normalize(vN);
  if (!gl_FrontFacing) n = -n;
  float light = 0.45 + 0.7 * max(dot(n, sun), 0.0);
  frag = vec4(mix(c.rgb * light, tint.rgb, tint.a), 1.0);
}`;

/** The colour of the selection: tint and ring. */
const SEL = [0.84, 0.62, 0.18];

/**
 * The 3-D view over `store`. `placeBody()` gives the request the 2-D view
 * placed (the same one is sent to /api/place.glb), `tileQuery()` the tile
 * it opened (sent to /api/tile.glb).
 */
export function createView3d(store, placeBody, tileQuery) {
  const state = store.state;
  const canvas = document.getElementById('view3d');
  const v3 = {
    gl: null, prog: null, loc: null, draws: [], textures: [], buffers: [], frames: new Map(),
    cam: { yaw: -0.7, pitch: 0.65, dist: 100, target: [0, 0, 0], radius: 50 },
    seq: 0, shown: 0, fitted: false, fitKey: null, drag: null, ring: null,
  };

  function init() {
    if (v3.gl) return v3.gl;
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
    gl.attachShader(p, shader(gl.VERTEX_SHADER, VS));
    gl.attachShader(p, shader(gl.FRAGMENT_SHADER, FS));
    gl.bindAttribLocation(p, 0, 'pos');
    gl.bindAttribLocation(p, 1, 'nrm');
    gl.bindAttribLocation(p, 2, 'uv');
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
    v3.prog = p;
    v3.loc = Object.fromEntries(['model', 'viewProj', 'color', 'tex', 'hasTex', 'unlit', 'cutoff', 'sun', 'tint']
      .map((n) => [n, gl.getUniformLocation(p, n)]));
    v3.gl = gl;
    canvas.addEventListener('pointerdown', (ev) => {
      v3.drag = { x: ev.clientX, y: ev.clientY, x0: ev.clientX, y0: ev.clientY };
      canvas.setPointerCapture(ev.pointerId);
    });
    canvas.addEventListener('pointermove', (ev) => {
      if (!v3.drag) return;
      v3.cam.yaw -= (ev.clientX - v3.drag.x) * 0.01;
      v3.cam.pitch = Math.min(1.55, Math.max(0.05, v3.cam.pitch + (ev.clientY - v3.drag.y) * 0.01));
      v3.drag.x = ev.clientX;
      v3.drag.y = ev.clientY;
      draw();
    });
    canvas.addEventListener('pointerup', (ev) => {
      const d = v3.drag;
      v3.drag = null;
      // A click, not a drag: select what is under the pointer.
      if (d && Math.abs(ev.clientX - d.x0) + Math.abs(ev.clientY - d.y0) <= 3) {
        const r = canvas.getBoundingClientRect();
        select(store, selectionAt(ev.clientX - r.left, ev.clientY - r.top));
      }
    });
    canvas.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      v3.cam.dist = Math.min(v3.cam.radius * 50, Math.max(1, v3.cam.dist * Math.exp(ev.deltaY * 0.001)));
      draw();
    }, { passive: false });
    new ResizeObserver(() => draw()).observe(canvas);
    return gl;
  }

  function clear() {
    const gl = v3.gl;
    for (const b of v3.buffers) gl.deleteBuffer(b);
    for (const v of v3.draws) gl.deleteVertexArray(v.vao);
    for (const t of v3.textures) if (t) gl.deleteTexture(t);
    if (v3.ring) { gl.deleteBuffer(v3.ring.buffer); gl.deleteVertexArray(v3.ring.vao); }
    v3.buffers = []; v3.draws = []; v3.textures = []; v3.frames = new Map(); v3.ring = null;
  }

  // Reads a GLB into GPU buffers and draw calls (keeping each primitive's
  // positions and indices for picking); the camera fits the scene the
  // first time and when the asset changes.
  async function load(buf, fitKey) {
    const gl = init();
    const { doc, bin } = glbChunks(buf);
    const bitmaps = await Promise.all((doc.images || []).map((im) => {
      const view = doc.bufferViews[im.bufferView];
      const bytes = new Uint8Array(bin.buffer, bin.byteOffset + (view.byteOffset || 0), view.byteLength);
      return createImageBitmap(new Blob([bytes], { type: im.mimeType || 'image/png' })).catch(() => null);
    }));
    clear();
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
      let positions = null;
      const attr = (slot, i, size) => {
        if (i === undefined) return null;
        const data = glbAccessor(doc, bin, i);
        const b = gl.createBuffer();
        v3.buffers.push(b);
        gl.bindBuffer(gl.ARRAY_BUFFER, b);
        gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
        gl.enableVertexAttribArray(slot);
        gl.vertexAttribPointer(slot, size, gl.FLOAT, false, 0, 0);
        return data;
      };
      positions = attr(0, p.attributes.POSITION, 3);
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
        vao, count: idx.length, positions, indices: idx,
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
    for (const n of sceneNodes(doc)) {
      if (!v3.frames.has(n.placement)) v3.frames.set(n.placement, n.frame);
      for (const p of meshes[n.mesh] || []) {
        v3.draws.push({ ...p, model: n.model, extras: n.extras, placement: n.placement, frame: n.frame });
        for (let c = 0; c < 8; c++) {
          const w = m4point(n.model, [0, 1, 2].map((k) => ((c >> k) & 1 ? p.max[k] : p.min[k])));
          for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], w[k]); hi[k] = Math.max(hi[k], w[k]); }
        }
      }
    }
    if (v3.draws.length && (!v3.fitted || fitKey !== v3.fitKey)) {
      v3.cam.target = [0, 1, 2].map((k) => (lo[k] + hi[k]) / 2);
      v3.cam.radius = Math.max(1, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
      v3.cam.dist = v3.cam.radius * 2.4;
      v3.fitted = true;
      v3.fitKey = fitKey;
    }
    ring();
    draw();
    v3.shown++;
    canvas.dataset.draws = String(v3.draws.length);
    canvas.dataset.shown = String(v3.shown);
  }

  /** Whether draw `d` draws the selected item itself (an object or facade node). */
  function drawsSelected(d) {
    const s = state.selection;
    if (!s || !d.extras) return false;
    if (!(s.kind === 'object' || s.kind === 'facade')) return false;
    return d.extras.item === s.kind && d.extras.index === s.index && d.placement === (s.placement || 0);
  }

  // A ring on the ground around the selected item, and a pin above it, in
  // its placement's frame: the ground and the trees are one mesh each, so a
  // selected tile or tree is shown this way.
  function ring() {
    const gl = v3.gl;
    if (!gl) return;
    if (v3.ring) { gl.deleteBuffer(v3.ring.buffer); gl.deleteVertexArray(v3.ring.vao); v3.ring = null; }
    const s = state.selection;
    const it = itemOf(state.result, s);
    if (!it) return;
    let pts;
    const lift = 0.3;
    if ((s.kind === 'tile' || s.kind === 'stop' || s.kind === 'facade') && it.polygon && it.polygon.length >= 3) {
      pts = it.polygon;
    } else if (s.kind === 'object' && it.footprint && it.footprint.length >= 3) {
      pts = it.footprint;
    } else {
      const c = anchorOf(state.result, s);
      if (!c) return;
      const r = s.kind === 'tree' ? Math.max(it.width / 2, 1) : 2;
      pts = Array.from({ length: 24 }, (_, k) => [c[0] + r * Math.cos((k * Math.PI) / 12), c[1] + r * Math.sin((k * Math.PI) / 12)]);
    }
    const c = anchorOf(state.result, s) || pts[0];
    const loop = pts.flatMap((p) => [p[0], lift, -p[1]]);
    const pin = [c[0], lift, -c[1], c[0], lift + Math.max(8, v3.cam.radius * 0.15), -c[1]];
    const data = new Float32Array([...loop, ...pin]);
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
    v3.ring = { vao, buffer, loop: pts.length, frame: v3.frames.get(s.placement || 0) || M4_ID };
  }

  function draw() {
    const gl = v3.gl;
    if (!gl) return;
    const w = Math.max(1, Math.round(canvas.clientWidth * (window.devicePixelRatio || 1)));
    const h = Math.max(1, Math.round(canvas.clientHeight * (window.devicePixelRatio || 1)));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.81, 0.86, 0.9, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.useProgram(v3.prog);
    gl.uniformMatrix4fv(v3.loc.viewProj, false, camera(v3.cam, w, h).viewProj);
    const sun = [0.35, 0.8, 0.45];
    const sn = Math.hypot(...sun);
    gl.uniform3fv(v3.loc.sun, sun.map((x) => x / sn));
    gl.uniform1i(v3.loc.tex, 0);
    gl.uniform1i(v3.loc.unlit, 0);
    let tinted = 0;
    for (const d of v3.draws) {
      if (d.twoSided) gl.disable(gl.CULL_FACE);
      else gl.enable(gl.CULL_FACE);
      const sel = drawsSelected(d);
      tinted += sel ? 1 : 0;
      gl.uniform4fv(v3.loc.tint, sel ? [...SEL, 0.55] : [0, 0, 0, 0]);
      gl.uniformMatrix4fv(v3.loc.model, false, d.model);
      gl.uniform4fv(v3.loc.color, d.color);
      gl.uniform1f(v3.loc.cutoff, d.cutoff);
      gl.uniform1i(v3.loc.hasTex, d.tex ? 1 : 0);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, d.tex);
      gl.bindVertexArray(d.vao);
      gl.drawElements(gl.TRIANGLES, d.count, d.type, 0);
    }
    if (v3.ring) {
      // Over everything: the ring shows through what stands on it.
      gl.disable(gl.DEPTH_TEST);
      gl.uniform1i(v3.loc.unlit, 1);
      gl.uniform4fv(v3.loc.color, [...SEL, 1]);
      gl.uniformMatrix4fv(v3.loc.model, false, v3.ring.frame);
      gl.bindVertexArray(v3.ring.vao);
      gl.drawArrays(gl.LINE_LOOP, 0, v3.ring.loop);
      gl.drawArrays(gl.LINES, v3.ring.loop, 2);
      gl.enable(gl.DEPTH_TEST);
    }
    gl.bindVertexArray(null);
    canvas.dataset.selected = keyOf(state.selection);
    canvas.dataset.tinted = String(tinted);
    canvas.dataset.ringed = v3.ring ? '1' : '0';
  }

  /**
   * The selection under the canvas pixel (x, y) (CSS pixels from its top
   * left): the nearest node hit and, for the ground and the trees, the
   * point hit. Null when nothing selectable is there.
   */
  function selectionAt(x, y) {
    if (!v3.draws.length) return null;
    const w = Math.max(1, canvas.clientWidth), h = Math.max(1, canvas.clientHeight);
    const hit = pick(v3.draws, rayAt(camera(v3.cam, w, h), x, y, w, h));
    if (!hit) return null;
    const inv = m4invertAffine(hit.draw.frame || M4_ID);
    const at = inv ? groundOf(m4point(inv, hit.point)) : null;
    return fromNode(state.result, hit.draw.extras, hit.draw.placement, at);
  }

  /**
   * Where the item `sel` shows on the page (client pixels), `up` metres
   * above its anchor; null when it is not in this scene or behind the eye.
   */
  function screenOf(sel, up = 1) {
    const c = anchorOf(state.result, sel);
    if (!c || !v3.draws.length) return null;
    const frame = v3.frames.get(sel.placement || 0) || M4_ID;
    const world = m4point(frame, [c[0], up, -c[1]]);
    const r = canvas.getBoundingClientRect();
    const p = project(camera(v3.cam, Math.max(1, canvas.clientWidth), Math.max(1, canvas.clientHeight)), world,
      Math.max(1, canvas.clientWidth), Math.max(1, canvas.clientHeight));
    return p ? { x: r.left + p[0], y: r.top + p[1] } : null;
  }

  // Fetches the scene of the placement shown and draws it (the newest
  // request wins; older answers are dropped).
  // A whole DSF tile's scene is /api/tile.glb, the same tile the 2-D view
  // drew.
  async function update() {
    const tile = state.mode === 'tile';
    if (state.style !== '3d' || (tile ? !state.tile : !state.asset || !state.poly)) return;
    const seq = ++v3.seq;
    canvas.dataset.loading = '1';
    const r = tile ? await tileGlb(tileQuery()) : await placeGlb(placeBody());
    if (seq !== v3.seq) return;
    delete canvas.dataset.loading;
    if (!r.ok) {
      canvas.dataset.error = r.error;
      return;
    }
    delete canvas.dataset.error;
    await load(r.buffer, tile ? `tile:${state.tile}` : state.asset);
  }

  const failed = (e) => { canvas.dataset.error = e.message; };

  function show() {
    const on = state.style === '3d';
    canvas.hidden = !on;
    document.getElementById('view').style.visibility = on ? 'hidden' : '';
    if (on) update().catch(failed);
  }

  /** Fits the camera to the scene again (the `f` key). */
  function refit() {
    if (state.style !== '3d') return;
    v3.fitted = false;
    update().catch(failed);
  }

  store.subscribe(['result'], () => { if (state.style === '3d') update().catch(failed); });
  store.subscribe(['style'], show);
  store.subscribe(['selection'], () => { ring(); draw(); });

  return { show, refit, screenOf, selectionAt };
}
