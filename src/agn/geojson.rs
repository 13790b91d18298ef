//! The GeoJSON view: every placed record as a Feature in lon/lat.
//!
//! One Feature per record: `GBLR` building, `ROWH` house, `A2GE` library
//! object, `VGRE`/`VGRO` rectangle, `PRDE` polygon, `PBDE` building. Every
//! geometry is a Polygon whose first vertex is the record's first point:
//!
//! - `GBLR`, `ROWH`, 24-byte `A2GE` (first point p, vector d to the second
//!   point, offset o of the third): p, p+d, p+d+o, p+o, p;
//! - `VGRE`, `VGRO`, 16-byte `A2GE` (first point p, vector d to the opposite
//!   corner): p, p+(dx,0), p+d, p+(0,dy), p;
//! - `PRDE` polygons and `PBDE` footprints: their vertices exactly, with the
//!   first vertex repeated at the end only when the record is not closed
//!   (then `properties.view_close` is true and build drops it again).
//!
//! `properties` (flat, one type each, names of at most 10 characters so a
//! Shapefile keeps them): `section` (chunk id), `guid` (where the chunk has
//! one), `chunk` (index of the top-level chunk) and `child` (index inside a
//! container, `null` at the top level), `index` (record number in the
//! chunk), `local` (the record's f32 cell coordinates as stored, as a JSON
//! list in text: `"[1.5,2,3,4]"`), `degenerate` (true when the record's
//! outline has no area, such as a 16-byte `A2GE` of zero width or depth:
//! GIS validity checks reject such a polygon), and `rec_size` (`A2GE`),
//! `kind` and `width` (`PBDE`). Build also reads the older form (`chunk`
//! as a list `[i]` or `[i, j]`, `local` as a list, `record_size`,
//! `closed_by_view`).
//!
//! The collection carries two foreign members: `agn_cell` (the file name of
//! the cell) and `agn_skeleton` (the JSON view of the file with every
//! record list emptied), so build restores the chunks without geometry and
//! the chunk order, and a dump → build round trip is byte-identical.
//!
//! Build takes each vertex from `local` when the geometry still shows the
//! image of `local` (within 1e-9°), else converts the lon/lat back to the
//! nearest f32 cell coordinate.

use super::cell::{HEIGHT, WIDTH};
use super::json::Document;
use super::*;
use ::geojson::{Feature, FeatureCollection, Geometry, GeometryValue, JsonObject, JsonValue};
use serde_json::json;

/// The features of a model placed in `cell`, one per record in file order,
/// without the collection's foreign members (what bulk dumps stream).
pub fn features(agn: &Agn, cell: Cell) -> Vec<Feature> {
    let mut features = Vec::new();
    for (i, c) in agn.chunks.iter().enumerate() {
        match c.children() {
            Some(children) => {
                for (j, ch) in children.iter().enumerate() {
                    record_features(ch, vec![i, j], cell, &mut features);
                }
            }
            None => record_features(c, vec![i], cell, &mut features),
        }
    }
    features
}

/// The GeoJSON FeatureCollection of a model placed in `cell`.
pub fn to_geojson(agn: &Agn, cell: Cell) -> FeatureCollection {
    let features = features(agn, cell);
    let mut skeleton = agn.clone();
    for c in &mut skeleton.chunks {
        empty_records(c);
    }
    let mut fm = JsonObject::new();
    fm.insert("agn_cell".into(), json!(cell.name()));
    let doc = Document {
        format: json::FORMAT.into(),
        version: json::VERSION,
        chunks: skeleton.chunks,
    };
    fm.insert(
        "agn_skeleton".into(),
        serde_json::to_value(doc).unwrap_or(JsonValue::Null),
    );
    FeatureCollection {
        bbox: None,
        features,
        foreign_members: Some(fm),
    }
}

/// The GeoJSON text (pretty-printed, newline-terminated).
pub fn to_geojson_string(agn: &Agn, cell: Cell) -> String {
    let mut s = serde_json::to_string_pretty(&to_geojson(agn, cell)).unwrap_or_default();
    s.push('\n');
    s
}

