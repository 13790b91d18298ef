// What a selection names, and the item a 3-D node stands for (web/items.js,
// web/geom.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorOf, describe, fromNode, itemOf, lineOf, nameOf, ownerTile, partsOf } from '../items.js';
import { affineOf, bounds, inside, ringPath } from '../geom.js';
import { selection } from '../state.js';

const square = (x, y, s) => [[x, y], [x + s, y], [x + s, y + s], [x, y + s]];
const result = {
  offset: [10, 20],
  pivots: [{ kind: 'anchor', tile: 1, x: 1, y: 2, source_line: 5 }],
  placement: {
    kind: 'ags',
    tiles: [
      { id: 1, role: 'edge', unit: 0, order: 0, hidden: false, polygon: square(0, 0, 10), uv: square(0, 0, 512), stop_points: [], source_line: 4 },
      { id: 2, role: 'edge', unit: 1, order: 1, hidden: false, polygon: square(10, 0, 10), uv: square(512, 0, 512), stop_points: [[12, 1]], source_line: 9 },
      { id: 3, role: 'cap', unit: 2, order: 2, hidden: true, polygon: square(20, 0, 10), uv: square(0, 0, 512), stop_points: [], source_line: 12 },
    ],
    objects: [{ asset: 'house_a.obj', index: 0, mode: 'graded', heading: 90, height: 0, x: 5, y: 5, lat: 47.5, lon: 13, tile: 0, source_line: 6 }],
    facades: [{ asset: 'fence.fac', height: 1.2, polygon: square(11, 1, 3), walls: [0, 0, 0, 0], tile: 1, source_line: 10 }],
    trees: [
      { x: 2, y: 8, width: 4, heading: 0, layer: 1, tile: 0, source_line: 7 },
      { x: 18, y: 8, width: 6, heading: 0, layer: 1, tile: null, source_line: 11 },
    ],
    corners: [{ x: 0, y: 0, turn: 90 }],
    warnings: [],
  },
};
const lines = ['A', '1000', 'AG_STRING', 'TILE 0 0 512 512', 'PIVOT', 'OBJ_GRADED 256 200 0 0', 'TREE 80 420 0 7 1'];

test('a selection names its item, line, tile and place', () => {
  assert.equal(itemOf(result, selection('object', 0)).asset, 'house_a.obj');
  assert.equal(itemOf(result, selection('object', 1)), null, 'past the end');
  assert.equal(itemOf(null, selection('object', 0)), null);
  assert.equal(itemOf(result, selection('stop', 1)).id, 2, 'a stop point names its tile');
  assert.equal(lineOf(result, selection('tree', 1)), 11);
  assert.equal(lineOf(result, selection('corner', 0)), null);
  assert.equal(ownerTile(result, selection('facade', 0)), 1);
  assert.equal(ownerTile(result, selection('tree', 1)), null, 'a fill tree has no tile');
  assert.equal(ownerTile(result, selection('pivot', 0)), 1);
  assert.equal(ownerTile(result, selection('tile', 2)), 2);
  assert.deepEqual(anchorOf(result, selection('tile', 0)), [5, 5]);
  assert.deepEqual(anchorOf(result, selection('tree', 0)), [2, 8]);
  assert.equal(nameOf(result, selection('object', 0)), 'object 0 house_a.obj');
});

test('describe gives the rows of the tooltip and the Selection tab', () => {
  const rows = describe(result, selection('object', 0), lines);
  assert.deepEqual(rows[0], ['object', 'house_a.obj']);
  assert.deepEqual(rows.at(-1), ['line', '6: OBJ_GRADED 256 200 0 0', 6]);
  const tile = describe(result, selection('tile', 1), lines);
  assert.deepEqual(tile[0], ['tile', '2 (edge)']);
  assert.ok(tile.some(([k, v]) => k === 'stop points' && v === '(12, 1)'));
  assert.deepEqual(describe(result, selection('tile', 2), lines)[0], ['tile', '3 (cap, hidden)']);
  assert.deepEqual(describe(result, selection('tree', 1), lines)[2], ['tile', 'fill tree']);
  assert.deepEqual(describe(result, selection('corner', 0), lines)[0], ['corner', 'turn 90° (right)']);
  assert.deepEqual(describe(result, selection('object', 9), lines), []);
});

test('a 3-D node stands for the item its extras name', () => {
  const at = null;
  assert.deepEqual(fromNode(result, { item: 'object', index: 0, source_line: 6 }, 0, at),
    { kind: 'object', index: 0, placement: 0, from: '3d' });
  assert.deepEqual(fromNode(result, { item: 'facade', index: 0 }, 0, at).kind, 'facade');
  assert.equal(fromNode(result, { item: 'object', index: 4 }, 0, at), null, 'no such object');
  assert.equal(fromNode(result, { item: 'placement', index: 0 }, 0, at), null);
  assert.equal(fromNode(result, { item: 'lights' }, 0, at), null);
  assert.equal(fromNode(result, null, 0, at), null);
  assert.equal(fromNode(result, 'object', 0, at), null);
  assert.equal(fromNode(result, { item: 'object', index: '0' }, 0, at), null, 'an index that is no number');
  // A placement index in the extras wins over the node above: an answer of
  // one placement has no placement 3 (a whole tile's have; tile.test.mjs).
  assert.equal(fromNode(result, { item: 'object', index: 0, placement: 3 }, 0, at), null);
});

test('the point hit says which tile of the ground and which tree of the trees', () => {
  const ground = { item: 'ground', index: 0, source_lines: [4, 9] };
  assert.deepEqual(fromNode(result, ground, 0, [15, 5]), { kind: 'tile', index: 1, placement: 0, from: '3d' });
  assert.equal(fromNode(result, ground, 0, [25, 5]), null, 'hidden tiles are not drawn');
  assert.equal(fromNode(result, ground, 0, [-5, 5]), null);
  assert.equal(fromNode(result, ground, 0, null), null);
  const trees = { item: 'trees', index: 0, source_lines: [7, 11] };
  assert.equal(fromNode(result, trees, 0, [3, 8]).index, 0);
  assert.equal(fromNode(result, trees, 0, [16, 9]).index, 1);
  assert.equal(fromNode(result, trees, 0, [10, 0]), null, 'too far from any tree');
  // If the writer gives each tree or tile a node of its own.
  assert.equal(fromNode(result, { item: 'tree', index: 1 }, 0, [0, 0]).index, 1);
  assert.deepEqual(fromNode(result, { item: 'tile', index: 2 }, 0, null), { kind: 'tile', index: 2, placement: 0, from: '3d' });
  assert.equal(fromNode(result, { item: 'tile', index: 7 }, 0, null), null, 'no such tile');
});

test('geometry: inside, affine maps, bounds, path data', () => {
  assert.ok(inside([5, 5], square(0, 0, 10)));
  assert.ok(!inside([15, 5], square(0, 0, 10)));
  const m = affineOf([[0, 0], [1, 0], [0, 1]], [[10, 20], [12, 20], [10, 23]]);
  assert.deepEqual(m, [2, 0, 0, 3, 10, 20]);
  assert.equal(affineOf([[0, 0], [1, 1], [2, 2]], [[0, 0], [1, 1], [2, 2]]), null, 'points on a line');
  assert.deepEqual(bounds(null, partsOf(result), false), [10, 20, 40, 30]);
  assert.deepEqual(bounds(null, null, false), [-50, -50, 50, 50]);
  assert.equal(ringPath([[0, 0], [1, 2]], 1, 1), 'M1,-1L2,-3Z');
  assert.equal(ringPath([]), '');
});
