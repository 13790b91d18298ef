//! The JSON API (documented in `docs/serve.md`).
//!
//! | endpoint | answer |
//! |---|---|
//! | `GET /api/files` | assets, polygon files and DSF tiles under PATH, the version, and a `note` when the listing is cut short |
//! | `GET /api/polygons` | the bundled test polygons, each with the asset kinds it takes, and what each kind needs |
//! | `GET /api/polygon?path=F` | a GeoJSON polygon file in local metres, with the asset kinds it takes |
//! | `GET /api/asset?path=F` | source text and `agkit check` diagnostics |
//! | `GET/POST /api/place` | the placement of an asset on a polygon or point |
//! | `GET /api/tile?path=F` | everything the DSF tile F places, per definition, with its counts |
//! | `GET /api/tile.glb?path=F` | the same tile as a 3-D scene (GLB) |
//! | `GET /api/conflicts?path=F` | with `--xplane DIR`: what the installation places on the airports of F's tile |
//! | `GET /api/version` | the change counter |
//! | `GET /api/events` | Server-Sent Events, one per change |

use super::Shared;
use super::files::{FileType, Refusal};
use super::http::{Request, Response};
use super::polygons::{self, ORIGIN};
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::{self, FrameConvention, Params, Placement, Role, TileId, Use};
use crate::xp::model::{Asset, Px};
use serde::Deserialize;
use serde_json::{Value, json};

/// Most polygon vertices accepted in one placement request.
pub const MAX_VERTICES: usize = 100_000;
/// Largest local coordinate accepted, metres.
pub const MAX_LOCAL: f64 = 50_000.0;

/// Answers one (already Host-checked) request.
pub fn route(shared: &Shared, req: &Request) -> Response {
    let get = matches!(req.method.as_str(), "GET" | "HEAD");
    match (req.path.as_str(), get, req.method.as_str()) {
        (p, true, _) if super::web::asset(p).is_some() => super::web::response(p),
        ("/api/files", true, _) => files(shared),
        ("/api/polygons", true, _) => Response::json(
            200,
            &json!({
                "origin": ORIGIN,
                "polygons": polygons::bundled(),
                "needs": polygons::NEEDS.iter().copied().collect::<std::collections::BTreeMap<_, _>>(),
            }),
        ),
        ("/api/polygon", true, _) => polygon_file(shared, req),
        ("/api/asset", true, _) => asset(shared, req),
        ("/api/texture", true, _) => texture(shared, req),
        ("/api/place" | "/api/place.glb", true, _) => match PlaceRequest::from_query(req) {
            Ok(p) => place_response(shared, &p, req.path.ends_with(".glb")),
            Err(e) => Response::error(400, &e),
        },
        ("/api/place" | "/api/place.glb", false, "POST") => {
            match serde_json::from_slice::<PlaceRequest>(&req.body) {
                Ok(p) => place_response(shared, &p, req.path.ends_with(".glb")),
                Err(e) => Response::error(400, &format!("bad JSON: {e}")),
            }
        }
        ("/api/tile" | "/api/tile.glb", true, _) => match super::tile::TileRequest::from_query(req)
        {
            Ok(t) => super::tile::tile_response(shared, &t, req.path.ends_with(".glb")),
            Err(r) => r,
        },
        ("/api/conflicts", true, _) => super::conflicts::conflicts_response(shared, req),
        ("/api/version", true, _) => {
            let (version, _) = shared.current();
            Response::json(200, &json!({ "version": version }))
        }
        (p, _, _) if super::web::asset(p).is_some() => {
            let mut r = Response::error(405, "method not allowed");
            r.headers.push(("Allow", "GET, HEAD".into()));
            r
        }
        ("/api/tile" | "/api/tile.glb" | "/api/conflicts", _, _) => {
            let mut r = Response::error(405, "method not allowed");
            r.headers.push(("Allow", "GET, HEAD".into()));
            r
        }
        (
            "/api/files" | "/api/polygons" | "/api/polygon" | "/api/asset" | "/api/version"
            | "/api/place" | "/api/place.glb" | "/api/texture",
            _,
            _,
        ) => {
            let mut r = Response::error(405, "method not allowed");
            r.headers.push(("Allow", "GET, HEAD, POST".into()));
            r
        }
        _ => Response::error(404, "no such page or endpoint"),
    }
}

