//! `FILL_LAYER`: trees over the interior the tiles left uncovered.
//!
//! Candidate points form a square grid at the forest spacing
//! ([`Params::tree_spacing`](crate::place::Params::tree_spacing)) over the
//! polygon's bounding box, each jittered at random within its cell; a point
//! becomes a tree when it lies inside the polygon (not in a hole) and under
//! no tile. When the grid would exceed [`MAX_FILL_POINTS`] points the
//! spacing is widened to stay under it and a warning says so.

use super::Engine;
use super::stop::TileIndex;
use crate::place::PlacedTree;
use crate::place::annotate::normalize_heading;
use rand::RngExt;

/// Most grid points the fill examines.
pub const MAX_FILL_POINTS: f64 = 250_000.0;

/// Flood-fills the interior (when the asset has a `FILL_LAYER`).
pub(crate) fn fill(eng: &mut Engine) {
    let Some(layer) = eng.props.fill_layer.as_ref().map(|l| l.value) else {
        return;
    };
    let mut spacing = eng.params.tree_spacing;
    if !(spacing.is_finite() && spacing > 0.0) {
        eng.warn(|| {
            format!("FILL_LAYER {layer}: tree spacing {spacing} is not positive; no fill trees")
        });
        return;
    }
    let (min, max) = eng.region.bbox();
    let (w, h) = (max[0] - min[0], max[1] - min[1]);
    let points = (w / spacing).ceil() * (h / spacing).ceil();
    if points > MAX_FILL_POINTS {
        let wider = spacing * (points / MAX_FILL_POINTS).sqrt() * 1.001;
        eng.warn(|| {
            format!(
                "FILL_LAYER {layer}: the polygon is too large to fill at {spacing:.1} m spacing; \
                 fill trees are {wider:.1} m apart"
            )
        });
        spacing = wider;
    }
    let tiles = TileIndex::new(eng.out.tiles.iter().map(|t| t.polygon.as_slice()));
    let (nx, ny) = (
        (w / spacing).ceil().max(1.0) as usize,
        (h / spacing).ceil().max(1.0) as usize,
    );
    let before = eng.out.trees.len();
    'rows: for j in 0..ny {
        for i in 0..nx {
            if !eng.budget.work(1 + eng.region.take_work()) {
                break 'rows;
            }
            let jx: f64 = eng.rng.random();
            let jy: f64 = eng.rng.random();
            let p = [
                min[0] + (i as f64 + jx) * spacing,
                min[1] + (j as f64 + jy) * spacing,
            ];
            if !eng.region.contains(p) || tiles.covers(p) {
                continue;
            }
            if !eng.budget.items(1) {
                break 'rows;
            }
            let heading = normalize_heading(eng.rng.random::<f64>() * 360.0);
            eng.out.trees.push(PlacedTree {
                tile: None,
                x: p[0],
                y: p[1],
                lon: 0.0,
                lat: 0.0,
                width: spacing,
                layer,
                heading,
                source_line: 0,
            });
        }
    }
    let n = eng.out.trees.len() - before;
    eng.explain(|| format!("fill: {n} trees of layer {layer} at {spacing:.1} m spacing"));
}
