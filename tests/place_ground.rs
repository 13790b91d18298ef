//! A whole tile set on the ground (`place --dsf TILE --all --mesh`,
//! `agkit::place::ground`): the demo tile that places one of every kind
//! (`tests/fixtures/whole_demo`, its art the bundled examples) over a base
//! mesh with relief built here, every item at the ground its kind stands
//! on; without a mesh, flat at the airport's elevation or at 0, and the
//! output says which.

use agkit::dsf::{self, Dsf, Entity, Patch, Primitive, PrimitiveKind};
use agkit::geom::LocalFrame;
use agkit::place::ground::{GroundSource, read_mesh};
use agkit::place::{Params, TilePlacement};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use agkit::terrain::Surface;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The relief: hills east-west, a valley north-south, 360–440 m.
fn height(lon: f64, lat: f64) -> f64 {
    use std::f64::consts::TAU;
    400.0
        + 25.0 * (TAU * (lon - 13.039) / 0.004).sin()
        + 15.0 * (TAU * (lat - 47.798) / 0.003).cos()
}

/// A base mesh of the tile +47+013: a grid fine (0.0005°, about 37 by
/// 55 m) over the demo's items and one cell wide to the tile's edges, so
/// it covers the whole tile once; two triangles a cell, one patch.
fn mesh() -> Dsf {
    let mut d = Dsf::overlay(13, 47);
    d.properties.retain(|(k, _)| k != "sim/overlay");
    d.terrain_defs = vec!["lib/g10/terrain10/grass.ter".into()];
    let mut xs = vec![13.0];
    xs.extend((0..=16).map(|i| 13.039 + 0.0005 * f64::from(i)));
    xs.push(14.0);
    let mut ys = vec![47.0];
    ys.extend((0..=12).map(|j| 47.798 + 0.0005 * f64::from(j)));
    ys.push(48.0);
    let mut v = Vec::new();
    let q = |x: f64, y: f64| [x, y, height(x, y), 0.0, 0.0];
    for j in 0..ys.len() - 1 {
        for i in 0..xs.len() - 1 {
            let (x0, x1, y0, y1) = (xs[i], xs[i + 1], ys[j], ys[j + 1]);
            for c in [
                q(x0, y0),
                q(x1, y0),
                q(x1, y1),
                q(x0, y0),
                q(x1, y1),
                q(x0, y1),
            ] {
                v.extend(c);
            }
        }
    }
    d.entities.push(Entity::Patch(Patch {
        def: 0,
        flags: 1,
        lod_near: 0.0,
        lod_far: -1.0,
        depth: 5,
        primitives: vec![Primitive {
            kind: PrimitiveKind::Triangles,
            vertices: v,
        }],
    }));
    d
}

/// A copy of examples/ with the whole demo tile in its `dsf/`, and the
/// mesh as `mesh/Earth nav data/+40+010/+47+013.dsf` beside it.
fn package() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let repo = Path::new(ROOT);
    let tmp = tempfile::tempdir().unwrap();
    let examples = tmp.path().join("examples");
    for e in walkdir::WalkDir::new(repo.join("examples")) {
        let e = e.unwrap();
        let to = examples.join(e.path().strip_prefix(repo.join("examples")).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(e.path(), &to).unwrap();
        }
    }
    for name in ["whole_demo.dsf", "apron.pol", "stripe.lin"] {
        std::fs::copy(
            repo.join("tests/fixtures/whole_demo").join(name),
            examples.join("dsf").join(name),
        )
        .unwrap();
    }
    let mesh_pkg = tmp.path().join("mesh");
    let dir = mesh_pkg.join("Earth nav data/+40+010");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = dsf::build(&mesh(), &Default::default()).unwrap();
    std::fs::write(dir.join("+47+013.dsf"), bytes).unwrap();
    (tmp, examples, mesh_pkg)
}

fn place(examples: &Path, mesh: Option<&Path>) -> TilePlacement {
    let scenery = Scenery::packages(Some(examples), &[], Conditions::default()).unwrap();
    let params = Params {
        whole_tile: true,
        mesh: mesh.map(Path::to_path_buf),
        ..Params::default()
    };
    scenery
        .place_tile(&examples.join("dsf/whole_demo.dsf"), &params)
        .unwrap()
}

/// Gives the package `examples` the airport XAGK
/// (`tests/fixtures/apt/small.dat`) as its apt.dat; returns its `Earth nav
/// data` folder.
fn with_small_apt(examples: &Path) -> PathBuf {
    with_apt(examples, "small.dat")
}

/// Gives the package `examples` `tests/fixtures/apt/NAME` as its apt.dat;
/// returns its `Earth nav data` folder.
fn with_apt(examples: &Path, name: &str) -> PathBuf {
    let nav = examples.join("Earth nav data");
    std::fs::create_dir_all(&nav).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("tests/fixtures/apt").join(name),
        nav.join("apt.dat"),
    )
    .unwrap();
    nav
}

/// The ground under `p` on `s`.
fn under(s: &Surface, p: [f64; 2]) -> f64 {
    s.elevation(p)
        .unwrap_or_else(|| panic!("{p:?} is off the mesh"))
}