/// `GET /api/texture?path=REL`: a PNG or DDS texture under PATH, decoded
/// (within the server's limits) and sent as PNG, for the previewer's
/// textured view.
fn texture(shared: &Shared, req: &Request) -> Response {
    let rel = match required(req, "path") {
        Ok(r) => r,
        Err(r) => return r,
    };
    let file = match shared.root.resolve_texture(rel) {
        Ok(f) => f,
        Err(r) => return refusal(r),
    };
    let bytes = match crate::fsutil::read_file(&file, "a texture", shared.limits.max_input_bytes) {
        Ok(b) => b,
        Err(e) => return Response::error(404, &e.to_string()),
    };
    let img = match crate::texture::decode(&bytes, &shared.limits) {
        Ok(i) => i,
        Err(e) => return Response::error(422, &format!("{rel}: {e}")),
    };
    match crate::out::png::encode_rgba(img.width, img.height, &img.rgba) {
        Some(png) => Response::new(200, "image/png", png),
        None => Response::error(500, "cannot encode the texture"),
    }
}

/// The texture the placement's tiles draw with, for the previewer: its
/// path under PATH (for `/api/texture`) and its `TEXTURE_SCALE`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(super) struct TextureRef {
    path: String,
    scale: [f64; 2],
}

pub(super) fn texture_ref(shared: &Shared, placement: &Placement) -> Option<TextureRef> {
    let t = placement.art.as_ref()?.texture.as_ref()?;
    let file = t.file.as_ref()?.canonicalize().ok()?;
    let rel = file.strip_prefix(shared.root.dir()).ok()?;
    let path = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<Vec<_>>>()?
        .join("/");
    Some(TextureRef {
        path,
        scale: t.get()?.scale,
    })
}

/// A refused path as its response: 403 outside PATH, 404 not there.
pub(super) fn refusal(r: Refusal) -> Response {
    match r {
        Refusal::Forbidden(m) => Response::error(403, &m),
        Refusal::NotFound(m) => Response::error(404, &m),
    }
}

fn files(shared: &Shared) -> Response {
    let (version, entries) = shared.current();
    let assets: Vec<Value> = entries
        .iter()
        .filter(|e| e.kind == FileType::Asset)
        .map(|e| {
            let kind = e
                .rel
                .rsplit('.')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            json!({ "path": e.rel, "kind": kind, "size": e.len })
        })
        .collect();
    let polys: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == FileType::Polygon)
        .map(|e| e.rel.as_str())
        .collect();
    let tiles: Vec<Value> = entries
        .iter()
        .filter(|e| e.kind == FileType::Dsf)
        .map(|e| json!({ "path": e.rel, "size": e.len }))
        .collect();
    let mut body = json!({
        "root": shared.root_label,
        "version": version,
        "assets": assets,
        "polygon_files": polys,
        "dsf_files": tiles,
        // Whether `/api/conflicts` can answer (`--xplane DIR`).
        "installation": matches!(shared.libraries, super::LibrarySource::Installation(_)),
    });
    if let Some(note) = shared.note() {
        body["note"] = Value::from(note);
    }
    Response::json(200, &body)
}

fn required<'a>(req: &'a Request, name: &str) -> Result<&'a str, Response> {
    req.param(name)
        .ok_or_else(|| Response::error(400, &format!("missing query parameter `{name}`")))
}

fn polygon_file(shared: &Shared, req: &Request) -> Response {
    let rel = match required(req, "path") {
        Ok(r) => r,
        Err(r) => return r,
    };
    match load_polygon_file(shared, rel) {
        Ok(w) => {
            let (origin, local) = polygons::localize(&w);
            let takes = polygons::takes(&local);
            Response::json(
                200,
                &json!({ "path": rel, "origin": origin, "windings": local, "takes": takes }),
            )
        }
        Err(r) => r,
    }
}

fn load_polygon_file(shared: &Shared, rel: &str) -> Result<Vec<Vec<LonLat>>, Response> {
    if super::files::file_type(std::path::Path::new(rel)) != Some(FileType::Polygon) {
        return Err(Response::error(404, &format!("{rel}: not a .geojson file")));
    }
    let text = shared.root.read(rel).map_err(refusal)?;
    polygons::from_geojson(&text).map_err(|e| Response::error(422, &format!("{rel}: {e}")))
}

