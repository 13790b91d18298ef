//! 3-D scenes (glTF 2.0): the GLB container, a document whose every part
//! holds together (meshes used, accessors inside their views, POSITION
//! bounds true, indices inside their vertices), one mesh per distinct OBJ
//! shared by its instances, one instance per placed object, at the
//! placement's own footprint, the origin in the scene's `extras`, and the
//! limits.
//!
//! Every triangle written faces the way its normals do (glTF winds fronts
//! counter-clockwise; OBJ8 winds them the other way), boxes are closed,
//! names are unique and say what they are, and nothing that is not a
//! finite number is written.
//!
//! The scenes written here are kept in `<target>/tmp/gltf-out/`, each
//! with a `NAME.counts.json` of what its placements hold, where `.ci/run`
//! has the Khronos glTF validator (`node e2e/validate-gltf.mjs`) and
//! Blender with trimesh (`e2e/blender_check.py`) check them.

use agkit::check::asset::AssetFile;
use agkit::limits::Limits;
use agkit::out::OutError;
use agkit::out::gltf::{Container, write_scene};
use agkit::place::{self, Params, Placement, PlacementKind, Use};
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

/// Writes a scene for the validator and Blender, with the counts of
/// what its placements hold beside it (`NAME.counts.json`).
fn keep(name: &str, bytes: &[u8], ps: &[Value]) {
    let d = out_dir();
    std::fs::write(d.join(name), bytes).unwrap();
    let n = |k: &str| -> usize { ps.iter().map(|p| p[k].as_array().map_or(0, Vec::len)).sum() };
    let counts = serde_json::json!({
        "placements": ps.len(),
        "objects": n("objects"),
        "facades": n("facades"),
        "tree_groups": ps.iter().filter(|p| p["trees"].as_array().is_some_and(|t| !t.is_empty())).count(),
    });
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    std::fs::write(
        d.join(format!("{stem}.counts.json")),
        serde_json::to_vec_pretty(&counts).unwrap(),
    )
    .unwrap();
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
            assert!(
                pos.iter()
                    .chain(&nrm)
                    .chain(&uv)
                    .flatten()
                    .all(|v| v.is_finite()),
                "finite values only"
            );
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
            let name = m["name"].as_str().unwrap_or("?");
            for t in idx.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| t[k][0] as usize);
                let face = face_normal(&pos[a], &pos[b], &pos[c])
                    .unwrap_or_else(|| panic!("mesh {name}: a triangle without area"));
                for v in [a, b, c] {
                    let d: f64 = (0..3).map(|k| face[k] * nrm[v][k]).sum();
                    assert!(
                        d > 0.0,
                        "mesh {name}: triangle {t:?} faces {face:?}, its vertex {v} normal {:?}",
                        nrm[v]
                    );
                }
            }
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