fn empty_records(c: &mut Chunk) {
    match c {
        Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
            g.children.iter_mut().for_each(empty_records)
        }
        Chunk::Gblr(g) => g.buildings.clear(),
        Chunk::Prde(p) => p.polygons.clear(),
        Chunk::Vgre(v) => v.rects.clear(),
        Chunk::Vgro(v) => v.rects.clear(),
        Chunk::Rowh(r) => r.houses.clear(),
        Chunk::A2ge(a) => match &mut a.records {
            A2geRecords::Short(v) => v.clear(),
            A2geRecords::Long(v) => v.clear(),
        },
        Chunk::Pbde(p) => p.buildings.clear(),
        _ => {}
    }
}

fn quad_ring(cell: Cell, q: &Quad) -> Vec<[f64; 2]> {
    let (x, y) = (q.x as f64, q.y as f64);
    let (dx, dy, ox, oy) = (q.dx as f64, q.dy as f64, q.ox as f64, q.oy as f64);
    [
        (x, y),
        (x + dx, y + dy),
        (x + dx + ox, y + dy + oy),
        (x + ox, y + oy),
        (x, y),
    ]
    .iter()
    .map(|&(a, b)| cell.centre_to_lonlat(a, b))
    .collect()
}

fn rect_ring(cell: Cell, r: &Rect) -> Vec<[f64; 2]> {
    let (x, y, dx, dy) = (r.x as f64, r.y as f64, r.dx as f64, r.dy as f64);
    [(x, y), (x + dx, y), (x + dx, y + dy), (x, y + dy), (x, y)]
        .iter()
        .map(|&(a, b)| cell.centre_to_lonlat(a, b))
        .collect()
}

fn is_closed(v: &[Vertex]) -> bool {
    v.len() >= 2 && v.first() == v.last()
}

fn poly_ring(cell: Cell, v: &[Vertex]) -> Vec<[f64; 2]> {
    let mut ring: Vec<[f64; 2]> = v
        .iter()
        .map(|p| cell.top_left_to_lonlat(p[0] as f64, p[1] as f64))
        .collect();
    if !is_closed(v)
        && let Some(&f) = ring.first()
    {
        ring.push(f);
    }
    ring
}

/// True when a ring encloses no area (all its points on one line).
fn degenerate(ring: &[[f64; 2]]) -> bool {
    let Some(&o) = ring.first() else {
        return true;
    };
    let n = ring.len();
    // Around the first point, so that no rounding of large coordinates
    // hides in the products: a 10 cm square is some 1e-12 square degrees,
    // rounding of a straight line some 1e-20.
    let area2: f64 = (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            (a[0] - o[0]) * (b[1] - o[1]) - (b[0] - o[0]) * (a[1] - o[1])
        })
        .sum();
    area2.abs() < 1e-18
}

fn feature(ring: Vec<[f64; 2]>, mut props: JsonObject) -> Feature {
    props.insert("degenerate".into(), json!(degenerate(&ring)));
    Feature {
        bbox: None,
        geometry: Some(Geometry::new(GeometryValue::new_polygon([ring]))),
        id: None,
        properties: Some(props),
        foreign_members: None,
    }
}

