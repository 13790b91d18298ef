//! Step 1: the DSF polygon → the block frame and the block's measures.
//!
//! The polygon must be one counter-clockwise winding of four points without
//! holes. Its first side (vertex 0 → vertex 1) fixes the block frame: `s`
//! metres along the first side from vertex 0, `t` metres along the
//! counter-clockwise normal (into the polygon).
//!
//! Width is the shortest chord along `s` over the band `0 ≤ t ≤ min(t₂, t₃)`
//! (where both the left and the right side exist); depth is the shortest
//! chord along `t` over the band of `s` where both the first side and the far
//! side exist (when no normal meets both, the normal distance to the nearer
//! far corner). Chord length is piecewise linear between vertex heights, so
//! the minimum is found at the band's ends and the vertices inside it.

use crate::geom::Xy;
use crate::place::PlaceError;
use geo::{Area, LineString, Polygon, Validation};

/// The DSF polygon in the block frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Block {
    /// Vertex 0 in local metres.
    pub origin: Xy,
    /// Unit vector along the first side.
    pub u: Xy,
    /// `u` turned 90° counter-clockwise.
    pub v: Xy,
    /// The four vertices in block coordinates `(s, t)`.
    pub q: [Xy; 4],
    /// The four vertices in local metres.
    pub world: [Xy; 4],
    /// Length of the first side.
    pub first_side: f64,
    /// Shortest width across the polygon along the first side.
    pub width: f64,
    /// Shortest distance across normal to the first side.
    pub depth: f64,
    /// True when the quadrilateral is convex.
    pub convex: bool,
}

impl Block {
    /// Local metres of block coordinates.
    pub fn to_world(&self, s: f64, t: f64) -> Xy {
        [
            self.origin[0] + s * self.u[0] + t * self.v[0],
            self.origin[1] + s * self.u[1] + t * self.v[1],
        ]
    }

    /// Block coordinates of a local point.
    pub fn to_block(&self, p: Xy) -> Xy {
        let d = [p[0] - self.origin[0], p[1] - self.origin[1]];
        [
            d[0] * self.u[0] + d[1] * self.u[1],
            d[0] * self.v[0] + d[1] * self.v[1],
        ]
    }

    /// Whether a local point is inside the (convex) polygon, boundary
    /// included within `eps` metres. Only meaningful when [`Block::convex`].
    pub fn contains_convex(&self, p: Xy, eps: f64) -> bool {
        (0..4).all(|i| {
            let a = self.world[i];
            let b = self.world[(i + 1) % 4];
            let e = [b[0] - a[0], b[1] - a[1]];
            let len = (e[0] * e[0] + e[1] * e[1]).sqrt();
            let cross = e[0] * (p[1] - a[1]) - e[1] * (p[0] - a[0]);
            cross >= -eps * len
        })
    }
}

/// Checks the DSF windings and measures the block.
pub(crate) fn measure(windings: &[Vec<Xy>]) -> Result<Block, PlaceError> {
    let bad = |m: String| Err(PlaceError::Polygon(m));
    match windings.len() {
        0 => return bad("an AGB needs one winding of 4 points; got none".into()),
        1 => {}
        n => {
            return bad(format!(
                "an AGB needs one winding of 4 points; got {n} windings (holes are not permitted)"
            ));
        }
    }
    let w = &windings[0];
    if w.len() != 4 {
        return bad(format!(
            "an AGB needs one winding of 4 points; got a winding of {} points",
            w.len()
        ));
    }
    if let Some(i) = w
        .iter()
        .position(|p| !p[0].is_finite() || !p[1].is_finite())
    {
        return bad(format!("vertex {i} is not a finite coordinate"));
    }
    for i in 0..4 {
        let (a, b) = (w[i], w[(i + 1) % 4]);
        if a == b {
            return bad(format!(
                "vertex {} repeats vertex {i} (a zero-length side); an AGB needs four distinct corners",
                (i + 1) % 4
            ));
        }
    }
    let ring = LineString::from(w.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>());
    let poly = Polygon::new(ring, vec![]);
    let area = poly.signed_area();
    let scale = w
        .iter()
        .map(|p| (p[0] - w[0][0]).abs().max((p[1] - w[0][1]).abs()))
        .fold(0.0, f64::max);
    if area.abs() <= 1e-9 * scale * scale.max(1.0) || scale == 0.0 {
        return bad("the winding has no area".into());
    }
    if area < 0.0 {
        return bad("the winding is clockwise; an AGB polygon must be counter-clockwise".into());
    }
    if !poly.is_valid() {
        return bad("the winding crosses itself".into());
    }
    let d = [w[1][0] - w[0][0], w[1][1] - w[0][1]];
    let first_side = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if first_side <= 1e-9 * scale {
        return bad("the first side has zero length, so it cannot orient the grid".into());
    }
    let u = [d[0] / first_side, d[1] / first_side];
    let v = [-u[1], u[0]];
    let mut block = Block {
        origin: w[0],
        u,
        v,
        q: [[0.0; 2]; 4],
        world: [w[0], w[1], w[2], w[3]],
        first_side,
        width: 0.0,
        depth: 0.0,
        convex: true,
    };
    block.q = std::array::from_fn(|i| block.to_block(w[i]));
    block.convex = (0..4).all(|i| {
        let a = block.q[i];
        let b = block.q[(i + 1) % 4];
        let c = block.q[(i + 2) % 4];
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) >= 0.0
    });
    let q = block.q;
    let top = q[2][1].min(q[3][1]).max(0.0);
    block.width = shortest_chord(&q, 0, 0.0, top);
    let (lo, hi) = (q[3][0].max(0.0), q[2][0].min(first_side));
    block.depth = if lo <= hi {
        shortest_chord(&q, 1, lo, hi)
    } else {
        // So skewed that no normal to the first side meets the far side:
        // the normal distance from the first side to the nearer far corner.
        q[2][1].min(q[3][1]).max(0.0)
    };
    Ok(block)
}

