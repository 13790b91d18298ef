//! `agkit check [--format text|json] [--max-per-code N] [-q] PATH...`

use super::output::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::diag::{self, Severity, cap::PerCode};
use agkit::out::count;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

// One implementation, shared with the previewer's diagnostics panel.
use agkit::check::{ArtKind, DrapedKind, FileKind, has_autogen_header};

/// Output style of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style reports with the source line and a caret (`human` is
    /// another name for it).
    #[value(alias = "human")]
    Text,
    /// One JSON array of {file, line, column, severity, code, message},
    /// every diagnostic (no cap).
    Json,
}

/// Arguments of `agkit check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Show at most N diagnostics of each code (`all` for every one); the
    /// rest are counted, and a table per code ends the report.
    #[arg(long, value_name = "N", default_value = "20", value_parser = parse_cap)]
    max_per_code: usize,
    /// Print only the table per code and the summary line, no report per
    /// diagnostic.
    #[arg(short, long)]
    quiet: bool,
    /// Files or directories, searched recursively for files named .agp .agb
    /// .ags .agn .dsf .obj .fac .for .pol .lin .str .ter .net .png .dds or
    /// starting with an autogen header (`A`/`I`, `1000`,
    /// `AG_POINT|AG_BLOCK|AG_STRING`), an OBJ, FACADE, FOREST,
    /// DRAPED_POLYGON, LINE_PAINT, OBJECT_STRING, TERRAIN or ROADS header,
    /// an apt.dat (by name, or its header), or the DSF magic; `-` reads
    /// standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// A library package or Custom Scenery folder to look up the library
    /// paths of the art assets name (repeatable; searched in order).
    #[arg(long = "library", value_name = "DIR")]
    library: Vec<PathBuf>,
    /// Look up the library paths of the art assets name across this
    /// X-Plane installation (the X-Plane folder or its Custom Scenery
    /// folder). A package checked inside an installation's Custom Scenery
    /// folder is looked up there without it, unless --library is given.
    #[arg(long, value_name = "DIR", conflicts_with = "library")]
    xplane: Option<PathBuf>,
}

/// `--max-per-code`: a number, or `all`.
fn parse_cap(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(usize::MAX);
    }
    s.parse()
        .map_err(|_| format!("`{s}` is not a number of diagnostics (or `all`)"))
}

const EXTENSIONS: [&str; 15] = [
    "agp", "agb", "ags", "agn", "dsf", "obj", "fac", "for", "pol", "lin", "str", "ter", "net",
    "png", "dds",
];

/// Expands directories into the files under them that agkit reads: by
/// extension or, whatever the name, by the first bytes (autogen header or
/// DSF magic), skipping agkit's own temporary files (what a killed write
/// leaves, see [`agkit::fsutil::walk`]). Named files and `-` (standard
/// input) are taken as they are. `Err` holds the exit status, the message
/// printed (see [`super::walk::gather`]).
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, u8> {
    super::walk::gather(
        paths,
        |f| has_known_extension(f) || agkit::apt::is_apt_name(f) || sniff(f).is_some(),
        "file to check (.agp .agb .ags .agn .dsf .obj .fac .for .pol .lin .str .ter .net .png \
         .dds, apt.dat, or an autogen, X-Plane art, apt.dat or DSF header)",
    )
}

fn has_known_extension(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// The first bytes of a file, at most enough for the autogen header.
fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    agkit::fsutil::open_to_sniff(path, "a file to check")
        .ok()?
        .take(256)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

/// What the first bytes of a file say it is, whatever its name.
fn sniff(path: &Path) -> Option<FileKind> {
    let bytes = head(path)?;
    if bytes.starts_with(b"XPLNEDSF") {
        Some(FileKind::Dsf)
    } else if has_autogen_header(&bytes) {
        Some(FileKind::Text)
    } else {
        ArtKind::sniff(&bytes)
            .map(FileKind::Art)
            .or_else(|| DrapedKind::sniff(&bytes).map(FileKind::Draped))
            .or_else(|| agkit::apt::sniff(&bytes).then_some(FileKind::Apt))
    }
}

/// True for an autogen text file: named .agp, .agb or .ags, or starting with
/// an autogen header.
pub fn is_autogen_text(path: &Path) -> bool {
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "agp" | "agb" | "ags"));
    named || head(path).is_some_and(|b| has_autogen_header(&b))
}

