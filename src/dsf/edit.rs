//! Edits of a binary DSF without its text: the steps ortho pipelines do
//! today with a DSFTool round trip (DSF → text → a line filter → DSF), in
//! one pass from binary to binary.
//!
//! * [`extract_overlay`]: Ortho4XP's overlay extraction.
//! * [`rasters`]: copy, replace or drop raster layers (X-Plane 12's season
//!   and sound rasters, AutoOrtho's "Add Native Seasons").
//! * [`filter`]: keep or drop entities by kind, definition, box or polygon.
//! * [`merge`]: several overlays of one tile into one.
//! * [`props`]: set and unset properties (exclusions among them).
//!
//! The input's point pools are kept as they are (raw values and scales),
//! so every coordinate the result keeps is the input's, bit for bit: no
//! quantisation happens. The command stream is rewritten: commands of
//! dropped entities go, and the state commands (pool, definition, road
//! subtype, junction offset, patch flags and LOD, filter, AGL) are written
//! again where the kept commands need them. Pools no kept command uses are
//! left out and the others renumbered. Memory is that of the input, its
//! decoded pools (2 bytes a value for 16-bit pools) and the output: the
//! commands are read one at a time as they are rewritten, and only the
//! pools the result keeps are copied into it.
//!
//! Every edit refuses, by name ([`EditErrorKind`]), a result X-Plane would
//! reject: one without any entity ([`EditErrorKind::Empty`]: what a
//! pipeline's empty text made DSFTool report as "boundaries out of
//! range"), one without its tile's bounds ([`EditErrorKind::Bounds`]), or
//! one that does not read back ([`EditErrorKind::Inconsistent`]).

use super::cmd::Command;
use super::cursor::Cursor;
use super::flat::FlatPool;
use super::read::{self, DsfError};
use super::write::{open_patch, write_raw};
use super::{Dsf, Raster};
use crate::limits::Limits;
use std::collections::HashMap;
use std::fmt;

/// What kind of problem stopped an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditErrorKind {
    /// An input is not a DSF this reader accepts.
    Read,
    /// The result would hold no entity and no exclusion at all.
    Empty,
    /// The tile's bounds (`sim/west`, `sim/south`, `sim/east`,
    /// `sim/north`) are missing or out of range, or differ between inputs.
    Bounds,
    /// The result does not read back: its pools and commands disagree.
    Inconsistent,
    /// A raster layer asked for is missing, or does not fit its tile.
    Raster,
    /// The edit's own arguments are wrong.
    Arguments,
}

impl EditErrorKind {
    /// A short stable name of the kind (for messages and Python).
    pub fn name(self) -> &'static str {
        match self {
            EditErrorKind::Read => "read",
            EditErrorKind::Empty => "empty",
            EditErrorKind::Bounds => "bounds",
            EditErrorKind::Inconsistent => "inconsistent",
            EditErrorKind::Raster => "raster",
            EditErrorKind::Arguments => "arguments",
        }
    }
}

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditError {
    /// What kind of problem.
    pub kind: EditErrorKind,
    /// Which input (0-based) it is in, when it is in one.
    pub input: Option<usize>,
    /// Byte offset in that input, for a read error.
    pub offset: Option<u64>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for EditError {}

fn fail(kind: EditErrorKind, message: impl Into<String>) -> EditError {
    EditError {
        kind,
        input: None,
        offset: None,
        message: message.into(),
    }
}

fn read_error(input: usize, e: DsfError) -> EditError {
    EditError {
        kind: EditErrorKind::Read,
        input: Some(input),
        offset: Some(e.offset),
        message: format!("[{}] @ byte {}: {}", e.code(), e.offset, e.message()),
    }
}

/// A DSF read up to its commands: the model's head (properties,
/// definitions, rasters; pools without their values), the decoder with
/// the pools' values and the command stream as it is in the file.
///
/// Nothing is copied up front: the commands are parsed one at a time
/// ([`Source::commands`]) and a pool's values go into a result only when
/// a kept command uses it ([`finish`]). Extracting the overlay of a base
/// mesh so never holds the mesh's commands nor a second copy of its
/// pools.
struct Source<'a> {
    dsf: Dsf,
    dec: read::Decoded<'a>,
    input: usize,
}

fn open<'a>(bytes: &'a [u8], input: usize, limits: &Limits) -> Result<Source<'a>, EditError> {
    let mut dec = read::decode(bytes, limits).map_err(|e| read_error(input, e))?;
    let dsf = std::mem::take(&mut dec.head);
    Ok(Source { dsf, dec, input })
}

impl Source<'_> {
    /// The commands in file order, parsed as they are asked for.
    fn commands(&self) -> impl Iterator<Item = Result<Command, EditError>> + '_ {
        let (payload, base) = self.dec.command_bytes();
        let mut c = Cursor::new(payload, base);
        std::iter::from_fn(move || {
            (!c.is_empty()).then(|| Command::parse(&mut c).map_err(|e| read_error(self.input, e)))
        })
    }

    /// 16-bit (or, with `wide`, 32-bit) pool `p` with its values.
    fn pool(&self, wide: bool, p: u16) -> Option<&FlatPool> {
        let list = if wide {
            self.dec.pools32()
        } else {
            self.dec.pools()
        };
        list.get(usize::from(p))
    }

    /// The whole tile as a model with every pool's values, and its
    /// commands: for the edits that keep both as they are.
    fn into_whole(self) -> Result<(Dsf, Vec<Command>), EditError> {
        let cmds = self.commands().collect::<Result<Vec<_>, _>>()?;
        let mut d = self.dsf;
        d.pools = self.dec.pools().iter().map(|p| p.to_pool(true)).collect();
        d.pools32 = self.dec.pools32().iter().map(|p| p.to_pool(true)).collect();
        Ok((d, cmds))
    }
}

/// The four kinds of entity of a command stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Objects and `.agp` points (`OBJT`).
    Object,
    /// Polygons: facades, forests, draped polygons, lines, AGB, AGS …
    /// (`POLY`).
    Polygon,
    /// Terrain patches (`TERT`).
    Patch,
    /// Network chains (`NETW`).
    Network,
}

