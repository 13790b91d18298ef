//! The art readers on small fixtures made for them (`tests/fixtures/art/`:
//! text files by hand, textures by `make_textures.py`): each reader's typed
//! model, every diagnostic code (a fixture and a snapshot each), the
//! footprint property, and hostile input.

use agkit::check::{ArtKind, ArtSummary, summarize_art};
use agkit::diag::{Diagnostic, Rule, Severity, render_human};
use agkit::limits::Limits;
use agkit::obj::{Obj, Select};
use agkit::{fac, forest, obj, texture};
use assert_cmd::Command;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/art")
        .join(name)
}

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn house() -> Obj {
    obj::read(&bytes("house.obj"), "house.obj", &Limits::default()).unwrap()
}

#[test]
fn obj_model_keeps_lods_draped_animated_and_lights() {
    let o = house();
    assert_eq!(o.version, 800);
    assert_eq!(o.point_counts, [15, 0, 1, 24]);
    assert_eq!(o.vertices.len(), 15);
    assert_eq!(o.vertices[4].position, [0.0, 5.0, 0.0]);
    assert_eq!(o.vertices[4].uv, [0.5, 0.5]);
    assert_eq!(o.indices.len(), 24);
    assert_eq!(o.lods.len(), 2);
    assert_eq!((o.lods[0].near, o.lods[0].far), (0.0, 1000.0));
    assert_eq!((o.lods[1].near, o.lods[1].far), (1000.0, 5000.0));
    let flags: Vec<_> = o
        .draws
        .iter()
        .map(|d| (d.offset, d.count, d.lod, d.draped, d.animated))
        .collect();
    assert_eq!(
        flags,
        [
            (0, 12, 0, false, false),
            (12, 6, 0, true, false),
            (18, 3, 0, false, true),
            (0, 1, 0, false, false),
            (21, 3, 1, false, false),
        ]
    );
    assert_eq!(o.lights.named, 1);
    assert_eq!(o.lights.param, 1);
    assert_eq!(o.lights.points, 1);
    assert_eq!(o.lights.total(), 3);
    assert_eq!(o.animations, 1);
    assert_eq!(o.lod_draped, Some(2000.0));
    assert_eq!(o.texture("TEXTURE"), Some("house.png"));
    assert_eq!(o.texture("TEXTURE_LIT"), Some("house_LIT.png"));
    assert_eq!(o.texture("TEXTURE_DRAPED"), Some("yard.png"));
}

#[test]
fn obj_derived_values_are_lod0_only() {
    let o = house();
    assert_eq!(o.triangle_count(Select::Solid), 5);
    assert_eq!(o.triangle_count(Select::Draped), 2);
    assert_eq!(o.triangle_count(Select::Static), 4);
    assert_eq!(o.triangle_count(Select::All), 7);
    // Draped yard in the bounds, the far LOD out of them.
    let b = o.bounds().unwrap();
    assert_eq!(b.min, [-4.0, 0.0, -4.0]);
    assert_eq!(b.max, [4.0, 7.0, 4.0]);
    // The flag at rest stands 7 m tall.
    assert_eq!(o.height(), Some(7.0));
    // Base corners and the flag's foot; the yard is draped, not solid.
    let mut fp = o.footprint();
    fp.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(
        fp,
        [
            [-2.0, -3.0],
            [-2.0, 3.0],
            [2.0, -3.0],
            [2.0, 3.0],
            [2.6, 0.0]
        ]
    );
}

