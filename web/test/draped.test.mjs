// A whole tile's draped polygons and painted lines in the page's pure
// modules (web/geom.js, web/items.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bounds, ringsPath, strokePath } from '../geom.js';
import { anchorOf, describe, fromNode, itemOf, nameOf, partsOf } from '../items.js';
import { selection } from '../state.js';

const square = (x, y, s) => [[x, y], [x + s, y], [x + s, y + s], [x, y + s]];
const result = {
  offset: [100, 0],
  placement: {
    kind: 'pol', tiles: [], objects: [], facades: [], trees: [], corners: [],
    draped: [
      { asset: 'apron.pol', entity: 3, rings: [square(0, 0, 10), square(2, 2, 2).reverse()], texture: 'apron.png', scale: [25, 50], heading: 30 },
      { asset: 'apron.pol', entity: 4, rings: [square(20, 0, 4)], uv: [[[0.5, 0.25], [0.5, 0.25], [0.5, 0.25], [0.5, 0.25]]] },
    ],
    lines: [{ asset: 'stripe.lin', entity: 5, winding: 1, points: [[0, -5], [30, -5]], closed: false, width: 0.625 }],
    warnings: [],
  },
};

test('a draped polygon is one path of its rings, the hole a ring of its own', () => {
  const d = ringsPath(result.placement.draped[0].rings, 100, 0);
  assert.equal((d.match(/M/g) || []).length, 2);
  assert.equal((d.match(/Z/g) || []).length, 2);
  assert.ok(d.startsWith('M100,0L110,0'), d);
  // SVG y grows down: y negated.
  assert.ok(d.includes('110,-10'), d);
  // A ring of fewer than three points draws nothing.
  assert.equal(ringsPath([[[0, 0], [1, 1]]]), '');
});

test('a line is an open stroke, a closed one back to its start', () => {
  assert.equal(strokePath([[0, 0], [10, 0]], 1, 2), 'M1,-2L11,-2');
  assert.ok(strokePath(square(0, 0, 1), 0, 0, true).endsWith('Z'));
  assert.equal(strokePath([[0, 0]]), '');
});

test('the view fits draped polygons and lines', () => {
  assert.deepEqual(bounds(null, partsOf(result)), [100, -5, 130, 10]);
});

test('draped polygons and lines are items: described, named, anchored, picked in 3-D', () => {
  const d = selection('draped', 0, 0, '2d');
  assert.equal(itemOf(result, d).entity, 3);
  const rows = Object.fromEntries(describe(result, d, []).map(([k, v]) => [k, v]));
  assert.equal(rows['draped polygon'], 'apron.pol');
  assert.equal(rows.points, '4, 1 hole(s)');
  assert.ok(rows.texture.includes('25 × 50 m, 30°'), rows.texture);
  assert.ok(describe(result, selection('draped', 1, 0, '2d'), []).some(([, v]) => v.includes('UV planes')));
  assert.equal(nameOf(result, selection('line', 0, 0, '2d')), 'line 0 stripe.lin');
  assert.deepEqual(anchorOf(result, d), [5, 5]);
  assert.deepEqual(anchorOf(result, selection('line', 0, 0, '2d')), [15, -5]);
  const lineRows = Object.fromEntries(describe(result, selection('line', 0, 0, '2d'), []));
  assert.equal(lineRows.width, '0.6 m');
  // The glTF nodes name them by kind and index.
  assert.deepEqual(fromNode(result, { item: 'draped', index: 1 }, 0, null), selection('draped', 1, 0, '3d'));
  assert.deepEqual(fromNode(result, { item: 'line', index: 0 }, 0, null), selection('line', 0, 0, '3d'));
  assert.equal(fromNode(result, { item: 'line', index: 7 }, 0, null), null);
});
