//! A tree as the simulator draws it from a forest: its X-Plane 12 3-D mesh
//! when it has one ([`super::tree3d`], with the `SHADER_3D` texture:
//! [`is_3d`] tells which texture to draw it with), else a card of two
//! crossed vertical quads cut from the forest's texture.
//!
//! The card stands on the tree's foot at the origin (local metres: x east,
//! y north, z up) at heading 0: its first quad runs west to east, its
//! second south to north, each `width` metres across with the trunk at the
//! tree's `offset` across its rectangle, `height` metres tall. A view
//! turns it by the tree's heading and moves it to the tree.

use super::{Forest, Tree};
use crate::geom::Mesh;

/// The tree's rectangle of the forest's texture as `[s0, t0, s1, t1]`
/// (X-Plane's s, t: 0 … 1, origin at the bottom left; t0 at the tree's
/// foot). A `SCALE` that is not positive counts as 1.
pub fn rect(forest: &Forest, tree: &Tree) -> [f64; 4] {
    let [sx, sy] = forest.scale.map(|v| if v > 0.0 { v } else { 1.0 });
    [
        tree.s / sx,
        tree.t / sy,
        (tree.s + tree.w) / sx,
        (tree.t + tree.h) / sy,
    ]
}

/// True when `tree` is drawn as its 3-D mesh (with the forest's
/// `texture_3d`).
pub fn is_3d(forest: &Forest, tree: &Tree) -> bool {
    super::tree3d::mesh_of(forest, tree).is_some()
}

/// The tree `height` metres tall: its 3-D mesh, scaled by height over the
/// tree's minimum height, when it has one; else its card, `width` by
/// `height` metres.
pub fn tree(forest: &Forest, tree: &Tree, width: f64, height: f64) -> Mesh {
    if let Some(g) = super::tree3d::tree(forest, tree, height, 0.0) {
        return Mesh::smooth(&g.positions, &g.uvs, &g.triangles);
    }
    let trunk = if tree.w.abs() > 0.0 {
        (tree.offset / tree.w.abs()).clamp(0.0, 1.0)
    } else {
        0.5
    };
    card(width, height, trunk, rect(forest, tree))
}

/// The 3-D mesh of `tree` at scale 1 (standing on the origin, heading 0)
/// and the scale a tree `height` metres tall draws it at, so that one
/// mesh serves every tree of its kind, each placed by its scale, heading
/// and foot ([`super::tree3d::unit`]); `None` when the tree is drawn as a
/// card.
pub fn tree_3d(forest: &Forest, tree: &Tree, height: f64) -> Option<(Mesh, f64)> {
    let (g, s) = super::tree3d::unit(forest, tree, height)?;
    Some((Mesh::smooth(&g.positions, &g.uvs, &g.triangles), s))
}

/// The card of a tree without a forest to cut it from: the whole texture,
/// the trunk in the middle.
pub fn plain(width: f64, height: f64) -> Mesh {
    card(width, height, 0.5, [0.0, 0.0, 1.0, 1.0])
}

/// Two crossed quads `w` × `h` with the trunk `trunk` (0 … 1) across,
/// each spanning `window`.
fn card(w: f64, h: f64, trunk: f64, window: [f64; 4]) -> Mesh {
    let [s0, t0, s1, t1] = window;
    let mut m = Mesh::default();
    // Across each quad: east, then east turned 90° clockwise (south).
    for across in [[1.0, 0.0], [0.0, -1.0]] {
        let left = [-across[0] * w * trunk, -across[1] * w * trunk];
        let right = [across[0] * w * (1.0 - trunk), across[1] * w * (1.0 - trunk)];
        m.quad(
            [
                [left[0], left[1], 0.0],
                [right[0], right[1], 0.0],
                [right[0], right[1], h],
                [left[0], left[1], h],
            ],
            [[s0, t0], [s1, t0], [s1, t1], [s0, t1]],
        );
    }
    m
}
