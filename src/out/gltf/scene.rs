//! Placements turned into a [`Scene`]: ground tiles, object instances,
//! facades and trees, in glTF's frame (see the module docs of
//! [`super`]).

use super::art::{Loader, Tex};
use super::model::{Material, Node, Prim, Scene};
use crate::fac::build as fac_build;
use crate::forest::Forest;
use crate::geom::mesh::{Facing, WHOLE, open, triangulate};
use crate::geom::{LocalFrame, Mesh, Xy};
use crate::limits::Limits;
use crate::place::art::{Art, ArtFile, ArtState};
use crate::place::{PlacedFacade, PlacedObject, Placement};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Plain colours (linear RGBA) for what has no texture.
const GROUND: [f32; 4] = [0.45, 0.45, 0.4, 1.0];
const OBJECT: [f32; 4] = [0.75, 0.72, 0.68, 1.0];
const MISSING: [f32; 4] = [0.85, 0.1, 0.1, 1.0];
const WALL: [f32; 4] = [0.72, 0.55, 0.42, 1.0];
const ROOF: [f32; 4] = [0.35, 0.3, 0.3, 1.0];
const TREE: [f32; 4] = [0.15, 0.45, 0.15, 1.0];

/// Raise of each tile above the one drawn before it (metres), so that
/// overlapping tiles do not fight; at most [`MAX_RAISED`] steps.
const TILE_STEP: f64 = 0.01;
const MAX_RAISED: usize = 100;

/// Side of the box drawn for an object whose OBJ cannot be drawn, metres.
const MARKER: f64 = 2.0;

/// A local point (x east, y north) at `up` metres, in glTF's frame.
fn g(p: Xy, up: f64) -> [f64; 3] {
    [p[0], up, -p[1]]
}

/// Appends `m` to `prim`, turned `heading` degrees clockwise and moved
/// by `at` (local metres), in glTF's frame: (x, y, z) → (x, z, −y), s, t →
/// u, 1 − t. The turn is about the vertical axis, so a triangle's winding
/// and its front are kept.
fn append(prim: &mut Prim, m: &Mesh, at: Xy, heading: f64) {
    let (s, c) = if heading == 0.0 {
        (0.0, 1.0)
    } else {
        heading.to_radians().sin_cos()
    };
    let turn = |[x, y, z]: [f64; 3]| [x * c + y * s, -x * s + y * c, z];
    let base = prim.pos.len() as u32;
    for (k, p) in m.positions.iter().enumerate() {
        let [x, y, z] = turn(*p);
        let [nx, ny, nz] = turn(m.normals.get(k).copied().unwrap_or([0.0, 0.0, 1.0]));
        let [u, t] = m.uvs.get(k).copied().unwrap_or([0.0, 0.0]);
        prim.vertex(
            [at[0] + x, z, -(at[1] + y)],
            [nx, nz, -ny],
            [u, 1.0 - t],
        );
    }
    let n = m.positions.len();
    for t in &m.triangles {
        if t.iter().all(|&i| (i as usize) < n) {
            prim.idx.extend(t.map(|i| base + i));
        }
    }
}

/// True when every value is finite once written as `f32`.
fn fin(v: &[f64]) -> bool {
    v.iter().all(|x| (*x as f32).is_finite())
}

/// Why a scene was refused.
pub(crate) type Refusal = String;

/// Builds scenes.
struct Builder<'a> {
    scene: Scene,
    art: Loader<'a>,
    limits: &'a Limits,
    /// Object meshes by the file drawn (or `missing:` and the path).
    obj_meshes: HashMap<PathBuf, Drawn>,
    /// The folder all the scene's art files lie in: art is named by its
    /// path below it.
    art_root: PathBuf,
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
fn art_files(ps: &[Placement]) -> Vec<&Path> {
    let mut v = Vec::new();
    for a in ps.iter().filter_map(|p| p.art.as_deref()) {
        v.extend(a.objects.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.facades.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.forest.iter().filter_map(|f| f.file.as_deref()));
        v.extend(a.texture.iter().filter_map(|f| f.file.as_deref()));
    }
    v
}

