//! Binary DSF reader: header, atoms, string tables, point pools, the command
//! stream state machine, rasters, the MD5 footer, and 7z unwrapping.
//!
//! Every read goes through [`Cursor`], which fails instead of reading past
//! the end and knows the absolute byte offset, so every error names where it
//! happened. Sizes read from the file are checked against the bytes that
//! remain before anything is allocated.

use super::cmd::Command;
use super::{
    Dsf, ElevationMode, Entity, Md5Status, NetworkChain, Object, Patch, Plane, Polygon, Pool,
    Primitive, PrimitiveKind, Raster, UnknownAtom, atom_name,
};
use crate::diag::{Diagnostic, Location, Severity};
use crate::limits::{LimitExceeded, Limits};
use md5::{Digest, Md5};
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
    fn in_unpacked(self) -> Self {
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
            ErrorKind::BadMagic => "DSF001",
            ErrorKind::BadVersion(_) => "DSF002",
            ErrorKind::Truncated { .. } => "DSF003",
            ErrorKind::BadAtomLength { .. } => "DSF004",
            ErrorKind::MissingAtom(_) => "DSF005",
            ErrorKind::BadStringTable(_) => "DSF006",
            ErrorKind::BadPool(_) => "DSF007",
            ErrorKind::BadScale(_) => "DSF008",
            ErrorKind::PoolIndex { .. } => "DSF009",
            ErrorKind::PointIndex { .. } => "DSF010",
            ErrorKind::DefIndex { .. } => "DSF011",
            ErrorKind::UnknownOpcode(_) => "DSF012",
            ErrorKind::TruncatedCommand(_) => "DSF013",
            ErrorKind::BadGeometry(_) => "DSF014",
            ErrorKind::TooLarge(_) => "DSF015",
            ErrorKind::SevenZ(_) => "DSF016",
            ErrorKind::BadRaster(_) => "DSF017",
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
struct Atom<'a> {
    id: u32,
    offset: u64,
    payload: &'a [u8],
}

impl Atom<'_> {
    fn payload_offset(&self) -> u64 {
        self.offset + 8
    }
}

/// Splits a run of sibling atoms.
fn atoms(data: &[u8], base: u64) -> Result<Vec<Atom<'_>>, DsfError> {
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

fn find<'a>(list: &[Atom<'a>], id: u32) -> Option<Atom<'a>> {
    list.iter().find(|a| a.id == id).copied()
}

fn require<'a>(
    list: &[Atom<'a>],
    id: u32,
    name: &'static str,
    at: u64,
) -> Result<Atom<'a>, DsfError> {
    find(list, id).ok_or_else(|| DsfError::new(at, ErrorKind::MissingAtom(name)))
}

/// Reads a DSF from its bytes: a plain DSF or a 7z archive holding one
/// (detected by its signature), within the default [`Limits`].
pub fn read(bytes: &[u8]) -> Result<Dsf, DsfError> {
    read_with(bytes, &Limits::default())
}

/// [`read`] within `limits`: a 7z archive may unpack to at most
/// [`Limits::max_unpack_ratio`] times its size (and never more than
/// [`Limits::max_unpacked_bytes`]), and so may the run-length-coded pools
/// and the commands (see [`Decoded`]).
pub fn read_with(bytes: &[u8], limits: &Limits) -> Result<Dsf, DsfError> {
    decode(bytes, limits)?.into_model()
}

/// Extracts the first file of a 7z archive within the default [`Limits`]
/// (at most [`Limits::max_unpack_ratio`] times the archive's size, and
/// [`MAX_UNPACKED`] bytes).
pub fn unpack_7z(bytes: &[u8]) -> Result<Vec<u8>, DsfError> {
    unpack_7z_limited(bytes, unpack_limit(bytes.len(), &Limits::default()))
}

/// Most bytes an input of `len` bytes may unpack to under `limits`: the
/// ratio times its size, and never more than the absolute cap.
pub fn unpack_limit(len: usize, limits: &Limits) -> u64 {
    limits
        .max_unpacked_bytes
        .min(limits.max_unpack_ratio.saturating_mul(len as u64))
}

/// A [`LimitExceeded`] as a read error at `offset`.
fn too_large(offset: u64, e: LimitExceeded) -> DsfError {
    DsfError::new(offset, ErrorKind::TooLarge(e.to_string()))
}

