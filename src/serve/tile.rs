//! `GET /api/tile?path=F` and `/api/tile.glb?path=F`: a DSF tile under
//! PATH, placed whole by the library ([`Scenery::place_dsf`](crate::scenery::Scenery::place_dsf) with
//! [`Params::whole_tile`]: the tile's autogen uses, then one placement per
//! definition of its objects, facades, forests, draped polygons, lines and
//! object strings), exactly as `agkit place --dsf F --all` places it; here
//! only the request is read and the answer written.
//!
//! **What is read.** The DSF through [`Root::resolve`](super::files::Root::resolve)
//! (a `.dsf` under PATH, bounded by [`crate::limits::Limits::max_input_bytes`]), and every
//! file it names through a [`Scenery`](crate::scenery::Scenery) confined to PATH
//! ([`Scenery::within`](crate::scenery::Scenery::within)): its definitions, the autogen assets, their art
//! and textures are looked up in the tile's package (the folder above
//! `Earth nav data` when that is under PATH, else PATH itself); a file
//! outside PATH is missing, as one that does not exist. Library paths
//! resolve in the libraries the server was given ([`super::LibrarySource`]),
//! whose folders are read too; without them they resolve nowhere and are
//! placed without art, named in `whole.unresolved`. With an installation
//! (`--xplane DIR`) the tile stands on the base mesh the installation
//! gives it, with the airports of its apt.dat files and the exclusions of
//! the packages above it, as `agkit place --dsf F --all --xplane DIR`: the
//! JSON names the `ground`, `airports` and `exclusions`, and the GLB draws
//! the terrain and the airports.
//!
//! **Bounds.** The tile is read and placed within the server's
//! [`crate::limits::Limits`] ([`super::serve_limits`]: a 7z tile's unpacked size, the
//! items placed, the work); the JSON answer is refused past
//! [`crate::limits::Limits::max_output_bytes`] and the scene past
//! [`crate::limits::Limits::max_scene_triangles`], each with a JSON error naming the
//! file.

use super::Shared;
use super::api::{TextureRef, texture_ref};
use super::files::FileType;
use super::http::{Request, Response};
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::whole::WholeTile;
use crate::place::{Params, Placement};
use crate::place::{TilePlacement, UseWarning};
use crate::scenery::tile::{TileError, Unresolved};
use crate::scenery::{art::Within, context::default_package};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

/// A tile request: the query of `GET /api/tile`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileRequest {
    /// The DSF, relative to PATH.
    pub path: String,
    /// Seed (use `i` of the tile draws from `seed XOR i`, as `agkit place`).
    pub seed: u64,
    /// Object density 1..6.
    pub density: u8,
}

impl TileRequest {
    /// Reads `path`, `seed` (default 0) and `density` (default 6).
    pub fn from_query(req: &Request) -> Result<TileRequest, Response> {
        let bad = |k: &str, v: &str| {
            Response::error(400, &format!("query parameter `{k}`: bad value {v:?}"))
        };
        let path = req
            .param("path")
            .ok_or_else(|| Response::error(400, "missing query parameter `path`"))?
            .to_string();
        let seed = match req.param("seed") {
            None | Some("") => 0,
            Some(v) => v.parse().map_err(|_| bad("seed", v))?,
        };
        let density = match req.param("density") {
            None | Some("") => 6,
            Some(v) => match v.parse::<u8>() {
                Ok(d) if (1..=6).contains(&d) => d,
                _ => return Err(bad("density", v)),
            },
        };
        Ok(TileRequest {
            path,
            seed,
            density,
        })
    }
}

/// One placement of the tile and where it lies in the tile's frame.
#[derive(serde::Serialize)]
struct Part<'a> {
    placement: &'a Placement,
    /// Where the placement's origin lies in the tile's frame (metres east,
    /// north of [`Placed::origin`]), as the 3-D scene places its node.
    offset: Xy,
    /// The tiles' texture of an autogen placement, when found under PATH.
    #[serde(skip_serializing_if = "Option::is_none")]
    texture: Option<TextureRef>,
}

/// One runway, helipad or pavement of an airport of the tile, in the
/// view's frame.
#[derive(serde::Serialize)]
struct AirportShape {
    /// The airport's ID.
    airport: String,
    /// `runway`, `displaced threshold`, `blast pad`, `water runway`,
    /// `helipad` or `pavement`.
    part: &'static str,
    /// The runway's ends, the helipad's designator, the pavement's name.
    name: String,
    /// Its apt.dat surface code.
    surface: u32,
    /// Its row's line in the apt.dat.
    line: usize,
    /// The outline, then holes, metres east and north of the origin.
    rings: Vec<Vec<Xy>>,
}

