//! Binary DSF builder.
//!
//! [`build`] turns a [`Dsf`]'s definitions and entities into a DSF: it packs
//! the points into 16-bit pools (objects, polygons, patches) and 32-bit pools
//! (networks), grouped by entity kind, depth and a `divisions × divisions`
//! grid cell of the entity's first point. Each plane gets power-of-two
//! bounds fitted to its data (or, for integer-only planes past lon/lat, the
//! raw integers with scale 0; headings use the fixed range 0..360), values
//! are rounded to the nearest step, and every plane is written with mode 3
//! (RLE + differences). Commands use range forms, so each polygon, patch
//! primitive and chain reads consecutive pool points. The existing pools of
//! the input are ignored: the output depends only on the entities.

use super::cmd::{self, Command};
use super::read::{
    CMDS, DEFN, DEMD, DEMI, DEMN, DEMS, GEOD, HEAD, MAGIC, NETW, OBJT, PO32, POLY, POOL, PROP,
    SC32, SCAL, TERT,
};
use super::{Dsf, ElevationMode, Entity};
use md5::{Digest, Md5};
use std::collections::HashMap;
use std::fmt;

/// Options of [`build`].
#[derive(Debug, Clone, Copy)]
pub struct BuildOptions {
    /// Pools split the tile into `divisions × divisions` cells (1..=64;
    /// default 8, as DSFTool).
    pub divisions: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { divisions: 8 }
    }
}

