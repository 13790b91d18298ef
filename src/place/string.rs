//! The string engine (work in progress).

#[allow(unused_imports)]
use crate::geom::Xy;
use crate::place::{Params, PlaceError, Placement};
use crate::xp::model::Asset;

/// Places an AGS on its polygon windings (local metres).
pub fn place(
    _asset: &Asset,
    _windings: &[Vec<Xy>],
    _params: &Params,
) -> Result<Placement, PlaceError> {
    Err(PlaceError::Asset(
        "the string engine is not built yet".into(),
    ))
}
