//! X-Plane OBJ8 objects (`.obj`): the model X-Plane places at a point.
//!
//! The layout follows the other formats: this module holds the plain
//! spec-level types, [`read`](mod@read) turns text into an [`Obj`] with
//! diagnostics (codes `OBJ0001`…, the table [`RULES`]), and the derived
//! values a placement needs — LOD-0 [`Obj::bounds`], [`Obj::footprint`],
//! [`Obj::height`], triangle counts — are methods here, computed from the
//! kept geometry. [`summary`] is what `agkit info` prints.
//!
//! Meaning follows Laminar's OBJ8 specification
//! (<https://developer.x-plane.com/article/obj8-file-format-specification/>);
//! what real files bend is read as X-Plane's own tools read it (xptools
//! `src/Obj/XObjReadWrite.cpp`, `XObj8Read`), see `docs/art.md`.
//!
//! Coordinates are the object's own frame in metres: x right (east when
//! placed with heading 0), y up, z toward the viewer (south).

use serde::Serialize;
use std::collections::BTreeMap;

pub(crate) mod footprint;
pub mod mesh;
pub mod pose;
pub mod read;
pub mod summary;

pub use read::{check, read};

crate::diag::rules! {
    HEADER = "OBJ0001", Error, "the header is not `A`/`I`, `800`, `OBJ`";
    MISSING_ARG = "OBJ0002", Error, "a directive has too few arguments";
    NOT_A_NUMBER = "OBJ0003", Error, "an argument that must be a number is not one";
    NOT_FINITE = "OBJ0004", Error, "a number is NaN or infinite";
    OVER_COUNT = "OBJ0005", Error, "more VT, VLINE, VLIGHT or IDX than POINT_COUNTS declares (X-Plane stops reading there)";
    UNDER_COUNT = "OBJ0006", Warning, "fewer VT, VLINE, VLIGHT or IDX than POINT_COUNTS declares";
    INDEX_RANGE = "OBJ0007", Error, "an IDX points past the vertices POINT_COUNTS declares";
    DRAW_RANGE = "OBJ0008", Error, "TRIS, LINES or LIGHTS reaches past the index or light table";
    TRIS_NOT_TRIPLES = "OBJ0009", Warning, "a TRIS count is not a multiple of 3 (the last indices draw nothing)";
    ANIM_END_UNOPENED = "OBJ0010", Error, "ANIM_end without an open ANIM_begin";
    ANIM_UNCLOSED = "OBJ0011", Error, "ANIM_begin never closed by ANIM_end";
    UNKNOWN_DIRECTIVE = "OBJ0012", Warning, "unknown directive (X-Plane ignores it)";
    POINT_COUNTS_AGAIN = "OBJ0013", Warning, "POINT_COUNTS appears more than once";
    TOO_LARGE = "OBJ0014", Error, "POINT_COUNTS declares more vertices and indices than the limit";
    LOD_ORDER = "OBJ0015", Warning, "ATTR_LOD near distance not below its far distance";
    NO_PATH = "OBJ0016", Note, "a TEXTURE directive without a file name (the object is drawn untextured)";
    ANIM_OUTSIDE = "OBJ0017", Warning, "an animation directive outside ANIM_begin … ANIM_end";
    OUT_OF_RANGE = "OBJ0018", Error, "a number outside the range agkit can draw (beyond ±1e6, or a divisor closer to 0 than 1e-3)";
}

/// The versions the header may name (`XObj8Read` accepts only 800).
pub const VERSIONS: &[u32] = &[800];

