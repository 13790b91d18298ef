//! Binary DSF reader: header, atoms, string tables, point pools, the command
//! stream state machine, rasters, the MD5 footer, and 7z unwrapping.
//!
//! Every read goes through [`Cursor`], which fails instead of reading past
//! the end and knows the absolute byte offset, so every error names where it
//! happened. Sizes read from the file are checked against the bytes that
//! remain before anything is allocated.

pub(crate) use super::cursor::{
    Atom, CMDS, DEFN, DEMD, DEMI, DEMN, DEMS, GEOD, HEAD, NETW, OBJT, PO32, POLY, POOL, PROP, SC32,
    SCAL, TERT, atoms, find, require,
};
pub use super::cursor::{
    Cursor, DsfError, ErrorKind, Event, MAGIC, MAX_UNPACKED, SEVENZ_MAGIC, StreamError,
};
use super::flat::{self, Flat, FlatPool, Item, View};
use super::{Dsf, Entity, Md5Status, Raster, UnknownAtom, atom_name};
use crate::limits::{LimitExceeded, Limits};
use md5::{Digest, Md5};

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
        None,
        Depth::Whole,
    )?
    .into_model()
}

/// A DSF read up to its entities: its header, definitions and rasters in
/// `head`, its pools decoded into typed arrays ([`super::flat`]), and its
/// command stream run once, so that every error is found by the time
/// [`decode`] returns. [`Decoded::events`] runs the commands again and
/// hands each entity to a sink as it is decoded (what `dsf totext`
/// streams), [`Decoded::into_model`] collects them into a [`Dsf`],
/// [`Decoded::flat`] keeps them as flat records; [`super::check_bytes`]
/// checks them as they are decoded. No entity is held unless asked for.
///
/// Budgets: the pools may decode to at most [`value_budget`] values and
/// at most a quarter of [`unpack_limit`] of the input (4 bytes each); the
/// commands to at most [`value_budget`] values and an eighth of the
/// input's size times [`Limits::max_unpack_ratio`] (8 bytes each). For a
/// 7z input, the input's size is the archive's, so a small archive cannot
/// unpack to a large DSF nor to large pools.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// Everything but the entities and the pools' values: `entities` and
    /// `entity_offsets` are empty, each pool's planes have their scale,
    /// offset and encoding but an empty [`super::Plane::raw`] (the values
    /// are in [`Decoded::pools`]), `elevation_pools` is filled.
    pub head: Dsf,
    pools: Vec<FlatPool>,
    pools32: Vec<FlatPool>,
    data: std::borrow::Cow<'a, [u8]>,
    cmds: std::ops::Range<usize>,
    cx: flat::Context,
}

/// Reads `bytes` (a plain DSF or a 7z archive holding one), its command
/// stream included, within `limits`.
pub fn decode<'a>(bytes: &'a [u8], limits: &Limits) -> Result<Decoded<'a>, DsfError> {
    decode_with(bytes, limits, None)
}

/// [`decode`], handing each record of the command stream to `sink` as it
/// is decoded (what [`super::check_bytes`] lints).
pub(crate) fn decode_with<'a>(
    bytes: &'a [u8],
    limits: &Limits,
    sink: Option<flat::Sink<'_>>,
) -> Result<Decoded<'a>, DsfError> {
    decode_to(bytes, limits, sink, Depth::Whole)
}

/// Reads only the head of `bytes` (a plain DSF or a 7z archive holding
/// one) within `limits`: its header, properties, definitions, rasters and
/// MD5 status, as [`decode`]'s [`Decoded::head`] would hold them, without
/// decoding its pools or running its commands (so an error in those is not
/// found). What an edit that takes only a tile's rasters reads of it
/// ([`super::edit::rasters`]' source tile).
pub fn decode_head(bytes: &[u8], limits: &Limits) -> Result<Dsf, DsfError> {
    Ok(decode_to(bytes, limits, None, Depth::Head)?.head)
}

