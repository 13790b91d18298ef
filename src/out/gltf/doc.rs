//! A built [`Scene`] as a glTF 2.0 document ([`gltf_json`]) and its binary
//! buffer, and the two containers: GLB (a binary file of a JSON chunk and
//! a BIN chunk, as the glTF 2.0 specification's "Binary glTF Layout"
//! gives it) and `.gltf` (the JSON with its buffer as a `data:` URI).

use super::model::{Material, NodeNames, Prim, Scene};
use crate::scene;
use base64::Engine as _;
use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;
use serde::ser::{SerializeMap, SerializeSeq};
use serde_json::{Value, json as js};
use std::cell::RefCell;

/// The document and its binary buffer (4-byte aligned parts).
struct Doc {
    root: json::Root,
    bin: Vec<u8>,
}

impl Doc {
    /// Appends the bytes `fill` writes as a buffer view (4-byte aligned).
    fn view(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        fill(&mut self.bin);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(self.bin.len() - offset),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: None,
        })
    }

    /// An accessor of `count` items of `ty`/`component` over the bytes
    /// `fill` writes into the buffer.
    fn accessor(
        &mut self,
        fill: impl FnOnce(&mut Vec<u8>),
        count: usize,
        ty: json::accessor::Type,
        component: json::accessor::ComponentType,
        target: json::buffer::Target,
        bounds: Option<(Value, Value)>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(fill, Some(target));
        let (min, max) = bounds.unzip();
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: None,
            type_: Valid(ty),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }
}

/// Appends the little-endian bytes of `f32` vectors to `bin`, written
/// there directly (a scene's buffer is tens of megabytes: no copy on the
/// way).
fn floats<const N: usize>(v: &[[f32; N]]) -> impl FnOnce(&mut Vec<u8>) + '_ {
    move |bin: &mut Vec<u8>| {
        for f in v.iter().flatten() {
            bin.extend_from_slice(&f.to_le_bytes());
        }
    }
}

/// The per-component minimum and maximum of `v` (as the specification
/// requires for POSITION).
fn min_max(v: &[[f32; 3]]) -> (Value, Value) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in v {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (js!(lo), js!(hi))
}

/// One primitive's accessors and its glTF form.
fn primitive(
    doc: &mut Doc,
    p: &Prim,
    materials: &[json::Index<json::Material>],
) -> json::mesh::Primitive {
    use json::accessor::{ComponentType as C, Type as T};
    use json::buffer::Target::{ArrayBuffer as A, ElementArrayBuffer as E};
    use json::mesh::Semantic;
    let n = p.pos.len();
    let pos = doc.accessor(floats(&p.pos), n, T::Vec3, C::F32, A, Some(min_max(&p.pos)));
    let nrm = doc.accessor(floats(&p.nrm), n, T::Vec3, C::F32, A, None);
    let uv = doc.accessor(floats(&p.uv), n, T::Vec2, C::F32, A, None);
    let lo = p.idx.iter().min().copied().unwrap_or(0);
    let hi = p.idx.iter().max().copied().unwrap_or(0);
    let idx = doc.accessor(
        |bin: &mut Vec<u8>| {
            for i in &p.idx {
                bin.extend_from_slice(&i.to_le_bytes());
            }
        },
        p.idx.len(),
        T::Scalar,
        C::U32,
        E,
        Some((js!([lo]), js!([hi]))),
    );
    json::mesh::Primitive {
        attributes: [
            (Valid(Semantic::Positions), pos),
            (Valid(Semantic::Normals), nrm),
            (Valid(Semantic::TexCoords(0)), uv),
        ]
        .into_iter()
        .collect(),
        extensions: None,
        extras: None,
        indices: Some(idx),
        material: materials.get(p.material).copied(),
        mode: Valid(json::mesh::Mode::Triangles),
        targets: None,
    }
}

