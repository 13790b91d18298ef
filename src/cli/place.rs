//! `agkit place`: what an autogen asset lays down, as JSON, GeoJSON,
//! DSF2Text, SVG or PNG.
//!
//! - `agkit place A.agp --at LAT,LON[,HEADING]`
//! - `agkit place A.agb|A.ags --polygon P.geojson [--param N | --height M
//!   --spawning K | --spelling-set S]`
//! - `agkit place --dsf TILE.dsf [--scenery DIR] [--library DIR]... | [--xplane DIR]`

use super::place_resolution::{self as resolution, Repeats, Resolver, Unresolved, plural};
use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::diag;
use agkit::limits::Limits;
use agkit::out::{self, Format};
use agkit::place::{self, FrameConvention, Params, Placement, Use};
use agkit::scenery::resolve::{Conditions, Tile as TileId};
use std::path::{Path, PathBuf};

/// The AGP orientation convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Frame {
    /// WorldEditor's preview: texture up north at heading 0, ROTATION turns CW.
    Wed,
    /// The AGP spec: bottom edge north at heading 0, ROTATION turns CCW.
    Spec,
}

/// Arguments of `agkit place`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The asset: .agp (with --at) or .agb/.ags (with --polygon).
    #[arg(required_unless_present = "dsf")]
    asset: Option<PathBuf>,
    /// Where an .agp goes: latitude, longitude and heading (degrees
    /// clockwise from true north, default 0).
    #[arg(
        long,
        value_name = "LAT,LON[,HEADING]",
        allow_hyphen_values = true,
        conflicts_with = "polygon"
    )]
    at: Option<String>,
    /// The DSF polygon of an .agb/.ags: a GeoJSON Polygon, MultiPolygon,
    /// Feature or FeatureCollection; each polygon is one use, its rings
    /// (lon/lat) the DSF windings.
    #[arg(long, value_name = "FILE")]
    polygon: Option<PathBuf>,
    /// The raw 16-bit DSF polygon parameter (height/4 << 8 | low byte).
    #[arg(
        long,
        allow_negative_numbers = true,
        conflicts_with_all = ["height", "spawning", "spelling_set"]
    )]
    param: Option<u16>,
    /// Building height in metres (AGB/AGS), 0 to 1020: a DSF stores it / 4
    /// in 8 bits.
    #[arg(long, value_name = "METRES", allow_negative_numbers = true, value_parser = parse_height)]
    height: Option<f64>,
    /// Number of tile-spawning contours (AGS).
    #[arg(long, allow_negative_numbers = true, conflicts_with = "spelling_set")]
    spawning: Option<u8>,
    /// Spelling set (AGB).
    #[arg(long, allow_negative_numbers = true)]
    spelling_set: Option<u8>,
    /// Place every autogen use of this DSF tile (or of every .dsf under a folder).
    #[arg(long, value_name = "TILE.dsf", conflicts_with_all = ["asset", "at", "polygon"])]
    dsf: Option<PathBuf>,
    /// The scenery package the DSF belongs to (default: the folder above
    /// `Earth nav data`).
    #[arg(long, value_name = "DIR", requires = "dsf")]
    scenery: Option<PathBuf>,
    /// A library package or Custom Scenery folder to resolve library paths
    /// in (repeatable; searched in order).
    #[arg(long = "library", value_name = "DIR", requires = "dsf")]
    library: Vec<PathBuf>,
    /// Resolve library paths across this X-Plane installation (the X-Plane
    /// folder or its Custom Scenery folder), in scenery_packs.ini order,
    /// as the simulator does.
    #[arg(long, value_name = "DIR", requires = "dsf", conflicts_with = "library")]
    xplane: Option<PathBuf>,
    /// A dataref value for libraries' REGION_DREF conditions (repeatable);
    /// conditions on datarefs not given are assumed to hold.
    #[arg(long = "dref", value_name = "NAME=VALUE", requires = "dsf")]
    dref: Vec<String>,
    /// The season for X-Plane 12 seasonal exports (e.g. sum, win).
    #[arg(long, value_name = "SEASON", requires = "dsf")]
    season: Option<String>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: u64,
    /// Object density setting 1..6.
    #[arg(
        long,
        default_value_t = 6,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(u8).range(1..=6)
    )]
    density: u8,
    /// AGP orientation convention (WorldEditor's, as authors see it, unless
    /// `spec`).
    #[arg(long, value_enum, default_value_t = Frame::Wed)]
    frame: Frame,
    /// Print the engine's decisions to stderr.
    #[arg(long)]
    explain: bool,
    /// Largest extent of one polygon in metres (the larger side of its
    /// bounding box); a wider one is refused before placing.
    #[arg(long, value_name = "METRES", default_value_t = Limits::default().max_extent_m,
          value_parser = positive_metres)]
    max_extent: f64,
    /// Output format (default: from the -o extension, else json).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Output file (written atomically; stdout when absent).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `agkit place`.
