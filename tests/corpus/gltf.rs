//! Every real OBJ8 of the corpus in one 3-D scene (`agkit::out::gltf`):
//! each drawn once as a mesh of its solid LOD-0 triangles (animated ones
//! posed at their first key), with its own
//! texture where it is beside it. The scene is left in
//! `<target>/tmp/gltf-out/corpus_objects.glb`, where `.ci/run` has the
//! Khronos glTF validator check it.

use crate::support;
use agkit::limits::Limits;
use agkit::obj::Select;
use agkit::out::gltf::{Container, write_scene};
use agkit::place::art::{Art, ArtFile, ArtState, ObjShape, TextureRole};
use agkit::place::{PlacedObject, Placement, PlacementKind};
use serde_json::Value;
use std::sync::Arc;

/// Whether a triangle, its corners rounded to f32 as a glTF holds them,
/// has an area: its cross product is longer than a sliver's (1e-5 of
/// the square of its largest edge component).
fn has_area(p: [[f64; 3]; 3]) -> bool {
    let q = p.map(|c| c.map(|x| f64::from(x as f32)));
    let u = [0, 1, 2].map(|k| q[1][k] - q[0][k]);
    let v = [0, 1, 2].map(|k| q[2][k] - q[0][k]);
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let len = n.iter().map(|x| x * x).sum::<f64>().sqrt();
    let big = u.iter().chain(&v).fold(0.0f64, |m, x| m.max(x.abs()));
    len > 1e-5 * big * big && len > 0.0
}

#[test]
fn every_real_object_is_one_mesh_of_its_solid_posed_triangles() {
    let lim = Limits::default();
    let mut art = Art::default();
    // Textures are found as the art store finds them.
    let store = agkit::scenery::art::ArtStore::new(lim);
    let mut objects = Vec::new();
    // (solid triangles, its index) of each OBJ that reads.
    let mut expected = Vec::new();
    for row in support::nonempty(support::rows_of(&["obj"]), "obj") {
        let bytes = std::fs::read(&row.path).unwrap();
        let Ok(obj) = agkit::obj::read(&bytes, &row.rel, &lim) else {
            continue; // its diagnostic is the art suite's business
        };
        let i = art.objects.len();
        // A triangle without area (as the f32 the scene holds) draws
        // nothing, and the writer leaves it out.
        // Animated triangles are drawn too, posed at their first key
        // (issue 34), as X-Plane shows an object at rest.
        let drawn = obj
            .triangles_posed(Select::Solid)
            .filter(|(t, pose)| has_area(t.map(|v| obj.posed(v, *pose))))
            .count();
        expected.push((drawn, i));
        art.objects.push(ArtFile {
            path: row.rel.clone(),
            file: Some(row.path.clone()),
            state: ArtState::Found,
            how: "the corpus".into(),
            value: Some(Arc::new(ObjShape::of(&obj))),
            textures: obj
                .texture("TEXTURE")
                .map(|t| store.texture(&row.path, t, TextureRole::Object, None))
                .into_iter()
                .collect(),
        });
        // A grid 80 m apart, each turned differently.
        objects.push(PlacedObject {
            asset: row.rel.clone(),
            index: i as i64,
            x: (i % 12) as f64 * 80.0,
            y: (i / 12) as f64 * 80.0,
            heading: (i * 37 % 360) as f64,
            ..PlacedObject::default()
        });
    }
    assert!(!objects.is_empty(), "no corpus OBJ reads");
    let p = Placement {
        kind: PlacementKind::Agp,
        asset: "corpus objects".into(),
        origin: [13.0, 47.0],
        objects,
        art: Some(Arc::new(art)),
        ..Placement::default()
    };
    let w = write_scene(std::slice::from_ref(&p), Container::Glb, &lim).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-out");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("corpus_objects.glb"), &w.bytes).unwrap();
    let len = u32::from_le_bytes(w.bytes[12..16].try_into().unwrap()) as usize;
    let doc: Value = serde_json::from_slice(&w.bytes[20..20 + len]).unwrap();
    let nodes = doc["nodes"].as_array().unwrap();
    let instances: Vec<&Value> = nodes
        .iter()
        .filter(|n| n["extras"]["heading"].is_number())
        .collect();
    assert_eq!(instances.len(), expected.len());
    for (n, (triangles, i)) in instances.iter().zip(&expected) {
        let rel = &p.objects[*i].asset;
        match n["mesh"].as_u64() {
            None => assert_eq!(*triangles, 0, "{rel}: drawn with nothing"),
            Some(m) => {
                let mesh = &doc["meshes"][m as usize];
                let idx = mesh["primitives"][0]["indices"].as_u64().unwrap() as usize;
                let count = doc["accessors"][idx]["count"].as_u64().unwrap() as usize;
                assert_eq!(count, 3 * triangles, "{rel}: its solid LOD-0 triangles");
            }
        }
    }
}
