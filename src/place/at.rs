//! "What is placed here, and by which package?": every item the enabled
//! packages' DSFs place within a radius of a point, with the package and
//! file the simulator would use and the exclusions it would apply.
//!
//! For each 1°×1° tile the circle touches, the packages are visited in
//! priority order and each one's DSF of the tile is read. The first DSF that
//! is not an overlay is the tile's base mesh: the simulator loads nothing of
//! that tile from lower-priority packages, so their items are reported as
//! excluded by the mesh's package. Every other item is excluded by the
//! highest-priority package whose `sim/exclude_*` zone of the item's kind
//! holds one of its vertices. Autogen points, blocks and strings whose asset
//! resolves are placed through agkit's engines, and what they place
//! (objects, facades, trees) is listed after them.

use crate::dsf::{Dsf, Entity};
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::limits::{LimitExceeded, Limits};
use crate::place::{self, Params, Use};
use crate::scenery::art::{ArtFile, ArtState};
use crate::scenery::exclude::{self, Exclusion, ExclusionKind};
use crate::scenery::install::{Installation, Package, relative};
use crate::scenery::resolve::{self, Conditions, LibraryIndex, Resolution, Tile};
use crate::scenery::{Scenery, SceneryError};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest radius `scenery at` accepts, in metres.
pub const MAX_RADIUS_M: f64 = 20_000.0;

/// What an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// An object (`.obj` in the object table).
    Object,
    /// An autogen point (`.agp`).
    AutogenPoint,
    /// A facade (`.fac`).
    Facade,
    /// A forest (`.for`).
    Forest,
    /// A painted line (`.lin`).
    Line,
    /// A draped polygon (`.pol`).
    Polygon,
    /// An object string (`.str`).
    String,
    /// A beach (`.bch`).
    Beach,
    /// An autogen block (`.agb`).
    AutogenBlock,
    /// An autogen string (`.ags`).
    AutogenString,
    /// A network chain (roads, railways, power lines).
    Network,
    /// A tree an autogen asset places.
    Tree,
}

impl ItemKind {
    /// The kind of a definition by its table and extension.
    pub fn of_definition(path: &str, object_table: bool) -> ItemKind {
        let ext = path
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if object_table {
            return match ext.as_str() {
                "agp" => ItemKind::AutogenPoint,
                _ => ItemKind::Object,
            };
        }
        match ext.as_str() {
            "fac" => ItemKind::Facade,
            "for" => ItemKind::Forest,
            "lin" => ItemKind::Line,
            "str" => ItemKind::String,
            "bch" => ItemKind::Beach,
            "agb" => ItemKind::AutogenBlock,
            "ags" => ItemKind::AutogenString,
            _ => ItemKind::Polygon,
        }
    }

    /// The exclusion that removes this kind. Autogen points sit in the
    /// object table (`sim/exclude_obj`); agkit takes autogen blocks and
    /// strings, which the simulator builds from facades, to fall under
    /// `sim/exclude_fac` (no Laminar document names their kind). Trees an
    /// autogen asset places go with their asset.
    pub fn exclusion(self) -> Option<ExclusionKind> {
        Some(match self {
            ItemKind::Object | ItemKind::AutogenPoint => ExclusionKind::Obj,
            ItemKind::Facade | ItemKind::AutogenBlock | ItemKind::AutogenString => {
                ExclusionKind::Fac
            }
            ItemKind::Forest => ExclusionKind::For,
            ItemKind::Line => ExclusionKind::Lin,
            ItemKind::Polygon => ExclusionKind::Pol,
            ItemKind::String => ExclusionKind::Str,
            ItemKind::Beach => ExclusionKind::Bch,
            ItemKind::Network => ExclusionKind::Net,
            ItemKind::Tree => return None,
        })
    }

    /// True for kinds whose shape is an area (the point is inside it when
    /// it lies within the outer winding).
    pub fn is_area(self) -> bool {
        matches!(
            self,
            ItemKind::Facade
                | ItemKind::Forest
                | ItemKind::Polygon
                | ItemKind::Beach
                | ItemKind::AutogenBlock
        )
    }

    /// The name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Object => "object",
            ItemKind::AutogenPoint => "autogen_point",
            ItemKind::Facade => "facade",
            ItemKind::Forest => "forest",
            ItemKind::Line => "line",
            ItemKind::Polygon => "polygon",
            ItemKind::String => "string",
            ItemKind::Beach => "beach",
            ItemKind::AutogenBlock => "autogen_block",
            ItemKind::AutogenString => "autogen_string",
            ItemKind::Network => "network",
            ItemKind::Tree => "tree",
        }
    }
}

/// A package as `scenery at` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PackageInfo {
    /// The folder name.
    pub name: String,
    /// The folder, relative to the X-Plane folder when inside it.
    pub path: String,
    /// Rank: 0 is the highest priority.
    pub priority: usize,
    /// Whether the simulator loads it: false when disabled in
    /// `scenery_packs.ini`, or listed there but missing on disk (X-Plane
    /// skips such a line).
    pub enabled: bool,
}

/// The file an item resolves to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resolved {
    /// The package the file belongs to.
    pub package: String,
    /// The file, relative to the X-Plane folder when inside it.
    pub file: String,
}

