//! A whole DSF tile (`Params::whole_tile`, `place --dsf --all`) on a tile
//! built here with every kind of content and its art beside it: objects on
//! the ground and at MSL, a facade with wall types, a forest with a hole, a
//! draped polygon with a hole and one with UV planes, a painted line, an
//! object string, an autogen-free road chain and a beach; each placed as
//! `agkit::scenery::whole` says, or counted as not drawn.

use agkit::dsf::{self, BuildOptions, Dsf, ElevationMode, Entity, Object, Polygon};
use agkit::place::art::ArtState;
use agkit::place::{Params, PlacementKind};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A square ring (lon/lat, counter-clockwise) of `half` degrees around
/// (`lon`, `lat`), each point `extra` planes more.
fn square(lon: f64, lat: f64, half: f64, extra: &[f64]) -> Vec<f64> {
    let mut v = Vec::new();
    for (dx, dy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        v.extend([lon + dx * half, lat + dy * half]);
        v.extend_from_slice(extra);
    }
    v
}

fn poly(def: u32, param: u16, depth: usize, windings: Vec<Vec<f64>>) -> Entity {
    Entity::Polygon(Polygon {
        def,
        param,
        depth,
        windings,
    })
}

/// The package: `Earth nav data/+40+010/+47+013.dsf` and its art.
fn package(dir: &Path) -> PathBuf {
    let copy = |from: &str, to: &str| {
        std::fs::copy(Path::new(ROOT).join(from), dir.join(to)).unwrap();
    };
    copy("examples/point/kiosk.obj", "kiosk.obj");
    copy("examples/block/row_house.fac", "row_house.fac");
    copy("examples/block/backyard_trees.for", "backyard_trees.for");
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    textures(dir);
    write(
        "apron.pol",
        "A\n850\nDRAPED_POLYGON\n\nTEXTURE apron.png\nSCALE 25 50\n",
    );
    write(
        "stripe.lin",
        "A\n850\nLINE_PAINT\n\nTEXTURE stripe.png\nSCALE 20 40\nTEX_WIDTH 1024\nS_OFFSET 0 0 16 32\n",
    );
    write(
        "lights.str",
        "A\n850\nOBJECT_STRING\n\nOBJECT 0 0 kiosk.obj\nOFFSET 1.5\n",
    );
    let (lon, lat) = (13.5, 47.5);
    let d = 0.0005; // about 37 m east-west, 55 m north-south
    let dsf = Dsf {
        properties: vec![
            ("sim/west".into(), "13".into()),
            ("sim/south".into(), "47".into()),
            ("sim/east".into(), "14".into()),
            ("sim/north".into(), "48".into()),
            ("sim/overlay".into(), "1".into()),
        ],
        object_defs: vec!["kiosk.obj".into()],
        polygon_defs: vec![
            "row_house.fac".into(),
            "backyard_trees.for".into(),
            "apron.pol".into(),
            "stripe.lin".into(),
            "lights.str".into(),
            "sand.bch".into(),
        ],
        network_defs: vec!["lib/g10/roads.net".into()],
        entities: vec![
            Entity::Object(Object {
                def: 0,
                lon,
                lat,
                heading: 45.0,
                elevation: None,
                mode: ElevationMode::Draped,
            }),
            Entity::Object(Object {
                def: 0,
                lon: lon + d,
                lat,
                heading: 90.0,
                elevation: Some(512.25),
                mode: ElevationMode::Msl,
            }),
            // A facade 12 m tall with wall types 1 0 1 0.
            poly(
                0,
                12,
                3,
                vec![{
                    let mut v = Vec::new();
                    for (k, (dx, dy)) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
                        .into_iter()
                        .enumerate()
                    {
                        v.extend([
                            lon + 2.0 * d + dx * d,
                            lat + dy * d,
                            (k % 2 == 0) as u8 as f64,
                        ]);
                    }
                    v
                }],
            ),
            // A forest at full density with a hole.
            poly(
                1,
                255,
                2,
                vec![
                    square(lon, lat + 4.0 * d, 2.0 * d, &[]),
                    square(lon, lat + 4.0 * d, 0.5 * d, &[])
                        .chunks(2)
                        .rev()
                        .flatten()
                        .copied()
                        .collect(),
                ],
            ),
            // A draped polygon with a hole, heading 30.
            poly(
                2,
                30,
                2,
                vec![
                    square(lon + 8.0 * d, lat, 2.0 * d, &[]),
                    square(lon + 8.0 * d, lat, d, &[])
                        .chunks(2)
                        .rev()
                        .flatten()
                        .copied()
                        .collect(),
                ],
            ),
            // A draped polygon with UV planes.
            poly(
                2,
                65535,
                4,
                vec![square(lon + 12.0 * d, lat, d, &[0.5, 0.25])],
            ),
            // A painted line, open, two windings.
            poly(
                3,
                0,
                2,
                vec![
                    vec![lon, lat - 2.0 * d, lon + 4.0 * d, lat - 2.0 * d],
                    vec![lon, lat - 3.0 * d, lon + 4.0 * d, lat - 3.0 * d],
                ],
            ),
            // An object string of about 56 m (north), every 10 m.
            poly(
                4,
                10,
                2,
                vec![vec![lon - 4.0 * d, lat, lon - 4.0 * d, lat + d]],
            ),
            // A beach: not drawn.
            poly(5, 0, 2, vec![square(lon, lat - 8.0 * d, d, &[])]),
        ],
        ..Dsf::default()
    };
    let bytes = dsf::build(&dsf, &BuildOptions::default()).unwrap();
    let tile = dir.join("Earth nav data/+40+010/+47+013.dsf");
    std::fs::create_dir_all(tile.parent().unwrap()).unwrap();
    std::fs::write(&tile, bytes).unwrap();
    tile
}

