//! Draped polygon rows (`.pol`): the rings and holes, the DSF's UV planes
//! when it gives them, else the parameter's texture heading and the
//! `.pol`'s `SCALE`.

use super::{Laid, plane, rings};
use crate::draped::DrapedArt;
use crate::dsf::features::Feature;
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::{PlacedDraped, Placement};
use crate::scenery::definition::DefArt;

/// Lays out one draped polygon row of `definition` into `p`.
pub(super) fn lay(
    f: &Feature,
    definition: &str,
    art: &DefArt,
    frame: &LocalFrame,
    p: &mut Placement,
    take: &mut dyn FnMut(usize) -> bool,
) -> Laid {
    if !take(1) {
        return Laid::Stopped;
    }
    let rs = rings(&f.geometry);
    let uv = (f.planes.contains(&"u") && f.planes.contains(&"v")).then(|| {
        let mut i = 0;
        rs.iter()
            .map(|r| {
                r.iter()
                    .map(|_| {
                        let q = [
                            plane(f, "u", i).unwrap_or(0.0),
                            plane(f, "v", i).unwrap_or(0.0),
                        ];
                        i += 1;
                        q
                    })
                    .collect()
            })
            .collect()
    });
    let heading = match (f.param, &uv) {
        (Some(param), None) if param != u16::MAX => Some(pol_heading(param)),
        _ => None,
    };
    let (texture, scale) = match &art.draped {
        Some(DrapedArt::Pol(pol)) => (pol.texture.clone(), pol.scale),
        _ => (None, None),
    };
    let local = |r: &Vec<LonLat>| -> Vec<Xy> { r.iter().map(|&q| frame.to_local(q)).collect() };
    p.draped.push(PlacedDraped {
        asset: definition.to_string(),
        entity: f.entity,
        rings: rs.iter().map(local).collect(),
        lonlat: rs,
        uv,
        heading,
        art: art.state,
        texture,
        scale,
        z: None,
        removed_by: None,
    });
    Laid::Row
}

/// A draped polygon's texture heading from its parameter: whole degrees
/// plus 360 × (128 × the fraction, rounded down), as WorldEditor writes
/// it.
pub fn pol_heading(param: u16) -> f64 {
    let whole = f64::from(param % 360);
    let frac = f64::from(param / 360) / 128.0;
    whole + frac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pol_heading_decodes_whole_and_fraction() {
        assert_eq!(pol_heading(90), 90.0);
        // 45.5°: 45 + 360 × 64.
        assert_eq!(pol_heading(45 + 360 * 64), 45.5);
    }
}
