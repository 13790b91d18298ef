//! `agkit check [--format human|json] PATH...`

use super::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::diag::{self, Diagnostic, Severity};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Output style of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style reports with the source line and a caret.
    Human,
    /// One JSON array of {file, line, column, severity, code, message}.
    Json,
}

/// Arguments of `agkit check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Files or directories (searched recursively for .agp .agb .ags .agn .dsf).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// What kind of file a path holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// An autogen text file.
    Text,
    /// An FSX AGN file.
    Agn,
    /// A DSF tile.
    Dsf,
}

const EXTENSIONS: [&str; 5] = ["agp", "agb", "ags", "agn", "dsf"];

/// Expands directories into the files under them that agkit reads.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = walkdir::WalkDir::new(p)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(|e| e.into_path())
                .filter(|f| has_known_extension(f))
                .collect();
            found.sort();
            files.extend(found);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    Ok(files)
}

fn has_known_extension(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Decides the kind of a file from its first bytes, then its extension.
pub fn classify(path: &Path, bytes: &[u8]) -> FileKind {
    if bytes.starts_with(b"XPLNEDSF") || bytes.starts_with(&[0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) {
        return FileKind::Dsf;
    }
    if bytes.starts_with(b"RIFF") {
        return FileKind::Agn;
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("agn") => FileKind::Agn,
        Some("dsf") => FileKind::Dsf,
        _ => FileKind::Text,
    }
}

/// Checks one file's bytes: the diagnostics and, for text, the source text
/// they point into.
pub fn check_bytes(path: &Path, bytes: &[u8]) -> (Option<String>, Vec<Diagnostic>) {
    match classify(path, bytes) {
        FileKind::Agn => (None, agkit::agn::check_bytes(bytes)),
        FileKind::Dsf => (None, agkit::dsf::check_bytes(bytes)),
        FileKind::Text => {
            let (text, diags) = agkit::xp::check_bytes(bytes);
            (Some(text), diags)
        }
    }
}

/// Runs `agkit check`.
pub fn run(args: Args) -> u8 {
    let files = match collect(&args.paths) {
        Ok(f) => f,
        Err(e) => return super::fail(e),
    };
    let mut json = Vec::new();
    let (mut errors, mut warnings, mut io_failed) = (0usize, 0usize, false);
    for file in &files {
        let name = file.display().to_string();
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {name}: {e}");
                io_failed = true;
                continue;
            }
        };
        let (source, diags) = check_bytes(file, &bytes);
        errors += diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        warnings += diags
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        match args.format {
            Format::Human => print!("{}", diag::render_human(&name, source.as_deref(), &diags)),
            Format::Json => json.extend(diag::to_json(&name, source.as_deref(), &diags)),
        }
    }
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&json) {
            Ok(s) => println!("{s}"),
            Err(e) => return super::fail(e),
        },
        Format::Human => eprintln!(
            "checked {} file{}: {errors} error{}, {warnings} warning{}",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        ),
    }
    if io_failed {
        EXIT_USAGE
    } else if errors > 0 {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
