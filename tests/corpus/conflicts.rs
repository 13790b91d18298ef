//! `scenery conflicts` on a real airport package: the corpus's Martin
//! (WN88, a 15 m grass strip whose own DSF excludes nothing) with an
//! overlay pack below it, made here, that puts the examples' plaza autogen
//! point on the runway and a forest across it. The fix package written for
//! the findings, installed above the overlay, leaves none of them.

use super::support;
use agkit::place::conflicts::{self, ConflictOptions, Scope};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::collections::BTreeMap;
use std::path::Path;

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

fn ini(dir: &Path, packs: &[&str]) {
    let mut s = String::from("I\n1000 Version\nSCENERY\n\n");
    for p in packs {
        s.push_str(&format!("SCENERY_PACK Custom Scenery/{p}/\n"));
    }
    std::fs::write(dir.join("Custom Scenery/scenery_packs.ini"), s).unwrap();
}

/// The overlay: a plaza autogen point on the runway's middle and a forest
/// square across it, in the tile +46-125.
fn overlay(pack: &Path) {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/point");
    std::fs::create_dir_all(pack.join("point")).unwrap();
    for f in std::fs::read_dir(&examples).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, pack.join("point").join(f.file_name().unwrap())).unwrap();
    }
    let square = |lon: f64, lat: f64| {
        let (dx, dy) = (0.0003, 0.0002);
        vec![
            lon - dx,
            lat - dy,
            lon + dx,
            lat - dy,
            lon + dx,
            lat + dy,
            lon - dx,
            lat + dy,
        ]
    };
    let dsf = agkit::dsf::Dsf {
        object_defs: vec!["point/plaza.agp".into()],
        polygon_defs: vec!["point/plaza_trees.for".into()],
        entities: vec![
            agkit::dsf::Entity::Object(agkit::dsf::Object {
                def: 0,
                lon: -124.0318,
                lat: 46.5186,
                heading: 0.0,
                elevation: None,
                mode: agkit::dsf::ElevationMode::Draped,
            }),
            agkit::dsf::Entity::Polygon(agkit::dsf::Polygon {
                def: 0,
                param: 255,
                depth: 2,
                windings: vec![square(-124.0318, 46.5165)],
            }),
        ],
        ..agkit::dsf::Dsf::overlay(-125, 46)
    };
    let tile = pack.join("Earth nav data/+40-130/+46-125.dsf");
    std::fs::create_dir_all(tile.parent().unwrap()).unwrap();
    std::fs::write(&tile, agkit::dsf::build(&dsf, &Default::default()).unwrap()).unwrap();
}

