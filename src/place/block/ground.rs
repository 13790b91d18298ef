//! `GROUND_PT_FORMULA x-ratio x-delta y-ratio y-delta`: the shared grading
//! point of an AGB.
//!
//! The four DSF corners are blended bilinearly — vertex 0 is the `(0, 0)`
//! corner, vertex 1 `(1, 0)`, vertex 2 `(1, 1)`, vertex 3 `(0, 1)`, i.e.
//! x runs along the first side and y away from it — and the result is moved
//! `x-delta` metres along the first side and `y-delta` metres along its
//! counter-clockwise normal. FLIP_180 does not change the formula: it is
//! defined on the DSF polygon, not on the texture.

use super::measure::Block;
use crate::geom::Xy;
use crate::xp::model::GroundFormula;

/// The grading point in local metres.
pub(crate) fn ground_point(block: &Block, f: &GroundFormula) -> Xy {
    let (x, y) = (f.x_ratio, f.y_ratio);
    let w = [(1.0 - x) * (1.0 - y), x * (1.0 - y), x * y, (1.0 - x) * y];
    let mut p = [0.0, 0.0];
    for (k, c) in block.world.iter().enumerate() {
        p[0] += w[k] * c[0];
        p[1] += w[k] * c[1];
    }
    [
        p[0] + f.x_delta * block.u[0] + f.y_delta * block.v[0],
        p[1] + f.x_delta * block.u[1] + f.y_delta * block.v[1],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::block::measure::measure;

    #[test]
    fn blends_and_offsets() {
        let w = vec![vec![[0.0, 0.0], [40.0, 0.0], [40.0, 20.0], [0.0, 20.0]]];
        let b = measure(&w).unwrap();
        let f = GroundFormula {
            x_ratio: 0.5,
            x_delta: 2.0,
            y_ratio: 0.25,
            y_delta: -1.0,
        };
        let p = ground_point(&b, &f);
        assert!(
            (p[0] - 22.0).abs() < 1e-9 && (p[1] - 4.0).abs() < 1e-9,
            "{p:?}"
        );
        // A first side running north: x along north, y towards the west.
        let w = vec![vec![[0.0, 0.0], [0.0, 40.0], [-20.0, 40.0], [-20.0, 0.0]]];
        let b = measure(&w).unwrap();
        let p = ground_point(&b, &f);
        assert!(
            (p[0] - (-5.0 + 1.0)).abs() < 1e-9 && (p[1] - 22.0).abs() < 1e-9,
            "{p:?}"
        );
    }
}