/// An OBJ8 object.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Obj {
    /// The header's version (800).
    pub version: u32,
    /// Texture paths by directive (`TEXTURE`, `TEXTURE_LIT`,
    /// `TEXTURE_NORMAL`, `TEXTURE_DRAPED`, `TEXTURE_DRAPED_NORMAL`, and
    /// `TEXTURE_MAP normal`, `TEXTURE_MAP material_gloss`, … by usage), as
    /// written (relative to the object's folder); the last one of a kind
    /// wins, as in X-Plane.
    pub textures: BTreeMap<String, String>,
    /// The counts `POINT_COUNTS` declares: vertices, line vertices, light
    /// vertices, indices.
    pub point_counts: [u64; 4],
    /// The triangle vertices (`VT`), in file order.
    pub vertices: Vec<Vertex>,
    /// How many line vertices (`VLINE`) the file has.
    pub line_vertices: usize,
    /// How many light vertices (`VLIGHT`) the file has.
    pub light_vertices: usize,
    /// The index table (`IDX`, `IDX10`), in file order.
    pub indices: Vec<u32>,
    /// The levels of detail in file order. The first always exists: a file
    /// without `ATTR_LOD` has one level drawn at every distance, and
    /// geometry before the first `ATTR_LOD` belongs to the first level (as
    /// `XObj8Read` files it).
    pub lods: Vec<Lod>,
    /// Every draw command (`TRIS`, `LINES`, `LIGHTS`) with the state it
    /// was drawn in.
    pub draws: Vec<Draw>,
    /// The lights.
    pub lights: Lights,
    /// `ATTR_LOD_draped`: how far draped geometry is drawn, in metres.
    pub lod_draped: Option<f64>,
    /// How many `ANIM_begin … ANIM_end` blocks the file has (nested ones
    /// counted too).
    pub animations: usize,
    /// The poses draws are drawn in ([`Draw::pose`]): each the product of
    /// the enclosing animations at their first key ([`pose`](mod@pose)).
    pub poses: Vec<pose::Pose>,
}

/// One `VT`: a vertex of the triangle table.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Vertex {
    /// x, y, z in metres.
    pub position: [f64; 3],
    /// The normal.
    pub normal: [f32; 3],
    /// Texture coordinates s, t (0..1 across the texture, t up).
    pub uv: [f32; 2],
}

/// One level of detail: the distances in metres between which it is
/// drawn.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Lod {
    /// Nearest distance.
    pub near: f64,
    /// Farthest distance (0 for the implicit level of a file without
    /// `ATTR_LOD`, drawn at every distance).
    pub far: f64,
    /// False for the implicit level of a file without `ATTR_LOD`.
    pub declared: bool,
}

/// What a draw command draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawKind {
    /// `TRIS offset count`: triangles, `count / 3` of them, from the index
    /// table.
    Tris,
    /// `LINES offset count`: line segments from the index table.
    Lines,
    /// `LIGHTS offset count`: points of the light-vertex table.
    Lights,
}

/// One draw command and the state it was drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Draw {
    /// What it draws.
    pub kind: DrawKind,
    /// First index (or light vertex).
    pub offset: u32,
    /// How many indices (or light vertices).
    pub count: u32,
    /// The level of detail, an index into [`Obj::lods`].
    pub lod: usize,
    /// Drawn while `ATTR_draped` was on: draped onto the terrain.
    pub draped: bool,
    /// Drawn inside an `ANIM_begin … ANIM_end` block: it moves; its
    /// coordinates are its rest position.
    pub animated: bool,
    /// The pose it is drawn in, at the first key of every enclosing
    /// animation: an index into [`Obj::poses`]; `None` when no animation
    /// moves it (the identity).
    pub pose: Option<usize>,
}

/// How many lights of each kind an object has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Lights {
    /// `LIGHT_NAMED`.
    pub named: usize,
    /// `LIGHT_PARAM`.
    pub param: usize,
    /// `LIGHT_CUSTOM`.
    pub custom: usize,
    /// `LIGHT_SPILL_CUSTOM`.
    pub spill: usize,
    /// Light vertices drawn by `LIGHTS` (old-style `VLIGHT` lights).
    pub points: usize,
}

impl Lights {
    /// All lights.
    pub fn total(&self) -> usize {
        self.named + self.param + self.custom + self.spill + self.points
    }
}

/// An axis-aligned box in the object's frame.
pub use crate::geom::Box3 as Bounds;

/// Which LOD-0 triangles [`Obj::triangles`] lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Select {
    /// Triangles standing on their own (not draped), animated ones at rest.
    Solid,
    /// Draped triangles.
    Draped,
    /// Both.
    All,
    /// Solid triangles that do not move: the static mesh.
    Static,
}

impl Obj {
    /// True when level `lod` is drawn close up: the first level, and every
    /// level starting at the nearest distance of all (additive LODs all
    /// start at 0).
    pub fn is_lod0(&self, lod: usize) -> bool {
        self.lod0_test()(lod)
    }

