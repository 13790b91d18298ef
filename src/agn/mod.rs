//! FSX/P3D AGN autogen files (RIFF `AGNX`).
//!
//! The layout follows gimli-rs/object: this module holds the plain record
//! types (no I/O), [`read`](fn@read) parses bytes into an [`Agn`] with one
//! bounds-checked cursor (every failure carries the byte offset), [`write`](fn@write)
//! turns an [`Agn`] back into bytes, [`cell`] maps LOD13 file names to
//! latitude/longitude, and [`json`], [`geojson`] and [`text`] are the views
//! `agkit agn dump` prints and `agkit agn build` reads.
//!
//! The model is lossless: reading a file and writing it back reproduces it
//! byte for byte (chunk order, unknown chunks and texture-name padding are
//! kept). See `docs/agn.md` for the format decisions.

use serde::{Deserialize, Serialize};
use std::fmt;

pub mod cell;
mod check;
pub mod geojson;
pub mod json;
pub mod read;
pub mod rules;
pub mod text;
pub mod write;

pub use cell::Cell;
pub use check::check_model;
pub use read::{ReadOptions, read, read_with};
pub use write::{write, write_with};

use crate::diag::Diagnostic;

/// The version number FSX writes into `VERS`.
pub const DEFAULT_VERSION: i32 = 1_091_777_331;

/// An AGN file: the chunks inside the main `RIFF`/`AGNX` chunk, in file order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Agn {
    /// Top-level chunks in file order.
    pub chunks: Vec<Chunk>,
}

/// One RIFF chunk of an AGN file.
///
/// Containers (`GBLD`, `PREG`, `VGRG`, `AGN2`, `PBLD`) hold a [`Group`] of
/// child chunks. A container found inside a container is kept as
/// [`Chunk::Raw`] (containers do not nest in AGN files), so reading never
/// recurses more than one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "chunk")]
pub enum Chunk {
    /// `VERS`: file version.
    #[serde(rename = "VERS")]
    Vers(Vers),
    /// `GBDD`: generic building height distribution.
    #[serde(rename = "GBDD")]
    Gbdd(Gbdd),
    /// `GBTE`: generic building texture name.
    #[serde(rename = "GBTE")]
    Gbte(Texture),
    /// `RHTE`: row house texture name.
    #[serde(rename = "RHTE")]
    Rhte(Texture),
    /// `GBLD`: container of `GBLR` chunks.
    #[serde(rename = "GBLD")]
    Gbld(Group),
    /// `GBLR`: generic buildings of one roof type.
    #[serde(rename = "GBLR")]
    Gblr(Gblr),
    /// `PREG`: container of `PRDE` chunks.
    #[serde(rename = "PREG")]
    Preg(Group),
    /// `PRDE`: vegetation polygons of one type.
    #[serde(rename = "PRDE")]
    Prde(Prde),
    /// `VGRG`: container of `VGRE` chunks.
    #[serde(rename = "VGRG")]
    Vgrg(Group),
    /// `VGRE`: FSX vegetation rectangles of one type.
    #[serde(rename = "VGRE")]
    Vgre(Vgre),
    /// `VGRD`: FS2004 vegetation definition.
    #[serde(rename = "VGRD")]
    Vgrd(Vgrd),
    /// `VGRO`: FS2004 vegetation rectangles.
    #[serde(rename = "VGRO")]
    Vgro(Vgro),
    /// `ROWH`: row houses.
    #[serde(rename = "ROWH")]
    Rowh(Rowh),
    /// `AGN2`: container of `A2GE` chunks.
    #[serde(rename = "AGN2")]
    Agn2(Group),
    /// `A2GE`: library objects of one GUID.
    #[serde(rename = "A2GE")]
    A2ge(A2ge),
    /// `PBLD`: container of `PBDE` chunks.
    #[serde(rename = "PBLD")]
    Pbld(Group),
    /// `PBDE`: polygon buildings of one type.
    #[serde(rename = "PBDE")]
    Pbde(Pbde),
    /// Any other chunk, kept byte for byte.
    #[serde(rename = "raw")]
    Raw(RawChunk),
}

