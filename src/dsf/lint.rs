//! Content warnings for a decoded DSF: what X-Plane would accept but
//! probably misplace (autogen polygons of the wrong shape or winding,
//! missing tile bounds, filters without an airport).

use super::autogen::AutogenKind;
use super::{Dsf, Entity};
use crate::diag::{Diagnostic, Location, Severity};
use geo::{Coord, LineString, Winding};

fn warn(code: &'static str, message: String, location: Location) -> Diagnostic {
    Diagnostic::new(Severity::Warning, code, message, location)
}

/// Warnings about `dsf`'s content, pointing at the command that made each
/// entity (or the whole file for properties):
///
/// * `DSF021` an AGB use that is not one winding of 4 points;
/// * `DSF022` an AGB winding that is clockwise, or an AGS without a
///   counter-clockwise winding (its outer ring may come anywhere);
/// * `DSF023` an AGS whose spawning-contour count (param low byte) exceeds
///   its windings;
/// * `DSF024` an AGB/AGS polygon whose pool has more than lon/lat (depth ≠ 2);
/// * `DSF025` an AGP placed from a 4-plane pool (its elevation is ignored);
/// * `DSF026` `sim/west|south|east|north` missing, not integers in range,
///   or inverted (west not less than east, south not less than north);
/// * `DSF027` a filter index with no matching `sim/filter/aptid`.
pub fn lint(dsf: &Dsf) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    bounds(dsf, &mut out);
    let filters = dsf
        .properties
        .iter()
        .filter(|(n, _)| n == "sim/filter/aptid")
        .count();
    for (i, e) in dsf.entities.iter().enumerate() {
        let at = dsf
            .entity_offsets
            .get(i)
            .map_or(Location::File, |&o| Location::Offset(o));
        match e {
            Entity::Filter(f) if *f >= 0 && *f as usize >= filters => out.push(warn(
                "DSF027",
                format!("filter {f} has no sim/filter/aptid property ({filters} defined)"),
                at,
            )),
            Entity::Object(o) => {
                let path = dsf.object_defs.get(o.def as usize);
                if path.and_then(|p| AutogenKind::from_path(p)) == Some(AutogenKind::Agp)
                    && o.elevation.is_some()
                {
                    out.push(warn(
                        "DSF025",
                        format!(
                            "AGP {} is placed from a 4-plane pool; AGPs take no elevation",
                            path.map_or("", |s| s.as_str())
                        ),
                        at,
                    ));
                }
            }
            Entity::Polygon(p) => {
                let Some(path) = dsf.polygon_defs.get(p.def as usize) else {
                    continue;
                };
                let kind = match AutogenKind::from_path(path) {
                    Some(k @ (AutogenKind::Agb | AutogenKind::Ags)) => k,
                    _ => continue,
                };
                if p.depth != 2 {
                    out.push(warn(
                        "DSF024",
                        format!(
                            "{path} is placed with {} coordinates per point, not 2",
                            p.depth
                        ),
                        at.clone(),
                    ));
                }
                // A polygon may have no winding at all (a binary DSF can say so).
                let points = |k: usize| {
                    if k < p.windings.len() {
                        p.points(k).filter(|c| c.len() >= 2).count()
                    } else {
                        0
                    }
                };
                if kind == AutogenKind::Agb && (p.windings.len() != 1 || points(0) != 4) {
                    out.push(warn(
                        "DSF021",
                        format!(
                            "AGB {path} should be one winding of 4 points; it has {} winding(s), the first with {} points",
                            p.windings.len(),
                            points(0)
                        ),
                        at.clone(),
                    ));
                }
                // An AGB's one winding must run counter-clockwise. An AGS's
                // outer ring is its counter-clockwise winding wherever it
                // comes: a polygon cut at a tile edge may list spawning
                // holes first (the AGS engine finds the outer ring by
                // shape), so only a polygon with no counter-clockwise
                // winding at all is suspect.
                let suspect = match kind {
                    AutogenKind::Agb => !p.windings.is_empty() && is_clockwise(p, 0),
                    _ => {
                        !p.windings.is_empty() && (0..p.windings.len()).all(|k| is_clockwise(p, k))
                    }
                };
                if suspect {
                    let what = if kind == AutogenKind::Agb {
                        format!(
                            "AGB winding of {path} is clockwise; it should be counter-clockwise"
                        )
                    } else {
                        format!(
                            "AGS {path} has no counter-clockwise winding to be its outer ring; wind the outer ring counter-clockwise (holes clockwise)"
                        )
                    };
                    out.push(warn("DSF022", what, at.clone()));
                }
                let spawning = usize::from((p.param & 0xFF) as u8);
                if kind == AutogenKind::Ags && spawning > p.windings.len() {
                    out.push(warn(
                        "DSF023",
                        format!(
                            "AGS {path}: param low byte says {spawning} spawning contours but there are {} windings",
                            p.windings.len()
                        ),
                        at,
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

fn is_clockwise(p: &super::Polygon, k: usize) -> bool {
    let mut coords: Vec<Coord<f64>> = p
        .points(k)
        .filter(|c| c.len() >= 2)
        .map(|c| Coord { x: c[0], y: c[1] })
        .collect();
    if let (Some(&first), Some(&last)) = (coords.first(), coords.last())
        && first != last
    {
        coords.push(first);
    }
    LineString::new(coords).is_cw()
}

fn bounds(dsf: &Dsf, out: &mut Vec<Diagnostic>) {
    for (name, lo, hi) in [
        ("sim/west", -180, 179),
        ("sim/south", -90, 89),
        ("sim/east", -179, 180),
        ("sim/north", -89, 90),
    ] {
        match dsf.property(name).map(|v| v.trim().parse::<i32>()) {
            None => out.push(warn(
                "DSF026",
                format!("property {name} is missing; X-Plane requires the tile bounds"),
                Location::File,
            )),
            Some(Ok(v)) if (lo..=hi).contains(&v) => {}
            Some(_) => out.push(warn(
                "DSF026",
                format!(
                    "property {name} = {:?} is not an integer in {lo}..{hi}",
                    dsf.property(name).unwrap_or("")
                ),
                Location::File,
            )),
        }
    }
    let get = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
    for (lo, hi) in [("sim/west", "sim/east"), ("sim/south", "sim/north")] {
        if let (Some(a), Some(b)) = (get(lo), get(hi))
            && a >= b
        {
            out.push(warn(
                "DSF026",
                format!(
                    "property {lo} = {a} is not less than {hi} = {b}: the tile's bounds are \
                     inverted or empty"
                ),
                Location::File,
            ));
        }
    }
}
