//! The real `apt.dat` files of the corpus (issue 49 item 2): every one is
//! read without an error, holds the airports and the row codes its
//! manifest note lists, and its bezier paths become valid rings.

use crate::support;
use agkit::apt;
use agkit::limits::Limits;

/// The airports and row codes a manifest note lists:
/// `apt.dat v1100 (…), 2 airport(s); rows: 1 17 99 100 …;`.
fn expected(note: &str) -> (usize, Vec<u32>) {
    let airports = note
        .find(" airport(s)")
        .and_then(|end| note[..end].rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no airport count in the note {note:?}"));
    let rows = note
        .split("rows: ")
        .nth(1)
        .and_then(|r| r.split(';').next())
        .unwrap_or_else(|| panic!("no rows in the note {note:?}"))
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    (airports, rows)
}

#[test]
fn every_corpus_apt_dat_reads_cleanly_with_what_its_manifest_says() {
    let rows = support::nonempty(support::rows_of(&["apt"]), "apt");
    assert!(
        rows.len() >= 12,
        "the corpus lists {} apt.dat files",
        rows.len()
    );
    for r in rows {
        let bytes = std::fs::read(&r.path).unwrap();
        let c = apt::check(&bytes, &Limits::default());
        let errors: Vec<_> = c.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", r.rel);
        let f = c.value.unwrap();
        let (airports, codes) = expected(&r.note);
        assert_eq!(f.airports.len(), airports, "{}", r.rel);
        let read: Vec<u32> = f.row_counts.iter().map(|&(c, _)| c).collect();
        assert_eq!(read, codes, "{}: the row codes read", r.rel);
        // Every airport is somewhere on the world, every ring a polygon.
        for a in &f.airports {
            let at = a.reference();
            assert!(
                at.is_some() || a.runways.is_empty(),
                "{}: {}",
                r.rel,
                a.icao
            );
            for p in &a.pavements {
                for ring in &p.rings {
                    assert!(
                        ring.closed,
                        "{} line {}: an open pavement ring",
                        r.rel, p.line
                    );
                    let pts = apt::bezier::points(ring);
                    assert!(pts.len() >= 3, "{} line {}", r.rel, p.line);
                }
            }
            for l in &a.lines {
                for path in &l.paths {
                    assert!(
                        apt::bezier::points(path).len() >= 2,
                        "{} line {}",
                        r.rel,
                        l.line
                    );
                }
            }
        }
    }
}

#[test]
fn laminars_fixture_has_every_kind_of_airport_and_row() {
    let p = support::file("X-Plane__xplane_airports/xplane_airports/test_apt.dat");
    let f = apt::read(
        &std::fs::read(&p).unwrap(),
        "test_apt.dat",
        &Limits::default(),
    )
    .unwrap();
    let kinds: std::collections::BTreeSet<&str> =
        f.airports.iter().map(|a| a.kind.as_str()).collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["heliport", "land", "seaport"]
    );
    let lell = &f.airports[0];
    assert_eq!((lell.icao.as_str(), lell.line), ("LELL", 4));
    assert_eq!(lell.meta("city"), Some("Sabadell"));
    assert_eq!(lell.reference(), Some([2.105, 41.520833333]));
    assert!(f.airports.iter().any(|a| !a.water_runways.is_empty()));
    // Every record keeps its line: the first runway of LELL is line 15.
    assert_eq!(lell.runways[0].line, 15);
    assert_eq!(lell.runways[0].ends[1].displaced_m, 147.0);
}
