//! X-Plane DSF scenery tiles (binary, 7z-wrapped) and their DSF2Text form.
//!
//! The layout follows gimli-rs/object: this module holds the plain types,
//! [`read`](fn@read) decodes binary DSF (plain or 7z) with one bounds-checked cursor,
//! [`write`](mod@write) builds binary DSF (pools, command stream, MD5 footer), [`text`]
//! reads and writes the DSFTool text form, [`edit`] edits a tile binary to
//! binary (overlay extraction, rasters, filters, merges, properties),
//! [`pack`] writes the 7z form, and [`autogen`] lists the AGP, AGB and AGS
//! placements of a tile.
//!
//! The model keeps the definitions, the decoded point pools and the command
//! stream decoded into [`Entity`] values in stream order (objects, polygons
//! with windings, terrain patches with primitives, network chains and filter
//! changes). Coordinates are stored per point as the pool's planes, in plane
//! order (lon, lat, … see the DSF notes §2.5).

pub mod autogen;
pub mod cmd;
pub(crate) mod cursor;
pub mod edit;
pub mod features;
pub mod fixed;
pub mod flat;
pub mod lint;
pub mod pack;
pub(crate) mod planar;
pub(crate) mod quant;
pub mod read;
pub mod rules;
pub(crate) mod strip;
pub mod text;
pub(crate) mod tile;
pub mod write;

pub use autogen::autogen_uses;
pub use cmd::Command;
pub use edit::{EditError, EditErrorKind};
pub use pack::pack_7z;
pub use read::{Decoded, DsfError, ErrorKind, Event, decode_head, read, read_plain, read_with};
pub use text::{TextError, TextOptions, from_text, to_text};
pub use tile::Tile;
pub use write::{BuildError, BuildOptions, build, write_raw};

use crate::diag::{Diagnostic, Location, Severity};

/// A decoded DSF tile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dsf {
    /// `PROP` name/value pairs in file order.
    pub properties: Vec<(String, String)>,
    /// `TERT`: terrain definitions.
    pub terrain_defs: Vec<String>,
    /// `OBJT`: object definitions (`.obj`, `.agp`).
    pub object_defs: Vec<String>,
    /// `POLY`: polygon definitions (`.fac .for .pol .agb .ags` …).
    pub polygon_defs: Vec<String>,
    /// `NETW`: network definitions.
    pub network_defs: Vec<String>,
    /// `DEMN`: raster layer names.
    pub raster_defs: Vec<String>,
    /// 16-bit point pools (`POOL` + `SCAL`), in file order. Empty for a
    /// model read from text.
    pub pools: Vec<Pool>,
    /// 32-bit point pools (`PO32` + `SC32`), in file order.
    pub pools32: Vec<Pool>,
    /// The command stream, decoded, in stream order.
    pub entities: Vec<Entity>,
    /// Byte offset of the command that produced each entity (parallel to
    /// `entities`; empty for a model read from text).
    pub entity_offsets: Vec<u64>,
    /// The 16-bit pools whose elevation plane DSFTool's dsf2text reads to
    /// suggest `HEIGHTS` (pools of patches for a base mesh, of objects for
    /// an overlay; see [`read::Decoded`]). Empty for a model read from
    /// text.
    pub elevation_pools: Vec<u16>,
    /// Rasters (`DEMI`/`DEMD` pairs), named by `DEMN`.
    pub rasters: Vec<Raster>,
    /// Atoms the reader does not know, kept as they are.
    pub unknown_atoms: Vec<UnknownAtom>,
    /// Result of the MD5 footer check.
    pub md5: Md5Status,
    /// True if the bytes were a 7z archive holding the DSF.
    pub compressed: bool,
}

