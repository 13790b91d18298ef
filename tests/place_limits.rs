//! Issue 18: hostile and extreme input to placement stays bounded.
//!
//! Every reproducer of the issue, through the library and the CLI: assets
//! with values no real scenery has are refused by `check` and by `place`
//! with the same diagnostic (`AG0080`…`AG0084`); polygons off the Earth,
//! wider than `--max-extent` or in a file that does not parse are exit 1
//! naming the file and the feature; what a placement places and tries is
//! bounded by `Params::limits`, and passing a limit is an error, never a
//! truncated result; several polygons are streamed.

use agkit::geom::{LocalFrame, LonLat, Xy};
use agkit::limits::Limits;
use agkit::place::{self, Params, PlaceError, Use};
use agkit::xp::model::Asset;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ORIGIN: LonLat = [13.0, 47.5];

fn example(rel: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(rel),
    )
    .unwrap()
}

/// `text` with its line starting `from` replaced by `to`.
fn with(text: &str, from: &str, to: &str) -> String {
    let mut hit = false;
    let out: Vec<&str> = text
        .lines()
        .map(|l| {
            if !hit && l.starts_with(from) {
                hit = true;
                to
            } else {
                l
            }
        })
        .collect();
    assert!(hit, "no line starts with {from}");
    out.join("\n") + "\n"
}

/// Windings in local metres around [`ORIGIN`] as a polygon use.
fn polygon(windings: &[Vec<Xy>]) -> Use {
    let frame = LocalFrame::new(ORIGIN);
    Use::Polygon {
        windings: windings
            .iter()
            .map(|w| w.iter().map(|&p| frame.to_lonlat(p)).collect())
            .collect(),
    }
}

fn square(side: f64) -> Vec<Xy> {
    vec![[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]]
}

/// The 120 m square of the previewer with a 20 m hole: four corners that
/// `town_edge.ags`'s single-tile CORNER rule takes.
fn square_with_hole() -> Vec<Vec<Xy>> {
    vec![
        square(120.0),
        vec![[40.0, 40.0], [40.0, 60.0], [60.0, 60.0], [60.0, 40.0]],
    ]
}

/// The previewer's lake: a wobbly ellipse with an island (no corners).
fn lake() -> Vec<Vec<Xy>> {
    let ellipse = |cx: f64, cy: f64, rx: f64, ry: f64, n: usize, wobble: f64, ccw: bool| {
        (0..n)
            .map(|i| {
                let k = if ccw { i } else { n - i };
                let a = std::f64::consts::TAU * k as f64 / n as f64;
                let r = 1.0 + wobble * (3.0 * a).sin();
                [cx + rx * r * a.cos(), cy + ry * r * a.sin()]
            })
            .collect::<Vec<Xy>>()
    };
    vec![
        ellipse(0.0, 0.0, 160.0, 100.0, 28, 0.12, true),
        ellipse(25.0, 10.0, 40.0, 25.0, 10, 0.0, false),
    ]
}

/// The asset variants of the issue: (file name, text, the code `check`
/// and `place` give).
fn absurd_assets() -> Vec<(&'static str, String, &'static str)> {
    let town = example("string/town_edge.ags");
    let fence = example("string/garden_fence.ags");
    let block = example("block/city_block.agb");
    let plaza = example("point/plaza.agp");
    vec![
        (
            "scale_0.0001.ags",
            with(&town, "TEXTURE_SCALE", "TEXTURE_SCALE 0.0001 1024"),
            "AG0080",
        ),
        (
            "scale_2.9e-7.ags",
            with(&town, "TEXTURE_SCALE", "TEXTURE_SCALE 2.9e-07 1024"),
            "AG0080",
        ),
        (
            "scale_1e9.ags",
            with(&town, "TEXTURE_SCALE", "TEXTURE_SCALE 1e9 1024"),
            "AG0080",
        ),
        (
            "width_0.0001.ags",
            with(&town, "TEXTURE_WIDTH", "TEXTURE_WIDTH 0.0001"),
            "AG0081",
        ),
        (
            "width_1e9.ags",
            with(&town, "TEXTURE_WIDTH", "TEXTURE_WIDTH 1e9"),
            "AG0081",
        ),
        (
            "tile_1e10.ags",
            with(&town, "TILE 1024 0 1536 512", "TILE 1024 0 1e10 512"),
            "AG0084",
        ),
        (
            "fence_width_0.0001.ags",
            with(&fence, "TEXTURE_WIDTH", "TEXTURE_WIDTH 0.0001"),
            "AG0081",
        ),
        (
            "fence_width_1e9.ags",
            with(&fence, "TEXTURE_WIDTH", "TEXTURE_WIDTH 1e9"),
            "AG0081",
        ),
        (
            "fence_scale_0.0001.ags",
            with(&fence, "TEXTURE_SCALE", "TEXTURE_SCALE 0.0001 512"),
            "AG0080",
        ),
        (
            "fence_tiny_tiles.ags",
            with(&fence, "TEXTURE_SCALE", "TEXTURE_SCALE 1048576 1048576"),
            "AG0083",
        ),
        (
            "fence_tiny_pixels.ags",
            with(
                &with(&fence, "TEXTURE_SCALE", "TEXTURE_SCALE 1048576 1048576"),
                "TEXTURE_WIDTH",
                "TEXTURE_WIDTH 10",
            ),
            "AG0082",
        ),
        (
            "block_width_1e9.agb",
            with(&block, "TEXTURE_WIDTH", "TEXTURE_WIDTH 1e9"),
            "AG0081",
        ),
        (
            "plaza_scale_0.0001.agp",
            with(&plaza, "TEXTURE_SCALE", "TEXTURE_SCALE 0.0001 1024"),
            "AG0080",
        ),
    ]
}

