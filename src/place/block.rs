//! The block engine (work in progress).

#[allow(unused_imports)]
use crate::geom::Xy;
use crate::place::{Params, PlaceError, Placement};
use crate::xp::model::Asset;

/// Places an AGB on its 4-point polygon (local metres, counter-clockwise).
pub fn place(
    _asset: &Asset,
    _windings: &[Vec<Xy>],
    _params: &Params,
) -> Result<Placement, PlaceError> {
    Err(PlaceError::Asset(
        "the block engine is not built yet".into(),
    ))
}