/// One thing placed near the point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Item {
    /// The package whose DSF places it.
    pub package: String,
    /// That DSF, relative to the package.
    pub dsf: String,
    /// What it is.
    pub kind: ItemKind,
    /// The definition as the DSF (or the autogen asset) names it.
    pub definition: String,
    /// The file the simulator would use, or `null` when none exists.
    pub resolved: Option<Resolved>,
    /// Longitude of the item (the point, or the mean of the outer
    /// winding's vertices).
    pub lon: f64,
    /// Latitude.
    pub lat: f64,
    /// The package whose exclusion (or base mesh) removes it, if any.
    pub excluded_by: Option<String>,
    /// How the definition resolved (or why it did not).
    pub rule: String,
    /// Conditions assumed to hold for the resolution (datarefs, season).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// The exclusion zone or base mesh that removes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusion: Option<String>,
    /// Index of the autogen item that placed this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed_by: Option<usize>,
    /// For an item an autogen asset places: whether its art file was found
    /// and read (`missing`, `unchecked`, `invalid`: it could not be
    /// opened).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<ArtState>,
    /// How tall it stands in metres, where placement knows it (an item an
    /// autogen asset places, as `agkit place` gives it): an object's
    /// height from its OBJ, a facade's drawn height (else the height
    /// asked for), a tree's height from its forest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// The shape (windings, lon/lat; one point for point items; a placed
    /// object's footprint where its OBJ was read).
    #[serde(skip)]
    pub shape: Vec<Vec<LonLat>>,
    /// True for an open facade (a fence: its `.fac` is not a `RING`),
    /// whose shape is a line rather than an area.
    #[serde(skip)]
    pub open: bool,
    /// Where the DSF item is: the index of its definition in its table
    /// and of the entity in the DSF's command stream (for an item an
    /// autogen asset places, those of the autogen use); `None` when not
    /// known.
    #[serde(skip)]
    pub source: Option<(u32, usize)>,
    /// Metres MSL where it stands, by its kind's rule on the ground of its
    /// tile ([`crate::place::ground::Stand`]): an object or tree on the
    /// ground under its point (an `OBJECT_MSL` at the DSF's elevation, an
    /// AGL one that far above), a facade's base at the highest ground under
    /// its points, anything draped at the ground under its point. Absent
    /// when not set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// A DSF object's elevation and how it is meant, when it has one.
    #[serde(skip)]
    pub dsf_elevation: Option<(crate::dsf::ElevationMode, f64)>,
}

/// The ground at the query point ([`AtReport::ground`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AtGround {
    /// Metres MSL.
    pub elevation: f64,
    /// False when the ground is a mesh that does not cover the point (the
    /// elevation is then 0).
    pub on_mesh: bool,
    /// Which ground X-Plane would put there: the mesh it loads, an
    /// airport's elevation, or flat 0 ([`crate::place::ground`]).
    pub source: crate::place::ground::GroundSource,
}

/// The answer of `scenery at`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AtReport {
    /// Every package of the installation, highest priority first.
    pub packages: Vec<PackageInfo>,
    /// The items within the radius: by package priority, DSF, stream
    /// order; what an autogen item places follows it.
    pub items: Vec<Item>,
    /// The query point (lon, lat).
    #[serde(skip)]
    pub center: LonLat,
    /// The radius in metres.
    #[serde(skip)]
    pub radius_m: f64,
    /// Problems met (unreadable DSFs, assets that could not be placed,
    /// nothing here but something where the numbers read the other way
    /// round would be); absent from the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The ground at the point, and which it is (the mesh X-Plane loads
    /// for the point's tile, an airport's elevation, or flat 0); absent
    /// when not looked up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground: Option<AtGround>,
}

/// What to ask.
#[derive(Debug, Clone, PartialEq)]
pub struct AtOptions {
    /// Longitude of the point.
    pub lon: f64,
    /// Latitude of the point.
    pub lat: f64,
    /// Radius in metres.
    pub radius_m: f64,
    /// Dataref values and season for conditional exports.
    pub conditions: Conditions,
    /// Seed, density and frame for the autogen engines and random picks.
    pub params: Params,
    /// Place autogen assets through the engines and list what they place.
    pub expand_autogen: bool,
    /// Bounds on the work.
    pub limits: Limits,
}

/// Why `scenery at` could not answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AtError {
    /// The point or radius is out of range.
    #[error("{0}")]
    Query(String),
    /// Too many items.
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
    /// The scenery cannot answer (it has no installation).
    #[error(transparent)]
    Scenery(#[from] SceneryError),
}