pub fn run(mut args: Args) -> u8 {
    args.output = super::output_file(args.output);
    let format = match (args.format, &args.output) {
        (Some(f), _) => f,
        (None, Some(o)) => match Format::from_path(o) {
            Some(f) => f,
            None => {
                return super::fail(format!(
                    "{}: cannot tell the format from the extension; give --format",
                    o.display()
                ));
            }
        },
        (None, None) => Format::Json,
    };
    let mut params = Params {
        seed: args.seed,
        density: args.density,
        frame: match args.frame {
            Frame::Spec => FrameConvention::Spec,
            Frame::Wed => FrameConvention::Wed,
        },
        explain: args.explain,
        limits: Limits {
            max_extent_m: args.max_extent,
            ..Limits::default()
        },
        ..Params::default()
    };
    if let Some(p) = args.param {
        params = params.with_dsf_param(p);
    }
    if let Some(h) = args.height {
        params.height = h;
    }
    if let Some(k) = args.spawning.or(args.spelling_set) {
        params.low = k;
    }

    let resolver = match &args.dsf {
        Some(_) => match dsf_resolver(&args) {
            Ok(r) => Some(r),
            Err(code) => return code,
        },
        None => None,
    };
    if let (Some(dir), Some(r)) = (args.dsf.as_ref().filter(|d| d.is_dir()), &resolver) {
        // Bulk: every tile under the folder, in parallel, streamed.
        return run_dsf_dir(dir, &args, &params, format, r);
    }
    let (placements, status, combined) = if let (Some(dsf), Some(r)) = (&args.dsf, &resolver) {
        match place_dsf(dsf, &params, r) {
            Ok((p, s)) => (p, s, true),
            Err(code) => return code,
        }
    } else if let (Some(poly), None) = (&args.polygon, &args.at) {
        return run_polygons(poly, &args, &params, format);
    } else {
        match place_asset(&args, &params) {
            Ok((p, combined)) => (p, EXIT_OK, combined),
            Err(code) => return code,
        }
    };
    for p in &placements {
        eprint!("{}", placement_report(p, args.explain));
    }
    write_placements(&placements, combined, format, &args, status)
}

/// Renders `placements` (one, or the `combined` array form) and writes them
/// to `-o` or stdout; `status` when that succeeds.
fn write_placements(
    placements: &[Placement],
    combined: bool,
    format: Format,
    args: &Args,
    status: u8,
) -> u8 {
    if let Some(n) = out::picture_note(placements, format) {
        eprintln!("note: {n}");
    }
    let mut write = |w: &mut dyn std::io::Write| {
        out::write(placements, combined, format, w)?;
        Ok(w.flush()?)
    };
    match write_to(args.output.as_deref(), &mut write) {
        Ok(()) => status,
        Err(e) => super::fail(e),
    }
}

/// The lines printed for a placement: its warnings, then (with `--explain`)
/// the engine's decisions.
fn placement_report(p: &Placement, explain: bool) -> String {
    let mut report = String::new();
    for w in &p.warnings {
        report.push_str(&format!("warning: {}: {w}\n", p.asset));
    }
    if explain {
        report.push_str(&explain_report(p));
    }
    report
}

