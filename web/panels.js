// The side panels: the asset list, the polygon choice, the source with its
// diagnostics, the Explain record, the Selection tab (the selected item's
// details, its tile's texture rectangle and the list of placed items), the
// message over the drawing and the counts. Each follows the store.
//
// Clicking an item of the list selects it as a click in either view does
// (through the store); a selection made in a view opens the Selection tab
// and marks the item in the list.

import { keyOf, select, selection } from './state.js';
import { f1 } from './geom.js';
import { LISTS, describe, nameOf, ownerTile, partsOf, totals } from './items.js';
import { takersHint } from './fit.js';
import { $, el, fill, svgEl } from './dom.js';
import { conflictSummary } from './conflicts.js';

/** Most entries of each kind in the list of placed items. */
export const MAX_LISTED = 200;

/**
 * The panels over `store`. `actions.selectAsset(path)` is called when an
 * asset is picked in the list, `actions.selectTile(path)` when a DSF tile
 * is.
 */
export function createPanels(store, actions) {
  const state = store.state;

  // ------------------------------------------------------------ assets --
  function renderAssetList() {
    const ul = $('assets');
    const q = $('filter').value.trim().toLowerCase();
    const all = state.files ? state.files.assets : [];
    const assets = all.filter((a) => a.path.toLowerCase().includes(q));
    const items = assets.map((a) => {
      const li = el('li', a.path === state.asset && state.mode !== 'tile' ? 'on' : '', el('span', 'kind', a.kind), a.path);
      li.dataset.path = a.path;
      li.title = a.path;
      li.addEventListener('click', () => actions.selectAsset(a.path));
      return li;
    });
    if (!assets.length) items.push(el('li', 'empty', all.length ? 'no match' : 'no .agp/.agb/.ags files under this folder'));
    fill(ul, items);
  }
  $('filter').addEventListener('input', () => { renderAssetList(); renderTileList(); });

  // The DSF tiles under the folder; one click opens the whole tile.
  function renderTileList() {
    const q = $('filter').value.trim().toLowerCase();
    const all = state.files ? state.files.dsf_files || [] : [];
    const tiles = all.filter((t) => t.path.toLowerCase().includes(q));
    const items = tiles.map((t) => {
      const li = el('li', t.path === state.tile && state.mode === 'tile' ? 'on' : '', el('span', 'kind', 'dsf'), t.path);
      li.dataset.path = t.path;
      li.title = `${t.path} (${t.size} bytes): open the whole tile`;
      li.addEventListener('click', () => actions.selectTile(t.path));
      return li;
    });
    if (!tiles.length) items.push(el('li', 'empty', all.length ? 'no match' : 'no .dsf files under this folder'));
    fill($('tiles'), items);
  }

  function renderPolygonSelect() {
    const sel = $('polygon');
    const g1 = document.createElement('optgroup');
    g1.label = 'Test polygons';
    for (const p of state.bundled) g1.append(new Option(p.label, 'bundled:' + p.name));
    const groups = [g1];
    const files = state.files ? state.files.polygon_files : [];
    if (files.length) {
      const g2 = document.createElement('optgroup');
      g2.label = 'GeoJSON files';
      for (const f of files) g2.append(new Option(f, 'file:' + f));
      groups.push(g2);
    }
    fill(sel, groups);
    if (![...sel.options].some((o) => o.value === state.polyKey)) state.polyKey = 'bundled:lake';
    sel.value = state.polyKey;
  }

  // Why the polygon was switched when an asset was picked (or what the
  // asset needs when no test polygon takes it).
  function renderPolyNote() {
    const note = $('poly-note');
    note.textContent = state.polyNote || '';
    note.hidden = !state.polyNote;
  }

  function renderKindControls() {
    const tile = state.mode === 'tile';
    const point = state.kind === 'agp';
    $('poly-controls').hidden = point || tile;
    $('point-controls').hidden = !point || tile;
    for (const e of document.querySelectorAll('.asset-only')) e.hidden = tile;
    $('low-label').textContent = state.kind === 'agb' ? 'Spelling set (low byte)'
      : state.kind === 'ags' ? 'Spawning contours (low byte)' : 'Low byte';
    $('asset-title').textContent = (tile ? state.tile : state.asset) || '';
    document.body.dataset.mode = tile ? 'tile' : 'asset';
  }

  // ------------------------------------------------------------ source --
  function renderSource() {
    const rank = { error: 0, warning: 1, note: 2 };
    const byLine = new Map();
    for (const d of state.diagnostics) {
      if (d.line == null) continue;
      const prev = byLine.get(d.line);
      if (!prev || rank[d.severity] < rank[prev.severity]) byLine.set(d.line, d);
    }
    const rows = state.lines.map((text, i) => {
      const n = i + 1;
      const d = byLine.get(n);
      const code = document.createElement('span');
      // Light highlighting: the directive keyword and whole-line comments.
      const m = /^(\s*)([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(text);
      if (/^\s*#/.test(text)) {
        code.className = 'cm';
        code.textContent = text;
      } else if (m) {
        code.append(m[1], el('b', 'kw', m[2]), m[3]);
      } else {
        code.textContent = text || ' ';
      }
      const div = el('div', 'ln' + (d ? ' ' + d.severity : ''), el('span', 'no', String(n)), code);
      div.dataset.line = String(n);
      if (d) div.title = `${d.severity} ${d.code}: ${d.message}`;
      return div;
    });
    fill($('source'), rows);
    const nErr = state.diagnostics.filter((d) => d.severity === 'error').length;
    const nWarn = state.diagnostics.filter((d) => d.severity === 'warning').length;
    $('diag-count').textContent = state.diagnostics.length ? `(${nErr}✗ ${nWarn}⚠)` : '';
    const items = state.diagnostics.map((d) => {
      const where = d.line != null ? ` ${d.file}:${d.line}:${d.column}` : ` ${d.file}`;
      const li = el('li', d.severity, el('span', 'sev', `${d.severity}[${d.code}] `), d.message, el('span', 'where', where));
      li.dataset.line = d.line ?? '';
      li.addEventListener('click', () => gotoLine(d.line));
      return li;
    });
    if (!state.diagnostics.length && state.asset) items.push(el('li', 'ok', '✓ agkit check: no problems'));
    fill($('diagnostics'), items);
    markUsedLines();
    focusLine(state.hlLine, false);
  }

  // Clicking a source line highlights what it placed.
  $('source').addEventListener('click', (ev) => {
    const ln = ev.target.closest('.ln');
    if (!ln) return;
    const n = Number(ln.dataset.line);
    store.set({ hlLine: state.hlLine === n ? null : n });
  });

  function markUsedLines() {
    const used = new Set();
    const pl = state.mode === 'tile' ? null : state.result && state.result.placement;
    if (pl) for (const x of [...pl.tiles, ...pl.objects, ...pl.facades, ...pl.trees]) used.add(x.source_line);
    for (const e of $('source').children) e.classList.toggle('used', used.has(Number(e.dataset.line)));
  }

  function focusLine(n, scroll = true) {
    for (const e of $('source').querySelectorAll('.focus')) e.classList.remove('focus');
    if (!n) return;
    const e = $('source').querySelector(`.ln[data-line="${n}"]`);
    if (!e) return;
    e.classList.add('focus');
    if (scroll) e.scrollIntoView({ block: 'center' });
  }

  function gotoLine(n) {
    showTab('source');
    focusLine(n);
  }

  // ----------------------------------------------------------- explain --
  function renderExplain() {
    const ex = partsOf(state.result).flatMap((p, i, all) => (p.placement.explain || []).map((l) => (all.length > 1 ? `${i} ${p.placement.asset}: ${l}` : l)));
    const items = ex.map((line) => el('li', '', line));
    if (!ex.length) items.push(el('li', 'dim', state.error ? 'No placement.' : 'The engine recorded no explanation.'));
    fill($('explain'), items);
  }

  function showTab(name) {
    for (const b of document.querySelectorAll('.tabs button')) b.classList.toggle('on', b.dataset.tab === name);
    for (const t of ['source', 'explain', 'info', 'tile']) $('tab-' + t).hidden = t !== name;
  }
  for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));

  // --------------------------------------------------------- selection --
  function renderInfo() {
    const box = $('info');
    const sel = state.selection;
    const rows = sel ? describe(state.result, sel, state.lines) : [];
    if (!rows.length) {
      box.replaceChildren(el('p', 'dim', 'Click a tile, object, facade, tree, stop point, pivot or corner.'));
      renderTexture(null);
      return;
    }
    const table = el('table', '', ...rows.map(([k, v, n]) => {
      let value = v;
      if (n) {
        value = el('a', '', v);
        value.addEventListener('click', () => { store.set({ hlLine: n }); gotoLine(n); });
      }
      return el('tr', '', el('td', '', k), el('td', '', value));
    }));
    box.replaceChildren(table);
    // The texture rectangle of the selected tile, or of the tile the
    // selected object, facade, tree or pivot belongs to.
    renderTexture(ownerTile(state.result, sel));
  }

  // The texture space with every placed tile's rectangle; v grows up.
  function renderTexture(selTile) {
    const tex = $('texture');
    const sel = state.selection;
    const part = partsOf(state.result)[(sel && sel.placement) || 0];
    const pl = part && part.placement;
    let b = [Infinity, Infinity, -Infinity, -Infinity];
    if (pl) pl.tiles.forEach((t) => t.uv.forEach((p) => { b = [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])]; }));
    if (!pl || !Number.isFinite(b[0])) { tex.replaceChildren(); return; }
    const w = Math.max(b[2] - b[0], 1), h = Math.max(b[3] - b[1], 1), m = Math.max(w, h) * 0.03;
    tex.setAttribute('viewBox', `${b[0] - m} ${-b[3] - m} ${w + 2 * m} ${h + 2 * m}`);
    const seen = new Set();
    const parts = [];
    const d = (t) => 'M' + t.uv.map((p) => `${f1(p[0])},${f1(-p[1])}`).join('L') + 'Z';
    const path = (cls, data) => svgEl('path', { class: cls, d: data });
    pl.tiles.forEach((t, i) => {
      const data = d(t);
      if (i === selTile || seen.has(data)) return;
      seen.add(data);
      parts.push(path('uv', data));
    });
    if (selTile != null && pl.tiles[selTile]) parts.push(path('uv sel', d(pl.tiles[selTile])));
    fill(tex, parts);
  }

  // The placed items, each a click away from being selected: at most
  // MAX_LISTED of each kind over all the placements.
  function renderItems() {
    const items = [];
    const parts = partsOf(state.result);
    for (const [kind, list] of [['object', 'objects'], ['facade', 'facades'], ['tree', 'trees'], ['tile', 'tiles'], ['draped', 'draped'], ['line', 'lines']]) {
      let n = 0, more = 0;
      parts.forEach((part, pi) => {
        (part.placement[list] || []).forEach((_, i) => {
          if (n >= MAX_LISTED) { more++; return; }
          n++;
          const sel = selection(kind, i, pi, 'panel');
          const li = el('li', '', el('span', 'kind', kind.slice(0, 3)), nameOf(state.result, sel));
          li.dataset.kind = kind;
          li.dataset.index = String(i);
          li.dataset.placement = String(pi);
          li.dataset.key = keyOf(sel);
          li.addEventListener('click', () => select(store, sel));
          items.push(li);
        });
      });
      if (more) items.push(el('li', 'empty', `and ${more} more ${kind}s`));
    }
    if (!items.length) items.push(el('li', 'empty', 'nothing placed'));
    fill($('items'), items);
    markItem(false);
  }

  function markItem(scroll) {
    const key = keyOf(state.selection);
    let on = null;
    for (const li of $('items').children) {
      const hit = !!key && li.dataset.key === key;
      li.classList.toggle('on', hit);
      if (hit) on = li;
    }
    if (on && scroll) on.scrollIntoView({ block: 'nearest' });
  }

  store.subscribe(['selection'], () => {
    const sel = state.selection;
    if (sel && sel.from !== 'panel') showTab('info');
    renderInfo();
    markItem(true);
  });

  // ---------------------------------------------------- message, counts --
  function showMessage(title, text, info) {
    const m = $('message');
    m.className = info ? 'message info' : 'message';
    const x = el('button', 'close', '×');
    x.type = 'button';
    x.title = 'Hide this message';
    x.addEventListener('click', () => { m.hidden = true; });
    m.replaceChildren(x, el('h4', '', title), text || '');
    m.hidden = false;
  }

  function renderMessage() {
    const m = $('message');
    const e = state.error;
    const parts = partsOf(state.result);
    const t = totals(state.result);
    if (!e) {
      if (t.warnings && state.mode === 'tile') {
        // A tile's warnings (art that resolves nowhere, mostly) are listed
        // in the Tile tab; the drawing stays in view.
        showMessage(`${t.warnings} warning(s) while placing the tile`, 'The Tile tab lists them.', true);
      } else if (t.warnings) {
        const ws = parts.flatMap((p) => p.placement.warnings || []);
        showMessage(`${t.warnings} warning(s) while placing`, '', true);
        m.append(el('ul', '', ...ws.slice(0, 6).map((w) => el('li', '', w))));
        if (ws.length > 6) m.append(el('p', 'dim', `and ${ws.length - 6} more`));
      } else if (state.mode === 'tile' && state.result && !parts.length) {
        showMessage('Nothing placed', 'The tile places nothing agkit draws; the Tile tab counts what it holds.', true);
      } else if (parts.length === 1 && !t.tiles && !t.objects) {
        showMessage('Nothing placed', 'The engine placed no tiles and no objects for these settings.', true);
      } else {
        m.hidden = true;
      }
      return;
    }
    const title = e.stage === 'dsf' ? 'The DSF tile cannot be read'
      : e.stage === 'read' ? 'The DSF tile cannot be opened'
      : e.stage === 'json' ? 'The tile is too big for the previewer'
      : e.stage === 'check' ? 'The asset has errors (agkit check)'
      : e.stage === 'parse' ? 'The asset cannot be parsed'
      : e.stage === 'place' ? 'The engine cannot place this asset here'
      : e.stage === 'network' ? 'No connection' : 'Request failed';
    showMessage(title, e.error || 'unknown error');
    // The engine cannot place the asset on this polygon: which can take it.
    const hint = e.stage === 'place' ? takersHint(state.kind, state.poly, state.bundled) : '';
    if (hint) m.append(el('p', 'hint-takers', hint));
    const errs = (e.diagnostics || []).filter((d) => d.severity === 'error');
    if (errs.length) {
      const items = errs.slice(0, 5).map((d) => {
        const a = el('a', '', `line ${d.line ?? '?'}: ${d.code} ${d.message}`);
        a.href = '#';
        a.addEventListener('click', (ev) => { ev.preventDefault(); gotoLine(d.line); });
        return el('li', '', a);
      });
      if (errs.length > 5) items.push(el('li', '', `and ${errs.length - 5} more in the Source tab`));
      m.append(el('ul', '', ...items));
    }
  }

  function renderCounts() {
    const t = totals(state.result);
    const c = $('counts');
    for (const [, list] of LISTS) c.dataset[list] = String(t[list]);
    c.dataset.placements = String(t.placements);
    if (!state.result) { c.textContent = ''; return; }
    const head = state.mode === 'tile' ? `${t.placements} placements · ` : '';
    const whole = state.mode === 'tile' ? ` · ${t.draped} draped · ${t.lines} lines` : ` · ${t.corners} corners`;
    c.textContent = `${head}${t.tiles} tiles · ${t.objects} objects · ${t.facades} facades · ${t.trees} trees${whole}${t.warnings ? ` · ${t.warnings} warnings` : ''}`;
  }

  // The Tile tab: what the DSF holds per kind and what became of it, as
  // `agkit place --dsf TILE --all` prints it, what is not drawn and why,
  // and what resolves nowhere.
  function renderTile() {
    const box = $('tile-info');
    const r = state.mode === 'tile' ? state.result : null;
    $('tile-tab').hidden = state.mode !== 'tile';
    if (!r || !r.whole) {
      box.replaceChildren(el('p', 'dim', state.mode === 'tile' ? 'No tile placed.' : 'Pick a .dsf in the list to open a whole tile.'));
      return;
    }
    const w = r.whole;
    const kinds = Object.keys(w.counts).sort();
    const sum = (k) => kinds.reduce((a, kind) => a + w.counts[kind][k], 0);
    const row = (kind, c, cls) => {
      const tr = el('tr', cls || '', el('td', '', kind), el('td', 'n', String(c.in_dsf)), el('td', 'n', String(c.placed)), el('td', 'n', String(c.not_drawn)));
      tr.dataset.kind = kind;
      tr.dataset.inDsf = String(c.in_dsf);
      tr.dataset.placed = String(c.placed);
      tr.dataset.notDrawn = String(c.not_drawn);
      return tr;
    };
    const table = el('table', 'counts',
      el('tr', '', el('th', '', 'kind'), el('th', 'n', 'in the DSF'), el('th', 'n', 'placed'), el('th', 'n', 'not drawn')),
      ...kinds.map((k) => row(k, w.counts[k])),
      row('all', { in_dsf: sum('in_dsf'), placed: sum('placed'), not_drawn: sum('not_drawn') }, 'total'));
    table.id = 'tile-counts';
    const parts = [
      el('p', '', `${r.path} — tile ${r.tile.south >= 0 ? '+' : ''}${r.tile.south}${r.tile.west >= 0 ? '+' : ''}${r.tile.west}, package ${r.package}, ${r.uses} autogen use(s)`),
      table,
    ];
    if (w.not_drawn.length) {
      parts.push(el('h3', '', 'Not drawn'));
      parts.push(el('ul', 'notdrawn', ...w.not_drawn.map((n) => el('li', '', `${n.items} × ${n.definition || n.kind}: ${n.why}`))));
    }
    const unplaced = r.unplaced || [];
    if (unplaced.length) {
      parts.push(el('h3', '', `Not placed (${unplaced.length} use(s), drawn in red where the DSF puts them)`));
      parts.push(el('ul', 'notdrawn', ...unplaced.slice(0, MAX_LISTED).map((u) => el('li', '', `${u.placement.asset}: ${u.placement.unplaced}`))));
    }
    const unresolved = { ...(r.unresolved || {}), ...(w.unresolved || {}) };
    const names = Object.keys(unresolved);
    if (names.length) {
      parts.push(el('h3', '', 'Resolve nowhere (placed without art)'));
      parts.push(el('ul', 'notdrawn', ...names.map((n) => el('li', '', `${n} (${unresolved[n].uses}): ${unresolved[n].why}`))));
    }
    const ws = partsOf(r).flatMap((p) => p.placement.warnings || []);
    if (ws.length) {
      const d = el('details', 'warnings', el('summary', '', `${ws.length} warning(s) while placing`),
        el('ul', 'notdrawn', ...ws.slice(0, MAX_LISTED).map((w) => el('li', '', w))));
      if (ws.length > MAX_LISTED) d.append(el('p', 'dim', `and ${ws.length - MAX_LISTED} more`));
      parts.push(d);
    }
    for (const a of r.assets || []) {
      const n = (a.diagnostics || []).length;
      if (n) parts.push(el('p', 'dim', `${a.path}: ${n} diagnostic(s) from agkit check`));
    }
    if (state.conflicts) {
      const c = conflictSummary(state.conflicts, state.conflictsStatus);
      const head = el('h3', '', 'Conflicts');
      const p = el('p', state.conflicts.error ? 'dim' : '', c.head);
      p.id = 'tile-conflicts';
      parts.push(head, p);
      if (c.lines.length) parts.push(el('ul', 'notdrawn', ...c.lines.slice(0, MAX_LISTED).map((l) => el('li', '', l))));
    }
    box.replaceChildren(...parts);
  }

  store.subscribe(['files', 'asset', 'mode'], renderAssetList);
  store.subscribe(['files', 'tile', 'mode'], renderTileList);
  store.subscribe(['files', 'bundled'], renderPolygonSelect);
  store.subscribe(['kind', 'asset', 'mode', 'tile'], renderKindControls);
  store.subscribe(['polyNote'], renderPolyNote);
  store.subscribe(['lines', 'diagnostics'], renderSource);
  store.subscribe(['hlLine'], () => focusLine(state.hlLine, false));
  store.subscribe(['conflicts'], renderTile);
  store.subscribe(['result', 'error'], () => {
    renderMessage();
    renderExplain();
    renderCounts();
    markUsedLines();
    renderItems();
    renderInfo();
    renderTile();
  });

  return { showMessage, showTab, gotoLine };
}
