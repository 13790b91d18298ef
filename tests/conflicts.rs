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

/// A square of `d` degrees' half-side around `lon`, `lat`, as a DSF
/// polygon winding.
fn square(lon: f64, lat: f64, d: f64) -> Vec<f64> {
    vec![
        lon - d,
        lat - d,
        lon + d,
        lat - d,
        lon + d,
        lat + d,
        lon - d,
        lat + d,
    ]
}

/// Writes a package `name` with one DSF of tile +47+013 (an overlay unless
/// `mesh`), placing `forests` (squares), `objects` (points) and holding
/// `properties`; `apt` is written as its apt.dat when given.
fn pack(
    xplane: &Path,
    name: &str,
    mesh: bool,
    forests: &[(f64, f64)],
    objects: &[(f64, f64)],
    properties: &[(&str, &str)],
    apt: Option<&str>,
) {
    let end = xplane
        .join("Custom Scenery")
        .join(name)
        .join("Earth nav data");
    std::fs::create_dir_all(end.join("+40+010")).unwrap();
    let mut dsf = agkit::dsf::Dsf::overlay(13, 47);
    if mesh {
        dsf.properties.retain(|(n, _)| n != "sim/overlay");
    }
    for (n, v) in properties {
        dsf.properties.push((n.to_string(), v.to_string()));
    }
    dsf.polygon_defs = vec!["lib/test/trees.for".into()];
    dsf.object_defs = vec!["lib/test/house.obj".into()];
    for &(lon, lat) in forests {
        dsf.entities
            .push(agkit::dsf::Entity::Polygon(agkit::dsf::Polygon {
                def: 0,
                param: 255,
                depth: 2,
                windings: vec![square(lon, lat, 0.0004)],
            }));
    }
    for &(lon, lat) in objects {
        dsf.entities
            .push(agkit::dsf::Entity::Object(agkit::dsf::Object {
                def: 0,
                lon,
                lat,
                heading: 0.0,
                elevation: None,
                mode: agkit::dsf::ElevationMode::Draped,
            }));
    }
    std::fs::write(
        end.join("+40+010/+47+013.dsf"),
        agkit::dsf::build(&dsf, &Default::default()).unwrap(),
    )
    .unwrap();
    if let Some(apt) = apt {
        std::fs::copy(root().join(apt), end.join("apt.dat")).unwrap();
    }
}

/// The fixture's scenery_packs.ini with `extra` packs, in this order,
/// between the Airport and the Town packs (`above` before the Airport).
fn packs_ini(xplane: &Path, above: &[&str], extra: &[&str]) {
    let mut s = String::from("I\n1000 Version\nSCENERY\n\n");
    for p in above {
        s.push_str(&format!("SCENERY_PACK Custom Scenery/{p}/\n"));
    }
    s.push_str("SCENERY_PACK Custom Scenery/Airport/\n");
    for p in extra {
        s.push_str(&format!("SCENERY_PACK Custom Scenery/{p}/\n"));
    }
    s.push_str("SCENERY_PACK Custom Scenery/Town/\nSCENERY_PACK Custom Scenery/Library/\n");
    std::fs::write(xplane.join("Custom Scenery/scenery_packs.ini"), s).unwrap();
}

