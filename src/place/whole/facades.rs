//! Facade rows: a facade on the polygon's outer ring, the parameter as its
//! height and the `wall` plane as its wall types. Holes are not drawn
//! (X-Plane's facades have none; WorldEditor refuses them): they are
//! counted for one warning per definition.

use super::{Laid, plane, rings};
use crate::dsf::features::Feature;
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::{PlacedFacade, Placement};

/// Lays out one facade row of `definition` into `p`; `holes` counts the
/// facades with holes and their holes.
pub(super) fn lay(
    f: &Feature,
    definition: &str,
    frame: &LocalFrame,
    p: &mut Placement,
    holes: &mut (usize, usize),
    take: &mut dyn FnMut(usize) -> bool,
) -> Laid {
    if !take(1) {
        return Laid::Stopped;
    }
    let mut rs = rings(&f.geometry);
    if rs.len() > 1 {
        holes.0 += 1;
        holes.1 += rs.len() - 1;
    }
    let outer = rs.swap_remove(0);
    let n = outer.len();
    let walls: Option<Vec<i64>> = f.planes.contains(&"wall").then(|| {
        (0..n)
            .map(|i| plane(f, "wall", i).unwrap_or(0.0) as i64)
            .collect()
    });
    let local: Vec<Xy> = outer.iter().map(|&q: &LonLat| frame.to_local(q)).collect();
    p.facades.push(PlacedFacade {
        asset: definition.to_string(),
        height: f.height.unwrap_or(0.0),
        polygon: local,
        lonlat: outer,
        walls,
        entity: Some(f.entity),
        ..PlacedFacade::default()
    });
    Laid::Row
}
