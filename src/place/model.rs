//! The one placement model all three engines produce and all outputs read.
//!
//! Positions are in local metres (x east, y north) around [`Placement::origin`]
//! and, once [`Placement::georeference`] has run, also in lon/lat. The JSON
//! form (`agkit place --format json`) is this struct serialized with serde and
//! is a stable interface: fields are only ever added.

use crate::geom::{LocalFrame, LonLat, Xy};
use crate::xp::model::Kind;
use serde::{Serialize, Serializer};

/// What one asset use places.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Placement {
    /// What the placement places: an autogen use (`agp`, `agb`, `ags`) or
    /// one definition of a whole DSF tile (`obj`, `fac`, `for`, `pol`,
    /// `lin`, `str`). The JSON holds the lower-case name.
    pub kind: PlacementKind,
    /// The asset path as given or resolved.
    pub asset: String,
    /// Origin of the local frame (lon, lat): the DSF point (AGP) or the first
    /// vertex of the first winding (AGB/AGS).
    pub origin: LonLat,
    /// The seed the random choices were drawn from.
    pub seed: u64,
    /// The DSF polygon's windings in local metres (empty for AGP).
    pub polygon: Vec<Vec<Xy>>,
    /// Tiles in draw order.
    pub tiles: Vec<PlacedTile>,
    /// Objects.
    pub objects: Vec<PlacedObject>,
    /// Facades.
    pub facades: Vec<PlacedFacade>,
    /// Trees (TREE, TREE_LINE expanded, fill trees).
    pub trees: Vec<PlacedTree>,
    /// Vertices treated as corners (AGS), with their turn.
    pub corners: Vec<PlacedCorner>,
    /// Draped polygons (`.pol` of a DSF tile). Absent from the JSON when
    /// empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub draped: Vec<PlacedDraped>,
    /// Painted lines (`.lin`) and the lines of object strings (`.str`) of
    /// a DSF tile. Absent from the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<PlacedLine>,
    /// Problems met while placing (an asset that could not be resolved, a
    /// tile skipped because of a stop point, …), each with the codes of
    /// the diagnostic rules it reports, if any (the JSON holds each as
    /// its text: [`Warning`]'s `Display`).
    pub warnings: Vec<Warning>,
    /// What the engine decided and why (`--explain`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub explain: Vec<String>,
    /// How the input was taken to be placed, where it was not as a DSF
    /// stores it: a GIS polygon's clockwise outer ring (or
    /// counter-clockwise hole) reversed, with where the polygon would lie
    /// were its coordinates swapped. Absent from the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The art the placement followed ([`super::Params::art`]; `None` when
    /// art was not looked up), kept for the outputs that draw it (textured
    /// pictures, 3-D scenes: [`crate::out::gltf`]). Not part of the JSON
    /// form (its items carry their own `art` states).
    #[serde(skip)]
    pub art: Option<std::sync::Arc<super::art::Art>>,
    /// `Some(why)` for a use that was not placed at all (its asset resolves
    /// nowhere, does not load, or the engine refused the use;
    /// [`super::tile::unplaced`]): it holds only its `kind`, `asset`,
    /// `origin` and `polygon`, and the views draw it where the DSF puts it,
    /// marked as missing art is, never with items invented for it. The
    /// tables (JSON, GeoJSON, GeoPackage) leave such uses out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unplaced: Option<String>,
    /// The ground the placement's items stand on, when a whole tile was
    /// set on the ground ([`super::ground`]): a base mesh, an airport's
    /// elevation or flat 0. Absent from the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground: Option<super::ground::GroundSource>,
    /// The base mesh under the placement, when its ground is one (shared;
    /// not part of the JSON): what the 3-D scene drapes on and draws.
    #[serde(skip)]
    pub terrain: Option<super::ground::Terrain>,
    /// The airports lying in the tile, when a whole tile was placed
    /// ([`crate::scenery::tile_airports`]; shared by its placements): the 3-D scene and
    /// the pictures draw their runways and pavement under the items. The
    /// JSON holds their summary (ID, file, counts); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airports: Option<crate::scenery::tile_airports::Airports>,
    /// For an autogen use: the package whose exclusion (or base mesh)
    /// removes the whole use ([`super::exclusions`]; each item it placed
    /// carries the same mark); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

