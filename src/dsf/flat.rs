//! A DSF's pools and command stream decoded into flat arrays: what every
//! reader of a binary DSF starts from ([`super::read::decode`]).
//!
//! Pools are typed arrays (`u16` for `POOL`, `u32` for `PO32`), plane after
//! plane, decoded from the file's planar encodings once. The command stream
//! is one vector of [`Item`]s, small `Copy` records in stream order that
//! name their points by index: a run of objects is one item (an
//! `ObjectRange`, or consecutive `Object` commands over consecutive points),
//! and the point indices of polygons, primitives and chains that list them
//! are in one shared vector. Nothing is allocated per entity; the typed
//! model ([`super::Entity`]) is built from the items on request
//! ([`Flat::events`], [`super::read::Decoded::into_model`]).
//!
//! The command state machine follows xptools' `DSFCmdsParser` (DSFLib/
//! DSFLibRead.cpp) as the DSF notes §3.3 describe it; every error names
//! the command's byte offset.

use super::cursor::{Atom, Cursor, DsfError, ErrorKind, Event};
use super::{
    ElevationMode, Entity, NetworkChain, Object, Patch, Plane, Polygon, Pool, Primitive,
    PrimitiveKind, atom_name,
};

/// The values of one pool, plane after plane (`count` values each).
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// A 16-bit pool's.
    Narrow(Vec<u16>),
    /// A 32-bit pool's.
    Wide(Vec<u32>),
}

/// One point pool, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct FlatPool {
    /// Byte offset of the pool atom.
    pub offset: u64,
    /// Number of points.
    pub count: usize,
    /// Each plane's encoding in the file (0 raw, 1 differenced, 2 RLE, 3 both).
    pub encodings: Vec<u8>,
    /// Each plane's `(scale, offset)` from the scale atom.
    pub scales: Vec<(f32, f32)>,
    /// The raw values.
    pub values: Values,
}

impl FlatPool {
    /// Planes per point.
    pub fn depth(&self) -> usize {
        self.encodings.len()
    }

    /// True for a 32-bit pool.
    pub fn wide(&self) -> bool {
        matches!(self.values, Values::Wide(_))
    }

    /// Raw value of plane `plane` of point `i` (both in range).
    pub fn raw(&self, i: usize, plane: usize) -> u32 {
        let k = plane * self.count + i;
        match &self.values {
            Values::Narrow(v) => u32::from(v[k]),
            Values::Wide(v) => v[k],
        }
    }

    /// Decoded value of plane `plane` of point `i` (both in range).
    pub fn value(&self, i: usize, plane: usize) -> f64 {
        let (s, o) = self.scales[plane];
        super::decode(self.raw(i, plane), s, o, self.wide())
    }

    /// Every plane of point `i`, decoded, appended to `out`.
    pub fn point_into(&self, i: usize, out: &mut Vec<f64>) {
        out.extend((0..self.depth()).map(|p| self.value(i, p)));
    }

    /// The pool as the model holds it; without values (`raw` empty) when
    /// `values` is false.
    pub fn to_pool(&self, values: bool) -> Pool {
        let planes = (0..self.depth())
            .map(|p| Plane {
                encoding: self.encodings[p],
                scale: self.scales[p].0,
                offset: self.scales[p].1,
                raw: if values {
                    (0..self.count).map(|i| self.raw(i, p)).collect()
                } else {
                    Vec::new()
                },
                wide: self.wide(),
            })
            .collect();
        Pool {
            offset: self.offset,
            count: self.count,
            planes,
        }
    }
}

/// How a polygon's, primitive's or chain's points are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Listed: point indices in [`Flat`]'s index vector.
    List,
    /// A range of consecutive points.
    Range,
    /// Listed as `(pool, index)` pairs (cross-pool primitives).
    Cross,
}

/// One record of the command stream, in stream order. `at` is the byte
/// offset of the command that made it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Item {
    /// A filter comment: what follows belongs to the k-th `sim/filter/aptid`.
    Filter {
        /// Command offset.
        at: u64,
        /// The filter index (-1 = none).
        value: i32,
    },
    /// Objects at the points `first..last` of 16-bit pool `pool`. With
    /// `step` 0 they all come from the command at `at`; with `step` 3 the
    /// k-th comes from an `Object` command at `at + 3k`.
    Objects {
        /// Command offset.
        at: u64,
        /// Bytes between the commands of consecutive objects (0 or 3).
        step: u8,
        /// `OBJT` index.
        def: u32,
        /// Pool index.
        pool: u32,
        /// First point.
        first: u32,
        /// One past the last point.
        last: u32,
        /// How the elevation is meant.
        mode: ElevationMode,
    },
    /// A polygon of `windings` windings of 16-bit pool `pool`; winding k's
    /// points are `spans[start + k]..spans[start + k + 1]`: indices into
    /// the index vector ([`Form::List`]) or pool points ([`Form::Range`]).
    Polygon {
        /// Command offset.
        at: u64,
        /// `POLY` index.
        def: u32,
        /// The polygon parameter.
        param: u16,
        /// Pool index.
        pool: u32,
        /// List or range.
        form: Form,
        /// First entry in the span vector.
        start: u32,
        /// Number of windings.
        windings: u32,
    },
    /// A terrain patch opens.
    BeginPatch {
        /// Command offset.
        at: u64,
        /// `TERT` index.
        def: u32,
        /// Patch flags.
        flags: u8,
        /// Near and far LOD.
        lod: (f32, f32),
        /// Coordinates per vertex.
        depth: u32,
    },
    /// A primitive of the open patch: points `first..last` of 16-bit pool
    /// `pool` ([`Form::Range`]), indices `first..last` of the index vector
    /// in that pool ([`Form::List`]) or `(pool, index)` pairs there
    /// ([`Form::Cross`]).
    Primitive {
        /// Command offset.
        at: u64,
        /// Triangles, strip or fan.
        kind: PrimitiveKind,
        /// Pool index (the current pool; unused for cross-pool).
        pool: u32,
        /// How the vertices are named.
        form: Form,
        /// See the variant.
        first: u32,
        /// See the variant.
        last: u32,
    },
    /// The open patch closes.
    EndPatch {
        /// Offset of the command that closed it (or the end of `CMDS`).
        at: u64,
    },
    /// A network chain of 32-bit pool `pool`: points `first..last`
    /// ([`Form::Range`]) or indices `first..last` of the index vector
    /// ([`Form::List`]), absolute.
    Chain {
        /// Command offset.
        at: u64,
        /// `NETW` index.
        def: u32,
        /// Road subtype.
        subtype: u32,
        /// Pool index.
        pool: u32,
        /// List or range.
        form: Form,
        /// See the variant.
        first: u32,
        /// See the variant.
        last: u32,
    },
}