/// Distance in metres from the origin of `frame` to a shape: 0 inside an
/// area, else to its nearest vertex or edge.
fn distance(frame: &LocalFrame, shape: &[Vec<LonLat>], area: bool) -> f64 {
    let local: Vec<Vec<Xy>> = shape
        .iter()
        .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
        .collect();
    if area
        && let Some(outer) = local.first().filter(|w| w.len() >= 3)
        && inside(outer, [0.0, 0.0])
    {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for w in &local {
        for (k, p) in w.iter().enumerate() {
            best = best.min(p[0].hypot(p[1]));
            if let Some(q) = w
                .get(k + 1)
                .or(if area && w.len() > 2 { w.first() } else { None })
            {
                best = best.min(segment_distance(*p, *q));
            }
        }
    }
    best
}

/// Distance from the origin to the segment `a`–`b`.
fn segment_distance(a: Xy, b: Xy) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 > 0.0 {
        (-(a[0] * d[0] + a[1] * d[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a[0] + t * d[0]).hypot(a[1] + t * d[1])
}

/// Even-odd point in polygon.
fn inside(ring: &[Xy], p: Xy) -> bool {
    let mut c = false;
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + n - 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            c = !c;
        }
    }
    c
}

/// True when every coordinate of a shape is a finite number (a DSF's pools
/// can decode to anything).
fn finite(shape: &[Vec<LonLat>]) -> bool {
    shape
        .iter()
        .flatten()
        .all(|p| p[0].is_finite() && p[1].is_finite())
}

/// The mean of the outer winding's vertices (the point for point items).
fn representative(shape: &[Vec<LonLat>]) -> LonLat {
    let Some(w) = shape.first().filter(|w| !w.is_empty()) else {
        return [f64::NAN, f64::NAN];
    };
    let n = w.len() as f64;
    [
        w.iter().map(|p| p[0]).sum::<f64>() / n,
        w.iter().map(|p| p[1]).sum::<f64>() / n,
    ]
}

/// Fewest metres in a degree of latitude, and in a degree of longitude at
/// the equator (WGS 84 gives 110,574 and 111,320; rounded down, so the
/// spans below err on the side of one tile too many).
const METRES_PER_DEGREE: f64 = 110_000.0;

/// The tiles a circle touches: the rows from its south to its north edge
/// and, in each, the columns its span of longitude covers, wrapping at
/// ±180°. The span is widest at the circle's poleward edge; a circle
/// reaching a pole covers every column.
fn tiles_near(lon: f64, lat: f64, radius_m: f64) -> Vec<Tile> {
    let dlat = radius_m / METRES_PER_DEGREE;
    let (s, n) = (lat - dlat, lat + dlat);
    let edge = s.abs().max(n.abs());
    let dlon = if edge < 90.0 {
        radius_m / (METRES_PER_DEGREE * edge.to_radians().cos())
    } else {
        f64::INFINITY
    };
    let columns: Vec<i32> = if dlon >= 180.0 {
        (-180..180).collect()
    } else {
        let mut v: Vec<i32> = ((lon - dlon).floor() as i32..=(lon + dlon).floor() as i32)
            .map(|west| (west + 180).rem_euclid(360) - 180)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let rows = Tile::of(lon, s).south..=Tile::of(lon, n).south;
    rows.flat_map(|south| columns.iter().map(move |&west| Tile { west, south }))
        .collect()
}

/// The DSF of `tile` in a package, if it has one.
pub fn dsf_path(pkg: &Path, tile: Tile) -> Option<PathBuf> {
    let end = pick(&listing(pkg), "Earth nav data")?;
    let (folder, file) = tile.file_names();
    let dir = pick(&listing(&end), &folder)?;
    let f = pick(&listing(&dir), &file)?;
    f.is_file().then_some(f)
}

/// A folder's entries by their names in lower case (none when it cannot
/// be read).
type Listing = HashMap<String, Vec<PathBuf>>;

/// Lists `dir` (see [`Listing`]).
fn listing(dir: &Path) -> Listing {
    let mut m = Listing::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        m.entry(e.file_name().to_string_lossy().to_lowercase())
            .or_default()
            .push(e.path());
    }
    m
}

/// The entry called `name` in any letter case, the exact spelling first
/// (as `install::child_ci`).
fn pick(listing: &Listing, name: &str) -> Option<PathBuf> {
    let found = listing.get(&name.to_lowercase())?;
    found
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == name))
        .or(found.first())
        .cloned()
}

/// Every enabled package's DSFs, found through folder listings read once:
/// a circle near a pole asks every package for 360 tiles (5,000 packs
/// took 19 s there, one folder listing per package and tile).
struct DsfFinder<'a> {
    /// The packages with an `Earth nav data` folder, and its listing.
    packs: Vec<(&'a Package, Listing)>,
    /// Listings of the 10° folders read so far.
    folders: HashMap<PathBuf, Listing>,
}

impl<'a> DsfFinder<'a> {
    fn new(inst: &'a Installation) -> DsfFinder<'a> {
        let packs = inst
            .enabled()
            .filter_map(|p| {
                let end = pick(&listing(&p.path), "Earth nav data")?;
                Some((p, listing(&end)))
            })
            .collect();
        DsfFinder {
            packs,
            folders: HashMap::new(),
        }
    }

    /// The DSFs of `tile`, highest-priority package first.
    fn tile(&mut self, tile: Tile) -> Vec<(&'a Package, PathBuf)> {
        let (folder, file) = tile.file_names();
        let mut out = Vec::new();
        for (pkg, end) in &self.packs {
            let Some(dir) = pick(end, &folder) else {
                continue;
            };
            let files = self.folders.entry(dir).or_insert_with_key(|d| listing(d));
            if let Some(f) = pick(files, &file).filter(|f| f.is_file()) {
                out.push((*pkg, f));
            }
        }
        out
    }
}

/// One loaded DSF.
struct Loaded<'a> {
    pkg: &'a Package,
    rel: String,
    tile: Tile,
    dsf: Dsf,
    /// The package whose base mesh hides this DSF.
    below_mesh: Option<String>,
}

/// One DSF entity as `scenery at` and the whole-tile exclusions see it.
pub(crate) struct EntityShape<'a> {
    /// The index of its definition in its table.
    pub def_index: u32,
    /// The definition.
    pub def: &'a String,
    /// What it is.
    pub kind: ItemKind,
    /// Its windings (lon, lat; one point for an object).
    pub shape: Vec<Vec<LonLat>>,
    /// An object's heading (0 for the others).
    pub heading: f64,
    /// A polygon's parameter.
    pub param: Option<u16>,
}

/// Entity `e` of `dsf` as an item: objects, polygons and network chains
/// whose definition exists; `None` for anything else.
pub(crate) fn entity_shape<'a>(dsf: &'a Dsf, e: &Entity) -> Option<EntityShape<'a>> {
    let def_index = match e {
        Entity::Object(o) => o.def,
        Entity::Polygon(p) => p.def,
        Entity::Network(c) => c.def,
        _ => return None,
    };
    let (def, kind, shape, heading, param) = match e {
        Entity::Object(o) => {
            let def = dsf.object_defs.get(o.def as usize)?;
            (
                def,
                ItemKind::of_definition(def, true),
                vec![vec![[o.lon, o.lat]]],
                o.heading,
                None,
            )
        }
        Entity::Polygon(p) => {
            let def = dsf.polygon_defs.get(p.def as usize)?;
            let shape: Vec<Vec<LonLat>> = (0..p.windings.len())
                .map(|k| {
                    p.points(k)
                        .filter(|q| q.len() >= 2)
                        .map(|q| [q[0], q[1]])
                        .collect()
                })
                .collect();
            (
                def,
                ItemKind::of_definition(def, false),
                shape,
                0.0,
                Some(p.param),
            )
        }
        Entity::Network(c) => {
            let def = dsf.network_defs.get(c.def as usize)?;
            let pts = c
                .points()
                .filter(|q| q.len() >= 2)
                .map(|q| [q[0], q[1]])
                .collect();
            (def, ItemKind::Network, vec![pts], 0.0, None)
        }
        _ => return None,
    };
    Some(EntityShape {
        def_index,
        def,
        kind,
        shape,
        heading,
        param,
    })
}

