//! `agkit info [--format human|json] FILE`: what an autogen asset contains.

use super::output::{EXIT_INPUT, EXIT_OK};
use clap::ValueEnum;
use std::path::PathBuf;

/// Output style of `info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A few aligned lines.
    Human,
    /// One JSON object (keys: format, tiles, objects, facades, trees, assets, warnings, errors, …).
    Json,
}

/// Arguments of `agkit info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// An .agp, .agb or .ags file; `-` reads standard input.
    file: PathBuf,
}

/// Runs `agkit info`.
pub fn run(args: Args) -> u8 {
    let name = super::output::input_name(&args.file);
    let bytes = match super::output::read_input(&args.file) {
        Ok(b) => b,
        Err(e) => return super::output::fail(format!("{name}: {e}")),
    };
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
    let text = match args.format {
        Format::Human => summary.to_human(),
        Format::Json => match serde_json::to_string_pretty(&summary) {
            Ok(s) => s + "\n",
            Err(e) => return super::output::fail(e),
        },
    };
    if let Err(code) = super::output::emit(text.as_bytes()) {
        return code;
    }
    if errors > 0 { EXIT_INPUT } else { EXIT_OK }
}
