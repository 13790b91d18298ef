//! DSF2Text, the DSFTool text form: a writer using DSFTool's printf formats
//! and a reader that accepts what DSFTool's text2dsf accepts (plus errors
//! with line numbers where DSFTool would silently drop a line).
//!
//! Decisions (see docs/dsf.md): `OBJECT_MSL`/`OBJECT_AGL` print the elevation
//! before the heading (as DSFTool's code and sample files do); `DIVISIONS`
//! and `HEIGHTS` are derived from the pools as DSFTool's dsf2text derives
//! them; raster sidecar paths are resolved by the caller. [`write_stream`]
//! prints a binary DSF's entities as its commands are decoded, so the text
//! never has to be held in memory.

use super::fixed::{push_fixed, push_i64, push_u64};
use super::read::{Decoded, Event, StreamError};
use super::write::BuildOptions;
use super::{
    Dsf, ElevationMode, Entity, Md5Status, NetworkChain, Object, Patch, Polygon, Primitive,
    PrimitiveKind, Raster,
};
use std::fmt;
use std::io::{self, Write};

/// Options of [`to_text`].
#[derive(Debug, Clone, Default)]
pub struct TextOptions {
    /// Printed as `# file: <name>` in the header.
    pub source_name: Option<String>,
    /// Raster `k` is named `<raster_base>.<DEMN name>.raw` on its
    /// `RASTER_DATA` line (DSFTool uses the output text path); without it,
    /// `<DEMN name>.raw`.
    pub raster_base: Option<String>,
}

/// The sidecar file name of a raster for [`to_text`].
pub fn raster_file_name(opts: &TextOptions, k: usize, r: &Raster) -> String {
    let name = if r.name.is_empty() {
        format!("raster{k}")
    } else {
        r.name.clone()
    };
    match &opts.raster_base {
        Some(b) => format!("{b}.{name}.raw"),
        None => format!("{name}.raw"),
    }
}

/// Writes `dsf` as DSF2Text.
pub fn to_text(dsf: &Dsf, opts: &TextOptions) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_text(dsf, opts, &mut out);
    match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Writes `dsf` as DSF2Text to `w`.
pub fn write_text(dsf: &Dsf, opts: &TextOptions, w: &mut dyn Write) -> io::Result<()> {
    header(dsf, opts, w)?;
    let mut lines = Lines::new(w);
    for e in &dsf.entities {
        entity(&mut lines.b, e, DefOffsets::default());
        lines.spill()?;
    }
    lines.b.extend_from_slice(RESULT);
    lines.finish()
}

/// The program DSFTool 2.4.0-b1 names on a text's second line
/// (`800 written by DSFTool 2.4.0-b1`); `agkit dsftool` writes the same
/// line, so that its texts are DSFTool's byte for byte.
pub const DSFTOOL_AGENT: &str = "DSFTool 2.4.0-b1";

/// Where one tile's definitions start in a text that merges several tiles
/// (`DSFTool --dsf2text A.dsf B.dsf OUT.txt`): each table of the text is
/// the tables of the tiles one after another, so an entity of a later
/// tile names its definition by its index plus the sizes of that table in
/// the tiles before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DefOffsets {
    /// Added to `BEGIN_PATCH` terrain indices.
    pub terrain: u64,
    /// Added to `OBJECT*` indices.
    pub object: u64,
    /// Added to `BEGIN_POLYGON` indices.
    pub polygon: u64,
    /// Added to `BEGIN_SEGMENT*` indices.
    pub network: u64,
}

impl DefOffsets {
    /// The offsets of the tile that follows `dsf` in the text.
    pub fn after(self, dsf: &Dsf) -> DefOffsets {
        DefOffsets {
            terrain: self.terrain + dsf.terrain_defs.len() as u64,
            object: self.object + dsf.object_defs.len() as u64,
            polygon: self.polygon + dsf.polygon_defs.len() as u64,
            network: self.network + dsf.network_defs.len() as u64,
        }
    }
}

/// The three cookie lines and the blank line that open a text, naming
/// `agent` as its writer (`agkit`, or [`DSFTOOL_AGENT`]).
pub fn write_cookie(agent: &str, w: &mut dyn Write) -> io::Result<()> {
    write!(w, "I\n800 written by {agent}\nDSF2TEXT\n\n")
}

/// One tile's part of a text, as DSFTool writes each of the DSFs it is
/// given: `# file: <source_name>`, the pool summary, `DIVISIONS`,
/// `HEIGHTS`, properties, definitions, one `RASTER_DATA` line per raster
/// naming `raster_files[k]` (without a name where that is empty or
/// missing: the text then has no sidecar), the entities with their
/// definitions offset by `first`, and `# Result code: 0`. A text is
/// [`write_cookie`] and then one part per tile.
pub fn write_stream_part(
    dsf: &Decoded<'_>,
    source_name: &str,
    raster_files: &[String],
    first: DefOffsets,
    w: &mut dyn Write,
) -> Result<(), StreamError<io::Error>> {
    header_body(&dsf.head, Some(source_name), raster_files, w).map_err(StreamError::Sink)?;
    stream_entities(dsf, first, w)
}

/// DSFTool's last line for a file it read without error.
const RESULT: &[u8] = b"# Result code: 0\n";

/// Streams a binary DSF as DSF2Text: the header of `dsf`, then each entity
/// as its command is decoded. Entities that come while a patch is open are
/// printed inside its `BEGIN_PATCH`…`END_PATCH` block, as DSFTool prints
/// them (the text reader accepts that).
pub fn write_stream(
    dsf: &Decoded<'_>,
    opts: &TextOptions,
    w: &mut dyn Write,
) -> Result<(), StreamError<io::Error>> {
    header(&dsf.head, opts, w).map_err(StreamError::Sink)?;
    stream_entities(dsf, DefOffsets::default(), w)
}