fn near(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= 0.01, "{what}: {got} is not {want}");
}

#[test]
fn every_item_stands_on_the_mesh_by_the_rule_of_its_kind() {
    let (_tmp, examples, mesh_pkg) = package();
    let t = place(&examples, Some(&mesh_pkg));
    let file = mesh_pkg.join("Earth nav data/+40+010/+47+013.dsf");
    assert_eq!(
        t.ground,
        Some(GroundSource::Mesh {
            file: file.clone(),
            triangles: 18 * 14 * 2
        })
    );
    assert_eq!(t.off_mesh, 0);
    let s = read_mesh(&file, &Default::default()).unwrap();
    let (mut objects, mut kinds) = (Vec::new(), std::collections::BTreeSet::new());
    for p in &t.placements {
        assert_eq!(p.ground, t.ground, "{} names the ground", p.asset);
        let frame = LocalFrame::new(p.origin);
        for o in &p.objects {
            let z = o.z.unwrap();
            let want = match o.mode.as_str() {
                // The DSF's elevation, whatever the mesh (the demo's is
                // 45 m, far below its ground).
                "msl" => {
                    assert!(under(&s, [o.lon, o.lat]) - o.elevation.unwrap() > 100.0);
                    o.elevation.unwrap()
                }
                "agl" => under(&s, [o.lon, o.lat]) + o.elevation.unwrap(),
                "graded" | "delta" | "scraper" => {
                    let g = p.tiles[o.tile].ground_point.unwrap();
                    under(&s, frame.to_lonlat(g)) + o.height
                }
                _ => under(&s, [o.lon, o.lat]) + o.height,
            };
            near(z, want, &format!("{} ({})", o.asset, o.mode));
            kinds.insert(o.mode.clone());
            objects.push(z);
        }
        for t in &p.tiles {
            for (q, z) in t.lonlat.iter().zip(t.z.as_ref().unwrap()) {
                near(*z, under(&s, *q), "a tile's outline point");
            }
        }
        for f in &p.facades {
            let g = f.ground.as_ref().unwrap();
            for (q, z) in f.lonlat.iter().zip(g) {
                near(*z, under(&s, *q), "a facade's wall foot");
            }
            assert_eq!(f.z, g.iter().copied().reduce(f64::max), "its base");
        }
        for tr in &p.trees {
            near(tr.z.unwrap(), under(&s, [tr.lon, tr.lat]), "a tree");
        }
        for d in &p.draped {
            for (r, z) in d.lonlat.iter().zip(d.z.as_ref().unwrap()) {
                for (q, z) in r.iter().zip(z) {
                    near(*z, under(&s, *q), "a draped polygon's point");
                }
            }
        }
        for l in &p.lines {
            for (q, z) in l.lonlat.iter().zip(l.z.as_ref().unwrap()) {
                near(*z, under(&s, *q), "a line's point");
            }
        }
    }
    // The demo has objects of every mode a tile can give, and they stand
    // on relief, not on one level.
    for m in ["draped", "graded", "msl"] {
        assert!(kinds.contains(m), "no {m} object in {kinds:?}");
    }
    let (lo, hi) = objects
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &z| (a.min(z), b.max(z)));
    assert!(hi - lo > 5.0, "objects from {lo} to {hi} m");
}

#[test]
fn without_a_mesh_the_ground_is_flat_and_says_so() {
    let (_tmp, examples, _) = package();
    let t = place(&examples, None);
    assert_eq!(t.ground, Some(GroundSource::Flat { elevation: 0.0 }));
    for p in &t.placements {
        for o in p.objects.iter().filter(|o| o.mode == "draped") {
            assert_eq!(o.z, Some(0.0), "{}", o.asset);
        }
    }
    // With the package's apt.dat, flat at its airport's elevation.
    with_small_apt(&examples);
    let t = place(&examples, None);
    let Some(GroundSource::Airport {
        icao, elevation, ..
    }) = &t.ground
    else {
        panic!("{:?}", t.ground);
    };
    assert_eq!(icao, "XAGK");
    near(*elevation, 1250.0 * 0.3048, "the airport's elevation");
    let kiosk = t
        .placements
        .iter()
        .flat_map(|p| &p.objects)
        .find(|o| o.mode == "draped")
        .unwrap();
    near(kiosk.z.unwrap(), 381.0, "an object on the airport's level");
}

