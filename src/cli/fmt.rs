//! `agkit fmt [--check] [--in-place] PATH...`: canonical form of autogen text
//! files (see [`agkit::xp::Document::to_canonical`]).
//!
//! Files whose text has errors are not formatted (the errors are printed and
//! the exit status is 1): fix them with `agkit check` first. `-` reads
//! standard input (not with `--in-place`).

use super::output::{EXIT_INPUT, EXIT_OK, EXIT_USAGE};
use agkit::xp::Document;
use std::path::PathBuf;

/// Arguments of `agkit fmt`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Do not write anything; exit 1 when a file is not in canonical form.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
    /// Rewrite the files in place (atomically) instead of printing them.
    #[arg(long)]
    in_place: bool,
    /// Files or directories (searched recursively for .agp .agb .ags or an
    /// autogen header); `-` reads standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// Runs `agkit fmt`.
pub fn run(args: Args) -> u8 {
    let files = match super::walk::gather(
        &args.paths,
        super::check::is_autogen_text,
        "autogen text file (.agp .agb .ags, or an autogen header)",
    ) {
        Ok(f) => f,
        Err(code) => return code,
    };
    if args.in_place && files.iter().any(|f| super::output::is_stdin(f)) {
        return super::output::fail("`-` (standard input) cannot be rewritten with --in-place");
    }
    let (mut io_failed, mut bad_input, mut unformatted) = (false, false, 0usize);
    for file in &files {
        let name = super::output::input_name(file);
        let bytes = match super::output::read_input(file, "an autogen text file") {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                io_failed = true;
                continue;
            }
        };
        if let Some(refused) = super::output::not_autogen_text(&name, &bytes) {
            eprintln!("{refused}");
            bad_input = true;
            continue;
        }
        let (text, diags) = agkit::xp::check_bytes(&bytes);
        if diags.iter().any(|d| d.is_error()) {
            eprint!("{}", agkit::diag::render_human(&name, Some(&text), &diags));
            eprintln!("error: {name}: not formatted because it has errors");
            bad_input = true;
            continue;
        }
        let doc = Document::parse(&text);
        let canonical = doc.to_canonical();
        if let (false, Some(n)) = (args.check, doc.line_ending_note()) {
            eprintln!("note: {name}: {n}");
        }
        let changed = canonical != text;
        if args.check {
            if changed {
                if let Err(code) =
                    super::output::emit(format!("{name}: not in canonical form\n").as_bytes())
                {
                    return code;
                }
                unformatted += 1;
            }
        } else if args.in_place {
            if changed && let Err(e) = agkit::fsutil::rewrite_input(file, canonical.as_bytes()) {
                eprintln!("error: {name}: {e}");
                io_failed = true;
            }
        } else if let Err(code) = super::output::emit(canonical.as_bytes()) {
            return code;
        }
    }
    if io_failed {
        EXIT_USAGE
    } else if bad_input || unformatted > 0 {
        EXIT_INPUT
    } else {
        EXIT_OK
    }
}