#[test]
fn a_forest_and_autogen_on_a_real_runway_are_found_and_the_fix_clears_them() {
    let martin = support::file("kjnemitz__Martin/Earth nav data/apt.dat");
    let martin = martin.parent().unwrap().parent().unwrap();
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    copy_tree(martin, &cs.join("Martin"));
    overlay(&cs.join("Trees"));
    ini(t.path(), &["Martin", "Trees"]);
    let opts = ConflictOptions {
        scope: Scope::Tile(agkit::dsf::Tile {
            west: -125,
            south: 46,
        }),
        params: agkit::place::Params::default(),
        expand_autogen: true,
    };
    let scenery = Scenery::installation(t.path(), Conditions::default()).unwrap();
    let started = std::time::Instant::now();
    let r = scenery.conflicts(&opts).unwrap();
    eprintln!(
        "conflicts of one tile (Martin + Trees): {:.1} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    assert_eq!(r.airports.len(), 1, "{r:#?}");
    assert_eq!(r.airports[0].id, "WN88");
    let kinds: Vec<(&str, &str, &str)> = r
        .findings
        .iter()
        .map(|f| (f.code, f.package.as_str(), f.kind.as_str()))
        .collect();
    assert!(
        kinds.contains(&("CNF001", "Trees", "autogen_point")),
        "{kinds:?}"
    );
    assert!(kinds.contains(&("CNF001", "Trees", "forest")), "{kinds:?}");
    assert!(
        r.findings.iter().all(|f| f.package == "Trees"),
        "Martin's own forest on its runway is its own"
    );
    for f in &r.findings {
        assert_eq!(
            (f.airport.as_str(), f.feature_name.as_str()),
            ("WN88", "16/34")
        );
        assert_eq!(f.apt_line, 17, "the runway's row of Martin's apt.dat");
        // A 15 m runway: at most 7.5 m from an edge.
        assert!(f.depth_m > 0.0 && f.depth_m <= 7.5, "{}", f.depth_m);
    }
    // Martin's DSF has no sim/exclude_* at all: CNF005.
    assert_eq!(r.missing_exclusions.len(), 1, "{r:#?}");
    let m = &r.missing_exclusions[0];
    assert_eq!((m.code, m.package.as_str()), ("CNF005", "Martin"));
    assert_eq!(m.packages, ["Trees"]);
    assert!(r.has_errors());
    assert_eq!(r.fix_above.as_deref(), Some("Trees"));

    // The fix, installed between Martin and Trees.
    let fixes = conflicts::fix_tiles(&r).unwrap();
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0].path, "Earth nav data/+40-130/+46-125.dsf");
    let fix = cs.join("Fix");
    let dsf = fix.join(&fixes[0].path);
    std::fs::create_dir_all(dsf.parent().unwrap()).unwrap();
    std::fs::write(&dsf, &fixes[0].bytes).unwrap();
    ini(t.path(), &["Martin", "Fix", "Trees"]);
    let scenery = Scenery::installation(t.path(), Conditions::default()).unwrap();
    let again = scenery.conflicts(&opts).unwrap();
    assert!(again.findings.is_empty(), "{:#?}", again.findings);
    assert!(!again.has_errors());
    assert!(
        again
            .excluded
            .iter()
            .filter(|e| e.package == "Trees")
            .all(|e| e.excluded_by == "Fix")
    );
}

/// A Custom Scenery of links to real packages, in `packs` order (name,
/// corpus folder), and its scenery_packs.ini.
fn linked(dir: &Path, packs: &[(&str, &str)]) {
    let cs = dir.join("Custom Scenery");
    std::fs::create_dir_all(&cs).unwrap();
    for (name, rel) in packs {
        let from = support::file(rel);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&from, cs.join(name)).unwrap();
        #[cfg(not(unix))]
        copy_tree(&from, &cs.join(name));
    }
    let names: Vec<&str> = packs.iter().map(|(n, _)| *n).collect();
    ini(dir, &names);
}

/// Counts per (code, airport, package) of everything a report holds.
fn counts(r: &conflicts::ConflictReport) -> BTreeMap<(String, String, String), usize> {
    let mut out = BTreeMap::new();
    let mut add = |c: &str, a: &str, p: &str| {
        *out.entry((c.to_string(), a.to_string(), p.to_string()))
            .or_default() += 1;
    };
    for f in &r.findings {
        add(f.code, &f.airport, &f.package);
    }
    for m in &r.missing_exclusions {
        add(m.code, &m.airport, &m.package);
    }
    for d in &r.doubles {
        add(d.code, &d.airport, &d.lower);
    }
    for o in &r.order {
        add(o.code, &o.airports.join(","), &o.package);
    }
    out
}

fn key(c: &str, a: &str, p: &str) -> (String, String, String) {
    (c.to_string(), a.to_string(), p.to_string())
}

