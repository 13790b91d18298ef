//! FSX AGN cells → X-Plane DSF overlay tiles.
//!
//! Per record (positions through [`Cell`]'s cell-unit → lon/lat mapping):
//!
//! - `GBLR` generic buildings and `ROWH` row houses → facades on the
//!   rectangle p, p+d, p+d+o, p+o; the facade comes from the roof GUID
//!   (`[facade.roof]`), `row_house`, or `default`;
//! - `PBDE` polygon buildings → facades on the footprint
//!   (`[facade.building]` or `default`);
//! - building heights: a floor band drawn from the file's `GBDD`
//!   percentages (1–2, 3–5, 6–8, 9–12 floors; 1–2 when there is none), a
//!   floor count drawn uniformly inside the band, times `floor_height`; the
//!   draws come from a generator seeded with the map's seed and the cell,
//!   in record order, so a conversion is reproducible; the facade parameter
//!   is the height in metres;
//! - `PRDE` polygons and `VGRE`/`VGRO` rectangles → forest polygons
//!   (`[forest.vegetation]`, `default`, `fs2004`), parameter
//!   `round(density × 255)` (DSF notes §7.3, fill mode 0), cut at 1° tile
//!   edges; the density of `VGRO` rectangles is the file's `VGRD` maximum
//!   density (0–100 %) when it has one, every other density is the map's
//!   `forest_density` (FSX `PRDE`/`VGRE` records carry none);
//! - `A2GE` library objects → an object at the centre of the record's box
//!   (p + d/2 [+ o/2]), heading = direction from the first to the second
//!   point, by `[object]` GUID.
//!
//! Records whose kind/GUID has no mapping are counted in
//! [`ConvertReport::unmapped`]. Every polygon is written counter-clockwise.
//! Facades and objects go to the tile holding their centre; forests are
//! clipped per tile.

use super::map::Map;
use crate::agn::{A2geRecords, Agn, Cell, Chunk, Gbdd, Guid, Quad};
use crate::dsf::{Dsf, ElevationMode, Entity, Object, Polygon};
use crate::geom::{LocalFrame, LonLat};
use crate::overlay::orient::{is_ccw, open_ring, oriented};
use crate::overlay::tiles::{TileId, clip_to_tile, tiles_touched};
use rand::RngExt;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One record kind/GUID without a mapping, and how many records had it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unmapped {
    /// Record kind (`GBLR`, `ROWH`, `PBDE`, `PRDE`, `VGRE`, `VGRO`, `A2GE`).
    pub kind: String,
    /// The GUID (`default` for the all-zero GUID, `-` for kinds without one).
    pub guid: String,
    /// Number of records (buildings, polygons, rectangles, objects).
    pub count: usize,
    /// The map entry that would convert them, e.g. `[object] "{guid}" =
    /// "….obj"`: what to add to a `--map` file.
    pub map_key: String,
}

/// The map entry that maps records of `kind` with `guid` (as shown in
/// [`Unmapped::guid`]).
pub fn map_key(kind: &str, guid: &str) -> String {
    match kind {
        "GBLR" => format!("[facade.roof] \"{guid}\" = \"….fac\" (or [facade] default = \"….fac\")"),
        "ROWH" => "[facade] row_house = \"….fac\" (or [facade] default)".to_string(),
        "PBDE" => {
            format!("[facade.building] \"{guid}\" = \"….fac\" (or [facade] default = \"….fac\")")
        }
        "PRDE" | "VGRE" => {
            format!("[forest.vegetation] \"{guid}\" = \"….for\" (or [forest] default = \"….for\")")
        }
        "VGRO" => "[forest] fs2004 = \"….for\"".to_string(),
        "A2GE" => format!("[object] \"{guid}\" = \"….obj\""),
        _ => String::new(),
    }
}

