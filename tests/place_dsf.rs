//! Placing DSF tiles through the library (`agkit::scenery::Scenery`): the
//! same placements as `agkit place --dsf`, one seeding rule, folders in
//! path order whatever the threads, and every problem as data naming its
//! file.

use agkit::place::{Params, Placement};
use agkit::place::{TILE_BATCH, TilePlacement};
use agkit::scenery::resolve::Conditions;
use agkit::scenery::tile::TileError;
use agkit::scenery::{Scenery, SceneryError};
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn root() -> &'static Path {
    Path::new(ROOT)
}

fn demo() -> PathBuf {
    root().join("examples/dsf/autogen_demo.dsf")
}

/// The bundled examples as the demo tile's package.
fn examples() -> Scenery {
    Scenery::packages(Some(&root().join("examples")), &[], Conditions::default()).unwrap()
}

/// The placements as `place --format json` writes them (compared as text:
/// a JSON parser may round a float's last digit).
fn json(ps: &[Placement]) -> String {
    let mut s = serde_json::to_string_pretty(ps).unwrap();
    s.push('\n');
    s
}

/// A value as the `scenery` commands print JSON.
fn pretty<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

/// What `agkit ARGS` prints on stdout; exit status 0 (or 1 with `findings`).
fn cli_out(args: &[&str], findings: bool) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_agkit"))
        .current_dir(ROOT)
        .args(args)
        .output()
        .unwrap();
    let ok = o.status.success() || (findings && o.status.code() == Some(1));
    assert!(ok, "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn cli_json(args: &[&str]) -> String {
    cli_out(args, false)
}

/// `agkit place --dsf` of the demo tile with the examples as its package.
fn demo_cli(seed: u64) -> String {
    let seed = seed.to_string();
    cli_json(&[
        "place",
        "--dsf",
        "examples/dsf/autogen_demo.dsf",
        "--scenery",
        "examples",
        "--seed",
        &seed,
    ])
}

/// The library places what `place --dsf` prints, from the file or its
/// bytes, and use i of a tile draws from the seed `seed XOR i`.
#[test]
fn the_library_places_what_place_dsf_prints_use_i_with_seed_xor_i() {
    let scenery = examples();
    for seed in [0u64, 7, 1 << 40] {
        let params = Params {
            seed,
            ..Params::default()
        };
        let tile = scenery.place_tile(&demo(), &params).unwrap();
        assert_eq!(tile.uses, 3);
        let seeds: Vec<u64> = tile.placements.iter().map(|p| p.seed).collect();
        assert_eq!(seeds, [seed, seed ^ 1, seed ^ 2]);
        let cli = demo_cli(seed);
        assert_eq!(json(&tile.placements), cli, "seed {seed}");
        let bytes = std::fs::read(demo()).unwrap();
        let again = scenery.place_dsf(&demo(), &bytes, &params).unwrap();
        assert_eq!(json(&again.placements), cli);
    }
    // Use 0 is the plaza, whose tile is picked from the seed: placed alone
    // with seed 2 it is the use placed with run seed 2.
    let tile = scenery
        .place_tile(
            &demo(),
            &Params {
                seed: 2,
                ..Params::default()
            },
        )
        .unwrap();
    let dsf = agkit::dsf::read(&std::fs::read(demo()).unwrap()).unwrap();
    let heading = agkit::dsf::autogen_uses(&dsf)[0].heading.unwrap();
    let p = &tile.placements[0];
    let at = format!("{},{},{heading}", p.origin[1], p.origin[0]);
    let alone = cli_json(&[
        "place",
        "examples/point/plaza.agp",
        "--seed",
        "2",
        "--at",
        &at,
    ]);
    let alone: serde_json::Value = serde_json::from_str(&alone).unwrap();
    let ours: serde_json::Value = serde_json::from_str(&json(&tile.placements)).unwrap();
    assert_eq!(alone["tiles"], ours[0]["tiles"]);
}