/// The draped polygon's and the line's textures, made here: `apron.png`
/// a 32 × 32 opaque checker of two greys with a blue corner (so its
/// turn shows), `stripe.png` 64 × 16, clear but for a yellow band over
/// columns 16..32 (the `.lin`'s `S_OFFSET 0 0 16 32` over `TEX_WIDTH`
/// 1024 spans s 0 … 1/32, so the strip draws its first two columns).
fn textures(dir: &Path) {
    let mut apron = Vec::new();
    for y in 0..32u32 {
        for x in 0..32u32 {
            let c = if (x / 8 + y / 8) % 2 == 0 { 150 } else { 110 };
            let blue = x < 8 && y < 8;
            apron.extend(if blue {
                [40, 70, 200, 255]
            } else {
                [c, c, c - 10, 255]
            });
        }
    }
    let mut stripe = Vec::new();
    for _ in 0..16u32 {
        for x in 0..64u32 {
            stripe.extend(if x < 2 || (16..32).contains(&x) {
                [240, 200, 30, 255]
            } else {
                [0, 0, 0, 0]
            });
        }
    }
    let png = |w, h, rgba: &[u8]| agkit::out::png::encode_rgba(w, h, rgba).unwrap();
    std::fs::write(dir.join("apron.png"), png(32, 32, &apron)).unwrap();
    std::fs::write(dir.join("stripe.png"), png(64, 16, &stripe)).unwrap();
}

fn whole(tile: &Path, art: bool) -> agkit::place::TilePlacement {
    let scenery = Scenery::packages(None, &[], Conditions::default())
        .unwrap()
        .with_art(art);
    let params = Params {
        whole_tile: true,
        ..Params::default()
    };
    scenery.place_tile(tile, &params).unwrap()
}

