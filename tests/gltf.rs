//! 3-D scenes (glTF 2.0): the GLB container, a document whose every part
//! holds together (meshes used, accessors inside their views, POSITION
//! bounds true, indices inside their vertices), one mesh per distinct OBJ
//! shared by its instances, one instance per placed object, at the
//! placement's own footprint, the origin in the scene's `extras`, and the
//! limits.
//!
//! The scenes written here are kept in `<target>/tmp/gltf-out/`, where
//! `.ci/run` has the Khronos glTF validator check them
//! (`node e2e/validate-gltf.mjs`).

use agkit::limits::Limits;
use agkit::out::OutError;
use agkit::out::gltf::{Container, write_scene};
use agkit::place::file::AssetFile;
use agkit::place::{self, Params, Placement, Use};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::{Conditions, Tile};
use assert_cmd::Command;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Where the scenes written are kept for the validator.
fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-out");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(ROOT).join(rel)
}

/// The village fixture (art beside it: a house OBJ, a missing shed, a
/// library-path tower, a facade, a forest) placed with its art.
fn village(heading: f64) -> Placement {
    let path = fixture("tests/fixtures/placeart/village.agp");
    let file = AssetFile::read(&path);
    let asset = file.asset.as_ref().expect("the fixture reads");
    let at = [13.0, 47.0];
    let scenery = Scenery::without_libraries(Conditions::default());
    let params = Params {
        art: Some(scenery.asset_art(&path, asset, Some(Tile::of(at[0], at[1])))),
        ..Params::default()
    };
    place::place(asset, "village.agp", &Use::Point { at, heading }, &params).unwrap()
}

/// The JSON and binary chunks of a GLB, its header and chunks checked.
fn chunks(glb: &[u8]) -> (Value, Vec<u8>) {
    assert_eq!(&glb[0..4], b"glTF", "magic");
    let u32_at = |i: usize| u32::from_le_bytes(glb[i..i + 4].try_into().unwrap()) as usize;
    assert_eq!(u32_at(4), 2, "version");
    assert_eq!(u32_at(8), glb.len(), "length");
    let json_len = u32_at(12);
    assert_eq!(&glb[16..20], b"JSON");
    assert_eq!(json_len % 4, 0, "the JSON chunk is padded to 4 bytes");
    let json: Value = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let mut bin = Vec::new();
    let at = 20 + json_len;
    if at < glb.len() {
        let bin_len = u32_at(at);
        assert_eq!(&glb[at + 4..at + 8], b"BIN\0");
        assert_eq!(at + 8 + bin_len, glb.len());
        bin = glb[at + 8..].to_vec();
    }
    (json, bin)
}

/// The floats or u32s an accessor reads.
fn read_accessor(doc: &Value, bin: &[u8], i: usize) -> Vec<Vec<f64>> {
    let a = &doc["accessors"][i];
    let view = &doc["bufferViews"][a["bufferView"].as_u64().unwrap() as usize];
    let n = a["count"].as_u64().unwrap() as usize;
    let width = match a["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        t => panic!("type {t}"),
    };
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let len = view["byteLength"].as_u64().unwrap() as usize;
    assert!(start + len <= bin.len(), "view inside the buffer");
    assert_eq!(n * width * 4, len, "accessor fills its view");
    assert_eq!(start % 4, 0, "view aligned");
    let word = |k: usize| -> [u8; 4] { bin[start + 4 * k..start + 4 * k + 4].try_into().unwrap() };
    (0..n)
        .map(|e| {
            (0..width)
                .map(|c| match a["componentType"].as_u64().unwrap() {
                    5126 => f64::from(f32::from_le_bytes(word(e * width + c))),
                    5125 => f64::from(u32::from_le_bytes(word(e * width + c))),
                    t => panic!("component {t}"),
                })
                .collect()
        })
        .collect()
}