/// The text report of XTST.
fn xtst_text(xplane: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(xplane)
        .args(["--airport", "XTST"])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn codes(r: &serde_json::Value, list: &str) -> Vec<String> {
    r[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Between the runway and the apron of XTST, off both: where two overlays'
/// forests meet in the tests below.
const BETWEEN: (f64, f64) = (13.497, 47.5008);

/// CNF007: two overlays' forests over one area of XTST are a double; not
/// when one is elsewhere, nor when the higher one excludes the other's.
#[test]
fn two_overlays_forests_over_one_airport_are_a_double_and_controls_are_not() {
    let t = installation();
    pack(t.path(), "Forest A", false, &[BETWEEN], &[], &[], None);
    pack(t.path(), "Forest B", false, &[BETWEEN], &[], &[], None);
    packs_ini(t.path(), &[], &["Forest A", "Forest B"]);
    let (_, r, stderr) = conflicts(t.path(), &["--airport", "XTST"]);
    let doubles = r["doubles"].as_array().unwrap();
    assert_eq!(doubles.len(), 1, "{r:#}\n{stderr}");
    let d = &doubles[0];
    assert_eq!(d["code"], "CNF007");
    assert_eq!(
        (d["package"].as_str(), d["lower"].as_str()),
        (Some("Forest A"), Some("Forest B"))
    );
    assert_eq!(d["kinds"], serde_json::json!(["forest"]));
    assert_eq!(d["items"], 1);
    // Two 0.0008° squares, one on the other: about 60 m × 89 m, to a
    // 10 m cell.
    let area = d["area_m2"].as_f64().unwrap();
    assert!((4_000.0..=6_500.0).contains(&area), "{area}");
    let fix = d["fix"][0].as_str().unwrap();
    assert!(fix.starts_with("sim/exclude_for "), "{fix}");
    assert!(
        d["advice"].as_str().unwrap().contains("to `Forest A`"),
        "{d:#}"
    );
    // None of them is on a runway or the apron (the Town's shed is).
    assert!(
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["package"] == "Town"),
        "{r:#}"
    );

    // Control: B's forest 1 km north, outside the airport.
    pack(
        t.path(),
        "Forest B",
        false,
        &[(13.497, 47.51)],
        &[],
        &[],
        None,
    );
    let (_, r, _) = conflicts(t.path(), &["--airport", "XTST"]);
    assert!(codes(&r, "doubles").is_empty(), "{r:#}");

    // Control: both over the airport, A excluding forests there.
    pack(t.path(), "Forest B", false, &[BETWEEN], &[], &[], None);
    let zone = "13.4960000/47.5000000/13.4980000/47.5016000";
    pack(
        t.path(),
        "Forest A",
        false,
        &[BETWEEN],
        &[],
        &[("sim/exclude_for", zone)],
        None,
    );
    let (_, r, _) = conflicts(t.path(), &["--airport", "XTST"]);
    assert!(codes(&r, "doubles").is_empty(), "{r:#}");
}

/// CNF008: a lower package defining XTST again whose DSF still places a
/// house on the airport; not when its DSF places nothing there.
#[test]
fn a_lower_copy_of_an_airport_still_placing_is_found_and_a_bare_one_is_not() {
    let t = installation();
    // A house between runway and apron, and one on the Airport pack's own
    // tower: the second is also a double of objects with the Airport pack
    // (CNF007), which the CNF008 of that pair stands for.
    pack(
        t.path(),
        "Old XTST",
        false,
        &[],
        &[BETWEEN, (13.5, 47.5)],
        &[],
        Some(APT),
    );
    packs_ini(t.path(), &[], &["Old XTST"]);
    let (_, r, stderr) = conflicts(t.path(), &["--airport", "XTST"]);
    let doubles = r["doubles"].as_array().unwrap();
    assert_eq!(codes(&r, "doubles"), ["CNF008"], "{r:#}\n{stderr}");
    let d = &doubles[0];
    assert_eq!(
        (d["package"].as_str(), d["lower"].as_str()),
        (Some("Airport"), Some("Old XTST"))
    );
    assert_eq!(d["kinds"], serde_json::json!(["object"]));
    assert_eq!(d["items"], 2);
    assert!(
        d["lower_apt_file"]
            .as_str()
            .unwrap()
            .ends_with("Old XTST/Earth nav data/apt.dat"),
        "{d:#}"
    );
    assert!(
        d["apt_file"]
            .as_str()
            .unwrap()
            .ends_with("Airport/Earth nav data/apt.dat")
    );
    assert!(
        d["fix"][0]
            .as_str()
            .unwrap()
            .starts_with("sim/exclude_obj "),
        "{d:#}"
    );

    // Text: one warning, the summary counts it.
    let text = xtst_text(t.path());
    assert!(
        text.contains("warning[CNF008]: XTST is defined by `Airport` and by `Old XTST`; X-Plane takes it from `Airport`, but `Old XTST`'s DSF still places 2 items there (objects, over 200 m²)"),
        "{text}"
    );
    assert!(
        text.contains("--> Old XTST/Earth nav data/+40+010/+47+013.dsf: 2 items of `Old XTST`"),
        "{text}"
    );
    assert!(text.contains(", 1 double, "), "{text}");

    // GeoJSON: the double as a polygon of its own layer, holding both
    // houses; the GeoPackage has the table with that geometry type.
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .args(["--airport", "XTST", "--format", "geojson"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = v["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["properties"]["layer"] == "cnf_doubles")
        .unwrap_or_else(|| panic!("{v:#}"));
    assert_eq!(d["geometry"]["type"], "Polygon");
    assert_eq!(d["properties"]["code"], "CNF008");
    assert_eq!(d["properties"]["lower"], "Old XTST");
    let ring: Vec<[f64; 2]> =
        serde_json::from_value(d["geometry"]["coordinates"][0].clone()).unwrap();
    for (lon, lat) in [BETWEEN, (13.5, 47.5)] {
        assert!(
            ring.iter().any(|p| p[0] <= lon)
                && ring.iter().any(|p| p[0] >= lon)
                && ring.iter().any(|p| p[1] <= lat)
                && ring.iter().any(|p| p[1] >= lat),
            "{ring:?}"
        );
    }
    let gpkg = t.path().join("doubles.gpkg");
    let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "conflicts", "--xplane"])
        .arg(t.path())
        .args(["--airport", "XTST", "-o"])
        .arg(&gpkg)
        .output()
        .unwrap();
    assert!(gpkg.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = rusqlite::Connection::open(&gpkg).unwrap();
    for (table, rows) in [("cnf_doubles", 1), ("cnf_order", 0)] {
        let ty: String = db
            .query_row(
                "SELECT geometry_type_name FROM gpkg_geometry_columns WHERE table_name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(ty, "POLYGON");
        let n: i64 = db
            .query_row(&format!("SELECT count(*) FROM \"{table}\""), [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(n, rows, "{table}");
    }

    // Control: the lower copy places nothing on the airport.
    pack(
        t.path(),
        "Old XTST",
        false,
        &[],
        &[(13.497, 47.51)],
        &[],
        Some(APT),
    );
    let (_, r, _) = conflicts(t.path(), &["--airport", "XTST"]);
    assert!(codes(&r, "doubles").is_empty(), "{r:#}");
}

/// SCN011, `scenery check`'s code, in the report of the airport whose
/// tile it is about: a base mesh above the Airport pack hides its overlay;
/// with the mesh at the bottom, nothing.
#[test]
fn a_mesh_above_the_airport_is_the_order_problem_scenery_check_finds() {
    let t = installation();
    pack(t.path(), "Mesh", true, &[], &[], &[], None);
    packs_ini(t.path(), &["Mesh"], &[]);
    let (_, r, stderr) = conflicts(t.path(), &["--airport", "XTST"]);
    let order = r["order"].as_array().unwrap();
    assert!(codes(&r, "order").iter().all(|c| c == "SCN011"), "{r:#}");
    let airport = order
        .iter()
        .find(|o| o["package"] == "Airport")
        .unwrap_or_else(|| panic!("{r:#}\n{stderr}"));
    assert_eq!(airport["mesh"], "Mesh");
    assert_eq!(airport["airports"], serde_json::json!(["XTST"]));
    assert_eq!(airport["airport_package"], true);
    // The very line `scenery check` prints.
    let check = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["scenery", "check", "--xplane"])
        .arg(t.path())
        .output()
        .unwrap();
    let check = String::from_utf8_lossy(&check.stdout);
    let line = format!("warning[SCN011]: {}", airport["message"].as_str().unwrap());
    assert!(check.contains(&line), "{line}\n{check}");
    // The Town pack's overlay is below the mesh too.
    assert!(order.iter().any(|o| o["package"] == "Town"), "{r:#}");

    // Control: the mesh below every overlay.
    let ini = t.path().join("Custom Scenery/scenery_packs.ini");
    let text = std::fs::read_to_string(&ini).unwrap();
    let text = text.replace("SCENERY_PACK Custom Scenery/Mesh/\n", "")
        + "SCENERY_PACK Custom Scenery/Mesh/\n";
    std::fs::write(&ini, text).unwrap();
    let (_, r, _) = conflicts(t.path(), &["--airport", "XTST"]);
    assert!(codes(&r, "order").is_empty(), "{r:#}");
}

/// The summary line's plurals (a regression: "36 item on a features",
/// "`B` place 71 items").
#[test]
fn the_summary_counts_read_as_english() {
    let t = installation();
    let text = xtst_text(t.path());
    assert!(
        text.contains("1 airport looked at: 1 item on a feature, 0 missing exclusions, 0 doubles, 0 order problems (1 errors)"),
        "{text}"
    );
}

/// Issue 50: `--picture DIR` draws each airport looked at, its runways and
/// pavement, with the shed on the runway marked by its code.
#[test]
fn the_picture_of_an_airport_marks_its_finding() {
    let t = installation();
    let dir = t.path().join("pictures");
    let (code, r, stderr) = conflicts(t.path(), &["--picture", dir.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("XTST.svg"), "{stderr}");
    let svg = std::fs::read_to_string(dir.join("XTST.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let layer = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no {id} layer"))
    };
    assert!(layer("airport-runway").children().any(|c| c.is_element()));
    let marks: String = layer("findings")
        .descendants()
        .filter_map(|n| n.text())
        .collect();
    let code = r["findings"][0]["code"].as_str().unwrap();
    assert!(marks.contains(code), "{marks}");
    let png = std::fs::read(dir.join("XTST.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

/// Regression: a `.dsf` whose name cuts a character where a tile name's
/// latitude ends (`+4é013.dsf`) made the search for the packages' tiles
/// slice inside it and panic; it names no tile, and the report is the
/// one without it.
#[test]
fn a_dsf_named_with_a_wide_character_names_no_tile_and_does_not_panic() {
    let t = installation();
    let (_, want, _) = conflicts(t.path(), &[]);
    let odd = t
        .path()
        .join("Custom Scenery/Town/Earth nav data/+40+010/+4é013.dsf");
    std::fs::create_dir_all(odd.parent().unwrap()).unwrap();
    std::fs::write(&odd, b"not a tile").unwrap();
    let (code, got, stderr) = conflicts(t.path(), &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(got, want);
}