/// Why a model could not be written as DSF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// Index of the offending entity in [`Dsf::entities`], if any.
    pub entity: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entity {
            Some(i) => write!(f, "entity {i}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for BuildError {}

fn err(entity: Option<usize>, message: impl Into<String>) -> BuildError {
    BuildError {
        entity,
        message: message.into(),
    }
}

/// The entity families; each gets its own pools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Family {
    Object,
    Polygon,
    Patch,
    Network,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    family: Family,
    depth: usize,
    cell: (i64, i64),
}

/// A pool being filled.
struct PoolBuf {
    family: Family,
    depth: usize,
    wide: bool,
    /// Flat values, `depth` per point.
    values: Vec<f64>,
}

impl PoolBuf {
    fn count(&self) -> usize {
        self.values.len() / self.depth.max(1)
    }
}

/// Points per pool: 16-bit indices with an exclusive end that must fit u16.
const POOL_CAP: usize = 65535;

struct Pools {
    divisions: f64,
    bufs16: Vec<PoolBuf>,
    bufs32: Vec<PoolBuf>,
    open: HashMap<Key, usize>,
}

impl Pools {
    /// Appends `points` (flat, `depth` each) to one pool of `family`; returns
    /// the pool number and the index of the first point.
    fn add(
        &mut self,
        family: Family,
        depth: usize,
        points: &[f64],
        entity: usize,
    ) -> Result<(usize, usize), BuildError> {
        let n = points.len() / depth;
        if n > POOL_CAP {
            return Err(err(
                Some(entity),
                format!("{n} points do not fit one pool (at most {POOL_CAP})"),
            ));
        }
        if let Some(v) = points.iter().find(|v| !v.is_finite() || v.abs() > 1e15) {
            return Err(err(
                Some(entity),
                format!("coordinate {v} cannot be encoded"),
            ));
        }
        let cell = if points.len() >= 2 {
            (
                (points[0] * self.divisions).floor() as i64,
                (points[1] * self.divisions).floor() as i64,
            )
        } else {
            (0, 0)
        };
        let key = Key {
            family,
            depth,
            cell,
        };
        let wide = family == Family::Network;
        let bufs = if wide {
            &mut self.bufs32
        } else {
            &mut self.bufs16
        };
        let idx = match self.open.get(&key) {
            Some(&i) if bufs[i].count() + n <= POOL_CAP => i,
            _ => {
                bufs.push(PoolBuf {
                    family,
                    depth,
                    wide,
                    values: Vec::new(),
                });
                self.open.insert(key, bufs.len() - 1);
                bufs.len() - 1
            }
        };
        let first = bufs[idx].count();
        bufs[idx].values.extend_from_slice(points);
        Ok((idx, first))
    }
}

/// Command-stream writer that remembers the state to skip redundant
/// selections and to pick the shortest patch opcode.
struct Cmds {
    out: Vec<Command>,
    pool: Option<usize>,
    def: Option<u32>,
    subtype: Option<u32>,
    agl: bool,
    /// Patch flags and LOD in force (`None` before the first patch).
    patch_state: Option<(u8, u32, u32)>,
}

impl Cmds {
    fn push(&mut self, c: Command) {
        self.out.push(c);
    }
    fn pool(&mut self, p: usize) {
        if self.pool != Some(p) {
            self.push(Command::PoolSelect(p as u16));
            self.pool = Some(p);
        }
    }
    fn def(&mut self, d: u32) {
        if self.def != Some(d) {
            self.push(Command::set_definition(d));
            self.def = Some(d);
        }
    }
    /// Opens a patch: opcode 16 when flags and LOD are those in force, 17
    /// when only the flags differ, 18 otherwise (always for the first).
    fn open_patch(&mut self, flags: u8, near: f32, far: f32) {
        let lod = (near.to_bits(), far.to_bits());
        let cmd = match self.patch_state {
            Some((f, n, x)) if (n, x) == lod && f == flags => Command::TerrainPatch,
            Some((_, n, x)) if (n, x) == lod => Command::TerrainPatchFlags(flags),
            _ => Command::TerrainPatchFlagsLod { flags, near, far },
        };
        self.push(cmd);
        self.patch_state = Some((flags, lod.0, lod.1));
    }
}

/// Pending `ObjectRange`: (def, pool, first, last).
type ObjRun = Option<(u32, usize, usize, usize)>;

fn flush_objects(c: &mut Cmds, run: &mut ObjRun) {
    if let Some((def, pool, first, last)) = run.take() {
        c.def(def);
        c.pool(pool);
        if last == first + 1 {
            c.push(Command::Object(first as u16));
        } else {
            c.push(Command::ObjectRange(first as u16, last as u16));
        }
    }
}

fn check_def(def: u32, table: &[String], name: &str, i: usize) -> Result<(), BuildError> {
    if (def as usize) < table.len() {
        Ok(())
    } else {
        Err(err(
            Some(i),
            format!(
                "definition {def} is past the end of {name} ({} entries)",
                table.len()
            ),
        ))
    }
}

/// Builds a binary DSF (with its MD5 footer) from `dsf`'s properties,
/// definitions, entities, rasters and unknown top-level atoms.
pub fn build(dsf: &Dsf, opts: &BuildOptions) -> Result<Vec<u8>, BuildError> {
    let divisions = opts.divisions.clamp(1, 64);
    let mut pools = Pools {
        divisions: f64::from(divisions),
        bufs16: Vec::new(),
        bufs32: Vec::new(),
        open: HashMap::new(),
    };
    let mut c = Cmds {
        out: Vec::new(),
        pool: None,
        def: None,
        subtype: None,
        agl: false,
        patch_state: None,
    };
    // Junction offset 0, as the xptools writer.
    c.push(Command::JunctionOffset(0));
    let mut run: ObjRun = None;
    for (i, e) in dsf.entities.iter().enumerate() {
        if !matches!(e, Entity::Object(_)) {
            flush_objects(&mut c, &mut run);
        }
        match e {
            Entity::Filter(f) => c.push(Command::typed_comment(1, *f)),
            Entity::Object(o) => {
                check_def(o.def, &dsf.object_defs, "OBJT", i)?;
                // Keep 360 itself (raw 65535) so decoded headings re-encode
                // to the same raw value.
                let heading = if (0.0..=360.0).contains(&o.heading) {
                    o.heading
                } else {
                    o.heading.rem_euclid(360.0)
                };
                let mut pt = vec![o.lon, o.lat, heading];
                if o.mode != ElevationMode::Draped {
                    pt.push(o.elevation.unwrap_or(0.0));
                    let agl = o.mode == ElevationMode::Agl;
                    if agl != c.agl {
                        flush_objects(&mut c, &mut run);
                        c.push(Command::typed_comment(2, i32::from(agl)));
                        c.agl = agl;
                    }
                }
                let (pool, idx) = pools.add(Family::Object, pt.len(), &pt, i)?;
                match &mut run {
                    Some((d, p, _, last)) if *d == o.def && *p == pool && *last == idx => {
                        *last += 1;
                    }
                    _ => {
                        flush_objects(&mut c, &mut run);
                        run = Some((o.def, pool, idx, idx + 1));
                    }
                }
            }
            Entity::Polygon(p) => {
                check_def(p.def, &dsf.polygon_defs, "POLY", i)?;
                if p.depth == 0 || p.depth > 255 {
                    return Err(err(
                        Some(i),
                        format!("polygon depth {} is not 1..255", p.depth),
                    ));
                }
                if p.windings.len() > 255 {
                    return Err(err(Some(i), "a polygon has more than 255 windings"));
                }
                let mut flat = Vec::new();
                let mut bounds = vec![0usize];
                for w in &p.windings {
                    if w.len() % p.depth != 0 {
                        return Err(err(
                            Some(i),
                            "a winding's values are not a whole number of points",
                        ));
                    }
                    flat.extend_from_slice(w);
                    bounds.push(flat.len() / p.depth);
                }
                if flat.is_empty() {
                    return Err(err(Some(i), "a polygon without points"));
                }
                let (pool, first) = pools.add(Family::Polygon, p.depth, &flat, i)?;
                c.def(p.def);
                c.pool(pool);
                if p.windings.len() == 1 {
                    c.push(Command::PolygonRange {
                        param: p.param,
                        first: first as u16,
                        last: (first + bounds[1]) as u16,
                    });
                } else {
                    c.push(Command::NestedPolygonRange {
                        param: p.param,
                        bounds: bounds.iter().map(|b| (first + b) as u16).collect(),
                    });
                }
            }
            Entity::Patch(p) => {
                check_def(p.def, &dsf.terrain_defs, "TERT", i)?;
                if p.depth < 2 || p.depth > 255 {
                    return Err(err(
                        Some(i),
                        format!("patch depth {} is not 2..255", p.depth),
                    ));
                }
                let mut placed = Vec::with_capacity(p.primitives.len());
                for prim in &p.primitives {
                    if prim.vertices.len() % p.depth != 0 || prim.vertices.is_empty() {
                        return Err(err(
                            Some(i),
                            "a primitive's values are not a whole number of vertices",
                        ));
                    }
                    let (pool, first) = pools.add(Family::Patch, p.depth, &prim.vertices, i)?;
                    placed.push((pool, first, prim.vertices.len() / p.depth, prim.kind));
                }
                // The patch takes its depth from the pool current when it
                // opens, so select the first primitive's pool before it.
                c.def(p.def);
                if let Some(&(pool, ..)) = placed.first() {
                    c.pool(pool);
                }
                c.open_patch(p.flags, p.lod_near, p.lod_far);
                for (pool, first, n, kind) in placed {
                    c.pool(pool);
                    c.push(Command::PrimitiveRange(
                        kind,
                        first as u16,
                        (first + n) as u16,
                    ));
                }
            }
            Entity::Network(n) => {
                check_def(n.def, &dsf.network_defs, "NETW", i)?;
                if n.depth < 4 || n.depth > 255 {
                    return Err(err(
                        Some(i),
                        format!("network depth {} is not 4..255", n.depth),
                    ));
                }
                if n.subtype > 255 {
                    return Err(err(
                        Some(i),
                        format!("road subtype {} does not fit a byte", n.subtype),
                    ));
                }
                if n.points.len() % n.depth != 0 || n.points.is_empty() {
                    return Err(err(
                        Some(i),
                        "a chain's values are not a whole number of points",
                    ));
                }
                for pt in n.points() {
                    let j = pt[3];
                    if j.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&j) {
                        return Err(err(Some(i), format!("junction ID {j} is not a u32")));
                    }
                }
                let (pool, first) = pools.add(Family::Network, n.depth, &n.points, i)?;
                c.def(n.def);
                if c.subtype != Some(n.subtype) {
                    c.push(Command::RoadSubtype(n.subtype as u8));
                    c.subtype = Some(n.subtype);
                }
                c.pool(pool);
                c.push(Command::NetworkChainRange(
                    first as u16,
                    (first + n.points.len() / n.depth) as u16,
                ));
            }
        }
    }
    flush_objects(&mut c, &mut run);
    if pools.bufs16.len() > 65535 || pools.bufs32.len() > 65535 {
        return Err(err(None, "too many pools"));
    }

    let mut geod = Vec::new();
    for bufs in [&pools.bufs16, &pools.bufs32] {
        for p in bufs {
            let (pool, scal) = encode_pool(p);
            let (pid, sid) = if p.wide { (PO32, SC32) } else { (POOL, SCAL) };
            geod.extend(atom(pid, &pool));
            geod.extend(atom(sid, &scal));
        }
    }
    let cmds = cmd::encode_all(&c.out).map_err(|e| err(None, e.to_string()))?;
    assemble(dsf, geod, &cmds)
}

