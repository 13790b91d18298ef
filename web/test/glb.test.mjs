// The GLB reader and the 3-D view's picking math (web/glb.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  camera, glbAccessor, glbChunks, groundOf, hitBox, hitTriangle, m4invertAffine, m4mul, m4node, m4point, pick, project, rayAt, sceneNodes,
} from '../glb.js';

/** A GLB of `doc` with the binary chunk `bin`. */
function glb(doc, bin) {
  let json = Buffer.from(JSON.stringify(doc));
  json = Buffer.concat([json, Buffer.alloc((4 - (json.length % 4)) % 4, 0x20)]);
  const pad = Buffer.concat([Buffer.from(bin), Buffer.alloc((4 - (bin.length % 4)) % 4)]);
  const head = Buffer.alloc(12);
  head.write('glTF', 0, 'latin1');
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + 8 + json.length + 8 + pad.length, 8);
  const jh = Buffer.alloc(8); jh.writeUInt32LE(json.length, 0); jh.write('JSON', 4, 'latin1');
  const bh = Buffer.alloc(8); bh.writeUInt32LE(pad.length, 0); bh.write('BIN\0', 4, 'latin1');
  const all = Buffer.concat([head, jh, json, bh, pad]);
  return all.buffer.slice(all.byteOffset, all.byteOffset + all.length);
}

// One square of the ground (y = 0, 10 m), a placement node moved 100 m east
// holding a ground node and an object node lifted 5 m.
const positions = new Float32Array([0, 0, 0, 10, 0, 0, 10, 0, -10, 0, 0, -10]);
const indices = new Uint16Array([0, 1, 2, 0, 2, 3]);
const bin = Buffer.concat([Buffer.from(positions.buffer), Buffer.from(indices.buffer)]);
const doc = {
  asset: { version: '2.0' },
  buffers: [{ byteLength: bin.length }],
  bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: 48 }, { buffer: 0, byteOffset: 48, byteLength: 12 }],
  accessors: [
    { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, -10], max: [10, 0, 0] },
    { bufferView: 1, componentType: 5123, count: 6, type: 'SCALAR' },
  ],
  meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
  nodes: [
    { name: 'placement', translation: [100, 0, 0], children: [1, 2], extras: { item: 'placement', index: 0 } },
    { name: 'ground', mesh: 0, extras: { item: 'ground', index: 0, source_lines: [4] } },
    { name: 'object', mesh: 0, translation: [0, 5, 0], extras: { item: 'object', index: 3, source_line: 6 } },
  ],
  scenes: [{ nodes: [0] }],
};

test('reads the chunks and accessors of a GLB, and refuses what is not one', () => {
  const { doc: d, bin: b } = glbChunks(glb(doc, bin));
  assert.equal(d.nodes.length, 3);
  assert.deepEqual([...glbAccessor(d, b, 0)], [...positions]);
  assert.deepEqual([...glbAccessor(d, b, 1)], [...indices]);
  assert.throws(() => glbChunks(new ArrayBuffer(8)), /not a GLB/);
  const bad = { ...d, accessors: [{ ...d.accessors[0], count: 400 }] };
  assert.throws(() => glbAccessor(bad, b, 0), /outside the binary chunk/);
});

test('scene nodes carry their world matrix, extras and placement', () => {
  const nodes = sceneNodes(doc);
  assert.deepEqual(nodes.map((n) => n.extras.item), ['ground', 'object']);
  assert.deepEqual(nodes.map((n) => n.placement), [0, 0]);
  assert.deepEqual(m4point(nodes[1].model, [0, 0, 0]), [100, 5, 0]);
  assert.deepEqual(m4point(nodes[1].frame, [1, 0, 0]), [101, 0, 0], 'the frame is the placement node’s');
  // A cycle is not followed twice.
  const cyclic = { ...doc, nodes: [{ ...doc.nodes[0], children: [0, 1] }, doc.nodes[1]] };
  assert.equal(sceneNodes(cyclic).length, 1);
});

test('matrices: a node’s TRS, its inverse', () => {
  const m = m4node({ translation: [1, 2, 3], rotation: [0, Math.SQRT1_2, 0, Math.SQRT1_2], scale: [2, 2, 2] });
  const inv = m4invertAffine(m);
  const id = m4mul(m, inv);
  for (let k = 0; k < 16; k++) assert.ok(Math.abs(id[k] - (k % 5 === 0 ? 1 : 0)) < 1e-6, `${k}: ${id[k]}`);
  assert.equal(m4invertAffine(new Float32Array(16)), null);
});

test('a ray hits the nearest triangle, in the node’s frame, either face', () => {
  const tri = [[0, 0, 0], [1, 0, 0], [0, 1, 0]];
  assert.equal(hitTriangle([0.2, 0.2, 5], [0, 0, -1], ...tri), 5);
  assert.equal(hitTriangle([0.2, 0.2, -5], [0, 0, 1], ...tri), 5, 'from behind');
  assert.equal(hitTriangle([2, 2, 5], [0, 0, -1], ...tri), null);
  assert.equal(hitTriangle([0.2, 0.2, 5], [0, 0, 1], ...tri), null, 'pointing away');
  assert.ok(hitBox([0.5, 0.5, 5], [0, 0, -1], [0, 0, 0], [1, 1, 1]));
  assert.ok(hitBox([0.5, 0.5, 0.5], [1, 0, 0], [0, 0, 0], [1, 1, 1]), 'from inside');
  assert.ok(!hitBox([0.5, 0.5, 5], [0, 0, 1], [0, 0, 0], [1, 1, 1]), 'behind');
  assert.ok(!hitBox([2, 0.5, 5], [0, 0, -1], [0, 0, 0], [1, 1, 1]));
  assert.ok(hitBox([0.5, 5, 0], [0, -1, 0], [0, 0, 0], [1, 0, 0]), 'a flat box');
  const draws = sceneNodes(doc).map((n) => ({ ...n, positions, indices, min: [0, 0, -10], max: [10, 0, 0] }));
  // Straight down onto the object (y = 5) above the ground (y = 0).
  const hit = pick(draws, { origin: [105, 50, -5], dir: [0, -1, 0] });
  assert.equal(hit.draw.extras.item, 'object');
  assert.ok(Math.abs(hit.t - 45) < 1e-4);
  // Beside the placement: nothing.
  assert.equal(pick(draws, { origin: [50, 50, -5], dir: [0, -1, 0] }), null);
  // The point hit, in the placement's local metres (east, north).
  const local = groundOf(m4point(m4invertAffine(hit.draw.frame), hit.point));
  assert.ok(Math.abs(local[0] - 5) < 1e-4 && Math.abs(local[1] - 5) < 1e-4, String(local));
});

test('the camera projects a point where the ray through that pixel goes', () => {
  const cam = { yaw: -0.7, pitch: 0.65, dist: 100, target: [3, 0, -4], radius: 50 };
  const c = camera(cam, 800, 600);
  const target = project(c, cam.target, 800, 600);
  assert.ok(Math.abs(target[0] - 400) < 1e-3 && Math.abs(target[1] - 300) < 1e-3, String(target));
  const p = [20, 7, -15];
  const [x, y] = project(c, p, 800, 600);
  const ray = rayAt(c, x, y, 800, 600);
  const to = p.map((v, k) => v - ray.origin[k]);
  const len = Math.hypot(...to);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(to[k] / len - ray.dir[k]) < 1e-4);
  assert.equal(project(c, c.eye.map((v, k) => v - c.fwd[k] * 10), 800, 600), null, 'behind the eye');
});