/// What a [`Placement`] places: one autogen use, or the items of one
/// definition of a whole DSF tile (its extension).
///
/// The JSON form, `Display` and `FromStr` all use the lower-case name
/// (`agp`, `obj`, …), the definition's extension:
///
/// ```
/// use agkit::place::PlacementKind;
/// assert_eq!("fac".parse::<PlacementKind>(), Ok(PlacementKind::Fac));
/// assert_eq!(PlacementKind::Ags.to_string(), "ags");
/// assert!(PlacementKind::Agb.is_autogen() && !PlacementKind::Str.is_autogen());
/// assert!("net".parse::<PlacementKind>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PlacementKind {
    /// An autogen point (`.agp`), the kind of a placement built by hand.
    #[default]
    Agp,
    /// An autogen block (`.agb`).
    Agb,
    /// An autogen string (`.ags`).
    Ags,
    /// The objects (`.obj`) of one definition of a whole tile.
    Obj,
    /// The facades (`.fac`) of one definition of a whole tile.
    Fac,
    /// The forest (`.for`) of one definition of a whole tile.
    For,
    /// The draped polygons (`.pol`) of one definition of a whole tile.
    Pol,
    /// The painted lines (`.lin`) of one definition of a whole tile.
    Lin,
    /// The object strings (`.str`) of one definition of a whole tile.
    Str,
}

impl PlacementKind {
    /// Every kind: the three autogen ones, then the other definitions of
    /// a whole tile in the order the tile's report lists them.
    pub const ALL: [PlacementKind; 9] = [
        PlacementKind::Agp,
        PlacementKind::Agb,
        PlacementKind::Ags,
        PlacementKind::Obj,
        PlacementKind::Fac,
        PlacementKind::For,
        PlacementKind::Pol,
        PlacementKind::Lin,
        PlacementKind::Str,
    ];

    /// The lower-case name, the definition's extension (as the JSON holds
    /// it).
    pub fn as_str(self) -> &'static str {
        match self {
            PlacementKind::Agp => "agp",
            PlacementKind::Agb => "agb",
            PlacementKind::Ags => "ags",
            PlacementKind::Obj => "obj",
            PlacementKind::Fac => "fac",
            PlacementKind::For => "for",
            PlacementKind::Pol => "pol",
            PlacementKind::Lin => "lin",
            PlacementKind::Str => "str",
        }
    }

    /// True for the autogen kinds (`agp`, `agb`, `ags`).
    pub fn is_autogen(self) -> bool {
        self.autogen().is_some()
    }

    /// The autogen format of an autogen kind (`None` for the other
    /// definitions of a whole tile).
    pub fn autogen(self) -> Option<Kind> {
        match self {
            PlacementKind::Agp => Some(Kind::Agp),
            PlacementKind::Agb => Some(Kind::Agb),
            PlacementKind::Ags => Some(Kind::Ags),
            _ => None,
        }
    }
}

impl From<Kind> for PlacementKind {
    fn from(k: Kind) -> PlacementKind {
        match k {
            Kind::Agp => PlacementKind::Agp,
            Kind::Agb => PlacementKind::Agb,
            Kind::Ags => PlacementKind::Ags,
        }
    }
}

impl From<crate::dsf::autogen::AutogenKind> for PlacementKind {
    fn from(k: crate::dsf::autogen::AutogenKind) -> PlacementKind {
        use crate::dsf::autogen::AutogenKind as A;
        match k {
            A::Agp => PlacementKind::Agp,
            A::Agb => PlacementKind::Agb,
            A::Ags => PlacementKind::Ags,
        }
    }
}

impl std::fmt::Display for PlacementKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for PlacementKind {
    type Err = crate::ground::words::UnknownName;

    /// The kind of its lower-case name (`agp` … `str`).
    fn from_str(s: &str) -> Result<PlacementKind, crate::ground::words::UnknownName> {
        PlacementKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| crate::ground::words::UnknownName {
                what: "placement kind",
                name: s.to_string(),
                expected: "agp, agb, ags, obj, fac, for, pol, lin or str",
            })
    }
}

