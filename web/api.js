// The calls to `agkit serve`'s /api/* (docs/serve.md, "API"). Each JSON
// call resolves with {status, ok, body, bytes (characters of its text)}; a lost server rejects with an
// error that says so (`network: true`).

async function json(path, opts) {
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw Object.assign(new Error('Lost contact with agkit serve — is it still running?'), { network: true });
  }
  let body = null;
  let bytes = 0;
  try {
    const text = await res.text();
    bytes = text.length;
    body = JSON.parse(text);
  } catch (e) { body = { error: `HTTP ${res.status}: the answer is not JSON` }; }
  return { status: res.status, ok: res.ok, body, bytes };
}

const post = (body) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** GET /api/files: the assets, polygon files and DSF tiles under the served folder. */
export const files = () => json('/api/files');
/** GET /api/polygons: the bundled test polygons. */
export const polygons = () => json('/api/polygons');
/** GET /api/polygon: a GeoJSON polygon file in local metres. */
export const polygon = (path) => json('/api/polygon?path=' + encodeURIComponent(path));
/** GET /api/asset: an asset's text and its `agkit check` diagnostics. */
export const asset = (path) => json('/api/asset?path=' + encodeURIComponent(path));
/** POST /api/place: the placement for the request `body`. */
export const place = (body) => json('/api/place', post(body));
/**
 * GET /api/tile: everything the DSF tile `q.path` places, per definition,
 * with its counts; `q` also holds seed and density.
 */
export const tile = (q) => json('/api/tile?' + new URLSearchParams(q).toString());
/**
 * GET /api/conflicts: what the installation (`--xplane DIR`) places on the
 * airports of the tile `q.path`, each finding also in the frame `q.origin`
 * ("LON,LAT"); 409 without an installation.
 */
export const conflicts = (q) => json('/api/conflicts?' + new URLSearchParams(q).toString());
/** GET /api/version: the change counter. */
export const version = () => json('/api/version');
/** The URL of a texture under the served folder, as PNG. */
export const textureUrl = (path) => `/api/texture?path=${encodeURIComponent(path)}`;

/**
 * POST /api/place.glb: the placement's 3-D scene. Resolves with
 * {ok, buffer, name} or {ok: false, error}.
 */
export async function placeGlb(body) {
  const res = await fetch('/api/place.glb', post(body));
  if (!res.ok) {
    const b = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    return { ok: false, error: b.error || `HTTP ${res.status}` };
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '')?.[1] || 'placement.glb';
  return { ok: true, buffer: await res.arrayBuffer(), name };
}

/**
 * GET /api/tile.glb: the tile's 3-D scene, as placeGlb answers.
 */
export async function tileGlb(q) {
  const res = await fetch('/api/tile.glb?' + new URLSearchParams(q).toString());
  if (!res.ok) {
    const b = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    return { ok: false, error: b.error || `HTTP ${res.status}` };
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '')?.[1] || 'tile.glb';
  return { ok: true, buffer: await res.arrayBuffer(), name };
}

/**
 * Follows the served folder's changes: `onVersion({version, changed})` for
 * each; `onLive(bool)` when the connection opens or drops. Server-Sent
 * Events on /api/events, or polling /api/version each second without them.
 */
export function watch(onVersion, onLive) {
  if (!globalThis.EventSource) {
    setInterval(async () => {
      try {
        const r = await version();
        if (r.ok) onVersion({ version: r.body.version, changed: [] });
      } catch (e) { /* server away; keep trying */ }
    }, 1000);
    return;
  }
  const es = new EventSource('/api/events');
  es.addEventListener('open', () => onLive(true));
  es.addEventListener('version', (ev) => { try { onVersion(JSON.parse(ev.data)); } catch (e) { /* ignore */ } });
  es.addEventListener('error', () => onLive(false));
}
