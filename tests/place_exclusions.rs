//! The exclusions of higher-priority packages applied to a whole placed
//! tile (`place --dsf TILE --all --xplane DIR`, `agkit::place::exclusions`):
//! an installation of two packages, `Low` placing the demo tile (one of
//! every kind, `tests/fixtures/whole_demo`, its art the bundled examples)
//! and `Overlay` above it with `sim/exclude_obj` and `sim/exclude_for`
//! rectangles over part of it, and one object of its own inside them.

use agkit::dsf::{self, Dsf, Entity, Object};
use agkit::place::{Params, Placement, TilePlacement};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `sim/exclude_obj`: two of the demo's three objects (the kiosk and the
/// MSL kiosk), not the shed at 13.0432 nor the plaza's point.
const OBJ_ZONE: [f64; 4] = [13.042, 47.799, 13.043, 47.7998];
/// `sim/exclude_for`: one corner of the backyard forest.
const FOR_ZONE: [f64; 4] = [13.0445, 47.7985, 13.046, 47.7992];

fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let t = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&t).unwrap();
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

fn zone(v: [f64; 4]) -> String {
    format!("{}/{}/{}/{}", v[0], v[1], v[2], v[3])
}

/// The overlay's DSF: the two zones and an object of its own inside the
/// object zone.
fn overlay() -> Dsf {
    let mut d = Dsf::overlay(13, 47);
    d.properties
        .push(("sim/exclude_obj".into(), zone(OBJ_ZONE)));
    d.properties
        .push(("sim/exclude_for".into(), zone(FOR_ZONE)));
    d.object_defs = vec!["objects/own.obj".into()];
    d.entities.push(Entity::Object(Object {
        def: 0,
        lon: 13.0425,
        lat: 47.7996,
        heading: 0.0,
        elevation: None,
        mode: agkit::dsf::ElevationMode::Draped,
    }));
    d
}

/// The installation (X-Plane folder), the low package's DSF and the
/// overlay's.
fn installation() -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf) {
    let repo = Path::new(ROOT);
    let t = tempfile::tempdir().unwrap();
    let cs = t.path().join("Custom Scenery");
    let low = cs.join("Low");
    copy_tree(&repo.join("examples"), &low);
    for name in ["apron.pol", "stripe.lin"] {
        std::fs::copy(
            repo.join("tests/fixtures/whole_demo").join(name),
            low.join("dsf").join(name),
        )
        .unwrap();
    }
    let tile = "Earth nav data/+40+010/+47+013.dsf";
    let low_dsf = low.join(tile);
    std::fs::create_dir_all(low_dsf.parent().unwrap()).unwrap();
    std::fs::copy(
        repo.join("tests/fixtures/whole_demo/whole_demo.dsf"),
        &low_dsf,
    )
    .unwrap();
    let over_dsf = cs.join("Overlay").join(tile);
    std::fs::create_dir_all(over_dsf.parent().unwrap()).unwrap();
    std::fs::write(
        &over_dsf,
        dsf::build(&overlay(), &Default::default()).unwrap(),
    )
    .unwrap();
    std::fs::write(
        cs.join("scenery_packs.ini"),
        "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/Overlay/\n\
         SCENERY_PACK Custom Scenery/Low/\n",
    )
    .unwrap();
    let root = t.path().to_path_buf();
    (t, root, low_dsf, over_dsf)
}

fn place(scenery: &Scenery, dsf: &Path) -> TilePlacement {
    let params = Params {
        whole_tile: true,
        ..Params::default()
    };
    scenery.place_tile(dsf, &params).unwrap()
}

