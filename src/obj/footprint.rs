//! The footprint of an object: the convex hull of points seen from above.
//!
//! `geo`'s [`ConvexHull`] does the work. Edge cases: no point gives an
//! empty footprint; one point gives that point; points on a line give the
//! two ends (a hull with no area, such as a fence of one wall). The ring
//! is open (its first point is not repeated) and counter-clockwise in the
//! (x, z) plane of the numbers.

use geo::{ConvexHull, Coord, MultiPoint, Point};

/// The convex hull of `points` (`[x, z]`), open and counter-clockwise.
pub fn hull(points: impl Iterator<Item = [f64; 2]>) -> Vec<[f64; 2]> {
    let points: Vec<Point<f64>> = points.map(|[x, z]| Point(Coord { x, y: z })).collect();
    if points.is_empty() {
        return Vec::new();
    }
    let polygon = MultiPoint::new(points).convex_hull();
    let mut ring: Vec<[f64; 2]> = polygon.exterior().coords().map(|c| [c.x, c.y]).collect();
    if ring.len() > 1 && ring.first() == ring.last() {
        ring.pop();
    }
    ring.dedup();
    ring
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_an_inner_point() {
        let pts = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [1.0, 1.0]];
        let h = hull(pts.into_iter());
        assert_eq!(h.len(), 4);
        // Counter-clockwise: positive signed area.
        let area: f64 = (0..h.len())
            .map(|i| {
                let (a, b) = (h[i], h[(i + 1) % h.len()]);
                a[0] * b[1] - b[0] * a[1]
            })
            .sum();
        assert!(area > 0.0, "{h:?}");
    }

    #[test]
    fn degenerate_hulls() {
        assert!(hull(std::iter::empty()).is_empty());
        assert_eq!(hull([[1.0, 2.0]].into_iter()), vec![[1.0, 2.0]]);
        let line = hull([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]].into_iter());
        assert!(
            line.contains(&[0.0, 0.0]) && line.contains(&[2.0, 0.0]),
            "{line:?}"
        );
    }
}
