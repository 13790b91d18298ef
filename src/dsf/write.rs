//! Binary DSF writer: one encoder for every command family.
//!
//! [`build`] writes a [`Dsf`]'s properties, definitions, entities, rasters
//! and unknown atoms. It makes three passes over the entities, in the
//! order it writes them (the model's order, or grouped by filter, kind,
//! definition and pool with [`BuildOptions::group`]):
//!
//! 1. **Pools.** Every point goes to a 16-bit pool of its kind and depth
//!    covering a box of `1/n`-degree cells (`n` = `DIVISIONS` rounded up to
//!    a power of two): objects and patch vertices the cell they lie in,
//!    polygons the box DSFTool would give them (one or two cells of the
//!    finest level that fits the polygon). Patch pools are exactly one
//!    cell each, as DSFTool's, so that every patch pool of a depth has the
//!    same lon/lat grid and a vertex shared across pools is written at one
//!    position (a watertight mesh). Patch vertices are shared: equal
//!    vertices of any patch of the same depth in the same cell are one
//!    pool point. Network points go to a 32-bit pool per depth. Pools
//!    are also split by the windows (`dsf::quant::Window`) of the
//!    entities' other fitted planes — polygon planes by box (at least a
//!    cell of `1/n`), texture coordinates and patch normals by DSFTool's
//!    whole-unit range (`dsf::quant::units_window`), object
//!    elevations, other patch planes past the elevation and 32-bit planes
//!    by magnitude class — so that no plane is quantised
//!    over a range much wider than its own entity's (a taxi line's bezier
//!    control points never share a plane with a draped polygon's texture
//!    coordinates). A pool holds at most 65535 points; a full one is
//!    followed by another.
//! 2. **Scales** (see `dsf::quant`), computed per pool plane in closed
//!    form from the values the pool holds: lon/lat from the box, headings
//!    0–360, integer planes of polygons and junction IDs raw, texture
//!    coordinates and normals DSFTool's whole-unit grid of their window
//!    when every value lies on it (values DSFTool wrote come back
//!    exactly), else the finer of that grid and a fitted step, every other
//!    16-bit plane a power-of-two step fitted to its values, every other
//!    32-bit plane a power-of-two range. Values are rounded to the nearest
//!    step; each plane is written in the shortest of the planar encodings
//!    (`dsf::planar`).
//! 3. **Commands.** Definitions, pools, road subtypes, the junction offset,
//!    patch flags/LOD and the AGL state are written only when they change;
//!    consecutive objects of one definition on consecutive pool points are
//!    one `ObjectRange`; a polygon is one `PolygonRange` (or
//!    `NestedPolygonRange`); a primitive whose vertices are consecutive new
//!    points of one pool is a range, otherwise an indexed primitive (one
//!    pool) or a cross-pool primitive (several), split at 255 vertices so
//!    that the triangles stay the same; a chain is one `NetworkChainRange`.
//!
//! The input's own pools are ignored: the output depends only on the
//! entities. [`write_raw`] writes a model's own pools with any command list.

use super::cmd::{self, Command};
use super::cursor::{
    CMDS, DEFN, DEMD, DEMI, DEMN, DEMS, GEOD, HEAD, MAGIC, NETW, OBJT, PO32, POLY, POOL, PROP,
    SC32, SCAL, TERT,
};
use super::planar::encode_best;
pub use super::planar::encode_plane;
use super::quant::{self, CellBox, Window};
pub use super::quant::{PlaneScale, encode_value};
use super::{Dsf, ElevationMode, Entity, Patch, Primitive, PrimitiveKind};
use md5::{Digest, Md5};
// foldhash: a fast hasher seeded per process (hash-flooding resistant
// enough for file input, unlike an unseeded one); the writer's output never
// depends on a map's order.
use foldhash::{HashMap, HashMapExt as _};
use std::fmt;

/// Options of [`build`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildOptions {
    /// Each degree is split into `divisions × divisions` cells for the
    /// pools (1..=64, rounded up to a power of two). Default 32, as
    /// WorldEditor writes (DSFTool defaults to 8 when a text has no
    /// `DIVISIONS` line). Cells of 1/32° keep objects within 2.4e-7° and
    /// polygons within 4.8e-7°.
    pub divisions: u32,
    /// Write the entities grouped, as DSFTool does: by filter, then
    /// objects (draped, MSL, AGL), polygons, patches and networks, each
    /// kind by definition and pool (patches keep their order). The output
    /// is smaller (consecutive objects become ranges), but its entities
    /// read back in that order. Off by default: the model's order is kept.
    pub group: bool,
    /// Turn each patch's loose triangles into triangle strips, as DSFTool
    /// does (`dsf::strip`): the same triangles, with their
    /// orientation, in fewer bytes, but read back as other primitives. Off
    /// by default.
    pub strip: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            divisions: 32,
            group: false,
            strip: false,
        }
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

/// Points per pool: 16-bit indices with an exclusive end that must fit u16.
const POOL_CAP: u32 = 65535;

/// The kinds of 16-bit pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Family {
    Object,
    Polygon,
    Patch,
}

/// Which pools a point may go to: kind, depth, lon/lat box and the
/// windows of its other fitted planes (an id of [`Layout::windows`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    family: Family,
    /// Planes (2..=255, checked before a key is made).
    depth: u8,
    cells: CellBox,
    windows: u32,
}

/// Base-2 logarithm of the smallest class of an object elevation (1024 m:
/// a 16-bit step of 1/32 m at most, DSFTool's over its 2048 m default).
const OBJECT_ELEVATION_FLOOR: i32 = 10;
/// Smallest class of patch planes past the elevation (normals and texture
/// coordinates, within ±1, share one class).
const PATCH_FLOOR: i32 = 0;
/// Smallest class of 32-bit elevations (65536 m: every real elevation
/// shares one class, a 32-bit step of 3e-5 m at most).
const NETWORK_ELEVATION_FLOOR: i32 = 16;
/// Smallest class of the other 32-bit planes (degrees: every longitude of
/// a tile shares one class, a step of 1.2e-7 degrees at most).
const NETWORK_FLOOR: i32 = 0;

/// The windows of the fitted planes `planes` of an entity whose points are
/// `points`, appended to `out`: `window` of each plane's index, lowest and
/// highest value, and whether all its values are raw 16-bit integers.
fn windows_of<'p>(
    points: impl Iterator<Item = &'p [f64]> + Clone,
    planes: impl Iterator<Item = usize>,
    out: &mut Vec<Window>,
    window: impl Fn(usize, f64, f64, bool) -> Window,
) {
    for k in planes {
        let (mut lo, mut hi, mut raw) = (f64::INFINITY, f64::NEG_INFINITY, true);
        for p in points.clone() {
            let v = p[k];
            (lo, hi) = (lo.min(v), hi.max(v));
            raw &= quant::is_raw16(v);
        }
        if lo > hi {
            (lo, hi) = (0.0, 0.0);
        }
        out.push(window(k, lo, hi, raw));
    }
}