/// An asset's text and its diagnostics, computed by the very function
/// `agkit check` uses ([`crate::check::check_bytes`]) on the file's bytes.
struct Checked {
    source: String,
    diagnostics: Value,
    errors: usize,
    warnings: usize,
}

fn read_asset(shared: &Shared, rel: &str) -> Result<Checked, Response> {
    if super::files::file_type(std::path::Path::new(rel)) != Some(FileType::Asset) {
        return Err(Response::error(
            404,
            &format!("{rel}: not an .agp/.agb/.ags file"),
        ));
    }
    let bytes = shared.root.read_bytes(rel).map_err(refusal)?;
    let (source, mut diags) = crate::check::check_bytes(std::path::Path::new(rel), &bytes);
    // As `agkit check` adds them: the art the asset names, found beside it
    // (inside the served folder only), the paths tried shown from there.
    if let (Some(text), Ok(file)) = (&source, shared.root.resolve(rel))
        && !diags.iter().any(|d| d.is_error())
    {
        let store = crate::scenery::art::ArtStore::new(shared.limits).within(shared.root.dir());
        diags.extend(crate::scenery::art::file_diagnostics(
            &store,
            &file,
            text,
            None,
            Some(shared.root.dir()),
        ));
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let diagnostics = serde_json::to_value(crate::diag::to_json(rel, source.as_deref(), &diags))
        .unwrap_or(Value::Null);
    Ok(Checked {
        source: source.unwrap_or_default(),
        diagnostics,
        errors,
        warnings: diags.len() - errors,
    })
}

fn asset(shared: &Shared, req: &Request) -> Response {
    let rel = match required(req, "path") {
        Ok(r) => r,
        Err(r) => return r,
    };
    let checked = match read_asset(shared, rel) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let (version, _) = shared.current();
    Response::json(
        200,
        &json!({
            "path": rel,
            "source": checked.source,
            "diagnostics": checked.diagnostics,
            "errors": checked.errors,
            "warnings": checked.warnings,
            "version": version,
        }),
    )
}

/// Where to place: a polygon given one of four ways.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct PolygonSpec {
    /// A bundled polygon by name.
    #[serde(default)]
    pub name: Option<String>,
    /// A GeoJSON file under PATH.
    #[serde(default)]
    pub file: Option<String>,
    /// Origin (lon, lat) of `local`; default the bundled origin.
    #[serde(default)]
    pub origin: Option<LonLat>,
    /// Windings in local metres around `origin`.
    #[serde(default)]
    pub local: Option<Vec<Vec<Xy>>>,
    /// Windings in lon/lat.
    #[serde(default)]
    pub lonlat: Option<Vec<Vec<LonLat>>>,
}

/// A placement request (`POST /api/place` body, or the query of `GET`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PlaceRequest {
    /// Asset path relative to PATH.
    pub asset: String,
    /// Polygon for an AGB/AGS.
    #[serde(default)]
    pub polygon: Option<PolygonSpec>,
    /// DSF point (lon, lat) of an AGP; default the bundled origin.
    #[serde(default)]
    pub at: Option<LonLat>,
    /// AGP heading, degrees clockwise from north.
    #[serde(default)]
    pub heading: f64,
    /// Seed.
    #[serde(default)]
    pub seed: u64,
    /// Height in metres (DSF parameter high byte × 4).
    #[serde(default)]
    pub height: f64,
    /// DSF parameter low byte (AGB spelling set, AGS spawning contours).
    #[serde(default)]
    pub low: u8,
    /// Object density 1..6.
    #[serde(default = "six")]
    pub density: u8,
    /// AGP orientation convention: `"wed"` (the default) or `"spec"`.
    #[serde(default)]
    pub frame: FrameConvention,
    /// Record the engine's reasoning.
    #[serde(default)]
    pub explain: bool,
}

fn six() -> u8 {
    6
}