/// A DSF's pools and command stream as flat arrays (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flat {
    /// The 16-bit pools.
    pub pools: Vec<FlatPool>,
    /// The 32-bit pools.
    pub pools32: Vec<FlatPool>,
    /// The command stream's records, in stream order.
    pub items: Vec<Item>,
    idx: Vec<u32>,
    spans: Vec<u32>,
}

/// The point indices of one winding, primitive (not cross-pool) or chain.
#[derive(Debug, Clone)]
pub enum Points<'f> {
    /// Listed indices.
    List(std::slice::Iter<'f, u32>),
    /// A range.
    Range(std::ops::Range<u32>),
}

impl Iterator for Points<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        match self {
            Points::List(i) => i.next().copied(),
            Points::Range(r) => r.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Points::List(i) => i.size_hint(),
            Points::Range(r) => r.size_hint(),
        }
    }
}

impl ExactSizeIterator for Points<'_> {}

/// The pools and the index vectors an [`Item`] names its points in: a
/// [`Flat`]'s, or those of the command being decoded when the items are
/// streamed ([`super::read::Decoded::events`]).
#[derive(Debug, Clone, Copy)]
pub struct View<'f> {
    /// The 16-bit pools.
    pub pools: &'f [FlatPool],
    /// The 32-bit pools.
    pub pools32: &'f [FlatPool],
    idx: &'f [u32],
    spans: &'f [u32],
}

impl Flat {
    /// The view its items name their points in.
    pub fn view(&self) -> View<'_> {
        View {
            pools: &self.pools,
            pools32: &self.pools32,
            idx: &self.idx,
            spans: &self.spans,
        }
    }

    /// Number of entities the model holds for these items (objects one
    /// each, patches one each, primitives none).
    pub fn entity_count(&self) -> usize {
        self.items
            .iter()
            .map(|it| match it {
                Item::Objects { first, last, .. } => (last - first) as usize,
                Item::Primitive { .. } | Item::EndPatch { .. } => 0,
                _ => 1,
            })
            .sum()
    }

    /// Walks the items as [`Event`]s with their command offsets, in
    /// stream order.
    pub fn events<E>(&self, mut sink: impl FnMut(Event, u64) -> Result<(), E>) -> Result<(), E> {
        let view = self.view();
        let mut depth = 0;
        for it in &self.items {
            view.event(it, &mut depth, &mut sink)?;
        }
        Ok(())
    }
}

