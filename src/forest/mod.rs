//! X-Plane forests (`.for`): the trees X-Plane plants in forest polygons
//! and autogen tree annotations.
//!
//! A forest is a table of trees cut from one texture (`TREE`: a texture
//! rectangle, a share of its layer, a height range), grouped in layers that
//! autogen picks from (`TREE layer`, `FILL_LAYER`), planted `SPACING`
//! metres apart and moved up to `RANDOM` metres. X-Plane 12 adds 3-D trees:
//! named meshes (`MESH`, `VERTEX`, `IDX`) a tree uses close up (`MESH_3D`).
//! Meaning follows Laminar's forest specification
//! (<https://developer.x-plane.com/article/forest-for-file-format-specification/>);
//! defaults and tolerances follow xptools `WED_ResourceMgr::GetFor`, see
//! `docs/art.md`.
//!
//! [`read`](mod@read) turns text into a [`Forest`] with diagnostics (codes
//! `FOR0001`…, the table [`RULES`]).

use serde::Serialize;
use std::collections::BTreeMap;

pub mod mesh;
pub mod read;
pub mod summary;
pub mod tree3d;

pub use read::{check, read};

crate::diag::rules! {
    HEADER = "FOR0001", Error, "the header is not `A`/`I`, `800`, `1000` or `1200`, `FOREST`";
    MISSING_ARG = "FOR0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "FOR0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "FOR0004", Error, "a number is NaN or infinite";
    UNKNOWN_DIRECTIVE = "FOR0005", Warning, "unknown directive (X-Plane ignores it)";
    OUT_OF_PLACE = "FOR0006", Error, "a directive before what it belongs to (Y_QUAD or MESH_3D before TREE, VERTEX or IDX before MESH)";
    EMPTY_TREE = "FOR0007", Warning, "a tree of zero width or height (never drawn)";
    BAD_LAYER = "FOR0008", Error, "a tree layer or quad count that is not a whole number of 0 or more";
    TOO_LARGE = "FOR0009", Error, "the 3-D tree meshes declare more vertices and indices than the limit";
    UNKNOWN_MESH = "FOR0010", Error, "MESH_3D names a mesh no MESH defines";
    INDEX_RANGE = "FOR0011", Error, "a mesh index points past the vertices its mesh has so far";
    NO_PATH = "FOR0012", Note, "a TEXTURE directive without a file name";
    NO_TREES = "FOR0013", Warning, "the forest has no tree: X-Plane plants nothing";
    HEIGHT_ORDER = "FOR0014", Warning, "a tree's minimum height is above its maximum";
    BAD_SPACING = "FOR0015", Warning, "SPACING is not positive";
    OUT_OF_RANGE = "FOR0016", Error, "a number outside the range agkit can draw (beyond ±1e6, or a divisor closer to 0 than 1e-3)";
}

/// The versions the header may name (`GetFor` accepts 800, 1000, 1200).
pub const VERSIONS: &[u32] = &[800, 1000, 1200];

/// A forest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Forest {
    /// The header's version.
    pub version: u32,
    /// Texture paths by role, as written: `texture` (the 2-D billboards),
    /// `texture_3d` (after `SHADER_3D`), `normal`, `normal_3d`.
    pub textures: BTreeMap<String, String>,
    /// `SCALE_X`, `SCALE_Y`: the size tree rectangles are measured in
    /// (default 256 × 256).
    pub scale: [f64; 2],
    /// `SPACING x z`: metres between trees (default 30 × 30).
    pub spacing: [f64; 2],
    /// `RANDOM x z`: metres a tree may move from its place (default 0).
    pub random: [f64; 2],
    /// `LOD`: the farthest distance, when given (ignored since X-Plane 9).
    pub lod: Option<f64>,
    /// The tree table, in file order.
    pub trees: Vec<Tree>,
    /// `GROUP layer percentage` lines, in file order.
    pub groups: Vec<Group>,
    /// The 3-D tree meshes (X-Plane 12), in file order.
    pub meshes: Vec<TreeMesh>,
    /// `SKIP_SURFACE`: surfaces no tree is planted on.
    pub skip_surfaces: Vec<String>,
    /// `DENSITY_PARAMS`, `CHOICE_PARAMS`, `HEIGHT_PARAMS`: Perlin noise
    /// (wavelength, amplitude pairs), by directive.
    pub noise: BTreeMap<String, Vec<f64>>,
    /// The trees of each layer, indexed on the first [`Forest::pick`] or
    /// [`Forest::layer`] (see [`Layers`]).
    #[serde(skip)]
    pub(crate) index: Layers,
}