/// The engine's decisions for a placement (`--explain`).
fn explain_report(p: &Placement) -> String {
    p.explain
        .iter()
        .map(|e| format!("explain: {}: {e}\n", p.asset))
        .collect()
}

/// Reads and parses an autogen text file, printing its diagnostics.
fn load_asset(path: &Path) -> Result<agkit::xp::model::Asset, u8> {
    let (asset, report) = read_asset(path);
    eprint!("{report}");
    asset
}

/// [`load_asset`] without printing: the asset (or the exit status when it
/// cannot be placed) and its rendered diagnostics, warnings too: placement
/// ignores a line the checks warn about, such as a misspelt directive, and
/// the author should hear of it here as from `agkit check`.
fn read_asset(path: &Path) -> (Result<agkit::xp::model::Asset, u8>, String) {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => return (Err(EXIT_USAGE), format!("error: {}: {e}\n", path.display())),
    };
    let name = path.display().to_string();
    if let Some(refused) = super::not_autogen_text(&name, &bytes) {
        return (Err(EXIT_INPUT), refused + "\n");
    }
    let text = String::from_utf8_lossy(&bytes);
    let (asset, diags) = agkit::xp::parse_lenient(&text);
    let mut report = diag::render_human(&name, Some(&text), &diags);
    match asset {
        Some(a) if !diags.iter().any(diag::Diagnostic::is_error) => (Ok(a), report),
        _ => {
            if diags.is_empty() {
                report.push_str(&format!("error: {name}: cannot be parsed\n"));
            }
            (Err(EXIT_INPUT), report)
        }
    }
}

/// The placement of one asset at `--at`. The flag says whether the output
/// is the combined (array) form.
fn place_asset(args: &Args, params: &Params) -> Result<(Vec<Placement>, bool), u8> {
    let path = args.asset.as_ref().ok_or(EXIT_USAGE)?;
    let use_ = match (&args.at, &args.polygon) {
        (Some(at), None) => parse_at(at).map_err(super::fail)?,
        _ => {
            return Err(super::fail(
                "give --at LAT,LON[,HEADING] for an .agp or --polygon FILE.geojson for an .agb/.ags",
            ));
        }
    };
    let asset = load_asset(path)?;
    let name = path.display().to_string();
    match place::place(&asset, &name, &use_, params) {
        Ok(p) => Ok((vec![p], false)),
        Err(e @ place::PlaceError::Mismatch(_)) => Err(super::fail(format!("{name}: {e}"))),
        Err(e) => {
            eprintln!("error: {name}: {e}");
            Err(EXIT_INPUT)
        }
    }
}

/// The polygons of `--polygon`, each ready to place and named for messages
/// (`lake.geojson feature 3 (id "x")`), all checked before any engine runs:
/// finite positions on Earth, no polygon wider than `limits` allow. An
/// unreadable file is exit 2; a file that is not GeoJSON or has a bad
/// polygon is exit 1, the message naming the file and the feature.
fn load_polygons(path: &Path, limits: &Limits) -> Result<Vec<(String, Use)>, u8> {
    let file = path.display().to_string();
    // The previewer's polygons go by name; here they are files.
    if !path.exists() && agkit::serve::polygons::by_name(&file).is_some() {
        return Err(super::fail(format!(
            "{file}: no such file; `{file}` names a polygon of `agkit serve`, and \
             `--polygon` takes a GeoJSON file (examples/polygons/ holds rectangle.geojson \
             and lake.geojson)"
        )));
    }
    let text = super::read_text(path, "GeoJSON")?;
    let bad = |msg: String| {
        eprintln!("error: {file}: {msg}");
        EXIT_INPUT
    };
    let polys = agkit::out::geojson::read_polygon_features(&text).map_err(bad)?;
    drop(text);
    polys
        .into_iter()
        .map(|p| {
            let own = p.label();
            let use_ = Use::Polygon {
                windings: p.windings,
            };
            place::check_use(&use_, limits).map_err(|e| bad(format!("{own}: {e}")))?;
            // A bare geometry is named by its file alone.
            let label = match (p.feature, &p.id, p.part) {
                (None, None, None) => file.clone(),
                _ => format!("{file} {own}"),
            };
            Ok((label, use_))
        })
        .collect()
}

