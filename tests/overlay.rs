//! `agkit overlay build`: GeoJSON + rules → DSF overlay tiles, read back
//! through agkit's own DSF reader.

use agkit::dsf::{self, Entity, autogen::AutogenKind, autogen_uses};
use agkit::overlay::{self, BuildOptions, Rules, TileId, orient};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const EXAMPLE_FEATURES: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gis/FEATURES.geojson");
const EXAMPLE_RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gis/RULES.toml");

/// Pool precision: the builder quantizes lon/lat to 16 bits over a
/// power-of-two range of at most a degree.
const TOL: f64 = 2e-5;

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    if !dir.exists() {
        return Vec::new();
    }
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    v.sort();
    v
}

fn example() -> overlay::Overlay {
    let rules = Rules::parse(&std::fs::read_to_string(EXAMPLE_RULES).unwrap()).unwrap();
    let features =
        overlay::read_features(&std::fs::read_to_string(EXAMPLE_FEATURES).unwrap()).unwrap();
    overlay::build_overlay(&features, &rules, &BuildOptions::default()).unwrap()
}

#[test]
fn every_placement_reads_back_from_the_written_dsf() {
    let mut built = example();
    let dir = tempfile::tempdir().unwrap();
    let written = overlay::write_overlay(&mut built, dir.path()).unwrap();
    assert_eq!(written.len(), built.tiles.len() + 1);
    assert_eq!(built.tiles.len(), 2, "the example straddles lon 13");
    let mut total = 0;
    for (tile, model) in &built.tiles {
        let path = dir.path().join(tile.relative_path());
        let back = dsf::read(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(back.md5, dsf::Md5Status::Valid);
        assert_eq!(back.properties, model.properties);
        assert_eq!(back.object_defs, model.object_defs);
        assert_eq!(back.polygon_defs, model.polygon_defs);
        let want = autogen_uses(model);
        let got = autogen_uses(&back);
        assert_eq!(want.len(), got.len());
        assert_eq!(want.len(), model.entities.len(), "every use is autogen");
        for (w, g) in want.iter().zip(&got) {
            assert_eq!(w.kind, g.kind);
            assert_eq!(w.asset, g.asset);
            assert_eq!(w.param, g.param);
            match w.kind {
                AutogenKind::Agp => {
                    let (a, b) = (w.point.unwrap(), g.point.unwrap());
                    assert!((a[0] - b[0]).abs() < TOL && (a[1] - b[1]).abs() < TOL);
                    assert!((w.heading.unwrap() - g.heading.unwrap()).abs() < 0.01);
                }
                _ => {
                    assert_eq!(w.windings.len(), g.windings.len());
                    for (ww, gw) in w.windings.iter().zip(&g.windings) {
                        assert_eq!(ww.len(), gw.len());
                        for (p, q) in ww.iter().zip(gw) {
                            assert!((p[0] - q[0]).abs() < TOL && (p[1] - q[1]).abs() < TOL);
                        }
                    }
                }
            }
            total += 1;
        }
        // The text form loads back identically too.
        let text = dsf::to_text(&back, &dsf::TextOptions::default());
        let again = dsf::from_text(&text, &mut |_| Err("no rasters".into()))
            .unwrap()
            .0;
        assert_eq!(autogen_uses(&again).len(), got.len());
    }
    assert_eq!(total, built.report.placed.values().sum::<usize>());
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("overlay-report.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(report["features"], 6);
    assert_eq!(report["used"], 5);
    assert_eq!(report["skipped"][0]["id"], "fields");
}

#[test]
fn properties_come_in_the_required_order() {
    let built = example();
    let west = &built.tiles[&TileId {
        south: 47,
        west: 13,
    }];
    let names: Vec<&str> = west.properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "sim/west",
            "sim/south",
            "sim/east",
            "sim/north",
            "sim/overlay",
            "sim/creation_agent",
            "sim/require_agpoint",
            "sim/require_object"
        ]
    );
    assert_eq!(west.property("sim/west"), Some("13"));
    assert_eq!(west.property("sim/north"), Some("48"));
    assert_eq!(
        west.property("sim/creation_agent"),
        Some(concat!("agkit ", env!("CARGO_PKG_VERSION")))
    );
    // Definitions follow the rules file's asset order.
    assert_eq!(
        west.polygon_defs,
        ["assets/city_block.agb", "assets/town_edge.ags"]
    );
}

const SQUARE_RULES: &str = r#"
[[rule]]
asset = "a/edge.ags"
where = { kind = "ags" }
[[rule]]
asset = "a/block.agb"
where = { kind = "agb" }
spelling = 2
[[rule]]
asset = "a/thing.agp"
where = { kind = "agp" }
"#;

fn square(kind: &str, w: f64, s: f64, e: f64, n: f64, height: f64) -> String {
    format!(
        r#"{{"type":"Feature","properties":{{"kind":"{kind}","height":{height}}},"geometry":{{"type":"Polygon","coordinates":[[[{w},{s}],[{e},{s}],[{e},{n}],[{w},{n}],[{w},{s}]]]}}}}"#
    )
}

fn collection(features: &[String]) -> String {
    format!(
        r#"{{"type":"FeatureCollection","features":[{}]}}"#,
        features.join(",")
    )
}

fn build(features: &[String]) -> overlay::Overlay {
    let rules = Rules::parse(SQUARE_RULES).unwrap();
    let f = overlay::read_features(&collection(features)).unwrap();
    overlay::build_overlay(&f, &rules, &BuildOptions::default()).unwrap()
}

fn uses_through_binary(d: &dsf::Dsf) -> Vec<dsf::autogen::AutogenUse> {
    let bytes = dsf::build(d, &dsf::BuildOptions::default()).unwrap();
    autogen_uses(&dsf::read(&bytes).unwrap())
}

