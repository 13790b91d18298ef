//! Outputs: a [`Placement`](crate::place::Placement) as JSON, GeoJSON,
//! DSF2Text, SVG and PNG.
