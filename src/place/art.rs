//! The art an asset names, as placement follows it: each object's real
//! footprint and height, each facade's height, roof and wall choice, the
//! forest's tree table for `TREE`, `TREE_LINE` and `FILL_LAYER`.
//!
//! An [`Art`] holds, for one asset, every `OBJECT`, `FACADE` and the
//! `VEGETATION` it names, each found and read ([`ArtState::Found`]) or not
//! (missing, a library path not looked up, or a file with errors). Finding
//! and reading them is the scenery's business
//! ([`crate::scenery::art::ArtStore`]); placement only reads what it is
//! given through [`Params::art`](super::Params::art). Without art (`None`)
//! a placement is what it was before art was read: objects are points,
//! tree lines and fills are laid [`Params::tree_spacing`](super::Params)
//! apart, and no item carries art fields.
//!
//! With art, every object, facade and tree says whether its file was
//! [`ArtState::Found`]; where it was not, the item is placed as without art
//! and the placement carries one warning per file ([`RULES`]: `AG0085`
//! missing, `AG0086` not looked up, `AG0087` unreadable), never one per
//! item.
//!
//! The rules (`docs/placement.md`, "Art"):
//!
//! - **Objects.** The OBJ's footprint ([`crate::obj::Obj::footprint`]: the
//!   convex hull of its solid LOD-0 triangles, in the OBJ's frame: x east
//!   and z south at heading 0) turned clockwise by the object's heading
//!   and moved to its position ([`footprint_at`]); its height the OBJ's
//!   [`crate::obj::Obj::height`].
//! - **Facades.** Type 2: the floor whose top `ROOF_HEIGHT` is closest to
//!   the height asked (WorldEditor's `draw_facade`, xptools
//!   `WED_FacadePreview.cpp`); type 1: the height asked within the
//!   facade's height range. Each side draws the wall its `FAC_WALLS` type
//!   names (0 for `FAC`), the last wall when the type is past them (as
//!   `draw_facade` clamps it).
//! - **Trees.** A `TREE` picks a tree of its layer, each weighted by its
//!   percentage ([`crate::forest::Forest::pick`]), and scales it to the
//!   width given (its height the width over the tree's aspect). A
//!   `TREE_LINE` walks from its start to its end in steps of the forest's
//!   `SPACING` x, each step moved by up to its `RANDOM` x either way; a
//!   `FILL_LAYER` plants one tree per `SPACING` x × z cell, each moved by
//!   up to `RANDOM` x and z. Their trees take a height drawn between the
//!   tree's own minimum and maximum and the width that height gives.
//!   These draws come from a generator of their own, seeded from the
//!   placement's seed, the tile and the annotation line
//!   ([`TreeArt::rng`]), so the engines' other choices are the same with
//!   and without art.

use super::{PlacedFacade, PlacedObject, PlacedTree, Placement, Rng, Warning};
use crate::fac::Facade;
use crate::forest::{Forest, Tree};
use crate::geom::Xy;
use rand::RngExt;

pub use crate::scenery::art::model::*;

/// A footprint in the object's frame (`[x, z]`, x east and z south at
/// heading 0) placed at `at` (local metres) and turned `heading` degrees
/// clockwise: the ring in local metres (x east, y north), in the same
/// order.
pub fn footprint_at(footprint: &[[f64; 2]], at: Xy, heading: f64) -> Vec<Xy> {
    let (s, c) = heading.to_radians().sin_cos();
    footprint
        .iter()
        .map(|&[x, z]| {
            // The object's frame at heading 0: east = x, north = −z.
            let (e, n) = (x, -z);
            // Clockwise by the heading.
            [at[0] + e * c + n * s, at[1] - e * s + n * c]
        })
        .collect()
}

/// What tree annotations draw from when the forest was read.
#[derive(Debug, Clone, Copy)]
pub struct TreeArt<'a> {
    /// The forest.
    pub forest: &'a Forest,
    /// The placement's seed.
    pub seed: u64,
}

