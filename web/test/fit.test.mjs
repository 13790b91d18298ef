// Which polygon an asset picked goes on (web/fit.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pickNote, polygonFor, polygonsTaking, takersHint } from '../fit.js';

// As /api/polygons answers (`takes` from the engines' checks).
const bundled = [
  { name: 'lake', label: 'Lake with an island (hole)', takes: ['agp', 'ags'] },
  { name: 'square', label: 'Square block 120 m', takes: ['agp', 'agb', 'ags'] },
  { name: 'trapezoid', label: 'Trapezoid 160 × 90 m', takes: ['agp', 'agb', 'ags'] },
];
const needs = { agb: 'one counter-clockwise winding of 4 points, without holes' };
const lake = bundled[0];

test('an asset the polygon cannot take goes on the first polygon that takes it', () => {
  assert.deepEqual(polygonFor('agb', lake, bundled), { key: 'bundled:square', label: 'Square block 120 m' });
  const note = pickNote('agb', polygonFor('agb', lake, bundled), lake.label, needs);
  assert.equal(note, '“Lake with an island (hole)” cannot take an AGB, which needs one counter-clockwise '
    + 'winding of 4 points, without holes: switched to “Square block 120 m”.');
});

test('nothing changes when the polygon takes the asset, or what it takes is not known', () => {
  assert.equal(polygonFor('ags', lake, bundled), null);
  assert.equal(polygonFor('agp', lake, bundled), null);
  assert.equal(polygonFor('agb', { label: 'edited', takes: undefined }, bundled), null);
  assert.equal(polygonFor(null, lake, bundled), null);
  assert.equal(polygonFor('agb', null, bundled), null);
});

test('when no polygon takes the asset the page says what it needs', () => {
  const none = polygonFor('agb', lake, [lake]);
  assert.deepEqual(none, { key: null, label: null });
  assert.equal(pickNote('agb', none, lake.label, needs),
    'No test polygon can take an AGB, which needs one counter-clockwise winding of 4 points, '
    + 'without holes; pick a GeoJSON polygon file that does.');
  assert.equal(pickNote('agb', none, lake.label, {}),
    'No test polygon can take an AGB; pick a GeoJSON polygon file that does.');
});

test('the engine error on a polygon that cannot take the asset names those that can', () => {
  assert.deepEqual(polygonsTaking('agb', bundled), ['Square block 120 m', 'Trapezoid 160 × 90 m']);
  assert.equal(takersHint('agb', lake, bundled),
    'Test polygons that take an AGB: Square block 120 m, Trapezoid 160 × 90 m.');
  assert.equal(takersHint('ags', lake, bundled), '');
  assert.equal(takersHint('agb', lake, [lake]), '');
});
