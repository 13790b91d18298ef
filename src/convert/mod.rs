//! Converting other simulators' scenery to X-Plane.

pub mod agn;
pub mod map;
