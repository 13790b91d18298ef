//! Airports as GIS layers: runways, pavement, boundaries and lines, in the
//! GeoJSON and GeoPackage forms the placement layers have
//! ([`super::layers`]: one geometry type per layer, flat typed fields,
//! names of at most 10 characters, a field of one name one type in every
//! layer, RFC 7946 ring order, 7 decimals of a degree).
//!
//! | Layer | Geometry | One row per |
//! |---|---|---|
//! | `apt_runways` | Polygon | land runway (`kind` `runway`: its ends and width), water runway (`water_runway`), helipad (`helipad`: its centre, heading, length and width) |
//! | `apt_pavement` | Polygon | pavement (`110`): outline and holes, bezier curves cut as [`crate::apt::bezier`] documents |
//! | `apt_boundaries` | Polygon | airport boundary (`130`) |
//! | `apt_lines` | LineString | path of a linear feature (`120`), closed ones ending where they start |
//!
//! Every row has `airport` (the ID), `name` (the record's description or
//! number), `src_line` (its line in the apt.dat) and `apt_file`, and a
//! stable `item_id` (`ICAO/kind/index`). Widths and lengths are metres,
//! headings degrees true.

use super::OutError;
use super::layers::{
    ALL_LAYERS, FieldType, GeomType, Layer, Row, Shape, Value, deg, f, metres, ring,
};
use crate::apt::{Airport, bezier, spec};
use crate::geom::{LocalFrame, LonLat, Xy};
use std::borrow::Cow;
use std::ops::Range;

use FieldType::{Boolean as B, Integer as I, Real as R, Text as T};

/// Index of the runways layer in [`ALL_LAYERS`].
pub const APT_RUNWAYS: usize = super::layers::LAYERS.len();
/// Index of the pavement layer.
pub const APT_PAVEMENT: usize = APT_RUNWAYS + 1;
/// Index of the boundaries layer.
pub const APT_BOUNDARIES: usize = APT_RUNWAYS + 2;
/// Index of the lines layer.
pub const APT_LINES: usize = APT_RUNWAYS + 3;
/// The airport layers' range of [`ALL_LAYERS`].
pub const LAYER_RANGE: Range<usize> = APT_RUNWAYS..APT_LINES + 1;

const RUNWAY_FIELDS: &[Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("kind", T),
    f("name", T),
    f("src_line", I),
    f("apt_file", T),
    f("surface", I),
    f("surf_name", T),
    f("width", R),
    f("length", R),
    f("heading", R),
    f("lon", R),
    f("lat", R),
];

const PAVEMENT_FIELDS: &[Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("kind", T),
    f("name", T),
    f("src_line", I),
    f("apt_file", T),
    f("surface", I),
    f("surf_name", T),
    f("tex_head", R),
    f("holes", I),
];

const BOUNDARY_FIELDS: &[Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("kind", T),
    f("name", T),
    f("src_line", I),
    f("apt_file", T),
    f("holes", I),
];

const LINE_FIELDS: &[Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("kind", T),
    f("name", T),
    f("src_line", I),
    f("apt_file", T),
    f("line_type", I),
    f("lighting", I),
    f("closed", B),
];

use super::layers::Field;

/// The airport layers, in the order outputs write them.
pub const AIRPORT_LAYERS: [Layer; 4] = [
    Layer {
        name: "apt_runways",
        geometry: GeomType::Polygon,
        fields: RUNWAY_FIELDS,
        about: "Runways (kind runway, between their ends), water runways (water_runway) and helipads (helipad) of apt.dat; width and length in metres, heading in degrees true, lon/lat the centre.",
    },
    Layer {
        name: "apt_pavement",
        geometry: GeomType::Polygon,
        fields: PAVEMENT_FIELDS,
        about: "Pavement (taxiways, aprons: apt.dat 110) with its holes, bezier curves cut into pieces of at most 1 m; tex_head the texture heading in degrees true.",
    },
    Layer {
        name: "apt_boundaries",
        geometry: GeomType::Polygon,
        fields: BOUNDARY_FIELDS,
        about: "Airport boundaries (apt.dat 130) with their holes.",
    },
    Layer {
        name: "apt_lines",
        geometry: GeomType::LineString,
        fields: LINE_FIELDS,
        about: "Linear features (painted lines, light strings: apt.dat 120), one row per path; line_type and lighting the codes of the first node that has them.",
    },
];