/// Every item with its DSF entity and whether it is marked, as
/// (`kind`, entity, removed_by property).
fn items(p: &[Placement]) -> Vec<(&'static str, Option<usize>, Option<String>)> {
    let mut out = Vec::new();
    for p in p {
        let prop = |r: &Option<agkit::place::exclusions::RemovedBy>| {
            r.as_ref().map(|r| r.property.clone())
        };
        out.extend(
            p.objects
                .iter()
                .map(|o| ("object", o.entity, prop(&o.removed_by))),
        );
        out.extend(
            p.facades
                .iter()
                .map(|f| ("facade", f.entity, prop(&f.removed_by))),
        );
        out.extend(
            p.trees
                .iter()
                .map(|t| ("tree", t.entity, prop(&t.removed_by))),
        );
        out.extend(
            p.draped
                .iter()
                .map(|d| ("draped", Some(d.entity), prop(&d.removed_by))),
        );
        out.extend(
            p.lines
                .iter()
                .map(|l| ("line", Some(l.entity), prop(&l.removed_by))),
        );
    }
    out
}

/// Independently of agkit's exclusion code: the property that removes DSF
/// entity `e`, by its definition's extension and whether one of its
/// vertices lies in a zone's rectangle.
fn brute_force(d: &Dsf, e: usize) -> Option<String> {
    let inside =
        |z: [f64; 4], p: [f64; 2]| p[0] >= z[0] && p[0] <= z[2] && p[1] >= z[1] && p[1] <= z[3];
    match &d.entities[e] {
        Entity::Object(o) => {
            let def = &d.object_defs[o.def as usize];
            let obj = def.ends_with(".obj") || def.ends_with(".agp");
            (obj && inside(OBJ_ZONE, [o.lon, o.lat])).then(|| "sim/exclude_obj".to_string())
        }
        Entity::Polygon(p) => {
            let def = &d.polygon_defs[p.def as usize];
            let pts: Vec<[f64; 2]> = (0..p.windings.len())
                .flat_map(|k| p.points(k).map(|q| [q[0], q[1]]).collect::<Vec<_>>())
                .collect();
            (def.ends_with(".for") && pts.iter().any(|&q| inside(FOR_ZONE, q)))
                .then(|| "sim/exclude_for".to_string())
        }
        _ => None,
    }
}

/// `agkit place --all FLAG DIR --dsf DSF --format json`.
fn place_json(flag: &str, dir: &Path, dsf: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["place", "--all", flag])
        .arg(dir)
        .arg("--dsf")
        .arg(dsf)
        .args(["--format", "json"])
        .output()
        .unwrap()
}

#[test]
fn higher_priority_exclusions_mark_the_items_inside() {
    let (_t, root, low, over) = installation();
    let scenery = Scenery::installation(&root, Conditions::default()).unwrap();
    let t = place(&scenery, &low);
    let x = t
        .exclusions
        .as_ref()
        .expect("a whole tile says what it looked at");
    assert!(x.looked_at, "{x:?}");
    assert_eq!((x.zones, x.packages_above), (2, 1));
    let d = dsf::read(&std::fs::read(&low).unwrap()).unwrap();
    let all = items(&t.placements);
    let mut marked = (0, 0);
    for (kind, entity, prop) in &all {
        // The autogen uses' own items carry no entity; checked below.
        let Some(e) = entity else { continue };
        assert_eq!(prop, &brute_force(&d, *e), "{kind} of entity {e}");
        match prop.as_deref() {
            Some("sim/exclude_obj") => marked.0 += 1,
            Some("sim/exclude_for") => marked.1 += 1,
            _ => {}
        }
    }
    assert_eq!(marked.0, 2, "the kiosk and the MSL kiosk");
    assert!(marked.1 > 0, "the forest's trees");
    assert!(
        all.iter().any(|(k, _, p)| *k == "object" && p.is_none()),
        "the shed stays"
    );
    // Every mark names the overlay, its DSF and its zone.
    for p in &t.placements {
        for o in p.objects.iter().filter_map(|o| o.removed_by.as_ref()) {
            assert_eq!(o.package, "Overlay");
            assert_eq!(o.file, "Earth nav data/+40+010/+47+013.dsf");
            assert_eq!(o.zone, zone(OBJ_ZONE));
        }
    }
    // The plaza's point (13.0443, 47.8003) is outside the object zone.
    assert!(
        t.placements
            .iter()
            .filter(|p| p.kind.is_autogen())
            .all(|p| p.removed_by.is_none())
    );
    let summary = serde_json::to_value(x).unwrap();
    insta::assert_json_snapshot!("whole_tile_exclusions", summary);
    assert!(
        x.describe().starts_with("excluded: 2 objects, "),
        "{}",
        x.describe()
    );

    // The excluding package's own items are never marked.
    let own = place(&scenery, &over);
    let ox = own.exclusions.as_ref().unwrap();
    assert!(ox.looked_at && ox.by.is_empty() && ox.zones == 0, "{ox:?}");
    assert!(items(&own.placements).iter().all(|(_, _, p)| p.is_none()));

    // The glTF scene draws none of the removed items.
    let s = agkit::scene::build(&t.placements, &agkit::limits::Limits::default()).unwrap();
    use agkit::scene::ItemKind as K;
    for n in &s.nodes {
        let p = &s.placements[n.item.placement];
        let removed = match n.item.kind {
            K::Object => p.objects[n.item.index].removed_by.is_some(),
            K::Facade => p.facades[n.item.index].removed_by.is_some(),
            K::Tree => p.trees[n.item.index].removed_by.is_some(),
            K::Draped => p.draped[n.item.index].removed_by.is_some(),
            K::Line => p.lines[n.item.index].removed_by.is_some(),
            _ => false,
        };
        assert!(!removed, "node {:?} draws a removed item", n.item);
    }
    assert!(
        s.nodes.iter().any(|n| n.item.kind == K::Object),
        "the objects not removed are drawn"
    );

    // The picture outlines them, with a legend entry; without marks, none.
    let svg = agkit::out::svg::to_svg(&t.placements);
    assert!(svg.contains("id=\"removed\""), "a layer of removed items");
    assert!(
        svg.contains("removed by a higher package"),
        "a legend entry"
    );
    let clean = agkit::out::svg::to_svg(&own.placements);
    assert!(!clean.contains("id=\"removed\""));
}