#[test]
fn every_kind_is_placed_or_counted() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let t = whole(&tile, true);
    let w = t.whole.as_ref().unwrap();
    let c = |k: &str| {
        let c = w.counts[k];
        (c.in_dsf, c.placed, c.not_drawn)
    };
    assert_eq!(c("obj"), (2, 2, 0));
    assert_eq!(c("fac"), (1, 1, 0));
    assert_eq!(c("for"), (1, 1, 0));
    assert_eq!(c("pol"), (2, 2, 0));
    assert_eq!(c("lin"), (2, 2, 0));
    assert_eq!(c("str"), (1, 1, 0));
    assert_eq!(c("bch"), (1, 0, 1));
    assert!(w.not_drawn.iter().any(|n| n.definition == "sand.bch"));
    let kinds: Vec<(&str, &str)> = t
        .placements
        .iter()
        .map(|p| (p.kind.as_str(), p.asset.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("obj", "kiosk.obj"),
            ("fac", "row_house.fac"),
            ("for", "backyard_trees.for"),
            ("pol", "apron.pol"),
            ("lin", "stripe.lin"),
            ("str", "lights.str"),
        ]
    );
    let by = |k: &str| t.placements.iter().find(|p| p.kind.as_str() == k).unwrap();

    // Objects: where the DSF says, the MSL one at its altitude, with the
    // OBJ's footprint.
    let objs = &by("obj").objects;
    // Positions are the DSF's own; the heading as its pool stores it.
    assert_eq!((objs[0].lon, objs[0].lat), (13.5, 47.5));
    assert!((objs[0].heading - 45.0).abs() < 0.01, "{}", objs[0].heading);
    assert_eq!(objs[0].mode, "draped");
    assert_eq!(
        (objs[1].mode.as_str(), objs[1].elevation),
        ("msl", Some(512.25))
    );
    assert!(
        objs.iter()
            .all(|o| o.art == Some(ArtState::Found) && o.footprint.len() >= 3)
    );

    // The facade: its height and wall types, the .fac's rules applied.
    let f = &by("fac").facades[0];
    assert_eq!(f.height, 12.0);
    assert_eq!(f.walls.as_deref(), Some([1, 0, 1, 0].as_slice()));
    assert_eq!(f.art, Some(ArtState::Found));
    assert!(f.drawn_height.is_some() && f.wall_choice.is_some());

    // The forest: trees from the forest, none in the hole.
    let forest = by("for");
    assert!(forest.trees.len() > 5, "{}", forest.trees.len());
    assert!(forest.trees.iter().all(|t| t.forest_tree.is_some()));
    let frame = agkit::geom::LocalFrame::new([13.5, 47.5 + 4.0 * 0.0005]);
    for tr in &forest.trees {
        let [x, y] = frame.to_local([tr.lon, tr.lat]);
        let (hx, hy) = (
            0.5 * 0.0005 * 111_320.0 * 47.502f64.to_radians().cos(),
            0.5 * 0.0005 * 111_320.0,
        );
        assert!(
            !(x.abs() < hx * 0.98 && y.abs() < hy * 0.98),
            "tree in the hole at {x}, {y}"
        );
    }

    // Draped polygons: the hole kept, the heading; UV planes kept.
    let pol = &by("pol").draped;
    assert_eq!(pol[0].rings.len(), 2);
    assert_eq!(pol[0].heading, Some(30.0));
    assert_eq!(pol[0].texture.as_deref(), Some("apron.png"));
    assert_eq!(pol[0].scale, Some([25.0, 50.0]));
    let uv = &pol[1].uv.as_ref().unwrap()[0];
    assert_eq!(uv.len(), 4);
    assert!(
        uv.iter()
            .all(|q| (q[0] - 0.5).abs() < 1e-3 && (q[1] - 0.25).abs() < 1e-3),
        "{uv:?}"
    );
    assert_eq!(pol[1].heading, None);

    // Lines: one per winding, the .lin's width (32/1024 × 20 m).
    let lin = &by("lin").lines;
    assert_eq!(lin.len(), 2);
    assert!((lin[0].width.unwrap() - 0.625).abs() < 1e-9);

    // The string: kiosks every 10 m along 55.6 m, 1.5 m to the right
    // (east, walking north), heading north.
    let s = by("str");
    assert_eq!(s.lines.len(), 1);
    assert_eq!(s.objects.len(), 6);
    for (k, o) in s.objects.iter().enumerate() {
        assert!(
            (o.x - 1.5).abs() < 1e-6 && (o.y - 10.0 * k as f64).abs() < 1e-6,
            "{o:?}"
        );
        assert!(o.heading.abs() < 1e-6 || (o.heading - 360.0).abs() < 1e-6);
        assert_eq!(o.art, Some(ArtState::Found));
    }

    // The GIS rows: one per item, draped and lines in their layers.
    let rows = agkit::out::layers::rows(&t.placements, 0);
    let n = |layer: &str| rows.iter().filter(|r| r.layer().name == layer).count();
    assert_eq!((n("draped"), n("lines")), (2, 3));
    assert_eq!(n("uses") + n("use_points"), 0);
    let items: usize = t.placements.iter().map(|p| p.items()).sum();
    assert_eq!(rows.len(), items);
}

