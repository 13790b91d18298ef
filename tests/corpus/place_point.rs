//! Real AGP files through the point engine, and openSAM's demo tile placed
//! through its library with `place --dsf`.

use super::support;
use std::path::{Path, PathBuf};
use std::process::Command;

fn opensam() -> PathBuf {
    support::file("hotbso__openSAM/openSAM-pkg/openSAM_Library")
}

fn dsf() -> PathBuf {
    opensam().join("dev-tools/OSJW_openSAM_demo_airport/Earth nav data/+40+010/+47+013.dsf")
}

fn agps() -> Vec<PathBuf> {
    support::nonempty(support::files_of(&["agp"]), "agp")
}

#[test]
fn every_corpus_agp_places() {
    let files = agps();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let asset = agkit::xp::parse(&text).unwrap_or_else(|d| panic!("{}: {d:?}", f.display()));
        for heading in [0.0, 123.4] {
            let p = agkit::place::place(
                &asset,
                &f.display().to_string(),
                &agkit::place::Use::Point {
                    at: [13.01, 47.8],
                    heading,
                },
                &agkit::place::Params::default(),
            )
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(p.tiles.len(), 1, "{}", f.display());
            assert_eq!(
                p.objects.len(),
                asset.tiles[0].annotations.len().min(p.objects.len())
            );
        }
    }
}

/// A Custom Scenery folder holding an openSAM library package whose
/// library.txt exports the DSF's virtual path (the corpus has the
/// asset but not the package's library.txt).
fn custom_scenery() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("openSAM_Library");
    std::fs::create_dir_all(pkg.join("dgs")).unwrap();
    std::fs::copy(
        opensam().join("dgs/marshaller_high.agp"),
        pkg.join("dgs/marshaller_high.agp"),
    )
    .unwrap();
    std::fs::write(
        pkg.join("library.txt"),
        "A\n800\nLIBRARY\n\nEXPORT openSAM/dgs/marshaller_high.agp dgs/marshaller_high.agp\n",
    )
    .unwrap();
    dir
}

#[test]
fn library_resolves_the_dsf_asset() {
    use agkit::scenery::{install::Installation, resolve};
    let cs = custom_scenery();
    let inst = Installation::open(cs.path()).unwrap();
    let (lib, errors) = resolve::LibraryIndex::from_installation(&inst);
    assert!(errors.is_empty());
    let tile = resolve::Tile::of(13.01, 47.8);
    let own = opensam().join("dev-tools/OSJW_openSAM_demo_airport");
    let r = resolve::resolve(
        &lib,
        Some(("OSJW_openSAM_demo_airport", own.as_path())),
        "openSAM/dgs/marshaller_high.agp",
        tile,
        &resolve::Conditions::default(),
    );
    let f = &r.pick(0).unwrap().file;
    assert!(f.ends_with("openSAM_Library/dgs/marshaller_high.agp"));
    let r = lib.resolve(
        "openSAM/dgs/nothing.agp",
        tile,
        &resolve::Conditions::default(),
    );
    assert!(!r.is_resolved());
    assert!(r.why_unresolved().contains("no enabled package exports it"));
}

#[test]
fn dsf_tile_places_the_marshaller_at_its_point() {
    let cs = custom_scenery();
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("place")
        .arg("--dsf")
        .arg(dsf())
        .arg("--library")
        .arg(cs.path())
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let arr = v.as_array().expect("an array in --dsf mode");
    assert_eq!(arr.len(), 1);
    let p = &arr[0];
    assert_eq!(p["asset"], "openSAM/dgs/marshaller_high.agp");
    let o = &p["objects"][0];
    // The tile -5 -5 5 5 has no ANCHOR_PT: its centre, pixel 0,0, where
    // the OBJ_DELTA sits, goes to the DSF point.
    assert!(
        (o["lon"].as_f64().unwrap() - 13.012216754).abs() < 1e-8,
        "{o}"
    );
    assert!(
        (o["lat"].as_f64().unwrap() - 47.800907912).abs() < 1e-8,
        "{o}"
    );
    assert!(o["x"].as_f64().unwrap().abs() < 1e-9 && o["y"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(o["mode"], "delta");
    assert_eq!(o["height"], 2.32);
    assert_eq!(o["asset"], "marshaller_ident.obj");
    // ROTATION 0 in the default (WorldEditor) frame: heading = DSF
    // heading (the spec frame would add 180).
    assert!(
        (o["heading"].as_f64().unwrap() - 67.995).abs() < 1e-3,
        "{o}"
    );
    assert_eq!(p["tiles"][0]["hidden"], true);
}

#[test]
fn unresolvable_dsf_asset_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("place")
        .arg("--dsf")
        .arg(dsf())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "nothing resolves: nothing placed"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: none of the 1 autogen use")
            && err.contains("openSAM/dgs/marshaller_high.agp (1 use)"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "no blank output on error");
}

#[test]
fn at_places_a_corpus_agp_and_writes_every_format() {
    let agp = opensam().join("dgs/Safedock-T2-24_2.5m_180.agp");
    let dir = tempfile::tempdir().unwrap();
    for (name, magic) in [
        ("a.json", "{"),
        ("a.geojson", "{"),
        ("a.txt", "A\n800"),
        ("a.svg", "<svg"),
        ("a.png", "\u{89}PNG"),
    ] {
        let o = dir.path().join(name);
        let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
            .arg("place")
            .arg(&agp)
            .args(["--at", "-33.9,151.2,90", "--explain", "-o"])
            .arg(&o)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("explain:"));
        let bytes = std::fs::read(&o).unwrap();
        let head = String::from_utf8_lossy(&bytes[..magic.len().min(bytes.len())]).to_string();
        if name.ends_with("png") {
            assert_eq!(&bytes[..4], b"\x89PNG");
        } else {
            assert_eq!(head, magic, "{name}");
        }
    }
}

