//! `FILL_LAYER`: trees over the interior the tiles left uncovered.
//!
//! With the forest read ([`crate::place::art`]), candidate points form a
//! grid of the forest's `SPACING` x × z over the polygon's bounding box,
//! one at the centre of each cell moved by up to the forest's `RANDOM` x and
//! z, each a tree of the layer with a height in its range; their draws come
//! from the art generator ([`crate::place::art::TreeArt::rng`]). Without
//! it, the grid is square at
//! [`Params::tree_spacing`](crate::place::Params::tree_spacing), each point
//! jittered at random within its cell. A point becomes a tree when it lies
//! inside the polygon (not in a hole) and under no tile. When the grid
//! would exceed [`MAX_FILL_POINTS`] points the spacing is widened (both
//! sides alike) to stay under it and a warning says so.

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
    let params = eng.params;
    let trees = params.tree_art();
    let ([mut sx, mut sy], random) = match &trees {
        Some(t) => t.spacing(),
        None => ([params.tree_spacing; 2], [0.0; 2]),
    };
    if !(sx.is_finite() && sx > 0.0) {
        eng.warn(|| {
            format!("FILL_LAYER {layer}: tree spacing {sx} is not positive; no fill trees")
        });
        return;
    }
    let (min, max) = eng.region.bbox();
    let (w, h) = (max[0] - min[0], max[1] - min[1]);
    let points = (w / sx).ceil() * (h / sy).ceil();
    if points > MAX_FILL_POINTS {
        let k = (points / MAX_FILL_POINTS).sqrt() * 1.001;
        let (wx, wy) = (sx * k, sy * k);
        eng.warn(|| {
            format!(
                "FILL_LAYER {layer}: the polygon is too large to fill at {sx:.1} × {sy:.1} m \
                 spacing; fill trees are {wx:.1} × {wy:.1} m apart"
            )
        });
        (sx, sy) = (wx, wy);
    }
    let tiles = TileIndex::new(eng.out.tiles.iter().map(|t| t.polygon.as_slice()));
    let (nx, ny) = (
        (w / sx).ceil().max(1.0) as usize,
        (h / sy).ceil().max(1.0) as usize,
    );
    let mut art_rng = trees.as_ref().map(|t| t.rng(usize::MAX, 0));
    let before = eng.out.trees.len();
    'rows: for j in 0..ny {
        for i in 0..nx {
            if !eng.budget.work(1 + eng.region.take_work()) {
                break 'rows;
            }
            let rng = art_rng.as_mut().unwrap_or(&mut eng.rng);
            let p = if trees.is_some() {
                let jx = (rng.random::<f64>() * 2.0 - 1.0) * random[0];
                let jy = (rng.random::<f64>() * 2.0 - 1.0) * random[1];
                [
                    min[0] + (i as f64 + 0.5) * sx + jx,
                    min[1] + (j as f64 + 0.5) * sy + jy,
                ]
            } else {
                let jx: f64 = rng.random();
                let jy: f64 = rng.random();
                [min[0] + (i as f64 + jx) * sx, min[1] + (j as f64 + jy) * sy]
            };
            if !eng.region.contains(p) || tiles.covers(p) {
                continue;
            }
            if !eng.budget.items(1) {
                break 'rows;
            }
            let rng = art_rng.as_mut().unwrap_or(&mut eng.rng);
            let heading = normalize_heading(rng.random::<f64>() * 360.0);
            let mut tree = PlacedTree {
                tile: None,
                x: p[0],
                y: p[1],
                width: sx,
                layer,
                heading,
                source_line: 0,
                ..PlacedTree::default()
            };
            if let (Some(t), Some(rng)) = (&trees, art_rng.as_mut())
                && let Some(pick) = t.pick(layer, None, rng)
            {
                crate::place::art::set_tree(&mut tree, pick);
            }
            eng.out.trees.push(tree);
        }
    }
    let n = eng.out.trees.len() - before;
    eng.explain(|| format!("fill: {n} trees of layer {layer} at {sx:.1} × {sy:.1} m spacing"));
}