#[test]
fn a_feature_straddling_lon_13_is_clipped_into_two_tiles() {
    let o = build(&[square("ags", 12.99, 47.1, 13.02, 47.12, 20.0)]);
    let tiles: Vec<TileId> = o.tiles.keys().copied().collect();
    assert_eq!(
        tiles,
        [
            TileId {
                south: 47,
                west: 12
            },
            TileId {
                south: 47,
                west: 13
            }
        ]
    );
    let mut areas = 0.0;
    for (tile, d) in &o.tiles {
        let uses = uses_through_binary(d);
        assert_eq!(uses.len(), 1);
        let u = &uses[0];
        // Height 20 m → 5 in the high byte; one spawning contour.
        assert_eq!(u.param, Some(5 << 8 | 1));
        assert_eq!(u.low, Some(1));
        let spawning = &u.windings[..1];
        let cut = &u.windings[1..];
        assert_eq!(cut.len(), 1, "the cut side is its own contour");
        for p in u.windings.iter().flatten() {
            assert!(tile.covers(*p), "{p:?} outside {tile}");
        }
        // The cut contour lies on lon 13 exactly; the spawning contour has
        // no edge on it.
        assert!(cut[0].iter().all(|p| p[0] == 13.0), "{cut:?}");
        for w in spawning {
            for e in w.windows(2) {
                assert!(
                    !(e[0][0] == 13.0 && e[1][0] == 13.0),
                    "spawning edge on the cut: {w:?}"
                );
            }
            // Open polyline: the three original sides → 4 points.
            assert_eq!(w.len(), 4);
        }
        // Spawning + cut contours close the piece.
        assert_eq!(spawning[0].last(), cut[0].first());
        assert_eq!(cut[0].last(), spawning[0].first());
        let mut ring: Vec<[f64; 2]> = spawning[0].clone();
        ring.extend_from_slice(&cut[0][1..cut[0].len() - 1]);
        assert!(orient::is_ccw(&ring), "CCW circulation");
        areas += orient::signed_area(&ring);
    }
    // Read back from 16-bit pools: within pool precision (~5e-7°).
    assert!((areas - 0.03 * 0.02).abs() < 1e-7, "{areas}");
}

#[test]
fn an_agb_cut_in_two_stays_two_quads_with_the_spelling() {
    let o = build(&[square("agb", 12.999, 47.1, 13.001, 47.101, 9.0)]);
    assert_eq!(o.tiles.len(), 2);
    for (tile, d) in &o.tiles {
        let u = &uses_through_binary(d)[0];
        assert_eq!(u.kind, AutogenKind::Agb);
        // round(9/4) = 2 → 2 << 8, spelling 2.
        assert_eq!(u.param, Some(2 << 8 | 2));
        assert_eq!(u.windings.len(), 1);
        assert_eq!(u.windings[0].len(), 4);
        assert!(orient::is_ccw(&u.windings[0]));
        assert!(u.windings[0].iter().all(|p| tile.covers(*p)));
        // The first edge still runs east like the feature's.
        let w = &u.windings[0];
        assert!(
            w[1][0] > w[0][0] && (w[1][1] - w[0][1]).abs() < 1e-9,
            "{w:?}"
        );
    }
}

#[test]
fn windings_are_oriented_outer_ccw_holes_cw() {
    // Given clockwise outer and counter-clockwise hole.
    let f = r#"{"type":"Feature","properties":{"kind":"ags"},"geometry":{"type":"Polygon","coordinates":[
        [[13.1,47.1],[13.1,47.2],[13.2,47.2],[13.2,47.1],[13.1,47.1]],
        [[13.12,47.12],[13.18,47.12],[13.18,47.18],[13.12,47.18],[13.12,47.12]]]}}"#;
    let o = build(&[f.to_string()]);
    let u = &uses_through_binary(o.tiles.values().next().unwrap())[0];
    assert_eq!(u.windings.len(), 2);
    assert!(orient::is_ccw(&u.windings[0]));
    assert!(!orient::is_ccw(&u.windings[1]));
    // Uncut: both contours spawn; the closing vertex is not repeated.
    assert_eq!(u.low, Some(2));
    assert_eq!(u.windings[0].len(), 4);
    assert_eq!(u.windings[0][0], [13.1, 47.1]);
}

#[test]
fn agp_points_get_heading_and_require_properties() {
    let f = r#"{"type":"Feature","properties":{"kind":"agp","heading":"-90"},"geometry":{"type":"Point","coordinates":[13.25,47.5]}}"#;
    let o = build(&[f.to_string()]);
    let d = o.tiles.values().next().unwrap();
    assert_eq!(d.property("sim/require_agpoint"), Some("1/0"));
    assert_eq!(d.property("sim/require_object"), Some("1/0"));
    let u = &uses_through_binary(d)[0];
    assert_eq!(u.kind, AutogenKind::Agp);
    assert!((u.heading.unwrap() - 270.0).abs() < 0.01);
    let p = u.point.unwrap();
    assert!((p[0] - 13.25).abs() < TOL && (p[1] - 47.5).abs() < TOL);
}

#[test]
fn non_quad_blocks_are_skipped_with_a_reason_or_fall_back() {
    let hexagon = r#"{"type":"Feature","id":7,"properties":{"landuse":"residential"},"geometry":{"type":"Polygon","coordinates":[[[13.1,47.1],[13.102,47.1],[13.103,47.101],[13.102,47.102],[13.1,47.102],[13.099,47.101],[13.1,47.1]]]}}"#;
    let f = overlay::read_features(&collection(&[hexagon.to_string()])).unwrap();
    let skip = Rules::parse("[[rule]]\nasset = \"b.agb\"\nwhere = { landuse = \"residential\" }\n")
        .unwrap();
    let o = overlay::build_overlay(&f, &skip, &BuildOptions::default()).unwrap();
    assert!(o.tiles.is_empty());
    assert_eq!(o.report.skipped.len(), 1);
    assert!(
        o.report.skipped[0]
            .reason
            .contains("not a 4-point block (6 vertices)"),
        "{:?}",
        o.report.skipped
    );
    let fall = Rules::parse(
        "[[rule]]\nasset = \"b.agb\"\nwhere = { landuse = \"residential\" }\nnon_quad = \"fallback\"\nfallback = \"s.ags\"\nheight = 30.0\n",
    )
    .unwrap();
    let o = overlay::build_overlay(&f, &fall, &BuildOptions::default()).unwrap();
    let d = o.tiles.values().next().unwrap();
    assert_eq!(d.polygon_defs, ["s.ags"]);
    let u = &uses_through_binary(d)[0];
    assert_eq!(u.param, Some(((30.0f64 / 4.0).round() as u16) << 8 | 1));
}

