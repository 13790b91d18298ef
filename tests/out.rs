//! Outputs of a placement: JSON field names (snapshot), GeoJSON that the
//! geojson crate reads back, DSF2Text lines, the SVG (snapshot) and PNG.

use agkit::out::layers::{FieldType, GeomType, LAYERS};
use agkit::out::{self, Format};
use agkit::place::{self, Params, Placement, Use};
use agkit::xp::model::*;
use std::path::{Path, PathBuf};

fn lined<T>(value: T, line: usize) -> Lined<T> {
    Lined { value, line }
}

fn ann(kind: AnnotationKind, line: usize) -> Annotation {
    Annotation { kind, line }
}

/// A small plaza: 256 px = 40 m, two tiles (one picked by the seed), a
/// kiosk facade, objects with headings and show levels, trees, a tree line.
fn plaza() -> Asset {
    let objects = |line: usize| {
        vec![
            ann(
                AnnotationKind::Object(ObjectAnn {
                    mode: ObjMode::Draped,
                    at: [128.0, 128.0],
                    heading: 0.0,
                    index: 0,
                    show: None,
                }),
                line,
            ),
            ann(
                AnnotationKind::Object(ObjectAnn {
                    mode: ObjMode::Delta { height: 2.5 },
                    at: [40.0, 200.0],
                    heading: 45.0,
                    index: 1,
                    show: Some([1, 3]),
                }),
                line + 1,
            ),
            ann(
                AnnotationKind::Facade(FacadeAnn {
                    index: 0,
                    height: 6.0,
                    points: vec![[160.0, 40.0], [160.0, 90.0], [230.0, 90.0], [230.0, 40.0]],
                    walls: None,
                }),
                line + 2,
            ),
            ann(
                AnnotationKind::Tree(TreeAnn {
                    at: [40.0, 40.0],
                    heading: 0.0,
                    width: 6.0,
                    layer: 0,
                }),
                line + 3,
            ),
            ann(
                AnnotationKind::TreeLine(TreeLineAnn {
                    from: [10.0, 246.0],
                    to: [246.0, 246.0],
                    layer: 1,
                }),
                line + 4,
            ),
        ]
    };
    let tile = |id: i64, line: usize| Tile {
        id,
        explicit_id: false,
        rect: [0.0, 0.0, 256.0, 256.0],
        line,
        rotation: Some(lined(2, line + 1)),
        anchor: None,
        ground: Some(lined([40.0, 200.0], line + 2)),
        crop_poly: None,
        stop_pts: Vec::new(),
        pivot_lead: None,
        pivot_trail: None,
        annotations: objects(line + 3),
    };
    Asset {
        kind: Kind::Agp,
        common: Common {
            texture: Some(lined("plaza.png".into(), 4)),
            texture_scale: Some(lined([256.0, 256.0], 5)),
            texture_width: Some(lined(40.0, 6)),
            objects: vec![lined("fountain.obj".into(), 7), lined("lamp.obj".into(), 8)],
            facades: vec![lined("kiosk.fac".into(), 9)],
            ..Common::default()
        },
        tiles: vec![tile(0, 11), tile(1, 20)],
        block: None,
        string: None,
        meta: Vec::new(),
        unknown: Vec::new(),
    }
}

fn placed() -> Placement {
    place::place(
        &plaza(),
        "examples/plaza.agp",
        &Use::Point {
            at: [13.01, 47.51],
            heading: 30.0,
        },
        &Params::default(),
    )
    .expect("places")
}