/// Extracts the first file of a 7z archive, refusing more than `limit`
/// bytes (by the size the archive declares, and while reading).
pub fn unpack_7z_limited(bytes: &[u8], limit: u64) -> Result<Vec<u8>, DsfError> {
    use sevenz_rust2::{ArchiveReader, Password};
    use std::io::Read;
    let err = |e: sevenz_rust2::Error| DsfError::new(0, ErrorKind::SevenZ(e.to_string()));
    let mut reader =
        ArchiveReader::new(std::io::Cursor::new(bytes), Password::empty()).map_err(err)?;
    let entry = reader
        .archive()
        .files
        .iter()
        .find(|f| !f.is_directory && f.has_stream)
        .ok_or_else(|| DsfError::new(0, ErrorKind::SevenZ("the archive holds no file".into())))?;
    let what = |name: &str| {
        format!(
            "bytes the 7z entry {name} unpacks to (at most {} per byte of the {}-byte archive)",
            limit.div_ceil(bytes.len().max(1) as u64),
            bytes.len()
        )
    };
    LimitExceeded::check(what(&entry.name), entry.size, limit).map_err(|e| too_large(0, e))?;
    let name = entry.name.clone();
    let size = entry.size;
    let mut out: Option<Vec<u8>> = None;
    reader
        .for_each_entries(|e, rd| {
            if e.name != name || e.is_directory {
                return Ok(true);
            }
            let mut buf = Vec::with_capacity(size.min(64 << 20) as usize);
            rd.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
            out = Some(buf);
            Ok(false)
        })
        .map_err(err)?;
    let out = out.ok_or_else(|| {
        DsfError::new(
            0,
            ErrorKind::SevenZ("the first file could not be read".into()),
        )
    })?;
    LimitExceeded::check(what(&name), out.len() as u64, limit).map_err(|e| too_large(0, e))?;
    Ok(out)
}

/// Reads an uncompressed DSF within the default [`Limits`].
pub fn read_plain(bytes: &[u8]) -> Result<Dsf, DsfError> {
    decode_plain(
        std::borrow::Cow::Borrowed(bytes),
        bytes.len(),
        &Limits::default(),
    )?
    .into_model()
}

/// A DSF whose header, definitions, pools and rasters are read, with its
/// command stream still to run: [`Decoded::events`] walks the commands
/// and hands each entity to a sink as soon as it is decoded (what
/// `dsf totext` streams), [`Decoded::into_model`] collects them into a
/// [`Dsf`].
///
/// Budgets: the pools may decode to at most [`value_budget`] values and
/// at most a quarter of [`unpack_limit`] of the input (4 bytes each); the
/// commands to at most [`value_budget`] values and an eighth of the
/// input's size times [`Limits::max_unpack_ratio`] (8 bytes each). For a
/// 7z input, the input's size is the archive's, so a small archive cannot
/// unpack to a large DSF nor to large pools.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// Everything but the entities (`entities` and `entity_offsets` are
    /// empty; `elevation_pools` is filled).
    pub head: Dsf,
    data: std::borrow::Cow<'a, [u8]>,
    cmds: std::ops::Range<usize>,
    budget: u64,
}

/// What [`Decoded::events`] hands to its sink, in command-stream order.
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

/// Why [`Decoded::events`] stopped: the file is bad, or the sink failed.
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

/// Reads `bytes` (a plain DSF or a 7z archive holding one) up to its
/// command stream, within `limits`.
pub fn decode<'a>(bytes: &'a [u8], limits: &Limits) -> Result<Decoded<'a>, DsfError> {
    if bytes.starts_with(&SEVENZ_MAGIC) {
        let inner = unpack_7z_limited(bytes, unpack_limit(bytes.len(), limits))?;
        let mut d = decode_plain(std::borrow::Cow::Owned(inner), bytes.len(), limits)
            .map_err(DsfError::in_unpacked)?;
        d.head.compressed = true;
        Ok(d)
    } else {
        decode_plain(std::borrow::Cow::Borrowed(bytes), bytes.len(), limits)
    }
}

impl Decoded<'_> {
    /// Runs the command stream, calling `sink` with each event and the
    /// byte offset of the command that produced it.
    pub fn events<E>(
        &self,
        sink: impl FnMut(Event, u64) -> Result<(), E>,
    ) -> Result<(), StreamError<E>> {
        let base = self.cmds.start as u64;
        commands(
            &self.head,
            &self.data[self.cmds.clone()],
            base,
            self.budget,
            sink,
        )
        .map_err(|e| match e {
            StreamError::Dsf(e) if self.head.compressed => StreamError::Dsf(e.in_unpacked()),
            e => e,
        })
    }

    /// The command stream as it is in the file (the `CMDS` payload) and
    /// the byte offset of its first byte, for edits that rewrite commands
    /// without decoding entities ([`super::edit`]).
    pub fn command_bytes(&self) -> (&[u8], u64) {
        (&self.data[self.cmds.clone()], self.cmds.start as u64)
    }

    /// Runs the command stream into the model's `entities` (a patch is
    /// listed where it opens and gathers every primitive until it closes)
    /// and `entity_offsets`.
    pub fn into_model(self) -> Result<Dsf, DsfError> {
        let mut entities = Vec::new();
        let mut offsets = Vec::new();
        let mut open: Option<usize> = None;
        let run = self.events(|ev, at| {
            match ev {
                Event::Entity(e) => {
                    entities.push(e);
                    offsets.push(at);
                }
                Event::BeginPatch(p) => {
                    open = Some(entities.len());
                    entities.push(Entity::Patch(p));
                    offsets.push(at);
                }
                Event::Primitive(pr) => {
                    if let Some(Entity::Patch(p)) = open.and_then(|i| entities.get_mut(i)) {
                        p.primitives.push(pr);
                    }
                }
                Event::EndPatch => open = None,
            }
            Ok::<(), std::convert::Infallible>(())
        });
        match run {
            Ok(()) => {}
            Err(StreamError::Dsf(e)) => return Err(e),
            Err(StreamError::Sink(never)) => match never {},
        }
        let mut dsf = self.head;
        dsf.entities = entities;
        dsf.entity_offsets = offsets;
        Ok(dsf)
    }
}

