//! Scenery resolution: the real `library.txt`, `scenery_packs.ini` and DSF
//! overlay files of the corpus; a synthetic installation built here
//! (several packages, libraries with every directive, overlays with
//! exclusions written by agkit's DSF writer — objects and polygons only,
//! at positive coordinates the current writer handles); the JSON contract of
//! `scenery at`; the planted mistakes `scenery check` must find; and
//! `place --dsf --xplane`.

use agkit::scenery::install::Installation;
use agkit::scenery::library;
use agkit::scenery::resolve::{self, Conditions, LibraryIndex, Tile};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn agkit(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .output()
        .unwrap()
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

// ------------------------------------------------------------ installation

const TILE: &str = "+40+010/+47+013.dsf";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A library package: its `library.txt` (header added) and empty files.
fn library_package(dir: &Path, exports: &str, files: &[&str]) {
    write(
        &dir.join("library.txt"),
        &format!("A\n800\nLIBRARY\n{exports}"),
    );
    for f in files {
        write(&dir.join(f), "");
    }
}

/// Builds a DSF of tile +47+013 from DSF2Text with agkit's writer.
fn write_dsf(path: &Path, body: &str, overlay: bool) {
    write_tile_dsf(
        path,
        Tile {
            west: 13,
            south: 47,
        },
        body,
        overlay,
    );
}

/// Builds a DSF of `tile` from DSF2Text with agkit's writer.
fn write_tile_dsf(path: &Path, tile: Tile, body: &str, overlay: bool) {
    let (w, s) = (tile.west, tile.south);
    let text = format!(
        "I\n800 written by agkit\nDSF2TEXT\n\nDIVISIONS 32\nPROPERTY sim/west {w}\n\
         PROPERTY sim/south {s}\nPROPERTY sim/east {}\nPROPERTY sim/north {}\n{}{body}",
        w + 1,
        s + 1,
        if overlay {
            "PROPERTY sim/overlay 1\n"
        } else {
            ""
        }
    );
    let (dsf, opts) = agkit::dsf::from_text(&text, &mut |_| Err("no rasters".to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    let bytes = agkit::dsf::build(&dsf, &opts).unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn square(lon: f64, lat: f64, d: f64) -> String {
    format!(
        "BEGIN_WINDING\nPOLYGON_POINT {} {}\nPOLYGON_POINT {} {}\nPOLYGON_POINT {} {}\n\
         POLYGON_POINT {} {}\nEND_WINDING\n",
        lon - d,
        lat - d,
        lon + d,
        lat - d,
        lon + d,
        lat + d,
        lon - d,
        lat + d
    )
}

/// A test installation around 47.8000, 13.0400:
///
/// - `N New`: on disk, not in scenery_packs.ini (so ranked first);
/// - `A Airport`: an overlay excluding objects, forests and facades around
///   the point, placing a library object, a local object, an autogen point
///   and a facade;
/// - `B Overlay`: objects and a forest inside and outside A's zones, a path
///   only a disabled pack exports, a path with dataref-conditional exports,
///   a backup-only path;
/// - `C Lib High` / `D Lib Low`: libraries with every directive (C has a
///   `../` export and an export of a missing file; D is listed twice);
/// - `E Disabled`: a disabled library B depends on;
/// - `Gone`: listed, not on disk;
/// - `Z Mesh`: a base mesh at the bottom.
fn installation() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    write(
        &cs.join("scenery_packs.ini"),
        "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/A Airport/\n\
         SCENERY_PACK Custom Scenery/B Overlay/\nSCENERY_PACK Custom Scenery/C Lib High/\n\
         SCENERY_PACK Custom Scenery/D Lib Low/\nSCENERY_PACK_DISABLED Custom Scenery/E Disabled/\n\
         SCENERY_PACK Custom Scenery/Gone/\nSCENERY_PACK Custom Scenery/D Lib Low/\n\
         SCENERY_PACK Custom Scenery/Z Mesh/\n",
    );
    library_package(
        &cs.join("N New"),
        "EXPORT lib/new.obj new.obj\n",
        &["new.obj"],
    );
    let a = cs.join("A Airport");
    write(&a.join("objects/hangar.obj"), "");
    write_dsf(
        &a.join("Earth nav data").join(TILE),
        &format!(
            "PROPERTY sim/filter/aptid XAAA\n\
             PROPERTY sim/exclude_obj 13.039000/47.799500/13.041000/47.800500\n\
             PROPERTY sim/exclude_for 13.039000/47.799500/13.041000/47.800500\n\
             PROPERTY sim/exclude_fac 13.039000/47.799000/13.042000/47.801000;13.039/47.799,13.042/47.799,13.039/47.801\n\
             OBJECT_DEF lib/tower.obj\nOBJECT_DEF objects/hangar.obj\nOBJECT_DEF lib/plaza.agp\n\
             POLYGON_DEF lib/house.fac\n\
             OBJECT 0 13.040000000 47.800000000 10.000\n\
             OBJECT 1 13.040200000 47.800100000 90.000\n\
             OBJECT 2 13.041500000 47.801000000 30.000\n\
             BEGIN_POLYGON 0 12 2\n{}END_POLYGON\n",
            square(13.0385, 47.7990, 0.0001)
        ),
        true,
    );
    let b = cs.join("B Overlay");
    write_dsf(
        &b.join("Earth nav data").join(TILE),
        &format!(
            "OBJECT_DEF lib/car.obj\nOBJECT_DEF lib/needed.obj\nOBJECT_DEF lib/backup_only.obj\n\
             POLYGON_DEF lib/trees.for\nPOLYGON_DEF lib/summer.fac\n\
             OBJECT 0 13.040100000 47.800100000 0.000\n\
             OBJECT 0 13.043000000 47.800000000 0.000\n\
             OBJECT 1 13.040500000 47.801500000 0.000\n\
             OBJECT 2 13.039500000 47.801500000 0.000\n\
             BEGIN_POLYGON 0 255 2\n{}END_POLYGON\n\
             BEGIN_POLYGON 1 8 2\n{}END_POLYGON\n",
            square(13.0402, 47.8002, 0.0001),
            square(13.0380, 47.8012, 0.0001)
        ),
        true,
    );
    let c = cs.join("C Lib High");
    write(
        &c.join("library.txt"),
        "A\r\n800\r\nLIBRARY\r\n\r\nEXPORT lib/tower.obj high/tower.obj\r\n\
         EXPORT_RATIO 3 lib/tower.obj high/tower_b.obj\r\nEXPORT\tlib/plaza.agp\t\tag/plaza.agp\r\n\
         EXPORT_EXTEND lib/house.fac ext/house.fac\r\nEXPORT_BACKUP lib/backup_only.obj backup/c.obj\r\n\
         EXPORT lib/missing.obj not/there.obj\r\nDEPRECATED\r\n\
         EXPORT lib/old.obj ../D Lib Low/low/car.obj\r\nPUBLIC\r\n\
         REGION_DEFINE summer\r\nREGION_RECT 13 47 13 47\r\n\
         REGION_DREF sim/time/local_date_days >= 165\r\nREGION summer\r\n\
         EXPORT_EXCLUDE lib/summer.fac summer/house.fac\r\n\
         REGION_DEFINE elsewhere\r\nREGION_RECT 0 0 1 1\r\nREGION elsewhere\r\n\
         EXPORT lib/car.obj nowhere/car.obj\r\n",
    );
    for f in [
        "high/tower.obj",
        "high/tower_b.obj",
        "ext/house.fac",
        "backup/c.obj",
        "summer/house.fac",
        "nowhere/car.obj",
    ] {
        write(&c.join(f), "");
    }
    std::fs::create_dir_all(c.join("ag")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/point/plaza.agp"),
        c.join("ag/plaza.agp"),
    )
    .unwrap();
    library_package(
        &cs.join("D Lib Low"),
        "EXPORT lib/tower.obj low/tower.obj\nEXPORT lib/car.obj low/car.obj\n\
         EXPORT lib/house.fac low/house.fac\nEXPORT lib/trees.for low/trees.for\n\
         EXPORT lib/summer.fac low/summer.fac\nEXPORT_BACKUP lib/backup_only.obj backup/d.obj\n",
        &[
            "low/tower.obj",
            "low/car.obj",
            "low/house.fac",
            "low/trees.for",
            "low/summer.fac",
            "backup/d.obj",
        ],
    );
    library_package(
        &cs.join("E Disabled"),
        "EXPORT lib/needed.obj needed.obj\n",
        &["needed.obj"],
    );
    write_dsf(
        &cs.join("Z Mesh/Earth nav data").join(TILE),
        "OBJECT_DEF lib/car.obj\nOBJECT 0 13.040000000 47.799000000 0.000\n",
        false,
    );
    t
}

/// The library API on the installation: order, every rule.
#[test]
fn installation_resolves_by_every_rule() {
    let t = installation();
    let inst = Installation::open(t.path()).unwrap();
    let names: Vec<&str> = inst.packages.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "N New",
            "A Airport",
            "B Overlay",
            "C Lib High",
            "D Lib Low",
            "E Disabled",
            "Gone",
            "Z Mesh"
        ]
    );
    let (index, errors) = LibraryIndex::from_installation(&inst);
    assert!(errors.is_empty());
    let tile = Tile {
        west: 13,
        south: 47,
    };
    let none = Conditions::default();
    let pkgs = |r: &resolve::Resolution| -> Vec<(String, String)> {
        r.candidates
            .iter()
            .map(|c| (c.package.clone(), c.relative.clone()))
            .collect()
    };
    let p = |a: &str, b: &str| (a.to_string(), b.to_string());
    // EXPORT + EXPORT_RATIO in the higher package replace the lower one.
    let r = index.resolve("lib/tower.obj", tile, &none);
    assert_eq!(
        pkgs(&r),
        [
            p("C Lib High", "high/tower.obj"),
            p("C Lib High", "high/tower_b.obj")
        ]
    );
    assert_eq!(r.candidates[1].weight, 3.0);
    assert!(
        r.shadowed
            .iter()
            .any(|s| s.candidate.package == "D Lib Low")
    );
    // EXPORT_EXTEND adds to the lower package's export.
    let r = index.resolve("lib/house.fac", tile, &none);
    assert_eq!(
        pkgs(&r),
        [
            p("C Lib High", "ext/house.fac"),
            p("D Lib Low", "low/house.fac")
        ]
    );
    // The region of C's lib/car.obj does not cover the tile.
    let r = index.resolve("lib/car.obj", tile, &none);
    assert_eq!(pkgs(&r), [p("D Lib Low", "low/car.obj")]);
    assert!(r.shadowed[0].why.contains("does not cover tile +47+013"));
    // Backups: the higher package's.
    let r = index.resolve("lib/backup_only.obj", tile, &none);
    assert_eq!(pkgs(&r), [p("C Lib High", "backup/c.obj")]);
    assert_eq!(r.source, resolve::Source::Backup);
    // REGION_DREF: evaluated from --dref, else assumed and reported.
    let mut summer = Conditions::default();
    summer.set_dref("sim/time/local_date_days=200").unwrap();
    let mut winter = Conditions::default();
    winter.set_dref("sim/time/local_date_days=20").unwrap();
    let r = index.resolve("lib/summer.fac", tile, &summer);
    assert_eq!(pkgs(&r), [p("C Lib High", "summer/house.fac")]);
    assert!(!r.is_conditional());
    let r = index.resolve("lib/summer.fac", tile, &winter);
    assert_eq!(pkgs(&r), [p("D Lib Low", "low/summer.fac")]);
    let r = index.resolve("lib/summer.fac", tile, &none);
    assert!(r.is_conditional());
    // A disabled package exports nothing.
    let r = index.resolve("lib/needed.obj", tile, &none);
    assert!(!r.is_resolved());
    assert!(
        r.why_unresolved().contains("E Disabled"),
        "{}",
        r.why_unresolved()
    );
}

/// `agkit scenery at AT --xplane ROOT --radius RADIUS EXTRA…`.
fn scenery_at(root: &Path, at: &str, radius: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        os("scenery"),
        os("at"),
        os(at),
        os("--xplane"),
        root.as_os_str(),
        os("--radius"),
        os(radius),
    ];
    args.extend(extra.iter().map(|s| os(s)));
    agkit(&args)
}

