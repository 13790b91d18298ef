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

use super::{EXIT_INPUT, EXIT_OK};
use agkit::scenery::at::{self, AtOptions};
use agkit::scenery::install::Installation;
use agkit::scenery::resolve::{Conditions, LibraryIndex, LoadError};
use agkit::scenery::{check, picture, report};
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
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
}

/// Runs `agkit scenery`.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::At(mut a) => {
            a.output = super::output_file(a.output);
            run_at(a)
        }
        Command::Check(a) => run_check(a),
        Command::Resolve(a) => run_resolve(a),
    }
}

/// The installation, its libraries and the conditions; problems reading
/// libraries printed as warnings (or returned, for `check`).
fn open(install: &Install) -> Result<(Installation, LibraryIndex, Vec<LoadError>, Conditions), u8> {
    let cond =
        Conditions::from_args(&install.dref, install.season.as_deref()).map_err(super::fail)?;
    let inst =
        Installation::open(&install.xplane).map_err(|e| super::fail(format!("--xplane {e}")))?;
    let (index, errors) = LibraryIndex::from_installation(&inst);
    if let Some(w) = index.season_warning(&cond) {
        eprintln!("warning: {w}");
    }
    Ok((inst, index, errors, cond))
}

/// `LAT,LON` in degrees.
fn parse_point(s: &str) -> Result<(f64, f64), String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{s}: expected LAT,LON in degrees"))?;
    match v[..] {
        [lat, lon] if lat.is_finite() && lon.is_finite() => Ok((lat, lon)),
        _ => Err(format!("{s}: expected LAT,LON in degrees")),
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
                Some("svg") => AtFormat::Svg,
                Some("png") => AtFormat::Png,
                Some("txt") => AtFormat::Text,
                _ => {
                    return super::fail(format!(
                        "{}: cannot tell the format from the extension; give --format",
                        o.display()
                    ));
                }
            }
        }
        (None, None) => AtFormat::Text,
    };
    let (lat, lon) = match parse_point(&a.at) {
        Ok(p) => p,
        Err(e) => return super::fail(e),
    };
    let (inst, index, errors, conditions) = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for e in &errors {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    let opts = AtOptions {
        lon,
        lat,
        radius_m: a.radius,
        conditions,
        params: agkit::place::Params {
            seed: a.seed,
            density: a.density,
            ..agkit::place::Params::default()
        },
        expand_autogen: !a.no_autogen,
        limits: agkit::limits::Limits::default(),
    };
    let r = match at::at(&inst, &index, &opts) {
        Ok(r) => r,
        Err(at::AtError::Query(e)) => return super::fail(e),
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
        AtFormat::Geojson => report::at_geojson(&r),
        AtFormat::Svg => Ok(picture::to_svg(&r, picture::Words::Text).into_bytes()),
        AtFormat::Png => {
            match agkit::out::png::to_png(&picture::to_svg(&r, picture::Words::Strokes)) {
                Ok(b) => Ok(b),
                Err(e) => return super::fail(e),
            }
        }
    };
    match bytes {
        Ok(b) => super::write_output(a.output.as_deref(), &b),
        Err(e) => super::fail(e),
    }
}

fn run_check(a: CheckArgs) -> u8 {
    let (inst, index, errors, cond) = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let dsfs: usize = check::scanned_packages(&inst)
        .map(|p| check::package_dsfs(&p.path).len())
        .sum();
    let bar = super::progress_bar(dsfs, "DSFs");
    let r = check::check(&inst, &index, &errors, &cond, &|| bar.inc(1));
    bar.finish_and_clear();
    finish(a.format, &r, report::check_text, r.has_errors())
}

fn run_resolve(a: ResolveArgs) -> u8 {
    let (lat, lon) = match parse_point(&a.tile) {
        Ok(p) if (-90.0..=90.0).contains(&p.0) && (-180.0..=180.0).contains(&p.1) => p,
        Ok(_) => return super::fail(format!("--tile {}: out of range", a.tile)),
        Err(e) => return super::fail(format!("--tile {e}")),
    };
    let (_, index, errors, cond) = match open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for e in &errors {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    let tile = agkit::scenery::resolve::Tile::of(lon, lat);
    let r = index.resolve(&a.path, tile, &cond);
    finish(a.format, &r, report::resolution_text, !r.is_resolved())
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
            Err(e) => return super::fail(e),
        },
    };
    match super::write_output(None, &bytes) {
        EXIT_OK if failed => EXIT_INPUT,
        code => code,
    }
}
