//! Placements turned into one plain 3-D scene, built once per run: the
//! meshes (one per art definition: an OBJ, a 3-D tree, a facade on its
//! footprint, a placement's tree cards and its ground), the materials and
//! the textures they draw with (handles from the art store, decoded by the
//! view that needs the pixels), and the nodes that place the meshes, each
//! naming the item it draws (kind, placement, index, source line).
//!
//! The geometry comes from the builders beside the formats
//! ([`crate::fac::build`], [`crate::obj::mesh`], [`crate::forest::mesh`]);
//! this module only places it. The views draw the scene: the glTF writer
//! ([`crate::out::gltf`]) serialises it, the previewer downloads that, and
//! the textured picture projects it from above (a mesh merging a
//! placement's tiles or tree cards names each of them as a [`Piece`]).
//!
//! **Shared meshes.** A mesh is built once per art and used by every node
//! that draws it: each OBJ file, and each 3-D tree of a forest (its nodes
//! scaled to each tree's height, [`Node::scale`]). A node holds only what
//! places it and what the scene made of its item ([`Drawn`]); what views
//! show about it ([`Scene::extras`], its name [`Scene::name`]) is read
//! from its placement when asked, never copied into the node.
//!
//! **Frame.** Local metres of the first placement's origin
//! ([`Scene::origin`]): x east, y north, z up. A node stands at
//! [`Node::at`] turned [`Node::heading`] degrees clockwise and scaled by
//! [`Node::scale`]; its mesh is in its own frame.
//!
//! **Bounds.** The triangles of the scene (each mesh counted once) are
//! kept as a running total and checked against
//! [`Limits::max_scene_triangles`] before each mesh is built, from the
//! sizes the art declares where they are known (an OBJ's, a 3-D tree's, a
//! tile's polygon, a tree card's), so that a scene past it is refused
//! ([`LimitExceeded`]) before its geometry is copied; its nodes against
//! [`Limits::max_scene_nodes`] the same way. Items whose coordinates would
//! not be finite as `f32` are left out with a warning.
//!
//! **Missing art invents nothing.** An object whose OBJ is missing or
//! unreadable is a red box of [`MARKER`] metres at its point; a facade whose
//! `.fac` is missing is its ring drawn as an outline on the ground
//! ([`OUTLINE_WIDTH`] metres wide, red), never walls and a roof of a height
//! nobody gave it.

pub mod airports;
pub mod draped;
pub mod info;

use info::Skip;
pub use info::{ArtInfo, NodeInfo, PlacementInfo, SceneInfo};

use crate::fac::build as fac_build;
use crate::forest::Forest;
use crate::geom::mesh::{Facing, WHOLE, open, triangulate};
use crate::geom::{LocalFrame, LonLat, Mesh, Xy};
use crate::limits::{LimitExceeded, Limits};
use crate::place::art::{Art, ArtFile, ArtState, ObjShape, TextureHandle, TextureRole};
use crate::place::{PlacedFacade, PlacedObject, Placement};
use serde_json::Value;
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
pub const MARKER: f64 = 2.0;

/// Width of the outline a facade whose `.fac` is missing is drawn as,
/// metres, on the ground.
pub const OUTLINE_WIDTH: f64 = 0.6;

/// Triangles of one tree card ([`crate::forest::mesh::plain`]: two quads).
const CARD_TRIANGLES: usize = 4;

/// What a node draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ItemKind {
    /// A placement: the parent of all it draws.
    Placement,
    /// A placement's ground tiles.
    Ground,
    /// One placed object.
    Object,
    /// One placed facade.
    Facade,
    /// A placement's trees drawn as cards, merged into one mesh.
    Trees,
    /// One tree drawn as its forest's 3-D mesh (shared by every tree of
    /// its kind).
    Tree,
    /// One draped polygon (`.pol`) of a whole tile.
    Draped,
    /// One painted line (`.lin`) of a whole tile.
    Line,
    /// A use that was not placed ([`Placement::unplaced`]): a red box at
    /// its point (an `.agp`), or its polygon's outline (an `.agb`, `.ags`).
    Unplaced,
    /// The base mesh under the scene's items (a root of its own; its
    /// placement is the first that stands on a mesh).
    Terrain,
    /// One airport's runways, helipads and pavement ([`airports`]; a root
    /// of its own; its placement is the first that carries the tile's
    /// airports, its index the airport's among them).
    Airport,
}

/// The item a node draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Its kind.
    pub kind: ItemKind,
    /// Index of its placement among those given ([`Scene::placements`]).
    pub placement: usize,
    /// Its index among its placement's items of its kind (the placement's
    /// for a placement, ground or trees).
    pub index: usize,
    /// The source line that placed it, for one object, facade or tree.
    pub source_line: Option<usize>,
}

/// How an object is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectDrawn {
    /// Its OBJ's mesh.
    Mesh,
    /// Its OBJ has nothing static to draw (lights, lines, animated or
    /// draped parts only): a node without a mesh.
    NothingStatic,
    /// Its OBJ is missing or cannot be drawn: the red box of [`MARKER`].
    Missing,
}

/// What the scene made of a node's item, beyond where its placement put
/// it (the rest views read from the placement, [`Scene::extras`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Drawn {
    /// As its placement says: a placement's node, a draped polygon, a
    /// 3-D tree.
    AsPlaced,
    /// An object.
    Object(ObjectDrawn),
    /// A facade: the height its walls are drawn to, or its outline when
    /// its `.fac` is missing (`height` 0).
    Facade {
        /// Height of the walls drawn, metres.
        height: f64,
        /// Drawn as its ring's outline on the ground: its `.fac` is
        /// missing, and nothing is invented for it.
        outline: bool,
    },
    /// A painted line: the strip's width, metres.
    Line {
        /// The width.
        width: f64,
    },
    /// A placement's tiles or tree cards merged into one mesh.
    Merged(Box<Merged>),
}

/// What a mesh merging a placement's tiles or tree cards holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Merged {
    /// The source lines of the items drawn, in order, each once.
    pub source_lines: Vec<usize>,
    /// Items drawn.
    pub count: usize,
    /// The tallest item drawn, metres (trees).
    pub tallest: f64,
}

/// A node: an item placed in the scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it draws.
    pub item: Item,
    /// Index into [`Scene::meshes`].
    pub mesh: Option<usize>,
    /// Where it stands in its parent's frame, metres (x east, y north,
    /// z up).
    pub at: [f64; 3],
    /// Its turn, degrees clockwise seen from above.
    pub heading: f64,
    /// Its scale, the same along every axis (1 but for a 3-D tree, its
    /// shared mesh drawn to the tree's height).
    pub scale: f64,
    /// Its children, indices into [`Scene::nodes`].
    pub children: Vec<usize>,
    /// What the scene made of its item.
    pub drawn: Drawn,
}

/// One part of a mesh: triangles of one material.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// Index into [`Scene::materials`].
    pub material: usize,
    /// The geometry.
    pub mesh: Mesh,
    /// The items it merges, in the order they were added, when it draws
    /// several of its node's (a placement's tiles, its tree cards); empty
    /// when the whole part draws one item.
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
    /// for a tile.
    pub crown: Option<(Xy, f64)>,
}

/// A mesh merging items, each recorded as a [`Piece`].
#[derive(Debug, Default)]
struct Merging {
    mesh: Mesh,
    pieces: Vec<Piece>,
}

impl Merging {
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

/// The whole scene, over the placements it was built from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene<'a> {
    /// The placements, as given to [`build`]: a node's
    /// [`Item::placement`] indexes them.
    pub placements: Vec<&'a Placement>,
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
    /// Art drawn in plain colours or as boxes and items left out, and
    /// why.
    pub warnings: Vec<String>,
    /// The folder all the scene's art files lie in: art is named by its
    /// path below it ([`Scene::art_name`]).
    pub art_root: PathBuf,
    /// The elevation, metres MSL, that z = 0 stands for: the ground under
    /// the origin when the placements were set on the ground
    /// ([`crate::place::ground`]), else 0. Items set on the ground stand at
    /// their elevation less this.
    pub datum: f64,
    /// Triangles held, each mesh counted once.
    triangles: u64,
}