impl View<'_> {
    fn points(&self, form: Form, first: u32, last: u32) -> Points<'_> {
        match form {
            Form::Range => Points::Range(first..last),
            _ => Points::List(self.idx[first as usize..last as usize].iter()),
        }
    }

    /// The points of winding `k` of a [`Item::Polygon`] with these fields.
    pub fn winding(&self, form: Form, start: u32, k: u32) -> Points<'_> {
        let s = (start + k) as usize;
        self.points(form, self.spans[s], self.spans[s + 1])
    }

    /// The `(pool, index)` vertices of an [`Item::Primitive`] with these
    /// fields.
    pub fn vertices(
        &self,
        pool: u32,
        form: Form,
        first: u32,
        last: u32,
    ) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (cross, plain) = match form {
            Form::Cross => (
                Some(self.idx[first as usize..last as usize].chunks_exact(2)),
                None,
            ),
            _ => (None, Some(self.points(form, first, last))),
        };
        cross
            .into_iter()
            .flatten()
            .map(|p| (p[0], p[1]))
            .chain(plain.into_iter().flatten().map(move |i| (pool, i)))
    }

    /// The points of an [`Item::Chain`] with these fields.
    pub fn chain_points(&self, form: Form, first: u32, last: u32) -> Points<'_> {
        self.points(form, first, last)
    }

    /// Hands `item` to `sink` as [`Event`]s with their command offsets
    /// (one per object of an [`Item::Objects`]). `depth` carries the open
    /// patch's depth from its [`Item::BeginPatch`] to its primitives.
    pub fn event<E>(
        &self,
        item: &Item,
        depth: &mut usize,
        sink: &mut impl FnMut(Event, u64) -> Result<(), E>,
    ) -> Result<(), E> {
        {
            match *item {
                Item::Filter { at, value } => sink(Event::Entity(Entity::Filter(value)), at)?,
                Item::Objects {
                    at,
                    step,
                    def,
                    pool,
                    first,
                    last,
                    mode,
                } => {
                    let p = &self.pools[pool as usize];
                    for i in first..last {
                        let o = Object {
                            def,
                            lon: p.value(i as usize, 0),
                            lat: p.value(i as usize, 1),
                            heading: p.value(i as usize, 2),
                            elevation: (mode != ElevationMode::Draped)
                                .then(|| p.value(i as usize, 3)),
                            mode,
                        };
                        let off = at + u64::from(step) * u64::from(i - first);
                        sink(Event::Entity(Entity::Object(o)), off)?;
                    }
                }
                Item::Polygon {
                    at,
                    def,
                    param,
                    pool,
                    form,
                    start,
                    windings,
                } => {
                    let p = &self.pools[pool as usize];
                    let ws = (0..windings)
                        .map(|k| {
                            let pts = self.winding(form, start, k);
                            let mut flat = Vec::with_capacity(pts.len() * p.depth());
                            for i in pts {
                                p.point_into(i as usize, &mut flat);
                            }
                            flat
                        })
                        .collect();
                    let poly = Polygon {
                        def,
                        param,
                        depth: p.depth(),
                        windings: ws,
                    };
                    sink(Event::Entity(Entity::Polygon(poly)), at)?;
                }
                Item::BeginPatch {
                    at,
                    def,
                    flags,
                    lod,
                    depth: d,
                } => {
                    *depth = d as usize;
                    let patch = Patch {
                        def,
                        flags,
                        lod_near: lod.0,
                        lod_far: lod.1,
                        depth: *depth,
                        primitives: Vec::new(),
                    };
                    sink(Event::BeginPatch(patch), at)?;
                }
                Item::Primitive {
                    at,
                    kind,
                    pool,
                    form,
                    first,
                    last,
                } => {
                    let mut vertices = Vec::new();
                    for (p, i) in self.vertices(pool, form, first, last) {
                        let p = &self.pools[p as usize];
                        if vertices.is_empty() {
                            vertices.reserve((last - first) as usize * (*depth).max(p.depth()));
                        }
                        p.point_into(i as usize, &mut vertices);
                    }
                    sink(Event::Primitive(Primitive { kind, vertices }), at)?;
                }
                Item::EndPatch { at } => sink(Event::EndPatch, at)?,
                Item::Chain {
                    at,
                    def,
                    subtype,
                    pool,
                    form,
                    first,
                    last,
                } => {
                    let p = &self.pools32[pool as usize];
                    let pts = self.chain_points(form, first, last);
                    let mut points = Vec::with_capacity(pts.len() * p.depth());
                    for i in pts {
                        p.point_into(i as usize, &mut points);
                    }
                    let c = NetworkChain {
                        def,
                        subtype,
                        depth: p.depth(),
                        points,
                    };
                    sink(Event::Entity(Entity::Network(c)), at)?;
                }
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- pools

/// A raw pool value type.
trait RawValue: Copy + Default {
    const SIZE: usize;
    fn le(b: &[u8]) -> Self;
    fn add(self, o: Self) -> Self;
}

impl RawValue for u16 {
    const SIZE: usize = 2;
    fn le(b: &[u8]) -> Self {
        u16::from_le_bytes([b[0], b[1]])
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
}

impl RawValue for u32 {
    const SIZE: usize = 4;
    fn le(b: &[u8]) -> Self {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
}

/// Decodes the pools `pool_atoms` with their scale atoms `scale_atoms`
/// (matched in order), charging the values decoded to `budget`.
pub(crate) fn pools(
    pool_atoms: &[Atom<'_>],
    scale_atoms: &[Atom<'_>],
    scal_id: u32,
    wide: bool,
    budget: &mut u64,
) -> Result<Vec<FlatPool>, DsfError> {
    let mut out = Vec::with_capacity(pool_atoms.len());
    for (k, a) in pool_atoms.iter().enumerate() {
        let mut pool = if wide {
            planar::<u32>(a, budget, Values::Wide)?
        } else {
            planar::<u16>(a, budget, Values::Narrow)?
        };
        let d = pool.depth();
        let s = scale_atoms.get(k).ok_or_else(|| {
            DsfError::new(
                a.offset,
                ErrorKind::BadScale(format!(
                    "{} #{k} has no matching {}",
                    atom_name(a.id),
                    atom_name(scal_id)
                )),
            )
        })?;
        if s.payload.len() != 8 * d {
            return Err(DsfError::new(
                s.offset,
                ErrorKind::BadScale(format!(
                    "{} #{k} holds {} bytes, expected {} for {d} planes",
                    atom_name(scal_id),
                    s.payload.len(),
                    8 * d,
                )),
            ));
        }
        let mut c = Cursor::new(s.payload, s.offset + 8);
        for _ in 0..d {
            let scale = c.f32("a scale atom")?;
            let offset = c.f32("a scale atom")?;
            pool.scales.push((scale, offset));
        }
        out.push(pool);
    }
    Ok(out)
}

fn planar<T: RawValue>(
    atom: &Atom<'_>,
    budget: &mut u64,
    wrap: fn(Vec<T>) -> Values,
) -> Result<FlatPool, DsfError> {
    let mut c = Cursor::new(atom.payload, atom.offset + 8);
    let n = c.u32("a pool header")? as usize;
    let d = c.u8("a pool header")? as usize;
    let mut encodings = Vec::with_capacity(d);
    let mut values: Vec<T> = Vec::new();
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
        plane_values(&mut c, n, encoding, at, &mut values)?;
        encodings.push(encoding);
    }
    if !c.is_empty() {
        return Err(DsfError::new(
            c.offset(),
            ErrorKind::BadPool(format!("{} bytes left after the last plane", c.remaining())),
        ));
    }
    Ok(FlatPool {
        offset: atom.offset,
        count: n,
        encodings,
        scales: Vec::with_capacity(d),
        values: wrap(values),
    })
}

/// Decodes one plane of `n` values onto the end of `out`.
fn plane_values<T: RawValue>(
    c: &mut Cursor<'_>,
    n: usize,
    encoding: u8,
    at: u64,
    out: &mut Vec<T>,
) -> Result<(), DsfError> {
    let size = T::SIZE;
    let too_big = |need: usize, c: &Cursor<'_>| {
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
        Some(m) => return Err(too_big(m, c)),
        None => return Err(too_big(usize::MAX, c)),
    }
    let start = out.len();
    out.reserve(n);
    if encoding & 2 == 0 {
        let b = c.bytes(n * size, "pool data")?;
        out.extend(b.chunks_exact(size).map(T::le));
    } else {
        let mut done = 0usize;
        while done < n {
            let run_at = c.offset();
            let code = c.u8("an RLE run")?;
            let count = (code & 0x7F) as usize;
            if count == 0 {
                return Err(DsfError::new(
                    run_at,
                    ErrorKind::BadPool("RLE run with count 0".into()),
                ));
            }
            if done + count > n {
                return Err(DsfError::new(
                    run_at,
                    ErrorKind::BadPool(format!(
                        "RLE run of {count} overruns the plane ({done} of {n} values done)"
                    )),
                ));
            }
            if code & 0x80 != 0 {
                let v = T::le(c.bytes(size, "pool data")?);
                out.extend(std::iter::repeat_n(v, count));
            } else {
                let fit = c.remaining() / size;
                if count > fit {
                    // Where the first value that does not fit starts.
                    c.bytes(fit * size, "pool data")?;
                    return Err(DsfError::new(
                        c.offset(),
                        ErrorKind::Truncated { what: "pool data" },
                    ));
                }
                let b = c.bytes(count * size, "pool data")?;
                out.extend(b.chunks_exact(size).map(T::le));
            }
            done += count;
        }
    }
    if encoding & 1 == 1 {
        let mut acc = T::default();
        for v in &mut out[start..] {
            acc = acc.add(*v);
            *v = acc;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- commands

/// Budget charged per decoded entity (its record and its share of the
/// text output, in 8-byte values), so that one-byte commands
/// (`TerrainPatch`, empty polygons) cannot make millions of entities from a
/// small file: 16 exceeds the 8 values a byte of input may decode to.
const ENTITY_COST: u64 = 16;

/// Sizes of the definition tables: `TERT`, `OBJT`, `POLY`, `NETW`.
pub(crate) type DefCounts = [usize; 4];

/// What receives each item as it is decoded, with the view its points
/// are in; `false` stops the run.
pub(crate) type Sink<'s> = &'s mut dyn FnMut(&super::Dsf, &View<'_>, &Item) -> bool;

/// The command-stream state machine, handing items to its sink (and
/// keeping them, when asked) as it goes.
struct Machine<'p, 's> {
    head: &'p super::Dsf,
    pools: &'p [FlatPool],
    pools32: &'p [FlatPool],
    /// Keep the items (and the indices they name) in `items`, `idx` and
    /// `spans`; without it both vectors hold only the current command's.
    keep: bool,
    sink: Option<Sink<'s>>,
    /// The sink asked to stop.
    stopped: bool,
    defs: DefCounts,
    pool: u32,
    junction: u32,
    def: u32,
    subtype: u32,
    flags: u8,
    lod: (f32, f32),
    agl: bool,
    /// Depth of the open patch (0 until a pool gives it one).
    patch: Option<usize>,
    /// A patch opened before any pool was selected: its record waits for
    /// the first primitive to tell its depth.
    pending: Option<Item>,
    /// The run of consecutive `Object` commands being read: one
    /// [`Item::Objects`], handed on when anything else comes (so the sink
    /// sees one record for the run, not one per command).
    open: Option<Item>,
    budget: u64,
    items: Vec<Item>,
    idx: Vec<u32>,
    spans: Vec<u32>,
    overlay: bool,
    /// The 16-bit pools DSFTool reads elevations from (see
    /// [`super::read::Decoded`]), as a bit set of pool numbers.
    elevation: Vec<u64>,
}

const W: &str = "a command";

fn reversed(first: u64, last: u64, at: u64) -> Result<(), DsfError> {
    if last < first {
        Err(DsfError::new(
            at,
            ErrorKind::BadGeometry(format!("range [{first}, {last}) is reversed")),
        ))
    } else {
        Ok(())
    }
}

fn point_index(index: u64, count: usize, at: u64) -> DsfError {
    DsfError::new(at, ErrorKind::PointIndex { index, count })
}

/// The error for the first point of `first..last` (not reversed) that is
/// not below `count`, if any.
fn range_in(first: u64, last: u64, count: usize, at: u64) -> Result<(), DsfError> {
    let c = count as u64;
    if last > c && first < last {
        Err(point_index(first.max(c), count, at))
    } else {
        Ok(())
    }
}

/// `n` little-endian u16 values of `b` (whose length is `2n`).
fn u16s(b: &[u8]) -> impl ExactSizeIterator<Item = u16> + Clone + '_ {
    b.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]]))
}

impl Machine<'_, '_> {
    /// Hands `item` to the sink and keeps it when asked. A stop asked by
    /// the sink ends the run as an error that [`run`] does not report.
    fn emit(&mut self, item: Item) -> Result<(), DsfError> {
        // The open run names no indices: those of the command being read
        // (already in `idx` and `spans`) stay for `item`.
        self.flush()?;
        self.deliver(item)?;
        if !self.keep {
            self.idx.clear();
            self.spans.clear();
        }
        Ok(())
    }

    /// Hands on the open run of objects, if any.
    fn flush(&mut self) -> Result<(), DsfError> {
        match self.open.take() {
            Some(run) => self.deliver(run),
            None => Ok(()),
        }
    }

    /// What [`Machine::emit`] does once the open run is handed on.
    fn deliver(&mut self, item: Item) -> Result<(), DsfError> {
        if let Some(sink) = self.sink.as_mut() {
            let view = View {
                pools: self.pools,
                pools32: self.pools32,
                idx: &self.idx,
                spans: &self.spans,
            };
            if !sink(self.head, &view, &item) {
                self.stopped = true;
                return Err(DsfError::new(
                    0,
                    ErrorKind::MissingAtom("(stopped by the sink)"),
                ));
            }
        }
        if self.keep {
            self.items.push(item);
        }
        Ok(())
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

    fn mark(&mut self, pool: u16) {
        self.elevation[usize::from(pool) / 64] |= 1 << (pool % 64);
    }

    fn pool16(&self, pool: u32, at: u64) -> Result<&FlatPool, DsfError> {
        self.pools.get(pool as usize).ok_or_else(|| {
            DsfError::new(
                at,
                ErrorKind::PoolIndex {
                    pool,
                    count: self.pools.len(),
                },
            )
        })
    }

    fn def(&self, table: usize, at: u64) -> Result<u32, DsfError> {
        const NAMES: [&str; 4] = ["TERT", "OBJT", "POLY", "NETW"];
        let count = self.defs[table];
        if (self.def as usize) < count {
            Ok(self.def)
        } else {
            Err(DsfError::new(
                at,
                ErrorKind::DefIndex {
                    table: NAMES[table],
                    def: self.def,
                    count,
                },
            ))
        }
    }

    /// An `Object` command (opcode 7) at `at`: the next object of the open
    /// run when it follows it directly, in the same pool and definition,
    /// at the next point (checked as [`Machine::objects`] would, without
    /// looking the definition and pool up again), else a new run.
    fn object(&mut self, index: u16, at: u64) -> Result<(), DsfError> {
        let i = u32::from(index);
        if let Some(Item::Objects {
            at: a,
            step: 3,
            def,
            pool,
            first,
            last,
            ..
        }) = self.open
            && def == self.def
            && pool == self.pool
            && last == i
            && a + 3 * u64::from(last - first) == at
        {
            // The definition and pool were checked when the run opened,
            // and nothing between could have changed them.
            let count = self.pools[pool as usize].count;
            if i as usize >= count {
                return Err(point_index(u64::from(i), count, at));
            }
            self.spend(ENTITY_COST, at)?;
            if let Some(Item::Objects { last, .. }) = self.open.as_mut() {
                *last = i + 1;
            }
            return Ok(());
        }
        self.objects(u64::from(i), u64::from(i) + 1, 3, at)
    }

    fn objects(&mut self, first: u64, last: u64, step: u8, at: u64) -> Result<(), DsfError> {
        let def = self.def(1, at)?;
        let pool = self.pool16(self.pool, at)?;
        if last < first {
            reversed(first, last, at)?;
        }
        if last as usize > pool.count {
            return Err(point_index(
                last.saturating_sub(1).max(first),
                pool.count,
                at,
            ));
        }
        let d = pool.depth();
        if d < 3 {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry(format!("objects need a pool of 3 or 4 planes, not {d}")),
            ));
        }
        let mode = if d == 3 {
            ElevationMode::Draped
        } else if self.agl {
            ElevationMode::Agl
        } else {
            ElevationMode::Msl
        };
        self.spend((last - first) * ENTITY_COST, at)?;
        if first == last {
            return Ok(());
        }
        let (first, last) = (first as u32, last as u32);
        let item = Item::Objects {
            at,
            step,
            def,
            pool: self.pool,
            first,
            last,
            mode,
        };
        if step == 3 {
            self.flush()?;
            self.open = Some(item);
            Ok(())
        } else {
            self.emit(item)
        }
    }

    /// A polygon whose windings are listed: each of `windings` holds its
    /// u16 indices.
    fn polygon_list(&mut self, param: u16, windings: &[&[u8]], at: u64) -> Result<(), DsfError> {
        let def = self.def(2, at)?;
        let pool = self.pool16(self.pool, at)?;
        let d = pool.depth();
        let count = pool.count;
        let total: u64 = windings.iter().map(|w| w.len() as u64 / 2).sum();
        self.spend(
            ENTITY_COST + windings.len() as u64 + total * d.max(1) as u64,
            at,
        )?;
        let start = self.spans.len() as u32;
        self.spans.push(self.idx.len() as u32);
        for w in windings {
            for i in u16s(w) {
                if usize::from(i) >= count {
                    return Err(point_index(u64::from(i), count, at));
                }
                self.idx.push(u32::from(i));
            }
            self.spans.push(self.idx.len() as u32);
        }
        self.emit(Item::Polygon {
            at,
            def,
            param,
            pool: self.pool,
            form: Form::List,
            start,
            windings: windings.len() as u32,
        })
    }

    /// A polygon whose winding k is `bounds[k]..bounds[k + 1]`.
    fn polygon_range(
        &mut self,
        param: u16,
        bounds: impl ExactSizeIterator<Item = u16> + Clone,
        at: u64,
    ) -> Result<(), DsfError> {
        let pairs = || {
            let mut b = bounds.clone();
            let mut prev = b.next();
            std::iter::from_fn(move || {
                let (p, n) = (prev?, b.next()?);
                prev = Some(n);
                Some((u64::from(p), u64::from(n)))
            })
        };
        for (a, b) in pairs() {
            reversed(a, b, at)?;
        }
        let def = self.def(2, at)?;
        let pool = self.pool16(self.pool, at)?;
        let d = pool.depth();
        let count = pool.count;
        let windings = bounds.len().saturating_sub(1);
        let total: u64 = pairs().map(|(a, b)| b - a).sum();
        self.spend(ENTITY_COST + windings as u64 + total * d.max(1) as u64, at)?;
        for (a, b) in pairs() {
            range_in(a, b, count, at)?;
        }
        let start = self.spans.len() as u32;
        self.spans.extend(bounds.take(windings + 1).map(u32::from));
        self.emit(Item::Polygon {
            at,
            def,
            param,
            pool: self.pool,
            form: Form::Range,
            start,
            windings: windings as u32,
        })
    }

    /// A chain of the absolute 32-bit pool points `points` (listed) or
    /// `range`.
    fn chain(
        &mut self,
        points: Option<&mut dyn ExactSizeIterator<Item = u64>>,
        range: (u64, u64),
        at: u64,
    ) -> Result<(), DsfError> {
        let def = self.def(3, at)?;
        let pool = self.pools32.get(self.pool as usize).ok_or_else(|| {
            DsfError::new(
                at,
                ErrorKind::PoolIndex {
                    pool: self.pool,
                    count: self.pools32.len(),
                },
            )
        })?;
        let d = pool.depth();
        let count = pool.count;
        if d < 4 {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry(format!(
                    "network chains need a 32-bit pool of at least 4 planes, not {d}"
                )),
            ));
        }
        let n = match &points {
            Some(p) => p.len() as u64,
            None => range.1 - range.0,
        };
        self.spend(ENTITY_COST + n * d as u64, at)?;
        let (form, first, last) = match points {
            Some(p) => {
                let first = self.idx.len() as u32;
                for i in p {
                    if i >= count as u64 {
                        return Err(point_index(i, count, at));
                    }
                    self.idx.push(i as u32);
                }
                (Form::List, first, self.idx.len() as u32)
            }
            None => {
                range_in(range.0, range.1, count, at)?;
                (Form::Range, range.0 as u32, range.1 as u32)
            }
        };
        self.emit(Item::Chain {
            at,
            def,
            subtype: self.subtype,
            pool: self.pool,
            form,
            first,
            last,
        })
    }

    /// Checks one vertex of the open patch (depth `depth`, 0 = not known
    /// yet) and returns the patch's depth.
    fn vertex(&self, pool: u32, i: u64, depth: usize, at: u64) -> Result<usize, DsfError> {
        let p = self.pool16(pool, at)?;
        if i >= p.count as u64 {
            return Err(point_index(i, p.count, at));
        }
        if depth == 0 {
            Ok(p.depth())
        } else if p.depth() != depth {
            Err(DsfError::new(
                at,
                ErrorKind::BadGeometry(format!(
                    "a patch of depth {depth} uses a pool of depth {}",
                    p.depth()
                )),
            ))
        } else {
            Ok(depth)
        }
    }

    /// A primitive: listed indices of the current pool (`Form::List`,
    /// `body` u16s), `(pool, index)` pairs (`Form::Cross`, `body` u16
    /// pairs) or the current pool's `range` (`Form::Range`).
    fn primitive(
        &mut self,
        kind: PrimitiveKind,
        form: Form,
        body: &[u8],
        range: (u64, u64),
        at: u64,
    ) -> Result<(), DsfError> {
        let Some(mut depth) = self.patch else {
            return Err(DsfError::new(
                at,
                ErrorKind::BadGeometry("triangle command outside a terrain patch".into()),
            ));
        };
        let n = match form {
            Form::List => body.len() as u64 / 2,
            Form::Cross => body.len() as u64 / 4,
            Form::Range => range.1 - range.0,
        };
        self.spend(ENTITY_COST + n * depth.max(1) as u64, at)?;
        let pool = self.pool;
        let (first, last) = match form {
            Form::Range => {
                let (a, b) = range;
                if a < b {
                    depth = self.vertex(pool, a, depth, at)?;
                    range_in(a, b, self.pools[pool as usize].count, at)?;
                }
                (a as u32, b as u32)
            }
            Form::List => {
                let first = self.idx.len() as u32;
                for i in u16s(body) {
                    depth = self.vertex(pool, u64::from(i), depth, at)?;
                    self.idx.push(u32::from(i));
                }
                (first, self.idx.len() as u32)
            }
            Form::Cross => {
                let first = self.idx.len() as u32;
                let mut v = u16s(body);
                while let (Some(p), Some(i)) = (v.next(), v.next()) {
                    depth = self.vertex(u32::from(p), u64::from(i), depth, at)?;
                    self.idx.push(u32::from(p));
                    self.idx.push(u32::from(i));
                }
                (first, self.idx.len() as u32)
            }
        };
        self.patch = Some(depth);
        if let Some(Item::BeginPatch {
            at: opened,
            def,
            flags,
            lod,
            ..
        }) = self.pending.take()
        {
            self.emit(Item::BeginPatch {
                at: opened,
                def,
                flags,
                lod,
                depth: depth as u32,
            })?;
        }
        self.emit(Item::Primitive {
            at,
            kind,
            pool,
            form,
            first,
            last,
        })
    }

    fn close_patch(&mut self, at: u64) -> Result<(), DsfError> {
        if let Some(p) = self.pending.take() {
            self.emit(p)?;
        }
        if self.patch.take().is_some() {
            self.emit(Item::EndPatch { at })?;
        }
        Ok(())
    }

    fn open_patch(&mut self, at: u64) -> Result<(), DsfError> {
        let def = self.def(0, at)?;
        self.spend(ENTITY_COST, at)?;
        self.close_patch(at)?;
        let depth = self
            .pools
            .get(self.pool as usize)
            .map_or(0, FlatPool::depth);
        let p = Item::BeginPatch {
            at,
            def,
            flags: self.flags,
            lod: self.lod,
            depth: depth as u32,
        };
        self.patch = Some(depth);
        if depth == 0 {
            self.pending = Some(p);
            Ok(())
        } else {
            self.emit(p)
        }
    }

    /// Parses and runs an `Object` command (opcode 7, at `at`, just read).
    fn object_command(&mut self, c: &mut Cursor<'_>, at: u64) -> Result<(), DsfError> {
        let i = c.u16(W)?;
        if self.overlay {
            self.mark(self.pool as u16);
        }
        self.object(i, at)
    }

    /// Parses and runs the command whose opcode `op` (at `at`) was just
    /// read. The whole command is read before the state is touched, so a
    /// command cut short is reported as such first.
    fn command(&mut self, c: &mut Cursor<'_>, op: u8, at: u64) -> Result<(), DsfError> {
        let kind = match op {
            23..=25 => PrimitiveKind::Triangles,
            26..=28 => PrimitiveKind::Strip,
            _ => PrimitiveKind::Fan,
        };
        match op {
            1 => {
                let p = c.u16(W)?;
                if p as usize >= self.pools.len() && p as usize >= self.pools32.len() {
                    return Err(DsfError::new(
                        at,
                        ErrorKind::PoolIndex {
                            pool: u32::from(p),
                            count: self.pools.len().max(self.pools32.len()),
                        },
                    ));
                }
                self.pool = u32::from(p);
            }
            2 => self.junction = c.u32(W)?,
            3 => self.def = u32::from(c.u8(W)?),
            4 => {
                self.def = u32::from(c.u16(W)?);
                if self.overlay {
                    self.mark(self.pool as u16);
                }
            }
            5 => self.def = c.u32(W)?,
            6 => self.subtype = u32::from(c.u8(W)?),
            7 => self.object_command(c, at)?,
            8 => {
                let first = u64::from(c.u16(W)?);
                let last = u64::from(c.u16(W)?);
                if self.overlay {
                    self.mark(self.pool as u16);
                }
                self.objects(first, last, 0, at)?;
            }
            9 => {
                let n = c.u8(W)? as usize;
                let b = c.bytes(2 * n, W)?;
                let base = u64::from(self.junction);
                let mut pts = u16s(b).map(|i| u64::from(i) + base);
                self.chain(Some(&mut pts), (0, 0), at)?;
            }
            10 => {
                let (a, b) = (c.u16(W)?, c.u16(W)?);
                let base = u64::from(self.junction);
                let (a, b) = (u64::from(a) + base, u64::from(b) + base);
                reversed(a, b, at)?;
                self.chain(None, (a, b), at)?;
            }
            11 => {
                let n = c.u8(W)? as usize;
                let b = c.bytes(4 * n, W)?;
                let mut pts = b
                    .chunks_exact(4)
                    .map(|p| u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])));
                self.chain(Some(&mut pts), (0, 0), at)?;
            }
            12 => {
                let param = c.u16(W)?;
                let n = c.u8(W)? as usize;
                let b = c.bytes(2 * n, W)?;
                self.polygon_list(param, &[b], at)?;
            }
            13 => {
                let param = c.u16(W)?;
                let (a, b) = (c.u16(W)?, c.u16(W)?);
                self.polygon_range(param, [a, b].into_iter(), at)?;
            }
            14 => {
                let param = c.u16(W)?;
                let w = c.u8(W)? as usize;
                let mut ws: [&[u8]; 255] = [&[]; 255];
                for slot in ws.iter_mut().take(w) {
                    let n = c.u8(W)? as usize;
                    *slot = c.bytes(2 * n, W)?;
                }
                self.polygon_list(param, &ws[..w], at)?;
            }
            15 => {
                let param = c.u16(W)?;
                let w = c.u8(W)? as usize;
                let b = c.bytes(2 * (w + 1), W)?;
                self.polygon_range(param, u16s(b), at)?;
            }
            16 => {
                if !self.overlay {
                    self.mark(self.pool as u16);
                }
                self.open_patch(at)?;
            }
            17 => {
                let f = c.u8(W)?;
                if !self.overlay {
                    self.mark(self.pool as u16);
                }
                self.flags = f;
                self.open_patch(at)?;
            }
            18 => {
                let (f, near, far) = (c.u8(W)?, c.f32(W)?, c.f32(W)?);
                if !self.overlay {
                    self.mark(self.pool as u16);
                }
                self.flags = f;
                self.lod = (near, far);
                self.open_patch(at)?;
            }
            23 | 26 | 29 => {
                let n = c.u8(W)? as usize;
                let b = c.bytes(2 * n, W)?;
                self.primitive(kind, Form::List, b, (0, 0), at)?;
            }
            24 | 27 | 30 => {
                let n = c.u8(W)? as usize;
                let b = c.bytes(4 * n, W)?;
                if !self.overlay {
                    for p in u16s(b).step_by(2) {
                        self.mark(p);
                    }
                }
                self.primitive(kind, Form::Cross, b, (0, 0), at)?;
            }
            25 | 28 | 31 => {
                let (a, b) = (u64::from(c.u16(W)?), u64::from(c.u16(W)?));
                reversed(a, b, at)?;
                self.primitive(kind, Form::Range, &[], (a, b), at)?;
            }
            32..=34 => {
                let n = match op {
                    32 => c.u8(W)? as usize,
                    33 => c.u16(W)? as usize,
                    _ => c.u32(W)? as usize,
                };
                let body = c.bytes(n, W)?;
                // Typed comments: exactly a u16 type and an i32 (as xptools).
                if let [k0, k1, v0, v1, v2, v3] = *body {
                    let v = i32::from_le_bytes([v0, v1, v2, v3]);
                    match u16::from_le_bytes([k0, k1]) {
                        1 => {
                            self.spend(ENTITY_COST, at)?;
                            self.emit(Item::Filter { at, value: v })?;
                        }
                        2 => self.agl = v != 0,
                        _ => {}
                    }
                }
            }
            _ => return Err(DsfError::new(at, ErrorKind::UnknownOpcode(op))),
        }
        Ok(())
    }
}