/// `scenery at` of the test installation as JSON.
fn at_json(t: &tempfile::TempDir, extra: &[&str]) -> serde_json::Value {
    let mut extra = extra.to_vec();
    extra.extend(["--format", "json"]);
    let o = scenery_at(t.path(), "47.8000,13.0400", "300", &extra);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The JSON contract of `scenery at`, and what it says on the installation.
#[test]
fn scenery_at_json_contract() {
    let t = installation();
    let v = at_json(&t, &["--dref", "sim/time/local_date_days=200"]);
    let obj = v.as_object().unwrap();
    let mut top: Vec<&str> = obj.keys().map(String::as_str).collect();
    top.sort();
    assert_eq!(top, ["ground", "items", "packages"]);
    let packages = v["packages"].as_array().unwrap();
    assert_eq!(packages.len(), 8, "D Lib Low listed twice is one package");
    for (k, p) in packages.iter().enumerate() {
        let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort();
        assert_eq!(keys, ["enabled", "name", "path", "priority"]);
        assert_eq!(p["priority"], k);
        assert!(p["name"].is_string() && p["path"].is_string() && p["enabled"].is_boolean());
    }
    assert_eq!(packages[5]["name"], "E Disabled");
    assert_eq!(packages[5]["enabled"], false);
    // Listed but not on disk: the simulator skips it, so it is not enabled.
    let gone = packages.iter().find(|p| p["name"] == "Gone").unwrap();
    assert_eq!(gone["enabled"], false, "{gone}");
    assert_eq!(
        packages.iter().filter(|p| p["enabled"] == true).count(),
        6,
        "every other pack is loaded"
    );
    assert_eq!(packages[1]["path"], "Custom Scenery/A Airport/");
    let items = v["items"].as_array().unwrap();
    for i in items {
        for key in [
            "package",
            "dsf",
            "kind",
            "definition",
            "resolved",
            "lon",
            "lat",
            "excluded_by",
        ] {
            assert!(i.get(key).is_some(), "{key} missing in {i}");
        }
        assert!(i["lon"].is_f64() && i["lat"].is_f64());
        match &i["resolved"] {
            serde_json::Value::Null => {}
            r => {
                let mut keys: Vec<&str> =
                    r.as_object().unwrap().keys().map(String::as_str).collect();
                keys.sort();
                assert_eq!(keys, ["file", "package"]);
            }
        }
        assert!(i["excluded_by"].is_null() || i["excluded_by"].is_string());
    }
    let find = |pkg: &str, def: &str| -> Vec<&serde_json::Value> {
        items
            .iter()
            .filter(|i| i["package"] == pkg && i["definition"] == def && i["placed_by"].is_null())
            .collect()
    };
    let tower = find("A Airport", "lib/tower.obj");
    assert_eq!(tower.len(), 1);
    assert_eq!(tower[0]["kind"], "object");
    assert_eq!(tower[0]["dsf"], format!("Earth nav data/{TILE}"));
    assert_eq!(tower[0]["resolved"]["package"], "C Lib High");
    assert!(
        tower[0]["excluded_by"].is_null(),
        "own exclusions never apply"
    );
    let hangar = find("A Airport", "objects/hangar.obj");
    assert_eq!(
        hangar[0]["resolved"],
        serde_json::json!({"package": "A Airport", "file": "Custom Scenery/A Airport/objects/hangar.obj"})
    );
    let plaza = find("A Airport", "lib/plaza.agp");
    assert_eq!(plaza[0]["kind"], "autogen_point");
    assert_eq!(
        plaza[0]["resolved"]["file"],
        "Custom Scenery/C Lib High/ag/plaza.agp"
    );
    let parent = items.iter().position(|i| i == plaza[0]).unwrap();
    let children: Vec<_> = items.iter().filter(|i| i["placed_by"] == parent).collect();
    assert!(
        children.len() > 3,
        "the plaza places kiosks, lamps, trees …"
    );
    assert!(children.iter().any(|c| c["kind"] == "tree"));
    let cars = find("B Overlay", "lib/car.obj");
    assert_eq!(cars.len(), 2);
    assert_eq!(
        cars[0]["excluded_by"], "A Airport",
        "inside sim/exclude_obj"
    );
    assert!(cars[1]["excluded_by"].is_null(), "outside the zone");
    assert_eq!(
        cars[0]["resolved"]["file"],
        "Custom Scenery/D Lib Low/low/car.obj"
    );
    let needed = find("B Overlay", "lib/needed.obj");
    assert!(needed[0]["resolved"].is_null());
    let forest = find("B Overlay", "lib/trees.for");
    assert_eq!(forest[0]["kind"], "forest");
    assert_eq!(forest[0]["excluded_by"], "A Airport");
    let summer = find("B Overlay", "lib/summer.fac");
    assert_eq!(summer[0]["resolved"]["package"], "C Lib High");
    assert!(
        summer[0]["excluded_by"].is_null(),
        "outside the facade triangle"
    );
    let backup = find("B Overlay", "lib/backup_only.obj");
    assert_eq!(
        backup[0]["resolved"]["file"],
        "Custom Scenery/C Lib High/backup/c.obj"
    );
    let mesh = find("Z Mesh", "lib/car.obj");
    assert!(
        mesh[0]["excluded_by"].is_null(),
        "outside every exclusion zone (the mesh is the lowest pack)"
    );
    let fac = find("A Airport", "lib/house.fac");
    assert_eq!(fac[0]["kind"], "facade");

    // Winter: the lower library's facade; no dref: the conditional summer one.
    let v = at_json(
        &t,
        &["--dref", "sim/time/local_date_days=20", "--no-autogen"],
    );
    let s = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["definition"] == "lib/summer.fac")
        .unwrap()
        .clone();
    assert_eq!(s["resolved"]["package"], "D Lib Low");
    let v = at_json(&t, &["--no-autogen"]);
    let s = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["definition"] == "lib/summer.fac")
        .unwrap()
        .clone();
    assert_eq!(s["conditions"][0], "sim/time/local_date_days >= 165");
    assert!(
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["placed_by"].is_null())
    );
}