fn record_features(c: &Chunk, path: Vec<usize>, cell: Cell, out: &mut Vec<Feature>) {
    let base = |guid: Option<Guid>, index: usize, local: Vec<f32>| {
        let mut p = JsonObject::new();
        p.insert("section".into(), json!(c.id().to_string()));
        if let Some(g) = guid {
            p.insert("guid".into(), json!(g.to_string()));
        }
        p.insert("chunk".into(), json!(path.first()));
        p.insert("child".into(), json!(path.get(1)));
        p.insert("index".into(), json!(index));
        p.insert("local".into(), json!(json!(local).to_string()));
        p
    };
    let quad_local = |q: &Quad| vec![q.x, q.y, q.dx, q.dy, q.ox, q.oy];
    let rect_local = |r: &Rect| vec![r.x, r.y, r.dx, r.dy];
    let flat = |v: &[Vertex]| v.iter().flat_map(|p| [p[0], p[1]]).collect::<Vec<f32>>();
    match c {
        Chunk::Gblr(g) => {
            for (k, q) in g.buildings.iter().enumerate() {
                out.push(feature(
                    quad_ring(cell, q),
                    base(Some(g.roof), k, quad_local(q)),
                ));
            }
        }
        Chunk::Rowh(r) => {
            for (k, q) in r.houses.iter().enumerate() {
                out.push(feature(quad_ring(cell, q), base(None, k, quad_local(q))));
            }
        }
        Chunk::Vgre(v) => {
            for (k, r) in v.rects.iter().enumerate() {
                out.push(feature(
                    rect_ring(cell, r),
                    base(Some(v.vegetation), k, rect_local(r)),
                ));
            }
        }
        Chunk::Vgro(v) => {
            for (k, r) in v.rects.iter().enumerate() {
                out.push(feature(rect_ring(cell, r), base(None, k, rect_local(r))));
            }
        }
        Chunk::A2ge(a) => {
            let size = a.records.record_size();
            let mut push = |k: usize, ring, local| {
                let mut p = base(Some(a.object), k, local);
                p.insert("rec_size".into(), json!(size));
                out.push(feature(ring, p));
            };
            match &a.records {
                A2geRecords::Short(v) => {
                    for (k, r) in v.iter().enumerate() {
                        push(k, rect_ring(cell, r), rect_local(r));
                    }
                }
                A2geRecords::Long(v) => {
                    for (k, q) in v.iter().enumerate() {
                        push(k, quad_ring(cell, q), quad_local(q));
                    }
                }
            }
        }
        Chunk::Prde(p) => {
            for (k, poly) in p.polygons.iter().enumerate() {
                let mut props = base(Some(p.vegetation), k, flat(poly));
                if !is_closed(poly) {
                    props.insert("view_close".into(), json!(true));
                }
                out.push(feature(poly_ring(cell, poly), props));
            }
        }
        Chunk::Pbde(p) => {
            for (k, b) in p.buildings.iter().enumerate() {
                let mut props = base(Some(p.building), k, flat(&b.footprint));
                props.insert("kind".into(), json!(b.kind));
                props.insert("width".into(), json!(b.width));
                if !is_closed(&b.footprint) {
                    props.insert("view_close".into(), json!(true));
                }
                out.push(feature(poly_ring(cell, &b.footprint), props));
            }
        }
        _ => {}
    }
}

/// One record read back from a Feature.
enum Record {
    Quad(Quad),
    Rect(Rect),
    Poly(Vec<Vertex>),
    Building(PolyBuilding),
}