impl Scene<'_> {
    /// Triangles held, each mesh counted once (kept as the meshes are
    /// added, not summed).
    pub fn triangles(&self) -> u64 {
        self.triangles
    }

    /// The name of the art file `file`: its path below the folder of all
    /// the scene's art, `/` between folders.
    pub fn art_name(&self, file: &Path) -> String {
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

    /// The placement node `n` draws an item of.
    pub fn placement_of(&self, n: &Node) -> Option<&Placement> {
        self.placements.get(n.item.placement).copied()
    }

    /// The name of node `n` (not yet made unique): `#3 object 12
    /// kiosk.obj`, `#0 ground`, `#1 trees lib/trees.for`.
    pub fn name(&self, n: &Node) -> String {
        let (i, k) = (n.item.placement, n.item.index);
        let Some(p) = self.placement_of(n) else {
            return format!("#{i}");
        };
        match n.item.kind {
            ItemKind::Placement => format!("#{i} {}", p.asset),
            ItemKind::Ground => format!("#{i} ground"),
            ItemKind::Object => {
                let short = p.objects.get(k).map_or(String::new(), |o| short(&o.asset));
                match n.drawn {
                    Drawn::Object(ObjectDrawn::NothingStatic) => {
                        format!("#{i} object {k} {short} (nothing static)")
                    }
                    Drawn::Object(ObjectDrawn::Missing) => {
                        format!("#{i} object {k} missing {short}")
                    }
                    _ => format!("#{i} object {k} {short}"),
                }
            }
            ItemKind::Facade => {
                let short = p.facades.get(k).map_or(String::new(), |f| short(&f.asset));
                match n.drawn {
                    Drawn::Facade { outline: true, .. } => {
                        format!("#{i} facade {k} missing {short}")
                    }
                    _ => format!("#{i} facade {k} {short}"),
                }
            }
            ItemKind::Trees => format!("#{i} trees {}", forest_path(p).unwrap_or("(no forest)")),
            ItemKind::Tree => format!("#{i} tree {k} {}", short(forest_path(p).unwrap_or(""))),
            ItemKind::Draped => {
                let short = p.draped.get(k).map_or(String::new(), |d| short(&d.asset));
                format!("#{i} draped {k} {short}")
            }
            ItemKind::Line => {
                let short = p.lines.get(k).map_or(String::new(), |l| short(&l.asset));
                format!("#{i} line {k} {short}")
            }
            ItemKind::Unplaced => format!("#{i} missing {} (not placed)", short(&p.asset)),
            ItemKind::Terrain => "terrain".to_string(),
            ItemKind::Airport => p
                .airports
                .as_ref()
                .and_then(|a| a.0.airports.get(k))
                .map_or_else(
                    || "airport".into(),
                    |a| format!("airport {}", a.airport.icao),
                ),
        }
    }

    /// What views may show about node `n` (the glTF node's `extras`, which
    /// the previewer reads), made from its placement when asked: `None`
    /// for a node whose placement or item is gone.
    pub fn info(&self, n: &Node) -> Option<NodeInfo<'_>> {
        let (i, k) = (n.item.placement, n.item.index);
        let p = self.placement_of(n)?;
        let art = p.art.as_deref();
        let named = |f: Option<&Path>| Skip::Is(f.map(|f| self.art_name(f)));
        let looked = |s: Option<ArtState>| Skip::Is(info::state_words(s));
        let merged = || match &n.drawn {
            Drawn::Merged(m) => m.as_ref().clone(),
            _ => Merged::default(),
        };
        Some(match n.item.kind {
            ItemKind::Placement => NodeInfo::Placement {
                placement: placement_info(p),
                index: i,
            },
            ItemKind::Ground => {
                let ground = art.and_then(|a| a.texture.as_ref());
                NodeInfo::Ground {
                    asset: &p.asset,
                    index: i,
                    source_lines: merged().source_lines,
                    height: 0.0,
                    art: ArtInfo {
                        art: ground.map(|g| g.path.as_str()),
                        art_file: named(ground.and_then(|g| g.file.as_deref())),
                        art_state: Skip::No,
                    },
                    tiles: p.tiles.iter().filter(|t| !t.hidden).count(),
                }
            }
            ItemKind::Object => {
                let o = p.objects.get(k)?;
                let file = object_file(art, o);
                let found = file.filter(|f| f.state == ArtState::Found);
                NodeInfo::Object {
                    asset: &p.asset,
                    index: k,
                    source_line: o.source_line,
                    height: o.object_height,
                    base: o.height,
                    heading: o.heading,
                    mode: &o.mode,
                    art: ArtInfo {
                        art: Some(&o.asset),
                        art_file: named(found.and_then(|f| f.file.as_deref())),
                        art_state: looked(file.map(|f| f.state)),
                    },
                }
            }
            ItemKind::Facade => {
                let f = p.facades.get(k)?;
                let (height, outline) = match n.drawn {
                    Drawn::Facade { height, outline } => (height, outline),
                    _ => (f.height, false),
                };
                NodeInfo::Facade {
                    asset: &p.asset,
                    index: k,
                    source_line: f.source_line,
                    height,
                    asked_height: f.height,
                    floor: f.floor.as_deref(),
                    art: ArtInfo {
                        art: Some(&f.asset),
                        art_file: named(facade_file(art, f).and_then(|x| x.file.as_deref())),
                        art_state: looked(f.art),
                    },
                    drawn: outline.then_some("outline: its .fac is missing"),
                }
            }
            ItemKind::Trees => {
                let file = art.and_then(|a| a.forest.as_ref());
                let m = merged();
                NodeInfo::Trees {
                    asset: &p.asset,
                    index: i,
                    source_lines: m.source_lines,
                    height: m.tallest,
                    trees: m.count,
                    art: ArtInfo {
                        art: file.map(|f| f.path.as_str()),
                        art_file: named(file.and_then(|f| f.file.as_deref())),
                        art_state: looked(file.map(|f| f.state)),
                    },
                }
            }
            ItemKind::Tree => {
                let t = p.trees.get(k)?;
                let file = art.and_then(|a| a.forest.as_ref());
                NodeInfo::Tree {
                    asset: &p.asset,
                    index: k,
                    source_line: t.source_line,
                    height: tree_height(t),
                    width: t.width,
                    tree: t.tree_name.as_deref(),
                    art: ArtInfo {
                        art: file.map(|f| f.path.as_str()),
                        art_file: named(file.and_then(|f| f.file.as_deref())),
                        art_state: looked(t.art),
                    },
                }
            }
            ItemKind::Draped => {
                let d = p.draped.get(k)?;
                NodeInfo::Draped {
                    asset: &p.asset,
                    index: k,
                    entity: d.entity,
                    holes: d.rings.len().saturating_sub(1),
                    uv: if d.uv.is_some() { "planes" } else { "scale" },
                    heading: d.heading,
                    art: ArtInfo {
                        art: Some(&d.asset),
                        art_file: Skip::No,
                        art_state: looked(d.art),
                    },
                    texture: d.texture.as_deref(),
                }
            }
            ItemKind::Line => {
                let l = p.lines.get(k)?;
                let width = match n.drawn {
                    Drawn::Line { width } => width,
                    _ => l.width.unwrap_or(draped::PLAIN_LINE_WIDTH),
                };
                NodeInfo::Line {
                    asset: &p.asset,
                    index: k,
                    entity: l.entity,
                    winding: l.winding,
                    closed: l.closed,
                    width,
                    art: ArtInfo {
                        art: Some(&l.asset),
                        art_file: Skip::No,
                        art_state: looked(l.art),
                    },
                    texture: l.texture.as_deref(),
                }
            }
            ItemKind::Unplaced => NodeInfo::Unplaced {
                asset: &p.asset,
                index: i,
                kind: p.kind,
                why: p.unplaced.as_deref(),
            },
            ItemKind::Airport => {
                let a = p.airports.as_ref()?.0.airports.get(k)?;
                let file = a.file.display().to_string();
                let parts = airports::shapes(&a.airport)
                    .into_iter()
                    .map(|s| info::AirportPart {
                        part: s.part.as_str(),
                        name: s.name.clone(),
                        surface: crate::apt::spec::surface_name(s.surface),
                        source: format!("{file}:{}", s.line),
                    })
                    .collect();
                NodeInfo::Airport {
                    icao: &a.airport.icao,
                    name: &a.airport.name,
                    file,
                    line: a.airport.line,
                    parts,
                    triangles: merged().count,
                }
            }
            ItemKind::Terrain => NodeInfo::Terrain {
                ground: p
                    .ground
                    .as_ref()
                    .map(crate::place::ground::GroundSource::describe),
                triangles: merged().count,
                datum: self.datum,
            },
        })
    }

    /// [`Scene::info`] as JSON (`null` for a node without one): what the
    /// glTF writer puts in the node's `extras`.
    pub fn extras(&self, n: &Node) -> Value {
        self.info(n)
            .and_then(|i| serde_json::to_value(i).ok())
            .unwrap_or(Value::Null)
    }

    /// What views may show about the scene (the glTF scene's `extras`):
    /// the origin, the frame, the placements drawn.
    pub fn details(&self) -> Value {
        let info = SceneInfo {
            generator: "agkit",
            origin: self.origin.into(),
            frame: "metres from the origin: +x east, +y up, -z north",
            placements: self
                .roots
                .iter()
                .filter_map(|&r| self.nodes.get(r))
                .filter(|n| n.item.kind == ItemKind::Placement)
                .filter_map(|n| self.placement_of(n))
                .map(placement_info)
                .collect(),
        };
        serde_json::to_value(info).unwrap_or(Value::Null)
    }
}