/// What a conversion did.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ConvertReport {
    /// Cells converted.
    pub cells: usize,
    /// Records converted per kind.
    pub converted: BTreeMap<String, usize>,
    /// Records skipped (degenerate geometry), with the reason and count.
    pub skipped: BTreeMap<String, usize>,
    /// Unmapped kinds/GUIDs, most frequent first.
    pub unmapped: Vec<Unmapped>,
    /// Uses placed per library path.
    pub placed: BTreeMap<String, usize>,
    /// Tiles written.
    pub tiles: Vec<crate::overlay::build::TileReport>,
}

/// The converted overlay.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Converted {
    /// DSF per tile.
    pub tiles: BTreeMap<TileId, Dsf>,
    /// The report.
    pub report: ConvertReport,
}

/// One placement made from a record.
#[derive(Debug, Clone, PartialEq)]
enum Made {
    Facade {
        path: String,
        height: u16,
        ring: Vec<LonLat>,
    },
    Forest {
        path: String,
        param: u16,
        rings: Vec<Vec<LonLat>>,
    },
    Object {
        path: String,
        at: LonLat,
        heading: f64,
    },
}

/// The result of converting one cell.
#[derive(Debug, Clone, Default)]
pub struct CellResult {
    made: Vec<(TileId, Made)>,
    converted: BTreeMap<String, usize>,
    skipped: BTreeMap<String, usize>,
    unmapped: BTreeMap<(String, String), usize>,
}

/// Converts the records of one cell.
pub fn convert_cell(cell: Cell, agn: &Agn, map: &Map) -> CellResult {
    let mut cx = CellCtx {
        cell,
        map,
        rng: crate::place::rng(map.seed ^ (u64::from(cell.u) << 32 | u64::from(cell.v))),
        gbdd: find_gbdd(&agn.chunks),
        vgrd_param: find_vgrd_param(&agn.chunks),
        out: CellResult::default(),
    };
    cx.chunks(&agn.chunks);
    cx.out
}

fn find_gbdd(chunks: &[Chunk]) -> Option<Gbdd> {
    chunks.iter().find_map(|c| match c {
        Chunk::Gbdd(g) => Some(*g),
        _ => None,
    })
}

/// The forest parameter for `VGRO` rectangles from the file's `VGRD`
/// "maximum vegetation density" (0–100 %, the FS2002/FS2004 AGN layout on
/// the FSDeveloper wiki): `round(density / 100 × 255)`. `None` when the
/// file has no `VGRD` or its density is outside 0..=100 (the map's
/// `forest_density` applies then).
fn find_vgrd_param(chunks: &[Chunk]) -> Option<u16> {
    chunks.iter().find_map(|c| match c {
        Chunk::Vgrd(v) if (0..=100).contains(&v.max_density) => {
            Some((f64::from(v.max_density) / 100.0 * 255.0).round() as u16)
        }
        _ => None,
    })
}

struct CellCtx<'a> {
    cell: Cell,
    map: &'a Map,
    rng: crate::place::Rng,
    gbdd: Option<Gbdd>,
    vgrd_param: Option<u16>,
    out: CellResult,
}

const BANDS: [(u32, u32); 4] = [(1, 2), (3, 5), (6, 8), (9, 12)];

