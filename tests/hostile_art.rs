//! The third hostile round on art (issue 31), from generated inputs: the
//! footprint of huge coordinates, numbers that overflow `f32` in a scene,
//! and the readers and placement that were quadratic. Each test is named
//! after the bug it keeps fixed.
//!
//! The quadratic cases run at the size that took tens of seconds before
//! (60,000 levels of detail, 40,000 diagnostics, 80,000 mesh lines, a
//! 20,000-row forest planting 140,000 trees): they assert what is read, not
//! how long it takes (`benches/hostile_art.rs` holds the bound), but a
//! regression makes this file crawl.

mod hostile_art_support;

#[path = "../fuzz/place_gltf_check.rs"]
mod place_gltf_check;

use agkit::diag::Diagnostic;
use agkit::limits::Limits;
use agkit::obj::{DrawKind, Obj, Select};
use agkit::place::{self, Params, Use};
use agkit::scenery::Scenery;
use hostile_art_support as gen_;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn codes(d: &[Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.code.as_str()).collect()
}

/// The 1-based line and the code of each diagnostic of `text`.
fn lines_of(file: &str, text: &str, d: &[Diagnostic]) -> Vec<(Option<usize>, String)> {
    agkit::diag::to_json(file, Some(text), d)
        .into_iter()
        .map(|j| (j.line, j.code))
        .collect()
}

/// An object whose solid triangles have the vertices `ps`.
fn obj_of(ps: &[[f64; 3]]) -> Obj {
    let mut o = Obj {
        lods: vec![agkit::obj::Lod::default()],
        ..Obj::default()
    };
    for &p in ps {
        o.vertices.push(agkit::obj::Vertex {
            position: p,
            ..Default::default()
        });
    }
    let n = ps.len() / 3 * 3;
    o.indices = (0..n as u32).collect();
    o.draws.push(agkit::obj::Draw {
        kind: DrawKind::Tris,
        offset: 0,
        count: n as u32,
        lod: 0,
        draped: false,
        animated: false,
        pose: None,
    });
    o
}

#[test]
fn the_footprint_of_coordinates_near_1e301_beside_small_ones_panicked() {
    // Finite, but the hull's products of differences overflow.
    let o = obj_of(&[
        [1e301, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [-1e301, 0.0, 2.0],
        [3.0, 0.0, -1e301],
        [1.0, 0.0, 1.0],
        [0.5, 0.0, 1e300],
    ]);
    let fp = o.footprint();
    assert!(fp.len() >= 3, "{fp:?}");
    assert!(fp.iter().flatten().all(|v| v.is_finite()), "{fp:?}");
    assert!(
        fp.contains(&[-1e301, 2.0]) && fp.contains(&[3.0, -1e301]),
        "{fp:?}"
    );
}

proptest! {
    /// Whatever finite coordinates, of whatever magnitudes: a footprint,
    /// finite, made of the points given, holding the extreme ones.
    #[test]
    fn footprints_of_any_finite_magnitudes_are_finite(
        pts in prop::collection::vec(
            (any::<f64>(), any::<f64>(), -308i32..308, -308i32..308), 3..30)
    ) {
        let ps: Vec<[f64; 3]> = pts
            .iter()
            .map(|&(a, b, ea, eb)| {
                let f = |v: f64, e: i32| if v.is_finite() { (v % 10.0) * 10f64.powi(e) } else { 1.0 };
                [f(a, ea), 0.0, f(b, eb)]
            })
            .filter(|p| p.iter().all(|v| v.is_finite()))
            .collect();
        let o = obj_of(&ps);
        let used: Vec<[f64; 2]> = o.corners(Select::Solid).map(|p| [p[0], p[2]]).collect();
        let fp = o.footprint();
        prop_assert!(fp.iter().flatten().all(|v| v.is_finite()));
        for p in &fp {
            prop_assert!(used.contains(p), "{:?} is not a corner", p);
        }
        // The corner farthest along x is a corner of the hull, unless it
        // is so small beside the largest coordinate (10^-290 of it) that
        // scaling rounds it towards 0 (documented in obj::footprint).
        let largest = used.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs()));
        if let Some(far) = used.iter().copied().reduce(|a, b| if b[0].abs() > a[0].abs() { b } else { a })
            && far[0].abs() >= largest * 1e-290
        {
            prop_assert!(fp.iter().any(|p| p[0] == far[0]), "{:?} lost: {:?}", far, fp);
        }
    }
}

