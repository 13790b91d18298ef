//! Setting a placed tile on the ground, as X-Plane composes it: every item
//! gets the elevation (metres MSL) of the ground it stands on, by the rule
//! of its kind.
//!
//! **Which ground** ([`GroundSource`]). With a base mesh (a DSF given with
//! `--mesh`, or the one X-Plane would load for the tile:
//! [`crate::scenery::mesh`]), the ground is its surface,
//! [`Surface::elevation`]: the plane of the mesh triangle under the point
//! (xptools' `HeightWithinTri`, DSF notes §3; see [`crate::terrain`]).
//! Without one, the ground is flat at the elevation of the airport whose
//! reference point is in the tile (the `1` header row of its `apt.dat`,
//! feet converted to metres), when the tile's package or the installation
//! has one; else flat at 0. The placement says which it used
//! ([`crate::place::Placement::ground`]), so no view silently stands a
//! tile on a plane. A point off the mesh (a mesh that does not cover the
//! whole tile) stands at 0 and is counted ([`Applied::off_mesh`]).
//!
//! **The rule of each kind** (what [`Ground::apply`] writes):
//!
//! - objects a DSF places: `OBJECT` (mode `draped`) at the ground under
//!   its reference point; `OBJECT` with an AGL height (mode `agl`) that far
//!   above it; `OBJECT_MSL` (mode `msl`) at the DSF's elevation, whatever
//!   the ground ([`PlacedObject::z`]);
//! - autogen objects: `OBJ_DRAPED` at the ground under their own point;
//!   `OBJ_GRADED`, `OBJ_DELTA` and `OBJ_SCRAPER` at the ground under the
//!   tile's ground point (`GROUND_PT`, else the tile centre: all the graded
//!   objects of a tile share one level), plus their `height`
//!   (docs/placement.md, "Tile outline, crop, ground point");
//! - autogen tiles, draped polygons and lines: draped, each outline point
//!   at the ground under it ([`PlacedTile::z`], [`PlacedDraped::z`],
//!   [`PlacedLine::z`]). X-Plane cuts a draped polygon along the mesh's
//!   triangle edges; agkit gives the ground at the item's own points only
//!   (a view that needs the cut drapes it on the mesh itself);
//! - facades: the ground under each point is where that wall's foot stands
//!   ([`PlacedFacade::ground`]: walls carried down to the ground) and the
//!   highest of them is the base the height and roof are measured from
//!   ([`PlacedFacade::z`]), so no wall floats;
//! - trees: at the ground under their own point ([`PlacedTree::z`]).
//!
//! **Cost.** One lookup per point, each a descent of the surface's R-tree
//! ([`Surface::locate`]) and a barycentric test on the few triangles whose
//! boxes hold the point: O(log n) for a mesh of n triangles, no allocation
//! beyond the heights written.

use super::{PlacedDraped, PlacedFacade, PlacedLine, PlacedObject, PlacedTile, PlacedTree};
use crate::dsf::{Dsf, Tile};
use crate::geom::{LocalFrame, LonLat};
use crate::limits::Limits;
use crate::place::Placement;
use crate::scenery::Scenery;
use crate::terrain::Surface;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Feet to metres (apt.dat gives elevations in feet).
pub const FEET: f64 = 0.3048;

/// Which ground a tile was set on.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum GroundSource {
    /// A base-mesh DSF's terrain.
    Mesh {
        /// The DSF.
        file: PathBuf,
        /// Its triangles.
        triangles: usize,
    },
    /// Flat at an airport's elevation.
    Airport {
        /// The airport's ID.
        icao: String,
        /// Its elevation, metres MSL.
        elevation: f64,
        /// The apt.dat it was taken from.
        file: PathBuf,
    },
    /// Flat at an elevation (0: no mesh and no airport).
    Flat {
        /// Metres MSL.
        elevation: f64,
    },
}

impl GroundSource {
    /// One line naming the ground: `mesh FILE`, `airport ICAO 123.4 m
    /// (FILE)` or `flat 0 m`.
    pub fn describe(&self) -> String {
        match self {
            GroundSource::Mesh { file, triangles } => format!(
                "mesh {} ({})",
                file.display(),
                crate::ground::words::count(*triangles, "triangle")
            ),
            GroundSource::Airport {
                icao,
                elevation,
                file,
            } => format!(
                "airport {icao} elevation {} m (flat; {})",
                round(*elevation),
                file.display()
            ),
            GroundSource::Flat { elevation } => format!("flat {} m", round(*elevation)),
        }
    }
}

