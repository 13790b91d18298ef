//! Labels placed without collisions: each label tries its candidate
//! positions in order and takes the first whose box overlaps no marker
//! and no label placed before; a label with no free position is left out.
//!
//! Markers (object symbols, ground points, the DSF point, arrows) are
//! registered first as obstacles, so a label never covers what it
//! names. The boxes live in a grid of 32-pixel cells, so placing `n`
//! labels among `m` markers costs about `n + m`, not `n × m`.

use super::draw::{Bbox, Px, Text};
use std::collections::HashMap;

/// The boxes taken so far (markers and labels) and the area labels must
/// stay inside.
#[derive(Debug, Default)]
pub struct Labels {
    cells: HashMap<(i64, i64), Vec<Bbox>>,
    inside: Option<Bbox>,
}

/// Side of a grid cell, pixels.
const CELL: f64 = 32.0;

/// Most cells one box is filed under along an axis; a larger (or
/// non-finite) box is filed under one cell (it cannot be on the picture).
const MAX_SPAN: i64 = 64;

impl Labels {
    /// Labels that must lie inside `area` (the map, not the frame).
    pub fn inside(area: Bbox) -> Labels {
        Labels {
            cells: HashMap::new(),
            inside: Some(area),
        }
    }

    fn cells_of(b: &Bbox) -> Vec<(i64, i64)> {
        let span = |lo: f64, hi: f64| {
            let (a, z) = ((lo / CELL).floor() as i64, (hi / CELL).floor() as i64);
            if z.saturating_sub(a) > MAX_SPAN {
                a..=a
            } else {
                a..=z
            }
        };
        span(b[0], b[2])
            .flat_map(|cx| span(b[1], b[3]).map(move |cy| (cx, cy)))
            .collect()
    }

    fn free(&self, b: &Bbox) -> bool {
        let hit = |o: &Bbox| b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3];
        Self::cells_of(b)
            .iter()
            .all(|c| self.cells.get(c).is_none_or(|v| !v.iter().any(hit)))
    }

    fn take(&mut self, b: Bbox) {
        for c in Self::cells_of(&b) {
            self.cells.entry(c).or_default().push(b);
        }
    }

    /// Registers a marker's box: no label may overlap it (markers may
    /// overlap each other).
    pub fn obstacle(&mut self, b: Bbox) {
        self.take(b);
    }

    /// Takes `b` unless it overlaps a box taken before or leaves the
    /// area; true when taken.
    pub fn claim(&mut self, b: Bbox) -> bool {
        let within = self
            .inside
            .is_none_or(|a| b[0] >= a[0] && b[1] >= a[1] && b[2] <= a[2] && b[3] <= a[3]);
        if !within || !self.free(&b) {
            return false;
        }
        self.take(b);
        true
    }

    /// `text` at the first of `at` where it fits (its box grown by
    /// `pad` pixels each way); `None` when it fits nowhere.
    pub fn place(&mut self, text: Text, at: &[Px], pad: f64) -> Option<Text> {
        for &p in at {
            let t = Text {
                at: p,
                ..text.clone()
            };
            let b = t.bbox();
            if self.claim([b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad]) {
                return Some(t);
            }
        }
        None
    }
}

/// The box of a disc.
pub fn disc(at: Px, r: f64) -> Bbox {
    [at[0] - r, at[1] - r, at[0] + r, at[1] + r]
}

/// The box of a segment, grown by `w` pixels each way.
pub fn segment(a: Px, b: Px, w: f64) -> Bbox {
    [
        a[0].min(b[0]) - w,
        a[1].min(b[1]) - w,
        a[0].max(b[0]) + w,
        a[1].max(b[1]) + w,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::out::draw::Colour;

    #[test]
    fn overlapping_boxes_are_refused() {
        let mut t = Labels::default();
        assert!(t.claim([0.0, 0.0, 20.0, 10.0]));
        assert!(!t.claim([19.0, 9.0, 40.0, 20.0]), "overlaps the first");
        assert!(t.claim([20.0, 0.0, 40.0, 10.0]), "touching is fine");
        assert!(t.claim([100.0, 100.0, 120.0, 110.0]));
        assert!(!t.claim([90.0, 95.0, 130.0, 105.0]), "across cells");
        assert!(t.claim([f64::NAN, 0.0, f64::NAN, 1.0]), "no panic on NaN");
        assert!(t.claim([-1e300, 0.0, 1e300, 1.0]), "huge boxes are bounded");
    }

    #[test]
    fn a_label_moves_off_a_marker_or_is_left_out() {
        let mut l = Labels::inside([0.0, 0.0, 200.0, 200.0]);
        l.obstacle(disc([50.0, 50.0], 5.0));
        let t = Text::new("12", [50.0, 50.0], 11.0, Colour(0, 0, 0)).centred();
        let placed = l.place(t.clone(), &[[50.0, 50.0], [50.0, 70.0]], 1.0);
        assert_eq!(placed.map(|t| t.at), Some([50.0, 70.0]));
        // The same spot again is taken by the first label; off the map is
        // not allowed.
        assert!(
            l.place(t.clone(), &[[50.0, 70.0], [-5.0, 70.0]], 1.0)
                .is_none()
        );
    }
}