/// How far [`decode_body`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// The head only: no pool decoded, no command run.
    Head,
    /// Everything.
    Whole,
}

fn decode_to<'a>(
    bytes: &'a [u8],
    limits: &Limits,
    sink: Option<flat::Sink<'_>>,
    depth: Depth,
) -> Result<Decoded<'a>, DsfError> {
    if bytes.starts_with(&SEVENZ_MAGIC) {
        let inner = unpack_7z_limited(bytes, unpack_limit(bytes.len(), limits))?;
        let mut d = decode_plain(
            std::borrow::Cow::Owned(inner),
            bytes.len(),
            limits,
            sink,
            depth,
        )
        .map_err(DsfError::in_unpacked)?;
        d.head.compressed = true;
        Ok(d)
    } else {
        decode_plain(
            std::borrow::Cow::Borrowed(bytes),
            bytes.len(),
            limits,
            sink,
            depth,
        )
    }
}

impl Decoded<'_> {
    /// The 16-bit pools' values.
    pub fn pools(&self) -> &[FlatPool] {
        &self.pools
    }

    /// The 32-bit pools' values.
    pub fn pools32(&self) -> &[FlatPool] {
        &self.pools32
    }

    /// Runs the command stream again, handing each record to `sink`;
    /// keeps them in the result when `keep` is set.
    fn rerun(&self, keep: bool, sink: Option<flat::Sink<'_>>) -> Result<flat::Run, DsfError> {
        let c = &self.data[self.cmds.clone()];
        flat::run(
            &self.head,
            &self.pools,
            &self.pools32,
            self.cx,
            Cursor::new(c, self.cmds.start as u64),
            keep,
            sink,
        )
        .map_err(|e| {
            if self.head.compressed {
                e.in_unpacked()
            } else {
                e
            }
        })
    }

    /// The command stream as it is in the file (the `CMDS` payload) and
    /// the byte offset of its first byte, for edits that rewrite commands
    /// without decoding entities ([`super::edit`]).
    pub fn command_bytes(&self) -> (&[u8], u64) {
        (&self.data[self.cmds.clone()], self.cmds.start as u64)
    }

    /// The command stream as flat records, in one vector, with the pools.
    pub fn flat(&self) -> Result<Flat, DsfError> {
        let mut f = self.rerun(true, None)?.flat;
        f.pools = self.pools.clone();
        f.pools32 = self.pools32.clone();
        Ok(f)
    }

    /// Walks the command stream, calling `sink` with each event and the
    /// byte offset of the command that produced it, as it is decoded.
    pub fn events<E>(
        &self,
        mut sink: impl FnMut(Event, u64) -> Result<(), E>,
    ) -> Result<(), StreamError<E>> {
        let mut failed = None;
        let mut depth = 0;
        let mut each = |_: &Dsf, v: &View<'_>, it: &Item| match v.event(it, &mut depth, &mut sink) {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        };
        let run = self.rerun(false, Some(&mut each));
        match (failed, run) {
            (Some(e), _) => Err(StreamError::Sink(e)),
            (None, Err(e)) => Err(StreamError::Dsf(e)),
            (None, Ok(_)) => Ok(()),
        }
    }

    /// The model: the pools with their values and the command stream's
    /// `entities` (a patch is listed where it opens and gathers every
    /// primitive until it closes) and `entity_offsets`.
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
        dsf.pools = self.pools.iter().map(|p| p.to_pool(true)).collect();
        dsf.pools32 = self.pools32.iter().map(|p| p.to_pool(true)).collect();
        dsf.entities = entities;
        dsf.entity_offsets = offsets;
        Ok(dsf)
    }
}

/// Files at least this large have their MD5 computed on a second thread
/// while the rest is decoded (below it, a thread costs more than it saves).
const PARALLEL_MD5: usize = 1 << 20;