fn text(s: &str) -> Value {
    Value::Text(Cow::Owned(s.to_string()))
}

fn name(l: usize) -> Value {
    Value::Text(Cow::Borrowed(ALL_LAYERS[l].name))
}

/// The values every airport row starts with.
fn common(
    l: usize,
    a: &Airport,
    kind: &'static str,
    i: usize,
    nm: &str,
    line: usize,
    file: &str,
) -> Vec<Value> {
    vec![
        name(l),
        text(&format!("{}/{kind}/{i}", a.icao)),
        text(&a.icao),
        Value::Text(Cow::Borrowed(kind)),
        text(nm),
        Value::Int(line as i64),
        text(file),
    ]
}

/// A rectangle of `width` metres centred on the segment `a`–`b`.
fn strip(a: LonLat, b: LonLat, width: f64) -> (Shape, f64, f64, LonLat) {
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let frame = LocalFrame::new(mid);
    let (pa, pb) = (frame.to_local(a), frame.to_local(b));
    let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
    let len = dx.hypot(dy);
    let heading = (dx.atan2(dy).to_degrees() + 360.0) % 360.0;
    if len == 0.0 {
        return (Shape::None, 0.0, heading, mid);
    }
    let n = [-dy / len * width / 2.0, dx / len * width / 2.0];
    let corners: Vec<Xy> = vec![
        [pa[0] + n[0], pa[1] + n[1]],
        [pa[0] - n[0], pa[1] - n[1]],
        [pb[0] - n[0], pb[1] - n[1]],
        [pb[0] + n[0], pb[1] + n[1]],
    ];
    let ll: Vec<LonLat> = corners.iter().map(|&p| frame.to_lonlat(p)).collect();
    let shape = ring(&ll, true).map_or(Shape::None, |r| Shape::Polygon(vec![r]));
    (shape, len, heading, mid)
}

/// Polygon rings of paths: the first counter-clockwise, the rest
/// clockwise; `None` when the outline has fewer than three points.
fn polygon(paths: &[crate::apt::Path]) -> Shape {
    let mut rings = Vec::new();
    for (k, p) in paths.iter().enumerate() {
        match ring(&bezier::points(p), k == 0) {
            Some(r) => rings.push(r),
            None if k == 0 => return Shape::None,
            None => {}
        }
    }
    if rings.is_empty() {
        Shape::None
    } else {
        Shape::Polygon(rings)
    }
}

