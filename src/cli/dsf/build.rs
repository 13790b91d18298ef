//! `agkit dsf build`: a binary DSF from DSF2Text, grouped as DSFTool
//! groups it.

use super::common::refuse_overwrite;
use crate::cli::output::{self, EXIT_INPUT};
use agkit::check::Contents;
use agkit::dsf;
use agkit::dsf::rules::codes;
use std::path::Path;

/// Builds a DSF from DSF2Text, grouping entities as DSFTool does; raster
/// files are looked for beside the text first.
pub fn build(input: &Path, output: &Path, seven_z: bool) -> u8 {
    if let Err(c) = refuse_overwrite(input, output) {
        return c;
    }
    let bytes = match output::read_file(input, "DSF2Text") {
        Ok(b) => b,
        Err(code) => return code,
    };
    let base = input.parent().unwrap_or(Path::new(""));
    build_text(
        &input.display().to_string(),
        Some(input),
        bytes,
        base,
        output,
        seven_z,
    )
}

/// Builds the DSF2Text `bytes` (read from `input`, named `name` in
/// messages; `None` for standard input) into `output`, its `RASTER_DATA`
/// files looked for in `raster_base` first, then as given
/// ([`dsf::text::RasterFiles`]), 7z-compressed with `seven_z`. Returns
/// the exit status, the error printed with the file and line.
pub fn build_text(
    name: &str,
    input: Option<&Path>,
    bytes: Vec<u8>,
    raster_base: &Path,
    output: &Path,
    seven_z: bool,
) -> u8 {
    if let Some(refused) = output::wrong_kind(name, &bytes, "DSF2Text", &[Contents::DsfText]) {
        eprintln!("{refused}");
        return EXIT_INPUT;
    }
    // Valid UTF-8 is taken as it is, without a copy.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let mut files = dsf::text::RasterFiles::new(raster_base, &agkit::limits::Limits::default());
    let mut load = |name: &str| files.load(name);
    let (model, mut opts) = match dsf::from_text(&text, &mut load) {
        Ok(x) => x,
        Err(e) => {
            let d = agkit::diag::Diagnostic::error(
                codes::TEXT_ERROR,
                e.message.clone(),
                e.span.clone(),
            );
            eprint!("{}", agkit::diag::render_human(name, Some(&text), &[d]));
            return EXIT_INPUT;
        }
    };
    // The text of a file is no longer needed: free it before encoding (a
    // failure reads it again). Standard input cannot be read again.
    let kept = match input {
        Some(_) => {
            drop(text);
            None
        }
        None => Some(text),
    };
    opts.group = true;
    opts.strip = true;
    let bytes = match dsf::write::build_owned(model, &opts) {
        Ok(b) => b,
        Err(e) => return build_error(name, input, kept.as_deref(), &e),
    };
    let out = super::edit::OutArgs {
        output: output.to_path_buf(),
        seven_z,
    };
    super::edit::write(&out, bytes)
}

/// Reports why a text's model cannot be built, at the line of the entity
/// concerned (a file's text is read again: this is the failing path only).
fn build_error(name: &str, input: Option<&Path>, kept: Option<&str>, e: &dsf::BuildError) -> u8 {
    let max = agkit::limits::Limits::default().max_input_bytes;
    let text = match kept {
        Some(t) => Some(t.to_string()),
        None => input
            .and_then(|p| agkit::fsutil::read_file(p, "DSF2Text", max).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned()),
    };
    let span = e
        .entity
        .zip(text.as_deref())
        .and_then(|(i, t)| dsf::text::entity_span(t, i));
    match span {
        Some(span) => {
            let d = agkit::diag::Diagnostic::error(codes::NOT_WRITABLE, e.message.clone(), span);
            eprint!("{}", agkit::diag::render_human(name, text.as_deref(), &[d]));
        }
        None => eprintln!("error[DSF031]: {name}: {e}"),
    }
    EXIT_INPUT
}
