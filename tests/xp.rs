//! Integration tests of the X-Plane autogen text formats (`agkit::xp`).

use agkit::xp;
use std::path::{Path, PathBuf};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("agp" | "agb" | "ags")
            )
        })
        .collect();
    v.sort();
    v
}

fn corpus() -> Vec<PathBuf> {
    files_under(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus"
    )))
}

fn examples() -> Vec<PathBuf> {
    files_under(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")))
}

fn render(name: &str, src: &str) -> String {
    agkit::diag::render_human(name, Some(src), &xp::check(src))
}

#[test]
fn corpus_and_examples_parse_without_errors_or_warnings() {
    let files: Vec<PathBuf> = corpus().into_iter().chain(examples()).collect();
    assert!(files.len() >= 40, "found only {} files", files.len());
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let diags = xp::check(&src);
        assert!(
            diags.is_empty(),
            "{}",
            render(&f.display().to_string(), &src)
        );
        xp::parse(&src).unwrap();
    }
}

fn example(rel: &str) -> String {
    std::fs::read_to_string(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")).join(rel))
        .unwrap()
}

#[test]
fn example_models() {
    for rel in [
        "point/plaza.agp",
        "point/kiosk_cluster.agp",
        "block/city_block.agb",
        "block/city_block_flipped.agb",
        "string/town_edge.ags",
        "string/garden_fence.ags",
    ] {
        let asset = xp::parse(&example(rel)).unwrap();
        insta::assert_json_snapshot!(format!("model_{}", rel.replace(['/', '.'], "_")), asset);
    }
}

// ------------------------------------------------------------ round trips --

#[test]
fn corpus_and_examples_round_trip_and_fmt_is_idempotent() {
    for f in corpus().into_iter().chain(examples()) {
        let src = std::fs::read_to_string(&f).unwrap();
        let doc = xp::Document::parse(&src);
        assert_eq!(doc.to_string(), src, "{}", f.display());
        let canon = doc.to_canonical();
        let again = xp::Document::parse(&canon).to_canonical();
        assert_eq!(again, canon, "fmt not idempotent: {}", f.display());
        let before = xp::summary::summarize(&src).unwrap();
        let after = xp::summary::summarize(&canon).unwrap();
        assert_eq!(before, after, "info changed by fmt: {}", f.display());
        // The model only differs in line numbers.
        let m0 = strip_lines(serde_json::to_value(xp::parse(&src).unwrap()).unwrap());
        let m1 = strip_lines(serde_json::to_value(xp::parse(&canon).unwrap()).unwrap());
        assert_eq!(m0, m1, "fmt changed the meaning of {}", f.display());
    }
}

/// Replaces every line number in a serialized model by 0 (keeping whether an
/// optional line-only field is present).
fn strip_lines(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    const LINE_KEYS: [&str; 6] = [
        "line",
        "end_cuts",
        "flip_180",
        "hide_tiles",
        "share_y",
        "source_line",
    ];
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    if LINE_KEYS.contains(&k.as_str()) && v.is_number() {
                        (k, Value::from(0))
                    } else {
                        (k, strip_lines(v))
                    }
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(strip_lines).collect()),
        other => other,
    }
}

#[test]
fn examples_written_from_the_model_parse_back_to_the_same_model() {
    for f in examples() {
        let src = std::fs::read_to_string(&f).unwrap();
        let m = xp::parse(&src).unwrap();
        let text = xp::write::to_string(&m);
        let back = xp::parse(&text).unwrap_or_else(|d| {
            panic!(
                "{}\n{text}",
                agkit::diag::render_human("written", Some(&text), &d)
            )
        });
        assert_eq!(
            strip_lines(serde_json::to_value(&m).unwrap()),
            strip_lines(serde_json::to_value(&back).unwrap()),
            "{}\n{text}",
            f.display()
        );
        assert_eq!(xp::write::to_string(&back), text);
    }
}

