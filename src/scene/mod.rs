//! Placements turned into one plain 3-D scene, built once per run: the
//! meshes (one per art definition: an OBJ, a facade on its footprint, a
//! placement's trees and its ground), the materials and the textures they
//! draw with (handles from the art store, decoded by the view that needs
//! the pixels), and the nodes that place the meshes, each naming the item
//! it draws (kind, placement, index, asset, source line).
//!
//! The geometry comes from the builders beside the formats
//! ([`crate::fac::build`], [`crate::obj::mesh`], [`crate::forest::mesh`]);
//! this module only places it. The views draw the scene: the glTF writer
//! ([`crate::out::gltf`]) serialises it, the previewer downloads that, and
//! the textured picture projects it from above (a mesh merging a
//! placement's tiles or trees names each of them as a [`Piece`]).
//!
//! **Frame.** Local metres of the first placement's origin
//! ([`Scene::origin`]): x east, y north, z up. A node stands at
//! [`Node::at`] turned [`Node::heading`] degrees clockwise; its mesh is in
//! its own frame.
//!
//! **Bounds.** A scene holding more than [`Limits::max_scene_triangles`]
//! triangles (each mesh counted once) is refused ([`LimitExceeded`]);
//! items whose coordinates would not be finite as `f32` are left out with
//! a warning.

pub mod draped;

use crate::fac::build as fac_build;
use crate::forest::Forest;
use crate::geom::mesh::{Facing, WHOLE, open, triangulate};
use crate::geom::{LocalFrame, LonLat, Mesh, Xy};
use crate::limits::{LimitExceeded, Limits};
use crate::place::art::{Art, ArtFile, ArtState, TextureHandle, TextureRole};
use crate::place::{PlacedFacade, PlacedObject, Placement};
use serde_json::{Value, json};
use std::borrow::Borrow;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Plain colours (linear RGBA) for what has no texture.
const GROUND: [f32; 4] = [0.45, 0.45, 0.4, 1.0];
const OBJECT: [f32; 4] = [0.75, 0.72, 0.68, 1.0];
const MISSING: [f32; 4] = [0.85, 0.1, 0.1, 1.0];
const WALL: [f32; 4] = [0.72, 0.55, 0.42, 1.0];
const ROOF: [f32; 4] = [0.35, 0.3, 0.3, 1.0];
const TREE: [f32; 4] = [0.15, 0.45, 0.15, 1.0];
const DRAPED: [f32; 4] = [0.5, 0.5, 0.47, 1.0];
const PAINT: [f32; 4] = [0.95, 0.8, 0.15, 1.0];

/// Raise of each tile above the one drawn before it (metres), so that
/// overlapping tiles do not fight; at most [`MAX_RAISED`] steps.
const TILE_STEP: f64 = 0.01;
const MAX_RAISED: usize = 100;

/// Side of the box drawn for an object whose OBJ cannot be drawn, metres.
const MARKER: f64 = 2.0;

/// What a node draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ItemKind {
    /// A placement: the parent of all it draws.
    Placement,
    /// A placement's ground tiles.
    Ground,
    /// One placed object.
    Object,
    /// One placed facade.
    Facade,
    /// A placement's trees.
    Trees,
    /// One draped polygon (`.pol`) of a whole tile.
    Draped,
    /// One painted line (`.lin`) of a whole tile.
    Line,
}

/// The item a node draws.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its kind.
    pub kind: ItemKind,
    /// Index of its placement among those given.
    pub placement: usize,
    /// Its index among its placement's items of its kind (the placement's
    /// for a placement, ground or trees).
    pub index: usize,
    /// The asset of its placement.
    pub asset: String,
    /// The source line that placed it, for one object or facade.
    pub source_line: Option<usize>,
}

/// A node: an item placed in the scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Its name (not yet made unique).
    pub name: String,
    /// What it draws.
    pub item: Item,
    /// Index into [`Scene::meshes`].
    pub mesh: Option<usize>,
    /// Where it stands in its parent's frame, metres (x east, y north,
    /// z up).
    pub at: [f64; 3],
    /// Its turn, degrees clockwise seen from above.
    pub heading: f64,
    /// Its children, indices into [`Scene::nodes`].
    pub children: Vec<usize>,
    /// What views may show about it (height, art file, state …).
    pub details: Value,
}

/// One part of a mesh: triangles of one material.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Index into [`Scene::materials`].
    pub material: usize,
    /// The geometry.
    pub mesh: Mesh,
    /// The items it merges, in the order they were added, when it draws
    /// several of its node's (a placement's tiles, its trees); empty when
    /// the whole part draws one item.
    pub pieces: Vec<Piece>,
    /// True for a facade's roof: what a view from above shows of the
    /// facade, its outline ([`Mesh::outline`]) the roof's.
    pub roof: bool,
}

impl Part {
    /// A part drawing one item: all of `mesh` with `material`.
    pub fn whole(material: usize, mesh: Mesh) -> Part {
        Part {
            material,
            mesh,
            pieces: Vec::new(),
            roof: false,
        }
    }

    /// A facade's roof: all of `mesh` with `material`.
    pub fn roof(material: usize, mesh: Mesh) -> Part {
        Part {
            roof: true,
            ..Part::whole(material, mesh)
        }
    }
}

/// One item of a part that merges several: which one, and its vertices.
/// A view that shows items one by one (the picture from above) draws a
/// piece from these vertices, so that it shows what every view shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Its index among its placement's items of its kind (the placement's
    /// `tiles` for ground, `trees` for trees).
    pub index: usize,
    /// Its vertices: `mesh.positions[vertices]` (and the same range of
    /// `uvs`). A tile's are its outline's points, in order.
    pub vertices: std::ops::Range<usize>,
    /// For a tree drawn as a card: its crown seen from above, the foot it
    /// stands on (the node's frame) and half its width. A card seen from
    /// above is a cross; views from above draw this crown instead. `None`
    /// for a tile and for a tree drawn as its 3-D mesh (seen from above:
    /// the outline of its vertices).
    pub crown: Option<(Xy, f64)>,
}

/// A mesh merging items, each recorded as a [`Piece`].
#[derive(Debug, Default)]
struct Merged {
    mesh: Mesh,
    pieces: Vec<Piece>,
}

