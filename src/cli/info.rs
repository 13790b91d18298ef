//! `agkit info [--format text|json] FILE`: what an autogen asset or a piece
//! of X-Plane art (object, facade, forest, draped polygon, painted line,
//! object string, terrain type, road network, texture) or an airport file
//! (`apt.dat`) contains.

use super::output::{EXIT_INPUT, EXIT_OK};
use clap::ValueEnum;
use std::path::PathBuf;

/// Output style of `info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A few aligned lines (`human` is another name for it).
    #[value(alias = "human")]
    Text,
    /// One JSON object (keys: format, tiles, objects, facades, trees, assets, warnings, errors, …).
    Json,
}

/// Arguments of `agkit info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// An .agp, .agb or .ags file, or X-Plane art: an .obj, .fac, .for,
    /// .pol, .lin, .str, .ter or .net (by extension or header), a .png or
    /// .dds texture, an apt.dat (by name or header); `-` reads standard
    /// input.
    file: PathBuf,
}

/// Runs `agkit info`.
pub fn run(args: Args) -> u8 {
    let name = super::output::input_name(&args.file);
    let bytes = match super::output::read_input(&args.file, "a file to summarize") {
        Ok(b) => b,
        Err(e) => return super::output::fail(e),
    };
    match agkit::check::classify(&args.file, &bytes) {
        agkit::check::FileKind::Art(k) => {
            let summary = agkit::check::summarize_art(k, &bytes);
            return art(
                &name,
                summary,
                || agkit::check::check_art(k, &bytes),
                args.format,
            );
        }
        agkit::check::FileKind::Draped(k) => {
            let summary = agkit::check::summarize_draped(k, &bytes);
            return art(
                &name,
                summary,
                || agkit::check::check_draped(k, &bytes),
                args.format,
            );
        }
        agkit::check::FileKind::Apt => return apt(&name, &bytes, args.format),
        _ => {}
    }
    if let Some(refused) = super::output::not_autogen_text(&name, &bytes) {
        eprintln!("{refused}");
        return EXIT_INPUT;
    }
    let (text, diags) = agkit::xp::check_bytes(&bytes);
    let Some(summary) = agkit::xp::summary::summarize(&text) else {
        eprint!("{}", agkit::diag::render_human(&name, Some(&text), &diags));
        eprintln!("error: {name}: not an autogen text file");
        return EXIT_INPUT;
    };
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let summary = agkit::xp::summary::Summary {
        errors,
        warnings: diags.len() - errors,
        ..summary
    };
    if let Err(code) = print(&summary, || summary.to_human(), args.format) {
        return code;
    }
    if errors > 0 { EXIT_INPUT } else { EXIT_OK }
}

/// `agkit info` of an `apt.dat`: its summary, and its first errors on
/// standard error when it has some.
fn apt(name: &str, bytes: &[u8], format: Format) -> u8 {
    match agkit::check::summarize_apt(bytes) {
        Err((text, diags)) => {
            eprint!(
                "{}",
                agkit::diag::render_human(name, text.as_deref(), &diags)
            );
            EXIT_INPUT
        }
        Ok(summary) => {
            if let Err(code) = print(&summary, || summary.to_human(), format) {
                return code;
            }
            if summary.errors > 0 {
                let (text, diags) = agkit::check::check_apt(bytes);
                show_problems(name, text.as_deref(), &diags);
                EXIT_INPUT
            } else {
                EXIT_OK
            }
        }
    }
}

/// Prints `summary` as JSON or as its `human` lines.
fn print<S: serde::Serialize>(
    summary: &S,
    human: impl FnOnce() -> String,
    format: Format,
) -> Result<(), u8> {
    let text = match format {
        Format::Text => human(),
        Format::Json => serde_json::to_string_pretty(summary)
            .map(|s| s + "\n")
            .map_err(super::output::fail)?,
    };
    super::output::emit(text.as_bytes())
}

/// Problems `info` shows of a file with errors, at most.
const SHOWN: usize = 5;

/// `agkit info` of X-Plane art: the library's summary (`summarized`),
/// printed; `problems` checks the file again for its diagnostics. A file with
/// errors also has its first problems rendered on standard error, naming
/// the file; a texture whose structure is wrong (a DDS header promising
/// more than the file holds) gets only its problems, no summary built on
/// the header's word.
#[allow(clippy::type_complexity)]
fn art(
    name: &str,
    summarized: Result<agkit::check::ArtSummary, (Option<String>, Vec<agkit::diag::Diagnostic>)>,
    problems: impl Fn() -> (Option<String>, Vec<agkit::diag::Diagnostic>),
    format: Format,
) -> u8 {
    let summary = match summarized {
        Ok(s) => s,
        Err((text, diags)) => {
            eprint!(
                "{}",
                agkit::diag::render_human(name, text.as_deref(), &diags)
            );
            return EXIT_INPUT;
        }
    };
    let errors = match &summary {
        agkit::check::ArtSummary::Obj(s) => s.errors,
        agkit::check::ArtSummary::Facade(s) => s.errors,
        agkit::check::ArtSummary::Forest(s) => s.errors,
        agkit::check::ArtSummary::Draped(s) => s.errors,
        agkit::check::ArtSummary::Texture(_) => {
            let (_, diags) = problems();
            if diags.iter().any(|d| d.is_error()) {
                show_problems(name, None, &diags);
                return EXIT_INPUT;
            }
            0
        }
    };
    if let Err(code) = print(&summary, || summary.to_human(), format) {
        return code;
    }
    if errors > 0 {
        let (text, diags) = problems();
        show_problems(name, text.as_deref(), &diags);
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}

/// The first [`SHOWN`] errors of `name` on standard error, rendered with
/// the file's name and line, and how many more there are.
fn show_problems(name: &str, text: Option<&str>, diags: &[agkit::diag::Diagnostic]) {
    let errors: Vec<agkit::diag::Diagnostic> =
        diags.iter().filter(|d| d.is_error()).cloned().collect();
    let shown = &errors[..errors.len().min(SHOWN)];
    eprint!("{}", agkit::diag::render_human(name, text, shown));
    if errors.len() > shown.len() {
        eprintln!(
            "… and {} more; run `agkit check {name}` for all",
            errors.len() - shown.len()
        );
    }
}
