//! A [`crate::scene::Scene`] in glTF's frame, ready to serialise: its
//! meshes as primitives (y up, v down from the image's top), its textures
//! decoded through their handles and embedded as PNG (their total bytes
//! capped), its nodes turned and moved as glTF turns and moves them.
//!
//! The scene's frame (x east, y north, z up; s, t from the texture's
//! bottom left) becomes glTF's by (x, y, z) → (x, z, −y) and (s, t) →
//! (s, 1 − t): a rotation, so every triangle keeps its winding; a node's
//! clockwise heading is a rotation of −heading about +y.

use super::model::{Image, Material, Prim, Scene};
use crate::geom::Mesh;
use crate::limits::Limits;
use crate::scene::{self, ItemKind};

/// A texture embedded.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Tex {
    /// Index into [`Scene::images`].
    image: usize,
    /// True when some pixel is less than half opaque (drawn as a MASK).
    alpha: bool,
}

/// Embeds the scene's textures as they are first used.
struct Embedder<'a> {
    limits: &'a Limits,
    /// By the scene's texture index: embedded, or not (tried).
    done: Vec<Option<Option<Tex>>>,
    /// PNG bytes embedded so far.
    embedded: u64,
    warnings: Vec<String>,
}

impl Embedder<'_> {
    /// Texture `k` of `s`, decoded and embedded once (`None`, with a
    /// warning, when it cannot be decoded or the texture bytes are spent).
    fn texture(&mut self, out: &mut Scene, s: &scene::Scene, k: usize) -> Option<Tex> {
        if let Some(Some(t)) = self.done.get(k) {
            return *t;
        }
        let t = s.textures.get(k)?;
        let got = self.embed(out, t).map_err(|e| {
            self.warnings.push(format!(
                "{}: {e}; drawn in a plain colour",
                t.handle.file().display()
            ))
        });
        let got = got.ok();
        if let Some(slot) = self.done.get_mut(k) {
            *slot = Some(got);
        }
        got
    }

    /// Decodes `t` and embeds it as PNG.
    fn embed(&mut self, out: &mut Scene, t: &scene::Texture) -> Result<Tex, String> {
        let img = t.handle.decode().map_err(|e| e.to_string())?;
        let alpha = img.rgba.chunks_exact(4).any(|p| p[3] < 128);
        let png = crate::out::png::encode_rgba(img.width, img.height, &img.rgba)
            .ok_or_else(|| "cannot encode as PNG".to_string())?;
        let max = self.limits.max_scene_texture_bytes;
        if self.embedded + png.len() as u64 > max {
            return Err(format!(
                "the scene's textures would take more than {} bytes (the limit)",
                crate::out::thousands(usize::try_from(max).unwrap_or(usize::MAX))
            ));
        }
        self.embedded += png.len() as u64;
        out.images.push(Image {
            name: t.name.clone(),
            png,
        });
        Ok(Tex {
            image: out.images.len() - 1,
            alpha,
        })
    }
}

/// `m` appended to `prim` in glTF's frame.
fn append(prim: &mut Prim, m: &Mesh) {
    let base = prim.pos.len() as u32;
    for (k, &[x, y, z]) in m.positions.iter().enumerate() {
        let [nx, ny, nz] = m.normals.get(k).copied().unwrap_or([0.0, 0.0, 1.0]);
        let [s, t] = m.uvs.get(k).copied().unwrap_or([0.0, 0.0]);
        prim.vertex([x, z, -y], [nx, nz, -ny], [s, 1.0 - t]);
    }
    let n = m.positions.len();
    for t in &m.triangles {
        if t.iter().all(|&i| (i as usize) < n) {
            prim.idx.extend(t.map(|i| base + i));
        }
    }
}

