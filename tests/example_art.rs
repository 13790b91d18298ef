//! The bundled examples' art: the committed files are what
//! `examples/art/art.rs` draws today, every one reads clean, every path an
//! example names exists, and the art fits how the assets place it.
//!
//! `AGKIT_UPDATE_EXAMPLES=1 cargo test --test example_art` rewrites the
//! files (as `cargo run --example make_art` does).

#[path = "../examples/art/art.rs"]
mod art;

use agkit::limits::Limits;
use agkit::xp::model::{AnnotationKind, Asset};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// The generated files, drawn once for all tests.
fn generated() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(art::files)
}

/// Size, colour type and pixels of a PNG.
fn pixels(bytes: &[u8]) -> (u32, u32, png::ColorType, Vec<u8>) {
    let mut r = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; r.output_buffer_size().unwrap()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, info.color_type, buf)
}

/// The art files under examples/ (what `agkit check` reads as art).
fn committed_art() -> BTreeSet<String> {
    let root = examples();
    walkdir::WalkDir::new(&root)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let ext = e.path().extension()?.to_str()?.to_ascii_lowercase();
            ["obj", "fac", "for", "png", "dds"]
                .contains(&ext.as_str())
                .then(|| rel(&root, e.path()))
        })
        .collect()
}

fn rel(root: &Path, p: &Path) -> String {
    let r = p.strip_prefix(root).unwrap();
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn committed_art_is_what_the_generator_draws() {
    let root = examples();
    if std::env::var_os("AGKIT_UPDATE_EXAMPLES").is_some() {
        for (path, bytes) in generated() {
            agkit::fsutil::write_atomic(&root.join(path), bytes).unwrap();
        }
    }
    let mut stale = Vec::new();
    for (path, bytes) in generated() {
        let Ok(on_disk) = std::fs::read(root.join(path)) else {
            stale.push(format!("{path}: missing"));
            continue;
        };
        // Texts byte for byte; images pixel for pixel (the PNG encoder may
        // compress the same pixels differently from one version to the
        // next).
        let same = if path.ends_with(".png") {
            pixels(&on_disk) == pixels(bytes)
        } else {
            &on_disk == bytes
        };
        if !same {
            stale.push(format!("{path}: differs"));
        }
    }
    assert!(
        stale.is_empty(),
        "the examples' art is not what examples/art draws (run `cargo run --example make_art`):\n{}",
        stale.join("\n")
    );
    // Nothing else: no art file the generator no longer writes.
    let drawn: BTreeSet<String> = generated().iter().map(|(p, _)| p.clone()).collect();
    let extra: Vec<_> = committed_art().difference(&drawn).cloned().collect();
    assert!(
        extra.is_empty(),
        "art under examples/ that examples/art does not draw: {extra:?}"
    );
}

#[test]
fn the_art_is_small() {
    let total: usize = generated().iter().map(|(_, b)| b.len()).sum();
    assert!(total < 2_000_000, "the examples' art is {total} bytes");
    // Every texture is a power of two on each side (X-Plane asks for it).
    for (path, bytes) in generated().iter().filter(|(p, _)| p.ends_with(".png")) {
        let (w, h, _, _) = pixels(bytes);
        assert!(
            w.is_power_of_two() && h.is_power_of_two(),
            "{path}: {w} x {h}"
        );
    }
}

fn agkit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .current_dir(examples())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_art_file_reads_clean_with_check_and_info() {
    let paths: Vec<&str> = generated().iter().map(|(p, _)| p.as_str()).collect();
    let mut args = vec!["check"];
    args.extend(&paths);
    let out = agkit(&args);
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "checked {} files: 0 errors, 0 warnings",
            paths.len()
        )),
        "{said}"
    );
    for p in paths {
        let out = agkit(&["info", "--format", "json", p]);
        assert!(
            out.status.success(),
            "info {p}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let want = match p.rsplit('.').next().unwrap() {
            "obj" => "obj",
            "fac" => "fac",
            "for" => "for",
            _ => "png",
        };
        let format = v["format"]
            .as_str()
            .unwrap_or_default()
            .to_ascii_lowercase();
        assert!(format.starts_with(want), "info {p}: format {format}");
    }
}

/// The example assets: path (relative to examples/) and model.
fn assets() -> Vec<(String, Asset)> {
    let root = examples();
    let mut out = Vec::new();
    for dir in ["point", "block", "string"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|e| ["agp", "agb", "ags"].contains(&e.to_str().unwrap()))
            })
            .collect();
        names.sort();
        for p in names {
            let text = std::fs::read_to_string(&p).unwrap();
            out.push((rel(&root, &p), agkit::xp::parse(&text).unwrap()));
        }
    }
    out
}

fn read<T>(path: &Path, f: fn(&[u8], &str, &Limits) -> Result<T, agkit::diag::Refused>) -> T {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    f(&bytes, &path.display().to_string(), &Limits::default()).unwrap()
}