#[test]
fn check_info_and_place_exited_101_on_such_an_object() {
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("huge.obj");
    std::fs::write(
        &obj,
        "I\n800\nOBJ\nPOINT_COUNTS 3 0 0 3\nVT 1e301 0 0 0 1 0 0 0\n\
         VT 0 0 1 0 1 0 0 0\nVT -1e301 0 2 0 1 0 0 0\nIDX 0\nIDX 1\nIDX 2\nTRIS 0 3\n",
    )
    .unwrap();
    for cmd in ["check", "info"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
            .arg(cmd)
            .arg(&obj)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert_ne!(out.status.code(), Some(101), "{cmd} panicked: {err}");
        if cmd == "check" {
            assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
            assert!(
                err.contains("OBJ0018") && err.contains("huge.obj:5"),
                "{cmd}: {err}"
            );
        } else {
            // `info` summarises what could be read: no footprint from the
            // refused vertices, and the error counted.
            assert!(err.contains("error"), "{cmd}: {err}");
        }
    }
}

/// Art files whose numbers are finite in `f64` but not in `f32` at the
/// scene's scale, each with the line (1-based) and code it must be
/// refused at.
const BEYOND_F32: &[(&str, &str, usize, &str)] = &[
    (
        "vertex.obj",
        "I\n800\nOBJ\nPOINT_COUNTS 3 0 0 3\nVT 4e38 0 0 0 1 0 0 0\nVT 0 0 1 0 1 0 0 0\n\
         VT 1 0 0 0 1 0 0 0\nIDX 0\nIDX 1\nIDX 2\nTRIS 0 3\n",
        5,
        "OBJ0018",
    ),
    (
        "uv.obj",
        "I\n800\nOBJ\nPOINT_COUNTS 3 0 0 3\nVT 0 0 0 0 1 0 0 0\nVT 0 0 1 0 1 0 0 0\n\
         VT 1 0 0 0 1 0 1e39 0\nIDX 0\nIDX 1\nIDX 2\nTRIS 0 3\n",
        7,
        "OBJ0018",
    ),
    (
        "roof.fac",
        "A\n1000\nFACADE\nFLOOR f\nROOF_HEIGHT 4e38\nSEGMENT 0\nWALL 0 100 0 360 w\n",
        5,
        "FAC0016",
    ),
    (
        "panel.fac",
        "A\n800\nFACADE\nLOD 0 5000\nWALL 5 100 w\nSCALE 10 10\nCENTER 0 1e300\n",
        7,
        "FAC0016",
    ),
    (
        "scale.fac",
        "A\n800\nFACADE\nLOD 0 5000\nWALL 5 100 w\nSCALE 1e300 10\n",
        6,
        "FAC0016",
    ),
    (
        "texsize.fac",
        "A\n800\nFACADE\nTEX_SIZE 1e-300 1024\nLOD 0 5000\nWALL 5 100 w\nCENTER 0 1\n",
        4,
        "FAC0016",
    ),
    (
        "heights.for",
        "A\n800\nFOREST\nTREE 0 0 64 128 32 100 4e38 4e38 2 0 t\n",
        4,
        "FOR0016",
    ),
    (
        "scale.for",
        "A\n800\nFOREST\nSCALE_X 1e-300\nTREE 0 0 64 128 32 100 5 10 2 0 t\n",
        4,
        "FOR0016",
    ),
    (
        "spacing.for",
        "A\n800\nFOREST\nSPACING 1e300 1e300\nTREE 0 0 64 128 32 100 5 10 2 0 t\n",
        4,
        "FOR0016",
    ),
];

#[test]
fn numbers_finite_in_f64_but_not_in_f32_passed_check() {
    for (name, text, line, code) in BEYOND_F32 {
        let (src, diags) = agkit::check::check_bytes(Path::new(name), text.as_bytes());
        let src = src.expect("a text file");
        let found = lines_of(name, &src, &diags);
        assert!(
            found.contains(&(Some(*line), code.to_string())),
            "{name}: {found:?}"
        );
        let d = diags.iter().find(|d| d.code == *code).unwrap();
        assert!(d.is_error(), "{name}: {d:?}");
        assert!(
            d.message.contains("outside the range") || d.message.contains("too close to 0"),
            "{d:?}"
        );
    }
    // The bounds are inclusive and real numbers pass: 1e6 m, 1e-3 texels.
    let fine = "I\n800\nOBJ\nPOINT_COUNTS 3 0 0 3\nVT 1e6 0 0 0 1 0 0 0\nVT 0 -1e6 1 0 1 0 0 0\n\
                VT 1 0 0 0 1 0 1e6 0\nIDX 0\nIDX 1\nIDX 2\nTRIS 0 3\n";
    let c = agkit::obj::check(fine.as_bytes(), &Limits::default());
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    let fine = "A\n800\nFOREST\nSCALE_X 0.001\nSCALE_Y 0\nTREE 0 0 64 128 32 100 5 10 2 0 t\n";
    let c = agkit::forest::check(fine.as_bytes(), &Limits::default());
    assert!(!c.has_errors(), "{:?}", c.diagnostics);
    // Counts and indices keep their own limits, not this one.
    let big = "I\n800\nOBJ\nPOINT_COUNTS 3 0 0 2000000\n";
    let c = agkit::obj::check(big.as_bytes(), &Limits::default());
    assert!(
        !codes(&c.diagnostics).contains(&"OBJ0018"),
        "{:?}",
        c.diagnostics
    );
}