/// A length to the centimetre, without trailing zeros.
fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The base mesh a placement stands on, shared by every placement of the
/// tile (not part of the JSON; two are equal when they are the same
/// surface): what the 3-D scene drapes on and draws.
#[derive(Clone)]
pub struct Terrain(pub std::sync::Arc<Surface>, pub TerrainLooks);

/// How each terrain definition of a mesh is drawn, in the order of
/// [`Surface::terrain_defs`] (shared; empty when the mesh's `.ter` files
/// were not looked up).
pub type TerrainLooks = std::sync::Arc<Vec<TerrainLook>>;

/// How one terrain definition of a base mesh is drawn: its `.ter` as the
/// resolver found it (package, then libraries, as X-Plane looks:
/// [`Scenery::resolve_in`]) and the base texture it names.
#[derive(Debug, Clone, Default)]
pub struct TerrainLook {
    /// The definition, as the DSF names it.
    pub def: String,
    /// The `.ter`'s base texture (`BASE_TEX`/`BASE_TEX_NOWRAP`), found
    /// or not; `None` when the `.ter` names none or was not read.
    pub texture: Option<crate::scenery::art::TextureFile>,
    /// `PROJECTED`: metres one repeat of the texture covers, when the
    /// terrain is projected rather than given the patch's own s/t.
    pub projected: Option<[f64; 2]>,
    /// Why it is drawn in a plain colour, when it is (the `.ter` not
    /// found or not read).
    pub why: Option<String>,
}

impl PartialEq for Terrain {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Terrain({} triangles, {} looks)",
            self.0.triangles.len(),
            self.1.len()
        )
    }
}

impl GroundSource {
    /// The elevation of a flat ground (an airport's, or 0); `None` for a
    /// mesh.
    pub fn flat_elevation(&self) -> Option<f64> {
        match self {
            GroundSource::Mesh { .. } => None,
            GroundSource::Airport { elevation, .. } | GroundSource::Flat { elevation } => {
                Some(*elevation)
            }
        }
    }
}

/// The ground under `q` for placement `p`, metres MSL, once it was set on
/// the ground ([`Ground::apply`]): its mesh's (0 off the mesh), else its
/// flat ground's; `None` before.
pub fn ground_of(p: &Placement, q: LonLat) -> Option<f64> {
    match (&p.terrain, &p.ground) {
        (Some(t), _) => Some(t.0.elevation(q).unwrap_or(0.0)),
        (None, Some(g)) => g.flat_elevation(),
        (None, None) => None,
    }
}

/// The ground a tile stands on: a surface, or flat.
#[derive(Debug, Clone)]
pub struct Ground {
    /// Which it is.
    pub source: GroundSource,
    surface: Option<std::sync::Arc<Surface>>,
    looks: TerrainLooks,
    flat: f64,
}

/// What [`Ground::apply`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Applied {
    /// Points given an elevation.
    pub points: usize,
    /// Of them, points the mesh does not cover (set at 0).
    pub off_mesh: usize,
}

impl Ground {
    /// Flat at `elevation` metres (0 when nothing else is known).
    pub fn flat(elevation: f64) -> Ground {
        Ground {
            source: GroundSource::Flat { elevation },
            surface: None,
            looks: TerrainLooks::default(),
            flat: elevation,
        }
    }

    /// Flat at airport `icao`'s elevation, `feet` as its apt.dat `file`
    /// gives it.
    pub fn airport(icao: &str, feet: f64, file: PathBuf) -> Ground {
        let elevation = feet * FEET;
        Ground {
            source: GroundSource::Airport {
                icao: icao.to_string(),
                elevation,
                file,
            },
            surface: None,
            looks: TerrainLooks::default(),
            flat: elevation,
        }
    }

    /// The surface of the base mesh read from `file`.
    pub fn mesh(file: PathBuf, surface: std::sync::Arc<Surface>) -> Ground {
        Ground {
            source: GroundSource::Mesh {
                file,
                triangles: surface.triangles.len(),
            },
            surface: Some(surface),
            looks: TerrainLooks::default(),
            flat: 0.0,
        }
    }

    /// How the mesh's terrain definitions are drawn ([`TerrainLook`]):
    /// given by the resolver, which finds their `.ter` files.
    pub fn with_looks(mut self, looks: Vec<TerrainLook>) -> Ground {
        self.looks = std::sync::Arc::new(looks);
        self
    }