impl Dsf {
    /// An empty overlay of the 1° tile whose south-west corner is (`west`,
    /// `south`): the properties X-Plane requires of every tile
    /// (`sim/west`, `sim/south`, `sim/east`, `sim/north`, in that order)
    /// and `sim/overlay 1`, and nothing else yet.
    ///
    /// ```
    /// let d = agkit::dsf::Dsf::overlay(13, 47);
    /// assert_eq!(d.property("sim/east"), Some("14"));
    /// assert_eq!(d.property("sim/overlay"), Some("1"));
    /// ```
    pub fn overlay(west: i32, south: i32) -> Dsf {
        let bound = |name: &str, v: i32| (name.to_string(), v.to_string());
        Dsf {
            properties: vec![
                bound("sim/west", west),
                bound("sim/south", south),
                bound("sim/east", west.saturating_add(1)),
                bound("sim/north", south.saturating_add(1)),
                ("sim/overlay".into(), "1".into()),
            ],
            ..Dsf::default()
        }
    }

    /// True when the tile is an overlay: a `sim/overlay` property whose
    /// value reads as 1 with C's `atoi`, as DSFTool's text writer reads it
    /// (xptools `src/DSFTools/DSF2Text.cpp`; X-Plane's own reading is not
    /// published). A tile that is not an overlay is a base mesh, which
    /// hides every lower-priority package's DSF of its tile. The one
    /// reading of the property in agkit: the resolver, the checker and the
    /// text writer all ask here (they read it three ways before).
    pub fn is_overlay(&self) -> bool {
        self.properties
            .iter()
            .any(|(n, v)| n == "sim/overlay" && cursor::c_atoi(v) == 1)
    }

    /// The value of the first property called `name`.
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The objects in stream order.
    pub fn objects(&self) -> impl Iterator<Item = &Object> {
        self.entities.iter().filter_map(|e| match e {
            Entity::Object(o) => Some(o),
            _ => None,
        })
    }

    /// The polygons in stream order.
    pub fn polygons(&self) -> impl Iterator<Item = &Polygon> {
        self.entities.iter().filter_map(|e| match e {
            Entity::Polygon(p) => Some(p),
            _ => None,
        })
    }

    /// The terrain patches in stream order.
    pub fn patches(&self) -> impl Iterator<Item = &Patch> {
        self.entities.iter().filter_map(|e| match e {
            Entity::Patch(p) => Some(p),
            _ => None,
        })
    }

    /// The network chains in stream order.
    pub fn chains(&self) -> impl Iterator<Item = &NetworkChain> {
        self.entities.iter().filter_map(|e| match e {
            Entity::Network(c) => Some(c),
            _ => None,
        })
    }
}

/// How the MD5 footer compared with the file's bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Md5Status {
    /// Not checked (a model built from text).
    #[default]
    NotChecked,
    /// The footer matches the digest of the bytes before it.
    Valid,
    /// The footer differs from the digest of the bytes before it.
    Mismatch {
        /// Byte offset of the footer.
        offset: u64,
        /// The 16 bytes stored in the file.
        stored: [u8; 16],
        /// The digest computed over the bytes before the footer.
        computed: [u8; 16],
    },
}

/// A point pool: `count` points of `planes.len()` coordinates each.
#[derive(Debug, Clone, PartialEq)]
pub struct Pool {
    /// Byte offset of the pool atom in the (uncompressed) file.
    pub offset: u64,
    /// Number of points.
    pub count: usize,
    /// The planes (coordinate dimensions), in order.
    pub planes: Vec<Plane>,
}

impl Pool {
    /// Number of planes (the coordinate depth of every point).
    pub fn depth(&self) -> usize {
        self.planes.len()
    }

    /// Decoded value of plane `plane` of point `index` (both must be in range).
    pub fn value(&self, index: usize, plane: usize) -> f64 {
        self.planes[plane].value(index)
    }

    /// All planes of point `index`, decoded, appended to `out`.
    pub fn point_into(&self, index: usize, out: &mut Vec<f64>) {
        out.extend(self.planes.iter().map(|p| p.value(index)));
    }
}

/// One plane of a pool: raw fixed-point values and their scale/offset.
#[derive(Debug, Clone, PartialEq)]
pub struct Plane {
    /// Encoding used in the file (0 raw, 1 differenced, 2 RLE, 3 RLE +
    /// differenced).
    pub encoding: u8,
    /// Range covered by the plane (0 = raw integers, offset ignored).
    pub scale: f32,
    /// Lowest value of the plane.
    pub offset: f32,
    /// 16- or 32-bit raw values (16-bit values are widened).
    pub raw: Vec<u32>,
    /// True for a 32-bit pool's plane.
    pub wide: bool,
}