/// A pool being planned: its points are counted, their value ranges kept.
struct Plan {
    /// `None` for a 32-bit (network) pool.
    key: Option<Key>,
    depth: usize,
    count: u32,
    min: Vec<f64>,
    max: Vec<f64>,
    /// True while every value of the plane is an integer in 0..=65535.
    ints: Vec<bool>,
    /// DSFTool's grid of each plane with a [`Window::Units`] (texture
    /// coordinates, patch normals).
    units: Vec<Option<PlaneScale>>,
    /// True while every value of such a plane lies on that grid (within
    /// DSF2Text's 9 decimals): values DSFTool wrote.
    on_units: Vec<bool>,
}

/// How far (in the plane's units) a value may be from a grid point and
/// still be taken as lying on it: DSF2Text prints 9 decimals.
const ON_GRID: f64 = 1e-9;

/// True when `v` lies on the grid of `s` within [`ON_GRID`].
fn on_grid(v: f64, s: PlaneScale) -> bool {
    let step = f64::from(s.scale) / quant::MAX16;
    let r = (v - f64::from(s.offset)) / step;
    ((r - r.round()) * step).abs() <= ON_GRID + v.abs() * 1e-15
}

impl Plan {
    fn new(key: Option<Key>, depth: usize, windows: &[Window]) -> Plan {
        // The windows are those of planes 3.. of a patch, 2.. of a polygon.
        let first = match key.map(|k| k.family) {
            Some(Family::Patch) => 3,
            Some(Family::Polygon) => 2,
            _ => depth,
        };
        let units = (0..depth)
            .map(|k| {
                let w = windows.get(k.checked_sub(first)?)?;
                w.fixed_scale()
            })
            .collect();
        Plan {
            key,
            depth,
            count: 0,
            min: vec![f64::INFINITY; depth],
            max: vec![f64::NEG_INFINITY; depth],
            ints: vec![true; depth],
            units,
            on_units: vec![true; depth],
        }
    }

    fn see(&mut self, point: &[f64]) {
        for (k, &v) in point.iter().enumerate() {
            self.min[k] = self.min[k].min(v);
            self.max[k] = self.max[k].max(v);
            self.ints[k] &= quant::is_raw16(v);
            if let Some(u) = self.units[k] {
                self.on_units[k] = self.on_units[k] && on_grid(v, u);
            }
        }
    }

    /// The scale of a plane with DSFTool's grid `u`: that grid when the
    /// values lie on it (they come back exactly), else the finer of it and
    /// the power-of-two step fitted to the values — never coarser than
    /// DSFTool's.
    fn units_or_fitted(&self, k: usize, u: PlaneScale, lo: f64, hi: f64) -> PlaneScale {
        if self.on_units[k] {
            return u;
        }
        let fitted = quant::step16(lo, hi);
        if fitted.scale <= u.scale { fitted } else { u }
    }

    /// The scale of each plane (pass 2).
    fn scales(&self) -> Vec<PlaneScale> {
        (0..self.depth)
            .map(|k| {
                let (lo, hi) = if self.min[k] <= self.max[k] {
                    (self.min[k], self.max[k])
                } else {
                    (0.0, 0.0)
                };
                match self.key {
                    None if k == 3 => quant::RAW,
                    None => quant::range32(lo, hi),
                    Some(key) => match (key.family, k) {
                        (_, 0) => key.cells.lon(),
                        (_, 1) => key.cells.lat(),
                        (Family::Object, 2) => quant::HEADING,
                        _ if self.units[k].is_some() => {
                            let u = self.units[k].unwrap_or(quant::RAW);
                            self.units_or_fitted(k, u, lo, hi)
                        }
                        (Family::Polygon, _) if self.ints[k] => quant::RAW,
                        _ => quant::step16(lo, hi),
                    },
                }
            })
            .collect()
    }
}

/// Gives every patch pool of a depth the elevation range (plane 2) of all
/// of them, so that any one of them holds every elevation of the tile:
/// DSFTool suggests `HEIGHTS` from the pools current when patches open
/// only, and its text2dsf refuses a vertex outside `HEIGHTS`.
fn share_patch_elevations(pools: &mut [Plan]) {
    let mut range: HashMap<usize, (f64, f64)> = HashMap::new();
    let patch = |p: &Plan| p.depth > 2 && p.key.is_some_and(|k| k.family == Family::Patch);
    for p in pools.iter().filter(|p| patch(p)) {
        let r = range
            .entry(p.depth)
            .or_insert((f64::INFINITY, f64::NEG_INFINITY));
        *r = (r.0.min(p.min[2]), r.1.max(p.max[2]));
    }
    for p in pools.iter_mut().filter(|p| patch(p)) {
        (p.min[2], p.max[2]) = range[&p.depth];
    }
}

/// A patch vertex, hashed and compared by its bits.
#[derive(Clone, Copy)]
struct Vertex<'a>(&'a [f64]);

impl PartialEq for Vertex<'_> {
    fn eq(&self, o: &Self) -> bool {
        self.0.len() == o.0.len()
            && self
                .0
                .iter()
                .zip(o.0)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl Eq for Vertex<'_> {}

impl std::hash::Hash for Vertex<'_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for v in self.0 {
            h.write_u64(v.to_bits());
        }
    }
}

/// A heading in 0..=360 (360 itself kept, so a decoded 360 re-encodes to
/// the same raw value).
fn heading(h: f64) -> f64 {
    if (0.0..=360.0).contains(&h) {
        h
    } else {
        h.rem_euclid(360.0)
    }
}

/// An object's point: lon, lat, heading[, elevation].
fn object_point(o: &super::Object) -> ([f64; 4], usize) {
    let h = heading(o.heading);
    if o.mode == ElevationMode::Draped {
        ([o.lon, o.lat, h, 0.0], 3)
    } else {
        ([o.lon, o.lat, h, o.elevation.unwrap_or(0.0)], 4)
    }
}

/// The pass-1 state: pools planned so far and where each entity's points
/// went.
struct Layout<'a> {
    dsf: &'a Dsf,
    /// The entities to write (a patch possibly re-stripped).
    entities: &'a [&'a Entity],
    n: u32,
    pools: Vec<Plan>,
    pools32: Vec<Plan>,
    open: HashMap<Key, u32>,
    open32: HashMap<(usize, u32), u32>,
    /// The windows of every key, interned.
    windows: HashMap<Box<[Window]>, u32>,
    /// The same windows by id.
    window_list: Vec<Box<[Window]>>,
    /// Scratch for an entity's windows.
    scratch: Vec<Window>,
    /// Base-2 logarithm of the cell of `n` (the floor of polygon windows).
    cell_level: i32,
    shared: HashMap<(Key, Vertex<'a>), (u32, u16)>,
    /// (pool, first point) of each object, polygon, chain and empty patch,
    /// in write order.
    slots: Vec<(u32, u32)>,
    /// (pool, point) of every patch vertex, in write order.
    refs: Vec<(u32, u16)>,
}