#[test]
fn without_art_every_row_is_still_placed() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let t = whole(&tile, false);
    let w = t.whole.as_ref().unwrap();
    for k in ["obj", "fac", "for", "pol", "lin", "str"] {
        assert_eq!(w.counts[k].placed, w.counts[k].in_dsf, "{k}");
    }
    // A string's objects need its .str: named, not counted as rows.
    assert!(w.not_drawn.iter().any(|n| n.definition == "lights.str"));
    assert!(
        t.placements
            .iter()
            .all(|p| p.objects.iter().all(|o| o.art.is_none()))
    );
}

#[test]
fn definitions_that_resolve_nowhere_are_placed_without_art_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    std::fs::remove_file(dir.path().join("kiosk.obj")).unwrap();
    std::fs::remove_file(dir.path().join("apron.pol")).unwrap();
    let t = whole(&tile, true);
    let w = t.whole.as_ref().unwrap();
    assert_eq!(w.unresolved.assets["kiosk.obj"].uses, 2);
    assert_eq!(w.unresolved.assets["apron.pol"].uses, 2);
    let obj = t
        .placements
        .iter()
        .find(|p| p.kind == PlacementKind::Obj)
        .unwrap();
    assert_eq!(obj.objects.len(), 2);
    assert!(obj.objects.iter().all(|o| o.art == Some(ArtState::Missing)));
    assert!(
        obj.warnings
            .iter()
            .any(|m| m.message().contains("kiosk.obj")),
        "{:?}",
        obj.warnings
    );
    let pol = t
        .placements
        .iter()
        .find(|p| p.kind == PlacementKind::Pol)
        .unwrap();
    assert!(pol.draped.iter().all(|d| d.art == Some(ArtState::Missing)));
}

#[test]
fn the_item_limit_stops_the_tile_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let scenery = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let mut params = Params {
        whole_tile: true,
        ..Params::default()
    };
    params.limits.max_placed_items = 4;
    let t = scenery.place_tile(&tile, &params).unwrap();
    let items: usize = t.placements.iter().map(|p| p.items()).sum();
    assert!(items <= 4, "{items}");
    let w = t.whole.as_ref().unwrap();
    assert!(
        w.not_drawn.iter().any(|n| n.why.contains("limit")),
        "{:?}",
        w.not_drawn
    );
    for (k, c) in &w.counts {
        assert_eq!(c.placed + c.not_drawn, c.in_dsf, "{k}");
    }
}

#[test]
fn the_cli_places_all_and_writes_json_and_geojson() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let out = dir.path().join("tile.geojson");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["place", "--dsf"])
        .arg(&tile)
        .arg("--all")
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("whole tile: 10 items in the DSF, 9 placed, 1 not drawn"),
        "{err}"
    );
    assert!(err.contains("sand.bch not drawn"), "{err}");
    let gj: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let layers: Vec<&str> = gj["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["properties"]["layer"].as_str().unwrap())
        .collect();
    assert!(layers.contains(&"draped") && layers.contains(&"lines") && layers.contains(&"trees"));
    // Without --all: the autogen only (none here), as before.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(["place", "--dsf"])
        .arg(&tile)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "[]");
}

/// Twice the signed area of a ring (positive counter-clockwise),
/// independent of agkit's geometry code.
fn shoelace(r: &[[f64; 2]]) -> f64 {
    (0..r.len())
        .map(|k| {
            let (a, b) = (r[k], r[(k + 1) % r.len()]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
}

/// The area of a mesh's triangles seen from above, counter-clockwise
/// positive (each triangle facing up adds its area).
fn mesh_area(m: &agkit::geom::Mesh) -> f64 {
    m.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| m.positions[i as usize]);
            ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
        })
        .sum()
}

/// The nodes of `kind` in a glTF document's JSON (their `extras.item`).
fn gltf_items(glb: &[u8], kind: &str) -> Vec<serde_json::Value> {
    assert_eq!(&glb[..4], b"glTF");
    let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&glb[20..20 + n]).unwrap();
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["extras"]["item"] == kind)
        .cloned()
        .collect()
}