#[test]
fn json_field_names_are_stable() {
    let p = placed();
    let v: serde_json::Value =
        serde_json::from_slice(&out::render_one(&p, Format::Json).unwrap()).unwrap();
    // The shape (keys of every object, not the numbers) is the interface.
    fn shape(v: &serde_json::Value) -> serde_json::Value {
        match v {
            serde_json::Value::Object(m) => {
                serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
            }
            serde_json::Value::Array(a) => {
                serde_json::Value::Array(a.first().map(shape).into_iter().collect())
            }
            serde_json::Value::Number(_) => "number".into(),
            serde_json::Value::String(_) => "string".into(),
            serde_json::Value::Bool(_) => "bool".into(),
            serde_json::Value::Null => "null".into(),
        }
    }
    insta::assert_json_snapshot!("json_shape", shape(&v));
    let t = &v["tiles"][0];
    for key in [
        "id",
        "polygon",
        "lonlat",
        "uv",
        "order",
        "hidden",
        "role",
        "unit",
        "source_line",
        "stop_points",
    ] {
        assert!(t.get(key).is_some(), "tile.{key}");
    }
    assert_eq!(v["tiles"][0]["role"], "point");
    assert_eq!(v["objects"][0]["mode"], "draped");
    // render_all is always an array.
    let arr: serde_json::Value =
        serde_json::from_slice(&out::render_all(&[p.clone(), p], Format::Json).unwrap()).unwrap();
    assert_eq!(arr.as_array().map(Vec::len), Some(2));
}