    /// The looks of the mesh's terrain definitions (empty until
    /// [`Ground::with_looks`]).
    pub fn looks(&self) -> &[TerrainLook] {
        &self.looks
    }

    /// The mesh's surface, when the ground is one.
    pub fn surface(&self) -> Option<&Surface> {
        self.surface.as_deref()
    }

    /// The ground at `p`, metres MSL, and whether a mesh there gave it.
    pub fn at(&self, p: LonLat) -> (f64, bool) {
        match &self.surface {
            Some(s) => s.elevation(p).map_or((0.0, false), |h| (h, true)),
            None => (self.flat, true),
        }
    }

    /// Sets every item of `p` on this ground by the rule of its kind (the
    /// module's docs) and names the ground in [`Placement::ground`]. A
    /// use that was not placed gets only the name.
    pub fn apply(&self, p: &mut Placement) -> Applied {
        let mut done = Applied::default();
        p.ground = Some(self.source.clone());
        p.terrain = self.surface.clone().map(|s| Terrain(s, self.looks.clone()));
        let frame = LocalFrame::new(p.origin);
        let mut at = |q: LonLat| -> f64 {
            let (h, on) = self.at(q);
            done.points += 1;
            if !on {
                done.off_mesh += 1;
            }
            h
        };
        // Ground points first: graded objects read them.
        let levels: Vec<Option<f64>> = p
            .tiles
            .iter()
            .map(|t| t.ground_point.map(|g| at(frame.to_lonlat(g))))
            .collect();
        for t in &mut p.tiles {
            tile(t, &mut at);
        }
        for o in &mut p.objects {
            object(o, levels.get(o.tile).copied().flatten(), &mut at);
        }
        for f in &mut p.facades {
            facade(f, &mut at);
        }
        for t in &mut p.trees {
            tree(t, &mut at);
        }
        for d in &mut p.draped {
            draped(d, &mut at);
        }
        for l in &mut p.lines {
            line(l, &mut at);
        }
        done
    }
}

/// How an item stands on the ground, by its kind (the module's rules), for
/// [`Ground::z`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stand {
    /// On the ground under its (first) point: an object, a tree.
    Point,
    /// That many metres above the ground under its point (`OBJECT` with an
    /// AGL height).
    Agl(f64),
    /// At that elevation whatever the ground (`OBJECT_MSL`).
    Msl(f64),
    /// A facade: its base at the highest ground under its points.
    Walls,
    /// Draped: at the ground under its (first) point.
    Draped,
}

impl Ground {
    /// Where an item standing as `stand` with vertices `points` is, metres
    /// MSL: the rule [`Ground::apply`] follows for its kind (0 with no
    /// point, or off the mesh).
    pub fn z(&self, stand: Stand, points: &[LonLat]) -> f64 {
        let first = || points.first().map_or(0.0, |&q| self.at(q).0);
        match stand {
            Stand::Msl(h) => h,
            Stand::Agl(h) => first() + h,
            Stand::Point | Stand::Draped => first(),
            Stand::Walls => points
                .iter()
                .map(|&q| self.at(q).0)
                .reduce(f64::max)
                .unwrap_or(0.0),
        }
    }
}

/// A draped tile: the ground under each outline point.
fn tile(t: &mut PlacedTile, at: &mut dyn FnMut(LonLat) -> f64) {
    t.z = Some(t.lonlat.iter().map(|&q| at(q)).collect());
}

/// An object by its mode; `level` is the ground under its tile's ground
/// point, for graded ones.
fn object(o: &mut PlacedObject, level: Option<f64>, at: &mut dyn FnMut(LonLat) -> f64) {
    let own = [o.lon, o.lat];
    o.z = Some(match o.mode.as_str() {
        "msl" => o.elevation.unwrap_or(0.0),
        "agl" => at(own) + o.elevation.unwrap_or(o.height),
        "graded" | "delta" | "scraper" => level.unwrap_or_else(|| at(own)) + o.height,
        // `draped` and anything else: on the ground under it.
        _ => at(own) + o.height,
    });
}

/// A facade: each wall's foot on the ground, the base at the highest.
fn facade(f: &mut PlacedFacade, at: &mut dyn FnMut(LonLat) -> f64) {
    let g: Vec<f64> = f.lonlat.iter().map(|&q| at(q)).collect();
    f.z = g.iter().copied().reduce(f64::max);
    f.ground = Some(g);
}

/// A tree at its own ground.
fn tree(t: &mut PlacedTree, at: &mut dyn FnMut(LonLat) -> f64) {
    t.z = Some(at([t.lon, t.lat]));
}