/// Checks what the validator checks of structure, and more: every mesh
/// used by a node, every accessor inside its view, POSITION min/max the
/// data's, indices inside the vertices, unit normals, materials and
/// textures that exist. Returns the triangles held.
fn check_structure(doc: &Value, bin: &[u8]) -> usize {
    let empty = vec![];
    let arr = |k: &str| doc[k].as_array().unwrap_or(&empty).clone();
    let meshes = arr("meshes");
    let nodes = arr("nodes");
    let used: BTreeSet<u64> = nodes.iter().filter_map(|n| n["mesh"].as_u64()).collect();
    assert_eq!(used.len(), meshes.len(), "every mesh is used by a node");
    for n in &nodes {
        for c in n["children"].as_array().unwrap_or(&empty) {
            assert!((c.as_u64().unwrap() as usize) < nodes.len());
        }
        if let Some(r) = n["rotation"].as_array() {
            let l: f64 = r.iter().map(|v| v.as_f64().unwrap().powi(2)).sum();
            assert!((l - 1.0).abs() < 1e-5, "unit quaternion");
        }
    }
    if !bin.is_empty() {
        assert_eq!(
            doc["buffers"][0]["byteLength"].as_u64().unwrap() as usize,
            bin.len()
        );
    }
    let mut triangles = 0;
    for m in &meshes {
        for p in m["primitives"].as_array().unwrap() {
            let pos = read_accessor(
                doc,
                bin,
                p["attributes"]["POSITION"].as_u64().unwrap() as usize,
            );
            let nrm = read_accessor(
                doc,
                bin,
                p["attributes"]["NORMAL"].as_u64().unwrap() as usize,
            );
            let uv = read_accessor(
                doc,
                bin,
                p["attributes"]["TEXCOORD_0"].as_u64().unwrap() as usize,
            );
            assert_eq!((pos.len(), uv.len()), (nrm.len(), nrm.len()));
            for n in &nrm {
                let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                assert!((l - 1.0).abs() < 1e-4, "unit normal {n:?}");
            }
            let a = &doc["accessors"][p["attributes"]["POSITION"].as_u64().unwrap() as usize];
            for k in 0..3 {
                let lo = pos.iter().map(|v| v[k]).fold(f64::INFINITY, f64::min);
                let hi = pos.iter().map(|v| v[k]).fold(f64::NEG_INFINITY, f64::max);
                // Written as the shortest text of the f32, read as f32.
                assert_eq!(
                    a["min"][k].as_f64().unwrap() as f32,
                    lo as f32,
                    "POSITION min"
                );
                assert_eq!(
                    a["max"][k].as_f64().unwrap() as f32,
                    hi as f32,
                    "POSITION max"
                );
            }
            let idx = read_accessor(doc, bin, p["indices"].as_u64().unwrap() as usize);
            assert_eq!(idx.len() % 3, 0);
            assert!(
                idx.iter().all(|i| (i[0] as usize) < pos.len()),
                "indices inside the vertices"
            );
            triangles += idx.len() / 3;
            let mat = &doc["materials"][p["material"].as_u64().unwrap() as usize];
            assert!(mat.is_object(), "the material exists");
            if let Some(t) = mat["pbrMetallicRoughness"]["baseColorTexture"]["index"].as_u64() {
                let src = doc["textures"][t as usize]["source"].as_u64().unwrap() as usize;
                let img = &doc["images"][src];
                assert_eq!(img["mimeType"], "image/png");
                let v = &doc["bufferViews"][img["bufferView"].as_u64().unwrap() as usize];
                let at = v["byteOffset"].as_u64().unwrap() as usize;
                assert_eq!(&bin[at..at + 8], b"\x89PNG\r\n\x1a\n", "an embedded PNG");
            }
        }
    }
    triangles
}

/// The object instances: nodes whose extras carry a heading, by name.
fn object_nodes(doc: &Value) -> Vec<&Value> {
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["extras"]["heading"].is_number())
        .collect()
}

