//! An object's static mesh: the triangles X-Plane draws close up that
//! neither move nor drape (LOD 0, [`Select::Static`]), as a plain
//! [`Mesh`].
//!
//! OBJ8's frame (x right, y up, z toward the viewer: x east and z south at
//! heading 0) becomes the mesh's (x east, y north, z up): a vertex
//! `(x, y, z)` is `(x, −z, y)`. OBJ8 winds a triangle's front clockwise,
//! the mesh counter-clockwise, so each triangle is listed in reverse
//! order. Vertices are renumbered to those used, in the order first used.

use super::{Obj, Select};
use crate::geom::Mesh;
use std::collections::HashMap;

/// The static LOD-0 solid triangles of `obj`, in the object's frame at
/// heading 0 (local metres around its point).
pub fn mesh(obj: &Obj) -> Mesh {
    let mut m = Mesh::default();
    let mut seen: HashMap<usize, u32> = HashMap::new();
    for [a, b, c] in obj.triangles(Select::Static) {
        let mut tri = [0u32; 3];
        for (slot, v) in [a, c, b].into_iter().enumerate() {
            tri[slot] = *seen.entry(v).or_insert_with(|| {
                let vt = &obj.vertices[v];
                let [x, y, z] = vt.position;
                let [nx, ny, nz] = vt.normal.map(f64::from);
                let [s, t] = vt.uv.map(f64::from);
                m.vertex([x, -z, y], [nx, -nz, ny], [s, t])
            });
        }
        m.triangles.push(tri);
    }
    m
}