/// Files checked in parallel per batch: results of a batch are printed in
/// path order before the next batch starts, so output is deterministic and
/// memory stays proportional to one batch of diagnostics (sources are
/// dropped as soon as their file is rendered).
const BATCH: usize = 256;

/// The outcome of checking one file, ready to print.
struct Outcome {
    name: String,
    errors: usize,
    warnings: usize,
    /// An I/O error message, if the file could not be read.
    io_error: Option<String>,
    /// For the text report: the source the diagnostics point into and the
    /// diagnostics (rendered in path order, within the cap per code).
    source: Option<String>,
    diags: Vec<diag::Diagnostic>,
    json: Vec<diag::JsonDiagnostic>,
}

/// Where the art files name is looked for: beside each file, and in the
/// libraries `--library` or `--xplane` give; without either, in the
/// installation a path checked is inside (said on stderr), if any.
fn art_scenery(args: &Args) -> Result<agkit::scenery::Scenery, String> {
    use agkit::scenery::{Scenery, install::Installation, resolve::Conditions};
    let found = || {
        args.paths
            .iter()
            .filter(|p| !super::output::is_stdin(p))
            .find_map(|p| Installation::holding(p))
    };
    match (&args.xplane, args.library.is_empty()) {
        (Some(dir), _) => {
            Scenery::installation(dir, Conditions::default()).map_err(|e| format!("--xplane {e}"))
        }
        (None, true) if let Some(dir) = found() => {
            eprintln!(
                "note: library paths are looked up in the X-Plane installation {} (the packages \
                 checked are in its Custom Scenery); give --xplane or --library to choose",
                dir.display()
            );
            Scenery::installation(&dir, Conditions::default())
                .map_err(|e| format!("the installation found above the paths: {e}"))
        }
        (None, false) => Scenery::packages(None, &args.library, Conditions::default())
            .map_err(|e| format!("--library {e}")),
        (None, true) => Ok(Scenery::without_libraries(Conditions::default())),
    }
}

fn check_file(
    file: &Path,
    format: Format,
    art: &agkit::scenery::Scenery,
    definitions: &std::collections::BTreeMap<PathBuf, Vec<diag::Diagnostic>>,
) -> Outcome {
    let name = super::output::input_name(file);
    let mut out = Outcome {
        name: name.clone(),
        errors: 0,
        warnings: 0,
        io_error: None,
        source: None,
        diags: Vec::new(),
        json: Vec::new(),
    };
    let bytes = match super::output::read_input_mapped(file, "a file to check") {
        Ok(b) => b,
        Err(e) => {
            out.io_error = Some(e);
            return out;
        }
    };
    let (source, mut diags) = art.check_bytes(
        file,
        &bytes,
        if super::output::is_stdin(file) {
            agkit::scenery::ArtCheck::Skipped
        } else {
            agkit::scenery::ArtCheck::Named
        },
    );
    drop(bytes);
    // A package's DSF: what its definitions came to.
    diags.extend(definitions.get(file).into_iter().flatten().cloned());
    out.errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    out.warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    match format {
        Format::Text => {
            // The source is kept only when there is something to point at.
            if !diags.is_empty() {
                out.source = source;
            }
            out.diags = diags;
        }
        Format::Json => out.json = diag::to_json(&name, source.as_deref(), &diags),
    }
    out
}

/// The DSFs among `files` that are tiles of a package (`<package>/Earth
/// nav data/<folder>/<tile>.dsf`, or any of an installation's packages),
/// their definitions resolved and followed as `place` resolves them
/// ([`agkit::scenery::Scenery::check_definitions`]): what each DSF's
/// report gets besides its own checks.
fn package_definitions(
    files: &[PathBuf],
    art: &agkit::scenery::Scenery,
) -> std::collections::BTreeMap<PathBuf, Vec<diag::Diagnostic>> {
    use agkit::scenery::package::in_package_layout;
    let dsfs: Vec<PathBuf> = files
        .iter()
        .filter(|f| {
            f.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf"))
                && (in_package_layout(f)
                    || art.install().is_some_and(|i| i.package_of(f).is_some()))
        })
        .cloned()
        .collect();
    if dsfs.is_empty() {
        return Default::default();
    }
    // The files checked here: their own reports name what they name.
    let checked = files.iter().filter_map(|f| f.canonicalize().ok()).collect();
    art.check_definitions(&dsfs, &checked)
}