    /// [`Obj::is_lod0`] with the nearest distance found once: one pass
    /// over the levels, then each test is a lookup (a test per draw call
    /// that scanned every level would be quadratic in a file of many
    /// `ATTR_LOD`s).
    fn lod0_test(&self) -> impl Fn(usize) -> bool + '_ {
        let nearest = self
            .lods
            .iter()
            .map(|l| l.near)
            .fold(f64::INFINITY, f64::min);
        move |lod| lod == 0 || self.lods.get(lod).is_some_and(|l| l.near <= nearest)
    }

    /// The LOD-0 triangles `select` picks, as three vertex indices each.
    /// Triangles with an index past the vertices or a range past the
    /// index table (errors `OBJ0007`, `OBJ0008`) are left out.
    pub fn triangles(&self, select: Select) -> impl Iterator<Item = [usize; 3]> + '_ {
        self.triangles_posed(select).map(|(t, _)| t)
    }

    /// [`Obj::triangles`] with the pose each is drawn in (an index into
    /// [`Obj::poses`], `None` for none).
    pub fn triangles_posed(
        &self,
        select: Select,
    ) -> impl Iterator<Item = ([usize; 3], Option<usize>)> + '_ {
        let lod0 = self.lod0_test();
        self.draws
            .iter()
            .filter(move |d| {
                d.kind == DrawKind::Tris
                    && lod0(d.lod)
                    && match select {
                        Select::Solid => !d.draped,
                        Select::Draped => d.draped,
                        Select::All => true,
                        Select::Static => !d.draped && !d.animated,
                    }
            })
            .flat_map(move |d| {
                let start = (d.offset as usize).min(self.indices.len());
                let end = start
                    .saturating_add(d.count as usize / 3 * 3)
                    .min(self.indices.len());
                self.indices[start..end]
                    .chunks_exact(3)
                    .map(move |t| (t, d.pose))
            })
            .filter_map(move |(t, pose)| {
                let n = self.vertices.len();
                let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
                (a < n && b < n && c < n).then_some(([a, b, c], pose))
            })
    }

    /// Vertex `i`'s position in pose `pose` (see [`Obj::triangles_posed`]).
    pub fn posed(&self, i: usize, pose: Option<usize>) -> [f64; 3] {
        let p = self.vertices[i].position;
        match pose.and_then(|k| self.poses.get(k)) {
            Some(m) => pose::apply(m, p),
            None => p,
        }
    }

    /// How many LOD-0 triangles `select` picks.
    pub fn triangle_count(&self, select: Select) -> usize {
        self.triangles(select).count()
    }

    /// The positions of the vertices of the LOD-0 triangles `select` picks
    /// (a vertex once per triangle corner), posed: each animation at its
    /// first key ([`pose`](mod@pose)).
    pub fn corners(&self, select: Select) -> impl Iterator<Item = [f64; 3]> + '_ {
        self.triangles_posed(select)
            .flat_map(move |(t, pose)| t.map(|i| self.posed(i, pose)))
    }

    /// [`Obj::corners`] at rest: the coordinates as written.
    pub fn rest_corners(&self, select: Select) -> impl Iterator<Item = [f64; 3]> + '_ {
        self.triangles(select)
            .flatten()
            .map(|i| self.vertices[i].position)
    }

    /// The box around every LOD-0 triangle, draped or not, posed; `None`
    /// for an object without triangles (lights only).
    pub fn bounds(&self) -> Option<Bounds> {
        Bounds::of(self.corners(Select::All))
    }

    /// [`Obj::bounds`] at rest (the coordinates as written).
    pub fn rest_bounds(&self) -> Option<Bounds> {
        Bounds::of(self.rest_corners(Select::All))
    }

    /// How high the object stands: the largest y of its LOD-0 solid
    /// triangles, posed (draped geometry lies on the ground); `None`
    /// without solid triangles.
    pub fn height(&self) -> Option<f64> {
        self.corners(Select::Solid).map(|p| p[1]).reduce(f64::max)
    }

    /// The footprint: the convex hull of the LOD-0 solid triangles, posed,
    /// seen from above, as `[x, z]` points counter-clockwise in (x, z) without
    /// repeating the first; empty without solid triangles.
    pub fn footprint(&self) -> Vec<[f64; 2]> {
        footprint::hull(self.corners(Select::Solid).map(|p| [p[0], p[2]]))
    }

    /// The texture a directive names (`TEXTURE`, `TEXTURE_LIT`, …).
    pub fn texture(&self, directive: &str) -> Option<&str> {
        self.textures.get(directive).map(String::as_str)
    }
}
