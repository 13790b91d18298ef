//! `agkit agn dump` and `agkit agn build`: one AGN file to its JSON, text or
//! GeoJSON form and back.

use crate::cli::output::{self, EXIT_INPUT};
use agkit::agn::{self, Cell, ReadOptions};
use agkit::diag;
use agkit::fsutil::OutputRole;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

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

fn input_error(file: &Path, msg: impl std::fmt::Display) -> u8 {
    eprintln!("error: {}: {msg}", file.display());
    EXIT_INPUT
}

fn read_options(a: &DumpArgs) -> ReadOptions {
    ReadOptions {
        a2ge_record_size: a.a2ge_record_size.as_deref().and_then(|s| s.parse().ok()),
    }
}

pub fn dump(mut a: DumpArgs) -> u8 {
    a.output = output::output_file(a.output);
    if a.file.is_dir() {
        if a.format != DumpFormat::Geojson {
            return output::fail(format!(
                "{}: a directory is dumped as one GeoJSON collection; pass --format geojson",
                a.file.display()
            ));
        }
        if a.cell.is_some() {
            return output::fail(
                "--cell cannot be used with a directory: each file's cell comes from its name",
            );
        }
        if let Some(o) = &a.output
            && let Err(code) = output::check_output(o, OutputRole::File, &[])
        {
            return code;
        }
        return super::tree::dump_tree(&a.file, a.output.as_deref(), &read_options(&a));
    }
    if let Some(o) = &a.output
        && let Err(code) = output::check_output(o, OutputRole::File, &[&a.file])
    {
        return code;
    }
    let bytes = match output::read_file(&a.file, "an AGN file") {
        Ok(b) => b,
        Err(code) => return code,
    };
    let model = match agn::read_with(&bytes, &read_options(&a)) {
        Ok(m) => m,
        Err(e) => {
            let name = a.file.display().to_string();
            let mut d = e.to_diagnostic();
            d.message += &output::kind_hint(&bytes, agkit::check::Contents::Agn);
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
                    return output::fail(format!("{e}; GeoJSON needs the cell: pass --cell NAME"));
                }
            };
            agn::geojson::to_geojson_string(&model, cell)
        }
    };
    let what = agkit::out::count(model.chunks.len(), "chunk");
    output::write_output(a.output.as_deref(), text.as_bytes(), &what)
}

pub fn build(a: BuildArgs) -> u8 {
    use agkit::check::Contents;
    if let Err(code) = output::check_output(&a.output, OutputRole::File, &[&a.file]) {
        return code;
    }
    let bytes = match output::read_file(&a.file, "an AGN's JSON, text or GeoJSON form") {
        Ok(b) => b,
        Err(code) => return code,
    };
    let name = a.file.display().to_string();
    let forms = "an AGN's JSON, text or GeoJSON form";
    if let Some(refused) =
        output::wrong_kind(&name, &bytes, forms, &[Contents::Json, Contents::GeoJson])
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
        return output::fail(format!(
            "{}: cannot tell the input form from the extension; pass --from json|text|geojson",
            a.file.display()
        ));
    };
    let cell = match a.cell.as_deref().map(Cell::from_name).transpose() {
        Ok(c) => c,
        Err(e) => return output::fail(e),
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
    output::write_output(Some(&a.output), &bytes, &output::bytes_written(&bytes))
}