/// The `ground:` line `agkit place --dsf --all` prints, the temporary
/// folder named `<tmp>`.
fn ground_line(examples: &Path, extra: &[&Path], tmp: &Path) -> String {
    let out = examples.join("out.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_agkit"));
    cmd.args(["place", "--all", "--scenery"])
        .arg(examples)
        .arg("--dsf")
        .arg(examples.join("dsf/whole_demo.dsf"))
        .arg("-o")
        .arg(&out);
    if let Some(m) = extra.first() {
        cmd.arg("--mesh").arg(m);
    }
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let json = std::fs::read_to_string(&out).unwrap();
    assert!(json.contains("\"ground\""), "the JSON names the ground");
    err.lines()
        .filter(|l| l.starts_with("ground:"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace(&tmp.display().to_string(), "<tmp>")
}

#[test]
fn the_cli_says_which_ground_it_used() {
    let (tmp, examples, mesh_pkg) = package();
    let lines = [
        ground_line(&examples, &[&mesh_pkg], tmp.path()),
        ground_line(&examples, &[], tmp.path()),
    ];
    with_small_apt(&examples);
    let airport = ground_line(&examples, &[], tmp.path());
    insta::assert_snapshot!(format!("{}\n{}\n{airport}", lines[0], lines[1]));
}

#[test]
fn a_mesh_that_is_not_there_is_an_error_naming_it() {
    let (_tmp, examples, mesh_pkg) = package();
    let scenery = Scenery::packages(Some(&examples), &[], Conditions::default()).unwrap();
    let params = Params {
        whole_tile: true,
        mesh: Some(mesh_pkg.join("nowhere")),
        ..Params::default()
    };
    let e = scenery
        .place_tile(&examples.join("dsf/whole_demo.dsf"), &params)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--mesh") && e.contains("nowhere") && e.contains("+47+013.dsf"),
        "{e}"
    );
}

/// The figures of BENCHMARKS.md, "A whole tile on its ground": the
/// corpus's busiest airport overlay (KIND) placed whole, and a generated
/// base mesh of its tile with about a million triangles (a 708 × 708
/// grid, strips, relief everywhere). Prints the time to place the tile,
/// to read the mesh into a surface, and to set every item on it. Run with
/// `AGKIT_CORPUS=../shared/corpus cargo test --test place_ground -- --ignored --nocapture`.
#[test]
#[ignore = "a timed run on the corpus: figures for BENCHMARKS.md"]
fn figures_on_a_million_triangle_mesh() {
    use std::time::Instant;
    let corpus = PathBuf::from(std::env::var("AGKIT_CORPUS").unwrap_or("../shared/corpus".into()));
    let pkg = corpus.join("brokenbrainguy__KIND-Indianapolis-International-Airport");
    let tile = pkg.join("Earth nav data/+30-090/+39-087.dsf");
    let n = 708usize;
    let mut d = Dsf::overlay(-87, 39);
    d.properties.retain(|(k, _)| k != "sim/overlay");
    d.terrain_defs = vec!["lib/g10/terrain10/grass.ter".into()];
    let h = |x: f64, y: f64| 200.0 + 30.0 * (x * 40.0).sin() * (y * 30.0).cos();
    let mut primitives = Vec::new();
    for j in 0..n {
        let (y0, y1) = (39.0 + j as f64 / n as f64, 39.0 + (j + 1) as f64 / n as f64);
        let mut v = Vec::new();
        for i in 0..=n {
            let x = -87.0 + i as f64 / n as f64;
            v.extend([x, y1, h(x, y1), 0.0, 0.0, x, y0, h(x, y0), 0.0, 0.0]);
        }
        primitives.push(Primitive {
            kind: PrimitiveKind::Strip,
            vertices: v,
        });
    }
    d.entities.push(Entity::Patch(Patch {
        def: 0,
        flags: 1,
        lod_near: 0.0,
        lod_far: -1.0,
        depth: 5,
        primitives,
    }));
    let tmp = tempfile::tempdir().unwrap();
    let mesh_file = tmp.path().join("+39-087.dsf");
    std::fs::write(&mesh_file, dsf::build(&d, &Default::default()).unwrap()).unwrap();
    let scenery = Scenery::packages(Some(&pkg), &[], Conditions::default()).unwrap();
    let params = Params {
        whole_tile: true,
        ..Params::default()
    };
    let t0 = Instant::now();
    let mut placed = scenery.place_tile(&tile, &params).unwrap();
    let place = t0.elapsed();
    let t1 = Instant::now();
    let surface = std::sync::Arc::new(read_mesh(&mesh_file, &Default::default()).unwrap());
    let load = t1.elapsed();
    let ground = agkit::place::ground::Ground::mesh(mesh_file.clone(), surface.clone());
    let t2 = Instant::now();
    let mut points = 0;
    for p in &mut placed.placements {
        points += ground.apply(p).points;
    }
    let apply = t2.elapsed();
    let items: usize = placed.placements.iter().map(|p| p.items()).sum();
    println!(
        "mesh: {} triangles, {} bytes; tile: {items} items; place (flat ground) {:.3} s; \
         read mesh {:.3} s; set on the mesh {points} points in {:.3} s ({:.2} µs a point)",
        surface.triangles.len(),
        std::fs::metadata(&mesh_file).unwrap().len(),
        place.as_secs_f64(),
        load.as_secs_f64(),
        apply.as_secs_f64(),
        apply.as_secs_f64() * 1e6 / points.max(1) as f64
    );
}