/// The entities of `dsf` as they are decoded, then the trailer.
fn stream_entities(
    dsf: &Decoded<'_>,
    off: DefOffsets,
    w: &mut dyn Write,
) -> Result<(), StreamError<io::Error>> {
    let mut depth = 0;
    let mut lines = Lines::new(w);
    dsf.events(|ev, _| {
        match ev {
            Event::Entity(e) => entity(&mut lines.b, &e, off),
            Event::BeginPatch(p) => {
                depth = p.depth;
                begin_patch(&mut lines.b, &p, off);
            }
            Event::Primitive(pr) => primitive(&mut lines.b, &pr, depth),
            Event::EndPatch => lines.b.extend_from_slice(b"END_PATCH\n"),
        }
        lines.spill()
    })?;
    lines.b.extend_from_slice(RESULT);
    lines.finish().map_err(StreamError::Sink)
}

/// The header: cookie lines, source, DSFTool's pool summary (for a model
/// read from a binary), `DIVISIONS`, `HEIGHTS`, properties, definitions
/// and `RASTER_DATA` lines.
fn header(dsf: &Dsf, opts: &TextOptions, w: &mut dyn Write) -> io::Result<()> {
    write_cookie("agkit", w)?;
    let names: Vec<String> = dsf
        .rasters
        .iter()
        .enumerate()
        .map(|(k, r)| raster_file_name(opts, k, r))
        .collect();
    header_body(dsf, opts.source_name.as_deref(), &names, w)
}

/// The header after the cookie lines (see [`header`]).
fn header_body(
    dsf: &Dsf,
    source_name: Option<&str>,
    raster_files: &[String],
    w: &mut dyn Write,
) -> io::Result<()> {
    if let Some(n) = source_name {
        writeln!(w, "# file: {n}\n")?;
    }
    let from_binary = dsf.md5 != Md5Status::NotChecked;
    if from_binary {
        for (k, p) in dsf.pools.iter().enumerate() {
            write!(w, "# pool {k:2}: p={} s={:5}", p.depth(), p.count)?;
            for pl in &p.planes {
                write!(w, "  {:.5} {:.5}", pl.scale, pl.offset)?;
            }
            w.write_all(b"\n")?;
        }
        let kind = if dsf.is_overlay() { "obj" } else { "ter" };
        writeln!(
            w,
            "# pool {:2}: # {kind}_pools found: {}\n",
            dsf.pools.len(),
            dsf.elevation_pools.len()
        )?;
    }
    let divisions = if from_binary {
        dsftool_divisions(dsf)
    } else {
        BuildOptions::default().divisions
    };
    writeln!(w, "DIVISIONS {divisions}")?;
    let (scale, offset) = dsftool_heights(dsf);
    writeln!(
        w,
        "HEIGHTS {:.5} {offset:.1}  # max encodeable {:.5}",
        scale / 65535.0,
        offset + scale
    )?;
    for (n, v) in &dsf.properties {
        writeln!(w, "PROPERTY {n} {v}")?;
    }
    for (kw, table) in [
        ("TERRAIN_DEF", &dsf.terrain_defs),
        ("OBJECT_DEF", &dsf.object_defs),
        ("POLYGON_DEF", &dsf.polygon_defs),
        ("NETWORK_DEF", &dsf.network_defs),
        ("RASTER_DEF", &dsf.raster_defs),
    ] {
        for d in table {
            writeln!(w, "{kw} {d}")?;
        }
    }
    for (k, r) in dsf.rasters.iter().enumerate() {
        write!(
            w,
            "RASTER_DATA version={} bpp={} flags={} width={} height={} scale={:.6} offset={:.6}",
            r.version, r.bpp, r.flags, r.width, r.height, r.scale, r.offset,
        )?;
        match raster_files.get(k).filter(|n| !n.is_empty()) {
            Some(n) => writeln!(w, " {n}")?,
            None => w.write_all(b"\n")?,
        }
    }
    Ok(())
}

/// `DIVISIONS` as DSFTool's dsf2text derives it from the 16-bit pools: 2,
/// raised to the rounded inverse of any pool's lon or lat scale that
/// exceeds it by more than a half, at most 32. (Pools of fewer than two
/// planes, and raw planes of scale 0, which DSFTool would read past or
/// divide by, are skipped.)
pub fn dsftool_divisions(dsf: &Dsf) -> u32 {
    let mut divisions = 2.0f64;
    for p in &dsf.pools {
        let [Some(a), Some(b)] = [p.planes.first(), p.planes.get(1)] else {
            continue;
        };
        let inv = |s: f32| {
            if s == 0.0 {
                f64::NEG_INFINITY
            } else {
                1.0 / f64::from(s)
            }
        };
        let (x, y) = (inv(a.scale), inv(b.scale));
        if x > 0.5 + divisions || y > 0.5 + divisions {
            divisions = (x.max(y) + 0.5).trunc().min(32.0);
        }
    }
    divisions as u32
}

/// `HEIGHTS` as DSFTool's dsf2text suggests it: `(scale, offset)` with
/// `scale` = 65535 × a resolution of 1 m halved up to five times. For a
/// model read from a binary it takes the elevation planes (3 for an
/// overlay's objects, 2 for a base mesh's patches) of
/// [`Dsf::elevation_pools`] — a pool without that plane counts as scale 0
/// and offset 0, which is what DSFTool reads there in practice. For a model
/// from text, the elevations of those entities stand in for the pools.
pub fn dsftool_heights(dsf: &Dsf) -> (f64, f64) {
    let overlay = dsf.is_overlay();
    let plane = if overlay { 3 } else { 2 };
    let mut lo = 32767.0f64;
    let mut hi = -32768.0f64;
    let mut rng = 65535.0f64;
    if dsf.md5 != Md5Status::NotChecked {
        for &p in &dsf.elevation_pools {
            let (s, o) = dsf
                .pools
                .get(usize::from(p))
                .and_then(|p| p.planes.get(plane))
                .map_or((0.0, 0.0), |pl| (f64::from(pl.scale), f64::from(pl.offset)));
            lo = lo.min(o);
            hi = hi.max(o + s);
            rng = rng.min(s);
        }
    } else {
        let (mut a, mut b) = (f64::INFINITY, f64::NEG_INFINITY);
        for e in &dsf.entities {
            match e {
                Entity::Object(o) if overlay => {
                    let z = o.elevation.unwrap_or(0.0);
                    (a, b) = (a.min(z), b.max(z));
                }
                Entity::Patch(p) if !overlay && p.depth > 2 => {
                    for v in p
                        .primitives
                        .iter()
                        .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
                    {
                        (a, b) = (a.min(v[2]), b.max(v[2]));
                    }
                }
                _ => {}
            }
        }
        if a <= b {
            (lo, hi, rng) = (lo.min(a), hi.max(b), rng.min(b - a));
        }
    }
    guess_good_heights(lo, hi, rng)
}