impl Kind {
    /// The kind for its name (`object`, `polygon`, `patch` or `terrain`,
    /// `network` or `road`).
    pub fn from_name(s: &str) -> Option<Kind> {
        match s.to_ascii_lowercase().as_str() {
            "object" | "objects" => Some(Kind::Object),
            "polygon" | "polygons" => Some(Kind::Polygon),
            "patch" | "patches" | "terrain" => Some(Kind::Patch),
            "network" | "networks" | "road" | "roads" => Some(Kind::Network),
            _ => None,
        }
    }
}

/// `*` (any run) and `?` (any one character) matching of a definition
/// path, case-insensitive (paths name files on any file system).
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.to_lowercase().chars().collect();
    let t: Vec<char> = text.to_lowercase().chars().collect();
    // Linear backtracking on the last star.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// One `--keep`/`--drop` rule: a kind, a definition pattern, or both.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The kind (`None`: any).
    pub kind: Option<Kind>,
    /// A [`wildcard`] pattern of the definition path (`None`: any).
    pub pattern: Option<String>,
}

impl std::str::FromStr for Rule {
    type Err = String;

    /// `KIND`, `KIND:PATTERN`, `any:PATTERN` or `PATTERN`.
    fn from_str(s: &str) -> Result<Rule, String> {
        let (head, pattern) = match s.split_once(':') {
            Some((h, p)) => (h, Some(p.to_string())),
            None => (s, None),
        };
        match (
            Kind::from_name(head),
            head.eq_ignore_ascii_case("any"),
            pattern,
        ) {
            (Some(k), _, p) => Ok(Rule {
                kind: Some(k),
                pattern: p,
            }),
            (None, true, p) => Ok(Rule {
                kind: None,
                pattern: p,
            }),
            (None, false, None) if !s.is_empty() => Ok(Rule {
                kind: None,
                pattern: Some(s.to_string()),
            }),
            _ => Err(format!(
                "{s:?} is not KIND[:PATTERN] (KIND: object, polygon, patch, network or any)"
            )),
        }
    }
}

impl Rule {
    fn matches(&self, kind: Kind, def: &str) -> bool {
        self.kind.is_none_or(|k| k == kind)
            && self.pattern.as_deref().is_none_or(|p| wildcard(p, def))
    }
}

/// An area entities are selected by: a box, or polygons (rings read with
/// the even-odd rule, so holes and several polygons work).
#[derive(Debug, Clone, PartialEq)]
pub enum Area {
    /// West, south, east, north, degrees (edges included).
    Box([f64; 4]),
    /// Rings of (lon, lat) points.
    Rings(Vec<Vec<[f64; 2]>>),
}

impl Area {
    /// True when the point is in the area.
    pub fn contains(&self, lon: f64, lat: f64) -> bool {
        match self {
            Area::Box([w, s, e, n]) => (*w..=*e).contains(&lon) && (*s..=*n).contains(&lat),
            Area::Rings(rings) => {
                let mut inside = false;
                for r in rings {
                    for k in 0..r.len() {
                        let (a, b) = (r[k], r[(k + 1) % r.len()]);
                        if (a[1] > lat) != (b[1] > lat)
                            && lon < a[0] + (lat - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
                        {
                            inside = !inside;
                        }
                    }
                }
                inside
            }
        }
    }

    /// The rings of every `Polygon` and `MultiPolygon` in a GeoJSON text
    /// (a geometry, a feature or a feature collection).
    pub fn from_geojson(text: &str) -> Result<Area, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not GeoJSON: {e}"))?;
        let mut rings = Vec::new();
        collect_rings(&v, &mut rings, 0)?;
        if rings.is_empty() {
            return Err("no Polygon or MultiPolygon in the GeoJSON".into());
        }
        Ok(Area::Rings(rings))
    }
}

fn ring(v: &serde_json::Value) -> Result<Vec<[f64; 2]>, String> {
    let pts = v.as_array().ok_or("a ring is not an array")?;
    pts.iter()
        .map(|p| {
            let lon = p.get(0).and_then(serde_json::Value::as_f64);
            let lat = p.get(1).and_then(serde_json::Value::as_f64);
            match (lon, lat) {
                (Some(a), Some(b)) => Ok([a, b]),
                _ => Err(format!("{p} is not a [lon, lat] position")),
            }
        })
        .collect()
}