/// The shapes of the tile's airports in `frame`.
fn airport_shapes(
    airports: Option<&crate::scenery::tile_airports::Airports>,
    frame: &LocalFrame,
) -> Vec<AirportShape> {
    use crate::scene::airports::{Outline, shapes};
    let Some(a) = airports else {
        return Vec::new();
    };
    let local = |r: &[LonLat]| r.iter().map(|&p| frame.to_local(p)).collect::<Vec<Xy>>();
    a.0.airports
        .iter()
        .flat_map(|t| {
            shapes(&t.airport).into_iter().map(|s| AirportShape {
                airport: t.airport.icao.clone(),
                part: s.part.as_str(),
                name: s.name,
                surface: s.surface,
                line: s.line,
                rings: match &s.outline {
                    Outline::Strip(q, _) => vec![local(q)],
                    Outline::Rings(rs) => rs.iter().map(|r| local(r)).collect(),
                },
            })
        })
        .collect()
}

/// The answer of `/api/tile`.
#[derive(serde::Serialize)]
struct Placed<'a> {
    path: &'a str,
    tile: crate::scenery::resolve::Tile,
    package: &'a str,
    /// The frame of the view: the first placement's origin (the 3-D
    /// scene's), else the tile's south-west corner.
    origin: LonLat,
    /// Autogen uses in the tile.
    uses: usize,
    placements: Vec<Part<'a>>,
    /// Uses not placed (their asset is missing, does not load, or the
    /// engine refused them), where the DSF puts them: the views draw them
    /// marked as missing art ([`crate::place::Placement::unplaced`]).
    unplaced: Vec<Part<'a>>,
    /// Per kind: rows in the DSF, placed, not drawn; and what is not drawn
    /// and why (as `agkit place --dsf F --all` prints them).
    whole: &'a WholeTile,
    /// Autogen uses whose asset resolves nowhere.
    unresolved: &'a Unresolved,
    /// Autogen uses the engine could not place.
    warnings: &'a [UseWarning],
    /// Asset files with errors or warnings.
    assets: Vec<&'a crate::check::asset::AssetFile>,
    /// The ground every item was set on: the base mesh the installation
    /// gives the tile, else flat ([`TilePlacement::ground`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    ground: Option<&'a crate::place::ground::GroundSource>,
    /// Points the mesh did not cover (set at 0 m); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    off_mesh: usize,
    /// The exclusions of the packages above the tile's applied to its
    /// items, or why none were looked at ([`TilePlacement::exclusions`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    exclusions: Option<&'a crate::place::exclusions::Exclusions>,
    /// The airports lying in the tile, summarised
    /// ([`TilePlacement::airports`]); the GLB draws them.
    #[serde(skip_serializing_if = "Option::is_none")]
    airports: Option<&'a crate::scenery::tile_airports::Airports>,
    /// The airports' runways, helipads and pavement as the pictures draw
    /// them ([`crate::scene::airports::shapes`]), in the view's frame,
    /// for the 2-D view; absent without airports.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    airport_shapes: Vec<AirportShape>,
    elapsed_ms: f64,
    version: u64,
}

/// The package a DSF under PATH resolves its paths in: the folder above
/// `Earth nav data` when that folder is under PATH, else PATH.
fn package_of(shared: &Shared, dsf: &std::path::Path) -> PathBuf {
    let p = default_package(dsf);
    let inside_named = dsf.ancestors().any(|a| {
        a.file_name()
            .is_some_and(|n| n.eq_ignore_ascii_case("Earth nav data"))
    });
    if inside_named && p.starts_with(shared.root.dir()) {
        p
    } else {
        shared.root.dir().to_path_buf()
    }
}

/// A JSON error naming the tile, with the stage that failed.
pub(super) fn fail(
    status: u16,
    rel: &str,
    stage: &str,
    error: String,
    offset: Option<u64>,
) -> Response {
    let mut body = json!({ "error": error, "stage": stage, "path": rel });
    if let Some(o) = offset {
        body["offset"] = json!(o);
    }
    Response::json(status, &body)
}