/// A draped polygon: the ground under each ring point.
fn draped(d: &mut PlacedDraped, at: &mut dyn FnMut(LonLat) -> f64) {
    d.z = Some(
        d.lonlat
            .iter()
            .map(|r| r.iter().map(|&q| at(q)).collect())
            .collect(),
    );
}

/// A line: the ground under each point.
fn line(l: &mut PlacedLine, at: &mut dyn FnMut(LonLat) -> f64) {
    l.z = Some(l.lonlat.iter().map(|&q| at(q)).collect());
}

/// Why the ground of a tile could not be had: the mesh given cannot be
/// found or read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--mesh {}: {why}", path.display())]
pub struct MeshError {
    /// The file or folder given.
    pub path: PathBuf,
    /// What is wrong.
    pub why: String,
}

/// The surface of the base-mesh DSF at `file`, read within `limits`.
pub fn read_mesh(file: &Path, limits: &Limits) -> Result<Surface, String> {
    let bytes = crate::fsutil::read_input(file, "a base-mesh DSF", limits.max_input_bytes)
        .map_err(|e| e.to_string())?;
    let dsf =
        crate::dsf::read_with(&bytes, limits).map_err(|e| format!("{}: {e}", file.display()))?;
    Surface::from_dsf(&dsf, limits).map_err(|e| format!("{}: {e}", file.display()))
}

impl Scenery {
    /// How each terrain definition of the mesh `surface` (read from
    /// `file`, of `tile`) is drawn: its `.ter` resolved as X-Plane finds
    /// it (the mesh's own package, then the libraries:
    /// [`Scenery::resolve_in`]) and read through the art store, once per
    /// run, with its base texture. Water ([`crate::terrain::WATER`]) has
    /// no file. Nothing is looked up when the scenery reads no art.
    pub fn terrain_looks(
        &self,
        file: &Path,
        tile: Tile,
        surface: &Surface,
        limits: &Limits,
    ) -> Vec<TerrainLook> {
        use crate::draped::{DrapedArt, DrapedKind};
        use crate::scenery::art::{Libraries, TextureRole};
        use crate::scenery::definition::DefKind;
        let defs = &surface.terrain_defs;
        if !self.reads_art() {
            return Vec::new();
        }
        let wanted = defs.iter().filter(|d| d.as_str() != crate::terrain::WATER);
        let own = self.own_package_of(file);
        let root = own.1.clone();
        let resolved = self.resolve_all_of(own, tile, wanted.map(String::as_str));
        let index = self.index_for(&root);
        let libs = (self.install().is_some() || !index.packages.is_empty()).then(|| Libraries {
            index: &index,
            tile: Some(tile),
            conditions: self.conditions(),
        });
        defs.iter()
            .map(|d| {
                let mut look = TerrainLook {
                    def: d.clone(),
                    ..TerrainLook::default()
                };
                let Some(r) = resolved.get(d) else {
                    return look; // water
                };
                let picked = r.pick(0).map(|c| c.file.clone());
                let how = match &picked {
                    Some(_) => r.rule.clone(),
                    None => self.why_unresolved(file, r),
                };
                let art = self.definition_art(
                    DefKind::Draped(DrapedKind::Terrain),
                    d,
                    picked.as_deref(),
                    &how,
                    libs.as_ref(),
                    limits,
                );
                match (&art.draped, &art.art) {
                    (Some(DrapedArt::Ter(t)), Some(a)) => {
                        look.projected = t.projected;
                        look.texture = a
                            .draped
                            .as_ref()
                            .and_then(|f| f.texture(TextureRole::Terrain))
                            .cloned();
                        if look.texture.is_none() {
                            look.why = Some(format!("{d}: names no base texture"));
                        }
                    }
                    _ => {
                        look.why = Some(match (&art.why, picked) {
                            (Some(w), _) => format!("{d}: {w}"),
                            (None, None) => format!("{d}: not found ({how})"),
                            (None, Some(f)) => format!("{d}: {} not read", f.display()),
                        })
                    }
                }
                look
            })
            .collect()
    }

