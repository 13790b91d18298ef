//! `agkit scenery conflicts --xplane DIR [--tile LAT,LON | --airport ID |
//! --bbox W,S,E,N] [--format text|json|geojson|gpkg] [-o FILE] [--fix DIR]`: what the enabled
//! packages place on the runways, helipads and pavement of the
//! installation's airports, who placed it and the exclusion that removes
//! it; `--fix` writes those exclusions as an overlay package. Exit 1 when
//! an error is found.

use super::output::{self, EXIT_INPUT, EXIT_OK};
use agkit::out::conflicts as view;
use agkit::place::conflicts::fix;
use agkit::place::conflicts::{ConflictOptions, Scope};
use std::path::{Path, PathBuf};

/// Output of `scenery conflicts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Findings for people, as a compiler prints them.
    Text,
    /// `{"airports", "findings", "missing_exclusions", "excluded", …}`.
    Json,
    /// One FeatureCollection: the airports' runways, pavement, boundaries
    /// and lines, then the findings (`cnf_items`, `cnf_fixes`,
    /// `cnf_missing`), each feature with its `layer`.
    Geojson,
    /// A GeoPackage with one table per layer of `geojson`.
    Gpkg,
}

/// Arguments of `agkit scenery conflicts`.
#[derive(Debug, clap::Args)]
pub struct ConflictsArgs {
    #[command(flatten)]
    install: super::scenery::Install,
    /// Only the airports whose reference point is in the tile of this
    /// point: latitude,longitude in degrees.
    #[arg(long, value_name = "LAT,LON", allow_hyphen_values = true, conflicts_with_all = ["airport", "bbox"])]
    tile: Option<String>,
    /// Only the airport of this ID.
    #[arg(long, value_name = "ID", conflicts_with = "bbox")]
    airport: Option<String>,
    /// Only the airports whose reference point is in this box: west,
    /// south, east, north in degrees.
    #[arg(long, value_name = "W,S,E,N", allow_hyphen_values = true)]
    bbox: Option<String>,
    /// Do not place autogen uses (test the uses only, not what they place).
    #[arg(long)]
    no_autogen: bool,
    /// Output format (default: by the extension of `-o`: `.gpkg`,
    /// `.geojson`, `.json`; else text).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the report to this file instead of standard output (`-` is
    /// standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Indent the JSON and GeoJSON.
    #[arg(long)]
    pretty: bool,
    /// Write an overlay package excluding what was found into this folder
    /// (which must not exist yet, or be empty).
    #[arg(long, value_name = "DIR")]
    fix: Option<PathBuf>,
    /// Write one picture per airport looked at into this folder (made if
    /// missing): `ID.svg` and `ID.png`, its runways, pavement and
    /// boundary with each finding marked by its code.
    #[arg(long, value_name = "DIR")]
    picture: Option<PathBuf>,
}

fn scope(a: &ConflictsArgs) -> Result<Scope, String> {
    if let Some(t) = &a.tile {
        let p = super::coords::parse(t, "--tile", false)?;
        return Ok(Scope::Tile(agkit::dsf::Tile::of(p.lon, p.lat)));
    }
    if let Some(id) = &a.airport {
        return Ok(Scope::Airport(id.trim().to_string()));
    }
    if let Some(b) = &a.bbox {
        let v: Vec<f64> = b
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("--bbox {b}: give west,south,east,north in degrees"))?;
        let [w, s, e, n] = v[..] else {
            return Err(format!("--bbox {b}: give west,south,east,north in degrees"));
        };
        if !(w < e
            && s < n
            && (-180.0..=180.0).contains(&w)
            && (-180.0..=180.0).contains(&e)
            && (-90.0..=90.0).contains(&s)
            && (-90.0..=90.0).contains(&n))
        {
            return Err(format!(
                "--bbox {b}: west < east and south < north, in range"
            ));
        }
        return Ok(Scope::Bbox([w, s, e, n]));
    }
    Ok(Scope::All)
}