/// A yard placing `obj`, `fac` and `forest` (files beside it), written
/// as GLB.
fn yard(dir: &Path, obj: &str, fac: &str, forest: &str) -> (place::Placement, Vec<u8>) {
    std::fs::write(dir.join("a.obj"), obj).unwrap();
    std::fs::write(dir.join("a.fac"), fac).unwrap();
    std::fs::write(dir.join("a.for"), forest).unwrap();
    let file = dir.join("yard.agp");
    let text = "A\n1000\nAG_POINT\n\nTEXTURE yard.png\nTEXTURE_SCALE 512 512\nTEXTURE_WIDTH 64\n\
                VEGETATION a.for\nOBJECT a.obj\nFACADE a.fac\n\nTILE 0 0 512 512\n\
                OBJ_GRADED 256 256 30 0\nFAC 0 6 40 300 40 460 200 460 200 300\n\
                TREE 300 300 0 6 0\nTREE_LINE 16 16 16 496 0\n";
    std::fs::write(&file, text).unwrap();
    let asset = agkit::xp::parse(text).unwrap();
    let scenery = Scenery::without_libraries(Default::default());
    let params = Params {
        art: Some(scenery.asset_art(&file, &asset, None)),
        ..Params::default()
    };
    let use_ = Use::Point {
        at: [13.5, 47.5],
        heading: 0.0,
    };
    let p = place::place(&asset, "yard.agp", &use_, &params).unwrap();
    let glb = agkit::out::gltf::to_glb(std::slice::from_ref(&p)).unwrap();
    (p, glb)
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/placeart")
            .join(name),
    )
    .unwrap()
}