/// Writes `dsf` with its own point pools (`pools`, `pools32`: raw values,
/// scales and each plane's encoding, as read) and the command list `cmds`
/// as they are. This emits any command form (see [`Command`]); the caller
/// is responsible for the commands fitting the pools — read the result back
/// to check.
pub fn write_raw(dsf: &Dsf, cmds: &[Command]) -> Result<Vec<u8>, BuildError> {
    let mut geod = Vec::new();
    for (list, pid, sid) in [(&dsf.pools, POOL, SCAL), (&dsf.pools32, PO32, SC32)] {
        for (k, p) in list.iter().enumerate() {
            if p.planes.len() > 255 || p.count > u32::MAX as usize {
                return Err(err(None, format!("pool {k} is too large to encode")));
            }
            let mut pool = (p.count as u32).to_le_bytes().to_vec();
            pool.push(p.planes.len() as u8);
            let mut scal = Vec::new();
            for (j, pl) in p.planes.iter().enumerate() {
                if pl.raw.len() != p.count || pl.encoding > 3 {
                    return Err(err(
                        None,
                        format!(
                            "pool {k} plane {j}: {} values, encoding {}",
                            pl.raw.len(),
                            pl.encoding
                        ),
                    ));
                }
                pool.push(pl.encoding);
                encode_plane(&mut pool, &pl.raw, pl.wide, pl.encoding);
                scal.extend_from_slice(&pl.scale.to_le_bytes());
                scal.extend_from_slice(&pl.offset.to_le_bytes());
            }
            geod.extend(atom(pid, &pool));
            geod.extend(atom(sid, &scal));
        }
    }
    let cmds = cmd::encode_all(cmds).map_err(|e| err(None, e.to_string()))?;
    assemble(dsf, geod, &cmds)
}

