//! The point engine (work in progress).

#[allow(unused_imports)]
use crate::geom::Xy;
use crate::place::{Params, PlaceError, Placement};
use crate::xp::model::Asset;

/// Places an AGP at a heading (degrees clockwise from north); the DSF point is the local origin.
pub fn place(_asset: &Asset, _heading: f64, _params: &Params) -> Result<Placement, PlaceError> {
    Err(PlaceError::Asset(
        "the point engine is not built yet".into(),
    ))
}
