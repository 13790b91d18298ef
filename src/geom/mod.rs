//! Plain geometry shared by the placement engines and outputs: points in local
//! metres, the local tangent frame that maps them to lon/lat.
//!
//! Clipping, orientation and point-in-polygon come from the `geo` crate; this
//! module only holds what `geo` does not have.

pub mod frame;
pub mod valid;

pub use frame::LocalFrame;

/// A point in local metres: x east, y north.
pub type Xy = [f64; 2];

/// A geographic position: longitude then latitude, degrees on WGS84.
pub type LonLat = [f64; 2];