#[test]
fn crlf_bom_tabs_round_trip_and_parse_like_plain_text() {
    let plain = example("point/plaza.agp");
    let messy: String = std::iter::once("\u{feff}".to_string())
        .chain(plain.lines().enumerate().map(|(i, l)| {
            let l = if l.starts_with('#') {
                l.to_string()
            } else {
                l.replace(' ', if i % 2 == 0 { "\t" } else { "   " })
            };
            format!("  {l} \t\r\n")
        }))
        .collect();
    let doc = xp::Document::parse(&messy);
    assert!(doc.has_bom());
    assert_eq!(doc.to_string(), messy);
    let a = xp::parse(&plain).unwrap();
    let b = xp::parse(&messy).unwrap();
    assert_eq!(a.tiles, b.tiles);
    assert_eq!(a.common, b.common);
    assert_eq!(
        doc.to_canonical(),
        xp::Document::parse(&plain).to_canonical()
    );
}

// -------------------------------------------------------------- fixtures --

#[test]
fn one_failing_fixture_per_rule() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/xp"));
    assert!(xp::RULES.len() >= 40);
    for rule in xp::RULES {
        let file = ["agp", "agb", "ags"]
            .iter()
            .map(|e| dir.join(format!("{}.{e}", rule.code)))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no fixture for {}", rule.code));
        let bytes = std::fs::read(&file).unwrap();
        let (text, diags) = xp::check_bytes(&bytes);
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let hit = diags.iter().find(|d| d.code == rule.code);
        let rendered = agkit::diag::render_human(&name, Some(&text), &diags);
        let hit = hit.unwrap_or_else(|| panic!("{} not reported:\n{rendered}", rule.code));
        assert_eq!(hit.severity, rule.severity, "{}", rule.code);
        // (Invalid UTF-8 is only visible in the bytes, not in the decoded text.)
        if rule.severity == agkit::diag::Severity::Error && rule.code != "AG0077" {
            assert!(xp::parse(&text).is_err(), "{}", rule.code);
        }
        insta::assert_snapshot!(format!("rule_{}", rule.code), rendered);
    }
}

#[test]
fn rules_table_is_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md"))
        .unwrap();
    let mut seen = std::collections::HashSet::new();
    for r in xp::RULES {
        assert!(seen.insert(r.code), "duplicate code {}", r.code);
        let row = format!("| {} | {} |", r.code, r.severity.as_str());
        assert!(doc.contains(&row), "docs/diagnostics.md lacks `{row}`");
    }
}

#[test]
fn examples_use_every_directive() {
    let mut text = String::new();
    for f in examples() {
        text.push_str(&std::fs::read_to_string(f).unwrap());
    }
    let firsts: std::collections::HashSet<String> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(|t| t.to_ascii_uppercase())
        .collect();
    let optional = [
        "DECAL",
        "DECAL_RGBA",
        "DECAL_KEYED",
        "DECAL_PARAMS_PROJ",
        "DECAL_PARAMS_RGBA",
    ];
    for kw in xp::parse::KEYWORDS {
        if optional.contains(kw) {
            continue;
        }
        let glued = kw.starts_with("DEFINE_SPELLING_") && firsts.iter().any(|f| f.starts_with(kw));
        assert!(firsts.contains(*kw) || glued, "no example uses {kw}");
    }
}