/// The 3-D scene of a whole tile draws every draped polygon and painted
/// line once, each a node of its own: the polygon's triangles cover its
/// area less its hole, facing up just above the ground, its texture
/// mapped by its SCALE turned by its heading (or by its UV planes); a
/// straight line's strip is its length times the .lin's width. The
/// counts agree in the placement, the `whole` table, the scene and the
/// glTF, which is kept for the validator and Blender.
#[test]
fn draped_polygons_and_lines_are_drawn_in_the_3d_scene() {
    use agkit::scene::ItemKind;
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let t = whole(&tile, true);
    let w = t.whole.as_ref().unwrap();
    let scene = agkit::scene::build(&t.placements, &agkit::limits::Limits::default()).unwrap();
    let nodes = |k: ItemKind| -> Vec<&agkit::scene::Node> {
        scene.nodes.iter().filter(|n| n.item.kind == k).collect()
    };
    let in_json = |kind: &str, f: fn(&agkit::place::Placement) -> usize| -> usize {
        t.placements
            .iter()
            .filter(|p| p.kind.as_str() == kind)
            .map(f)
            .sum()
    };
    let (pols, lins) = (nodes(ItemKind::Draped), nodes(ItemKind::Line));
    assert_eq!(pols.len(), w.counts["pol"].placed);
    assert_eq!(pols.len(), in_json("pol", |p| p.draped.len()));
    assert_eq!(lins.len(), w.counts["lin"].placed);
    assert_eq!(lins.len(), in_json("lin", |p| p.lines.len()));
    assert_eq!((pols.len(), lins.len()), (2, 2));
    assert!(
        scene
            .warnings
            .iter()
            .all(|w| !w.contains("apron") && !w.contains("stripe")),
        "{:?}",
        scene.warnings
    );

    let pol = t
        .placements
        .iter()
        .find(|p| p.kind == PlacementKind::Pol)
        .unwrap();
    let mesh = |n: &agkit::scene::Node| &scene.meshes[n.mesh.unwrap()].parts[0].mesh;
    for n in &pols {
        let d = &pol.draped[n.item.index];
        let m = mesh(n);
        // Area: the outer ring less its holes.
        let want = d.rings[0..1].iter().map(|r| shoelace(r).abs()).sum::<f64>() / 2.0
            - d.rings[1..].iter().map(|r| shoelace(r).abs()).sum::<f64>() / 2.0;
        let got = mesh_area(m);
        assert!(((got - want) / want).abs() < 1e-6, "{got} against {want}");
        // Every triangle faces up (positive area each), just above 0.
        assert!(m.normals.iter().all(|q| *q == [0.0, 0.0, 1.0]));
        assert!(m.positions.iter().all(|q| q[2] > 0.0 && q[2] < 0.2));
    }
    // The first: SCALE 25 × 50 turned 30°: between any two points, s grows
    // by the metres along (cos 30°, −sin 30°) over 25, t along (sin 30°,
    // cos 30°) over 50.
    let m = mesh(pols.iter().find(|n| n.item.index == 0).unwrap());
    assert_eq!(pol.draped[0].heading, Some(30.0));
    let (sin, cos) = 30f64.to_radians().sin_cos();
    let (p0, st0) = (m.positions[0], m.uvs[0]);
    for (p, st) in m.positions.iter().zip(&m.uvs) {
        let (dx, dy) = (p[0] - p0[0], p[1] - p0[1]);
        let ds = (dx * cos - dy * sin) / 25.0;
        let dt = (dx * sin + dy * cos) / 50.0;
        assert!(
            (st[0] - st0[0] - ds).abs() < 1e-9 && (st[1] - st0[1] - dt).abs() < 1e-9,
            "{st:?}"
        );
    }
    assert_eq!(m.positions.len(), 8, "4 outer points and 4 of the hole");
    // The second: its UV planes at every point.
    let m = mesh(pols.iter().find(|n| n.item.index == 1).unwrap());
    let uv = &pol.draped[1].uv.as_ref().unwrap()[0];
    assert_eq!(m.uvs, *uv);

    // Lines: straight, so each strip is its length times 0.625 m.
    let lin = t
        .placements
        .iter()
        .find(|p| p.kind == PlacementKind::Lin)
        .unwrap();
    for n in &lins {
        let l = &lin.lines[n.item.index];
        let len = (l.points[1][0] - l.points[0][0]).hypot(l.points[1][1] - l.points[0][1]);
        let got = mesh_area(mesh(n));
        assert!(((got - len * 0.625) / (len * 0.625)).abs() < 1e-9, "{got}");
    }

    // The glTF: the same counts, textures embedded; kept for the validator
    // and Blender, with the counts beside it.
    let glb = agkit::out::gltf::to_glb(&t.placements).unwrap();
    assert_eq!(gltf_items(&glb, "draped").len(), 2);
    assert_eq!(gltf_items(&glb, "line").len(), 2);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("whole.glb"), &glb).unwrap();
    let objects: usize = t.placements.iter().map(|p| p.objects.len()).sum();
    let facades: usize = t.placements.iter().map(|p| p.facades.len()).sum();
    let counts = serde_json::json!({
        "placements": t.placements.len(),
        "objects": objects,
        "facades": facades,
        "tree_groups": t.placements.iter().filter(|p| !p.trees.is_empty()).count(),
        "draped": 2,
        "lines": 2,
    });
    std::fs::write(out.join("whole.counts.json"), counts.to_string()).unwrap();
}