/// Writes the header, definitions, the given GEOD and CMDS payloads, the
/// rasters and unknown atoms, then the MD5 footer.
fn assemble(dsf: &Dsf, mut geod: Vec<u8>, cmds: &[u8]) -> Result<Vec<u8>, BuildError> {
    for (k, r) in dsf.rasters.iter().enumerate() {
        let expect = u64::from(r.width) * u64::from(r.height) * u64::from(r.bpp);
        if expect != r.data.len() as u64 {
            return Err(err(
                None,
                format!(
                    "raster {k} is {}x{}x{} = {expect} bytes but holds {}",
                    r.width,
                    r.height,
                    r.bpp,
                    r.data.len()
                ),
            ));
        }
    }
    let mut file = Vec::new();
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&1i32.to_le_bytes());

    let mut prop = Vec::new();
    for (n, v) in &dsf.properties {
        push_string(&mut prop, n);
        push_string(&mut prop, v);
    }
    let mut head = atom(PROP, &prop);
    extra_atoms(&mut head, dsf, HEAD);
    file.extend(atom(HEAD, &head));

    let mut defn = Vec::new();
    for (id, table) in [
        (TERT, &dsf.terrain_defs),
        (OBJT, &dsf.object_defs),
        (POLY, &dsf.polygon_defs),
        (NETW, &dsf.network_defs),
        (DEMN, &dsf.raster_defs),
    ] {
        let mut s = Vec::new();
        for d in table {
            push_string(&mut s, d);
        }
        defn.extend(atom(id, &s));
    }
    extra_atoms(&mut defn, dsf, DEFN);
    file.extend(atom(DEFN, &defn));

    extra_atoms(&mut geod, dsf, GEOD);
    file.extend(atom(GEOD, &geod));
    file.extend(atom(CMDS, cmds));

    if !dsf.rasters.is_empty() {
        let mut dems = Vec::new();
        for r in &dsf.rasters {
            let mut h = vec![r.version, r.bpp];
            h.extend_from_slice(&r.flags.to_le_bytes());
            h.extend_from_slice(&r.width.to_le_bytes());
            h.extend_from_slice(&r.height.to_le_bytes());
            h.extend_from_slice(&r.scale.to_le_bytes());
            h.extend_from_slice(&r.offset.to_le_bytes());
            dems.extend(atom(DEMI, &h));
            dems.extend(atom(DEMD, &r.data));
        }
        file.extend(atom(DEMS, &dems));
    }
    for a in dsf.unknown_atoms.iter().filter(|a| a.parent.is_none()) {
        file.extend(atom(a.id, &a.data));
    }
    if file.len() > u32::MAX as usize {
        return Err(err(None, "the DSF would exceed 4 GiB"));
    }
    let digest: [u8; 16] = Md5::digest(&file).into();
    file.extend_from_slice(&digest);
    Ok(file)
}