/// One exclusion zone, with the package and DSF that define it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Zone {
    /// The defining package's rank (0 is the highest priority).
    pub priority: usize,
    /// The defining package.
    pub package: String,
    /// Its DSF, relative to the package.
    pub file: String,
    /// The zone.
    pub exclusion: Exclusion,
}

impl Zone {
    /// The zones of `dsf`, read from `rel` in `pkg`; the properties that
    /// cannot be read are added to `warnings`.
    pub fn of(pkg: &Package, rel: &str, dsf: &Dsf, warnings: &mut Vec<String>) -> Vec<Zone> {
        let (x, problems) = exclude::exclusions(dsf);
        for p in problems {
            warnings.push(format!("{}/{rel}: {p}", pkg.name));
        }
        x.into_iter()
            .map(|exclusion| Zone {
                priority: pkg.priority,
                package: pkg.name.clone(),
                file: rel.to_string(),
                exclusion,
            })
            .collect()
    }
}

/// Exclusion zones by kind, each kind's list highest priority first: an
/// item is tested against its own kind's zones only, so the cost per item
/// is the number of zones of its kind (a handful in real packages).
#[derive(Debug, Clone, Default)]
pub struct Zones {
    by_kind: [Vec<Zone>; ExclusionKind::ALL.len()],
}

impl Zones {
    /// The zones, sorted by priority (stable: a package's zones keep
    /// their property order).
    pub fn new(zones: impl IntoIterator<Item = Zone>) -> Zones {
        let mut out = Zones::default();
        for z in zones {
            out.by_kind[z.exclusion.kind.index()].push(z);
        }
        for v in &mut out.by_kind {
            v.sort_by_key(|z| z.priority);
        }
        out
    }

    /// How many zones there are.
    pub fn len(&self) -> usize {
        self.by_kind.iter().map(Vec::len).sum()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The highest-priority zone of `kind`, of a package ranked above
    /// `below` (a smaller rank), that holds one of `points`: the zone that
    /// removes an item of that package ([`exclude`]'s rule).
    pub fn first(&self, kind: ExclusionKind, below: usize, points: &[LonLat]) -> Option<&Zone> {
        self.by_kind[kind.index()]
            .iter()
            .take_while(|z| z.priority < below)
            .find(|z| z.exclusion.hits(points))
    }
}

/// Every enabled package's DSF of `tile` ranked above `above` (a smaller
/// rank; `usize::MAX` for all), highest priority first, each with the
/// package whose base mesh hides it: the first DSF that is not an overlay
/// is the tile's base mesh, and X-Plane loads nothing of the tile from the
/// packages below it. DSFs that cannot be read are named in `warnings`.
fn load_tile<'a>(
    inst: &Installation,
    finder: &mut DsfFinder<'a>,
    tile: Tile,
    above: usize,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Vec<Loaded<'a>> {
    let mut loaded = Vec::new();
    let mut mesh: Option<String> = None;
    for (pkg, path) in finder.tile(tile) {
        if pkg.priority >= above {
            continue;
        }
        let rel = relative(&path, &pkg.path);
        let dsf = match crate::fsutil::read_input(&path, "a DSF tile", limits.max_input_bytes)
            .map_err(|e| e.reason())
            .and_then(|b| crate::dsf::read(&b).map_err(|e| e.to_string()))
        {
            Ok(d) => d,
            Err(e) => {
                warnings.push(format!("{}: {e}", relative(&path, &inst.root)));
                continue;
            }
        };
        let overlay = dsf.is_overlay();
        loaded.push(Loaded {
            pkg,
            rel,
            tile,
            dsf,
            below_mesh: mesh.clone(),
        });
        if !overlay && mesh.is_none() {
            mesh = Some(pkg.name.clone());
        }
    }
    loaded
}

/// What the packages ranked above one package do to its DSF of a tile
/// ([`above`]).
#[derive(Debug, Clone, Default)]
pub struct Above {
    /// Their exclusion zones.
    pub zones: Zones,
    /// The first of them whose DSF of the tile is a base mesh (package,
    /// DSF relative to it): X-Plane then loads nothing of the tile from
    /// the package below.
    pub mesh: Option<(String, String)>,
    /// How many of their DSFs were read.
    pub dsfs: usize,
    /// DSFs or exclusion properties that could not be read.
    pub warnings: Vec<String>,
}

/// The exclusion zones and base mesh of every enabled package ranked above
/// `own` (a smaller rank) that has a DSF of `tile`: what `scenery at`
/// applies to the items of a package at a point, for the whole tile.
pub fn above(inst: &Installation, tile: Tile, own: usize, limits: &Limits) -> Above {
    let mut out = Above::default();
    let mut finder = DsfFinder::new(inst);
    let loaded = load_tile(inst, &mut finder, tile, own, limits, &mut out.warnings);
    out.dsfs = loaded.len();
    out.mesh = loaded
        .iter()
        .find(|l| !l.dsf.is_overlay())
        .map(|l| (l.pkg.name.clone(), l.rel.clone()));
    let mut all = Vec::new();
    for l in &loaded {
        all.extend(Zone::of(l.pkg, &l.rel, &l.dsf, &mut out.warnings));
    }
    out.zones = Zones::new(all);
    out
}

