//! The scene as it is built, before it becomes a glTF document: meshes of
//! triangles, materials, embedded images and nodes, in glTF's frame
//! (metres; x east, y up, z south).
//!
//! **Winding.** glTF's front faces are counter-clockwise (the
//! specification, "Meshes": a triangle's front is the side from which its
//! vertices run counter-clockwise), and a client shades with the vertex
//! normals: a normal pointing against its triangle's front draws the face
//! black in a renderer that trusts them (Blender's Cycles). Every
//! primitive is settled by [`Prim::settle`] before it becomes a mesh:
//! degenerate triangles are left out, and a corner whose normal points
//! against its triangle gets a vertex of its own with the triangle's
//! normal, so that no written corner disagrees with its face.

use serde_json::Value;

/// Longest name Blender keeps (its `MAX_ID_NAME` less the two-letter
/// type code and the terminating zero): a longer name is cut there and
/// may then clash with another.
pub(crate) const MAX_NAME: usize = 63;

/// One primitive: triangles of one material.
#[derive(Debug, Clone, Default)]
pub(crate) struct Prim {
    /// Vertex positions.
    pub pos: Vec<[f32; 3]>,
    /// Unit normals, one per vertex.
    pub nrm: Vec<[f32; 3]>,
    /// Texture coordinates (glTF's: v down from the image's top), one
    /// per vertex.
    pub uv: Vec<[f32; 2]>,
    /// Three indices a triangle, counter-clockwise seen from its front.
    pub idx: Vec<u32>,
    /// Index into [`Scene::materials`].
    pub material: usize,
}

impl Prim {
    /// An empty primitive drawn with `material`.
    pub fn new(material: usize) -> Prim {
        Prim {
            material,
            ..Prim::default()
        }
    }

    /// Adds a vertex; its index.
    pub fn vertex(&mut self, p: [f64; 3], n: [f64; 3], uv: [f64; 2]) -> u32 {
        let i = self.pos.len() as u32;
        self.pos.push(p.map(|v| v as f32));
        self.nrm.push(unit(n));
        self.uv.push(uv.map(|v| v as f32));
        i
    }

    /// Triangles held.
    #[cfg(test)]
    pub fn triangles(&self) -> usize {
        self.idx.len() / 3
    }

    /// True when every position, normal and texture coordinate is a
    /// finite `f32`.
    pub fn finite(&self) -> bool {
        self.pos.iter().flatten().all(|v| v.is_finite())
            && self.nrm.iter().flatten().all(|v| v.is_finite())
            && self.uv.iter().flatten().all(|v| v.is_finite())
    }

    /// Makes every triangle agree with its normals: a triangle without
    /// area (as `f32`) is left out, and a corner whose vertex normal is
    /// not within 90° of the triangle's geometric normal is given a
    /// vertex of its own with that normal. Returns the corners so
    /// changed (0 for geometry built right).
    pub fn settle(&mut self) -> usize {
        let mut fixed = 0;
        let mut idx = Vec::with_capacity(self.idx.len());
        for t in self.idx.chunks_exact(3) {
            let Some(face) = face_normal(
                self.pos[t[0] as usize],
                self.pos[t[1] as usize],
                self.pos[t[2] as usize],
            ) else {
                continue;
            };
            for &v in t {
                let n = self.nrm[v as usize];
                let d = n[0] * face[0] + n[1] * face[1] + n[2] * face[2];
                // Within 90° by a margin that survives the reader's own
                // rounding.
                if d > 1e-4 {
                    idx.push(v);
                } else {
                    fixed += 1;
                    let i = self.pos.len() as u32;
                    self.pos.push(self.pos[v as usize]);
                    self.uv.push(self.uv[v as usize]);
                    self.nrm.push(face);
                    idx.push(i);
                }
            }
        }
        self.idx = idx;
        fixed
    }
}

/// The unit geometric normal of triangle `a b c` (its front, where it
/// runs counter-clockwise), computed as `f64` from the `f32` positions
/// written; `None` when it has no area.
pub(crate) fn face_normal(a: [f32; 3], b: [f32; 3], c: [f32; 3]) -> Option<[f32; 3]> {
    let d = |p: [f32; 3], q: [f32; 3]| [0, 1, 2].map(|k| f64::from(q[k]) - f64::from(p[k]));
    let (u, v) = (d(a, b), d(a, c));
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    // Below this the triangle is a sliver (its height under 1e-5 of its
    // size: nothing to see) whose direction a client computing in f32,
    // as Blender does, may find reversed.
    let scale = [u, v].iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    (l.is_finite() && l > 1e-5 * scale * scale && l > 0.0)
        .then(|| [(n[0] / l) as f32, (n[1] / l) as f32, (n[2] / l) as f32])
}