/// One problem met while placing: what it says and the codes of the
/// diagnostic rules it reports (`AG0085` for an art file not found, …),
/// kept apart from the text.
///
/// `Display` and the JSON form give the message followed by the codes in
/// brackets, when there are any, as the command line prints it:
///
/// ```
/// use agkit::place::Warning;
/// let w = Warning::coded("a.obj: not found", &["AG0085"]);
/// assert_eq!(w.to_string(), "a.obj: not found [AG0085]");
/// assert_eq!((w.code(), w.message()), (Some("AG0085"), "a.obj: not found"));
/// assert_eq!(Warning::from("no room").to_string(), "no room");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    message: String,
    codes: &'static [&'static str],
}

impl Warning {
    /// A warning no diagnostic rule reports.
    pub fn new(message: impl Into<String>) -> Warning {
        Warning::coded(message, &[])
    }

    /// A warning that reports the rules with `codes` (from the formats'
    /// `RULES` tables).
    pub fn coded(message: impl Into<String>, codes: &'static [&'static str]) -> Warning {
        Warning {
            message: message.into(),
            codes,
        }
    }

    /// What it says, without the codes.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The first code it reports (`None` when no rule does).
    pub fn code(&self) -> Option<&'static str> {
        self.codes.first().copied()
    }

    /// Every code it reports (a missing `TEXTURE_SCALE` and
    /// `TEXTURE_WIDTH` are one warning with two).
    pub fn codes(&self) -> &'static [&'static str] {
        self.codes
    }
}

impl From<String> for Warning {
    fn from(message: String) -> Warning {
        Warning::new(message)
    }
}

impl From<&str> for Warning {
    fn from(message: &str) -> Warning {
        Warning::new(message)
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if !self.codes.is_empty() {
            write!(f, " [{}]", self.codes.join(", "))?;
        }
        Ok(())
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl PartialEq<str> for Warning {
    /// True when the warning's text (its `Display`) is `other`.
    fn eq(&self, other: &str) -> bool {
        let Some(rest) = other.strip_prefix(self.message.as_str()) else {
            return false;
        };
        if self.codes.is_empty() {
            return rest.is_empty();
        }
        rest.strip_prefix(" [")
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|list| list.split(", ").eq(self.codes.iter().copied()))
    }
}

impl PartialEq<&str> for Warning {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// What a run placed, counted: uses and the items of their placements.
///
/// ```
/// let mut t = agkit::place::Tally::default();
/// t.add(&agkit::place::Placement::default());
/// assert_eq!(t.to_string(), "1 use, 0 tiles, 0 objects, 0 facades, 0 trees");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Autogen uses placed.
    pub uses: usize,
    /// Placements of a whole DSF tile's other content, one per definition
    /// (its objects, facades, forests, draped polygons, lines, strings).
    pub definitions: usize,
    /// Tiles placed.
    pub tiles: usize,
    /// Objects placed.
    pub objects: usize,
    /// Facades placed.
    pub facades: usize,
    /// Trees placed.
    pub trees: usize,
    /// Draped polygons placed (DSF `.pol`).
    pub draped: usize,
    /// Lines placed (DSF `.lin`, `.str`).
    pub lines: usize,
}

impl Tally {
    /// Counts one placement (nothing for a use not placed).
    pub fn add(&mut self, p: &Placement) {
        if p.is_unplaced() {
            return;
        }
        if p.is_autogen_use() {
            self.uses += 1;
        } else {
            self.definitions += 1;
        }
        self.tiles += p.tiles.len();
        self.objects += p.objects.len();
        self.facades += p.facades.len();
        self.trees += p.trees.len();
        self.draped += p.draped.len();
        self.lines += p.lines.len();
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Tally) {
        self.uses += other.uses;
        self.definitions += other.definitions;
        self.tiles += other.tiles;
        self.objects += other.objects;
        self.facades += other.facades;
        self.trees += other.trees;
        self.draped += other.draped;
        self.lines += other.lines;
    }

