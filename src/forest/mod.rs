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

pub mod read;
pub mod summary;

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
    /// Vertices and indices it declares.
    pub declared: [u64; 2],
    /// `VERTEX` rows read.
    pub vertices: usize,
    /// Indices read.
    pub indices: usize,
    /// The box around its vertices, if any.
    pub bounds: Option<crate::geom::Box3>,
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

    /// The trees of layer `n` that X-Plane draws, in file order.
    pub fn layer(&self, n: u32) -> Vec<&Tree> {
        self.trees
            .iter()
            .filter(|t| t.layer == n && t.is_drawn())
            .collect()
    }

    /// The tree of layer `n` that a uniform random number `r` in `0..1`
    /// picks, each tree weighted by its percentage; `None` when the layer
    /// has no tree with a positive percentage.
    pub fn pick(&self, n: u32, r: f64) -> Option<&Tree> {
        let trees: Vec<&Tree> = self
            .layer(n)
            .into_iter()
            .filter(|t| t.percentage > 0.0)
            .collect();
        let total: f64 = trees.iter().map(|t| t.percentage).sum();
        if total <= 0.0 {
            return None;
        }
        let mut at = r.clamp(0.0, 1.0) * total;
        for t in &trees {
            if at < t.percentage {
                return Some(t);
            }
            at -= t.percentage;
        }
        trees.last().copied()
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