    /// The ground of `tile`, whose DSF `dsf` was read from `path`, as
    /// X-Plane composes it:
    ///
    /// 1. the mesh `mesh` names ([`crate::scenery::mesh::given`]: a DSF, or
    ///    a folder holding the tile), an error when it is not found or
    ///    does not read;
    /// 2. the DSF itself, when it is a base mesh (not an overlay, with
    ///    terrain patches);
    /// 3. with an installation, the highest-priority enabled package whose
    ///    DSF for the tile is not an overlay ([`crate::scenery::mesh::find`]);
    /// 4. flat at the elevation of the first airport, in X-Plane's order of
    ///    apt.dat files ([`crate::scenery::airports`]), whose reference
    ///    point is in the tile;
    /// 5. flat at 0.
    pub fn ground_for(
        &self,
        path: &Path,
        dsf: &Dsf,
        tile: Tile,
        mesh: Option<&Path>,
        limits: &Limits,
    ) -> Result<Ground, MeshError> {
        if let Some(given) = mesh {
            let fail = |why: String| MeshError {
                path: given.to_path_buf(),
                why,
            };
            let file = crate::scenery::mesh::given(given, tile).ok_or_else(|| {
                let (folder, name) = tile.file_names();
                fail(format!(
                    "no DSF for the tile {tile} there (looked for Earth nav data/{folder}/{name}, {folder}/{name} and {name})"
                ))
            })?;
            let s = read_mesh(&file, limits).map_err(fail)?;
            let looks = self.terrain_looks(&file, tile, &s, limits);
            return Ok(Ground::mesh(file, std::sync::Arc::new(s)).with_looks(looks));
        }
        if !dsf.is_overlay()
            && let Ok(s) = Surface::from_dsf(dsf, limits)
        {
            let looks = self.terrain_looks(path, tile, &s, limits);
            return Ok(Ground::mesh(path.to_path_buf(), std::sync::Arc::new(s)).with_looks(looks));
        }
        let (_, root) = self.package_of(path);
        Ok(self.tile_ground(&root, tile, limits))
    }

    /// The ground of `tile` for a DSF of the package at `root` that is not
    /// a base mesh itself: steps 3 to 5 of [`Scenery::ground_for`] (the
    /// mesh X-Plane loads, else the first airport in the tile, else flat
    /// 0). `scenery at` asks it with the X-Plane folder as `root`.
    pub fn tile_ground(&self, root: &Path, tile: Tile, limits: &Limits) -> Ground {
        if let Some(install) = self.install()
            && let (Some((file, d)), _) = crate::scenery::mesh::find(install, tile, limits)
            && let Ok(s) = Surface::from_dsf(&d, limits)
        {
            let looks = self.terrain_looks(&file, tile, &s, limits);
            return Ground::mesh(file, std::sync::Arc::new(s)).with_looks(looks);
        }
        let first = self.first_airports(root, limits);
        match first.of(tile) {
            Some((icao, ft, file)) => Ground::airport(icao, ft, file.to_path_buf()),
            None => Ground::flat(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_ground_sets_each_kind_by_its_rule() {
        let mut p = Placement {
            origin: [13.0, 47.0],
            tiles: vec![PlacedTile {
                id: crate::place::TileId::Num(0),
                polygon: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]],
                lonlat: vec![[13.0, 47.0]; 3],
                uv: Vec::new(),
                order: 0,
                hidden: false,
                role: crate::place::Role::Point,
                unit: 0,
                source_line: 0,
                stop_points: Vec::new(),
                ground_point: Some([5.0, 5.0]),
                z: None,
            }],
            objects: vec![
                PlacedObject {
                    mode: "graded".into(),
                    height: 2.0,
                    ..PlacedObject::default()
                },
                PlacedObject {
                    mode: "msl".into(),
                    elevation: Some(700.0),
                    ..PlacedObject::default()
                },
                PlacedObject {
                    mode: "agl".into(),
                    elevation: Some(3.0),
                    ..PlacedObject::default()
                },
            ],
            facades: vec![PlacedFacade {
                lonlat: vec![[13.0, 47.0]; 3],
                ..PlacedFacade::default()
            }],
            ..Placement::default()
        };
        let g = Ground::airport("LOWS", 1000.0, "apt.dat".into());
        let done = g.apply(&mut p);
        let z: Vec<f64> = p.objects.iter().map(|o| o.z.unwrap()).collect();
        assert_eq!(z, [304.8 + 2.0, 700.0, 304.8 + 3.0]);
        assert_eq!(p.facades[0].z, Some(304.8));
        assert_eq!(p.tiles[0].z.as_deref(), Some(&[304.8; 3][..]));
        assert_eq!(done.off_mesh, 0);
        assert_eq!(
            p.ground.unwrap().describe(),
            "airport LOWS elevation 304.8 m (flat; apt.dat)"
        );
        assert_eq!(Ground::flat(0.0).source.describe(), "flat 0 m");
    }
}