/// The format asked for, else the one `-o`'s extension names, else text.
fn format_of(a: &ConflictsArgs, output: Option<&Path>) -> Format {
    a.format.unwrap_or_else(|| {
        match output
            .and_then(Path::extension)
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("gpkg") => Format::Gpkg,
            Some("geojson") => Format::Geojson,
            Some("json") => Format::Json,
            _ => Format::Text,
        }
    })
}

/// Writes `ID.svg` and `ID.png` of every airport of `r` into `dir`
/// ([`agkit::out::airport_picture`]), a line on stderr for each.
fn write_pictures(dir: &Path, r: &agkit::place::conflicts::ConflictReport) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    for (k, info) in r.airports.iter().enumerate() {
        // An ID is letters and digits; anything else is kept out of the
        // file name.
        let name: String = info
            .id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let Some(svg) = agkit::out::airport_picture::airport_svg(r, k) else {
            continue;
        };
        let svg_file = dir.join(format!("{name}.svg"));
        agkit::fsutil::write_atomic(&svg_file, svg.as_bytes())
            .map_err(|e| format!("{}: {e}", svg_file.display()))?;
        if let Some(png) = agkit::out::airport_picture::airport_png(r, k) {
            let png = png.map_err(|e| e.to_string())?;
            let png_file = dir.join(format!("{name}.png"));
            agkit::fsutil::write_atomic(&png_file, &png)
                .map_err(|e| format!("{}: {e}", png_file.display()))?;
        }
        output::wrote(&svg_file, &format!("{} and its PNG", info.id));
    }
    Ok(())
}

/// Runs `agkit scenery conflicts`.
pub fn run(a: ConflictsArgs) -> u8 {
    let scope = match scope(&a) {
        Ok(s) => s,
        Err(e) => return output::fail(e),
    };
    let out = output::output_file(a.output.clone());
    if let Some(o) = &out
        && let Err(code) = output::check_output(o, agkit::fsutil::OutputRole::File, &[])
    {
        return code;
    }
    if let Some(dir) = &a.fix
        && let Err(e) = fix::check_fix_folder(dir)
    {
        return output::fail(format!("--fix {e}"));
    }
    let scenery = match super::scenery::open(&a.install) {
        Ok(x) => x,
        Err(code) => return code,
    };
    for e in scenery.load_errors() {
        eprintln!("warning: {}: {}", e.package, e.error);
    }
    let opts = ConflictOptions {
        scope,
        params: agkit::place::Params::default(),
        expand_autogen: !a.no_autogen,
    };
    let r = match scenery.conflicts(&opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_INPUT;
        }
    };
    for w in &r.warnings {
        eprintln!("warning: {w}");
    }
    let mut notes = String::new();
    if let Some(dir) = &a.fix {
        match fix::write_fix(dir, &r, scenery.install().map(|i| i.custom.as_path())) {
            Ok(w) => notes = view::fix_notes(&w),
            Err(e) => return output::fail(e),
        }
    }
    if let Some(dir) = &a.picture
        && let Err(e) = write_pictures(dir, &r)
    {
        return output::fail(format!("--picture {}: {e}", dir.display()));
    }
    let format = format_of(&a, out.as_deref());
    if format != Format::Text {
        eprint!("{notes}");
    }
    let written = output::write_output_with(out.as_deref(), |w| match format {
        Format::Text => {
            let mut t = view::text(&r);
            t.push_str(&notes);
            w.write_all(output::terminal_safe(&t).as_bytes())
        }
        Format::Json => {
            let written = if a.pretty {
                serde_json::to_writer_pretty(&mut *w, &r)
            } else {
                serde_json::to_writer(&mut *w, &r)
            };
            written
                .map_err(std::io::Error::other)
                .and_then(|()| w.write_all(b"\n"))
        }
        Format::Geojson => view::write_geojson(&r, a.pretty, w).map_err(std::io::Error::other),
        Format::Gpkg => view::write_gpkg(&r, w).map_err(std::io::Error::other),
    });
    match written {
        Ok(()) => {
            if let Some(o) = &out {
                output::wrote(o, &agkit::out::count(r.findings.len(), "finding"));
            }
            if r.has_errors() { EXIT_INPUT } else { EXIT_OK }
        }
        Err(e) => output::fail(e),
    }
}
