//! The bounds-checked reading beneath every DSF reader: the [`Cursor`]
//! that knows each byte's absolute offset, the atoms it splits a file
//! into, the atom IDs, the read errors with their offsets, and what a
//! streamed read hands its sink ([`Event`], [`StreamError`]).
//!
//! The command decoder ([`super::cmd`]), the flat decoder
//! ([`super::flat`]) and the reader ([`super::read`](mod@super::read)) stand on it; it
//! stands on nothing of theirs.

use super::rules::codes;
use super::{Entity, Patch, Primitive, atom_name};
use crate::diag::{Diagnostic, Location, Severity};
use std::fmt;

/// Largest DSF accepted inside a 7z archive (1 GiB; Laminar's biggest
/// global-scenery tiles are a few hundred MiB uncompressed).
pub const MAX_UNPACKED: u64 = 1 << 30;

/// Signature of a 7z archive.
pub const SEVENZ_MAGIC: [u8; 6] = [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C];

/// The DSF cookie.
pub const MAGIC: &[u8; 8] = b"XPLNEDSF";

pub(crate) const fn id(s: &[u8; 4]) -> u32 {
    u32::from_be_bytes(*s)
}

pub(crate) const HEAD: u32 = id(b"HEAD");
pub(crate) const PROP: u32 = id(b"PROP");
pub(crate) const DEFN: u32 = id(b"DEFN");
pub(crate) const TERT: u32 = id(b"TERT");
pub(crate) const OBJT: u32 = id(b"OBJT");
pub(crate) const POLY: u32 = id(b"POLY");
pub(crate) const NETW: u32 = id(b"NETW");
pub(crate) const DEMN: u32 = id(b"DEMN");
pub(crate) const GEOD: u32 = id(b"GEOD");
pub(crate) const POOL: u32 = id(b"POOL");
pub(crate) const SCAL: u32 = id(b"SCAL");
pub(crate) const PO32: u32 = id(b"PO32");
pub(crate) const SC32: u32 = id(b"SC32");
pub(crate) const CMDS: u32 = id(b"CMDS");
pub(crate) const DEMS: u32 = id(b"DEMS");
pub(crate) const DEMI: u32 = id(b"DEMI");
pub(crate) const DEMD: u32 = id(b"DEMD");

/// What went wrong while reading a DSF.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file does not start with `XPLNEDSF` (and is not 7z).
    BadMagic,
    /// The master version is not 1.
    BadVersion(i32),
    /// The file or a structure ends early.
    Truncated {
        /// What was being read.
        what: &'static str,
    },
    /// An atom's length is below 8 or runs past its parent.
    BadAtomLength {
        /// The atom ID.
        atom: String,
        /// The length field.
        len: u32,
    },
    /// A required atom is missing.
    MissingAtom(&'static str),
    /// A string table is malformed (odd `PROP` count, missing NUL).
    BadStringTable(String),
    /// A point pool is malformed (bad encoding, RLE overrun, size too big).
    BadPool(String),
    /// A pool has no matching scale atom, or the scale atom has the wrong size.
    BadScale(String),
    /// `PoolSelect` or a cross-pool vertex names a pool that does not exist.
    PoolIndex {
        /// The pool index.
        pool: u32,
        /// How many pools there are.
        count: usize,
    },
    /// A point index is past the end of the current pool.
    PointIndex {
        /// The index.
        index: u64,
        /// Points in the pool.
        count: usize,
    },
    /// A definition index is past the end of its table.
    DefIndex {
        /// The table (`OBJT`, `POLY`, `TERT`, `NETW`).
        table: &'static str,
        /// The index (`u32::MAX` if no definition was selected).
        def: u32,
        /// Entries in the table.
        count: usize,
    },
    /// An opcode that does not exist.
    UnknownOpcode(u8),
    /// A command runs past the end of `CMDS`.
    TruncatedCommand(u8),
    /// A command that does not fit the state (no open patch, mixed patch
    /// depths, a network pool with fewer than 4 planes …).
    BadGeometry(String),
    /// The input asks for more memory than is sensible.
    TooLarge(String),
    /// The 7z archive could not be read.
    SevenZ(String),
    /// A raster header or its data is malformed.
    BadRaster(String),
}

