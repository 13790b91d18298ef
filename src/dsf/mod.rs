//! X-Plane DSF scenery tiles (binary, 7z-wrapped) and their DSF2Text form.

pub mod autogen;

use crate::diag::Diagnostic;

/// Reads a DSF file's bytes (plain or 7z) and reports problems with byte
/// offsets.
pub fn check_bytes(_bytes: &[u8]) -> Vec<Diagnostic> {
    Vec::new()
}