/// The scene of `ps` (in the first placement's frame) and the warnings
/// about art drawn in plain colours and items left out.
pub(crate) fn build(ps: &[Placement], limits: &Limits) -> Result<(Scene, Vec<String>), Refusal> {
    let mut b = Builder {
        scene: Scene::default(),
        art: Loader::new(limits),
        limits,
        obj_meshes: HashMap::new(),
        art_root: common_folder(art_files(ps).into_iter()),
    };
    let origin = ps.first().map_or([0.0, 0.0], |p| p.origin);
    let common = LocalFrame::new(origin);
    let mut listed = Vec::with_capacity(ps.len());
    for (i, p) in ps.iter().enumerate() {
        let at = common.to_local(p.origin);
        if !fin(&at) {
            b.art.warnings.push(format!(
                "placement {i} ({}): its origin is too far from the scene's to be written; left out",
                p.asset
            ));
            continue;
        }
        let node = b.placement(i, p, g(at, 0.0))?;
        b.scene.roots.push(node);
        listed.push(json!({
            "asset": p.asset,
            "kind": p.kind,
            "seed": p.seed,
            "origin": {"lon": p.origin[0], "lat": p.origin[1]},
            "objects": p.objects.len(),
            "facades": p.facades.len(),
            "trees": p.trees.len(),
        }));
    }
    for k in 0..b.scene.images.len() {
        let name = b.scene.images[k].name.clone();
        b.scene.images[k].name = b.scene.unique(3, &name);
    }
    b.scene.extras = json!({
        "generator": "agkit",
        "origin": {"lon": origin[0], "lat": origin[1]},
        "frame": "metres from the origin: +x east, +y up, -z north",
        "placements": listed,
    });
    Ok((b.scene, b.art.warnings))
}