    /// The tally of `placements`.
    pub fn of(placements: &[Placement]) -> Tally {
        let mut t = Tally::default();
        for p in placements {
            t.add(p);
        }
        t
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::ground::words::count;
        match (self.uses, self.definitions) {
            (u, 0) => write!(f, "{}, ", count(u, "use"))?,
            (0, d) => write!(f, "{}, ", count(d, "definition"))?,
            (u, d) => write!(
                f,
                "{} and {}, ",
                count(u, "autogen use"),
                count(d, "other definition")
            )?,
        }
        write!(
            f,
            "{}, {}, {}, {}",
            count(self.tiles, "tile"),
            count(self.objects, "object"),
            count(self.facades, "facade"),
            count(self.trees, "tree")
        )?;
        // Only a whole DSF tile places these: autogen tallies read as
        // before.
        if self.draped > 0 {
            write!(f, ", {}", count(self.draped, "draped polygon"))?;
        }
        if self.lines > 0 {
            write!(f, ", {}", count(self.lines, "line"))?;
        }
        Ok(())
    }
}

/// A tile id as the JSON shows it: a number (AGP index, AGS TILE_ID) or the
/// `"col,row"` of an AGB grid tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TileId {
    /// A numeric id.
    Num(i64),
    /// Column and row in the AGB grid (texture order).
    Grid(usize, usize),
}

impl Serialize for TileId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TileId::Num(n) => s.serialize_i64(*n),
            TileId::Grid(c, r) => s.serialize_str(&format!("{c},{r}")),
        }
    }
}

impl std::fmt::Display for TileId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TileId::Num(n) => write!(f, "{n}"),
            TileId::Grid(c, r) => write!(f, "{c},{r}"),
        }
    }
}

/// Why a tile was placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The tile of an AGP.
    Point,
    /// A tile of an AGB grid.
    Grid,
    /// An AGS corner tile.
    Corner,
    /// An AGS edge (spelling) tile.
    Edge,
    /// An AGS cap.
    Cap,
}

/// A placed tile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacedTile {
    /// TILE_ID, AGP tile index or AGB `col,row`.
    pub id: TileId,
    /// Outline in local metres (counter-clockwise; cropped where cropping
    /// applies).
    pub polygon: Vec<Xy>,
    /// The outline in lon/lat.
    pub lonlat: Vec<LonLat>,
    /// Texture coordinates in pixels, one per polygon vertex.
    pub uv: Vec<[f64; 2]>,
    /// Draw order: the first placed is 0 and lowest.
    pub order: usize,
    /// True when the ground tile is not drawn (HIDE_TILES / HIDE_TILE).
    pub hidden: bool,
    /// Why it was placed.
    pub role: Role,
    /// Tiles placed by one spelling, corner or cap share a unit number.
    pub unit: usize,
    /// Line of the directive that placed it.
    pub source_line: usize,
    /// Stop points in local metres.
    pub stop_points: Vec<Xy>,
    /// The ground point graded objects of this tile use, in local metres.
    pub ground_point: Option<Xy>,
    /// The ground under each outline point, metres MSL (the tile is
    /// draped: [`super::ground`]); absent until the tile is set on the
    /// ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<Vec<f64>>,
}

impl PlacedTile {
    /// The texture coordinates (s, t: 0 … 1 from the texture's bottom
    /// left) of outline point `k`: its `uv` in `TEXTURE_SCALE` pixels over
    /// `scale` (`[0, 0]` for a point without one).
    pub fn st(&self, k: usize, scale: [f64; 2]) -> [f64; 2] {
        let [u, v] = self.uv.get(k).copied().unwrap_or([0.0, 0.0]);
        [u / scale[0], v / scale[1]]
    }
}