/// Builds a model from the GeoJSON view.
///
/// The cell is `cell` if given, else the collection's `agn_cell`, else the
/// cell containing the centre of the features' extent. A feature whose first
/// point is outside the cell (edges included) is refused. Features with a
/// `chunk` path go back into that chunk of `agn_skeleton`; others join the
/// first chunk of their section with the same GUID (and `A2GE` record size),
/// created at the end of the file (inside a new container if needed).
pub fn from_geojson(text: &str, cell: Option<Cell>) -> Result<(Agn, Cell), String> {
    let fc: FeatureCollection = serde_json::from_str(text).map_err(|e| {
        format!(
            "line {}, column {}: not a GeoJSON FeatureCollection: {e}",
            e.line(),
            e.column()
        )
    })?;
    let fm = fc.foreign_members.clone().unwrap_or_default();
    let cell = match cell {
        Some(c) => c,
        None => match fm.get("agn_cell").and_then(JsonValue::as_str) {
            Some(n) => Cell::from_name(n).map_err(|e| format!("agn_cell: {e}"))?,
            None => extent_cell(&fc)?,
        },
    };
    let mut agn = match fm.get("agn_skeleton") {
        Some(v) => {
            let doc: Document =
                serde_json::from_value(v.clone()).map_err(|e| format!("agn_skeleton: {e}"))?;
            Agn { chunks: doc.chunks }
        }
        None => Agn {
            chunks: vec![Chunk::Vers(Vers {
                version: DEFAULT_VERSION,
            })],
        },
    };
    let b = cell.bounds();
    for (n, f) in fc.features.iter().enumerate() {
        let fail = |m: String| format!("feature {n}: {m}");
        let props = f.properties.clone().unwrap_or_default();
        let section: FourCc = props
            .get("section")
            .and_then(JsonValue::as_str)
            .ok_or_else(|| fail("properties.section is missing".into()))?
            .parse()
            .map_err(fail)?;
        let ring = ring_of(f).map_err(fail)?;
        let [lon, lat] = match ring.first() {
            Some(&p) => p,
            // An empty PRDE polygon or PBDE footprint has nothing to place.
            None if matches!(&section.0, b"PRDE" | b"PBDE") => [b.west, b.north],
            None => return Err(fail("geometry has no positions".into())),
        };
        const TOL: f64 = 1e-9;
        if lon < b.west - TOL || lon > b.east + TOL || lat > b.north + TOL || lat < b.south - TOL {
            return Err(fail(format!(
                "{section} feature starts at lon {lon}, lat {lat}, outside cell {} (lon {}..{}, lat {}..{})",
                cell.name(),
                b.west,
                b.east,
                b.south,
                b.north
            )));
        }
        let guid = match props.get("guid").and_then(JsonValue::as_str) {
            Some(g) => g.parse().map_err(fail)?,
            None => Guid::DEFAULT,
        };
        // `local`: a list as text (or, in the older form, a list).
        let parsed = props
            .get("local")
            .and_then(JsonValue::as_str)
            .and_then(|t| serde_json::from_str::<JsonValue>(t).ok());
        let local = parsed
            .as_ref()
            .or(props.get("local"))
            .and_then(JsonValue::as_array)
            .map(|a| {
                a.iter()
                    .map(|v| v.as_f64().map(|f| f as f32))
                    .collect::<Option<Vec<f32>>>()
            });
        let local = local.flatten();
        // `chunk` and `child` (or, in the older form, `chunk` as a list).
        let index = |v: &JsonValue| v.as_u64().and_then(|u| usize::try_from(u).ok());
        let path: Option<Vec<usize>> = match props.get("chunk") {
            Some(JsonValue::Array(a)) => a.iter().map(index).collect(),
            Some(v) => index(v).map(|i| {
                let mut p = vec![i];
                p.extend(props.get("child").and_then(index));
                p
            }),
            None => None,
        };
        let size = props
            .get("rec_size")
            .or(props.get("record_size"))
            .and_then(JsonValue::as_u64)
            .unwrap_or(24) as usize;
        let target = locate(&mut agn, path.as_deref(), section, guid, size).map_err(fail)?;
        let want_size = match target {
            Chunk::A2ge(a) => a.records.record_size(),
            _ => 0,
        };
        let record = match &section.0 {
            b"GBLR" | b"ROWH" => Record::Quad(quad_from(cell, &ring, local.as_deref())?),
            b"A2GE" if want_size == 24 => Record::Quad(quad_from(cell, &ring, local.as_deref())?),
            b"VGRE" | b"VGRO" | b"A2GE" => Record::Rect(rect_from(cell, &ring, local.as_deref())?),
            b"PRDE" | b"PBDE" => {
                let mut ring = ring.clone();
                let closed_by_view = props.get("view_close").or(props.get("closed_by_view"));
                if closed_by_view.and_then(JsonValue::as_bool) == Some(true) {
                    ring.pop();
                }
                let verts = vertices_from(cell, &ring, local.as_deref());
                if &section.0 == b"PRDE" {
                    Record::Poly(verts)
                } else {
                    let kind = props.get("kind").and_then(JsonValue::as_i64).unwrap_or(1);
                    let kind = i32::try_from(kind)
                        .map_err(|_| fail(format!("kind {kind} is not an int32")))?;
                    let width = props
                        .get("width")
                        .and_then(JsonValue::as_f64)
                        .ok_or_else(|| fail("PBDE feature needs properties.width".into()))?;
                    Record::Building(PolyBuilding {
                        kind,
                        width: width as f32,
                        footprint: verts,
                    })
                }
            }
            _ => return Err(fail(format!("section {section} has no geometry"))),
        };
        push_record(target, record).map_err(fail)?;
    }
    Ok((agn, cell))
}