impl Chunk {
    /// The chunk's four-character id.
    pub fn id(&self) -> FourCc {
        FourCc(*match self {
            Chunk::Vers(_) => b"VERS",
            Chunk::Gbdd(_) => b"GBDD",
            Chunk::Gbte(_) => b"GBTE",
            Chunk::Rhte(_) => b"RHTE",
            Chunk::Gbld(_) => b"GBLD",
            Chunk::Gblr(_) => b"GBLR",
            Chunk::Preg(_) => b"PREG",
            Chunk::Prde(_) => b"PRDE",
            Chunk::Vgrg(_) => b"VGRG",
            Chunk::Vgre(_) => b"VGRE",
            Chunk::Vgrd(_) => b"VGRD",
            Chunk::Vgro(_) => b"VGRO",
            Chunk::Rowh(_) => b"ROWH",
            Chunk::Agn2(_) => b"AGN2",
            Chunk::A2ge(_) => b"A2GE",
            Chunk::Pbld(_) => b"PBLD",
            Chunk::Pbde(_) => b"PBDE",
            Chunk::Raw(r) => return r.id,
        })
    }

    /// The children of a container chunk, `None` for other chunks.
    pub fn children(&self) -> Option<&[Chunk]> {
        match self {
            Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
                Some(&g.children)
            }
            _ => None,
        }
    }
}

/// The id a container's children normally have (`GBLD` → `GBLR`, ...).
pub fn child_id(container: FourCc) -> Option<FourCc> {
    Some(FourCc(*match &container.0 {
        b"GBLD" => b"GBLR",
        b"PREG" => b"PRDE",
        b"VGRG" => b"VGRE",
        b"AGN2" => b"A2GE",
        b"PBLD" => b"PBDE",
        _ => return None,
    }))
}

/// A four-character chunk id.
///
/// Shown as its four characters when they are all printable ASCII other than
/// space, `"`, `\\` and `#` (so the id is one word of the text view),
/// otherwise as `0x` and 8 hex digits in file byte order (`fmt ` is shown
/// `0x666d7420`). Parsing accepts both forms.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FourCc(pub [u8; 4]);

impl FourCc {
    fn printable(&self) -> bool {
        self.0
            .iter()
            .all(|&b| b.is_ascii_graphic() && !b"\"\\#".contains(&b))
            && !self.0.starts_with(b"0x")
    }
}

impl fmt::Display for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.printable() {
            f.write_str(std::str::from_utf8(&self.0).unwrap_or("????"))
        } else {
            write!(f, "0x")?;
            for b in self.0 {
                write!(f, "{b:02x}")?;
            }
            Ok(())
        }
    }
}

impl fmt::Debug for FourCc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl std::str::FromStr for FourCc {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(hex) = s.strip_prefix("0x") {
            let v = hex_decode(hex)?;
            return <[u8; 4]>::try_from(v.as_slice())
                .map(FourCc)
                .map_err(|_| format!("chunk id `{s}` is not 8 hex digits"));
        }
        let b = s.as_bytes();
        <[u8; 4]>::try_from(b)
            .map(FourCc)
            .map_err(|_| format!("chunk id `{s}` is not four characters"))
    }
}

impl Serialize for FourCc {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FourCc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A GUID as stored in AGN files: 16 bytes in Windows order (u32 LE, u16 LE,
/// u16 LE, 8 raw bytes).
///
/// Shown as `{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}` (lower case); the
/// all-zero GUID ("use the default") is shown as `default`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Guid(pub [u8; 16]);

impl Guid {
    /// The all-zero GUID, meaning "default".
    pub const DEFAULT: Guid = Guid([0; 16]);

    /// True for the all-zero GUID.
    pub fn is_default(&self) -> bool {
        self.0 == [0; 16]
    }

    /// The GUID as a [`uuid::Uuid`] (the bytes are read in Windows order).
    pub fn to_uuid(&self) -> uuid::Uuid {
        uuid::Uuid::from_bytes_le(self.0)
    }

    /// The GUID of a [`uuid::Uuid`], stored in Windows order.
    pub fn from_uuid(u: uuid::Uuid) -> Guid {
        Guid(u.to_bytes_le())
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_default() {
            f.write_str("default")
        } else {
            write!(f, "{}", self.to_uuid().braced())
        }
    }
}

impl fmt::Debug for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl std::str::FromStr for Guid {
    type Err = String;
    /// Accepts `default`, or a GUID with or without braces, any case.
    fn from_str(s: &str) -> Result<Self, String> {
        if s.eq_ignore_ascii_case("default") {
            return Ok(Guid::DEFAULT);
        }
        uuid::Uuid::parse_str(s)
            .map(Guid::from_uuid)
            .map_err(|e| format!("`{s}` is not a GUID ({e})"))
    }
}

impl Serialize for Guid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Guid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// `VERS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vers {
    /// Version number, normally [`DEFAULT_VERSION`].
    pub version: i32,
}

/// `GBDD`: percentages of generic buildings per height band. Valid values are
/// 0..=20 (0x14 means 100 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gbdd {
    /// 1 and 2 floor buildings.
    pub floors_1_2: i32,
    /// 3 to 5 floor buildings.
    pub floors_3_5: i32,
    /// 6 to 8 floor buildings.
    pub floors_6_8: i32,
    /// 9 to 12 floor buildings.
    pub floors_9_12: i32,
}