/// The exit status after a failed write to standard output.
fn write_failed(e: &std::io::Error) -> u8 {
    super::output::fail(format!("writing to standard output: {e}"))
}

/// Runs `agkit check`: files are checked in parallel (rayon; set
/// `RAYON_NUM_THREADS` to limit threads), reported in path order, one bad
/// file never stops the rest. A progress bar is drawn only when stderr is a
/// terminal.
pub fn run(args: Args) -> u8 {
    use rayon::prelude::*;
    use serde::ser::{SerializeSeq, Serializer};
    use std::io::Write;

    let start = std::time::Instant::now();
    let bulk = args.paths.iter().any(|p| p.is_dir());
    let files = match collect(&args.paths) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let art = match art_scenery(&args) {
        Ok(a) => a,
        Err(e) => return super::output::fail(e),
    };
    let definitions = package_definitions(&files, &art);
    let bar = super::output::progress_bar(files.len(), "files");
    let mut stdout = std::io::BufWriter::new(super::output::stdout());
    let mut json = serde_json::Serializer::pretty(Vec::new());
    let mut seq = match args.format {
        Format::Json => match json.serialize_seq(None) {
            Ok(s) => Some(s),
            Err(e) => return super::output::fail(e),
        },
        Format::Text => None,
    };
    let mut cap = PerCode::new(if args.quiet { 0 } else { args.max_per_code });
    let (mut errors, mut warnings, mut failed, mut io_failed) = (0usize, 0usize, 0usize, false);
    for batch in files.chunks(BATCH) {
        let outcomes: Vec<Outcome> = batch
            .par_iter()
            .map(|f| {
                let o = check_file(f, args.format, &art, &definitions);
                bar.inc(1);
                o
            })
            .collect();
        for o in outcomes {
            if let Some(e) = &o.io_error {
                bar.suspend(|| eprintln!("error: {e}"));
                io_failed = true;
                failed += 1;
                continue;
            }
            errors += o.errors;
            warnings += o.warnings;
            failed += usize::from(o.errors > 0);
            if let Some(seq) = seq.as_mut() {
                for j in &o.json {
                    if let Err(e) = seq.serialize_element(j) {
                        return super::output::fail(e);
                    }
                }
            } else if !o.diags.is_empty() {
                let shown = cap.filter(&o.diags);
                let text = diag::render_human(&o.name, o.source.as_deref(), &shown);
                let written = bar.suspend(|| stdout.write_all(text.as_bytes()));
                if let Err(e) = written {
                    return write_failed(&e);
                }
            }
        }
    }
    bar.finish_and_clear();
    if let Some(seq) = seq {
        if let Err(e) = seq.end() {
            return super::output::fail(e);
        }
        let mut text = json.into_inner();
        text.push(b'\n');
        if let Err(e) = stdout.write_all(&text) {
            return write_failed(&e);
        }
    }
    // The table per code, when some were not shown.
    if args.format == Format::Text && (args.quiet || cap.hidden() > 0) {
        let more = if args.quiet {
            String::new()
        } else {
            cap.more()
        };
        if let Err(e) = stdout.write_all((more + &cap.table()).as_bytes()) {
            return write_failed(&e);
        }
    }
    if let Err(e) = stdout.flush() {
        return write_failed(&e);
    }
    let summary = format!(
        "checked {}: {}, {}",
        count(files.len(), "file"),
        count(errors, "error"),
        count(warnings, "warning"),
    );
    if bulk {
        // Bulk runs also say how many files failed and how long it took.
        eprintln!(
            "{summary} ({} failed) in {:.2} s",
            count(failed, "file"),
            start.elapsed().as_secs_f64()
        );
    } else if args.format == Format::Text {
        eprintln!("{summary}");
    }
    if io_failed {
        EXIT_USAGE
    } else if errors > 0 {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
