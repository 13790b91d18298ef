//! `agkit scenery`: scenery resolution across an X-Plane installation.
//!
//! - `agkit scenery at LAT,LON --xplane DIR [--radius M] [--format F]`:
//!   what every enabled package places near a point, with the package and
//!   file each item resolves to and the exclusions that remove it;
//! - `agkit scenery check --xplane DIR`: what does not resolve, what is
//!   shadowed, what is misconfigured; exit 1 when something cannot resolve;
//! - `agkit scenery resolve PATH --tile LAT,LON --xplane DIR`: the files a
//!   library path resolves to at a tile, and every export that lost, with
//!   why; exit 1 when it resolves nowhere.

use super::output::{self, EXIT_INPUT, EXIT_OK};
use agkit::out::{at_picture as picture, scenery_report as report};
use agkit::place::at;
use agkit::scenery::resolve::Conditions;
use agkit::scenery::{Scenery, check};
use std::path::PathBuf;

/// `agkit scenery` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// What every enabled package places near a point, resolved as X-Plane
    /// resolves it: package, DSF, definition, file, exclusions.
    At(AtArgs),
    /// Check an installation: unresolved paths, shadowed exports, `../`
    /// library paths, disabled packs others need, duplicate pack lines.
    Check(CheckArgs),
    /// The files a library path resolves to at a tile, the package of each,
    /// the rule that won and why every other export lost.
    Resolve(ResolveArgs),
    /// What enabled packages place on the airports' runways, helipads and
    /// pavement, who placed it, and the exclusion that removes it (`--fix`
    /// writes it as an overlay package).
    Conflicts(super::conflicts::ConflictsArgs),
}

/// Output of `scenery at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AtFormat {
    /// A report for people.
    Text,
    /// `{"packages": [...], "items": [...]}`.
    Json,
    /// A FeatureCollection, one feature per item.
    Geojson,
    /// A GeoPackage: a layer per geometry type (at_points, at_lines,
    /// at_areas), as QGIS loads them.
    Gpkg,
    /// A picture, items coloured by package, excluded ones grey.
    Svg,
    /// The picture rasterised.
    Png,
}

/// Output of `scenery check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// A report for people.
    Text,
    /// `{"findings": [...], "stats": {...}}`.
    Json,
}

/// Output of `scenery resolve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ResolveFormat {
    /// A report for people.
    Text,
    /// The resolution: `{"path", "tile", "source", "candidates": [...],
    /// "rule", "shadowed": [...]}`.
    Json,
}

impl From<ResolveFormat> for CheckFormat {
    fn from(f: ResolveFormat) -> CheckFormat {
        match f {
            ResolveFormat::Text => CheckFormat::Text,
            ResolveFormat::Json => CheckFormat::Json,
        }
    }
}

/// Where the simulator's state comes from (shared by both subcommands).
#[derive(Debug, clap::Args)]
pub struct Install {
    /// The X-Plane folder, or its Custom Scenery folder.
    #[arg(long, value_name = "DIR")]
    xplane: PathBuf,
    /// A dataref value for libraries' REGION_DREF conditions (repeatable);
    /// conditions on datarefs not given are assumed to hold and reported.
    #[arg(long = "dref", value_name = "NAME=VALUE")]
    dref: Vec<String>,
    /// The season for X-Plane 12 seasonal exports (e.g. sum, win); without
    /// it seasonal exports are assumed to apply and reported.
    #[arg(long, value_name = "SEASON")]
    season: Option<String>,
}

/// Arguments of `agkit scenery at`.
#[derive(Debug, clap::Args)]
pub struct AtArgs {
    /// The point: latitude,longitude in degrees.
    #[arg(value_name = "LAT,LON", allow_hyphen_values = true)]
    at: String,
    #[command(flatten)]
    install: Install,
    /// Radius in metres.
    #[arg(long, default_value_t = 200.0, allow_hyphen_values = true)]
    radius: f64,
    /// Do not place autogen assets through the engines (list the autogen
    /// uses only, not what they place).
    #[arg(long)]
    no_autogen: bool,
    /// Seed of the random choices (library alternatives, autogen).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Object density setting 1..6 for the autogen engines.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=6))]
    density: u8,
    /// Output format (default: from the -o extension, else text).
    #[arg(long, value_enum)]
    format: Option<AtFormat>,
    /// Indent GeoJSON for people to read (it is compact otherwise).
    #[arg(long)]
    pretty: bool,
    /// Output file (written atomically; stdout when absent).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Arguments of `agkit scenery check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    install: Install,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
}

/// Arguments of `agkit scenery resolve`.
#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// The virtual path, as a DSF names it (e.g. lib/g10/autogen/plaza.agp).
    path: String,
    /// A point of the tile to resolve at: latitude,longitude in degrees
    /// (regions select by tile).
    #[arg(long, value_name = "LAT,LON", allow_hyphen_values = true)]
    tile: String,
    #[command(flatten)]
    install: Install,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ResolveFormat::Text)]
    format: ResolveFormat,
}

/// Runs `agkit scenery`.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::At(mut a) => {
            a.output = output::output_file(a.output);
            run_at(a)
        }
        Command::Check(a) => run_check(a),
        Command::Resolve(a) => run_resolve(a),
        Command::Conflicts(a) => super::conflicts::run(a),
    }
}

