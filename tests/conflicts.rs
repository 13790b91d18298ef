//! `agkit scenery conflicts` on the repository's fixture installation with a
//! small apt.dat written here: a runway under the Town pack's shed, an
//! apron under the shed the Airport pack already excludes; `--fix` writes
//! the exclusion, and with it installed the report is empty.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// `tests/fixtures/apt/conflicts_xtst.dat`: a runway under the Town pack's
/// unexcluded shed at 47.4995, 13.499, and an apron under its other shed,
/// at 47.501, 13.501, which is inside the Airport pack's `sim/exclude_obj`.
const APT: &str = "tests/fixtures/apt/conflicts_xtst.dat";

fn installation() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&root().join("tests/fixtures/xplane"), t.path());
    std::fs::copy(
        root().join(APT),
        t.path()
            .join("Custom Scenery/Airport/Earth nav data/apt.dat"),
    )
    .unwrap();
    t
}

fn conflicts(xplane: &Path, extra: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(xplane)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{stderr}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), v, stderr)
}

#[test]
fn a_shed_on_the_runway_is_found_fixed_and_gone() {
    let t = installation();
    let fix = t.path().join("Custom Scenery/Fix");
    let fix_arg = fix.to_str().unwrap();
    let (code, r, stderr) = conflicts(t.path(), &["--fix", fix_arg]);
    assert_eq!(code, Some(1), "an error: {stderr}");
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{r:#}");
    let f = &findings[0];
    assert_eq!(f["code"], "CNF001");
    assert_eq!(f["package"], "Town");
    assert_eq!(f["kind"], "object");
    assert_eq!(f["definition"], "lib/fixture/shed.obj");
    assert_eq!(
        (f["definition_index"].as_u64(), f["entity"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(f["airport"], "XTST");
    assert_eq!(f["feature"], "runway");
    assert_eq!(f["feature_name"], "09/27");
    assert_eq!(f["apt_line"], 5);
    assert!(
        f["apt_file"]
            .as_str()
            .unwrap()
            .ends_with("Airport/Earth nav data/apt.dat")
    );
    // On the centre line of a 30 m runway: 15 m from its edge.
    let depth = f["depth_m"].as_f64().unwrap();
    assert!((14.5..=15.0).contains(&depth), "{depth}");
    assert_eq!(f["fix"]["exclusion"], "obj");
    // The Airport pack's own tower and hut are not conflicts; the shed on
    // the apron is already excluded by it.
    let excluded = r["excluded"].as_array().unwrap();
    assert_eq!(excluded.len(), 1, "{r:#}");
    assert_eq!(excluded[0]["excluded_by"], "Airport");
    assert_eq!(excluded[0]["feature_name"], "North apron");
    assert!(r["missing_exclusions"].as_array().unwrap().is_empty());
    assert_eq!(r["fix_above"], "Town");
    assert!(
        stderr.contains("SCENERY_PACK Custom Scenery/Fix/")
            && stderr.contains("above the line of `Town`"),
        "{stderr}"
    );
    // The fix package: one overlay DSF that reads back with the zone.
    let dsf = fix.join("Earth nav data/+40+010/+47+013.dsf");
    let d = agkit::dsf::read(&std::fs::read(&dsf).unwrap()).unwrap();
    assert_eq!(d.property("sim/overlay"), Some("1"));
    assert_eq!(d.property("sim/filter/aptid"), Some("XTST"));
    let (zones, problems) = agkit::scenery::exclude::exclusions(&d);
    assert!(problems.is_empty());
    assert_eq!(zones.len(), 1);
    assert!(zones[0].contains([13.499, 47.4995]));
    // Installed above Town, the report is empty.
    let ini = t.path().join("Custom Scenery/scenery_packs.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    let text = text.replace(
        "SCENERY_PACK Custom Scenery/Town/",
        "SCENERY_PACK Custom Scenery/Fix/\nSCENERY_PACK Custom Scenery/Town/",
    );
    std::fs::write(&ini, text).unwrap();
    let (code, r, stderr) = conflicts(t.path(), &[]);
    assert_eq!(code, Some(0), "{stderr}\n{r:#}");
    assert!(r["findings"].as_array().unwrap().is_empty(), "{r:#}");
    let excluded = r["excluded"].as_array().unwrap();
    assert!(
        excluded
            .iter()
            .any(|e| e["excluded_by"] == "Fix" && e["feature_name"] == "09/27"),
        "{r:#}"
    );
}

#[test]
fn the_text_report_reads_like_a_compiler_and_a_used_folder_is_refused() {
    let t = installation();
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .args(["--airport", "XTST"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.starts_with("error[CNF001]: object of `Town` stands 15.0 m into runway 09/27 of XTST"),
        "{text}"
    );
    assert!(text.contains("--> Town/Earth nav data/+40+010/+47+013.dsf: entity 1, definition 0 `lib/fixture/shed.obj`"), "{text}");
    assert!(text.contains("1 airport looked at"), "{text}");
    // Another airport ID: nothing, exit 0.
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .args(["--airport", "NONE"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // --fix into a package that exists is refused before any work.
    let airport = t.path().join("Custom Scenery/Airport");
    let before = std::fs::read(airport.join("Earth nav data/+40+010/+47+013.dsf")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .arg("--fix")
        .arg(&airport)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("name a folder"));
    assert_eq!(
        std::fs::read(airport.join("Earth nav data/+40+010/+47+013.dsf")).unwrap(),
        before
    );
}

/// `--format geojson` and `gpkg` (issue 50): the airport's runway and
/// apron under the finding, the exclusion's rectangle beside it, every
/// layer one geometry type. The files are kept in `<target>/tmp/gis-out/`
/// for `.ci/run`'s GDAL check (ogr2ogr to GeoPackage, FlatGeobuf and
/// Shapefile).
#[test]
fn the_report_as_gis_layers_draws_the_finding_over_its_runway() {
    let t = installation();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gis-out");
    std::fs::create_dir_all(&dir).unwrap();
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(["scenery", "conflicts", "--xplane"])
            .arg(t.path())
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--format", "geojson"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(dir.join("conflicts.geojson"), &out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let fs = v["features"].as_array().unwrap();
    let layer = |f: &serde_json::Value| f["properties"]["layer"].as_str().unwrap().to_string();
    let names: Vec<String> = fs.iter().map(layer).collect();
    assert_eq!(
        names,
        ["apt_runways", "apt_pavement", "cnf_items", "cnf_fixes"],
        "{v:#}"
    );
    for f in fs {
        let want = match layer(f).as_str() {
            "cnf_items" => "Point",
            _ => "Polygon",
        };
        assert_eq!(f["geometry"]["type"], want);
        let p = f["properties"].as_object().unwrap();
        assert!(p.values().all(|v| !v.is_array() && !v.is_object()), "{p:?}");
    }
    let item = &fs[2]["properties"];
    assert_eq!(item["code"], "CNF001");
    assert_eq!(item["package"], "Town");
    assert_eq!(item["asset"], "lib/fixture/shed.obj");
    assert_eq!(item["feat_name"], "09/27");
    assert_eq!(item["src_line"], 5);
    assert_eq!(item["fix_kind"], "obj");
    assert_eq!(fs[3]["properties"]["item_id"], item["item_id"]);
    // The point is on the runway strip and inside the fix's rectangle.
    let p: [f64; 2] = serde_json::from_value(fs[2]["geometry"]["coordinates"].clone()).unwrap();
    let rect: Vec<[f64; 2]> =
        serde_json::from_value(fs[3]["geometry"]["coordinates"][0].clone()).unwrap();
    let (w, e) = (
        rect.iter().map(|q| q[0]).fold(f64::MAX, f64::min),
        rect.iter().map(|q| q[0]).fold(f64::MIN, f64::max),
    );
    let (s, n) = (
        rect.iter().map(|q| q[1]).fold(f64::MAX, f64::min),
        rect.iter().map(|q| q[1]).fold(f64::MIN, f64::max),
    );
    assert!(
        w <= p[0] && p[0] <= e && s <= p[1] && p[1] <= n,
        "{p:?} {rect:?}"
    );
    // The same rows in a GeoPackage, every table there even when empty.
    let gpkg = dir.join("conflicts.gpkg");
    let _ = std::fs::remove_file(&gpkg);
    let out = run(&["-o", gpkg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let db = rusqlite::Connection::open(&gpkg).unwrap();
    let count = |t: &str| -> i64 {
        db.query_row(&format!("SELECT count(*) FROM \"{t}\""), [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(
        [
            count("apt_runways"),
            count("apt_pavement"),
            count("apt_boundaries"),
            count("cnf_items"),
            count("cnf_fixes"),
            count("cnf_missing")
        ],
        [1, 1, 0, 1, 1, 0]
    );
    let code: String = db
        .query_row("SELECT code FROM cnf_items", [], |r| r.get(0))
        .unwrap();
    assert_eq!(code, "CNF001");
}
