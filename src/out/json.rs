//! `--format json`: the [`Placement`] model serialized with serde.
//!
//! Field names are a stable interface (only ever added to); they are listed
//! in `docs/placement.md` and pinned by a snapshot test.

use super::OutError;
use crate::place::Placement;

/// One placement as a pretty-printed JSON object, newline-terminated.
pub fn to_json(p: &Placement) -> Result<Vec<u8>, OutError> {
    let mut v = serde_json::to_vec_pretty(p)?;
    v.push(b'\n');
    Ok(v)
}

/// Several placements as a JSON array.
pub fn to_json_array(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    let mut v = serde_json::to_vec_pretty(ps)?;
    v.push(b'\n');
    Ok(v)
}