/// Where each kind is placed in the library tests.
fn use_for(a: &Asset) -> Use {
    match a.kind {
        agkit::xp::model::Kind::Agp => Use::Point {
            at: ORIGIN,
            heading: 30.0,
        },
        agkit::xp::model::Kind::Agb => polygon(&[square(60.0)]),
        agkit::xp::model::Kind::Ags => polygon(&square_with_hole()),
    }
}

#[test]
fn place_refuses_every_absurd_asset_with_the_diagnostic_check_gives() {
    for (name, text, code) in absurd_assets() {
        let (asset, diags) = agkit::xp::parse_lenient(&text);
        let first = diags
            .iter()
            .find(|d| d.is_error())
            .unwrap_or_else(|| panic!("{name}: check finds nothing"));
        assert_eq!(first.code, code, "{name}: {}", first.message);
        // The model as read (a program may build one without checking it).
        let asset = asset.unwrap();
        let e = place::place(&asset, name, &use_for(&asset), &Params::default()).unwrap_err();
        let PlaceError::Absurd(absurd) = &e else {
            panic!("{name}: {e:?}")
        };
        // The rule's code and message as data, and in the text as before.
        assert_eq!((absurd.code, e.code()), (code, Some(code)), "{name}");
        assert_eq!(absurd.message, first.message, "{name}");
        let msg = e.to_string();
        assert!(
            msg.starts_with("asset cannot be placed: line ")
                && msg.contains(&first.message)
                && msg.ends_with(&format!(" [{code}]")),
            "{name}: {msg} vs {}",
            first.message
        );
    }
}

fn town() -> Asset {
    agkit::xp::parse(&example("string/town_edge.ags")).unwrap()
}

fn limited(max_placed_items: usize, max_work: u64) -> Params {
    Params {
        limits: Limits {
            max_placed_items,
            max_work,
            ..Limits::default()
        },
        ..Params::default()
    }
}

/// The limit a placement failed on.
fn limit_of(r: Result<place::Placement, PlaceError>) -> agkit::limits::LimitExceeded {
    match r {
        Err(PlaceError::Limit(l)) => l,
        other => panic!("expected a limit, got {other:?}"),
    }
}