/// The glTF scene of a tile on its mesh: a terrain node of the mesh's
/// triangles under the items, every object node at its elevation (z
/// relative to the scene's datum), and the terrain left out, with a
/// warning, when the scene's triangle limit would be passed.
#[test]
fn the_scene_draws_the_terrain_and_stands_objects_on_it() {
    use agkit::scene::{self, ItemKind};
    let (_tmp, examples, mesh_pkg) = package();
    // With its airport, so that Blender's check sees one on the terrain.
    with_demo_field(&examples);
    let t = place(&examples, Some(&mesh_pkg));
    let limits = agkit::limits::Limits::default();
    let s = scene::build(&t.placements, &limits).unwrap();
    let s_mesh = read_mesh(
        &mesh_pkg.join("Earth nav data/+40+010/+47+013.dsf"),
        &limits,
    )
    .unwrap();
    near(s.datum, under(&s_mesh, s.origin), "the datum");
    let terrain: Vec<_> = s
        .nodes
        .iter()
        .filter(|n| n.item.kind == ItemKind::Terrain)
        .collect();
    assert_eq!(terrain.len(), 1);
    let m = &s.meshes[terrain[0].mesh.unwrap()];
    let tris: usize = m.parts.iter().map(|p| p.mesh.triangles.len()).sum();
    // The fine cells around the items, not the whole tile's 504.
    assert!(tris > 10 && tris < 504, "{tris} terrain triangles");
    let mut objects = 0;
    for n in s.nodes.iter().filter(|n| n.item.kind == ItemKind::Object) {
        let o = &s.placements[n.item.placement].objects[n.item.index];
        near(n.at[2] + s.datum, o.z.unwrap(), &o.asset);
        objects += 1;
    }
    assert!(objects > 10, "{objects} object nodes");
    let glb = agkit::out::gltf::to_glb(&t.placements).unwrap();
    assert!(
        glb.windows(7).any(|w| w == b"terrain"),
        "the glb holds the terrain"
    );
    keep_for_blender("tile_on_terrain", &glb, &t);
    // A limit the terrain would pass: the items are drawn, the terrain not.
    let tight = agkit::limits::Limits {
        max_scene_triangles: s.triangles() - tris as u64 + 5,
        ..limits
    };
    let s = scene::build(&t.placements, &tight).unwrap();
    assert!(!s.nodes.iter().any(|n| n.item.kind == ItemKind::Terrain));
    assert!(
        s.warnings.iter().any(|w| w.starts_with("terrain:")),
        "{:?}",
        s.warnings
    );
}

/// Writes the tile on its terrain where `e2e/blender_check.py` reads the
/// scenes (`<target>/tmp/gltf-out`, beside tests/gltf.rs's), with the
/// counts of its placements and airports (`NAME.counts.json`).
fn keep_for_blender(name: &str, glb: &[u8], t: &TilePlacement) {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-out");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(format!("{name}.glb")), glb).unwrap();
    let ps = &t.placements;
    let counts = serde_json::json!({
        "placements": ps.len(),
        "objects": ps.iter().map(|p| p.objects.len()).sum::<usize>(),
        "facades": ps.iter().map(|p| p.facades.len()).sum::<usize>(),
        "tree_groups": ps.iter().filter(|p| !p.trees.is_empty()).count(),
        "airports": t.airports.as_ref().map_or(0, |a| a.0.airports.len()),
    });
    std::fs::write(
        d.join(format!("{name}.counts.json")),
        serde_json::to_vec_pretty(&counts).unwrap(),
    )
    .unwrap();
}

/// Issue 49: a run reads the apt.dat files once for all its tiles, not
/// once per tile. One `Scenery` places the tile twice; the package's
/// apt.dat is emptied between the two, and the second placement still
/// stands on the airport the first read found (a fresh run sees the
/// change).
#[test]
fn a_run_reads_the_airports_once_for_all_its_tiles() {
    let (_tmp, examples, _) = package();
    let nav = with_small_apt(&examples);
    let scenery = Scenery::packages(Some(&examples), &[], Conditions::default()).unwrap();
    let params = Params {
        whole_tile: true,
        ..Params::default()
    };
    let dsf = examples.join("dsf/whole_demo.dsf");
    let icao = |t: &TilePlacement| match &t.ground {
        Some(GroundSource::Airport { icao, .. }) => icao.clone(),
        g => panic!("{g:?}"),
    };
    let first = scenery.place_tile(&dsf, &params).unwrap();
    assert_eq!(icao(&first), "XAGK");
    std::fs::write(nav.join("apt.dat"), "I\n1100 emptied\n\n99\n").unwrap();
    let second = scenery.place_tile(&dsf, &params).unwrap();
    assert_eq!(icao(&second), "XAGK", "the apt.dat was read again");
    // The airports the tile carries too (XAGK and the seaplane base XSEA
    // lie in it).
    let ids = |t: &TilePlacement| -> Vec<String> {
        t.airports.as_ref().map_or(Vec::new(), |a| {
            a.0.airports
                .iter()
                .map(|x| x.airport.icao.clone())
                .collect()
        })
    };
    assert_eq!(ids(&first), ["XAGK", "XSEA"]);
    assert_eq!(ids(&second), ["XAGK", "XSEA"], "the apt.dat was read again");
    let limits = agkit::limits::Limits::default();
    assert!(std::sync::Arc::ptr_eq(
        &scenery.first_airports(&examples, &limits),
        &scenery.first_airports(&examples, &limits)
    ));
    let fresh = place(&examples, None);
    assert_eq!(fresh.ground, Some(GroundSource::Flat { elevation: 0.0 }));
    assert!(fresh.airports.is_none());
}