/// `n` scaled to length 1 (straight up when it has no length).
pub(crate) fn unit(n: [f64; 3]) -> [f32; 3] {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if l.is_finite() && l > 1e-9 {
        [(n[0] / l) as f32, (n[1] / l) as f32, (n[2] / l) as f32]
    } else {
        [0.0, 1.0, 0.0]
    }
}

/// A mesh: one or more primitives.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mesh {
    /// Its name in the document.
    pub name: String,
    /// Its primitives (never empty once written; empty meshes are left
    /// out).
    pub prims: Vec<Prim>,
}

/// A material: a plain colour, or a texture times white.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Material {
    /// Its name.
    pub name: String,
    /// Base colour (linear RGBA).
    pub color: [f32; 4],
    /// Index into [`Scene::images`].
    pub image: Option<usize>,
    /// Alpha MASK (cut-out trees, textures with transparent pixels).
    pub mask: bool,
    /// Drawn from both sides: tree cards, fences (facades that are not
    /// rings) and OBJ8 objects (which may turn culling off); closed
    /// shapes and the ground are drawn from their front only.
    pub double_sided: bool,
}

/// An embedded image.
#[derive(Debug, Clone)]
pub(crate) struct Image {
    /// Its name (the file it came from).
    pub name: String,
    /// PNG bytes.
    pub png: Vec<u8>,
}

/// The whole scene.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scene {
    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Images.
    pub images: Vec<Image>,
    /// For each node of the 3-D scene ([`crate::scene::Scene::nodes`]), its
    /// index among the glTF nodes, or `None` when it is not written (all
    /// it draws came to nothing). The nodes themselves are written from
    /// the 3-D scene as the document is serialised, never held here.
    pub node_index: Vec<Option<u32>>,
    /// For each mesh of the 3-D scene, its glTF mesh (`None`: empty).
    pub mesh_index: Vec<Option<usize>>,
    /// The scene's root nodes (glTF node indices).
    pub roots: Vec<u32>,
    /// The scene's `extras`.
    pub extras: Value,
    /// The materials as asked for (before their names were made
    /// unique), in the order of [`Scene::materials`].
    asked: Vec<Material>,
    /// Face corners [`Prim::settle`] had to mend (0 for geometry built
    /// right: the builder's own shapes, and OBJs whose normals agree
    /// with their triangles).
    pub mended: usize,
    /// Names given to meshes, materials and images, each kind apart
    /// (nodes are named as they are written, [`NodeNames`]).
    names: [std::collections::HashSet<String>; 4],
    /// For each kind, the number [`Scene::unique`] tries next after a
    /// base name: a thousand nodes named alike take a thousand tries, not
    /// half a million.
    next: [std::collections::HashMap<String, usize>; 4],
}

/// A name no longer than [`MAX_NAME`] bytes: a longer one keeps its
/// start and its end (`…` between), where a path's file name is.
pub(crate) fn short(name: &str) -> String {
    if name.len() <= MAX_NAME {
        return name.to_string();
    }
    let keep = (MAX_NAME - '…'.len_utf8()) / 2;
    let mut a = keep;
    while !name.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = name.len() - keep;
    while !name.is_char_boundary(b) {
        b += 1;
    }
    format!("{}…{}", &name[..a], &name[b..])
}

