//! `agkit agn dump|build|name|locate`: FSX/P3D AGN files and LOD13 cells.

use super::{EXIT_INPUT, EXIT_OK};
use agkit::agn::{self, Cell, ReadOptions};
use agkit::diag;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Subcommands of `agkit agn`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print an AGN file as JSON (complete model), GeoJSON (lon/lat features)
    /// or text (one line per record).
    Dump(DumpArgs),
    /// Write an AGN file from its JSON, text or GeoJSON form.
    Build(BuildArgs),
    /// Print the AGN file name of the LOD13 cell containing a point.
    Name(NameArgs),
    /// Print the QMID u, v, level and bounds of an AGN file name.
    Locate(LocateArgs),
}

/// Output form of `dump`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DumpFormat {
    /// Complete model of every chunk; `build` reproduces the file from it.
    Json,
    /// FeatureCollection in lon/lat, one feature per record.
    Geojson,
    /// One line per chunk header or record; `build` accepts it.
    Text,
}

/// Arguments of `agkit agn dump`.
#[derive(Debug, clap::Args)]
pub struct DumpArgs {
    /// The AGN file.
    file: PathBuf,
    /// Output form.
    #[arg(long, value_enum, default_value_t = DumpFormat::Text)]
    format: DumpFormat,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// LOD13 cell for GeoJSON when the file name is not a cell name.
    #[arg(long, value_name = "NAME")]
    cell: Option<String>,
    /// Record size of A2GE chunks whose length fits both 16 and 24 bytes.
    #[arg(long, value_parser = ["16", "24"])]
    a2ge_record_size: Option<String>,
}

/// Input form of `build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BuildFormat {
    /// The JSON model (`dump --format json`).
    Json,
    /// The text form (`dump --format text`).
    Text,
    /// A GeoJSON FeatureCollection.
    Geojson,
}

/// Arguments of `agkit agn build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// Input: .json, .txt or .geojson.
    file: PathBuf,
    /// The AGN file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Input form (default: from the extension).
    #[arg(long, value_enum)]
    from: Option<BuildFormat>,
    /// LOD13 cell for GeoJSON input (default: the collection's `agn_cell`,
    /// else the features' extent).
    #[arg(long, value_name = "NAME")]
    cell: Option<String>,
}

/// Arguments of `agkit agn name`.
#[derive(Debug, clap::Args)]
pub struct NameArgs {
    /// Latitude in degrees (-90..90).
    #[arg(long, allow_hyphen_values = true)]
    lat: f64,
    /// Longitude in degrees (wraps).
    #[arg(long, allow_hyphen_values = true)]
    lon: f64,
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
        Command::Dump(a) => dump(a),
        Command::Build(a) => build(a),
        Command::Name(a) => name(a),
        Command::Locate(a) => locate(a),
    }
}

fn input_error(file: &Path, msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {}: {msg}", file.display());
    EXIT_INPUT
}

fn emit(output: Option<&Path>, text: &str) -> u8 {
    match output {
        Some(p) => match agkit::fsutil::write_atomic(p, text.as_bytes()) {
            Ok(()) => EXIT_OK,
            Err(e) => super::fail(format!("{}: {e}", p.display())),
        },
        None => {
            print!("{text}");
            EXIT_OK
        }
    }
}

fn dump(a: DumpArgs) -> u8 {
    let bytes = match std::fs::read(&a.file) {
        Ok(b) => b,
        Err(e) => return super::fail(format!("{}: {e}", a.file.display())),
    };
    let opts = ReadOptions {
        a2ge_record_size: a.a2ge_record_size.as_deref().and_then(|s| s.parse().ok()),
    };
    let model = match agn::read_with(&bytes, &opts) {
        Ok(m) => m,
        Err(e) => {
            let name = a.file.display().to_string();
            eprint!("{}", diag::render_human(&name, None, &[e.to_diagnostic()]));
            return EXIT_INPUT;
        }
    };
    let text = match a.format {
        DumpFormat::Json => agn::json::to_json(&model),
        DumpFormat::Text => agn::text::to_text(&model),
        DumpFormat::Geojson => {
            let cell = match &a.cell {
                Some(n) => Cell::from_name(n),
                None => Cell::from_name(&a.file.to_string_lossy()),
            };
            let cell = match cell {
                Ok(c) => c,
                Err(e) => {
                    return super::fail(format!("{e}; GeoJSON needs the cell: pass --cell NAME"));
                }
            };
            agn::geojson::to_geojson_string(&model, cell)
        }
    };
    emit(a.output.as_deref(), &text)
}

fn build(a: BuildArgs) -> u8 {
    let text = match std::fs::read_to_string(&a.file) {
        Ok(t) => t,
        Err(e) => return super::fail(format!("{}: {e}", a.file.display())),
    };
    let from = a.from.or_else(|| {
        match a
            .file
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("json") => Some(BuildFormat::Json),
            Some("txt") | Some("text") => Some(BuildFormat::Text),
            Some("geojson") => Some(BuildFormat::Geojson),
            _ => None,
        }
    });
    let Some(from) = from else {
        return super::fail(format!(
            "{}: cannot tell the input form from the extension; pass --from json|text|geojson",
            a.file.display()
        ));
    };
    let cell = match a.cell.as_deref().map(Cell::from_name).transpose() {
        Ok(c) => c,
        Err(e) => return super::fail(e),
    };
    let model = match from {
        BuildFormat::Json => agn::json::from_json(&text),
        BuildFormat::Text => agn::text::from_text(&text).map_err(|e| e.to_string()),
        BuildFormat::Geojson => agn::geojson::from_geojson(&text, cell).map(|(m, _)| m),
    };
    let model = match model {
        Ok(m) => m,
        Err(e) => return input_error(&a.file, e),
    };
    let bytes = match agn::write(&model) {
        Ok(b) => b,
        Err(e) => return input_error(&a.file, format!("cannot write AGN: {}", e.message)),
    };
    match agkit::fsutil::write_atomic(&a.output, &bytes) {
        Ok(()) => EXIT_OK,
        Err(e) => super::fail(format!("{}: {e}", a.output.display())),
    }
}

fn name(a: NameArgs) -> u8 {
    match Cell::containing(a.lat, a.lon) {
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
                Err(e) => return super::fail(e),
            }
        }
    }
    EXIT_OK
}