/// The installation and the conditions assumed; a season no library names
/// is warned about (problems reading libraries are the caller's to print,
/// or for `check` to report).
pub(super) fn open(install: &Install) -> Result<Scenery, u8> {
    let cond =
        Conditions::from_args(&install.dref, install.season.as_deref()).map_err(output::fail)?;
    let scenery = Scenery::installation(&install.xplane, cond)
        .map_err(|e| output::fail(format!("--xplane {e}")))?;
    if let Some(w) = scenery.season_warning() {
        eprintln!("warning: {w}");
    }
    Ok(scenery)
}

/// Prints the libraries that could not be read, as warnings.
fn warn_load_errors(scenery: &Scenery) {
    for e in scenery.load_errors() {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
}

fn run_at(a: AtArgs) -> u8 {
    let format = match (a.format, &a.output) {
        (Some(f), _) => f,
        (None, Some(o)) => {
            let ext = o
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            match ext.as_deref() {
                Some("json") => AtFormat::Json,
                Some("geojson") => AtFormat::Geojson,
                Some("gpkg") => AtFormat::Gpkg,
                Some("svg") => AtFormat::Svg,
                Some("png") => AtFormat::Png,
                Some("txt") => AtFormat::Text,
                _ => {
                    return output::fail(format!(
                        "{}: cannot tell the format from the extension; give --format",
                        o.display()
                    ));
                }
            }
        }
        (None, None) => AtFormat::Text,
    };
    if let Some(o) = &a.output
        && let Err(code) = output::check_output(o, agkit::fsutil::OutputRole::File, &[])
    {
        return code;
    }
    let (lat, lon) = match super::coords::parse(&a.at, "scenery at", false) {
        Ok(p) => (p.lat, p.lon),
        Err(e) => return output::fail(e),
    };
    let scenery = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    warn_load_errors(&scenery);
    let params = agkit::place::Params {
        seed: a.seed,
        density: a.density,
        ..agkit::place::Params::default()
    };
    let r = match scenery.at(lat, lon, a.radius, &params, !a.no_autogen) {
        Ok(r) => r,
        Err(at::AtError::Query(e)) => return output::fail(e),
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    let bytes = match format {
        AtFormat::Text => Ok(report::at_text(&r).into_bytes()),
        AtFormat::Json => json(&r),
        AtFormat::Geojson => report::at_geojson_with(&r, a.pretty),
        AtFormat::Gpkg => {
            let mut v = Vec::new();
            match report::at_gpkg(&r, &mut v) {
                Ok(()) => Ok(v),
                Err(e) => return output::fail(e),
            }
        }
        AtFormat::Svg => Ok(picture::to_svg(&r, picture::Words::Text).into_bytes()),
        AtFormat::Png => {
            match agkit::out::png::to_png(&picture::to_svg(&r, picture::Words::Strokes)) {
                Ok(b) => Ok(b),
                Err(e) => return output::fail(e),
            }
        }
    };
    match bytes {
        Ok(b) => output::write_output(
            a.output.as_deref(),
            &b,
            &agkit::out::count(r.items.len(), "item"),
        ),
        Err(e) => output::fail(e),
    }
}

fn run_check(a: CheckArgs) -> u8 {
    let scenery = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some(inst) = scenery.install() else {
        return output::EXIT_USAGE;
    };
    let dsfs: usize = check::scanned_packages(inst)
        .map(|p| check::package_dsfs(&p.path).len())
        .sum();
    let bar = output::progress_bar(dsfs, "DSFs");
    let r = scenery.check(&|| bar.inc(1));
    bar.finish_and_clear();
    match r {
        Ok(r) => finish(a.format, &r, report::check_text, r.has_errors()),
        Err(e) => output::fail(e),
    }
}

fn run_resolve(a: ResolveArgs) -> u8 {
    let (lat, lon) = match super::coords::parse(&a.tile, "--tile", false) {
        Ok(p) => (p.lat, p.lon),
        Err(e) => return output::fail(e),
    };
    let scenery = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    warn_load_errors(&scenery);
    let r = scenery.resolve(&a.path, agkit::scenery::resolve::Tile::of(lon, lat));
    finish(
        a.format.into(),
        &r,
        report::resolution_text,
        !r.is_resolved(),
    )
}

/// Pretty JSON with a final newline.
fn json<T: serde::Serialize>(v: &T) -> Result<Vec<u8>, serde_json::Error> {
    let mut b = serde_json::to_vec_pretty(v)?;
    b.push(b'\n');
    Ok(b)
}

/// Prints a report to stdout, as text or JSON; exit 1 when `failed`.
fn finish<T: serde::Serialize>(
    format: CheckFormat,
    value: &T,
    text: impl FnOnce(&T) -> String,
    failed: bool,
) -> u8 {
    let bytes = match format {
        CheckFormat::Text => text(value).into_bytes(),
        CheckFormat::Json => match json(value) {
            Ok(b) => b,
            Err(e) => return output::fail(e),
        },
    };
    match output::write_output(None, &bytes, "") {
        EXIT_OK if failed => EXIT_INPUT,
        code => code,
    }
}