/// A read error with the byte offset where it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct DsfError {
    /// Byte offset (in the uncompressed DSF for 7z input: see `unpacked`).
    pub offset: u64,
    /// What went wrong.
    pub kind: ErrorKind,
    /// True when `offset` is in the DSF unpacked from a 7z archive, not in
    /// the archive's own bytes.
    pub unpacked: bool,
}

impl DsfError {
    pub(crate) fn new(offset: u64, kind: ErrorKind) -> Self {
        DsfError {
            offset,
            kind,
            unpacked: false,
        }
    }

    /// The error with its offset marked as one in the unpacked DSF.
    pub(crate) fn in_unpacked(self) -> Self {
        DsfError {
            unpacked: true,
            ..self
        }
    }

    /// What went wrong, with a note when the offset is in the DSF unpacked
    /// from a 7z archive (what reports print after the offset).
    pub fn message(&self) -> String {
        if self.unpacked {
            format!("{} (offset in the DSF inside the 7z archive)", self.kind)
        } else {
            self.kind.to_string()
        }
    }

    /// The stable diagnostic code (`DSF001` …).
    pub fn code(&self) -> &'static str {
        match self.kind {
            ErrorKind::BadMagic => codes::NOT_DSF,
            ErrorKind::BadVersion(_) => codes::BAD_VERSION,
            ErrorKind::Truncated { .. } => codes::TRUNCATED,
            ErrorKind::BadAtomLength { .. } => codes::BAD_ATOM_LENGTH,
            ErrorKind::MissingAtom(_) => codes::MISSING_ATOM,
            ErrorKind::BadStringTable(_) => codes::BAD_STRING_TABLE,
            ErrorKind::BadPool(_) => codes::BAD_POOL,
            ErrorKind::BadScale(_) => codes::BAD_SCALE,
            ErrorKind::PoolIndex { .. } => codes::POOL_INDEX,
            ErrorKind::PointIndex { .. } => codes::POINT_INDEX,
            ErrorKind::DefIndex { .. } => codes::DEF_INDEX,
            ErrorKind::UnknownOpcode(_) => codes::UNKNOWN_OPCODE,
            ErrorKind::TruncatedCommand(_) => codes::TRUNCATED_COMMAND,
            ErrorKind::BadGeometry(_) => codes::BAD_GEOMETRY,
            ErrorKind::TooLarge(_) => codes::TOO_LARGE,
            ErrorKind::SevenZ(_) => codes::BAD_7Z,
            ErrorKind::BadRaster(_) => codes::BAD_RASTER,
        }
    }

    /// The error as a diagnostic at its byte offset.
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::new(
            Severity::Error,
            self.code(),
            self.message(),
            Location::Offset(self.offset),
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::BadMagic => write!(f, "not a DSF: the file does not start with XPLNEDSF"),
            ErrorKind::BadVersion(v) => write!(f, "DSF master version {v} is not 1"),
            ErrorKind::Truncated { what } => write!(f, "file ends inside {what}"),
            ErrorKind::BadAtomLength { atom, len } => {
                write!(
                    f,
                    "atom {atom} has length {len}, below 8 or past its parent's end"
                )
            }
            ErrorKind::MissingAtom(a) => write!(f, "required atom {a} is missing"),
            ErrorKind::BadStringTable(m) => write!(f, "bad string table: {m}"),
            ErrorKind::BadPool(m) => write!(f, "bad point pool: {m}"),
            ErrorKind::BadScale(m) => write!(f, "bad scale atom: {m}"),
            ErrorKind::PoolIndex { pool, count } => {
                if *pool == u32::from(u16::MAX) {
                    write!(f, "geometry command before any pool was selected")
                } else {
                    write!(f, "pool {pool} does not exist ({count} pools)")
                }
            }
            ErrorKind::PointIndex { index, count } => {
                write!(
                    f,
                    "point index {index} is past the end of the pool ({count} points)"
                )
            }
            ErrorKind::DefIndex { table, def, count } => {
                if *def == u32::MAX {
                    write!(f, "{table} entity before any definition was selected")
                } else {
                    write!(
                        f,
                        "definition {def} is past the end of {table} ({count} entries)"
                    )
                }
            }
            ErrorKind::UnknownOpcode(op) => write!(f, "unknown command opcode {op}"),
            ErrorKind::TruncatedCommand(op) => {
                write!(f, "command {op} runs past the end of CMDS")
            }
            ErrorKind::BadGeometry(m) => write!(f, "{m}"),
            ErrorKind::TooLarge(m) => write!(f, "input too large: {m}"),
            ErrorKind::SevenZ(m) => write!(f, "cannot read the 7z archive: {m}"),
            ErrorKind::BadRaster(m) => write!(f, "bad raster: {m}"),
        }
    }
}