impl CellCtx<'_> {
    fn unmapped(&mut self, kind: &str, guid: Option<Guid>, n: usize) {
        if n == 0 {
            return;
        }
        let g = guid.map_or_else(|| "-".to_string(), |g| g.to_string());
        *self.out.unmapped.entry((kind.into(), g)).or_default() += n;
    }

    fn skipped(&mut self, kind: &str, why: &str) {
        *self
            .out
            .skipped
            .entry(format!("{kind}: {why}"))
            .or_default() += 1;
    }

    fn done(&mut self, kind: &str) {
        *self.out.converted.entry(kind.into()).or_default() += 1;
    }

    fn floors(&mut self) -> u32 {
        let w: Vec<u32> = match self.gbdd {
            Some(g) => [g.floors_1_2, g.floors_3_5, g.floors_6_8, g.floors_9_12]
                .iter()
                .map(|&p| p.clamp(0, 20) as u32)
                .collect(),
            None => vec![1, 0, 0, 0],
        };
        let total: u32 = w.iter().sum();
        let band = if total == 0 {
            0
        } else {
            let mut r = self.rng.random_range(0..total);
            let mut b = 0;
            while r >= w[b] {
                r -= w[b];
                b += 1;
            }
            b
        };
        let (lo, hi) = BANDS[band];
        self.rng.random_range(lo..=hi)
    }

    fn height(&mut self) -> u16 {
        let floors = self.floors();
        (f64::from(floors) * self.map.floor_height)
            .round()
            .clamp(1.0, 65535.0) as u16
    }

    /// Lon/lat of a centre-based point (sums done in f64).
    fn centre(&self, x: f64, y: f64) -> LonLat {
        self.cell.centre_to_lonlat(x, y)
    }

    fn quad_ring(&self, q: &Quad) -> Vec<LonLat> {
        let [x, y, dx, dy, ox, oy] = [q.x, q.y, q.dx, q.dy, q.ox, q.oy].map(f64::from);
        vec![
            self.centre(x, y),
            self.centre(x + dx, y + dy),
            self.centre(x + dx + ox, y + dy + oy),
            self.centre(x + ox, y + oy),
        ]
    }

    fn facade(&mut self, kind: &str, path: &str, ring: Vec<LonLat>) {
        let mut ring = open_ring(ring);
        if ring.len() < 3 || !ring.iter().flatten().all(|v| v.is_finite()) {
            self.skipped(kind, "fewer than 3 distinct corners");
            return;
        }
        if crate::overlay::orient::signed_area(&ring) == 0.0 {
            self.skipped(kind, "footprint without area");
            return;
        }
        if !is_ccw(&ring) {
            ring.reverse();
        }
        let height = self.height();
        let tile = TileId::containing(centroid(&ring));
        self.out.made.push((
            tile,
            Made::Facade {
                path: path.into(),
                height,
                ring,
            },
        ));
        self.done(kind);
    }

    fn forest(&mut self, kind: &str, path: &str, param: u16, ring: Vec<LonLat>) {
        let ring = open_ring(ring);
        if ring.len() < 3 || !ring.iter().flatten().all(|v| v.is_finite()) {
            self.skipped(kind, "fewer than 3 distinct vertices");
            return;
        }
        if crate::overlay::orient::signed_area(&ring) == 0.0 {
            self.skipped(kind, "polygon without area");
            return;
        }
        let mut l = geo::LineString::new(
            ring.iter()
                .map(|p| geo::Coord { x: p[0], y: p[1] })
                .collect(),
        );
        l.close();
        let poly = geo::Polygon::new(l, Vec::new());
        for tile in tiles_touched(&poly) {
            for piece in clip_to_tile(&poly, tile) {
                self.out.made.push((
                    tile,
                    Made::Forest {
                        path: path.into(),
                        param,
                        rings: oriented(&piece.polygon),
                    },
                ));
            }
        }
        self.done(kind);
    }

    fn chunks(&mut self, chunks: &[Chunk]) {
        for c in chunks {
            if let Some(children) = c.children() {
                self.chunks(children);
                continue;
            }
            self.chunk(c);
        }
    }

    fn chunk(&mut self, c: &Chunk) {
        let map = self.map;
        match c {
            Chunk::Gblr(g) => {
                let path = map.facade_roof.get(&g.roof).or(map.facade_default.as_ref());
                match path {
                    Some(p) => {
                        for q in &g.buildings {
                            let ring = self.quad_ring(q);
                            self.facade("GBLR", p, ring);
                        }
                    }
                    None => self.unmapped("GBLR", Some(g.roof), g.buildings.len()),
                }
            }
            Chunk::Rowh(r) => {
                match map
                    .facade_row_house
                    .as_ref()
                    .or(map.facade_default.as_ref())
                {
                    Some(p) => {
                        for q in &r.houses {
                            let ring = self.quad_ring(q);
                            self.facade("ROWH", p, ring);
                        }
                    }
                    None => self.unmapped("ROWH", None, r.houses.len()),
                }
            }
            Chunk::Pbde(b) => {
                match map
                    .facade_building
                    .get(&b.building)
                    .or(map.facade_default.as_ref())
                {
                    Some(p) => {
                        for pb in &b.buildings {
                            let ring: Vec<LonLat> = pb
                                .footprint
                                .iter()
                                .map(|v| {
                                    self.cell
                                        .top_left_to_lonlat(f64::from(v[0]), f64::from(v[1]))
                                })
                                .collect();
                            self.facade("PBDE", p, ring);
                        }
                    }
                    None => self.unmapped("PBDE", Some(b.building), b.buildings.len()),
                }
            }
            Chunk::Prde(p) => {
                match map
                    .forest_vegetation
                    .get(&p.vegetation)
                    .or(map.forest_default.as_ref())
                {
                    Some(path) => {
                        for poly in &p.polygons {
                            let ring: Vec<LonLat> = poly
                                .iter()
                                .map(|v| {
                                    self.cell
                                        .top_left_to_lonlat(f64::from(v[0]), f64::from(v[1]))
                                })
                                .collect();
                            self.forest("PRDE", path, map.forest_param(), ring);
                        }
                    }
                    None => self.unmapped("PRDE", Some(p.vegetation), p.polygons.len()),
                }
            }
            Chunk::Vgre(v) => {
                match map
                    .forest_vegetation
                    .get(&v.vegetation)
                    .or(map.forest_default.as_ref())
                {
                    Some(path) => {
                        for r in &v.rects {
                            let ring = self.rect_ring(r.x, r.y, r.dx, r.dy);
                            self.forest("VGRE", path, map.forest_param(), ring);
                        }
                    }
                    None => self.unmapped("VGRE", Some(v.vegetation), v.rects.len()),
                }
            }
            Chunk::Vgro(v) => match map.forest_fs2004.as_ref() {
                Some(path) => {
                    let param = self.vgrd_param.unwrap_or_else(|| map.forest_param());
                    for r in &v.rects {
                        let ring = self.rect_ring(r.x, r.y, r.dx, r.dy);
                        self.forest("VGRO", path, param, ring);
                    }
                }
                None => self.unmapped("VGRO", None, v.rects.len()),
            },
            Chunk::A2ge(a) => match map.object.get(&a.object) {
                Some(path) => {
                    let boxes: Vec<[f32; 6]> = match &a.records {
                        A2geRecords::Short(v) => {
                            v.iter().map(|r| [r.x, r.y, r.dx, r.dy, 0.0, 0.0]).collect()
                        }
                        A2geRecords::Long(v) => v
                            .iter()
                            .map(|q| [q.x, q.y, q.dx, q.dy, q.ox, q.oy])
                            .collect(),
                    };
                    for b in boxes {
                        let [x, y, dx, dy, ox, oy] = b.map(f64::from);
                        let c = self.centre(x + dx / 2.0 + ox / 2.0, y + dy / 2.0 + oy / 2.0);
                        let a = self.centre(x, y);
                        let b = self.centre(x + dx, y + dy);
                        if !c.iter().chain(&a).chain(&b).all(|v| v.is_finite()) {
                            self.skipped("A2GE", "position is not finite");
                            continue;
                        }
                        let frame = LocalFrame::new(c);
                        let (pa, pb) = (frame.to_local(a), frame.to_local(b));
                        let (ex, ny) = (pb[0] - pa[0], pb[1] - pa[1]);
                        let heading = if ex == 0.0 && ny == 0.0 {
                            0.0
                        } else {
                            ex.atan2(ny).to_degrees().rem_euclid(360.0)
                        };
                        self.out.made.push((
                            TileId::containing(c),
                            Made::Object {
                                path: path.clone(),
                                at: c,
                                heading,
                            },
                        ));
                        self.done("A2GE");
                    }
                }
                None => self.unmapped("A2GE", Some(a.object), a.records.len()),
            },
            _ => {}
        }
    }

    fn rect_ring(&self, x: f32, y: f32, dx: f32, dy: f32) -> Vec<LonLat> {
        let [x, y, dx, dy] = [x, y, dx, dy].map(f64::from);
        vec![
            self.centre(x, y),
            self.centre(x + dx, y),
            self.centre(x + dx, y + dy),
            self.centre(x, y + dy),
        ]
    }
}