#[test]
fn obj_info_json_has_the_promised_keys() {
    let out = Command::cargo_bin("agkit")
        .unwrap()
        .args(["info", "--format", "json"])
        .arg(fixture("house.obj"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "obj");
    assert_eq!(v["bounds"]["min"], serde_json::json!([-4.0, 0.0, -4.0]));
    assert_eq!(v["bounds"]["max"], serde_json::json!([4.0, 7.0, 4.0]));
    assert_eq!(v["footprint"].as_array().unwrap().len(), 5);
    assert_eq!(v["triangles"], 5);
    assert_eq!(v["draped_triangles"], 2);
    assert_eq!(v["textures"]["TEXTURE"], "house.png");
    assert_eq!(v["height"], 7.0);
}

#[test]
fn type1_facade_stacks_floors_for_its_height_range() {
    let f = fac::read(&bytes("house.fac"), "house.fac", &Limits::default()).unwrap();
    assert!(!f.is_type2());
    assert_eq!(f.version, 800);
    assert!(f.ring && !f.two_sided);
    assert_eq!(f.lods.len(), 2);
    assert_eq!(f.lods[0].walls.len(), 2);
    let w = &f.lods[0].walls[0];
    assert_eq!(
        (w.min_width, w.max_width, w.scale),
        (2.0, 50.0, [10.0, 20.0])
    );
    assert_eq!((w.across.len(), w.up.len()), (3, 3));
    assert_eq!(f.lods[0].walls[1].name.as_deref(), Some("short"));
    // 2 floors: a middle and the top; 4 floors: bottom, middle, middle,
    // top (bands 0.15, 0.15, 0.1 of a texture 20 m tall).
    let h = f.height_range().unwrap();
    assert!((h.min - 5.0).abs() < 1e-9, "{h:?}");
    assert!((h.max.unwrap() - 11.0).abs() < 1e-9, "{h:?}");
    assert_eq!(f.wall_texture(), Some("house_fac.png"));
    // The roof is cut from the wall texture.
    assert_eq!(f.roof_texture(), Some("house_fac.png"));
    assert_eq!(f.textures["wall_lit"], "house_fac_LIT.png");
    let choices = f.wall_choices();
    assert_eq!(choices, [(None, 2.0, 50.0), (Some("short"), 0.0, 2.0)]);
}

#[test]
fn type2_facade_has_floors_segments_and_roof_heights() {
    let f = fac::read(&bytes("terminal.fac"), "terminal.fac", &Limits::default()).unwrap();
    assert!(f.is_type2());
    assert!(f.graded);
    assert_eq!(f.floors.len(), 2);
    let g = &f.floors[0];
    assert_eq!(g.name, "ground");
    assert_eq!(g.segments.len(), 2);
    assert_eq!(g.segments[0].attached, [0]);
    assert_eq!(g.segments[0].meshes[0].vertices, 4);
    assert_eq!(g.segments[0].meshes[0].indices, 6);
    assert_eq!(g.segments[1].meshes[0].bounds.unwrap().min[2], -2.0);
    assert_eq!(g.walls[0].name.as_deref(), Some("main"));
    assert_eq!(g.walls[0].spellings, [vec![0, 1], vec![0]]);
    // The upper floor's MESH leaves out the group (older exporters).
    assert_eq!(f.floors[1].segments[0].meshes[0].declared, [3, 3]);
    let h = f.height_range().unwrap();
    assert_eq!((h.min, h.max), (6.0, Some(12.0)));
    assert_eq!(f.wall_texture(), Some("wall.png"));
    assert_eq!(f.roof_texture(), Some("roof.png"));
    assert_eq!(f.textures["wall_normal"], "wall_NML.png");
    assert_eq!(f.objects, ["door.obj"]);
    assert_eq!(f.roof_scale, Some([10.0, 10.0]));
}

#[test]
fn forest_layers_percentages_heights_and_3d_trees() {
    let c = forest::check(&bytes("trees.for"), &Limits::default());
    let codes: Vec<&str> = c.diagnostics.iter().map(|d| d.code.as_str()).collect();
    // The zero-width tree is kept but never drawn.
    assert_eq!(codes, ["FOR0007"]);
    let f = c.value.unwrap();
    assert_eq!(f.scale, [512.0, 256.0]);
    assert_eq!(f.spacing, [12.0, 14.0]);
    assert_eq!(f.random, [3.0, 4.0]);
    assert_eq!(f.skip_surfaces, ["water"]);
    assert_eq!(f.trees.len(), 4);
    assert_eq!(f.layers(), [0, 1]);
    let l0 = f.layer(0);
    assert_eq!(l0.len(), 2);
    assert_eq!(l0[0].name.as_deref(), Some("oak"));
    assert_eq!(l0[1].name, None);
    assert_eq!(f.layer(1)[0].name.as_deref(), Some("low bush"));
    assert_eq!(f.height_range(0), Some([6.0, 12.0]));
    assert_eq!(l0[0].aspect(), 0.5);
    // 60 % oak, 40 % the other.
    assert_eq!(f.pick(0, 0.0).unwrap().name.as_deref(), Some("oak"));
    assert_eq!(f.pick(0, 0.59).unwrap().name.as_deref(), Some("oak"));
    assert_eq!(f.pick(0, 0.61).unwrap().name, None);
    assert_eq!(f.pick(0, 1.0).unwrap().name, None);
    assert!(f.pick(7, 0.5).is_none());
    assert!(f.has_3d());
    assert_eq!(f.trees[0].meshes, ["oak3d"]);
    assert_eq!(f.meshes[0].mesh.vertices, 3);
    assert_eq!(f.meshes[0].mesh.bounds.unwrap().max[1], 10.0);
    assert_eq!(f.texture(), Some("trees.png"));
    assert_eq!(f.textures["texture_3d"], "trees_3d.png");
}

#[test]
fn forest_defaults_are_the_simulators() {
    let f = forest::read(
        b"A\n800\nFOREST\nTREE 0 0 1 1 0 100 1 2 1 0\n",
        "x.for",
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(f.scale, [256.0, 256.0]);
    assert_eq!(f.spacing, [30.0, 30.0]);
    assert_eq!(f.random, [0.0, 0.0]);
}

#[test]
fn textures_decode_to_the_pixels_written() {
    let lim = Limits::default();
    let px = |name: &str| {
        let img = texture::decode(&bytes(name), &lim).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(img.rgba.len(), img.width as usize * img.height as usize * 4);
        img
    };
    let i = px("rgba8.png");
    assert_eq!((i.width, i.height), (2, 2));
    assert_eq!(
        i.rgba,
        [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40]
    );
    assert_eq!(
        px("gray1.png")
            .rgba
            .chunks(4)
            .map(|p| p[0])
            .collect::<Vec<_>>(),
        [255, 0, 255, 0, 0, 0, 0, 0]
    );
    assert_eq!(px("indexed.png").rgba, [200, 100, 50, 255, 9, 8, 7, 255]);
    assert_eq!(px("rgba16.png").rgba, [0x12, 0x56, 0x9A, 0xDE]);
    let red: Vec<u8> = [255, 0, 0, 255].repeat(16);
    assert_eq!(px("dxt1.dds").rgba, red);
    assert_eq!(px("dxt3.dds").rgba, [255, 0, 0, 136].repeat(16));
    assert_eq!(px("dxt5.dds").rgba, [255, 0, 0, 0].repeat(16));
    assert_eq!(px("bgra8.dds").rgba, [3, 2, 1, 4, 7, 6, 5, 8]);
    assert_eq!(px("rgb8.dds").rgba, [10, 20, 30, 255]);
}

#[test]
fn textures_are_probed_from_their_headers() {
    let p = |name: &str| texture::probe(&bytes(name)).unwrap();
    let d = p("dxt5.dds");
    assert_eq!(
        (d.width, d.height, d.format.as_str(), d.mipmaps),
        (4, 4, "DXT5", 1)
    );
    assert_eq!(p("bgra8.dds").format, "BGRA8");
    assert_eq!(p("rgb8.dds").format, "RGB8");
    assert_eq!(p("rgba16.png").format, "RGBA16");
    assert_eq!(p("indexed.png").format, "INDEXED8");
    let big = p("TEX0004.png");
    assert_eq!((big.width, big.height), (100_000, 100_000));
    let ati = p("TEX0003.dds");
    assert_eq!(ati.format, "ATI2");
    assert!(!ati.decodable);
    // The limit is checked before decoding: a tight one refuses a small
    // image the default reads.
    let tight = Limits {
        max_texture_pixels: 15,
        ..Limits::default()
    };
    let e = texture::decode(&bytes("dxt1.dds"), &tight).unwrap_err();
    assert_eq!(e.code, "TEX0004");
}

#[test]
fn texture_info_prints_size_and_format() {
    let s = summarize_art(ArtKind::Texture, &bytes("dxt1.dds")).unwrap();
    let ArtSummary::Texture(t) = &s else {
        panic!("{s:?}")
    };
    assert_eq!((t.width, t.height, t.pixel_format.as_str()), (4, 4, "DXT1"));
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["format"], "dds");
    assert_eq!(json["pixel_format"], "DXT1");
}

/// Every rule of every art format, with its format's fixture extension.
fn all_rules() -> Vec<(&'static Rule, &'static str)> {
    let mut v = Vec::new();
    v.extend(obj::RULES.iter().map(|r| (r, "obj")));
    v.extend(fac::RULES.iter().map(|r| (r, "fac")));
    v.extend(forest::RULES.iter().map(|r| (r, "for")));
    v.extend(texture::RULES.iter().map(|r| (r, "tex")));
    for k in agkit::draped::DrapedKind::ALL {
        v.extend(k.rules().iter().map(move |r| (r, k.extension())));
    }
    v
}

/// The fixtures of the limits on how many lines one `.lin`, `.str` or
/// `.net` may list, made here instead of kept as files: one line past the
/// limit.
fn generated(name: &str) -> Option<Vec<u8>> {
    let (head, line, n) = match name {
        "LIN0010.lin" => (
            "A\n850\nLINE_PAINT\nTEXTURE l.png\nSCALE 8 8\nTEX_WIDTH 256\n",
            "S_OFFSET 0 0 16 32\n",
            agkit::draped::MAX_LINE_LAYERS,
        ),
        "STR0008.str" => (
            "A\n850\nOBJECT_STRING\n",
            "OBJECT 0 0 a.obj\n",
            agkit::draped::MAX_STRING_OBJECTS,
        ),
        "NET0006.net" => (
            "A\n800\nROADS\n",
            "TEXTURE 0 r.png\n",
            agkit::draped::MAX_NET_TEXTURES,
        ),
        _ => return None,
    };
    Some(format!("{head}{}", line.repeat(n + 1)).into_bytes())
}

/// What `agkit check` finds in fixture `name`: its text (if text) and
/// diagnostics.
fn check_fixture(name: &str) -> (Option<String>, Vec<Diagnostic>) {
    let path = fixture(name);
    let bytes = generated(name).unwrap_or_else(|| bytes(name));
    agkit::check::check_bytes(&path, &bytes)
}

#[test]
fn every_art_rule_has_a_fixture_that_triggers_it() {
    for (rule, ext) in all_rules() {
        let name = if ext == "tex" {
            ["png", "dds"]
                .iter()
                .map(|e| format!("{}.{e}", rule.code))
                .find(|n| fixture(n).exists())
                .unwrap_or_else(|| panic!("no fixture for {}", rule.code))
        } else {
            format!("{}.{ext}", rule.code)
        };
        let (text, diags) = check_fixture(&name);
        let hit: Vec<&Diagnostic> = diags.iter().filter(|d| d.code == rule.code).collect();
        assert!(
            !hit.is_empty(),
            "{name} does not trigger {}: {diags:?}",
            rule.code
        );
        for d in &hit {
            assert_eq!(d.severity, rule.severity, "{name}: {d:?}");
        }
        let rendered = render_human(&name, text.as_deref(), &diags);
        insta::assert_snapshot!(format!("art_{}", rule.code), rendered);
    }
}

#[test]
fn art_rules_are_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md"))
        .unwrap();
    let mut seen = std::collections::HashSet::new();
    for (r, _) in all_rules() {
        assert!(seen.insert(r.code), "duplicate code {}", r.code);
        let row = format!("| {} | {} |", r.code, r.severity.as_str());
        assert!(doc.contains(&row), "docs/diagnostics.md lacks `{row}`");
    }
}

