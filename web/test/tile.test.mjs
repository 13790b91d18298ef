// A whole DSF tile's answer (/api/tile): many placements, each at its
// offset, one selection space {kind, index, placement} (web/items.js,
// web/geom.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorOf, describe, fromNode, itemOf, nameOf, partsOf, totals } from '../items.js';
import { bounds } from '../geom.js';
import { selection } from '../state.js';

const empty = { tiles: [], objects: [], facades: [], trees: [], corners: [], warnings: [] };
const tile = {
  path: 'dsf/whole_demo.dsf',
  placements: [
    {
      offset: [0, 0],
      placement: {
        ...empty, kind: 'agp', asset: 'point/plaza.agp',
        tiles: [{ id: 0, role: 'point', unit: 0, order: 0, hidden: false, polygon: [[-5, -5], [5, -5], [5, 5], [-5, 5]], uv: [], stop_points: [], source_line: 3 }],
        objects: [{ asset: 'fountain.obj', index: 0, mode: 'graded', heading: 0, height: 0, x: 1, y: 1, lat: 47.8, lon: 13, tile: 0, source_line: 4 }],
      },
    },
    {
      offset: [100, -50],
      placement: {
        ...empty, kind: 'obj', asset: 'point/kiosk.obj',
        objects: [
          { asset: 'point/kiosk.obj', index: 0, mode: 'draped', heading: 0, height: 0, x: 0, y: 0, lat: 47.79, lon: 13, tile: 0, source_line: 0 },
          { asset: 'point/kiosk.obj', index: 0, mode: 'msl', heading: 45, height: 0, x: 20, y: 0, lat: 47.79, lon: 13, tile: 0, source_line: 0 },
        ],
        warnings: ['one'],
      },
    },
    {
      offset: [-30, 40],
      placement: {
        ...empty, kind: 'pol', asset: 'dsf/apron.pol',
        draped: [{ asset: 'dsf/apron.pol', rings: [[[0, 0], [10, 0], [10, 10], [0, 10]], [[2, 2], [2, 4], [4, 4], [4, 2]]], texture: 'apron.png', entity: 7 }],
      },
    },
  ],
  whole: { counts: { obj: { in_dsf: 2, placed: 2, not_drawn: 0 } }, not_drawn: [], unresolved: {} },
};

test('a tile answer is its placements; an asset answer one', () => {
  assert.equal(partsOf(tile).length, 3);
  assert.equal(partsOf(tile)[1].offset[0], 100);
  const one = { placement: tile.placements[0].placement, offset: [3, 4], pivots: [] };
  assert.equal(partsOf(one).length, 1);
  assert.deepEqual(partsOf(one)[0].offset, [3, 4]);
  assert.deepEqual(partsOf(null), []);
  assert.deepEqual(partsOf({ error: 'x' }), []);
});

test('totals add every placement', () => {
  const t = totals(tile);
  assert.equal(t.placements, 3);
  assert.equal(t.objects, 3);
  assert.equal(t.tiles, 1);
  assert.equal(t.draped, 1);
  assert.equal(t.lines, 0);
  assert.equal(t.warnings, 1);
  assert.equal(totals(null).objects, 0);
});

test('a selection names the item of its placement', () => {
  assert.equal(itemOf(tile, selection('object', 1, 1)).mode, 'msl');
  assert.equal(itemOf(tile, selection('object', 1, 0)), null, 'placement 0 has one object');
  assert.equal(itemOf(tile, selection('object', 0, 9)), null, 'no placement 9');
  assert.equal(itemOf(tile, selection('draped', 0, 2)).entity, 7);
  const rows = describe(tile, selection('object', 1, 1), []);
  assert.deepEqual(rows[0], ['placement', '1: obj point/kiosk.obj']);
  assert.ok(!rows.some(([k]) => k === 'on tile'), 'a DSF object stands on no autogen tile');
  assert.equal(nameOf(tile, selection('draped', 0, 2)), 'draped 0 apron.pol');
  // Its source line is the autogen asset's, named, never the Source tab's.
  const line = describe(tile, selection('object', 0, 0), ['A', '800', 'AG_POINT', 'X']).find(([k]) => k === 'line');
  assert.deepEqual(line, ['line', '4 of point/plaza.agp']);
  // The anchor is in the placement's own frame (the views add its offset).
  assert.deepEqual(anchorOf(tile, selection('object', 1, 1)), [20, 0]);
});

test('a 3-D node of a placement selects in that placement', () => {
  assert.deepEqual(fromNode(tile, { item: 'object', index: 1 }, 1, null), { kind: 'object', index: 1, placement: 1, from: '3d' });
  assert.equal(fromNode(tile, { item: 'object', index: 1 }, 0, null), null);
  assert.deepEqual(fromNode(tile, { item: 'ground', index: 0 }, 0, [1, 1]), { kind: 'tile', index: 0, placement: 0, from: '3d' });
  assert.equal(fromNode(tile, { item: 'ground', index: 0 }, 1, [1, 1]), null, 'placement 1 has no tiles');
});

test('bounds take each placement at its offset', () => {
  // Tile ±5, objects at (1,1), (100,-50), (120,-50), the draped ring at (-30..-20, 40..50).
  assert.deepEqual(bounds(null, partsOf(tile), true), [-30, -50, 120, 50]);
});