fn ring_of(f: &Feature) -> Result<Vec<[f64; 2]>, String> {
    let g = f.geometry.as_ref().ok_or("feature has no geometry")?;
    let ring = match &g.value {
        GeometryValue::Polygon { coordinates } => {
            coordinates.first().ok_or("polygon has no ring")?
        }
        GeometryValue::LineString { coordinates } => coordinates,
        _ => return Err("geometry must be a Polygon".into()),
    };
    let ring: Vec<[f64; 2]> = ring
        .iter()
        .map(|p| {
            let s = p.as_slice();
            if s.len() < 2 || !s[0].is_finite() || !s[1].is_finite() {
                Err("position needs finite longitude and latitude".to_string())
            } else {
                Ok([s[0], s[1]])
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(ring)
}

fn extent_cell(fc: &FeatureCollection) -> Result<Cell, String> {
    let (mut w, mut e, mut s, mut n) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for f in &fc.features {
        for [lon, lat] in ring_of(f).unwrap_or_default() {
            (w, e, s, n) = (w.min(lon), e.max(lon), s.min(lat), n.max(lat));
        }
    }
    if w > e {
        return Err("no features to take the cell from; pass --cell NAME".into());
    }
    Cell::containing((s + n) / 2.0, (w + e) / 2.0).map_err(|e| e.to_string())
}

/// Finds (or creates) the chunk a feature's record goes into.
fn locate<'a>(
    agn: &'a mut Agn,
    path: Option<&[usize]>,
    section: FourCc,
    guid: Guid,
    size: usize,
) -> Result<&'a mut Chunk, String> {
    if let Some(path) = path {
        let found = match path {
            [i] => agn.chunks.get(*i).is_some_and(|c| c.id() == section),
            [i, j] => agn
                .chunks
                .get(*i)
                .and_then(|c| c.children())
                .and_then(|ch| ch.get(*j))
                .is_some_and(|c| c.id() == section),
            _ => false,
        };
        if found {
            return Ok(match path {
                [i] => &mut agn.chunks[*i],
                [i, j] => {
                    &mut group_mut(&mut agn.chunks[*i])
                        .expect("checked container")
                        .children[*j]
                }
                _ => unreachable!("checked path length"),
            });
        }
    }
    let matches = |c: &Chunk| match c {
        Chunk::Gblr(g) => section == c.id() && g.roof == guid,
        Chunk::Prde(p) => section == c.id() && p.vegetation == guid,
        Chunk::Vgre(v) => section == c.id() && v.vegetation == guid,
        Chunk::A2ge(a) => section == c.id() && a.object == guid && a.records.record_size() == size,
        Chunk::Pbde(p) => section == c.id() && p.building == guid,
        Chunk::Vgro(_) | Chunk::Rowh(_) => section == c.id(),
        _ => false,
    };
    let new_chunk = || -> Result<Chunk, String> {
        Ok(match &section.0 {
            b"GBLR" => Chunk::Gblr(Gblr {
                roof: guid,
                buildings: vec![],
            }),
            b"PRDE" => Chunk::Prde(Prde {
                vegetation: guid,
                polygons: vec![],
            }),
            b"VGRE" => Chunk::Vgre(Vgre {
                vegetation: guid,
                rects: vec![],
            }),
            b"PBDE" => Chunk::Pbde(Pbde {
                building: guid,
                buildings: vec![],
            }),
            b"A2GE" => Chunk::A2ge(A2ge {
                object: guid,
                records: match size {
                    16 => A2geRecords::Short(vec![]),
                    24 => A2geRecords::Long(vec![]),
                    s => return Err(format!("record_size {s} must be 16 or 24")),
                },
            }),
            b"VGRO" => Chunk::Vgro(Vgro { rects: vec![] }),
            b"ROWH" => Chunk::Rowh(Rowh { houses: vec![] }),
            _ => return Err(format!("section {section} has no geometry")),
        })
    };
    let container = [b"GBLD", b"PREG", b"VGRG", b"AGN2", b"PBLD"]
        .into_iter()
        .map(|p| FourCc(*p))
        .find(|p| child_id(*p) == Some(section));
    match container {
        None => {
            let i = match agn.chunks.iter().position(matches) {
                Some(i) => i,
                None => {
                    agn.chunks.push(new_chunk()?);
                    agn.chunks.len() - 1
                }
            };
            Ok(&mut agn.chunks[i])
        }
        Some(cid) => {
            let ci = match agn
                .chunks
                .iter()
                .position(|c| c.id() == cid && c.children().is_some())
            {
                Some(ci) => ci,
                None => {
                    let g = Group::default();
                    agn.chunks.push(match &cid.0 {
                        b"GBLD" => Chunk::Gbld(g),
                        b"PREG" => Chunk::Preg(g),
                        b"VGRG" => Chunk::Vgrg(g),
                        b"AGN2" => Chunk::Agn2(g),
                        _ => Chunk::Pbld(g),
                    });
                    agn.chunks.len() - 1
                }
            };
            let g = group_mut(&mut agn.chunks[ci]).expect("container");
            let j = match g.children.iter().position(matches) {
                Some(j) => j,
                None => {
                    g.children.push(new_chunk()?);
                    g.children.len() - 1
                }
            };
            Ok(&mut g.children[j])
        }
    }
}

fn group_mut(c: &mut Chunk) -> Option<&mut Group> {
    match c {
        Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
            Some(g)
        }
        _ => None,
    }
}

