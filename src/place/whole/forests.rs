//! Forest rows: trees filled at the forest's `SPACING` and `RANDOM`, kept
//! with the probability of the polygon's density, inside the outer ring
//! and out of its holes (fill mode 0), along the line (mode 1) or at each
//! point (mode 2), each picked from the forest's lowest layer; without the
//! forest, at [`Params::tree_spacing`].

use super::{Laid, rings};
use crate::dsf::features::Feature;
use crate::geom::{LocalFrame, Xy};
use crate::place::art::TreeArt;
use crate::place::{Params, PlacedTree, Placement, Rng};
use rand::RngExt;

/// Most grid points one forest polygon's fill examines; a wider polygon is
/// filled at a wider spacing (with a warning).
pub const MAX_FOREST_POINTS: f64 = 250_000.0;

/// True when `p` is inside the rings (even-odd: holes are out).
fn inside(rings: &[Vec<Xy>], p: Xy) -> bool {
    let mut odd = false;
    for r in rings {
        let n = r.len();
        for i in 0..n {
            let (a, b) = (r[i], r[(i + 1) % n]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            {
                odd = !odd;
            }
        }
    }
    odd
}

/// Lays out the trees of one forest row into `p`.
pub(super) fn lay(
    f: &Feature,
    frame: &LocalFrame,
    trees: Option<TreeArt>,
    params: &Params,
    rng: &mut Rng,
    p: &mut Placement,
    take: &mut dyn FnMut(usize) -> bool,
) -> Laid {
    let density = f.density.unwrap_or(1.0);
    let rs: Vec<Vec<Xy>> = rings(&f.geometry)
        .iter()
        .map(|r| r.iter().map(|&q| frame.to_local(q)).collect())
        .collect();
    let ([mut sx, mut sy], random) = match &trees {
        Some(t) => t.spacing(),
        None => ([params.tree_spacing; 2], [0.0; 2]),
    };
    // The lowest layer that has trees: a DSF forest is not an annotation
    // naming one.
    let layer = trees
        .as_ref()
        .and_then(|t| t.forest.trees.iter().map(|t| t.layer).min())
        .unwrap_or(0);
    let mut points: Vec<Xy> = Vec::new();
    match f.fill_mode.unwrap_or(0) {
        0 => {
            let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for q in rs.iter().flatten() {
                for k in 0..2 {
                    min[k] = min[k].min(q[k]);
                    max[k] = max[k].max(q[k]);
                }
            }
            let (w, h) = (max[0] - min[0], max[1] - min[1]);
            if !(w.is_finite() && h.is_finite() && sx > 0.0 && sy > 0.0) {
                return Laid::Row;
            }
            let n = (w / sx).ceil() * (h / sy).ceil();
            if n > MAX_FOREST_POINTS {
                let k = (n / MAX_FOREST_POINTS).sqrt() * 1.001;
                p.warnings.push(format!(
                    "entity {}: the forest is too large to fill at {sx:.1} × {sy:.1} m spacing; \
                     its trees are {:.1} × {:.1} m apart",
                    f.entity,
                    sx * k,
                    sy * k
                ).into());
                (sx, sy) = (sx * k, sy * k);
            }
            let (nx, ny) = (
                (w / sx).ceil().max(1.0) as usize,
                (h / sy).ceil().max(1.0) as usize,
            );
            for j in 0..ny {
                for i in 0..nx {
                    let jx = (rng.random::<f64>() * 2.0 - 1.0) * random[0];
                    let jy = (rng.random::<f64>() * 2.0 - 1.0) * random[1];
                    let q = [
                        min[0] + (i as f64 + 0.5) * sx + jx,
                        min[1] + (j as f64 + 0.5) * sy + jy,
                    ];
                    if rng.random::<f64>() < density && inside(&rs, q) {
                        points.push(q);
                    }
                }
            }
        }
        1 => {
            let line = &rs[0];
            for w in line.windows(2) {
                let (dx, dy) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
                let len = dx.hypot(dy);
                let steps = (len / sx).floor().min(MAX_FOREST_POINTS) as usize;
                for s in 0..=steps {
                    let t = if len > 0.0 { s as f64 * sx / len } else { 0.0 };
                    if rng.random::<f64>() < density {
                        points.push([w[0][0] + dx * t, w[0][1] + dy * t]);
                    }
                }
            }
        }
        _ => points.extend(rs.iter().flatten().copied()),
    }
    for q in points {
        if !take(1) {
            return Laid::Stopped;
        }
        let heading = crate::place::annotate::normalize_heading(rng.random::<f64>() * 360.0);
        let [lon, lat] = frame.to_lonlat(q);
        let mut tree = PlacedTree {
            x: q[0],
            y: q[1],
            lon,
            lat,
            width: sx,
            layer: i64::from(layer),
            heading,
            entity: Some(f.entity),
            ..PlacedTree::default()
        };
        if let Some(t) = &trees
            && let Some(pick) = t.pick(i64::from(layer), None, rng)
        {
            crate::place::art::set_tree(&mut tree, pick);
        }
        p.trees.push(tree);
    }
    Laid::Row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_are_outside() {
        let outer = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let hole = vec![[4.0, 4.0], [4.0, 6.0], [6.0, 6.0], [6.0, 4.0]];
        let rs = vec![outer, hole];
        assert!(inside(&rs, [1.0, 1.0]));
        assert!(!inside(&rs, [5.0, 5.0]));
        assert!(!inside(&rs, [11.0, 5.0]));
    }
}