#[test]
fn the_fixtures_without_a_code_in_their_name_are_clean() {
    for name in [
        "house.obj",
        "house.fac",
        "terminal.fac",
        "rgba8.png",
        "dxt1.dds",
        "bgra8.dds",
    ] {
        let (_, diags) = check_fixture(name);
        assert!(diags.is_empty(), "{name}: {diags:?}");
    }
}

#[test]
fn real_grammar_bends_are_read() {
    let lim = Limits::default();
    // Padded and blank-separated header lines, CR CR LF line ends.
    for text in [
        "A \r\r\n800 \r\r\nFACADE  \r\r\nTEXTURE a.png\r\r\nLOD 0 100\r\r\nWALL 0 100\r\r\nSCALE 1 1\r\r\nBOTTOM 0 1\r\r\n",
        "A\n\n800\n\nFACADE\n\n\nTEXTURE a.png\nLOD 0 100\nWALL 0 100\nSCALE 1 1\nBOTTOM 0 1\n",
    ] {
        let c = fac::check(text.as_bytes(), &lim);
        assert!(c.diagnostics.is_empty(), "{text:?}: {:?}", c.diagnostics);
        assert_eq!(c.value.unwrap().wall_texture(), Some("a.png"));
    }
    // FS2XPlane's comment after the version; a tab-separated VT.
    let o = obj::read(
        b"I\n800\t# Converted by FS2XPlane\nOBJ\r\r\nPOINT_COUNTS\t1 0 0 0\r\r\nVT\t1 2 3\t0 1 0\t0 0\r\r\n",
        "x.obj",
        &lim,
    )
    .unwrap();
    assert_eq!(o.vertices[0].position, [1.0, 2.0, 3.0]);
    // A TREE without a name, a 9-number VERTEX.
    let f = forest::read(
        b"A\n800\nFOREST\nMESH m 0 1 1 0\nVERTEX 1 2 3 0 1 0 0 0 0.5\nTREE 0 0 8 8 4 100 1 2 1 0\n",
        "x.for",
        &lim,
    )
    .unwrap();
    assert_eq!(f.trees[0].name, None);
    assert_eq!(f.meshes[0].mesh.bounds.unwrap().max, [1.0, 2.0, 3.0]);
    // X-Plane 12 texture maps are kept by usage.
    let o = obj::read(
        b"I\n800\nOBJ\nTEXTURE_MAP normal a_NML.png\nTEXTURE_MAP material_gloss a MAT.png\n",
        "x.obj",
        &lim,
    )
    .unwrap();
    assert_eq!(o.texture("TEXTURE_MAP normal"), Some("a_NML.png"));
    assert_eq!(o.texture("TEXTURE_MAP material_gloss"), Some("a MAT.png"));
    // `TTEXTURE` is a warning only: X-Plane ignores the line.
    let c = obj::check(b"I\n800\nOBJ\nTTEXTURE a.png\n", &lim);
    assert!(!c.has_errors());
    assert_eq!(c.diagnostics[0].code, "OBJ0012");
}