/// Answers `scenery at` for an installation and its library index.
///
/// What an autogen item places resolves its art through `art` (read once,
/// shared with the other faces, see [`crate::scenery::art`]); with `place_art` the
/// engines follow it (footprints, forests), else they place without it.
pub fn at(
    inst: &Installation,
    index: &LibraryIndex,
    opts: &AtOptions,
    art: &crate::scenery::art::ArtStore,
    place_art: bool,
) -> Result<AtReport, AtError> {
    if !(-90.0..=90.0).contains(&opts.lat) || !(-180.0..=180.0).contains(&opts.lon) {
        return Err(AtError::Query(format!(
            "{},{}: latitude must be in -90..90 and longitude in -180..180",
            opts.lat, opts.lon
        )));
    }
    if !(opts.radius_m > 0.0 && opts.radius_m <= MAX_RADIUS_M) {
        // `{}` writes 1e308 with all its 309 digits.
        let r = opts.radius_m;
        let shown = if r.abs() < 1e7 {
            r.to_string()
        } else {
            format!("{r:e}")
        };
        return Err(AtError::Query(format!(
            "radius {shown} m: give more than 0 and at most {MAX_RADIUS_M} m"
        )));
    }
    let mut report = AtReport {
        packages: inst
            .packages
            .iter()
            .map(|p| PackageInfo {
                name: p.name.clone(),
                path: inst.display_path(p),
                priority: p.priority,
                enabled: p.enabled && p.exists,
            })
            .collect(),
        items: Vec::new(),
        center: [opts.lon, opts.lat],
        radius_m: opts.radius_m,
        warnings: Vec::new(),
        ground: None,
    };
    let frame = LocalFrame::new([opts.lon, opts.lat]);

    // Load every enabled package's DSF of each tile, noting base meshes.
    let mut loaded: Vec<Loaded> = Vec::new();
    let mut finder = DsfFinder::new(inst);
    for tile in tiles_near(opts.lon, opts.lat, opts.radius_m) {
        loaded.extend(load_tile(
            inst,
            &mut finder,
            tile,
            usize::MAX,
            &opts.limits,
            &mut report.warnings,
        ));
    }

    // Exclusion zones of every loaded DSF, with its package's rank.
    let mut all: Vec<Zone> = Vec::new();
    for l in &loaded {
        all.extend(Zone::of(l.pkg, &l.rel, &l.dsf, &mut report.warnings));
    }
    let zones = Zones::new(all);

    let mut cache: HashMap<(usize, Tile, String), Resolution> = HashMap::new();
    let mut assets: HashMap<PathBuf, Result<crate::xp::model::Asset, String>> = HashMap::new();
    for l in &loaded {
        // The index of the next autogen use in the DSF (the order
        // `dsf::autogen_uses` lists them), which seeds it as every face
        // seeds a tile's uses (`place::tile`).
        let mut next_use = 0;
        for (entity, e) in l.dsf.entities.iter().enumerate() {
            let Some(it) = entity_shape(&l.dsf, e) else {
                continue;
            };
            let (def_index, def, kind, shape) = (it.def_index, it.def, it.kind, it.shape);
            let (heading, param) = (it.heading, it.param);
            let autogen = matches!(
                kind,
                ItemKind::AutogenPoint | ItemKind::AutogenBlock | ItemKind::AutogenString
            );
            let seed = if autogen {
                next_use += 1;
                place::tile::use_seed(opts.params.seed, next_use - 1)
            } else {
                opts.params.seed
            };
            if !finite(&shape) {
                report.warnings.push(format!(
                    "{}/{}: a {} of {def} has a coordinate that is not a number; skipped",
                    l.pkg.name,
                    l.rel,
                    kind.as_str()
                ));
                continue;
            }
            if distance(&frame, &shape, kind.is_area()) > opts.radius_m {
                continue;
            }
            let res = cache
                .entry((l.pkg.priority, l.tile, def.clone()))
                .or_insert_with(|| {
                    resolve::resolve(
                        index,
                        Some((&l.pkg.name, &l.pkg.path)),
                        def,
                        l.tile,
                        &opts.conditions,
                    )
                });
            let points: Vec<LonLat> = shape.iter().flatten().copied().collect();
            let (excluded_by, exclusion) = match &l.below_mesh {
                Some(m) => (
                    Some(m.clone()),
                    Some(format!(
                        "below the base mesh of {m}, so X-Plane does not load this DSF"
                    )),
                ),
                None => kind
                    .exclusion()
                    .and_then(|k| zones.first(k, l.pkg.priority, &points))
                    .map_or((None, None), |z| {
                        (Some(z.package.clone()), Some(z.exclusion.describe()))
                    }),
            };
            let picked = res.pick(seed);
            let at = representative(&shape);
            let item = Item {
                package: l.pkg.name.clone(),
                dsf: l.rel.clone(),
                kind,
                definition: def.clone(),
                resolved: picked.map(|c| Resolved {
                    package: owner(inst, c),
                    file: relative(&c.file, &inst.root),
                }),
                lon: at[0],
                lat: at[1],
                excluded_by,
                rule: rule_text(res, Some(&l.pkg.name)),
                conditions: res
                    .candidates
                    .iter()
                    .flat_map(|c| c.conditions.iter().cloned())
                    .collect(),
                exclusion,
                placed_by: None,
                art: None,
                height: None,
                shape,
                open: false,
                source: Some((def_index, entity)),
                z: None,
                dsf_elevation: match e {
                    Entity::Object(o) => o.elevation.map(|h| (o.mode, h)),
                    _ => None,
                },
            };
            LimitExceeded::check(
                "items within the radius",
                report.items.len() as u64 + 1,
                opts.limits.max_placed_items as u64,
            )?;
            let parent = report.items.len();
            report.items.push(item);
            if opts.expand_autogen
                && autogen
                && let Some(c) = picked
            {
                let children = expand(
                    &report.items[parent],
                    parent,
                    &c.file,
                    (heading, param, seed),
                    l.tile,
                    (inst, index, opts, &frame),
                    (art, place_art),
                    &mut assets,
                    &mut report.warnings,
                );
                LimitExceeded::check(
                    "items within the radius",
                    (report.items.len() + children.len()) as u64,
                    opts.limits.max_placed_items as u64,
                )?;
                report.items.extend(children);
            }
        }
    }
    Ok(report)
}