/// A base mesh above an overlay hides the overlay's tile.
#[test]
fn scenery_at_mesh_above_an_overlay_hides_it() {
    let t = installation();
    let ini = t.path().join("Custom Scenery/scenery_packs.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    let text = text
        .replace("SCENERY_PACK Custom Scenery/Z Mesh/\n", "")
        .replace(
            "SCENERY_PACK Custom Scenery/B Overlay/\n",
            "SCENERY_PACK Custom Scenery/Z Mesh/\nSCENERY_PACK Custom Scenery/B Overlay/\n",
        );
    std::fs::write(&ini, text).unwrap();
    let v = at_json(&t, &["--no-autogen"]);
    for i in v["items"].as_array().unwrap() {
        if i["package"] == "B Overlay" {
            assert_eq!(i["excluded_by"], "Z Mesh", "{i}");
        }
    }
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        t.path().as_os_str(),
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("warning[SCN011]: B Overlay: Earth nav data/+40+010/+47+013.dsf is below the base mesh of Z Mesh"),
        "{out}"
    );
}

/// Text, GeoJSON, SVG and PNG forms.
#[test]
fn scenery_at_other_formats() {
    let t = installation();
    let base = |f: &str| {
        agkit(&[
            os("scenery"),
            os("at"),
            os("47.8000,13.0400"),
            os("--xplane"),
            t.path().as_os_str(),
            os("--radius"),
            os("300"),
            os("--no-autogen"),
            os("--format"),
            os(f),
        ])
    };
    let o = base("text");
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!("at_text", String::from_utf8_lossy(&o.stdout));
    let json = at_json(&t, &["--no-autogen"]);
    let o = base("geojson");
    let g: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let features = g["features"].as_array().unwrap();
    assert_eq!(features.len(), json["items"].as_array().unwrap().len());
    let kinds: Vec<&str> = features
        .iter()
        .map(|f| f["geometry"]["type"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"Point") && kinds.contains(&"Polygon"));
    let o = base("svg");
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("#b0b0b0"),
        "excluded items grey"
    );
    assert!(svg.contains("B Overlay"));
    let o = base("png");
    assert_eq!(&o.stdout[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn scenery_at_bad_input_is_a_usage_error() {
    let t = installation();
    for (at, radius) in [
        ("91,13", "100"),
        ("47.8,13", "0"),
        ("47.8,13", "-5"),
        ("47.8,13", "NaN"),
        ("47.8,13", "1e9"),
        ("47.8,13", "1e308"),
        ("47.8,13", "-inf"),
        ("47.8", "100"),
        ("x,y", "100"),
        ("NaN,13", "100"),
        ("47.8,inf", "100"),
        ("-90.5,13", "100"),
        ("47.8,180.5", "100"),
    ] {
        let o = scenery_at(t.path(), at, radius, &[]);
        assert_eq!(o.status.code(), Some(2), "{at} {radius}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("error:"), "{}", stderr(&o));
        // One short line (a radius of 1e308 was written with 309 digits).
        assert!(stderr(&o).len() < 120, "{}", stderr(&o));
    }
    let empty = tempfile::tempdir().unwrap();
    let o = agkit(&[
        os("scenery"),
        os("at"),
        os("47.8,13"),
        os("--xplane"),
        empty.path().as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not an X-Plane folder"),
        "{}",
        stderr(&o)
    );
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        empty.path().join("nope").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope: No such file"), "{}", stderr(&o));
}

/// `scenery check` finds every planted mistake and exits 1.
#[test]
fn scenery_check_finds_planted_mistakes() {
    let t = installation();
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        t.path().as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    insta::assert_snapshot!("check_text", out);
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        t.path().as_os_str(),
        os("--format"),
        os("json"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut codes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    codes.sort();
    codes.dedup();
    assert_eq!(
        codes,
        [
            "SCN001", "SCN002", "SCN003", "SCN004", "SCN005", "SCN006", "SCN007", "SCN008",
            "SCN015"
        ]
    );
    assert_eq!(v["stats"]["unresolved"], 1);
    // The plaza placed from the library names ten art files it lacks:
    // reported to the airport that uses it and to the library that
    // exports it (once per package).
    assert_eq!(v["stats"]["missing_art"], 20);
    assert_eq!(v["stats"]["dsfs"], 3);
}

/// `scenery resolve` says which file wins at a tile and why the others
/// lost; exit 1 when nothing resolves.
#[test]
fn scenery_resolve_explains() {
    let t = installation();
    let run = |path: &str, extra: &[&str]| {
        let mut args = vec![
            os("scenery"),
            os("resolve"),
            os(path),
            os("--tile"),
            os("47.8,13.04"),
            os("--xplane"),
            t.path().as_os_str(),
        ];
        args.extend(extra.iter().map(|s| os(s)));
        agkit(&args)
    };
    let mut out = String::new();
    for (path, extra) in [
        ("lib/tower.obj", &[][..]),
        (
            "lib/summer.fac",
            &["--dref", "sim/time/local_date_days=20"][..],
        ),
        ("lib/backup_only.obj", &[][..]),
        ("lib/needed.obj", &[][..]),
    ] {
        let o = run(path, extra);
        let want = if path == "lib/needed.obj" { 1 } else { 0 };
        assert_eq!(o.status.code(), Some(want), "{path}: {}", stderr(&o));
        out.push_str(&String::from_utf8_lossy(&o.stdout));
    }
    insta::assert_snapshot!("resolve_text", out);
    let o = run("lib/tower.obj", &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["source"], "library");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 2);
    assert_eq!(v["shadowed"][0]["candidate"]["package"], "D Lib Low");
    // Found by the first outside test: only `scenery check` said that a path
    // is exported with other letter case; `resolve` (and `at`) say it too.
    let o = run("lib/Tower.obj", &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(
            "unresolved: no enabled package exports it; `lib/tower.obj` is exported \
             (X-Plane compares virtual paths with their case)"
        ),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = run("lib/Tower.obj", &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["case_variant"], "lib/tower.obj");
}

/// A damaged DSF and a binary library.txt are reported, never fatal to
/// `scenery at`; `scenery check` makes them errors.
#[test]
fn hostile_files_are_reported() {
    let t = installation();
    let cs = t.path().join("Custom Scenery");
    std::fs::write(
        cs.join("B Overlay/Earth nav data").join(TILE),
        b"XPLNEDSF\x01\0\0\0\xff\xff\xff\x7fjunk",
    )
    .unwrap();
    std::fs::write(
        cs.join("N New/library.txt"),
        [0u8, 159, 146, 150, 13, 10, 255],
    )
    .unwrap();
    let o = agkit(&[
        os("scenery"),
        os("at"),
        os("47.8000,13.0400"),
        os("--xplane"),
        t.path().as_os_str(),
        os("--no-autogen"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("warning: Custom Scenery/B Overlay/Earth nav data/+40+010/+47+013.dsf:"),
        "{}",
        stderr(&o)
    );
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        t.path().as_os_str(),
        os("--format"),
        os("json"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = v["findings"].as_array().unwrap();
    let of = |code: &str| f.iter().find(|x| x["code"] == code).cloned().unwrap();
    assert_eq!(of("SCN010")["package"], "B Overlay");
    assert_eq!(of("SCN009")["severity"], "error");
    assert!(
        of("SCN009")["message"]
            .as_str()
            .unwrap()
            .contains("X-Plane ignores the whole file")
    );
}

/// The findings of `scenery check --format json` on an installation.
fn check_findings(root: &Path) -> Vec<serde_json::Value> {
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        root.as_os_str(),
        os("--format"),
        os("json"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["findings"].as_array().unwrap().clone()
}

/// The details of the finding with `code` about `package` (or the
/// installation when `None`).
fn details(findings: &[serde_json::Value], code: &str, package: Option<&str>) -> Vec<String> {
    let f = findings
        .iter()
        .find(|f| f["code"] == code && f["package"].as_str() == package)
        .unwrap_or_else(|| panic!("no {code} for {package:?} in {findings:#?}"));
    f["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect()
}

/// Found in review: a DSF naming a library's file by `../` (issue 20 item
/// 4, "libraries referenced by ../ paths") was called unresolved, an error,
/// though the file exists and the simulator loads it; and `scenery check`
/// did not point the path out. Now it resolves to the file, in the package
/// holding it, and check warns (SCN005) without failing; an absolute path
/// is still not followed.
#[test]
fn dsf_paths_climbing_out_of_their_package_resolve_and_are_flagged() {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    library_package(
        &cs.join("Lib"),
        "EXPORT lib/x.obj objects/x.obj\n",
        &["objects/x.obj"],
    );
    write_dsf(
        &cs.join("Airport/Earth nav data").join(TILE),
        "OBJECT_DEF ../Lib/objects/x.obj\nOBJECT_DEF /etc/hostname\n\
         OBJECT 0 13.040000000 47.800000000 0.000\n",
        true,
    );
    let v = at_json(&t, &[]);
    let item = &v["items"][0];
    assert_eq!(item["definition"], "../Lib/objects/x.obj");
    assert_eq!(
        item["resolved"],
        serde_json::json!({"package": "Lib", "file": "Custom Scenery/Lib/objects/x.obj"})
    );
    assert!(item["rule"].as_str().unwrap().contains("`../`"), "{item}");
    let f = check_findings(t.path());
    assert_eq!(
        details(&f, "SCN005", Some("Airport")),
        ["../Lib/objects/x.obj (Earth nav data/+40+010/+47+013.dsf)"]
    );
    assert_eq!(
        details(&f, "SCN001", Some("Airport")),
        [
            "/etc/hostname (Earth nav data/+40+010/+47+013.dsf): not a file of Airport and \
          no enabled package exports it"
        ]
    );
}

/// Found in review: `--xplane "Custom Scenery"` given from the X-Plane
/// folder took `..` for the X-Plane folder, so the shipped libraries and
/// the Global Scenery base meshes were left out of the installation.
#[test]
fn custom_scenery_given_relative_keeps_the_shipped_scenery() {
    let t = tempfile::tempdir().unwrap();
    library_package(
        &t.path().join("Custom Scenery/Lib"),
        "EXPORT lib/x.obj x.obj\n",
        &["x.obj"],
    );
    library_package(
        &t.path().join("Resources/default scenery/1000 autogen"),
        "EXPORT lib/y.obj y.obj\n",
        &["y.obj"],
    );
    std::fs::create_dir_all(t.path().join("Global Scenery/Mesh/Earth nav data")).unwrap();
    for dir in ["Custom Scenery", "./Custom Scenery"] {
        let o = Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args([
                "scenery",
                "at",
                "47.8,13.04",
                "--xplane",
                dir,
                "--format",
                "json",
            ])
            .current_dir(t.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let paths: Vec<&str> = v["packages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            [
                "Custom Scenery/Lib/",
                "Resources/default scenery/1000 autogen/",
                "Global Scenery/Mesh/"
            ],
            "--xplane {dir}"
        );
    }
}

/// Found in review: `--season summer` where the libraries write `sum`
/// dropped every seasonal export without a word. Now a warning names the
/// seasons the libraries use (scenery commands and place --dsf alike).
#[test]
fn a_season_no_library_names_is_a_warning() {
    let t = tempfile::tempdir().unwrap();
    library_package(
        &t.path().join("Custom Scenery/Lib"),
        "EXPORT_SEASON sum,spr lib/x.obj x.obj\nEXPORT_SEASON win lib/x.obj w.obj\n",
        &["x.obj", "w.obj"],
    );
    let run = |season: &str| {
        agkit(&[
            os("scenery"),
            os("resolve"),
            os("lib/x.obj"),
            os("--tile"),
            os("47.8,13.04"),
            os("--xplane"),
            t.path().as_os_str(),
            os("--season"),
            os(season),
        ])
    };
    let o = run("summer");
    assert_eq!(o.status.code(), Some(1), "nothing resolves in 'summer'");
    assert!(
        stderr(&o).contains(
            "warning: --season summer: no library names that season (they name spr, sum, win)"
        ),
        "{}",
        stderr(&o)
    );
    let o = run("sum");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

/// Found by the first outside test: a `library.txt` or `scenery_packs.ini`
/// that is not valid UTF-8 had every problem reported at line 1:1 (the
/// report re-read the file as UTF-8 and got nothing); a binary one had its
/// bytes quoted on the terminal, line by line; a megabyte line was quoted
/// whole. Now the lines are right, a binary file is one error saying what
/// it is, and quoted text is cut short.
#[test]
fn odd_library_and_pack_files_are_reported_by_line_not_quoted() {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    library_package(&cs.join("Latin"), "# caf\u{e9}\nFOO bar\n", &[]);
    // The comment as Latin-1 (one byte 0xE9, invalid UTF-8).
    let latin = std::fs::read(cs.join("Latin/library.txt")).unwrap();
    let latin: Vec<u8> = String::from_utf8(latin)
        .unwrap()
        .chars()
        .map(|c| c as u32 as u8)
        .collect();
    std::fs::write(cs.join("Latin/library.txt"), latin).unwrap();
    write(
        &cs.join("Long/library.txt"),
        &format!("A\n800\nLIBRARY\nBOGUS{}\n", "y".repeat(100_000)),
    );
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend((0..2000u32).map(|i| (i * 7919 % 251) as u8));
    write(&cs.join("Picture/library.txt"), "");
    std::fs::write(cs.join("Picture/library.txt"), &png).unwrap();
    std::fs::write(cs.join("scenery_packs.ini"), &png).unwrap();

    let f = check_findings(t.path());
    assert_eq!(
        details(&f, "SCN009", Some("Latin")),
        [
            "Latin/library.txt:5:1: warning[LIB004]: unknown directive `FOO`; X-Plane ignores the line"
        ]
    );
    let long = details(&f, "SCN009", Some("Long"));
    assert!(
        long[0].starts_with("Long/library.txt:4:1: warning[LIB004]: unknown directive `BOGUSyyy")
    );
    assert!(long[0].len() < 400, "{}", long[0]);
    assert_eq!(
        details(&f, "SCN009", Some("Picture")),
        [
            "Picture/library.txt: error[LIB001]: not a library list (library.txt): it is a binary \
          file, which agkit does not read; X-Plane ignores it"
        ]
    );
    assert_eq!(
        details(&f, "SCN012", None),
        [
            "scenery_packs.ini: warning[INI001]: not a scenery_packs.ini: it is a binary file, \
          which agkit does not read; X-Plane cannot use it"
        ]
    );
}

/// Found by the first outside test: `scenery at` listed the tiles a circle
/// touches without wrapping at ±180° and with the span of longitude of its
/// centre, so an object 60 m away across the antimeridian, or 20 m away
/// across the north pole, was not reported.
#[test]
fn scenery_at_reaches_across_the_antimeridian_and_the_poles() {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    let pack = cs.join("Far/Earth nav data");
    for (tile, lon, lat) in [
        (
            Tile {
                west: 179,
                south: 10,
            },
            179.9995,
            10.0005,
        ),
        (
            Tile {
                west: -180,
                south: 10,
            },
            -179.9995,
            10.0005,
        ),
        (
            Tile {
                west: 179,
                south: 89,
            },
            179.9999,
            89.9999,
        ),
    ] {
        let (folder, file) = tile.file_names();
        write_tile_dsf(
            &pack.join(folder).join(file),
            tile,
            &format!("OBJECT_DEF far.obj\nOBJECT 0 {lon} {lat} 0\n"),
            true,
        );
    }
    let near = |at: &str| -> Vec<(f64, f64)> {
        let o = scenery_at(t.path(), at, "500", &["--format", "json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            // DSF coordinates are quantized: compare to a micro-degree.
            .map(|i| ["lat", "lon"].map(|k| (i[k].as_f64().unwrap() * 1e6).round() / 1e6))
            .map(|[lat, lon]| (lat, lon))
            .collect()
    };
    let east = (10.0005, 179.9995);
    let west = (10.0005, -179.9995);
    assert_eq!(near("10.0005,179.9999"), [west, east]);
    assert_eq!(near("10.0005,-180"), [west, east]);
    assert_eq!(near("89.9999,0"), [(89.9999, 179.9999)]);
}

/// A clean installation checks clean (exit 0).
#[test]
fn scenery_check_clean_installation() {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    library_package(&cs.join("L"), "EXPORT lib/a.obj a.obj\n", &["a.obj"]);
    write_dsf(
        &cs.join("P/Earth nav data").join(TILE),
        "OBJECT_DEF lib/a.obj\nOBJECT 0 13.5 47.5 0\n",
        true,
    );
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        t.path().as_os_str(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "checked 2 packages (2 enabled, 1 with a library.txt, 1 export), 1 DSF, 1 definition: 0 unresolved; \
         art of 1 file followed: 0 missing\n"
    );
}

/// The small installation in tests/fixtures/xplane (for the command-line
/// suite): its DSFs are what their DSF2Text sources say, it checks clean,
/// and `scenery at` sees its exclusion.
#[test]
fn fixture_installation_is_current_and_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/xplane");
    for (text, pack) in [("airport.txt", "Airport"), ("town.txt", "Town")] {
        let (want, _) = agkit::dsf::from_text(
            &std::fs::read_to_string(root.join(text)).unwrap(),
            &mut |_| Err("no rasters".to_string()),
        )
        .unwrap();
        let dsf = root
            .join("Custom Scenery")
            .join(pack)
            .join("Earth nav data")
            .join(TILE);
        let got = agkit::dsf::read(&std::fs::read(dsf).unwrap()).unwrap();
        assert_eq!(got.properties, want.properties, "{text}");
        assert_eq!(got.object_defs, want.object_defs, "{text}");
        let (a, b): (Vec<_>, Vec<_>) = (got.objects().collect(), want.objects().collect());
        assert_eq!(a.len(), b.len(), "{text}");
        for (a, b) in a.iter().zip(&b) {
            assert!(
                (a.lon - b.lon).abs() < 1e-6 && (a.lat - b.lat).abs() < 1e-6,
                "{text}"
            );
            assert!((a.heading - b.heading).abs() < 1e-2, "{text}");
        }
    }
    let o = agkit(&[os("scenery"), os("check"), os("--xplane"), root.as_os_str()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = agkit(&[
        os("scenery"),
        os("at"),
        os("47.5,13.5"),
        os("--xplane"),
        root.as_os_str(),
        os("--format"),
        os("json"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let excluded: Vec<&serde_json::Value> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| !i["excluded_by"].is_null())
        .collect();
    assert_eq!(excluded.len(), 1);
    assert_eq!(excluded[0]["package"], "Town");
    assert_eq!(excluded[0]["excluded_by"], "Airport");
    // A file where the installation folder is wanted.
    let o = agkit(&[
        os("scenery"),
        os("check"),
        os("--xplane"),
        root.join("airport.txt").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a file, not a folder"),
        "{}",
        stderr(&o)
    );
}

// ------------------------------------------------------------------ place

fn a_dsf(t: &tempfile::TempDir) -> PathBuf {
    t.path()
        .join("Custom Scenery/A Airport/Earth nav data")
        .join(TILE)
}

/// `place --dsf --xplane` resolves the autogen through the installation.
#[test]
fn place_dsf_resolves_through_the_installation() {
    let t = installation();
    let o = agkit(&[
        os("place"),
        os("--dsf"),
        a_dsf(&t).as_os_str(),
        os("--xplane"),
        t.path().as_os_str(),
        os("--explain"),
        os("--format"),
        os("json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert_eq!(arr.len(), 1);
    assert_eq!(arr[0]["asset"], "lib/plaza.agp");
    assert!(!arr[0]["objects"].as_array().unwrap().is_empty());
    let err = stderr(&o);
    assert!(
        err.contains("C Lib High/ag/plaza.agp (EXPORT in C Lib High (line 7)"),
        "{err}"
    );
    // Without the installation nothing resolves: an error, no output.
    let o = agkit(&[os("place"), os("--dsf"), a_dsf(&t).as_os_str()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert!(
        stderr(&o).contains("lib/plaza.agp (1 use): not a file of"),
        "{}",
        stderr(&o)
    );
    // --library with the Custom Scenery folder: its libraries in ini order.
    let o = agkit(&[
        os("place"),
        os("--dsf"),
        a_dsf(&t).as_os_str(),
        os("--library"),
        t.path().join("Custom Scenery").as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn place_library_without_library_txt_says_why() {
    let t = installation();
    for dir in [
        t.path().join("Custom Scenery/A Airport"),
        t.path().join("nowhere"),
    ] {
        let o = agkit(&[
            os("place"),
            os("--dsf"),
            a_dsf(&t).as_os_str(),
            os("--library"),
            dir.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains("no library.txt in it") || err.contains("No such file"),
            "{err}"
        );
    }
}

/// Fifty tiles whose assets resolve nowhere: one grouped report, not a
/// line per use, and exit 1 since nothing is placed.
#[test]
fn place_dsf_tree_groups_unresolved_assets() {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/dsf/autogen_demo.dsf");
    let dir = tempfile::tempdir().unwrap();
    for k in 0..50 {
        let sub = dir.path().join(format!("t{k:02}"));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::copy(&demo, sub.join("+47+013.dsf")).unwrap();
    }
    let out = dir.path().join("out.json");
    let o = agkit(&[
        os("place"),
        os("--dsf"),
        dir.path().as_os_str(),
        os("-o"),
        out.as_os_str(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.lines().count() <= 6, "{err}");
    assert!(
        err.contains("error: none of the 150 autogen uses under")
            && err.contains("point/plaza.agp (50 uses in 50 tiles)"),
        "{err}"
    );
    assert!(err.contains("placed 0 uses from 50 tiles"), "{err}");
    // With the package given, everything resolves and nothing is grouped.
    let o = agkit(&[
        os("place"),
        os("--dsf"),
        dir.path().as_os_str(),
        os("--scenery"),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .as_os_str(),
        os("-o"),
        out.as_os_str(),
    ]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("placed 150 uses from 50 tiles"), "{err}");
    assert!(!err.contains("resolve nowhere"), "{err}");
}

// ---------------------------------------------------------------- property

mod props {
    use super::*;
    use proptest::prelude::*;

    const KINDS: [&str; 5] = [
        "EXPORT",
        "EXPORT_EXCLUDE",
        "EXPORT_EXTEND",
        "EXPORT_BACKUP",
        "EXPORT_RATIO 2",
    ];

    /// The rules restated plainly: per package, an EXPORT_EXCLUDE keeps
    /// only the package's EXPORT_EXCLUDE lines; otherwise EXPORT/RATIO
    /// lines are its plain exports and EXTEND lines its extensions. The
    /// highest-priority enabled package with plain exports wins; extensions
    /// of packages at or above it add; the first backup of the highest
    /// package with one only when nothing else.
    fn oracle(pkgs: &[(bool, Vec<usize>)]) -> Vec<(usize, usize)> {
        let mut plain: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut extend: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut backup: Vec<Vec<(usize, usize)>> = Vec::new();
        for (p, (enabled, lines)) in pkgs.iter().enumerate() {
            let at = |k: usize| -> Vec<(usize, usize)> {
                lines
                    .iter()
                    .enumerate()
                    .filter(|(_, kind)| **kind == k)
                    .map(|(i, _)| (p, i))
                    .collect()
            };
            let (mut pl, mut ex, bk) = if !enabled {
                (vec![], vec![], vec![])
            } else if lines.contains(&1) {
                (at(1), vec![], at(3))
            } else {
                let mut v = at(0);
                v.extend(at(4));
                v.sort();
                (v, at(2), at(3))
            };
            pl.sort();
            ex.sort();
            plain.push(pl);
            extend.push(ex);
            backup.push(bk);
        }
        let winner = plain.iter().position(|v| !v.is_empty());
        let mut out: Vec<(usize, usize)> = match winner {
            Some(w) => {
                let mut v = plain[w].clone();
                for e in &extend[..=w] {
                    v.extend(e);
                }
                v
            }
            None => extend.concat(),
        };
        if out.is_empty()
            && let Some(b) = backup.iter().find(|b| !b.is_empty())
        {
            out = vec![b[0]];
        }
        out.sort();
        out
    }

    proptest! {
        #[test]
        fn resolver_follows_the_rules(
            pkgs in prop::collection::vec(
                (prop::bool::weighted(0.8), prop::collection::vec(0usize..5, 0..5)),
                1..5,
            ),
        ) {
            let mut index = LibraryIndex::default();
            for (p, (enabled, lines)) in pkgs.iter().enumerate() {
                let mut text = String::from("A\n800\nLIBRARY\n");
                for (i, k) in lines.iter().enumerate() {
                    text.push_str(&format!("{} v.obj f{i}.obj\n", KINDS[*k]));
                }
                index.push(resolve::LibPackage {
                    name: format!("p{p}"),
                    root: PathBuf::from(format!("/nonexistent/p{p}")),
                    priority: p,
                    enabled: *enabled,
                    library: library::parse(&text),
                });
            }
            let r = index.resolve("v.obj", Tile { west: 0, south: 0 }, &Conditions::default());
            let mut got: Vec<(usize, usize)> = r
                .candidates
                .iter()
                .map(|c| {
                    let p: usize = c.package[1..].parse().unwrap();
                    (p, c.line.unwrap() - 4)
                })
                .collect();
            got.sort();
            prop_assert_eq!(got, oracle(&pkgs));
            // Every export is either a candidate or shadowed with a reason.
            let total: usize = pkgs.iter().map(|p| p.1.len()).sum();
            prop_assert_eq!(r.candidates.len() + r.shadowed.len(), total);
        }

        /// The reader never panics and keeps the line of every export.
        #[test]
        fn library_reader_survives_anything(lines in prop::collection::vec(
            prop_oneof![
                Just("EXPORT a b".to_string()),
                Just("EXPORT_RATIO NaN a b".to_string()),
                Just("REGION_RECT 1 2".to_string()),
                Just("REGION_DREF x >= ".to_string()),
                Just("REGION r".to_string()),
                Just("REGION_DEFINE r".to_string()),
                "[ -~\t]{0,40}",
            ],
            0..30,
        ), sep in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]) {
            let text = format!("A{sep}800{sep}LIBRARY{sep}{}", lines.join(sep));
            let f = library::parse(&text);
            for e in &f.exports {
                prop_assert!(text[e.span.clone()].starts_with("EXPORT"));
                prop_assert_eq!(library::line_col(&text, e.span.start).0, e.line);
            }
        }
    }
}

/// Issue 24 item 5: a `library.txt` line `EXPORT lib/x.obj /abs/path.obj`
/// was followed — the file outside the installation was read and placed —
/// though docs/scenery.md says an absolute path is never followed. Now such
/// an export (absolute, `\\server\…`, or a drive letter) resolves to
/// nothing, says why, and `scenery check` reports it (SCN014).
#[test]
fn absolute_export_paths_were_followed_outside_the_installation() {
    let t = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    write(&outside.path().join("secret.obj"), "");
    let abs = outside.path().join("secret.obj");
    let unc = format!("\\\\{}", abs.display().to_string().trim_start_matches('/'));
    let cs = t.path().join("Custom Scenery");
    library_package(
        &cs.join("Lib"),
        &format!(
            "EXPORT lib/x.obj {}\nEXPORT lib/y.obj {unc}\nEXPORT lib/z.obj C:\\x\\z.obj\n",
            abs.display()
        ),
        &[],
    );
    write_dsf(
        &cs.join("Airport/Earth nav data").join(TILE),
        "OBJECT_DEF lib/x.obj\nOBJECT_DEF lib/y.obj\nOBJECT_DEF lib/z.obj\n\
         OBJECT 0 13.040000000 47.800000000 0.000\n",
        true,
    );
    let v = at_json(&t, &[]);
    let item = &v["items"][0];
    assert_eq!(item["definition"], "lib/x.obj");
    assert!(item["resolved"].is_null(), "{item}");
    let why = item.to_string();
    assert!(
        why.contains("absolute path, which is never followed"),
        "{why}"
    );
    let f = check_findings(t.path());
    let d = details(&f, "SCN014", Some("Lib"));
    assert_eq!(d.len(), 3, "{d:?}");
    assert!(d[0].contains(&abs.display().to_string()), "{d:?}");
    assert!(
        f.iter()
            .all(|x| x["code"] != "SCN002" && x["code"] != "SCN005"),
        "{f:#?}"
    );
    // The DSF's uses are unresolved: an error.
    assert_eq!(details(&f, "SCN001", Some("Airport")).len(), 3);
}

/// Issue 24 item 5: a `library.txt` that is a folder, a named pipe or a
/// dangling link was skipped silently (SCN013 never fired), and a pipe
/// could hang the read. Each is now SCN013, naming what it is.
#[cfg(unix)]
#[test]
fn a_library_txt_that_is_not_a_file_was_skipped_silently() {
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    for p in ["Dir", "Pipe", "Dangling"] {
        write(&cs.join(p).join("objects/x.obj"), "");
    }
    std::fs::create_dir_all(cs.join("Dir/library.txt")).unwrap();
    let fifo = std::ffi::CString::new(
        cs.join("Pipe/library.txt")
            .as_os_str()
            .as_encoded_bytes()
            .to_vec(),
    )
    .unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink(cs.join("gone.txt"), cs.join("Dangling/library.txt")).unwrap();
    library_package(
        &cs.join("Fine"),
        "EXPORT lib/x.obj objects/x.obj\n",
        &["objects/x.obj"],
    );
    let inst = Installation::open(t.path()).unwrap();
    let (index, errors) = LibraryIndex::from_installation(&inst);
    assert_eq!(index.packages.len(), 1, "only Fine is read");
    let mut got: Vec<(String, String)> = errors
        .iter()
        .map(|e| (e.package.clone(), e.error.to_string()))
        .collect();
    got.sort();
    let names: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(names, ["Dangling", "Dir", "Pipe"]);
    assert!(
        got[1].1.contains("a directory, not a regular file"),
        "{got:?}"
    );
    assert!(got[2].1.contains("a named pipe (FIFO)"), "{got:?}");
    let f = check_findings(t.path());
    let scn013: Vec<&serde_json::Value> = f.iter().filter(|x| x["code"] == "SCN013").collect();
    assert_eq!(scn013.len(), 3, "{f:#?}");
    assert!(scn013.iter().all(|x| x["severity"] == "error"));
}

/// `scenery at` as GeoJSON (issue 38): one geometry type per `layer`, flat
/// properties (`res_file`, `res_pkg` for `resolved`), placed objects as
/// their footprints with heights, exterior rings counter-clockwise. The
/// file is kept in `<target>/tmp/gis-out/` for `.ci/run`'s GDAL check.
#[test]
fn scenery_at_geojson_is_layered_and_flat() {
    let t = installation();
    let o = scenery_at(t.path(), "47.8000,13.0400", "300", &["--format", "geojson"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gis-out");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("scenery_at.geojson"), &o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let fs = v["features"].as_array().unwrap();
    assert!(!fs.is_empty());
    for f in fs {
        let p = f["properties"].as_object().unwrap();
        let want = match p["layer"].as_str().unwrap() {
            "at_points" => "Point",
            "at_lines" => "MultiLineString",
            "at_areas" => "Polygon",
            other => panic!("layer {other}"),
        };
        assert_eq!(f["geometry"]["type"], want);
        assert!(p.values().all(|v| !v.is_array() && !v.is_object()), "{p:?}");
        assert!(!p.contains_key("resolved") && p.contains_key("res_file"));
        if want == "Polygon" {
            let ring: Vec<[f64; 2]> =
                serde_json::from_value(f["geometry"]["coordinates"][0].clone()).unwrap();
            let a2: f64 = ring
                .windows(2)
                .map(|w| w[0][0] * w[1][1] - w[1][0] * w[0][1])
                .sum();
            assert!(a2 > 0.0, "{}", p["index"]);
        }
    }
}

/// `scenery at` as a GeoPackage (issue 50): a table per geometry type, as
/// QGIS loads them, holding every feature of the GeoJSON (a line item a
/// row per winding) with the same properties. Kept in
/// `<target>/tmp/gis-out/` for `.ci/run`'s GDAL check.
#[test]
fn scenery_at_gpkg_holds_the_geojson_features_a_table_per_geometry() {
    let t = installation();
    let g = scenery_at(t.path(), "47.8000,13.0400", "300", &["--format", "geojson"]);
    let v: serde_json::Value = serde_json::from_slice(&g.stdout).unwrap();
    let fs = v["features"].as_array().unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gis-out");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("scenery_at.gpkg");
    let _ = std::fs::remove_file(&file);
    let o = scenery_at(
        t.path(),
        "47.8000,13.0400",
        "300",
        &["-o", file.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let db = rusqlite::Connection::open(&file).unwrap();
    let mut types = std::collections::BTreeMap::new();
    for (layer, geometry) in db
        .prepare(
            "SELECT table_name, geometry_type_name FROM gpkg_geometry_columns ORDER BY table_name",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(Result::unwrap)
    {
        types.insert(layer, geometry);
    }
    assert_eq!(
        types.into_iter().collect::<Vec<_>>(),
        [
            ("at_areas".to_string(), "POLYGON".to_string()),
            ("at_lines".into(), "LINESTRING".into()),
            ("at_points".into(), "POINT".into()),
        ]
    );
    for (layer, geometry_type) in [("at_points", "Point"), ("at_areas", "Polygon")] {
        let want: Vec<&serde_json::Value> = fs
            .iter()
            .filter(|f| f["properties"]["layer"] == layer)
            .collect();
        assert_eq!(
            want.iter()
                .filter(|f| f["geometry"]["type"] != geometry_type)
                .count(),
            0
        );
        let mut rows = db
            .prepare(&format!(
                "SELECT \"index\", package, kind, definition, lon, lat, excl_by FROM {layer} ORDER BY \"index\""
            ))
            .unwrap();
        /// index, package, kind, definition, lon, lat, excl_by.
        type AtRow = (i64, String, String, String, f64, f64, Option<String>);
        let got: Vec<AtRow> = rows
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(got.len(), want.len(), "{layer}");
        assert!(!want.is_empty(), "the fixture has {layer}");
        for (g, w) in got.iter().zip(&want) {
            let p = &w["properties"];
            assert_eq!(g.0, p["index"].as_i64().unwrap());
            assert_eq!(g.1, p["package"].as_str().unwrap());
            assert_eq!(g.2, p["kind"].as_str().unwrap());
            assert_eq!(g.3, p["definition"].as_str().unwrap());
            assert_eq!(g.4, p["lon"].as_f64().unwrap());
            assert_eq!(g.5, p["lat"].as_f64().unwrap());
            assert_eq!(g.6.as_deref(), p["excl_by"].as_str());
        }
    }
    let lines: i64 = db
        .query_row("SELECT count(DISTINCT \"index\") FROM at_lines", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        lines as usize,
        fs.iter()
            .filter(|f| f["properties"]["layer"] == "at_lines")
            .count()
    );
    assert!(!fs.is_empty());
}