#[test]
fn rules_match_on_area_and_shape() {
    let rules = Rules::parse(
        r#"
[[rule]]
asset = "small.agb"
max_area = 5000.0
shape = "quad"
[[rule]]
asset = "big.ags"
min_area = 5000.0
"#,
    )
    .unwrap();
    // ~37 m × 56 m ≈ 2000 m² and ~750 m × 1100 m.
    let f = overlay::read_features(&collection(&[
        square("x", 13.1, 47.1, 13.1005, 47.1005, 0.0),
        square("x", 13.2, 47.2, 13.21, 47.21, 0.0),
    ]))
    .unwrap();
    let o = overlay::build_overlay(&f, &rules, &BuildOptions::default()).unwrap();
    assert_eq!(o.report.placed.get("small.agb"), Some(&1));
    assert_eq!(o.report.placed.get("big.ags"), Some(&1));
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_build(
    features: &str,
    rules: &str,
    extra: &[&str],
) -> (i32, String, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "features.geojson", features);
    let r = write(dir.path(), "RULES.toml", rules);
    let out = dir.path().join("scenery");
    let o = agkit()
        .args(["overlay", "build"])
        .arg(&f)
        .arg("--rules")
        .arg(&r)
        .arg("-o")
        .arg(&out)
        .args(extra)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        dir,
    )
}

