// Which polygon an asset is placed on when it is picked.
//
// No DOM here: `node --test web/test/` runs this module as it is.
//
// The rule is the library's, not the page's: /api/polygons gives each
// bundled polygon the asset kinds its engines take on it (`takes`, from the
// engines' own checks of the polygon) and what each kind needs of a polygon
// (`needs`); /api/polygon gives a file polygon's `takes`. This module only
// chooses among them and words the choice.

/** The name of an asset kind in a sentence: "an AGB". */
function a(kind) {
  return `an ${String(kind).toUpperCase()}`;
}

/**
 * The polygon to place an asset of `kind` on, when the polygon shown
 * (`current`: {label, takes}) cannot take it: {key, label} of the first of
 * the `bundled` polygons ({name, label, takes}) that can; {key: null} when
 * none can. Null when there is nothing to change: the current polygon takes
 * the kind, or what it takes is not known.
 */
export function polygonFor(kind, current, bundled) {
  if (!kind || !current || !Array.isArray(current.takes) || current.takes.includes(kind)) return null;
  const fit = (bundled || []).find((p) => Array.isArray(p.takes) && p.takes.includes(kind));
  return fit ? { key: `bundled:${fit.name}`, label: fit.label } : { key: null, label: null };
}

/** The labels of the `bundled` polygons that take an asset of `kind`. */
export function polygonsTaking(kind, bundled) {
  return (bundled || []).filter((p) => Array.isArray(p.takes) && p.takes.includes(kind)).map((p) => p.label);
}

/**
 * What the page says of `pick` (from polygonFor) for an asset of `kind`
 * picked on the polygon labelled `from`; `needs` maps each kind to what it
 * needs of a polygon (/api/polygons).
 */
export function pickNote(kind, pick, from, needs) {
  const what = a(kind);
  const which = needs && needs[kind] ? `${what}, which needs ${needs[kind]}` : what;
  if (pick.key) return `“${from}” cannot take ${which}: switched to “${pick.label}”.`;
  return `No test polygon can take ${which}; pick a GeoJSON polygon file that does.`;
}

/**
 * A hint for the engine's error when the polygon shown cannot take the
 * asset: the bundled polygons that can ("" when none, or when it can).
 */
export function takersHint(kind, current, bundled) {
  if (!kind || !current || !Array.isArray(current.takes) || current.takes.includes(kind)) return '';
  const labels = polygonsTaking(kind, bundled);
  return labels.length ? `Test polygons that take ${a(kind)}: ${labels.join(', ')}.` : '';
}