/// What [`run`] found.
pub(crate) struct Run {
    /// The items and the indices they name (empty unless kept).
    pub(crate) flat: Flat,
    /// The 16-bit pools DSFTool reads elevations from, in order: for an
    /// overlay, those current at object and `SetDefinition16` commands;
    /// for a base mesh, at patches and cross-pool vertices.
    pub(crate) elevation: Vec<u16>,
}

/// The command stream's context: the definition table sizes, the
/// overlay flag and the value budget.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    pub(crate) defs: DefCounts,
    pub(crate) overlay: bool,
    pub(crate) budget: u64,
}

/// Runs the command stream `c` (a cursor over `CMDS`) over the pools, handing each item to `sink` as it is decoded, and keeping the
/// items in the result's [`Flat`] (without its pools) when `keep` is set.
pub(crate) fn run(
    head: &super::Dsf,
    pools: &[FlatPool],
    pools32: &[FlatPool],
    cx: Context,
    mut c: Cursor<'_>,
    keep: bool,
    sink: Option<Sink<'_>>,
) -> Result<Run, DsfError> {
    let mut m = Machine {
        head,
        pools,
        pools32,
        keep,
        sink,
        stopped: false,
        defs: cx.defs,
        pool: u32::from(u16::MAX),
        junction: 0,
        def: u32::MAX,
        subtype: 0,
        flags: 0xFF,
        lod: (-1.0, -1.0),
        agl: false,
        patch: None,
        pending: None,
        open: None,
        budget: cx.budget,
        items: Vec::new(),
        idx: Vec::new(),
        spans: Vec::new(),
        overlay: cx.overlay,
        elevation: vec![0u64; 1024],
    };
    // Stopped by the sink, which knows why.
    let stopped = || Run {
        flat: Flat::default(),
        elevation: Vec::new(),
    };
    while !c.is_empty() {
        let at = c.offset();
        let op = c.u8(W)?;
        // Objects come in long runs of `Object` commands: a test the
        // branch predictor learns, ahead of the opcode table's jump.
        let done = if op == 7 {
            m.object_command(&mut c, at)
        } else {
            m.command(&mut c, op, at)
        };
        if let Err(e) = done {
            if m.stopped {
                return Ok(stopped());
            }
            return Err(match e.kind {
                ErrorKind::Truncated { .. } => DsfError::new(at, ErrorKind::TruncatedCommand(op)),
                _ => e,
            });
        }
    }
    if let Err(e) = m.close_patch(c.offset()).and_then(|()| m.flush()) {
        return if m.stopped { Ok(stopped()) } else { Err(e) };
    }
    let elevation = (0..pools.len().min(1 << 16))
        .filter(|&p| (m.elevation[p / 64] >> (p % 64)) & 1 == 1)
        .map(|p| p as u16)
        .collect();
    let (mut items, mut idx, mut spans) = (m.items, m.idx, m.spans);
    items.shrink_to_fit();
    idx.shrink_to_fit();
    spans.shrink_to_fit();
    Ok(Run {
        flat: Flat {
            pools: Vec::new(),
            pools32: Vec::new(),
            items,
            idx,
            spans,
        },
        elevation,
    })
}
