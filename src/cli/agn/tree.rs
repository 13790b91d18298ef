//! `agkit agn dump DIR --format geojson`: every `.agn` file under a folder
//! as one GeoJSON FeatureCollection, read in parallel and streamed.

use crate::cli::output::{self, EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::agn::{self, Cell, ReadOptions};
use agkit::diag;
use agkit::out::count;
use std::path::{Path, PathBuf};

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
    let max = agkit::limits::Limits::default().max_input_bytes;
    let bytes = match agkit::fsutil::read_file(path, "an AGN file", max) {
        Ok(b) => b,
        Err(e) => {
            out.io_error = true;
            out.errors = 1;
            out.report = format!("error: {e}\n");
            return out;
        }
    };
    match (cell, agn::read::read_located(&bytes, opts)) {
        (Err(e), _) => diags.push(Diagnostic::new(
            Severity::Error,
            agkit::agn::rules::codes::NOT_A_CELL_NAME,
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
                        agkit::agn::rules::codes::NOT_WRITABLE,
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
/// `.agn` file under `dir`, to `output` or stdout; one bad file never stops
/// the rest.
pub fn dump_tree(dir: &Path, output: Option<&Path>, opts: &ReadOptions) -> u8 {
    let start = std::time::Instant::now();
    let files: Vec<PathBuf> = match crate::cli::walk::gather(
        &[dir.to_path_buf()],
        |f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("agn")),
        "AGN file (*.agn)",
    ) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let bar = output::progress_bar(files.len(), "AGN files");
    let result = output::write_output_with(output, |w| stream_tree(dir, &files, opts, &bar, w));
    bar.finish_and_clear();
    let t = match result {
        Ok(t) => t,
        Err(e) => return output::fail(e),
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
