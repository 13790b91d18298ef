// The page's one store, and the selection every view shares.
//
// No DOM here: `node --test web/test/` runs this module as it is.
//
// The store holds one plain object (`store.state`, also the page's
// `window.__agkit` hook for the tests). `set(patch)` assigns the keys that
// changed and calls, synchronously and in subscription order, each
// subscriber listening to one of them; so when `set` returns, every view has
// followed. Code that changed a value in place (a dragged polygon vertex)
// says so with `touch(key)`.

/** Kinds of item a selection can name (what the 2-D view draws). */
export const KINDS = ['tile', 'stop', 'object', 'facade', 'tree', 'pivot', 'corner', 'draped', 'line'];

/** How deep subscribers may set() from within set() before it is a loop. */
const MAX_DEPTH = 16;

/**
 * A store over a copy of `initial`.
 * @param {object} initial
 */
export function createStore(initial) {
  const state = { ...initial };
  const subs = [];
  let depth = 0;

  function notify(changed) {
    if (!changed.length) return;
    if (depth >= MAX_DEPTH) throw new Error(`store: subscribers set ${changed.join(', ')} in a loop`);
    depth++;
    try {
      for (const s of subs.slice()) {
        if (!s.keys || changed.some((k) => s.keys.includes(k))) s.fn(state, changed);
      }
    } finally {
      depth--;
    }
  }

  return {
    state,
    /** Assigns the keys of `patch` whose values differ; tells the subscribers. */
    set(patch) {
      const changed = [];
      for (const [k, v] of Object.entries(patch)) {
        if (!Object.is(state[k], v)) {
          state[k] = v;
          changed.push(k);
        }
      }
      notify(changed);
      return changed;
    },
    /** Tells the subscribers that `keys` changed in place. */
    touch(...keys) {
      notify(keys);
    },
    /**
     * Calls `fn(state, changedKeys)` whenever one of `keys` changes (every
     * change when `keys` is null). Returns the function that unsubscribes.
     */
    subscribe(keys, fn) {
      const s = { keys: keys ? [...keys] : null, fn };
      subs.push(s);
      return () => {
        const i = subs.indexOf(s);
        if (i >= 0) subs.splice(i, 1);
      };
    },
  };
}

/**
 * A selection: item `kind` number `index` of placement `placement`, and the
 * view or panel it came `from` ('2d', '3d', 'panel', …). Null when `kind`
 * is not one of KINDS or `index` is not a whole number ≥ 0.
 */
export function selection(kind, index, placement = 0, from = null) {
  if (!KINDS.includes(kind)) return null;
  if (!Number.isInteger(index) || index < 0) return null;
  if (!Number.isInteger(placement) || placement < 0) placement = 0;
  return { kind, index, placement, from };
}

/** Whether `a` and `b` name the same item (where they came from aside). */
export function sameItem(a, b) {
  if (!a || !b) return !a && !b;
  return a.kind === b.kind && a.index === b.index && (a.placement || 0) === (b.placement || 0);
}

/** A short text key of a selection, "object:3" (or "" for none). */
export function keyOf(sel) {
  if (!sel) return '';
  return sel.placement ? `${sel.placement}/${sel.kind}:${sel.index}` : `${sel.kind}:${sel.index}`;
}

/**
 * Selects `sel` (or nothing) in `store`: the one way every view and panel
 * selects. Selecting what is already selected changes nothing (and tells
 * nobody), wherever it came from.
 */
export function select(store, sel) {
  if (sameItem(store.state.selection, sel)) return false;
  store.set({ selection: sel || null });
  return true;
}
