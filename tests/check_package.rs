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

/// `agkit check ARGS…` run in `dir`.
fn check_in(dir: &Path, args: &[&str]) -> Output {
    agkit()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .unwrap()
}

/// The diagnostics `agkit check --format json` reports with `code`.
fn json_of(o: &Output, code: &str) -> Vec<serde_json::Value> {
    let v: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)));
    v.as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == code)
        .cloned()
        .collect()
}

/// Issue 48 item 2: `check` of a package whose DSF names 60 objects that
/// do not exist said "0 errors, 0 warnings"; only `place` and `scenery
/// check` said so. It now follows the DSFs' definitions as `place`
/// resolves them and names each missing file once, at the first DSF
/// naming it, with its table and index.
#[test]
fn a_package_whose_dsf_names_60_missing_objects_is_not_clean() {
    let d = tempfile::tempdir().unwrap();
    let pkg = d.path().join("Airport");
    let names: Vec<String> = (0..60).map(|k| format!("objects/b{k:02}.obj")).collect();
    let objects: Vec<&str> = names.iter().map(String::as_str).collect();
    let tile = overlay(&objects, &[]);
    package(
        &pkg,
        &tile,
        &[("objects/readme.txt", "the art was never copied")],
    );
    // A second tile naming the same objects: still one warning each.
    let other = pkg.join("Earth nav data/+40+010/+47+014.dsf");
    let mut east = tile.clone();
    east.properties[0].1 = "14".into();
    east.properties[2].1 = "15".into();
    for e in &mut east.entities {
        if let Entity::Object(o) = e {
            o.lon += 1.0;
        }
    }
    std::fs::write(&other, dsf::build(&east, &BuildOptions::default()).unwrap()).unwrap();

    let o = check_in(d.path(), &["Airport"]);
    assert_eq!(o.status.code(), Some(0), "warnings only: {}", stderr(&o));
    assert!(
        stderr(&o).contains("checked 2 files: 0 errors, 60 warnings"),
        "{}",
        stderr(&o)
    );
    let o = check_in(d.path(), &["--format", "json", "Airport"]);
    let missing = json_of(&o, "PKG001");
    assert_eq!(missing.len(), 60);
    for (k, m) in missing.iter().enumerate() {
        assert_eq!(m["severity"], "warning");
        assert!(m["file"].as_str().unwrap().ends_with("+47+013.dsf"), "{m}");
        let msg = m["message"].as_str().unwrap();
        assert!(
            msg.starts_with(&format!(
                "`OBJECT_DEF {k}` objects/b{k:02}.obj is not found: "
            )),
            "{msg}"
        );
        assert!(
            msg.contains("named by 1 other DSF of the package too"),
            "{msg}"
        );
        assert_eq!(msg.matches(&format!("b{k:02}.obj")).count(), 1, "{msg}");
    }
}

/// The package's own `library.txt` takes part, as in `place`: an export
/// whose file is there resolves, one whose file is missing is named with
/// the export that failed; a definition that is a file of the package
/// resolves; a library path no library exports is not looked up without
/// one given (a note, no warning).
#[test]
fn a_packages_own_library_and_files_resolve_as_place_resolves_them() {
    let d = tempfile::tempdir().unwrap();
    let pkg = d.path().join("Pkg");
    let obj = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/point/kiosk.obj"
    ))
    .unwrap()
    .replace("../art/objects.png", "kiosk.png");
    let tile = overlay(&["lib/pkg/kiosk.obj", "lib/pkg/gone.obj", "kiosk.obj"], &[]);
    package(
        &pkg,
        &tile,
        &[
            (
                "library.txt",
                "A\n800\nLIBRARY\n\nEXPORT lib/pkg/kiosk.obj kiosk.obj\nEXPORT lib/pkg/gone.obj gone.obj\n",
            ),
            ("kiosk.obj", &obj),
        ],
    );
    let o = check_in(d.path(), &["--format", "json", "Pkg"]);
    let missing = json_of(&o, "PKG001");
    assert_eq!(missing.len(), 1, "{}", stdout(&o));
    let msg = missing[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("`OBJECT_DEF 1` lib/pkg/gone.obj is not found: "),
        "{msg}"
    );
    assert!(msg.contains("library.txt"), "{msg}");
    // The object's texture is missing: its own check says so, once, at
    // its line (the DSF does not repeat it).
    let tex = json_of(&o, "AG0085");
    assert_eq!(tex.len(), 1, "{tex:?}");
    assert!(
        tex[0]["file"].as_str().unwrap().ends_with("kiosk.obj"),
        "{tex:?}"
    );
    assert!(json_of(&o, "PKG002").is_empty());

    // Without the library, `lib/pkg/…` is a library path not looked up.
    std::fs::remove_file(pkg.join("library.txt")).unwrap();
    let o = check_in(d.path(), &["--format", "json", "Pkg"]);
    assert!(json_of(&o, "PKG001").is_empty(), "{}", stdout(&o));
    let notes = json_of(&o, "PKG002");
    assert_eq!(notes.len(), 1);
    let msg = notes[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("2 definitions are library paths not in "),
        "{msg}"
    );
    assert!(msg.contains("lib/pkg/kiosk.obj, lib/pkg/gone.obj"), "{msg}");
}