#[test]
fn self_intersecting_features_fail_cleanly_and_write_nothing() {
    let bowtie = r#"{"type":"Feature","id":"bow","properties":{"kind":"ags"},"geometry":{"type":"Polygon","coordinates":[[[13.1,47.1],[13.2,47.2],[13.2,47.1],[13.1,47.2],[13.1,47.1]]]}}"#;
    let good = square("ags", 13.3, 47.3, 13.31, 47.31, 0.0);
    let (code, _, err, dir) = run_build(
        &collection(&[bowtie.into(), good.clone()]),
        SQUARE_RULES,
        &[],
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("feature 0 (id \"bow\")"), "{err}");
    assert!(
        err.contains("elf-intersect") || err.contains("intersect"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(files_under(&dir.path().join("scenery")).is_empty());
    // --lenient skips it with the reason and writes the rest.
    let (code, out, err, dir) = run_build(
        &collection(&[bowtie.into(), good]),
        SQUARE_RULES,
        &["--lenient"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("skipped feature 0 (id \"bow\"): invalid"),
        "{out}"
    );
    let files = files_under(&dir.path().join("scenery"));
    assert_eq!(files.len(), 2, "{files:?}");
}

#[test]
fn empty_geometries_and_unknown_properties_are_errors() {
    let empty = r#"{"type":"Feature","properties":{"kind":"ags"},"geometry":null}"#;
    let empty_ring = r#"{"type":"Feature","properties":{"kind":"ags"},"geometry":{"type":"Polygon","coordinates":[[]]}}"#;
    let (code, _, err, dir) = run_build(
        &collection(&[empty.into(), empty_ring.into()]),
        SQUARE_RULES,
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("feature 0: the feature has no geometry"),
        "{err}"
    );
    assert!(err.contains("feature 1: empty polygon"), "{err}");
    assert!(files_under(&dir.path().join("scenery")).is_empty());

    let rules = "[[rule]]\nasset = \"x.ags\"\nwhere = { landus = \"residential\" }\n";
    let (code, _, err, dir) = run_build(
        &collection(&[square("ags", 13.1, 47.1, 13.2, 47.2, 0.0)]),
        rules,
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("property `landus`, which no feature has"),
        "{err}"
    );
    assert!(files_under(&dir.path().join("scenery")).is_empty());

    let bad_height = r#"{"type":"Feature","properties":{"kind":"ags","height":"tall"},"geometry":{"type":"Polygon","coordinates":[[[13.1,47.1],[13.2,47.1],[13.2,47.2],[13.1,47.1]]]}}"#;
    let (code, _, err, _) = run_build(&collection(&[bad_height.into()]), SQUARE_RULES, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("property `height` = \"tall\" is not a number"),
        "{err}"
    );
}

#[test]
fn rules_errors_name_line_and_column() {
    let rules = "[settings]\ndefault_height = 8.0\n\n[[rule]]\nasset = \"x.ags\"\nwhere = { a = 1 }\nmin_aera = 3.0\n";
    let (code, _, err, dir) = run_build(
        &collection(&[square("ags", 13.1, 47.1, 13.2, 47.2, 0.0)]),
        rules,
        &[],
    );
    assert_eq!(code, 1);
    assert!(err.contains("RULES.toml:7:1:"), "{err}");
    assert!(err.contains("min_aera"), "{err}");
    assert!(files_under(&dir.path().join("scenery")).is_empty());
    let (code, _, err, _) = run_build("{}", "[[rule]]\nasset = \"x.ags\"\nheight = \"8\"\n", &[]);
    assert_eq!(code, 1);
    assert!(err.contains("RULES.toml:3:10:"), "{err}");
    let (code, _, err, _) = run_build("{not json", SQUARE_RULES, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("line 1 column 2"), "{err}");
}

/// `agkit overlay build` of the bundled example into `out`.
fn build_example(out: &Path, extra: &[&str]) -> std::process::Output {
    agkit()
        .args([
            "overlay",
            "build",
            EXAMPLE_FEATURES,
            "--rules",
            EXAMPLE_RULES,
            "-o",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn the_example_builds_with_previews_and_dsf_autogen_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scenery");
    let o = build_example(&out, &["--preview", "png"]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout.contains("6 feature(s): 5 used, 1 skipped"),
        "{stdout}"
    );
    assert!(
        stdout.contains("placed 3 × assets/city_block.agb"),
        "{stdout}"
    );
    for name in ["+47+012", "+47+013"] {
        let svg = std::fs::read_to_string(out.join("preview").join(format!("{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg"));
        let png = std::fs::read(out.join("preview").join(format!("{name}.png"))).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
    let tile = out.join("Earth nav data/+40+010/+47+013.dsf");
    let o = agkit()
        .args(["dsf", "autogen"])
        .arg(&tile)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let uses: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let direct = autogen_uses(&dsf::read(&std::fs::read(&tile).unwrap()).unwrap());
    assert_eq!(uses.as_array().unwrap().len(), direct.len());
    // No temporary files are left behind.
    assert!(files_under(&out).iter().all(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        n.ends_with(".dsf") || n.ends_with(".json") || n.ends_with(".svg") || n.ends_with(".png")
    }));
}

fn count_entities(d: &dsf::Dsf) -> usize {
    d.entities
        .iter()
        .filter(|e| matches!(e, Entity::Polygon(_)))
        .count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Rectangles anywhere near a tile corner: every piece lies in its tile,
    /// the pieces' areas add up to the rectangle's, cut contours lie on the
    /// tile edges and never spawn, and everything reads back from binary.
    #[test]
    fn clipping_covers_the_feature_exactly(
        w in 12.95f64..13.0, s in 46.95f64..47.0,
        dw in 0.001f64..0.1, dh in 0.001f64..0.1,
    ) {
        let (e, n) = (w + dw, s + dh);
        let o = build(&[square("ags", w, s, e, n, 10.0)]);
        let mut area = 0.0;
        let mut pieces = 0;
        for (tile, d) in &o.tiles {
            pieces += count_entities(d);
            for u in uses_through_binary(d) {
                let low = usize::from(u.low.unwrap());
                prop_assert!(low >= 1);
                for p in u.windings.iter().flatten() {
                    let r = tile.rect();
                    let near = p[0] > r.min().x - TOL && p[0] < r.max().x + TOL
                        && p[1] > r.min().y - TOL && p[1] < r.max().y + TOL;
                    prop_assert!(near, "{:?} outside {}", p, tile);
                }
                for c in &u.windings[low..] {
                    prop_assert!(c.windows(2).all(|e| overlay::tiles::on_tile_edge(*tile, e[0], e[1])));
                }
            }
            for ent in &d.entities {
                if let Entity::Polygon(p) = ent {
                    // Rebuild the ring from the model (exact values).
                    let low = usize::from(p.param & 0xFF);
                    let pts: Vec<Vec<[f64; 2]>> = (0..p.windings.len())
                        .map(|k| p.points(k).map(|q| [q[0], q[1]]).collect())
                        .collect();
                    let ring: Vec<[f64; 2]> = if pts.len() == 1 {
                        pts[0].clone()
                    } else {
                        // spawning contour then cut contours, chained.
                        let mut cur = pts[0].clone();
                        let mut rest: Vec<Vec<[f64; 2]>> = pts[1..].to_vec();
                        while !rest.is_empty() {
                            let last = *cur.last().unwrap();
                            let k = rest.iter().position(|c| c[0] == last);
                            prop_assert!(k.is_some(), "contours do not chain: {pts:?} low {low}");
                            let c = rest.remove(k.unwrap());
                            cur.extend_from_slice(&c[1..]);
                        }
                        prop_assert_eq!(cur.first(), cur.last());
                        cur.pop();
                        cur
                    };
                    prop_assert!(orient::is_ccw(&ring));
                    area += orient::signed_area(&ring);
                }
            }
        }
        prop_assert!((1..=4).contains(&pieces));
        prop_assert!((area - dw * dh).abs() < 1e-9 * (1.0 + dw * dh), "{} vs {}", area, dw * dh);
    }
}

/// What the engine places for every use of `built` with the example
/// rules' `preview_file` assets, and the warnings it gives.
fn place_with_example_assets(
    built: &overlay::Overlay,
) -> (BTreeMap<TileId, Vec<agkit::place::Placement>>, Vec<String>) {
    let rules = Rules::parse(&std::fs::read_to_string(EXAMPLE_RULES).unwrap()).unwrap();
    let base = Path::new(EXAMPLE_RULES).parent().unwrap();
    let (assets, mut warnings) = overlay::preview::load_assets(&rules, base);
    let placed = overlay::preview::place_overlay(built, &assets, &mut warnings);
    (placed, warnings)
}

/// The bundled example shows the assets at their best: the engine places
/// every use of every tile without a warning (but for art the examples
/// name and do not bundle, AG0085).
#[test]
fn the_example_assets_fit_their_polygons() {
    let built = example();
    let (placed, mut warnings) = place_with_example_assets(&built);
    warnings.retain(|w| !w.ends_with("[AG0085]"));
    assert!(warnings.is_empty(), "{warnings:#?}");
    let uses: usize = placed.values().map(Vec::len).sum();
    assert_eq!(uses, built.report.placed.values().sum::<usize>());
    for p in placed.values().flatten() {
        assert!(!p.tiles.is_empty(), "{} placed nothing", p.asset);
    }
}

/// A block too deep for the city-block asset: the engine's fit warnings
/// reach the report (and stdout) naming the feature, with or without
/// previews.
#[test]
fn a_misfit_warning_reaches_the_report() {
    let block = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/block/city_block.agb");
    let rules = format!(
        "[[rule]]\nasset = \"a/block.agb\"\nwhere = {{ kind = \"agb\" }}\npreview_file = {block:?}\n"
    );
    // 112 m wide, 111 m deep: the asset's rows reach 63 m at most.
    let deep = square("agb", 12.995, 47.8, 12.9965, 47.801, 12.0).replacen(
        "\"type\":\"Feature\"",
        "\"type\":\"Feature\",\"id\":\"deep\"",
        1,
    );
    let features = collection(&[deep]);
    for extra in [&[][..], &["--preview", "svg"][..]] {
        let (code, stdout, stderr, dir) = run_build(&features, &rules, extra);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let report: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("scenery/overlay-report.json")).unwrap(),
        )
        .unwrap();
        let warnings: Vec<&str> = report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        assert!(
            warnings.iter().any(|w| w
                .starts_with("feature 0 (id \"deep\") in +47+012: a/block.agb: no SPELLING_T")
                && w.contains("EDGE_MIN and EDGE_MAX")),
            "{warnings:#?}"
        );
        for w in &warnings {
            assert!(stdout.contains(&format!("warning: {w}")), "{stdout}");
        }
    }
}

#[test]
fn example_report_snapshot() {
    insta::assert_json_snapshot!("overlay_example_report", example().report);
}

fn holed(kind: &str, outer: [f64; 4], hole: [f64; 4]) -> String {
    let ring = |[w, s, e, n]: [f64; 4], ccw: bool| {
        let mut pts = vec![[w, s], [e, s], [e, n], [w, n], [w, s]];
        if !ccw {
            pts.reverse();
        }
        serde_json::to_string(&pts).unwrap()
    };
    format!(
        r#"{{"type":"Feature","properties":{{"kind":"{kind}"}},"geometry":{{"type":"Polygon","coordinates":[{},{}]}}}}"#,
        ring(outer, true),
        ring(hole, false)
    )
}

fn town_edge() -> agkit::xp::model::Asset {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/string/town_edge.ags");
    agkit::xp::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn engine(u: &dsf::autogen::AutogenUse) -> Result<agkit::place::Placement, String> {
    let params = agkit::place::Params::default().with_dsf_param(u.param.unwrap());
    agkit::place::place(
        &town_edge(),
        &u.asset,
        &agkit::place::Use::Polygon {
            windings: u.windings.clone(),
        },
        &params,
    )
    .map_err(|e| e.to_string())
}

#[test]
fn a_cut_outer_ring_keeps_its_spawning_sides_first_then_holes_then_cut_sides() {
    // Outer ring across lon 13 with a hole in the eastern part.
    let f = holed(
        "ags",
        [12.99, 47.1, 13.02, 47.12],
        [13.005, 47.105, 13.01, 47.11],
    );
    let o = build(&[f]);
    let east = &o.tiles[&TileId {
        south: 47,
        west: 13,
    }];
    let u = &uses_through_binary(east)[0];
    // Contour 1: the outer ring's three original sides (open, CCW run);
    // contour 2: the hole (closed, CW); contour 3: the cut side on lon 13.
    assert_eq!(u.low, Some(2));
    assert_eq!(u.windings.len(), 3);
    assert_eq!(u.windings[0].len(), 4);
    assert!(
        u.windings[0]
            .windows(2)
            .all(|e| !(e[0][0] == 13.0 && e[1][0] == 13.0))
    );
    assert!(!orient::is_ccw(&u.windings[1]), "hole clockwise");
    assert_eq!(u.windings[1].len(), 4);
    assert!(u.windings[2].iter().all(|p| p[0] == 13.0));
    assert_eq!(u.windings[2].first(), u.windings[0].last());
    assert_eq!(u.windings[2].last(), u.windings[0].first());
    // agkit's own AGS engine assembles it: outer ring from contours 1 and
    // 3, the hole from contour 2.
    let p = engine(u).unwrap();
    assert!(!p.polygon.is_empty());
    // The western piece has no hole: spawning run, then the cut.
    let west = &o.tiles[&TileId {
        south: 47,
        west: 12,
    }];
    let u = &uses_through_binary(west)[0];
    assert_eq!((u.low, u.windings.len()), (Some(1), 2));
    engine(u).unwrap();
}

#[test]
fn an_outer_ring_cut_all_round_goes_after_the_spawning_holes() {
    // A polygon covering tile +47+013 entirely, with a lake inside it: in
    // that tile every side of the outer ring lies on the tile edge.
    let f = holed("ags", [12.5, 46.5, 14.5, 48.5], [13.4, 47.4, 13.6, 47.6]);
    let o = build(&[f]);
    assert_eq!(o.tiles.len(), 9);
    let centre = TileId {
        south: 47,
        west: 13,
    };
    let u = &uses_through_binary(&o.tiles[&centre])[0];
    // The spec: tile-spawning contours first. Only the hole spawns; the
    // cut outer ring (the whole tile square, CCW) comes after it.
    assert_eq!(u.low, Some(1));
    assert_eq!(u.windings.len(), 2);
    assert!(!orient::is_ccw(&u.windings[0]), "the hole, clockwise");
    assert!(u.windings[0].iter().all(|p| !p.contains(&13.0)));
    let outer = &u.windings[1];
    assert!(orient::is_ccw(outer));
    let n = outer.len();
    assert!(
        (0..n).all(|i| overlay::tiles::on_tile_edge(centre, outer[i], outer[(i + 1) % n])),
        "{outer:?}"
    );
    assert!((orient::signed_area(outer) - 1.0).abs() < 1e-9);
    // Every other tile: the outer ring's own sides spawn, first.
    for (t, d) in &o.tiles {
        if *t == centre {
            continue;
        }
        let u = &uses_through_binary(d)[0];
        assert_eq!(u.low, Some(1), "{t}");
        assert!(
            u.windings[0]
                .windows(2)
                .all(|e| !overlay::tiles::on_tile_edge(*t, e[0], e[1])),
            "{t}: {:?}",
            u.windings[0]
        );
    }

    // Without the lake nothing in the centre tile would spawn: skipped,
    // with the reason and the tile.
    let o = build(&[square("ags", 12.5, 46.5, 14.5, 48.5, 0.0)]);
    assert_eq!(o.tiles.len(), 8);
    assert!(!o.tiles.contains_key(&centre));
    assert_eq!(o.report.skipped.len(), 1);
    assert_eq!(o.report.skipped[0].tile.as_deref(), Some("+47+013"));
    assert!(
        o.report.skipped[0].reason.contains("lies on the tile edge"),
        "{:?}",
        o.report.skipped
    );
    assert_eq!(o.report.used, 1);
}

/// `agkit dsf totext` → `agkit dsf build` gives back the same uses, and
/// `agkit place --dsf` places exactly what the engine places on the uses
/// read back from the written tile, use i with seed i.
#[test]
fn the_written_tiles_reload_identically_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scenery");
    let o = build_example(&out, &[]);
    assert!(o.status.success());
    // The assets the example's DSF names, inside the package.
    let assets = out.join("assets");
    std::fs::create_dir_all(&assets).unwrap();
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (from, to) in [
        ("block/city_block.agb", "city_block.agb"),
        ("string/town_edge.ags", "town_edge.ags"),
        ("point/plaza.agp", "plaza.agp"),
    ] {
        std::fs::copy(ex.join(from), assets.join(to)).unwrap();
    }
    let mut checked = 0;
    for name in ["+47+012", "+47+013"] {
        let tile = out.join(format!("Earth nav data/+40+010/{name}.dsf"));
        let original = dsf::read(&std::fs::read(&tile).unwrap()).unwrap();
        let uses = autogen_uses(&original);

        let text = dir.path().join(format!("{name}.txt"));
        let rebuilt = dir.path().join(format!("{name}.dsf"));
        let o = agkit()
            .args(["dsf", "totext"])
            .arg(&tile)
            .arg("-o")
            .arg(&text)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = agkit()
            .args(["dsf", "build"])
            .arg(&text)
            .arg("-o")
            .arg(&rebuilt)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let again = dsf::read(&std::fs::read(&rebuilt).unwrap()).unwrap();
        assert_eq!(again.properties, original.properties);
        let mut back = autogen_uses(&again);
        assert_eq!(back.len(), uses.len());
        // `dsf build` groups the uses by kind, definition and pool (as
        // DSFTool does): compare them in one order.
        let key = |u: &dsf::autogen::AutogenUse| {
            let p = u.point.or_else(|| u.windings.first()?.first().copied());
            let micro = p.map(|p| [(p[0] * 1e6).round() as i64, (p[1] * 1e6).round() as i64]);
            (u.asset.clone(), u.param, micro)
        };
        let mut sorted = uses.clone();
        sorted.sort_by_key(key);
        back.sort_by_key(key);
        for (a, b) in sorted.iter().zip(&back) {
            assert_eq!((a.kind, &a.asset, a.param), (b.kind, &b.asset, b.param));
            assert_eq!(a.windings.len(), b.windings.len());
            for (wa, wb) in a.windings.iter().zip(&b.windings) {
                assert_eq!(wa.len(), wb.len());
                for (p, q) in wa.iter().zip(wb) {
                    assert!((p[0] - q[0]).abs() < 1e-8 && (p[1] - q[1]).abs() < 1e-8);
                }
            }
        }

        let o = agkit()
            .args(["place", "--dsf"])
            .arg(&tile)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Use i of the tile is placed with the seed 0 XOR i.
        let mut want = Vec::new();
        let scenery = agkit::scenery::Scenery::without_libraries(Default::default());
        for (i, u) in uses.iter().enumerate() {
            let file = assets.join(u.asset.trim_start_matches("assets/"));
            let asset = agkit::xp::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let use_ = match u.point {
                Some(at) => agkit::place::Use::Point {
                    at,
                    heading: u.heading.unwrap_or(0.0),
                },
                None => agkit::place::Use::Polygon {
                    windings: u.windings.clone(),
                },
            };
            let mut params = agkit::place::Params {
                seed: i as u64,
                ..agkit::place::Params::default()
            };
            if let Some(p) = u.param {
                params = params.with_dsf_param(p);
            }
            // The art the asset names, found beside it as `place --dsf`
            // finds it.
            let first = u.point.or_else(|| u.windings[0].first().copied()).unwrap();
            let tile = agkit::scenery::resolve::Tile::of(first[0], first[1]);
            params.art = Some(scenery.asset_art(&file, &asset, Some(tile)));
            want.push(agkit::place::place(&asset, &u.asset, &use_, &params).unwrap());
        }
        let want = agkit::out::render_all(&want, agkit::out::Format::Json).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&want),
            "{name}"
        );
        checked += uses.len();
    }
    assert_eq!(checked, 8);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A holed polygon near a tile corner, its hole crossing the 1° lines or
    /// not: every piece keeps its spawning contours first and free of cut
    /// edges, its cut contours on the tile edge, and agkit's AGS engine
    /// assembles the contours into rings (outer ring holding contour 1,
    /// counter-clockwise; holes clockwise).
    #[test]
    fn holed_pieces_keep_a_valid_winding_order(
        w in 12.97f64..13.0, s in 46.97f64..47.0,
        dw in 0.005f64..0.04, dh in 0.005f64..0.04,
        fx0 in 0.1f64..0.45, fy0 in 0.1f64..0.45,
        fx1 in 0.55f64..0.9, fy1 in 0.55f64..0.9,
    ) {
        let f = holed(
            "ags",
            [w, s, w + dw, s + dh],
            [w + fx0 * dw, s + fy0 * dh, w + fx1 * dw, s + fy1 * dh],
        );
        let o = build(&[f]);
        prop_assert!(!o.tiles.is_empty());
        prop_assert!(o.report.skipped.is_empty(), "{:?}", o.report.skipped);
        for (tile, d) in &o.tiles {
            for u in uses_through_binary(d) {
                let low = usize::from(u.low.unwrap());
                prop_assert!(low >= 1 && low <= u.windings.len());
                for c in &u.windings[..low] {
                    prop_assert!(
                        c.windows(2).all(|e| !overlay::tiles::on_tile_edge(*tile, e[0], e[1])),
                        "spawning contour with a cut edge in {}: {:?}", tile, c
                    );
                }
                for c in &u.windings[low..] {
                    prop_assert!(c.windows(2).all(|e| overlay::tiles::on_tile_edge(*tile, e[0], e[1])));
                }
                let placed = engine(&u);
                prop_assert!(placed.is_ok(), "{}: {:?} {:?}", tile, placed.err(), u.windings);
            }
        }
    }
}

#[test]
fn a_write_failure_leaves_nothing_half_written() {
    // `Earth nav data` is a file, so no tile can be written: the previews
    // (written in the same step) and the report must not appear either.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scenery");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("Earth nav data"), b"in the way").unwrap();
    let o = build_example(&out, &["--preview", "svg"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("Earth nav data"), "{err}");
    assert_eq!(files_under(&out), [out.join("Earth nav data")]);
    assert!(
        !out.join("preview").exists(),
        "the preview folder was removed"
    );
}

/// A town of about 1,000 features (990) over about 2.2 km: a street grid (16 m
/// streets) of blocks 50–150 m wide and 58–120 m deep, most residential,
/// some commercial, some farmland (no rule), and a kiosk in front of most
/// blocks. Deterministic: the sizes cycle through co-prime lists.
fn town() -> String {
    const M_LON: f64 = 1.0 / 74_776.0; // degrees per metre at 47.8°
    const M_LAT: f64 = 1.0 / 111_180.0;
    let (w0, s0) = (13.0, 47.79);
    let widths = [52.0, 104.0, 150.0, 100.0, 50.0, 108.0, 104.0];
    let depths = [60.0, 58.0, 62.0, 120.0, 60.0];
    let ll = |x: f64, y: f64| [w0 + x * M_LON, s0 + y * M_LAT];
    let mut features = Vec::new();
    let (mut y, mut n) = (0.0, 0usize);
    for row in 0.. {
        if y >= 2200.0 {
            break;
        }
        let depth = depths[row % depths.len()];
        let mut x = 0.0;
        while x < 2200.0 {
            let w = widths[n % widths.len()];
            let landuse = match n % 10 {
                0..=5 => "residential",
                6 | 7 => "commercial",
                _ => "farmland",
            };
            let ring: Vec<[f64; 2]> = [
                (x, y),
                (x + w, y),
                (x + w, y + depth),
                (x, y + depth),
                (x, y),
            ]
            .iter()
            .map(|&(a, b)| ll(a, b))
            .collect();
            features.push(format!(
                r#"{{"type":"Feature","properties":{{"landuse":"{landuse}"}},"geometry":{{"type":"Polygon","coordinates":[{}]}}}}"#,
                serde_json::to_string(&ring).unwrap()
            ));
            if n % 10 != 9 {
                let at = ll(x + w / 2.0, y + depth + 8.0);
                features.push(format!(
                    r#"{{"type":"Feature","properties":{{"amenity":"kiosk","heading":{}}},"geometry":{{"type":"Point","coordinates":{}}}}}"#,
                    (n * 37) % 360,
                    serde_json::to_string(&at).unwrap()
                ));
            }
            x += w + 16.0;
            n += 1;
        }
        y += depth + 16.0;
    }
    collection(&features)
}

/// For each `<g id=…>` group of a picture, how many elements of each kind
/// it holds (one element a line, as `out::svg` writes them), and the
/// legend's words.
fn svg_structure(svg: &str) -> serde_json::Value {
    let mut groups = serde_json::Map::new();
    let mut current: Option<String> = None;
    let mut legend = Vec::new();
    for line in svg.lines() {
        if let Some(rest) = line.strip_prefix("<g id=\"") {
            let id = &rest[..rest.find('"').unwrap()];
            if line.ends_with("</g>") {
                continue;
            }
            groups.insert(id.to_string(), serde_json::json!({}));
            current = Some(id.to_string());
            continue;
        }
        if line == "</g>" {
            if current.as_deref() != Some("legend") {
                current = None;
            }
            continue;
        }
        let Some(id) = &current else { continue };
        if id == "legend" {
            if let Some(t) = line.strip_suffix("</text>") {
                legend.push(t[t.rfind('>').unwrap() + 1..].to_string());
            }
            continue;
        }
        let tag = line[1..].split([' ', '>']).next().unwrap().to_string();
        let counts = groups[id].as_object_mut().unwrap();
        let c = counts.entry(tag).or_insert(serde_json::json!(0));
        *c = serde_json::json!(c.as_u64().unwrap() + 1);
    }
    serde_json::json!({ "groups": groups, "legend": legend })
}

/// A preview of a whole town is drawn the way a map is drawn at a small
/// scale: objects are small squares without heading ticks, trees
/// unoutlined dots, tiles filled areas without ids or arrows, no ground
/// points — not a mat of markers. (It holds fewer items than the bound of
/// one picture, so every item is drawn.)
#[test]
fn a_town_preview_is_drawn_at_small_scale() {
    let rules = Rules::parse(&std::fs::read_to_string(EXAMPLE_RULES).unwrap()).unwrap();
    let features = overlay::read_features(&town()).unwrap();
    assert!((950..1100).contains(&features.len()), "{}", features.len());
    let built = overlay::build_overlay(&features, &rules, &BuildOptions::default()).unwrap();
    let (placed, _) = place_with_example_assets(&built);
    let tile = TileId {
        south: 47,
        west: 13,
    };
    let ps = &placed[&tile];
    assert!(ps.len() > 700, "{} uses", ps.len());
    let objects: usize = ps.iter().map(|p| p.objects.len()).sum();
    let tiles: usize = ps.iter().map(|p| p.tiles.len()).sum();
    assert!(
        objects > 2000 && tiles > 3000,
        "{objects} objects, {tiles} tiles"
    );

    let mut notes = Vec::new();
    let svg = overlay::preview::render(tile, ps, false, &mut notes).unwrap();
    let svg = String::from_utf8(svg).unwrap();
    assert!(notes.is_empty(), "every item is drawn: {notes:?}");
    let v = svg_structure(&svg);
    let g = &v["groups"];
    // Every object a small square, no ticks.
    assert_eq!(g["objects"]["rect"], objects);
    assert!(g["objects"].get("polyline").is_none());
    assert!(svg.contains(r##"<g id="objects" fill="#c0392b">"##));
    // Tiles as areas: closed paths only, no arrows, no ids, no ground
    // points.
    assert_eq!(g["tiles"]["path"], tiles);
    assert!(g["tiles"].get("polyline").is_none(), "no arrows");
    assert_eq!(g["labels"], serde_json::json!({}), "no tile ids");
    assert!(g["points"].get("polyline").is_none(), "no ground points");
    // Trees a texture of dots (no outline).
    assert!(svg.contains(r##"<g id="trees" fill="#3f8f33" fill-opacity="0.55">"##));
    assert_eq!(v["legend"][0], "tile");
    insta::assert_json_snapshot!("town_small_scale_structure", v);

    // The same town's PNG (looked at when this was written: a street map
    // of filled blocks) rasterises.
    let png = overlay::preview::render(tile, ps, true, &mut notes).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    if let Some(dump) = std::env::var_os("AGKIT_DUMP_PNG") {
        std::fs::write(dump, &png).unwrap();
    }
}

/// The bundled example at its preview's scale (about 1.3 px per metre)
/// keeps ids and arrows on the tiles big enough for them, and no two ids
/// overlap.
#[test]
fn the_example_preview_labels_only_what_is_legible() {
    let (placed, _) = place_with_example_assets(&example());
    for (&tile, ps) in &placed {
        let svg = overlay::preview::render(tile, ps, false, &mut Vec::new()).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        let v = svg_structure(&svg);
        let tiles: usize = ps.iter().map(|p| p.tiles.len()).sum();
        let labels = v["groups"]["labels"]["text"].as_u64().unwrap_or(0) as usize;
        // An arrow is two lines: its shaft and its head.
        let arrows = v["groups"]["tiles"]["polyline"].as_u64().unwrap_or(0) as usize / 2;
        assert!(
            labels > 0 && labels < tiles,
            "{labels} of {tiles} tiles labelled"
        );
        assert!(arrows > 0, "big tiles keep their arrows");
        assert_eq!(v["legend"][0], "tile (arrow: texture up)");
        // Label boxes (11 px text, centred) do not overlap.
        let boxes: Vec<[f64; 4]> = svg
            .lines()
            .filter(|l| l.starts_with("<text") && l.contains(r##"fill="#2f5d95""##))
            .map(|l| {
                let num = |k: &str| -> f64 {
                    let at = l.find(k).unwrap() + k.len();
                    l[at..at + l[at..].find('"').unwrap()].parse().unwrap()
                };
                let text = &l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()];
                let half = text.chars().count() as f64 * 3.5;
                let (x, y) = (num(" x=\""), num(" y=\""));
                [x - half, y - 5.0, x + half, y + 5.0]
            })
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let overlap = a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
                assert!(!overlap, "labels at {a:?} and {b:?} overlap");
            }
        }
    }
}

#[test]
fn a_use_too_large_for_a_dsf_names_its_feature() {
    // A ring of 70,000 points in one tile: a DSF polygon holds 65,535 at
    // most. The error names the feature the use came from (it named the
    // tile's entity index), and nothing is written. (Built by hand: the
    // overlay builder takes tens of seconds on such a ring.)
    let mut o = build(&[
        square("agb", 13.1, 47.1, 13.101, 47.101, 8.0),
        square("agb", 13.2, 47.1, 13.201, 47.101, 8.0),
    ]);
    let tile = TileId {
        south: 47,
        west: 13,
    };
    let d = o.tiles.get_mut(&tile).unwrap();
    let Some(Entity::Polygon(p)) = d.entities.get_mut(1) else {
        panic!("{:?}", d.entities)
    };
    p.windings = vec![
        (0..70_000)
            .flat_map(|k| [13.2 + f64::from(k) * 1e-8, 47.1 + f64::from(k % 2) * 1e-3])
            .collect(),
    ];
    let label = o.sources[&tile][1].clone();
    assert!(label.starts_with("feature 1"), "{label}");
    let dir = tempfile::tempdir().unwrap();
    let e = overlay::write_overlay(&mut o, dir.path()).unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("+47+013") && m.contains(&label) && m.contains("70000 points"),
        "{m}"
    );
    assert!(files_under(dir.path()).is_empty());
}

#[test]
fn tiles_in_all_four_hemispheres_and_on_the_zero_lines_read_back() {
    // A string across (0, 0) (four tiles, edges on lon 0 and lat 0), a
    // block in each hemisphere, and points on either side of the zero lines.
    let point = |lon: f64, lat: f64| {
        format!(
            r#"{{"type":"Feature","properties":{{"kind":"agp","heading":"10"}},"geometry":{{"type":"Point","coordinates":[{lon},{lat}]}}}}"#
        )
    };
    let features = [
        square("ags", -0.01, -0.01, 0.02, 0.015, 12.0),
        square("agb", 13.4, 52.5, 13.401, 52.501, 8.0),
        square("agb", -122.68, 45.52, -122.679, 45.521, 8.0),
        square("agb", 151.2, -33.87, 151.201, -33.869, 8.0),
        square("agb", -58.38, -34.61, -58.379, -34.609, 8.0),
        point(-0.000_000_1, 0.000_000_1),
        point(0.000_000_1, -0.000_000_1),
        point(-179.999_9, -89.5),
        point(179.999_9, 89.5),
    ];
    let o = build(&features);
    let mut quadrants = std::collections::BTreeSet::new();
    for (tile, d) in &o.tiles {
        quadrants.insert((tile.west < 0, tile.south < 0));
        let want = autogen_uses(d);
        let got = uses_through_binary(d);
        assert_eq!(want.len(), got.len(), "{tile}");
        for (w, g) in want.iter().zip(&got) {
            let pts = |u: &dsf::autogen::AutogenUse| -> Vec<[f64; 2]> {
                u.point
                    .into_iter()
                    .chain(u.windings.iter().flatten().copied())
                    .collect()
            };
            assert_eq!(pts(w).len(), pts(g).len(), "{tile}: {w:?} {g:?}");
            for (a, b) in pts(w).iter().zip(pts(g)) {
                assert!(tile.covers(b), "{b:?} outside {tile}");
                assert!(
                    (a[0] - b[0]).abs() < 1e-6 && (a[1] - b[1]).abs() < 1e-6,
                    "{a:?} {b:?}"
                );
            }
        }
    }
    assert_eq!(quadrants.len(), 4, "{quadrants:?}");
    // The string across (0, 0) is cut into the four tiles around it.
    for (west, south) in [(-1, -1), (-1, 0), (0, -1), (0, 0)] {
        assert!(
            o.tiles.contains_key(&TileId { south, west }),
            "{west} {south}"
        );
    }
}