/// Every tile of a folder, in path order, the same with one thread or two,
/// handed over in batches of at most `TILE_BATCH` tiles; a bad tile is an
/// error for that tile alone.
#[test]
fn a_folder_is_placed_in_path_order_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let demo_bytes = std::fs::read(demo()).unwrap();
    let n = TILE_BATCH + 8;
    for i in 0..n {
        std::fs::write(dir.path().join(format!("t{i:03}.dsf")), &demo_bytes).unwrap();
    }
    std::fs::write(dir.path().join("t005.dsf"), b"\x89PNG\r\n\x1a\n not a tile").unwrap();
    let tiles = agkit::scenery::install::dsf_files(dir.path());
    assert_eq!(tiles.len(), n);
    let scenery = examples();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let progress = std::sync::atomic::AtomicUsize::new(0);
        let mut got: Vec<(PathBuf, Result<String, String>)> = Vec::new();
        let mut batches = Vec::new();
        pool.install(|| {
            scenery.place_tiles(
                &tiles,
                &Params::default(),
                &|| {
                    progress.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                },
                |batch: Vec<Result<TilePlacement, TileError>>| {
                    batches.push(batch.len());
                    for t in batch {
                        got.push(match t {
                            Ok(t) => (t.dsf.clone(), Ok(json(&t.placements))),
                            Err(e @ TileError::Dsf { .. }) => {
                                let TileError::Dsf { path, .. } = &e else {
                                    unreachable!()
                                };
                                (path.clone(), Err(e.to_string()))
                            }
                            Err(e) => panic!("{e}"),
                        });
                    }
                    Ok::<(), ()>(())
                },
            )
        })
        .unwrap();
        assert_eq!(progress.into_inner(), n);
        assert!(batches.iter().all(|&b| b <= TILE_BATCH) && batches.len() == 2);
        got
    };
    let one = run(1);
    assert_eq!(one, run(2));
    let paths: Vec<&PathBuf> = one.iter().map(|(p, _)| p).collect();
    assert_eq!(paths, tiles.iter().collect::<Vec<_>>());
    let cli = demo_cli(0);
    for (path, r) in &one {
        match r {
            Ok(v) => assert_eq!(v, &cli, "{}", path.display()),
            Err(e) => {
                assert!(path.ends_with("t005.dsf"), "{e}");
                assert!(
                    e.contains("t005.dsf") && e.contains("at byte 0") && e.contains("PNG image"),
                    "{e}"
                );
            }
        }
    }
    assert_eq!(one.iter().filter(|(_, r)| r.is_err()).count(), 1);

    // `place --dsf DIR` streams the same placements, in the same order, as
    // one array; GeoJSON numbers them on across tiles and batches.
    let dir_arg = dir.path().to_str().unwrap();
    let folder = |format: &str| -> serde_json::Value {
        let out = cli_out(
            &[
                "place",
                "--dsf",
                dir_arg,
                "--scenery",
                "examples",
                "--format",
                format,
            ],
            true,
        );
        serde_json::from_str(&out).unwrap()
    };
    let mut want = Vec::new();
    for (_, r) in &one {
        if let Ok(text) = r {
            let v: serde_json::Value = serde_json::from_str(text).unwrap();
            want.extend(v.as_array().unwrap().iter().cloned());
        }
    }
    assert_eq!(folder("json"), serde_json::Value::Array(want.clone()));
    let geo = folder("geojson");
    let numbers: std::collections::BTreeSet<u64> = geo["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["properties"]["placement"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (0..want.len() as u64).collect());
}

#[test]
fn a_file_that_cannot_be_read_is_an_error_naming_it() {
    let missing = root().join("no/such/tile.dsf");
    let e = examples()
        .place_tile(&missing, &Params::default())
        .unwrap_err();
    assert!(matches!(e, TileError::Read { .. }));
    assert!(e.to_string().contains("no/such/tile.dsf"), "{e}");
}

/// Assets that resolve nowhere are counted per asset with the reason; an
/// asset file with warnings or errors is listed once, and a use of an
/// asset with errors is left out.
#[test]
fn what_cannot_be_placed_is_data() {
    let dir = tempfile::tempdir().unwrap();
    let tile = dir.path().join("tile.dsf");
    std::fs::copy(demo(), &tile).unwrap();
    let alone = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let t = alone.place_tile(&tile, &Params::default()).unwrap();
    assert_eq!((t.uses, t.placements.len()), (3, 0));
    assert_eq!(t.unresolved.uses(), 3);
    let why = &t.unresolved.assets["point/plaza.agp"].why;
    assert!(
        why.contains("not a file of") && why.contains("no library package"),
        "{why}"
    );

    // The package's own copies: the plaza with a warning, the block with
    // an error.
    let ex = root().join("examples");
    for (from, edit) in [
        ("point/plaza.agp", "FOO_BAR 1\n"),
        ("block/city_block.agb", "TEXTURE_SCALE nope\n"),
        ("string/town_edge.ags", ""),
    ] {
        let to = dir.path().join(from);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let text = std::fs::read_to_string(ex.join(from)).unwrap() + edit;
        std::fs::write(&to, text).unwrap();
    }
    let package = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let t = package.place_tile(&tile, &Params::default()).unwrap();
    assert!(t.unresolved.is_empty());
    let kinds: Vec<&str> = t.placements.iter().map(|p| p.kind.as_str()).collect();
    assert_eq!(kinds, ["agp", "ags"], "the block's use is left out");
    assert!(t.has_errors());
    let listed: Vec<String> = t
        .assets
        .iter()
        .map(|a| {
            a.path
                .strip_prefix(dir.path())
                .unwrap()
                .display()
                .to_string()
        })
        .collect();
    assert_eq!(listed, ["point/plaza.agp", "block/city_block.agb"]);
    let v = serde_json::to_value(&t).unwrap();
    assert_eq!(v["assets"][0]["placeable"], true);
    assert_eq!(v["assets"][0]["diagnostics"][0]["code"], "AG0009");
    assert_eq!(v["assets"][1]["placeable"], false);
    assert!(v["assets"][1]["diagnostics"][0]["line"].is_u64(), "{v}");
    assert_eq!(v["uses"], 3);
}