/// A tree picked from the forest.
#[derive(Debug, Clone, PartialEq)]
pub struct TreePick {
    /// Its index in the forest's tree table (file order).
    pub index: usize,
    /// Its name, when the forest gives one.
    pub name: Option<String>,
    /// Width in metres.
    pub width: f64,
    /// Height in metres.
    pub height: f64,
}

impl<'a> TreeArt<'a> {
    /// The generator of the trees of one annotation: seeded from the
    /// placement's seed, the tile and the annotation's line (a fill uses
    /// tile `usize::MAX`, line 0), so the engines' own generator is left as
    /// it is without art.
    pub fn rng(&self, tile: usize, line: usize) -> Rng {
        let mut h = self.seed ^ 0x6172_745f_7472_6565; // "art_tree"
        for v in [tile as u64, line as u64] {
            h = (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 31;
        }
        super::rng(h)
    }

    /// The tree of `layer` a draw of `rng` picks (each weighted by its
    /// percentage), scaled to `width` metres when given (its height
    /// `width` over its aspect), else as tall as a draw between its
    /// minimum and maximum height (its width that height times its
    /// aspect). `None` when the layer has no tree to pick.
    pub fn pick(&self, layer: i64, width: Option<f64>, rng: &mut Rng) -> Option<TreePick> {
        let layer = u32::try_from(layer).ok()?;
        let r: f64 = rng.random();
        // The forest indexes its layers once: a pick is a binary search,
        // not a walk over the table (see `Forest::pick_index`).
        let index = self.forest.pick_index(layer, r)?;
        let tree = &self.forest.trees[index];
        let aspect = tree.aspect();
        let (width, height) = match width {
            Some(w) if aspect > 0.0 => (w, w / aspect),
            Some(w) => (w, random_height(tree, rng)),
            None => {
                let h = random_height(tree, rng);
                (h * aspect, h)
            }
        };
        Some(TreePick {
            index,
            name: tree.name.clone(),
            width,
            height,
        })
    }

    /// The forest's spacing (x, z) and randomness (x, z) in metres, made
    /// usable: a spacing that is not positive is taken as 30 m (the
    /// forest default), a randomness that is negative as 0.
    pub fn spacing(&self) -> ([f64; 2], [f64; 2]) {
        let s = self
            .forest
            .spacing
            .map(|v| if v.is_finite() && v > 0.0 { v } else { 30.0 });
        let r = self
            .forest
            .random
            .map(|v| if v.is_finite() && v > 0.0 { v } else { 0.0 });
        (s, r)
    }
}

/// A height between the tree's minimum and maximum (the two swapped when
/// written the wrong way round).
fn random_height(tree: &Tree, rng: &mut Rng) -> f64 {
    let (lo, hi) = (
        tree.min_height.min(tree.max_height),
        tree.min_height.max(tree.max_height),
    );
    lo + rng.random::<f64>() * (hi - lo)
}

/// Applies `art` to a placement the engines made: footprints and heights
/// of objects, heights, roofs and walls of facades, the state of every
/// item's file; and one warning per art file not found or not read that
/// items use (trees are picked by the engines, see [`TreeArt`]).
pub(crate) fn apply(p: &mut Placement, art: &Art) {
    // (path, kind) → (state, how, items).
    let mut unread: std::collections::BTreeMap<(String, ArtKind), (ArtState, String, usize)> =
        std::collections::BTreeMap::new();
    let mut note = |path: &str, state: ArtState, how: &str, kind: ArtKind| {
        unread
            .entry((path.to_string(), kind))
            .or_insert((state, how.to_string(), 0))
            .2 += 1;
    };
    for o in &mut p.objects {
        let Some(file) = usize::try_from(o.index)
            .ok()
            .and_then(|i| art.objects.get(i))
        else {
            continue;
        };
        o.art = Some(file.state);
        match file.get() {
            Some(shape) => object_art(o, shape),
            None => note(&file.path, file.state, &file.how, ArtKind::Object),
        }
    }
    for f in &mut p.facades {
        let Some(file) = art.facade(&f.asset) else {
            continue;
        };
        f.art = Some(file.state);
        match file.get() {
            Some(fac) => facade_art(f, fac),
            None => note(&file.path, file.state, &file.how, ArtKind::Facade),
        }
    }
    if let Some(file) = &art.forest {
        let mut empty: std::collections::BTreeSet<i64> = std::collections::BTreeSet::new();
        for t in &mut p.trees {
            t.art = Some(file.state);
            if file.get().is_none() {
                note(&file.path, file.state, &file.how, ArtKind::Forest);
            } else if t.forest_tree.is_none() {
                empty.insert(t.layer);
            }
        }
        for layer in empty {
            p.warnings.push(
                format!(
                    "{}: no tree of layer {layer} to draw; its trees are placed without one",
                    file.path
                )
                .into(),
            );
        }
    }
    for ((path, kind), (state, how, n)) in unread {
        let (item, without) = match kind {
            ArtKind::Object => ("object", "as points, without footprint or height"),
            ArtKind::Facade => ("facade", "without its heights, roof or walls"),
            _ => (
                "tree",
                "without it; tree lines and fill at the fixed spacing",
            ),
        };
        p.warnings.push(Warning::coded(
            format!(
                "{path}: {} ({how}); {} placed {without}",
                state.describe(),
                crate::ground::words::count(n, item),
            ),
            state.codes(),
        ));
    }
}

/// An object's footprint and height from its OBJ.
fn object_art(o: &mut PlacedObject, shape: &ObjShape) {
    if shape.footprint.len() >= 3 {
        o.footprint = footprint_at(&shape.footprint, [o.x, o.y], o.heading);
    }
    o.object_height = shape.height;
}

/// A facade's drawn height, floor, walls and roof from its `.fac`: its
/// [`crate::fac::layout::layout`] on the footprint, computed here once and
/// kept in [`PlacedFacade::layout`], the one every view builds the
/// facade's mesh from.
fn facade_art(f: &mut PlacedFacade, fac: &Facade) {
    let layout = crate::fac::layout::layout(fac, &f.polygon, f.height, f.walls.as_deref());
    f.drawn_height = layout.drawn_height();
    f.floors = layout.floors;
    let sides = &layout.sides;
    if !fac.is_type2() && !sides.is_empty() {
        f.panels = Some(sides.iter().map(|s| s.panels.unwrap_or_default()).collect());
    }
    if fac.is_type2() && !sides.is_empty() {
        f.segments = Some(
            sides
                .iter()
                .map(|s| s.segments.clone().unwrap_or_default())
                .collect(),
        );
    }
    f.floor = layout.floor_name.clone();
    let walls = layout.walls();
    f.wall_choice = (!walls.is_empty()).then_some(walls);
    f.roof = Some(layout.roof);
    f.wall_texture = fac.wall_texture().map(str::to_string);
    f.roof_texture = fac.roof_texture().map(str::to_string);
    f.layout = Some(std::sync::Arc::new(layout));
}

/// Fills a placed tree from a pick.
pub(crate) fn set_tree(t: &mut PlacedTree, pick: TreePick) {
    t.width = pick.width;
    t.height = Some(pick.height);
    t.forest_tree = Some(pick.index);
    t.tree_name = pick.name;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprints_turn_clockwise_with_the_heading() {
        // A 2 m × 1 m box, 2 m along +x (east at heading 0), z from -1
        // (north) to 0.
        let fp = [[0.0, 0.0], [2.0, 0.0], [2.0, -1.0], [0.0, -1.0]];
        let at0 = footprint_at(&fp, [10.0, 20.0], 0.0);
        assert_eq!(at0[1], [12.0, 20.0]);
        assert_eq!(at0[2], [12.0, 21.0]);
        // Heading 90: east turns to south, north to east.
        let at90 = footprint_at(&fp, [0.0, 0.0], 90.0);
        assert!((at90[1][0]).abs() < 1e-12 && (at90[1][1] + 2.0).abs() < 1e-12);
        assert!((at90[3][0] - 1.0).abs() < 1e-12 && at90[3][1].abs() < 1e-12);
    }

    #[test]
    fn art_states_are_spelt_as_their_json() {
        for s in [
            ArtState::Found,
            ArtState::Missing,
            ArtState::Unchecked,
            ArtState::Invalid,
        ] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }
}