/// The package a candidate's file belongs to: the exporting package, or
/// for a file a DSF names by `../`, the package holding it.
fn owner(inst: &Installation, c: &resolve::Candidate) -> String {
    if c.kind.is_none()
        && crate::scenery::library::leaves_root(&c.relative)
        && let Some(p) = inst.package_of(&c.file)
    {
        return p.name.clone();
    }
    c.package.clone()
}

/// How a resolution reads in a report.
fn rule_text(r: &Resolution, own: Option<&str>) -> String {
    if !r.is_resolved() {
        let why = match own {
            Some(own) => r.why_unresolved_in(own),
            None => r.why_unresolved(),
        };
        return format!("unresolved: {why}");
    }
    let n = r.usable().count();
    if n > 1 {
        format!("{} (one of {n} alternatives)", r.rule)
    } else {
        r.rule.clone()
    }
}

/// What an autogen item places, as items: its asset (`file`) placed with
/// the use's heading, DSF parameter and seed.
#[allow(clippy::too_many_arguments)]
fn expand(
    parent: &Item,
    parent_index: usize,
    file: &Path,
    (heading, param, seed): (f64, Option<u16>, u64),
    tile: Tile,
    (inst, index, opts, frame): (&Installation, &LibraryIndex, &AtOptions, &LocalFrame),
    (store, place_art): (&crate::scenery::art::ArtStore, bool),
    assets: &mut HashMap<PathBuf, Result<crate::xp::model::Asset, String>>,
    warnings: &mut Vec<String>,
) -> Vec<Item> {
    let asset = assets.entry(file.to_path_buf()).or_insert_with(|| {
        let text = crate::scenery::install::read_text(file, "an autogen asset", 64 << 20)
            .map_err(|e| e.to_string())?;
        crate::xp::parse(&text).map_err(|d| {
            format!(
                "{}: {} errors",
                relative(file, &inst.root),
                d.iter().filter(|d| d.is_error()).count()
            )
        })
    });
    let asset = match asset {
        Ok(a) => a,
        Err(e) => {
            warnings.push(format!(
                "{}: cannot place {}: {e}",
                parent.package, parent.definition
            ));
            return Vec::new();
        }
    };
    let use_ = match parent.kind {
        ItemKind::AutogenPoint => Use::Point {
            at: parent.shape[0][0],
            heading,
        },
        _ => Use::Polygon {
            windings: parent.shape.clone(),
        },
    };
    let libs = crate::scenery::art::Libraries {
        index,
        tile: Some(tile),
        conditions: &opts.conditions,
    };
    let art = store.art_for(file, asset, Some(&libs));
    let mut params = opts.params.clone();
    params.seed = seed;
    if let Some(p) = param {
        params = params.with_dsf_param(p);
    }
    if place_art {
        params.art = Some(std::sync::Arc::clone(&art));
    }
    let placed = match place::place(asset, &parent.definition, &use_, &params) {
        Ok(p) => p,
        Err(e) => {
            warnings.push(format!(
                "{}: cannot place {}: {e}",
                parent.package, parent.definition
            ));
            return Vec::new();
        }
    };
    // Each child resolves as the asset's art did: beside the asset, else
    // through the libraries at the tile.
    let child = |kind: ItemKind,
                 at: Option<(&str, Option<&PathBuf>, ArtState, &str)>,
                 shape: Vec<Vec<LonLat>>,
                 height: Option<f64>| {
        let (definition, resolved, rule, state) = match at {
            None => (
                String::new(),
                None,
                "placed by the autogen asset".to_string(),
                None,
            ),
            Some((path, file, state, how)) => {
                let resolved = file.map(|f| Resolved {
                    package: inst.package_of(f).map_or_else(
                        || {
                            parent
                                .resolved
                                .as_ref()
                                .map_or_else(|| parent.package.clone(), |r| r.package.clone())
                        },
                        |p| p.name.clone(),
                    ),
                    file: relative(f, &inst.root),
                });
                let rule = match state {
                    ArtState::Found => how.to_string(),
                    ArtState::Invalid => format!("cannot be read: {how}"),
                    _ => format!("unresolved: {how}"),
                };
                (path.to_string(), resolved, rule, Some(state))
            }
        };
        let at = representative(&shape);
        Item {
            package: parent.package.clone(),
            dsf: parent.dsf.clone(),
            kind,
            definition,
            resolved,
            lon: at[0],
            lat: at[1],
            excluded_by: parent.excluded_by.clone(),
            rule,
            conditions: Vec::new(),
            exclusion: parent.exclusion.clone(),
            placed_by: Some(parent_index),
            art: state,
            height,
            shape,
            open: false,
            source: parent.source,
            z: None,
            dsf_elevation: None,
        }
    };
    fn of<T>(f: &ArtFile<T>) -> (&str, Option<&PathBuf>, ArtState, &str) {
        (&f.path, f.file.as_ref(), f.state, &f.how)
    }
    let mut out = Vec::new();
    let mut keep = |item: Item, area: bool| {
        if distance(frame, &item.shape, area) <= opts.radius_m {
            out.push(item);
        }
    };
    for o in &placed.objects {
        let at = usize::try_from(o.index)
            .ok()
            .and_then(|i| art.objects.get(i))
            .map(of);
        // The footprint `place` gives it where its OBJ was read (then it is
        // near when the footprint reaches the circle), else its position.
        let footprint = o.footprint_lonlat.len() >= 3;
        let shape = if footprint {
            vec![o.footprint_lonlat.clone()]
        } else {
            vec![vec![[o.lon, o.lat]]]
        };
        let mut item = child(ItemKind::Object, at, shape, o.object_height);
        [item.lon, item.lat] = [o.lon, o.lat];
        keep(item, footprint);
    }
    for f in &placed.facades {
        let fac = art.facades.iter().find(|a| a.path == f.asset);
        let height = f.drawn_height.or(Some(f.height));
        let mut item = child(
            ItemKind::Facade,
            fac.map(of),
            vec![f.lonlat.clone()],
            height,
        );
        item.open = fac.and_then(|a| a.get()).is_some_and(|fac| !fac.ring);
        let area = !item.open;
        keep(item, area);
    }
    for t in &placed.trees {
        let at = art.forest.as_ref().map(of);
        keep(
            child(ItemKind::Tree, at, vec![vec![[t.lon, t.lat]]], t.height),
            false,
        );
    }
    out
}

