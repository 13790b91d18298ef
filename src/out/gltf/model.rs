//! The scene as it is built, before it becomes a glTF document: meshes of
//! triangles, materials, embedded images and nodes, in glTF's frame
//! (metres; x east, y up, z south).

use serde_json::Value;

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
    /// Three indices a triangle.
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

    /// Adds a quad `a b c d` (in order around it) as two triangles facing
    /// `n`, with the texture coordinates given.
    pub fn quad(&mut self, corners: [[f64; 3]; 4], uvs: [[f64; 2]; 4], n: [f64; 3]) {
        let i: Vec<u32> = (0..4).map(|k| self.vertex(corners[k], n, uvs[k])).collect();
        self.idx.extend([i[0], i[1], i[2], i[0], i[2], i[3]]);
    }

    /// Triangles held.
    pub fn triangles(&self) -> usize {
        self.idx.len() / 3
    }
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
}

/// An embedded image.
#[derive(Debug, Clone)]
pub(crate) struct Image {
    /// Its name (the file it came from).
    pub name: String,
    /// PNG bytes.
    pub png: Vec<u8>,
}

/// A node.
#[derive(Debug, Clone, Default)]
pub(crate) struct Node {
    /// Its name.
    pub name: String,
    /// Index into [`Scene::meshes`].
    pub mesh: Option<usize>,
    /// Translation.
    pub translation: [f64; 3],
    /// Rotation about +y, radians (counter-clockwise seen from above).
    pub yaw: f64,
    /// Child nodes.
    pub children: Vec<usize>,
    /// Its `extras`.
    pub extras: Option<Value>,
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
    /// Nodes.
    pub nodes: Vec<Node>,
    /// The scene's root nodes.
    pub roots: Vec<usize>,
    /// The scene's `extras`.
    pub extras: Value,
}

impl Scene {
    /// The index of a material like `m`, added when new.
    pub fn material(&mut self, m: Material) -> usize {
        match self.materials.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                self.materials.push(m);
                self.materials.len() - 1
            }
        }
    }

    /// A plain-colour material named `name`.
    pub fn color(&mut self, name: &str, color: [f32; 4]) -> usize {
        self.material(Material {
            name: name.to_string(),
            color,
            image: None,
            mask: false,
        })
    }

    /// Adds a mesh of the non-empty `prims`; its index (`None` when all
    /// are empty).
    pub fn mesh(&mut self, name: String, prims: Vec<Prim>) -> Option<usize> {
        let prims: Vec<Prim> = prims.into_iter().filter(|p| !p.idx.is_empty()).collect();
        if prims.is_empty() {
            return None;
        }
        self.meshes.push(Mesh { name, prims });
        Some(self.meshes.len() - 1)
    }

    /// Adds a node; its index.
    pub fn node(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Triangles held in the meshes (each mesh once, however many nodes
    /// use it).
    pub fn triangles(&self) -> usize {
        self.meshes
            .iter()
            .flat_map(|m| &m.prims)
            .map(Prim::triangles)
            .sum()
    }
}
