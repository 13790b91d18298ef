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
    let found = mesh_of(forest, tree)?;
    let mesh = &found.mesh;
    if mesh.idx.len() / 3 > MAX_TRIANGLES {
        return None;
    }
    let s = scale(tree, found, height);
    let (sin, cos) = turn.to_radians().sin_cos();
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
    Some(TreeGeometry {
        positions,
        uvs: mesh.uvs.clone(),
        triangles,
    })
}