/// DSFTool's choice of an elevation range: offset the floor of the lowest
/// value (0 when the range fits above 0 anyway), scale 65535 m halved while
/// the highest value still fits and the narrowest pool keeps more than 70 %
/// of a step, at most five times.
fn guess_good_heights(lo: f64, hi: f64, min_range: f64) -> (f64, f64) {
    let mut offset = lo.floor();
    let top = hi - offset;
    let mut scale = 65535.0;
    for _ in 0..5 {
        if top > scale * 0.5 || min_range * 0.7 >= scale {
            break;
        }
        scale *= 0.5;
    }
    if hi <= scale && offset > 0.0 {
        offset = 0.0;
    }
    (scale, offset)
}

/// Where a text's entity lines are formatted before they are written:
/// lines go into one buffer, written out in blocks of about 64 KiB.
struct Lines<'w> {
    w: &'w mut dyn Write,
    b: Vec<u8>,
}

impl<'w> Lines<'w> {
    const BLOCK: usize = 1 << 16;

    fn new(w: &'w mut dyn Write) -> Self {
        Lines {
            w,
            b: Vec::with_capacity(Self::BLOCK + 4096),
        }
    }

    /// Writes the buffer out once it holds a block.
    fn spill(&mut self) -> io::Result<()> {
        if self.b.len() >= Self::BLOCK {
            self.w.write_all(&self.b)?;
            self.b.clear();
        }
        Ok(())
    }

    /// Writes out what is left.
    fn finish(mut self) -> io::Result<()> {
        self.w.write_all(&self.b)?;
        self.b.clear();
        Ok(())
    }
}

fn entity(b: &mut Vec<u8>, e: &Entity, off: DefOffsets) {
    match e {
        Entity::Filter(f) => {
            b.extend_from_slice(b"FILTER ");
            push_i64(b, i64::from(*f));
            b.push(b'\n');
        }
        Entity::Object(o) => object(b, o, off.object),
        Entity::Polygon(p) => polygon(b, p, off.polygon),
        Entity::Network(n) => chain(b, n, off.network),
        Entity::Patch(p) => {
            begin_patch(b, p, off);
            for pr in &p.primitives {
                primitive(b, pr, p.depth);
            }
            b.extend_from_slice(b"END_PATCH\n");
        }
    }
}

/// ` <x with prec digits>`.
fn num(b: &mut Vec<u8>, x: f64, prec: usize) {
    b.push(b' ');
    push_fixed(b, x, prec);
}

/// ` <v>`.
fn int(b: &mut Vec<u8>, v: u64) {
    b.push(b' ');
    push_u64(b, v);
}

fn object(b: &mut Vec<u8>, o: &Object, off: u64) {
    let def = u64::from(o.def) + off;
    match (o.mode, o.elevation) {
        (ElevationMode::Draped, _) | (_, None) => {
            b.extend_from_slice(b"OBJECT");
            int(b, def);
            num(b, o.lon, 9);
            num(b, o.lat, 9);
        }
        (m, Some(z)) => {
            b.extend_from_slice(if m == ElevationMode::Agl {
                b"OBJECT_AGL"
            } else {
                b"OBJECT_MSL"
            });
            int(b, def);
            num(b, o.lon, 9);
            num(b, o.lat, 9);
            num(b, z, 5);
        }
    }
    num(b, o.heading, 3);
    b.push(b'\n');
}

fn values(b: &mut Vec<u8>, kw: &[u8], v: &[f64]) {
    b.extend_from_slice(kw);
    for &x in v {
        num(b, x, 9);
    }
    b.push(b'\n');
}

fn polygon(b: &mut Vec<u8>, p: &Polygon, off: u64) {
    b.extend_from_slice(b"BEGIN_POLYGON");
    int(b, u64::from(p.def) + off);
    int(b, u64::from(p.param));
    int(b, p.depth as u64);
    b.push(b'\n');
    for k in 0..p.windings.len() {
        b.extend_from_slice(b"BEGIN_WINDING\n");
        for pt in p.points(k) {
            values(b, b"POLYGON_POINT", pt);
        }
        b.extend_from_slice(b"END_WINDING\n");
    }
    b.extend_from_slice(b"END_POLYGON\n");
}

fn begin_patch(b: &mut Vec<u8>, p: &Patch, off: DefOffsets) {
    b.extend_from_slice(b"BEGIN_PATCH");
    int(b, u64::from(p.def) + off.terrain);
    num(b, f64::from(p.lod_near), 6);
    num(b, f64::from(p.lod_far), 6);
    int(b, u64::from(p.flags));
    int(b, p.depth as u64);
    b.push(b'\n');
}

fn primitive(b: &mut Vec<u8>, pr: &Primitive, depth: usize) {
    b.extend_from_slice(b"BEGIN_PRIMITIVE");
    int(b, u64::from(pr.kind.code()));
    b.push(b'\n');
    for v in pr.vertices.chunks_exact(depth.max(1)) {
        values(b, b"PATCH_VERTEX", v);
    }
    b.extend_from_slice(b"END_PRIMITIVE\n");
}