/// Reads an uncompressed DSF (`data`) up to its command stream; `disk_len`
/// is the size of the input as given (the archive's for 7z).
fn decode_plain<'a>(
    data: std::borrow::Cow<'a, [u8]>,
    disk_len: usize,
    limits: &Limits,
) -> Result<Decoded<'a>, DsfError> {
    let bytes: &[u8] = &data;
    let mut cur = Cursor::new(bytes, 0);
    let magic = cur
        .bytes(8, "the header")
        .map_err(|_| DsfError::new(0, ErrorKind::BadMagic))?;
    if magic != MAGIC {
        return Err(DsfError::new(0, ErrorKind::BadMagic));
    }
    let version = cur.i32("the header")?;
    if version != 1 {
        return Err(DsfError::new(8, ErrorKind::BadVersion(version)));
    }
    if bytes.len() < 12 + 16 {
        return Err(DsfError::new(
            bytes.len() as u64,
            ErrorKind::Truncated {
                what: "the MD5 footer",
            },
        ));
    }
    let end = bytes.len() - 16;
    let mut dsf = Dsf::default();

    let computed: [u8; 16] = Md5::digest(&bytes[..end]).into();
    let mut stored = [0u8; 16];
    stored.copy_from_slice(&bytes[end..]);
    dsf.md5 = if stored == computed {
        Md5Status::Valid
    } else {
        Md5Status::Mismatch {
            offset: end as u64,
            stored,
            computed,
        }
    };

    let top = atoms(&bytes[12..end], 12)?;
    let eof = end as u64;
    let head = require(&top, HEAD, "HEAD", eof)?;
    let defn = require(&top, DEFN, "DEFN", eof)?;
    let geod = require(&top, GEOD, "GEOD", eof)?;
    let cmds = require(&top, CMDS, "CMDS", eof)?;

    let head_atoms = atoms(head.payload, head.payload_offset())?;
    let prop = require(&head_atoms, PROP, "PROP", head.offset)?;
    let strings = string_table(prop)?;
    if strings.len() % 2 != 0 {
        return Err(DsfError::new(
            prop.offset,
            ErrorKind::BadStringTable(format!(
                "PROP holds {} strings, not name/value pairs",
                strings.len()
            )),
        ));
    }
    dsf.properties = strings
        .chunks_exact(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    keep_unknown(&mut dsf, &head_atoms, Some(HEAD), &[PROP]);

    let defn_atoms = atoms(defn.payload, defn.payload_offset())?;
    dsf.terrain_defs = string_table(require(&defn_atoms, TERT, "TERT", defn.offset)?)?;
    dsf.object_defs = string_table(require(&defn_atoms, OBJT, "OBJT", defn.offset)?)?;
    dsf.polygon_defs = string_table(require(&defn_atoms, POLY, "POLY", defn.offset)?)?;
    dsf.network_defs = string_table(require(&defn_atoms, NETW, "NETW", defn.offset)?)?;
    if let Some(a) = find(&defn_atoms, DEMN) {
        dsf.raster_defs = string_table(a)?;
    }
    keep_unknown(
        &mut dsf,
        &defn_atoms,
        Some(DEFN),
        &[TERT, OBJT, POLY, NETW, DEMN],
    );

    let geod_atoms = atoms(geod.payload, geod.payload_offset())?;
    // RLE lets 3 bytes claim 127 values: cap the decoded pool values so a
    // small file (or a small archive) cannot make the reader allocate
    // gigabytes. Values are held as u32.
    let unpack = unpack_limit(disk_len, limits);
    let mut pool_budget = value_budget(bytes.len()).min(unpack / 4);
    dsf.pools = pools(&geod_atoms, POOL, SCAL, false, &mut pool_budget)?;
    dsf.pools32 = pools(&geod_atoms, PO32, SC32, true, &mut pool_budget)?;
    keep_unknown(&mut dsf, &geod_atoms, Some(GEOD), &[POOL, SCAL, PO32, SC32]);

    if let Some(dems) = find(&top, DEMS) {
        let dem_atoms = atoms(dems.payload, dems.payload_offset())?;
        dsf.rasters = rasters(&dem_atoms, &dsf.raster_defs)?;
        keep_unknown(&mut dsf, &dem_atoms, Some(DEMS), &[DEMI, DEMD]);
    }
    keep_unknown(&mut dsf, &top, None, &[HEAD, DEFN, GEOD, CMDS, DEMS]);
    dsf.elevation_pools = elevation_pools(&dsf, cmds.payload, cmds.payload_offset());

    // Decoded values may not exceed this budget either: a range command
    // can name up to 65535 points in 5 bytes.
    let budget =
        value_budget(bytes.len()).min(limits.max_unpack_ratio.saturating_mul(disk_len as u64) / 8);
    let start = cmds.payload_offset() as usize;
    let cmds = start..start + cmds.payload.len();
    Ok(Decoded {
        head: dsf,
        data,
        cmds,
        budget,
    })
}

