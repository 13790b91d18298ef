//! Sides and corners of the polygon's windings.
//!
//! Walking a winding in its own order (counter-clockwise for the outer ring,
//! clockwise for holes — the block is always on the left), the turn at a
//! vertex is the change of heading between the segment arriving and the
//! segment leaving it, in degrees in `(-180, 180]`, **right turns
//! positive** (the AGS convention: "walking along the outside", so a square
//! counter-clockwise block has four turns of −90).
//!
//! A vertex is a corner when its turn reaches the crease angle: a left turn
//! (negative) when `-turn >= crease[0]`, a right turn when
//! `turn >= crease[1]`. Consecutive segments between corners form one side;
//! a winding without corners is a single closed side starting at its first
//! vertex.

use crate::geom::Xy;

/// A winding ready for the engine: distinct consecutive vertices, implicitly
/// closed.
#[derive(Debug, Clone)]
pub struct Ring {
    /// Vertices in the winding's order.
    pub pts: Vec<Xy>,
    /// Turn at each vertex (degrees, right positive).
    pub turns: Vec<f64>,
}

impl Ring {
    /// Builds a ring from an open winding, dropping repeated consecutive
    /// vertices (and a repeated closing vertex). `None` when fewer than three
    /// distinct vertices remain.
    pub fn new(w: &[Xy]) -> Option<Ring> {
        let mut pts: Vec<Xy> = Vec::with_capacity(w.len());
        for &p in w {
            if pts.last() != Some(&p) {
                pts.push(p);
            }
        }
        while pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        if pts.len() < 3 {
            return None;
        }
        let n = pts.len();
        let turns = (0..n)
            .map(|i| turn(pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n]))
            .collect();
        Some(Ring { pts, turns })
    }

    /// Number of vertices (= number of segments).
    pub fn len(&self) -> usize {
        self.pts.len()
    }

    /// Whether the ring has no vertices (never true for a built ring).
    pub fn is_empty(&self) -> bool {
        self.pts.is_empty()
    }

    /// Length of segment `i` (from vertex `i` to `i + 1`).
    pub fn seg_len(&self, i: usize) -> f64 {
        let n = self.pts.len();
        dist(self.pts[i % n], self.pts[(i + 1) % n])
    }

    /// Unit direction of segment `i`.
    pub fn seg_dir(&self, i: usize) -> Xy {
        let n = self.pts.len();
        unit(sub(self.pts[(i + 1) % n], self.pts[i % n]))
    }

    /// Indices of the corner vertices for crease angles `[left, right]`.
    pub fn corners(&self, crease: [f64; 2]) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| is_corner(self.turns[i], crease))
            .collect()
    }
}

/// Whether a vertex with this turn is a corner (see the module docs).
pub fn is_corner(turn: f64, crease: [f64; 2]) -> bool {
    if turn < 0.0 {
        -turn >= crease[0]
    } else {
        turn > 0.0 && turn >= crease[1]
    }
}

/// The turn at `v` between `a → v` and `v → b`, degrees, right positive.
pub fn turn(a: Xy, v: Xy, b: Xy) -> f64 {
    let d1 = sub(v, a);
    let d2 = sub(b, v);
    let cross = d1[0] * d2[1] - d1[1] * d2[0];
    let dot = d1[0] * d2[0] + d1[1] * d2[1];
    let left = cross.atan2(dot).to_degrees();
    // atan2 gives (-180, 180]; a U-turn is +180 (left) there, keep it as a
    // right turn of 180 so the range is (-180, 180].
    if left == 180.0 { 180.0 } else { -left }
}

/// One side: the poly-line between two consecutive corners (or a whole ring
/// without corners), parametrised by arclength.
#[derive(Debug, Clone)]
pub struct Side {
    /// Winding index.
    pub winding: usize,
    /// Vertex index (in the ring) where the side starts.
    pub start: usize,
    /// Vertex index where it ends (== start for a closed side).
    pub end: usize,
    /// True when the ring has no corner: the side is the whole ring.
    pub closed: bool,
    /// The poly-line's vertices from start to end inclusive.
    pub pts: Vec<Xy>,
    /// Cumulative arclength at each vertex (`cum[0] = 0`).
    pub cum: Vec<f64>,
}

impl Side {
    /// Total length in metres.
    pub fn len(&self) -> f64 {
        *self.cum.last().unwrap_or(&0.0)
    }

    /// Number of segments.
    pub fn segments(&self) -> usize {
        self.pts.len() - 1
    }

    /// The segment containing arclength `s` (clamped to the side).
    pub fn seg_at(&self, s: f64) -> usize {
        let s = if self.closed { self.wrap(s) } else { s };
        let k = self.cum.partition_point(|&c| c <= s);
        k.saturating_sub(1).min(self.segments() - 1)
    }

    /// Length of segment `k` of the side.
    pub fn seg_len(&self, k: usize) -> f64 {
        self.cum[k + 1] - self.cum[k]
    }

    fn wrap(&self, s: f64) -> f64 {
        let l = self.len();
        if l > 0.0 { s.rem_euclid(l) } else { 0.0 }
    }