impl Plane {
    /// Decodes raw value `index` (`raw * scale / 65535 + offset`, or the raw
    /// value when the scale is 0).
    pub fn value(&self, index: usize) -> f64 {
        decode(self.raw[index], self.scale, self.offset, self.wide)
    }
}

/// Decodes one fixed-point value.
pub fn decode(raw: u32, scale: f32, offset: f32, wide: bool) -> f64 {
    if scale == 0.0 {
        return f64::from(raw);
    }
    let max = if wide { 4_294_967_295.0 } else { 65535.0 };
    f64::from(raw) * f64::from(scale) / max + f64::from(offset)
}

/// One decoded thing from the command stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Entity {
    /// A filter comment (type 1): everything after it belongs to the k-th
    /// `sim/filter/aptid`; -1 = no filter.
    Filter(i32),
    /// An object or AGP placement.
    Object(Object),
    /// A polygon (facade, forest, AGB, AGS, …).
    Polygon(Polygon),
    /// A terrain patch.
    Patch(Patch),
    /// A network chain.
    Network(NetworkChain),
}

/// How an object's height is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElevationMode {
    /// On the ground (3-plane pool).
    Draped,
    /// Elevation in metres above mean sea level (4-plane pool).
    Msl,
    /// Elevation in metres above ground (4-plane pool after an AGL comment).
    Agl,
}

/// One object placement.
#[derive(Debug, Clone, PartialEq)]
pub struct Object {
    /// Index into [`Dsf::object_defs`].
    pub def: u32,
    /// Longitude, degrees.
    pub lon: f64,
    /// Latitude, degrees.
    pub lat: f64,
    /// Heading, degrees clockwise from true north.
    pub heading: f64,
    /// Elevation in metres (MSL or AGL), `None` when draped.
    pub elevation: Option<f64>,
    /// How the elevation is meant.
    pub mode: ElevationMode,
}

/// One polygon with its windings.
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// Index into [`Dsf::polygon_defs`].
    pub def: u32,
    /// The 16-bit parameter (meaning depends on the polygon type).
    pub param: u16,
    /// Coordinates per point (the pool's plane count; 2 = lon, lat).
    pub depth: usize,
    /// Windings in order; each is a flat list of `depth` values per point.
    pub windings: Vec<Vec<f64>>,
}

impl Polygon {
    /// The points of winding `k`, each `depth` values long.
    pub fn points(&self, k: usize) -> std::slice::ChunksExact<'_, f64> {
        self.windings[k].chunks_exact(self.depth.max(1))
    }
}

/// The kind of a terrain primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// Independent triangles (every 3 vertices).
    Triangles,
    /// A triangle strip.
    Strip,
    /// A triangle fan.
    Fan,
}

impl PrimitiveKind {
    /// The DSF2Text number (0 triangles, 1 strip, 2 fan).
    pub fn code(self) -> u8 {
        match self {
            PrimitiveKind::Triangles => 0,
            PrimitiveKind::Strip => 1,
            PrimitiveKind::Fan => 2,
        }
    }

    /// The kind for a DSF2Text number.
    pub fn from_code(c: i64) -> Option<Self> {
        match c {
            0 => Some(PrimitiveKind::Triangles),
            1 => Some(PrimitiveKind::Strip),
            2 => Some(PrimitiveKind::Fan),
            _ => None,
        }
    }
}

/// One terrain primitive.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// Triangles, strip or fan.
    pub kind: PrimitiveKind,
    /// Flat list of vertices, `depth` values each (the patch's depth).
    pub vertices: Vec<f64>,
}

