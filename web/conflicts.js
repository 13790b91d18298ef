// The conflicts of the open tile (GET /api/conflicts, asked with the
// tile view's `origin`): what the installation places on the airports of
// the tile, as marks for the 2-D view and lines for the Tile tab.
//
// No DOM here: `node --test web/test/` runs this module as it is.

/** At most this many findings are marked and listed. */
export const MAX_MARKS = 2000;

const num = (v) => (Number.isFinite(v) ? v : null);

/**
 * One line for a finding: code, severity, what stands where, and the fix,
 * as `agkit scenery conflicts` says it.
 */
export function conflictLine(f) {
  const what = f.placed_by ? `${f.definition} (placed by ${f.placed_by})` : f.definition;
  const depth = num(f.depth_m);
  const into = depth === null ? '' : `, ${depth.toFixed(1)} m in`;
  const feature = [f.feature, f.feature_name].filter(Boolean).join(' ');
  const advice = f.advice ? ` — ${f.advice}` : '';
  return `${f.code} ${f.severity}: ${f.package}'s ${f.kind} ${what} on ${f.airport}'s ${feature}${into}${advice}`;
}

/**
 * The marks of an answer `c`: one per finding whose place in the view's
 * frame (`at_local`) is known, `{x, y, severity, code, title}`, errors
 * first, at most MAX_MARKS. Anything else in `c` (an error, no findings,
 * a damaged answer) gives none.
 */
export function conflictMarks(c) {
  if (!c || !Array.isArray(c.findings) || !Array.isArray(c.at_local)) return [];
  const marks = [];
  c.findings.forEach((f, i) => {
    const p = c.at_local[i];
    if (!f || !Array.isArray(p) || num(p[0]) === null || num(p[1]) === null) return;
    marks.push({ x: p[0], y: p[1], severity: f.severity === 'error' ? 'error' : 'warning', code: String(f.code), title: conflictLine(f) });
  });
  marks.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return marks.slice(0, MAX_MARKS);
}

/**
 * What the Tile tab says of an answer: `{head, lines}`. `status` 409 (a
 * server without an installation) says how to get one; other failures say
 * what the server said.
 */
export function conflictSummary(c, status) {
  if (!c) return { head: 'Conflicts: not asked yet.', lines: [] };
  if (c.error) {
    const head = status === 409
      ? 'Conflicts: start agkit serve with --xplane DIR to find what the installation places on this tile\'s airports.'
      : `Conflicts: ${c.error}`;
    return { head, lines: [] };
  }
  const findings = Array.isArray(c.findings) ? c.findings : [];
  const airports = Array.isArray(c.airports) ? c.airports.length : 0;
  const errors = findings.filter((f) => f && f.severity === 'error').length;
  const other = [
    ['missing_exclusions', 'airport package(s) without exclusions'],
    ['doubles', 'double(s)'],
    ['order', 'pack-order problem(s)'],
    ['excluded', 'item(s) already excluded'],
  ].flatMap(([k, what]) => (Array.isArray(c[k]) && c[k].length ? [`${c[k].length} ${what}`] : []));
  const head = `Conflicts on ${airports} airport(s): ${findings.length} finding(s), ${errors} error(s)`
    + (other.length ? `; ${other.join(', ')}` : '')
    + (c.fix_above ? `; the fix goes above ${c.fix_above} in scenery_packs.ini` : '');
  return { head, lines: findings.slice(0, MAX_MARKS).map(conflictLine) };
}