#[test]
fn village_scene_holds_together_and_shares_one_mesh_per_obj() {
    let p = village(30.0);
    let written =
        write_scene(std::slice::from_ref(&p), Container::Glb, &Limits::default()).unwrap();
    std::fs::write(out_dir().join("village.glb"), &written.bytes).unwrap();
    let (doc, bin) = chunks(&written.bytes);
    assert!(check_structure(&doc, &bin) > 0);
    // One instance per placed object; one mesh per distinct OBJ (the
    // house read; the missing shed and the unchecked tower as boxes).
    let objs = object_nodes(&doc);
    assert_eq!(objs.len(), p.objects.len());
    let mut by_asset: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for n in &objs {
        by_asset
            .entry(n["extras"]["asset"].as_str().unwrap())
            .or_default()
            .insert(n["mesh"].as_u64().unwrap());
    }
    let assets: BTreeSet<&str> = p.objects.iter().map(|o| o.asset.as_str()).collect();
    assert_eq!(by_asset.keys().copied().collect::<BTreeSet<_>>(), assets);
    assert!(by_asset.values().all(|m| m.len() == 1), "{by_asset:?}");
    let meshes: BTreeSet<u64> = by_asset.values().flatten().copied().collect();
    assert_eq!(
        meshes.len(),
        assets.len(),
        "distinct OBJs have distinct meshes"
    );
    // What is missing is named so.
    let shed = doc["meshes"][*by_asset["shed.obj"].iter().next().unwrap() as usize]["name"]
        .as_str()
        .unwrap();
    assert!(shed.starts_with("missing object"), "{shed}");
    let house = doc["meshes"][*by_asset["house.obj"].iter().next().unwrap() as usize]["name"]
        .as_str()
        .unwrap();
    assert_eq!(house, "house.obj");
    // The origin and its lon/lat in the scene's extras.
    let extras = &doc["scenes"][0]["extras"];
    assert_eq!(extras["origin"]["lon"].as_f64().unwrap(), p.origin[0]);
    assert_eq!(extras["origin"]["lat"].as_f64().unwrap(), p.origin[1]);
    // The fixture's 2 × 2 texture is embedded once, though the ground,
    // the house, the facade and the trees all use it.
    assert_eq!(doc["images"].as_array().unwrap().len(), 1);
    assert!(written.warnings.is_empty(), "{:?}", written.warnings);
}

/// The house mesh's vertices, turned and moved as its nodes say, stand
/// on the footprint the placement gives each house (the frames agree:
/// east +x, north −z, heading clockwise).
#[test]
fn object_instances_stand_on_their_placed_footprints() {
    for heading in [0.0, 30.0, 90.0, 200.0] {
        let p = village(heading);
        let glb = agkit::out::gltf::to_glb(std::slice::from_ref(&p)).unwrap();
        let (doc, bin) = chunks(&glb);
        let houses: Vec<_> = object_nodes(&doc)
            .into_iter()
            .filter(|n| n["extras"]["asset"] == "house.obj")
            .collect();
        let placed: Vec<_> = p
            .objects
            .iter()
            .filter(|o| o.asset == "house.obj")
            .collect();
        assert_eq!(houses.len(), placed.len());
        for (n, o) in houses.iter().zip(&placed) {
            let mesh = &doc["meshes"][n["mesh"].as_u64().unwrap() as usize];
            let pos = read_accessor(
                &doc,
                &bin,
                mesh["primitives"][0]["attributes"]["POSITION"]
                    .as_u64()
                    .unwrap() as usize,
            );
            let t: Vec<f64> = n["translation"].as_array().map_or(vec![0.0; 3], |t| {
                t.iter().map(|v| v.as_f64().unwrap()).collect()
            });
            let q: Vec<f64> = n["rotation"]
                .as_array()
                .map_or(vec![0.0, 0.0, 0.0, 1.0], |r| {
                    r.iter().map(|v| v.as_f64().unwrap()).collect()
                });
            // Rotation about y by the quaternion's angle.
            let angle = 2.0 * q[1].atan2(q[3]);
            let (s, c) = angle.sin_cos();
            // (the placement node is at the scene origin: one placement)
            let world: Vec<[f64; 2]> = pos
                .iter()
                .map(|v| {
                    let x = c * v[0] + s * v[2] + t[0];
                    let z = -s * v[0] + c * v[2] + t[2];
                    [x, -z]
                })
                .collect();
            for f in &o.footprint {
                let near = world
                    .iter()
                    .map(|w| (w[0] - f[0]).hypot(w[1] - f[1]))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    near < 1e-3,
                    "heading {heading}: footprint point {f:?} is {near} m from the mesh"
                );
            }
        }
    }
}