impl Scenery {
    /// Gives the report the ground at its point and each item its `z`, on
    /// the ground of the item's tile as `place --all` finds it
    /// ([`Scenery::tile_ground`]), by its kind's rule
    /// ([`crate::place::ground::Stand`]).
    fn set_on_ground(&self, inst: &Installation, report: &mut AtReport, limits: &Limits) {
        use crate::place::ground::{Ground, Stand};
        let mut grounds: HashMap<Tile, Ground> = HashMap::new();
        let mut ground = |t: Tile| -> Ground {
            grounds
                .entry(t)
                .or_insert_with(|| self.tile_ground(&inst.root, t, limits))
                .clone()
        };
        let [lon, lat] = report.center;
        let g = ground(Tile::of(lon, lat));
        let (elevation, on_mesh) = g.at(report.center);
        report.ground = Some(AtGround {
            elevation,
            on_mesh,
            source: g.source.clone(),
        });
        for i in &mut report.items {
            if !(i.lon.is_finite() && i.lat.is_finite()) {
                continue;
            }
            let stand = match (i.kind, i.dsf_elevation) {
                (ItemKind::Object, Some((crate::dsf::ElevationMode::Msl, h))) => Stand::Msl(h),
                (ItemKind::Object, Some((crate::dsf::ElevationMode::Agl, h))) => Stand::Agl(h),
                (ItemKind::Object | ItemKind::AutogenPoint | ItemKind::Tree, _) => Stand::Point,
                (ItemKind::Facade | ItemKind::AutogenBlock, _) if !i.open => Stand::Walls,
                _ => Stand::Draped,
            };
            let points: Vec<LonLat> = match stand {
                Stand::Walls => i.shape.iter().flatten().copied().collect(),
                _ => vec![[i.lon, i.lat]],
            };
            i.z = Some(ground(Tile::of(i.lon, i.lat)).z(stand, &points));
        }
    }

