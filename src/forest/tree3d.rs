//! X-Plane 12 3-D trees: a tree with `MESH_3D` is drawn as that mesh.
//!
//! The mesh is the tree's first `MESH_3D` (xptools
//! `WED_ResourceMgr::GetFor` keeps only the first), scaled evenly by the
//! tree's height over the tree's `min-height` (`scale = height / hmin`)
//! and turned about the vertical; its texture is the one after
//! `SHADER_3D` (`texture_3d`). The mesh is written as OBJ8 vertices are (x
//! right, y up, z toward the viewer); [`tree`] returns it in agkit's local
//! frame (x east, y north, z up), standing on the origin.

use super::{Forest, Tree, TreeMesh};

/// The most triangles one tree mesh gives (a larger one is refused: the
/// cards are drawn instead).
pub const MAX_TRIANGLES: usize = 200_000;

/// A 3-D tree's triangles: positions (local metres, x east, y north, z
/// up), texture coordinates s, t, and triangles counter-clockwise seen
/// from outside.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TreeGeometry {
    /// Positions.
    pub positions: Vec<[f64; 3]>,
    /// Texture coordinates.
    pub uvs: Vec<[f64; 2]>,
    /// Triangles.
    pub triangles: Vec<[u32; 3]>,
}

/// The mesh `tree` draws, if it has one the forest defines with vertices
/// and triangles.
pub fn mesh_of<'a>(forest: &'a Forest, tree: &Tree) -> Option<&'a TreeMesh> {
    let name = tree.meshes.first()?;
    forest
        .meshes
        .iter()
        .find(|m| &m.name == name)
        .filter(|m| m.mesh.idx.len() >= 3 && !m.mesh.positions.is_empty())
}

/// The scale the mesh is drawn at for a tree `height` metres tall: height
/// over the tree's `min-height` (over the mesh's own height when the
/// minimum is not positive).
pub fn scale(tree: &Tree, mesh: &TreeMesh, height: f64) -> f64 {
    let base = if tree.min_height > 0.0 {
        tree.min_height
    } else {
        mesh.mesh.bounds.map_or(0.0, |b| b.max[1] - b.min[1])
    };
    let s = if base > 0.0 { height / base } else { 1.0 };
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}

/// The 3-D tree `height` metres tall, turned `turn` degrees clockwise
/// seen from above; `None` when the tree has no usable mesh.
pub fn tree(forest: &Forest, tree: &Tree, height: f64, turn: f64) -> Option<TreeGeometry> {
    let found = usable(forest, tree)?;
    Some(geometry(found, scale(tree, found, height), turn))
}

/// The tree's mesh if it is one agkit draws: one [`mesh_of`] gives with at
/// most [`MAX_TRIANGLES`] triangles.
fn usable<'a>(forest: &'a Forest, tree: &Tree) -> Option<&'a TreeMesh> {
    mesh_of(forest, tree).filter(|m| m.mesh.idx.len() / 3 <= MAX_TRIANGLES)
}

/// The triangles of the 3-D tree `tree` draws, before any is built; `None`
/// when it draws none (no usable mesh: its card is drawn instead).
pub fn triangles(forest: &Forest, tree: &Tree) -> Option<usize> {
    usable(forest, tree).map(|m| m.mesh.idx.len() / 3)
}

/// The 3-D tree at scale 1, heading 0, and the scale ([`scale`]) a tree
/// `height` metres tall draws it at: the mesh shared by every tree of its
/// kind, each placed by its scale, heading and foot (what [`tree`] builds
/// for one tree, up to rounding). `None` when the tree has no usable mesh.
pub fn unit(forest: &Forest, tree: &Tree, height: f64) -> Option<(TreeGeometry, f64)> {
    let found = usable(forest, tree)?;
    Some((geometry(found, 1.0, 0.0), scale(tree, found, height)))
}

/// `found` scaled by `s` and turned `turn` degrees clockwise, in agkit's
/// local frame.
fn geometry(found: &TreeMesh, s: f64, turn: f64) -> TreeGeometry {
    let mesh = &found.mesh;
    let (sin, cos) = if turn == 0.0 {
        (0.0, 1.0)
    } else {
        turn.to_radians().sin_cos()
    };
    let positions = mesh
        .positions
        .iter()
        .map(|&[x, y, z]| {
            // OBJ frame → local: east = x, north = -z, up = y; then turned.
            let (e, n) = (x * s, -z * s);
            [e * cos + n * sin, -e * sin + n * cos, y * s]
        })
        .collect();
    let n = mesh.positions.len() as u32;
    let triangles = mesh
        .idx
        .chunks_exact(3)
        .filter(|t| t.iter().all(|&i| i < n))
        // X-Plane winds fronts clockwise, the mesh counter-clockwise.
        .map(|t| [t[0], t[2], t[1]])
        .collect();
    TreeGeometry {
        positions,
        uvs: mesh.uvs.clone(),
        triangles,
    }
}
