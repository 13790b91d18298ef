//! `GET /api/conflicts?path=F`: what the installation places on the
//! airports of the tile F names ([`Scenery::conflicts`](crate::scenery::Scenery::conflicts)
//! over [`Scope::Tile`]), exactly as `agkit scenery conflicts --xplane DIR
//! --tile LAT,LON --format json` finds it; here only the request is read
//! and the answer written.
//!
//! **What is asked.** F is a `.dsf` under PATH, the tile the previewer has
//! open; its tile is the one its file name gives (`+47+013.dsf`), as
//! X-Plane finds a tile's file. The DSF itself is not read here: the
//! report is the installation's, every enabled package in
//! `scenery_packs.ini` order, and PATH's own tile counts only as far as
//! PATH is one of those packages.
//!
//! **Where, in the view.** With `origin=LON,LAT` (the `origin` of
//! `/api/tile`'s answer) each finding's `at` is also given in metres east
//! and north of it (`at_local`, in the order of `findings`), where the
//! previewer's 2-D view marks it.
//!
//! **When.** Only a server started with `--xplane DIR` has an
//! installation to search; any other answers 409 saying so. The autogen
//! uses are expanded with seed 0 and full density, within the server's
//! [`crate::limits::Limits`]; the JSON answer is refused past
//! [`crate::limits::Limits::max_output_bytes`].

use super::files::FileType;
use super::http::{Request, Response};
use super::tile::{fail, json_within};
use super::{LibrarySource, Shared};
use crate::dsf::Tile;
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::conflicts::{ConflictOptions, ConflictReport, Scope};

/// The answer: the report, with the tile and file it is for.
#[derive(serde::Serialize)]
struct Answer<'a> {
    path: &'a str,
    tile: Tile,
    #[serde(flatten)]
    report: &'a ConflictReport,
    /// With `origin=LON,LAT`: that frame, and each finding's `at` in it
    /// (metres east and north), in the order of `findings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    origin: Option<LonLat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at_local: Option<Vec<Xy>>,
}

/// The `origin` parameter: `LON,LAT`, finite and on the globe.
fn origin_of(req: &Request) -> Result<Option<LonLat>, Response> {
    let Some(v) = req.param("origin").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let bad = || {
        Response::error(
            400,
            &format!("origin={v}: give LON,LAT in degrees, as /api/tile's `origin`"),
        )
    };
    let (lon, lat) = v.split_once(',').ok_or_else(bad)?;
    let (Ok(lon), Ok(lat)) = (lon.trim().parse::<f64>(), lat.trim().parse::<f64>()) else {
        return Err(bad());
    };
    if !((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat)) {
        return Err(bad());
    }
    Ok(Some([lon, lat]))
}

/// Answers `GET /api/conflicts`.
pub fn conflicts_response(shared: &Shared, req: &Request) -> Response {
    let Some(rel) = req.param("path") else {
        return Response::error(400, "missing query parameter `path`");
    };
    if super::files::file_type(std::path::Path::new(rel)) != Some(FileType::Dsf) {
        return Response::error(404, &format!("{rel}: not a .dsf file"));
    }
    if let Err(r) = shared.root.resolve(rel) {
        return super::api::refusal(r);
    }
    let origin = match origin_of(req) {
        Ok(o) => o,
        Err(r) => return r,
    };
    let name = rel.rsplit(['/', '\\']).next().unwrap_or(rel);
    let Some(tile) = Tile::from_file_name(name) else {
        return fail(
            422,
            rel,
            "tile",
            format!(
                "{rel}: the file name gives no tile; X-Plane finds a tile's DSF by its \
                 south-west corner, as +47+013.dsf"
            ),
            None,
        );
    };
    if !matches!(shared.libraries, LibrarySource::Installation(_)) {
        return fail(
            409,
            rel,
            "scenery",
            "conflicts are found across an X-Plane installation; start the server with \
             `agkit serve PATH --xplane DIR`"
                .to_string(),
            None,
        );
    }
    let scenery = match shared.libraries.scenery() {
        Ok(s) => s,
        Err(e) => return fail(500, rel, "scenery", e.to_string(), None),
    };
    let opts = ConflictOptions {
        scope: Scope::Tile(tile),
        params: crate::place::Params {
            limits: shared.limits,
            ..crate::place::Params::default()
        },
        expand_autogen: true,
    };
    let report = match scenery.conflicts(&opts) {
        Ok(r) => r,
        Err(e) => return fail(422, rel, "conflicts", format!("{rel}: {e}"), None),
    };
    let at_local = origin.map(|o| {
        let frame = LocalFrame::new(o);
        report
            .findings
            .iter()
            .map(|f| frame.to_local(f.at))
            .collect()
    });
    let answer = Answer {
        path: rel,
        tile,
        report: &report,
        origin,
        at_local,
    };
    json_within(&answer, shared.limits.max_output_bytes).unwrap_or_else(|_| {
        fail(
            413,
            rel,
            "json",
            format!(
                "{rel}: the conflicts of tile {tile} are more than the previewer sends; \
                 write them with `agkit scenery conflicts --tile` and `-o FILE`"
            ),
            None,
        )
    })
}
