//! `OBJECT` and `OBJECT_MSL` rows: an OBJ8 stood at the DSF's position
//! and heading, on the ground (`draped`), at its MSL elevation or above
//! the ground (`agl`) as the DSF says.

use super::Laid;
use crate::dsf::ElevationMode;
use crate::dsf::features::{Feature, Geometry};
use crate::geom::LocalFrame;
use crate::place::{PlacedObject, Placement};

/// Lays out one object row of `definition` into `p`.
pub(super) fn lay(
    f: &Feature,
    definition: &str,
    frame: &LocalFrame,
    p: &mut Placement,
    take: &mut dyn FnMut(usize) -> bool,
) -> Laid {
    let Geometry::Point(ll) = f.geometry else {
        return Laid::Skipped;
    };
    if !take(1) {
        return Laid::Stopped;
    }
    let [x, y] = frame.to_local(ll);
    let (mode, height) = match f.mode {
        Some(ElevationMode::Msl) => ("msl", 0.0),
        Some(ElevationMode::Agl) => ("agl", f.elevation.unwrap_or(0.0)),
        _ => ("draped", 0.0),
    };
    p.objects.push(PlacedObject {
        asset: definition.to_string(),
        index: 0,
        mode: mode.into(),
        x,
        y,
        lon: ll[0],
        lat: ll[1],
        heading: crate::place::annotate::normalize_heading(f.heading.unwrap_or(0.0)),
        height,
        elevation: f.elevation.filter(|_| mode != "draped"),
        entity: Some(f.entity),
        ..PlacedObject::default()
    });
    Laid::Row
}
