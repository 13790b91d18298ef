//! Outputs of a placement: JSON field names (snapshot), GeoJSON that the
//! geojson crate reads back, DSF2Text lines, the SVG (snapshot) and PNG.

use agkit::out::{self, Format};
use agkit::place::{self, Params, Placement, Use};
use agkit::xp::model::*;

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
        serde_json::from_slice(&out::render(&p, Format::Json).unwrap()).unwrap();
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
    let bytes = out::render(&p, Format::Geojson).unwrap();
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
    // The object's point is its lon/lat.
    let f = fc
        .features
        .iter()
        .find(|f| f.properties.as_ref().unwrap()["kind"] == "object")
        .unwrap();
    let geojson::GeometryValue::Point { coordinates } = &f.geometry.as_ref().unwrap().value else {
        panic!("object is not a point")
    };
    assert_eq!(
        coordinates.as_slice(),
        &[p.objects[0].lon, p.objects[0].lat]
    );
    // Tile rings are closed.
    let t = fc.features.first().unwrap();
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
    let text = String::from_utf8(out::render(&p, Format::DsfText).unwrap()).unwrap();
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
    let svg = String::from_utf8(out::render(&placed(), Format::Svg).unwrap()).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("id=\"north\"") && svg.contains("id=\"scale\""));
    insta::assert_snapshot!("plaza_svg", svg);
}

#[test]
fn png_is_a_png_of_the_svg_size() {
    let bytes = out::render(&placed(), Format::Png).unwrap();
    if let Some(dump) = std::env::var_os("AGKIT_DUMP_PNG") {
        std::fs::write(dump, &bytes).unwrap();
    }
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    let svg = String::from_utf8(out::render(&placed(), Format::Svg).unwrap()).unwrap();
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
            out::render(&p, Format::Json).unwrap(),
            out::render(&p, Format::Svg).unwrap(),
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
    let text = String::from_utf8(out::render(&p, Format::DsfText).unwrap()).unwrap();
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
            let gj = out::render(&p, Format::Geojson).unwrap();
            let gj: geojson::GeoJson = std::str::from_utf8(&gj).unwrap().parse().unwrap();
            let geojson::GeoJson::FeatureCollection(fc) = gj else { panic!() };
            prop_assert_eq!(fc.features.len(),
                            p.tiles.len() + p.objects.len() + p.facades.len() + p.trees.len());
            let json = out::render(&p, Format::Json).unwrap();
            let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
            prop_assert_eq!(v["objects"].as_array().unwrap().len(), p.objects.len());
            let png = out::render(&p, Format::Png).unwrap();
            prop_assert_eq!(&png[..4], b"\x89PNG");
            let text = String::from_utf8(out::render(&p, Format::DsfText).unwrap()).unwrap();
            let (dsf, _) = agkit::dsf::from_text(&text, &mut |f| Err(f.to_string())).unwrap();
            prop_assert!(dsf.objects().count() <= p.objects.len());
        }
    }
}