/// Gives the package `examples` the airport XDMO under the demo's items
/// (`tests/fixtures/apt/demo_field.dat`: a runway with a displaced
/// threshold and a blast pad, a helipad, an apron with a hole).
fn with_demo_field(examples: &Path) {
    with_apt(examples, "demo_field.dat");
}

/// An airport node, its vertices and its triangles' centroids.
type AirportNode<'s> = (&'s agkit::scene::Node, Vec<[f64; 3]>, Vec<[f64; 2]>);

/// The airport node of a scene, with every vertex of its mesh (scene
/// frame) and its triangles' centroids.
fn airport_node<'s>(s: &'s agkit::scene::Scene<'_>) -> Option<AirportNode<'s>> {
    use agkit::scene::ItemKind;
    let n = s.nodes.iter().find(|n| n.item.kind == ItemKind::Airport)?;
    let m = &s.meshes[n.mesh?];
    let mut verts = Vec::new();
    let mut centroids = Vec::new();
    for part in &m.parts {
        verts.extend(part.mesh.positions.iter().copied());
        for t in &part.mesh.triangles {
            let [a, b, c] = t.map(|i| part.mesh.positions[i as usize]);
            centroids.push([(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0]);
        }
    }
    Some((n, verts, centroids))
}

/// Issue 49: the airports of the tile drawn in the glTF, on the mesh,
/// under the items: one `airport XDMO` node, every vertex on the ground
/// plus its lift, the triangles the shapes give, the apron's hole left
/// empty; a triangle limit the airport would pass leaves it out with a
/// warning.
#[test]
fn the_scene_draws_the_airports_on_the_mesh() {
    use agkit::scene::{self, airports};
    let (_tmp, examples, mesh_pkg) = package();
    with_demo_field(&examples);
    let t = place(&examples, Some(&mesh_pkg));
    let found = t.airports.as_ref().expect("the tile carries its airports");
    assert_eq!(found.0.airports.len(), 1);
    assert!(t.placements.iter().all(|p| p.airports == t.airports));
    let limits = agkit::limits::Limits::default();
    let s = scene::build(&t.placements, &limits).unwrap();
    let surface = read_mesh(
        &mesh_pkg.join("Earth nav data/+40+010/+47+013.dsf"),
        &limits,
    )
    .unwrap();
    let (node, verts, centroids) = airport_node(&s).expect("an airport node");
    assert_eq!(s.name(node), "airport XDMO");
    // The terrain node reaches under every vertex of the airport (it was
    // cut to the items alone, and the runway's far end hung off it).
    let terrain = s
        .nodes
        .iter()
        .find(|n| n.item.kind == agkit::scene::ItemKind::Terrain)
        .expect("a terrain node");
    let ground: Vec<[[f64; 3]; 3]> = s.meshes[terrain.mesh.unwrap()]
        .parts
        .iter()
        .flat_map(|p| {
            p.mesh
                .triangles
                .iter()
                .map(|t| t.map(|i| p.mesh.positions[i as usize]))
        })
        .collect();
    let inside = |q: [f64; 3], t: &[[f64; 3]; 3]| {
        let side = |a: [f64; 3], b: [f64; 3]| {
            (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
        };
        let d = [side(t[0], t[1]), side(t[1], t[2]), side(t[2], t[0])];
        d.iter().all(|&x| x >= -1e-6) || d.iter().all(|&x| x <= 1e-6)
    };
    for v in &verts {
        assert!(
            ground.iter().any(|t| inside(*v, t)),
            "an airport vertex at {v:?} is off the terrain node"
        );
    }
    let frame = LocalFrame::new(s.origin);
    for v in &verts {
        let want = under(&surface, frame.to_lonlat([v[0], v[1]]));
        let got = v[2] + s.datum;
        assert!(
            (got - want - airports::RUNWAY_LIFT).abs() <= 0.1,
            "a vertex at {got} m on ground {want} m"
        );
        assert!(got > want, "above the ground");
    }
    let shapes = airports::shapes(&found.0.airports[0].airport);
    let kinds: Vec<&str> = shapes.iter().map(|s| s.part.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "pavement",
            "runway",
            "displaced threshold",
            "blast pad",
            "helipad"
        ]
    );
    let want: usize = shapes.iter().map(airports::Shape::triangles).sum();
    assert_eq!(centroids.len(), want, "the triangles the shapes give");
    // The runway, about 570 m, is cut every 25 m: it follows the relief.
    assert!(want > 40, "{want}");
    // The apron's hole (lon 13.0415–13.0425, lat 47.7994–47.7998).
    for c in &centroids {
        let [lon, lat] = frame.to_lonlat(*c);
        let inside = (13.0415..13.0425).contains(&lon) && (47.7994..47.7998).contains(&lat);
        assert!(!inside, "a triangle in the apron's hole at {lon}, {lat}");
    }
    // The extras name each shape's file:line.
    let extras = s.extras(node);
    let parts = extras["parts"].as_array().unwrap();
    assert_eq!(parts.len(), shapes.len());
    assert!(
        parts[1]["source"].as_str().unwrap().ends_with("apt.dat:6"),
        "{extras}"
    );
    assert_eq!(parts[1]["name"], "09/27");
    let glb = agkit::out::gltf::to_glb(&t.placements).unwrap();
    assert!(glb.windows(12).any(|w| w == b"airport XDMO"));
    // A limit the airport would pass: left out, said, no panic.
    let tight = agkit::limits::Limits {
        max_scene_triangles: s.triangles() - want as u64 + 5,
        ..limits
    };
    let s = scene::build(&t.placements, &tight).unwrap();
    assert!(airport_node(&s).is_none());
    assert!(
        s.warnings.iter().any(|w| w.starts_with("airport XDMO:")),
        "{:?}",
        s.warnings
    );
}

/// Issue 49: `place --dsf TILE --all` draws the airports in the pictures
/// (beneath the other layers) and its JSON names them.
#[test]
fn the_pictures_and_the_json_show_the_airports() {
    let (tmp, examples, _) = package();
    with_demo_field(&examples);
    let run = |out: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(["place", "--all", "--scenery"])
            .arg(&examples)
            .arg("--dsf")
            .arg(examples.join("dsf/whole_demo.dsf"))
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let svg = tmp.path().join("tile.svg");
    run(&svg);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let group = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no {id} layer"))
    };
    let runway = group("airport-runway");
    assert!(runway.children().any(|c| c.is_element()), "a runway drawn");
    // Beneath every other layer of the map: the pavement comes first.
    let layers: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "g")
        .filter_map(|n| n.attribute("id"))
        .collect();
    let first = layers
        .iter()
        .position(|l| *l == "airport-pavement")
        .unwrap();
    assert!(
        layers[..first].iter().all(|l| !l.starts_with("airport")),
        "{layers:?}"
    );
    let png = tmp.path().join("tile.png");
    run(&png);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let json = tmp.path().join("tile.json");
    run(&json);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let summary = v[0]["airports"].to_string().replace(
        &examples.display().to_string().replace('\\', "\\\\"),
        "<examples>",
    );
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    insta::assert_json_snapshot!(summary);
}