impl fmt::Display for DsfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message())
    }
}

impl std::error::Error for DsfError {}

/// A bounds-checked little-endian reader over a byte slice that knows the
/// absolute offset of its first byte.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, whose first byte is at absolute offset `base`.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        Cursor { data, pos: 0, base }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when nothing is left.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// Takes the next `n` bytes.
    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], DsfError> {
        if n > self.remaining() {
            return Err(DsfError::new(self.offset(), ErrorKind::Truncated { what }));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], DsfError> {
        let s = self.bytes(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    /// Reads a u8.
    pub fn u8(&mut self, what: &'static str) -> Result<u8, DsfError> {
        Ok(self.array::<1>(what)?[0])
    }
    /// Reads a little-endian u16.
    pub fn u16(&mut self, what: &'static str) -> Result<u16, DsfError> {
        Ok(u16::from_le_bytes(self.array(what)?))
    }
    /// Reads a little-endian u32.
    pub fn u32(&mut self, what: &'static str) -> Result<u32, DsfError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }
    /// Reads a little-endian i32.
    pub fn i32(&mut self, what: &'static str) -> Result<i32, DsfError> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }
    /// Reads a little-endian f32.
    pub fn f32(&mut self, what: &'static str) -> Result<f32, DsfError> {
        Ok(f32::from_le_bytes(self.array(what)?))
    }
}

/// One atom: ID, absolute offset of its header, payload.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Atom<'a> {
    pub(crate) id: u32,
    pub(crate) offset: u64,
    pub(crate) payload: &'a [u8],
}

impl Atom<'_> {
    pub(crate) fn payload_offset(&self) -> u64 {
        self.offset + 8
    }
}

/// Splits a run of sibling atoms.
pub(crate) fn atoms(data: &[u8], base: u64) -> Result<Vec<Atom<'_>>, DsfError> {
    let mut cur = Cursor::new(data, base);
    let mut out = Vec::new();
    while !cur.is_empty() {
        let offset = cur.offset();
        let id = cur.u32("an atom header")?;
        let len = cur.u32("an atom header")?;
        if len < 8 || (len as usize - 8) > cur.remaining() {
            return Err(DsfError::new(
                offset,
                ErrorKind::BadAtomLength {
                    atom: atom_name(id),
                    len,
                },
            ));
        }
        let payload = cur.bytes(len as usize - 8, "an atom")?;
        out.push(Atom {
            id,
            offset,
            payload,
        });
    }
    Ok(out)
}

pub(crate) fn find<'a>(list: &[Atom<'a>], id: u32) -> Option<Atom<'a>> {
    list.iter().find(|a| a.id == id).copied()
}

pub(crate) fn require<'a>(
    list: &[Atom<'a>],
    id: u32,
    name: &'static str,
    at: u64,
) -> Result<Atom<'a>, DsfError> {
    find(list, id).ok_or_else(|| DsfError::new(at, ErrorKind::MissingAtom(name)))
}

/// What [`Decoded::events`](super::read::Decoded::events) hands to its sink, in command-stream order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A filter change, object, polygon or network chain.
    Entity(Entity),
    /// A terrain patch opens (its `primitives` are empty; they follow as
    /// [`Event::Primitive`] until [`Event::EndPatch`], possibly with other
    /// entities in between, as in the file).
    BeginPatch(Patch),
    /// A primitive of the open patch.
    Primitive(Primitive),
    /// The open patch closes (a new patch opens, or the stream ends).
    EndPatch,
}

/// Why [`Decoded::events`](super::read::Decoded::events) stopped: the file is bad, or the sink failed.
#[derive(Debug)]
pub enum StreamError<E> {
    /// The command stream is malformed.
    Dsf(DsfError),
    /// The sink returned an error.
    Sink(E),
}

impl<E> From<DsfError> for StreamError<E> {
    fn from(e: DsfError) -> Self {
        StreamError::Dsf(e)
    }
}

/// C's `atoi`: optional spaces, a sign and the leading digits (0 if none).
pub(crate) fn c_atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut v: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        v = v.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    if neg { -v } else { v }
}
