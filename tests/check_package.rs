//! `check` knows every art kind a tile names (issue 46 item 5, issue 48
//! items 2 and 4): a package's DSFs followed into their definitions, the
//! draped formats checked by their own rules, unreadable art said why,
//! unresolved art said once, the folder check linear, and `gen`'s output
//! checked clean. Each test is named after the bug it keeps fixed.

use agkit::dsf::{self, BuildOptions, Dsf, Entity, Object, Polygon};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// An overlay tile +47+013 naming `objects` (one placement each) and
/// `polygons` (one two-point line or three-point polygon each, by the
/// definition's extension).
fn overlay(objects: &[&str], polygons: &[&str]) -> Dsf {
    let mut entities = Vec::new();
    for (k, _) in objects.iter().enumerate() {
        entities.push(Entity::Object(Object {
            def: k as u32,
            lon: 13.5 + k as f64 * 1e-4,
            lat: 47.5,
            heading: 0.0,
            elevation: None,
            mode: dsf::ElevationMode::Draped,
        }));
    }
    for (k, p) in polygons.iter().enumerate() {
        let line = p.ends_with(".lin") || p.ends_with(".str");
        let mut ring = vec![13.5, 47.5, 13.501, 47.5];
        if !line {
            ring.extend([13.501, 47.501]);
        }
        entities.push(Entity::Polygon(Polygon {
            def: k as u32,
            param: if line { 10 } else { 0 },
            depth: 2,
            windings: vec![ring],
        }));
    }
    Dsf {
        properties: vec![
            ("sim/west".into(), "13".into()),
            ("sim/south".into(), "47".into()),
            ("sim/east".into(), "14".into()),
            ("sim/north".into(), "48".into()),
            ("sim/overlay".into(), "1".into()),
        ],
        object_defs: objects.iter().map(|s| s.to_string()).collect(),
        polygon_defs: polygons.iter().map(|s| s.to_string()).collect(),
        entities,
        ..Dsf::default()
    }
}

/// Writes `dsf` as `<pkg>/Earth nav data/+40+010/+47+013.dsf`, and the
/// files `files` (path, text) in the package; returns the DSF's path.
fn package(pkg: &Path, dsf: &Dsf, files: &[(&str, &str)]) -> PathBuf {
    let dir = pkg.join("Earth nav data/+40+010");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("+47+013.dsf");
    std::fs::write(&path, dsf::build(dsf, &BuildOptions::default()).unwrap()).unwrap();
    for (name, text) in files {
        let f = pkg.join(name);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, text).unwrap();
    }
    path
}

/// `agkit place --dsf DSF --all --scenery PKG`, its output thrown away.
fn place_all(dsf: &Path, pkg: &Path) -> Output {
    let out = pkg.parent().unwrap().join("placed.json");
    agkit()
        .args(["place", "--all", "--dsf"])
        .arg(dsf)
        .arg("--scenery")
        .arg(pkg)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap()
}

/// Issue 46 item 5: every unresolved-art warning of `place --all` said
/// its path twice (`warning: objects\x.obj: objects\x.obj: not found
/// (…)`).
#[test]
fn unresolved_art_warnings_say_the_path_once() {
    let d = tempfile::tempdir().unwrap();
    let pkg = d.path().join("pkg");
    let dsf = package(
        &pkg,
        &overlay(&["objects\\x.obj", "objects/y.obj"], &[]),
        &[],
    );
    let o = place_all(&dsf, &pkg);
    let err = stderr(&o);
    for path in ["objects\\x.obj", "objects/y.obj"] {
        let line = err
            .lines()
            .find(|l| l.starts_with("warning: ") && l.contains(path) && l.contains("not found ("))
            .unwrap_or_else(|| panic!("no warning for {path}: {err}"));
        assert_eq!(line.matches(path).count(), 1, "{line}");
        assert!(
            line.starts_with(&format!("warning: {path}: not found (")),
            "{line}"
        );
    }
}

/// Issue 46 item 5: a `.str` of 100,000 `OBJECT` lines and a `.pol` with
/// `SCALE nan` were "unreadable" with no reason; `place` now says why,
/// with the file and line, and `check` and `info` point at the line.
#[test]
fn unreadable_draped_art_says_why_with_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    let pkg = d.path().join("pkg");
    let many = format!(
        "A\n850\nOBJECT_STRING\n{}",
        "OBJECT 0 0 y.obj\n".repeat(100_000)
    );
    let dsf = package(
        &pkg,
        &overlay(&[], &["objects/p.pol", "objects/s.str"]),
        &[
            (
                "objects/p.pol",
                "A\n850\nDRAPED_POLYGON\nTEXTURE x.png\nSCALE nan 5\n",
            ),
            ("objects/s.str", &many),
        ],
    );
    let err = stderr(&place_all(&dsf, &pkg));
    let pol = err
        .lines()
        .find(|l| l.contains("objects/p.pol: unreadable"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(pol.contains("p.pol:5:7: error[POL0004]:"), "{pol}");
    assert!(pol.contains("`nan`"), "{pol}");
    let s = err
        .lines()
        .find(|l| l.contains("objects/s.str: unreadable"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(s.contains("s.str:4100:1: error[STR0008]:"), "{s}");
    assert!(s.contains("4,096"), "{s}");

    let o = agkit()
        .arg("check")
        .arg(pkg.join("objects/p.pol"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(text.contains("error[POL0004]"), "{text}");
    assert!(text.contains("p.pol:5:7"), "{text}");
    assert!(!text.contains("AG000"), "read as autogen: {text}");
    let o = agkit()
        .arg("info")
        .arg(pkg.join("objects/s.str"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("error[STR0008]") && err.contains("s.str:4100:1"),
        "{err}"
    );
}

/// Issue 48 item 2: `check` of a folder listed the whole folder for each
/// missing art file an asset named (3,000 AGPs took 24 s, 17 s of it
/// system time). The folders are listed once per run, whatever the number
/// of misses, and the answers are the same.
#[test]
fn a_folder_check_lists_each_folder_once_not_once_per_missing_file() {
    use agkit::scenery::{ArtCheck, Scenery, resolve::Conditions};
    let d = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..300 {
        let f = d.path().join(format!("p{i:03}.agp"));
        std::fs::write(
            &f,
            format!(
                "A\n1000\nAG_POINT\nTEXTURE t{i}.png\nTEXTURE_SCALE 256 256\nTEXTURE_WIDTH 12.8\n\
                 OBJECT objects/o{i}.obj\nTILE 0 0 256 256\nOBJ_DRAPED 10 10 0 0\n"
            ),
        )
        .unwrap();
        files.push(f);
    }
    std::fs::create_dir(d.path().join("Objects")).unwrap();
    std::fs::write(
        d.path().join("Objects/O7.OBJ"),
        "I\n800\nOBJ\nPOINT_COUNTS 0 0 0 0\n",
    )
    .unwrap();
    let scenery = Scenery::without_libraries(Conditions::default());
    let mut missing = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let (_, diags) = scenery.check_bytes(f, &bytes, ArtCheck::Named);
        missing += diags.iter().filter(|d| d.code == "AG0085").count();
    }
    // Each texture missing, each object but the one found in other
    // letter case.
    assert_eq!(missing, 300 + 299);
    assert_eq!(
        scenery.art().folders().listed(),
        2,
        "the folder and Objects/"
    );
}
