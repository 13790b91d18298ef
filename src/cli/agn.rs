//! `agkit agn dump|build|name|locate`: FSX/P3D AGN files and LOD13 cells.

use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::agn::{self, Cell, ReadOptions};
use agkit::diag;
use agkit::out::count;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Subcommands of `agkit agn`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print an AGN file as JSON (complete model), GeoJSON (lon/lat features)
    /// or text (one line per record); a directory is dumped as one GeoJSON
    /// FeatureCollection of every `.agn` file under it, in parallel.
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
    /// The AGN file, or a directory searched recursively for `.agn` files
    /// (then only `--format geojson`; each file's cell comes from its name).
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
        Command::Dump(mut a) => {
            a.output = super::output_file(a.output);
            dump(a)
        }
        Command::Build(a) => build(a),
        Command::Name(a) => name(a),
        Command::Locate(a) => locate(a),
    }
}

fn input_error(file: &Path, msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {}: {msg}", file.display());
    EXIT_INPUT
}

fn read_options(a: &DumpArgs) -> ReadOptions {
    ReadOptions {
        a2ge_record_size: a.a2ge_record_size.as_deref().and_then(|s| s.parse().ok()),
    }
}

fn dump(a: DumpArgs) -> u8 {
    if a.file.is_dir() {
        return dump_tree(&a);
    }
    let bytes = match std::fs::read(&a.file) {
        Ok(b) => b,
        Err(e) => return super::fail(format!("{}: {e}", a.file.display())),
    };
    let model = match agn::read_with(&bytes, &read_options(&a)) {
        Ok(m) => m,
        Err(e) => {
            let name = a.file.display().to_string();
            let mut d = e.to_diagnostic();
            d.message += &super::kind_hint(&bytes, agkit::check::Contents::Agn);
            eprint!("{}", diag::render_human(&name, None, &[d]));
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
    super::write_output(a.output.as_deref(), text.as_bytes())
}

fn build(a: BuildArgs) -> u8 {
    use agkit::check::Contents;
    let bytes = match std::fs::read(&a.file) {
        Ok(b) => b,
        Err(e) => return super::fail(format!("{}: {e}", a.file.display())),
    };
    let name = a.file.display().to_string();
    let forms = "an AGN's JSON, text or GeoJSON form";
    if let Some(refused) =
        super::wrong_kind(&name, &bytes, forms, &[Contents::Json, Contents::GeoJson])
    {
        eprintln!("{refused}");
        return EXIT_INPUT;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return input_error(&a.file, "not UTF-8 text");
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
    super::write_output(Some(&a.output), &bytes)
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

/// What one file of a bulk dump produced, ready to write.
#[derive(Default)]
struct FileDump {
    /// The file's features as compact JSON objects joined by `",\n"`.
    features: String,
    /// Number of features.
    count: usize,
    errors: usize,
    warnings: usize,
    /// The file could not be read at all.
    io_error: bool,
    /// Rendered diagnostics (errors and warnings) for stderr.
    report: String,
}

/// Totals of a bulk dump.
#[derive(Default)]
struct Totals {
    features: usize,
    errors: usize,
    warnings: usize,
    failed: usize,
    io_failed: bool,
}

/// Reads, checks and converts one file of a bulk dump. Never fails: every
/// problem ends up in the returned report.
fn dump_one(path: &Path, rel: &str, opts: &ReadOptions) -> FileDump {
    use agkit::diag::{Diagnostic, Location, Severity};
    let name = path.display().to_string();
    let mut out = FileDump::default();
    let mut diags = Vec::new();
    let cell = Cell::from_name(&path.to_string_lossy());
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            out.io_error = true;
            out.errors = 1;
            out.report = format!("error: {name}: {e}\n");
            return out;
        }
    };
    match (cell, agn::read::read_located(&bytes, opts)) {
        (Err(e), _) => diags.push(Diagnostic::new(
            Severity::Error,
            "AGN011",
            format!("{e}; a bulk dump places each file by its cell name"),
            Location::File,
        )),
        (_, Err(e)) => diags.push(e.to_diagnostic()),
        (Ok(cell), Ok((model, located))) => {
            drop(bytes);
            diags = agn::check_model(&model, Some(&located));
            let file = serde_json::Value::from(rel);
            let cell_name = serde_json::Value::from(cell.name());
            let mut parts = Vec::new();
            for mut f in agn::geojson::features(&model, cell) {
                let props = f.properties.get_or_insert_with(Default::default);
                props.insert("file".into(), file.clone());
                props.insert("agn_cell".into(), cell_name.clone());
                match serde_json::to_string(&f) {
                    Ok(s) => parts.push(s),
                    Err(e) => diags.push(Diagnostic::new(
                        Severity::Error,
                        "AGN020",
                        format!("cannot write feature: {e}"),
                        Location::File,
                    )),
                }
            }
            out.count = parts.len();
            out.features = parts.join(",\n");
        }
    }
    out.errors = diags.iter().filter(|d| d.is_error()).count();
    out.warnings = diags.len() - out.errors;
    if !diags.is_empty() {
        out.report = diag::render_human(&name, None, &diags);
    }
    out
}

/// Path of `file` below `root`, with `/` separators.
fn relative(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// Streams every batch of files as features into `w`: files are read and
/// converted in parallel, a batch at a time, and written in path order, so
/// the output is deterministic and memory holds one batch (a few files per
/// thread), never the whole tree.
fn stream_tree(
    root: &Path,
    files: &[PathBuf],
    opts: &ReadOptions,
    bar: &indicatif::ProgressBar,
    w: &mut dyn std::io::Write,
) -> std::io::Result<Totals> {
    use rayon::prelude::*;
    let batch = rayon::current_num_threads().max(1) * 4;
    let mut t = Totals::default();
    let mut first = true;
    w.write_all(b"{\"type\": \"FeatureCollection\", \"features\": [\n")?;
    for group in files.chunks(batch) {
        let outs: Vec<FileDump> = group
            .par_iter()
            .map(|f| {
                let o = dump_one(f, &relative(root, f), opts);
                bar.inc(1);
                o
            })
            .collect();
        for o in outs {
            if !o.report.is_empty() {
                bar.suspend(|| eprint!("{}", o.report));
            }
            t.features += o.count;
            t.errors += o.errors;
            t.warnings += o.warnings;
            t.failed += usize::from(o.errors > 0);
            t.io_failed |= o.io_error;
            if o.count > 0 {
                if !first {
                    w.write_all(b",\n")?;
                }
                w.write_all(o.features.as_bytes())?;
                first = false;
            }
        }
    }
    w.write_all(b"\n]}\n")?;
    Ok(t)
}

/// `agkit agn dump DIR --format geojson`: one FeatureCollection of every
/// `.agn` file under `DIR`; one bad file never stops the rest.
fn dump_tree(a: &DumpArgs) -> u8 {
    if a.format != DumpFormat::Geojson {
        return super::fail(format!(
            "{}: a directory is dumped as one GeoJSON collection; pass --format geojson",
            a.file.display()
        ));
    }
    if a.cell.is_some() {
        return super::fail(
            "--cell cannot be used with a directory: each file's cell comes from its name",
        );
    }
    let start = std::time::Instant::now();
    let files: Vec<PathBuf> = match super::check::collect(std::slice::from_ref(&a.file)) {
        Ok(f) => f
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("agn")))
            .collect(),
        Err(e) => return super::fail(e),
    };
    let opts = read_options(a);
    let bar = super::progress_bar(files.len(), "AGN files");
    let result = super::write_output_with(a.output.as_deref(), |w| {
        stream_tree(&a.file, &files, &opts, &bar, w)
    });
    bar.finish_and_clear();
    let t = match result {
        Ok(t) => t,
        Err(e) => return super::fail(e),
    };
    eprintln!(
        "dumped {}: {}, {}, {} ({} failed) in {:.2} s",
        count(files.len(), "AGN file"),
        count(t.features, "feature"),
        count(t.errors, "error"),
        count(t.warnings, "warning"),
        count(t.failed, "file"),
        start.elapsed().as_secs_f64()
    );
    if t.io_failed {
        EXIT_USAGE
    } else if t.errors > 0 {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
