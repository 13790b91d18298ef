//! FSX/P3D AGN autogen files (RIFF `AGNX`).

use crate::diag::Diagnostic;

/// Reads an AGN file's bytes and reports structural problems with byte
/// offsets.
pub fn check_bytes(_bytes: &[u8]) -> Vec<Diagnostic> {
    Vec::new()
}