fn chain(b: &mut Vec<u8>, n: &NetworkChain, off: u64) {
    let def = u64::from(n.def) + off;
    let pts: Vec<&[f64]> = n.points().collect();
    if pts.is_empty() {
        return;
    }
    let curved = n.depth >= 7;
    let take: &[usize] = if curved {
        &[0, 1, 2, 4, 5, 6]
    } else {
        &[0, 1, 2]
    };
    let geo = |b: &mut Vec<u8>, p: &[f64]| {
        for &i in take {
            num(b, p[i], 9);
        }
        b.push(b'\n');
    };
    let suffix: &[u8] = if curved { b"_CURVED" } else { b"" };
    let end = |b: &mut Vec<u8>, p: &[f64]| {
        b.extend_from_slice(b"END_SEGMENT");
        b.extend_from_slice(suffix);
        int(b, p[3] as u64);
        geo(b, p);
    };
    let begin = |b: &mut Vec<u8>, p: &[f64]| {
        b.extend_from_slice(b"BEGIN_SEGMENT");
        b.extend_from_slice(suffix);
        int(b, def);
        int(b, u64::from(n.subtype));
        int(b, p[3] as u64);
        geo(b, p);
    };
    begin(b, pts[0]);
    if pts.len() == 1 {
        end(b, pts[0]);
        return;
    }
    for (i, p) in pts.iter().enumerate().skip(1) {
        let last = i + 1 == pts.len();
        if p[3] != 0.0 || last {
            end(b, p);
            if !last {
                begin(b, p);
            }
        } else {
            b.extend_from_slice(b"SHAPE_POINT");
            b.extend_from_slice(suffix);
            geo(b, p);
        }
    }
}

/// A DSF2Text parse error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// 1-based line.
    pub line: usize,
    /// Byte range of the line in the source.
    pub span: std::ops::Range<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TextError {}

struct Line<'a> {
    no: usize,
    span: std::ops::Range<usize>,
    keyword: &'a str,
    rest: &'a str,
}

impl Line<'_> {
    fn err(&self, m: impl Into<String>) -> TextError {
        TextError {
            line: self.no,
            span: self.span.clone(),
            message: m.into(),
        }
    }

    fn args(&self) -> Vec<&str> {
        self.rest.split_whitespace().collect()
    }

    fn ints<const N: usize>(&self, a: &[&str]) -> Result<[i64; N], TextError> {
        let mut out = [0i64; N];
        for (i, o) in out.iter_mut().enumerate() {
            let t = a.get(i).ok_or_else(|| {
                self.err(format!(
                    "{} needs at least {N} integer arguments",
                    self.keyword
                ))
            })?;
            *o = t
                .parse()
                .map_err(|_| self.err(format!("`{t}` is not an integer")))?;
        }
        Ok(out)
    }

    fn floats(&self, a: &[&str]) -> Result<Vec<f64>, TextError> {
        a.iter()
            .map(|t| {
                t.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| self.err(format!("`{t}` is not a number")))
            })
            .collect()
    }

    fn exact(&self, a: &[&str], n: usize) -> Result<(), TextError> {
        if a.len() == n {
            Ok(())
        } else {
            Err(self.err(format!(
                "{} takes {n} values, found {}",
                self.keyword,
                a.len()
            )))
        }
    }
}

/// The non-blank lines of `text`, comments cut, split into keyword and
/// rest (lazily: the text is walked twice without holding its lines).
fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut start = 0;
    text.split_inclusive('\n')
        .enumerate()
        .filter_map(move |(no, raw)| {
            // The line without its end, so that a report shows one line.
            let span = start..start + raw.trim_end_matches(['\n', '\r']).len();
            start += raw.len();
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                return None;
            }
            let (keyword, rest) = match body.find(char::is_whitespace) {
                Some(i) => (&body[..i], body[i..].trim()),
                None => (body, ""),
            };
            Some(Line {
                no: no + 1,
                span,
                keyword,
                rest,
            })
        })
}

fn def_index(l: &Line<'_>, v: i64, table: &[String], name: &str) -> Result<u32, TextError> {
    if v >= 0 && (v as usize) < table.len() {
        Ok(v as u32)
    } else {
        Err(l.err(format!(
            "definition {v} is not in the {name} table ({} entries)",
            table.len()
        )))
    }
}

/// What is open while reading geometry (besides a patch, which other
/// entities may interleave, as DSFTool prints them).
enum Open {
    None,
    Polygon(Polygon, Option<Vec<f64>>),
    Primitive(Primitive),
    Segment(NetworkChain),
}

/// Reads DSF2Text into a model plus the build options it asks for
/// (`DIVISIONS`). `load_raster` returns the bytes of a `RASTER_DATA` file.
///
/// A patch is listed where its `BEGIN_PATCH` is; objects, polygons,
/// segments and filters between its primitives (DSFTool prints the
/// entities that follow a base mesh's last patch inside it) are read as
/// they come, and the primitives after them still belong to the patch.
pub fn from_text(
    text: &str,
    load_raster: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<(Dsf, BuildOptions), TextError> {
    parse(text, Some(load_raster), &mut Spans(None))
}

/// The byte range of the line where entity `index` of [`from_text`]'s
/// model begins (its `OBJECT`, `FILTER`, `BEGIN_POLYGON`, `BEGIN_PATCH` or
/// first `BEGIN_SEGMENT` line), to name the line of an entity the builder
/// refuses ([`super::BuildError::entity`]). `None` past the last entity.
/// The text is read again, without its rasters.
pub fn entity_span(text: &str, index: usize) -> Option<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let _ = parse(text, None, &mut Spans(Some(&mut spans)));
    spans.get(index).cloned()
}