impl PlaceRequest {
    /// Reads a request from query parameters: `asset`, `polygon` (a bundled
    /// name or a `.geojson` path), `lon`, `lat`, `heading`, `seed`, `height`,
    /// `low`, `density`, `frame` (`wed` or `spec`), `explain`.
    pub fn from_query(req: &Request) -> Result<PlaceRequest, String> {
        fn num<T: std::str::FromStr>(req: &Request, k: &str, d: T) -> Result<T, String> {
            match req.param(k) {
                None | Some("") => Ok(d),
                Some(v) => v
                    .parse()
                    .map_err(|_| format!("query parameter `{k}`: bad value {v:?}")),
            }
        }
        let asset = req
            .param("asset")
            .ok_or("missing query parameter `asset`")?
            .to_string();
        let polygon = req.param("polygon").map(|p| {
            if p.to_ascii_lowercase().ends_with("json") {
                PolygonSpec {
                    file: Some(p.to_string()),
                    ..PolygonSpec::default()
                }
            } else {
                PolygonSpec {
                    name: Some(p.to_string()),
                    ..PolygonSpec::default()
                }
            }
        });
        let at = match (req.param("lon"), req.param("lat")) {
            (None, None) => None,
            _ => Some([num(req, "lon", ORIGIN[0])?, num(req, "lat", ORIGIN[1])?]),
        };
        Ok(PlaceRequest {
            asset,
            polygon,
            at,
            heading: num(req, "heading", 0.0)?,
            seed: num(req, "seed", 0)?,
            height: num(req, "height", 0.0)?,
            low: num(req, "low", 0)?,
            density: num(req, "density", 6)?,
            frame: match req.param("frame") {
                None | Some("" | "wed") => FrameConvention::Wed,
                Some("spec") => FrameConvention::Spec,
                Some(v) => {
                    return Err(format!(
                        "query parameter `frame`: bad value {v:?} (wed or spec)"
                    ));
                }
            },
            explain: matches!(req.param("explain"), Some("1" | "true" | "yes")),
        })
    }

    fn params(&self) -> Result<Params, String> {
        if !self.height.is_finite() || !(0.0..=1020.0).contains(&self.height) {
            return Err("height must be 0..1020 m (the DSF high byte × 4)".into());
        }
        if !(1..=6).contains(&self.density) {
            return Err("density must be 1..6".into());
        }
        if !self.heading.is_finite() {
            return Err("heading must be a number".into());
        }
        Ok(Params {
            seed: self.seed,
            height: self.height,
            low: self.low,
            density: self.density,
            frame: self.frame,
            explain: self.explain,
            ..Params::default()
        })
    }
}

/// A resolved polygon: the frame the client thinks in and the lon/lat windings.
struct Resolved {
    frame_origin: LonLat,
    local: Vec<Vec<Xy>>,
    lonlat: Vec<Vec<LonLat>>,
}

