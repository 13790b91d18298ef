import { test } from 'node:test';
import assert from 'node:assert/strict';
import { conflictMarks, conflictSummary, conflictLine, MAX_MARKS } from '../conflicts.js';

const finding = (over) => ({
  code: 'CNF001', severity: 'error', package: 'Town', kind: 'object',
  definition: 'lib/fixture/shed.obj', airport: 'XTST', feature: 'runway',
  feature_name: '09/27', depth_m: 4.25, at: [13.499, 47.4995], advice: 'exclude it', ...over,
});

test('a finding is marked where at_local puts it, errors first', () => {
  const c = {
    findings: [finding({ severity: 'warning', code: 'CNF003' }), finding()],
    at_local: [[1, 2], [3, 4]],
  };
  const m = conflictMarks(c);
  assert.deepEqual(m.map((x) => [x.x, x.y, x.severity, x.code]), [[3, 4, 'error', 'CNF001'], [1, 2, 'warning', 'CNF003']]);
  assert.match(m[0].title, /^CNF001 error: Town's object lib\/fixture\/shed\.obj on XTST's runway 09\/27, 4\.3 m in — exclude it$/);
});

test('no frame, an error, damaged or non-finite places give no marks', () => {
  assert.deepEqual(conflictMarks(null), []);
  assert.deepEqual(conflictMarks({ error: 'x' }), []);
  assert.deepEqual(conflictMarks({ findings: [finding()] }), []);
  assert.deepEqual(conflictMarks({ findings: [finding(), null], at_local: [[NaN, 1], [1, 1]] }), []);
  assert.deepEqual(conflictMarks({ findings: [finding()], at_local: ['x'] }), []);
});

test('marks are capped', () => {
  const n = MAX_MARKS + 5;
  const c = { findings: Array.from({ length: n }, () => finding()), at_local: Array.from({ length: n }, () => [0, 0]) };
  assert.equal(conflictMarks(c).length, MAX_MARKS);
});

test('the summary counts, names the fix and says how to get an installation', () => {
  const s = conflictSummary({ airports: [{ id: 'XTST' }], findings: [finding()], doubles: [{}], fix_above: 'Town' });
  assert.equal(s.head, 'Conflicts on 1 airport(s): 1 finding(s), 1 error(s); 1 double(s); the fix goes above Town in scenery_packs.ini');
  assert.equal(s.lines.length, 1);
  assert.match(conflictSummary({ error: 'no' }, 409).head, /--xplane DIR/);
  assert.equal(conflictSummary({ error: 'boom' }, 422).head, 'Conflicts: boom');
  assert.equal(conflictLine(finding({ placed_by: 'town.agb', depth_m: null })).includes('(placed by town.agb) on'), true);
});