#[test]
fn scenes_past_the_limits_are_refused_or_plain() {
    let p = village(0.0);
    let tight = Limits {
        max_scene_triangles: 10,
        ..Limits::default()
    };
    let e = write_scene(std::slice::from_ref(&p), Container::Glb, &tight).unwrap_err();
    assert!(matches!(e, OutError::Scene(_)), "{e}");
    assert!(e.to_string().contains("triangles"), "{e}");
    let no_textures = Limits {
        max_scene_texture_bytes: 0,
        ..Limits::default()
    };
    let w = write_scene(std::slice::from_ref(&p), Container::Glb, &no_textures).unwrap();
    let (doc, bin) = chunks(&w.bytes);
    check_structure(&doc, &bin);
    assert!(doc["images"].is_null());
    assert!(
        w.warnings.iter().any(|m| m.contains("plain colour")),
        "{:?}",
        w.warnings
    );
}

#[test]
fn gltf_json_embeds_its_buffer_as_a_data_uri() {
    let p = village(45.0);
    let w = write_scene(
        std::slice::from_ref(&p),
        Container::Gltf,
        &Limits::default(),
    )
    .unwrap();
    std::fs::write(out_dir().join("village.gltf"), &w.bytes).unwrap();
    let doc: Value = serde_json::from_slice(&w.bytes).unwrap();
    let uri = doc["buffers"][0]["uri"].as_str().unwrap();
    let b64 = uri
        .strip_prefix("data:application/octet-stream;base64,")
        .unwrap();
    use base64::Engine as _;
    let bin = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    check_structure(&doc, &bin);
    // The same scene as the GLB's.
    let glb = write_scene(std::slice::from_ref(&p), Container::Glb, &Limits::default()).unwrap();
    let (gdoc, gbin) = chunks(&glb.bytes);
    assert_eq!(gbin, bin);
    assert_eq!(gdoc["nodes"], doc["nodes"]);
}