#[test]
fn items_past_the_limit_fail_naming_what_was_counted() {
    let lake = polygon(&lake());
    let full = place::place(&town(), "t.ags", &lake, &Params::default()).unwrap();
    let n = full.items();
    assert!(n > 100, "{n}");
    // Exactly enough: the same placement.
    let same = place::place(&town(), "t.ags", &lake, &limited(n, u64::MAX)).unwrap();
    assert_eq!(same, full);
    // One fewer: an error, not a shorter placement.
    let l = limit_of(place::place(
        &town(),
        "t.ags",
        &lake,
        &limited(n - 1, u64::MAX),
    ));
    assert!(
        l.what.contains("tiles, objects, facades and trees"),
        "{l:?}"
    );
    assert_eq!((l.needed, l.limit), (n as u64, n as u64 - 1));

    // The block and point engines count the same way.
    let block = agkit::xp::parse(&example("block/city_block.agb")).unwrap();
    let quad = polygon(&[vec![[0.0, 0.0], [60.0, 0.0], [60.0, 40.0], [0.0, 40.0]]]);
    let n = place::place(&block, "b.agb", &quad, &Params::default())
        .unwrap()
        .items();
    assert!(place::place(&block, "b.agb", &quad, &limited(n, u64::MAX)).is_ok());
    limit_of(place::place(
        &block,
        "b.agb",
        &quad,
        &limited(n - 1, u64::MAX),
    ));
    let plaza = agkit::xp::parse(&example("point/plaza.agp")).unwrap();
    let at = Use::Point {
        at: ORIGIN,
        heading: 0.0,
    };
    let n = place::place(&plaza, "p.agp", &at, &Params::default())
        .unwrap()
        .items();
    assert!(n > 1);
    limit_of(place::place(
        &plaza,
        "p.agp",
        &at,
        &limited(n - 1, u64::MAX),
    ));
}

#[test]
fn work_past_the_limit_fails_and_enough_work_gives_the_same_placement() {
    let lake = polygon(&lake());
    let full = place::place(&town(), "t.ags", &lake, &Params::default()).unwrap();
    let l = limit_of(place::place(
        &town(),
        "t.ags",
        &lake,
        &limited(usize::MAX, 200),
    ));
    assert!(l.what.contains("work"), "{l:?}");
    assert_eq!(l.limit, 200);
    // A limit the run stays under changes nothing.
    let p = place::place(&town(), "t.ags", &lake, &limited(usize::MAX, 1_000_000)).unwrap();
    assert_eq!(p, full);
    let block = agkit::xp::parse(&example("block/city_block.agb")).unwrap();
    let quad = polygon(&[square(60.0)]);
    limit_of(place::place(
        &block,
        "b.agb",
        &quad,
        &limited(usize::MAX, 3),
    ));
}

#[test]
fn sides_needing_more_edge_tiles_than_the_limit_are_refused_before_placing() {
    // garden_fence.ags: 16 m tiles; a 9 km ring of sides needs ~560.
    let fence = agkit::xp::parse(&example("string/garden_fence.ags")).unwrap();
    let big = polygon(&[square(2250.0)]);
    let l = limit_of(place::place(&fence, "f.ags", &big, &limited(100, u64::MAX)));
    assert!(l.what.contains("edge tiles along 9000 m"), "{l:?}");
    assert_eq!((l.needed, l.limit), (562, 100));
    // Its tiles and their fence facades fit a roomier limit.
    assert!(place::place(&fence, "f.ags", &big, &limited(5000, u64::MAX)).is_ok());
}

#[test]
fn wide_tiles_refused_everywhere_slide_in_a_bounded_number_of_steps() {
    // 5 km tiles whose stop point is always outside the polygon: every
    // position of every slide is refused. On each side of the 9 km square
    // one tile slides through 4 km: at the old 2 m step that was 2,000
    // positions a side, 8,000 in all; now the step is 5000 / 256 m, about
    // 205 positions a side, 820 in all (each costs its 5 points and one
    // check refused at the stop point: 6 units).
    let text = "A\n1000\nAG_STRING\nTEXTURE t.png\nTEXTURE_SCALE 512 512\nTEXTURE_WIDTH 10000\n\
                HIDE_TILE\nTILE 0 0 256 32\nSTOP_PT -2000 -2000\nSPELLING 0\nCAPS 0\n";
    let asset = agkit::xp::parse(text).unwrap();
    let big = polygon(&[square(9_000.0)]);
    let p = place::place(&asset, "wide.ags", &big, &limited(usize::MAX, 10_000)).unwrap();
    assert!(p.tiles.is_empty());
    assert!(
        p.warnings
            .iter()
            .any(|w| w.message().contains("tile 0 dropped")),
        "{:?}",
        p.warnings
    );
}

#[test]
fn polygons_wider_than_the_extent_limit_are_refused_before_any_engine() {
    let fence = agkit::xp::parse(&example("string/garden_fence.ags")).unwrap();
    let wide = polygon(&[square(12_000.0)]);
    let l = limit_of(place::place(&fence, "f.ags", &wide, &Params::default()));
    assert_eq!(l.what, "extent of the polygon in metres");
    assert_eq!((l.needed, l.limit), (12_000, 10_000));
    let roomy = Params {
        limits: Limits {
            max_extent_m: 13_000.0,
            ..Limits::default()
        },
        ..Params::default()
    };
    assert!(place::place(&fence, "f.ags", &wide, &roomy).is_ok());
}