/// The 16-bit pools whose elevation plane DSFTool's dsf2text reads to
/// suggest `HEIGHTS`: for a base mesh (no `sim/overlay 1`), the pools
/// current when a patch opens and those named by cross-pool vertices; for
/// an overlay, the pools current at object commands (and, as DSFTool does,
/// at `SetDefinition16`). The scan stops at the first command it cannot
/// parse, as DSFTool's does; pools that do not exist are left out.
fn elevation_pools(dsf: &Dsf, cmds: &[u8], base: u64) -> Vec<u16> {
    let overlay = super::text::is_overlay(dsf);
    let mut set = std::collections::BTreeSet::new();
    let mut pool = u16::MAX;
    let mut c = Cursor::new(cmds, base);
    while !c.is_empty() {
        let Ok(cmd) = Command::parse(&mut c) else {
            break;
        };
        match cmd {
            Command::PoolSelect(p) => pool = p,
            Command::Object(_) | Command::ObjectRange(..) | Command::SetDefinition16(_)
                if overlay =>
            {
                set.insert(pool);
            }
            Command::TerrainPatch
            | Command::TerrainPatchFlags(_)
            | Command::TerrainPatchFlagsLod { .. }
                if !overlay =>
            {
                set.insert(pool);
            }
            Command::PrimitiveCrossPool(_, v) if !overlay => set.extend(v.iter().map(|p| p.0)),
            _ => {}
        }
    }
    set.into_iter()
        .filter(|&p| (p as usize) < dsf.pools.len())
        .collect()
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

/// Most values a file of `len` bytes may decode to, for its pools and
/// again for its command stream: 8 per byte, at least 1 Mi (8 MiB of
/// `f64`). Real tiles stay well below: a literal 16-bit pool value takes 2
/// bytes, and an indexed vertex of a 7-plane terrain pool decodes to 7
/// values per 2-byte index; see docs/dsf.md.
pub fn value_budget(len: usize) -> u64 {
    (len as u64).saturating_mul(8).max(1 << 20)
}

fn keep_unknown(dsf: &mut Dsf, list: &[Atom<'_>], parent: Option<u32>, known: &[u32]) {
    for a in list {
        if !known.contains(&a.id) {
            dsf.unknown_atoms.push(UnknownAtom {
                id: a.id,
                parent,
                offset: a.offset,
                data: a.payload.to_vec(),
            });
        }
    }
}

fn string_table(atom: Atom<'_>) -> Result<Vec<String>, DsfError> {
    let p = atom.payload;
    if !p.is_empty() && p[p.len() - 1] != 0 {
        return Err(DsfError::new(
            atom.offset,
            ErrorKind::BadStringTable(format!(
                "{} does not end with a NUL byte",
                atom_name(atom.id)
            )),
        ));
    }
    if p.is_empty() {
        return Ok(Vec::new());
    }
    Ok(p[..p.len() - 1]
        .split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect())
}

fn pools(
    list: &[Atom<'_>],
    pool_id: u32,
    scal_id: u32,
    wide: bool,
    budget: &mut u64,
) -> Result<Vec<Pool>, DsfError> {
    let scales: Vec<Atom<'_>> = list.iter().filter(|a| a.id == scal_id).copied().collect();
    let mut out = Vec::new();
    for (k, a) in list.iter().filter(|a| a.id == pool_id).enumerate() {
        let mut pool = planar(*a, wide, budget)?;
        let s = scales.get(k).ok_or_else(|| {
            DsfError::new(
                a.offset,
                ErrorKind::BadScale(format!(
                    "{} #{k} has no matching {}",
                    atom_name(pool_id),
                    atom_name(scal_id)
                )),
            )
        })?;
        if s.payload.len() != 8 * pool.planes.len() {
            return Err(DsfError::new(
                s.offset,
                ErrorKind::BadScale(format!(
                    "{} #{k} holds {} bytes, expected {} for {} planes",
                    atom_name(scal_id),
                    s.payload.len(),
                    8 * pool.planes.len(),
                    pool.planes.len()
                )),
            ));
        }
        let mut c = Cursor::new(s.payload, s.payload_offset());
        for plane in &mut pool.planes {
            plane.scale = c.f32("a scale atom")?;
            plane.offset = c.f32("a scale atom")?;
        }
        out.push(pool);
    }
    Ok(out)
}

fn planar(atom: Atom<'_>, wide: bool, budget: &mut u64) -> Result<Pool, DsfError> {
    let mut c = Cursor::new(atom.payload, atom.payload_offset());
    let n = c.u32("a pool header")? as usize;
    let d = c.u8("a pool header")? as usize;
    let size = if wide { 4 } else { 2 };
    let mut planes = Vec::with_capacity(d);
    for k in 0..d {
        let at = c.offset();
        if n as u64 > *budget {
            return Err(DsfError::new(
                at,
                ErrorKind::TooLarge(format!(
                    "plane {k} of {} claims {n} points; the pools of this file may decode \
                     to at most {} more values",
                    atom_name(atom.id),
                    *budget
                )),
            ));
        }
        *budget -= n as u64;
        let encoding = c.u8("a pool plane")?;
        let raw = plane_values(&mut c, n, size, encoding, at)?;
        planes.push(Plane {
            encoding,
            scale: 0.0,
            offset: 0.0,
            raw,
            wide,
        });
    }
    if !c.is_empty() {
        return Err(DsfError::new(
            c.offset(),
            ErrorKind::BadPool(format!("{} bytes left after the last plane", c.remaining())),
        ));
    }
    Ok(Pool {
        offset: atom.offset,
        count: n,
        planes,
    })
}

fn value(c: &mut Cursor<'_>, size: usize) -> Result<u32, DsfError> {
    if size == 2 {
        Ok(u32::from(c.u16("pool data")?))
    } else {
        c.u32("pool data")
    }
}

fn plane_values(
    c: &mut Cursor<'_>,
    n: usize,
    size: usize,
    encoding: u8,
    at: u64,
) -> Result<Vec<u32>, DsfError> {
    let too_big = |need: usize| {
        DsfError::new(
            at,
            ErrorKind::BadPool(format!(
                "{n} points need at least {need} bytes, only {} remain",
                c.remaining()
            )),
        )
    };
    let min_bytes = match encoding {
        0 | 1 => n.checked_mul(size),
        2 | 3 => n.div_ceil(127).checked_mul(size + 1),
        _ => {
            return Err(DsfError::new(
                at,
                ErrorKind::BadPool(format!("unknown plane encoding {encoding}")),
            ));
        }
    };
    match min_bytes {
        Some(m) if m <= c.remaining() => {}
        Some(m) => return Err(too_big(m)),
        None => return Err(too_big(usize::MAX)),
    }
    let mut out = Vec::with_capacity(n);
    if encoding & 2 == 0 {
        for _ in 0..n {
            out.push(value(c, size)?);
        }
    } else {
        while out.len() < n {
            let run_at = c.offset();
            let code = c.u8("an RLE run")?;
            let count = (code & 0x7F) as usize;
            if count == 0 {
                return Err(DsfError::new(
                    run_at,
                    ErrorKind::BadPool("RLE run with count 0".into()),
                ));
            }
            if out.len() + count > n {
                return Err(DsfError::new(
                    run_at,
                    ErrorKind::BadPool(format!(
                        "RLE run of {count} overruns the plane ({} of {n} values done)",
                        out.len()
                    )),
                ));
            }
            if code & 0x80 != 0 {
                let v = value(c, size)?;
                out.extend(std::iter::repeat_n(v, count));
            } else {
                for _ in 0..count {
                    out.push(value(c, size)?);
                }
            }
        }
    }
    if encoding & 1 == 1 {
        let mut acc: u32 = 0;
        let mask = if size == 2 { 0xFFFF } else { u32::MAX };
        for v in &mut out {
            acc = acc.wrapping_add(*v) & mask;
            *v = acc;
        }
    }
    Ok(out)
}

fn rasters(list: &[Atom<'_>], names: &[String]) -> Result<Vec<Raster>, DsfError> {
    let infos: Vec<Atom<'_>> = list.iter().filter(|a| a.id == DEMI).copied().collect();
    let datas: Vec<Atom<'_>> = list.iter().filter(|a| a.id == DEMD).copied().collect();
    let mut out = Vec::new();
    for (k, (info, data)) in infos.iter().zip(datas.iter()).enumerate() {
        let mut c = Cursor::new(info.payload, info.payload_offset());
        let version = c.u8("a DEMI header")?;
        let bpp = c.u8("a DEMI header")?;
        let flags = c.u16("a DEMI header")?;
        let width = c.u32("a DEMI header")?;
        let height = c.u32("a DEMI header")?;
        let scale = c.f32("a DEMI header")?;
        let offset = c.f32("a DEMI header")?;
        let expect = u64::from(width) * u64::from(height) * u64::from(bpp);
        if expect != data.payload.len() as u64 {
            return Err(DsfError::new(
                data.offset,
                ErrorKind::BadRaster(format!(
                    "raster {k} is {width}x{height}x{bpp} = {expect} bytes, DEMD holds {}",
                    data.payload.len()
                )),
            ));
        }
        out.push(Raster {
            name: names.get(k).cloned().unwrap_or_default(),
            version,
            bpp,
            flags,
            width,
            height,
            scale,
            offset,
            data: data.payload.to_vec(),
        });
    }
    Ok(out)
}

/// Budget charged per decoded entity (its struct and its share of the
/// text output, in 8-byte values), so that one-byte commands
/// (`TerrainPatch`, empty polygons) cannot make millions of entities from a
/// small file: 16 exceeds the 8 values a byte of input may decode to.
const ENTITY_COST: u64 = 16;

/// The command-stream state machine; entities go to `sink` as they are
/// decoded.
struct State<'d, F> {
    dsf: &'d Dsf,
    pool: u32,
    junction: u32,
    def: u32,
    subtype: u32,
    flags: u8,
    lod: (f32, f32),
    agl: bool,
    /// Depth of the open patch (0 until a pool gives it one).
    patch: Option<usize>,
    /// A patch opened before any pool was selected: its event waits for
    /// the first primitive to tell its depth.
    pending: Option<(Patch, u64)>,
    budget: u64,
    sink: F,
}

impl<'d, E, F: FnMut(Event, u64) -> Result<(), E>> State<'d, F> {
    fn emit(&mut self, ev: Event, at: u64) -> Result<(), StreamError<E>> {
        (self.sink)(ev, at).map_err(StreamError::Sink)
    }

    fn spend(&mut self, values: u64, at: u64) -> Result<(), DsfError> {
        if values > self.budget {
            return Err(DsfError::new(
                at,
                ErrorKind::TooLarge("the commands decode to too many points".into()),
            ));
        }
        self.budget -= values;
        Ok(())
    }

    fn pool16(&self, pool: u32, at: u64) -> Result<&'d Pool, DsfError> {
        let dsf: &'d Dsf = self.dsf;
        dsf.pools.get(pool as usize).ok_or_else(|| {
            DsfError::new(
                at,
                ErrorKind::PoolIndex {
                    pool,
                    count: self.dsf.pools.len(),
                },
            )
        })
    }

    fn pool32(&self, at: u64) -> Result<&'d Pool, DsfError> {
        let dsf: &'d Dsf = self.dsf;
        dsf.pools32.get(self.pool as usize).ok_or_else(|| {
            DsfError::new(
                at,
                ErrorKind::PoolIndex {
                    pool: self.pool,
                    count: self.dsf.pools32.len(),
                },
            )
        })
    }

    fn def(&self, table: &'static str, count: usize, at: u64) -> Result<u32, DsfError> {
        if (self.def as usize) < count {
            Ok(self.def)
        } else {
            Err(DsfError::new(
                at,
                ErrorKind::DefIndex {
                    table,
                    def: self.def,
                    count,
                },
            ))
        }
    }

    fn objects(&mut self, first: u64, last: u64, at: u64) -> Result<(), StreamError<E>> {
        let def = self.def("OBJT", self.dsf.object_defs.len(), at)?;
        let pool = self.pool16(self.pool, at)?;
        check_range(pool, first, last, at)?;
        let d = pool.depth();
        if d < 3 {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry(format!("objects need a pool of 3 or 4 planes, not {d}")),
            )
            .into());
        }
        let mode = if d == 3 {
            ElevationMode::Draped
        } else if self.agl {
            ElevationMode::Agl
        } else {
            ElevationMode::Msl
        };
        self.spend((last - first) * ENTITY_COST, at)?;
        for i in first..last {
            let i = i as usize;
            let o = Object {
                def,
                lon: pool.value(i, 0),
                lat: pool.value(i, 1),
                heading: pool.value(i, 2),
                elevation: (d >= 4).then(|| pool.value(i, 3)),
                mode,
            };
            self.emit(Event::Entity(Entity::Object(o)), at)?;
        }
        Ok(())
    }

    fn polygon(
        &mut self,
        param: u16,
        windings: Vec<Vec<u64>>,
        at: u64,
    ) -> Result<(), StreamError<E>> {
        let def = self.def("POLY", self.dsf.polygon_defs.len(), at)?;
        let pool = self.pool16(self.pool, at)?;
        let d = pool.depth();
        let total: u64 = windings.iter().map(|w| w.len() as u64).sum();
        self.spend(
            ENTITY_COST + windings.len() as u64 + total * d.max(1) as u64,
            at,
        )?;
        let mut ws = Vec::with_capacity(windings.len());
        for w in windings {
            let mut flat = Vec::with_capacity(w.len() * d);
            for i in w {
                check_index(pool, i, at)?;
                pool.point_into(i as usize, &mut flat);
            }
            ws.push(flat);
        }
        let p = Polygon {
            def,
            param,
            depth: d,
            windings: ws,
        };
        self.emit(Event::Entity(Entity::Polygon(p)), at)
    }

    fn chain(&mut self, indices: Vec<u64>, at: u64) -> Result<(), StreamError<E>> {
        let def = self.def("NETW", self.dsf.network_defs.len(), at)?;
        let pool = self.pool32(at)?;
        let d = pool.depth();
        if d < 4 {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry(format!(
                    "network chains need a 32-bit pool of at least 4 planes, not {d}"
                )),
            )
            .into());
        }
        self.spend(ENTITY_COST + indices.len() as u64 * d as u64, at)?;
        let mut points = Vec::with_capacity(indices.len() * d);
        for i in indices {
            check_index(pool, i, at)?;
            pool.point_into(i as usize, &mut points);
        }
        let c = NetworkChain {
            def,
            subtype: self.subtype,
            depth: d,
            points,
        };
        self.emit(Event::Entity(Entity::Network(c)), at)
    }

    fn primitive(
        &mut self,
        kind: PrimitiveKind,
        vertices: Vec<(u32, u64)>,
        at: u64,
    ) -> Result<(), StreamError<E>> {
        let Some(mut depth) = self.patch else {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry("triangle command outside a terrain patch".into()),
            )
            .into());
        };
        self.spend(
            ENTITY_COST + vertices.len() as u64 * depth.max(1) as u64,
            at,
        )?;
        let mut flat = Vec::new();
        for (pool, i) in &vertices {
            let pool = self.pool16(*pool, at)?;
            check_index(pool, *i, at)?;
            if depth == 0 {
                depth = pool.depth();
            } else if pool.depth() != depth {
                return Err(DsfError::new(
                    at,
                    ErrorKind::BadGeometry(format!(
                        "a patch of depth {depth} uses a pool of depth {}",
                        pool.depth()
                    )),
                )
                .into());
            }
            if flat.is_empty() {
                flat.reserve(vertices.len() * depth);
            }
            pool.point_into(*i as usize, &mut flat);
        }
        self.patch = Some(depth);
        if let Some((mut p, opened)) = self.pending.take() {
            p.depth = depth;
            self.emit(Event::BeginPatch(p), opened)?;
        }
        let pr = Primitive {
            kind,
            vertices: flat,
        };
        self.emit(Event::Primitive(pr), at)
    }

    /// Closes the open patch, if any.
    fn close_patch(&mut self, at: u64) -> Result<(), StreamError<E>> {
        if let Some((p, opened)) = self.pending.take() {
            self.emit(Event::BeginPatch(p), opened)?;
        }
        if self.patch.take().is_some() {
            self.emit(Event::EndPatch, at)?;
        }
        Ok(())
    }

    fn open_patch(&mut self, at: u64) -> Result<(), StreamError<E>> {
        let def = self.def("TERT", self.dsf.terrain_defs.len(), at)?;
        self.spend(ENTITY_COST, at)?;
        self.close_patch(at)?;
        let depth = self
            .dsf
            .pools
            .get(self.pool as usize)
            .map_or(0, Pool::depth);
        let p = Patch {
            def,
            flags: self.flags,
            lod_near: self.lod.0,
            lod_far: self.lod.1,
            depth,
            primitives: Vec::new(),
        };
        self.patch = Some(depth);
        if depth == 0 {
            self.pending = Some((p, at));
            Ok(())
        } else {
            self.emit(Event::BeginPatch(p), at)
        }
    }
}

