//! `scenery conflicts` on a real airport package: the corpus's Martin
//! (WN88, a 15 m grass strip whose own DSF excludes nothing) with an
//! overlay pack below it, made here, that puts the examples' plaza autogen
//! point on the runway and a forest across it. The fix package written for
//! the findings, installed above the overlay, leaves none of them.

use super::support;
use agkit::place::conflicts::{self, ConflictOptions, Scope};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
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