#[test]
fn installations_and_library_folders_are_checked_when_opened() {
    let nowhere = root().join("no/such/folder");
    let e = Scenery::installation(&nowhere, Conditions::default())
        .err()
        .unwrap();
    assert!(matches!(e, SceneryError::Installation(_)), "{e}");
    let e = Scenery::packages(None, &[nowhere], Conditions::default())
        .err()
        .unwrap();
    assert!(matches!(e, SceneryError::LibraryFolder { .. }), "{e}");
    let e = Scenery::packages(None, &[root().join("examples")], Conditions::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("no library.txt in it"), "{e}");
    // Packages given one by one answer no installation-wide question.
    let e = examples()
        .at(47.5, 13.0, 100.0, &Params::default(), true)
        .err()
        .unwrap();
    assert!(
        matches!(
            e,
            agkit::place::at::AtError::Scenery(SceneryError::NoInstallation(_))
        ),
        "{e}"
    );
    fn shared<T: Send + Sync>(_: &T) {}
    shared(&examples());
}

/// The fixture installation answers as `agkit scenery` does.
#[test]
fn an_installation_resolves_and_answers_as_the_cli() {
    let xplane = root().join("tests/fixtures/xplane");
    let scenery = Scenery::installation(&xplane, Conditions::default()).unwrap();
    let report = scenery
        .at(47.5, 13.5, 300.0, &Params::default(), true)
        .unwrap();
    let cli = cli_json(&[
        "scenery",
        "at",
        "47.5,13.5",
        "--radius",
        "300",
        "--xplane",
        "tests/fixtures/xplane",
        "--format",
        "json",
    ]);
    assert_eq!(pretty(&report), cli);
    assert!(!report.items.is_empty());
    let check = scenery.check(&|| {}).unwrap();
    let cli = cli_out(
        &[
            "scenery",
            "check",
            "--xplane",
            "tests/fixtures/xplane",
            "--format",
            "json",
        ],
        true,
    );
    assert_eq!(pretty(&check), cli);
}

/// `scenery at` seeds the autogen it expands as `place --dsf` does: what
/// an autogen item places is, object by object, the placement of that use
/// of the tile.
#[test]
fn scenery_at_places_each_autogen_use_as_place_tile_does() {
    use agkit::place::at::ItemKind;
    let t = tempfile::tempdir().unwrap();
    let package = t.path().join("Custom Scenery/Demo");
    let dsf = package.join("Earth nav data/+40+010/+47+013.dsf");
    std::fs::create_dir_all(dsf.parent().unwrap()).unwrap();
    std::fs::copy(demo(), &dsf).unwrap();
    for asset in [
        "point/plaza.agp",
        "block/city_block.agb",
        "string/town_edge.ags",
    ] {
        let to = package.join(asset);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join("examples").join(asset), to).unwrap();
    }
    let scenery = Scenery::installation(t.path(), Conditions::default()).unwrap();
    for seed in [0, 5] {
        let params = Params {
            seed,
            ..Params::default()
        };
        let tile = scenery.place_tile(&dsf, &params).unwrap();
        assert_eq!(tile.placements.len(), 3);
        let report = scenery.at(47.8003, 13.043, 2000.0, &params, true).unwrap();
        let autogen: Vec<usize> = (0..report.items.len())
            .filter(|&i| {
                matches!(
                    report.items[i].kind,
                    ItemKind::AutogenPoint | ItemKind::AutogenBlock | ItemKind::AutogenString
                )
            })
            .collect();
        assert_eq!(autogen.len(), 3);
        for (placed, &parent) in tile.placements.iter().zip(&autogen) {
            let got: Vec<(&str, f64, f64)> = report
                .items
                .iter()
                .filter(|i| i.placed_by == Some(parent) && i.kind == ItemKind::Object)
                .map(|i| (i.definition.as_str(), i.lon, i.lat))
                .collect();
            let want: Vec<(&str, f64, f64)> = placed
                .objects
                .iter()
                .map(|o| (o.asset.as_str(), o.lon, o.lat))
                .collect();
            assert!(!want.is_empty());
            assert_eq!(got, want, "seed {seed}, {}", placed.asset);
        }
    }
}