/// One terrain patch.
#[derive(Debug, Clone, PartialEq)]
pub struct Patch {
    /// Index into [`Dsf::terrain_defs`].
    pub def: u32,
    /// Flags: 1 = physical, 2 = overlay.
    pub flags: u8,
    /// Near LOD distance, metres.
    pub lod_near: f32,
    /// Far LOD distance, metres (-1 = always).
    pub lod_far: f32,
    /// Coordinates per vertex (≥ 5: lon, lat, elevation, normal x, normal z, …).
    pub depth: usize,
    /// Primitives in order.
    pub primitives: Vec<Primitive>,
}

/// One network chain: points of a 32-bit pool; plane 3 is the junction ID
/// (0 = shape point).
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkChain {
    /// Index into [`Dsf::network_defs`].
    pub def: u32,
    /// Road subtype.
    pub subtype: u32,
    /// Coordinates per point (4 = lon, lat, elevation, junction; 7 = curved).
    pub depth: usize,
    /// Flat list of points, `depth` values each.
    pub points: Vec<f64>,
}

impl NetworkChain {
    /// The points, each `depth` values long.
    pub fn points(&self) -> std::slice::ChunksExact<'_, f64> {
        self.points.chunks_exact(self.depth.max(1))
    }
}

/// One raster layer (`DEMI` header + `DEMD` samples).
#[derive(Debug, Clone, PartialEq)]
pub struct Raster {
    /// Layer name from `DEMN` (empty if missing).
    pub name: String,
    /// Header version (1).
    pub version: u8,
    /// Bytes per sample.
    pub bpp: u8,
    /// Flags: bits 0–1 sample format, bit 2 post-centred.
    pub flags: u16,
    /// Samples per row.
    pub width: u32,
    /// Rows (the first row is the southern edge).
    pub height: u32,
    /// Value = sample * scale + offset.
    pub scale: f32,
    /// See `scale`.
    pub offset: f32,
    /// `width * height * bpp` raw little-endian bytes.
    pub data: Vec<u8>,
}

/// An atom the reader does not interpret.
#[derive(Debug, Clone, PartialEq)]
pub struct UnknownAtom {
    /// Four-character ID as a big-endian u32 (`u32::from_be_bytes(*b"HEAD")`).
    pub id: u32,
    /// ID of the parent atom, or `None` at the top level.
    pub parent: Option<u32>,
    /// Byte offset of the atom header.
    pub offset: u64,
    /// The payload.
    pub data: Vec<u8>,
}

/// The four-character text of an atom ID.
pub fn atom_name(id: u32) -> String {
    id.to_be_bytes()
        .iter()
        .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
        .collect()
}

/// Reads a DSF file's bytes (plain or 7z) and reports problems with byte
/// offsets: read errors (`DSF001`…`DSF019`, severity error), an MD5
/// footer mismatch (`DSF020`, warning) and the content warnings of
/// [`lint::lint`] (`DSF021`…).
///
/// The file is checked in its flat form ([`flat`]): no entity is built,
/// and a file of a MiB or more has its MD5 computed on a second thread
/// while it is decoded.
pub fn check_bytes(bytes: &[u8]) -> Vec<Diagnostic> {
    let mut lint = lint::Lint::default();
    let mut each = |head: &Dsf, view: &flat::View<'_>, item: &flat::Item| {
        lint.item(head, view, item);
        true
    };
    let decoded = read::decode_with(bytes, &crate::limits::Limits::default(), Some(&mut each));
    match decoded {
        Ok(decoded) => {
            let dsf = &decoded.head;
            let mut out = lint.finish(dsf);
            if let Md5Status::Mismatch {
                offset,
                stored,
                computed,
            } = dsf.md5
            {
                out.insert(
                    0,
                    Diagnostic::new(
                        Severity::Warning,
                        rules::codes::MD5_MISMATCH,
                        format!(
                            "MD5 footer {} does not match the digest {} of the bytes before it{}",
                            hex(&stored),
                            hex(&computed),
                            if dsf.compressed {
                                " (offset in the DSF inside the 7z archive)"
                            } else {
                                ""
                            }
                        ),
                        Location::Offset(offset),
                    ),
                );
            }
            out
        }
        Err(e) => vec![e.to_diagnostic()],
    }
}

/// Lower-case hex of some bytes.
pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
