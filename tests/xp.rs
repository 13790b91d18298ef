//! Integration tests of the X-Plane autogen text formats (`agkit::xp`).

use agkit::xp;
use std::path::{Path, PathBuf};

mod xp_support;
use xp_support::strip_lines;

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

fn examples() -> Vec<PathBuf> {
    files_under(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")))
}

fn render(name: &str, src: &str) -> String {
    agkit::diag::render_human(name, Some(src), &xp::check(src))
}

#[test]
fn examples_parse_without_errors_or_warnings() {
    let files = examples();
    assert!(files.len() >= 6, "found only {} files", files.len());
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
fn examples_round_trip_and_fmt_is_idempotent() {
    for f in examples() {
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

/// Every example and rule fixture that is UTF-8 text.
fn text_files() -> Vec<(PathBuf, String)> {
    let fixtures = files_under(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/xp"
    )));
    examples()
        .into_iter()
        .chain(fixtures)
        .filter_map(|f| std::fs::read_to_string(&f).ok().map(|s| (f, s)))
        .collect()
}

/// Line and column, code and message of each diagnostic of `src`.
fn located(src: &str) -> Vec<(Option<usize>, Option<usize>, String, String)> {
    agkit::diag::to_json("x", Some(src), &xp::check(src))
        .into_iter()
        .map(|d| (d.line, d.column, d.code, d.message))
        .collect()
}

proptest::proptest! {
    /// Issue 24, item 9: LF, CRLF and a lone CR are all line ends. Any mix of
    /// them reads the model the LF file reads (line numbers included), with
    /// the same diagnostics at the same lines and columns, and the document
    /// gives the mixed bytes back.
    #[test]
    fn any_mix_of_line_ends_reads_like_lf(
        ends in proptest::collection::vec(0..3usize, 64),
        which in 0..1000usize,
    ) {
        let files = text_files();
        let (f, plain) = &files[which % files.len()];
        let pieces: Vec<&str> = plain.split('\n').collect();
        let mut mixed = String::new();
        let mut prev = "";
        for (i, line) in pieces[..pieces.len() - 1].iter().enumerate() {
            let mut end = ["\n", "\r\n", "\r"][ends[i % ends.len()]];
            // A lone CR before an empty line's LF would be one CRLF.
            if prev == "\r" && line.is_empty() && end == "\n" {
                end = "\r\n";
            }
            mixed.push_str(line);
            mixed.push_str(end);
            prev = end;
        }
        mixed.push_str(pieces[pieces.len() - 1]);
        proptest::prop_assert_eq!(xp::Document::parse(&mixed).to_string(), mixed.clone());
        let (a, b) = (xp::parse_lenient(plain).0, xp::parse_lenient(&mixed).0);
        proptest::prop_assert_eq!(a, b, "{}", f.display());
        proptest::prop_assert_eq!(located(plain), located(&mixed), "{}", f.display());
    }
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

    let k = xp::parse(&example("point/kiosk_cluster.agp")).unwrap();
    assert_eq!(k.tiles[0].rotation_quarters(), 1);
    let p = xp::parse(&example("point/plaza.agp")).unwrap();
    assert_eq!(p.tiles[0].rotation_quarters(), 0);
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
    use proptest::collection::vec;
    use proptest::option::of;
    use proptest::prelude::*;

    /// The texture is 4096 × 4096 pixels and every tile, grid and annotation
    /// stays inside it.
    const SIZE: u32 = 4096;

    fn px() -> impl Strategy<Value = f64> {
        // Quarter pixels from 0 to SIZE inclusive: inside the 0 0 SIZE SIZE tile.
        (0u32..=SIZE * 4).prop_map(|q| f64::from(q) * 0.25)
    }

    fn pt() -> impl Strategy<Value = Px> {
        (px(), px()).prop_map(|(x, y)| [x, y])
    }

    /// A `[lo, hi]` range of whole numbers from `lo..hi`, lo <= hi.
    fn range2(lo: i32, hi: i32) -> impl Strategy<Value = Range2> {
        (lo..hi, lo..hi).prop_map(|(a, b)| [f64::from(a.min(b)), f64::from(a.max(b))])
    }

    /// A path, sometimes with a run of spaces inside (kept verbatim by fmt).
    fn path(ext: &'static str) -> impl Strategy<Value = String> {
        "[a-z][a-z0-9_/]{0,8}( {1,3}[a-z0-9]{1,5}){0,2}".prop_map(move |p| format!("{p}.{ext}"))
    }

    fn lined<T>(value: T) -> Lined<T> {
        Lined { value, line: 0 }
    }

    fn show() -> impl Strategy<Value = Option<ShowLevels>> {
        of((1i64..=6, 1i64..=6).prop_map(|(a, b)| [a.min(b), a.max(b)]))
    }

    fn annotation() -> impl Strategy<Value = AnnotationKind> {
        let mode = prop_oneof![
            Just(ObjMode::Draped),
            Just(ObjMode::Graded),
            (0u32..50, 0u32..50, 1u32..16).prop_map(|(a, b, step)| ObjMode::Scraper {
                min: f64::from(a.min(b)),
                max: f64::from(a.max(b)),
                step: f64::from(step) / 2.0,
            }),
            (-40i32..40).prop_map(|h| ObjMode::Delta {
                height: f64::from(h) / 4.0
            }),
        ];
        prop_oneof![
            (mode, pt(), -180i32..180, 0i64..3, show()).prop_map(|(mode, at, h, index, show)| {
                AnnotationKind::Object(ObjectAnn {
                    mode,
                    at,
                    heading: f64::from(h),
                    index,
                    show,
                })
            }),
            (pt(), -180i32..180, 1u32..30, 0i64..2).prop_map(|(at, h, w, layer)| {
                AnnotationKind::Tree(TreeAnn {
                    at,
                    heading: f64::from(h),
                    width: f64::from(w),
                    layer,
                })
            }),
            (pt(), pt(), 0i64..3).prop_map(|(from, to, layer)| {
                AnnotationKind::TreeLine(TreeLineAnn { from, to, layer })
            }),
            (vec(pt(), 2..6), 1u32..20, 0i64..2, any::<bool>()).prop_map(
                |(points, h, index, walls)| {
                    let n = points.len();
                    AnnotationKind::Facade(FacadeAnn {
                        index,
                        height: f64::from(h),
                        points,
                        walls: walls.then(|| (0..n as i64).map(|k| k % 3).collect()),
                    })
                }
            ),
        ]
    }

    /// A clockwise convex crop polygon (a rectangle, y up) inside the tile.
    fn crop_poly() -> impl Strategy<Value = Vec<Px>> {
        (
            0u32..SIZE / 2,
            0u32..SIZE / 2,
            1u32..SIZE / 2,
            1u32..SIZE / 2,
        )
            .prop_map(|(l, b, w, h)| {
                let (l, b, r, t) = (
                    f64::from(l),
                    f64::from(b),
                    f64::from(l + w),
                    f64::from(b + h),
                );
                vec![[l, b], [l, t], [r, t], [r, b]]
            })
    }

    prop_compose! {
        fn tile()(id in 0i64..1000, explicit in any::<bool>(),
                  rot in of(0i64..4),
                  anchor in of(pt()), ground in of(pt()), crop in of(crop_poly()),
                  pivots in of((pt(), pt())),
                  anns in vec(annotation(), 0..6),
                  stops in vec(pt(), 0..3))
            -> Tile {
            Tile {
                id, explicit_id: explicit, rect: [0.0, 0.0, f64::from(SIZE), f64::from(SIZE)], line: 0,
                rotation: rot.map(lined),
                anchor: anchor.map(lined),
                ground: ground.map(lined),
                crop_poly: crop.map(lined),
                stop_pts: stops.into_iter().map(lined).collect(),
                pivot_lead: pivots.map(|p| lined(p.0)),
                pivot_trail: pivots.map(|p| lined(p.1)),
                annotations: anns.into_iter().map(|kind| Annotation { kind, line: 0 }).collect(),
            }
        }
    }

    prop_compose! {
        fn common()(texture in path("dds"), lit in of(path("dds")),
                    normal in of((of(1u32..8), path("png"))),
                    height in of(1u32..400), lod in of(1u32..40_000),
                    layer in of((-5i64..5, "[a-z]{3,10}")),
                    slope in of((range2(-30, 30), range2(-30, 30))),
                    hide in any::<bool>(), decals in vec(path("dcl"), 0..2),
                    no_blend in of(of(0u32..=4)),
                    objects in vec(path("obj"), 3..5), facades in vec(path("fac"), 2..3),
                    vegetation in path("for"))
            -> Common {
            Common {
                texture: Some(lined(texture)),
                texture_lit: lit.map(lined),
                texture_normal: normal.map(|(r, p)| lined(TextureNormal { ratio: r.map(f64::from), path: p })),
                texture_scale: Some(lined([f64::from(SIZE), f64::from(SIZE)])),
                texture_width: Some(lined(128.0)),
                texture_height: height.map(|h| lined(f64::from(h))),
                decal_lib: decals.into_iter().map(lined).collect(),
                no_blend: no_blend.map(|v| lined(v.map(|q| f64::from(q) / 4.0))),
                layer_group: layer.map(|(offset, name)| lined(LayerGroup { name, offset })),
                tile_lod: lod.map(|l| lined(f64::from(l))),
                slope_limit: slope.map(|(p, r)| lined([p[0], p[1], r[0], r[1]])),
                hide_tiles: hide.then_some(0),
                objects: objects.into_iter().map(lined).collect(),
                facades: facades.into_iter().map(lined).collect(),
                vegetation: Some(lined(vegetation)),
                ..Common::default()
            }
        }
    }

    /// Corner conditions of every kind (lengths not negative).
    fn corner_kind() -> impl Strategy<Value = CornerKind> {
        prop_oneof![
            range2(-180, 180).prop_map(|angle| CornerKind::Corner { angle }),
            (range2(0, 100), range2(-180, 180), range2(0, 100), 0i64..3).prop_map(
                |(len1, angle, len2, group)| CornerKind::Len {
                    len1,
                    angle,
                    len2,
                    group
                }
            ),
            (
                range2(-180, 180),
                range2(0, 100),
                range2(-180, 180),
                0i64..3
            )
                .prop_map(|(angle1, length, angle2, group)| CornerKind::Pair {
                    angle1,
                    length,
                    angle2,
                    group
                }),
            (range2(0, 100), range2(-180, 180), range2(0, 100), 0i64..3).prop_map(
                |(len1, angle, len2, group)| CornerKind::Atomic {
                    len1,
                    angle,
                    len2,
                    group
                }
            ),
        ]
    }

    /// Seeds of the AGS selection rules; tile ids are picked by index modulo
    /// the tile count once the tiles are known.
    type RuleSeeds = (
        Option<(u32, u32)>,
        Option<i64>,
        bool,
        Vec<Vec<usize>>,
        Vec<(CornerKind, bool, Vec<usize>, Option<usize>, usize)>,
        Vec<(Option<(Range2, i64)>, Vec<usize>, usize)>,
        Vec<Vec<usize>>,
    );

    fn rule_seeds() -> impl Strategy<Value = RuleSeeds> {
        (
            of((0u32..180, 0u32..180)),
            of(0i64..3),
            any::<bool>(),
            vec(vec(0usize..100, 1..4), 0..3),
            vec(
                (
                    corner_kind(),
                    any::<bool>(),
                    vec(0usize..100, 3),
                    of(0usize..6),
                    0usize..3,
                ),
                0..4,
            ),
            vec(
                (
                    of((range2(0, 200), 0i64..3)),
                    vec(0usize..100, 1..5),
                    0usize..3,
                ),
                1..5,
            ),
            vec(vec(0usize..100, 1..3), 0..3),
        )
    }

    const PERMUTATIONS: [[i64; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];

    fn string_props(ids: &[i64], seeds: RuleSeeds) -> StringProps {
        let (crease, fill, share, groups, corners, spellings, caps) = seeds;
        let pick = |v: &[usize]| v.iter().map(|&k| ids[k % ids.len()]).collect::<Vec<i64>>();
        let mut corners: Vec<CornerRule> = corners
            .into_iter()
            .map(|(kind, three, tiles, order, priority)| {
                let tiles = pick(if three { &tiles[..] } else { &tiles[..1] });
                CornerRule {
                    kind,
                    order: order.filter(|_| three).map(|k| lined(PERMUTATIONS[k])),
                    tiles,
                    priority,
                    line: 0,
                }
            })
            .collect();
        corners.sort_by_key(|c| c.priority);
        let mut spellings: Vec<EdgeSpelling> = spellings
            .into_iter()
            .map(|(atomic, tiles, priority)| EdgeSpelling {
                tiles: pick(&tiles),
                atomic: atomic.map(|(length, group)| AtomicCond { length, group }),
                priority,
                line: 0,
            })
            .collect();
        spellings.sort_by_key(|s| s.priority);
        StringProps {
            creasing_angle: crease.map(|(l, r)| lined([f64::from(l), f64::from(r)])),
            fill_layer: fill.map(lined),
            share_y: share.then_some(0),
            groups: groups
                .iter()
                .enumerate()
                .map(|(k, g)| Group {
                    id: k as i64 + 1,
                    tiles: pick(g),
                    line: 0,
                })
                .collect(),
            corners,
            spellings,
            caps: caps.iter().map(|c| lined(pick(c))).collect(),
        }
    }

    fn check_round_trip(asset: &Asset) -> Result<(), TestCaseError> {
        let text = xp::write::to_string(asset);
        let back = xp::parse(&text)
            .map_err(|d| TestCaseError::fail(agkit::diag::render_human("gen", Some(&text), &d)))?;
        prop_assert_eq!(
            strip_lines(serde_json::to_value(asset).unwrap()),
            strip_lines(serde_json::to_value(&back).unwrap()),
            "{}",
            text
        );
        // Canonical text is a fixed point of fmt.
        prop_assert!(xp::Document::parse(&text).is_canonical(), "{}", text);
        Ok(())
    }

    // ------------------------------------------------------------ AGB ----

    /// Cut lines from 0 to SIZE with up to four in between (multiples of 64).
    fn cut_list() -> impl Strategy<Value = Vec<f64>> {
        proptest::collection::btree_set(1u32..(SIZE / 64), 0..5).prop_map(|inner| {
            std::iter::once(0.0)
                .chain(inner.into_iter().map(|k| f64::from(k * 64)))
                .chain(std::iter::once(f64::from(SIZE)))
                .collect()
        })
    }

    /// What a band is: slop with an overlap (at most 16 px, bands are 64 px
    /// or more) or not slop with an anti-slop.
    #[derive(Debug, Clone, Copy)]
    enum BandSeed {
        Slop(u32),
        Anti(u32),
    }

    fn band_seed() -> impl Strategy<Value = BandSeed> {
        prop_oneof![
            (0u32..=4).prop_map(|q| BandSeed::Slop(q * 4)),
            (0u32..=4).prop_map(|q| BandSeed::Anti(q * 4)),
        ]
    }

    fn bands(cuts: &[f64], seeds: &[BandSeed]) -> Vec<Band> {
        cuts.windows(2)
            .zip(seeds.iter().cycle())
            .map(|(w, seed)| {
                let (slop, antislop) = match *seed {
                    BandSeed::Slop(o) => (Some(f64::from(o)), 0.0),
                    BandSeed::Anti(a) => (None, f64::from(a)),
                };
                Band {
                    start: w[0],
                    end: w[1],
                    slop,
                    antislop,
                    line: 0,
                }
            })
            .collect()
    }

    prop_compose! {
        fn grid()(ch in cut_list(), cv in cut_list(),
                  sh in vec(band_seed(), 6), sv in vec(band_seed(), 6),
                  anns in vec(annotation(), 0..6),
                  formula in of((0u32..=4, -20i32..20, 0u32..=4, -20i32..20)),
                  edges in of((0u32..8, 0u32..8)), explicit in any::<bool>())
            -> Grid {
            let mut annotations: Vec<Annotation> =
                anns.into_iter().map(|kind| Annotation { kind, line: 0 }).collect();
            if let Some((xr, xd, yr, yd)) = formula.filter(|_| !annotations.is_empty()) {
                let g = GroundFormula {
                    x_ratio: f64::from(xr) / 4.0,
                    x_delta: f64::from(xd),
                    y_ratio: f64::from(yr) / 4.0,
                    y_delta: f64::from(yd),
                };
                annotations.insert(1, Annotation { kind: AnnotationKind::GroundFormula(g), line: 0 });
            }
            let edge = |inset: u32| {
                let i = f64::from(inset * 16);
                lined([i, i, f64::from(SIZE) - i, f64::from(SIZE) - i])
            };
            Grid {
                line: explicit.then_some(0),
                columns: bands(&ch, &sh),
                rows: bands(&cv, &sv),
                cuts_h: ch.into_iter().map(lined).collect(),
                cuts_v: cv.into_iter().map(lined).collect(),
                end_cuts: Some(0),
                edge_max: edges.map(|_| edge(0)),
                edge_best: edges.map(|(a, _)| edge(a)),
                edge_min: edges.map(|(a, b)| edge(a + b)),
                annotations,
            }
        }
    }

    /// Seeds of one spelling set: indices are taken modulo the band counts
    /// of the grid it uses; `Err(k)` recalls named spelling `k`.
    type SetSeed = (
        i64,
        [Option<Range2>; 3],
        Option<u32>,
        Option<usize>,
        Vec<Result<Vec<usize>, usize>>,
        Vec<Result<Vec<usize>, usize>>,
    );

    fn set_seed() -> impl Strategy<Value = SetSeed> {
        let spelling =
            || prop_oneof![3 => vec(0usize..50, 1..5).prop_map(Ok), 1 => (0usize..4).prop_map(Err)];
        (
            0i64..256,
            [of(range2(0, 300)), of(range2(0, 300)), of(range2(0, 300))],
            of(0u32..=16),
            of(0usize..4),
            vec(spelling(), 1..4),
            vec(spelling(), 1..4),
        )
    }

    prop_compose! {
        fn block()(grids in vec(grid(), 1..3), crop in of(any::<bool>()), flip in any::<bool>(),
                   named in (vec(vec(0usize..50, 1..4), 0..3), vec(vec(0usize..50, 1..4), 0..3)),
                   sets in vec(set_seed(), 1..4))
            -> BlockProps {
            let mut grids = grids;
            for g in grids.iter_mut().skip(1) {
                g.line = Some(0);
            }
            // Named spellings must fit every grid a set may use.
            let min_cols = grids.iter().map(|g| g.columns.len()).min().unwrap_or(1) as i64;
            let min_rows = grids.iter().map(|g| g.rows.len()).min().unwrap_or(1) as i64;
            let name = |list: &[Vec<usize>], axis: char, n: i64| -> Vec<NamedSpelling> {
                list.iter().enumerate().map(|(k, v)| NamedSpelling {
                    name: format!("{axis}{k}"),
                    indices: v.iter().map(|&i| i as i64 % n).collect(),
                    line: 0,
                }).collect()
            };
            let named_s = name(&named.0, 's', min_cols);
            let named_t = name(&named.1, 't', min_rows);
            let spelling_sets = sets.into_iter().map(|(param, ranges, freq, use_grid, ss, ts)| {
                let use_grid = use_grid.map(|g| (g % grids.len()) as i64);
                let g = &grids[use_grid.unwrap_or(0) as usize];
                let spell = |seeds: Vec<Result<Vec<usize>, usize>>, named: &[NamedSpelling], n: usize| {
                    seeds.into_iter().map(|s| match s {
                        Err(k) if !named.is_empty() => {
                            let nm = &named[k % named.len()];
                            Spelling { indices: nm.indices.clone(), name: Some(nm.name.clone()), line: 0 }
                        }
                        Err(k) => Spelling { indices: vec![(k % n) as i64], name: None, line: 0 },
                        Ok(v) => Spelling { indices: v.iter().map(|&i| (i % n) as i64).collect(), name: None, line: 0 },
                    }).collect()
                };
                SpellingSet {
                    param,
                    line: 0,
                    height_range: ranges[0].map(lined),
                    width_range: ranges[1].map(lined),
                    depth_range: ranges[2].map(lined),
                    frequency: freq.map(|f| lined(f64::from(f) / 4.0)),
                    use_grid: use_grid.map(lined),
                    spellings_s: spell(ss, &named_s, g.columns.len()),
                    spellings_t: spell(ts, &named_t, g.rows.len()),
                }
            }).collect();
            BlockProps {
                crop: crop.map(lined),
                flip_180: flip.then_some(0),
                grids,
                spelling_sets,
                named_s,
                named_t,
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn agp_and_ags_models_round_trip(
            tiles in vec(tile(), 1..5),
            string in any::<bool>(),
            common in common(),
            rules in rule_seeds(),
        ) {
            let kind = if string { Kind::Ags } else { Kind::Agp };
            let mut tiles = tiles;
            for (k, t) in tiles.iter_mut().enumerate() {
                // Unique ids; implicit ids are the index.
                if t.explicit_id { t.id = 1000 + k as i64 } else { t.id = k as i64 }
                if kind == Kind::Agp {
                    t.stop_pts.clear();
                    t.pivot_lead = None;
                    t.pivot_trail = None;
                }
            }
            let ids: Vec<i64> = tiles.iter().map(|t| t.id).collect();
            let asset = Asset {
                kind, common, tiles, block: None,
                string: string.then(|| string_props(&ids, rules)),
                meta: vec![], unknown: vec![],
            };
            check_round_trip(&asset)?;
        }

        #[test]
        fn agb_models_round_trip(common in common(), block in block()) {
            let asset = Asset {
                kind: Kind::Agb, common, tiles: vec![], block: Some(block), string: None,
                meta: vec![], unknown: vec![],
            };
            check_round_trip(&asset)?;
        }

        #[test]
        fn arbitrary_text_never_panics(s in "(A|1000|AG_BLOCK|AG_STRING|CUT_H|SLOP_H|END_CUTS|TILE|OBJ_DRAPED|SPELLING_S|USE_SPELLING_S|CORNER|CORNER_ORDER|TEXTURE|\u{feff}|[0-9.-]{1,4}|x|#|\t| |\r\n|\n){0,60}") {
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
    let (code, out, err) = agkit(&["fmt", p]);
    assert_eq!(code, 0);
    assert!(
        err.contains("line ends written as LF (the file had 6 CRLF line end(s))"),
        "{err}"
    );
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
    let (_, _, err) = agkit(&["fmt", p]);
    assert!(!err.contains("line ends"), "{err}");
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

// ------------------------------------------------ stdin, pipes, selection --

/// Runs agkit with `input` on standard input.
fn agkit_stdin(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread so a large output cannot dead-lock the pipes; a
    // command that stops reading early may close the pipe: not an error here.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_dash_reads_standard_input() {
    let messy = "A\r\n1000\r\nAG_POINT\r\n\tTEXTURE  t.png \r\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\nTILE 0   0 4 4";
    let canonical =
        "A\n1000\nAG_POINT\nTEXTURE t.png\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\nTILE 0 0 4 4\n";
    assert_eq!(
        agkit_stdin(&["fmt", "-"], messy.as_bytes()),
        (
            0,
            canonical.to_string(),
            "note: <stdin>: line ends written as LF (the file had 4 CRLF line end(s))\n"
                .to_string()
        )
    );
    let (code, out, _) = agkit_stdin(&["fmt", "--check", "-"], messy.as_bytes());
    assert_eq!(
        (code, out.as_str()),
        (1, "<stdin>: not in canonical form\n")
    );
    assert_eq!(
        agkit_stdin(&["fmt", "--check", "-"], canonical.as_bytes()).0,
        0
    );
    let (code, _, err) = agkit_stdin(&["fmt", "--in-place", "-"], messy.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("--in-place"), "{err}");

    let plaza = example("point/plaza.agp");
    let (code, out, _) = agkit_stdin(&["info", "--format", "json", "-"], plaza.as_bytes());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["format"].as_str(), v["tiles"].as_u64()),
        (Some("agp"), Some(2))
    );
    let (code, out, _) = agkit_stdin(&["info", "-"], b"hello\n");
    assert_eq!((code, out.as_str()), (1, ""));

    assert_eq!(agkit_stdin(&["check", "-"], plaza.as_bytes()).0, 0);
    let (code, out, _) = agkit_stdin(
        &["check", "--format", "json", "-"],
        b"A\n1000\nAG_POINT\nTILE 0 0\n",
    );
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let first = &v.as_array().unwrap()[0];
    assert_eq!(first["file"], "<stdin>");
    assert!(first["line"].as_u64().is_some(), "{out}");
}

#[test]
fn cli_closed_stdout_ends_quietly_with_status_0() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big.agp");
    // About 2 MB of canonical text: far more than a pipe buffers.
    let mut text =
        String::from("A\n1000\nAG_POINT\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\nTILE 0 0 4 4\n");
    for i in 0..20_000 {
        text.push_str(&format!("# comment {i:06} {}\n", "x".repeat(80)));
    }
    std::fs::write(&f, &text).unwrap();
    let p = f.to_str().unwrap();
    for args in [vec!["fmt", p], vec!["fmt", p, p, p]] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before reading anything (`| head -0`).
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // As ripgrep does: the reader going away is not a failure.
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.is_empty(), "not quiet: {err}");
    }
}

#[test]
fn cli_check_dir_selects_files_by_header_or_extension() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("sub")).unwrap();
    // An autogen header, an unknown extension and an error: checked.
    std::fs::write(
        d.join("sub/asset.txt"),
        "A\r\n1000\r\nAG_POINT\r\nTILE 0 0\r\n",
    )
    .unwrap();
    // An autogen header with a byte-order mark and no extension: checked.
    std::fs::write(
        d.join("NOEXT"),
        "\u{feff}I\n1000\nAG_STRING\nTEXTURE t.dds\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\nTILE 0 0 4 4\nSPELLING 0\n",
    )
    .unwrap();
    // An autogen header ended by lone CRs (classic Mac OS), with a
    // warning (AG0013): checked.
    std::fs::write(
        d.join("MAC"),
        "A\r1000\rAG_POINT\rTEXTURE t.dds\rTEXTURE_WIDTH 4\rTILE 0 0 4 4\r",
    )
    .unwrap();
    // By extension even with a broken header: checked.
    std::fs::write(d.join("broken.agb"), "hello\n").unwrap();
    // Neither: skipped (it would be an error if it were checked).
    std::fs::write(d.join("notes.txt"), "A\n1001\nAG_POINT\nTILE 0 0\n").unwrap();
    std::fs::write(d.join("readme.md"), "# not autogen\n").unwrap();
    let (code, out, err) = agkit(&["check", "--format", "json", d.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // (Leaving out the texture t.dds the assets name, not written here.)
    let mut files: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] != "AG0085")
        .map(|d| {
            Path::new(d["file"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.dedup();
    assert_eq!(files, ["MAC", "broken.agb", "asset.txt"], "{out}");
    assert!(err.starts_with("checked 4 files"), "{err}");
    // fmt selects the same text files (the broken ones are refused).
    let (code, _, err) = agkit(&["fmt", "--check", d.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("asset.txt") && !err.contains("notes.txt"),
        "{err}"
    );
}

// ------------------------------------------------------- fmt and meaning --

#[test]
fn fmt_keeps_paths_with_runs_of_spaces_verbatim() {
    let src = "A\n1000\nAG_POINT\nTEXTURE   my  tex.dds  \nTEXTURE_NORMAL  2.0   my\t normal.png\nTEXTURE_SCALE  4 4\nTEXTURE_WIDTH 4\nOBJECT  obj/a   b.obj\nVEGETATION  v  v.for\nTILE 0 0 4 4\nOBJ_DRAPED  1 1 0 0\n";
    let doc = xp::Document::parse(src);
    let canon = doc.to_canonical();
    assert_eq!(
        canon,
        "A\n1000\nAG_POINT\nTEXTURE my  tex.dds\nTEXTURE_NORMAL 2.0 my\t normal.png\nTEXTURE_SCALE 4 4\nTEXTURE_WIDTH 4\nOBJECT obj/a   b.obj\nVEGETATION v  v.for\nTILE 0 0 4 4\nOBJ_DRAPED 1 1 0 0\n"
    );
    let a = xp::parse(src).unwrap();
    let b = xp::parse(&canon).unwrap();
    assert_eq!(a.common.texture.as_ref().unwrap().value, "my  tex.dds");
    assert_eq!(a.common, b.common);
    assert_eq!(
        b.common.texture_normal.as_ref().unwrap().value.path,
        "my\t normal.png"
    );
    assert!(xp::Document::parse(&canon).is_canonical());
    // And through the CLI.
    let (code, out, _) = agkit_stdin(&["fmt", "-"], src.as_bytes());
    assert_eq!((code, out), (0, canon));
}

#[test]
fn byte_order_marks_at_the_start_and_elsewhere() {
    let plain = example("block/city_block.agb");
    let with_bom = format!("\u{feff}{plain}");
    let doc = xp::Document::parse(&with_bom);
    assert!(doc.has_bom());
    assert_eq!(doc.to_string(), with_bom);
    assert!(xp::check(&with_bom).is_empty());
    assert_eq!(
        doc.to_canonical(),
        xp::Document::parse(&plain).to_canonical()
    );
    // A stray U+FEFF (e.g. two files concatenated) is reported with its line,
    // never a panic, and kept byte for byte.
    for stray in [
        format!("\u{feff}{}", with_bom),
        plain.replacen("TEXTURE_SCALE", "\u{feff}TEXTURE_SCALE", 1),
        plain.replacen("CUT_H 0", "CUT_H \u{feff}0", 1),
        plain.replacen("END_CUTS", "END_CUTS \u{feff}", 1),
        format!("{plain}\u{feff}"),
    ] {
        let diags = xp::check(&stray);
        assert!(!diags.is_empty(), "no diagnostic for {stray:?}");
        let json = agkit::diag::to_json("x", Some(&stray), &diags);
        assert!(json.iter().all(|d| d.line.is_some()));
        assert!(
            json.iter().any(|d| d.message.contains("U+FEFF")),
            "{json:?}"
        );
        assert_eq!(xp::Document::parse(&stray).to_string(), stray);
    }
}

#[test]
fn spec_typo_spellings_are_accepted_like_the_correct_ones() {
    let typo = "A\n1000\nAG_BLOCK\nTEXTURE t.dds\nTEXTURE_SCALE 1024 1024\nTEXTURE_WIDTH 100\nCUT_H 0\nCUT_H 100\nCUT_H 200\nCUT_V 0\nCUT_V 100\nEND_CUTS\nDEFINE_SPELLING_Sname 0 1\nDEFINE_SPELLING_Trow 0\nDEFINE_SPELLING_S other 1\nSPELLING_SET 0\nUSE_SPELLING_S name\nUSE_SPELLING_t row\nUSE_SPELLING_s other\n";
    let fixed = typo
        .replace("DEFINE_SPELLING_Sname", "DEFINE_SPELLING_S name")
        .replace("DEFINE_SPELLING_Trow", "DEFINE_SPELLING_T row")
        .replace("USE_SPELLING_t", "USE_SPELLING_T")
        .replace("USE_SPELLING_s", "USE_SPELLING_S");
    let a = xp::parse(typo).unwrap_or_else(|_| panic!("{}", render("typo", typo)));
    let b = xp::parse(&fixed).unwrap();
    assert_eq!(a, b);
    let block = a.block.unwrap();
    assert_eq!(block.named_s[0].name, "name");
    assert_eq!(block.named_t[0].name, "row");
    assert_eq!(block.spelling_sets[0].spellings_s[1].indices, [1]);
    // The spec's own spellings draw no warning; other lower-case keywords do.
    let warnings: Vec<_> = xp::check(typo).into_iter().map(|d| d.code).collect();
    assert_eq!(warnings, ["AG0076"], "{}", render("typo", typo));
    // fmt keeps them as written.
    assert!(xp::Document::parse(typo).is_canonical());
}

/// Every directive the writer emits is one the reader's table knows: the
/// first token of every line of each example written back (header and
/// comments aside, and the unknown directives the model keeps as written).
#[test]
fn written_directives_are_in_the_table() {
    for f in examples() {
        let asset = xp::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let text = xp::write::to_string(&asset);
        for (n, line) in text.lines().enumerate().skip(3) {
            let Some(first) = line.split_whitespace().next() else {
                continue;
            };
            if first.starts_with('#') || asset.unknown.iter().any(|u| u.keyword == first) {
                continue;
            }
            assert!(
                xp::parse::KEYWORDS.contains(&first),
                "{}: written line {} starts with `{first}`, not a directive of the table",
                f.display(),
                n + 1
            );
        }
    }
}