#[test]
fn geojson_reads_back() {
    let p = placed();
    let bytes = out::render_one(&p, Format::Geojson).unwrap();
    let gj: geojson::GeoJson = std::str::from_utf8(&bytes).unwrap().parse().unwrap();
    let geojson::GeoJson::FeatureCollection(fc) = gj else {
        panic!("not a FeatureCollection")
    };
    let kinds: Vec<String> = fc
        .features
        .iter()
        .map(|f| {
            f.properties.as_ref().unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let count = |k: &str| kinds.iter().filter(|x| *x == k).count();
    assert_eq!(count("tile"), p.tiles.len());
    assert_eq!(count("object"), p.objects.len());
    assert_eq!(count("facade"), p.facades.len());
    assert_eq!(count("tree"), p.trees.len());
    assert_eq!(count("use"), 1);
    // The object's point is its lon/lat, to 7 decimals.
    let f = fc
        .features
        .iter()
        .find(|f| f.properties.as_ref().unwrap()["kind"] == "object")
        .unwrap();
    let geojson::GeometryValue::Point { coordinates } = &f.geometry.as_ref().unwrap().value else {
        panic!("object is not a point")
    };
    let seven = |v: f64| (v * 1e7).round() / 1e7;
    assert_eq!(
        coordinates.as_slice(),
        &[seven(p.objects[0].lon), seven(p.objects[0].lat)]
    );
    // Tile rings are closed.
    let t = fc
        .features
        .iter()
        .find(|f| f.properties.as_ref().unwrap()["kind"] == "tile")
        .unwrap();
    let geojson::GeometryValue::Polygon { coordinates } = &t.geometry.as_ref().unwrap().value
    else {
        panic!("tile is not a polygon")
    };
    assert_eq!(coordinates[0].first(), coordinates[0].last());
    assert_eq!(coordinates[0].len(), 5);
}

#[test]
fn dsf_text_has_header_defs_and_objects() {
    let p = placed();
    let text = String::from_utf8(out::render_one(&p, Format::DsfText).unwrap()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "A");
    assert!(lines[1].starts_with("800"));
    assert_eq!(lines[2], "DSF2TEXT");
    for want in [
        "PROPERTY sim/overlay 1",
        "PROPERTY sim/west 13",
        "PROPERTY sim/east 14",
        "PROPERTY sim/south 47",
        "PROPERTY sim/north 48",
        "OBJECT_DEF fountain.obj",
        "POLYGON_DEF kiosk.fac",
        "BEGIN_POLYGON 0 6 2",
    ] {
        assert!(lines.contains(&want), "missing {want}\n{text}");
    }
    // The fountain is at the tile centre = the DSF point (no anchor) with
    // DSFTool's number formats; ROTATION 2 in the default (WorldEditor)
    // frame turns texture up to the DSF heading + 180.
    let o = &p.objects[0];
    let line = format!("OBJECT 0 {:.9} {:.9} {:.3}", o.lon, o.lat, o.heading);
    assert_eq!(line, "OBJECT 0 13.010000000 47.510000000 210.000");
    assert!(lines.contains(&line.as_str()));
    // The west/east/north/south properties come after every other property.
    let last_other = lines
        .iter()
        .rposition(|l| {
            l.starts_with("PROPERTY sim/overlay") || l.starts_with("PROPERTY sim/creation")
        })
        .unwrap();
    let first_bound = lines
        .iter()
        .position(|l| l.starts_with("PROPERTY sim/west"))
        .unwrap();
    assert!(last_other < first_bound);
    let wind = lines
        .iter()
        .filter(|l| l.starts_with("POLYGON_POINT"))
        .count();
    assert_eq!(wind, 4);
}

#[test]
fn svg_snapshot() {
    let svg = String::from_utf8(out::render_one(&placed(), Format::Svg).unwrap()).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("id=\"north\"") && svg.contains("id=\"scale\""));
    insta::assert_snapshot!("plaza_svg", svg);
}

#[test]
fn png_is_a_png_of_the_svg_size() {
    let bytes = out::render_one(&placed(), Format::Png).unwrap();
    if let Some(dump) = std::env::var_os("AGKIT_DUMP_PNG") {
        std::fs::write(dump, &bytes).unwrap();
    }
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let svg = String::from_utf8(out::render_one(&placed(), Format::Svg).unwrap()).unwrap();
    assert!(
        svg.contains(&format!("width=\"{w}\" height=\"{h}\"")),
        "{w}x{h}"
    );
}

#[test]
fn format_from_extension() {
    use std::path::Path;
    assert_eq!(Format::from_path(Path::new("a.SVG")), Some(Format::Svg));
    assert_eq!(
        Format::from_path(Path::new("a.geojson")),
        Some(Format::Geojson)
    );
    assert_eq!(Format::from_path(Path::new("a.txt")), Some(Format::DsfText));
    assert_eq!(Format::from_path(Path::new("a.png")), Some(Format::Png));
    assert_eq!(Format::from_path(Path::new("a.json")), Some(Format::Json));
    assert_eq!(Format::from_path(Path::new("a.dsf")), None);
}

#[test]
fn combined_picture_of_two_origins() {
    let a = placed();
    let b = place::place(
        &plaza(),
        "b.agp",
        &Use::Point {
            at: [13.001, 47.5005],
            heading: 0.0,
        },
        &Params::default(),
    )
    .unwrap();
    let svg = String::from_utf8(out::render_all(&[a, b], Format::Svg).unwrap()).unwrap();
    assert!(svg.contains("DSF tile +47+013: 2 autogen uses"));
    assert!(svg.contains("assets: examples/plaza.agp, b.agp"));
    // Both DSF points are drawn (a ⊕ in a close-up, a ring at small
    // scale).
    let points = &svg[svg.find("<g id=\"points\"").unwrap()..];
    let dsf_points = points[..points.find("</g>").unwrap()]
        .split("<circle ")
        .skip(1)
        .filter(|c| c[..c.find('>').unwrap()].contains(r##"stroke="#111111""##))
        .count();
    assert_eq!(dsf_points, 2);
}

#[test]
fn polygons_are_read_from_geojson() {
    use agkit::out::geojson::read_polygons;
    let poly = r#"{"type":"Polygon","coordinates":[[[13,47],[13.001,47],[13.001,47.001],[13,47]],[[13.0002,47.0002],[13.0003,47.0002],[13.0003,47.0003]]]}"#;
    let p = read_polygons(poly).unwrap();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].len(), 2, "outer ring and a second winding");
    assert_eq!(p[0][0][1], [13.001, 47.0]);
    let fc = format!(
        r#"{{"type":"FeatureCollection","features":[{{"type":"Feature","properties":{{}},"geometry":{poly}}},
        {{"type":"Feature","properties":null,"geometry":{{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1]]],[[[2,2],[3,2],[3,3]]]]}}}}]}}"#
    );
    let p = read_polygons(&fc).unwrap();
    assert_eq!(p.len(), 3, "one use per polygon");
    let e = read_polygons(r#"{"type":"Point","coordinates":[1,2]}"#).unwrap_err();
    assert!(e.contains("Point"), "{e}");
    assert!(read_polygons("{").is_err());
}