impl Merged {
    /// Adds item `index`: `m` turned `heading` degrees clockwise and
    /// moved to `at` ([`append`]), with its crown (for a card).
    fn add(&mut self, index: usize, m: &Mesh, at: Xy, heading: f64, crown: Option<f64>) {
        let first = self.mesh.positions.len();
        append(&mut self.mesh, m, at, heading);
        self.pieces.push(Piece {
            index,
            vertices: first..self.mesh.positions.len(),
            crown: crown.map(|r| (at, r)),
        });
    }

    /// The part of these pieces drawn with `material`.
    fn part(self, material: usize) -> Part {
        Part {
            material,
            mesh: self.mesh,
            pieces: self.pieces,
            roof: false,
        }
    }
}

/// A mesh: parts drawn together, used by one or more nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneMesh {
    /// Its name (not yet made unique).
    pub name: String,
    /// Its parts (none empty).
    pub parts: Vec<Part>,
}

/// How a part is painted.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Its name.
    pub name: String,
    /// The plain colour (linear RGBA), drawn where the texture is not.
    pub color: [f32; 4],
    /// Index into [`Scene::textures`].
    pub texture: Option<usize>,
    /// Pixels less than half opaque are cut out (trees, objects, walls).
    pub cutout: bool,
    /// Seen from both sides (fences, trees, objects).
    pub double_sided: bool,
}

/// A texture the scene draws with, as the art store gave it.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    /// Its name: the file name.
    pub name: String,
    /// The handle that decodes it.
    pub handle: TextureHandle,
}

/// The whole scene.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Longitude and latitude of the frame's origin (the first
    /// placement's).
    pub origin: LonLat,
    /// Meshes.
    pub meshes: Vec<SceneMesh>,
    /// Materials.
    pub materials: Vec<Material>,
    /// Textures.
    pub textures: Vec<Texture>,
    /// Nodes, children before their parents.
    pub nodes: Vec<Node>,
    /// The nodes of the placements.
    pub roots: Vec<usize>,
    /// What views may show about the scene: the origin, the frame, the
    /// placements drawn.
    pub details: Value,
    /// Art drawn in plain colours or as boxes and items left out, and
    /// why.
    pub warnings: Vec<String>,
}

impl Scene {
    /// Triangles held, each mesh counted once.
    pub fn triangles(&self) -> usize {
        self.meshes
            .iter()
            .flat_map(|m| &m.parts)
            .map(|p| p.mesh.triangles.len())
            .sum()
    }
}

/// True when every value is finite once written as `f32`.
fn fin(v: &[f64]) -> bool {
    v.iter().all(|x| (*x as f32).is_finite())
}

/// True when every position and texture coordinate of `m` is finite as
/// `f32`, its positions less `shift`.
fn mesh_fin(m: &Mesh, shift: Xy) -> bool {
    m.positions
        .iter()
        .all(|p| fin(&[p[0] - shift[0], p[1] - shift[1], p[2]]))
        && m.uvs.iter().all(|t| fin(t))
}

/// What an OBJ draws.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drawn {
    /// A mesh.
    Mesh(usize),
    /// Nothing static (lights, lines, animated or draped parts only): its
    /// instances are nodes without a mesh.
    Nothing,
    /// It cannot be read: a box.
    Unreadable,
}

/// Builds scenes.
struct Builder<'a> {
    scene: Scene,
    limits: &'a Limits,
    /// Object meshes by the file drawn (or `missing:` and the path).
    obj_meshes: HashMap<PathBuf, Drawn>,
    /// Textures by file.
    textures: HashMap<PathBuf, usize>,
    /// Textures not found, by the file naming them and the path, warned
    /// about once.
    unfound: BTreeSet<(PathBuf, String)>,
    /// The folder all the scene's art files lie in: art is named by its
    /// path below it.
    art_root: PathBuf,
}