#[test]
fn bad_usage_exits_2() {
    let agp = opensam().join("dgs/marshaller.agp");
    for args in [
        vec!["--at", "95,10"],
        vec!["--at", "nonsense"],
        vec!["--at", "47,13", "-o", "x.unknown"],
        vec![],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
            .arg("place")
            .arg(&agp)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

fn agkit(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .arg("place")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn wrong_geometry_for_the_kind_is_a_usage_error() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/examples");
    let dir = tempfile::tempdir().unwrap();
    let poly = dir.path().join("p.geojson");
    std::fs::write(
        &poly,
        r#"{"type":"Polygon","coordinates":[[[13,47],[13.001,47],[13.001,47.001],[13,47.001],[13,47]]]}"#,
    )
    .unwrap();
    let agp = Path::new(root).join("point/plaza.agp");
    let out = agkit(&[agp.as_os_str(), "--polygon".as_ref(), poly.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--at"));
    let agb = Path::new(root).join("block/city_block.agb");
    let out = agkit(&[agb.as_os_str(), "--at".as_ref(), "47,13".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--polygon"));
}

#[test]
fn frame_wed_is_the_default_and_spec_turns_even_rotations_by_180() {
    let agp = opensam().join("dgs/Safedock-T2-24_2.5m_180.agp"); // ROTATION 2
    let heading = |frame: Option<&str>| {
        let mut args: Vec<&std::ffi::OsStr> =
            vec![agp.as_os_str(), "--at".as_ref(), "47.8,13.01,10".as_ref()];
        if let Some(f) = frame {
            args.extend::<[&std::ffi::OsStr; 2]>(["--frame".as_ref(), f.as_ref()]);
        }
        let out = agkit(&args);
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["objects"][0]["heading"].as_f64().unwrap()
    };
    assert!((heading(Some("spec")) - 10.0).abs() < 1e-9);
    assert!((heading(Some("wed")) - 190.0).abs() < 1e-9);
    assert_eq!(heading(None), heading(Some("wed")));
}

#[test]
fn several_polygons_give_one_combined_array() {
    let agb = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/block/city_block.agb"
    ));
    let dir = tempfile::tempdir().unwrap();
    let poly = dir.path().join("lots.geojson");
    std::fs::write(
        &poly,
        r#"{"type":"MultiPolygon","coordinates":[
          [[[13.0,47.5],[13.0008,47.5001],[13.0007,47.5006],[12.9999,47.5005],[13.0,47.5]]],
          [[[13.002,47.5],[13.0028,47.5001],[13.0027,47.5006],[13.0019,47.5005]]]]}"#,
    )
    .unwrap();
    let out = agkit(&[
        agb.as_os_str(),
        "--polygon".as_ref(),
        poly.as_os_str(),
        "--param".as_ref(),
        "768".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let arr = v.as_array().expect("array for several polygons");
    assert_eq!(arr.len(), 2);
    assert!(
        arr.iter()
            .all(|p| p["kind"] == "agb" && !p["tiles"].as_array().unwrap().is_empty())
    );
    // Each use has its own origin: the first vertex of its polygon.
    assert_eq!(arr[1]["origin"], serde_json::json!([13.002, 47.5]));
}