#[test]
fn outputs_are_deterministic_for_a_seed() {
    let at = Use::Point {
        at: [13.01, 47.51],
        heading: 30.0,
    };
    let run = |seed| {
        let params = Params {
            seed,
            density: 2,
            ..Params::default()
        };
        let p = place::place(&plaza(), "p.agp", &at, &params).unwrap();
        (
            out::render_one(&p, Format::Json).unwrap(),
            out::render_one(&p, Format::Svg).unwrap(),
        )
    };
    for seed in [0, 1, 7, u64::MAX] {
        assert_eq!(run(seed), run(seed), "seed {seed}");
    }
    // Tile pick, thinning and tree-line headings vary with the seed.
    let distinct: std::collections::BTreeSet<Vec<u8>> = (0..8).map(|s| run(s).0).collect();
    assert!(distinct.len() > 1);
}

#[test]
fn dsf_text_builds_into_a_dsf_and_reads_back() {
    let p = placed();
    let text = String::from_utf8(out::render_one(&p, Format::DsfText).unwrap()).unwrap();
    let (dsf, opts) = agkit::dsf::from_text(&text, &mut |f| Err(format!("no raster {f}")))
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let bytes = agkit::dsf::build(&dsf, &opts).expect("builds");
    let back = agkit::dsf::read(&bytes).expect("reads back");
    assert_eq!(back.object_defs, vec!["fountain.obj", "lamp.obj"]);
    assert_eq!(back.polygon_defs, vec!["kiosk.fac"]);
    assert_eq!(back.objects().count(), p.objects.len());
    assert_eq!(back.polygons().count(), p.facades.len());
    assert_eq!(back.property("sim/west"), Some("13"));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn every_output_renders_and_reads_back(lat in -70.0f64..70.0, lon in -170.0f64..170.0,
                                               heading in 0.0f64..360.0, seed in 0u64..1000,
                                               density in 1u8..=6) {
            let params = Params { seed, density, ..Params::default() };
            let p = place::place(&plaza(), "p.agp", &Use::Point { at: [lon, lat], heading }, &params)
                .unwrap();
            let gj = out::render_one(&p, Format::Geojson).unwrap();
            let gj: geojson::GeoJson = std::str::from_utf8(&gj).unwrap().parse().unwrap();
            let geojson::GeoJson::FeatureCollection(fc) = gj else { panic!() };
            prop_assert_eq!(fc.features.len(),
                            p.tiles.len() + p.objects.len() + p.facades.len() + p.trees.len() + 1);
            let json = out::render_one(&p, Format::Json).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
            prop_assert_eq!(v["objects"].as_array().unwrap().len(), p.objects.len());
            let png = out::render_one(&p, Format::Png).unwrap();
            prop_assert_eq!(&png[..4], b"\x89PNG");
            let text = String::from_utf8(out::render_one(&p, Format::DsfText).unwrap()).unwrap();
            let (dsf, _) = agkit::dsf::from_text(&text, &mut |f| Err(f.to_string())).unwrap();
            prop_assert!(dsf.objects().count() <= p.objects.len());
        }
    }
}

use proptest::prelude::*;

proptest! {
    /// Every heading DSF2Text writes reads back in `0 ≤ h < 360` and within
    /// half a thousandth of a degree of the heading (around the circle):
    /// 359.9996 was written `360.000`.
    #[test]
    fn dsf_text_headings_are_below_360_and_round_to_the_thousandth(
        h in prop_oneof![
            -1e6f64..1e6,
            359.999f64..360.0,
            -0.001f64..0.001,
            (-3i32..4).prop_map(|k| f64::from(k) * 360.0 - 0.0004),
        ]
    ) {
        let text = out::dsf_text::heading(h);
        let back: f64 = text.parse().unwrap();
        prop_assert!((0.0..360.0).contains(&back), "{h} → {text}");
        prop_assert!(!text.starts_with('-'), "{h} → {text}");
        let off = (back - h).rem_euclid(360.0);
        let off = off.min(360.0 - off);
        prop_assert!(off <= 0.0005 + 1e-9 * h.abs(), "{h} → {text}, {off} off");
    }
}