#[test]
fn resolved_model_values() {
    let a = xp::parse(&example("string/town_edge.ags")).unwrap();
    let s = a.string.as_ref().unwrap();
    assert_eq!(s.crease(), [25.0, 35.0]);
    assert!(s.in_group(2, 21) && !s.in_group(1, 21));
    assert_eq!(s.corners[0].placement_order(), vec![2, 1, 0]);
    assert_eq!(
        s.corners.iter().map(|c| c.priority).collect::<Vec<_>>(),
        [1, 1, 2, 2]
    );
    assert_eq!(s.cap_tiles(), [30, 3]);
    assert_eq!(a.common.metres_per_pixel(), Some([0.0625, 0.0625]));

    let g = xp::parse(&example("string/garden_fence.ags")).unwrap();
    assert_eq!(g.tiles.iter().map(|t| t.id).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(g.string.unwrap().crease(), [30.0, 30.0]);
    assert_eq!(g.common.hide_tiles, Some(9));

    let b = xp::parse(&example("block/city_block_flipped.agb")).unwrap();
    let bp = b.block.as_ref().unwrap();
    assert_eq!(bp.grids.len(), 1);
    assert_eq!(bp.grids[0].line, None);
    assert!(bp.crops() && bp.flip_180.is_some());
    let set = &bp.spelling_sets[0];
    assert_eq!(set.spellings_t[0].indices, [0, 1]);
    assert_eq!(set.spellings_t[0].name.as_deref(), Some("both"));
    let cols = &bp.grids[0].columns;
    assert_eq!(cols.len(), 4);
    assert_eq!(cols[1].slop, Some(16.0));
    assert_eq!(cols[1].size(), 128.0);

    let p = xp::parse(&example("point/plaza.agp")).unwrap();
    assert_eq!(p.tiles[0].rotation_quarters(), 2);
    assert_eq!(p.tiles[1].ground_px(), [768.0, 256.0]);
    assert_eq!(p.meta[1].key, "object_wed");
}

// --------------------------------------------------------------- hostile --

fn assert_error_with_line(src: &str) -> Vec<agkit::diag::Diagnostic> {
    let diags = xp::check(src);
    assert!(
        diags.iter().any(|d| d.is_error()),
        "no error for input starting {:?}",
        &src[..src.len().min(80)]
    );
    let json = agkit::diag::to_json("x", Some(src), &diags);
    assert!(json.iter().all(|d| d.line.is_some()));
    diags
}

#[test]
fn hostile_inputs_give_errors_not_panics() {
    assert_error_with_line("");
    assert_error_with_line("\n\n\n");
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    let (text, d) = xp::check_bytes(&garbage);
    assert!(d.iter().any(|d| d.is_error()) && !text.is_empty());
    // A one-million-token line.
    let mut big = String::from("A\n1000\nAG_STRING\nSPELLING");
    for i in 0..1_000_000 {
        big.push(' ');
        big.push_str(if i % 2 == 0 { "1" } else { "2" });
    }
    big.push('\n');
    let d = assert_error_with_line(&big);
    assert!(d.len() < 100, "{} diagnostics", d.len());
    // Deeply repeated directives.
    let mut rep = String::from("A\n1000\nAG_POINT\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\n");
    for _ in 0..50_000 {
        rep.push_str("TILE 0 0 4 4\nOBJ_DRAPED 1 1 0 0\nTEXTURE_WIDTH 4\n");
    }
    assert_error_with_line(&rep);
    for bad in ["nan", "NaN", "inf", "-inf", "1e999"] {
        let src =
            format!("A\n1000\nAG_POINT\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH {bad}\nTILE 0 0 4 4\n");
        let d = assert_error_with_line(&src);
        let j = agkit::diag::to_json("x", Some(&src), &d);
        assert!(
            j.iter().any(|d| d.code == "AG0007" && d.line == Some(5)),
            "{bad}"
        );
    }
}

// -------------------------------------------------------------- proptest --

mod generated {
    use super::*;
    use agkit::xp::model::*;
    use proptest::prelude::*;

    fn px() -> impl Strategy<Value = f64> {
        // Quarter pixels from 0 to 4096 inclusive: inside the 0 0 4096 4096 tile.
        (0u32..=4096 * 4).prop_map(|q| f64::from(q) * 0.25)
    }

    fn annotation() -> impl Strategy<Value = AnnotationKind> {
        prop_oneof![
            (
                px(),
                px(),
                -180i32..180,
                0i64..3,
                proptest::option::of((1i64..=3, 3i64..=6))
            )
                .prop_map(|(x, y, h, index, show)| AnnotationKind::Object(ObjectAnn {
                    mode: ObjMode::Graded,
                    at: [x, y],
                    heading: f64::from(h),
                    index,
                    show: show.map(|(a, b)| [a, b]),
                })),
            (px(), px(), 1u32..40, 0i64..3).prop_map(|(x, y, h, index)| {
                AnnotationKind::Object(ObjectAnn {
                    mode: ObjMode::Delta {
                        height: f64::from(h) / 4.0,
                    },
                    at: [x, y],
                    heading: 0.0,
                    index,
                    show: None,
                })
            }),
            (px(), px(), 1u32..30, 0i64..2).prop_map(|(x, y, w, layer)| {
                AnnotationKind::Tree(TreeAnn {
                    at: [x, y],
                    heading: 0.0,
                    width: f64::from(w),
                    layer,
                })
            }),
            (
                proptest::collection::vec((px(), px()), 2..6),
                1u32..20,
                proptest::bool::ANY
            )
                .prop_map(|(pts, h, walls)| {
                    let n = pts.len();
                    AnnotationKind::Facade(FacadeAnn {
                        index: 0,
                        height: f64::from(h),
                        points: pts.into_iter().map(|(x, y)| [x, y]).collect(),
                        walls: walls.then(|| (0..n as i64).collect()),
                    })
                }),
        ]
    }

    prop_compose! {
        fn tile()(id in 0i64..1000, explicit in proptest::bool::ANY,
                  rot in proptest::option::of(0i64..4),
                  anns in proptest::collection::vec(annotation(), 0..6),
                  stops in proptest::collection::vec((px(), px()), 0..3))
            -> Tile {
            Tile {
                id, explicit_id: explicit, rect: [0.0, 0.0, 4096.0, 4096.0], line: 0,
                rotation: rot.map(|value| Lined { value, line: 0 }),
                anchor: Some(Lined { value: [2048.0, 0.0], line: 0 }),
                ground: None, crop_poly: None,
                stop_pts: stops.into_iter().map(|(x, y)| Lined { value: [x, y], line: 0 }).collect(),
                pivot_lead: None, pivot_trail: None,
                annotations: anns.into_iter().map(|kind| Annotation { kind, line: 0 }).collect(),
            }
        }
    }

    fn common() -> Common {
        let l = |v: &str| Lined {
            value: v.to_string(),
            line: 0,
        };
        Common {
            texture: Some(l("t.dds")),
            texture_scale: Some(Lined {
                value: [4096.0, 4096.0],
                line: 0,
            }),
            texture_width: Some(Lined {
                value: 128.0,
                line: 0,
            }),
            objects: vec![l("a.obj"), l("b.obj"), l("c.obj")],
            facades: vec![l("f.fac")],
            vegetation: Some(l("v.for")),
            ..Common::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn agp_and_ags_models_round_trip(
            tiles in proptest::collection::vec(tile(), 1..5),
            string in proptest::bool::ANY,
            pri in proptest::collection::vec(0usize..3, 1..5),
        ) {
            let kind = if string { Kind::Ags } else { Kind::Agp };
            let mut tiles = tiles;
            for (k, t) in tiles.iter_mut().enumerate() {
                // Unique ids; implicit ids are the index.
                if t.explicit_id { t.id = 1000 + k as i64 } else { t.id = k as i64 }
                if kind == Kind::Agp { t.stop_pts.clear(); }
            }
            let mut pri = pri;
            pri.sort_unstable();
            let ids: Vec<i64> = tiles.iter().map(|t| t.id).collect();
            let string_props = string.then(|| StringProps {
                spellings: pri.iter().map(|&p| EdgeSpelling {
                    tiles: ids.clone(), atomic: None, priority: p, line: 0,
                }).collect(),
                caps: vec![Lined { value: vec![ids[0]], line: 0 }],
                ..StringProps::default()
            });
            let asset = Asset {
                kind, common: common(), tiles, block: None, string: string_props,
                meta: vec![], unknown: vec![],
            };
            let text = xp::write::to_string(&asset);
            let back = xp::parse(&text).map_err(|d| {
                TestCaseError::fail(agkit::diag::render_human("gen", Some(&text), &d))
            })?;
            prop_assert_eq!(
                strip_lines(serde_json::to_value(&asset).unwrap()),
                strip_lines(serde_json::to_value(&back).unwrap())
            );
            // Canonical text is a fixed point of fmt.
            prop_assert!(xp::Document::parse(&text).is_canonical());
        }

        #[test]
        fn arbitrary_text_never_panics(s in "(A|1000|AG_BLOCK|AG_STRING|CUT_H|SLOP_H|END_CUTS|TILE|OBJ_DRAPED|SPELLING_S|USE_SPELLING_S|CORNER|CORNER_ORDER|[0-9.-]{1,4}|x|#|\t| |\r\n|\n){0,60}") {
            let d = xp::check(&s);
            let doc = xp::Document::parse(&s);
            prop_assert_eq!(doc.to_string(), s.clone());
            let c = doc.to_canonical();
            prop_assert_eq!(xp::Document::parse(&c).to_canonical(), c);
            let _ = d;
        }
    }
}

// ------------------------------------------------------------------- CLI --

fn agkit(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_fmt_check_in_place_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.agp");
    let messy = "A\r\n1000\r\nAG_POINT\r\n\r\n\r\n\tTEXTURE  t.png \r\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\n# keep me\nTILE 0 0 4 4";
    std::fs::write(&f, messy).unwrap();
    let p = f.to_str().unwrap();
    let (code, out, _) = agkit(&["fmt", p]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "A\n1000\nAG_POINT\n\nTEXTURE t.png\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\n# keep me\nTILE 0 0 4 4\n"
    );
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        messy,
        "fmt without --in-place wrote"
    );
    assert_eq!(agkit(&["fmt", "--check", p]).0, 1);
    assert_eq!(agkit(&["fmt", "--in-place", p]).0, 0);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), out);
    assert_eq!(agkit(&["fmt", "--check", p]).0, 0);
    assert_eq!(agkit(&["fmt", "--check", "--in-place", p]).0, 2);
    assert_eq!(agkit(&["fmt", "/nonexistent/x.agp"]).0, 2);
    let bad = dir.path().join("bad.agp");
    std::fs::write(&bad, "A\n1000\nAG_POINT\nTILE 0 0\n").unwrap();
    assert_eq!(agkit(&["fmt", "--in-place", bad.to_str().unwrap()]).0, 1);
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "A\n1000\nAG_POINT\nTILE 0 0\n"
    );
}