/// A package inside an X-Plane installation's Custom Scenery resolves
/// through the installation without `--xplane` (said on stderr), and what
/// a definition found in another package's library names is followed:
/// its missing texture is named at the DSF, with the definition.
#[test]
fn a_package_in_an_installation_resolves_through_it_and_follows_library_art() {
    let d = tempfile::tempdir().unwrap();
    let xp = d.path().join("X-Plane 12");
    std::fs::create_dir_all(xp.join("Resources/default scenery")).unwrap();
    let custom = xp.join("Custom Scenery");
    let lib = custom.join("Lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join("library.txt"),
        "A\n800\nLIBRARY\n\nEXPORT lib/shed.obj shed.obj\nEXPORT lib/apron.pol apron.pol\n",
    )
    .unwrap();
    std::fs::write(
        lib.join("shed.obj"),
        "I\n800\nOBJ\nTEXTURE shed_gone.png\nPOINT_COUNTS 0 0 0 0\n",
    )
    .unwrap();
    std::fs::write(
        lib.join("apron.pol"),
        "A\n850\nDRAPED_POLYGON\nTEXTURE_NOWRAP apron_gone.dds\nSCALE 10 10\n",
    )
    .unwrap();
    let pkg = custom.join("Airport");
    package(&pkg, &overlay(&["lib/shed.obj"], &["lib/apron.pol"]), &[]);
    let o = check_in(&custom, &["--format", "json", "Airport"]);
    assert!(
        stderr(&o).contains("note: library paths are looked up in the X-Plane installation"),
        "{}",
        stderr(&o)
    );
    assert!(json_of(&o, "PKG001").is_empty(), "{}", stdout(&o));
    assert!(json_of(&o, "PKG002").is_empty(), "{}", stdout(&o));
    let art = json_of(&o, "AG0085");
    let msgs: Vec<&str> = art.iter().map(|a| a["message"].as_str().unwrap()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs.iter()
            .any(|m| m.starts_with("`OBJECT_DEF 0` lib/shed.obj (found as ")
                && m.contains("texture shed_gone.png: not found")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter().any(
            |m| m.starts_with("`POLYGON_DEF 0` lib/apron.pol (found as ")
                && m.contains("texture apron_gone.dds: not found")
        ),
        "{msgs:?}"
    );
    // --library names the libraries itself: nothing is looked up above.
    let o = check_in(&custom, &["--library", "Lib", "Airport"]);
    assert!(!stderr(&o).contains("installation"), "{}", stderr(&o));
}

/// Issue 46 item 5: a whole tile's `.pol` whose texture line is
/// `TEXTURE_NOWRAP` was drawn in a plain colour ("names no texture"):
/// its texture is found and drawn.
#[test]
fn a_pol_with_texture_nowrap_is_drawn_with_its_texture() {
    let d = tempfile::tempdir().unwrap();
    let pkg = d.path().join("pkg");
    let dsf = package(
        &pkg,
        &overlay(&[], &["ortho.pol"]),
        &[(
            "ortho.pol",
            "A\n850\nDRAPED_POLYGON\nLAYER_GROUP beaches -1\nTEXTURE_NOWRAP ortho.png\nSCALE 1 1\n",
        )],
    );
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/point/cobble_decal.png"
        ),
        pkg.join("ortho.png"),
    )
    .unwrap();
    let scenery = agkit::scenery::Scenery::packages(
        Some(&pkg),
        &[],
        agkit::scenery::resolve::Conditions::default(),
    )
    .unwrap();
    let params = agkit::place::Params {
        whole_tile: true,
        ..agkit::place::Params::default()
    };
    let tile = scenery.place_tile(&dsf, &params).unwrap();
    let pol = tile
        .placements
        .iter()
        .find(|p| p.kind == agkit::place::PlacementKind::Pol)
        .unwrap();
    let art = pol.art.as_ref().unwrap();
    assert_eq!(art.pol().unwrap().texture.as_deref(), Some("ortho.png"));
    let t = art.draped_texture().expect("the .pol names its texture");
    assert!(t.found.is_some(), "{}", t.how);
    assert_eq!(pol.draped[0].texture.as_deref(), Some("ortho.png"));
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