/// `GBTE`/`RHTE`: a texture name without extension, followed by NUL padding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texture {
    /// The name (no NUL inside).
    pub name: String,
    /// Number of NUL bytes after the name (kept so writes are byte-identical;
    /// FSX pads the chunk to a multiple of 4 bytes).
    pub padding: u32,
}

impl Texture {
    /// A texture name with the usual padding: at least one NUL, up to a
    /// multiple of 4 bytes.
    pub fn padded(name: impl Into<String>) -> Texture {
        let name = name.into();
        let padding = 4 - (name.len() % 4) as u32;
        Texture { name, padding }
    }
}

/// A container chunk's children, in file order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Group {
    /// Child chunks.
    pub children: Vec<Chunk>,
}

/// A rectangle in cell units: first point and a second vector (four f32,
/// 16 bytes on disk; used by `VGRE`, `VGRO` and 16-byte `A2GE`).
///
/// For vegetation the second vector is the offset from the first point to the
/// opposite corner of an axis-aligned rectangle; for `A2GE` it is the
/// direction to the second point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// X of the first point (east).
    pub x: f32,
    /// Y of the first point (south).
    pub y: f32,
    /// X of the second vector.
    pub dx: f32,
    /// Y of the second vector.
    pub dy: f32,
}

/// A rectangle given by its first point, the vector to the second point and
/// the offset of the third point (six f32, 24 bytes; `GBLR`, `ROWH`, 24-byte
/// `A2GE`). The corners are p, p+d, p+d+o, p+o.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Quad {
    /// X of the first point (east).
    pub x: f32,
    /// Y of the first point (south).
    pub y: f32,
    /// X of the vector to the second point.
    pub dx: f32,
    /// Y of the vector to the second point.
    pub dy: f32,
    /// X of the offset of the third point.
    pub ox: f32,
    /// Y of the offset of the third point.
    pub oy: f32,
}

/// A vertex `[x, y]` in top-left-based cell units (0..1, x east, y south).
pub type Vertex = [f32; 2];

/// `GBLR`: generic buildings sharing one roof type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gblr {
    /// Roof type (default = use default roofs).
    pub roof: Guid,
    /// Buildings, centre-based coordinates.
    pub buildings: Vec<Quad>,
}

/// `PRDE`: vegetation polygons sharing one vegetation type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prde {
    /// Vegetation type.
    pub vegetation: Guid,
    /// Polygons (each an i32 vertex count and the vertices on disk),
    /// top-left-based coordinates.
    pub polygons: Vec<Vec<Vertex>>,
}

/// `VGRE`: FSX vegetation rectangles sharing one type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vgre {
    /// Vegetation type.
    pub vegetation: Guid,
    /// Rectangles, centre-based coordinates.
    pub rects: Vec<Rect>,
}

/// `VGRD`: FS2004 vegetation definition (32 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Vgrd {
    /// Vegetation class 1.
    pub class1: i32,
    /// Vegetation class 2.
    pub class2: i32,
    /// Percentage of class 1 (0..=100).
    pub percent1: i32,
    /// Maximum density.
    pub max_density: i32,
    /// Minimum height of class 1.
    pub min_height1: f32,
    /// Maximum height of class 1.
    pub max_height1: f32,
    /// Minimum height of class 2.
    pub min_height2: f32,
    /// Maximum height of class 2.
    pub max_height2: f32,
}

/// `VGRO`: FS2004 vegetation rectangles.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vgro {
    /// Rectangles, centre-based coordinates.
    pub rects: Vec<Rect>,
}

/// `ROWH`: row houses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rowh {
    /// Row houses, centre-based coordinates.
    pub houses: Vec<Quad>,
}

/// `A2GE`: library objects sharing one GUID.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct A2ge {
    /// Library object GUID.
    pub object: Guid,
    /// The records, 16 or 24 bytes each (see `docs/agn.md` for how a reader
    /// decides).
    pub records: A2geRecords,
}

