//! X-Plane autogen text formats: AGP (points), AGB (blocks), AGS (strings).
//!
//! Layers: a lossless line document (every byte of the input kept) → the
//! typed [`model`] → validation → canonical writing.

pub mod model;

use crate::diag::Diagnostic;

/// Parses an autogen text file into the typed model.
///
/// `Ok` when there are no errors (warnings are allowed); `Err` with every
/// diagnostic (errors and warnings) otherwise.
pub fn parse(_source: &str) -> Result<model::Asset, Vec<Diagnostic>> {
    Err(Vec::new())
}

/// Parses and validates an autogen text file, returning every diagnostic.
pub fn check(_source: &str) -> Vec<Diagnostic> {
    Vec::new()
}
