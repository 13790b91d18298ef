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

/// The Town pack's unexcluded shed stands at 47.4995, 13.499; its other
/// shed, at 47.501, 13.501, is inside the Airport pack's `sim/exclude_obj`.
const APT: &str = "I\n1200 written by the test\n\n\
1 1000 0 0 XTST Test Field\n\
100 30 1 0 0.25 0 0 0 09 47.4995 13.495 0 30 0 0 0 0 27 47.4995 13.505 0 0 0 0 0 0\n\
110 1 0.25 0 North apron\n\
111 47.5005 13.5005\n\
111 47.5005 13.5015\n\
111 47.5015 13.5015\n\
113 47.5015 13.5005\n\
99\n";

fn installation() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_tree(&root().join("tests/fixtures/xplane"), t.path());
    std::fs::write(
        t.path()
            .join("Custom Scenery/Airport/Earth nav data/apt.dat"),
        APT,
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
