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
use crate::place::{PlacedFacade, PlacedObject, PlacedTree, Placement};
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

/// Why a scene was refused.
pub(crate) type Refusal = String;

/// Builds scenes.
struct Builder<'a> {
    scene: Scene,
    art: Loader<'a>,
    limits: &'a Limits,
    /// Object meshes by the file drawn (or `missing:` and the path).
    obj_meshes: HashMap<PathBuf, Drawn>,
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

/// The scene of `ps` (in the first placement's frame) and the warnings
/// about art drawn in plain colours.
pub(crate) fn build(ps: &[Placement], limits: &Limits) -> Result<(Scene, Vec<String>), Refusal> {
    let mut b = Builder {
        scene: Scene::default(),
        art: Loader::new(limits),
        limits,
        obj_meshes: HashMap::new(),
    };
    let origin = ps.first().map_or([0.0, 0.0], |p| p.origin);
    let common = LocalFrame::new(origin);
    let mut listed = Vec::with_capacity(ps.len());
    for (i, p) in ps.iter().enumerate() {
        let at = common.to_local(p.origin);
        let node = b.placement(i, p, g(at, 0.0))?;
        b.scene.roots.push(node);
        listed.push(json!({
            "asset": p.asset,
            "kind": p.kind,
            "seed": p.seed,
            "origin": {"lon": p.origin[0], "lat": p.origin[1]},
        }));
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

    /// A node named `name` drawing `prims` as one mesh (`None` when they
    /// hold nothing), within the triangle limit.
    fn drawn(&mut self, name: String, prims: Vec<Prim>) -> Result<Option<usize>, Refusal> {
        self.check(prims.iter().map(Prim::triangles).sum())?;
        let Some(mesh) = self.scene.mesh(name.clone(), prims) else {
            return Ok(None);
        };
        Ok(Some(self.scene.node(Node {
            name,
            mesh: Some(mesh),
            ..Node::default()
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
            children.push(self.object(k, o, art)?);
        }
        if let Some(n) = self.facades(i, &p.facades, art)? {
            children.push(n);
        }
        if let Some(n) = self.trees(i, &p.trees, art)? {
            children.push(n);
        }
        Ok(self.scene.node(Node {
            name: format!("placement {i}: {}", p.asset),
            translation: at,
            children,
            extras: Some(json!({"asset": p.asset, "kind": p.kind, "seed": p.seed})),
            ..Node::default()
        }))
    }

    /// A material drawing `tex` (a cut-out when it has transparent pixels
    /// and `cutout`), else `color`.
    fn textured(&mut self, name: &str, tex: Option<Tex>, color: [f32; 4], cutout: bool) -> usize {
        self.scene.material(match tex {
            Some(t) => Material {
                name: name.to_string(),
                color: [1.0; 4],
                image: Some(t.image),
                mask: cutout && t.alpha,
            },
            None => Material {
                name: name.to_string(),
                color,
                image: None,
                mask: false,
            },
        })
    }

    /// The ground tiles of placement `i` as one mesh, each tile raised a
    /// little above those drawn before it.
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
        let name = ground.map_or("ground", |g| g.path.as_str());
        let mat = self.textured(name, tex, GROUND, false);
        let mut prim = Prim::new(mat);
        for t in p.tiles.iter().filter(|t| !t.hidden) {
            let up = t.order.min(MAX_RAISED) as f64 * TILE_STEP;
            let uvs: Vec<[f64; 2]> = (0..t.polygon.len())
                .map(|k| {
                    let [u, v] = t.uv.get(k).copied().unwrap_or([0.0, 0.0]);
                    [u / scale[0], 1.0 - v / scale[1]]
                })
                .collect();
            let base = prim.pos.len() as u32;
            let tris = triangulate(&t.polygon);
            if tris.is_empty() {
                continue;
            }
            for (k, q) in t.polygon.iter().enumerate() {
                prim.vertex(g(*q, up), [0.0, 1.0, 0.0], uvs[k]);
            }
            prim.idx.extend(tris.iter().map(|&k| base + k as u32));
        }
        self.drawn(format!("ground {i}"), vec![prim])
    }

    /// The instance of object `o` (number `k` of its placement): a node
    /// using the mesh of its OBJ, or a box when the OBJ cannot be drawn.
    fn object(&mut self, k: usize, o: &PlacedObject, art: Option<&Art>) -> Result<usize, Refusal> {
        let file = art.and_then(|a| usize::try_from(o.index).ok().and_then(|i| a.objects.get(i)));
        let state = file.map(|f| f.state);
        let drawn = match file
            .filter(|f| f.state == ArtState::Found)
            .and_then(|f| f.file.clone())
        {
            Some(path) => match self.obj_meshes.get(&path) {
                Some(m) => *m,
                None => {
                    let m = self.obj_mesh(&path)?;
                    self.obj_meshes.insert(path, m);
                    m
                }
            },
            None => Drawn::Unreadable,
        };
        let (mesh, name) = match drawn {
            Drawn::Mesh(m) => (Some(m), format!("{} #{k}", o.asset)),
            Drawn::Nothing => (None, format!("{} #{k} (nothing static)", o.asset)),
            Drawn::Unreadable => (
                Some(self.marker(&o.asset)?),
                format!("missing object {} #{k}", o.asset),
            ),
        };
        Ok(self.scene.node(Node {
            name,
            mesh,
            translation: [o.x, o.height, -o.y],
            yaw: -o.heading.to_radians(),
            extras: Some(json!({
                "asset": o.asset,
                "heading": o.heading,
                "art": state.map_or("not looked up", ArtState::describe),
            })),
            ..Node::default()
        }))
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
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let mat = self.textured(&name, tex, OBJECT, true);
        let prim = obj_prim(&obj, mat);
        self.check(prim.triangles())?;
        Ok(self
            .scene
            .mesh(name, vec![prim])
            .map_or(Drawn::Nothing, Drawn::Mesh))
    }

    /// The box drawn for the objects of `asset` whose OBJ cannot be drawn
    /// (one mesh per path).
    fn marker(&mut self, asset: &str) -> Result<usize, Refusal> {
        let key = PathBuf::from(format!("missing:{asset}"));
        if let Some(Drawn::Mesh(m)) = self.obj_meshes.get(&key) {
            return Ok(*m);
        }
        let mat = self.scene.color("missing art", MISSING);
        let mut prim = Prim::new(mat);
        let h = MARKER / 2.0;
        let ring = [[-h, -h], [h, -h], [h, h], [-h, h]];
        walls(&mut prim, &ring, 0.0, MARKER, None);
        roof_flat(&mut prim, &ring, MARKER, None);
        self.check(prim.triangles())?;
        let m = self
            .scene
            .mesh(format!("missing object {asset}"), vec![prim])
            .ok_or_else(|| "an empty marker".to_string())?;
        self.obj_meshes.insert(key, Drawn::Mesh(m));
        Ok(m)
    }

    /// The facades of placement `i` as one mesh: walls of their height
    /// with the wall texture, a flat roof with the roof texture.
    fn facades(
        &mut self,
        i: usize,
        fs: &[PlacedFacade],
        art: Option<&Art>,
    ) -> Result<Option<usize>, Refusal> {
        let mut prims: Vec<Prim> = Vec::new();
        let prim_of = |prims: &mut Vec<Prim>, mat: usize| -> usize {
            match prims.iter().position(|p| p.material == mat) {
                Some(k) => k,
                None => {
                    prims.push(Prim::new(mat));
                    prims.len() - 1
                }
            }
        };
        for f in fs {
            let file = art.and_then(|a| a.facades.iter().find(|x| x.path == f.asset));
            let fac = file.and_then(ArtFile::get);
            let naming = file.and_then(|x| x.file.clone());
            let h = f.drawn_height.unwrap_or(f.height);
            let h = if h.is_finite() && h > 0.0 { h } else { 1.0 };
            let (wall_mat, wall_uv, roof_mat, roof_uv) = match (fac, naming) {
                (Some(fac), Some(naming)) => {
                    let wt = fac
                        .wall_texture()
                        .map(str::to_string)
                        .and_then(|t| self.art.texture_named(&mut self.scene, &naming, &t));
                    let rt = fac
                        .roof_texture()
                        .map(str::to_string)
                        .and_then(|t| self.art.texture_named(&mut self.scene, &naming, &t));
                    let name = naming
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                    (
                        self.textured(&format!("{name} walls"), wt, WALL, true),
                        wt.and_then(|_| wall_window(fac, f)),
                        self.textured(&format!("{name} roof"), rt, ROOF, false),
                        rt.and_then(|_| roof_window(fac)),
                    )
                }
                _ => (
                    self.scene.color("missing facade walls", WALL),
                    None,
                    self.scene.color("missing facade roof", ROOF),
                    None,
                ),
            };
            let ring: Vec<Xy> = open(&f.polygon);
            if ring.len() < 2 {
                continue;
            }
            let closed = fac.is_none_or(|x| x.ring) && ring.len() >= 3;
            let w = prim_of(&mut prims, wall_mat);
            let sides: Vec<Xy> = if closed {
                ring.iter().chain(ring.first()).copied().collect()
            } else {
                ring.clone()
            };
            walls(&mut prims[w], &sides, 0.0, h, wall_uv);
            if closed && f.roof.unwrap_or(true) {
                let r = prim_of(&mut prims, roof_mat);
                roof_flat(&mut prims[r], &ring, h, roof_uv);
            }
        }
        self.drawn(format!("facades {i}"), prims)
    }

    /// The trees of placement `i` as one mesh: two crossed quads each, of
    /// its width and height, textured with its rectangle of the forest's
    /// texture (alpha MASK).
    fn trees(
        &mut self,
        i: usize,
        ts: &[PlacedTree],
        art: Option<&Art>,
    ) -> Result<Option<usize>, Refusal> {
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
        let name = file.map_or("trees", |f| f.path.as_str()).to_string();
        let textured = self.textured(&name, tex, TREE, true);
        let plain = self.scene.color("trees without art", TREE);
        let mut prims = vec![Prim::new(textured), Prim::new(plain)];
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
                    [s, 0.0, c],
                );
            }
        }
        self.drawn(format!("trees {i}"), prims)
    }
}