fn check_index(pool: &Pool, i: u64, at: u64) -> Result<(), DsfError> {
    if i as usize >= pool.count {
        Err(DsfError::new(
            at,
            ErrorKind::PointIndex {
                index: i,
                count: pool.count,
            },
        ))
    } else {
        Ok(())
    }
}

fn check_range(pool: &Pool, first: u64, last: u64, at: u64) -> Result<(), DsfError> {
    if last < first {
        return Err(DsfError::new(
            at,
            ErrorKind::BadGeometry(format!("range [{first}, {last}) is reversed")),
        ));
    }
    if last as usize > pool.count {
        return Err(DsfError::new(
            at,
            ErrorKind::PointIndex {
                index: last.saturating_sub(1).max(first),
                count: pool.count,
            },
        ));
    }
    Ok(())
}

fn range(first: u64, last: u64, at: u64) -> Result<Vec<u64>, DsfError> {
    if last < first {
        return Err(DsfError::new(
            at,
            ErrorKind::BadGeometry(format!("range [{first}, {last}) is reversed")),
        ));
    }
    Ok((first..last).collect())
}

fn commands<E>(
    dsf: &Dsf,
    payload: &[u8],
    base: u64,
    budget: u64,
    sink: impl FnMut(Event, u64) -> Result<(), E>,
) -> Result<(), StreamError<E>> {
    let mut st = State {
        dsf,
        pool: u32::from(u16::MAX),
        junction: 0,
        def: u32::MAX,
        subtype: 0,
        flags: 0xFF,
        lod: (-1.0, -1.0),
        agl: false,
        patch: None,
        pending: None,
        budget,
        sink,
    };
    let mut c = Cursor::new(payload, base);
    while !c.is_empty() {
        let at = c.offset();
        let cmd = Command::parse(&mut c)?;
        run(&mut st, cmd, at)?;
    }
    st.close_patch(c.offset())
}

