// The store and the selection events (web/state.js): node --test web/test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore, keyOf, sameItem, select, selection } from '../state.js';

test('set assigns only what changed and tells the subscribers of those keys', () => {
  const store = createStore({ a: 1, b: 2 });
  const calls = [];
  store.subscribe(['a'], (s, changed) => calls.push(['a', s.a, changed]));
  store.subscribe(['b'], (s, changed) => calls.push(['b', s.b, changed]));
  store.subscribe(null, (s, changed) => calls.push(['*', changed]));
  assert.deepEqual(store.set({ a: 1 }), []);
  assert.deepEqual(calls, [], 'an unchanged value tells nobody');
  assert.deepEqual(store.set({ a: 5, c: 3 }), ['a', 'c']);
  assert.deepEqual(calls, [['a', 5, ['a', 'c']], ['*', ['a', 'c']]]);
  assert.equal(store.state.c, 3);
});

test('subscribers run in order and have all run when set returns', () => {
  const store = createStore({ x: 0 });
  const seen = [];
  store.subscribe(['x'], () => seen.push(1));
  store.subscribe(['x'], () => seen.push(2));
  store.set({ x: 1 });
  assert.deepEqual(seen, [1, 2]);
});

test('touch tells of a change made in place; unsubscribe stops the calls', () => {
  const store = createStore({ poly: { windings: [[[0, 0]]] } });
  let n = 0;
  const off = store.subscribe(['poly'], () => n++);
  store.state.poly.windings[0][0] = [1, 1];
  assert.deepEqual(store.set({ poly: store.state.poly }), [], 'the same object is no change');
  store.touch('poly');
  assert.equal(n, 1);
  off();
  store.touch('poly');
  assert.equal(n, 1);
});

test('a subscriber may set other keys; a loop of sets is an error, not a hang', () => {
  const store = createStore({ a: 0, b: 0 });
  store.subscribe(['a'], (s) => store.set({ b: s.a * 2 }));
  let seenB = null;
  store.subscribe(['b'], (s) => { seenB = s.b; });
  store.set({ a: 4 });
  assert.equal(seenB, 8);
  const loop = createStore({ n: 0 });
  loop.subscribe(['n'], (s) => loop.set({ n: s.n + 1 }));
  assert.throws(() => loop.set({ n: 1 }), /in a loop/);
});

test('a selection names a kind, an index and a placement', () => {
  assert.deepEqual(selection('object', 3), { kind: 'object', index: 3, placement: 0, from: null });
  assert.deepEqual(selection('tree', 0, 2, '3d'), { kind: 'tree', index: 0, placement: 2, from: '3d' });
  assert.equal(selection('placement', 0), null, 'not a kind the views select');
  assert.equal(selection('tile', -1), null);
  assert.equal(selection('tile', 1.5), null);
  assert.equal(selection('tile', NaN), null);
  assert.equal(selection('tile', 1, -3).placement, 0);
  assert.equal(keyOf(selection('object', 3)), 'object:3');
  assert.equal(keyOf(selection('object', 3, 1)), '1/object:3');
  assert.equal(keyOf(null), '');
});

test('the same item from two views is the same selection', () => {
  assert.ok(sameItem(selection('facade', 1, 0, '2d'), selection('facade', 1, 0, '3d')));
  assert.ok(!sameItem(selection('facade', 1), selection('facade', 2)));
  assert.ok(!sameItem(selection('facade', 1), selection('object', 1)));
  assert.ok(!sameItem(selection('facade', 1, 0), selection('facade', 1, 1)));
  assert.ok(sameItem(null, null));
  assert.ok(!sameItem(null, selection('tile', 0)));
});

test('select is one event every view hears, and re-selecting is silent', () => {
  const store = createStore({ selection: null });
  const heard = { view2d: [], view3d: [], panel: [] };
  for (const v of Object.keys(heard)) store.subscribe(['selection'], (s) => heard[v].push(keyOf(s.selection)));
  // A click in the 3-D view…
  assert.equal(select(store, selection('object', 2, 0, '3d')), true);
  // …the same item clicked again in the 2-D view changes nothing…
  assert.equal(select(store, selection('object', 2, 0, '2d')), false);
  assert.equal(store.state.selection.from, '3d');
  // …another item from the panel, then nothing.
  select(store, selection('tree', 7, 0, 'panel'));
  select(store, null);
  select(store, null);
  for (const v of Object.keys(heard)) assert.deepEqual(heard[v], ['object:2', 'tree:7', ''], v);
});