#[test]
fn a_placed_heading_of_almost_360_is_written_0() {
    let mut p = placed();
    let o = p.objects[0].clone();
    p.objects = vec![agkit::place::PlacedObject {
        heading: 359.9996,
        ..o
    }];
    let text = out::dsf_text::to_dsf_text(&[p]);
    let line = text.lines().find(|l| l.starts_with("OBJECT ")).unwrap();
    assert!(line.ends_with(" 0.000"), "{line}");
}

// ------------------------------------------------------------ GIS layers ----
//
// The GIS files written here are kept in `<target>/tmp/gis-out/`, where
// `.ci/run` has GDAL check them (`e2e/gis_check.py`: one geometry type per
// layer, conversions to GeoPackage, FlatGeobuf and Shapefile without a
// warning, fields kept).

/// Where the GIS files written are kept for GDAL.
fn gis_out() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gis-out");
    std::fs::create_dir_all(&d).unwrap();
    d
}

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The village fixture placed with its art (footprints, a facade, trees).
fn village() -> Placement {
    use agkit::check::asset::AssetFile;
    use agkit::scenery::Scenery;
    use agkit::scenery::resolve::{Conditions, Tile};
    let path = Path::new(ROOT).join("tests/fixtures/placeart/village.agp");
    let file = AssetFile::read(&path);
    let asset = file.asset.as_ref().expect("the fixture reads");
    let at = [13.0, 47.0];
    let scenery = Scenery::without_libraries(Conditions::default());
    let params = Params {
        art: Some(scenery.asset_art(&path, asset, Some(Tile::of(at[0], at[1])))),
        ..Params::default()
    };
    let u = Use::Point { at, heading: 20.0 };
    place::place(asset, "village.agp", &u, &params).expect("places")
}

/// The features of a GeoJSON text, as JSON values.
fn features_of(bytes: &[u8]) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    v["features"].as_array().unwrap().clone()
}

/// Asserts the schema of every feature: a known layer, its geometry type,
/// every field present with its type (or null), and no other property;
/// `item_id` unique.
fn assert_layered(features: &[serde_json::Value]) {
    let mut ids = std::collections::HashSet::new();
    for f in features {
        let props = f["properties"].as_object().unwrap();
        let name = props["layer"].as_str().unwrap();
        let layer = LAYERS.iter().find(|l| l.name == name).unwrap();
        let want = match layer.geometry {
            GeomType::Point => "Point",
            GeomType::LineString => "LineString",
            GeomType::Polygon => "Polygon",
        };
        assert_eq!(f["geometry"]["type"], want, "{name}");
        assert_eq!(props.len(), layer.fields.len(), "{name}: {props:?}");
        for field in layer.fields {
            let v = &props[field.name];
            let ok = v.is_null()
                || match field.ty {
                    FieldType::Integer => v.is_i64() || v.is_u64(),
                    FieldType::Real => v.is_number(),
                    FieldType::Text => v.is_string(),
                    FieldType::Boolean => v.is_boolean(),
                };
            assert!(ok, "{name}.{}: {v}", field.name);
        }
        assert!(ids.insert(props["item_id"].as_str().unwrap().to_string()));
    }
}

/// Twice the signed area of a GeoJSON ring (positive: counter-clockwise).
fn ring_area2(ring: &serde_json::Value) -> f64 {
    let pts: Vec<[f64; 2]> = serde_json::from_value(ring.clone()).unwrap();
    pts.windows(2)
        .map(|w| w[0][0] * w[1][1] - w[1][0] * w[0][1])
        .sum()
}