fn collect_rings(
    v: &serde_json::Value,
    out: &mut Vec<Vec<[f64; 2]>>,
    depth: usize,
) -> Result<(), String> {
    if depth > 8 {
        return Err("GeoJSON nested too deeply".into());
    }
    let polygon = |c: &serde_json::Value, out: &mut Vec<Vec<[f64; 2]>>| -> Result<(), String> {
        for r in c.as_array().ok_or("Polygon coordinates are not an array")? {
            out.push(ring(r)?);
        }
        Ok(())
    };
    match v.get("type").and_then(serde_json::Value::as_str) {
        Some("FeatureCollection") => {
            for f in v
                .get("features")
                .and_then(|f| f.as_array())
                .into_iter()
                .flatten()
            {
                collect_rings(f, out, depth + 1)?;
            }
        }
        Some("Feature") => {
            if let Some(g) = v.get("geometry") {
                collect_rings(g, out, depth + 1)?;
            }
        }
        Some("GeometryCollection") => {
            for g in v
                .get("geometries")
                .and_then(|g| g.as_array())
                .into_iter()
                .flatten()
            {
                collect_rings(g, out, depth + 1)?;
            }
        }
        Some("Polygon") => polygon(&v["coordinates"], out)?,
        Some("MultiPolygon") => {
            for p in v["coordinates"]
                .as_array()
                .ok_or("MultiPolygon coordinates")?
            {
                polygon(p, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// What [`filter`] keeps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Selection {
    /// Keep only entities matching one of these (all, when empty).
    pub keep: Vec<Rule>,
    /// Drop entities matching one of these.
    pub drop: Vec<Rule>,
    /// The rules apply to entities with a point in this area (objects
    /// point by point, patches primitive by primitive); with no rules,
    /// entities in the area are kept.
    pub area: Option<Area>,
}

/// Options of [`extract_overlay`], Ortho4XP's (`src/O4_Overlay_Utils.py`,
/// `build_overlay`; defaults from `src/O4_Config_Utils.py`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayOptions {
    /// Polygon definitions left out (Ortho4XP's `ovl_exclude_pol`): an
    /// index, a text the definition path contains, or `!text` for paths
    /// that do not contain it. Default `["0"]`: definition 0, the beaches
    /// of the Global and HD sceneries (Ortho4XP's hint).
    pub exclude_polygons: Vec<String>,
    /// Road subtypes left out (Ortho4XP's `ovl_exclude_net`); `*` or an
    /// empty item leaves every network out. Default none.
    pub exclude_roads: Vec<String>,
    /// Keep objects too. Ortho4XP's text filter copies no `OBJECT_DEF`
    /// nor `OBJECT` line, so its overlays hold none; off by default.
    pub objects: bool,
}

impl Default for OverlayOptions {
    fn default() -> Self {
        OverlayOptions {
            exclude_polygons: vec!["0".into()],
            exclude_roads: Vec::new(),
            objects: false,
        }
    }
}

/// What the rewriter keeps of each source.
enum Policy<'a> {
    /// Everything (merge).
    All,
    /// Ortho4XP's overlay extraction: polygon definitions and road
    /// subtypes left out.
    Overlay {
        polygons: Vec<bool>,
        roads: RoadExclusion,
        objects: bool,
    },
    /// A selection.
    Select(&'a Selection),
}

enum RoadExclusion {
    All,
    Subtypes(Vec<u32>),
}

impl Policy<'_> {
    /// Whether an entity of `kind` and definition `def` (its path `path`)
    /// is kept; `inside` tells whether it has a point in an area.
    fn keep(
        &self,
        kind: Kind,
        def: u32,
        path: &str,
        subtype: u8,
        inside: &mut dyn FnMut(&Area) -> bool,
    ) -> bool {
        match self {
            Policy::All => true,
            Policy::Overlay {
                polygons,
                roads,
                objects,
            } => match kind {
                Kind::Patch => false,
                Kind::Object => *objects,
                Kind::Polygon => !polygons.get(def as usize).copied().unwrap_or(false),
                Kind::Network => match roads {
                    RoadExclusion::All => false,
                    RoadExclusion::Subtypes(s) => !s.contains(&u32::from(subtype)),
                },
            },
            Policy::Select(sel) => {
                let in_area = |inside: &mut dyn FnMut(&Area) -> bool| match &sel.area {
                    Some(a) => inside(a),
                    None => true,
                };
                if sel.keep.is_empty() && sel.drop.is_empty() {
                    return in_area(inside);
                }
                let hit = |rules: &[Rule], inside: &mut dyn FnMut(&Area) -> bool| {
                    rules.iter().any(|r| r.matches(kind, path)) && in_area(inside)
                };
                let kept = sel.keep.is_empty() || hit(&sel.keep, inside);
                kept && !hit(&sel.drop, inside)
            }
        }
    }

    /// Whether the filter state (airport-ID filters) is carried over.
    /// Ortho4XP's text filter copies no `FILTER` line.
    fn filters(&self) -> bool {
        !matches!(self, Policy::Overlay { .. })
    }
}

/// A pool of the output, named before renumbering: (source, 32-bit?, index).
type PoolId = (usize, bool, u16);

/// The command stream being written, with a reader's state, so that state
/// commands are written only where kept commands need them.
#[derive(Default)]
struct Out {
    cmds: Vec<Command>,
    /// `PoolSelect` commands to renumber: (command index, pool).
    selects: Vec<(usize, PoolId)>,
    /// Cross-pool primitives to renumber: (command index, source).
    cross: Vec<(usize, usize)>,
    pool: Option<PoolId>,
    def: Option<u32>,
    subtype: Option<u8>,
    junction: Option<u32>,
    patch: Option<(u8, u32, u32)>,
    filter: i32,
    agl: bool,
    used: HashMap<PoolId, ()>,
    entities: usize,
}

impl Out {
    fn new() -> Out {
        Out {
            filter: -1,
            ..Out::default()
        }
    }

    fn select(&mut self, p: PoolId) {
        self.used.insert(p, ());
        if self.pool != Some(p) {
            self.selects.push((self.cmds.len(), p));
            self.cmds.push(Command::PoolSelect(0));
            self.pool = Some(p);
        }
    }

    fn def(&mut self, d: u32) {
        if self.def != Some(d) {
            self.cmds.push(Command::set_definition(d));
            self.def = Some(d);
        }
    }

    fn filter(&mut self, f: i32) {
        if self.filter != f {
            self.cmds.push(Command::typed_comment(1, f));
            self.filter = f;
        }
    }

    fn agl(&mut self, a: bool) {
        if self.agl != a {
            self.cmds.push(Command::typed_comment(2, i32::from(a)));
            self.agl = a;
        }
    }
}

/// A reader's state over one source's commands.
struct In {
    pool: u16,
    def: u32,
    subtype: u8,
    junction: u32,
    flags: u8,
    near: f32,
    far: f32,
    filter: i32,
    agl: bool,
    /// The open patch: its definition, the pool it opened with and whether
    /// it is already open in the output.
    patch: Option<(u32, u16, bool)>,
}

impl In {
    fn new() -> In {
        In {
            pool: u16::MAX,
            def: 0,
            subtype: 0,
            junction: 0,
            flags: 0xFF,
            near: -1.0,
            far: -1.0,
            filter: -1,
            agl: false,
            patch: None,
        }
    }
}

/// How definitions and filters of a source are numbered in the output.
struct Numbering {
    objects: Vec<u32>,
    polygons: Vec<u32>,
    terrain: Vec<u32>,
    networks: Vec<u32>,
    /// Output filter index of each input filter index.
    filters: Vec<i32>,
}

impl Numbering {
    fn identity(d: &Dsf) -> Numbering {
        let id = |n: usize| (0..n as u32).collect();
        let aptids = d
            .properties
            .iter()
            .filter(|(n, _)| n == "sim/filter/aptid")
            .count();
        Numbering {
            objects: id(d.object_defs.len()),
            polygons: id(d.polygon_defs.len()),
            terrain: id(d.terrain_defs.len()),
            networks: id(d.network_defs.len()),
            filters: (0..aptids as i32).collect(),
        }
    }

    fn def(&self, kind: Kind, d: u32) -> Option<u32> {
        let t = match kind {
            Kind::Object => &self.objects,
            Kind::Polygon => &self.polygons,
            Kind::Patch => &self.terrain,
            Kind::Network => &self.networks,
        };
        t.get(d as usize).copied()
    }
}

/// The definition path of `def` for `kind`, or an error naming it.
fn def_path(d: &Dsf, kind: Kind, def: u32) -> Result<&str, String> {
    let (t, name) = match kind {
        Kind::Object => (&d.object_defs, "OBJT"),
        Kind::Polygon => (&d.polygon_defs, "POLY"),
        Kind::Patch => (&d.terrain_defs, "TERT"),
        Kind::Network => (&d.network_defs, "NETW"),
    };
    t.get(def as usize).map(String::as_str).ok_or_else(|| {
        format!(
            "definition {def} is past the end of {name} ({} entries)",
            t.len()
        )
    })
}

/// Lon/lat of point `i` of 16-bit pool `p` (or 32-bit with `wide`).
fn lonlat(src: &Source<'_>, wide: bool, p: u16, i: u32) -> Result<(f64, f64), String> {
    let pool = src.pool(wide, p).ok_or_else(|| {
        let n = if wide {
            src.dec.pools32().len()
        } else {
            src.dec.pools().len()
        };
        format!("pool {p} does not exist ({n} pools)")
    })?;
    if (i as usize) >= pool.count || pool.depth() < 2 {
        return Err(format!(
            "point {i} is past the end of pool {p} ({} points)",
            pool.count
        ));
    }
    Ok((pool.value(i as usize, 0), pool.value(i as usize, 1)))
}

/// Rewrites the commands of `src` (source number `k`) into `out`, keeping
/// what `policy` keeps.
fn rewrite(
    k: usize,
    src: &Source<'_>,
    num: &Numbering,
    policy: &Policy<'_>,
    out: &mut Out,
) -> Result<(), EditError> {
    let d = &src.dsf;
    let mut st = In::new();
    let bad = |i: usize, m: String| EditError {
        kind: EditErrorKind::Inconsistent,
        input: Some(k),
        offset: None,
        message: format!("command {i}: {m}"),
    };
    for (i, c) in src.commands().enumerate() {
        let c = &c?;
        let err = |m: String| bad(i, m);
        match c {
            Command::PoolSelect(p) => st.pool = *p,
            Command::JunctionOffset(j) => st.junction = *j,
            Command::SetDefinition8(x) => st.def = u32::from(*x),
            Command::SetDefinition16(x) => st.def = u32::from(*x),
            Command::SetDefinition32(x) => st.def = *x,
            Command::RoadSubtype(s) => st.subtype = *s,
            Command::Comment8(b) | Command::Comment16(b) | Command::Comment32(b) => {
                match typed(b) {
                    Some((1, f)) => st.filter = f,
                    Some((2, a)) => st.agl = a != 0,
                    _ => out.cmds.push(c.clone()),
                }
            }
            Command::Object(_) | Command::ObjectRange(..) => {
                let path = def_path(d, Kind::Object, st.def).map_err(err)?;
                let (first, last) = match c {
                    Command::Object(a) => (u32::from(*a), u32::from(*a) + 1),
                    Command::ObjectRange(a, b) => (u32::from(*a), u32::from(*b)),
                    _ => unreachable!(),
                };
                // Runs of kept points (the area applies point by point).
                let mut run: Option<u32> = None;
                let mut runs = Vec::new();
                for j in first..=last {
                    let kept = j < last && {
                        let mut inside = |a: &Area| {
                            lonlat(src, false, st.pool, j).is_ok_and(|(x, y)| a.contains(x, y))
                        };
                        policy.keep(Kind::Object, st.def, path, st.subtype, &mut inside)
                    };
                    match (kept, run) {
                        (true, None) => run = Some(j),
                        (false, Some(a)) => {
                            runs.push((a, j));
                            run = None;
                        }
                        _ => {}
                    }
                }
                if runs.is_empty() {
                    continue;
                }
                let depth = src.pool(false, st.pool).map_or(0, FlatPool::depth);
                emit_state(out, num, policy, &st, Kind::Object).map_err(err)?;
                if depth == 4 {
                    out.agl(st.agl);
                }
                out.select((k, false, st.pool));
                for (a, b) in runs {
                    out.entities += 1;
                    out.cmds.push(if b == a + 1 {
                        Command::Object(a as u16)
                    } else {
                        Command::ObjectRange(a as u16, b as u16)
                    });
                }
            }
            Command::Polygon { .. }
            | Command::PolygonRange { .. }
            | Command::NestedPolygon { .. }
            | Command::NestedPolygonRange { .. } => {
                let path = def_path(d, Kind::Polygon, st.def).map_err(err)?;
                let idx: Vec<u32> = match c {
                    Command::Polygon { points, .. } => points.iter().map(|&x| x.into()).collect(),
                    Command::PolygonRange { first, last, .. } => {
                        (u32::from(*first)..u32::from(*last)).collect()
                    }
                    Command::NestedPolygon { windings, .. } => {
                        windings.iter().flatten().map(|&x| x.into()).collect()
                    }
                    Command::NestedPolygonRange { bounds, .. } => {
                        let a = bounds.first().copied().unwrap_or(0);
                        let b = bounds.last().copied().unwrap_or(0);
                        (u32::from(a)..u32::from(b)).collect()
                    }
                    _ => unreachable!(),
                };
                let mut inside = |a: &Area| {
                    idx.iter().any(|&j| {
                        lonlat(src, false, st.pool, j).is_ok_and(|(x, y)| a.contains(x, y))
                    })
                };
                if policy.keep(Kind::Polygon, st.def, path, st.subtype, &mut inside) {
                    emit_state(out, num, policy, &st, Kind::Polygon).map_err(err)?;
                    out.select((k, false, st.pool));
                    out.entities += 1;
                    out.cmds.push(c.clone());
                }
            }
            Command::NetworkChain(_)
            | Command::NetworkChainRange(..)
            | Command::NetworkChain32(_) => {
                let path = def_path(d, Kind::Network, st.def).map_err(err)?;
                let idx: Vec<u32> = match c {
                    Command::NetworkChain(v) => v
                        .iter()
                        .map(|&x| st.junction.wrapping_add(u32::from(x)))
                        .collect(),
                    Command::NetworkChainRange(a, b) => (u32::from(*a)..u32::from(*b))
                        .map(|x| st.junction.wrapping_add(x))
                        .collect(),
                    Command::NetworkChain32(v) => v.clone(),
                    _ => unreachable!(),
                };
                let mut inside = |a: &Area| {
                    idx.iter().any(|&j| {
                        lonlat(src, true, st.pool, j).is_ok_and(|(x, y)| a.contains(x, y))
                    })
                };
                if policy.keep(Kind::Network, st.def, path, st.subtype, &mut inside) {
                    emit_state(out, num, policy, &st, Kind::Network).map_err(err)?;
                    if out.subtype != Some(st.subtype) {
                        out.cmds.push(Command::RoadSubtype(st.subtype));
                        out.subtype = Some(st.subtype);
                    }
                    out.select((k, true, st.pool));
                    if !matches!(c, Command::NetworkChain32(_)) && out.junction != Some(st.junction)
                    {
                        out.cmds.push(Command::JunctionOffset(st.junction));
                        out.junction = Some(st.junction);
                    }
                    out.entities += 1;
                    out.cmds.push(c.clone());
                }
            }
            Command::TerrainPatch
            | Command::TerrainPatchFlags(_)
            | Command::TerrainPatchFlagsLod { .. } => {
                match c {
                    Command::TerrainPatchFlags(f) => st.flags = *f,
                    Command::TerrainPatchFlagsLod { flags, near, far } => {
                        (st.flags, st.near, st.far) = (*flags, *near, *far)
                    }
                    _ => {}
                }
                st.patch = Some((st.def, st.pool, false));
            }
            Command::Primitive(..)
            | Command::PrimitiveCrossPool(..)
            | Command::PrimitiveRange(..) => {
                let Some((pdef, ppool, opened)) = st.patch else {
                    return Err(err("a primitive outside any patch".into()));
                };
                let path = def_path(d, Kind::Patch, pdef).map_err(err)?;
                let refs: Vec<(u16, u32)> = match c {
                    Command::Primitive(_, v) => v.iter().map(|&x| (st.pool, x.into())).collect(),
                    Command::PrimitiveCrossPool(_, v) => {
                        v.iter().map(|&(p, x)| (p, x.into())).collect()
                    }
                    Command::PrimitiveRange(_, a, b) => (u32::from(*a)..u32::from(*b))
                        .map(|x| (st.pool, x))
                        .collect(),
                    _ => unreachable!(),
                };
                let mut inside = |a: &Area| {
                    refs.iter().any(|&(p, j)| {
                        lonlat(src, false, p, j).is_ok_and(|(x, y)| a.contains(x, y))
                    })
                };
                if !policy.keep(Kind::Patch, pdef, path, st.subtype, &mut inside) {
                    continue;
                }
                if !opened {
                    // The patch opens (in the output) with the pool it
                    // opened with, which gives it its depth.
                    let mut open_st = In {
                        def: pdef,
                        ..In::new()
                    };
                    open_st.filter = st.filter;
                    emit_state(out, num, policy, &open_st, Kind::Patch).map_err(err)?;
                    out.select((k, false, ppool));
                    let cmd = open_patch(&mut out.patch, st.flags, st.near, st.far);
                    out.cmds.push(cmd);
                    out.entities += 1;
                    st.patch = Some((pdef, ppool, true));
                }
                match c {
                    Command::PrimitiveCrossPool(..) => {
                        for &(p, _) in &refs {
                            out.used.insert((k, false, p), ());
                        }
                        out.cross.push((out.cmds.len(), k));
                    }
                    _ => out.select((k, false, st.pool)),
                }
                out.cmds.push(c.clone());
            }
        }
    }
    Ok(())
}

/// Writes the filter and definition a kept entity of `kind` needs.
fn emit_state(
    out: &mut Out,
    num: &Numbering,
    policy: &Policy<'_>,
    st: &In,
    kind: Kind,
) -> Result<(), String> {
    if policy.filters() {
        let f = if st.filter < 0 {
            -1
        } else {
            *num.filters
                .get(st.filter as usize)
                .ok_or_else(|| format!("filter {} names no sim/filter/aptid", st.filter))?
        };
        out.filter(f);
    }
    let d = num
        .def(kind, st.def)
        .ok_or_else(|| format!("definition {} is not in its table", st.def))?;
    out.def(d);
    Ok(())
}

/// A typed comment's (type, value), as xptools reads it: a payload of
/// exactly 6 bytes.
fn typed(b: &[u8]) -> Option<(u16, i32)> {
    if b.len() != 6 {
        return None;
    }
    let t = u16::from_le_bytes([b[0], b[1]]);
    let v = i32::from_le_bytes([b[2], b[3], b[4], b[5]]);
    matches!(t, 1 | 2).then_some((t, v))
}

/// The tile's bounds from its properties, checked as DSFTool's text2dsf
/// checks them (xptools `DSF2Text.cpp`: "DSF boundaries are out of
/// range"): west in [-180, 180), east in (-180, 180], south in [-90, 90),
/// north in (-90, 90], and west < east, south < north.
pub fn bounds(d: &Dsf) -> Result<[f64; 4], EditError> {
    let get = |name: &str| -> Result<f64, EditError> {
        let v = d.property(name).ok_or_else(|| {
            fail(
                EditErrorKind::Bounds,
                format!("the result has no {name} property: X-Plane cannot place the tile"),
            )
        })?;
        v.trim().parse::<f64>().map_err(|_| {
            fail(
                EditErrorKind::Bounds,
                format!("{name} {v:?} is not a number"),
            )
        })
    };
    let b = [
        get("sim/west")?,
        get("sim/south")?,
        get("sim/east")?,
        get("sim/north")?,
    ];
    let ok = (-180.0..180.0).contains(&b[0])
        && b[2] > -180.0
        && b[2] <= 180.0
        && (-90.0..90.0).contains(&b[1])
        && b[3] > -90.0
        && b[3] <= 90.0
        && b[0] < b[2]
        && b[1] < b[3];
    if ok {
        Ok(b)
    } else {
        Err(fail(
            EditErrorKind::Bounds,
            format!(
                "the tile's bounds west {} south {} east {} north {} are out of range",
                b[0], b[1], b[2], b[3]
            ),
        ))
    }
}

/// Renumbers the pools of `out` (those used, in source order) and writes
/// the result over `head` (its properties, definitions and rasters),
/// refusing a result without entities (when `need_entities`), without
/// bounds, or that does not read back.
fn finish(
    mut head: Dsf,
    sources: &[&Source<'_>],
    mut out: Out,
    need_entities: bool,
) -> Result<Vec<u8>, EditError> {
    // A tile of exclusions alone is a real overlay: WorldEditor writes
    // them (kawo/lareunion-overlayfix's -21+055.dsf, the NAICM package's
    // two tiles in the corpus), so only a result with neither is refused.
    let excludes = head
        .properties
        .iter()
        .any(|(n, _)| n.starts_with("sim/exclude_"));
    if need_entities && out.entities == 0 && !excludes {
        return Err(fail(
            EditErrorKind::Empty,
            "the result holds no entity and no exclusion: X-Plane would load an empty tile \
             (DSFTool's route reports \"DSF boundaries are out of range\" for it)",
        ));
    }
    bounds(&head)?;
    let mut map: HashMap<PoolId, u16> = HashMap::new();
    let (mut pools, mut pools32) = (Vec::new(), Vec::new());
    for (k, s) in sources.iter().enumerate() {
        for (wide, list, into) in [
            (false, s.dec.pools(), &mut pools),
            (true, s.dec.pools32(), &mut pools32),
        ] {
            for (i, p) in list.iter().enumerate() {
                let id = (k, wide, i as u16);
                if out.used.contains_key(&id) {
                    let n = u16::try_from(into.len())
                        .map_err(|_| fail(EditErrorKind::Inconsistent, "more than 65535 pools"))?;
                    map.insert(id, n);
                    into.push(p.to_pool(true));
                }
            }
        }
    }
    for (at, id) in std::mem::take(&mut out.selects) {
        out.cmds[at] = Command::PoolSelect(map[&id]);
    }
    for (at, k) in std::mem::take(&mut out.cross) {
        if let Command::PrimitiveCrossPool(_, v) = &mut out.cmds[at] {
            for (p, _) in v.iter_mut() {
                *p = map[&(k, false, *p)];
            }
        }
    }
    // The xptools writer starts every command stream with a junction
    // offset of 0; readers take it as the initial state.
    if !matches!(out.cmds.first(), Some(Command::JunctionOffset(_))) {
        out.cmds.insert(0, Command::JunctionOffset(0));
    }
    head.pools = pools;
    head.pools32 = pools32;
    written(head, out.cmds)
}

/// Writes the edited tile `d` with the command stream `cmds` and reads it
/// back ([`verify`]): the bytes of every edit's result.
fn written(d: Dsf, cmds: Vec<Command>) -> Result<Vec<u8>, EditError> {
    let bytes = write_raw(&d, &cmds).map_err(|e| {
        fail(
            EditErrorKind::Inconsistent,
            format!("the result cannot be written: {e}"),
        )
    })?;
    // The model (its rasters above all) is not needed to read it back.
    drop((d, cmds));
    verify(&bytes)?;
    Ok(bytes)
}

/// Reads `bytes` back, every command run against its pools: an edit's
/// result must be a DSF agkit (and so X-Plane's reader) accepts.
fn verify(bytes: &[u8]) -> Result<(), EditError> {
    let bad = |e: DsfError| {
        fail(
            EditErrorKind::Inconsistent,
            format!(
                "the result does not read back ([{}] @ byte {}: {}): pools and commands disagree",
                e.code(),
                e.offset,
                e.message()
            ),
        )
    };
    let d = read::decode(bytes, &Limits::default()).map_err(bad)?;
    d.events(|_, _| Ok::<(), std::convert::Infallible>(()))
        .map_err(|e| match e {
            read::StreamError::Dsf(e) => bad(e),
            read::StreamError::Sink(never) => match never {},
        })
}

/// Sets `name` to `value`: the first property of that name takes the
/// value (the others go), or it is added after the others.
fn set_property(props: &mut Vec<(String, String)>, name: &str, value: &str) {
    match props.iter().position(|(n, _)| n == name) {
        Some(i) => {
            props[i].1 = value.to_string();
            let mut seen = false;
            props.retain(|(n, _)| {
                if n != name {
                    return true;
                }
                let first = !seen;
                seen = true;
                first
            });
        }
        None => props.push((name.to_string(), value.to_string())),
    }
}

/// Ortho4XP's overlay extraction (`src/O4_Overlay_Utils.py`,
/// `build_overlay`), binary in and binary out: from a tile (a Global
/// Scenery DSF, plain or 7z), the overlay Ortho4XP's DSFTool route makes.
/// Its text filter keeps every `PROPERTY` line (adding `sim/overlay 1`),
/// every `POLYGON_DEF` and `NETWORK_DEF`, the polygons whose definition is
/// not excluded and the road segments whose subtype is not; it drops
/// terrain patches, rasters, objects (no `OBJECT_DEF` or `OBJECT` line is
/// copied) and `FILTER` lines. `DIVISIONS` and `HEIGHTS` are not copied,
/// which here does not matter: the pools are kept as they are.
pub fn extract_overlay(
    bytes: &[u8],
    opts: &OverlayOptions,
    limits: &Limits,
) -> Result<Vec<u8>, EditError> {
    let src = open(bytes, 0, limits)?;
    let d = &src.dsf;
    let mut excluded = vec![false; d.polygon_defs.len()];
    for item in &opts.exclude_polygons {
        if let Ok(i) = item.trim().parse::<usize>() {
            if let Some(x) = excluded.get_mut(i) {
                *x = true;
            }
        } else if let Some(text) = item.strip_prefix('!') {
            for (x, p) in excluded.iter_mut().zip(&d.polygon_defs) {
                *x |= !p.contains(text);
            }
        } else {
            for (x, p) in excluded.iter_mut().zip(&d.polygon_defs) {
                *x |= p.contains(item.as_str());
            }
        }
    }
    let roads = if opts
        .exclude_roads
        .iter()
        .any(|r| r.trim().is_empty() || r.trim() == "*")
    {
        RoadExclusion::All
    } else {
        let mut v = Vec::new();
        for r in &opts.exclude_roads {
            v.push(r.trim().parse::<u32>().map_err(|_| {
                fail(
                    EditErrorKind::Arguments,
                    format!("road subtype {r:?} is not a number (or * for all)"),
                )
            })?);
        }
        RoadExclusion::Subtypes(v)
    };
    let policy = Policy::Overlay {
        polygons: excluded,
        roads,
        objects: opts.objects,
    };
    let mut out = Out::new();
    rewrite(0, &src, &Numbering::identity(d), &policy, &mut out)?;
    let mut head = Dsf {
        properties: d.properties.clone(),
        polygon_defs: d.polygon_defs.clone(),
        network_defs: d.network_defs.clone(),
        object_defs: if opts.objects {
            d.object_defs.clone()
        } else {
            Vec::new()
        },
        ..Dsf::default()
    };
    set_property(&mut head.properties, "sim/overlay", "1");
    finish(head, &[&src], out, true)
}

/// [`filter`]: keeps what `sel` selects of a tile.
pub fn filter(bytes: &[u8], sel: &Selection, limits: &Limits) -> Result<Vec<u8>, EditError> {
    let src = open(bytes, 0, limits)?;
    let mut out = Out::new();
    rewrite(
        0,
        &src,
        &Numbering::identity(&src.dsf),
        &Policy::Select(sel),
        &mut out,
    )?;
    let d = &src.dsf;
    let head = Dsf {
        properties: d.properties.clone(),
        terrain_defs: d.terrain_defs.clone(),
        object_defs: d.object_defs.clone(),
        polygon_defs: d.polygon_defs.clone(),
        network_defs: d.network_defs.clone(),
        raster_defs: d.raster_defs.clone(),
        rasters: d.rasters.clone(),
        unknown_atoms: d.unknown_atoms.clone(),
        ..Dsf::default()
    };
    finish(head, &[&src], out, true)
}

/// Merges several tiles of one 1° square (overlays, typically) into one:
/// properties of the first, then those of the others not already there
/// (exclusions add up); definitions of each kind in one table, each path
/// once, renumbered; airport filters renumbered; the entities of each
/// input in turn; rasters of the first, then layers of the others not
/// already there. The tiles' bounds must agree.
pub fn merge(inputs: &[&[u8]], limits: &Limits) -> Result<Vec<u8>, EditError> {
    if inputs.is_empty() {
        return Err(fail(EditErrorKind::Arguments, "nothing to merge"));
    }
    let mut sources = Vec::new();
    for (k, b) in inputs.iter().enumerate() {
        sources.push(open(b, k, limits)?);
    }
    let first = bounds(&sources[0].dsf).map_err(|e| EditError {
        input: Some(0),
        ..e
    })?;
    let mut head = Dsf::default();
    let mut tables: [HashMap<String, u32>; 4] = Default::default();
    let mut nums = Vec::new();
    for (k, s) in sources.iter().enumerate() {
        let d = &s.dsf;
        let b = bounds(d).map_err(|e| EditError {
            input: Some(k),
            ..e
        })?;
        if b != first {
            return Err(EditError {
                kind: EditErrorKind::Bounds,
                input: Some(k),
                offset: None,
                message: format!(
                    "its bounds {b:?} differ from the first tile's {first:?}: not one tile"
                ),
            });
        }
        for p in &d.properties {
            if !head.properties.contains(p) {
                head.properties.push(p.clone());
            }
        }
        let mut numbering = |t: usize, src: &[String], dst: &mut Vec<String>| -> Vec<u32> {
            src.iter()
                .map(|path| {
                    *tables[t].entry(path.clone()).or_insert_with(|| {
                        dst.push(path.clone());
                        dst.len() as u32 - 1
                    })
                })
                .collect()
        };
        let objects = numbering(0, &d.object_defs, &mut head.object_defs);
        let polygons = numbering(1, &d.polygon_defs, &mut head.polygon_defs);
        let terrain = numbering(2, &d.terrain_defs, &mut head.terrain_defs);
        let networks = numbering(3, &d.network_defs, &mut head.network_defs);
        for r in &d.rasters {
            if !head.rasters.iter().any(|x| x.name == r.name) {
                head.rasters.push(r.clone());
            }
        }
        nums.push(Numbering {
            objects,
            polygons,
            terrain,
            networks,
            filters: Vec::new(),
        });
    }
    // Filters: the k-th sim/filter/aptid of an input is the output's
    // aptid of the same airport.
    let out_apts: Vec<&str> = head
        .properties
        .iter()
        .filter(|(n, _)| n == "sim/filter/aptid")
        .map(|(_, v)| v.as_str())
        .collect();
    for (s, n) in sources.iter().zip(&mut nums) {
        n.filters = s
            .dsf
            .properties
            .iter()
            .filter(|(name, _)| name == "sim/filter/aptid")
            .map(|(_, v)| {
                out_apts
                    .iter()
                    .position(|a| a == v)
                    .map_or(-1, |i| i as i32)
            })
            .collect();
    }
    head.raster_defs = head.rasters.iter().map(|r| r.name.clone()).collect();
    let mut out = Out::new();
    for (k, (s, n)) in sources.iter().zip(&nums).enumerate() {
        rewrite(k, s, n, &Policy::All, &mut out)?;
    }
    let refs: Vec<&Source<'_>> = sources.iter().collect();
    finish(head, &refs, out, true)
}

/// Changes to a tile's properties ([`props`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PropertyEdits {
    /// `(name, value)` to set: a `sim/exclude_*` or `sim/filter/aptid`
    /// property is added (a tile may hold several), any other replaces the
    /// first of its name.
    pub set: Vec<(String, String)>,
    /// Names whose properties all go; `name=value` removes only that pair.
    pub unset: Vec<String>,
}

/// Sets and unsets properties of a tile; its pools, commands and rasters
/// are written as they are. Exclusions (`sim/exclude_obj`, …) are
/// properties too. The result must keep valid bounds.
pub fn props(bytes: &[u8], edits: &PropertyEdits, limits: &Limits) -> Result<Vec<u8>, EditError> {
    let (mut d, cmds) = open(bytes, 0, limits)?.into_whole()?;
    for u in &edits.unset {
        match u.split_once('=') {
            Some((n, v)) => d.properties.retain(|(a, b)| !(a == n && b == v)),
            None => d.properties.retain(|(a, _)| a != u),
        }
    }
    for (n, v) in &edits.set {
        if n.is_empty() || n.contains('\0') || v.contains('\0') {
            return Err(fail(
                EditErrorKind::Arguments,
                format!("property {n:?} = {v:?} cannot be stored"),
            ));
        }
        let many = n.starts_with("sim/exclude_") || n == "sim/filter/aptid";
        if many {
            if !d.properties.iter().any(|(a, b)| a == n && b == v) {
                d.properties.push((n.clone(), v.clone()));
            }
        } else {
            set_property(&mut d.properties, n, v);
        }
    }
    bounds(&d)?;
    written(d, cmds)
}

/// Which raster layers [`rasters`] copies, replaces and drops.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RasterEdits {
    /// Layers to copy from the source tile (replacing layers of the same
    /// name). Empty: AutoOrtho's choice (`autoortho/utils/dsf_utils.py`,
    /// `DsfUtils.SAFE_RASTERS`): every layer whose name contains `spr`,
    /// `win`, `fal`, `sum`, `soundscape` or `elevation`.
    pub layers: Vec<String>,
    /// Layers of the tile to drop.
    pub drop: Vec<String>,
}

/// AutoOrtho's raster names (`DsfUtils.SAFE_RASTERS`).
pub const SEASON_RASTERS: [&str; 6] = ["spr", "win", "fal", "sum", "soundscape", "elevation"];

/// Copies, replaces or drops raster layers of a tile: X-Plane 12's season
/// and sound rasters from the Global Scenery tile `source` into an ortho
/// tile (AutoOrtho's "Add Native Seasons", Ortho4XP 1.40). The tiles'
/// bounds must agree and every layer copied must hold its width × height ×
/// bytes per sample; its pools and commands are written as they are.
pub fn rasters(
    bytes: &[u8],
    source: Option<&[u8]>,
    edits: &RasterEdits,
    limits: &Limits,
) -> Result<Vec<u8>, EditError> {
    let (mut d, cmds) = open(bytes, 0, limits)?.into_whole()?;
    d.rasters.retain(|r| !edits.drop.contains(&r.name));
    if let Some(s) = source {
        // Only the source's head is wanted (its properties and rasters):
        // its pools and commands are not decoded.
        let from = read::decode_head(s, limits).map_err(|e| read_error(1, e))?;
        let (a, b) = (bounds(&d)?, bounds(&from)?);
        if a != b {
            return Err(EditError {
                kind: EditErrorKind::Bounds,
                input: Some(1),
                offset: None,
                message: format!("the source tile's bounds {b:?} differ from the tile's {a:?}"),
            });
        }
        let wanted = |r: &Raster| {
            if edits.layers.is_empty() {
                SEASON_RASTERS.iter().any(|s| r.name.contains(s))
            } else {
                edits.layers.contains(&r.name)
            }
        };
        for name in &edits.layers {
            if !from.rasters.iter().any(|r| &r.name == name) {
                let have: Vec<&str> = from.rasters.iter().map(|r| r.name.as_str()).collect();
                return Err(EditError {
                    input: Some(1),
                    ..fail(
                        EditErrorKind::Raster,
                        format!("the source tile has no raster {name:?} (it has {have:?})"),
                    )
                });
            }
        }
        for r in from.rasters.into_iter().filter(|r| wanted(r)) {
            // A layer that X-Plane could not read is the source tile's.
            check_raster(&r).map_err(|e| EditError {
                input: Some(1),
                ..e
            })?;
            match d.rasters.iter_mut().find(|x| x.name == r.name) {
                Some(x) => *x = r,
                None => d.rasters.push(r),
            }
        }
    } else if !edits.layers.is_empty() {
        return Err(fail(
            EditErrorKind::Arguments,
            "layers to copy need a source tile",
        ));
    }
    d.raster_defs = d.rasters.iter().map(|r| r.name.clone()).collect();
    bounds(&d)?;
    written(d, cmds)
}

/// A raster X-Plane can read: version 1, a sample format and size it
/// knows (xptools `DSFLib.cpp` reads float 4, signed/unsigned 1, 2 or 4
/// bytes), at least one sample, and `width × height × bpp` bytes.
fn check_raster(r: &Raster) -> Result<(), EditError> {
    let format = r.flags & 3;
    let bpp_ok = match format {
        0 => r.bpp == 4,
        _ => matches!(r.bpp, 1 | 2 | 4),
    };
    let len = u64::from(r.width) * u64::from(r.height) * u64::from(r.bpp);
    if r.version != 1 || !bpp_ok || r.width == 0 || r.height == 0 || len != r.data.len() as u64 {
        return Err(fail(
            EditErrorKind::Raster,
            format!(
                "raster {:?} (version {}, format {format}, {} bytes per sample, {}x{}, {} bytes) \
                 is not one X-Plane reads",
                r.name,
                r.version,
                r.bpp,
                r.width,
                r.height,
                r.data.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_paths() {
        assert!(wildcard("*.for", "lib/g10/forests/x.FOR"));
        assert!(wildcard("lib/*/x?.pol", "lib/a/b/x1.pol"));
        assert!(!wildcard("*.for", "lib/x.fac"));
        assert!(wildcard("*", ""));
        assert!(!wildcard("?", ""));
        assert!(wildcard("a*b*c", "aXXbYYc"));
        assert!(!wildcard("a*b*c", "aXXbYY"));
    }

    #[test]
    fn rules_read_kinds_and_patterns() {
        let r: Rule = "polygon:*.for".parse().unwrap();
        assert_eq!(r.kind, Some(Kind::Polygon));
        assert!(r.matches(Kind::Polygon, "a.for") && !r.matches(Kind::Object, "a.for"));
        let r: Rule = "*.agp".parse().unwrap();
        assert_eq!(r.kind, None);
        assert!(
            "roads"
                .parse::<Rule>()
                .unwrap()
                .matches(Kind::Network, "x.net")
        );
        assert!("".parse::<Rule>().is_err());
    }

    #[test]
    fn areas_hold_their_points() {
        let a = Area::Box([13.0, 47.0, 13.5, 47.5]);
        assert!(a.contains(13.0, 47.5) && !a.contains(13.6, 47.1));
        let g = r#"{"type":"Feature","geometry":{"type":"Polygon","coordinates":
            [[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[2,1],[2,2],[1,2],[1,1]]]}}"#;
        let a = Area::from_geojson(g).unwrap();
        assert!(a.contains(3.0, 3.0));
        assert!(!a.contains(1.5, 1.5), "in the hole");
        assert!(!a.contains(5.0, 1.0));
        assert!(Area::from_geojson("{}").is_err());
    }
}
