//! `agkit place ASSET`: one asset at `--at LAT,LON[,HEADING]` (AGP) or on
//! the polygons of `--polygon FILE.geojson` (AGB, AGS).

use super::args::Args;
use super::report::{asset_report, done, placement_report, write_placements, write_to};
use crate::cli::output::{self, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::check::asset::{AssetFile, AssetFileError};
use agkit::limits::Limits;
use agkit::out::{self, Format};
use agkit::place::{self, Params, Placement, Tally, Use};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::path::Path;

/// Where the art the asset names is looked for: beside it, then in the
/// libraries of `--library` or `--xplane`.
fn art_scenery(args: &Args) -> Result<Scenery, u8> {
    let cond = Conditions::default();
    let s = match (&args.xplane, args.library.is_empty()) {
        (Some(dir), _) => Scenery::installation(dir, cond).map_err(|e| format!("--xplane {e}")),
        (None, false) => {
            Scenery::packages(None, &args.library, cond).map_err(|e| format!("--library {e}"))
        }
        (None, true) => Ok(Scenery::without_libraries(cond)),
    };
    let s = s.map_err(output::fail)?;
    for e in s.load_errors() {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    Ok(s)
}

/// `params` with the art of `asset` (read from `path`) placed by `use_`,
/// unless `--no-art`.
fn with_art(
    params: &Params,
    args: &Args,
    scenery: &Scenery,
    path: &Path,
    asset: &agkit::xp::model::Asset,
    use_: &Use,
) -> Params {
    let mut p = params.clone();
    if !args.no_art {
        p.art = Some(scenery.use_art(path, asset, use_));
    }
    p
}

/// `agkit place ASSET --at …`: one placement, its warnings printed, written.
pub fn run_at(args: &Args, params: &Params, format: Format) -> u8 {
    let p = match place_asset(args, params) {
        Ok(p) => p,
        Err(code) => return code,
    };
    eprint!("{}", placement_report(&p, args.explain));
    write_placements(
        std::slice::from_ref(&p),
        out::Grouping::One,
        format,
        args.style,
        if args.pretty {
            out::Indent::Pretty
        } else {
            out::Indent::Compact
        },
        args.output.as_deref(),
        EXIT_OK,
    )
}

/// Reads and parses an autogen text file, printing its diagnostics; the
/// exit status when it cannot be placed.
fn load_asset(path: &Path, args: &Args) -> Result<agkit::xp::model::Asset, u8> {
    let file = AssetFile::read(path);
    eprint!("{}", asset_report(&file));
    match file.asset {
        Ok(a) => match args.check_applies(a.kind) {
            Ok(()) => Ok(a),
            Err(e) => Err(output::fail(format!("{}: {e}", path.display()))),
        },
        Err(AssetFileError::Read { .. }) => Err(EXIT_USAGE),
        Err(_) => Err(EXIT_INPUT),
    }
}

/// The placement of one asset at `--at`.
fn place_asset(args: &Args, params: &Params) -> Result<Placement, u8> {
    let path = args.asset.as_ref().ok_or(EXIT_USAGE)?;
    let use_ = match (&args.at, &args.polygon) {
        (Some(at), None) => parse_at(at).map_err(output::fail)?,
        _ => {
            return Err(output::fail(
                "give --at LAT,LON[,HEADING] for an .agp or --polygon FILE.geojson for an .agb/.ags",
            ));
        }
    };
    let asset = load_asset(path, args)?;
    let scenery = art_scenery(args)?;
    let params = with_art(params, args, &scenery, path, &asset, &use_);
    let name = path.display().to_string();
    match place::place(&asset, &name, &use_, &params) {
        Ok(p) => Ok(p),
        Err(e @ place::PlaceError::Mismatch(_)) => Err(output::fail(format!("{name}: {e}"))),
        Err(e) => {
            eprintln!("error: {name}: {e}");
            Err(EXIT_INPUT)
        }
    }
}

/// The polygons of `--polygon`, each ready to place, named for messages
/// (`lake.geojson feature 3 (id "x")`) and wound as X-Plane winds them
/// (with a note per ring reversed, [`agkit::geom::orient::gis_rings`]),
/// all checked before any engine runs:
/// finite positions on Earth, no polygon wider than `limits` allow. An
/// unreadable file is exit 2; a file that is not GeoJSON or has a bad
/// polygon is exit 1, the message naming the file and the feature.
fn load_polygons(path: &Path, limits: &Limits) -> Result<Vec<Polygon>, u8> {
    let file = path.display().to_string();
    // The previewer's polygons go by name; here they are files.
    if !path.exists() && agkit::serve::polygons::by_name(&file).is_some() {
        return Err(output::fail(format!(
            "{file}: no such file; `{file}` names a polygon of `agkit serve`, and \
             `--polygon` takes a GeoJSON file (examples/polygons/ holds rectangle.geojson \
             and lake.geojson)"
        )));
    }
    let text = output::read_text(path, "GeoJSON")?;
    let bad = |msg: String| {
        eprintln!("error: {file}: {msg}");
        EXIT_INPUT
    };
    let polys = agkit::out::geojson::read_polygon_features(&text).map_err(bad)?;
    drop(text);
    polys
        .into_iter()
        .map(|mut p| {
            let own = p.label();
            let notes = agkit::geom::orient::gis_rings(&mut p.windings);
            let use_ = Use::Polygon {
                windings: p.windings,
            };
            place::check_use(&use_, limits).map_err(|e| bad(format!("{own}: {e}")))?;
            // A bare geometry is named by its file alone.
            let label = match (p.feature, &p.id, p.part) {
                (None, None, None) => file.clone(),
                _ => format!("{file} {own}"),
            };
            Ok(Polygon { label, use_, notes })
        })
        .collect()
}

/// One polygon of `--polygon`, ready to place.
struct Polygon {
    /// How messages name it.
    label: String,
    use_: Use,
    /// How it was taken (rings reversed), for the report.
    notes: Vec<String>,
}

/// `agkit place ASSET --polygon FILE`: one placement per polygon. Several
/// polygons in `json` or `geojson` are streamed (one placement in memory at
/// a time, the layout of `--dsf DIR`); the other formats hold them all,
/// up to the limit of items one placement may have.
pub fn run_polygons(poly: &Path, args: &Args, params: &Params, format: Format) -> u8 {
    let uses = match load_polygons(poly, &params.limits) {
        Ok(u) => u,
        Err(code) => return code,
    };
    let Some(path) = args.asset.as_ref() else {
        return EXIT_USAGE;
    };
    let asset = match load_asset(path, args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let scenery = match art_scenery(args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let name = path.display().to_string();
    let place_one = |poly: &Polygon| -> Result<Placement, u8> {
        let label = &poly.label;
        let params = with_art(params, args, &scenery, path, &asset, &poly.use_);
        let mut p = place::place(&asset, &name, &poly.use_, &params).map_err(|e| match e {
            place::PlaceError::Mismatch(_) => output::fail(format!("{name}: {e}")),
            _ => {
                eprintln!("error: {name}: {label}: {e}");
                EXIT_INPUT
            }
        })?;
        p.note(&poly.notes, args.explain);
        eprint!("{}", placement_report(&p, args.explain));
        Ok(p)
    };
    if uses.len() > 1 && matches!(format, Format::Json | Format::Geojson | Format::Gpkg) {
        return stream_polygons(&uses, place_one, args, format);
    }
    let mut placements = Vec::with_capacity(uses.len());
    let mut items = 0usize;
    for each in &uses {
        let label = &each.label;
        let p = match place_one(each) {
            Ok(p) => p,
            Err(code) => return code,
        };
        items += p.items();
        if items > params.limits.max_placed_items {
            eprintln!(
                "error: {name}: {}: the placements up to {label} hold {items} items, more than the {} one picture or DSF2Text file may hold; --format json or geojson writes any number",
                poly.display(),
                params.limits.max_placed_items
            );
            return EXIT_INPUT;
        }
        placements.push(p);
    }
    write_placements(
        &placements,
        if uses.len() == 1 {
            out::Grouping::One
        } else {
            out::Grouping::Combined
        },
        format,
        args.style,
        if args.pretty {
            out::Indent::Pretty
        } else {
            out::Indent::Compact
        },
        args.output.as_deref(),
        EXIT_OK,
    )
}

/// Places and writes the polygons one at a time as one JSON array or
/// GeoJSON collection ([`out::Stream`]). A placement that fails ends the
/// run: the `-o` file is left as it was; stdout has what came before.
fn stream_polygons(
    uses: &[Polygon],
    place_one: impl Fn(&Polygon) -> Result<Placement, u8>,
    args: &Args,
    format: Format,
) -> u8 {
    let mut failed = None;
    let mut tally = Tally::default();
    let mut why = None;
    let mut place_all = |w: &mut dyn std::io::Write| -> Result<(), out::OutError> {
        let mut stream = out::Stream::new(w, format)?;
        for (i, poly) in uses.iter().enumerate() {
            let p = place_one(poly).map_err(|code| {
                failed = Some(code);
                out::OutError::Io(std::io::Error::other("placement failed"))
            })?;
            tally.add(&p);
            if why.is_none() {
                why = p.why_empty();
            }
            stream.push_part(&out::render_part(std::slice::from_ref(&p), i, format)?)?;
        }
        stream.finish()?.flush()?;
        Ok(())
    };
    let written = write_to(args.output.as_deref(), &mut place_all);
    match (failed, written) {
        (Some(code), _) => code,
        (None, Err(e)) => output::fail(e),
        (None, Ok(())) => {
            done(args.output.as_deref(), &tally, why.as_deref());
            EXIT_OK
        }
    }
}

/// `--at LAT,LON[,HEADING]`.
fn parse_at(s: &str) -> Result<Use, String> {
    let p = crate::cli::coords::parse(s, "--at", true)?;
    Ok(Use::Point {
        at: [p.lon, p.lat],
        heading: p.heading.unwrap_or(0.0),
    })
}