/// The primitive of an OBJ's static LOD-0 triangles, its vertices
/// renumbered to those used. OBJ8's frame is glTF's (x right, y up, z
/// toward the viewer); its texture's t runs up, glTF's v down.
fn obj_prim(obj: &Obj, material: usize) -> Prim {
    let mut prim = Prim::new(material);
    let mut seen: HashMap<usize, u32> = HashMap::new();
    for tri in obj.triangles(Select::Static) {
        for v in tri {
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
/// to `top`; each side spans the texture window `uv` (`[u0, u1, v0, v1]`,
/// glTF's v) or the whole texture.
fn walls(prim: &mut Prim, path: &[Xy], bottom: f64, top: f64, uv: Option<[f64; 4]>) {
    let [u0, u1, v0, v1] = uv.unwrap_or([0.0, 1.0, 1.0, 0.0]);
    for s in path.windows(2) {
        let (a, b) = (s[0], s[1]);
        let d = [b[0] - a[0], b[1] - a[1]];
        if d[0].hypot(d[1]) < 1e-6 {
            continue;
        }
        // Outward for a clockwise ring; the walls are drawn two-sided.
        let n = [d[1], 0.0, d[0]];
        prim.quad(
            [g(a, bottom), g(b, bottom), g(b, top), g(a, top)],
            [[u0, v0], [u1, v0], [u1, v1], [u0, v1]],
            n,
        );
    }
}

/// A flat roof over `ring` at `top`, the texture window `uv` stretched
/// over its bounding box (or tiled 1 per 10 m).
fn roof_flat(prim: &mut Prim, ring: &[Xy], top: f64, uv: Option<[f64; 4]>) {
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
    let base = prim.pos.len() as u32;
    for p in ring {
        let f = [(p[0] - lo[0]) / span[0], (p[1] - lo[1]) / span[1]];
        let t = match uv {
            Some([u0, u1, v0, v1]) => [u0 + f[0] * (u1 - u0), v0 + f[1] * (v1 - v0)],
            None => [p[0] / 10.0, -p[1] / 10.0],
        };
        prim.vertex(g(*p, top), [0.0, 1.0, 0.0], t);
    }
    prim.idx.extend(tris.iter().map(|&k| base + k as u32));
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
