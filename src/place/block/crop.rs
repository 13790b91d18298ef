//! `CROP 1`: tiles are cut at the DSF polygon with the `geo` crate's
//! boolean intersection.
//!
//! Content inside EDGE_MIN is never cut: the clip region is the polygon,
//! joined with the EDGE_MIN rectangle when the fit could not keep that
//! rectangle inside the polygon.

use crate::geom::Xy;
use geo::{Area, BooleanOps, Intersects, LineString, MultiPolygon, Point, Polygon};

/// The region tiles and annotations are cropped to.
pub(crate) struct ClipRegion {
    region: MultiPolygon<f64>,
    /// Vertices of the region's outlines: cut vertices this close to one of
    /// them (or to a tile corner) are snapped onto it, undoing the rounding
    /// of the boolean operation's fixed-precision grid.
    corners: Vec<Xy>,
}

/// Snap distance in metres.
const SNAP: f64 = 1e-6;

fn snap(p: Xy, targets: &[Xy]) -> Xy {
    targets
        .iter()
        .copied()
        .find(|t| (t[0] - p[0]).abs() <= SNAP && (t[1] - p[1]).abs() <= SNAP)
        .unwrap_or(p)
}

fn polygon(ring: &[Xy]) -> Polygon<f64> {
    Polygon::new(
        LineString::from(ring.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>()),
        vec![],
    )
}

impl ClipRegion {
    /// The polygon, extended by `keep` (the EDGE_MIN rectangle) if given.
    pub fn new(dsf: &[Xy], keep: Option<&[Xy]>) -> Self {
        let p = polygon(dsf);
        let region = match keep {
            Some(k) => p.union(&polygon(k)),
            None => MultiPolygon::new(vec![p]),
        };
        let corners = region
            .0
            .iter()
            .flat_map(|p| p.exterior().coords().map(|c| [c.x, c.y]))
            .collect();
        ClipRegion { region, corners }
    }

    /// Whether a point is in the region (boundary included).
    pub fn contains(&self, p: Xy) -> bool {
        self.region.intersects(&Point::new(p[0], p[1]))
    }

    /// The part of `tile` (counter-clockwise) inside the region: the largest
    /// piece if the cut splits it, counter-clockwise, without the closing
    /// vertex; `None` when nothing is left.
    pub fn clip(&self, tile: &[Xy]) -> Option<Vec<Xy>> {
        let cut = polygon(tile).intersection(&self.region);
        let best = cut
            .0
            .into_iter()
            .map(|p| (p.unsigned_area(), p))
            .filter(|(a, _)| *a > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0))?
            .1;
        let mut ring: Vec<Xy> = best.exterior().coords().map(|c| [c.x, c.y]).collect();
        if ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
        }
        if best.signed_area() < 0.0 {
            ring.reverse();
        }
        for v in &mut ring {
            *v = snap(snap(*v, tile), &self.corners);
        }
        Some(ring)
    }
}