impl Builder<'_> {
    /// Refuses the scene when it holds more triangles than the limit.
    fn check(&self, adding: usize) -> Result<(), Refusal> {
        let n = self.scene.triangles() as u64 + adding as u64;
        if n > self.limits.max_scene_triangles {
            return Err(format!(
                "the 3-D scene would hold {} triangles, more than the limit of {}",
                crate::out::thousands(n as usize),
                crate::out::thousands(self.limits.max_scene_triangles as usize)
            ));
        }
        Ok(())
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

    /// A node named `name` drawing `prims` as one mesh named `mesh`
    /// (`None` when they hold nothing), within the triangle limit.
    fn drawn(
        &mut self,
        node: Node,
        mesh: &str,
        prims: Vec<Prim>,
    ) -> Result<Option<usize>, Refusal> {
        self.check(prims.iter().map(Prim::triangles).sum())?;
        let Some(mesh) = self.scene.mesh(mesh, prims) else {
            return Ok(None);
        };
        Ok(Some(self.scene.node(Node {
            mesh: Some(mesh),
            ..node
        })))
    }

    /// The node of placement `i` and all it draws.
    fn placement(&mut self, i: usize, p: &Placement, at: [f64; 3]) -> Result<usize, Refusal> {
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
        Ok(self.scene.node(Node {
            name: format!("#{i} {}", p.asset),
            translation: at,
            children,
            extras: Some(json!({
                "asset": p.asset,
                "item": "placement",
                "index": i,
                "kind": p.kind,
                "seed": p.seed,
                "origin": {"lon": p.origin[0], "lat": p.origin[1]},
                "objects": p.objects.len(),
                "facades": p.facades.len(),
                "trees": p.trees.len(),
            })),
            ..Node::default()
        }))
    }

    /// A material drawing `tex` (a cut-out when it has transparent pixels
    /// and `cutout`), else `color`.
    fn textured(
        &mut self,
        name: &str,
        tex: Option<Tex>,
        color: [f32; 4],
        cutout: bool,
        double_sided: bool,
    ) -> usize {
        self.scene.material(match tex {
            Some(t) => Material {
                name: name.to_string(),
                color: [1.0; 4],
                image: Some(t.image),
                mask: cutout && t.alpha,
                double_sided,
            },
            None => Material {
                name: name.to_string(),
                color,
                image: None,
                mask: false,
                double_sided,
            },
        })
    }

    /// The ground tiles of placement `i` as one mesh, each tile raised a
    /// little above those drawn before it, facing up.
    fn ground(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Option<usize>, Refusal> {
        let ground = art.and_then(|a| a.texture.as_ref());
        let tex = ground
            .and_then(|g| g.file.clone())
            .and_then(|f| self.art.texture(&mut self.scene, &f));
        // `TEXTURE_SCALE` as the tiles' coordinates count it ([1, 1]
        // without it, as WorldEditor reads an AGP).
        let scale = match ground.and_then(|g| g.get()).map(|t| t.scale) {
            Some(s) if s[0] > 0.0 && s[1] > 0.0 => s,
            _ => [1.0, 1.0],
        };
        let art_file = ground
            .and_then(|g| g.file.as_deref())
            .map(|f| self.art_name(f));
        let name = art_file
            .clone()
            .unwrap_or_else(|| format!("ground of {}", p.asset));
        let mat = self.textured(&name, tex, GROUND, false, false);
        let mut prim = Prim::new(mat);
        let mut lines = std::collections::BTreeSet::new();
        let mut left_out = 0;
        for t in p.tiles.iter().filter(|t| !t.hidden) {
            let up = t.order.min(MAX_RAISED) as f64 * TILE_STEP;
            let uvs: Vec<[f64; 2]> = (0..t.polygon.len())
                .map(|k| {
                    let [u, v] = t.uv.get(k).copied().unwrap_or([0.0, 0.0]);
                    [u / scale[0], 1.0 - v / scale[1]]
                })
                .collect();
            if !t.polygon.iter().chain(&uvs).all(|q| fin(q)) {
                left_out += 1;
                continue;
            }
            let tris = triangulate(&t.polygon);
            if tris.is_empty() {
                continue;
            }
            prim.flat(&t.polygon, &tris, up, true, |k| uvs[k]);
            lines.insert(t.source_line);
        }
        if left_out > 0 {
            self.art.warnings.push(format!(
                "{}: {left_out} tile(s) with coordinates too large to write; left out of the 3-D scene",
                p.asset
            ));
        }
        let node = Node {
            name: format!("#{i} ground"),
            extras: Some(json!({
                "asset": p.asset,
                "item": "ground",
                "index": i,
                "source_lines": lines,
                "height": 0.0,
                "art": ground.map(|g| g.path.clone()),
                "art_file": art_file,
                "tiles": p.tiles.iter().filter(|t| !t.hidden).count(),
            })),
            ..Node::default()
        };
        self.drawn(node, &format!("ground of {}", p.asset), vec![prim])
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
    ) -> Result<Option<usize>, Refusal> {
        let translation = [o.x, o.height, -o.y];
        let yaw = -o.heading.to_radians();
        if !fin(&translation) || !fin(&[yaw]) {
            self.art.warnings.push(format!(
                "{} line {}: object {k} ({}) has a position too large to write; left out of the 3-D scene",
                p.asset, o.source_line, o.asset
            ));
            return Ok(None);
        }
        let file = art.and_then(|a| usize::try_from(o.index).ok().and_then(|i| a.objects.get(i)));
        let state = file.map(|f| f.state);
        let found = file
            .filter(|f| f.state == ArtState::Found)
            .and_then(|f| f.file.clone());
        let drawn = match &found {
            Some(path) => match self.obj_meshes.get(path) {
                Some(m) => *m,
                None => {
                    let m = self.obj_mesh(path)?;
                    self.obj_meshes.insert(path.clone(), m);
                    m
                }
            },
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
        let art_file = found.as_deref().map(|f| self.art_name(f));
        Ok(Some(self.scene.node(Node {
            name,
            mesh,
            translation,
            yaw,
            extras: Some(json!({
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
            })),
            ..Node::default()
        })))
    }

    /// The mesh of the OBJ at `path`: its static LOD-0 triangles (no
    /// draped, animated, line or light geometry) with its `TEXTURE`.
    fn obj_mesh(&mut self, path: &Path) -> Result<Drawn, Refusal> {
        let Some(obj) = self.art.obj(path) else {
            return Ok(Drawn::Unreadable);
        };
        let tex = obj
            .texture("TEXTURE")
            .map(str::to_string)
            .and_then(|t| self.art.texture_named(&mut self.scene, path, &t));
        let name = self.art_name(path);
        let mat = self.textured(&name, tex, OBJECT, true, true);
        let mut prim = Prim::new(mat);
        append(&mut prim, &crate::obj::mesh::mesh(&obj), [0.0, 0.0], 0.0);
        if !prim.finite() {
            self.art.warnings.push(format!(
                "{}: coordinates too large to write; drawn as a box",
                path.display()
            ));
            return Ok(Drawn::Unreadable);
        }
        self.check(prim.triangles())?;
        Ok(self
            .scene
            .mesh(&name, vec![prim])
            .map_or(Drawn::Nothing, Drawn::Mesh))
    }

    /// The box drawn for the objects of `asset` whose OBJ cannot be drawn
    /// (one mesh per path): closed, every face outward.
    fn marker(&mut self, asset: &str) -> Result<usize, Refusal> {
        let key = PathBuf::from(format!("missing:{asset}"));
        if let Some(Drawn::Mesh(m)) = self.obj_meshes.get(&key) {
            return Ok(*m);
        }
        let mat = self.scene.color("missing art", MISSING, false);
        let mut m = Mesh::default();
        let h = MARKER / 2.0;
        // Counter-clockwise and closed: every side's front faces out.
        let ring = [[-h, -h], [h, -h], [h, h], [-h, h], [-h, -h]];
        for s in ring.windows(2) {
            m.wall(s[0], s[1], 0.0, MARKER, WHOLE);
        }
        let tris = triangulate(&ring);
        let st = |k: usize| [ring[k][0] / MARKER + 0.5, ring[k][1] / MARKER + 0.5];
        m.flat(&ring[..4], &tris, MARKER, Facing::Up, st);
        m.flat(&ring[..4], &tris, 0.0, Facing::Down, st);
        let mut prim = Prim::new(mat);
        append(&mut prim, &m, [0.0, 0.0], 0.0);
        self.check(prim.triangles())?;
        let m = self
            .scene
            .mesh(&format!("missing {asset}"), vec![prim])
            .ok_or_else(|| "an empty marker".to_string())?;
        self.obj_meshes.insert(key, Drawn::Mesh(m));
        Ok(m)
    }

    /// Facade `f` (number `k` of placement `i`) as a node of its own at
    /// its footprint's centre: walls of its height with the wall texture
    /// (fronts outward on a ring; both sides drawn on a fence), a flat
    /// roof with the roof texture.
    fn facade(
        &mut self,
        i: usize,
        k: usize,
        p: &Placement,
        f: &PlacedFacade,
        art: Option<&Art>,
    ) -> Result<Option<usize>, Refusal> {
        let file = art.and_then(|a| a.facades.iter().find(|x| x.path == f.asset));
        let fac = file.and_then(ArtFile::get);
        let naming = file.and_then(|x| x.file.clone());
        if open(&f.polygon).len() < 2 {
            return Ok(None);
        }
        // The facade as placement laid it out (the same layout fills the
        // placement's JSON), or plain walls and a roof without its `.fac`.
        let built = match fac {
            Some(fac) => {
                let layout = fac_build::layout(fac, &f.polygon, f.height, f.walls.as_deref());
                fac_build::mesh(fac, &f.polygon, &layout)
            }
            None => fac_build::untextured(&f.polygon, f.drawn_height.unwrap_or(f.height)),
        };
        let closed = built.closed;
        let h = f.drawn_height.unwrap_or(f.height);
        let h = if h.is_finite() && h > 0.0 { h } else { 1.0 };
        let art_file = naming.as_deref().map(|n| self.art_name(n));
        let (wall_mat, roof_mat) = match (fac, &naming, &art_file) {
            (Some(fac), Some(naming), Some(name)) => {
                let wt = fac
                    .wall_texture()
                    .map(str::to_string)
                    .and_then(|t| self.art.texture_named(&mut self.scene, naming, &t));
                let rt = fac
                    .roof_texture()
                    .map(str::to_string)
                    .and_then(|t| self.art.texture_named(&mut self.scene, naming, &t));
                (
                    self.textured(&format!("{name} walls"), wt, WALL, true, !closed),
                    self.textured(&format!("{name} roof"), rt, ROOF, false, false),
                )
            }
            _ => (
                self.scene.color(
                    if closed {
                        "missing facade walls"
                    } else {
                        "missing facade fence"
                    },
                    WALL,
                    !closed,
                ),
                self.scene.color("missing facade roof", ROOF, false),
            ),
        };
        // The node stands at the footprint's centre; the mesh around it.
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for q in open(&f.polygon) {
            for c in 0..2 {
                lo[c] = lo[c].min(q[c]);
                hi[c] = hi[c].max(q[c]);
            }
        }
        let centre = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        let back = [-centre[0], -centre[1]];
        let mut prims = vec![Prim::new(wall_mat)];
        append(&mut prims[0], &built.walls, back, 0.0);
        if !built.roof.is_empty() {
            let mut roof = Prim::new(roof_mat);
            append(&mut roof, &built.roof, back, 0.0);
            prims.push(roof);
        }
        let translation = g(centre, 0.0);
        if !fin(&translation) || !prims.iter().all(Prim::finite) {
            self.art.warnings.push(format!(
                "{} line {}: facade {k} ({}) has coordinates too large to write; left out of the 3-D scene",
                p.asset, f.source_line, f.asset
            ));
            return Ok(None);
        }
        let short_name = Path::new(&f.asset)
            .file_name()
            .map_or(f.asset.clone(), |n| n.to_string_lossy().into_owned());
        let node = Node {
            name: format!("#{i} facade {k} {short_name}"),
            translation,
            extras: Some(json!({
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
            })),
            ..Node::default()
        };
        self.drawn(node, &format!("#{i} facade {k} {short_name}"), prims)
    }

    /// The trees of placement `i` (one forest) as one node: two crossed
    /// quads each, of its width and height, textured with its rectangle
    /// of the forest's texture (alpha MASK, both sides drawn).
    fn trees(
        &mut self,
        i: usize,
        p: &Placement,
        art: Option<&Art>,
    ) -> Result<Option<usize>, Refusal> {
        let ts = &p.trees;
        if ts.is_empty() {
            return Ok(None);
        }
        let file = art.and_then(|a| a.forest.as_ref());
        let forest: Option<&Forest> = file.and_then(ArtFile::get);
        let tex = match (forest, file.and_then(|f| f.file.clone())) {
            (Some(forest), Some(naming)) => forest
                .texture()
                .map(str::to_string)
                .and_then(|t| self.art.texture_named(&mut self.scene, &naming, &t)),
            _ => None,
        };
        let art_file = file
            .and_then(|f| f.file.as_deref())
            .map(|f| self.art_name(f));
        let name = art_file.clone().unwrap_or_else(|| "trees".to_string());
        let textured = self.textured(&name, tex, TREE, true, true);
        let plain = self.scene.color("trees without art", TREE, true);
        let mut prims = vec![Prim::new(textured), Prim::new(plain)];
        let mut lines = std::collections::BTreeSet::new();
        let (mut tallest, mut left_out) = (0.0f64, 0);
        for t in ts {
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
            let card = match (forest, t.forest_tree, tex) {
                (Some(forest), Some(k), Some(_)) => forest
                    .trees
                    .get(k)
                    .map(|tr| crate::forest::mesh::tree(forest, tr, w, h)),
                _ => None,
            };
            match card {
                Some(card) => append(&mut prims[0], &card, [t.x, t.y], t.heading),
                None => append(
                    &mut prims[1],
                    &crate::forest::mesh::plain(w, h),
                    [t.x, t.y],
                    t.heading,
                ),
            }
            tallest = tallest.max(h);
            lines.insert(t.source_line);
        }
        if left_out > 0 {
            self.art.warnings.push(format!(
                "{}: {left_out} tree(s) with coordinates too large to write; left out of the 3-D scene",
                p.asset
            ));
        }
        let node = Node {
            name: format!(
                "#{i} trees {}",
                file.map_or("(no forest)", |f| f.path.as_str())
            ),
            extras: Some(json!({
                "asset": p.asset,
                "item": "trees",
                "index": i,
                "source_lines": lines,
                "height": tallest,
                "trees": ts.len() - left_out,
                "art": file.map(|f| f.path.clone()),
                "art_file": art_file,
                "art_state": file.map_or("not looked up", |f| f.state.describe()),
            })),
            ..Node::default()
        };
        self.drawn(node, &format!("#{i} trees"), prims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::{PlacedTile, PlacedTree, Role, TileId};

    fn tile(polygon: Vec<Xy>) -> PlacedTile {
        PlacedTile {
            id: TileId::Num(0),
            uv: polygon.clone(),
            polygon,
            lonlat: vec![],
            order: 0,
            hidden: false,
            role: Role::Grid,
            unit: 0,
            source_line: 1,
            stop_points: vec![],
            ground_point: None,
        }
    }

    /// Every face of the scene, as `(geometric normal, [vertex normals])`.
    fn faces(s: &Scene) -> Vec<([f32; 3], Vec<[f32; 3]>)> {
        let mut v = Vec::new();
        for p in s.meshes.iter().flat_map(|m| &m.prims) {
            for t in p.idx.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| p.pos[t[k] as usize]);
                let f = super::super::model::face_normal(a, b, c).unwrap();
                v.push((f, t.iter().map(|&i| p.nrm[i as usize]).collect()));
            }
        }
        v
    }

    /// agkit's own shapes are built facing the way their normals do: the
    /// settling step mends nothing in them, whichever way their rings run.
    #[test]
    fn own_geometry_needs_no_mending() {
        let sq = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 8.0], [0.0, 8.0]];
        let mut cw = sq.clone();
        cw.reverse();
        let p = Placement {
            asset: "t.agb".into(),
            tiles: vec![tile(sq.clone()), tile(cw.clone())],
            objects: vec![PlacedObject {
                asset: "gone.obj".into(),
                heading: 33.0,
                ..PlacedObject::default()
            }],
            facades: vec![
                PlacedFacade {
                    asset: "a.fac".into(),
                    polygon: sq.clone(),
                    height: 6.0,
                    ..PlacedFacade::default()
                },
                PlacedFacade {
                    asset: "b.fac".into(),
                    polygon: cw.clone(),
                    height: 6.0,
                    ..PlacedFacade::default()
                },
                PlacedFacade {
                    asset: "c.fac".into(),
                    polygon: vec![[0.0, 0.0], [5.0, 0.0]],
                    height: 2.0,
                    ..PlacedFacade::default()
                },
            ],
            trees: (0..8)
                .map(|k| PlacedTree {
                    x: k as f64,
                    width: 3.0,
                    heading: k as f64 * 47.0,
                    ..PlacedTree::default()
                })
                .collect(),
            ..Placement::default()
        };
        let (s, _) = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        assert_eq!(s.mended, 0);
        let fs = faces(&s);
        assert!(fs.len() > 40);
        for (f, ns) in fs {
            for n in ns {
                let d: f32 = (0..3).map(|k| f[k] * n[k]).sum();
                assert!(d > 0.99, "{f:?} against {n:?}");
            }
        }
        // Ground and roofs face up; walls of a ring face out, whichever
        // way the ring runs.
        for m in &s.meshes {
            if m.name.starts_with("#0 facade 0") || m.name.starts_with("#0 facade 1") {
                let walls = &m.prims[0];
                for (q, n) in walls.pos.iter().zip(&walls.nrm) {
                    // The facade's node stands at its centre (5, 4).
                    let out = q[0] * n[0] + q[2] * n[2];
                    assert!(out > 0.0, "{} wall at {q:?} faces {n:?}", m.name);
                }
                assert!(m.prims[1].nrm.iter().all(|n| *n == [0.0, 1.0, 0.0]));
            }
            if m.name.starts_with("ground") {
                assert!(m.prims[0].nrm.iter().all(|n| *n == [0.0, 1.0, 0.0]));
            }
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