#[test]
fn cli_info_json_and_check() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let (code, out, _) = agkit(&[
        "info",
        "--format",
        "json",
        &format!("{root}/point/plaza.agp"),
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "agp");
    assert_eq!(v["tiles"], 2);
    assert_eq!(v["objects"], 9);
    assert_eq!(v["facades"], 3);
    assert_eq!(v["trees"], 4);
    assert_eq!(v["assets"]["objects"].as_array().unwrap().len(), 4);
    assert_eq!(v["assets"]["vegetation"], "plaza_trees.for");
    assert_eq!(v["errors"], 0);
    assert_eq!(v["warnings"], 0);
    let (code, human, _) = agkit(&["info", &format!("{root}/block/city_block.agb")]);
    assert_eq!(code, 0);
    assert!(human.contains("autogen block"), "{human}");
    assert_eq!(agkit(&["check", root]).0, 0);
    let fx = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/xp/AG0020.agp");
    let (code, out, _) = agkit(&["check", "--format", "json", fx]);
    assert_eq!(code, 1);
    assert!(
        out.contains("\"AG0020\"") && out.contains("\"line\": 11"),
        "{out}"
    );
    assert_eq!(agkit(&["info", fx]).0, 1);
    assert_eq!(agkit(&["info", "/nonexistent.agp"]).0, 2);
}

/// Throughput of parse+validate compared with a plain line scan (run with
/// `cargo test --release --test xp -- --ignored --nocapture throughput`).
#[test]
#[ignore]
fn throughput() {
    let mut src = example("block/city_block.agb");
    let base = src.clone();
    while src.len() < 8_000_000 {
        // Repeat the grids and sets (a big but valid-shaped file).
        let body = &base[base.find("# ---- grid 0").unwrap()..];
        src.push_str(body);
    }
    let t = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..5 {
        n += src
            .lines()
            .map(|l| l.split_ascii_whitespace().count())
            .sum::<usize>();
    }
    let scan = t.elapsed().as_secs_f64() / 5.0;
    let t = std::time::Instant::now();
    let mut d = 0usize;
    for _ in 0..5 {
        d += xp::check(&src).len();
    }
    let full = t.elapsed().as_secs_f64() / 5.0;
    let mb = src.len() as f64 / 1e6;
    println!(
        "{mb:.1} MB: token scan {:.0} MB/s, parse+validate {:.0} MB/s = {:.0}% ({n} {d})",
        mb / scan,
        mb / full,
        100.0 * scan / full
    );
}