/// `agkit place ASSET --polygon FILE`: one placement per polygon. Several
/// polygons in `json` or `geojson` are streamed (one placement in memory at
/// a time, the layout of `--dsf DIR`); the other formats hold them all,
/// up to the limit of items one placement may have.
fn run_polygons(poly: &Path, args: &Args, params: &Params, format: Format) -> u8 {
    let uses = match load_polygons(poly, &params.limits) {
        Ok(u) => u,
        Err(code) => return code,
    };
    let Some(path) = args.asset.as_ref() else {
        return EXIT_USAGE;
    };
    let asset = match load_asset(path) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let name = path.display().to_string();
    let place_one = |label: &str, u: &Use| -> Result<Placement, u8> {
        let p = place::place(&asset, &name, u, params).map_err(|e| match e {
            place::PlaceError::Mismatch(_) => super::fail(format!("{name}: {e}")),
            _ => {
                eprintln!("error: {name}: {label}: {e}");
                EXIT_INPUT
            }
        })?;
        eprint!("{}", placement_report(&p, args.explain));
        Ok(p)
    };
    if uses.len() > 1 && matches!(format, Format::Json | Format::Geojson) {
        return stream_polygons(&uses, place_one, args, format);
    }
    let mut placements = Vec::with_capacity(uses.len());
    let mut items = 0usize;
    for (label, u) in &uses {
        let p = match place_one(label, u) {
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
    write_placements(&placements, uses.len() != 1, format, args, EXIT_OK)
}

/// Places and writes the polygons one at a time as one JSON array or
/// GeoJSON collection ([`out::Stream`]). A placement that fails ends the
/// run: the `-o` file is left as it was; stdout has what came before.
fn stream_polygons(
    uses: &[(String, Use)],
    place_one: impl Fn(&str, &Use) -> Result<Placement, u8>,
    args: &Args,
    format: Format,
) -> u8 {
    let mut failed = None;
    let mut place_all = |w: &mut dyn std::io::Write| -> Result<(), out::OutError> {
        let mut stream = out::Stream::new(w, format)?;
        for (i, (label, u)) in uses.iter().enumerate() {
            let p = place_one(label, u).map_err(|code| {
                failed = Some(code);
                out::OutError::Io(std::io::Error::other("placement failed"))
            })?;
            stream.push_part(&out::render_part(std::slice::from_ref(&p), i, format)?)?;
        }
        stream.finish()?.flush()?;
        Ok(())
    };
    let written = write_to(args.output.as_deref(), &mut place_all);
    match (failed, written) {
        (Some(code), _) => code,
        (None, Err(e)) => super::fail(e),
        (None, Ok(())) => EXIT_OK,
    }
}

/// The resolution context of `--dsf`, its warnings printed.
fn dsf_resolver(args: &Args) -> Result<Resolver, u8> {
    let cond = Conditions::from_args(&args.dref, args.season.as_deref()).map_err(super::fail)?;
    let (r, warnings) = Resolver::new(
        args.xplane.as_deref(),
        &args.library,
        args.scenery.as_deref(),
        cond,
    )
    .map_err(super::fail)?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(r)
}

/// Every autogen use of a DSF tile; unplaceable assets are warnings,
/// unresolved ones one grouped warning. Status 1 when an asset file has
/// errors, or when the tile has uses and none of them resolves (nothing
/// would be placed).
fn place_dsf(dsf: &Path, params: &Params, resolver: &Resolver) -> Result<(Vec<Placement>, u8), u8> {
    let tile = place_tile(dsf, params, resolver);
    eprint!("{}", tile.report);
    for (i, w) in &tile.use_warnings {
        eprintln!("warning: use {i}: {w}");
    }
    if let Some(code) = tile.failed {
        return Err(code);
    }
    if !tile.unresolved.is_empty() {
        let skipped = tile.unresolved.uses();
        if skipped == tile.uses {
            eprint!(
                "{}",
                tile.unresolved.report(
                    &format!(
                        "error: none of the {} of {} resolves, so nothing is placed:",
                        plural(tile.uses, "autogen use"),
                        dsf.display()
                    ),
                    false
                )
            );
            eprintln!(
                "help: give the package the DSF belongs to (--scenery DIR), its libraries \
                 (--library DIR) or the whole X-Plane installation (--xplane DIR)"
            );
            return Err(EXIT_INPUT);
        }
        eprint!(
            "{}",
            tile.unresolved.report(
                &format!(
                    "warning: {} of {} skipped: their assets resolve nowhere",
                    plural(skipped, "use"),
                    tile.uses
                ),
                false
            )
        );
    }
    Ok((tile.placements, tile.status))
}

/// What placing one DSF tile gave: its placements, the messages to print
/// (in order) and the worst status; `failed` when the tile itself could not
/// be read.
struct Tile {
    placements: Vec<Placement>,
    report: String,
    status: u8,
    failed: Option<u8>,
    /// Autogen uses in the tile.
    uses: usize,
    /// Uses whose asset resolved nowhere, per asset.
    unresolved: Unresolved,
    /// Uses the engine could not place: (use index, message).
    use_warnings: Vec<(usize, String)>,
}

/// Places every autogen use of one tile without printing (safe to run on
/// several tiles at once).
fn place_tile(dsf: &Path, params: &Params, resolver: &Resolver) -> Tile {
    use std::fmt::Write as _;
    let mut tile = Tile {
        placements: Vec::new(),
        report: String::new(),
        status: EXIT_OK,
        failed: None,
        uses: 0,
        unresolved: Unresolved::default(),
        use_warnings: Vec::new(),
    };
    let bytes = match std::fs::read(dsf) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(tile.report, "error: {}: {e}", dsf.display());
            tile.failed = Some(EXIT_USAGE);
            return tile;
        }
    };
    let (at, uses) = match dsf_uses(&bytes) {
        Ok(u) => u,
        Err(e) => {
            let hint = super::kind_hint(&bytes, agkit::check::Contents::Dsf);
            let _ = writeln!(tile.report, "error: {}: {e}{hint}", dsf.display());
            tile.failed = Some(EXIT_INPUT);
            return tile;
        }
    };
    tile.uses = uses.len();
    let resolved = resolver.resolve_all(dsf, at, uses.iter().map(|u| u.asset.as_str()));
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for u in &uses {
        *counts.entry(u.asset.as_str()).or_insert(0) += 1;
    }
    for (asset, r) in &resolved {
        if !r.is_resolved() {
            tile.unresolved
                .add(asset, counts[asset.as_str()], resolver.why(dsf, r));
        }
    }
    let mut cache: std::collections::HashMap<PathBuf, Option<agkit::xp::model::Asset>> =
        std::collections::HashMap::new();
    for (i, u) in uses.iter().enumerate() {
        let Some(file) = resolved[&u.asset]
            .pick(params.seed ^ i as u64)
            .map(|c| c.file.clone())
        else {
            continue;
        };
        let asset = cache.entry(file.clone()).or_insert_with(|| {
            let (asset, report) = read_asset(&file);
            tile.report.push_str(&report);
            asset.ok()
        });
        let Some(asset) = asset else {
            tile.status = EXIT_INPUT;
            continue;
        };
        let use_ = match (u.point, u.heading) {
            (Some(at), heading) => Use::Point {
                at,
                heading: heading.unwrap_or(0.0),
            },
            (None, _) => Use::Polygon {
                windings: u.windings.clone(),
            },
        };
        let mut p = params.clone();
        if let Some(param) = u.param {
            p = p.with_dsf_param(param);
        }
        match place::place(asset, &u.asset, &use_, &p) {
            Ok(mut pl) => {
                if params.explain {
                    let r = &resolved[&u.asset];
                    let mut line = format!("resolved to {} ({})", file.display(), r.rule);
                    let conds: Vec<&String> =
                        r.candidates.iter().flat_map(|c| &c.conditions).collect();
                    if !conds.is_empty() {
                        let conds: Vec<&str> = conds.iter().map(|c| c.as_str()).collect();
                        line.push_str(&format!(", assuming {}", conds.join(" and ")));
                    }
                    pl.explain.insert(0, line);
                }
                tile.placements.push(pl);
            }
            Err(e) => tile.use_warnings.push((i, format!("{}: {e}", u.asset))),
        }
    }
    tile
}