fn centroid(ring: &[LonLat]) -> LonLat {
    let n = ring.len().max(1) as f64;
    let s = ring
        .iter()
        .fold([0.0, 0.0], |a, p| [a[0] + p[0], a[1] + p[1]]);
    [s[0] / n, s[1] / n]
}

/// Converts many cells in parallel (rayon); `tick` is called once per cell
/// done (from any thread). Cells are merged in the order given, so the
/// output does not depend on scheduling.
pub fn convert_cells(
    cells: &[(Cell, Agn)],
    map: &Map,
    creation_agent: &str,
    tick: &(dyn Fn() + Sync),
) -> Converted {
    use rayon::prelude::*;
    let results: Vec<CellResult> = cells
        .par_iter()
        .map(|(cell, agn)| {
            let r = convert_cell(*cell, agn, map);
            tick();
            r
        })
        .collect();
    let mut report = ConvertReport {
        cells: cells.len(),
        ..ConvertReport::default()
    };
    let mut unmapped: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut per_tile: BTreeMap<TileId, Vec<Made>> = BTreeMap::new();
    for r in results {
        for (k, n) in r.converted {
            *report.converted.entry(k).or_default() += n;
        }
        for (k, n) in r.skipped {
            *report.skipped.entry(k).or_default() += n;
        }
        for (k, n) in r.unmapped {
            *unmapped.entry(k).or_default() += n;
        }
        for (tile, m) in r.made {
            per_tile.entry(tile).or_default().push(m);
        }
    }
    let mut list: Vec<Unmapped> = unmapped
        .into_iter()
        .map(|((kind, guid), count)| Unmapped {
            map_key: map_key(&kind, &guid),
            kind,
            guid,
            count,
        })
        .collect();
    list.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then(a.kind.cmp(&b.kind))
            .then(a.guid.cmp(&b.guid))
    });
    report.unmapped = list;
    let mut tiles = BTreeMap::new();
    for (tile, made) in per_tile {
        let dsf = tile_dsf(tile, made, creation_agent, &mut report.placed);
        report.tiles.push(crate::overlay::build::TileReport {
            tile: tile.to_string(),
            path: tile.relative_path().to_string_lossy().replace('\\', "/"),
            uses: dsf.entities.len(),
        });
        tiles.insert(tile, dsf);
    }
    Converted { tiles, report }
}

