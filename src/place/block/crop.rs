//! `CROP 1`: tiles are cut at the DSF polygon with the `geo` crate's
//! boolean intersection.
//!
//! Content inside EDGE_MIN is never cut: the clip region is the polygon,
//! joined with the EDGE_MIN rectangle whenever that rectangle is not wholly
//! inside the polygon. A tile the region splits keeps every piece.

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

    /// The parts of `tile` (counter-clockwise) inside the region, each
    /// counter-clockwise without the closing vertex, largest first: a cut
    /// may split a tile into several pieces and every piece is kept. Empty
    /// when nothing is left.
    pub fn clip(&self, tile: &[Xy]) -> Vec<Vec<Xy>> {
        let cut = polygon(tile).intersection(&self.region);
        let mut pieces: Vec<(f64, Polygon<f64>)> = cut
            .0
            .into_iter()
            .map(|p| (p.unsigned_area(), p))
            .filter(|(a, _)| *a > 0.0)
            .collect();
        pieces.sort_by(|a, b| b.0.total_cmp(&a.0));
        pieces
            .into_iter()
            .filter_map(|(_, piece)| {
                let mut ring: Vec<Xy> = piece.exterior().coords().map(|c| [c.x, c.y]).collect();
                if ring.len() > 1 && ring.first() == ring.last() {
                    ring.pop();
                }
                if piece.signed_area() < 0.0 {
                    ring.reverse();
                }
                for v in &mut ring {
                    *v = snap(snap(*v, tile), &self.corners);
                }
                (ring.len() >= 3).then_some(ring)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(r: &[Xy]) -> f64 {
        let n = r.len();
        (0..n)
            .map(|i| r[i][0] * r[(i + 1) % n][1] - r[(i + 1) % n][0] * r[i][1])
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn a_split_tile_keeps_both_pieces() {
        // An arrowhead with its notch at (20, 10): a strip along the bottom
        // is cut into the two feet.
        let dart = [[0.0, 0.0], [20.0, 10.0], [40.0, 0.0], [20.0, 40.0]];
        let c = ClipRegion::new(&dart, None);
        let strip = [[0.0, 0.0], [40.0, 0.0], [40.0, 4.0], [0.0, 4.0]];
        let pieces = c.clip(&strip);
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        for p in &pieces {
            assert!(area(p) > 0.0, "counter-clockwise: {p:?}");
        }
        // Each foot: the strip 0..4 between the notch's lower side
        // (y = x / 2) and the arrow's outer side (y = 2 x), i.e. the area
        // between x = y/2 and x = 2y, integrated over y in 0..4: 1.5·y²/2 = 12.
        let total: f64 = pieces.iter().map(|p| area(p)).sum();
        assert!((total - 24.0).abs() < 1e-6, "{total}");
        assert!((area(&pieces[0]) - 12.0).abs() < 1e-6);
    }

    #[test]
    fn the_keep_rectangle_joins_the_region() {
        let square = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let keep = [[-2.0, 2.0], [12.0, 2.0], [12.0, 8.0], [-2.0, 8.0]];
        let c = ClipRegion::new(&square, Some(&keep));
        assert!(c.contains([-1.0, 5.0]) && !c.contains([-1.0, 9.0]));
        let tile = [[-3.0, 0.0], [13.0, 0.0], [13.0, 10.0], [-3.0, 10.0]];
        let pieces = c.clip(&tile);
        assert_eq!(pieces.len(), 1);
        assert!((area(&pieces[0]) - (100.0 + 2.0 * 2.0 * 6.0)).abs() < 1e-6);
    }
}