/// Reads an uncompressed DSF (`bytes`); `disk_len` is the size of the
/// input as given (the archive's for 7z).
fn decode_plain<'a>(
    data: std::borrow::Cow<'a, [u8]>,
    disk_len: usize,
    limits: &Limits,
    sink: Option<flat::Sink<'_>>,
    depth: Depth,
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
    let body = &bytes[..end];
    let digest = || -> [u8; 16] { Md5::digest(body).into() };
    let (decoded, computed) = if end >= PARALLEL_MD5 {
        std::thread::scope(|s| {
            let md5 = s.spawn(digest);
            let decoded = decode_body(bytes, end, disk_len, limits, sink, depth);
            // Hashing cannot panic; were the thread lost, hash here.
            let computed = md5.join().unwrap_or_else(|_| digest());
            (decoded, computed)
        })
    } else {
        (
            decode_body(bytes, end, disk_len, limits, sink, depth),
            digest(),
        )
    };
    let (mut head, pools, pools32, cmds, cx) = decoded?;
    let mut stored = [0u8; 16];
    stored.copy_from_slice(&bytes[end..]);
    head.md5 = if stored == computed {
        Md5Status::Valid
    } else {
        Md5Status::Mismatch {
            offset: end as u64,
            stored,
            computed,
        }
    };
    Ok(Decoded {
        head,
        pools,
        pools32,
        data,
        cmds,
        cx,
    })
}

/// What [`decode_body`] reads: the head, the pools, where the commands
/// are and their context.
type Body = (
    Dsf,
    Vec<FlatPool>,
    Vec<FlatPool>,
    std::ops::Range<usize>,
    flat::Context,
);

/// Everything of a DSF between its header and its MD5 footer (at `end`).
fn decode_body(
    bytes: &[u8],
    end: usize,
    disk_len: usize,
    limits: &Limits,
    sink: Option<flat::Sink<'_>>,
    depth: Depth,
) -> Result<Body, DsfError> {
    let mut dsf = Dsf::default();
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
    let of =
        |id: u32| -> Vec<Atom<'_>> { geod_atoms.iter().filter(|a| a.id == id).copied().collect() };
    let (pools, pools32) = if depth == Depth::Whole {
        (
            flat::pools(&of(POOL), &of(SCAL), SCAL, false, &mut pool_budget)?,
            flat::pools(&of(PO32), &of(SC32), SC32, true, &mut pool_budget)?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    keep_unknown(&mut dsf, &geod_atoms, Some(GEOD), &[POOL, SCAL, PO32, SC32]);

    if let Some(dems) = find(&top, DEMS) {
        let dem_atoms = atoms(dems.payload, dems.payload_offset())?;
        dsf.rasters = rasters(&dem_atoms, &dsf.raster_defs)?;
        keep_unknown(&mut dsf, &dem_atoms, Some(DEMS), &[DEMI, DEMD]);
    }
    keep_unknown(&mut dsf, &top, None, &[HEAD, DEFN, GEOD, CMDS, DEMS]);

    // Decoded values may not exceed this budget either: a range command
    // can name up to 65535 points in 5 bytes.
    let budget =
        value_budget(bytes.len()).min(limits.max_unpack_ratio.saturating_mul(disk_len as u64) / 8);
    let defs = [
        dsf.terrain_defs.len(),
        dsf.object_defs.len(),
        dsf.polygon_defs.len(),
        dsf.network_defs.len(),
    ];
    let cx = flat::Context {
        defs,
        overlay: dsf.is_overlay(),
        budget,
    };
    if depth == Depth::Head {
        return Ok((dsf, pools, pools32, 0..0, cx));
    }
    let run = flat::run(
        &dsf,
        &pools,
        &pools32,
        cx,
        Cursor::new(cmds.payload, cmds.payload_offset()),
        false,
        sink,
    )?;
    dsf.elevation_pools = run.elevation;
    dsf.pools = pools.iter().map(|p| p.to_pool(false)).collect();
    dsf.pools32 = pools32.iter().map(|p| p.to_pool(false)).collect();
    let start = cmds.payload_offset() as usize;
    Ok((dsf, pools, pools32, start..start + cmds.payload.len(), cx))
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