/// A placed object.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PlacedObject {
    /// Index into [`Placement::tiles`].
    pub tile: usize,
    /// OBJ path.
    pub asset: String,
    /// Index in the asset's OBJECT list.
    pub index: i64,
    /// `draped`, `graded`, `scraper` or `delta`.
    pub mode: String,
    /// Position, metres east.
    pub x: f64,
    /// Position, metres north.
    pub y: f64,
    /// Longitude.
    pub lon: f64,
    /// Latitude.
    pub lat: f64,
    /// Heading, degrees clockwise from true north, 0..360.
    pub heading: f64,
    /// Vertical offset in metres above the ground point (delta, or the
    /// scraper raise for the block height), else 0.
    pub height: f64,
    /// Show levels `[lo, hi]` (default `[1, 1]`... i.e. always).
    pub show: Option<[i64; 2]>,
    /// Source line of the annotation.
    pub source_line: usize,
    /// Whether its OBJ was found and read (absent when art was not looked
    /// up, see [`super::art`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<super::art::ArtState>,
    /// Its footprint from the OBJ, turned by the heading and moved to the
    /// position: a ring in local metres, not closed (absent without art or
    /// when the OBJ has no solid triangles).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footprint: Vec<Xy>,
    /// The footprint in lon/lat.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footprint_lonlat: Vec<LonLat>,
    /// How tall the object stands above its base, metres (the OBJ's
    /// highest solid LOD-0 vertex); `height` stays the vertical offset of
    /// the base.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object_height: Option<f64>,
    /// An object a DSF places (`OBJECT`, `OBJECT_MSL`): the DSF's
    /// elevation, metres above mean sea level (mode `msl`) or above the
    /// ground (mode `agl`); absent on the ground (mode `draped`) and for
    /// autogen objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevation: Option<f64>,
    /// The index of the DSF entity that placed it (a whole tile,
    /// [`crate::place::whole`]); absent for autogen items.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<usize>,
    /// Where its reference point stands, metres MSL, by the rule of its
    /// mode ([`super::ground`]); absent until it is set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// The package whose exclusion (or base mesh) removes it from what
    /// X-Plane draws ([`super::exclusions`]); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

/// A placed facade.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PlacedFacade {
    /// Index into [`Placement::tiles`].
    pub tile: usize,
    /// FAC path.
    pub asset: String,
    /// Height in metres.
    pub height: f64,
    /// Footprint in local metres (as listed, clockwise on the texture).
    pub polygon: Vec<Xy>,
    /// Footprint in lon/lat.
    pub lonlat: Vec<LonLat>,
    /// Wall types per point (FAC_WALLS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walls: Option<Vec<i64>>,
    /// Source line.
    pub source_line: usize,
    /// Whether its `.fac` was found and read (absent when art was not
    /// looked up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<super::art::ArtState>,
    /// The height the facade draws, metres: type 2, the last `ROOF_HEIGHT`
    /// of the floor closest to `height`; type 1, the whole floors X-Plane
    /// stacks for `height` (`fac::floors`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_height: Option<f64>,
    /// Type 1: the floors stacked for `height`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floors: Option<u64>,
    /// Type 1: the panels across each side, in side order (total, and
    /// how many from the left end, repeated centre panels, from the right
    /// end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub panels: Option<Vec<crate::fac::layout::PanelCount>>,
    /// Type 2: the segments of each side, left to right, in side order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<Vec<Vec<usize>>>,
    /// The type-2 floor drawn (its `FLOOR` name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<String>,
    /// The wall each side draws, in side order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_choice: Option<Vec<WallChoice>>,
    /// Whether it draws a roof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roof: Option<bool>,
    /// The wall texture, as the `.fac` names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_texture: Option<String>,
    /// The roof texture, as the `.fac` names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roof_texture: Option<String>,
    /// The index of the DSF entity that placed it (a whole tile); absent
    /// for autogen facades.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<usize>,
    /// The base its height and roof are measured from, metres MSL: the
    /// highest ground under its points ([`super::ground`]); absent until
    /// it is set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// The ground under each point, metres MSL: where each wall's foot
    /// stands (walls are carried down to the ground).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground: Option<Vec<f64>>,
    /// Every choice its `.fac` made on its footprint, computed once when
    /// placement read the art: the fields above are read from it, and the
    /// 3-D scene builds the facade's mesh from it. `None` without art. Not
    /// part of the JSON.
    #[serde(skip)]
    pub layout: Option<std::sync::Arc<crate::fac::layout::Layout>>,
    /// The package whose exclusion (or base mesh) removes it from what
    /// X-Plane draws ([`super::exclusions`]); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

pub use crate::fac::layout::WallChoice;