/// A placed and rendered batch: its tiles, their rendered parts, and the
/// count of placements up to and including it.
type Computed = (Vec<Tile>, Vec<Result<out::Part, out::OutError>>, usize);

/// Tiles placed in parallel per batch; a batch is printed and written in
/// path order before the next starts, so the output is deterministic and
/// memory holds one batch of placements.
const BATCH: usize = 32;

/// Places every autogen use of every `.dsf` under `dir` (path order) in
/// parallel, streaming the placements to the output as one JSON array or
/// GeoJSON collection. A tile that cannot be read is reported and skipped;
/// the status is the worst seen.
fn run_dsf_dir(
    dir: &Path,
    args: &Args,
    params: &Params,
    format: Format,
    resolver: &Resolver,
) -> u8 {
    use rayon::prelude::*;
    let start = std::time::Instant::now();
    let tiles = agkit::scenery::install::dsf_files(dir);
    let bar = super::progress_bar(tiles.len(), "tiles");
    let mut status = EXIT_OK;
    let (mut uses, mut failed, mut all_uses) = (0usize, 0usize, 0usize);
    // Repeated warnings and unresolved assets are counted, not printed one
    // per use: a tree of tiles can repeat one message thousands of times.
    let mut repeats = Repeats::default();
    let mut unresolved = Unresolved::default();
    // Places one batch in parallel, then renders its tiles in parallel, the
    // placements numbered on from `placed`.
    let compute = |batch: &[PathBuf], placed: usize| -> Computed {
        let done: Vec<Tile> = batch
            .par_iter()
            .map(|t| {
                let tile = place_tile(t, params, resolver);
                bar.inc(1);
                tile
            })
            .collect();
        let mut first = placed;
        let starts: Vec<usize> = done
            .iter()
            .map(|t| {
                let at = first;
                first += t.placements.len();
                at
            })
            .collect();
        let parts = done
            .par_iter()
            .zip(starts)
            .map(|(t, at)| out::render_part(&t.placements, at, format))
            .collect();
        (done, parts, first)
    };
    let mut place_all = |w: &mut dyn std::io::Write| -> Result<(), out::OutError> {
        let mut stream = out::Stream::new(w, format)?;
        let mut batches = tiles.chunks(BATCH);
        let mut pending: Option<Computed> = None;
        let mut placed = 0;
        loop {
            // The next batch is computed on another thread while this one
            // prints and writes the previous batch, in path order.
            let next = batches.next();
            let (computed, wrote) = std::thread::scope(|s| {
                let handle = next.map(|b| s.spawn(move || compute(b, placed)));
                let mut wrote = Ok(());
                for (tile, part) in pending
                    .take()
                    .into_iter()
                    .flat_map(|(t, p, _)| t.into_iter().zip(p))
                {
                    let mut report = tile.report;
                    for p in &tile.placements {
                        for w in &p.warnings {
                            repeats.add(format!("{}: {w}", p.asset));
                        }
                        if args.explain {
                            report.push_str(&explain_report(p));
                        }
                    }
                    for (_, w) in tile.use_warnings {
                        repeats.add(w);
                    }
                    if !report.is_empty() {
                        bar.suspend(|| eprint!("{report}"));
                    }
                    unresolved.merge(tile.unresolved);
                    all_uses += tile.uses;
                    uses += tile.placements.len();
                    status = status.max(tile.status).max(tile.failed.unwrap_or(EXIT_OK));
                    failed += usize::from(tile.failed.is_some() || tile.status != EXIT_OK);
                    if wrote.is_ok() {
                        wrote = part.and_then(|part| stream.push_part(&part));
                    }
                }
                let computed =
                    handle.map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                (computed, wrote)
            });
            wrote?;
            match computed {
                Some(c) => {
                    placed = c.2;
                    pending = Some(c);
                }
                None => break,
            }
        }
        stream.finish()?.flush()?;
        Ok(())
    };
    let written = write_to(args.output.as_deref(), &mut place_all);
    bar.finish_and_clear();
    if let Err(e) = written {
        return super::fail(e);
    }
    eprint!("{}", repeats.report());
    if !unresolved.is_empty() {
        let skipped = unresolved.uses();
        let head = if skipped == all_uses {
            status = status.max(EXIT_INPUT);
            format!(
                "error: none of the {} under {} resolves, so nothing is placed:",
                plural(all_uses, "autogen use"),
                dir.display()
            )
        } else {
            format!(
                "warning: {} of {} skipped: their assets resolve nowhere",
                plural(skipped, "use"),
                resolution::thousands(all_uses)
            )
        };
        eprint!("{}", unresolved.report(&head, true));
    }
    eprintln!(
        "placed {} from {}: {}, {} with errors{}, in {:.2} s",
        plural(uses, "use"),
        plural(tiles.len(), "tile"),
        plural(repeats.total(), "warning"),
        plural(failed, "tile"),
        match unresolved.uses() {
            0 => String::new(),
            n => format!(", {} unresolved", plural(n, "use")),
        },
        start.elapsed().as_secs_f64()
    );
    status
}