    /// The point at arclength `s`. A closed side wraps around; an open side
    /// is extended straight beyond its ends.
    pub fn point_at(&self, s: f64) -> Xy {
        let s = if self.closed { self.wrap(s) } else { s };
        let k = self.seg_at(s);
        let (a, b) = (self.pts[k], self.pts[k + 1]);
        let l = self.seg_len(k);
        let t = if l > 0.0 { (s - self.cum[k]) / l } else { 0.0 };
        [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
    }

    /// Unit direction of the side's first segment.
    pub fn first_dir(&self) -> Xy {
        unit(sub(self.pts[1], self.pts[0]))
    }

    /// Unit direction of the side's last segment.
    pub fn last_dir(&self) -> Xy {
        let n = self.pts.len();
        unit(sub(self.pts[n - 1], self.pts[n - 2]))
    }

    /// The frame a tile of width `w` starting at arclength `s` is laid in:
    /// the chord from `point_at(s)` to `point_at(s + w)` — origin and unit
    /// direction. On a straight side the chord is the side itself.
    pub fn chord(&self, s: f64, w: f64) -> (Xy, Xy) {
        let a = self.point_at(s);
        let b = self.point_at(s + w);
        let d = sub(b, a);
        if d[0].hypot(d[1]) > 1e-9 {
            (a, unit(d))
        } else {
            (a, self.pts_dir_at(s))
        }
    }

    fn pts_dir_at(&self, s: f64) -> Xy {
        let k = self.seg_at(s);
        unit(sub(self.pts[k + 1], self.pts[k]))
    }
}

/// Splits ring `ring` (winding `winding`) at the corner vertices `corners`
/// (sorted) into sides. Side `k` starts at `corners[k]`.
pub fn sides(winding: usize, ring: &Ring, corners: &[usize]) -> Vec<Side> {
    let n = ring.len();
    let make = |start: usize, end: usize, closed: bool| {
        let count = if closed { n } else { (end + n - start) % n };
        let count = if count == 0 { n } else { count };
        let mut pts = Vec::with_capacity(count + 1);
        let mut cum = Vec::with_capacity(count + 1);
        let mut acc = 0.0;
        for k in 0..=count {
            let p = ring.pts[(start + k) % n];
            if let Some(&q) = pts.last() {
                acc += dist(q, p);
            }
            pts.push(p);
            cum.push(acc);
        }
        Side {
            winding,
            start,
            end,
            closed,
            pts,
            cum,
        }
    };
    if corners.is_empty() {
        return vec![make(0, 0, true)];
    }
    (0..corners.len())
        .map(|k| make(corners[k], corners[(k + 1) % corners.len()], false))
        .collect()
}

pub(crate) fn sub(a: Xy, b: Xy) -> Xy {
    [a[0] - b[0], a[1] - b[1]]
}

pub(crate) fn add(a: Xy, b: Xy) -> Xy {
    [a[0] + b[0], a[1] + b[1]]
}

pub(crate) fn scale(a: Xy, k: f64) -> Xy {
    [a[0] * k, a[1] * k]
}

pub(crate) fn dot(a: Xy, b: Xy) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

pub(crate) fn dist(a: Xy, b: Xy) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

pub(crate) fn unit(d: Xy) -> Xy {
    let l = d[0].hypot(d[1]);
    if l > 0.0 {
        [d[0] / l, d[1] / l]
    } else {
        [1.0, 0.0]
    }
}

/// `d` rotated counter-clockwise by `deg` degrees.
pub(crate) fn rotate(d: Xy, deg: f64) -> Xy {
    let (s, c) = deg.to_radians().sin_cos();
    [d[0] * c - d[1] * s, d[0] * s + d[1] * c]
}

/// `d` turned 90° counter-clockwise (into the block from a side).
pub(crate) fn left(d: Xy) -> Xy {
    [-d[1], d[0]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_turns_are_minus_90() {
        let r = Ring::new(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]).unwrap();
        for t in &r.turns {
            assert!((t + 90.0).abs() < 1e-9, "{t}");
        }
        assert_eq!(r.corners([30.0, 30.0]), vec![0, 1, 2, 3]);
        let s = sides(0, &r, &r.corners([30.0, 30.0]));
        assert_eq!(s.len(), 4);
        assert!((s[1].len() - 10.0).abs() < 1e-12);
        assert_eq!(s[1].pts, vec![[10.0, 0.0], [10.0, 10.0]]);
    }

    #[test]
    fn reflex_turn_is_positive_and_crease_sides() {
        // L shape: the vertex (5,5) is a right turn.
        let r = Ring::new(&[
            [0.0, 0.0],
            [10.0, 0.0],
            [10.0, 5.0],
            [5.0, 5.0],
            [5.0, 10.0],
            [0.0, 10.0],
        ])
        .unwrap();
        assert!((r.turns[3] - 90.0).abs() < 1e-9);
        assert_eq!(r.corners([30.0, 90.5]), vec![0, 1, 2, 4, 5]);
        assert_eq!(r.corners([30.0, 90.0]).len(), 6);
    }

    #[test]
    fn closed_side_wraps() {
        let r = Ring::new(&[
            [0.0, 0.0],
            [10.0, 0.0],
            [10.0, 10.0],
            [0.0, 10.0],
            [0.0, 0.0],
        ])
        .unwrap();
        assert_eq!(r.len(), 4);
        let s = sides(0, &r, &[]);
        assert!(s[0].closed);
        assert!((s[0].len() - 40.0).abs() < 1e-12);
        assert_eq!(s[0].point_at(45.0), [5.0, 0.0]);
        assert_eq!(s[0].point_at(15.0), [10.0, 5.0]);
    }

    #[test]
    fn chord_over_short_segments() {
        let r = Ring::new(&[[0.0, 0.0], [1.0, 0.1], [2.0, 0.0], [2.0, 5.0], [0.0, 5.0]]).unwrap();
        let s = sides(0, &r, &[2, 3, 4]);
        let side = &s[2];
        assert_eq!(side.start, 4);
        assert_eq!(side.segments(), 3);
        let (o, d) = side.chord(5.0, side.len() - 5.0);
        assert_eq!(o, [0.0, 0.0]);
        assert!((d[0] - 1.0).abs() < 1e-9 && d[1].abs() < 1e-9);
    }
}