/// The textured picture of the whole tile: the draped polygons filled
/// with their texture under everything else (one copy per repeat, cut to
/// the polygon with its hole), the lines as strokes of their width in
/// their texture's colour. A snapshot of its layers, images and shapes.
#[test]
fn the_textured_picture_draws_draped_polygons_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let tile = package(dir.path());
    let t = whole(&tile, true);
    let opts = agkit::out::RenderOptions {
        grouping: agkit::out::Grouping::Combined,
        ..agkit::out::RenderOptions::new(agkit::out::Format::Svg)
    };
    let r = agkit::out::render(&t.placements, &opts).unwrap();
    let svg = String::from_utf8(r.bytes).unwrap();
    // Kept to look at.
    let png = agkit::out::render(
        &t.placements,
        &agkit::out::RenderOptions {
            format: agkit::out::Format::Png,
            ..opts
        },
    )
    .unwrap();
    let keep = Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(keep.join("whole-textured.png"), png.bytes).unwrap();
    let mut lines = Vec::new();
    let mut layer = String::new();
    for line in svg.lines() {
        if let Some(rest) = line.strip_prefix("<g id=\"") {
            layer = rest[..rest.find('"').unwrap()].to_string();
            lines.push(format!("layer {layer}"));
        } else if line.starts_with("<defs><image") {
            let size: Vec<&str> = line.split('"').skip(3).step_by(2).take(2).collect();
            lines.push(format!("  image {}x{}", size[0], size[1]));
        } else if line.starts_with("<clipPath") {
            lines.push(format!("  clip of {} ring(s)", line.matches('M').count()));
        } else if layer == "draped" && line.starts_with("<path") {
            let at = line.find("fill=\"").unwrap() + 6;
            lines.push(format!("  filled {}", &line[at..at + 7]));
        } else if layer == "lines" && line.starts_with("<polyline") {
            let attr = |a: &str| {
                let at = line.find(&format!("{a}=\"")).unwrap() + a.len() + 2;
                line[at..at + line[at..].find('"').unwrap()].to_string()
            };
            lines.push(format!(
                "  line {} wide {}",
                attr("stroke"),
                attr("stroke-width")
            ));
        }
    }
    // Drawn under everything else: the first two layers of the map (after
    // the title's).
    let layers: Vec<&String> = lines.iter().filter(|l| l.starts_with("layer ")).collect();
    assert_eq!(
        layers[..3],
        ["layer title", "layer draped", "layer lines"],
        "{lines:#?}"
    );
    let draped = svg.find("<g id=\"draped\"").unwrap();
    let end = draped + svg[draped..].find("</g>\n<g id=").unwrap();
    // The polygon with a hole: its copies cut to two rings.
    assert!(svg[draped..end].contains("clip-rule=\"evenodd\""));
    // Runs of the same line (a polygon's copies) counted.
    let mut runs: Vec<(String, usize)> = Vec::new();
    for l in lines {
        match runs.last_mut() {
            Some((last, n)) if *last == l => *n += 1,
            _ => runs.push((l, 1)),
        }
    }
    let text: Vec<String> = runs
        .into_iter()
        .map(|(l, n)| if n > 1 { format!("{l} ×{n}") } else { l })
        .collect();
    insta::assert_snapshot!(text.join("\n"));
}