/// Places the tile a request names, within the server's limits.
fn place(shared: &Shared, req: &TileRequest) -> Result<(TilePlacement, f64), Response> {
    let rel = req.path.as_str();
    if super::files::file_type(std::path::Path::new(rel)) != Some(FileType::Dsf) {
        return Err(Response::error(404, &format!("{rel}: not a .dsf file")));
    }
    let file = shared.root.resolve(rel).map_err(super::api::refusal)?;
    let limits = shared.limits;
    let bytes =
        crate::fsutil::read_file(&file, "a DSF tile", limits.max_input_bytes).map_err(|e| {
            let status = match e.kind {
                crate::fsutil::InputErrorKind::TooLarge { .. } => 413,
                _ => 404,
            };
            fail(status, rel, "read", format!("{rel}: {}", e.reason()), None)
        })?;
    // Reads stay within PATH and the libraries the server was given.
    let within = shared
        .libraries
        .dirs()
        .iter()
        .fold(Within::new(shared.root.dir()), |w, d| w.and(d));
    let scenery = shared
        .libraries
        .scenery()
        .map_err(|e| fail(500, rel, "scenery", e.to_string(), None))?
        .with_package(Some(&package_of(shared, &file)))
        .within_all(within, limits);
    let params = Params {
        seed: req.seed,
        density: req.density,
        whole_tile: true,
        limits,
        ..Params::default()
    };
    let started = std::time::Instant::now();
    let tile = scenery
        .place_dsf(&file, &bytes, &params)
        .map_err(|e| match e {
            TileError::Dsf { error, hint, .. } => fail(
                422,
                rel,
                "dsf",
                format!(
                    "{rel}: {}{}",
                    error,
                    hint.map(|h| format!("; {h}")).unwrap_or_default()
                ),
                Some(error.offset),
            ),
            TileError::Read { source, .. } => fail(
                404,
                rel,
                "read",
                format!("{rel}: {}", source.reason()),
                None,
            ),
            e @ TileError::Mesh { .. } => fail(422, rel, "mesh", e.to_string(), None),
        })?;
    Ok((tile, started.elapsed().as_secs_f64() * 1000.0))
}

/// The tile as JSON (`/api/tile`) or as a GLB download (`/api/tile.glb`).
pub fn tile_response(shared: &Shared, req: &TileRequest, glb: bool) -> Response {
    let (tile, elapsed_ms) = match place(shared, req) {
        Ok(t) => t,
        Err(r) => return r,
    };
    let rel = req.path.as_str();
    if glb {
        // The uses not placed after those placed, drawn marked.
        let mut ps = tile.placements;
        ps.extend(tile.unplaced);
        return glb_of(shared, &ps, rel);
    }
    let origin = tile.placements.first().map_or(
        [f64::from(tile.tile.west), f64::from(tile.tile.south)],
        |p| p.origin,
    );
    let frame = LocalFrame::new(origin);
    let part = |p| Part {
        placement: p,
        offset: frame.to_local(p.origin),
        texture: texture_ref(shared, p),
    };
    let placements = tile.placements.iter().map(part).collect();
    let unplaced = tile.unplaced.iter().map(part).collect();
    let (version, _) = shared.current();
    let whole = tile.whole.clone().unwrap_or_default();
    let answer = Placed {
        path: rel,
        tile: tile.tile,
        package: &tile.package,
        origin,
        uses: tile.uses,
        placements,
        unplaced,
        whole: &whole,
        unresolved: &tile.unresolved,
        warnings: &tile.warnings,
        assets: tile.assets.iter().map(|a| &**a).collect(),
        ground: tile.ground.as_ref(),
        off_mesh: tile.off_mesh,
        exclusions: tile.exclusions.as_ref(),
        airports: tile.airports.as_ref(),
        airport_shapes: airport_shapes(tile.airports.as_ref(), &frame),
        elapsed_ms,
        version,
    };
    json_within(&answer, shared.limits.max_output_bytes).unwrap_or_else(|max| {
        fail(
            413,
            rel,
            "json",
            format!(
                "{rel}: the whole tile's placements are more than {} as JSON, the most the \
                 previewer sends; write them with `agkit place --dsf {rel} --all -o tile.json`",
                mib(max)
            ),
            None,
        )
    })
}

/// Serde: leaves a zero count out.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Bytes as MiB, for messages.
fn mib(n: u64) -> String {
    format!("{:.1} MiB", n as f64 / f64::from(1u32 << 20))
}

/// `value` as a JSON response, or `Err(bytes written)` once its text
/// passes `max` bytes (serializing stops there: the text is never held
/// past the cap).
pub(super) fn json_within(value: &impl serde::Serialize, max: u64) -> Result<Response, u64> {
    struct Capped {
        buf: Vec<u8>,
        max: u64,
    }
    impl Write for Capped {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if (self.buf.len() + b.len()) as u64 > self.max {
                return Err(std::io::Error::other("past the cap"));
            }
            self.buf.extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Capped {
        buf: Vec::new(),
        max,
    };
    match serde_json::to_writer(&mut w, value) {
        Ok(()) => Ok(Response::new(200, "application/json; charset=utf-8", w.buf)),
        Err(_) => Err(max),
    }
}

/// The tile's placements as a GLB download named after the tile, within
/// the server's limits (its art was read by a scenery confined to PATH).
fn glb_of(shared: &Shared, placements: &[Placement], rel: &str) -> Response {
    let opts = crate::out::RenderOptions {
        limits: shared.limits,
        grouping: crate::out::Grouping::Combined,
        ..crate::out::RenderOptions::new(crate::out::Format::Glb)
    };
    match crate::out::render(placements, &opts) {
        Ok(scene) => super::api::glb_download(rel, scene.bytes),
        Err(e) => fail(422, rel, "gltf", format!("{rel}: {e}"), None),
    }
}