fn extra_atoms(out: &mut Vec<u8>, dsf: &Dsf, parent: u32) {
    for a in dsf
        .unknown_atoms
        .iter()
        .filter(|a| a.parent == Some(parent))
    {
        out.extend(atom(a.id, &a.data));
    }
}

fn push_string(out: &mut Vec<u8>, s: &str) {
    out.extend(s.bytes().filter(|&b| b != 0));
    out.push(0);
}

fn atom(id: u32, payload: &[u8]) -> Vec<u8> {
    let mut a = Vec::with_capacity(payload.len() + 8);
    a.extend_from_slice(&id.to_le_bytes());
    a.extend_from_slice(&((payload.len() + 8) as u32).to_le_bytes());
    a.extend_from_slice(payload);
    a
}

/// How one plane is quantized.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlaneScale {
    /// Range (0 = raw integers).
    pub scale: f32,
    /// Lowest value.
    pub offset: f32,
}

/// Smallest power-of-two range `s` (at least `min_size`) and an offset that
/// is a multiple of `s`, both exact in f32, with `[offset, offset + s]`
/// covering `[min, max]`.
pub fn dyadic_bounds(min: f64, max: f64, min_size: f64) -> PlaneScale {
    let span = (max - min).max(min_size);
    let mut k = span.log2().ceil() as i32;
    loop {
        let s = 2f64.powi(k);
        let lo = (min / s).floor() * s;
        if lo + s >= max && f64::from(lo as f32) == lo && f64::from(s as f32) == s {
            return PlaneScale {
                scale: s as f32,
                offset: lo as f32,
            };
        }
        k += 1;
    }
}

/// Chooses the scale of plane `plane` of a pool from its values.
fn plane_scale(family: Family, wide: bool, plane: usize, values: &[f64]) -> PlaneScale {
    let max_raw = if wide { f64::from(u32::MAX) } else { 65535.0 };
    if family == Family::Object && plane == 2 {
        return PlaneScale {
            scale: 360.0,
            offset: 0.0,
        };
    }
    let integers = values
        .iter()
        .all(|v| v.fract() == 0.0 && (0.0..=max_raw).contains(v));
    if plane >= 2 && integers && (family != Family::Network || plane == 3) {
        return PlaneScale {
            scale: 0.0,
            offset: 0.0,
        };
    }
    if values.is_empty() {
        return PlaneScale {
            scale: 1.0,
            offset: 0.0,
        };
    }
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min_size = if plane < 2 {
        2f64.powi(-12)
    } else {
        2f64.powi(-10)
    };
    dyadic_bounds(min, max, min_size)
}

/// Quantizes `v` to the nearest raw value (clamped).
pub fn encode_value(v: f64, s: PlaneScale, wide: bool) -> u32 {
    let max_raw = if wide { f64::from(u32::MAX) } else { 65535.0 };
    let raw = if s.scale == 0.0 {
        v.round()
    } else {
        ((v - f64::from(s.offset)) * max_raw / f64::from(s.scale)).round()
    };
    raw.clamp(0.0, max_raw) as u32
}