/// A placed tree.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PlacedTree {
    /// Index into [`Placement::tiles`], `None` for fill trees.
    pub tile: Option<usize>,
    /// Metres east.
    pub x: f64,
    /// Metres north.
    pub y: f64,
    /// Longitude.
    pub lon: f64,
    /// Latitude.
    pub lat: f64,
    /// Width in metres.
    pub width: f64,
    /// Forest layer.
    pub layer: i64,
    /// Heading in degrees clockwise from north.
    pub heading: f64,
    /// Source line (0 for fill trees).
    pub source_line: usize,
    /// Whether the `VEGETATION` forest was found and read (absent when art
    /// was not looked up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<super::art::ArtState>,
    /// Height in metres, from the forest's tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// The forest entry drawn: its index in the forest's tree table (file
    /// order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forest_tree: Option<usize>,
    /// That entry's name, when the forest gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree_name: Option<String>,
    /// The index of the DSF forest entity that placed it (a whole tile);
    /// absent for autogen trees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<usize>,
    /// The ground at its own point, metres MSL ([`super::ground`]);
    /// absent until it is set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<f64>,
    /// The package whose exclusion (or base mesh) removes it from what
    /// X-Plane draws ([`super::exclusions`]); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

/// A draped polygon a DSF places (`.pol`): its rings and how its texture
/// is mapped.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PlacedDraped {
    /// The `.pol` path, as the DSF names it.
    pub asset: String,
    /// The DSF entity.
    pub entity: usize,
    /// Outer ring then holes, local metres, not closed (as the DSF winds
    /// them).
    pub rings: Vec<Vec<Xy>>,
    /// The rings in lon/lat.
    pub lonlat: Vec<Vec<LonLat>>,
    /// Texture coordinates from the DSF's UV planes, one per ring point
    /// (when the polygon carries them: X-Plane then ignores `SCALE`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uv: Option<Vec<Vec<[f64; 2]>>>,
    /// The texture's heading, degrees clockwise (the DSF parameter of a
    /// polygon without UV planes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading: Option<f64>,
    /// Whether its `.pol` was found and read (absent when art was not
    /// looked up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<super::art::ArtState>,
    /// The `.pol`'s `TEXTURE`, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub texture: Option<String>,
    /// The `.pol`'s `SCALE`: metres one repeat of the texture covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<[f64; 2]>,
    /// The ground under each ring point, metres MSL (draped at its
    /// points: [`super::ground`]); absent until it is set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<Vec<Vec<f64>>>,
    /// The package whose exclusion (or base mesh) removes it from what
    /// X-Plane draws ([`super::exclusions`]); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

/// A line a DSF places: a painted line (`.lin`) or the line of an object
/// string (`.str`, whose objects are the placement's objects).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PlacedLine {
    /// The `.lin` or `.str` path, as the DSF names it.
    pub asset: String,
    /// The DSF entity.
    pub entity: usize,
    /// The winding of the entity it is.
    pub winding: usize,
    /// Its points, local metres (closed lines repeat no point: see
    /// `closed`).
    pub points: Vec<Xy>,
    /// The points in lon/lat.
    pub lonlat: Vec<LonLat>,
    /// Whether it closes on itself (a `.lin` with parameter 1).
    pub closed: bool,
    /// The width it draws, metres (from the `.lin`, when read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Object strings: metres between objects (the DSF parameter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spacing: Option<f64>,
    /// Whether its `.lin`/`.str` was found and read (absent when art was
    /// not looked up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub art: Option<super::art::ArtState>,
    /// The `.lin`'s `TEXTURE`, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub texture: Option<String>,
    /// The ground under each point, metres MSL (draped at its points:
    /// [`super::ground`]); absent until it is set on the ground.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z: Option<Vec<f64>>,
    /// The package whose exclusion (or base mesh) removes it from what
    /// X-Plane draws ([`super::exclusions`]); absent when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed_by: Option<super::exclusions::RemovedBy>,
}

/// A vertex treated as a corner (AGS).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlacedCorner {
    /// Metres east.
    pub x: f64,
    /// Metres north.
    pub y: f64,
    /// Turn in degrees walking the outside, right turns positive.
    pub turn: f64,
}

