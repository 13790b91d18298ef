//! `agkit dsf build`: a binary DSF from DSF2Text, grouped as DSFTool
//! groups it.

use super::common::refuse_overwrite;
use crate::cli::output::{self, EXIT_INPUT};
use agkit::check::Contents;
use agkit::dsf;
use std::path::Path;

/// Builds a DSF from DSF2Text, grouping entities as DSFTool does.
pub fn build(input: &Path, output: &Path) -> u8 {
    if let Err(c) = refuse_overwrite(input, output) {
        return c;
    }
    let text = match output::read_file(input, "DSF2Text") {
        Ok(b) => {
            let name = input.display().to_string();
            if let Some(refused) = output::wrong_kind(&name, &b, "DSF2Text", &[Contents::DsfText]) {
                eprintln!("{refused}");
                return EXIT_INPUT;
            }
            // Valid UTF-8 is taken as it is, without a copy.
            String::from_utf8(b)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
        }
        Err(code) => return code,
    };
    let base = input.parent().unwrap_or(Path::new(""));
    let mut files = dsf::text::RasterFiles::new(base, &agkit::limits::Limits::default());
    let mut load = |name: &str| files.load(name);
    let (model, mut opts) = match dsf::from_text(&text, &mut load) {
        Ok(x) => x,
        Err(e) => {
            let d = agkit::diag::Diagnostic::error("DSF030", e.message.clone(), e.span.clone());
            eprint!(
                "{}",
                agkit::diag::render_human(&input.display().to_string(), Some(&text), &[d])
            );
            return EXIT_INPUT;
        }
    };
    // The text is no longer needed: free it before encoding.
    drop(text);
    opts.group = true;
    opts.strip = true;
    let bytes = match dsf::build(&model, &opts) {
        Ok(b) => b,
        Err(e) => return build_error(input, &e),
    };
    drop(model);
    output::write_output(Some(output), &bytes, &output::bytes_written(&bytes))
}

/// Reports why a text's model cannot be built, at the line of the entity
/// concerned (the text is read again: this is the failing path only).
fn build_error(input: &Path, e: &dsf::BuildError) -> u8 {
    let name = input.display().to_string();
    let max = agkit::limits::Limits::default().max_input_bytes;
    let text = agkit::fsutil::read_file(input, "DSF2Text", max)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    let span = e
        .entity
        .zip(text.as_deref())
        .and_then(|(i, t)| dsf::text::entity_span(t, i));
    match span {
        Some(span) => {
            let d = agkit::diag::Diagnostic::error("DSF031", e.message.clone(), span);
            eprint!(
                "{}",
                agkit::diag::render_human(&name, text.as_deref(), &[d])
            );
        }
        None => eprintln!("error[DSF031]: {name}: {e}"),
    }
    EXIT_INPUT
}