/// The bounds properties a text must give, with their ranges (DSFTool
/// refuses a text without them: "the DSF boundaries are out of range").
const BOUNDS: [(&str, f64, f64); 4] = [
    ("sim/west", -180.0, 180.0),
    ("sim/south", -90.0, 90.0),
    ("sim/east", -180.0, 180.0),
    ("sim/north", -90.0, 90.0),
];

/// What [`from_text`] reads a `RASTER_DATA` file with.
type RasterLoader<'a> = dyn FnMut(&str) -> Result<Vec<u8>, String> + 'a;

/// Where each entity begins, when asked for (parallel to the entities).
struct Spans<'a>(Option<&'a mut Vec<std::ops::Range<usize>>>);

impl Spans<'_> {
    fn push(&mut self, span: &std::ops::Range<usize>) {
        if let Some(v) = &mut self.0 {
            v.push(span.clone());
        }
    }

    fn pop(&mut self) -> Option<std::ops::Range<usize>> {
        self.0.as_mut().and_then(|v| v.pop())
    }
}

/// [`from_text`], recording where each entity begins in `spans`; without
/// a raster loader, `RASTER_DATA` lines are skipped.
fn parse(
    text: &str,
    mut load_raster: Option<&mut RasterLoader<'_>>,
    spans: &mut Spans<'_>,
) -> Result<(Dsf, BuildOptions), TextError> {
    let mut dsf = Dsf::default();
    let mut opts = BuildOptions::default();
    // The tile's bounds (sim/west, south, east, north), as DSFTool requires.
    let mut bounds = [false; 4];
    // Their values and lines, to check west < east and south < north.
    let mut bound_at: [Option<(f64, usize, std::ops::Range<usize>)>; 4] = Default::default();
    // Pass 1: header lines, wherever they are.
    for l in lines(text) {
        match l.keyword {
            "PROPERTY" => {
                let (n, v) = match l.rest.find(char::is_whitespace) {
                    Some(i) => (&l.rest[..i], l.rest[i..].trim()),
                    None => (l.rest, ""),
                };
                if n.is_empty() {
                    return Err(l.err("PROPERTY needs a name"));
                }
                if l.rest.contains('\0') {
                    return Err(l.err(
                        "PROPERTY contains a NUL byte; DSF stores names and values as \
                         NUL-terminated strings",
                    ));
                }
                if let Some(k) = BOUNDS.iter().position(|b| b.0 == n) {
                    bounds[k] = true;
                    let (name, lo, hi) = BOUNDS[k];
                    match v.parse::<f64>() {
                        Ok(x) if (lo..=hi).contains(&x) => {
                            bound_at[k] = Some((x, l.no, l.span.clone()));
                        }
                        _ => {
                            return Err(
                                l.err(format!("{name} {v:?} is not a number from {lo} to {hi}"))
                            );
                        }
                    }
                }
                dsf.properties.push((n.to_string(), v.to_string()));
            }
            "TERRAIN_DEF" | "OBJECT_DEF" | "POLYGON_DEF" | "NETWORK_DEF" | "RASTER_DEF" => {
                if l.rest.is_empty() {
                    return Err(l.err(format!("{} needs a path", l.keyword)));
                }
                if l.rest.contains('\0') {
                    return Err(l.err(format!(
                        "{} path contains a NUL byte; DSF stores each path as a \
                         NUL-terminated string",
                        l.keyword
                    )));
                }
                let t = match l.keyword {
                    "TERRAIN_DEF" => &mut dsf.terrain_defs,
                    "OBJECT_DEF" => &mut dsf.object_defs,
                    "POLYGON_DEF" => &mut dsf.polygon_defs,
                    "NETWORK_DEF" => &mut dsf.network_defs,
                    _ => &mut dsf.raster_defs,
                };
                t.push(l.rest.to_string());
            }
            "DIVISIONS" => {
                let [d] = l.ints::<1>(&l.args())?;
                if !(1..=64).contains(&d) {
                    return Err(l.err(format!("DIVISIONS {d} is not 1..64")));
                }
                opts.divisions = d as u32;
            }
            _ => {}
        }
    }
    // Pass 2: rasters and geometry, in order.
    let mut open = Open::None;
    // Index in `dsf.entities` of the open patch.
    let mut patch: Option<usize> = None;
    let mut last_line = 0;
    // Where the open polygon or segment began.
    let mut begin = 0..0;
    for l in lines(text) {
        last_line = l.no;
        let a = l.args();
        match (l.keyword, &mut open) {
            ("RASTER_DATA", _) => {
                if let Some(load) = load_raster.as_mut() {
                    dsf.rasters.push(raster(&l, &a, &dsf, *load)?);
                }
            }
            ("FILTER", Open::None) => {
                let [f] = l.ints::<1>(&a)?;
                let f = i32::try_from(f).map_err(|_| l.err("filter index out of range"))?;
                spans.push(&l.span);
                dsf.entities.push(Entity::Filter(f));
            }
            ("OBJECT" | "OBJECT_MSL" | "OBJECT_AGL", Open::None) => {
                let [d] = l.ints::<1>(&a)?;
                let def = def_index(&l, d, &dsf.object_defs, "OBJECT_DEF")?;
                let draped = l.keyword == "OBJECT";
                l.exact(&a, if draped { 4 } else { 5 })?;
                let v = l.floats(&a[1..])?;
                spans.push(&l.span);
                dsf.entities.push(Entity::Object(Object {
                    def,
                    lon: v[0],
                    lat: v[1],
                    heading: if draped { v[2] } else { v[3] },
                    elevation: (!draped).then_some(v[2]),
                    mode: match l.keyword {
                        "OBJECT" => ElevationMode::Draped,
                        "OBJECT_MSL" => ElevationMode::Msl,
                        _ => ElevationMode::Agl,
                    },
                }));
            }
            ("BEGIN_POLYGON", Open::None) => {
                let [d, param] = l.ints::<2>(&a)?;
                let def = def_index(&l, d, &dsf.polygon_defs, "POLYGON_DEF")?;
                let depth = if a.len() >= 3 { l.ints::<3>(&a)?[2] } else { 2 };
                if !(2..=255).contains(&depth) {
                    return Err(l.err(format!("polygon depth {depth} is not 2..255")));
                }
                let param = u16::try_from(param)
                    .map_err(|_| l.err(format!("polygon parameter {param} is not 0..65535")))?;
                begin = l.span.clone();
                open = Open::Polygon(
                    Polygon {
                        def,
                        param,
                        depth: depth as usize,
                        windings: Vec::new(),
                    },
                    None,
                );
            }
            ("BEGIN_WINDING", Open::Polygon(_, w @ None)) => *w = Some(Vec::new()),
            ("POLYGON_POINT", Open::Polygon(p, Some(w))) => {
                l.exact(&a, p.depth)?;
                w.extend(l.floats(&a)?);
            }
            ("END_WINDING", Open::Polygon(p, w @ Some(_))) => {
                if let Some(mut w) = w.take() {
                    w.shrink_to_fit();
                    p.windings.push(w);
                }
            }
            ("END_POLYGON", Open::Polygon(_, None)) => {
                if let Open::Polygon(mut p, _) = std::mem::replace(&mut open, Open::None) {
                    if p.windings.is_empty() {
                        return Err(l.err("polygon without windings"));
                    }
                    p.windings.shrink_to_fit();
                    spans.push(&begin);
                    dsf.entities.push(Entity::Polygon(p));
                }
            }
            ("BEGIN_PATCH", Open::None) => {
                if patch.is_some() {
                    return Err(l.err("BEGIN_PATCH before the open patch's END_PATCH"));
                }
                l.exact(&a, 5)?;
                let [d] = l.ints::<1>(&a)?;
                let def = def_index(&l, d, &dsf.terrain_defs, "TERRAIN_DEF")?;
                let lod = l.floats(&a[1..3])?;
                if let Some(v) = lod.iter().find(|v| !(**v as f32).is_finite()) {
                    return Err(l.err(format!("LOD {v} does not fit a 32-bit float")));
                }
                let flags = l.ints::<1>(&a[3..])?[0];
                let depth = l.ints::<1>(&a[4..])?[0];
                let flags = u8::try_from(flags).map_err(|_| l.err("patch flags are not 0..255"))?;
                if !(2..=255).contains(&depth) {
                    return Err(l.err(format!("patch depth {depth} is not 2..255")));
                }
                patch = Some(dsf.entities.len());
                spans.push(&l.span);
                dsf.entities.push(Entity::Patch(Patch {
                    def,
                    flags,
                    lod_near: lod[0] as f32,
                    lod_far: lod[1] as f32,
                    depth: depth as usize,
                    primitives: Vec::new(),
                }));
            }
            ("BEGIN_PRIMITIVE", Open::None) if patch.is_some() => {
                let [t] = l.ints::<1>(&a)?;
                let kind = PrimitiveKind::from_code(t)
                    .ok_or_else(|| l.err(format!("primitive type {t} is not 0, 1 or 2")))?;
                open = Open::Primitive(Primitive {
                    kind,
                    vertices: Vec::new(),
                });
            }
            ("PATCH_VERTEX", Open::Primitive(pr)) => {
                let depth = match patch.and_then(|i| dsf.entities.get(i)) {
                    Some(Entity::Patch(p)) => p.depth,
                    _ => 0,
                };
                l.exact(&a, depth)?;
                pr.vertices.extend(l.floats(&a)?);
            }
            ("END_PRIMITIVE", Open::Primitive(_)) => {
                if let Open::Primitive(mut pr) = std::mem::replace(&mut open, Open::None) {
                    if pr.vertices.is_empty() {
                        return Err(l.err("primitive without vertices"));
                    }
                    pr.vertices.shrink_to_fit();
                    if let Some(Entity::Patch(p)) = patch.and_then(|i| dsf.entities.get_mut(i)) {
                        p.primitives.push(pr);
                    }
                }
            }
            ("END_PATCH", Open::None) if patch.is_some() => patch = None,
            ("BEGIN_SEGMENT" | "BEGIN_SEGMENT_CURVED", Open::None) => {
                let curved = l.keyword.ends_with("_CURVED");
                l.exact(&a, if curved { 9 } else { 6 })?;
                let [d, sub, node] = l.ints::<3>(&a)?;
                let def = def_index(&l, d, &dsf.network_defs, "NETWORK_DEF")?;
                let subtype = u32::try_from(sub).map_err(|_| l.err("road subtype is negative"))?;
                let pt = net_point(&l, node, &l.floats(&a[3..])?)?;
                let depth = pt.len();
                // Continue the previous chain when this segment starts where
                // it ended.
                let cont = match dsf.entities.last() {
                    Some(Entity::Network(c)) => {
                        c.def == def
                            && c.subtype == subtype
                            && c.depth == depth
                            && c.points.ends_with(&pt)
                    }
                    _ => false,
                };
                let chain = match dsf.entities.pop_if(|_| cont) {
                    Some(Entity::Network(c)) => {
                        begin = spans.pop().unwrap_or_default();
                        c
                    }
                    _ => {
                        begin = l.span.clone();
                        NetworkChain {
                            def,
                            subtype,
                            depth,
                            points: pt,
                        }
                    }
                };
                open = Open::Segment(chain);
            }
            ("SHAPE_POINT" | "SHAPE_POINT_CURVED", Open::Segment(c)) => {
                let curved = l.keyword.ends_with("_CURVED");
                if curved != (c.depth >= 7) {
                    return Err(l.err("curved and plain network points are mixed"));
                }
                l.exact(&a, if curved { 6 } else { 3 })?;
                let pt = net_point(&l, 0, &l.floats(&a)?)?;
                c.points.extend(pt);
            }
            ("END_SEGMENT" | "END_SEGMENT_CURVED", Open::Segment(c)) => {
                let curved = l.keyword.ends_with("_CURVED");
                if curved != (c.depth >= 7) {
                    return Err(l.err("curved and plain network points are mixed"));
                }
                l.exact(&a, if curved { 7 } else { 4 })?;
                let [node] = l.ints::<1>(&a)?;
                let pt = net_point(&l, node, &l.floats(&a[1..])?)?;
                c.points.extend(pt);
                if let Open::Segment(mut c) = std::mem::replace(&mut open, Open::None) {
                    c.points.shrink_to_fit();
                    spans.push(&begin);
                    dsf.entities.push(Entity::Network(c));
                }
            }
            (
                "FILTER"
                | "OBJECT"
                | "OBJECT_MSL"
                | "OBJECT_AGL"
                | "BEGIN_POLYGON"
                | "BEGIN_WINDING"
                | "POLYGON_POINT"
                | "END_WINDING"
                | "END_POLYGON"
                | "BEGIN_PATCH"
                | "BEGIN_PRIMITIVE"
                | "PATCH_VERTEX"
                | "END_PRIMITIVE"
                | "END_PATCH"
                | "BEGIN_SEGMENT"
                | "BEGIN_SEGMENT_CURVED"
                | "SHAPE_POINT"
                | "SHAPE_POINT_CURVED"
                | "END_SEGMENT"
                | "END_SEGMENT_CURVED",
                _,
            ) => {
                return Err(l.err(format!("{} is not allowed here", l.keyword)));
            }
            _ => {}
        }
    }
    if !matches!((open, patch), (Open::None, None)) {
        return Err(TextError {
            line: last_line.max(1),
            span: text.len()..text.len(),
            message: "the text ends inside a polygon, patch or segment".into(),
        });
    }
    // An inverted or empty box (`sim/west 20` with `sim/east 14`): no tile
    // is that; reported at the later of the two lines.
    for (lo, hi) in [(0, 2), (1, 3)] {
        if let (Some((a, la, sa)), Some((b, lb, sb))) = (&bound_at[lo], &bound_at[hi])
            && a >= b
        {
            let (line, span) = if la > lb { (*la, sa) } else { (*lb, sb) };
            return Err(TextError {
                line,
                span: span.clone(),
                message: format!(
                    "{} {a} is not less than {} {b}: a tile's bounds run from west to east \
                     and from south to north",
                    BOUNDS[lo].0, BOUNDS[hi].0
                ),
            });
        }
    }
    // Reported last, after any error at a line of its own.
    if let Some(k) = bounds.iter().position(|got| !got) {
        return Err(TextError {
            line: 1,
            span: 0..text.find('\n').unwrap_or(text.len()),
            message: format!(
                "no PROPERTY {}: a DSF2Text tile names its bounds (sim/west, sim/south, \
                 sim/east and sim/north), as DSFTool requires",
                BOUNDS[k].0
            ),
        });
    }
    Ok((dsf, opts))
}