fn resolve_polygon(shared: &Shared, spec: &PolygonSpec) -> Result<Resolved, Response> {
    let bad = |m: &str| Err(Response::error(400, m));
    let given = [
        spec.name.is_some(),
        spec.file.is_some(),
        spec.local.is_some(),
        spec.lonlat.is_some(),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    if given != 1 {
        return bad("give the polygon as exactly one of name, file, local or lonlat");
    }
    let (frame_origin, local) = if let Some(name) = &spec.name {
        let p = polygons::by_name(name)
            .ok_or_else(|| Response::error(400, &format!("no bundled polygon called {name:?}")))?;
        (p.origin, p.windings)
    } else if let Some(file) = &spec.file {
        polygons::localize(&load_polygon_file(shared, file)?)
    } else if let Some(local) = &spec.local {
        (spec.origin.unwrap_or(ORIGIN), local.clone())
    } else {
        let ll = spec.lonlat.clone().unwrap_or_default();
        for w in &ll {
            for p in w {
                if !(p[0].is_finite()
                    && p[1].is_finite()
                    && (-180.0..=180.0).contains(&p[0])
                    && (-90.0..=90.0).contains(&p[1]))
                {
                    return bad("lonlat positions must be [lon, lat] in degrees");
                }
            }
        }
        polygons::localize(&ll)
    };
    if !(frame_origin[0].is_finite()
        && frame_origin[1].is_finite()
        && (-180.0..=180.0).contains(&frame_origin[0])
        && (-85.0..=85.0).contains(&frame_origin[1]))
    {
        return bad("origin must be [lon, lat] in degrees (|lat| ≤ 85)");
    }
    let count: usize = local.iter().map(Vec::len).sum();
    if count > MAX_VERTICES {
        return bad(&format!("more than {MAX_VERTICES} vertices"));
    }
    if local.is_empty() || local.iter().any(|w| w.len() < 3) {
        return bad("every winding needs at least 3 vertices");
    }
    if local
        .iter()
        .flatten()
        .any(|p| !(p[0].is_finite() && p[1].is_finite()) || p[0].abs().max(p[1].abs()) > MAX_LOCAL)
    {
        return bad(&format!(
            "local coordinates must be finite and within {MAX_LOCAL} m"
        ));
    }
    extent_within(&local, shared.limits.max_extent_m)?;
    let frame = LocalFrame::new(frame_origin);
    let lonlat = local
        .iter()
        .map(|w| w.iter().map(|&p| frame.to_lonlat(p)).collect())
        .collect();
    Ok(Resolved {
        frame_origin,
        local,
        lonlat,
    })
}

/// Refuses a polygon wider or taller than `max` metres (a bounding box in
/// local metres; non-finite coordinates are refused by the caller).
fn extent_within(local: &[Vec<Xy>], max: f64) -> Result<(), Response> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in local.iter().flatten() {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let span = (hi[0] - lo[0]).max(hi[1] - lo[1]);
    if span > max {
        return Err(Response::error(
            400,
            &format!(
                "the polygon spans {span:.0} m; the previewer places at most {max:.0} m across"
            ),
        ));
    }
    Ok(())
}

/// The placement a request asks for, as `/api/place` answers it (JSON),
/// or as a 3-D scene (`/api/place.glb`: a GLB download, [`glb_response`]).
fn place_response(shared: &Shared, req: &PlaceRequest, glb: bool) -> Response {
    let params = match req.params() {
        Ok(p) => p,
        Err(e) => return Response::error(400, &e),
    };
    let Checked {
        source,
        diagnostics,
        errors,
        ..
    } = match read_asset(shared, &req.asset) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let (version, _) = shared.current();
    let is_agp = req.asset.to_ascii_lowercase().ends_with(".agp");
    let (use_, frame_origin, offset, polygon) = if is_agp {
        let at = req.at.unwrap_or(ORIGIN);
        if !(at[0].is_finite() && at[1].is_finite() && at[1].abs() <= 85.0 && at[0].abs() <= 180.0)
        {
            return Response::error(400, "at must be [lon, lat] in degrees");
        }
        let use_ = Use::Point {
            at,
            heading: req.heading,
        };
        let frame_origin = if req.at.is_some() { at } else { ORIGIN };
        let offset = LocalFrame::new(frame_origin).to_local(at);
        (use_, frame_origin, offset, Vec::new())
    } else {
        let spec = req.polygon.clone().unwrap_or_else(|| PolygonSpec {
            name: Some("square".into()),
            ..PolygonSpec::default()
        });
        let r = match resolve_polygon(shared, &spec) {
            Ok(r) => r,
            Err(resp) => return resp,
        };
        let offset = r.local[0][0];
        (
            Use::Polygon { windings: r.lonlat },
            r.frame_origin,
            offset,
            r.local,
        )
    };
    let fail = |stage: &str, msg: String| {
        Response::json(
            422,
            &json!({
                "error": msg,
                "stage": stage,
                "diagnostics": diagnostics,
                "frame_origin": frame_origin,
                "offset": offset,
                "polygon": polygon,
                "version": version,
            }),
        )
    };
    // Defence in depth: whatever `agkit check` calls an error (values no
    // real scenery has included) never reaches an engine.
    if errors > 0 {
        return fail(
            "check",
            format!(
                "{}: agkit check reports {errors} error(s); see the diagnostics",
                req.asset
            ),
        );
    }
    let asset = match crate::xp::parse(&source) {
        Ok(a) => a,
        Err(diags) => {
            let n = diags.iter().filter(|d| d.is_error()).count();
            let msg = if diags.is_empty() {
                format!("{}: the asset could not be parsed", req.asset)
            } else {
                format!(
                    "{}: the asset has {n} error(s); see the diagnostics",
                    req.asset
                )
            };
            return fail("parse", msg);
        }
    };
    let started = std::time::Instant::now();
    // The art the asset names, read for this request only (the files may
    // change between requests) and only inside the served folder.
    let art = shared.root.resolve(&req.asset).ok().map(|file| {
        crate::scenery::art::ArtStore::new(shared.limits)
            .within(shared.root.dir())
            .art_for(&file, &asset, None)
    });
    let params = Params {
        limits: shared.limits,
        art,
        ..params
    };
    let placement = match place::place(&asset, &req.asset, &use_, &params) {
        Ok(p) => p,
        Err(e) => return fail("place", e.to_string()),
    };
    if glb {
        return glb_response(shared, &placement, &req.asset)
            .unwrap_or_else(|e| fail("gltf", e.to_string()));
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let pivots = pivots(&asset, &placement);
    let texture = texture_ref(shared, &placement);
    Response::json_of(
        200,
        &Placed {
            texture,
            diagnostics: &diagnostics,
            elapsed_ms,
            frame_origin,
            offset,
            pivots: &pivots,
            placement: &placement,
            polygon: &polygon,
            version,
        },
    )
}

/// A placement as a GLB download named after its asset, within the
/// server's limits.
fn glb_response(
    shared: &Shared,
    placement: &Placement,
    asset: &str,
) -> Result<Response, crate::out::OutError> {
    // The placement's art (textures included) was resolved by a store
    // confined to PATH: the scene reads nothing outside it.
    let opts = crate::out::RenderOptions {
        limits: shared.limits,
        ..crate::out::RenderOptions::new(crate::out::Format::Glb)
    };
    let scene = crate::out::render(std::slice::from_ref(placement), &opts)?;
    Ok(glb_download(asset, scene.bytes))
}

/// A GLB answer saved as a download named after `file`'s stem (letters,
/// digits, `-` and `+` kept, anything else `_`, so the header stays
/// plain ASCII).
pub(super) fn glb_download(file: &str, bytes: Vec<u8>) -> Response {
    let stem: String = std::path::Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '+' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut r = Response::new(200, "model/gltf-binary", bytes);
    r.headers.push((
        "Content-Disposition",
        format!("attachment; filename=\"{stem}.glb\""),
    ));
    r
}

/// The answer of `/api/place`, serialized straight to its text: a
/// placement as a `serde_json::Value` would take several times the memory
/// of the placement and of its text together.
#[derive(serde::Serialize)]
struct Placed<'a> {
    diagnostics: &'a Value,
    elapsed_ms: f64,
    frame_origin: LonLat,
    offset: Xy,
    pivots: &'a [Pivot],
    placement: &'a Placement,
    polygon: &'a [Vec<Xy>],
    version: u64,
    /// The tiles' texture, when found (the textured view draws with it).
    #[serde(skip_serializing_if = "Option::is_none")]
    texture: Option<TextureRef>,
}

/// A pivot point of a placed AGS tile, in the placement's local metres.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Pivot {
    /// Index into the placement's tiles.
    pub tile: usize,
    /// `lead` or `trail`.
    pub kind: &'static str,
    /// Metres east.
    pub x: f64,
    /// Metres north.
    pub y: f64,
    /// Line of the PIVOT_*_PT directive.
    pub source_line: usize,
}