/// The deepest folder holding every file of `files` (empty when there
/// are none or they share no folder).
fn common_folder<'a>(files: impl Iterator<Item = &'a Path>) -> PathBuf {
    let mut root: Option<PathBuf> = None;
    for f in files {
        let dir = f.parent().unwrap_or(Path::new(""));
        root = Some(match root {
            None => dir.to_path_buf(),
            Some(r) => r
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    root.unwrap_or_default()
}

/// The art files the placements name and found.
fn art_files<P: Borrow<Placement>>(ps: &[P]) -> Vec<&Path> {
    let mut v = Vec::new();
    for a in ps.iter().filter_map(|p| p.borrow().art.as_deref()) {
        v.extend(a.objects.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.facades.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.forest.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.texture.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.draped.iter().filter_map(|f| f.file.as_deref()));
    }
    v
}

/// The scene of `ps` (placements, or references to them), in the first
/// placement's frame, within `limits`.
pub fn build<P: Borrow<Placement>>(ps: &[P], limits: &Limits) -> Result<Scene, LimitExceeded> {
    let mut b = Builder {
        scene: Scene::default(),
        limits,
        obj_meshes: HashMap::new(),
        textures: HashMap::new(),
        unfound: BTreeSet::new(),
        art_root: common_folder(art_files(ps).into_iter()),
    };
    let origin = ps.first().map_or([0.0, 0.0], |p| p.borrow().origin);
    b.scene.origin = origin;
    let common = LocalFrame::new(origin);
    let mut listed = Vec::with_capacity(ps.len());
    for (i, p) in ps.iter().map(Borrow::borrow).enumerate() {
        let at = common.to_local(p.origin);
        if !fin(&at) {
            b.scene.warnings.push(format!(
                "placement {i} ({}): its origin is too far from the scene's to be written; left out",
                p.asset
            ));
            continue;
        }
        let node = b.placement(i, p, [at[0], at[1], 0.0])?;
        b.scene.roots.push(node);
        listed.push(json!({
            "asset": p.asset,
            "kind": p.kind,
            "seed": p.seed,
            "origin": {"lon": p.origin[0], "lat": p.origin[1]},
            "objects": p.objects.len(),
            "facades": p.facades.len(),
            "trees": p.trees.len(),
            "draped": p.draped.len(),
            "lines": p.lines.len(),
        }));
    }
    b.scene.details = json!({
        "generator": "agkit",
        "origin": {"lon": origin[0], "lat": origin[1]},
        "frame": "metres from the origin: +x east, +y up, -z north",
        "placements": listed,
    });
    Ok(b.scene)
}

impl Builder<'_> {
    /// Refuses the scene when it would hold more triangles than the
    /// limit.
    fn check(&self, adding: usize) -> Result<(), LimitExceeded> {
        let n = self.scene.triangles() as u64 + adding as u64;
        LimitExceeded::check(
            "triangles of the 3-D scene",
            n,
            self.limits.max_scene_triangles,
        )
    }

    /// The name of the art file `file`: its path below the folder of all
    /// the scene's art, `/` between folders.
    fn art_name(&self, file: &Path) -> String {
        let rel = file.strip_prefix(&self.art_root).unwrap_or(file);
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if parts.is_empty() {
            file.display().to_string()
        } else {
            parts.join("/")
        }
    }

    /// Adds a mesh of the non-empty `parts` (`None` when all are empty).
    fn mesh(&mut self, name: &str, parts: Vec<Part>) -> Option<usize> {
        let parts: Vec<Part> = parts.into_iter().filter(|p| !p.mesh.is_empty()).collect();
        if parts.is_empty() {
            return None;
        }
        self.scene.meshes.push(SceneMesh {
            name: name.to_string(),
            parts,
        });
        Some(self.scene.meshes.len() - 1)
    }

    /// Adds a node; its index.
    fn node(&mut self, node: Node) -> usize {
        self.scene.nodes.push(node);
        self.scene.nodes.len() - 1
    }

    /// A node drawing `parts` as one mesh named `mesh` (`None` when they
    /// hold nothing), within the triangle limit.
    fn drawn(
        &mut self,
        node: Node,
        mesh: &str,
        parts: Vec<Part>,
    ) -> Result<Option<usize>, LimitExceeded> {
        self.check(parts.iter().map(|p| p.mesh.triangles.len()).sum())?;
        let Some(mesh) = self.mesh(mesh, parts) else {
            return Ok(None);
        };
        Ok(Some(self.node(Node {
            mesh: Some(mesh),
            ..node
        })))
    }

    /// The index of a material like `m`, added when new.
    fn material(&mut self, m: Material) -> usize {
        match self.scene.materials.iter().position(|x| *x == m) {
            Some(i) => i,
            None => {
                self.scene.materials.push(m);
                self.scene.materials.len() - 1
            }
        }
    }

    /// A plain-colour material.
    fn color(&mut self, name: &str, color: [f32; 4], double_sided: bool) -> usize {
        self.material(Material {
            name: name.to_string(),
            color,
            texture: None,
            cutout: false,
            double_sided,
        })
    }

    /// The texture of `file`'s `role` (`None`, with a warning once, when
    /// the art store did not find it).
    fn texture<T>(&mut self, file: &ArtFile<T>, role: TextureRole) -> Option<usize> {
        let t = file.texture(role)?;
        let Some(handle) = &t.found else {
            if self.unfound.insert((t.naming.clone(), t.path.clone())) {
                self.scene.warnings.push(format!(
                    "{}: texture {} not found ({}); drawn in a plain colour",
                    t.naming.display(),
                    t.path,
                    t.how
                ));
            }
            return None;
        };
        let k = *self
            .textures
            .entry(handle.file().to_path_buf())
            .or_insert_with(|| {
                self.scene.textures.push(Texture {
                    name: handle.name(),
                    handle: handle.clone(),
                });
                self.scene.textures.len() - 1
            });
        Some(k)
    }

    /// Warns that `n` items of kind `what` of asset `asset` were left out
    /// for coordinates too large to write (nothing when `n` is 0).
    fn left_out(&mut self, asset: &str, n: usize, what: &str) {
        if n > 0 {
            self.scene.warnings.push(format!(
                "{asset}: {n} {what}(s) with coordinates too large to write; left out of the 3-D scene"
            ));
        }
    }

    /// A material drawing texture `tex` over `color`.
    fn textured(
        &mut self,
        name: &str,
        tex: Option<usize>,
        color: [f32; 4],
        cutout: bool,
        double_sided: bool,
    ) -> usize {
        self.material(Material {
            name: name.to_string(),
            color,
            texture: tex,
            cutout: cutout && tex.is_some(),
            double_sided,
        })
    }

    /// The node of placement `i` and all it draws.
    fn placement(&mut self, i: usize, p: &Placement, at: [f64; 3]) -> Result<usize, LimitExceeded> {
        let art = p.art.as_deref();
        let mut children = Vec::new();
        if let Some(n) = self.ground(i, p, art)? {
            children.push(n);
        }
        for (k, o) in p.objects.iter().enumerate() {
            if let Some(n) = self.object(i, k, p, o, art)? {
                children.push(n);
            }
        }
        for (k, f) in p.facades.iter().enumerate() {
            if let Some(n) = self.facade(i, k, p, f, art)? {
                children.push(n);
            }
        }
        if let Some(n) = self.trees(i, p, art)? {
            children.push(n);
        }
        children.extend(self.draped(i, p, art)?);
        children.extend(self.lines(i, p, art)?);
        Ok(self.node(Node {
            name: format!("#{i} {}", p.asset),
            item: item(ItemKind::Placement, i, i, p, None),
            mesh: None,
            at,
            heading: 0.0,
            children,
            details: json!({
                "asset": p.asset,
                "item": "placement",
                "index": i,
                "kind": p.kind,
                "seed": p.seed,
                "origin": {"lon": p.origin[0], "lat": p.origin[1]},
                "objects": p.objects.len(),
                "facades": p.facades.len(),
                "trees": p.trees.len(),
                "draped": p.draped.len(),
                "lines": p.lines.len(),
            }),
        }))
    }

    /// The ground tiles of placement `i` as one mesh, each tile raised a
    /// little above those drawn before it, facing up.
    fn ground(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Option<usize>, LimitExceeded> {
        let ground = art.and_then(|a| a.texture.as_ref());
        let tex = ground.and_then(|g| self.texture(g, TextureRole::Ground));
        let scale = ground
            .and_then(|g| g.get())
            .map_or([1.0, 1.0], |t| t.scale_or_one());
        let art_file = ground
            .and_then(|g| g.file.as_deref())
            .map(|f| self.art_name(f));
        let name = art_file
            .clone()
            .unwrap_or_else(|| format!("ground of {}", p.asset));
        let material = self.textured(&name, tex, GROUND, false, false);
        let mut tiles = Merged::default();
        let mut lines = BTreeSet::new();
        let mut left_out = 0;
        for (k, t) in p.tiles.iter().enumerate().filter(|(_, t)| !t.hidden) {
            let up = t.order.min(MAX_RAISED) as f64 * TILE_STEP;
            let st: Vec<[f64; 2]> = (0..t.polygon.len()).map(|k| t.st(k, scale)).collect();
            if !t.polygon.iter().chain(&st).all(|q| fin(q)) {
                left_out += 1;
                continue;
            }
            let tris = triangulate(&t.polygon);
            if tris.is_empty() {
                continue;
            }
            let mut tile = Mesh::default();
            tile.flat(&t.polygon, &tris, up, Facing::Up, |k| st[k]);
            tiles.add(k, &tile, [0.0, 0.0], 0.0, None);
            lines.insert(t.source_line);
        }
        self.left_out(&p.asset, left_out, "tile");
        let node = Node {
            name: format!("#{i} ground"),
            item: item(ItemKind::Ground, i, i, p, None),
            mesh: None,
            at: [0.0; 3],
            heading: 0.0,
            children: Vec::new(),
            details: json!({
                "asset": p.asset,
                "item": "ground",
                "index": i,
                "source_lines": lines,
                "height": 0.0,
                "art": ground.map(|g| g.path.clone()),
                "art_file": art_file,
                "tiles": p.tiles.iter().filter(|t| !t.hidden).count(),
            }),
        };
        self.drawn(
            node,
            &format!("ground of {}", p.asset),
            vec![tiles.part(material)],
        )
    }

    /// The instance of object `o` (number `k` of placement `i`): a node
    /// using the mesh of its OBJ, or a box when the OBJ cannot be drawn;
    /// `None` (with a warning) when its place cannot be written.
    fn object(
        &mut self,
        i: usize,
        k: usize,
        p: &Placement,
        o: &PlacedObject,
        art: Option<&Art>,
    ) -> Result<Option<usize>, LimitExceeded> {
        if !fin(&[o.x, o.height, o.y, o.heading.to_radians()]) {
            self.scene.warnings.push(format!(
                "{} line {}: object {k} ({}) has a position too large to write; left out of the 3-D scene",
                p.asset, o.source_line, o.asset
            ));
            return Ok(None);
        }
        let file = art.and_then(|a| usize::try_from(o.index).ok().and_then(|i| a.objects.get(i)));
        let state = file.map(|f| f.state);
        let found = file.filter(|f| f.state == ArtState::Found && f.file.is_some());
        let drawn = match found {
            Some(f) => {
                let path = f.file.clone().unwrap_or_default();
                match self.obj_meshes.get(&path) {
                    Some(m) => *m,
                    None => {
                        let m = self.obj_mesh(f, &path)?;
                        self.obj_meshes.insert(path, m);
                        m
                    }
                }
            }
            None => Drawn::Unreadable,
        };
        let short_name = Path::new(&o.asset)
            .file_name()
            .map_or(o.asset.clone(), |n| n.to_string_lossy().into_owned());
        let (mesh, name) = match drawn {
            Drawn::Mesh(m) => (Some(m), format!("#{i} object {k} {short_name}")),
            Drawn::Nothing => (
                None,
                format!("#{i} object {k} {short_name} (nothing static)"),
            ),
            Drawn::Unreadable => (
                Some(self.marker(&o.asset)?),
                format!("#{i} object {k} missing {short_name}"),
            ),
        };
        let art_file = found
            .and_then(|f| f.file.as_deref())
            .map(|f| self.art_name(f));
        Ok(Some(self.node(Node {
            name,
            item: item(ItemKind::Object, i, k, p, Some(o.source_line)),
            mesh,
            at: [o.x, o.y, o.height],
            heading: o.heading,
            children: Vec::new(),
            details: json!({
                "asset": p.asset,
                "item": "object",
                "index": k,
                "source_line": o.source_line,
                "height": o.object_height,
                "base": o.height,
                "heading": o.heading,
                "mode": o.mode,
                "art": o.asset,
                "art_file": art_file,
                "art_state": state.map_or("not looked up", ArtState::describe),
            }),
        })))
    }

    /// The mesh of the OBJ `file` (found at `path`): its static LOD-0
    /// triangles with its `TEXTURE`.
    fn obj_mesh(
        &mut self,
        file: &ArtFile<crate::place::art::ObjShape>,
        path: &Path,
    ) -> Result<Drawn, LimitExceeded> {
        let Some(shape) = file.get() else {
            return Ok(Drawn::Unreadable);
        };
        let tex = self.texture(file, TextureRole::Object);
        let name = self.art_name(path);
        let material = self.textured(&name, tex, OBJECT, true, true);
        if !mesh_fin(&shape.mesh, [0.0, 0.0]) {
            self.scene.warnings.push(format!(
                "{}: coordinates too large to write; drawn as a box",
                path.display()
            ));
            return Ok(Drawn::Unreadable);
        }
        self.check(shape.mesh.triangles.len())?;
        let mesh = shape.mesh.clone();
        Ok(self
            .mesh(&name, vec![Part::whole(material, mesh)])
            .map_or(Drawn::Nothing, Drawn::Mesh))
    }

    /// The box drawn for the objects of `asset` whose OBJ cannot be drawn
    /// (one mesh per path): closed, every face outward.
    fn marker(&mut self, asset: &str) -> Result<usize, LimitExceeded> {
        let key = PathBuf::from(format!("missing:{asset}"));
        if let Some(Drawn::Mesh(m)) = self.obj_meshes.get(&key) {
            return Ok(*m);
        }
        let material = self.color("missing art", MISSING, false);
        let mut mesh = Mesh::default();
        let h = MARKER / 2.0;
        // Counter-clockwise and closed: every side's front faces out.
        let ring = [[-h, -h], [h, -h], [h, h], [-h, h], [-h, -h]];
        for s in ring.windows(2) {
            mesh.wall(s[0], s[1], 0.0, MARKER, WHOLE);
        }
        let tris = triangulate(&ring);
        let st = |k: usize| [ring[k][0] / MARKER + 0.5, ring[k][1] / MARKER + 0.5];
        mesh.flat(&ring[..4], &tris, MARKER, Facing::Up, st);
        mesh.flat(&ring[..4], &tris, 0.0, Facing::Down, st);
        self.check(mesh.triangles.len())?;
        let m = self.scene.meshes.len();
        self.scene.meshes.push(SceneMesh {
            name: format!("missing {asset}"),
            parts: vec![Part::whole(material, mesh)],
        });
        self.obj_meshes.insert(key, Drawn::Mesh(m));
        Ok(m)
    }

    /// Facade `f` (number `k` of placement `i`) as a node of its own at
    /// its footprint's centre: the walls and roof its builder makes on
    /// the layout placement chose, with its wall and roof textures (plain
    /// walls and a roof without its `.fac`).
    fn facade(
        &mut self,
        i: usize,
        k: usize,
        p: &Placement,
        f: &PlacedFacade,
        art: Option<&Art>,
    ) -> Result<Option<usize>, LimitExceeded> {
        let file = art.and_then(|a| a.facades.iter().find(|x| x.path == f.asset));
        let fac = file.and_then(ArtFile::get);
        let ring = open(&f.polygon);
        if ring.len() < 2 {
            return Ok(None);
        }
        let (built, h) = match fac {
            Some(fac) => {
                let layout = fac_build::layout(fac, &f.polygon, f.height, f.walls.as_deref());
                (fac_build::mesh(fac, &f.polygon, &layout), layout.height)
            }
            None => {
                let h = f.drawn_height.unwrap_or(f.height);
                let h = if h.is_finite() && h > 0.0 { h } else { 1.0 };
                (fac_build::untextured(&f.polygon, h), h)
            }
        };
        let closed = built.closed;
        let art_file = file
            .and_then(|x| x.file.as_deref())
            .map(|n| self.art_name(n));
        let (wall_mat, roof_mat) = match (file.filter(|_| fac.is_some()), &art_file) {
            (Some(file), Some(name)) => {
                let wt = self.texture(file, TextureRole::Wall);
                let rt = self.texture(file, TextureRole::Roof);
                (
                    self.textured(&format!("{name} walls"), wt, WALL, true, !closed),
                    self.textured(&format!("{name} roof"), rt, ROOF, false, false),
                )
            }
            _ => (
                self.color(
                    if closed {
                        "missing facade walls"
                    } else {
                        "missing facade fence"
                    },
                    WALL,
                    !closed,
                ),
                self.color("missing facade roof", ROOF, false),
            ),
        };
        // The node stands at the footprint's centre; the mesh around it.
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for q in &ring {
            for c in 0..2 {
                lo[c] = lo[c].min(q[c]);
                hi[c] = hi[c].max(q[c]);
            }
        }
        let centre = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        if !fin(&centre) || !mesh_fin(&built.walls, centre) || !mesh_fin(&built.roof, centre) {
            self.scene.warnings.push(format!(
                "{} line {}: facade {k} ({}) has coordinates too large to write; left out of the 3-D scene",
                p.asset, f.source_line, f.asset
            ));
            return Ok(None);
        }
        let around = |m: Mesh| Mesh {
            positions: m
                .positions
                .iter()
                .map(|q| [q[0] - centre[0], q[1] - centre[1], q[2]])
                .collect(),
            ..m
        };
        let parts = vec![
            Part::whole(wall_mat, around(built.walls)),
            Part::roof(roof_mat, around(built.roof)),
        ];
        let short_name = Path::new(&f.asset)
            .file_name()
            .map_or(f.asset.clone(), |n| n.to_string_lossy().into_owned());
        let node = Node {
            name: format!("#{i} facade {k} {short_name}"),
            item: item(ItemKind::Facade, i, k, p, Some(f.source_line)),
            mesh: None,
            at: [centre[0], centre[1], 0.0],
            heading: 0.0,
            children: Vec::new(),
            details: json!({
                "asset": p.asset,
                "item": "facade",
                "index": k,
                "source_line": f.source_line,
                "height": h,
                "asked_height": f.height,
                "floor": f.floor,
                "art": f.asset,
                "art_file": art_file,
                "art_state": f.art.map_or("not looked up", ArtState::describe),
            }),
        };
        self.drawn(node, &format!("#{i} facade {k} {short_name}"), parts)
    }

    /// The trees of placement `i` (one forest) as one node: each tree the
    /// forest's card of it, textured with its rectangle of the forest's
    /// texture (cut out, both sides drawn), turned by its heading.
    fn trees(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Option<usize>, LimitExceeded> {
        let ts = &p.trees;
        if ts.is_empty() {
            return Ok(None);
        }
        let file = art.and_then(|a| a.forest.as_ref());
        let forest: Option<&Forest> = file.and_then(ArtFile::get);
        let tex = match (forest, file) {
            (Some(_), Some(file)) => self.texture(file, TextureRole::Forest),
            _ => None,
        };
        let art_file = file
            .and_then(|f| f.file.as_deref())
            .map(|f| self.art_name(f));
        let name = art_file.clone().unwrap_or_else(|| "trees".to_string());
        let textured = self.textured(&name, tex, TREE, true, true);
        // 3-D trees draw with the forest's 3-D texture (plain without it).
        let tex3 = match (forest, file) {
            (Some(f), Some(file)) if f.has_3d() => self.texture(file, TextureRole::Forest3d),
            _ => None,
        };
        let solid = forest
            .is_some_and(Forest::has_3d)
            .then(|| self.textured(&format!("{name} 3-D"), tex3, TREE, true, true));
        let plain = self.color("trees without art", TREE, true);
        let (mut cards, mut solids, mut plains) =
            (Merged::default(), Merged::default(), Merged::default());
        let mut lines = BTreeSet::new();
        let (mut tallest, mut left_out) = (0.0f64, 0);
        for (k, t) in ts.iter().enumerate() {
            let w = if t.width.is_finite() && t.width > 0.0 {
                t.width
            } else {
                3.0
            };
            let h = t
                .height
                .filter(|h| h.is_finite() && *h > 0.0)
                .unwrap_or(w * 1.5);
            if !fin(&[t.x, t.y, t.x + w, t.x - w, t.y + w, t.y - w, h, t.heading]) {
                left_out += 1;
                continue;
            }
            // The forest's card of the tree where its texture is drawn,
            // else a plain one.
            let picked = match (forest, t.forest_tree) {
                (Some(forest), Some(k)) => forest.trees.get(k).map(|tr| (forest, tr)),
                _ => None,
            };
            let three_d = picked.is_some_and(|(f, tr)| crate::forest::mesh::is_3d(f, tr));
            let card = match picked {
                // A 3-D tree is its mesh, with or without its texture.
                Some((f, tr)) if three_d => Some(crate::forest::mesh::tree(f, tr, w, h)),
                Some((f, tr)) if tex.is_some() => Some(crate::forest::mesh::tree(f, tr, w, h)),
                _ => None,
            };
            // A card's crown, seen from above, is as wide as the card.
            let (at, crown) = ([t.x, t.y], Some(w / 2.0));
            match card {
                Some(mesh) if three_d => solids.add(k, &mesh, at, t.heading, None),
                Some(card) => cards.add(k, &card, at, t.heading, crown),
                None => {
                    let card = crate::forest::mesh::plain(w, h);
                    plains.add(k, &card, at, t.heading, crown);
                }
            }
            tallest = tallest.max(h);
            lines.insert(t.source_line);
        }
        self.left_out(&p.asset, left_out, "tree");
        let node = Node {
            name: format!(
                "#{i} trees {}",
                file.map_or("(no forest)", |f| f.path.as_str())
            ),
            item: item(ItemKind::Trees, i, i, p, None),
            mesh: None,
            at: [0.0; 3],
            heading: 0.0,
            children: Vec::new(),
            details: json!({
                "asset": p.asset,
                "item": "trees",
                "index": i,
                "source_lines": lines,
                "height": tallest,
                "trees": ts.len() - left_out,
                "art": file.map(|f| f.path.clone()),
                "art_file": art_file,
                "art_state": file.map_or("not looked up", |f| f.state.describe()),
            }),
        };
        let mut parts = vec![cards.part(textured), plains.part(plain)];
        if let Some(material) = solid {
            parts.push(solids.part(material));
        }
        self.drawn(node, &format!("#{i} trees"), parts)
    }
}

impl Builder<'_> {
    /// The material a placement's draped polygons or lines draw with: its
    /// definition's texture (cut out where it is clear unless the `.pol`
    /// says `NO_ALPHA`), else `color`, with a warning once saying why.
    fn draped_material(
        &mut self,
        p: &Placement,
        art: Option<&Art>,
        role: TextureRole,
        color: [f32; 4],
        what: &str,
    ) -> usize {
        let file = art.and_then(|a| a.draped.as_ref());
        let tex = file.and_then(|f| self.texture(f, role));
        if file.is_none() {
            self.scene.warnings.push(format!(
                "{}: its definition was not found or read; its {what} drawn in a plain colour",
                p.asset
            ));
        } else if file.and_then(|f| f.texture(role)).is_none() {
            self.scene.warnings.push(format!(
                "{}: names no texture; its {what} drawn in a plain colour",
                p.asset
            ));
        }
        let name = file
            .and_then(|f| f.file.as_deref())
            .map_or_else(|| format!("{what} of {}", p.asset), |f| self.art_name(f));
        let cutout = !art.and_then(Art::pol).is_some_and(|pol| pol.no_alpha);
        self.textured(&name, tex, color, cutout, false)
    }

    /// `m` moved so that its box's centre is at the origin, and that
    /// centre (`None` when a value would not be finite as `f32`).
    fn centred(m: Mesh) -> Option<(Xy, Mesh)> {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for q in &m.positions {
            for c in 0..2 {
                lo[c] = lo[c].min(q[c]);
                hi[c] = hi[c].max(q[c]);
            }
        }
        let centre = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        if !fin(&centre) || !mesh_fin(&m, centre) {
            return None;
        }
        let positions = m
            .positions
            .iter()
            .map(|q| [q[0] - centre[0], q[1] - centre[1], q[2]])
            .collect();
        Some((centre, Mesh { positions, ..m }))
    }

    /// The draped polygons of placement `i`, a node each at its centre:
    /// its own mesh ([`draped::draped_mesh`]), the material shared by its
    /// definition.
    fn draped(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Vec<usize>, LimitExceeded> {
        if p.draped.is_empty() {
            return Ok(Vec::new());
        }
        let material = self.draped_material(p, art, TextureRole::Draped, DRAPED, "draped polygons");
        let flats = p.draped.iter().enumerate().map(|(k, d)| {
            let details = json!({
                "asset": p.asset,
                "item": "draped",
                "index": k,
                "entity": d.entity,
                "holes": d.rings.len().saturating_sub(1),
                "uv": if d.uv.is_some() { "planes" } else { "scale" },
                "heading": d.heading,
                "art": d.asset,
                "texture": d.texture,
                "art_state": d.art.map_or("not looked up", ArtState::describe),
            });
            let name = format!("#{i} draped {k} {}", short(&d.asset));
            (name, details, draped::draped_mesh(d, draped::DRAPED_Z))
        });
        let flat = Flat {
            kind: ItemKind::Draped,
            noun: "draped polygon",
            empty: "with no area",
        };
        self.flats(i, p, material, flat, flats)
    }

    /// The painted lines of placement `i` (a `.lin`; an object string's
    /// line is not painted: its objects are drawn), a node each at its
    /// centre: its strip ([`draped::line_mesh`]) of the `.lin`'s width.
    fn lines(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Vec<usize>, LimitExceeded> {
        if p.lines.is_empty() || p.kind == crate::place::PlacementKind::Str {
            return Ok(Vec::new());
        }
        let material = self.draped_material(p, art, TextureRole::Line, PAINT, "lines");
        let strip = art.and_then(Art::lin).and_then(draped::Strip::of);
        let flats = p.lines.iter().enumerate().map(|(k, l)| {
            let strip = strip.unwrap_or_else(|| {
                draped::Strip::plain(l.width.unwrap_or(draped::PLAIN_LINE_WIDTH))
            });
            let details = json!({
                "asset": p.asset,
                "item": "line",
                "index": k,
                "entity": l.entity,
                "winding": l.winding,
                "closed": l.closed,
                "width": strip.width(),
                "art": l.asset,
                "texture": l.texture,
                "art_state": l.art.map_or("not looked up", ArtState::describe),
            });
            let name = format!("#{i} line {k} {}", short(&l.asset));
            (name, details, draped::line_mesh(l, &strip, draped::LINE_Z))
        });
        let flat = Flat {
            kind: ItemKind::Line,
            noun: "line",
            empty: "with fewer than two distinct points",
        };
        self.flats(i, p, material, flat, flats)
    }

    /// Flat items of placement `i` (draped polygons or painted lines): each
    /// (name, details, mesh) a node at its mesh's centre drawn with
    /// `material`; those that cannot be written (not finite) and those
    /// with nothing to draw counted in the scene's warnings.
    fn flats(
        &mut self,
        i: usize,
        p: &Placement,
        material: usize,
        flat: Flat,
        items: impl Iterator<Item = (String, Value, Mesh)>,
    ) -> Result<Vec<usize>, LimitExceeded> {
        let (mut nodes, mut left_out, mut empty) = (Vec::new(), 0, 0);
        for (k, (name, details, mesh)) in items.enumerate() {
            let Some((centre, mesh)) = Self::centred(mesh) else {
                left_out += 1;
                continue;
            };
            let node = Node {
                name: name.clone(),
                item: item(flat.kind, i, k, p, None),
                mesh: None,
                at: [centre[0], centre[1], 0.0],
                heading: 0.0,
                children: Vec::new(),
                details,
            };
            match self.drawn(node, &name, vec![Part::whole(material, mesh)])? {
                Some(n) => nodes.push(n),
                None => empty += 1,
            }
        }
        self.left_out(&p.asset, left_out, flat.noun);
        if empty > 0 {
            self.scene.warnings.push(format!(
                "{}: {empty} {}(s) {}; nothing to draw",
                p.asset, flat.noun, flat.empty
            ));
        }
        Ok(nodes)
    }
}

/// What kind of flat item [`Builder::flats`] draws, and how it names it.
struct Flat {
    /// The nodes' item kind.
    kind: ItemKind,
    /// One item, in warnings.
    noun: &'static str,
    /// Why an item has nothing to draw.
    empty: &'static str,
}

/// The file name of `path` (the path when it has none).
fn short(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The item of kind `kind`, number `index` of placement `i`.
fn item(kind: ItemKind, i: usize, index: usize, p: &Placement, line: Option<usize>) -> Item {
    Item {
        kind,
        placement: i,
        index,
        asset: p.asset.clone(),
        source_line: line,
    }
}

/// The turn by `heading` degrees clockwise seen from above, about the
/// vertical axis (exactly none at 0).
fn turning(heading: f64) -> impl Fn([f64; 3]) -> [f64; 3] {
    let (s, c) = if heading == 0.0 {
        (0.0, 1.0)
    } else {
        heading.to_radians().sin_cos()
    };
    move |[x, y, z]: [f64; 3]| [x * c + y * s, -x * s + y * c, z]
}

impl Node {
    /// `q`, a point of its mesh (its own frame), in its parent's frame:
    /// turned by its heading and moved to where it stands.
    pub fn to_parent(&self, q: [f64; 3]) -> [f64; 3] {
        let [x, y, z] = turning(self.heading)(q);
        [self.at[0] + x, self.at[1] + y, self.at[2] + z]
    }
}

/// Appends `m` to `to`, turned `heading` degrees clockwise and moved by
/// `at` (local metres). The turn is about the vertical axis, so each
/// triangle keeps its winding.
pub fn append(to: &mut Mesh, m: &Mesh, at: Xy, heading: f64) {
    let turn = turning(heading);
    let base = to.positions.len() as u32;
    for (k, p) in m.positions.iter().enumerate() {
        let [x, y, z] = turn(*p);
        to.positions.push([at[0] + x, at[1] + y, z]);
        to.normals
            .push(turn(m.normals.get(k).copied().unwrap_or([0.0, 0.0, 1.0])));
        to.uvs.push(m.uvs.get(k).copied().unwrap_or([0.0, 0.0]));
    }
    let n = m.positions.len();
    for t in &m.triangles {
        if t.iter().all(|&i| (i as usize) < n) {
            to.triangles.push(t.map(|i| base + i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::PlacedTree;
    use std::sync::Arc;

    /// Regression (issue 32): the 3-D scene drew every side of a facade
    /// with its first wall, while placement chose a wall per side. Each
    /// side now spans the panels of the wall placement chose.
    #[test]
    fn each_side_draws_the_wall_placement_chose() {
        let text = "A\n800\nFACADE\nTEXTURE wall.png\nRING 1\nLOD 0 10000\n\
                    WALL 0 1000 0 360 plain\nSCALE 10 10\nLEFT 0 0.25\nBOTTOM 0 0.5\n\
                    WALL 0 1000 0 360 shop\nSCALE 10 10\nLEFT 0.5 0.75\nBOTTOM 0.5 1\n";
        let fac = crate::fac::read(text.as_bytes(), "two.fac", &Limits::default()).unwrap();
        let square = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let mut f = PlacedFacade {
            asset: "two.fac".into(),
            polygon: square,
            height: 6.0,
            walls: Some(vec![0, 1, 0, 1]),
            ..PlacedFacade::default()
        };
        let layout = fac_build::layout(&fac, &f.polygon, f.height, f.walls.as_deref());
        f.wall_choice = Some(layout.walls.clone());
        assert_eq!(
            layout.walls.iter().map(|w| w.wall).collect::<Vec<_>>(),
            [0, 1, 0, 1]
        );
        let art = Art {
            facades: vec![ArtFile::found("two.fac", "/art/two.fac", fac)],
            ..Art::default()
        };
        let p = Placement {
            asset: "t.agp".into(),
            facades: vec![f],
            art: Some(Arc::new(art)),
            ..Placement::default()
        };
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let walls = &s.meshes[0].parts[0].mesh;
        // One quad (4 corners) a side, in side order on this
        // counter-clockwise ring: s spans the chosen wall's LEFT panel.
        let spans: Vec<[f64; 2]> = walls
            .uvs
            .chunks_exact(4)
            .map(|q| [q[0][0], q[1][0]])
            .collect();
        assert_eq!(spans, [[0.0, 0.25], [0.5, 0.75], [0.0, 0.25], [0.5, 0.75]]);
    }

    #[test]
    fn three_d_trees_draw_as_their_mesh_with_their_own_material() {
        let text = include_str!("../../tests/fixtures/art/trees.for");
        let forest = crate::forest::read(text.as_bytes(), "trees.for", &Limits::default()).unwrap();
        // The store resolves the 3-D texture beside the 2-D one.
        assert_eq!(
            crate::scenery::art::forest_textures(&forest),
            [
                (TextureRole::Forest, "trees.png".to_string()),
                (TextureRole::Forest3d, "trees_3d.png".to_string())
            ]
        );
        let tree = |k: usize, x: f64| PlacedTree {
            x,
            width: 4.0,
            height: Some(10.0),
            forest_tree: Some(k),
            ..PlacedTree::default()
        };
        let p = Placement {
            asset: "t.agp".into(),
            // The oak has a 3-D mesh (one triangle); the second tree has none.
            trees: vec![tree(0, 0.0), tree(1, 20.0)],
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found("trees.for", "/art/trees.for", forest)),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let parts = &s.meshes[0].parts;
        let named = |suffix: &str| {
            parts
                .iter()
                .find(|pt| s.materials[pt.material].name.ends_with(suffix))
                .map(|pt| pt.mesh.triangles.len())
        };
        assert_eq!(named(" 3-D"), Some(1), "{parts:?}");
        // Without its texture the 2-D tree is a plain card.
        assert!(named("trees without art").is_some_and(|n| n >= 2));
    }

    /// The pieces of a placement's trees: a 3-D tree is its mesh as
    /// placed (here a mesh 10 m tall spanning x −1…1 and z −2…2, X-Plane's
    /// z pointing south, drawn 20 m tall at (100, 50): x 98…102 and y
    /// 46…54 facing north, x 96…104 and y 48…52 turned a quarter); a card
    /// carries its crown (its foot, half its width); a tree whose place is
    /// not finite is no piece.
    #[test]
    fn each_tree_is_a_piece_of_its_part() {
        let text = "A\n800\nFOREST\n\nTEXTURE t.png\nSCALE_X 256\nSCALE_Y 256\n\
                    SPACING 10 10\nRANDOM 0 0\n\nSHADER_3D\nTEXTURE t3.png\n\
                    MESH cone 0 500 4 6\nVERTEX 1 0 2  0 1 0  0 0  0\n\
                    VERTEX -1 0 2  0 1 0  0 0  0\nVERTEX 0 10 -2  0 1 0  0 0  0\n\
                    VERTEX 0 5 0  0 1 0  0 0  0\nIDX 0 1 2\nIDX 0 2 3\n\n\
                    TREE 0 0 64 128 32 50 10 10 2 0 cone\nMESH_3D cone\n\
                    TREE 64 0 64 128 32 50 10 10 2 0 card\n";
        let forest = crate::forest::read(text.as_bytes(), "t.for", &Limits::default()).unwrap();
        let tree = |k: usize, heading: f64| PlacedTree {
            x: 100.0,
            y: 50.0,
            width: 4.0,
            height: Some(20.0),
            heading,
            forest_tree: Some(k),
            ..PlacedTree::default()
        };
        let mut lost = tree(0, 0.0);
        lost.x = f64::INFINITY;
        let p = Placement {
            trees: vec![tree(0, 0.0), tree(0, 90.0), tree(1, 0.0), lost],
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found("t.for", "/art/t.for", forest)),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let pieces: Vec<(&Part, &Piece)> = s.meshes[0]
            .parts
            .iter()
            .flat_map(|pt| pt.pieces.iter().map(move |pc| (pt, pc)))
            .collect();
        let mut indices: Vec<usize> = pieces.iter().map(|(_, pc)| pc.index).collect();
        indices.sort_unstable();
        assert_eq!(indices, [0, 1, 2], "the tree left out is no piece");
        let piece = |k: usize| pieces.iter().find(|(_, pc)| pc.index == k).unwrap();
        let bounds = |k: usize| {
            let (pt, pc) = piece(k);
            let q = &pt.mesh.positions[pc.vertices.clone()];
            let f = |c: usize, m: fn(f64, f64) -> f64, i: f64| q.iter().map(|v| v[c]).fold(i, m);
            [
                f(0, f64::min, f64::INFINITY),
                f(0, f64::max, -f64::INFINITY),
                f(1, f64::min, f64::INFINITY),
                f(1, f64::max, -f64::INFINITY),
            ]
        };
        let near = |a: [f64; 4], b: [f64; 4]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        assert!(
            near(bounds(0), [98.0, 102.0, 46.0, 54.0]),
            "{:?}",
            bounds(0)
        );
        assert!(
            near(bounds(1), [96.0, 104.0, 48.0, 52.0]),
            "{:?}",
            bounds(1)
        );
        assert_eq!(piece(0).1.crown, None, "a 3-D tree is seen as its mesh");
        assert_eq!(piece(2).1.crown, Some(([100.0, 50.0], 2.0)));
    }

    #[test]
    fn art_is_named_below_the_folder_of_all_art() {
        let files = [
            Path::new("/x/examples/block/corner_house.obj"),
            Path::new("/x/examples/string/corner_house.obj"),
        ];
        assert_eq!(
            common_folder(files.into_iter()),
            PathBuf::from("/x/examples")
        );
        assert_eq!(
            common_folder([Path::new("/a/b/c.obj")].into_iter()),
            PathBuf::from("/a/b")
        );
    }
}