/// A material's glTF form (textures index `textures`).
fn material(m: &Material, textures: &[json::Index<json::Texture>]) -> json::Material {
    let base_color_texture =
        m.image
            .and_then(|i| textures.get(i))
            .map(|&index| json::texture::Info {
                index,
                tex_coord: 0,
                extensions: None,
                extras: None,
            });
    json::Material {
        alpha_cutoff: m.mask.then_some(json::material::AlphaCutoff(0.5)),
        alpha_mode: Valid(if m.mask {
            json::material::AlphaMode::Mask
        } else {
            json::material::AlphaMode::Opaque
        }),
        double_sided: m.double_sided,
        name: Some(m.name.clone()),
        pbr_metallic_roughness: json::material::PbrMetallicRoughness {
            base_color_factor: json::material::PbrBaseColorFactor(m.color),
            base_color_texture,
            metallic_factor: json::material::StrengthFactor(0.0),
            roughness_factor: json::material::StrengthFactor(0.9),
            metallic_roughness_texture: None,
            extensions: None,
            extras: None,
        },
        normal_texture: None,
        occlusion_texture: None,
        emissive_texture: None,
        emissive_factor: json::material::EmissiveFactor([0.0; 3]),
        extensions: None,
        extras: None,
    }
}

/// `v` as glTF `extras`.
fn extras(v: &Value) -> json::Extras {
    serde_json::value::to_raw_value(v).ok()
}

/// The document and its buffer for `scene`.
fn document(scene: &Scene) -> Doc {
    let mut doc = Doc {
        root: json::Root::default(),
        bin: Vec::with_capacity(buffer_len(scene)),
    };
    doc.root.asset = json::Asset {
        generator: Some(format!("agkit {}", env!("CARGO_PKG_VERSION"))),
        ..json::Asset::default()
    };
    let sampler = (!scene.images.is_empty()).then(|| {
        doc.root.push(json::texture::Sampler {
            mag_filter: Some(Valid(json::texture::MagFilter::Linear)),
            min_filter: Some(Valid(json::texture::MinFilter::LinearMipmapLinear)),
            wrap_s: Valid(json::texture::WrappingMode::Repeat),
            wrap_t: Valid(json::texture::WrappingMode::Repeat),
            name: None,
            extensions: None,
            extras: None,
        })
    });
    let mut textures = Vec::with_capacity(scene.images.len());
    for im in &scene.images {
        let view = doc.view(|bin: &mut Vec<u8>| bin.extend_from_slice(&im.png), None);
        let source = doc.root.push(json::Image {
            buffer_view: Some(view),
            mime_type: Some(json::image::MimeType("image/png".into())),
            name: Some(im.name.clone()),
            uri: None,
            extensions: None,
            extras: None,
        });
        textures.push(doc.root.push(json::Texture {
            name: Some(im.name.clone()),
            sampler,
            source,
            extensions: None,
            extras: None,
        }));
    }
    let materials: Vec<_> = scene
        .materials
        .iter()
        .map(|m| {
            let m = material(m, &textures);
            doc.root.push(m)
        })
        .collect();
    for m in &scene.meshes {
        let primitives = m
            .prims
            .iter()
            .map(|p| primitive(&mut doc, p, &materials))
            .collect();
        doc.root.push(json::Mesh {
            extensions: None,
            extras: None,
            name: Some(m.name.clone()),
            primitives,
            weights: None,
        });
    }
    let s = doc.root.push(json::Scene {
        extensions: None,
        extras: extras(&scene.extras),
        name: Some("agkit placement".into()),
        nodes: scene.roots.iter().map(|&i| json::Index::new(i)).collect(),
    });
    doc.root.scene = Some(s);
    while !doc.bin.len().is_multiple_of(4) {
        doc.bin.push(0);
    }
    doc
}