/// The drawn trees of each layer with their running shares, built once
/// from [`Forest::trees`] so that a pick is a binary search: rebuilding a
/// layer's list per tree made filling a lot with 140,000 trees from a
/// 20,000-row table take most of a minute.
///
/// It is built on first use and kept, so `trees` is read as it was then; a
/// forest whose `trees` change afterwards should be cloned (a clone
/// indexes afresh) or rebuilt. A forest whose table grew or shrank is
/// never answered from the old index. It takes no part in equality.
#[derive(Debug, Default)]
pub(crate) struct Layers(std::sync::OnceLock<LayerIndex>);

#[derive(Debug)]
struct LayerIndex {
    /// How many rows the table had when indexed.
    rows: usize,
    /// Layer → its drawn trees (indices into `trees`, file order) and,
    /// for those with a positive share, their indices and running sums.
    layers: std::collections::HashMap<u32, LayerTrees>,
}

#[derive(Debug, Default)]
struct LayerTrees {
    drawn: Vec<usize>,
    weighted: Vec<usize>,
    cumulative: Vec<f64>,
}

impl Clone for Layers {
    fn clone(&self) -> Layers {
        Layers::default()
    }
}

impl PartialEq for Layers {
    fn eq(&self, _: &Layers) -> bool {
        true
    }
}

impl LayerIndex {
    fn of(trees: &[Tree]) -> LayerIndex {
        let mut layers: std::collections::HashMap<u32, LayerTrees> = Default::default();
        for (i, t) in trees.iter().enumerate().filter(|(_, t)| t.is_drawn()) {
            let l = layers.entry(t.layer).or_default();
            l.drawn.push(i);
            if t.percentage > 0.0 {
                let before = l.cumulative.last().copied().unwrap_or(0.0);
                l.weighted.push(i);
                l.cumulative.push(before + t.percentage);
            }
        }
        LayerIndex {
            rows: trees.len(),
            layers,
        }
    }
}

/// One `TREE` (or X-Plane 12 `TREE2`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tree {
    /// Left of the tree's texture rectangle, in `SCALE_X` units.
    pub s: f64,
    /// Bottom of the rectangle, in `SCALE_Y` units.
    pub t: f64,
    /// Width of the rectangle (negative mirrors it, as OpenSceneryX
    /// writes).
    pub w: f64,
    /// Height of the rectangle.
    pub h: f64,
    /// Where the trunk is, across the rectangle from its left.
    pub offset: f64,
    /// The tree's share of its layer, in percent.
    pub percentage: f64,
    /// Lowest height, metres.
    pub min_height: f64,
    /// Highest height, metres.
    pub max_height: f64,
    /// Crossed quads the billboard is made of.
    pub quads: u32,
    /// The layer autogen picks it from.
    pub layer: u32,
    /// The name, when given (the last column, often missing).
    pub name: Option<String>,
    /// The `GROUP` it belongs to, an index into [`Forest::groups`].
    pub group: Option<usize>,
    /// `MESH_3D` names of its 3-D model (X-Plane 12).
    pub meshes: Vec<String>,
    /// `Y_QUAD`s it has.
    pub y_quads: usize,
}

impl Tree {
    /// True when X-Plane draws it: its rectangle has a width and a height
    /// (WorldEditor drops the others).
    pub fn is_drawn(&self) -> bool {
        self.w.abs() > 0.001 && self.h > 0.001
    }

    /// Width over height of the tree: a tree `h` metres tall is
    /// `h × aspect` metres wide.
    pub fn aspect(&self) -> f64 {
        if self.h > 0.0 {
            self.w.abs() / self.h
        } else {
            0.0
        }
    }
}

/// One `GROUP`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Group {
    /// The layer.
    pub layer: f64,
    /// The group's share of its layer, in percent.
    pub percentage: f64,
}

/// One 3-D tree mesh (`MESH name near far vertices indices`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TreeMesh {
    /// Its name, which `MESH_3D` refers to.
    pub name: String,
    /// Nearest and farthest distance it is drawn at.
    pub lod: [f64; 2],
    /// Its counts, vertices and indices (the one mesh reader's, shared
    /// with facades; its fields appear inline in JSON).
    #[serde(flatten)]
    pub mesh: crate::xptext::MeshBlock,
}

impl Forest {
    /// The layers that have trees X-Plane draws, ascending.
    pub fn layers(&self) -> Vec<u32> {
        let mut l: Vec<u32> = self
            .trees
            .iter()
            .filter(|t| t.is_drawn())
            .map(|t| t.layer)
            .collect();
        l.sort_unstable();
        l.dedup();
        l
    }

    /// The index of the tree table's layers, built on first use (and
    /// afresh, not kept, when the table's length changed since).
    fn with_index<R>(&self, f: impl FnOnce(&LayerIndex) -> R) -> R {
        let index = self.index.0.get_or_init(|| LayerIndex::of(&self.trees));
        if index.rows == self.trees.len() {
            f(index)
        } else {
            f(&LayerIndex::of(&self.trees))
        }
    }

