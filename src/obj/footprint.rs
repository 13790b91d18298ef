//! The footprint of an object: the convex hull of points seen from above.
//!
//! `geo`'s [`ConvexHull`] does the work. Edge cases: no point gives an
//! empty footprint; one point gives that point; points on a line give the
//! two ends (a hull with no area, such as a fence of one wall). The ring
//! is open (its first point is not repeated) and counter-clockwise in the
//! (x, z) plane of the numbers.
//!
//! The hull never sees a NaN. The readers keep every coordinate within
//! [`crate::xptext::MAX_MAGNITUDE`], but the hull does not rely on it: a
//! point that is not finite is left out, and points so large that the
//! orientation test's products would overflow (a coordinate near 1e301
//! beside small ones makes `inf - inf`) are scaled down by a power of two
//! first (exact but for coordinates some 10^-308 times smaller than the
//! largest, which round towards 0); the corners returned are the points
//! given.

use geo::{ConvexHull, Coord, MultiPoint, Point};

/// Above this magnitude the points are scaled down before the hull is
/// taken: the orientation test multiplies differences of coordinates, so
/// they must stay far below the square root of `f64::MAX` (≈ 1.3e154).
const SAFE: f64 = 1e100;

/// The convex hull of `points` (`[x, z]`), open and counter-clockwise;
/// points that are not finite are left out.
pub fn hull(points: impl Iterator<Item = [f64; 2]>) -> Vec<[f64; 2]> {
    let given: Vec<[f64; 2]> = points.filter(|p| p.iter().all(|v| v.is_finite())).collect();
    if given.is_empty() {
        return Vec::new();
    }
    let largest = given.iter().flatten().map(|v| v.abs()).fold(0.0, f64::max);
    // A power of two brings the largest coordinate to about 1: exact for
    // every coordinate within 2^-1022 of it, so their order and orientation
    // are kept.
    let exp = if largest > SAFE {
        largest.log2().ceil() as i32
    } else {
        0
    };
    // In two steps: 2^-1024 and 2^1024 are not normal f64s.
    let scale = |v: f64| v * 2f64.powi(-exp / 2) * 2f64.powi(-(exp - exp / 2));
    let scaled: Vec<Point<f64>> = given
        .iter()
        .map(|&[x, z]| {
            Point(Coord {
                x: scale(x),
                y: scale(z),
            })
        })
        .collect();
    // The hull's corners are input points: each maps back to a point given
    // (the first of those a tiny coordinate made equal when scaled).
    let mut back = std::collections::HashMap::new();
    for (p, g) in scaled.iter().zip(&given) {
        back.entry((p.x().to_bits(), p.y().to_bits())).or_insert(*g);
    }
    let polygon = MultiPoint::new(scaled).convex_hull();
    let mut ring: Vec<[f64; 2]> = polygon
        .exterior()
        .coords()
        .filter_map(|c| back.get(&(c.x.to_bits(), c.y.to_bits())).copied())
        .collect();
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
    fn huge_and_tiny_coordinates_make_a_hull_not_a_panic() {
        // Finite, but products of differences overflow to infinity.
        let pts = [
            [1e301, 0.0],
            [0.0, 1.0],
            [-1e301, 2.0],
            [3.0, -1e301],
            [1.0, 1.0],
            [0.5, 1e300],
        ];
        let h = hull(pts.into_iter());
        assert!(h.iter().flatten().all(|v| v.is_finite()), "{h:?}");
        for p in [[1e301, 0.0], [-1e301, 2.0], [3.0, -1e301]] {
            assert!(h.contains(&p), "{p:?} missing from {h:?}");
        }
        // Not finite: left out.
        let h = hull([[f64::NAN, 0.0], [0.0, 0.0], [f64::INFINITY, 1.0]].into_iter());
        assert_eq!(h, vec![[0.0, 0.0]]);
        // The largest finite coordinates (2^1024 itself is not an f64).
        let h = hull([[f64::MAX, 0.0], [-f64::MAX, 0.0], [0.0, f64::MAX]].into_iter());
        assert!(
            h.contains(&[f64::MAX, 0.0]) && h.contains(&[0.0, f64::MAX]),
            "{h:?}"
        );
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