/// Four real airport packages, each with its apt.dat and DSFs, the whole
/// installation in scope: XPStarbase (SX21 and the heliport Srpt, whose
/// DSF of +25-098 places the launch site's fences, pads and logos, and
/// whose +26-098 is cut short), the apt.dat-only copy of the same two
/// airports it carries in `packages/SpacexBC1`, installed above it as
/// its own pack, EPKK (Kraków) and EDLO (Oerlinghausen). The copy above
/// is what X-Plane takes SX21 and Srpt from, so XPStarbase's DSF is the
/// lower copy still placing (CNF008) and every item of it on a runway,
/// pad or taxiway is the other package's (CNF001, CNF002, CNF004).
#[test]
fn four_real_airport_packages_give_stable_counts_per_code() {
    let t = tempfile::tempdir().unwrap();
    linked(
        t.path(),
        &[
            ("SpacexBC1", "medmatix__XPStarbase/packages/SpacexBC1"),
            ("XPStarbase", "medmatix__XPStarbase"),
            ("EPKK", "miloszes__X-Plane-Airports-EPKK"),
            ("EDLO", "racoonapps__XP11-EDLO"),
        ],
    );
    let opts = ConflictOptions {
        scope: Scope::All,
        params: agkit::place::Params::default(),
        expand_autogen: true,
    };
    let scenery = Scenery::installation(t.path(), Conditions::default()).unwrap();
    let r = scenery.conflicts(&opts).unwrap();
    let ids: Vec<(&str, &str)> = r
        .airports
        .iter()
        .map(|a| (a.id.as_str(), a.package.as_str()))
        .collect();
    assert_eq!(
        ids,
        [
            ("EDLO", "EDLO"),
            ("EPKK", "EPKK"),
            ("SX21", "SpacexBC1"),
            ("Srpt", "SpacexBC1")
        ]
    );
    let want: BTreeMap<(String, String, String), usize> = [
        (key("CNF001", "SX21", "XPStarbase"), 4),
        (key("CNF002", "SX21", "XPStarbase"), 3),
        (key("CNF002", "Srpt", "XPStarbase"), 1),
        (key("CNF004", "SX21", "XPStarbase"), 28),
        (key("CNF005", "SX21", "SpacexBC1"), 1),
        (key("CNF005", "Srpt", "SpacexBC1"), 1),
        (key("CNF008", "SX21", "XPStarbase"), 1),
        (key("CNF008", "Srpt", "XPStarbase"), 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(counts(&r), want, "{r:#?}");
    let sx21 = r.doubles.iter().find(|d| d.airport == "SX21").unwrap();
    assert_eq!(sx21.package, "SpacexBC1");
    assert_eq!(sx21.items, 70);
    assert!(
        sx21.lower_apt_file
            .as_deref()
            .unwrap()
            .contains("XPStarbase")
    );
    // EPKK and EDLO place only their own items: nothing of theirs.
    assert!(
        r.findings
            .iter()
            .all(|f| f.airport != "EPKK" && f.airport != "EDLO")
    );
    // The text and the GIS faces of the same report.
    let text = agkit::out::conflicts::text(&r);
    assert!(
        text.contains("4 airports looked at: 36 items on features, 2 missing exclusions, 2 doubles, 0 order problems (8 errors)"),
        "{text}"
    );
    let mut gpkg = Vec::new();
    agkit::out::conflicts::write_gpkg(&r, &mut gpkg).unwrap();
    assert!(gpkg.starts_with(b"SQLite format 3\0"));
}

/// The same real airport installed twice, as users keep an old version
/// below a new one: the new one's exclusions remove most of the old one's
/// items (`excluded`); what they miss is the lower copy still placing
/// (CNF008), and not a second time as a double of objects (CNF007).
#[test]
fn a_real_airport_installed_twice_is_a_lower_copy_still_placing() {
    let t = tempfile::tempdir().unwrap();
    let edlo = support::file("racoonapps__XP11-EDLO");
    let cs = t.path().join("Custom Scenery");
    std::fs::create_dir_all(&cs).unwrap();
    copy_tree(&edlo, &cs.join("EDLO new"));
    copy_tree(&edlo, &cs.join("EDLO old"));
    ini(t.path(), &["EDLO new", "EDLO old"]);
    let opts = ConflictOptions {
        scope: Scope::Airport("EDLO".into()),
        params: agkit::place::Params::default(),
        expand_autogen: true,
    };
    let scenery = Scenery::installation(t.path(), Conditions::default()).unwrap();
    let r = scenery.conflicts(&opts).unwrap();
    let want: BTreeMap<(String, String, String), usize> = [(key("CNF008", "EDLO", "EDLO old"), 1)]
        .into_iter()
        .collect();
    assert_eq!(counts(&r), want, "{r:#?}");
    let d = &r.doubles[0];
    assert_eq!(d.package, "EDLO new");
    assert_eq!(d.items, 7);
    assert_eq!(r.excluded.len(), 187);
    assert!(r.excluded.iter().all(|e| e.excluded_by == "EDLO new"));
}