fn push_record(c: &mut Chunk, r: Record) -> Result<(), String> {
    match (c, r) {
        (Chunk::Gblr(g), Record::Quad(q)) => g.buildings.push(q),
        (Chunk::Rowh(g), Record::Quad(q)) => g.houses.push(q),
        (
            Chunk::A2ge(A2ge {
                records: A2geRecords::Long(v),
                ..
            }),
            Record::Quad(q),
        ) => v.push(q),
        (
            Chunk::A2ge(A2ge {
                records: A2geRecords::Short(v),
                ..
            }),
            Record::Rect(r),
        ) => v.push(r),
        (Chunk::Vgre(g), Record::Rect(r)) => g.rects.push(r),
        (Chunk::Vgro(g), Record::Rect(r)) => g.rects.push(r),
        (Chunk::Prde(p), Record::Poly(v)) => p.polygons.push(v),
        (Chunk::Pbde(p), Record::Building(b)) => p.buildings.push(b),
        (c, _) => {
            return Err(format!(
                "record does not fit the {} chunk it points to",
                c.id()
            ));
        }
    }
    Ok(())
}

const MATCH: f64 = 1e-9;

fn near(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() <= MATCH && (a[1] - b[1]).abs() <= MATCH
}

/// A centre-based vector from two lon/lat points, as f32.
fn delta(a: [f64; 2], b: [f64; 2]) -> (f32, f32) {
    (
        ((b[0] - a[0]) / WIDTH) as f32,
        ((a[1] - b[1]) / HEIGHT) as f32,
    )
}

fn quad_from(cell: Cell, ring: &[[f64; 2]], local: Option<&[f32]>) -> Result<Quad, String> {
    if ring.len() < 4 {
        return Err(format!(
            "a rectangle record needs 4 corners, the ring has {}",
            ring.len()
        ));
    }
    if let Some(&[x, y, dx, dy, ox, oy]) = local {
        let q = Quad {
            x,
            y,
            dx,
            dy,
            ox,
            oy,
        };
        let want = quad_ring(cell, &q);
        if near(want[0], ring[0]) && near(want[1], ring[1]) && near(want[3], ring[3]) {
            return Ok(q);
        }
    }
    let [x, y] = cell.lonlat_to_centre(ring[0][0], ring[0][1]);
    let (dx, dy) = delta(ring[0], ring[1]);
    let (ox, oy) = delta(ring[1], ring[2]);
    Ok(Quad {
        x,
        y,
        dx,
        dy,
        ox,
        oy,
    })
}

fn rect_from(cell: Cell, ring: &[[f64; 2]], local: Option<&[f32]>) -> Result<Rect, String> {
    if ring.len() < 3 {
        return Err(format!(
            "a rectangle record needs its opposite corner, the ring has {} positions",
            ring.len()
        ));
    }
    if let Some(&[x, y, dx, dy]) = local {
        let r = Rect { x, y, dx, dy };
        let want = rect_ring(cell, &r);
        if near(want[0], ring[0]) && near(want[2], ring[2]) {
            return Ok(r);
        }
    }
    let [x, y] = cell.lonlat_to_centre(ring[0][0], ring[0][1]);
    let (dx, dy) = delta(ring[0], ring[2]);
    Ok(Rect { x, y, dx, dy })
}

fn vertices_from(cell: Cell, ring: &[[f64; 2]], local: Option<&[f32]>) -> Vec<Vertex> {
    ring.iter()
        .enumerate()
        .map(|(i, &p)| {
            if let Some(l) = local.filter(|l| l.len() == ring.len() * 2) {
                let v = [l[2 * i], l[2 * i + 1]];
                if near(cell.top_left_to_lonlat(v[0] as f64, v[1] as f64), p) {
                    return v;
                }
            }
            cell.lonlat_to_top_left(p[0], p[1])
        })
        .collect()
}
