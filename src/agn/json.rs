//! The JSON view: a complete, stable model of every chunk.
//!
//! ```json
//! {"format": "agkit-agn", "version": 1, "chunks": [
//!   {"chunk": "VERS", "version": 1091777331},
//!   {"chunk": "GBLD", "children": [
//!     {"chunk": "GBLR", "roof": "default", "buildings": [{"x": 0.1, ...}]}]},
//!   {"chunk": "raw", "id": "XTRA", "data": "00ff"}]}
//! ```
//!
//! Every field of every chunk is present (see `docs/agn.md` for the list), so
//! `agkit agn build` of a dump reproduces the file byte for byte. Floats are
//! the f32 values written in shortest round-trip form.

use super::{Agn, Chunk};
use serde::{Deserialize, Serialize};

/// The `format` value of an AGN JSON document.
pub const FORMAT: &str = "agkit-agn";
/// The current `version` of the JSON document layout.
pub const VERSION: u32 = 1;

/// The top-level JSON document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// Always `agkit-agn`.
    pub format: String,
    /// Layout version, currently 1.
    pub version: u32,
    /// The chunks inside `RIFF`/`AGNX`, in file order.
    pub chunks: Vec<Chunk>,
}

/// The JSON text of an AGN model (pretty-printed, ends with a newline).
pub fn to_json(agn: &Agn) -> String {
    let doc = Document {
        format: FORMAT.into(),
        version: VERSION,
        chunks: agn.chunks.clone(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// Parses the JSON view back into a model. Errors name the line and column.
pub fn from_json(text: &str) -> Result<Agn, String> {
    let doc: Document = serde_json::from_str(text)
        .map_err(|e| format!("line {}, column {}: {e}", e.line(), e.column()))?;
    if doc.format != FORMAT {
        return Err(format!("`format` is {:?}, expected {FORMAT:?}", doc.format));
    }
    if doc.version != VERSION {
        return Err(format!(
            "`version` {} is not supported (this agkit reads {VERSION})",
            doc.version
        ));
    }
    Ok(Agn { chunks: doc.chunks })
}