/// Maps the PIVOT_LEAD_PT / PIVOT_TRAIL_PT of each placed AGS tile to
/// metres, using the affine map from the tile's texture coordinates to its
/// outline.
pub fn pivots(asset: &Asset, placement: &Placement) -> Vec<Pivot> {
    let mut out = Vec::new();
    for (i, t) in placement.tiles.iter().enumerate() {
        if !matches!(t.role, Role::Edge | Role::Corner | Role::Cap) {
            continue;
        }
        let TileId::Num(id) = t.id else { continue };
        let Some(tile) = asset.tile(id) else { continue };
        let Some(map) = affine(&t.uv, &t.polygon) else {
            continue;
        };
        for (kind, pt) in [("lead", &tile.pivot_lead), ("trail", &tile.pivot_trail)] {
            if let Some(p) = pt {
                let [x, y] = map.apply(p.value);
                out.push(Pivot {
                    tile: i,
                    kind,
                    x,
                    y,
                    source_line: p.line,
                });
            }
        }
    }
    out
}

/// A pixel → metre affine map `x = a·u + b·v + c`, `y = d·u + e·v + f`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine([f64; 6]);

impl Affine {
    /// Maps a pixel position.
    pub fn apply(&self, p: Px) -> Xy {
        let [a, b, c, d, e, f] = self.0;
        [a * p[0] + b * p[1] + c, d * p[0] + e * p[1] + f]
    }
}