impl Placement {
    /// True when this is an autogen use (an AGP, AGB or AGS); false for
    /// the placements of a whole DSF tile's other content (kinds `obj`,
    /// `fac`, `for`, `pol`, `lin`, `str`: one per definition).
    pub fn is_autogen_use(&self) -> bool {
        self.kind.is_autogen()
    }

    /// True for a use that was not placed ([`Placement::unplaced`]).
    pub fn is_unplaced(&self) -> bool {
        self.unplaced.is_some()
    }

    /// The items placed: tiles, objects, facades, trees, draped polygons
    /// and lines (what
    /// [`Limits::max_placed_items`](crate::limits::Limits::max_placed_items)
    /// counts).
    pub fn items(&self) -> usize {
        self.tiles.len()
            + self.objects.len()
            + self.facades.len()
            + self.trees.len()
            + self.draped.len()
            + self.lines.len()
    }

    /// Why nothing was placed, in one line, when nothing was: the warning
    /// that says so (the last one saying `nothing placed`, else the first
    /// warning), or that no warning explains it. `None` when something was
    /// placed.
    pub fn why_empty(&self) -> Option<String> {
        if self.items() > 0 {
            return None;
        }
        if let Some(why) = &self.unplaced {
            return Some(format!("{}: {why}", self.asset));
        }
        let why = self
            .warnings
            .iter()
            .rev()
            .find(|w| w.message().contains("nothing placed"))
            .or(self.warnings.first());
        Some(match why {
            Some(w) => w
                .to_string()
                .trim_end_matches("; nothing placed")
                .to_string(),
            None => "the engine found room for no tile, and no rule of the asset says why".into(),
        })
    }

    /// Records how the input was taken (`notes`, see [`Placement::notes`]),
    /// and, when `explain`, as the first explanation lines too.
    pub fn note(&mut self, notes: &[String], explain: bool) {
        self.notes.extend_from_slice(notes);
        if explain {
            self.explain.splice(0..0, notes.iter().cloned());
        }
    }

    /// Fills every lon/lat field from the local coordinates in `frame`.
    pub fn georeference(&mut self, frame: &LocalFrame) {
        self.origin = frame.origin();
        for t in &mut self.tiles {
            t.lonlat = t.polygon.iter().map(|&p| frame.to_lonlat(p)).collect();
        }
        for o in &mut self.objects {
            [o.lon, o.lat] = frame.to_lonlat([o.x, o.y]);
            o.footprint_lonlat = o.footprint.iter().map(|&p| frame.to_lonlat(p)).collect();
        }
        for f in &mut self.facades {
            f.lonlat = f.polygon.iter().map(|&p| frame.to_lonlat(p)).collect();
        }
        for t in &mut self.trees {
            [t.lon, t.lat] = frame.to_lonlat([t.x, t.y]);
        }
        for d in &mut self.draped {
            d.lonlat = d
                .rings
                .iter()
                .map(|r| r.iter().map(|&p| frame.to_lonlat(p)).collect())
                .collect();
        }
        for l in &mut self.lines {
            l.lonlat = l.points.iter().map(|&p| frame.to_lonlat(p)).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::art::ArtState;

    #[test]
    fn every_kind_round_trips_through_json_display_and_from_str() {
        let names = [
            "agp", "agb", "ags", "obj", "fac", "for", "pol", "lin", "str",
        ];
        assert_eq!(PlacementKind::ALL.len(), names.len());
        for (k, name) in PlacementKind::ALL.into_iter().zip(names) {
            assert_eq!(k.as_str(), name);
            assert_eq!(k.to_string(), name);
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{name}\""));
            assert_eq!(name.parse::<PlacementKind>(), Ok(k));
            // The rule the string kinds followed: autogen unless one of a
            // whole tile's definition kinds.
            let was_autogen = !matches!(name, "obj" | "fac" | "for" | "pol" | "lin" | "str");
            assert_eq!(k.is_autogen(), was_autogen, "{name}");
            assert_eq!(
                k.autogen().map(|a| a.extension()),
                was_autogen.then_some(name)
            );
            if let Some(a) = k.autogen() {
                assert_eq!(PlacementKind::from(a), k);
            }
            let p = Placement {
                kind: k,
                ..Placement::default()
            };
            assert_eq!(p.is_autogen_use(), was_autogen);
            let json = serde_json::to_value(&p).unwrap();
            assert_eq!(json["kind"], name);
        }
        for bad in ["", "AGP", "net", "bch", "terrain", " agp"] {
            let e = bad.parse::<PlacementKind>().unwrap_err();
            assert_eq!(e.name, bad);
            assert!(e.to_string().contains("placement kind"), "{e}");
        }
    }

