//! Placements turned into a [`Scene`]: ground tiles, object instances,
//! facades and trees, in glTF's frame (see the module docs of
//! [`super`]).

use super::art::{Loader, Tex};
use super::model::{Material, Node, Prim, Scene};
use crate::fac::Facade;
use crate::forest::Forest;
use crate::geom::{LocalFrame, Xy};
use crate::limits::Limits;
use crate::obj::{Obj, Select};
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
        let prim = obj_prim(&obj, mat);
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
        let mut prim = Prim::new(mat);
        let h = MARKER / 2.0;
        // Counter-clockwise and closed: every side's front faces out.
        let ring = [[-h, -h], [h, -h], [h, h], [-h, h], [-h, -h]];
        walls(&mut prim, &ring, 0.0, MARKER, None);
        let tris = triangulate(&ring);
        let uv = |k: usize| [ring[k][0] / MARKER + 0.5, 0.5 - ring[k][1] / MARKER];
        prim.flat(&ring[..4], &tris, MARKER, true, uv);
        prim.flat(&ring[..4], &tris, 0.0, false, uv);
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
        let h = f.drawn_height.unwrap_or(f.height);
        let h = if h.is_finite() && h > 0.0 { h } else { 1.0 };
        let ring: Vec<Xy> = open(&f.polygon);
        if ring.len() < 2 {
            return Ok(None);
        }
        let closed = fac.is_none_or(|x| x.ring) && ring.len() >= 3;
        let art_file = naming.as_deref().map(|n| self.art_name(n));
        let (wall_mat, wall_uv, roof_mat, roof_uv) = match (fac, &naming, &art_file) {
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
                    wt.and_then(|_| wall_window(fac, f)),
                    self.textured(&format!("{name} roof"), rt, ROOF, false, false),
                    rt.and_then(|_| roof_window(fac)),
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
                None,
                self.scene.color("missing facade roof", ROOF, false),
                None,
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
        let mut ring: Vec<Xy> = ring
            .iter()
            .map(|q| [q[0] - centre[0], q[1] - centre[1]])
            .collect();
        let mut prims = vec![Prim::new(wall_mat)];
        if closed {
            // Fronts out: a wall's front is on the right of its side, and
            // the outside is on the right of a counter-clockwise ring.
            if signed_area(&ring) < 0.0 {
                ring.reverse();
            }
            let sides: Vec<Xy> = ring.iter().chain(ring.first()).copied().collect();
            walls(&mut prims[0], &sides, 0.0, h, wall_uv);
            if f.roof.unwrap_or(true) {
                let mut roof = Prim::new(roof_mat);
                roof_flat(&mut roof, &ring, h, roof_uv, centre);
                prims.push(roof);
            }
        } else {
            walls(&mut prims[0], &ring, 0.0, h, wall_uv);
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
            let rect = match (forest, t.forest_tree, tex) {
                (Some(forest), Some(k), Some(_)) => {
                    forest.trees.get(k).map(|tr| tree_rect(forest, tr))
                }
                _ => None,
            };
            let (prim, [u0, u1, v0, v1], trunk) = match rect {
                Some((uv, trunk)) => (&mut prims[0], uv, trunk),
                None => (&mut prims[1], [0.0, 1.0, 1.0, 0.0], 0.5),
            };
            for turn in [0.0, 90.0] {
                let (s, c) = (t.heading + turn).to_radians().sin_cos();
                // Across the quad: east turned clockwise by the heading.
                let across = [c, -s];
                let left = [t.x - across[0] * w * trunk, t.y - across[1] * w * trunk];
                let right = [
                    t.x + across[0] * w * (1.0 - trunk),
                    t.y + across[1] * w * (1.0 - trunk),
                ];
                prim.quad(
                    [g(left, 0.0), g(right, 0.0), g(right, h), g(left, h)],
                    [[u0, v0], [u1, v0], [u1, v1], [u0, v1]],
                );
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

/// The primitive of an OBJ's static LOD-0 triangles, its vertices
/// renumbered to those used. OBJ8's frame is glTF's (x right, y up, z
/// toward the viewer); its texture's t runs up, glTF's v down; and it
/// winds a triangle's front clockwise where glTF winds it
/// counter-clockwise, so each triangle is written in reverse order (its
/// normals then agree with it).
fn obj_prim(obj: &Obj, material: usize) -> Prim {
    let mut prim = Prim::new(material);
    let mut seen: HashMap<usize, u32> = HashMap::new();
    for [a, b, c] in obj.triangles(Select::Static) {
        for v in [a, c, b] {
            let i = *seen.entry(v).or_insert_with(|| {
                let vt = &obj.vertices[v];
                let [s, t] = vt.uv;
                prim.vertex(
                    vt.position,
                    vt.normal.map(f64::from),
                    [f64::from(s), 1.0 - f64::from(t)],
                )
            });
            prim.idx.push(i);
        }
    }
    prim
}

/// `ring` without a last point repeating the first.
fn open(ring: &[Xy]) -> Vec<Xy> {
    let mut v = ring.to_vec();
    if v.len() > 1 && v.first() == v.last() {
        v.pop();
    }
    v
}

/// Triangles of a ring (indices into it), by ear clipping.
fn triangulate(ring: &[Xy]) -> Vec<usize> {
    use geo::TriangulateEarcut;
    let ring = open(ring);
    if ring.len() < 3 || ring.iter().flatten().any(|v| !v.is_finite()) {
        return Vec::new();
    }
    let poly = geo::Polygon::new(geo::LineString::from(ring.clone()), vec![]);
    let raw = poly.earcut_triangles_raw();
    // The earcut vertices are the ring's, in order, without its closing point.
    if raw.vertices.len() != ring.len() {
        return Vec::new();
    }
    raw.triangle_indices
}

/// Wall quads along `path` (each consecutive pair a side) from `bottom`
/// to `top`, each facing the right of its side; each side spans the texture window `uv` (`[u0, u1, v0, v1]`,
/// glTF's v) or the whole texture.
fn walls(prim: &mut Prim, path: &[Xy], bottom: f64, top: f64, uv: Option<[f64; 4]>) {
    let [u0, u1, v0, v1] = uv.unwrap_or([0.0, 1.0, 1.0, 0.0]);
    for s in path.windows(2) {
        let (a, b) = (s[0], s[1]);
        let d = [b[0] - a[0], b[1] - a[1]];
        if d[0].hypot(d[1]) < 1e-6 {
            continue;
        }
        // Counter-clockwise seen from the right of a → b: the front is
        // outward on a counter-clockwise ring.
        prim.quad(
            [g(a, bottom), g(b, bottom), g(b, top), g(a, top)],
            [[u0, v0], [u1, v0], [u1, v1], [u0, v1]],
        );
    }
}

/// A flat roof over `ring` at `top`, facing up, the texture window `uv`
/// stretched over its bounding box (or tiled 1 per 10 m of the placement's
/// frame, the ring lying `shift` from it).
fn roof_flat(prim: &mut Prim, ring: &[Xy], top: f64, uv: Option<[f64; 4]>, shift: Xy) {
    let tris = triangulate(ring);
    if tris.is_empty() {
        return;
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in ring {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let span = [(hi[0] - lo[0]).max(1e-6), (hi[1] - lo[1]).max(1e-6)];
    prim.flat(ring, &tris, top, true, |k| {
        let p = ring[k];
        let f = [(p[0] - lo[0]) / span[0], (p[1] - lo[1]) / span[1]];
        match uv {
            Some([u0, u1, v0, v1]) => [u0 + f[0] * (u1 - u0), v0 + f[1] * (v1 - v0)],
            None => [(p[0] + shift[0]) / 10.0, -(p[1] + shift[1]) / 10.0],
        }
    });
}

/// Twice the signed area of `ring` (positive counter-clockwise).
fn signed_area(ring: &[Xy]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|k| {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// The texture window of the facade's first-side wall (type 1): from its
/// leftmost to its rightmost panel across, bottom to top panel up, in
/// glTF's `[u0, u1, v0, v1]` (v0 the bottom). `None` for type 2 or a wall
/// without panels.
fn wall_window(fac: &Facade, f: &PlacedFacade) -> Option<[f64; 4]> {
    let lod = fac.lods.first()?;
    let k = f
        .wall_choice
        .as_ref()
        .and_then(|c| c.first())
        .map_or(0, |c| c.wall);
    let wall = lod.walls.get(k).or(lod.walls.first())?;
    let span = |ps: &[crate::fac::Panel]| -> Option<[f64; 2]> {
        let lo = ps
            .iter()
            .map(|p| p.range[0].min(p.range[1]))
            .reduce(f64::min)?;
        let hi = ps
            .iter()
            .map(|p| p.range[0].max(p.range[1]))
            .reduce(f64::max)?;
        Some([lo, hi])
    };
    let [u0, u1] = span(&wall.across)?;
    let [t0, t1] = span(&wall.up)?;
    Some([u0, u1, 1.0 - t0, 1.0 - t1])
}

/// The texture window of a type-1 facade's `ROOF` points (their bounding
/// box), glTF's v.
fn roof_window(fac: &Facade) -> Option<[f64; 4]> {
    let pts = &fac.lods.first()?.roof;
    let s0 = pts.iter().map(|p| p[0]).reduce(f64::min)?;
    let s1 = pts.iter().map(|p| p[0]).reduce(f64::max)?;
    let t0 = pts.iter().map(|p| p[1]).reduce(f64::min)?;
    let t1 = pts.iter().map(|p| p[1]).reduce(f64::max)?;
    Some([s0, s1, 1.0 - t0, 1.0 - t1])
}

/// A tree's rectangle of the forest texture as `[u0, u1, v0, v1]` (v0 at
/// its foot) and where its trunk stands across it (0 left … 1 right).
fn tree_rect(forest: &Forest, t: &crate::forest::Tree) -> ([f64; 4], f64) {
    let [sx, sy] = forest.scale.map(|v| if v > 0.0 { v } else { 1.0 });
    let u0 = t.s / sx;
    let u1 = (t.s + t.w) / sx;
    let v0 = 1.0 - t.t / sy;
    let v1 = 1.0 - (t.t + t.h) / sy;
    let trunk = if t.w.abs() > 0.0 {
        (t.offset / t.w.abs()).clamp(0.0, 1.0)
    } else {
        0.5
    };
    ([u0, u1, v0, v1], trunk)
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