/// The glTF node of scene node `n` (its children as glTF indices, its
/// name made unique by `names`), made as it is written.
fn node(
    built: &scene::Scene<'_>,
    scene: &Scene,
    n: &scene::Node,
    names: &mut NodeNames,
) -> json::Node {
    let children: Vec<json::Index<json::Node>> = n
        .children
        .iter()
        .filter_map(|&c| scene.node_index.get(c).copied().flatten())
        .map(json::Index::new)
        .collect();
    let mesh = n
        .mesh
        .and_then(|m| scene.mesh_index.get(m).copied().flatten());
    let [x, y, z] = n.at;
    let translation = [x, z, -y];
    let yaw = if n.heading == 0.0 {
        0.0
    } else {
        -n.heading.to_radians()
    };
    let (s, c) = (yaw / 2.0).sin_cos();
    json::Node {
        camera: None,
        children: (!children.is_empty()).then_some(children),
        extensions: None,
        extras: extras(&built.extras(n)),
        matrix: None,
        mesh: mesh.map(|i| json::Index::new(i as u32)),
        name: Some(names.unique(&built.name(n))),
        rotation: (yaw != 0.0)
            .then_some(json::scene::UnitQuaternion([0.0, s as f32, 0.0, c as f32])),
        scale: (n.scale != 1.0).then_some([n.scale as f32; 3]),
        translation: (translation != [0.0; 3]).then(|| translation.map(|v| v as f32)),
        skin: None,
        weights: None,
    }
}

/// The scene's nodes as a JSON array, each made as it is written.
struct Nodes<'a, 'b> {
    built: &'a scene::Scene<'b>,
    scene: &'a Scene,
    names: RefCell<NodeNames>,
}

impl serde::Serialize for Nodes<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let kept = self.scene.node_index.iter().flatten().count();
        let mut seq = s.serialize_seq(Some(kept))?;
        let mut names = self.names.borrow_mut();
        for (n, k) in self.built.nodes.iter().zip(&self.scene.node_index) {
            if k.is_some() {
                seq.serialize_element(&node(self.built, self.scene, n, &mut names))?;
            }
        }
        seq.end()
    }
}

/// The document's JSON: `root` as [`gltf_json`] writes it (the same
/// members in the same order), with the nodes streamed from the 3-D
/// scene where its `nodes` go.
struct Whole<'a, 'b> {
    root: &'a json::Root,
    nodes: Nodes<'a, 'b>,
}

impl serde::Serialize for Whole<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.root;
        let mut m = s.serialize_map(None)?;
        macro_rules! list {
            ($key:literal, $v:expr) => {
                if !$v.is_empty() {
                    m.serialize_entry($key, &$v)?;
                }
            };
        }
        list!("accessors", r.accessors);
        list!("animations", r.animations);
        m.serialize_entry("asset", &r.asset)?;
        list!("buffers", r.buffers);
        list!("bufferViews", r.buffer_views);
        if let Some(scene) = &r.scene {
            m.serialize_entry("scene", scene)?;
        }
        if let Some(x) = &r.extensions {
            m.serialize_entry("extensions", x)?;
        }
        if let Some(x) = &r.extras {
            m.serialize_entry("extras", x)?;
        }
        list!("extensionsUsed", r.extensions_used);
        list!("extensionsRequired", r.extensions_required);
        list!("cameras", r.cameras);
        list!("images", r.images);
        list!("materials", r.materials);
        list!("meshes", r.meshes);
        if self.nodes.scene.node_index.iter().any(Option::is_some) {
            m.serialize_entry("nodes", &self.nodes)?;
        }
        list!("samplers", r.samplers);
        list!("scenes", r.scenes);
        list!("skins", r.skins);
        list!("textures", r.textures);
        m.end()
    }
}

/// Counts the bytes written to it.
struct Counter(u64);

impl std::io::Write for Counter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len() as u64;
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes the JSON of `doc` for `scene` (built from `built`), compact or
/// pretty, to `w`, its nodes made as they are written; the bytes written.
/// The same every time, so that a first run into a [`Counter`] gives the
/// length a GLB's header needs before the text, and the text itself is
/// never held.
fn json_to(
    doc: &Doc,
    scene: &Scene,
    built: &scene::Scene<'_>,
    pretty: bool,
    w: &mut dyn std::io::Write,
) -> Result<u64, super::OutError> {
    let whole = Whole {
        root: &doc.root,
        nodes: Nodes {
            built,
            scene,
            names: RefCell::new(NodeNames::default()),
        },
    };
    let mut counted = Counted { w, n: 0 };
    if pretty {
        serde_json::to_writer_pretty(&mut counted, &whole)?;
    } else {
        serde_json::to_writer(&mut counted, &whole)?;
    }
    Ok(counted.n)
}