/// The records of an `A2GE`: all 16-byte (no third point) or all 24-byte.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "record_size", content = "objects")]
pub enum A2geRecords {
    /// 16-byte records: first point and direction to the second point.
    #[serde(rename = "16")]
    Short(Vec<Rect>),
    /// 24-byte records: also the offset of the third point.
    #[serde(rename = "24")]
    Long(Vec<Quad>),
}

impl A2geRecords {
    /// Number of objects.
    pub fn len(&self) -> usize {
        match self {
            A2geRecords::Short(v) => v.len(),
            A2geRecords::Long(v) => v.len(),
        }
    }

    /// True when there are no objects.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per record (16 or 24).
    pub fn record_size(&self) -> usize {
        match self {
            A2geRecords::Short(_) => 16,
            A2geRecords::Long(_) => 24,
        }
    }
}

/// `PBDE`: polygon buildings sharing one type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pbde {
    /// Building type.
    pub building: Guid,
    /// Buildings.
    pub buildings: Vec<PolyBuilding>,
}

/// One polygon building of a `PBDE`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolyBuilding {
    /// The leading int32 (always 1 in known files).
    pub kind: i32,
    /// Extrusion width.
    pub width: f32,
    /// Footprint vertices, top-left-based coordinates.
    pub footprint: Vec<Vertex>,
}

/// A chunk agkit does not interpret, kept byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RawChunk {
    /// Chunk id.
    pub id: FourCc,
    /// Payload as lower-case hex.
    #[serde(with = "hex_serde")]
    pub data: Vec<u8>,
}

/// An error reading or building an AGN file: what is wrong and the byte
/// offset where it was found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {message}")]
pub struct Error {
    /// Byte offset into the input.
    pub offset: u64,
    /// Stable code (`AGN0xx`).
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Error {
    /// The error as a [`Diagnostic`] at its byte offset.
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::new(
            crate::diag::Severity::Error,
            self.code,
            self.message.clone(),
            crate::diag::Location::Offset(self.offset),
        )
    }
}

/// Reads an AGN file's bytes and reports structural problems with byte
/// offsets: the first read error, or warnings about values the simulator
/// would misread (unclosed polygons, coordinates outside the cell, ...).
pub fn check_bytes(bytes: &[u8]) -> Vec<Diagnostic> {
    match read::read_located(bytes, &ReadOptions::default()) {
        Ok((agn, offsets)) => check::check_model(&agn, Some(&offsets)),
        Err(e) => vec![e.to_diagnostic()],
    }
}

pub(crate) fn hex_encode(data: &[u8]) -> String {
    let mut s = String::with_capacity(data.len() * 2);
    for b in data {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

pub(crate) fn hex_decode(s: &str) -> Result<Vec<u8>, String> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return Err("hex data has an odd number of digits".into());
    }
    let digit = |c: u8| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("`{}` is not a hex digit", c as char))
    };
    s.as_bytes()
        .chunks(2)
        .map(|p| Ok(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

mod hex_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(data: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&super::hex_encode(data))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        super::hex_decode(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guid_uses_windows_byte_order() {
        let g = Guid([
            0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd,
            0xee, 0xff,
        ]);
        assert_eq!(g.to_string(), "{00112233-4455-6677-8899-aabbccddeeff}");
        assert_eq!("{00112233-4455-6677-8899-AABBCCDDEEFF}".parse(), Ok(g));
        assert_eq!("00112233-4455-6677-8899-aabbccddeeff".parse(), Ok(g));
        assert_eq!(Guid::DEFAULT.to_string(), "default");
        assert_eq!("Default".parse(), Ok(Guid::DEFAULT));
        assert!("{0011}".parse::<Guid>().is_err());
    }

    #[test]
    fn fourcc_shows_hex_when_not_printable() {
        assert_eq!(FourCc(*b"GBLR").to_string(), "GBLR");
        let odd = FourCc([0, 1, 0xff, b'A']);
        assert_eq!(odd.to_string(), "0x0001ff41");
        assert_eq!("0x0001ff41".parse(), Ok(odd));
        assert_eq!("AB C".parse(), Ok(FourCc(*b"AB C")));
        assert_eq!(FourCc(*b"fmt ").to_string(), "0x666d7420");
        assert_eq!(FourCc(*b"A#BC").to_string(), "0x41234243");
    }

    #[test]
    fn texture_padding_reaches_a_multiple_of_four() {
        assert_eq!(Texture::padded("abc").padding, 1);
        assert_eq!(Texture::padded("abcd").padding, 4);
        assert_eq!(Texture::padded("abcde").padding, 3);
    }
}