/// A tile in a copy of the examples placing `point/plaza.agp` at one point
/// and a `.agp` that exists nowhere at another, 100 m east; its path.
fn tile_with_a_missing_agp(dir: &Path) -> PathBuf {
    let point = |def: u32, lon: f64| {
        agkit::dsf::Entity::Object(agkit::dsf::Object {
            def,
            lon,
            lat: 47.5,
            heading: 0.0,
            elevation: None,
            mode: agkit::dsf::ElevationMode::Draped,
        })
    };
    let dsf = agkit::dsf::Dsf {
        object_defs: vec!["point/plaza.agp".into(), "point/gone.agp".into()],
        entities: vec![point(0, 13.5), point(1, 13.5 + 100.0 / 75_200.0)],
        ..agkit::dsf::Dsf::overlay(13, 47)
    };
    let tile = dir.join("pkg/Earth nav data/+40+010/+47+013.dsf");
    std::fs::create_dir_all(tile.parent().unwrap()).unwrap();
    std::fs::write(&tile, agkit::dsf::build(&dsf, &Default::default()).unwrap()).unwrap();
    let copy = |from: &str| {
        let to = dir.join("pkg").join(from);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join("examples").join(from), to).unwrap();
    };
    for f in [
        "point/plaza.agp",
        "point/plaza.png",
        "point/kiosk.obj",
        "point/bench.obj",
    ] {
        copy(f);
    }
    tile
}

/// Regression (issue 46): an autogen point whose `.agp` is missing was
/// named in the report but drawn nowhere, where a missing `.obj` is a
/// marked box. It is now drawn at its point, marked, in the 3-D scene and
/// the pictures; the tables still list only what was placed.
#[test]
fn a_missing_agp_was_named_but_not_drawn_at_its_point() {
    let dir = tempfile::tempdir().unwrap();
    let tile = tile_with_a_missing_agp(dir.path());
    let scenery = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let t = scenery.place_tile(&tile, &Params::default()).unwrap();
    assert_eq!(t.placements.len(), 1);
    assert_eq!(t.unplaced.len(), 1);
    let u = &t.unplaced[0];
    assert_eq!(
        (u.asset.as_str(), u.unplaced.as_deref()),
        ("point/gone.agp", Some("its asset resolves nowhere"))
    );
    let run = |out: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(["place", "--dsf"])
            .arg(&tile)
            .arg("-o")
            .arg(dir.path().join(out))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(dir.path().join(out)).unwrap()
    };
    // The glb: a red box at the missing use's point, 100 m east.
    let glb = run("t.glb");
    let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + n]).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let marker = nodes
        .iter()
        .find(|n| n["extras"]["item"] == "unplaced")
        .expect("a node for the use not placed");
    assert_eq!(marker["extras"]["asset"], "point/gone.agp");
    assert_eq!(marker["extras"]["why"], "its asset resolves nowhere");
    let mesh = &doc["meshes"][marker["mesh"].as_u64().unwrap() as usize];
    assert!(
        mesh["name"]
            .as_str()
            .unwrap()
            .starts_with("missing point/gone.agp")
    );
    let parent = nodes
        .iter()
        .find(|p| {
            p["children"].as_array().is_some_and(|c| {
                c.iter()
                    .any(|i| nodes[i.as_u64().unwrap() as usize]["extras"]["item"] == "unplaced")
            })
        })
        .unwrap();
    let east = parent["translation"][0].as_f64().unwrap();
    assert!((east - 100.0).abs() < 1.0, "{east}");
    // The picture: the use drawn, and the legend says so.
    let svg = String::from_utf8(run("t.svg")).unwrap();
    assert!(svg.contains("use not placed"), "the legend");
    // The tables: what was placed.
    let json: serde_json::Value = serde_json::from_slice(&run("t.json")).unwrap();
    let ps = json.as_array().unwrap();
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0]["asset"], "point/plaza.agp");
}