fn check(i: usize, v: &[f64]) -> Result<(), BuildError> {
    match v
        .iter()
        .find(|x| !x.is_finite() || x.abs() > quant::MAX_VALUE)
    {
        Some(x) => Err(err(
            Some(i),
            format!(
                "coordinate {x:e} cannot be encoded (values are finite and within ±{:e})",
                quant::MAX_VALUE
            ),
        )),
        None => Ok(()),
    }
}

fn check_lonlat(i: usize, lon: f64, lat: f64) -> Result<(), BuildError> {
    for v in [lon, lat] {
        if v.is_nan() || v.abs() > quant::MAX_DEGREES {
            return Err(err(
                Some(i),
                format!(
                    "longitude/latitude {v} is outside ±{} degrees",
                    quant::MAX_DEGREES
                ),
            ));
        }
    }
    Ok(())
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

impl<'a> Layout<'a> {
    /// The id of the windows in `scratch`.
    fn intern(&mut self) -> u32 {
        if let Some(&id) = self.windows.get(self.scratch.as_slice()) {
            return id;
        }
        let id = self.windows.len() as u32;
        let w = self.scratch.clone().into_boxed_slice();
        self.window_list.push(w.clone());
        self.windows.insert(w, id);
        id
    }

    /// A pool of `key` with room for `n` more points (opening one if
    /// needed).
    fn room(&mut self, key: Key, n: u32) -> Result<u32, BuildError> {
        match self.open.get(&key) {
            Some(&p) if self.pools[p as usize].count + n <= POOL_CAP => Ok(p),
            _ => {
                let p = u32::try_from(self.pools.len())
                    .ok()
                    .filter(|&p| p < 65535)
                    .ok_or_else(|| err(None, "more than 65535 point pools"))?;
                self.pools.push(Plan::new(
                    Some(key),
                    usize::from(key.depth),
                    &self.window_list[key.windows as usize],
                ));
                self.open.insert(key, p);
                Ok(p)
            }
        }
    }

    /// Places one primitive's vertices (flat, `d` values each), sharing
    /// equal ones. A primitive within one cell of `1/n` degree (edges
    /// included) goes to a pool of that cell, so it is one indexed (or
    /// range) command; a wider one goes vertex by vertex to the cells'
    /// pools (the cell of its first vertex when the vertex lies on its
    /// edge) and becomes cross-pool commands. Every patch pool being one
    /// cell, a vertex in two pools lies on their common edge, where both
    /// grids meet: it decodes to one position in each.
    fn place_primitive(&mut self, vertices: &'a [f64], d: usize) -> Result<(), BuildError> {
        let m = vertices.len() / d;
        let (mut w, mut s, mut e, mut nn) = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for v in vertices.chunks_exact(d) {
            (w, s, e, nn) = (w.min(v[0]), s.min(v[1]), e.max(v[0]), nn.max(v[1]));
        }
        // Planes past the elevation (the elevation is shared by every
        // patch pool, see `share_patch_elevations`): normals and texture
        // coordinates on DSFTool's grid (-1..1 and 0..1, widened to whole
        // units), other values by class.
        self.scratch.clear();
        windows_of(
            vertices.chunks_exact(d),
            3..d,
            &mut self.scratch,
            |k, lo, hi, _| {
                let base = if k < 5 { (-1, 1) } else { (0, 1) };
                quant::units_window(lo, hi, base.0, base.1)
                    .unwrap_or_else(|| quant::class_window(lo, hi, PATCH_FLOOR))
            },
        );
        let windows = self.intern();
        // Every patch pool is one cell of 1/n degree (DIVISIONS), as
        // DSFTool's (xptools DSFLibWrite.cpp, `BeginPatch` adds one pool
        // per division cell): the pools' lon/lat grids are then one grid,
        // so a vertex shared by pools (on their common edge) decodes to
        // one position in each, and the mesh stays watertight.
        let nf = f64::from(self.n);
        let home = quant::cell(w, s, self.n);
        let fits = e <= f64::from(home.x + 1) / nf && nn <= f64::from(home.y + 1) / nf;
        if fits && m <= POOL_CAP as usize {
            let key = Key {
                family: Family::Patch,
                depth: d as u8,
                cells: home,
                windows,
            };
            // Room for every vertex being new, so that all of them are in
            // one pool.
            let p = self.room(key, m as u32)?;
            for v in vertices.chunks_exact(d) {
                let at = self.share(key, v, Some(p))?;
                self.refs.push(at);
            }
            return Ok(());
        }
        let first = quant::cell(vertices[0], vertices[1], self.n);
        for v in vertices.chunks_exact(d) {
            let cells = if quant::in_box(&first, v[0], v[1]) {
                first
            } else {
                quant::cell(v[0], v[1], self.n)
            };
            let key = Key {
                family: Family::Patch,
                depth: d as u8,
                cells,
                windows,
            };
            let at = self.share(key, v, None)?;
            self.refs.push(at);
        }
        Ok(())
    }

    /// The point of vertex `v` in a pool of `key`: an equal vertex already
    /// there (in pool `only`, when given), else a new point (in `only`, or
    /// in the open pool of `key`).
    fn share(
        &mut self,
        key: Key,
        v: &'a [f64],
        only: Option<u32>,
    ) -> Result<(u32, u16), BuildError> {
        if let Some(&at) = self.shared.get(&(key, Vertex(v)))
            && only.is_none_or(|p| p == at.0)
        {
            return Ok(at);
        }
        let p = match only {
            Some(p) => p,
            None => self.room(key, 1)?,
        };
        let plan = &mut self.pools[p as usize];
        plan.see(v);
        let at = (p, plan.count as u16);
        plan.count += 1;
        self.shared.insert((key, Vertex(v)), at);
        Ok(at)
    }

    fn place(&mut self, i: usize) -> Result<(), BuildError> {
        let dsf = self.dsf;
        match self.entities[i] {
            Entity::Filter(_) => {}
            Entity::Object(o) => {
                check_def(o.def, &dsf.object_defs, "OBJT", i)?;
                let (pt, depth) = object_point(o);
                check(i, &pt)?;
                check_lonlat(i, o.lon, o.lat)?;
                self.scratch.clear();
                if depth == 4 {
                    let e = pt[3];
                    let w = quant::class_window(e, e, OBJECT_ELEVATION_FLOOR);
                    self.scratch.push(w);
                }
                let key = Key {
                    family: Family::Object,
                    depth: depth as u8,
                    cells: quant::cell(o.lon, o.lat, self.n),
                    windows: self.intern(),
                };
                let p = self.room(key, 1)?;
                let plan = &mut self.pools[p as usize];
                plan.see(&pt[..depth]);
                self.slots.push((p, plan.count));
                plan.count += 1;
            }
            Entity::Polygon(poly) => {
                check_def(poly.def, &dsf.polygon_defs, "POLY", i)?;
                let d = poly.depth;
                if !(2..=255).contains(&d) {
                    return Err(err(Some(i), format!("polygon depth {d} is not 2..255")));
                }
                if poly.windings.len() > 255 {
                    return Err(err(Some(i), "a polygon has more than 255 windings"));
                }
                if poly.windings.iter().any(|w| w.len() % d != 0) {
                    return Err(err(
                        Some(i),
                        "a winding's values are not a whole number of points",
                    ));
                }
                let total: usize = poly.windings.iter().map(|w| w.len() / d).sum();
                if total == 0 {
                    return Err(err(Some(i), "a polygon without points"));
                }
                if total > POOL_CAP as usize {
                    return Err(err(
                        Some(i),
                        format!("{total} points do not fit one pool (at most {POOL_CAP})"),
                    ));
                }
                let (mut w, mut s, mut e, mut nn) = (
                    f64::INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                );
                for pt in poly.windings.iter().flat_map(|w| w.chunks_exact(d)) {
                    check(i, pt)?;
                    check_lonlat(i, pt[0], pt[1])?;
                    (w, s, e, nn) = (w.min(pt[0]), s.min(pt[1]), e.max(pt[0]), nn.max(pt[1]));
                }
                // Planes past lon/lat by box, at least a cell of 1/n (the
                // finest lon/lat box) wide; integer planes raw; texture
                // coordinates (param 65535 with 4 planes, planes 4..8 of 8,
                // as xptools DSFLibWrite.cpp `EndPolygon` tells them) on
                // DSFTool's grid of whole units around 0..1.
                self.scratch.clear();
                let floor = self.cell_level;
                let uv = |k: usize| (d == 4 && poly.param == 65535 && k >= 2) || (d == 8 && k >= 4);
                let points = poly.windings.iter().flat_map(|w| w.chunks_exact(d));
                windows_of(points, 2..d, &mut self.scratch, |k, lo, hi, raw| {
                    let units = if uv(k) {
                        quant::units_window(lo, hi, 0, 1)
                    } else {
                        None
                    };
                    match units {
                        Some(w) => w,
                        None if raw => Window::Raw,
                        None => quant::box_window(lo, hi, floor),
                    }
                });
                let key = Key {
                    family: Family::Polygon,
                    depth: d as u8,
                    cells: quant::poly_box(w, s, e, nn, self.n),
                    windows: self.intern(),
                };
                let p = self.room(key, total as u32)?;
                let plan = &mut self.pools[p as usize];
                for pt in poly.windings.iter().flat_map(|w| w.chunks_exact(d)) {
                    plan.see(pt);
                }
                self.slots.push((p, plan.count));
                plan.count += total as u32;
            }
            Entity::Patch(patch) => {
                check_def(patch.def, &dsf.terrain_defs, "TERT", i)?;
                let d = patch.depth;
                if !(2..=255).contains(&d) {
                    return Err(err(Some(i), format!("patch depth {d} is not 2..255")));
                }
                if !(patch.lod_near.is_finite() && patch.lod_far.is_finite()) {
                    return Err(err(
                        Some(i),
                        format!("LOD {} .. {} is not finite", patch.lod_near, patch.lod_far),
                    ));
                }
                if patch.primitives.is_empty() {
                    // The reader takes a patch's depth from the pool current
                    // when it opens: an empty patch needs a pool of its
                    // depth, even an empty one.
                    let key = Key {
                        family: Family::Patch,
                        depth: d as u8,
                        cells: CellBox {
                            n: 0,
                            x: 0,
                            y: 0,
                            w: 0,
                            h: 0,
                        },
                        windows: 0,
                    };
                    let p = self.room(key, 0)?;
                    self.slots.push((p, 0));
                }
                for prim in &patch.primitives {
                    if prim.vertices.len() % d != 0 || prim.vertices.is_empty() {
                        return Err(err(
                            Some(i),
                            "a primitive's values are not a whole number of vertices",
                        ));
                    }
                    for v in prim.vertices.chunks_exact(d) {
                        check(i, v)?;
                        check_lonlat(i, v[0], v[1])?;
                    }
                    self.place_primitive(&prim.vertices, d)?;
                }
            }
            Entity::Network(c) => {
                check_def(c.def, &dsf.network_defs, "NETW", i)?;
                let d = c.depth;
                if !(4..=255).contains(&d) {
                    return Err(err(Some(i), format!("network depth {d} is not 4..255")));
                }
                if c.subtype > 255 {
                    return Err(err(
                        Some(i),
                        format!("road subtype {} does not fit a byte", c.subtype),
                    ));
                }
                if c.points.len() % d != 0 || c.points.is_empty() {
                    return Err(err(
                        Some(i),
                        "a chain's values are not a whole number of points",
                    ));
                }
                let n = c.points.len() / d;
                if n > POOL_CAP as usize {
                    return Err(err(
                        Some(i),
                        format!(
                            "a chain of {n} points does not fit one command (at most {POOL_CAP})"
                        ),
                    ));
                }
                for pt in c.points() {
                    check(i, pt)?;
                    check_lonlat(i, pt[0], pt[1])?;
                    let j = pt[3];
                    if j.fract() != 0.0 || !(0.0..=quant::MAX32).contains(&j) {
                        return Err(err(Some(i), format!("junction ID {j} is not a u32")));
                    }
                }
                // Every plane but the junction ID by class.
                self.scratch.clear();
                let planes = (0..d).filter(|&k| k != 3);
                windows_of(c.points(), planes, &mut self.scratch, |k, lo, hi, _| {
                    let floor = match k {
                        2 | 6 => NETWORK_ELEVATION_FLOOR,
                        _ => NETWORK_FLOOR,
                    };
                    quant::class_window(lo, hi, floor)
                });
                let key32 = (d, self.intern());
                let p = match self.open32.get(&key32) {
                    Some(&p)
                        if u64::from(self.pools32[p as usize].count) + (n as u64)
                            < u64::from(u32::MAX) =>
                    {
                        p
                    }
                    _ => {
                        let p = u32::try_from(self.pools32.len())
                            .ok()
                            .filter(|&p| p < 65535)
                            .ok_or_else(|| err(None, "more than 65535 32-bit point pools"))?;
                        self.pools32.push(Plan::new(None, d, &[]));
                        self.open32.insert(key32, p);
                        p
                    }
                };
                let plan = &mut self.pools32[p as usize];
                for pt in c.points() {
                    plan.see(pt);
                }
                self.slots.push((p, plan.count));
                plan.count += n as u32;
            }
        }
        Ok(())
    }
}

/// The pools of one width in pass 2: each plane's scale and raw values.
struct Raws {
    wide: bool,
    depths: Vec<usize>,
    counts: Vec<u32>,
    scales: Vec<Vec<PlaneScale>>,
    /// Per pool, plane after plane.
    raw: Vec<Vec<u32>>,
}

impl Raws {
    fn new(plans: &[Plan], wide: bool) -> Raws {
        Raws {
            wide,
            depths: plans.iter().map(|p| p.depth).collect(),
            counts: plans.iter().map(|p| p.count).collect(),
            scales: plans.iter().map(Plan::scales).collect(),
            raw: plans
                .iter()
                .map(|p| vec![0; p.count as usize * p.depth])
                .collect(),
        }
    }

    /// Quantises point `at` of pool `pool`.
    fn store(&mut self, pool: u32, at: u32, pt: &[f64]) {
        let p = pool as usize;
        let (count, scales, raw) = (self.counts[p] as usize, &self.scales[p], &mut self.raw[p]);
        for (k, &v) in pt.iter().enumerate() {
            raw[k * count + at as usize] = encode_value(v, scales[k], self.wide);
        }
    }

    /// Appends each pool's atom and scale atom.
    fn write(&self, geod: &mut Vec<u8>) {
        let (pid, sid) = if self.wide {
            (PO32, SC32)
        } else {
            (POOL, SCAL)
        };
        for (p, raw) in self.raw.iter().enumerate() {
            let (count, depth) = (self.counts[p], self.depths[p]);
            let mut pool = count.to_le_bytes().to_vec();
            pool.push(depth as u8);
            let mut scal = Vec::with_capacity(8 * depth);
            for (k, s) in self.scales[p].iter().enumerate() {
                let c = count as usize;
                encode_best(&mut pool, &raw[k * c..(k + 1) * c], self.wide);
                scal.extend_from_slice(&s.scale.to_le_bytes());
                scal.extend_from_slice(&s.offset.to_le_bytes());
            }
            push_atom(geod, pid, &pool);
            push_atom(geod, sid, &scal);
        }
    }
}

/// `p` with its loose triangles turned into strips ([`super::strip`]) and
/// the triangles left loose in groups of 85, after its strips and fans (as
/// DSFTool orders them); `None` when it has no loose triangles. Vertices
/// are the same when their values are, bit for bit.
fn restrip(p: &Patch) -> Option<Patch> {
    if !p
        .primitives
        .iter()
        .any(|pr| pr.kind == PrimitiveKind::Triangles)
    {
        return None;
    }
    let d = p.depth.max(1);
    let mut ids: HashMap<Vertex<'_>, u32> = HashMap::new();
    let mut verts: Vec<&[f64]> = Vec::new();
    let mut tris = Vec::new();
    let mut out = Vec::new();
    for pr in &p.primitives {
        if pr.kind != PrimitiveKind::Triangles {
            out.push(pr.clone());
            continue;
        }
        let whole = pr.vertices.len() / (3 * d) * 3 * d;
        for t in pr.vertices[..whole].chunks_exact(3 * d) {
            let mut tri = [0u32; 3];
            for (k, v) in t.chunks_exact(d).enumerate() {
                tri[k] = *ids.entry(Vertex(v)).or_insert_with(|| {
                    verts.push(v);
                    verts.len() as u32 - 1
                });
            }
            tris.push(tri);
        }
        if whole < pr.vertices.len() {
            // Vertices that make no triangle stay as they are.
            out.push(Primitive {
                kind: PrimitiveKind::Triangles,
                vertices: pr.vertices[whole..].to_vec(),
            });
        }
    }
    let flat = |ids: &mut dyn Iterator<Item = u32>| -> Vec<f64> {
        ids.flat_map(|k| verts[k as usize].iter().copied())
            .collect()
    };
    let (strips, loose) = super::strip::stripify(&tris);
    for st in strips {
        out.push(Primitive {
            kind: PrimitiveKind::Strip,
            vertices: flat(&mut st.into_iter()),
        });
    }
    for group in loose.chunks(85) {
        out.push(Primitive {
            kind: PrimitiveKind::Triangles,
            vertices: flat(&mut group.iter().flatten().copied()),
        });
    }
    Some(Patch {
        primitives: out,
        ..*p
    })
}

/// The order [`build`] writes the entities in (indices into
/// [`Dsf::entities`]) and, when grouped, the filter each one is under.
fn write_order(dsf: &Dsf, opts: &BuildOptions, n: u32) -> (Vec<u32>, Option<Vec<i32>>) {
    let all = (0..dsf.entities.len() as u32).collect::<Vec<_>>();
    if !opts.group {
        return (all, None);
    }
    let mut filter = -1;
    let eff: Vec<i32> = dsf
        .entities
        .iter()
        .map(|e| {
            if let Entity::Filter(f) = e {
                filter = *f;
            }
            filter
        })
        .collect();
    let mut order: Vec<u32> = all
        .into_iter()
        .filter(|&i| !matches!(dsf.entities[i as usize], Entity::Filter(_)))
        .collect();
    order.sort_by_cached_key(|&i| {
        let f = eff[i as usize];
        match &dsf.entities[i as usize] {
            Entity::Object(o) => {
                let c = quant::cell(o.lon, o.lat, n);
                let mode = match o.mode {
                    ElevationMode::Draped => 0u8,
                    ElevationMode::Msl => 1,
                    ElevationMode::Agl => 2,
                };
                (f, 0u8, mode, o.def, c.x, c.y)
            }
            Entity::Polygon(p) => {
                let first = p.windings.iter().find(|w| w.len() >= 2);
                let c = first.map_or(quant::cell(0.0, 0.0, n), |w| quant::cell(w[0], w[1], n));
                (f, 1, 0, p.def, c.x, c.y)
            }
            Entity::Patch(_) => (f, 2, 0, 0, 0, 0),
            Entity::Network(c) => (f, 3, 0, c.def, c.subtype as i32, 0),
            Entity::Filter(_) => (f, 4, 0, 0, 0, 0),
        }
    });
    (order, Some(eff))
}

/// Builds a binary DSF (with its MD5 footer) from `dsf`'s properties,
/// definitions, entities, rasters and unknown atoms.
pub fn build(dsf: &Dsf, opts: &BuildOptions) -> Result<Vec<u8>, BuildError> {
    let n = opts.divisions.clamp(1, 64).next_power_of_two();
    let (order, filters) = write_order(dsf, opts, n);
    build_in(dsf, &order, filters.as_deref(), n, opts)
}

/// [`build`] of a model it may take apart: the same bytes, with the
/// entities first moved into the order they are written in when grouping
/// reorders them ([`BuildOptions::group`]), so that the writer's passes
/// read them one after the other instead of through the sorted order's
/// indices (a cache miss an entity and pass on a large tile, which made
/// the build grow faster than its input). What `agkit dsf build` and the
/// DSFTool face's `--text2dsf` use. An error names the entity by its index
/// in the model as given.
pub fn build_owned(mut dsf: Dsf, opts: &BuildOptions) -> Result<Vec<u8>, BuildError> {
    let n = opts.divisions.clamp(1, 64).next_power_of_two();
    let (order, filters) = write_order(&dsf, opts, n);
    let Some(eff) = filters else {
        return build_in(&dsf, &order, None, n, opts);
    };
    let (len, written) = (dsf.entities.len(), order.len());
    // The order as a whole permutation: the entities written, then those
    // grouping leaves out (its filters), which are dropped after the move.
    let mut perm = order;
    let mut listed = vec![false; len];
    for &i in &perm {
        listed[i as usize] = true;
    }
    perm.extend((0..len as u32).filter(|&i| !listed[i as usize]));
    drop(listed);
    gather(&mut dsf.entities, &perm);
    dsf.entities.truncate(written);
    let eff: Vec<i32> = perm[..written].iter().map(|&i| eff[i as usize]).collect();
    let identity: Vec<u32> = (0..written as u32).collect();
    build_in(&dsf, &identity, Some(&eff), n, opts).map_err(|e| BuildError {
        entity: e.entity.map(|k| perm.get(k).map_or(k, |&i| i as usize)),
        ..e
    })
}

/// Reorders `v` in place so that `v[k]` is the old `v[perm[k]]`, for a
/// permutation `perm` of `0..v.len()`: each cycle of the permutation is
/// followed once, by swaps (time linear in `v`, one flag an element).
fn gather<T>(v: &mut [T], perm: &[u32]) {
    debug_assert_eq!(v.len(), perm.len());
    let mut done = vec![false; v.len()];
    for start in 0..v.len() {
        if done[start] {
            continue;
        }
        let mut cur = start;
        loop {
            done[cur] = true;
            let next = perm[cur] as usize;
            if next == start || done[next] {
                break;
            }
            v.swap(cur, next);
            cur = next;
        }
    }
}

/// [`build`] writing `dsf`'s entities in `order`, each under the filter
/// `filters` gives it (by entity index) when grouped.
fn build_in(
    dsf: &Dsf,
    order: &[u32],
    filters: Option<&[i32]>,
    n: u32,
    opts: &BuildOptions,
) -> Result<Vec<u8>, BuildError> {
    let restripped: Vec<(usize, Entity)> = if opts.strip {
        let patches = dsf.entities.iter().enumerate();
        patches
            .filter_map(|(i, e)| match e {
                Entity::Patch(p) => restrip(p).map(|q| (i, Entity::Patch(q))),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut view: Vec<&Entity> = dsf.entities.iter().collect();
    for (i, e) in &restripped {
        view[*i] = e;
    }
    let mut lay = Layout {
        dsf,
        entities: &view,
        n,
        pools: Vec::new(),
        pools32: Vec::new(),
        open: HashMap::new(),
        open32: HashMap::new(),
        // Id 0: no windows (draped objects, empty patches).
        windows: [(Box::default(), 0)].into_iter().collect(),
        window_list: vec![Box::default()],
        scratch: Vec::new(),
        cell_level: -(n.trailing_zeros() as i32),
        shared: HashMap::new(),
        slots: Vec::new(),
        refs: Vec::new(),
    };
    for &i in order {
        // Running out of pools is the fault of the entity that needed one.
        let i = i as usize;
        lay.place(i).map_err(|e| BuildError {
            entity: e.entity.or(Some(i)),
            ..e
        })?;
    }
    lay.shared = HashMap::new();
    lay.open = HashMap::new();

    // Pass 2: scales and raw values.
    share_patch_elevations(&mut lay.pools);
    let mut r16 = Raws::new(&lay.pools, false);
    let mut r32 = Raws::new(&lay.pools32, true);
    let (mut slot, mut vref) = (0usize, 0usize);
    for &i in order {
        match view[i as usize] {
            Entity::Filter(_) => {}
            Entity::Object(o) => {
                let (p, at) = lay.slots[slot];
                slot += 1;
                let (pt, depth) = object_point(o);
                r16.store(p, at, &pt[..depth]);
            }
            Entity::Polygon(poly) => {
                let (p, first) = lay.slots[slot];
                slot += 1;
                let pts = poly
                    .windings
                    .iter()
                    .flat_map(|w| w.chunks_exact(poly.depth));
                for (j, pt) in pts.enumerate() {
                    r16.store(p, first + j as u32, pt);
                }
            }
            Entity::Patch(patch) => {
                if patch.primitives.is_empty() {
                    slot += 1;
                }
                let d = patch.depth;
                for v in patch
                    .primitives
                    .iter()
                    .flat_map(|pr| pr.vertices.chunks_exact(d))
                {
                    let (p, at) = lay.refs[vref];
                    vref += 1;
                    r16.store(p, u32::from(at), v);
                }
            }
            Entity::Network(c) => {
                let (p, first) = lay.slots[slot];
                slot += 1;
                for (j, pt) in c.points().enumerate() {
                    r32.store(p, first + j as u32, pt);
                }
            }
        }
    }
    let mut geod = Vec::new();
    r16.write(&mut geod);
    r32.write(&mut geod);
    drop((r16, r32));

    // Pass 3: commands.
    let mut c = Cmds {
        out: Vec::new(),
        pool: None,
        def: None,
        subtype: None,
        junction: 0,
        agl: false,
        patch_state: None,
        filter: -1,
        run: None,
    };
    // Junction offset 0, as the xptools writer.
    c.push(Command::JunctionOffset(0))?;
    let (mut slot, mut vref) = (0usize, 0usize);
    for &i in order {
        let e = view[i as usize];
        if !matches!(e, Entity::Object(_)) {
            c.flush()?;
        }
        if let Some(f) = filters.map(|f| f[i as usize])
            && f != c.filter
        {
            c.flush()?;
            c.push(Command::typed_comment(1, f))?;
            c.filter = f;
        }
        match e {
            Entity::Filter(f) => {
                c.push(Command::typed_comment(1, *f))?;
                c.filter = *f;
            }
            Entity::Object(o) => {
                let (p, at) = lay.slots[slot];
                slot += 1;
                if o.mode != ElevationMode::Draped {
                    let agl = o.mode == ElevationMode::Agl;
                    if agl != c.agl {
                        c.flush()?;
                        c.push(Command::typed_comment(2, i32::from(agl)))?;
                        c.agl = agl;
                    }
                }
                match &mut c.run {
                    Some((d, q, _, last)) if *d == o.def && *q == p && *last == at => *last += 1,
                    _ => {
                        c.flush()?;
                        c.run = Some((o.def, p, at, at + 1));
                    }
                }
            }
            Entity::Polygon(poly) => {
                let (p, first) = lay.slots[slot];
                slot += 1;
                c.def(poly.def)?;
                c.pool(p)?;
                let mut bounds = vec![first as u16];
                for w in &poly.windings {
                    let b = bounds[bounds.len() - 1] + (w.len() / poly.depth) as u16;
                    bounds.push(b);
                }
                if bounds.len() == 2 {
                    c.push(Command::PolygonRange {
                        param: poly.param,
                        first: bounds[0],
                        last: bounds[1],
                    })?;
                } else {
                    c.push(Command::NestedPolygonRange {
                        param: poly.param,
                        bounds,
                    })?;
                }
            }
            Entity::Patch(patch) => {
                c.def(patch.def)?;
                // The patch takes its depth from the pool current when it
                // opens.
                let first = if patch.primitives.is_empty() {
                    slot += 1;
                    lay.slots[slot - 1].0
                } else {
                    lay.refs[vref].0
                };
                c.pool(first)?;
                c.open_patch(patch.flags, patch.lod_near, patch.lod_far)?;
                for prim in &patch.primitives {
                    let m = prim.vertices.len() / patch.depth;
                    let refs = &lay.refs[vref..vref + m];
                    vref += m;
                    c.primitive(prim.kind, refs)?;
                }
            }
            Entity::Network(chain) => {
                let (p, first) = lay.slots[slot];
                slot += 1;
                let len = (chain.points.len() / chain.depth) as u32;
                c.def(chain.def)?;
                if c.subtype != Some(chain.subtype) {
                    c.push(Command::RoadSubtype(chain.subtype as u8))?;
                    c.subtype = Some(chain.subtype);
                }
                c.pool(p)?;
                if first < c.junction || first + len - c.junction > POOL_CAP {
                    c.push(Command::JunctionOffset(first))?;
                    c.junction = first;
                }
                let a = (first - c.junction) as u16;
                c.push(Command::NetworkChainRange(a, a + len as u16))?;
            }
        }
    }
    c.flush()?;
    assemble(dsf, geod, &c.out)
}

/// The command stream being written, with the state a reader would have,
/// so that selections are written only when they change.
struct Cmds {
    out: Vec<u8>,
    pool: Option<u32>,
    def: Option<u32>,
    subtype: Option<u32>,
    junction: u32,
    agl: bool,
    /// Patch flags and LOD in force (`None` before the first patch).
    patch_state: Option<(u8, u32, u32)>,
    filter: i32,
    /// Objects not yet written: (def, pool, first, last).
    run: Option<(u32, u32, u32, u32)>,
}

impl Cmds {
    fn push(&mut self, c: Command) -> Result<(), BuildError> {
        c.encode(&mut self.out)
            .map_err(|e| err(None, e.to_string()))
    }

    fn pool(&mut self, p: u32) -> Result<(), BuildError> {
        if self.pool != Some(p) {
            self.push(Command::PoolSelect(p as u16))?;
            self.pool = Some(p);
        }
        Ok(())
    }

    fn def(&mut self, d: u32) -> Result<(), BuildError> {
        if self.def != Some(d) {
            self.push(Command::set_definition(d))?;
            self.def = Some(d);
        }
        Ok(())
    }

    /// Writes the pending objects.
    fn flush(&mut self) -> Result<(), BuildError> {
        if let Some((def, pool, first, last)) = self.run.take() {
            self.def(def)?;
            self.pool(pool)?;
            if last == first + 1 {
                self.push(Command::Object(first as u16))?;
            } else {
                self.push(Command::ObjectRange(first as u16, last as u16))?;
            }
        }
        Ok(())
    }

    /// Opens a patch: opcode 16 when flags and LOD are those in force, 17
    /// when only the flags differ, 18 otherwise (always for the first).
    fn open_patch(&mut self, flags: u8, near: f32, far: f32) -> Result<(), BuildError> {
        let cmd = open_patch(&mut self.patch_state, flags, near, far);
        self.push(cmd)
    }

    /// Writes one primitive whose vertices are the pool points `refs`: a
    /// range when they are consecutive points of one pool, else indexed
    /// (one pool) or cross-pool commands of at most 255 vertices.
    fn primitive(&mut self, kind: PrimitiveKind, refs: &[(u32, u16)]) -> Result<(), BuildError> {
        let pool = refs[0].0;
        let one_pool = refs.iter().all(|r| r.0 == pool);
        let consecutive = refs
            .iter()
            .enumerate()
            .all(|(j, r)| usize::from(r.1) == usize::from(refs[0].1) + j);
        if one_pool {
            self.pool(pool)?;
            if consecutive {
                let first = refs[0].1;
                return self.push(Command::PrimitiveRange(
                    kind,
                    first,
                    first + refs.len() as u16,
                ));
            }
        }
        for part in chunks(kind, refs.len()) {
            let cmd = if one_pool {
                Command::Primitive(kind, part.iter().map(|&j| refs[j].1).collect())
            } else {
                let v = part
                    .iter()
                    .map(|&j| (refs[j].0 as u16, refs[j].1))
                    .collect();
                Command::PrimitiveCrossPool(kind, v)
            };
            self.push(cmd)?;
        }
        Ok(())
    }
}

/// The command opening a patch of `flags` and LOD `near`..`far` when a
/// reader's patch state is `state` (flags and LOD bits, `None` before the
/// first patch), which it updates: opcode 16 when flags and LOD are those
/// in force, 17 when only the flags differ, 18 otherwise.
pub(crate) fn open_patch(
    state: &mut Option<(u8, u32, u32)>,
    flags: u8,
    near: f32,
    far: f32,
) -> Command {
    let lod = (near.to_bits(), far.to_bits());
    let cmd = match *state {
        Some((f, n, x)) if (n, x) == lod && f == flags => Command::TerrainPatch,
        Some((_, n, x)) if (n, x) == lod => Command::TerrainPatchFlags(flags),
        _ => Command::TerrainPatchFlagsLod { flags, near, far },
    };
    *state = Some((flags, lod.0, lod.1));
    cmd
}

/// The vertex positions of the commands a primitive of `m` vertices is
/// split into so that each holds at most 255 and the triangles stay the
/// same: triangles in groups of 85; strips in pieces of 254 overlapping by
/// two (each starting on an even vertex, so the winding is kept); fans in
/// pieces of 255 that repeat the centre and overlap by one.
fn chunks(kind: PrimitiveKind, m: usize) -> Vec<Vec<usize>> {
    const MAX: usize = 255;
    if m <= MAX {
        return vec![(0..m).collect()];
    }
    let mut out = Vec::new();
    match kind {
        PrimitiveKind::Triangles => {
            let mut a = 0;
            while a < m {
                out.push((a..(a + MAX).min(m)).collect());
                a += MAX;
            }
        }
        PrimitiveKind::Strip => {
            let mut a = 0;
            loop {
                let b = (a + MAX - 1).min(m);
                out.push((a..b).collect());
                if b == m {
                    break;
                }
                a = b - 2;
            }
        }
        PrimitiveKind::Fan => {
            let mut a = 1;
            loop {
                let b = (a + MAX - 1).min(m);
                out.push(std::iter::once(0).chain(a..b).collect());
                if b == m {
                    break;
                }
                a = b - 1;
            }
        }
    }
    out
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
            push_atom(&mut geod, pid, &pool);
            push_atom(&mut geod, sid, &scal);
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
    // Every atom is written in place into the one output (its length
    // patched once its payload is in), so a large raster is copied once,
    // not once per enclosing atom.
    let rasters: usize = dsf.rasters.iter().map(|r| r.data.len() + 40).sum();
    let mut file = Vec::with_capacity(64 + geod.len() + cmds.len() + rasters);
    file.extend_from_slice(MAGIC);
    file.extend_from_slice(&1i32.to_le_bytes());

    put_atom(&mut file, HEAD, |f| {
        put_atom(f, PROP, |f| {
            for (n, v) in &dsf.properties {
                push_string(f, n)?;
                push_string(f, v)?;
            }
            Ok(())
        })?;
        extra_atoms(f, dsf, HEAD);
        Ok(())
    })?;
    put_atom(&mut file, DEFN, |f| {
        for (id, table) in [
            (TERT, &dsf.terrain_defs),
            (OBJT, &dsf.object_defs),
            (POLY, &dsf.polygon_defs),
            (NETW, &dsf.network_defs),
            (DEMN, &dsf.raster_defs),
        ] {
            put_atom(f, id, |f| table.iter().try_for_each(|d| push_string(f, d)))?;
        }
        extra_atoms(f, dsf, DEFN);
        Ok(())
    })?;
    extra_atoms(&mut geod, dsf, GEOD);
    put_atom(&mut file, GEOD, |f| {
        f.extend_from_slice(&geod);
        Ok(())
    })?;
    drop(geod);
    put_atom(&mut file, CMDS, |f| {
        f.extend_from_slice(cmds);
        Ok(())
    })?;
    if !dsf.rasters.is_empty() {
        put_atom(&mut file, DEMS, |f| {
            for r in &dsf.rasters {
                put_atom(f, DEMI, |h| {
                    h.extend_from_slice(&[r.version, r.bpp]);
                    h.extend_from_slice(&r.flags.to_le_bytes());
                    h.extend_from_slice(&r.width.to_le_bytes());
                    h.extend_from_slice(&r.height.to_le_bytes());
                    h.extend_from_slice(&r.scale.to_le_bytes());
                    h.extend_from_slice(&r.offset.to_le_bytes());
                    Ok(())
                })?;
                put_atom(f, DEMD, |d| {
                    d.extend_from_slice(&r.data);
                    Ok(())
                })?;
            }
            Ok(())
        })?;
    }
    for a in dsf.unknown_atoms.iter().filter(|a| a.parent.is_none()) {
        push_atom(&mut file, a.id, &a.data);
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
        push_atom(out, a.id, &a.data);
    }
}

/// Appends `s` and its NUL terminator; a NUL inside `s` cannot be held by
/// a string table.
fn push_string(out: &mut Vec<u8>, s: &str) -> Result<(), BuildError> {
    if s.contains('\0') {
        return Err(err(
            None,
            format!("{s:?} holds a NUL byte, which a DSF string table cannot hold"),
        ));
    }
    out.extend_from_slice(s.as_bytes());
    out.push(0);
    Ok(())
}

/// Appends an atom `id` whose payload `fill` writes after its 8-byte
/// header, then sets the header's length. An atom's length is 32 bits:
/// one that would exceed 4 GiB is an error, not a wrapped length.
fn put_atom(
    out: &mut Vec<u8>,
    id: u32,
    fill: impl FnOnce(&mut Vec<u8>) -> Result<(), BuildError>,
) -> Result<(), BuildError> {
    let start = out.len();
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    fill(out)?;
    let len = u32::try_from(out.len() - start)
        .map_err(|_| err(None, format!("atom {id:#010x} would exceed 4 GiB")))?;
    out[start + 4..start + 8].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

/// Appends an atom `id` holding `payload`, in place.
fn push_atom(out: &mut Vec<u8>, id: u32, payload: &[u8]) {
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&((payload.len() + 8) as u32).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Encodes values with mode 3: wrapping differences, then RLE.
pub fn rle_diff(out: &mut Vec<u8>, raw: &[u32], wide: bool) {
    encode_plane(out, raw, wide, 3);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_primitives_split_keeping_their_triangles() {
        let tris = |kind: PrimitiveKind, v: &[usize]| -> Vec<[usize; 3]> {
            match kind {
                PrimitiveKind::Triangles => v.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
                PrimitiveKind::Strip => (0..v.len().saturating_sub(2))
                    .map(|i| {
                        if i % 2 == 0 {
                            [v[i], v[i + 1], v[i + 2]]
                        } else {
                            [v[i + 1], v[i], v[i + 2]]
                        }
                    })
                    .collect(),
                PrimitiveKind::Fan => (1..v.len().saturating_sub(1))
                    .map(|i| [v[0], v[i], v[i + 1]])
                    .collect(),
            }
        };
        for kind in [
            PrimitiveKind::Triangles,
            PrimitiveKind::Strip,
            PrimitiveKind::Fan,
        ] {
            for m in [3, 254, 255, 256, 509, 600, 1000] {
                let all: Vec<usize> = (0..m).collect();
                let parts = chunks(kind, m);
                assert!(parts.iter().all(|p| p.len() <= 255), "{kind:?} {m}");
                let split: Vec<[usize; 3]> = parts.iter().flat_map(|p| tris(kind, p)).collect();
                assert_eq!(split, tris(kind, &all), "{kind:?} {m}");
            }
        }
    }
}
