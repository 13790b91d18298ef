//! apt.dat (issue 49 item 2): the reader on a fixture written by hand,
//! its checks through `agkit check`, `agkit info` and `agkit apt export`,
//! and the reader's robustness on arbitrary rows.

use agkit::apt;
use agkit::limits::Limits;
use assert_cmd::Command;
use proptest::prelude::*;

const SMALL: &str = "tests/fixtures/apt/small.dat";

fn agkit() -> Command {
    Command::cargo_bin("agkit").unwrap()
}

#[test]
fn the_fixture_reads_cleanly_and_its_summary_is_stable() {
    let bytes = std::fs::read(SMALL).unwrap();
    let c = apt::check(&bytes, &Limits::default());
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    let f = c.value.unwrap();
    assert_eq!(f.version, 1200);
    let a = &f.airports[0];
    assert_eq!(a.reference(), Some([13.5, 47.5]));
    assert_eq!(a.pavements[0].rings.len(), 2, "an outline and a hole");
    insta::assert_snapshot!(apt::summary::Summary::of(&f, 0, 0).to_human());
}

#[test]
fn info_and_export_read_the_fixture() {
    let o = agkit().args(["info", SMALL]).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("XAGK"));
    let o = agkit().args(["apt", "export", SMALL]).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let layers: Vec<&str> = v["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["properties"]["layer"].as_str().unwrap())
        .collect();
    assert_eq!(
        layers,
        [
            "apt_runways",
            "apt_runways",
            "apt_pavement",
            "apt_boundaries",
            "apt_lines",
            "apt_runways"
        ]
    );
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.gpkg");
    let o = agkit()
        .args(["apt", "export", SMALL, "--airport", "XSEA", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(std::fs::read(&out).unwrap().starts_with(b"SQLite format 3"));
}

#[test]
fn check_names_the_file_and_line_of_an_unclosed_ring() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("apt.dat");
    let text = std::fs::read_to_string(SMALL).unwrap().replace(
        "113  47.50300000  13.48800000",
        "111  47.50300000  13.48800000",
    );
    std::fs::write(&p, text).unwrap();
    let o = agkit().arg("check").arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("APT007"), "{out}");
    assert!(out.contains("apt.dat:20:1"), "{out}");
}

proptest! {
    /// Any rows after a valid header: no panic, every diagnostic inside
    /// the text, every record's line a line of the file.
    #[test]
    fn arbitrary_rows_never_panic(rows in prop::collection::vec(
        (prop::sample::select(vec![1u32, 16, 17, 100, 101, 102, 110, 111, 112, 113, 114, 115, 116, 120, 130, 1302, 99, 7]),
         prop::collection::vec(prop_oneof!["-?[0-9]{1,3}(\\.[0-9]{1,4})?", "[A-Z]{1,4}"], 0..28)),
        0..40)) {
        let mut text = String::from("I\n1100 prop\n");
        for (code, words) in &rows {
            text += &format!("{code} {}\n", words.join(" "));
        }
        let c = apt::check(text.as_bytes(), &Limits::default());
        let lines = text.lines().count();
        for d in &c.diagnostics {
            if let agkit::diag::Location::Span(s) = &d.location {
                prop_assert!(s.end <= text.len());
            }
        }
        if let Some(f) = c.value {
            for a in &f.airports {
                prop_assert!(a.line >= 3 && a.line <= lines);
                for p in &a.pavements {
                    for r in &p.rings {
                        let _ = apt::bezier::points(r);
                        for n in &r.nodes {
                            prop_assert!(n.line <= lines);
                        }
                    }
                }
            }
        }
    }
}