impl Scene {
    /// The index of a material like `m`, added when new.
    pub fn material(&mut self, mut m: Material) -> usize {
        match self.asked.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                self.asked.push(m.clone());
                m.name = self.unique(2, &m.name);
                self.materials.push(m);
                self.materials.len() - 1
            }
        }
    }

    /// `name` (shortened to [`MAX_NAME`]) made unique among the names of
    /// its `kind` (1 meshes, 2 materials, 3 images; nodes are
    /// [`NodeNames`]) with a number: what
    /// a client that renames clashes (Blender's `.001`) keeps as it is.
    pub fn unique(&mut self, kind: usize, name: &str) -> String {
        let base = short(name);
        let mut n = base.clone();
        let mut k = self.next[kind].get(&base).copied().unwrap_or(2);
        while self.names[kind].contains(&n) {
            let tail = format!(" ({k})");
            let mut cut = MAX_NAME.saturating_sub(tail.len()).min(base.len());
            while !base.is_char_boundary(cut) {
                cut -= 1;
            }
            n = format!("{}{tail}", &base[..cut]);
            k += 1;
        }
        self.next[kind].insert(base, k);
        self.names[kind].insert(n.clone());
        n
    }

    /// Adds a mesh of the non-empty `prims`, each settled
    /// ([`Prim::settle`]), named `name` made unique; its index (`None`
    /// when all are empty).
    pub fn mesh(&mut self, name: &str, prims: Vec<Prim>) -> Option<usize> {
        let prims: Vec<Prim> = prims
            .into_iter()
            .map(|mut p| {
                self.mended += p.settle();
                p
            })
            .filter(|p| !p.idx.is_empty())
            .collect();
        if prims.is_empty() {
            return None;
        }
        let name = self.unique(1, name);
        self.meshes.push(Mesh { name, prims });
        Some(self.meshes.len() - 1)
    }

    /// The first mesh holding a value that is not a finite `f32` (named),
    /// if any.
    pub fn not_finite(&self) -> Option<String> {
        self.meshes
            .iter()
            .find(|m| !m.prims.iter().all(Prim::finite))
            .map(|m| format!("mesh {:?}", m.name))
    }
}

/// The names of nodes made unique as they are written ([`short`], then
/// numbered as [`Scene::unique`] numbers them), holding a hash of each
/// name given rather than the name: a node costs a few bytes, however
/// many there are. Two names of one hash (as good as never) only make
/// the second numbered.
#[derive(Debug, Default)]
pub(crate) struct NodeNames {
    seen: std::collections::HashSet<u64>,
    /// For a base name that clashed, the number tried next.
    next: std::collections::HashMap<String, usize>,
}

impl NodeNames {
    /// A hash of `name`, the same in every run.
    fn hash(name: &str) -> u64 {
        use std::hash::Hasher;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        h.write(name.as_bytes());
        h.finish()
    }

    /// `name` shortened to [`MAX_NAME`] and made unique among the names
    /// given so far.
    pub fn unique(&mut self, name: &str) -> String {
        let base = short(name);
        if self.seen.insert(Self::hash(&base)) {
            return base;
        }
        let mut k = self.next.get(&base).copied().unwrap_or(2);
        let n = loop {
            let tail = format!(" ({k})");
            let mut cut = MAX_NAME.saturating_sub(tail.len()).min(base.len());
            while !base.is_char_boundary(cut) {
                cut -= 1;
            }
            let n = format!("{}{tail}", &base[..cut]);
            k += 1;
            if self.seen.insert(Self::hash(&n)) {
                break n;
            }
        };
        self.next.insert(base, k);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names made unique: numbered in order however many share a base,
    /// skipping a number a name already took, each kind apart.
    #[test]
    fn unique_names_number_in_order_and_skip_taken_ones() {
        let mut sc = Scene::default();
        assert_eq!(sc.unique(0, "a (3)"), "a (3)");
        let got: Vec<String> = (0..5).map(|_| sc.unique(0, "a")).collect();
        assert_eq!(got, ["a", "a (2)", "a (4)", "a (5)", "a (6)"]);
        assert_eq!(sc.unique(1, "a"), "a", "meshes are named apart from nodes");
        for k in 0..2000 {
            let n = sc.unique(2, "tree");
            assert_eq!(
                n,
                if k == 0 {
                    "tree".to_string()
                } else {
                    format!("tree ({})", k + 1)
                }
            );
        }
    }

    /// An OBJ-like triangle whose normals point against it is mended:
    /// the corner gets a vertex of its own with the face's normal.
    #[test]
    fn settle_mends_corners_against_their_face() {
        let mut p = Prim::new(0);
        for q in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
            p.vertex(q, [0.0, 0.0, -1.0], [0.0, 0.0]);
        }
        p.vertex([5.0, 5.0, 5.0], [0.0, 1.0, 0.0], [0.0, 0.0]);
        p.idx = vec![0, 1, 2, 0, 0, 3];
        assert_eq!(p.settle(), 3);
        assert_eq!(p.triangles(), 1, "the triangle without area is left out");
        assert!(p.idx.iter().all(|&i| p.nrm[i as usize] == [0.0, 0.0, 1.0]));
    }
}