/// Calls `emit` with every row of the airports `airports` (read from the
/// file named `file`): per airport its runways, water runways and helipads,
/// pavement, boundaries and lines. Stops at the first error.
pub fn each_row<'a, E>(
    airports: impl IntoIterator<Item = &'a Airport>,
    file: &str,
    emit: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<(), E> {
    for a in airports {
        let mut k = 0;
        for r in &a.runways {
            let (shape, len, heading, mid) = strip(r.ends[0].at, r.ends[1].at, r.width_m);
            let nm = format!("{}/{}", r.ends[0].number, r.ends[1].number);
            let mut v = common(APT_RUNWAYS, a, "runway", k, &nm, r.line, file);
            v.extend(runway_values(r.surface, r.width_m, len, heading, mid));
            emit(Row {
                layer: APT_RUNWAYS,
                shape,
                values: v,
            })?;
            k += 1;
        }
        for r in &a.water_runways {
            let (shape, len, heading, mid) = strip(r.ends[0].at, r.ends[1].at, r.width_m);
            let nm = format!("{}/{}", r.ends[0].number, r.ends[1].number);
            let mut v = common(APT_RUNWAYS, a, "water_runway", k, &nm, r.line, file);
            v.extend(runway_values(13, r.width_m, len, heading, mid));
            emit(Row {
                layer: APT_RUNWAYS,
                shape,
                values: v,
            })?;
            k += 1;
        }
        for h in &a.helipads {
            let (s, c) = h.heading.to_radians().sin_cos();
            let half = h.length_m / 2.0;
            let frame = LocalFrame::new(h.at);
            let (shape, _, _, _) = strip(
                frame.to_lonlat([-s * half, -c * half]),
                frame.to_lonlat([s * half, c * half]),
                h.width_m,
            );
            let mut v = common(APT_RUNWAYS, a, "helipad", k, &h.designator, h.line, file);
            v.extend(runway_values(
                h.surface, h.width_m, h.length_m, h.heading, h.at,
            ));
            emit(Row {
                layer: APT_RUNWAYS,
                shape,
                values: v,
            })?;
            k += 1;
        }
        for (i, p) in a.pavements.iter().enumerate() {
            let mut v = common(APT_PAVEMENT, a, "pavement", i, &p.name, p.line, file);
            v.extend([
                Value::Int(i64::from(p.surface)),
                Value::Text(Cow::Borrowed(spec::surface_name(p.surface))),
                Value::Real(metres(p.texture_heading)),
                Value::Int(p.rings.len().saturating_sub(1) as i64),
            ]);
            emit(Row {
                layer: APT_PAVEMENT,
                shape: polygon(&p.rings),
                values: v,
            })?;
        }
        for (i, b) in a.boundaries.iter().enumerate() {
            let mut v = common(APT_BOUNDARIES, a, "boundary", i, &b.name, b.line, file);
            v.push(Value::Int(b.rings.len().saturating_sub(1) as i64));
            emit(Row {
                layer: APT_BOUNDARIES,
                shape: polygon(&b.rings),
                values: v,
            })?;
        }
        let mut k = 0;
        for l in &a.lines {
            for p in &l.paths {
                let mut pts: Vec<LonLat> = bezier::points(p)
                    .into_iter()
                    .map(|q| [deg(q[0]), deg(q[1])])
                    .collect();
                if p.closed
                    && let Some(&first) = pts.first()
                {
                    pts.push(first);
                }
                let attr = |i: usize| {
                    p.nodes
                        .iter()
                        .find_map(|n| n.attributes.get(i))
                        .map_or(Value::Null, |&c| Value::Int(i64::from(c)))
                };
                let mut v = common(APT_LINES, a, "line", k, &l.name, l.line, file);
                v.extend([attr(0), attr(1), Value::Bool(p.closed)]);
                let shape = if pts.len() >= 2 {
                    Shape::LineString(pts)
                } else {
                    Shape::None
                };
                emit(Row {
                    layer: APT_LINES,
                    shape,
                    values: v,
                })?;
                k += 1;
            }
        }
    }
    Ok(())
}

fn runway_values(surface: u32, width: f64, length: f64, heading: f64, at: LonLat) -> [Value; 7] {
    [
        Value::Int(i64::from(surface)),
        Value::Text(Cow::Borrowed(spec::surface_name(surface))),
        Value::Real(metres(width)),
        Value::Real(metres(length)),
        Value::Real(metres(heading)),
        Value::Real(deg(at[0])),
        Value::Real(deg(at[1])),
    ]
}

/// Every row of `airports` ([`each_row`]), collected.
pub fn rows<'a>(airports: impl IntoIterator<Item = &'a Airport>, file: &str) -> Vec<Row> {
    let mut out = Vec::new();
    let _ = each_row(airports, file, &mut |r| {
        out.push(r);
        Ok::<(), ()>(())
    });
    out
}

/// The airports as one GeoJSON FeatureCollection written to `w`, indented
/// when `pretty`.
pub fn write_geojson(
    airports: &[&Airport],
    file: &str,
    pretty: bool,
    w: &mut dyn std::io::Write,
) -> Result<(), OutError> {
    struct Collection<'a>(&'a [&'a Airport], &'a str);
    impl serde::Serialize for Collection<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            struct Features<'a>(&'a [&'a Airport], &'a str);
            impl serde::Serialize for Features<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut seq = s.serialize_seq(None)?;
                    each_row(self.0.iter().copied(), self.1, &mut |r| {
                        seq.serialize_element(&super::geojson::RowFeature(&r))
                    })?;
                    seq.end()
                }
            }
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("type", "FeatureCollection")?;
            m.serialize_entry("features", &Features(self.0, self.1))?;
            m.end()
        }
    }
    let c = Collection(airports, file);
    if pretty {
        serde_json::to_writer_pretty(&mut *w, &c)?;
    } else {
        serde_json::to_writer(&mut *w, &c)?;
    }
    w.write_all(b"\n")?;
    Ok(())
}