// ------------------------------------------------------------------ CLI --

fn agkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Features in local metres around [`ORIGIN`], each `(id, windings)`, as a
/// GeoJSON FeatureCollection.
fn feature_collection(features: &[(serde_json::Value, Vec<Vec<Xy>>)]) -> String {
    let frame = LocalFrame::new(ORIGIN);
    let features: Vec<serde_json::Value> = features
        .iter()
        .map(|(id, windings)| {
            let rings: Vec<Vec<LonLat>> = windings
                .iter()
                .map(|w| {
                    let mut r: Vec<LonLat> = w.iter().map(|&p| frame.to_lonlat(p)).collect();
                    r.push(r[0]);
                    r
                })
                .collect();
            serde_json::json!({
                "type": "Feature", "id": id, "properties": {},
                "geometry": {"type": "Polygon", "coordinates": rings}
            })
        })
        .collect();
    serde_json::json!({"type": "FeatureCollection", "features": features}).to_string()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn every_absurd_asset_of_the_issue_exits_1_in_check_and_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let around = |name: &str| {
        let w = if name.ends_with(".agb") {
            vec![square(60.0)]
        } else {
            square_with_hole()
        };
        write(
            dir.path(),
            "square.geojson",
            &feature_collection(&[(0.into(), w)]),
        )
    };
    for (name, text, code) in absurd_assets() {
        let file = write(dir.path(), name, &text);
        let f = file.to_str().unwrap();
        let o = agkit(&["check", f]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(String::from_utf8_lossy(&o.stdout).contains(code), "{name}");
        let o = if name.ends_with(".agp") {
            agkit(&["place", f, "--at", "47.5,13.0"])
        } else {
            let poly = around(name);
            agkit(&["place", f, "--polygon", poly.to_str().unwrap()])
        };
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("error[{code}]")),
            "{name}: {}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn polygons_off_the_earth_exit_1_naming_the_file_and_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let town = write(dir.path(), "town.ags", &example("string/town_edge.ags"));
    let good = feature_collection(&[("a".into(), lake()), ("b".into(), lake())]);
    let mut doc: serde_json::Value = serde_json::from_str(&good).unwrap();
    for (lonlat, value, want) in [
        (0, 913.0, "longitude 913 is outside -180..180"),
        (0, 1914.0, "longitude 1914 is outside -180..180"),
        (1, 91.0, "latitude 91 is outside -90..90"),
    ] {
        let mut bad = doc.clone();
        bad["features"][1]["geometry"]["coordinates"][0][3][lonlat] = value.into();
        let poly = write(dir.path(), "bad.geojson", &bad.to_string());
        let o = agkit(&[
            "place",
            town.to_str().unwrap(),
            "--polygon",
            poly.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("bad.geojson: feature 1 (id \"b\"), ring 0, position 3: ")
                && err.contains(want),
            "{err}"
        );
        assert!(o.stdout.is_empty(), "nothing is placed");
    }
    // A MultiPolygon names its polygon.
    doc["features"][1]["geometry"] = serde_json::json!({
        "type": "MultiPolygon",
        "coordinates": [doc["features"][0]["geometry"]["coordinates"].clone(),
                        [[[13.0, 47.5], [13.001, 47.5], [13.0, 95.0], [13.0, 47.5]]]]
    });
    let poly = write(dir.path(), "multi.geojson", &doc.to_string());
    let o = agkit(&[
        "place",
        town.to_str().unwrap(),
        "--polygon",
        poly.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("feature 1 (id \"b\"), polygon 1, ring 0, position 2: latitude 95"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn every_bad_polygon_file_exits_1_and_a_missing_one_2() {
    let dir = tempfile::tempdir().unwrap();
    let town = write(dir.path(), "town.ags", &example("string/town_edge.ags"));
    let town = town.to_str().unwrap();
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "cut.geojson",
            b"{\"type\":\"FeatureCollection\",\"features\":[{\"type\":",
            "not GeoJSON",
        ),
        ("latin1.geojson", b"{\"type\":\"Point\xe9\"}", "not UTF-8"),
        (
            "point.geojson",
            br#"{"type":"Point","coordinates":[13,47]}"#,
            "found Point",
        ),
        (
            "empty.geojson",
            br#"{"type":"FeatureCollection","features":[]}"#,
            "no polygon",
        ),
    ];
    for (name, bytes, want) in cases {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = agkit(&["place", town, "--polygon", p.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(name) && stderr(&o).contains(want),
            "{}",
            stderr(&o)
        );
    }
    let missing = dir.path().join("missing.geojson");
    let o = agkit(&["place", town, "--polygon", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn max_extent_refuses_a_wide_polygon_and_widens_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let fence = write(dir.path(), "fence.ags", &example("string/garden_fence.ags"));
    let fence = fence.to_str().unwrap();
    let poly = write(
        dir.path(),
        "wide.geojson",
        &feature_collection(&[(7.into(), vec![square(12_000.0)])]),
    );
    let poly = poly.to_str().unwrap();
    let o = agkit(&["place", fence, "--polygon", poly]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("wide.geojson: feature 0 (id \"7\"): too large to place: extent"),
        "{}",
        stderr(&o)
    );
    let o = agkit(&[
        "place",
        fence,
        "--polygon",
        poly,
        "--max-extent",
        "13000",
        "--format",
        "geojson",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = agkit(&["place", fence, "--polygon", poly, "--max-extent", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn several_polygons_stream_one_placement_each_and_a_failure_keeps_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let town = write(dir.path(), "town.ags", &example("string/town_edge.ags"));
    let town = town.to_str().unwrap();
    let one = write(
        dir.path(),
        "one.geojson",
        &feature_collection(&[(0.into(), lake())]),
    );
    let three = write(
        dir.path(),
        "three.geojson",
        &feature_collection(&[(0.into(), lake()), (1.into(), lake()), (2.into(), lake())]),
    );
    let run = |poly: &Path, format: &str| {
        let o = agkit(&[
            "place",
            town,
            "--polygon",
            poly.to_str().unwrap(),
            "--format",
            format,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let single = run(&one, "json");
    let all = run(&three, "json");
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(|p| p == &single));
    let features = run(&three, "geojson");
    let placements: std::collections::BTreeSet<u64> = features["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["properties"]["placement"].as_u64().unwrap())
        .collect();
    assert_eq!(placements.into_iter().collect::<Vec<_>>(), vec![0, 1, 2]);

    // The middle polygon's hole lies outside its outer ring: the AGS
    // engine refuses it (a clockwise polygon is a GIS one, taken
    // reversed). The message names the asset and the polygon; `-o` keeps
    // what it held.
    let mut cw = lake();
    for p in &mut cw[1] {
        p[0] += 1000.0;
    }
    let bad = write(
        dir.path(),
        "bad.geojson",
        &feature_collection(&[(0.into(), lake()), ("cw".into(), cw), (2.into(), lake())]),
    );
    let out = write(dir.path(), "out.json", "kept\n");
    let o = agkit(&[
        "place",
        town,
        "--polygon",
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("town.ags: ")
            && stderr(&o).contains("bad.geojson feature 1 (id \"cw\"): invalid polygon"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept\n");
}

/// Each engine says what it placed: its kind was left empty (`"kind": ""`
/// in the JSON) when an engine was called without `place::place`.
#[test]
fn each_engine_gives_its_own_kind() {
    use agkit::place::PlacementKind;
    let params = Params::default();
    let parse = |rel: &str| agkit::xp::parse(&example(rel)).unwrap();
    let (agp, agb, ags) = (
        parse("point/plaza.agp"),
        parse("block/city_block.agb"),
        parse("string/town_edge.ags"),
    );
    for (asset, p) in [
        (&agp, place::point::place(&agp, 30.0, &params)),
        (&agb, place::block::place(&agb, &[square(60.0)], &params)),
        (
            &ags,
            place::string::place(&ags, &square_with_hole(), &params),
        ),
    ] {
        let p = p.unwrap();
        let kind = PlacementKind::from(asset.kind);
        assert_eq!(p.kind, kind);
        assert!(p.is_autogen_use() && p.items() > 0, "{kind}");
        let whole = place::place(asset, "a", &use_for(asset), &params).unwrap();
        assert_eq!(whole.kind, kind);
        assert_eq!(whole.kind.autogen(), Some(asset.kind));
    }
}
