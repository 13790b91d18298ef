//! An object's mesh: the solid triangles X-Plane draws close up (LOD 0,
//! [`Select::Solid`], draped ones left to the ground), posed with every
//! animation at its first key ([`super::pose`]), as a plain [`Mesh`].
//!
//! OBJ8's frame (x right, y up, z toward the viewer: x east and z south at
//! heading 0) becomes the mesh's (x east, y north, z up): a vertex
//! `(x, y, z)` is `(x, −z, y)`. OBJ8 winds a triangle's front clockwise,
//! the mesh counter-clockwise, so each triangle is listed in reverse
//! order. Vertices are renumbered to those used, in the order first used.

use super::{Obj, Select};
use crate::geom::Mesh;
use std::collections::HashMap;

/// The LOD-0 solid triangles of `obj`, posed, in the object's frame at
/// heading 0 (local metres around its point).
pub fn mesh(obj: &Obj) -> Mesh {
    let mut m = Mesh::default();
    let mut seen: HashMap<(usize, Option<usize>), u32> = HashMap::new();
    for ([a, b, c], pose) in obj.triangles_posed(Select::Solid) {
        let mut tri = [0u32; 3];
        for (slot, v) in [a, c, b].into_iter().enumerate() {
            tri[slot] = *seen.entry((v, pose)).or_insert_with(|| {
                let vt = &obj.vertices[v];
                let [x, y, z] = obj.posed(v, pose);
                let n = vt.normal.map(f64::from);
                // A pose turns normals with its rotation (no translation).
                let [nx, ny, nz] = match pose.and_then(|k| obj.poses.get(k)) {
                    Some(p) => {
                        let [o0, o1, o2] = super::pose::apply(p, [0.0; 3]);
                        let q = super::pose::apply(p, n);
                        [q[0] - o0, q[1] - o1, q[2] - o2]
                    }
                    None => n,
                };
                let [s, t] = vt.uv.map(f64::from);
                m.vertex([x, -z, y], [nx, -nz, ny], [s, t])
            });
        }
        m.triangles.push(tri);
    }
    m
}