    #[test]
    fn dsf_autogen_kinds_map_to_their_placement_kinds() {
        use crate::dsf::autogen::AutogenKind;
        for (a, k) in [
            (AutogenKind::Agp, PlacementKind::Agp),
            (AutogenKind::Agb, PlacementKind::Agb),
            (AutogenKind::Ags, PlacementKind::Ags),
        ] {
            assert_eq!(PlacementKind::from(a), k);
            assert_eq!(a.as_str(), k.as_str());
        }
    }

    #[test]
    fn a_warning_says_what_the_pasted_code_said_and_keeps_the_code() {
        for state in [ArtState::Missing, ArtState::Unchecked, ArtState::Invalid] {
            // The text as it was built before warnings had a type.
            let old = format!(
                "shed.obj: {} (beside the asset); 2 objects placed as points [{}]",
                state.describe(),
                state.code().unwrap_or_default()
            );
            let w = Warning::coded(
                format!(
                    "shed.obj: {} (beside the asset); 2 objects placed as points",
                    state.describe()
                ),
                state.codes(),
            );
            assert_eq!(w.to_string(), old);
            assert_eq!(serde_json::to_value(&w).unwrap(), old.as_str());
            assert_eq!(w.code(), state.code());
            assert_eq!(w.codes(), [state.code().unwrap()]);
            assert!(!w.message().contains('['), "{w}");
            assert_eq!(w, *old.as_str());
            assert_ne!(w, *w.message());
        }
        assert!(ArtState::Found.codes().is_empty() && ArtState::Found.code().is_none());
        let plain = Warning::from("tile 0 dropped".to_string());
        assert_eq!(
            (plain.to_string(), plain.code()),
            ("tile 0 dropped".into(), None)
        );
        assert_eq!(plain, "tile 0 dropped");
        let two = Warning::coded("no TEXTURE_SCALE or TEXTURE_WIDTH", &["AG0013", "AG0014"]);
        assert_eq!(
            two.to_string(),
            "no TEXTURE_SCALE or TEXTURE_WIDTH [AG0013, AG0014]"
        );
        assert_eq!(two.code(), Some("AG0013"));
        // Equal to a text exactly when the text is what it says.
        let msg = "no TEXTURE_SCALE or TEXTURE_WIDTH";
        assert_eq!(two, format!("{msg} [AG0013, AG0014]").as_str());
        for other in [
            msg.to_string(),
            format!("{msg} [AG0013]"),
            format!("{msg} [AG0014, AG0013]"),
            format!("{msg} [AG0013, AG0014] "),
            format!("{msg}  [AG0013, AG0014]"),
        ] {
            assert_ne!(two, other.as_str());
        }
        assert_ne!(plain, "tile 0 dropped []");
    }

    #[test]
    fn a_placements_json_holds_each_warning_as_its_text() {
        let p = Placement {
            kind: PlacementKind::Fac,
            warnings: vec![
                Warning::coded("fence.fac: not found (nowhere)", &["AG0085"]),
                Warning::new("entity 3: drawn from its outer ring"),
            ],
            ..Placement::default()
        };
        let json = serde_json::to_value(&p).unwrap();
        assert_eq!(json["kind"], "fac");
        assert_eq!(
            json["warnings"],
            serde_json::json!([
                "fence.fac: not found (nowhere) [AG0085]",
                "entity 3: drawn from its outer ring"
            ])
        );
        // Why nothing was placed: the first warning, as said.
        assert_eq!(
            p.why_empty().as_deref(),
            Some("fence.fac: not found (nowhere) [AG0085]")
        );
    }
}