/// `place --dsf … -o demo.glb`: the README's demo tile, its three uses
/// each under a node of their own, the scene's origin the first use's.
#[test]
fn place_writes_glb_and_gltf_by_extension_and_format() {
    let out = out_dir();
    let demo = out.join("demo.glb");
    let run = |args: &[&str]| {
        let o = Command::cargo_bin("agkit")
            .unwrap()
            .current_dir(ROOT)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    let dsf = [
        "place",
        "--dsf",
        "examples/dsf/autogen_demo.dsf",
        "--scenery",
        "examples",
    ];
    run(&[&dsf[..], &["-o", demo.to_str().unwrap()]].concat());
    let json: Value =
        serde_json::from_slice(&run(&[&dsf[..], &["--format", "json"]].concat())).unwrap();
    let placements = json.as_array().unwrap();
    let (doc, bin) = chunks(&std::fs::read(&demo).unwrap());
    check_structure(&doc, &bin);
    assert_eq!(
        doc["scenes"][0]["nodes"].as_array().unwrap().len(),
        placements.len()
    );
    assert_eq!(
        doc["scenes"][0]["extras"]["origin"]["lon"],
        placements[0]["origin"][0]
    );
    assert_eq!(
        doc["scenes"][0]["extras"]["origin"]["lat"],
        placements[0]["origin"][1]
    );
    let objects: usize = placements
        .iter()
        .map(|p| p["objects"].as_array().unwrap().len())
        .sum();
    assert_eq!(object_nodes(&doc).len(), objects);
    // `--format gltf` to standard output is the JSON form.
    let text = run(&[&dsf[..], &["--format", "gltf"]].concat());
    let gdoc: Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(gdoc["asset"]["version"], "2.0");
    std::fs::write(out.join("demo.gltf"), &text).unwrap();
    // One asset at a point, by extension.
    let plaza = out.join("plaza.glb");
    run(&[
        "place",
        "examples/point/plaza.agp",
        "--at",
        "47.0,13.0,20",
        "-o",
        plaza.to_str().unwrap(),
    ]);
    let (doc, bin) = chunks(&std::fs::read(&plaza).unwrap());
    check_structure(&doc, &bin);
}

mod random {
    use super::*;
    use agkit::place::{PlacedFacade, PlacedObject, PlacedTile, PlacedTree, Role, TileId};
    use proptest::prelude::*;

    /// A placement without art: tiles of 3 to 8 points (any shape, even
    /// self-crossing or degenerate), objects, facades and trees anywhere.
    fn placement() -> impl Strategy<Value = Placement> {
        let xy = || (-500.0..500.0f64, -500.0..500.0f64).prop_map(|(x, y)| [x, y]);
        let ring = move |n: std::ops::Range<usize>| prop::collection::vec(xy(), n);
        (
            prop::collection::vec((ring(3..8), 0..300usize, any::<bool>()), 0..6),
            prop::collection::vec((xy(), 0.0..360.0f64, 0..3i64, -5.0..20.0f64), 0..20),
            prop::collection::vec((ring(2..7), 0.0..40.0f64), 0..4),
            prop::collection::vec((xy(), 0.0..30.0f64, prop::option::of(0.0..40.0f64)), 0..30),
        )
            .prop_map(|(tiles, objects, facades, trees)| Placement {
                kind: "agb".into(),
                asset: "random.agb".into(),
                origin: [13.0, 47.0],
                tiles: tiles
                    .into_iter()
                    .enumerate()
                    .map(|(i, (polygon, order, hidden))| PlacedTile {
                        id: TileId::Num(i as i64),
                        uv: polygon
                            .iter()
                            .map(|p| [p[0] + 500.0, p[1] + 500.0])
                            .collect(),
                        polygon,
                        lonlat: vec![],
                        order,
                        hidden,
                        role: Role::Grid,
                        unit: 0,
                        source_line: 1,
                        stop_points: vec![],
                        ground_point: None,
                    })
                    .collect(),
                objects: objects
                    .into_iter()
                    .map(|([x, y], heading, index, height)| PlacedObject {
                        asset: format!("o{index}.obj"),
                        index,
                        x,
                        y,
                        heading,
                        height,
                        ..PlacedObject::default()
                    })
                    .collect(),
                facades: facades
                    .into_iter()
                    .map(|(polygon, height)| PlacedFacade {
                        asset: "f.fac".into(),
                        polygon,
                        height,
                        ..PlacedFacade::default()
                    })
                    .collect(),
                trees: trees
                    .into_iter()
                    .map(|([x, y], width, height)| PlacedTree {
                        x,
                        y,
                        width,
                        height,
                        ..PlacedTree::default()
                    })
                    .collect(),
                ..Placement::default()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever is placed, the scene holds together: one object node
        /// per object, one mesh per distinct object path, every mesh used,
        /// accessors and bounds right; the .gltf form holds the same.
        #[test]
        fn any_placement_makes_a_well_formed_scene(p in placement()) {
            let w = write_scene(std::slice::from_ref(&p), Container::Glb, &Limits::default()).unwrap();
            let (doc, bin) = chunks(&w.bytes);
            check_structure(&doc, &bin);
            let objs = object_nodes(&doc);
            prop_assert_eq!(objs.len(), p.objects.len());
            let meshes: BTreeSet<u64> = objs.iter().map(|n| n["mesh"].as_u64().unwrap()).collect();
            let assets: BTreeSet<&str> = p.objects.iter().map(|o| o.asset.as_str()).collect();
            prop_assert_eq!(meshes.len(), assets.len());
            let g = write_scene(std::slice::from_ref(&p), Container::Gltf, &Limits::default()).unwrap();
            let gdoc: Value = serde_json::from_slice(&g.bytes).unwrap();
            prop_assert_eq!(&gdoc["nodes"], &doc["nodes"]);
        }
    }
}