#[test]
fn gis_geojson_is_layered_flat_and_typed() {
    for (name, p) in [("plaza", placed()), ("village", village())] {
        let bytes = out::render_one(&p, Format::Geojson).unwrap();
        std::fs::write(gis_out().join(format!("{name}.geojson")), &bytes).unwrap();
        let fs = features_of(&bytes);
        assert_eq!(fs.len(), p.items() + 1, "one feature per item and the use");
        assert_layered(&fs);
        // Pairs are two numbers; the tile id one type.
        let tile = fs
            .iter()
            .find(|f| f["properties"]["kind"] == "tile")
            .unwrap();
        assert!(tile["properties"]["ground_x"].is_f64());
        assert!(tile["properties"]["tile_id"].is_i64());
        assert_eq!(tile["properties"]["item_id"], "0/tile/0");
    }
    // The plaza's object with show levels [1, 3].
    let fs = features_of(&out::render_one(&placed(), Format::Geojson).unwrap());
    let shown = fs
        .iter()
        .filter(|f| f["properties"]["kind"] == "object")
        .find(|f| !f["properties"]["show_lo"].is_null())
        .unwrap();
    assert_eq!(shown["properties"]["show_lo"], 1);
    assert_eq!(shown["properties"]["show_hi"], 3);
}

/// Regression (issue 38): facade rings were written clockwise, against
/// RFC 7946's right-hand rule; every polygon's exterior ring now turns
/// counter-clockwise.
#[test]
fn gis_every_exterior_ring_turns_counter_clockwise() {
    for p in [placed(), village()] {
        let fs = features_of(&out::render_one(&p, Format::Geojson).unwrap());
        let polys: Vec<_> = fs
            .iter()
            .filter(|f| f["geometry"]["type"] == "Polygon")
            .collect();
        assert!(polys.iter().any(|f| f["properties"]["kind"] == "facade"));
        for f in polys {
            let ring = &f["geometry"]["coordinates"][0];
            assert!(ring_area2(ring) > 0.0, "{}", f["properties"]["item_id"]);
            let r = ring.as_array().unwrap();
            assert_eq!(r.first(), r.last());
        }
    }
}

#[test]
fn gis_geojson_is_compact_with_seven_decimals_unless_pretty() {
    let p = placed();
    let bytes = out::render_one(&p, Format::Geojson).unwrap();
    let text = std::str::from_utf8(&bytes).unwrap();
    assert_eq!(text.lines().count(), 1, "one line");
    // No number has more than 7 decimals.
    let mut longest = 0;
    for piece in text.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
        if let Some((_, dec)) = piece.split_once('.') {
            longest = longest.max(dec.len());
        }
    }
    assert!(longest <= 7, "{longest} decimals");
    let mut pretty = Vec::new();
    let opts = out::RenderOptions {
        indent: out::Indent::Pretty,
        ..out::RenderOptions::new(Format::Geojson)
    };
    out::render_to(&[p], &opts, &mut pretty).unwrap();
    assert!(pretty.iter().filter(|&&b| b == b'\n').count() > 20);
    let a: serde_json::Value = serde_json::from_slice(&pretty).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(a, b, "the same document");
}