/// Runs one parsed command against the state.
fn run<E, F: FnMut(Event, u64) -> Result<(), E>>(
    st: &mut State<'_, F>,
    cmd: Command,
    at: u64,
) -> Result<(), StreamError<E>> {
    match cmd {
        Command::PoolSelect(p) => {
            if p as usize >= st.dsf.pools.len() && p as usize >= st.dsf.pools32.len() {
                return Err(DsfError::new(
                    at,
                    ErrorKind::PoolIndex {
                        pool: u32::from(p),
                        count: st.dsf.pools.len().max(st.dsf.pools32.len()),
                    },
                )
                .into());
            }
            st.pool = u32::from(p);
        }
        Command::JunctionOffset(v) => st.junction = v,
        Command::SetDefinition8(d) => st.def = u32::from(d),
        Command::SetDefinition16(d) => st.def = u32::from(d),
        Command::SetDefinition32(d) => st.def = d,
        Command::RoadSubtype(t) => st.subtype = u32::from(t),
        Command::Object(i) => st.objects(u64::from(i), u64::from(i) + 1, at)?,
        Command::ObjectRange(a, b) => st.objects(u64::from(a), u64::from(b), at)?,
        Command::NetworkChain(v) => {
            let base = u64::from(st.junction);
            st.chain(v.into_iter().map(|i| u64::from(i) + base).collect(), at)?;
        }
        Command::NetworkChainRange(a, b) => {
            let base = u64::from(st.junction);
            st.chain(range(u64::from(a) + base, u64::from(b) + base, at)?, at)?;
        }
        Command::NetworkChain32(v) => st.chain(v.into_iter().map(u64::from).collect(), at)?,
        Command::Polygon { param, points } => {
            st.polygon(param, vec![points.into_iter().map(u64::from).collect()], at)?;
        }
        Command::PolygonRange { param, first, last } => {
            st.polygon(
                param,
                vec![range(u64::from(first), u64::from(last), at)?],
                at,
            )?;
        }
        Command::NestedPolygon { param, windings } => {
            let ws = windings
                .into_iter()
                .map(|w| w.into_iter().map(u64::from).collect())
                .collect();
            st.polygon(param, ws, at)?;
        }
        Command::NestedPolygonRange { param, bounds } => {
            let ws = bounds
                .windows(2)
                .map(|p| range(u64::from(p[0]), u64::from(p[1]), at))
                .collect::<Result<Vec<_>, _>>()?;
            st.polygon(param, ws, at)?;
        }
        Command::TerrainPatch => st.open_patch(at)?,
        Command::TerrainPatchFlags(f) => {
            st.flags = f;
            st.open_patch(at)?;
        }
        Command::TerrainPatchFlagsLod { flags, near, far } => {
            st.flags = flags;
            st.lod = (near, far);
            st.open_patch(at)?;
        }
        Command::Primitive(kind, v) => {
            let pool = st.pool;
            let v = v.into_iter().map(|i| (pool, u64::from(i))).collect();
            st.primitive(kind, v, at)?;
        }
        Command::PrimitiveCrossPool(kind, v) => {
            let v = v
                .into_iter()
                .map(|(p, i)| (u32::from(p), u64::from(i)))
                .collect();
            st.primitive(kind, v, at)?;
        }
        Command::PrimitiveRange(kind, a, b) => {
            let pool = st.pool;
            let v = range(u64::from(a), u64::from(b), at)?
                .into_iter()
                .map(|i| (pool, i))
                .collect();
            st.primitive(kind, v, at)?;
        }
        Command::Comment8(body) | Command::Comment16(body) | Command::Comment32(body) => {
            // Typed comments: exactly a u16 type and an i32 (as xptools).
            if body.len() == 6 {
                let kind = u16::from_le_bytes([body[0], body[1]]);
                let v = i32::from_le_bytes([body[2], body[3], body[4], body[5]]);
                match kind {
                    1 => {
                        st.spend(ENTITY_COST, at)?;
                        st.emit(Event::Entity(Entity::Filter(v)), at)?;
                    }
                    2 => st.agl = v != 0,
                    _ => {}
                }
            }
        }
    }
    Ok(())
}