#[test]
fn package_rules_are_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md"))
        .unwrap();
    for r in agkit::scenery::package::RULES {
        let row = format!("| {} | {} |", r.code, r.severity.as_str());
        assert!(doc.contains(&row), "docs/diagnostics.md lacks `{row}`");
    }
}

/// Issue 48 item 4: `gen`'s output was no longer something `check` passes
/// — the art its assets name was not written (AG0085 on every asset) —
/// so "check finds no problem" did not hold for agkit's own generator.
#[test]
fn check_of_gen_output_finds_no_problem() {
    let d = tempfile::tempdir().unwrap();
    let s = agkit::r#gen::generate(7, d.path(), agkit::r#gen::Scale::Small).unwrap();
    let o = agkit()
        .args(["check", "--format", "json"])
        .arg(d.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!([]), "gen wrote what check flags");
    let files = s.text_files + s.art_files + s.dsf_files + s.agn_files;
    assert!(
        stderr(&o).contains(&format!(
            "checked {} files: 0 errors, 0 warnings",
            agkit::out::thousands(files)
        )),
        "{}",
        stderr(&o)
    );
    // The art is what the assets name, found beside them and read.
    let o = agkit()
        .arg("check")
        .arg(d.path().join("text/agp/point_00000.agp"))
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains("0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
}

/// Issue 48 item 4: the dense overlay `gen --scale full` writes
/// (`dense/+47+008.dsf`) drew its polygons' parameters from 0..2048 for
/// every kind, so an AGS of one winding said up to 255 spawning contours:
/// 49,787 `DSF023` warnings. The same tile, smaller, now checks clean.
#[test]
fn the_dense_overlay_trips_no_dsf023() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1 ^ 0xDE45);
    let tile = agkit::r#gen::dense_overlay_tile(&mut rng, 47, 8, 20_000, 2_000);
    let ags = tile
        .entities
        .iter()
        .filter(|e| matches!(e, Entity::Polygon(p) if (3..6).contains(&p.def)))
        .count();
    assert!(ags > 300, "{ags} AGS polygons");
    let bytes = dsf::build(&tile, &BuildOptions::default()).unwrap();
    let diags = dsf::check_bytes(&bytes);
    assert!(diags.is_empty(), "{:?}", &diags[..diags.len().min(3)]);
}

/// `check` follows an asset's art from the model it has just read instead
/// of parsing the text again: the diagnostics are those of the text checks
/// and [`Scenery::art_diagnostics`] (the two-parse way), in that order.
#[test]
fn an_assets_art_is_followed_from_one_parse_with_the_same_answers() {
    use agkit::scenery::{ArtCheck, Scenery, resolve::Conditions};
    let scenery = Scenery::without_libraries(Conditions::default());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    let broken = d.path().join("broken.agp");
    std::fs::write(
        &broken,
        "A\n1000\nAG_POINT\nTEXTURE gone.png\nTEXTURE_SCALE 64 64\nTEXTURE_WIDTH 8\n\
         OBJECT lib/x/none.obj\nOBJECT none.obj\nTILE 0 0 64 64\nOBJ_DRAPED 1 1 0 1\n",
    )
    .unwrap();
    for f in [
        root.join("examples/point/plaza.agp"),
        root.join("examples/block/city_block.agb"),
        root.join("examples/string/town_edge.ags"),
        broken,
    ] {
        let bytes = std::fs::read(&f).unwrap();
        let (text, one) = scenery.check_bytes(&f, &bytes, ArtCheck::Named);
        let (_, mut two) = agkit::check::check_bytes(&f, &bytes);
        two.extend(scenery.art_diagnostics(&f, text.as_deref().unwrap()));
        assert_eq!(one, two, "{}", f.display());
    }
}