/// The `RASTER_DATA` files of one DSF2Text, read for [`from_text`] (as
/// its `load_raster`): a name is taken relative to the text's folder when
/// such a file is there, else as given. Every file goes through the input
/// gate ([`crate::fsutil::read_file`]: a regular file, never a pipe or a
/// device), and the files of one text together may hold at most
/// [`Limits::max_output_bytes`](crate::limits::Limits::max_output_bytes),
/// checked by size before each is read.
#[derive(Debug, Clone)]
pub struct RasterFiles {
    base: std::path::PathBuf,
    total: u64,
    remaining: u64,
}

impl RasterFiles {
    /// The raster files of a text in the folder `base`, bounded by
    /// `limits`.
    pub fn new(base: &std::path::Path, limits: &crate::limits::Limits) -> RasterFiles {
        RasterFiles {
            base: base.to_path_buf(),
            total: limits.max_output_bytes,
            remaining: limits.max_output_bytes,
        }
    }

    /// Reads the file `name` (what a loader of [`from_text`] does).
    pub fn load(&mut self, name: &str) -> Result<Vec<u8>, String> {
        let p = std::path::Path::new(name);
        let beside = self.base.join(p);
        let p = if p.is_relative() && beside.exists() {
            beside
        } else {
            p.to_path_buf()
        };
        // What one `DEMD` atom can hold, and what is left of the total.
        let one = u64::from(u32::MAX) - 8;
        let data = crate::fsutil::read_file(&p, "a raster file", one.min(self.remaining)).map_err(
            |e| match e.kind {
                crate::fsutil::InputErrorKind::TooLarge { len, .. } if len <= one => format!(
                    "{len} bytes would take the raster files of this text past {} bytes \
                     together, the limit",
                    self.total
                ),
                _ => e.reason(),
            },
        )?;
        self.remaining -= data.len() as u64;
        Ok(data)
    }
}