fn tile_dsf(
    tile: TileId,
    made: Vec<Made>,
    agent: &str,
    placed: &mut BTreeMap<String, usize>,
) -> Dsf {
    let mut objects = BTreeSet::new();
    let mut facades = BTreeSet::new();
    let mut forests = BTreeSet::new();
    for m in &made {
        match m {
            Made::Object { path, .. } => objects.insert(path.clone()),
            Made::Facade { path, .. } => facades.insert(path.clone()),
            Made::Forest { path, .. } => forests.insert(path.clone()),
        };
    }
    let mut dsf = Dsf {
        object_defs: objects.into_iter().collect(),
        polygon_defs: facades.iter().chain(&forests).cloned().collect(),
        ..Dsf::default()
    };
    let index = |t: &[String], p: &str| t.iter().position(|d| d == p).unwrap_or(0) as u32;
    let flat = |r: &[LonLat]| -> Vec<f64> { r.iter().flat_map(|p| [p[0], p[1]]).collect() };
    for m in made {
        match m {
            Made::Object { path, at, heading } => {
                *placed.entry(path.clone()).or_default() += 1;
                dsf.entities.push(Entity::Object(Object {
                    def: index(&dsf.object_defs, &path),
                    lon: at[0],
                    lat: at[1],
                    heading,
                    elevation: None,
                    mode: ElevationMode::Draped,
                }));
            }
            Made::Facade { path, height, ring } => {
                *placed.entry(path.clone()).or_default() += 1;
                dsf.entities.push(Entity::Polygon(Polygon {
                    def: index(&dsf.polygon_defs, &path),
                    param: height,
                    depth: 2,
                    windings: vec![flat(&ring)],
                }));
            }
            Made::Forest { path, param, rings } => {
                *placed.entry(path.clone()).or_default() += 1;
                dsf.entities.push(Entity::Polygon(Polygon {
                    def: index(&dsf.polygon_defs, &path),
                    param,
                    depth: 2,
                    windings: rings.iter().map(|r| flat(r)).collect(),
                }));
            }
        }
    }
    let mut props = tile.bounds_properties();
    props.push(("sim/overlay".into(), "1".into()));
    props.push(("sim/creation_agent".into(), agent.into()));
    if !facades.is_empty() {
        props.push(("sim/require_facade".into(), "1/0".into()));
    }
    if !dsf.object_defs.is_empty() {
        props.push(("sim/require_object".into(), "1/0".into()));
    }
    dsf.properties = props;
    dsf
}