#[test]
fn such_art_reached_the_gltf_as_infinity_and_null() {
    let dir = tempfile::tempdir().unwrap();
    let (obj, fac, forest) = (
        fixture("house.obj"),
        fixture("wall.fac"),
        fixture("trees.for"),
    );
    // The fixtures draw: a finite scene with art.
    let (p, glb) = yard(dir.path(), &obj, &fac, &forest);
    assert!(
        p.warnings.iter().all(|w| w.code() != Some("AG0087")),
        "{:?}",
        p.warnings
    );
    assert!(p.objects.iter().any(|o| o.footprint.len() >= 3));
    place_gltf_check::glb_is_finite(&glb).unwrap();
    for (name, text, _, _) in BEYOND_F32 {
        let (o, f, t) = match Path::new(name).extension().unwrap().to_str().unwrap() {
            "obj" => (*text, fac.as_str(), forest.as_str()),
            "fac" => (obj.as_str(), *text, forest.as_str()),
            _ => (obj.as_str(), fac.as_str(), *text),
        };
        let (p, glb) = yard(dir.path(), o, f, t);
        // The file is refused: its items are placed without it, one
        // warning says so, and the scene is finite.
        assert!(
            p.warnings.iter().any(|w| w.code() == Some("AG0087")),
            "{name}: {:?}",
            p.warnings
        );
        place_gltf_check::glb_is_finite(&glb).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn sixty_thousand_levels_of_detail_took_30_s_to_summarise() {
    let text = gen_::many_lods(60_000);
    let c = agkit::obj::check(text.as_bytes(), &Limits::default());
    assert!(
        !c.has_errors(),
        "{:?}",
        &c.diagnostics[..c.diagnostics.len().min(3)]
    );
    let o = c.value.unwrap();
    assert_eq!(o.lods.len(), 60_000);
    assert_eq!(o.draws.len(), 60_000);
    // Only the first level starts nearest: one triangle at LOD 0.
    assert_eq!(o.triangle_count(Select::All), 1);
    assert!(o.is_lod0(0) && !o.is_lod0(59_999));
    let s = agkit::obj::summary::Summary::of(&o, 0, 0);
    assert_eq!((s.triangles, s.lods.len()), (1, 60_000));
    // `check` of the file: its diagnostics rendered (none).
    let (_, d) = agkit::check::check_bytes(Path::new("lods.obj"), text.as_bytes());
    assert!(d.is_empty(), "{:?}", &d[..d.len().min(3)]);
}

#[test]
fn forty_thousand_repeated_point_counts_rescanned_the_file_per_warning() {
    let n = 40_000;
    let text = gen_::repeated_point_counts(n);
    let (src, d) = agkit::check::check_bytes(Path::new("counts.obj"), text.as_bytes());
    let src = src.unwrap();
    assert_eq!(d.len(), n - 1, "{:?}", &d[..d.len().min(3)]);
    assert!(d.iter().all(|d| d.code == "OBJ0013"));
    // Every one names the first's line (5), and sits on its own line.
    assert!(
        d.iter().all(|d| d.message.contains("first on line 5")),
        "{:?}",
        d[0]
    );
    let lines = lines_of("counts.obj", &src, &d);
    for (k, (line, _)) in lines.iter().enumerate() {
        assert_eq!(*line, Some(k + 6));
    }
    let human = agkit::diag::render_human("counts.obj", Some(&src), &d);
    assert!(human.contains(&format!("counts.obj:{}:1", n + 4)));
}

#[test]
fn eighty_thousand_mesh_lines_looked_each_name_up_through_every_mesh() {
    let n = 40_000;
    let text = gen_::many_meshes(n);
    let c = agkit::forest::check(text.as_bytes(), &Limits::default());
    assert!(
        !c.has_errors(),
        "{:?}",
        &c.diagnostics[..c.diagnostics.len().min(3)]
    );
    let f = c.value.unwrap();
    assert_eq!((f.meshes.len(), f.trees[0].meshes.len()), (n, n));
    // A name no MESH defines is still found out, once.
    let bad = text.replace("MESH_3D mesh_39999", "MESH_3D mesh_40000");
    let c = agkit::forest::check(bad.as_bytes(), &Limits::default());
    assert_eq!(
        codes(&c.diagnostics)
            .iter()
            .filter(|&&c| c == "FOR0010")
            .count(),
        1
    );
    let s = agkit::forest::summary::Summary::of(&f, 0, 0);
    assert!(s.has_3d && s.trees == 1, "{s:?}");
}

/// A folder holding `forest` as `big.for` and an AGS filling with it.
fn fill_folder(forest: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.for"), forest).unwrap();
    let file = dir.path().join("park.ags");
    std::fs::write(&file, gen_::fill_string("big.for")).unwrap();
    (dir, file)
}

#[test]
fn a_fill_from_a_20000_row_forest_rebuilt_the_layer_per_tree() {
    let rows = 20_000;
    let (_dir, file) = fill_folder(&gen_::big_forest(rows));
    let text = std::fs::read_to_string(&file).unwrap();
    let asset = agkit::xp::parse(&text).unwrap();
    let scenery = Scenery::without_libraries(Default::default());
    let params = Params {
        seed: 7,
        art: Some(scenery.asset_art(&file, &asset, None)),
        ..Params::default()
    };
    let p = place::place(
        &asset,
        "park.ags",
        &Use::Polygon {
            windings: vec![gen_::square(395.0)],
        },
        &params,
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    assert!(p.trees.len() > 130_000, "{} trees", p.trees.len());
    // Every tree is a row of the table, picked about evenly (equal shares):
    // 140,000 draws from 20,000 rows leave few unpicked.
    let mut seen = vec![false; rows];
    for t in &p.trees {
        let k = t.forest_tree.expect("a row");
        assert_eq!(t.tree_name.as_deref(), Some(format!("tree_{k}").as_str()));
        assert!((5.0..=10.0).contains(&t.height.unwrap()));
        seen[k] = true;
    }
    let picked = seen.iter().filter(|&&s| s).count();
    assert!(picked > 19_000, "{picked} rows picked");
}

#[test]
fn place_gltf_fuzz_seeds_write_finite_scenes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/place_gltf");
    let work = tempfile::tempdir().unwrap();
    let mut written = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(e.unwrap().path()).unwrap();
        written += usize::from(place_gltf_check::run(&data, work.path()) == Some(true));
    }
    assert!(written >= 3, "only {written} seeds wrote a scene");
}

#[test]
fn place_gltf_fuzz_input_with_huge_art_is_refused_not_infinite() {
    let work = tempfile::tempdir().unwrap();
    let case = agkit::r#gen::fuzz_input(
        0,
        0,
        1,
        &[[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]],
        "A\n1000\nAG_POINT\n\nTEXTURE t.png\nTEXTURE_SCALE 512 512\nTEXTURE_WIDTH 64\n\
         VEGETATION a.for\nOBJECT a.obj\nFACADE a.fac\n\nTILE 0 0 512 512\n\
         OBJ_GRADED 256 256 30 0\nFAC 0 6 40 300 40 460 200 460 200 300\nTREE 300 300 0 6 0\n",
    );
    for (_, text, _, _) in BEYOND_F32 {
        let data = place_gltf_check::input(text, text, text, &case);
        assert_eq!(place_gltf_check::run(&data, work.path()), Some(true));
    }
    // The harness catches what it is for: a scene with an infinite bound.
    assert!(place_gltf_check::glb_is_finite(b"glTF").is_err());
}