/// What views show about placement `p`: its asset, kind, seed, origin
/// and the counts of what it places.
fn placement_info(p: &Placement) -> PlacementInfo<'_> {
    PlacementInfo {
        asset: &p.asset,
        kind: p.kind,
        seed: p.seed,
        origin: p.origin.into(),
        objects: p.objects.len(),
        facades: p.facades.len(),
        trees: p.trees.len(),
        draped: p.draped.len(),
        lines: p.lines.len(),
    }
}

/// The forest file path placement `p` names, when it names one.
fn forest_path(p: &Placement) -> Option<&str> {
    p.art.as_deref()?.forest.as_ref().map(|f| f.path.as_str())
}

/// The art file of object `o`, by its index into the art's objects.
fn object_file<'a>(art: Option<&'a Art>, o: &PlacedObject) -> Option<&'a ArtFile<ObjShape>> {
    art.and_then(|a| usize::try_from(o.index).ok().and_then(|i| a.objects.get(i)))
}

/// The art file of facade `f`, by its path.
fn facade_file<'a>(
    art: Option<&'a Art>,
    f: &PlacedFacade,
) -> Option<&'a ArtFile<crate::fac::Facade>> {
    art.and_then(|a| a.facades.iter().find(|x| x.path == f.asset))
}

/// The width and height tree `t` is drawn at: its own, else 3 m wide and
/// half as tall again.
fn tree_size(t: &crate::place::PlacedTree) -> (f64, f64) {
    let w = if t.width.is_finite() && t.width > 0.0 {
        t.width
    } else {
        3.0
    };
    let h = t
        .height
        .filter(|h| h.is_finite() && *h > 0.0)
        .unwrap_or(w * 1.5);
    (w, h)
}

/// The height tree `t` is drawn to ([`tree_size`]).
fn tree_height(t: &crate::place::PlacedTree) -> f64 {
    tree_size(t).1
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
enum ObjMesh {
    /// A mesh.
    Mesh(usize),
    /// Nothing static (lights, lines, animated or draped parts only): its
    /// instances are nodes without a mesh.
    Nothing,
    /// It cannot be read: a box.
    Unreadable,
}

/// Builds scenes.
struct Builder<'a, 'l> {
    scene: Scene<'a>,
    limits: &'l Limits,
    /// Object meshes by the file drawn (or `missing:` and the path).
    obj_meshes: HashMap<PathBuf, ObjMesh>,
    /// 3-D tree meshes by the forest's tree (its address while the scene
    /// is built) and index (`None`: too large or empty, drawn as a card).
    tree_meshes: HashMap<(usize, usize), Option<usize>>,
    /// Textures by file.
    textures: HashMap<PathBuf, usize>,
    /// Textures not found, by the file naming them and the path, warned
    /// about once.
    unfound: BTreeSet<(PathBuf, String)>,
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
fn art_files<'a>(ps: &[&'a Placement]) -> Vec<&'a Path> {
    let mut v = Vec::new();
    for a in ps.iter().filter_map(|p| p.art.as_deref()) {
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
pub fn build<'a, P: Borrow<Placement>>(
    ps: &'a [P],
    limits: &Limits,
) -> Result<Scene<'a>, LimitExceeded> {
    let placements: Vec<&Placement> = ps.iter().map(Borrow::borrow).collect();
    let art_root = common_folder(art_files(&placements).into_iter());
    let origin = placements.first().map_or([0.0, 0.0], |p| p.origin);
    let mut b = Builder {
        scene: Scene {
            placements,
            origin,
            art_root,
            ..Scene::default()
        },
        limits,
        obj_meshes: HashMap::new(),
        tree_meshes: HashMap::new(),
        textures: HashMap::new(),
        unfound: BTreeSet::new(),
    };
    // Every node there can be, reserved at once (within the limit, which
    // is checked as they are added): a vector grown by doubling would hold
    // up to twice its nodes at its peak.
    let most: usize = b
        .scene
        .placements
        .iter()
        .map(|p| {
            let items = p.objects.len() + p.facades.len() + p.trees.len();
            items + p.draped.len() + p.lines.len() + 3
        })
        .fold(0, usize::saturating_add);
    b.scene
        .nodes
        .reserve_exact(most.min(limits.max_scene_nodes));
    let common = LocalFrame::new(origin);
    for i in 0..b.scene.placements.len() {
        let p = b.scene.placements[i];
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
    }
    b.set_on_ground();
    b.terrain()?;
    b.airports()?;
    Ok(b.scene)
}

/// The unit normal of triangle `v` (counter-clockwise front), up for a
/// degenerate one.
fn face_normal(v: [[f64; 3]; 3]) -> [f64; 3] {
    let a = [v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]];
    let b = [v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]];
    let n = [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ];
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if l > 0.0 && l.is_finite() {
        n.map(|c| c / l)
    } else {
        [0.0, 0.0, 1.0]
    }
}

/// A node at its parent's origin drawing `count` items merged from the
/// rows at `source_lines` (a placement's ground tiles, the terrain's
/// triangles, an airport's).
fn merged_root(item: Item, source_lines: Vec<usize>, count: usize) -> Node {
    Node {
        item,
        mesh: None,
        at: [0.0; 3],
        heading: 0.0,
        scale: 1.0,
        children: Vec::new(),
        drawn: Drawn::Merged(Box::new(Merged {
            source_lines,
            count,
            tallest: 0.0,
        })),
    }
}

/// An sRGB channel as linear (the glTF's colours are linear).
fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Margin around the items the terrain node covers, degrees (about 100 m).
pub const TERRAIN_MARGIN: f64 = 0.001;

/// Terrain's plain colour.
const TERRAIN: [f32; 4] = [0.36, 0.42, 0.3, 1.0];
/// Water of a base mesh with no texture to draw it with.
const WATER_COLOR: [f32; 4] = [0.16, 0.3, 0.45, 1.0];

/// Texture coordinates of corner `c` (at `at`, the scene's metres) of the
/// mesh triangle `k` of `s`, drawn with `look`: a projected terrain
/// (`PROJECTED w h`) repeats its texture every `w × h` metres of the
/// ground; any other takes the patch's own s/t (the two planes after the
/// normal, DSF notes: a patch vertex is lon, lat, elevation, normal x/y,
/// then s, t), as Ortho4XP's orthophoto patches give them; a patch
/// without them gets 0, 0.
fn terrain_uv(
    s: &crate::terrain::Surface,
    k: usize,
    c: usize,
    at: [f64; 3],
    look: Option<&crate::place::ground::TerrainLook>,
) -> [f64; 2] {
    if let Some([w, h]) = look.and_then(|l| l.projected)
        && w > 0.0
        && h > 0.0
    {
        return [at[0] / w, at[1] / h];
    }
    match s.corner_planes(k, c) {
        [u, v, ..] => [f64::from(*u), f64::from(*v)],
        _ => [0.0, 0.0],
    }
}

/// The points of placement `p`'s items, lon/lat.
fn item_points(p: &Placement) -> impl Iterator<Item = LonLat> + '_ {
    std::iter::once(p.origin)
        .chain(p.tiles.iter().flat_map(|t| t.lonlat.iter().copied()))
        .chain(p.objects.iter().map(|o| [o.lon, o.lat]))
        .chain(p.facades.iter().flat_map(|f| f.lonlat.iter().copied()))
        .chain(p.trees.iter().map(|t| [t.lon, t.lat]))
        .chain(
            p.draped
                .iter()
                .flat_map(|d| d.lonlat.iter().flatten().copied()),
        )
        .chain(p.lines.iter().flat_map(|l| l.lonlat.iter().copied()))
}