/// A writer counting what passes through it.
struct Counted<'a> {
    w: &'a mut dyn std::io::Write,
    n: u64,
}

impl std::io::Write for Counted<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let k = self.w.write(b)?;
        self.n += k as u64;
        Ok(k)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

/// The document with one buffer of `length` bytes at `uri` (none for GLB).
fn with_buffer(doc: &mut Doc, uri: Option<String>) {
    if doc.bin.is_empty() {
        return;
    }
    doc.root.push(json::Buffer {
        byte_length: USize64::from(doc.bin.len()),
        name: None,
        uri,
        extensions: None,
        extras: None,
    });
}

/// The bytes of `scene`'s binary buffer, each part padded to 4 bytes:
/// reserved at once, so that the buffer is never copied as it grows.
fn buffer_len(scene: &Scene) -> usize {
    let pad = |n: usize| n.next_multiple_of(4);
    let prims: usize = scene
        .meshes
        .iter()
        .flat_map(|m| &m.prims)
        .map(|p| pad(p.pos.len() * 12) * 2 + pad(p.uv.len() * 8) + pad(p.idx.len() * 4))
        .sum();
    prims
        + scene
            .images
            .iter()
            .map(|im| pad(im.png.len()))
            .sum::<usize>()
}

/// `scene` written to `w` as a GLB file: the header and the JSON chunk,
/// then the buffer as the BIN chunk straight from where it was built.
/// Nothing is written when the file would pass the format's 4 GiB.
pub(crate) fn glb(
    scene: &Scene,
    built: &scene::Scene<'_>,
    w: &mut dyn std::io::Write,
) -> Result<(), super::OutError> {
    let mut doc = document(scene);
    with_buffer(&mut doc, None);
    // The JSON's length first (the header gives it), then the JSON itself
    // straight to `w`.
    let len = json_to(&doc, scene, built, false, &mut Counter(0))?;
    let padded = len.next_multiple_of(4);
    let bin_chunk = if doc.bin.is_empty() {
        0
    } else {
        8 + doc.bin.len() as u64
    };
    let total = 12 + 8 + padded + bin_chunk;
    let total = super::file_size(usize::try_from(total).unwrap_or(usize::MAX))?;
    let json_len = u32::try_from(padded).unwrap_or(u32::MAX);
    let mut head = Vec::with_capacity(20);
    head.extend_from_slice(b"glTF");
    head.extend_from_slice(&2u32.to_le_bytes());
    head.extend_from_slice(&total.to_le_bytes());
    head.extend_from_slice(&json_len.to_le_bytes());
    head.extend_from_slice(b"JSON");
    w.write_all(&head)?;
    let written = json_to(&doc, scene, built, false, w)?;
    if written != len {
        return Err(super::OutError::Scene(format!(
            "the scene's JSON came to {written} bytes, not the {len} counted"
        )));
    }
    for _ in len..padded {
        w.write_all(b" ")?;
    }
    if !doc.bin.is_empty() {
        w.write_all(&(doc.bin.len() as u32).to_le_bytes())?;
        w.write_all(b"BIN\0")?;
        w.write_all(&doc.bin)?;
    }
    Ok(())
}

/// `scene` as a `.gltf` file: JSON, its buffer a base64 `data:` URI;
/// nothing is written when the file would pass the format's 4 GiB.
pub(crate) fn gltf(
    scene: &Scene,
    built: &scene::Scene<'_>,
    w: &mut dyn std::io::Write,
) -> Result<(), super::OutError> {
    let mut doc = document(scene);
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&doc.bin)
    );
    with_buffer(&mut doc, Some(uri));
    let len = json_to(&doc, scene, built, true, &mut Counter(0))?;
    super::file_size(usize::try_from(len + 1).unwrap_or(usize::MAX))?;
    json_to(&doc, scene, built, true, w)?;
    w.write_all(b"\n")?;
    Ok(())
}