/// lon, lat, elev, junction[, ctrl lon, ctrl lat, ctrl elev].
fn net_point(l: &Line<'_>, node: i64, geo: &[f64]) -> Result<Vec<f64>, TextError> {
    let node = u32::try_from(node).map_err(|_| l.err(format!("node ID {node} is not a u32")))?;
    let mut p = vec![geo[0], geo[1], geo[2], f64::from(node)];
    p.extend_from_slice(&geo[3..]);
    Ok(p)
}

fn raster(
    l: &Line<'_>,
    a: &[&str],
    dsf: &Dsf,
    load: &mut dyn FnMut(&str) -> Result<Vec<u8>, String>,
) -> Result<Raster, TextError> {
    const KEYS: [&str; 7] = [
        "version", "bpp", "flags", "width", "height", "scale", "offset",
    ];
    if a.len() < 8 {
        return Err(l.err(
            "RASTER_DATA needs version= bpp= flags= width= height= scale= offset= and a file",
        ));
    }
    let mut v = [0f64; 7];
    for (i, key) in KEYS.iter().enumerate() {
        let val = a[i]
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix('='))
            .ok_or_else(|| l.err(format!("expected {key}=… as argument {}", i + 1)))?;
        v[i] = val
            .parse()
            .map_err(|_| l.err(format!("`{val}` is not a number")))?;
    }
    let file = a[7..].join(" ");
    let int = |x: f64, max: f64, what: &str| {
        if x.fract() == 0.0 && (0.0..=max).contains(&x) {
            Ok(x)
        } else {
            Err(l.err(format!("{what} {x} is out of range")))
        }
    };
    let r = Raster {
        name: dsf
            .raster_defs
            .get(dsf.rasters.len())
            .cloned()
            .unwrap_or_default(),
        version: int(v[0], 255.0, "version")? as u8,
        bpp: int(v[1], 255.0, "bpp")? as u8,
        flags: int(v[2], 65535.0, "flags")? as u16,
        width: int(v[3], f64::from(u32::MAX), "width")? as u32,
        height: int(v[4], f64::from(u32::MAX), "height")? as u32,
        scale: v[5] as f32,
        offset: v[6] as f32,
        data: load(&file).map_err(|e| l.err(format!("cannot read raster file {file}: {e}")))?,
    };
    let expect = u64::from(r.width) * u64::from(r.height) * u64::from(r.bpp);
    if expect != r.data.len() as u64 {
        return Err(l.err(format!(
            "raster file {file} holds {} bytes, expected {expect}",
            r.data.len()
        )));
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile's bounds, which every text must give.
    const HEAD: &str = "PROPERTY sim/west 1\nPROPERTY sim/south 2\n\
                        PROPERTY sim/east 2\nPROPERTY sim/north 3\n";

    #[test]
    fn raster_files_are_capped_together_and_found_beside_the_text() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.raw"), [1u8; 6]).unwrap();
        std::fs::write(dir.path().join("b.raw"), [2u8; 6]).unwrap();
        let limits = crate::limits::Limits {
            max_output_bytes: 10,
            ..Default::default()
        };
        let mut files = RasterFiles::new(dir.path(), &limits);
        assert_eq!(files.load("a.raw").unwrap(), [1u8; 6]);
        // 6 more bytes would make 12 of the 10 allowed together.
        let e = files.load("b.raw").unwrap_err();
        assert!(e.contains("past 10 bytes together"), "{e}");
        // Alone, under the same limits, it reads; a folder never does.
        let mut fresh = RasterFiles::new(dir.path(), &limits);
        assert_eq!(fresh.load("b.raw").unwrap(), [2u8; 6]);
        let e = fresh.load(".").unwrap_err();
        assert!(e.contains("a directory"), "{e}");
    }

    #[test]
    fn a_text_without_bounds_is_refused_like_dsftool_refuses_it() {
        let none = |_: &str| -> Result<Vec<u8>, String> { Err("none".into()) };
        let e = from_text("garbage\n", &mut { none }).unwrap_err();
        assert_eq!((e.line, e.span.clone()), (1, 0..7));
        assert!(e.message.starts_with("no PROPERTY sim/west"), "{e}");
        let half = "PROPERTY sim/west 1\nPROPERTY sim/south 2\nPROPERTY sim/east 2\n";
        let e = from_text(half, &mut { none }).unwrap_err();
        assert!(e.message.starts_with("no PROPERTY sim/north"), "{e}");
        let e = from_text(&HEAD.replace("west 1", "west 1e9"), &mut { none }).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(
            e.message.contains("sim/west \"1e9\" is not a number"),
            "{e}"
        );
        let e = from_text(&HEAD.replace("north 3", "north x"), &mut { none }).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(from_text(HEAD, &mut { none }).is_ok());
    }

    #[test]
    fn curved_segments_round_trip() {
        let t = &format!(
            "{HEAD}NETWORK_DEF lib/g8/roads.net\n\
                 BEGIN_SEGMENT_CURVED 0 2 7 1.0 2.0 3.0 1.1 2.1 3.1\n\
                 SHAPE_POINT_CURVED 1.2 2.2 3.2 1.3 2.3 3.3\n\
                 END_SEGMENT_CURVED 8 1.4 2.4 3.4 1.5 2.5 3.5\n"
        );
        let (d, _) = from_text(t, &mut |_| Err("none".into())).unwrap();
        let c = d.chains().next().unwrap();
        assert_eq!(c.depth, 7);
        assert_eq!(c.points().count(), 3);
        assert_eq!(&c.points[..7], &[1.0, 2.0, 3.0, 7.0, 1.1, 2.1, 3.1]);
        let out = to_text(&d, &TextOptions::default());
        assert!(out.contains("BEGIN_SEGMENT_CURVED 0 2 7 1.000000000 2.000000000 3.000000000 1.100000000 2.100000000 3.100000000\n"), "{out}");
        assert!(out.contains("END_SEGMENT_CURVED 8 "), "{out}");
        let (again, _) = from_text(&out, &mut |_| Err("none".into())).unwrap();
        assert_eq!(again.entities, d.entities);
    }

    #[test]
    fn segments_sharing_a_junction_become_one_chain() {
        let t = &format!(
            "{HEAD}NETWORK_DEF r.net\n\
             BEGIN_SEGMENT 0 1 1 1 1 0\nEND_SEGMENT 2 2 2 0\n\
             BEGIN_SEGMENT 0 1 2 2 2 0\nSHAPE_POINT 3 3 0\nEND_SEGMENT 3 4 4 0\n\
             BEGIN_SEGMENT 0 1 9 5 5 0\nEND_SEGMENT 10 6 6 0\n"
        );
        let (d, _) = from_text(t, &mut |_| Err("none".into())).unwrap();
        let chains: Vec<usize> = d.chains().map(|c| c.points().count()).collect();
        assert_eq!(chains, [4, 2]);
    }
}