impl<'a> Builder<'a, '_> {
    /// Sets what the placements drew on their ground
    /// ([`crate::place::ground`]), z relative to [`Scene::datum`]: objects,
    /// 3-D trees and facades stand at their item's elevation; the meshes a
    /// placement drapes (its ground tiles, tree cards, draped polygons,
    /// lines, outlines of uses not placed) get the ground under each
    /// vertex. Placements not set on the ground are left as built.
    fn set_on_ground(&mut self) {
        let scene = &mut self.scene;
        let Some(first) = scene.placements.iter().find(|p| p.ground.is_some()) else {
            return;
        };
        scene.datum = crate::place::ground::ground_of(first, scene.origin).unwrap_or(0.0);
        let datum = scene.datum;
        for r in scene.roots.clone() {
            let root = &scene.nodes[r];
            let Some(p) = scene.placements.get(root.item.placement).copied() else {
                continue;
            };
            if p.ground.is_none() {
                continue;
            }
            let frame = LocalFrame::new(p.origin);
            for c in root.children.clone() {
                let n = &scene.nodes[c];
                let k = n.item.index;
                let z = match n.item.kind {
                    ItemKind::Object => p.objects.get(k).and_then(|o| o.z),
                    ItemKind::Tree => p.trees.get(k).and_then(|t| t.z),
                    ItemKind::Facade => p.facades.get(k).and_then(|f| f.z),
                    _ => None,
                };
                if let Some(z) = z {
                    scene.nodes[c].at[2] = z - datum;
                    continue;
                }
                let draped = matches!(
                    n.item.kind,
                    ItemKind::Ground
                        | ItemKind::Trees
                        | ItemKind::Draped
                        | ItemKind::Line
                        | ItemKind::Unplaced
                );
                let (Some(m), true) = (n.mesh, draped) else {
                    continue;
                };
                let (at, turn) = (n.at, turning(n.heading));
                for part in &mut scene.meshes[m].parts {
                    for q in &mut part.mesh.positions {
                        let w = turn(*q);
                        let ll = frame.to_lonlat([w[0] + at[0], w[1] + at[1]]);
                        let g = crate::place::ground::ground_of(p, ll).unwrap_or(datum);
                        q[2] += g - datum;
                    }
                }
            }
        }
    }

    /// The first placement `f` gives something of, its index and that.
    fn first_with<T>(&self, f: impl Fn(&Placement) -> Option<T>) -> Option<(usize, T)> {
        self.scene
            .placements
            .iter()
            .enumerate()
            .find_map(|(i, p)| f(p).map(|t| (i, t)))
    }

    /// The terrain node: the physical triangles of the first placement's
    /// mesh within [`TERRAIN_MARGIN`] of every item of the placements on
    /// it and of every shape of their airports, in the scene's frame; left out, with a warning, when they would
    /// pass [`Limits::max_scene_triangles`].
    fn terrain(&mut self) -> Result<(), LimitExceeded> {
        let Some((i, t)) = self.first_with(|p| p.terrain.clone()) else {
            return Ok(());
        };
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in self
            .scene
            .placements
            .iter()
            .filter(|p| p.terrain == Some(t.clone()))
        {
            for q in item_points(p).filter(|q| fin(q)) {
                for k in 0..2 {
                    lo[k] = lo[k].min(q[k]);
                    hi[k] = hi[k].max(q[k]);
                }
            }
        }
        let mut lo = [lo[0] - TERRAIN_MARGIN, lo[1] - TERRAIN_MARGIN];
        let mut hi = [hi[0] + TERRAIN_MARGIN, hi[1] + TERRAIN_MARGIN];
        // The airports drawn on it lie on it too, runway ends and all
        // (their own extent: the margin is the items').
        if let Some(a) = self
            .scene
            .placements
            .iter()
            .filter(|p| p.terrain == Some(t.clone()))
            .find_map(|p| p.airports.as_ref())
        {
            for q in
                a.0.airports
                    .iter()
                    .flat_map(|t| airports::shapes(&t.airport))
                    .flat_map(|s| s.outline.points())
                    .filter(|q| fin(q))
            {
                for k in 0..2 {
                    lo[k] = lo[k].min(q[k]);
                    hi[k] = hi[k].max(q[k]);
                }
            }
        }
        let s = &t.0;
        let within = s.triangles_within(lo, hi);
        if let Err(e) = self.check(within.len()) {
            self.scene.warnings.push(format!(
                "terrain: {} triangles under the items; left out of the 3-D scene ({e})",
                within.len()
            ));
            return Ok(());
        }
        let common = LocalFrame::new(self.scene.origin);
        let datum = self.scene.datum;
        // One part per terrain definition (its `.ter`'s base texture, or
        // a plain colour: water blue, land green), in the order the
        // definitions first come.
        let looks = &t.1;
        let mut parts: Vec<(u32, Mesh)> = Vec::new();
        let mut count = 0;
        for &k in &within {
            let tri = &s.triangles[k];
            let patch = &s.patches[tri.patch as usize];
            let v = tri.v.map(|c| {
                let [x, y] = common.to_local([c[0], c[1]]);
                [x, y, c[2] - datum]
            });
            let n = face_normal(v);
            if !v.iter().all(|q| fin(q)) {
                continue;
            }
            let look = looks.get(patch.def as usize);
            let uv = |c: usize| -> [f64; 2] { terrain_uv(s, k, c, v[c], look) };
            let mut corners = [0usize, 1, 2];
            // Facing up, whichever way the DSF wound it.
            let n = if n[2] < 0.0 {
                corners = [0, 2, 1];
                n.map(|c| -c)
            } else {
                n
            };
            let at = match parts.iter().position(|(d, _)| *d == patch.def) {
                Some(a) => a,
                None => {
                    parts.push((patch.def, Mesh::default()));
                    parts.len() - 1
                }
            };
            let mesh = &mut parts[at].1;
            let base = mesh.positions.len() as u32;
            for c in corners {
                mesh.positions.push(v[c]);
                mesh.normals.push(n);
                mesh.uvs.push(uv(c));
            }
            mesh.triangles.push([base, base + 1, base + 2]);
            count += 1;
        }
        let mut drawn_parts = Vec::new();
        for (def, mesh) in parts {
            let water =
                s.terrain_defs.get(def as usize).map(String::as_str) == Some(crate::terrain::WATER);
            let look = looks.get(def as usize);
            let tex = look
                .and_then(|l| l.texture.as_ref())
                .and_then(|f| self.texture_file(f));
            if let Some(why) = look.and_then(|l| l.why.as_ref())
                && self.unfound.insert((PathBuf::new(), why.clone()))
            {
                self.scene
                    .warnings
                    .push(format!("terrain {why}; drawn in a plain colour"));
            }
            let name = s
                .terrain_defs
                .get(def as usize)
                .cloned()
                .unwrap_or_else(|| "terrain".into());
            let color = if water { WATER_COLOR } else { TERRAIN };
            let material = self.textured(&name, tex, color, false, false);
            drawn_parts.push(Part::whole(material, mesh));
        }
        let node = merged_root(item(ItemKind::Terrain, i, 0, None), Vec::new(), count);
        if let Some(n) = self.drawn(node, "terrain", drawn_parts)? {
            self.scene.roots.push(n);
        }
        Ok(())
    }

    /// One node per airport the first placement carrying the tile's
    /// airports has ([`airports`]): its shapes, a part per colour, each
    /// vertex on that placement's ground ([`crate::place::ground::ground_of`])
    /// plus its lift, z relative to [`Scene::datum`]. An airport whose
    /// triangles would pass [`Limits::max_scene_triangles`] is left out
    /// with a warning, checked before its mesh is built.
    fn airports(&mut self) -> Result<(), LimitExceeded> {
        let Some((i, found)) = self.first_with(|p| p.airports.clone()) else {
            return Ok(());
        };
        let p = self.scene.placements[i];
        let common = LocalFrame::new(self.scene.origin);
        let datum = self.scene.datum;
        let ground = |q: LonLat| crate::place::ground::ground_of(p, q).unwrap_or(datum) - datum;
        for (k, a) in found.0.airports.iter().enumerate() {
            let shapes = airports::shapes(&a.airport);
            let count: usize = shapes.iter().map(airports::Shape::triangles).sum();
            if let Err(e) = self.check(count) {
                self.scene.warnings.push(format!(
                    "airport {}: {count} triangles; left out of the 3-D scene ({e})",
                    a.airport.icao
                ));
                continue;
            }
            let mut by_colour: Vec<(u32, String, Mesh)> = Vec::new();
            for s in &shapes {
                let c = airports::shape_colour(s);
                let m = airports::mesh(s, &common, &ground);
                if !mesh_fin(&m, [0.0, 0.0]) {
                    continue;
                }
                match by_colour.iter_mut().find(|(x, _, _)| *x == c) {
                    Some((_, _, mesh)) => append(mesh, &m, [0.0, 0.0], 0.0),
                    None => {
                        let name = match s.part {
                            airports::Part::BlastPad | airports::Part::Displaced => {
                                s.part.as_str().to_string()
                            }
                            _ => crate::apt::spec::surface_name(s.surface).to_string(),
                        };
                        by_colour.push((c, name, m));
                    }
                }
            }
            let mut parts = Vec::new();
            let mut drawn = 0;
            for (c, name, mesh) in by_colour {
                let rgb = [c >> 16, (c >> 8) & 0xff, c & 0xff].map(|v| srgb_to_linear(v as u8));
                let material = self.color(
                    &format!("airport {name}"),
                    [rgb[0], rgb[1], rgb[2], 1.0],
                    false,
                );
                drawn += mesh.triangles.len();
                parts.push(Part::whole(material, mesh));
            }
            let node = merged_root(
                item(ItemKind::Airport, i, k, Some(a.airport.line)),
                shapes.iter().map(|s| s.line).collect(),
                drawn,
            );
            let name = format!("airport {}", a.airport.icao);
            if let Some(n) = self.drawn(node, &name, parts)? {
                self.scene.roots.push(n);
            }
        }
        Ok(())
    }

    /// Refuses a mesh of `adding` more triangles when the scene would hold
    /// more than the limit: called before the mesh is built, from the
    /// count its art declares, against the running total.
    fn check(&self, adding: usize) -> Result<(), LimitExceeded> {
        let n = self.scene.triangles.saturating_add(adding as u64);
        LimitExceeded::check(
            "triangles of the 3-D scene",
            n,
            self.limits.max_scene_triangles,
        )
    }

    /// Adds a mesh of the non-empty `parts` (`None` when all are empty),
    /// counted in the running total.
    fn mesh(&mut self, name: &str, parts: Vec<Part>) -> Option<usize> {
        let parts: Vec<Part> = parts.into_iter().filter(|p| !p.mesh.is_empty()).collect();
        if parts.is_empty() {
            return None;
        }
        let n: usize = parts.iter().map(|p| p.mesh.triangles.len()).sum();
        self.scene.triangles = self.scene.triangles.saturating_add(n as u64);
        self.scene.meshes.push(SceneMesh {
            name: name.to_string(),
            parts,
        });
        Some(self.scene.meshes.len() - 1)
    }

    /// Adds a node within the limit of nodes; its index.
    fn node(&mut self, node: Node) -> Result<usize, LimitExceeded> {
        LimitExceeded::check(
            "nodes of the 3-D scene",
            self.scene.nodes.len() as u64 + 1,
            self.limits.max_scene_nodes as u64,
        )?;
        self.scene.nodes.push(node);
        Ok(self.scene.nodes.len() - 1)
    }

    /// A node drawing `parts` as one mesh named `mesh` (`None` when they
    /// hold nothing), within the limits.
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
        self.node(Node {
            mesh: Some(mesh),
            ..node
        })
        .map(Some)
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
        self.texture_file(file.texture(role)?)
    }

    /// The scene's texture of `t` (`None`, with a warning once, when the
    /// art store did not find it).
    fn texture_file(&mut self, t: &crate::scenery::art::TextureFile) -> Option<usize> {
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
    fn placement(
        &mut self,
        i: usize,
        p: &'a Placement,
        at: [f64; 3],
    ) -> Result<usize, LimitExceeded> {
        let art = p.art.as_deref();
        let mut children = Vec::new();
        // What another package's exclusion removes, X-Plane does not draw
        // (docs/gltf.md): a removed autogen use draws nothing, and each
        // removed item is left out.
        if p.removed_by.is_none() {
            if p.is_unplaced() {
                children.extend(self.unplaced(i, p)?);
            }
            if let Some(n) = self.ground(i, p, art)? {
                children.push(n);
            }
            for (k, o) in p.objects.iter().enumerate() {
                if o.removed_by.is_some() {
                    continue;
                }
                if let Some(n) = self.object(i, k, p, o, art)? {
                    children.push(n);
                }
            }
            for (k, f) in p.facades.iter().enumerate() {
                if f.removed_by.is_some() {
                    continue;
                }
                if let Some(n) = self.facade(i, k, p, f, art)? {
                    children.push(n);
                }
            }
            children.extend(self.trees(i, p, art)?);
            children.extend(self.draped(i, p, art)?);
            children.extend(self.lines(i, p, art)?);
        }
        self.node(Node {
            item: item(ItemKind::Placement, i, i, None),
            mesh: None,
            at,
            heading: 0.0,
            scale: 1.0,
            children,
            drawn: Drawn::AsPlaced,
        })
    }

    /// Use `i`, not placed, where the DSF puts it, marked as missing art is:
    /// the red box of [`MARKER`] at its point (an `.agp`), else its
    /// windings' outline on the ground ([`OUTLINE_WIDTH`], red).
    fn unplaced(&mut self, i: usize, p: &Placement) -> Result<Option<usize>, LimitExceeded> {
        let node = Node {
            item: item(ItemKind::Unplaced, i, i, None),
            mesh: None,
            at: [0.0; 3],
            heading: 0.0,
            scale: 1.0,
            children: Vec::new(),
            drawn: Drawn::AsPlaced,
        };
        if p.polygon.iter().all(|w| w.len() < 2) {
            let mesh = self.marker(&p.asset)?;
            return self
                .node(Node {
                    mesh: Some(mesh),
                    ..node
                })
                .map(Some);
        }
        let mut strip = Mesh::default();
        let points: usize = p.polygon.iter().map(Vec::len).sum();
        self.check(points.saturating_mul(2).saturating_add(2 * p.polygon.len()))?;
        for w in &p.polygon {
            let line = crate::place::PlacedLine {
                points: w.clone(),
                closed: w.len() >= 3,
                ..crate::place::PlacedLine::default()
            };
            let m = draped::line_mesh(&line, &draped::Strip::plain(OUTLINE_WIDTH), draped::LINE_Z);
            append(&mut strip, &m, [0.0, 0.0], 0.0);
        }
        if !mesh_fin(&strip, [0.0, 0.0]) {
            self.left_out(&p.asset, 1, "use not placed");
            return Ok(None);
        }
        let material = self.color("missing art", MISSING, false);
        let name = format!("missing {} (not placed)", p.asset);
        self.drawn(node, &name, vec![Part::whole(material, strip)])
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
        let name = ground.and_then(|g| g.file.as_deref()).map_or_else(
            || format!("ground of {}", p.asset),
            |f| self.scene.art_name(f),
        );
        let material = self.textured(&name, tex, GROUND, false, false);
        let mut tiles = Merging::default();
        let mut lines = BTreeSet::new();
        let (mut left_out, mut triangles) = (0, 0usize);
        for (k, t) in p.tiles.iter().enumerate().filter(|(_, t)| !t.hidden) {
            // What the tile adds, counted before it is built.
            triangles = triangles.saturating_add(t.polygon.len().saturating_sub(2));
            self.check(triangles)?;
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
        let node = merged_root(
            item(ItemKind::Ground, i, i, None),
            lines.into_iter().collect(),
            tiles.pieces.len(),
        );
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
        let found = object_file(art, o).filter(|f| f.state == ArtState::Found && f.file.is_some());
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
            None => ObjMesh::Unreadable,
        };
        let (mesh, drawn) = match drawn {
            ObjMesh::Mesh(m) => (Some(m), ObjectDrawn::Mesh),
            ObjMesh::Nothing => (None, ObjectDrawn::NothingStatic),
            ObjMesh::Unreadable => (Some(self.marker(&o.asset)?), ObjectDrawn::Missing),
        };
        self.node(Node {
            item: item(ItemKind::Object, i, k, Some(o.source_line)),
            mesh,
            at: [o.x, o.y, o.height],
            heading: o.heading,
            scale: 1.0,
            children: Vec::new(),
            drawn: Drawn::Object(drawn),
        })
        .map(Some)
    }

    /// The mesh of the OBJ `file` (found at `path`): its static LOD-0
    /// triangles with its `TEXTURE`.
    fn obj_mesh(
        &mut self,
        file: &ArtFile<ObjShape>,
        path: &Path,
    ) -> Result<ObjMesh, LimitExceeded> {
        let Some(shape) = file.get() else {
            return Ok(ObjMesh::Unreadable);
        };
        let tex = self.texture(file, TextureRole::Object);
        let name = self.scene.art_name(path);
        let material = self.textured(&name, tex, OBJECT, true, true);
        if !mesh_fin(&shape.mesh, [0.0, 0.0]) {
            self.scene.warnings.push(format!(
                "{}: coordinates too large to write; drawn as a box",
                path.display()
            ));
            return Ok(ObjMesh::Unreadable);
        }
        self.check(shape.mesh.triangles.len())?;
        let mesh = shape.mesh.clone();
        Ok(self
            .mesh(&name, vec![Part::whole(material, mesh)])
            .map_or(ObjMesh::Nothing, ObjMesh::Mesh))
    }

    /// The box drawn for the objects of `asset` whose OBJ cannot be drawn
    /// (one mesh per path): closed, every face outward.
    fn marker(&mut self, asset: &str) -> Result<usize, LimitExceeded> {
        let key = PathBuf::from(format!("missing:{asset}"));
        if let Some(ObjMesh::Mesh(m)) = self.obj_meshes.get(&key) {
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
        let m = self
            .mesh(
                &format!("missing {asset}"),
                vec![Part::whole(material, mesh)],
            )
            .unwrap_or_default();
        self.obj_meshes.insert(key, ObjMesh::Mesh(m));
        Ok(m)
    }

    /// Facade `f` (number `k` of placement `i`) as a node of its own at
    /// its footprint's centre: the walls and roof its builder makes on
    /// the layout placement chose, with its wall and roof textures; its
    /// ring's outline on the ground when its `.fac` is missing (nothing
    /// invented: no walls of a height nobody gave, no roof over the ring).
    fn facade(
        &mut self,
        i: usize,
        k: usize,
        p: &Placement,
        f: &PlacedFacade,
        art: Option<&Art>,
    ) -> Result<Option<usize>, LimitExceeded> {
        let file = facade_file(art, f);
        let fac = file.and_then(ArtFile::get);
        let ring = open(&f.polygon);
        if ring.len() < 2 {
            return Ok(None);
        }
        let Some(fac) = fac else {
            return self.facade_outline(i, k, p, f, &ring);
        };
        // The layout placement chose; made here only for a facade placed
        // without its art read (built by hand).
        let made;
        let layout = match &f.layout {
            Some(l) => l.as_ref(),
            None => {
                made = crate::fac::layout::layout(fac, &f.polygon, f.height, f.walls.as_deref());
                &made
            }
        };
        let built = fac_build::mesh(fac, &f.polygon, layout);
        let h = layout.built_height();
        let closed = built.closed;
        let art_file = file
            .and_then(|x| x.file.as_deref())
            .map(|n| self.scene.art_name(n));
        let (wall_mat, roof_mat) = match (file, &art_file) {
            (Some(file), Some(name)) => {
                let wt = self.texture(file, TextureRole::Wall);
                let rt = self.texture(file, TextureRole::Roof);
                (
                    self.textured(&format!("{name} walls"), wt, WALL, true, !closed),
                    self.textured(&format!("{name} roof"), rt, ROOF, false, false),
                )
            }
            _ => (
                self.color("facade walls", WALL, !closed),
                self.color("facade roof", ROOF, false),
            ),
        };
        let Some(centre) = centre_of(&ring) else {
            return Ok(self.facade_left_out(p, k, f));
        };
        if !mesh_fin(&built.walls, centre) || !mesh_fin(&built.roof, centre) {
            return Ok(self.facade_left_out(p, k, f));
        }
        let parts = vec![
            Part::whole(wall_mat, around(built.walls, centre)),
            Part::roof(roof_mat, around(built.roof, centre)),
        ];
        let node = facade_node(i, k, f, centre, h, false);
        self.drawn(node, &format!("#{i} facade {k} {}", short(&f.asset)), parts)
    }

    /// Facade `f` whose `.fac` is missing or unreadable: its ring (`ring`,
    /// open) as a red strip of [`OUTLINE_WIDTH`] on the ground, closed
    /// when the facade is a ring of three points or more.
    fn facade_outline(
        &mut self,
        i: usize,
        k: usize,
        p: &Placement,
        f: &PlacedFacade,
        ring: &[Xy],
    ) -> Result<Option<usize>, LimitExceeded> {
        let Some(centre) = centre_of(ring) else {
            return Ok(self.facade_left_out(p, k, f));
        };
        let closed = ring.len() >= 3;
        // Two triangles a side, counted before the strip is built.
        self.check(ring.len().saturating_mul(2).saturating_add(2))?;
        let line = crate::place::PlacedLine {
            points: ring
                .iter()
                .map(|q| [q[0] - centre[0], q[1] - centre[1]])
                .collect(),
            closed,
            ..crate::place::PlacedLine::default()
        };
        let strip = draped::Strip::plain(OUTLINE_WIDTH);
        let mesh = draped::line_mesh(&line, &strip, draped::LINE_Z);
        if !mesh_fin(&mesh, [0.0, 0.0]) {
            return Ok(self.facade_left_out(p, k, f));
        }
        let material = self.color("missing facade outline", MISSING, false);
        let node = facade_node(i, k, f, centre, 0.0, true);
        let name = format!("#{i} facade {k} missing {}", short(&f.asset));
        self.drawn(node, &name, vec![Part::whole(material, mesh)])
    }

    /// Warns that facade `k` of `p` cannot be written; `None`.
    fn facade_left_out(&mut self, p: &Placement, k: usize, f: &PlacedFacade) -> Option<usize> {
        self.scene.warnings.push(format!(
            "{} line {}: facade {k} ({}) has coordinates too large to write; left out of the 3-D scene",
            p.asset, f.source_line, f.asset
        ));
        None
    }

    /// The trees of placement `i` (one forest): those drawn as cards (the
    /// forest's card of each, textured with its rectangle of the forest's
    /// texture, cut out, both sides drawn, turned by its heading) merged
    /// into one node; each tree drawn as its 3-D mesh a node of its own
    /// using the mesh of its kind, scaled to its height.
    fn trees(
        &mut self,
        i: usize,
        p: &'a Placement,
        art: Option<&'a Art>,
    ) -> Result<Vec<usize>, LimitExceeded> {
        let ts = &p.trees;
        if ts.is_empty() {
            return Ok(Vec::new());
        }
        let file = art.and_then(|a| a.forest.as_ref());
        let forest: Option<&Forest> = file.and_then(ArtFile::get);
        let tex = match (forest, file) {
            (Some(_), Some(file)) => self.texture(file, TextureRole::Forest),
            _ => None,
        };
        let name = file
            .and_then(|f| f.file.as_deref())
            .map_or_else(|| "trees".to_string(), |f| self.scene.art_name(f));
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
        let (mut cards, mut plains) = (Merging::default(), Merging::default());
        let mut lines = BTreeSet::new();
        let (mut tallest, mut left_out, mut cards_added) = (0.0f64, 0, 0usize);
        let mut nodes = Vec::new();
        for (k, t) in ts.iter().enumerate() {
            if t.removed_by.is_some() {
                continue;
            }
            let (w, h) = tree_size(t);
            if !fin(&[t.x, t.y, t.x + w, t.x - w, t.y + w, t.y - w, h, t.heading]) {
                left_out += 1;
                continue;
            }
            // The forest's tree where the forest is read.
            let picked = match (forest, t.forest_tree) {
                (Some(forest), Some(k)) => forest.trees.get(k).map(|tr| (forest, tr)),
                _ => None,
            };
            // A 3-D tree: its kind's shared mesh, scaled to its height.
            if let (Some((f, tr)), Some(material)) = (picked, solid)
                && crate::forest::mesh::is_3d(f, tr)
            {
                let key = (
                    std::ptr::from_ref(tr) as usize,
                    t.forest_tree.unwrap_or_default(),
                );
                if let Some((mesh, s)) = self.tree_mesh(key, f, tr, h, material, &name)? {
                    if !fin(&[s]) {
                        left_out += 1;
                        continue;
                    }
                    let node = self.node(Node {
                        item: item(ItemKind::Tree, i, k, Some(t.source_line)),
                        mesh: Some(mesh),
                        at: [t.x, t.y, 0.0],
                        heading: t.heading,
                        scale: s,
                        children: Vec::new(),
                        drawn: Drawn::AsPlaced,
                    })?;
                    nodes.push(node);
                    tallest = tallest.max(h);
                    continue;
                }
            }
            // A card: the forest's where its texture is drawn, else a
            // plain one; counted before it is copied.
            cards_added += 1;
            self.check(cards_added.saturating_mul(CARD_TRIANGLES))?;
            let at = [t.x, t.y];
            // A card's crown, seen from above, is as wide as the card.
            let crown = Some(w / 2.0);
            match picked {
                Some((f, tr)) if tex.is_some() => {
                    let card = crate::forest::mesh::tree(f, tr, w, h);
                    cards.add(k, &card, at, t.heading, crown);
                }
                _ => {
                    let card = crate::forest::mesh::plain(w, h);
                    plains.add(k, &card, at, t.heading, crown);
                }
            }
            tallest = tallest.max(h);
            lines.insert(t.source_line);
        }
        self.left_out(&p.asset, left_out, "tree");
        let count = cards.pieces.len() + plains.pieces.len();
        let node = Node {
            item: item(ItemKind::Trees, i, i, None),
            mesh: None,
            at: [0.0; 3],
            heading: 0.0,
            scale: 1.0,
            children: Vec::new(),
            drawn: Drawn::Merged(Box::new(Merged {
                source_lines: lines.into_iter().collect(),
                count,
                tallest,
            })),
        };
        let parts = vec![cards.part(textured), plains.part(plain)];
        if let Some(n) = self.drawn(node, &format!("#{i} trees"), parts)? {
            nodes.insert(0, n);
        }
        Ok(nodes)
    }

    /// The shared mesh of 3-D tree `tr` of forest `f` (built once per
    /// forest file and tree, `key`, its triangles checked before it is
    /// built) and the scale a tree `height` metres tall draws it at; `None`
    /// when the tree has no usable 3-D mesh (it is drawn as a card).
    fn tree_mesh(
        &mut self,
        key: (usize, usize),
        f: &Forest,
        tr: &crate::forest::Tree,
        height: f64,
        material: usize,
        forest_name: &str,
    ) -> Result<Option<(usize, f64)>, LimitExceeded> {
        let mesh = match self.tree_meshes.get(&key) {
            Some(m) => *m,
            None => {
                let m = match crate::forest::tree3d::triangles(f, tr) {
                    Some(n) => {
                        self.check(n)?;
                        crate::forest::mesh::tree_3d(f, tr, height)
                            .filter(|(m, _)| mesh_fin(m, [0.0, 0.0]))
                            .and_then(|(m, _)| {
                                let name = format!("{forest_name} {}", tr_name(tr, key.1));
                                self.mesh(&name, vec![Part::whole(material, m)])
                            })
                    }
                    None => None,
                };
                self.tree_meshes.insert(key, m);
                m
            }
        };
        let Some(mesh) = mesh else {
            return Ok(None);
        };
        let s = crate::forest::tree3d::mesh_of(f, tr)
            .map_or(1.0, |m| crate::forest::tree3d::scale(tr, m, height));
        Ok(Some((mesh, s)))
    }
}

/// The node of facade `f` (number `k` of placement `i`), standing at
/// `centre`, drawn `height` metres tall or as its `outline`.
fn facade_node(
    i: usize,
    k: usize,
    f: &PlacedFacade,
    centre: Xy,
    height: f64,
    outline: bool,
) -> Node {
    Node {
        item: item(ItemKind::Facade, i, k, Some(f.source_line)),
        mesh: None,
        at: [centre[0], centre[1], 0.0],
        heading: 0.0,
        scale: 1.0,
        children: Vec::new(),
        drawn: Drawn::Facade { height, outline },
    }
}

/// How a forest's tree is named in a mesh's name: its `TREE` name, else
/// its index.
fn tr_name(tr: &crate::forest::Tree, k: usize) -> String {
    tr.name.clone().unwrap_or_else(|| format!("tree {k}"))
}

/// The centre of the box around `ring` (`None` when a value would not be
/// finite as `f32`).
fn centre_of(ring: &[Xy]) -> Option<Xy> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for q in ring {
        for c in 0..2 {
            lo[c] = lo[c].min(q[c]);
            hi[c] = hi[c].max(q[c]);
        }
    }
    let centre = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    fin(&centre).then_some(centre)
}