/// The mesh of [`mesh`] as an Ortho4XP tile is made: the land an
/// orthophoto terrain (`terrain/ortho.ter`, `BASE_TEX_NOWRAP` of a PNG in
/// the package) whose patch gives every vertex its own s/t (depth 7),
/// the cells west of 13.0415 water (`terrain_Water`, depth 5).
fn ortho_mesh() -> Dsf {
    let mut d = mesh();
    d.terrain_defs = vec!["terrain_Water".into(), "terrain/ortho.ter".into()];
    let Entity::Patch(p) = d.entities.pop().unwrap() else {
        unreachable!()
    };
    let (mut water, mut land) = (Vec::new(), Vec::new());
    for tri in p.primitives[0].vertices.chunks_exact(15) {
        let west = tri.chunks_exact(5).all(|v| v[0] <= 13.0415);
        for v in tri.chunks_exact(5) {
            if west {
                water.extend_from_slice(v);
            } else {
                land.extend_from_slice(v);
                land.extend(st(v[0], v[1]));
            }
        }
    }
    let patch = |def, depth, vertices| {
        Entity::Patch(Patch {
            def,
            flags: 1,
            lod_near: 0.0,
            lod_far: -1.0,
            depth,
            primitives: vec![Primitive {
                kind: PrimitiveKind::Triangles,
                vertices,
            }],
        })
    };
    d.entities.push(patch(0, 5, water));
    d.entities.push(patch(1, 7, land));
    d
}

/// The orthophoto's s/t at a point: 0..1 over the demo's box, whatever
/// lies past it clamped (the tile's edge cells).
fn st(lon: f64, lat: f64) -> [f64; 2] {
    let s = ((lon - 13.039) / 0.008).clamp(0.0, 1.0);
    let t = ((lat - 47.798) / 0.006).clamp(0.0, 1.0);
    // On the grid DSFTool writes s/t with (and the writer keeps).
    [(s * 1024.0).round() / 1024.0, (t * 1024.0).round() / 1024.0]
}

