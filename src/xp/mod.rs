//! X-Plane autogen text formats: AGP (points), AGB (blocks), AGS (strings).
//!
//! Layers: a lossless line [`Document`] (every byte of the input kept) → the
//! typed [`model`] ([`parse`](mod@parse)) → validation ([`check`](mod@check), rules in [`rules`]) →
//! canonical writing ([`Document::to_canonical`] for files as written,
//! [`write::to_string`] for a model).

pub mod check;
pub mod doc;
pub mod model;
pub mod parse;
pub mod rules;
pub mod sanity;
pub mod summary;
pub mod write;

pub use doc::Document;
pub use rules::{RULES, Rule};

use crate::diag::Diagnostic;

/// Parses an autogen text file into the typed model.
///
/// `Ok` when there are no errors (warnings are allowed); `Err` with every
/// diagnostic (errors and warnings) otherwise. Validation ([`check`](mod@check)) is part
/// of parsing: an `Ok` model satisfies every error rule.
pub fn parse(source: &str) -> Result<model::Asset, Vec<Diagnostic>> {
    let (asset, diags) = parse_lenient(source);
    match asset {
        Some(a) if !diags.iter().any(Diagnostic::is_error) => Ok(a),
        _ => Err(diags),
    }
}

/// Parses and validates, returning the model even when there are errors
/// (`None` only when the header does not name a format) and every
/// diagnostic, sorted by position.
pub fn parse_lenient(source: &str) -> (Option<model::Asset>, Vec<Diagnostic>) {
    lenient(&Document::parse(source))
}

/// [`parse_lenient`] of a document.
fn lenient(doc: &Document) -> (Option<model::Asset>, Vec<Diagnostic>) {
    let mut parsed = parse::read(doc);
    // Validation counts the reader's diagnostics towards its cap.
    let mut diags = std::mem::take(&mut parsed.diags);
    parsed.validate(doc, &mut diags);
    stray_boms(doc.source(), &mut diags);
    sort(&mut diags);
    (parsed.asset, diags)
}

/// Reports each U+FEFF after the start of the file (at most a few): only a
/// leading byte-order mark is skipped, anywhere else it is part of a token
/// (two files joined together, or an editor inserting it per line).
fn stray_boms(source: &str, diags: &mut Vec<Diagnostic>) {
    const BOM: char = '\u{feff}';
    let skip = if source.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    let mut bom = [0; 3];
    BOM.encode_utf8(&mut bom);
    // memchr's search looks at many bytes at a time: every file goes
    // through here.
    for at in memchr::memmem::find_iter(&source.as_bytes()[skip..], &bom).take(10) {
        let at = skip + at;
        diags.push(Diagnostic::error(
            rules::codes::STRAY_BOM,
            "a byte-order mark (U+FEFF) in the middle of the file: remove it (only the very first bytes may hold one)",
            at..at + BOM.len_utf8(),
        ));
    }
}

fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| match &d.location {
        crate::diag::Location::Span(r) => r.start,
        _ => 0,
    });
}

/// Parses and validates an autogen text file, returning every diagnostic
/// (errors and warnings) with byte spans, in source order.
pub fn check(source: &str) -> Vec<Diagnostic> {
    parse_lenient(source).1
}

/// Checks raw bytes: invalid UTF-8 is an error (`AG0077`) at the first bad
/// byte and the rest is checked as lossily decoded text. Returns that text
/// (spans point into it) and the diagnostics.
pub fn check_bytes(bytes: &[u8]) -> (String, Vec<Diagnostic>) {
    let (text, _, diags) = check_bytes_model(bytes);
    (text, diags)
}

/// [`check_bytes`] with the model read as [`parse_lenient`] reads it
/// (`None` only when the header names no format): `agkit check` follows
/// the art an asset names from it, without parsing the text again.
pub fn check_bytes_model(bytes: &[u8]) -> (String, Option<model::Asset>, Vec<Diagnostic>) {
    // One copy of the bytes: the document owns the text and hands it back.
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            let doc = Document::from_string(s.to_string());
            let (asset, diags) = lenient(&doc);
            (doc.into_source(), asset, diags)
        }
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            let (asset, mut diags) = parse_lenient(&text);
            diags.push(Diagnostic::error(
                rules::codes::INVALID_UTF8,
                "the file is not valid UTF-8 text here: save it as UTF-8 (or ASCII)",
                at..at + '\u{fffd}'.len_utf8(),
            ));
            sort(&mut diags);
            (text, asset, diags)
        }
    }
}