#[test]
fn a_refusal_names_the_file_line_and_column() {
    let e = obj::read(&bytes("OBJ0003.obj"), "OBJ0003.obj", &Limits::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "OBJ0003.obj:5:8: error[OBJ0003]: z must be a number, not `three`"
    );
    let e = texture::read(&bytes("TEX0005.dds"), "TEX0005.dds", &Limits::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("TEX0005.dds @ byte 136: error[TEX0005]"),
        "{e}"
    );
}

#[test]
fn check_and_info_take_art_from_a_directory() {
    let d = tempfile::tempdir().unwrap();
    for name in [
        "house.obj",
        "house.fac",
        "trees.for",
        "dxt1.dds",
        "rgba8.png",
        "OBJ0007.obj",
    ] {
        std::fs::copy(fixture(name), d.path().join(name)).unwrap();
    }
    // Found by its header whatever its name.
    std::fs::write(d.path().join("tree_list.txt"), bytes("trees.for")).unwrap();
    std::fs::write(d.path().join("notes.txt"), "not art").unwrap();
    let out = Command::cargo_bin("agkit")
        .unwrap()
        .arg("check")
        .arg(d.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The art's own 3 warnings, and 9 for the textures the object, the
    // facade and the forest (twice: tree_list.txt) name that are not there.
    assert!(
        stderr.contains("checked 7 files: 1 error, 12 warnings"),
        "{stderr}"
    );
    assert!(stdout.contains("OBJ0007.obj:10:5"), "{stdout}");
    assert!(
        stdout.contains("warning[AG0085]: texture house.png: not found (not beside house.obj"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(1));
    let info = Command::cargo_bin("agkit")
        .unwrap()
        .arg("info")
        .arg(d.path().join("house.fac"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(text.contains("height     5.00 … 11.00 m"), "{text}");
    assert!(info.status.success());
}

/// An OBJ of `tris` (three vertices each) in LODs and draped or not.
fn obj_text(tris: &[([[f64; 3]; 3], u8, bool)]) -> String {
    let n = tris.len() * 3;
    let mut s = format!("I\n800\nOBJ\nPOINT_COUNTS {n} 0 0 {n}\n");
    for (t, _, _) in tris {
        for p in t {
            s += &format!("VT {} {} {} 0 1 0 0 0\n", p[0], p[1], p[2]);
        }
    }
    for i in 0..n {
        s += &format!("IDX {i}\n");
    }
    for lod in 0..3u8 {
        s += &format!(
            "ATTR_LOD {} {}\n",
            lod as f64 * 100.0,
            lod as f64 * 100.0 + 100.0
        );
        for (i, (_, l, draped)) in tris.iter().enumerate() {
            if *l == lod {
                s += if *draped {
                    "ATTR_draped\n"
                } else {
                    "ATTR_no_draped\n"
                };
                s += &format!("TRIS {} 3\n", i * 3);
            }
        }
    }
    s
}

/// True when `p` lies inside or on the ring `ring` (any number of
/// points), within `eps`: `geo`'s distance from the point to the polygon.
fn inside_convex(ring: &[[f64; 2]], p: [f64; 2], eps: f64) -> bool {
    use geo::{Distance, Euclidean, LineString, Point, Polygon};
    if ring.is_empty() {
        return false;
    }
    let poly = Polygon::new(LineString::from(ring.to_vec()), vec![]);
    Euclidean.distance(&Point::from(p), &poly) <= eps
}

fn coord() -> impl Strategy<Value = f64> {
    (-1000i32..1000).prop_map(|v| v as f64 / 8.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn footprints_lie_in_the_bounds_and_hold_every_solid_lod0_vertex(
        tris in prop::collection::vec(
            (prop::array::uniform3(prop::array::uniform3(coord())), 0u8..3, any::<bool>()),
            1..12,
        )
    ) {
        let text = obj_text(&tris);
        let o = obj::read(text.as_bytes(), "p.obj", &Limits::default()).unwrap();
        let fp = o.footprint();
        let solid: Vec<[f64; 3]> = tris
            .iter()
            .filter(|(_, lod, draped)| *lod == 0 && !draped)
            .flat_map(|(t, _, _)| t.iter().copied())
            .collect();
        prop_assert_eq!(fp.is_empty(), solid.is_empty());
        prop_assert_eq!(o.triangle_count(Select::Solid) * 3, solid.len());
        if let Some(b) = o.bounds() {
            for p in &fp {
                prop_assert!(p[0] >= b.min[0] && p[0] <= b.max[0], "{:?} {:?}", p, b);
                prop_assert!(p[1] >= b.min[2] && p[1] <= b.max[2], "{:?} {:?}", p, b);
            }
        }
        for p in &solid {
            prop_assert!(inside_convex(&fp, [p[0], p[2]], 1e-6), "{:?} not in {:?}", p, fp);
        }
        if let Some(h) = o.height() {
            prop_assert_eq!(h, solid.iter().map(|p| p[1]).fold(f64::MIN, f64::max));
        }
    }

    #[test]
    fn any_bytes_never_panic_any_reader(data in prop::collection::vec(any::<u8>(), 0..400)) {
        let lim = agkit::r#gen::fuzz_limits();
        agkit::r#gen::fuzz_obj_read(&data);
        agkit::r#gen::fuzz_fac_read(&data);
        agkit::r#gen::fuzz_for_read(&data);
        agkit::r#gen::fuzz_texture_decode(&data);
        let _ = texture::check(&data, &lim);
    }

    #[test]
    fn headed_garbage_never_panics(
        head in prop::sample::select(vec!["I\n800\nOBJ\n", "A\n1000\nFACADE\n", "A\n800\nFACADE\n", "A\n1200\nFOREST\n"]),
        lines in prop::collection::vec(
            (prop::sample::select(vec![
                "VT", "IDX", "IDX10", "TRIS", "POINT_COUNTS", "ANIM_begin", "ANIM_end",
                "ATTR_LOD", "ATTR_draped", "LIGHTS", "FLOOR", "SEGMENT", "SEGMENT_CURVED",
                "MESH", "VERTEX", "WALL", "SPELLING", "ROOF_HEIGHT", "LOD", "BOTTOM",
                "MIDDLE", "TOP", "SCALE", "TREE", "MESH_3D", "Y_QUAD", "GROUP", "OBJ",
                "ATTACH_DRAPED", "ROOF_OBJ", "FLOORS_MAX",
            ]), prop::collection::vec(prop::sample::select(vec![
                "0", "1", "3", "-1", "1e9", "nan", "4294967295", "2.5", "x", "",
            ]), 0..12)),
            0..40,
        )
    ) {
        let mut text = head.to_string();
        for (kw, args) in lines {
            text += kw;
            for a in args {
                text.push(' ');
                text += a;
            }
            text.push('\n');
        }
        agkit::r#gen::fuzz_obj_read(text.as_bytes());
        agkit::r#gen::fuzz_fac_read(text.as_bytes());
        agkit::r#gen::fuzz_for_read(text.as_bytes());
    }
}

#[test]
fn hostile_art_stays_bounded() {
    let lim = Limits::default();
    // Deeply nested and unterminated animation: a counter, not recursion.
    let mut deep = String::from("I\n800\nOBJ\nPOINT_COUNTS 0 0 0 0\n");
    deep += &"ANIM_begin\n".repeat(200_000);
    let c = obj::check(deep.as_bytes(), &lim);
    assert!(c.diagnostics.iter().any(|d| d.code == "OBJ0011"));
    assert_eq!(c.value.unwrap().animations, 200_000);
    // Huge declared counts reserve nothing beyond what the file holds.
    let c = obj::check(b"I\n800\nOBJ\nPOINT_COUNTS 20000000 0 0 20000000\n", &lim);
    let o = c.value.unwrap();
    assert!(o.vertices.capacity() < 100 && o.indices.capacity() < 100);
    // A TRIS far past the indices draws nothing and is an error.
    let c = obj::check(
        b"I\n800\nOBJ\nPOINT_COUNTS 0 0 0 0\nTRIS 4294967295 4294967295\n",
        &lim,
    );
    assert!(c.diagnostics.iter().any(|d| d.code == "OBJ0008"));
    assert_eq!(c.value.unwrap().triangle_count(Select::All), 0);
    // Floors asked for by the million are counted, not looped; by 1e300
    // they are past the numbers agkit draws (issue 31).
    let f = fac::read(
        b"A\n800\nFACADE\nFLOORS_MAX 1e6\nFLOORS_MIN 1e5\nLOD 0 1\nWALL 0 1\nSCALE 1 1\nBOTTOM 0 0.1\nMIDDLE 0.1 0.2\nTOP 0.2 0.3\n",
        "x.fac",
        &lim,
    )
    .unwrap();
    assert!(f.height_range().unwrap().min.is_finite());
    let c = fac::check(b"A\n800\nFACADE\nFLOORS_MAX 1e300\n", &lim);
    assert!(
        c.diagnostics.iter().any(|d| d.code == "FAC0016"),
        "{:?}",
        c.diagnostics
    );
    // Truncations of every fixture at every length never panic.
    for e in std::fs::read_dir(fixture("")).unwrap() {
        let data = std::fs::read(e.unwrap().path()).unwrap();
        for n in 0..data.len().min(600) {
            let d = &data[..n];
            agkit::r#gen::fuzz_obj_read(d);
            agkit::r#gen::fuzz_fac_read(d);
            agkit::r#gen::fuzz_for_read(d);
            agkit::r#gen::fuzz_texture_decode(d);
        }
    }
}

#[test]
fn warnings_are_not_errors() {
    for name in ["OBJ0006.obj", "FAC0007.fac", "FOR0015.for"] {
        let (_, d) = check_fixture(name);
        assert!(
            d.iter().all(|d| d.severity != Severity::Error),
            "{name}: {d:?}"
        );
    }
}