/// A problem with one of the inputs of [`read_inputs`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct InputProblem {
    /// What is wrong, naming the file (and the byte offset).
    pub message: String,
    /// The file could not be read at all (missing, a device, a pipe …),
    /// as opposed to read and found wrong.
    pub unreadable: bool,
}

impl InputProblem {
    fn bad(message: String) -> InputProblem {
        InputProblem {
            message,
            unreadable: false,
        }
    }
}

/// Reads AGN files: each path is a file or a directory searched (recursively)
/// for `*.agn`; files are sorted by path. Returns `(path, cell, agn)` or
/// the problems (file name not a cell name, a file that cannot be read, a
/// read failure with byte offset).
#[allow(clippy::type_complexity)]
pub fn read_inputs(
    paths: &[std::path::PathBuf],
) -> Result<Vec<(std::path::PathBuf, Cell, Agn)>, Vec<InputProblem>> {
    use rayon::prelude::*;
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if p.is_dir() {
            for e in crate::fsutil::walk(p) {
                match e {
                    Ok(e)
                        if e.file_type().is_file()
                            && e.path()
                                .extension()
                                .is_some_and(|x| x.eq_ignore_ascii_case("agn")) =>
                    {
                        files.push(e.into_path())
                    }
                    Ok(_) => {}
                    Err(err) => errors.push(InputProblem {
                        message: format!("{}: {err}", p.display()),
                        unreadable: true,
                    }),
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    files.sort();
    files.dedup();
    if files.is_empty() && errors.is_empty() {
        let named: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        errors.push(InputProblem::bad(format!(
            "{}: no AGN file (*.agn) under this folder, so nothing is converted; name \
             another folder or the files themselves",
            named.join(", ")
        )));
    }
    let read: Vec<Result<(std::path::PathBuf, Cell, Agn), InputProblem>> = files
        .par_iter()
        .map(|f| {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let cell = Cell::from_name(&name)
                .map_err(|e| InputProblem::bad(format!("{}: {e}", f.display())))?;
            let max = crate::limits::Limits::default().max_input_bytes;
            let bytes =
                crate::fsutil::read_file(f, "an AGN file", max).map_err(|e| InputProblem {
                    message: e.to_string(),
                    unreadable: true,
                })?;
            let agn = crate::agn::read(&bytes)
                .map_err(|e| InputProblem::bad(format!("{}: {e}", f.display())))?;
            Ok((f.clone(), cell, agn))
        })
        .collect();
    let mut ok = Vec::new();
    for r in read {
        match r {
            Ok(v) => ok.push(v),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(ok)
    } else {
        Err(errors)
    }
}