#[test]
fn gis_geopackage_has_one_table_per_layer() {
    let p = village();
    let bytes = out::render_one(&p, Format::Gpkg).unwrap();
    let path = gis_out().join("village.gpkg");
    std::fs::write(&path, &bytes).unwrap();
    let db = rusqlite::Connection::open(&path).unwrap();
    let app: i64 = db
        .query_row("PRAGMA application_id", [], |r| r.get(0))
        .unwrap();
    assert_eq!(app, 0x4750_4B47, "GPKG");
    let fs = features_of(&out::render_one(&p, Format::Geojson).unwrap());
    for l in &LAYERS {
        let (ty, srs): (String, i64) = db
            .query_row(
                "SELECT geometry_type_name, srs_id FROM gpkg_geometry_columns WHERE table_name = ?1",
                [l.name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((ty.as_str(), srs), (l.geometry.name(), 4326));
        let n: i64 = db
            .query_row(&format!("SELECT count(*) FROM \"{}\"", l.name), [], |r| {
                r.get(0)
            })
            .unwrap();
        let in_geojson = fs
            .iter()
            .filter(|f| f["properties"]["layer"] == l.name)
            .count();
        assert_eq!(n as usize, in_geojson, "{}", l.name);
    }
    // A geometry: the GeoPackage header (GP, version 0, little-endian with
    // an envelope, SRS 4326), then WKB (little-endian Polygon).
    let blob: Vec<u8> = db
        .query_row("SELECT geom FROM tiles LIMIT 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(&blob[..4], b"GP\x00\x03");
    assert_eq!(i32::from_le_bytes(blob[4..8].try_into().unwrap()), 4326);
    assert_eq!(&blob[40..45], &[1, 3, 0, 0, 0]);
    // Values keep their types: the tile's hidden flag, its ground point.
    let (hidden, gx): (bool, f64) = db
        .query_row("SELECT hidden, ground_x FROM tiles LIMIT 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert!(!hidden);
    assert!(gx.is_finite());
}

/// `place --dsf` on the demo tile (all three engines: AGP, AGB grid tiles,
/// AGS with a fence) as GeoJSON and GeoPackage, streamed and not.
#[test]
fn gis_demo_tile_in_every_gis_format() {
    let demo = Path::new(ROOT).join("examples/dsf/autogen_demo.dsf");
    let examples = Path::new(ROOT).join("examples");
    for file in ["demo.geojson", "demo.gpkg"] {
        let o = gis_out().join(file);
        let _ = std::fs::remove_file(&o);
        assert_cmd::Command::cargo_bin("agkit")
            .unwrap()
            .args(["place", "--dsf"])
            .arg(&demo)
            .arg("--scenery")
            .arg(&examples)
            .arg("-o")
            .arg(&o)
            .assert()
            .success();
        assert!(o.metadata().unwrap().len() > 0);
    }
    let fs = features_of(&std::fs::read(gis_out().join("demo.geojson")).unwrap());
    assert_layered(&fs);
    let layers: std::collections::BTreeSet<&str> = fs
        .iter()
        .map(|f| f["properties"]["layer"].as_str().unwrap())
        .collect();
    for l in ["use_points", "uses", "tiles", "objects", "fences", "trees"] {
        assert!(layers.contains(l), "{l} in {layers:?}");
    }
    // AGB grid tiles: column and row, no id; AGP tiles: an id.
    let grid = fs
        .iter()
        .find(|f| !f["properties"]["grid_col"].is_null())
        .unwrap();
    assert!(grid["properties"]["tile_id"].is_null());
    // The streamed GeoPackage (a folder of tiles) has what the single one
    // has.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&demo, dir.path().join("a.dsf")).unwrap();
    let o = gis_out().join("demo_folder.gpkg");
    let _ = std::fs::remove_file(&o);
    assert_cmd::Command::cargo_bin("agkit")
        .unwrap()
        .args(["place", "--dsf"])
        .arg(dir.path())
        .arg("--scenery")
        .arg(&examples)
        .arg("-o")
        .arg(&o)
        .assert()
        .success();
    let count = |p: &Path| -> usize {
        let db = rusqlite::Connection::open(p).unwrap();
        LAYERS
            .iter()
            .map(|l| {
                db.query_row(&format!("SELECT count(*) FROM \"{}\"", l.name), [], |r| {
                    r.get::<_, i64>(0)
                })
                .unwrap() as usize
            })
            .sum()
    };
    assert_eq!(count(&o), fs.len());
    assert_eq!(count(&gis_out().join("demo.gpkg")), fs.len());
}

/// The AGN GeoJSON view: flat properties, degenerate records marked.
#[test]
fn gis_agn_view_is_flat() {
    use agkit::agn::{self, cell::Cell};
    let name = "001332223121112an.agn";
    let bytes = std::fs::read(Path::new(ROOT).join("examples/agn").join(name)).unwrap();
    let m = agn::read::read(&bytes).unwrap();
    let text = agn::geojson::to_geojson_string(&m, Cell::from_name(name).unwrap());
    std::fs::write(gis_out().join("agn_view.geojson"), &text).unwrap();
    let fs = features_of(text.as_bytes());
    assert!(!fs.is_empty());
    for f in &fs {
        let p = f["properties"].as_object().unwrap();
        assert!(p.values().all(|v| !v.is_array() && !v.is_object()), "{p:?}");
        assert!(p["chunk"].is_u64() && p["local"].is_string());
        assert!(p["degenerate"].is_boolean());
    }
}