/// The affine map taking `uv[i]` to `xy[i]`, from the three best-spread
/// points; `None` when they are collinear or the lists do not match.
pub fn affine(uv: &[[f64; 2]], xy: &[Xy]) -> Option<Affine> {
    if uv.len() != xy.len() || uv.len() < 3 {
        return None;
    }
    let n = uv.len();
    let area = |i: usize, j: usize, k: usize| {
        let (a, b, c) = (uv[i], uv[j], uv[k]);
        ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs()
    };
    let mut best = (0.0, 0, 1, 2);
    for j in 1..n {
        for k in j + 1..n {
            let s = area(0, j, k);
            if s > best.0 {
                best = (s, 0, j, k);
            }
        }
    }
    let (det_abs, i, j, k) = best;
    if det_abs < 1e-9 {
        return None;
    }
    let (p0, p1, p2) = (uv[i], uv[j], uv[k]);
    let (du1, dv1, du2, dv2) = (p1[0] - p0[0], p1[1] - p0[1], p2[0] - p0[0], p2[1] - p0[1]);
    let det = du1 * dv2 - du2 * dv1;
    let solve = |q0: f64, q1: f64, q2: f64| {
        let (dq1, dq2) = (q1 - q0, q2 - q0);
        let a = (dq1 * dv2 - dq2 * dv1) / det;
        let b = (du1 * dq2 - du2 * dq1) / det;
        (a, b, q0 - a * p0[0] - b * p0[1])
    };
    let (a, b, c) = solve(xy[i][0], xy[j][0], xy[k][0]);
    let (d, e, f) = solve(xy[i][1], xy[j][1], xy[k][1]);
    Some(Affine([a, b, c, d, e, f]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_maps_a_rotated_tile() {
        // Texture 0..100 px → a 10 m square rotated 90° and moved.
        let uv = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
        let xy = [[5.0, 0.0], [5.0, 10.0], [-5.0, 10.0], [-5.0, 0.0]];
        let m = affine(&uv, &xy).unwrap();
        let c = m.apply([50.0, 50.0]);
        assert!(
            (c[0] - 0.0).abs() < 1e-9 && (c[1] - 5.0).abs() < 1e-9,
            "{c:?}"
        );
        let q = m.apply([100.0, 0.0]);
        assert!((q[0] - 5.0).abs() < 1e-9 && (q[1] - 10.0).abs() < 1e-9);
        assert!(affine(&uv[..2], &xy[..2]).is_none());
        assert!(affine(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], &xy[..3]).is_none());
    }

    #[test]
    fn pivots_follow_the_placed_tile() {
        use crate::place::{PlacedTile, Role, TileId};
        use crate::xp::model::{Common, Kind, Lined, StringProps, Tile};
        let tile = Tile {
            id: 7,
            explicit_id: true,
            rect: [0.0, 0.0, 100.0, 100.0],
            line: 4,
            rotation: None,
            anchor: None,
            ground: None,
            crop_poly: None,
            stop_pts: Vec::new(),
            pivot_lead: Some(Lined {
                value: [100.0, 50.0],
                line: 5,
            }),
            pivot_trail: Some(Lined {
                value: [0.0, 50.0],
                line: 6,
            }),
            annotations: Vec::new(),
        };
        let asset = Asset {
            kind: Kind::Ags,
            common: Common::default(),
            tiles: vec![tile],
            block: None,
            string: Some(StringProps::default()),
            meta: Vec::new(),
            unknown: Vec::new(),
        };
        // The tile placed 10 m wide along a side running north from (20, 0).
        let placed = PlacedTile {
            id: TileId::Num(7),
            polygon: vec![[20.0, 0.0], [20.0, 10.0], [10.0, 10.0], [10.0, 0.0]],
            lonlat: Vec::new(),
            uv: vec![[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]],
            order: 0,
            hidden: false,
            role: Role::Edge,
            unit: 0,
            source_line: 4,
            stop_points: Vec::new(),
            ground_point: None,
            z: None,
        };
        let mut grid = placed.clone();
        grid.role = Role::Grid;
        let placement = Placement {
            tiles: vec![placed, grid],
            ..Placement::default()
        };
        let p = pivots(&asset, &placement);
        assert_eq!(p.len(), 2, "grid tiles have no pivots: {p:?}");
        assert_eq!((p[0].kind, p[0].source_line, p[0].tile), ("lead", 5, 0));
        assert!(
            (p[0].x - 15.0).abs() < 1e-9 && (p[0].y - 10.0).abs() < 1e-9,
            "{p:?}"
        );
        assert_eq!((p[1].kind, p[1].source_line), ("trail", 6));
        assert!((p[1].x - 15.0).abs() < 1e-9 && p[1].y.abs() < 1e-9, "{p:?}");
    }
}