#[test]
fn a_mesh_above_removes_every_item_by_the_base_mesh_rule() {
    let (_t, root, low, over) = installation();
    // The overlay becomes a base mesh: X-Plane loads nothing of the tile
    // from the package below.
    let mut d = overlay();
    d.properties.retain(|(k, _)| k != "sim/overlay");
    std::fs::write(&over, dsf::build(&d, &Default::default()).unwrap()).unwrap();
    let scenery = Scenery::installation(&root, Conditions::default()).unwrap();
    let t = place(&scenery, &low);
    let all = items(&t.placements);
    assert!(!all.is_empty());
    assert!(
        all.iter()
            .all(|(_, _, p)| p.as_deref() == Some("base mesh")),
        "{all:?}"
    );
    assert!(
        t.placements
            .iter()
            .filter(|p| p.kind.is_autogen())
            .all(|p| p.removed_by.is_some())
    );
}

#[test]
fn without_an_installation_nothing_is_marked_and_the_output_says_so() {
    let (_t, _root, low, _) = installation();
    let pkg = low.ancestors().nth(3).unwrap();
    let scenery = Scenery::packages(Some(pkg), &[], Conditions::default()).unwrap();
    let t = place(&scenery, &low);
    let x = t.exclusions.as_ref().unwrap();
    assert!(!x.looked_at && x.by.is_empty());
    assert!(
        x.describe().starts_with("exclusions: none looked at"),
        "{}",
        x.describe()
    );
    assert!(items(&t.placements).iter().all(|(_, _, p)| p.is_none()));
    // The command line says it too.
    let out = place_json("--scenery", pkg, &low);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("exclusions: none looked at (no installation given (--xplane))"),
        "{err}"
    );
}

#[test]
fn the_command_line_names_who_excluded_what() {
    let (_t, root, low, _) = installation();
    let out = place_json("--xplane", &root, &low);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("excluded: 2 objects, ")
            && err.contains("by Overlay (Earth nav data/+40+010/+47+013.dsf)"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let marked = json
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["objects"].as_array().cloned().unwrap_or_default())
        .filter(|o| o["removed_by"]["property"] == "sim/exclude_obj")
        .count();
    assert_eq!(marked, 2);
}