    /// The trees of layer `n` that X-Plane draws, in file order.
    pub fn layer(&self, n: u32) -> Vec<&Tree> {
        self.with_index(|x| {
            x.layers
                .get(&n)
                .map(|l| l.drawn.iter().map(|&i| &self.trees[i]).collect())
                .unwrap_or_default()
        })
    }

    /// The tree of layer `n` that a uniform random number `r` in `0..1`
    /// picks, each tree weighted by its percentage; `None` when the layer
    /// has no tree with a positive percentage.
    pub fn pick(&self, n: u32, r: f64) -> Option<&Tree> {
        self.pick_index(n, r).map(|i| &self.trees[i])
    }

    /// [`Forest::pick`] as an index into [`Forest::trees`]: a binary search
    /// of the layer's running shares (the layer is indexed once).
    pub fn pick_index(&self, n: u32, r: f64) -> Option<usize> {
        self.with_index(|x| {
            let l = x.layers.get(&n)?;
            let total = *l.cumulative.last()?;
            if total.is_nan() || total <= 0.0 {
                return None;
            }
            let at = r.clamp(0.0, 1.0) * total;
            // The first tree whose running share passes `at`: the one a
            // walk subtracting each share in turn stops at.
            let k = l
                .cumulative
                .partition_point(|&c| c <= at)
                .min(l.weighted.len() - 1);
            Some(l.weighted[k])
        })
    }

    /// The lowest and highest tree of layer `n`, metres.
    pub fn height_range(&self, n: u32) -> Option<[f64; 2]> {
        let trees = self.layer(n);
        let lo = trees.iter().map(|t| t.min_height).reduce(f64::min)?;
        let hi = trees.iter().map(|t| t.max_height).reduce(f64::max)?;
        Some([lo, hi])
    }

    /// The 2-D texture.
    pub fn texture(&self) -> Option<&str> {
        self.textures.get("texture").map(String::as_str)
    }

    /// True when a tree has a 3-D model.
    pub fn has_3d(&self) -> bool {
        self.trees.iter().any(|t| !t.meshes.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(layer: u32, percentage: f64, w: f64) -> Tree {
        Tree {
            s: 0.0,
            t: 0.0,
            w,
            h: 10.0,
            offset: 0.0,
            percentage,
            min_height: 1.0,
            max_height: 2.0,
            quads: 2,
            layer,
            name: None,
            group: None,
            meshes: Vec::new(),
            y_quads: 0,
        }
    }

    /// The walk the index replaced: subtract each share in turn.
    fn walk(f: &Forest, n: u32, r: f64) -> Option<usize> {
        let trees: Vec<usize> = (0..f.trees.len())
            .filter(|&i| {
                let t = &f.trees[i];
                t.layer == n && t.is_drawn() && t.percentage > 0.0
            })
            .collect();
        let total: f64 = trees.iter().map(|&i| f.trees[i].percentage).sum();
        if total <= 0.0 {
            return None;
        }
        let mut at = r.clamp(0.0, 1.0) * total;
        for &i in &trees {
            if at < f.trees[i].percentage {
                return Some(i);
            }
            at -= f.trees[i].percentage;
        }
        trees.last().copied()
    }

    #[test]
    fn indexed_picks_are_the_walks_picks() {
        let mut f = crate::forest::read(b"A\n800\nFOREST\n", "f", &Default::default())
            .unwrap_or_else(|_| panic!("an empty forest reads"));
        f.trees = vec![
            tree(0, 50.0, 8.0),
            tree(1, 70.0, 8.0),
            tree(0, 0.0, 8.0),
            tree(0, 30.0, 0.0), // not drawn
            tree(0, 20.0, 4.0),
            tree(2, 0.0, 4.0),
            tree(0, 0.25, 4.0),
        ];
        for n in 0..4 {
            for k in 0..=1000 {
                let r = f64::from(k) / 1000.0;
                assert_eq!(f.pick_index(n, r), walk(&f, n, r), "layer {n}, r {r}");
            }
        }
        assert_eq!(f.layer(0).len(), 4);
        assert!(f.layer(2).len() == 1 && f.pick(2, 0.5).is_none());
        // A table that grew after the first pick is not answered from the
        // old index; a clone indexes afresh.
        f.trees.push(tree(3, 10.0, 4.0));
        assert_eq!(f.pick_index(3, 0.5), Some(7));
        let g = f.clone();
        assert_eq!(g.pick_index(3, 0.5), Some(7));
        assert_eq!(g, f);
    }
}