/// The unit normal of triangle `a b c` where it runs counter-clockwise
/// (glTF's front), `None` when it has no area.
fn face_normal(a: &[f64], b: &[f64], c: &[f64]) -> Option<[f64; 3]> {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    (l > 0.0).then(|| n.map(|x| x / l))
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
    keep(
        "village.glb",
        &written.bytes,
        &[serde_json::to_value(&p).unwrap()],
    );
    let (doc, bin) = chunks(&written.bytes);
    assert!(check_structure(&doc, &bin) > 0);
    // One instance per placed object; one mesh per distinct OBJ (the
    // house read; the missing shed and the unchecked tower as boxes).
    let objs = object_nodes(&doc);
    assert_eq!(objs.len(), p.objects.len());
    let mut by_asset: BTreeMap<&str, BTreeSet<u64>> = BTreeMap::new();
    for n in &objs {
        by_asset
            .entry(n["extras"]["art"].as_str().unwrap())
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
    assert_eq!(shed, "missing shed.obj");
    let house = doc["meshes"][*by_asset["house.obj"].iter().next().unwrap() as usize]["name"]
        .as_str()
        .unwrap();
    assert!(house.ends_with("house.obj"), "{house}");
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
            .filter(|n| n["extras"]["art"] == "house.obj")
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
    keep(
        "village.gltf",
        &w.bytes,
        &[serde_json::to_value(&p).unwrap()],
    );
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
    let demo_bytes = std::fs::read(&demo).unwrap();
    keep("demo.glb", &demo_bytes, placements);
    let (doc, bin) = chunks(&demo_bytes);
    check_structure(&doc, &bin);
    artist_friendly(&doc, placements);
    // Two different files both called corner_house.obj (the block's and
    // the string's) stay two meshes, each named by its path.
    let names: BTreeSet<&str> = doc["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["name"].as_str())
        .filter(|n| n.ends_with("corner_house.obj"))
        .collect();
    assert_eq!(
        names,
        BTreeSet::from(["block/corner_house.obj", "string/corner_house.obj"])
    );
    // The block's OBJ_SCRAPER (city_block.agb line 49: min 0, max 30, step
    // 3) on a block of DSF height 12 m (parameter 768 = 3 << 8, height / 4
    // in the upper byte): raised every 3 m past 0, at most 30 − 0, so
    // 12 m, on top of the 7 m facade below it (docs/gltf.md).
    let block = placements.iter().find(|p| p["kind"] == "agb").unwrap();
    let scrapers: Vec<&Value> = block["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["mode"] == "scraper")
        .collect();
    assert!(!scrapers.is_empty());
    let raise = |h: f64, min: f64, max: f64, step: f64| {
        (((h - min) / step).floor() * step).clamp(0.0, max - min)
    };
    for o in &scrapers {
        assert_eq!(o["source_line"], 49);
        assert_eq!(o["height"].as_f64().unwrap(), raise(12.0, 0.0, 30.0, 3.0));
        let node = doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| {
                n["extras"]["item"] == "object"
                    && n["extras"]["asset"] == block["asset"]
                    && n["extras"]["source_line"] == 49
            })
            .unwrap();
        assert_eq!(node["translation"][1].as_f64().unwrap(), 12.0);
    }
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
    keep("demo.gltf", &text, placements);
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
    let plaza_bytes = std::fs::read(&plaza).unwrap();
    let (doc, bin) = chunks(&plaza_bytes);
    check_structure(&doc, &bin);
    std::fs::remove_file(&plaza).unwrap();
    let pj: Value = serde_json::from_slice(&run(&[
        "place",
        "examples/point/plaza.agp",
        "--at",
        "47.0,13.0,20",
        "--format",
        "json",
    ]))
    .unwrap();
    let pj = pj.as_array().cloned().unwrap_or_else(|| vec![pj.clone()]);
    keep("plaza.glb", &plaza_bytes, &pj);
    artist_friendly(&doc, &pj);
}

/// What a 3-D artist needs of a scene: node, mesh, material and image
/// names unique (Blender renames clashes `.001`) and no longer than
/// Blender keeps; one node per placement, object, facade and tree group,
/// each with extras naming the asset file, the line that placed it (the
/// ground and the trees: the lines), its height and its art.
fn artist_friendly(doc: &Value, placements: &[Value]) {
    for kind in ["nodes", "meshes", "materials", "images"] {
        let names: Vec<&str> = doc[kind]
            .as_array()
            .map(|a| a.iter().map(|x| x["name"].as_str().unwrap()).collect())
            .unwrap_or_default();
        let set: BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(set.len(), names.len(), "{kind} names unique: {names:?}");
        assert!(names.iter().all(|n| n.len() <= 63), "{names:?}");
    }
    let nodes = doc["nodes"].as_array().unwrap();
    let of = |item: &str| -> Vec<&Value> {
        nodes
            .iter()
            .filter(|n| n["extras"]["item"] == item)
            .collect()
    };
    let count = |k: &str| -> usize {
        placements
            .iter()
            .map(|p| p[k].as_array().map_or(0, Vec::len))
            .sum()
    };
    assert_eq!(of("placement").len(), placements.len());
    assert_eq!(of("object").len(), count("objects"));
    assert_eq!(of("facade").len(), count("facades"));
    let with_trees = placements
        .iter()
        .filter(|p| p["trees"].as_array().is_some_and(|t| !t.is_empty()))
        .count();
    assert_eq!(of("trees").len(), with_trees);
    for n in nodes {
        let e = &n["extras"];
        assert!(e["asset"].is_string(), "{n}");
        match e["item"].as_str().unwrap() {
            "object" | "facade" => {
                assert!(e["source_line"].as_u64().unwrap() > 0, "{n}");
                assert!(e["art"].is_string(), "{n}");
                assert!(e.get("height").is_some(), "{n}");
            }
            "ground" | "trees" => {
                assert!(e["source_lines"].is_array(), "{n}");
                assert!(e["height"].is_number(), "{n}");
            }
            "placement" => {}
            other => panic!("node of item {other}"),
        }
    }
    // Each facade is a node of its own, at its source line, as tall as
    // the placement draws it.
    let mut placed: Vec<(String, u64)> = placements
        .iter()
        .flat_map(|p| p["facades"].as_array().unwrap())
        .map(|f| {
            (
                f["asset"].as_str().unwrap().to_string(),
                f["source_line"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut drawn: Vec<(String, u64)> = of("facade")
        .iter()
        .map(|n| {
            (
                n["extras"]["art"].as_str().unwrap().to_string(),
                n["extras"]["source_line"].as_u64().unwrap(),
            )
        })
        .collect();
    placed.sort();
    drawn.sort();
    assert_eq!(placed, drawn);
}

/// Regression (issue 33): OBJ8 winds a triangle's front clockwise, glTF
/// counter-clockwise, and the OBJ's triangles were written in its own
/// order, so 93–100 % of every OBJ mesh's corners had a normal against
/// their face and Blender's Cycles drew every object black. Each
/// triangle is now written reversed, so its normals agree with it
/// (checked in `check_structure`).
#[test]
fn obj_triangles_are_reversed_to_gltf_winding() {
    let p = village(0.0);
    let glb = agkit::out::gltf::to_glb(std::slice::from_ref(&p)).unwrap();
    let (doc, bin) = chunks(&glb);
    check_structure(&doc, &bin);
    let house = doc["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"].as_str().unwrap().ends_with("house.obj"))
        .unwrap();
    let prim = &house["primitives"][0];
    let pos = read_accessor(
        &doc,
        &bin,
        prim["attributes"]["POSITION"].as_u64().unwrap() as usize,
    );
    let idx = read_accessor(&doc, &bin, prim["indices"].as_u64().unwrap() as usize);
    let path = fixture("tests/fixtures/placeart/house.obj");
    let obj = agkit::obj::read(
        &std::fs::read(&path).unwrap(),
        "house.obj",
        &Limits::default(),
    )
    .unwrap();
    let tris: Vec<[usize; 3]> = obj.triangles(agkit::obj::Select::Static).collect();
    let used: BTreeSet<usize> = tris.iter().flatten().copied().collect();
    assert!(pos.len() >= used.len());
    assert_eq!(idx.len(), tris.len() * 3);
    // Each written triangle is the OBJ's, its last two corners swapped.
    for (t, o) in idx.chunks_exact(3).zip(&tris) {
        let at = |k: usize| pos[t[k][0] as usize].clone();
        let v = |i: usize| obj.vertices[i].position.map(|x| x as f32 as f64).to_vec();
        assert_eq!([at(0), at(1), at(2)], [v(o[0]), v(o[2]), v(o[1])]);
    }
}

/// Regression (issue 33): the red box of a missing OBJ had no west wall
/// (its ring was not closed). It is closed now: every edge is shared by
/// exactly two triangles that run it in opposite directions (so the
/// fronts agree), and its volume is positive (the fronts face out).
#[test]
fn missing_object_box_is_closed_and_faces_out() {
    let p = village(0.0);
    let glb = agkit::out::gltf::to_glb(std::slice::from_ref(&p)).unwrap();
    let (doc, bin) = chunks(&glb);
    let mesh = doc["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "missing shed.obj")
        .unwrap();
    let prim = &mesh["primitives"][0];
    let pos = read_accessor(
        &doc,
        &bin,
        prim["attributes"]["POSITION"].as_u64().unwrap() as usize,
    );
    let idx = read_accessor(&doc, &bin, prim["indices"].as_u64().unwrap() as usize);
    // Vertices at one place are one corner.
    let key = |v: &Vec<f64>| {
        v.iter()
            .map(|x| (x * 1e4).round() as i64)
            .collect::<Vec<_>>()
    };
    let mut edges: BTreeMap<(Vec<i64>, Vec<i64>), usize> = BTreeMap::new();
    let mut volume = 0.0;
    for t in idx.chunks_exact(3) {
        let c: Vec<&Vec<f64>> = t.iter().map(|i| &pos[i[0] as usize]).collect();
        for k in 0..3 {
            *edges.entry((key(c[k]), key(c[(k + 1) % 3]))).or_default() += 1;
        }
        let (a, b, d) = (c[0], c[1], c[2]);
        volume += (a[0] * (b[1] * d[2] - b[2] * d[1]) - a[1] * (b[0] * d[2] - b[2] * d[0])
            + a[2] * (b[0] * d[1] - b[1] * d[0]))
            / 6.0;
    }
    for ((a, b), n) in &edges {
        assert_eq!(*n, 1, "edge {a:?} → {b:?} run {n} times");
        assert_eq!(
            edges.get(&(b.clone(), a.clone())),
            Some(&1),
            "edge {a:?} → {b:?} has no twin: the box is open"
        );
    }
    assert_eq!(idx.len() / 3, 12, "six sides of two triangles");
    assert!(
        (volume - 8.0).abs() < 1e-3,
        "a 2 m box facing out: {volume}"
    );
}

/// The last guard: an item whose values would not be finite as `f32`
/// (here past `f32::MAX`, or NaN) is left out with a warning; the file
/// holds no NaN, no infinity and no null bound.
#[test]
fn items_that_would_not_be_finite_are_left_out() {
    use agkit::place::{PlacedFacade, PlacedObject, PlacedTile, PlacedTree, Role, TileId};
    let huge = 1e39;
    let tile = |polygon: Vec<[f64; 2]>| PlacedTile {
        id: TileId::Num(0),
        uv: polygon.clone(),
        polygon,
        lonlat: vec![],
        order: 0,
        hidden: false,
        role: Role::Grid,
        unit: 0,
        source_line: 3,
        stop_points: vec![],
        ground_point: None,
        z: None,
    };
    let square = |x: f64| vec![[x, 0.0], [x + 10.0, 0.0], [x + 10.0, 10.0], [x, 10.0]];
    let p = Placement {
        kind: PlacementKind::Agb,
        asset: "far.agb".into(),
        origin: [13.0, 47.0],
        tiles: vec![tile(square(0.0)), tile(square(huge))],
        objects: vec![
            PlacedObject {
                asset: "a.obj".into(),
                x: 5.0,
                source_line: 4,
                ..PlacedObject::default()
            },
            PlacedObject {
                asset: "a.obj".into(),
                x: huge,
                source_line: 5,
                ..PlacedObject::default()
            },
            PlacedObject {
                asset: "a.obj".into(),
                height: f64::NAN,
                source_line: 6,
                ..PlacedObject::default()
            },
        ],
        facades: vec![
            PlacedFacade {
                asset: "f.fac".into(),
                polygon: square(0.0),
                height: 5.0,
                source_line: 7,
                ..PlacedFacade::default()
            },
            PlacedFacade {
                asset: "f.fac".into(),
                polygon: square(-huge),
                height: 5.0,
                source_line: 8,
                ..PlacedFacade::default()
            },
        ],
        trees: vec![
            PlacedTree {
                x: 1.0,
                width: 4.0,
                ..PlacedTree::default()
            },
            PlacedTree {
                y: huge,
                width: 4.0,
                ..PlacedTree::default()
            },
        ],
        ..Placement::default()
    };
    for container in [Container::Glb, Container::Gltf] {
        let w = write_scene(std::slice::from_ref(&p), container, &Limits::default()).unwrap();
        let (doc, bin) = match container {
            Container::Glb => chunks(&w.bytes),
            Container::Gltf => {
                let doc: Value = serde_json::from_slice(&w.bytes).unwrap();
                let uri = doc["buffers"][0]["uri"].as_str().unwrap().to_string();
                use base64::Engine as _;
                let bin = base64::engine::general_purpose::STANDARD
                    .decode(uri.split_once(',').unwrap().1)
                    .unwrap();
                (doc, bin)
            }
        };
        check_structure(&doc, &bin);
        let text = serde_json::to_string(&doc["accessors"]).unwrap();
        assert!(!text.contains("null"), "{text}");
        let nodes = doc["nodes"].as_array().unwrap();
        let item = |k: &str| nodes.iter().filter(|n| n["extras"]["item"] == k).count();
        assert_eq!(item("object"), 1);
        assert_eq!(item("facade"), 1);
        let trees = nodes
            .iter()
            .find(|n| n["extras"]["item"] == "trees")
            .unwrap();
        assert_eq!(trees["extras"]["trees"], 1);
        for what in [
            "line 5: object 1",
            "line 6: object 2",
            "line 8: facade 1",
            "1 tree(s)",
            "1 tile(s)",
        ] {
            assert!(
                w.warnings
                    .iter()
                    .any(|m| m.contains(what) && m.contains("left out")),
                "{what}: {:?}",
                w.warnings
            );
        }
    }
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
                kind: PlacementKind::Agb,
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
                        z: None,
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
            let gd: Value = serde_json::from_slice(&g.bytes).unwrap();
            // An empty scene has no accessors member at all (glTF: a list
            // is left out rather than empty); one that has them, no null.
            let accessors_ok = gd.get("accessors").is_none_or(|a| {
                a.is_array() && !serde_json::to_string(a).unwrap().contains("null")
            });
            prop_assert!(accessors_ok, "accessors: {}", gd["accessors"]);
            let gdoc: Value = serde_json::from_slice(&g.bytes).unwrap();
            prop_assert_eq!(&gdoc["nodes"], &doc["nodes"]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        /// Every triangle of every mesh of a scene with real art (an OBJ,
        /// a missing OBJ's box, a facade, a forest, the ground), at any
        /// heading, faces the way its vertex normals do
        /// (`check_structure` asserts each within 90°).
        #[test]
        fn every_triangle_agrees_with_its_normals(heading in 0.0..360.0f64) {
            let p = village(heading);
            let glb = agkit::out::gltf::to_glb(std::slice::from_ref(&p)).unwrap();
            let (doc, bin) = chunks(&glb);
            prop_assert!(check_structure(&doc, &bin) > 0);
        }
    }
}