fn encode_pool(p: &PoolBuf) -> (Vec<u8>, Vec<u8>) {
    let n = p.count();
    let mut pool = Vec::new();
    pool.extend_from_slice(&(n as u32).to_le_bytes());
    pool.push(p.depth as u8);
    let mut scal = Vec::new();
    let mut plane = Vec::with_capacity(n);
    for k in 0..p.depth {
        plane.clear();
        plane.extend(p.values.iter().skip(k).step_by(p.depth).copied());
        let s = plane_scale(p.family, p.wide, k, &plane);
        scal.extend_from_slice(&s.scale.to_le_bytes());
        scal.extend_from_slice(&s.offset.to_le_bytes());
        let raw: Vec<u32> = plane.iter().map(|&v| encode_value(v, s, p.wide)).collect();
        pool.push(3);
        encode_plane(&mut pool, &raw, p.wide, 3);
    }
    (pool, scal)
}

/// Encodes values with mode 3: wrapping differences, then RLE.
pub fn rle_diff(out: &mut Vec<u8>, raw: &[u32], wide: bool) {
    encode_plane(out, raw, wide, 3);
}

/// Encodes one plane's values (without the mode byte) with `mode`: 0 raw,
/// 1 wrapping differences, 2 RLE, 3 differences then RLE.
pub fn encode_plane(out: &mut Vec<u8>, raw: &[u32], wide: bool, mode: u8) {
    let mask = if wide { u32::MAX } else { 0xFFFF };
    let mut prev = 0u32;
    let diffs: Vec<u32> = raw
        .iter()
        .map(|&v| {
            if mode & 1 == 0 {
                return v & mask;
            }
            let d = v.wrapping_sub(prev) & mask;
            prev = v;
            d
        })
        .collect();
    let put = |out: &mut Vec<u8>, v: u32| {
        if wide {
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
    };
    if mode & 2 == 0 {
        for &d in &diffs {
            put(out, d);
        }
        return;
    }
    let run_at = |i: usize| {
        let mut r = 1;
        while i + r < diffs.len() && r < 127 && diffs[i + r] == diffs[i] {
            r += 1;
        }
        r
    };
    let mut i = 0;
    while i < diffs.len() {
        let r = run_at(i);
        if r >= 3 {
            out.push(0x80 | r as u8);
            put(out, diffs[i]);
            i += r;
            continue;
        }
        let start = i;
        while i < diffs.len() && i - start < 127 && run_at(i) < 3 {
            i += 1;
        }
        out.push((i - start) as u8);
        for &d in &diffs[start..i] {
            put(out, d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dyadic_bounds_are_powers_of_two_and_cover() {
        let s = dyadic_bounds(12.97, 12.999, 2f64.powi(-12));
        assert_eq!((s.scale, s.offset), (0.03125, 12.96875));
        // A tile edge encodes exactly.
        let s = dyadic_bounds(12.9, 13.0, 2f64.powi(-12));
        assert_eq!(f64::from(s.offset) + f64::from(s.scale), 13.0);
        let raw = encode_value(13.0, s, false);
        assert_eq!(crate::dsf::decode(raw, s.scale, s.offset, false), 13.0);
        // Negative ranges and large magnitudes stay exact in f32.
        let s = dyadic_bounds(-179.99999, -179.9, 2f64.powi(-12));
        assert!(f64::from(s.offset) <= -179.99999);
        assert!(f64::from(s.offset) + f64::from(s.scale) >= -179.9);
    }

    #[test]
    fn encoding_rounds_to_nearest() {
        let s = PlaneScale {
            scale: 65535.0,
            offset: 0.0,
        };
        assert_eq!(encode_value(1.4, s, false), 1);
        assert_eq!(encode_value(1.6, s, false), 2);
        assert_eq!(encode_value(-3.0, s, false), 0);
        assert_eq!(encode_value(1e9, s, false), 65535);
    }

    #[test]
    fn rle_uses_repeat_runs() {
        let mut out = Vec::new();
        rle_diff(&mut out, &[5, 5, 5, 5, 5, 5], false);
        // Differences 5,0,0,0,0,0: one literal then a repeat run of 5 zeros.
        assert_eq!(out, [1, 5, 0, 0x85, 0, 0]);
    }
}