/// The airports as a GeoPackage of the four airport layers, written to `w`
/// (built in a scratch folder, then copied, as
/// [`super::gpkg::write_gpkg`] does).
pub fn write_gpkg(
    airports: &[&Airport],
    file: &str,
    w: &mut dyn std::io::Write,
) -> Result<(), OutError> {
    let dir = crate::fsutil::ScratchDir::new()?;
    let path = dir.path().join("out.gpkg");
    let mut g = super::gpkg::GpkgWriter::create_layers(&path, LAYER_RANGE)?;
    each_row(airports.iter().copied(), file, &mut |r| g.add(&r))?;
    g.finish()?;
    std::io::copy(&mut std::fs::File::open(&path)?, w)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    const APT: &str = "I\n1100 x\n\n1 10 0 0 XTST Test\n\
        100 30 1 0 0.25 0 0 0 09 47.0 13.0 0 0 0 0 0 0 27 47.0 13.01 0 0 0 0 0 0\n\
        102 H1 47.001 13.005 45 20 10 2 0 0 0 0\n\
        110 1 0.25 90 Apron\n111 47.001 13.0\n112 47.001 13.001 47.0015 13.001\n113 47.0005 13.001\n\
        111 47.0008 13.0004\n111 47.0008 13.0005\n113 47.0007 13.0005\n\
        120 Line\n111 47.0 13.0 1\n115 47.0 13.001 1 102\n\
        130 Boundary\n111 47.0 13.0\n111 47.01 13.0\n113 47.01 13.01\n99\n";

    #[test]
    fn one_row_per_record_with_its_line_and_layer() {
        let f = crate::apt::read(APT.as_bytes(), "apt.dat", &Limits::default()).unwrap();
        let rows = rows(&f.airports, "apt.dat");
        let layers: Vec<&str> = rows.iter().map(|r| r.layer().name).collect();
        assert_eq!(
            layers,
            [
                "apt_runways",
                "apt_runways",
                "apt_pavement",
                "apt_boundaries",
                "apt_lines"
            ]
        );
        for r in &rows {
            assert_eq!(r.values.len(), r.layer().fields.len());
        }
        let rw = &rows[0];
        let get = |r: &Row, n: &str| r.fields().find(|(f, _)| f.name == n).unwrap().1.clone();
        assert_eq!(get(rw, "name"), text("09/27"));
        assert_eq!(get(rw, "src_line"), Value::Int(5));
        let Value::Real(len) = get(rw, "length") else {
            panic!()
        };
        assert!((len - 760.0).abs() < 5.0, "{len}");
        let Value::Real(h) = get(rw, "heading") else {
            panic!()
        };
        assert!((h - 90.0).abs() < 0.1, "{h}");
        let Shape::Polygon(p) = &rows[2].shape else {
            panic!()
        };
        assert_eq!(p.len(), 2, "outline and one hole");
        assert_eq!(get(&rows[2], "holes"), Value::Int(1));
        assert!(matches!(rows[4].shape, Shape::LineString(_)));
        assert_eq!(get(&rows[4], "lighting"), Value::Int(102));
    }

    #[test]
    fn geojson_and_gpkg_carry_every_row() {
        let f = crate::apt::read(APT.as_bytes(), "apt.dat", &Limits::default()).unwrap();
        let refs: Vec<&Airport> = f.airports.iter().collect();
        let mut j = Vec::new();
        write_geojson(&refs, "apt.dat", false, &mut j).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&j).unwrap();
        assert_eq!(v["features"].as_array().unwrap().len(), 5);
        assert_eq!(v["features"][0]["properties"]["airport"], "XTST");
        let mut g = Vec::new();
        write_gpkg(&refs, "apt.dat", &mut g).unwrap();
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.gpkg");
        std::fs::write(&p, &g).unwrap();
        let c = rusqlite::Connection::open(&p).unwrap();
        let n: i64 = c
            .query_row("SELECT count(*) FROM apt_runways", [], |r| r.get(0))
            .unwrap();
        assert_eq!(n, 2);
        let t: i64 = c
            .query_row(
                "SELECT count(*) FROM gpkg_contents WHERE table_name LIKE 'apt_%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(t, 4);
    }
}