/// The shortest chord along axis `along` (0 = s, 1 = t) for cross positions
/// in `[lo, hi]`.
fn shortest_chord(q: &[Xy; 4], along: usize, lo: f64, hi: f64) -> f64 {
    let cross = 1 - along;
    let span = hi - lo;
    let nudge = 1e-9 * span.max(1e-9);
    let mut at: Vec<f64> = vec![lo + nudge, hi - nudge];
    at.extend(q.iter().map(|p| p[cross]).filter(|&c| c > lo && c < hi));
    if span <= 0.0 {
        at = vec![lo];
    }
    at.into_iter()
        .map(|c| chord(q, along, c))
        .fold(f64::INFINITY, f64::min)
}

/// The length inside the polygon of the line `coord[1 - along] = at`.
fn chord(q: &[Xy; 4], along: usize, at: f64) -> f64 {
    let cross = 1 - along;
    let mut xs: Vec<f64> = Vec::with_capacity(4);
    for i in 0..4 {
        let a = q[i];
        let b = q[(i + 1) % 4];
        let (ca, cb) = (a[cross], b[cross]);
        if (ca <= at && at < cb) || (cb <= at && at < ca) {
            let k = (at - ca) / (cb - ca);
            xs.push(a[along] + k * (b[along] - a[along]));
        }
    }
    xs.sort_by(f64::total_cmp);
    xs.chunks(2)
        .map(|p| if p.len() == 2 { p[1] - p[0] } else { 0.0 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(w: &[Xy]) -> Vec<Vec<Xy>> {
        vec![w.to_vec()]
    }

    #[test]
    fn rectangle_measures() {
        let b = measure(&one(&[[0.0, 0.0], [40.0, 0.0], [40.0, 25.0], [0.0, 25.0]])).unwrap();
        assert!((b.width - 40.0).abs() < 1e-6);
        assert!((b.depth - 25.0).abs() < 1e-6);
        assert!(b.convex);
    }

    #[test]
    fn rotated_trapezoid_measures() {
        // First side runs north; the far side is 30 m long, 20 m away.
        let w = [[0.0, 0.0], [0.0, 40.0], [-20.0, 35.0], [-20.0, 5.0]];
        let b = measure(&one(&w)).unwrap();
        assert!((b.u[1] - 1.0).abs() < 1e-12 && (b.v[0] + 1.0).abs() < 1e-12);
        assert!((b.width - 30.0).abs() < 1e-6, "{}", b.width);
        assert!((b.depth - 20.0).abs() < 1e-6, "{}", b.depth);
    }

    #[test]
    fn skewed_block_depth_uses_the_nearer_far_corner() {
        let w = [[0.0, 0.0], [50.0, 0.0], [52.0, 30.0], [1.0, 27.0]];
        let b = measure(&one(&w)).unwrap();
        assert!(b.depth > 26.9 && b.depth <= 27.5, "{}", b.depth);
        assert!(b.width > 49.0 && b.width <= 51.0, "{}", b.width);
    }

    #[test]
    fn very_skewed_parallelogram_depth_is_the_normal_distance() {
        // The far side starts past the first side's end: no normal meets both.
        let w = [[0.0, 0.0], [50.0, 0.0], [110.0, 30.0], [60.0, 30.0]];
        let b = measure(&one(&w)).unwrap();
        assert!((b.depth - 30.0).abs() < 1e-9, "{}", b.depth);
        assert!(b.width.is_finite() && b.width > 0.0);
        // Just before that, a normal at the first side's end meets the far
        // side 30 m away too: the rule is continuous.
        let w = [[0.0, 0.0], [50.0, 0.0], [100.0, 30.0], [50.0, 30.0]];
        assert!((measure(&one(&w)).unwrap().depth - 30.0).abs() < 1e-6);
    }

    #[test]
    fn trapezoid_depth_is_normal_to_the_first_side() {
        // Long first side, short far side, legs leaning in.
        let w = [[0.0, 0.0], [60.0, 0.0], [45.0, 18.0], [12.0, 18.0]];
        let b = measure(&one(&w)).unwrap();
        assert!((b.depth - 18.0).abs() < 1e-6, "{}", b.depth);
        assert!((b.width - 33.0).abs() < 1e-6, "{}", b.width);
    }

    #[test]
    fn repeated_vertices_are_an_error() {
        for w in [
            [[0.0, 0.0], [10.0, 0.0], [10.0, 0.0], [0.0, 10.0]],
            [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [10.0, 10.0]],
            [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 0.0]],
        ] {
            match measure(&one(&w)) {
                Err(PlaceError::Polygon(m)) => assert!(m.contains("zero-length side"), "{m}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn rejects_bad_polygons() {
        let sq = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let err = |w: Vec<Vec<Xy>>| match measure(&w) {
            Err(PlaceError::Polygon(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(err(vec![sq.to_vec(), sq.to_vec()]).contains("got 2 windings"));
        assert!(err(one(&sq[..3])).contains("3 points"));
        let mut cw = sq.to_vec();
        cw.reverse();
        assert!(err(vec![cw]).contains("clockwise"));
        let bow = [[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [0.0, 10.0]];
        assert!(!err(one(&bow)).is_empty());
        assert!(err(one(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])).contains("no area"));
        assert!(
            err(one(&[[0.0, f64::NAN], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])).contains("finite")
        );
    }
}