/// `m` moved by minus `centre`: around a node standing there.
fn around(m: Mesh, centre: Xy) -> Mesh {
    Mesh {
        positions: m
            .positions
            .iter()
            .map(|q| [q[0] - centre[0], q[1] - centre[1], q[2]])
            .collect(),
        ..m
    }
}

impl<'a> Builder<'a, '_> {
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
        let name = file.and_then(|f| f.file.as_deref()).map_or_else(
            || format!("{what} of {}", p.asset),
            |f| self.scene.art_name(f),
        );
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
        Some((centre, around(m, centre)))
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
        let kept = p.draped.iter().enumerate();
        let flats = kept.filter(|(_, d)| d.removed_by.is_none()).map(|(k, d)| {
            let name = format!("#{i} draped {k} {}", short(&d.asset));
            (
                name,
                Drawn::AsPlaced,
                draped::draped_mesh(d, draped::DRAPED_Z),
            )
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
        let kept = p.lines.iter().enumerate();
        let flats = kept.filter(|(_, l)| l.removed_by.is_none()).map(|(k, l)| {
            let strip = strip.unwrap_or_else(|| {
                draped::Strip::plain(l.width.unwrap_or(draped::PLAIN_LINE_WIDTH))
            });
            let name = format!("#{i} line {k} {}", short(&l.asset));
            let drawn = Drawn::Line {
                width: strip.width(),
            };
            (name, drawn, draped::line_mesh(l, &strip, draped::LINE_Z))
        });
        let flat = Flat {
            kind: ItemKind::Line,
            noun: "line",
            empty: "with fewer than two distinct points",
        };
        self.flats(i, p, material, flat, flats)
    }

    /// Flat items of placement `i` (draped polygons or painted lines): each
    /// (mesh name, what was drawn, mesh) a node at its mesh's centre drawn
    /// with `material`; those that cannot be written (not finite) and
    /// those with nothing to draw counted in the scene's warnings.
    fn flats(
        &mut self,
        i: usize,
        p: &Placement,
        material: usize,
        flat: Flat,
        items: impl Iterator<Item = (String, Drawn, Mesh)>,
    ) -> Result<Vec<usize>, LimitExceeded> {
        let (mut nodes, mut left_out, mut empty) = (Vec::new(), 0, 0);
        for (k, (name, drawn, mesh)) in items.enumerate() {
            let Some((centre, mesh)) = Self::centred(mesh) else {
                left_out += 1;
                continue;
            };
            let node = Node {
                item: item(flat.kind, i, k, None),
                mesh: None,
                at: [centre[0], centre[1], 0.0],
                heading: 0.0,
                scale: 1.0,
                children: Vec::new(),
                drawn,
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
fn item(kind: ItemKind, i: usize, index: usize, line: Option<usize>) -> Item {
    Item {
        kind,
        placement: i,
        index,
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
    /// scaled, turned by its heading and moved to where it stands.
    pub fn to_parent(&self, q: [f64; 3]) -> [f64; 3] {
        let s = self.scale;
        let [x, y, z] = turning(self.heading)([q[0] * s, q[1] * s, q[2] * s]);
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
        let layout = crate::fac::layout::layout(&fac, &f.polygon, f.height, f.walls.as_deref());
        f.wall_choice = Some(layout.walls());
        assert_eq!(
            layout.walls().iter().map(|w| w.wall).collect::<Vec<_>>(),
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
        // The scene builds from the layout placement kept, never choosing
        // again (issue 47: it was computed twice, in placement and here).
        let mut kept = layout.clone();
        for side in &mut kept.sides {
            side.wall = 1;
        }
        let mut p = p;
        p.facades[0].layout = Some(Arc::new(kept));
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let walls = &s.meshes[0].parts[0].mesh;
        let spans: Vec<[f64; 2]> = walls
            .uvs
            .chunks_exact(4)
            .map(|q| [q[0][0], q[1][0]])
            .collect();
        assert_eq!(spans, [[0.5, 0.75]; 4]);
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
        let named = |suffix: &str| {
            s.meshes
                .iter()
                .flat_map(|m| &m.parts)
                .find(|pt| s.materials[pt.material].name.ends_with(suffix))
                .map(|pt| pt.mesh.triangles.len())
        };
        assert_eq!(named(" 3-D"), Some(1), "{:?}", s.meshes);
        // Without its texture the 2-D tree is a plain card.
        assert!(named("trees without art").is_some_and(|n| n >= 2));
        // The 3-D tree is a node of its own, scaled to its height (10 m
        // over the oak's minimum of 8 m).
        let tree = s
            .nodes
            .iter()
            .find(|n| n.item.kind == ItemKind::Tree)
            .unwrap();
        assert_eq!((tree.item.index, tree.scale), (0, 10.0 / 8.0));
        assert_eq!(s.extras(tree)["item"], "tree");
        assert_eq!(s.extras(tree)["height"], 10.0);
    }

    /// Regression (issue 46): every 3-D tree's mesh was copied into its
    /// placement's mesh, so that 1,337 trees of 20,000 triangles made a
    /// scene of 26.7 million, refused only after 11 s and 5.35 GB. A 3-D
    /// tree's mesh is now built once and each tree a node using it: the
    /// triangles do not grow with the trees, and the nodes are counted.
    #[test]
    fn three_d_trees_share_one_mesh_whatever_their_number() {
        let text = include_str!("../../tests/fixtures/art/trees.for");
        let forest = crate::forest::read(text.as_bytes(), "trees.for", &Limits::default()).unwrap();
        let trees = |n: usize| Placement {
            asset: "t.agp".into(),
            trees: (0..n)
                .map(|k| PlacedTree {
                    x: k as f64,
                    width: 4.0,
                    height: Some(8.0 + (k % 5) as f64),
                    heading: k as f64 * 31.0,
                    forest_tree: Some(0),
                    ..PlacedTree::default()
                })
                .collect(),
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found(
                    "trees.for",
                    "/art/trees.for",
                    forest.clone(),
                )),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let (few, many) = (trees(10), trees(10_000));
        let a = build(std::slice::from_ref(&few), &Limits::default()).unwrap();
        let b = build(std::slice::from_ref(&many), &Limits::default()).unwrap();
        assert_eq!(a.triangles(), b.triangles(), "one mesh for every oak");
        assert_eq!(b.meshes.len(), 1);
        let count = |s: &Scene| {
            s.nodes
                .iter()
                .filter(|n| n.item.kind == ItemKind::Tree)
                .count()
        };
        assert_eq!((count(&a), count(&b)), (10, 10_000));
        // The node limit is checked as nodes are added.
        let tight = Limits {
            max_scene_nodes: 500,
            ..Limits::default()
        };
        let e = build(std::slice::from_ref(&many), &tight).unwrap_err();
        assert_eq!((e.what.as_str(), e.needed), ("nodes of the 3-D scene", 501));
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
        let pieces: Vec<(&Part, &Piece)> = s
            .meshes
            .iter()
            .flat_map(|m| &m.parts)
            .flat_map(|pt| pt.pieces.iter().map(move |pc| (pt, pc)))
            .collect();
        let indices: Vec<usize> = pieces.iter().map(|(_, pc)| pc.index).collect();
        assert_eq!(
            indices,
            [2],
            "the card is a piece; the tree left out is none"
        );
        assert_eq!(pieces[0].1.crown, Some(([100.0, 50.0], 2.0)));
        // The 3-D trees are nodes of their own over one mesh: placed, it
        // spans what the tree does.
        let bounds = |k: usize| {
            let n = s
                .nodes
                .iter()
                .find(|n| n.item.kind == ItemKind::Tree && n.item.index == k)
                .unwrap();
            let m = &s.meshes[n.mesh.unwrap()].parts[0].mesh;
            let q: Vec<[f64; 3]> = m.positions.iter().map(|&q| n.to_parent(q)).collect();
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
        let trees = s.nodes.iter().filter(|n| n.item.kind == ItemKind::Tree);
        assert_eq!(trees.count(), 2, "the tree left out is no node");
    }

    /// Regression (issue 46): a facade whose `.fac` is missing was drawn as
    /// walls of the DSF's height with a roof over its whole ring: Laminar's
    /// fence facades became 10 m slabs roofing 30 ha of runway, burying the
    /// package's own objects. It is now its ring's outline on the ground,
    /// closed or open, with no wall and no roof, and says so.
    #[test]
    fn a_missing_facade_is_its_outline_never_a_building() {
        let missing = ArtFile::<crate::fac::Facade> {
            path: "lib/Fence.fac".into(),
            file: None,
            state: ArtState::Missing,
            how: "not in any library".into(),
            value: None,
            textures: Vec::new(),
        };
        let ring = vec![[0.0, 0.0], [400.0, 0.0], [400.0, 300.0], [0.0, 300.0]];
        let facade = |polygon: Vec<Xy>| PlacedFacade {
            asset: "lib/Fence.fac".into(),
            polygon,
            height: 10.0,
            art: Some(ArtState::Missing),
            ..PlacedFacade::default()
        };
        let p = Placement {
            asset: "fences".into(),
            facades: vec![facade(ring), facade(vec![[0.0, -10.0], [50.0, -10.0]])],
            art: Some(Arc::new(Art {
                facades: vec![missing],
                ..Art::default()
            })),
            ..Placement::default()
        };
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let facades: Vec<&Node> = s
            .nodes
            .iter()
            .filter(|n| n.item.kind == ItemKind::Facade)
            .collect();
        assert_eq!(facades.len(), 2);
        for n in facades {
            assert_eq!(
                n.drawn,
                Drawn::Facade {
                    height: 0.0,
                    outline: true
                }
            );
            let mesh = &s.meshes[n.mesh.unwrap()];
            assert_eq!(mesh.parts.len(), 1, "no roof");
            let part = &mesh.parts[0];
            assert!(!part.roof);
            assert_eq!(s.materials[part.material].color, MISSING);
            let top = part.mesh.positions.iter().map(|q| q[2]).fold(0.0, f64::max);
            assert!(top <= draped::LINE_Z + 1e-9, "on the ground: {top}");
            // Its area is the strip's, not the ring's 12 ha.
            let e = s.extras(n);
            assert_eq!(e["drawn"], "outline: its .fac is missing");
            assert_eq!(
                (e["height"].as_f64(), e["asked_height"].as_f64()),
                (Some(0.0), Some(10.0))
            );
            assert!(s.name(n).contains("missing Fence.fac"), "{}", s.name(n));
        }
    }

    /// The scene's triangle count is kept as meshes are added (issue 48:
    /// summing every mesh for each node made the glTF writer quadratic):
    /// it equals the sum of its meshes', each counted once.
    #[test]
    fn the_running_total_of_triangles_is_the_sum_of_the_meshes() {
        let text = include_str!("../../tests/fixtures/art/trees.for");
        let forest = crate::forest::read(text.as_bytes(), "trees.for", &Limits::default()).unwrap();
        let sq = |x: f64| vec![[x, 0.0], [x + 10.0, 0.0], [x + 10.0, 8.0], [x, 8.0]];
        let p = Placement {
            asset: "t.agb".into(),
            objects: vec![PlacedObject::default(); 3],
            facades: (0..20)
                .map(|k| PlacedFacade {
                    asset: "gone.fac".into(),
                    polygon: sq(k as f64 * 20.0),
                    height: 6.0,
                    ..PlacedFacade::default()
                })
                .collect(),
            trees: (0..30)
                .map(|k| PlacedTree {
                    x: k as f64,
                    width: 4.0,
                    forest_tree: Some(k % 3),
                    ..PlacedTree::default()
                })
                .collect(),
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found("trees.for", "/art/trees.for", forest)),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let s = build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let sum: usize = s
            .meshes
            .iter()
            .flat_map(|m| &m.parts)
            .map(|p| p.mesh.triangles.len())
            .sum();
        assert!(sum > 100);
        assert_eq!(s.triangles(), sum as u64);
        let tight = Limits {
            max_scene_triangles: sum as u64 - 1,
            ..Limits::default()
        };
        assert!(build(std::slice::from_ref(&p), &tight).is_err());
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