/// The glTF scene of `s`, and the warnings about textures it could not
/// embed.
pub(crate) fn convert(s: &scene::Scene<'_>, limits: &Limits) -> (Scene, Vec<String>) {
    let mut out = Scene::default();
    let mut em = Embedder {
        limits,
        done: vec![None; s.textures.len()],
        embedded: 0,
        warnings: Vec::new(),
    };
    let materials: Vec<usize> = s
        .materials
        .iter()
        .map(|m| {
            let tex = m.texture.and_then(|k| em.texture(&mut out, s, k));
            out.material(match tex {
                Some(t) => Material {
                    name: m.name.clone(),
                    color: [1.0; 4],
                    image: Some(t.image),
                    mask: m.cutout && t.alpha,
                    double_sided: m.double_sided,
                },
                None => Material {
                    name: m.name.clone(),
                    color: m.color,
                    image: None,
                    mask: false,
                    double_sided: m.double_sided,
                },
            })
        })
        .collect();
    let meshes: Vec<Option<usize>> = s
        .meshes
        .iter()
        .map(|m| {
            let prims = m
                .parts
                .iter()
                .map(|p| {
                    let mut prim = Prim::new(materials.get(p.material).copied().unwrap_or(0));
                    append(&mut prim, &p.mesh);
                    prim
                })
                .collect();
            out.mesh(&m.name, prims)
        })
        .collect();
    // Scene nodes come children first: each maps to a glTF node, or to
    // none when all it draws came to nothing (a ground, facade or trees
    // whose triangles have no area as `f32`). Only the index is kept: the
    // node is written from the scene's own as the document is serialised.
    let mut next = 0u32;
    out.node_index = s
        .nodes
        .iter()
        .map(|n| {
            let mesh = n.mesh.and_then(|m| meshes.get(m).copied().flatten());
            let drawn_only = matches!(
                n.item.kind,
                ItemKind::Ground
                    | ItemKind::Facade
                    | ItemKind::Trees
                    | ItemKind::Tree
                    | ItemKind::Draped
                    | ItemKind::Line
                    | ItemKind::Unplaced
                    | ItemKind::Terrain
                    | ItemKind::Airport
            );
            if drawn_only && mesh.is_none() {
                return None;
            }
            next += 1;
            Some(next - 1)
        })
        .collect();
    out.mesh_index = meshes;
    out.roots = s
        .roots
        .iter()
        .filter_map(|&r| out.node_index.get(r).copied().flatten())
        .collect();
    for k in 0..out.images.len() {
        let name = out.images[k].name.clone();
        out.images[k].name = out.unique(3, &name);
    }
    out.extras = s.details();
    (out, em.warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Xy;
    use crate::place::{
        PlacedFacade, PlacedObject, PlacedTile, PlacedTree, Placement, Role, TileId,
    };

    fn tile(polygon: Vec<Xy>) -> PlacedTile {
        PlacedTile {
            id: TileId::Num(0),
            uv: polygon.clone(),
            polygon,
            lonlat: vec![],
            order: 0,
            hidden: false,
            role: Role::Grid,
            unit: 0,
            source_line: 1,
            stop_points: vec![],
            ground_point: None,
            z: None,
        }
    }

    /// Every face of the scene, as `(geometric normal, [vertex normals])`.
    fn faces(s: &Scene) -> Vec<([f32; 3], Vec<[f32; 3]>)> {
        let mut v = Vec::new();
        for p in s.meshes.iter().flat_map(|m| &m.prims) {
            for t in p.idx.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| p.pos[t[k] as usize]);
                let f = super::super::model::face_normal(a, b, c).unwrap();
                v.push((f, t.iter().map(|&i| p.nrm[i as usize]).collect()));
            }
        }
        v
    }

    /// agkit's own shapes are built facing the way their normals do: the
    /// settling step mends nothing in them, whichever way their rings run.
    #[test]
    fn own_geometry_needs_no_mending() {
        let sq = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 8.0], [0.0, 8.0]];
        let mut cw = sq.clone();
        cw.reverse();
        // Two facades of a `.fac` read, on rings running either way; a
        // third whose `.fac` is missing, drawn as its outline.
        let text = "A\n800\nFACADE\nTEXTURE wall.png\nRING 1\nLOD 0 10000\n\
                    WALL 0 1000 0 360 plain\nSCALE 10 10\nLEFT 0 0.25\nBOTTOM 0 0.5\n\
                    ROOF 0 0\n";
        let lim = Limits::default();
        let fac = crate::fac::read(text.as_bytes(), "a.fac", &lim).unwrap();
        let art = crate::place::art::Art {
            facades: vec![
                crate::place::art::ArtFile::found("a.fac", "/art/a.fac", fac.clone()),
                crate::place::art::ArtFile::found("b.fac", "/art/b.fac", fac),
            ],
            ..crate::place::art::Art::default()
        };
        let p = Placement {
            asset: "t.agb".into(),
            art: Some(std::sync::Arc::new(art)),
            tiles: vec![tile(sq.clone()), tile(cw.clone())],
            objects: vec![PlacedObject {
                asset: "gone.obj".into(),
                heading: 33.0,
                ..PlacedObject::default()
            }],
            facades: vec![
                PlacedFacade {
                    asset: "a.fac".into(),
                    polygon: sq.clone(),
                    height: 6.0,
                    ..PlacedFacade::default()
                },
                PlacedFacade {
                    asset: "b.fac".into(),
                    polygon: cw.clone(),
                    height: 6.0,
                    ..PlacedFacade::default()
                },
                PlacedFacade {
                    asset: "c.fac".into(),
                    polygon: vec![[0.0, 0.0], [5.0, 0.0]],
                    height: 2.0,
                    ..PlacedFacade::default()
                },
            ],
            trees: (0..8)
                .map(|k| PlacedTree {
                    x: k as f64,
                    width: 3.0,
                    heading: k as f64 * 47.0,
                    ..PlacedTree::default()
                })
                .collect(),
            ..Placement::default()
        };
        let built = crate::scene::build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let (s, _) = convert(&built, &Limits::default());
        assert_eq!(s.mended, 0);
        let fs = faces(&s);
        assert!(fs.len() > 40);
        for (f, ns) in fs {
            for n in ns {
                let d: f32 = (0..3).map(|k| f[k] * n[k]).sum();
                assert!(d > 0.99, "{f:?} against {n:?}");
            }
        }
        // Ground and roofs face up; walls of a ring face out, whichever
        // way the ring runs.
        for m in &s.meshes {
            if m.name.starts_with("#0 facade 0") || m.name.starts_with("#0 facade 1") {
                let walls = &m.prims[0];
                for (q, n) in walls.pos.iter().zip(&walls.nrm) {
                    // The facade's node stands at its centre (5, 4).
                    let out = q[0] * n[0] + q[2] * n[2];
                    assert!(out > 0.0, "{} wall at {q:?} faces {n:?}", m.name);
                }
                assert!(
                    m.prims[1].nrm.iter().all(|n| *n == [0.0, 1.0, 0.0]),
                    "{} {:?}",
                    m.name,
                    m.prims[1].nrm
                );
            }
            if m.name.starts_with("ground") || m.name.starts_with("#0 facade 2 missing") {
                assert!(m.prims[0].nrm.iter().all(|n| *n == [0.0, 1.0, 0.0]));
            }
        }
    }
}