/// `path` named in the file `by`: relative to its folder.
fn beside(by: &Path, path: &str) -> PathBuf {
    by.parent().unwrap().join(path)
}

#[test]
fn every_file_the_examples_name_exists() {
    let root = examples();
    let mut missing = Vec::new();
    let mut check = |by: &Path, path: &str| {
        if !beside(by, path).is_file() {
            missing.push(format!("{} names {path}", rel(&root, by)));
        }
    };
    let assets = assets();
    assert_eq!(assets.len(), 6);
    for (name, a) in &assets {
        let at = root.join(name);
        let c = &a.common;
        let textures = c
            .texture
            .iter()
            .chain(&c.texture_lit)
            .map(|t| t.value.clone());
        let normal = c.texture_normal.iter().map(|t| t.value.path.clone());
        let decals = c.decal_params.iter().flat_map(|d| d.value.rest.clone());
        for t in textures.chain(normal).chain(decals) {
            check(&at, &t);
        }
        for o in &c.objects {
            let p = beside(&at, &o.value);
            check(&at, &o.value);
            for t in read(&p, agkit::obj::read).textures.values() {
                check(&p, t);
            }
        }
        for f in &c.facades {
            let p = beside(&at, &f.value);
            check(&at, &f.value);
            for t in read(&p, agkit::fac::read).textures.values() {
                check(&p, t);
            }
        }
        if let Some(v) = &c.vegetation {
            let p = beside(&at, &v.value);
            check(&at, &v.value);
            for t in read(&p, agkit::forest::read).textures.values() {
                check(&p, t);
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn textures_are_as_large_as_their_texture_scale() {
    let root = examples();
    for (name, a) in assets() {
        let c = &a.common;
        if c.hide_tiles.is_some() {
            continue;
        }
        let tex = c.texture.as_ref().unwrap();
        let (w, h, _, _) = pixels(&std::fs::read(beside(&root.join(&name), &tex.value)).unwrap());
        assert_eq!(
            [f64::from(w), f64::from(h)],
            c.texture_scale_px(),
            "{name}: {}",
            tex.value
        );
    }
}

/// `p` turned clockwise by `deg` degrees.
fn turn(p: [f64; 2], deg: f64) -> [f64; 2] {
    let (s, c) = deg.to_radians().sin_cos();
    [p[0] * c + p[1] * s, -p[0] * s + p[1] * c]
}

#[test]
fn objects_are_the_size_of_what_they_are() {
    // (object, least and greatest side of the footprint's box, height), m.
    let sizes: [(&str, [f64; 2], [f64; 2]); 12] = [
        ("point/fountain.obj", [5.0, 7.0], [1.5, 3.0]),
        ("point/kiosk.obj", [2.0, 4.0], [2.5, 4.0]),
        ("point/lamp_post.obj", [0.2, 0.6], [3.5, 6.0]),
        ("point/bench.obj", [0.4, 2.0], [0.7, 1.1]),
        ("block/corner_house.obj", [8.0, 12.0], [8.0, 13.0]),
        ("block/terrace_house.obj", [6.0, 12.0], [8.0, 13.0]),
        ("block/shed.obj", [2.0, 4.0], [2.0, 3.0]),
        ("string/house_a.obj", [8.0, 12.0], [8.0, 12.0]),
        ("string/house_b.obj", [8.0, 12.0], [8.0, 12.0]),
        ("string/corner_house.obj", [8.0, 12.0], [8.0, 12.0]),
        ("string/wing.obj", [5.0, 9.0], [4.0, 8.0]),
        ("string/shed.obj", [2.0, 4.0], [2.0, 3.0]),
    ];
    let objs: BTreeSet<&str> = generated()
        .iter()
        .filter(|(p, _)| p.ends_with(".obj"))
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(objs, sizes.iter().map(|s| s.0).collect());
    for (name, side, height) in sizes {
        let o = read(&examples().join(name), agkit::obj::read);
        let fp = o.footprint();
        let ext = |i: usize| {
            let (lo, hi) = fp.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                (lo.min(p[i]), hi.max(p[i]))
            });
            hi - lo
        };
        let (a, b) = (ext(0).min(ext(1)), ext(0).max(ext(1)));
        assert!(
            a >= side[0] && b <= side[1],
            "{name}: footprint {a:.2} x {b:.2} m"
        );
        let h = o.height().unwrap();
        assert!(
            (height[0]..=height[1]).contains(&h),
            "{name}: {h:.2} m high"
        );
        // Standing on the ground: the lowest point at y = 0.
        assert_eq!(o.bounds().unwrap().min[1], 0.0, "{name}");
    }
}

#[test]
fn objects_are_wound_as_xplane_draws_them() {
    // OBJ8 front faces are clockwise: the normal of (b - a) × (c - a) of
    // a triangle as written points away from its vertex normals; and
    // every texture coordinate lies on the atlas.
    for (name, _) in generated().iter().filter(|(p, _)| p.ends_with(".obj")) {
        let o = read(&examples().join(name), agkit::obj::read);
        for t in o.triangles(agkit::obj::Select::All) {
            let v = t.map(|i| &o.vertices[i]);
            let (a, b, c) = (v[0].position, v[1].position, v[2].position);
            let (u, w) = (
                [b[0] - a[0], b[1] - a[1], b[2] - a[2]],
                [c[0] - a[0], c[1] - a[1], c[2] - a[2]],
            );
            let g = [
                u[1] * w[2] - u[2] * w[1],
                u[2] * w[0] - u[0] * w[2],
                u[0] * w[1] - u[1] * w[0],
            ];
            let n = v[0].normal.map(f64::from);
            let dot = g[0] * n[0] + g[1] * n[1] + g[2] * n[2];
            assert!(dot < 0.0, "{name}: triangle {t:?} faces the wrong way");
            for x in v {
                assert!(
                    x.uv.iter().all(|s| (0.0..=1.0).contains(s)),
                    "{name}: uv {:?}",
                    x.uv
                );
            }
        }
    }
}

#[test]
fn placed_objects_stay_on_their_tiles() {
    // Each object's footprint, turned by its annotation's heading and
    // scaled to the texture's pixels, lies on the tile (AGP, AGS) or the
    // grid's largest extent (AGB) it is annotated on.
    let root = examples();
    for (name, a) in assets() {
        let at = root.join(&name);
        let [mx, my] = a.common.metres_per_pixel().unwrap();
        let mut areas: Vec<([f64; 4], Vec<&agkit::xp::model::Annotation>)> = a
            .tiles
            .iter()
            .map(|t| (t.rect, t.annotations.iter().collect()))
            .collect();
        for g in a.block.iter().flat_map(|b| &b.grids) {
            let e = g.edge_max.as_ref().unwrap().value;
            areas.push((e, g.annotations.iter().collect()));
        }
        for (rect, anns) in areas {
            for ann in anns {
                let AnnotationKind::Object(o) = &ann.kind else {
                    continue;
                };
                let obj = beside(&at, &a.common.objects[o.index as usize].value);
                for [x, z] in read(&obj, agkit::obj::read).footprint() {
                    // Object frame: x east, z south; pixels: y north.
                    let d = turn([x, -z], o.heading);
                    let p = [o.at[0] + d[0] / mx, o.at[1] + d[1] / my];
                    let inside =
                        (rect[0]..=rect[2]).contains(&p[0]) && (rect[1]..=rect[3]).contains(&p[1]);
                    assert!(
                        inside,
                        "{name}:{}: {} reaches {p:?}, off {rect:?}",
                        ann.line,
                        obj.display()
                    );
                }
            }
        }
    }
}

#[test]
fn trees_and_facades_fit_their_annotations() {
    let root = examples();
    for (name, a) in assets() {
        let at = root.join(&name);
        let forest = a
            .common
            .vegetation
            .as_ref()
            .map(|v| read(&beside(&at, &v.value), agkit::forest::read));
        let facades: Vec<_> = a
            .common
            .facades
            .iter()
            .map(|f| read(&beside(&at, &f.value), agkit::fac::read))
            .collect();
        let layer = |n: i64| {
            let f = forest
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: trees without a forest"));
            let trees = f.layer(n as u32);
            assert!(!trees.is_empty(), "{name}: layer {n} has no trees");
            // The widths the layer's trees grow to.
            trees.iter().fold((f64::MAX, f64::MIN), |(lo, hi), t| {
                (
                    lo.min(t.min_height * t.aspect()),
                    hi.max(t.max_height * t.aspect()),
                )
            })
        };
        if let Some(fill) = a.string.as_ref().and_then(|s| s.fill_layer.as_ref()) {
            layer(fill.value);
        }
        for ann in a.annotations() {
            match &ann.kind {
                AnnotationKind::Tree(t) => {
                    let (lo, hi) = layer(t.layer);
                    assert!(
                        (lo..=hi).contains(&t.width),
                        "{name}:{}: a {} m tree, layer {} grows {lo:.1}..{hi:.1} m wide",
                        ann.line,
                        t.width,
                        t.layer
                    );
                }
                AnnotationKind::TreeLine(t) => {
                    layer(t.layer);
                }
                AnnotationKind::Facade(f) => {
                    let fac = &facades[f.index as usize];
                    let r = fac.height_range().unwrap();
                    let fits = f.height >= r.min && r.max.is_none_or(|max| f.height <= max);
                    assert!(
                        fits,
                        "{name}:{}: {} m, the facade builds {:?}",
                        ann.line, f.height, r
                    );
                    let walls = fac.lods[0].walls.len() as i64;
                    for w in f.walls.iter().flatten() {
                        assert!(
                            (0..walls).contains(w),
                            "{name}:{}: wall {w} of {walls}",
                            ann.line
                        );
                    }
                }
                _ => {}
            }
        }
    }
}