/// Runs `write` on the `-o` file or stdout ([`super::write_output_with`]).
fn write_to(
    output: Option<&Path>,
    write: &mut dyn FnMut(&mut dyn std::io::Write) -> Result<(), out::OutError>,
) -> Result<(), String> {
    super::write_output_with(output, |w| write(w).map_err(std::io::Error::other))
}

/// The tile (from `sim/west` and `sim/south`, else the first use) and the
/// autogen uses of a DSF.
fn dsf_uses(bytes: &[u8]) -> Result<(TileId, Vec<agkit::dsf::autogen::AutogenUse>), String> {
    let dsf = agkit::dsf::read(bytes).map_err(|e| e.to_string())?;
    let uses = agkit::dsf::autogen_uses(&dsf);
    let prop = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
    let tile = match (prop("sim/west"), prop("sim/south")) {
        (Some(west), Some(south)) => TileId { west, south },
        _ => {
            let first = uses
                .first()
                .and_then(|u| u.point.or_else(|| u.windings.first()?.first().copied()))
                .unwrap_or([0.0, 0.0]);
            TileId::of(first[0], first[1])
        }
    };
    Ok((tile, uses))
}

/// The package folder of a DSF at `<package>/Earth nav data/<dir>/<tile>.dsf`,
/// else the DSF's own folder.
pub(super) fn default_package(dsf: &Path) -> PathBuf {
    let parent = dsf.parent().unwrap_or(Path::new("."));
    let end = parent.parent();
    match end {
        Some(e)
            if e.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("Earth nav data")) =>
        {
            e.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        }
        _ => parent.to_path_buf(),
    }
}

/// `--height`: metres, 0 to 1020 (the DSF parameter's high byte × 4).
fn parse_height(s: &str) -> Result<f64, String> {
    let h: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a height in metres".to_string())?;
    if (0.0..=1020.0).contains(&h) {
        Ok(h)
    } else {
        Err("a building height is 0 to 1020 m: a DSF stores height / 4 in 8 bits".to_string())
    }
}

/// A `--max-extent` value: a positive number of metres.
fn positive_metres(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("`{s}` is not a positive number of metres")),
    }
}

/// `LAT,LON[,HEADING]`.
fn parse_at(s: &str) -> Result<Use, String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--at {s}: expected LAT,LON[,HEADING] in degrees"))?;
    let (lat, lon, heading) = match v[..] {
        [lat, lon] => (lat, lon, 0.0),
        [lat, lon, h] => (lat, lon, h),
        _ => return Err(format!("--at {s}: expected LAT,LON[,HEADING] in degrees")),
    };
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) || !heading.is_finite() {
        return Err(format!(
            "--at {s}: latitude, longitude or heading out of range"
        ));
    }
    Ok(Use::Point {
        at: [lon, lat],
        heading,
    })
}