#[test]
fn an_ortho_mesh_is_drawn_with_its_terrain_textures_and_its_own_st() {
    use agkit::scene::{self, ItemKind};
    let (_tmp, examples, mesh_pkg) = package();
    let file = mesh_pkg.join("Earth nav data/+40+010/+47+013.dsf");
    std::fs::write(
        &file,
        dsf::build(&ortho_mesh(), &Default::default()).unwrap(),
    )
    .unwrap();
    std::fs::create_dir_all(mesh_pkg.join("terrain")).unwrap();
    std::fs::create_dir_all(mesh_pkg.join("textures")).unwrap();
    std::fs::write(
        mesh_pkg.join("terrain/ortho.ter"),
        "A\n800\nTERRAIN\n\nLOAD_CENTER 47.8 13.04 1000 1024\nBASE_TEX_NOWRAP ../textures/ortho.png\nNO_ALPHA\n",
    )
    .unwrap();
    std::fs::copy(
        Path::new(ROOT).join("examples/blank.png"),
        mesh_pkg.join("textures/ortho.png"),
    )
    .unwrap();
    let t = place(&examples, Some(&mesh_pkg));
    let limits = agkit::limits::Limits::default();
    let s = scene::build(&t.placements, &limits).unwrap();
    let node = s
        .nodes
        .iter()
        .find(|n| n.item.kind == ItemKind::Terrain)
        .expect("a terrain node");
    let m = &s.meshes[node.mesh.unwrap()];
    assert_eq!(m.parts.len(), 2, "water and the orthophoto");
    let frame = LocalFrame::new(s.origin);
    let mut textured = 0;
    for part in &m.parts {
        let mat = &s.materials[part.material];
        match mat.name.as_str() {
            "terrain/ortho.ter" => {
                let tex = &s.textures[mat.texture.unwrap_or_else(|| panic!("{:?}", s.warnings))];
                assert_eq!(tex.name, "ortho.png");
                for (q, uv) in part.mesh.positions.iter().zip(&part.mesh.uvs) {
                    let ll = frame.to_lonlat([q[0], q[1]]);
                    let want = st(ll[0], ll[1]);
                    assert!(
                        (uv[0] - want[0]).abs() < 2e-3 && (uv[1] - want[1]).abs() < 2e-3,
                        "{uv:?} at {ll:?}, want {want:?}"
                    );
                    textured += 1;
                }
            }
            "terrain_Water" => assert_eq!(mat.texture, None),
            other => panic!("a terrain part of {other}"),
        }
    }
    assert!(textured > 30, "{textured} textured corners");
    assert!(
        !s.warnings.iter().any(|w| w.contains("ortho.ter")),
        "{:?}",
        s.warnings
    );
    // The glb embeds the orthophoto.
    let glb = agkit::out::gltf::to_glb(&t.placements).unwrap();
    assert!(glb.windows(9).any(|w| w == b"ortho.png"));
    keep_for_blender("tile_on_ortho_terrain", &glb, &t);

    // The .ter gone: the land is drawn in a plain colour, and the scene
    // says why, naming the definition.
    std::fs::remove_file(mesh_pkg.join("terrain/ortho.ter")).unwrap();
    let t = place(&examples, Some(&mesh_pkg));
    let s = scene::build(&t.placements, &limits).unwrap();
    assert!(
        s.materials
            .iter()
            .all(|m| m.texture.is_none() || m.name != "terrain/ortho.ter")
    );
    assert!(
        s.warnings
            .iter()
            .any(|w| w.starts_with("terrain terrain/ortho.ter: ") && w.ends_with("plain colour")),
        "{:?}",
        s.warnings
    );
}

/// An installation in `top` of `package()`'s two folders: `Custom
/// Scenery/Low` (the demo package, its tile also as `Earth nav
/// data/+40+010/+47+013.dsf`) above `Custom Scenery/Mesh`; returns the
/// `Custom Scenery` folder and that tile.
fn installation_of(top: &Path, examples: &Path, mesh_pkg: &Path) -> (PathBuf, PathBuf) {
    let cs = top.join("Custom Scenery");
    std::fs::create_dir_all(&cs).unwrap();
    std::fs::rename(examples, cs.join("Low")).unwrap();
    std::fs::rename(mesh_pkg, cs.join("Mesh")).unwrap();
    let tile = cs.join("Low/Earth nav data/+40+010/+47+013.dsf");
    std::fs::create_dir_all(tile.parent().unwrap()).unwrap();
    std::fs::copy(cs.join("Low/dsf/whole_demo.dsf"), &tile).unwrap();
    std::fs::write(
        cs.join("scenery_packs.ini"),
        "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/Low/\n\
         SCENERY_PACK Custom Scenery/Mesh/\n",
    )
    .unwrap();
    (cs, tile)
}

/// `scenery at` on the ground (issue 49 item 3): an installation of the
/// demo package above the relief mesh; the point's ground is the mesh's
/// surface there, and each object's `z` the ground under it.
#[test]
fn scenery_at_gives_the_ground_and_each_items_height() {
    let (tmp, examples, mesh_pkg) = package();
    let (cs, _tile) = installation_of(tmp.path(), &examples, &mesh_pkg);
    let surface = read_mesh(
        &cs.join("Mesh/Earth nav data/+40+010/+47+013.dsf"),
        &Default::default(),
    )
    .unwrap();
    let scenery = Scenery::installation(tmp.path(), Conditions::default()).unwrap();
    let (lat, lon) = (47.7995, 13.0426);
    let r = scenery
        .at(lat, lon, 300.0, &Params::default(), false)
        .unwrap();
    let g = r.ground.as_ref().expect("the report gives the ground");
    let want = surface.elevation([lon, lat]).unwrap();
    assert!(
        (g.elevation - want).abs() < 0.01,
        "{} vs {want}",
        g.elevation
    );
    assert!(
        g.on_mesh && matches!(g.source, GroundSource::Mesh { .. }),
        "{g:?}"
    );
    let mut objects = 0;
    for i in r
        .items
        .iter()
        .filter(|i| i.kind == agkit::place::at::ItemKind::Object && i.dsf_elevation.is_none())
    {
        let want = surface.elevation([i.lon, i.lat]).unwrap();
        assert!((i.z.unwrap() - want).abs() < 0.01, "{i:?}");
        objects += 1;
    }
    assert!(objects >= 2, "{objects} draped objects");
    let text = agkit::out::scenery_report::at_text(&r);
    let line = format!("ground: {:.2} m (mesh ", g.elevation);
    assert!(text.contains(&line), "{text}");
    assert!(text.contains("stands at "), "{text}");
    let json = serde_json::to_value(&r).unwrap();
    assert!(json["ground"]["source"]["source"] == "mesh", "{json}");
}