    /// Every item the enabled packages place within `radius_m` metres of
    /// (`lat`, `lon`), resolved, with the exclusions that remove it; with
    /// `expand_autogen`, what each autogen use places (seeded as
    /// [`crate::place::tile`] says) follows it. `params` gives the seed,
    /// density and limits.
    pub fn at(
        &self,
        lat: f64,
        lon: f64,
        radius_m: f64,
        params: &Params,
        expand_autogen: bool,
    ) -> Result<AtReport, AtError> {
        let inst = self.install().ok_or(SceneryError::NoInstallation("`at`"))?;
        let opts = AtOptions {
            lon,
            lat,
            radius_m,
            conditions: self.conditions().clone(),
            params: params.clone(),
            expand_autogen,
            limits: params.limits,
        };
        let mut report = at(inst, self.index(), &opts, self.art(), self.reads_art())?;
        self.set_on_ground(inst, &mut report, &params.limits);
        // Nothing here, but something where the numbers read the other way
        // round would be (`13.04,47.8` for lat 47.8, lon 13.04): say so.
        if report.items.is_empty() && lat != lon && (-90.0..=90.0).contains(&lon) {
            let other = AtOptions {
                lon: lat,
                lat: lon,
                expand_autogen: false,
                ..opts
            };
            if let Ok(r) = at(inst, self.index(), &other, self.art(), self.reads_art())
                && !r.items.is_empty()
            {
                use crate::geom::orient::lat_lon;
                report.warnings.push(format!(
                    "nothing within {} m of {}, but {} items at {} (the numbers the other way \
                     round): a position is given latitude first",
                    radius_m,
                    lat_lon(lat, lon),
                    crate::ground::words::thousands(r.items.len()),
                    lat_lon(lon, lat)
                ));
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_table_and_extension() {
        assert_eq!(
            ItemKind::of_definition("a/b.AGP", true),
            ItemKind::AutogenPoint
        );
        assert_eq!(ItemKind::of_definition("a/b.obj", true), ItemKind::Object);
        assert_eq!(ItemKind::of_definition("a/b.fac", false), ItemKind::Facade);
        assert_eq!(
            ItemKind::of_definition("a/b.ags", false),
            ItemKind::AutogenString
        );
        assert_eq!(ItemKind::of_definition("a/b", false), ItemKind::Polygon);
        assert_eq!(ItemKind::Forest.exclusion(), Some(ExclusionKind::For));
    }

    #[test]
    fn dsfs_found_in_any_letter_case_in_priority_order() {
        let t = tempfile::tempdir().unwrap();
        let cs = t.path().join("Custom Scenery");
        for f in [
            "A/earth NAV data/+40+010/+47+013.DSF",
            "B/Earth nav data/+40+010/+47+013.dsf",
            "B/Earth nav data/+40+010/+47+014.dsf",
            "C/Earth nav data/+40+010/+47+013.dsf/not-a-file",
        ] {
            std::fs::create_dir_all(cs.join(f).parent().unwrap()).unwrap();
            if !f.ends_with("not-a-file") {
                std::fs::write(cs.join(f), b"").unwrap();
            }
        }
        std::fs::create_dir_all(cs.join("C/Earth nav data/+40+010/+47+013.dsf")).unwrap();
        let inst = Installation::open(t.path()).unwrap();
        let mut finder = DsfFinder::new(&inst);
        let tile = |west| Tile { west, south: 47 };
        let found = |f: &mut DsfFinder, w| -> Vec<(String, String)> {
            f.tile(tile(w))
                .into_iter()
                .map(|(p, f)| (p.name.clone(), relative(&f, &cs)))
                .collect()
        };
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            found(&mut finder, 13),
            [
                s("A", "A/earth NAV data/+40+010/+47+013.DSF"),
                s("B", "B/Earth nav data/+40+010/+47+013.dsf")
            ]
        );
        assert_eq!(
            found(&mut finder, 14),
            [s("B", "B/Earth nav data/+40+010/+47+014.dsf")]
        );
        assert!(found(&mut finder, 15).is_empty());
        assert_eq!(
            dsf_path(&cs.join("A"), tile(13)),
            Some(cs.join("A/earth NAV data/+40+010/+47+013.DSF"))
        );
    }

    #[test]
    fn non_finite_shapes_are_refused() {
        assert!(finite(&[vec![[13.0, 47.0], [13.1, 47.1]]]));
        assert!(!finite(&[vec![[13.0, 47.0]], vec![[f64::NAN, 47.0]]]));
        assert!(!finite(&[vec![[f64::INFINITY, 47.0]]]));
    }

    #[test]
    fn distances_and_tiles() {
        let f = LocalFrame::new([13.0, 47.0]);
        let sq = vec![vec![
            [12.99, 46.99],
            [13.01, 46.99],
            [13.01, 47.01],
            [12.99, 47.01],
        ]];
        assert_eq!(distance(&f, &sq, true), 0.0);
        let d = distance(&f, &sq, false);
        assert!((700.0..1200.0).contains(&d), "{d}");
        let line = vec![vec![[13.001, 46.99], [13.001, 47.01]]];
        let d = distance(&f, &line, false);
        assert!((70.0..80.0).contains(&d), "{d}");
        assert_eq!(
            tiles_near(13.5, 47.5, 1000.0),
            vec![Tile {
                west: 13,
                south: 47
            }]
        );
        assert_eq!(tiles_near(13.001, 47.5, 1000.0).len(), 2);
        // Across the antimeridian: the columns +179 and -180.
        let t = |west, south| Tile { west, south };
        assert_eq!(
            tiles_near(179.999, 10.5, 5000.0),
            vec![t(-180, 10), t(179, 10)]
        );
        assert_eq!(
            tiles_near(-180.0, 10.5, 500.0),
            vec![t(-180, 10), t(179, 10)]
        );
        // Over a pole: every column of the last row.
        let polar = tiles_near(0.0, 89.9999, 500.0);
        assert_eq!(polar.len(), 360);
        assert!(polar.iter().all(|t| t.south == 89));
    }

    proptest::proptest! {
        /// `Zones::first` is the brute-force answer: of the zones of the
        /// item's kind from packages ranked above it, holding one of its
        /// points, the highest-priority one (the first given among equals).
        #[test]
        fn the_first_zone_is_the_brute_force_one(
            zones in proptest::collection::vec(
                (0usize..4, 0usize..8, 0.0..1.0f64, 0.0..1.0f64, 0.0..0.5f64, 0.0..0.5f64),
                0..12,
            ),
            points in proptest::collection::vec((0.0..1.5f64, 0.0..1.5f64), 1..6),
            kind in 0usize..8,
            below in 0usize..5,
        ) {
            let zones: Vec<Zone> = zones
                .into_iter()
                .map(|(priority, k, w, s, dw, ds)| Zone {
                    priority,
                    package: format!("P{priority}"),
                    file: String::new(),
                    exclusion: Exclusion {
                        kind: ExclusionKind::ALL[k],
                        bbox: [w, s, w + dw, s + ds],
                        polygon: None,
                        airport: None,
                    },
                })
                .collect();
            let pts: Vec<LonLat> = points.into_iter().map(|(x, y)| [x, y]).collect();
            let k = ExclusionKind::ALL[kind];
            let inside = |z: &Zone| {
                let [w, s, e, n] = z.exclusion.bbox;
                pts.iter().any(|p| p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n)
            };
            let want = zones
                .iter()
                .filter(|z| z.exclusion.kind == k && z.priority < below && inside(z))
                .min_by_key(|z| z.priority);
            let index = Zones::new(zones.clone());
            proptest::prop_assert_eq!(index.first(k, below, &pts), want);
            proptest::prop_assert_eq!(index.len(), zones.len());
        }

        /// Every point of the circle lies in one of the tiles listed, at
        /// any latitude, and (drawn often) across the antimeridian and over
        /// the poles.
        #[test]
        fn the_tiles_cover_the_circle(
            lon in proptest::prop_oneof![-180.0..=180.0f64, 179.8..=180.0f64, -180.0..=-179.8f64],
            lat in proptest::prop_oneof![-90.0..=90.0f64, 89.8..=90.0f64, -90.0..=-89.8f64],
            radius in 1.0..=MAX_RADIUS_M,
            bearing in 0.0..360.0f64,
            frac in 0.0..=1.0f64,
        ) {
            let frame = LocalFrame::new([lon, lat]);
            let (sin, cos) = bearing.to_radians().sin_cos();
            let p = frame.to_lonlat([radius * frac * sin, radius * frac * cos]);
            let local = frame.to_local(p);
            // The tangent plane and the ellipsoid part a little far out.
            proptest::prop_assume!(local[0].hypot(local[1]) <= radius);
            let tile = Tile::of(p[0], p[1]);
            let tiles = tiles_near(lon, lat, radius);
            proptest::prop_assert!(tiles.contains(&tile), "{p:?} in {tile} not in {tiles:?}");
        }
    }
}
