//! `agkit apt export APT.DAT -o OUT` and `agkit apt find ID… --xplane DIR`:
//! airports as GIS layers, and where X-Plane takes an airport from.

use super::output::{EXIT_INPUT, EXIT_OK};
use agkit::apt::Airport;
use agkit::scenery::airports::{Airports, Filter};
use clap::ValueEnum;
use std::path::PathBuf;

/// Subcommands of `agkit apt`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write an apt.dat's runways, pavement, boundaries and lines as
    /// GeoJSON or a GeoPackage (layers apt_runways, apt_pavement,
    /// apt_boundaries, apt_lines).
    Export(ExportArgs),
    /// Which apt.dat of an installation each airport ID is taken from (the
    /// package's own, then the enabled packages in scenery_packs.ini order,
    /// then the default apt.dat), and which lower ones it shadows.
    Find(FindArgs),
}

/// GIS output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GisFormat {
    /// One GeoJSON FeatureCollection.
    Geojson,
    /// A GeoPackage, one table per layer.
    Gpkg,
}

/// Arguments of `agkit apt export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The apt.dat.
    pub file: PathBuf,
    /// Output file (`-` or none: standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Output format (default: from the output's extension, else geojson).
    #[arg(long, value_enum)]
    pub format: Option<GisFormat>,
    /// Only these airport IDs (repeatable).
    #[arg(long = "airport", value_name = "ID")]
    pub airports: Vec<String>,
    /// Indent the GeoJSON.
    #[arg(long)]
    pub pretty: bool,
}

/// Output style of `apt find`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FindFormat {
    /// One line per airport.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `agkit apt find`.
#[derive(Debug, clap::Args)]
pub struct FindArgs {
    /// Airport IDs (none: every airport of the files searched).
    pub ids: Vec<String>,
    /// The X-Plane folder (or its Custom Scenery folder).
    #[arg(long, value_name = "DIR")]
    pub xplane: Option<PathBuf>,
    /// A scenery package searched first (its own Earth nav data/apt.dat).
    #[arg(long, value_name = "DIR")]
    pub package: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FindFormat::Text)]
    pub format: FindFormat,
}

/// Runs an `agkit apt` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::Export(a) => export(a),
        Command::Find(a) => find(a),
    }
}

fn export(a: ExportArgs) -> u8 {
    let output = super::output::output_file(a.output.clone());
    if let Some(o) = &output
        && let Err(code) =
            super::output::check_output(o, agkit::fsutil::OutputRole::File, &[a.file.as_path()])
    {
        return code;
    }
    let name = super::output::input_name(&a.file);
    let bytes = match super::output::read_input(&a.file, "an apt.dat") {
        Ok(b) => b,
        Err(e) => return super::output::fail(e),
    };
    let c = agkit::apt::check(&bytes, &agkit::limits::Limits::default());
    let file = match c.into_result(&name) {
        Ok(f) => f,
        Err(refused) => {
            eprint!(
                "{}",
                agkit::diag::render_human(
                    &name,
                    Some(&String::from_utf8_lossy(&bytes)),
                    &refused.diagnostics
                )
            );
            eprintln!("error: {refused}");
            return EXIT_INPUT;
        }
    };
    let kept: Vec<&Airport> = file
        .airports
        .iter()
        .filter(|x| a.airports.is_empty() || a.airports.contains(&x.icao))
        .collect();
    if let Some(id) = a
        .airports
        .iter()
        .find(|id| !kept.iter().any(|k| &k.icao == *id))
    {
        return super::output::fail(format!("{name}: no airport {id}"));
    }
    let format = a.format.unwrap_or_else(|| {
        match output
            .as_ref()
            .and_then(|o| o.extension())
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("gpkg") => GisFormat::Gpkg,
            _ => GisFormat::Geojson,
        }
    });
    let written = super::output::write_output_with(output.as_deref(), |w| {
        match format {
            GisFormat::Geojson => agkit::out::airports::write_geojson(&kept, &name, a.pretty, w),
            GisFormat::Gpkg => agkit::out::airports::write_gpkg(&kept, &name, w),
        }
        .map_err(std::io::Error::other)
    });
    match written {
        Ok(()) => {
            if let Some(o) = &output {
                super::output::wrote(o, &agkit::out::count(kept.len(), "airport"));
            }
            EXIT_OK
        }
        Err(e) => super::output::fail(e),
    }
}

fn find(a: FindArgs) -> u8 {
    let install = match &a.xplane {
        Some(dir) => match agkit::scenery::install::Installation::open(dir) {
            Ok(i) => Some(i),
            Err(e) => return super::output::fail(format!("--xplane {e}")),
        },
        None => None,
    };
    if install.is_none() && a.package.is_none() {
        return super::output::fail("give --xplane DIR, --package DIR or both");
    }
    let filter = if a.ids.is_empty() {
        Filter::All
    } else {
        Filter::Ids(a.ids.clone())
    };
    let found = Airports::find(
        install.as_ref(),
        a.package.as_deref(),
        &filter,
        &agkit::limits::Limits::default(),
    );
    for (p, why) in &found.problems {
        eprintln!("warning: {}: {why}", p.display());
    }
    let missing: Vec<&String> = a.ids.iter().filter(|i| found.get(i).is_none()).collect();
    let text = match a.format {
        FindFormat::Text => {
            let mut s = String::new();
            for (id, f) in &found.airports {
                let src = found.source_of(f);
                s += &format!(
                    "{id:<8} {:<40} from {} ({}, line {})",
                    f.airport.name,
                    src.package,
                    src.path.display(),
                    f.airport.line
                );
                if !f.shadowed.is_empty() {
                    let names: Vec<&str> = f
                        .shadowed
                        .iter()
                        .map(|&k| found.sources[k].package.as_str())
                        .collect();
                    s += &format!("; shadows {}", names.join(", "));
                }
                s.push('\n');
            }
            s
        }
        FindFormat::Json => {
            let airports: Vec<serde_json::Value> = found
                .airports
                .iter()
                .map(|(id, f)| {
                    serde_json::json!({
                        "id": id,
                        "name": f.airport.name,
                        "kind": f.airport.kind.as_str(),
                        "elevation_ft": f.airport.elevation_ft,
                        "line": f.airport.line,
                        "source": found.source_of(f),
                        "shadowed": f.shadowed.iter().map(|&k| &found.sources[k]).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let v = serde_json::json!({
                "sources": found.sources,
                "airports": airports,
                "missing": missing,
            });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
    };
    if let Err(code) = super::output::emit(text.as_bytes()) {
        return code;
    }
    for m in &missing {
        eprintln!(
            "error: airport {m} is in none of the {} files searched",
            found.sources.len()
        );
    }
    if missing.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}