/// `GET TARGET` of a server at `addr`: the status and the body.
fn http_get(addr: std::net::SocketAddr, target: &str) -> (u16, Vec<u8>) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        addr.port()
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let at = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let status = String::from_utf8_lossy(&out[..at])
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, out[at + 4..].to_vec())
}

/// The node names of a GLB's scene.
fn glb_node_names(glb: &[u8]) -> Vec<String> {
    assert_eq!(&glb[..4], b"glTF");
    let len = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + len]).unwrap();
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str().map(str::to_string))
        .collect()
}

/// Issue 49 in `agkit serve PATH --xplane DIR` (issue 50 item 3): the
/// tile the previewer opens inside an installation stands on the
/// installation's base mesh with its airports, as `place --dsf TILE --all
/// --xplane DIR` places it. `/api/tile` names the mesh it stands on and
/// the airport, and `/api/tile.glb` holds the terrain and the airport's
/// node, the same nodes as the library's scene of the same tile.
#[test]
fn the_previewer_draws_an_installations_tile_on_its_mesh_with_its_airports() {
    let (tmp, examples, mesh_pkg) = package();
    with_demo_field(&examples);
    let (cs, tile) = installation_of(tmp.path(), &examples, &mesh_pkg);
    let rel = "Earth nav data/+40+010/+47+013.dsf";
    let mut cfg = agkit::serve::Config::new(cs.join("Low"));
    cfg.libraries = agkit::serve::LibrarySource::Installation(tmp.path().to_path_buf());
    let server = agkit::serve::Server::bind(&cfg).unwrap();
    let addr = server.local_addr();
    std::thread::spawn(move || server.run());
    let q = rel.replace(' ', "%20").replace('+', "%2B");

    let (status, body) = http_get(addr, &format!("/api/tile?path={q}"));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(v["ground"]["source"], "mesh", "{}", v["ground"]);
    assert!(
        v["ground"]["file"]
            .as_str()
            .is_some_and(|f| f.contains("+47+013.dsf")),
        "{}",
        v["ground"]
    );
    let ids: Vec<&str> = v["airports"]
        .as_array()
        .expect("the tile's airports")
        .iter()
        .filter_map(|a| a["icao"].as_str())
        .collect();
    assert_eq!(ids, ["XDMO"], "{}", v["airports"]);
    // The 2-D view's airport shapes: the scene's, in the view's frame.
    let shapes = v["airport_shapes"].as_array().expect("airport shapes");
    let scenery = Scenery::installation(tmp.path(), Conditions::default()).unwrap();
    let placed = scenery
        .with_package(Some(&cs.join("Low")))
        .place_tile(
            &tile,
            &Params {
                whole_tile: true,
                ..Params::default()
            },
        )
        .unwrap();
    let field = &placed.airports.as_ref().unwrap().0.airports[0].airport;
    let want = agkit::scene::airports::shapes(field);
    assert_eq!(shapes.len(), want.len());
    let o = &v["origin"];
    let frame = LocalFrame::new([o[0].as_f64().unwrap(), o[1].as_f64().unwrap()]);
    for (got, want) in shapes.iter().zip(&want) {
        assert_eq!(got["part"], want.part.as_str());
        assert_eq!(got["line"], want.line);
        let first: Vec<agkit::geom::LonLat> = match &want.outline {
            agkit::scene::airports::Outline::Strip(q, _) => q.to_vec(),
            agkit::scene::airports::Outline::Rings(r) => r[0].clone(),
        };
        let ring = got["rings"][0].as_array().unwrap();
        assert_eq!(ring.len(), first.len());
        for (p, ll) in ring.iter().zip(&first) {
            let xy = frame.to_local(*ll);
            assert!((p[0].as_f64().unwrap() - xy[0]).abs() < 1e-6, "{p} {xy:?}");
            assert!((p[1].as_f64().unwrap() - xy[1]).abs() < 1e-6, "{p} {xy:?}");
        }
    }

    let (status, glb) = http_get(addr, &format!("/api/tile.glb?path={q}"));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&glb));
    let names = glb_node_names(&glb);
    assert!(
        names.iter().any(|n| n.starts_with("terrain")),
        "a terrain node: {names:?}"
    );
    assert!(names.iter().any(|n| n == "airport XDMO"), "{names:?}");

    // The library's scene of the same tile through the same installation.
    let t = placed;
    let mut ps = t.placements;
    ps.extend(t.unplaced);
    let want = glb_node_names(&agkit::out::gltf::to_glb(&ps).unwrap());
    assert_eq!(names, want);
}
