//! `agkit agn dump|build|name|locate`: FSX/P3D AGN files and LOD13 cells.
//! `dump` and `build` are in [`dump`] (a folder's bulk dump in [`tree`]).

use crate::cli::output::{self, EXIT_INPUT, EXIT_OK};
use agkit::agn::{self, Cell};
use clap::ValueEnum;

mod dump;
mod tree;

/// Subcommands of `agkit agn`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print an AGN file as JSON (complete model), GeoJSON (lon/lat features)
    /// or text (one line per record); a directory is dumped as one GeoJSON
    /// FeatureCollection of every `.agn` file under it, in parallel.
    Dump(dump::DumpArgs),
    /// Write an AGN file from its JSON, text or GeoJSON form.
    Build(dump::BuildArgs),
    /// Print the AGN file name of the LOD13 cell containing a point.
    Name(NameArgs),
    /// Print the QMID u, v, level and bounds of an AGN file name.
    Locate(LocateArgs),
}

/// Arguments of `agkit agn name`.
#[derive(Debug, clap::Args)]
pub struct NameArgs {
    /// The point, latitude first, in degrees (`47.8,13.04`).
    // Several values are taken only to name a misspelt flag after a point
    // that may start with `-` (south).
    #[arg(
        value_name = "LAT,LON",
        allow_hyphen_values = true,
        num_args = 1..,
        required_unless_present_all = ["lat", "lon"],
        conflicts_with_all = ["lat", "lon"]
    )]
    at: Vec<String>,
    /// Latitude in degrees (-90..90), with --lon: another way to give the
    /// point.
    #[arg(long, allow_hyphen_values = true, requires = "lon")]
    lat: Option<f64>,
    /// Longitude in degrees (wraps), with --lat.
    #[arg(long, allow_hyphen_values = true, requires = "lat")]
    lon: Option<f64>,
}

/// Output form of `locate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LocateFormat {
    /// `key: value` lines.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `agkit agn locate`.
#[derive(Debug, clap::Args)]
pub struct LocateArgs {
    /// AGN file name (a leading directory is ignored).
    name: String,
    /// Output form.
    #[arg(long, value_enum, default_value_t = LocateFormat::Text)]
    format: LocateFormat,
}

/// Runs an `agkit agn` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Dump(a) => dump::dump(a),
        Command::Build(a) => dump::build(a),
        Command::Name(a) => name(a),
        Command::Locate(a) => locate(a),
    }
}

fn name(a: NameArgs) -> u8 {
    let (lat, lon) = match (&a.at[..], a.lat, a.lon) {
        // The point may start with `-` (south), so a misspelt flag lands here.
        ([at, _, ..], _, _) if at.starts_with('-') => {
            return output::fail(format!(
                "unexpected argument '{at}': give the point as LAT,LON, or --lat LAT --lon LON"
            ));
        }
        ([_, extra, ..], _, _) => {
            return output::fail(format!(
                "unexpected argument '{extra}': give the point as LAT,LON, or --lat LAT --lon LON"
            ));
        }
        ([at], _, _) => match crate::cli::coords::parse(at, "agn name", false) {
            Ok(p) => (p.lat, p.lon),
            Err(e) => return output::fail(e),
        },
        ([], Some(lat), Some(lon)) => (lat, lon),
        _ => return output::fail("give the point as LAT,LON (or --lat and --lon)"),
    };
    match Cell::containing(lat, lon) {
        Ok(c) => {
            println!("{}", c.name());
            EXIT_OK
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_INPUT
        }
    }
}

fn locate(a: LocateArgs) -> u8 {
    let cell = match Cell::from_name(&a.name) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    let b = cell.bounds();
    match a.format {
        LocateFormat::Text => {
            println!("name: {}", cell.name());
            println!("u: {}", cell.u);
            println!("v: {}", cell.v);
            println!("level: {}", agn::cell::LEVEL);
            println!("north: {}", b.north);
            println!("south: {}", b.south);
            println!("west: {}", b.west);
            println!("east: {}", b.east);
        }
        LocateFormat::Json => {
            let v = serde_json::json!({
                "name": cell.name(),
                "u": cell.u,
                "v": cell.v,
                "level": agn::cell::LEVEL,
                "north": b.north,
                "south": b.south,
                "west": b.west,
                "east": b.east,
            });
            match serde_json::to_string_pretty(&v) {
                Ok(s) => println!("{s}"),
                Err(e) => return output::fail(e),
            }
        }
    }
    EXIT_OK
}
