//! `dsf build` on arbitrary DSF2Text: every command family with arbitrary
//! values (signed, tiny, huge, single-valued planes) builds, in bounded
//! time, to a DSF whose text gives the values back within the pools'
//! quantisation and DSF2Text's decimals.

use agkit::dsf::{self, BuildOptions, Dsf, Entity, Patch, TextOptions};
use proptest::prelude::*;

mod dsf_support;
use dsf_support::{Rng, assert_same_within, triangles};

/// How the values of one plane of one entity are drawn.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// Anywhere in ±1e12.
    Huge,
    /// Signed, around ±1.
    Unit,
    /// Signed, below 1e-9 in magnitude.
    Tiny,
    /// One value for every point.
    Single(f64),
    /// Small non-negative integers (wall types, beach types).
    Integer,
    /// Elevations with a sea basin: -500 to 9000 m, and the DEM flag.
    Elevation,
}

impl Kind {
    fn pick(r: &mut Rng) -> Kind {
        match r.below(6) {
            0 => Kind::Huge,
            1 => Kind::Unit,
            2 => Kind::Tiny,
            3 => Kind::Single(r.range(-1e6, 1e6)),
            4 => Kind::Integer,
            _ => Kind::Elevation,
        }
    }

    fn value(self, r: &mut Rng) -> f64 {
        match self {
            Kind::Huge => r.range(-1e12, 1e12),
            Kind::Unit => r.range(-1.0, 1.0),
            Kind::Tiny => r.range(-1e-9, 1e-9),
            Kind::Single(v) => v,
            Kind::Integer => r.below(9) as f64,
            Kind::Elevation => {
                if r.below(20) == 0 {
                    -32768.0
                } else {
                    r.range(-500.0, 9000.0)
                }
            }
        }
    }
}

/// A point near the tile (a little outside it too): lon, lat.
fn lonlat(r: &mut Rng, near: Option<[f64; 2]>) -> [f64; 2] {
    match near {
        Some([x, y]) => [x + r.range(-0.01, 0.01), y + r.range(-0.01, 0.01)],
        None => [r.range(12.9, 14.1), r.range(46.9, 48.1)],
    }
}

fn values(s: &mut String, kw: &str, v: &[f64]) {
    s.push_str(kw);
    for x in v {
        s.push_str(&format!(" {x:.9}"));
    }
    s.push('\n');
}

/// DSF2Text with `blocks` entities of the given kinds (0 objects, 1
/// polygons, 2 patches, 3 networks, 4 filters, 5 curved networks), values
/// drawn from `seed`, and `divisions` (0: no `DIVISIONS` line).
fn text(seed: u64, blocks: &[u8], divisions: u32) -> String {
    let mut r = Rng(seed | 1);
    let mut s = String::from("I\n800\nDSF2TEXT\n");
    if divisions > 0 {
        s.push_str(&format!("DIVISIONS {divisions}\n"));
    }
    s.push_str(
        "PROPERTY sim/west 13\nPROPERTY sim/south 47\nPROPERTY sim/east 14\n\
         PROPERTY sim/north 48\nPROPERTY sim/filter/aptid LOWS\n",
    );
    for t in ["t0.ter", "t1.ter"] {
        s.push_str(&format!("TERRAIN_DEF {t}\n"));
    }
    for o in ["o0.obj", "o1.obj", "p.agp"] {
        s.push_str(&format!("OBJECT_DEF {o}\n"));
    }
    for p in ["b.agb", "w.fac", "f.for"] {
        s.push_str(&format!("POLYGON_DEF {p}\n"));
    }
    s.push_str("NETWORK_DEF r.net\n");
    let mut node = 1;
    for &b in blocks {
        match b {
            0 => {
                let n = 1 + r.below(40);
                let elev = Kind::pick(&mut r);
                let near = (r.below(2) == 0).then(|| lonlat(&mut r, None));
                for _ in 0..n {
                    let [x, y] = lonlat(&mut r, near);
                    let h = r.range(-1000.0, 1000.0);
                    let def = r.below(3);
                    match r.below(3) {
                        0 => s.push_str(&format!("OBJECT {def} {x:.9} {y:.9} {h:.3}\n")),
                        1 => s.push_str(&format!(
                            "OBJECT_MSL {def} {x:.9} {y:.9} {:.5} {h:.3}\n",
                            elev.value(&mut r)
                        )),
                        _ => s.push_str(&format!(
                            "OBJECT_AGL {def} {x:.9} {y:.9} {:.5} {h:.3}\n",
                            elev.value(&mut r)
                        )),
                    }
                }
            }
            1 => {
                let depth = 2 + r.below(7) as usize;
                let kinds: Vec<Kind> = (2..depth).map(|_| Kind::pick(&mut r)).collect();
                let centre = lonlat(&mut r, None);
                s.push_str(&format!(
                    "BEGIN_POLYGON {} {} {depth}\n",
                    r.below(3),
                    r.below(65536)
                ));
                for _ in 0..1 + r.below(3) {
                    s.push_str("BEGIN_WINDING\n");
                    for _ in 0..1 + r.below(12) {
                        let mut v = lonlat(&mut r, Some(centre)).to_vec();
                        v.extend(kinds.iter().map(|k| k.value(&mut r)));
                        values(&mut s, "POLYGON_POINT", &v);
                    }
                    s.push_str("END_WINDING\n");
                }
                s.push_str("END_POLYGON\n");
            }
            2 => {
                let depth = 3 + r.below(6) as usize;
                let kinds: Vec<Kind> = (2..depth).map(|_| Kind::pick(&mut r)).collect();
                let lods = [0.0, -1.0, 1000.0, 25000.5];
                s.push_str(&format!(
                    "BEGIN_PATCH {} {:.6} {:.6} {} {depth}\n",
                    r.below(2),
                    lods[r.below(4) as usize],
                    lods[r.below(4) as usize],
                    r.below(4)
                ));
                // Vertices drawn from a small set, so that they repeat.
                let centre = lonlat(&mut r, None);
                let set: Vec<Vec<f64>> = (0..1 + r.below(30))
                    .map(|_| {
                        let mut v = lonlat(&mut r, Some(centre)).to_vec();
                        v.extend(kinds.iter().map(|k| k.value(&mut r)));
                        v
                    })
                    .collect();
                for _ in 0..1 + r.below(4) {
                    s.push_str(&format!("BEGIN_PRIMITIVE {}\n", r.below(3)));
                    let n = if r.below(6) == 0 {
                        256 + r.below(300)
                    } else {
                        1 + r.below(40)
                    };
                    for _ in 0..n {
                        let v = &set[r.below(set.len() as u64) as usize];
                        values(&mut s, "PATCH_VERTEX", v);
                    }
                    s.push_str("END_PRIMITIVE\n");
                }
                s.push_str("END_PATCH\n");
            }
            3 | 5 => {
                let curved = b == 5;
                let suffix = if curved { "_CURVED" } else { "" };
                let elev = Kind::pick(&mut r);
                let centre = lonlat(&mut r, None);
                let geo = |r: &mut Rng| {
                    let mut v = lonlat(r, Some(centre)).to_vec();
                    v.push(elev.value(r));
                    if curved {
                        v.extend(lonlat(r, Some(centre)));
                        v.push(elev.value(r));
                    }
                    v.iter().map(|x| format!(" {x:.9}")).collect::<String>()
                };
                let sub = r.below(6);
                for _ in 0..1 + r.below(3) {
                    s.push_str(&format!(
                        "BEGIN_SEGMENT{suffix} 0 {sub} {node}{}\n",
                        geo(&mut r)
                    ));
                    for _ in 0..r.below(5) {
                        s.push_str(&format!("SHAPE_POINT{suffix}{}\n", geo(&mut r)));
                    }
                    node += 1;
                    s.push_str(&format!("END_SEGMENT{suffix} {node}{}\n", geo(&mut r)));
                }
            }
            _ => s.push_str(&format!("FILTER {}\n", r.below(2) as i64 - 1)),
        }
    }
    s
}

/// [`dsf::from_text`], the tile's bounds it lacks added at the end
/// (DSFTool's text reader, like agkit's, requires them).
fn parse(t: &str) -> (Dsf, BuildOptions) {
    let mut t = t.to_string();
    for (name, value) in [("west", 13), ("south", 47), ("east", 14), ("north", 48)] {
        if !t.contains(&format!("PROPERTY sim/{name} ")) {
            t += &format!("\nPROPERTY sim/{name} {value}\n");
        }
    }
    dsf::from_text(&t, &mut |_| Err("no rasters".into())).unwrap_or_else(|e| panic!("{e}\n{t}"))
}

/// Entities per kind (filters, objects, polygons, patches, chains).
fn census(d: &Dsf) -> [usize; 5] {
    let mut c = [0; 5];
    for e in &d.entities {
        c[match e {
            Entity::Filter(_) => 0,
            Entity::Object(_) => 1,
            Entity::Polygon(_) => 2,
            Entity::Patch(_) => 3,
            Entity::Network(_) => 4,
        }] += 1;
    }
    c
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn any_text_builds_and_its_text_comes_back_within_quantisation(
        seed: u64,
        blocks in proptest::collection::vec(0u8..6, 1..12),
        divisions in prop_oneof![Just(0u32), 1u32..=64],
    ) {
        let t0 = text(seed, &blocks, divisions);
        let (m0, opts) = parse(&t0);
        let bytes = dsf::build(&m0, &opts).unwrap_or_else(|e| panic!("{e}\n{t0}"));
        let read = dsf::read(&bytes).unwrap();
        let t1 = dsf::to_text(&read, &TextOptions::default());
        let (m1, _) = parse(&t1);
        assert_same_within(&m0, &m1, &read, None);

        // Grouped and stripped as `dsf build` writes it: the same entities
        // of each kind, and each patch the same number of triangles.
        let grouped = BuildOptions { group: true, strip: true, ..opts };
        let bytes = built_both_ways(&m0, &grouped, &opts);
        let g = dsf::read(&bytes).unwrap();
        let (mut want, mut got) = (census(&m0), census(&g));
        // Filters are written where the filter changes.
        (want[0], got[0]) = (0, 0);
        prop_assert_eq!(want, got);
        // Grouping by filter may reorder patches: compare them as a multiset
        // of (terrain, triangle count).
        let tris = |d: &Dsf| {
            let mut t: Vec<_> = d.patches().map(|p| (p.def, triangles(p).len())).collect();
            t.sort_unstable();
            t
        };
        prop_assert_eq!(tris(&m0), tris(&g));
    }
}

#[test]
fn a_patch_whose_planes_straddle_zero_builds() {
    // The example: normals from -0.25 to 0.3 made the old builder
    // loop for ever.
    let t = "PROPERTY sim/west -1\nPROPERTY sim/south 51\nPROPERTY sim/east 0\n\
             PROPERTY sim/north 52\nTERRAIN_DEF t.ter\nBEGIN_PATCH 0 0 -1 1 5\n\
             BEGIN_PRIMITIVE 0\n\
             PATCH_VERTEX -0.5 51.5 -12 -0.25 0.3\n\
             PATCH_VERTEX -0.49 51.5 10 0.1 -0.2\n\
             PATCH_VERTEX -0.5 51.51 3 0.3 0.25\n\
             PATCH_VERTEX -0.49 51.51 -3 0.05 -0.25\n\
             PATCH_VERTEX -0.495 51.505 0 0.0 0.0\n\
             END_PRIMITIVE\nEND_PATCH\n";
    let (m, o) = parse(t);
    let read = dsf::read(&dsf::build(&m, &o).unwrap()).unwrap();
    let (back, _) = parse(&dsf::to_text(&read, &TextOptions::default()));
    assert_same_within(&m, &back, &read, None);
}

#[test]
fn base_mesh_tiles_are_what_users_ship_and_read_back_within_quantisation() {
    use rand::SeedableRng;
    assert!(agkit::r#gen::mesh_triangles(318) >= 200_000);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let m = agkit::r#gen::base_mesh_tile(&mut rng, -35, -57, 80, 60);
    let patches: Vec<&Patch> = m.patches().collect();
    let tris: usize = patches.iter().map(|p| triangles(p).len()).sum();
    // The terrain mesh plus the overlay patch's fans.
    assert!(tris >= agkit::r#gen::mesh_triangles(80), "{tris}");
    let elevations = || {
        patches
            .iter()
            .flat_map(|p| triangles(p))
            .flat_map(|t| [t[2], t[7], t[12]])
    };
    assert!(elevations().any(|z| z < 0.0), "a basin below sea level");
    assert!(elevations().any(|z| z > 500.0), "hills");
    // Unit normals, tilted somewhere.
    let mut tilted = false;
    for p in patches.iter().filter(|p| p.depth == 5) {
        for v in p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(5))
        {
            assert!(v[3] * v[3] + v[4] * v[4] <= 1.0);
            tilted |= v[3].abs() > 0.05;
        }
    }
    assert!(tilted);
    let kinds: std::collections::BTreeSet<u8> = patches
        .iter()
        .flat_map(|p| p.primitives.iter().map(|pr| pr.kind.code()))
        .collect();
    assert_eq!(kinds.len(), 3, "triangles, strips and fans");
    assert!(m.chains().count() >= 10 && m.rasters.len() == 1);
    assert!(m.objects().count() > 0 && m.polygons().count() > 0);

    // Built (tile edges on cell edges: exact) and read back.
    let bytes = dsf::build(&m, &BuildOptions::default()).unwrap();
    let read = dsf::read(&bytes).unwrap();
    assert_eq!(read.rasters, m.rasters);
    let text = dsf::to_text(&read, &TextOptions::default());
    let mut raster = |name: &str| {
        assert_eq!(name, "elevation.raw");
        Ok(read.rasters[0].data.clone())
    };
    let (back, _) = dsf::from_text(&text, &mut raster).unwrap();
    assert_same_within(&m, &back, &read, None);
    // DSFTool suggests HEIGHTS from the pools current when patches open;
    // its text2dsf refuses a vertex outside them, so they cover them all.
    let (scale, offset) = dsf::text::dsftool_heights(&read);
    for p in read.patches() {
        for v in p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
        {
            assert!(
                (offset..=offset + scale).contains(&v[2]),
                "{} outside HEIGHTS",
                v[2]
            );
        }
    }
    let corner = read
        .patches()
        .flat_map(|p| {
            p.primitives
                .iter()
                .flat_map(|pr| pr.vertices.chunks_exact(p.depth))
        })
        .any(|v| v[0] == -57.0 && v[1] == -35.0);
    assert!(corner, "the south-west corner decodes exactly");
    // Shared vertices: far fewer pool points than vertex references.
    let refs: usize = m
        .patches()
        .map(|p| {
            p.primitives
                .iter()
                .map(|pr| pr.vertices.len() / p.depth)
                .sum::<usize>()
        })
        .sum();
    let points: usize = read
        .pools
        .iter()
        .filter(|p| p.depth() >= 5)
        .map(|p| p.count)
        .sum();
    assert!(points * 2 < refs, "{points} points for {refs} references");
}

#[test]
fn a_nul_in_a_string_is_an_error_not_a_lost_byte() {
    // Found by the dsf_build fuzz target: a property name of NUL bytes was
    // written without them (an empty name), whose text no longer parsed.
    let crash = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/crashers/dsf_build/nul_in_property_name"
    ))
    .unwrap();
    // The text reader refuses it at its line (issue 24 item 8); a model
    // holding one is refused by the builder.
    let mut t = String::from_utf8_lossy(&crash).into_owned();
    t += "\nPROPERTY sim/west 13\nPROPERTY sim/south 47\nPROPERTY sim/east 14\nPROPERTY sim/north 48\n";
    let e = dsf::from_text(&t, &mut |_| Err("no rasters".into())).unwrap_err();
    assert!(e.message.contains("NUL") && e.line > 0, "{e}");
    let mut m = Dsf::default();
    m.object_defs.push("a\0b.obj".into());
    assert!(dsf::build(&m, &BuildOptions::default()).is_err());
}

#[test]
fn a_lod_beyond_a_32_bit_float_is_an_error_not_infinity() {
    // Found by the dsf_build fuzz target: LOD -1.1e40 became -inf in the
    // f32 of the patch command, whose text no longer parsed.
    let crash = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/crashers/dsf_build/lod_beyond_f32"
    ))
    .unwrap();
    let e = dsf::from_text(
        &String::from_utf8_lossy(&crash),
        &mut |_| Err("none".into()),
    )
    .unwrap_err();
    assert!(e.message.contains("32-bit float"), "{e}");
    let t = "TERRAIN_DEF t.ter\nBEGIN_PATCH 0 0 -1e39 1 5\nEND_PATCH\n";
    assert_eq!(
        dsf::from_text(t, &mut |_| Err("none".into()))
            .unwrap_err()
            .line,
        2
    );
    // A model holding an infinite LOD (as a binary may) does not build.
    let mut m = parse("TERRAIN_DEF t.ter\nBEGIN_PATCH 0 0 -1 1 5\nEND_PATCH\n").0;
    if let Some(Entity::Patch(p)) = m.entities.first_mut() {
        p.lod_far = f32::INFINITY;
    }
    assert!(dsf::build(&m, &BuildOptions::default()).is_err());
}

#[test]
fn longitudes_and_latitudes_off_the_earth_are_refused_for_every_kind() {
    // docs/dsf.md: lon/lat beyond ±32768° are refused. A chain's were not:
    // one road point at 1e15° took the shared network pool's step to 2^18°,
    // moving every other road of the tile by up to that.
    let defs = "TERRAIN_DEF t.ter\nOBJECT_DEF o.obj\nPOLYGON_DEF p.fac\nNETWORK_DEF r.net\n";
    for (far, ok) in [("40000", false), ("-1e15", false), ("32768", true)] {
        for entity in [
            format!("OBJECT 0 {far} 47 0\n"),
            format!(
                "BEGIN_POLYGON 0 0 2\nBEGIN_WINDING\nPOLYGON_POINT 13 {far}\nEND_WINDING\nEND_POLYGON\n"
            ),
            format!(
                "BEGIN_PATCH 0 0 -1 1 5\nBEGIN_PRIMITIVE 0\nPATCH_VERTEX {far} 47 0 0 0\nEND_PRIMITIVE\nEND_PATCH\n"
            ),
            format!("BEGIN_SEGMENT 0 0 1 13 47 0\nEND_SEGMENT 2 {far} 47 0\n"),
            format!("BEGIN_SEGMENT 0 0 1 13 {far} 0\nEND_SEGMENT 2 13 47 0\n"),
        ] {
            let (m, o) = parse(&format!("{defs}{entity}"));
            let built = dsf::build(&m, &o);
            assert_eq!(built.is_ok(), ok, "{entity}: {built:?}");
            if let Err(e) = built {
                assert_eq!(e.entity, Some(0), "{e}");
            }
        }
    }
}

#[test]
fn running_out_of_pools_names_the_entity_that_needed_one() {
    // 70,000 objects in as many cells of 1/64°: pool 65,535 is one too many.
    let mut m = Dsf::default();
    m.object_defs.push("o.obj".into());
    for k in 0..70_000 {
        m.entities.push(Entity::Object(dsf::Object {
            def: 0,
            lon: -1000.0 + f64::from(k % 1000) / 16.0,
            lat: f64::from(k / 1000) / 16.0,
            heading: 0.0,
            elevation: None,
            mode: dsf::ElevationMode::Draped,
        }));
    }
    let opts = BuildOptions {
        divisions: 64,
        ..BuildOptions::default()
    };
    let e = dsf::build(&m, &opts).unwrap_err();
    assert!(e.message.contains("65535 point pools"), "{e}");
    assert_eq!(e.entity, Some(65_535), "{e}");
}

/// Gives each entity of `m` a tag that survives the builder exactly (an
/// object's heading, a polygon's parameter, a patch's near LOD, a chain's
/// first junction ID), so that an entity read back can be traced to the
/// one it came from.
fn tag(m: &mut Dsf) {
    for (k, e) in m.entities.iter_mut().enumerate() {
        match e {
            Entity::Object(o) => o.heading = k as f64 * 0.05,
            Entity::Polygon(p) => p.param = k as u16,
            Entity::Patch(p) => p.lod_near = k as f32,
            Entity::Network(c) => c.points[3] = 1_000_000.0 + k as f64,
            Entity::Filter(_) => {}
        }
    }
}

/// Each non-filter entity of `d` as (its tag, the filter in force, its
/// kind and definition and elevation mode), in order.
fn traced(d: &Dsf) -> Vec<(usize, i32, String)> {
    let mut filter = -1;
    let mut out = Vec::new();
    for e in &d.entities {
        let (k, what) = match e {
            Entity::Filter(f) => {
                filter = *f;
                continue;
            }
            Entity::Object(o) => (
                (o.heading / 0.05).round() as usize,
                format!("object {} {:?}", o.def, o.mode),
            ),
            Entity::Polygon(p) => (usize::from(p.param), format!("polygon {}", p.def)),
            Entity::Patch(p) => (
                p.lod_near as usize,
                format!("patch {} {} {}", p.def, p.flags, p.lod_far),
            ),
            Entity::Network(c) => (
                c.points[3] as usize - 1_000_000,
                format!("chain {} {}", c.def, c.subtype),
            ),
        };
        out.push((k, filter, what));
    }
    out
}

/// `m` built grouped (the bytes returned) and as `plain` asks, each the
/// same through [`dsf::build`] and through `build_owned`, which moves the
/// entities into the written order first.
fn built_both_ways(m: &Dsf, grouped: &BuildOptions, plain: &BuildOptions) -> Vec<u8> {
    let bytes = dsf::build(m, grouped).unwrap();
    assert!(dsf::write::build_owned(m.clone(), grouped).unwrap() == bytes);
    let other = dsf::build(m, plain).unwrap();
    assert!(dsf::write::build_owned(m.clone(), plain).unwrap() == other);
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Grouping (as `dsf build` writes) reorders entities but never changes
    /// what they mean: each one is written once, under the filter it was
    /// under, with its definition and elevation mode, and the patches of
    /// one filter keep their order (X-Plane draws terrain in that order).
    #[test]
    fn grouping_keeps_every_entity_under_its_filter(
        seed: u64,
        blocks in proptest::collection::vec(0u8..6, 1..16),
    ) {
        let (mut m0, opts) = parse(&text(seed, &blocks, 32));
        tag(&mut m0);
        let want = traced(&m0);
        let grouped = BuildOptions { group: true, strip: true, ..opts };
        let bytes = built_both_ways(&m0, &grouped, &opts);
        let g = dsf::read(&bytes).unwrap();
        let got = traced(&g);
        let mut seen = vec![false; m0.entities.len()];
        let by_tag: std::collections::HashMap<usize, &(usize, i32, String)> =
            want.iter().map(|w| (w.0, w)).collect();
        for x in &got {
            let w = by_tag.get(&x.0).unwrap_or_else(|| panic!("{x:?} was not written"));
            prop_assert_eq!(&x, w);
            prop_assert!(!std::mem::replace(&mut seen[x.0], true), "{:?} twice", x);
        }
        prop_assert_eq!(got.len(), want.len());
        let patches = |v: &[(usize, i32, String)]| -> Vec<(i32, usize)> {
            let mut p: Vec<_> = v
                .iter()
                .filter(|x| x.2.starts_with("patch"))
                .map(|x| (x.1, x.0))
                .collect();
            p.sort_by_key(|x| x.0);
            p
        };
        prop_assert_eq!(patches(&got), patches(&want));
    }
}

/// How the values of one plane past lon/lat of one entity are drawn for
/// the precision test.
#[derive(Debug, Clone, Copy)]
enum Extra {
    /// Degrees near the entity (bezier control points).
    LonLike,
    /// 0 to 1, the ends included now and then (texture coordinates).
    UvLike,
    /// Below 1e-9 in magnitude.
    Tiny,
    /// Anywhere in ±1e12.
    Huge,
    /// One value for every point, of any magnitude.
    Constant(f64),
    /// Each value drawn from one of the above.
    Mixed,
}

impl Extra {
    fn pick(r: &mut Rng) -> Extra {
        match r.below(6) {
            0 => Extra::LonLike,
            1 => Extra::UvLike,
            2 => Extra::Tiny,
            3 => Extra::Huge,
            4 => Extra::Constant(r.range(-1.0, 1.0) * 10f64.powi(r.below(25) as i32 - 12)),
            _ => Extra::Mixed,
        }
    }

    /// A value for a point at `near` (its lon or lat).
    fn value(self, r: &mut Rng, near: f64) -> f64 {
        match self {
            Extra::LonLike => near + r.range(-0.01, 0.01),
            Extra::UvLike => match r.below(8) {
                0 => 0.0,
                1 => 1.0,
                _ => r.unit(),
            },
            Extra::Tiny => r.range(-1e-9, 1e-9),
            Extra::Huge => r.range(-1e12, 1e12),
            Extra::Constant(c) => c,
            Extra::Mixed => {
                let k = [Extra::LonLike, Extra::UvLike, Extra::Tiny, Extra::Huge];
                k[r.below(4) as usize].value(r, near)
            }
        }
    }
}

/// A model whose entities' planes past lon/lat are drawn by [`Extra`]:
/// `blocks` entities (0 MSL objects, 1 polygons, 2 patches, 3 chains), each
/// block of 1 to 4 entities of one depth close together, so that the
/// builder would put them in one pool, each with its own kinds of plane.
fn extra_planes_model(seed: u64, blocks: &[u8]) -> Dsf {
    let mut r = Rng(seed | 1);
    let mut d = Dsf {
        properties: [("west", 13), ("south", 47), ("east", 14), ("north", 48)]
            .iter()
            .map(|(k, v)| (format!("sim/{k}"), v.to_string()))
            .collect(),
        terrain_defs: vec!["t.ter".into()],
        object_defs: vec!["o.obj".into()],
        polygon_defs: vec!["p.pol".into()],
        network_defs: vec!["r.net".into()],
        ..Dsf::default()
    };
    let mut node = 1.0;
    for &b in blocks {
        let centre = [r.range(13.05, 13.95), r.range(47.05, 47.95)];
        let depth = match b {
            0 => 4,
            1 => 3 + r.below(6) as usize,
            2 => 4 + r.below(5) as usize,
            _ => [4, 7][r.below(2) as usize],
        };
        for _ in 0..1 + r.below(4) {
            let kinds: Vec<Extra> = (0..depth).map(|_| Extra::pick(&mut r)).collect();
            let point = |r: &mut Rng| {
                let ll = [
                    centre[0] + r.range(-0.003, 0.003),
                    centre[1] + r.range(-0.003, 0.003),
                ];
                let mut v = ll.to_vec();
                for (k, x) in kinds.iter().enumerate().take(depth).skip(2) {
                    v.push(x.value(r, ll[k % 2]));
                }
                v
            };
            let e = match b {
                0 => {
                    let v = point(&mut r);
                    Entity::Object(dsf::Object {
                        def: 0,
                        lon: v[0],
                        lat: v[1],
                        heading: r.range(0.0, 360.0),
                        elevation: Some(v[3]),
                        mode: dsf::ElevationMode::Msl,
                    })
                }
                1 => Entity::Polygon(dsf::Polygon {
                    def: 0,
                    param: [0, 65535, r.below(65536) as u16][r.below(3) as usize],
                    depth,
                    windings: (0..1 + r.below(3))
                        .map(|_| (0..1 + r.below(8)).flat_map(|_| point(&mut r)).collect())
                        .collect(),
                }),
                2 => Entity::Patch(Patch {
                    def: 0,
                    flags: 1,
                    lod_near: 0.0,
                    lod_far: -1.0,
                    depth,
                    primitives: (0..1 + r.below(3))
                        .map(|_| dsf::Primitive {
                            kind: dsf::PrimitiveKind::Triangles,
                            vertices: (0..3 * (1 + r.below(20)))
                                .flat_map(|_| point(&mut r))
                                .collect(),
                        })
                        .collect(),
                }),
                _ => {
                    let n = 2 + r.below(6) as usize;
                    let mut points = Vec::new();
                    for j in 0..n {
                        let mut v = point(&mut r);
                        v[3] = if j == 0 || j == n - 1 {
                            node += 1.0;
                            node
                        } else {
                            0.0
                        };
                        points.extend(v);
                    }
                    Entity::Network(dsf::NetworkChain {
                        def: 0,
                        subtype: 0,
                        depth,
                        points,
                    })
                }
            };
            d.entities.push(e);
        }
    }
    d
}

/// 2^e.
fn p2(e: i32) -> f64 {
    2f64.powi(e)
}

/// The least power of two at or above `x` (1e-300 for 0).
fn pow2_at_least(x: f64) -> f64 {
    if x <= 0.0 {
        return 1e-300;
    }
    p2(x.log2().ceil() as i32)
}

/// The plane's quantum: the most a value of a 16-bit plane may move when
/// the pool it is quantised in spans at most `span` and holds magnitudes
/// up to `magnitude` — half a step of `span` over 65536 steps, of the
/// `f32` offset's grain, or of the finest step (2^-30).
fn quantum16(span: f64, magnitude: f64) -> f64 {
    let grain = pow2_at_least(magnitude) * p2(-23);
    (span * p2(-16)).max(grain).max(p2(-30))
}

/// The same for a 32-bit plane: a range of `span` plus the offset's whole
/// unit (or its grain) over 2^32 steps.
fn quantum32(span: f64, magnitude: f64) -> f64 {
    let grain = (pow2_at_least(magnitude) * p2(-23)).max(1.0);
    (span + grain) / 4_294_967_295.0
}

/// (low, high, largest magnitude, all raw integers) of plane `k` of `points`.
fn plane_range<'p>(points: impl Iterator<Item = &'p [f64]>, k: usize) -> (f64, f64, f64, bool) {
    let (mut lo, mut hi, mut raw) = (f64::INFINITY, f64::NEG_INFINITY, true);
    for p in points {
        (lo, hi) = (lo.min(p[k]), hi.max(p[k]));
        raw &= p[k].fract() == 0.0 && (0.0..=65535.0).contains(&p[k]);
    }
    (lo, hi, lo.abs().max(hi.abs()), raw)
}

/// Asserts that every value of `b` is within its plane's quantum of `a`'s,
/// entity by entity in order. The quantum follows from the entity's own
/// values (docs/dsf.md, "Scales"): a polygon plane is boxed in at most two
/// cells of the least power of two (at least `1/n` degree) covering its
/// span; object elevations, patch planes past the elevation and 32-bit
/// planes are classed by magnitude (at least 1024 m, 1, 65536 m for
/// elevations, 1 otherwise); a patch elevation shares the range of every
/// patch elevation of its depth; integer polygon planes and junction IDs
/// are exact; lon/lat within half a step of two cells of `2/n` degree,
/// headings half a step of 360.
fn assert_within_quantum(a: &Dsf, b: &Dsf, n: u32) {
    assert_eq!(a.entities.len(), b.entities.len());
    let near = |x: f64, y: f64, q: f64, what: &str| {
        let tol = q * 1.000_001 + x.abs() * 1e-15 + 1e-300;
        assert!(
            (x - y).abs() <= tol,
            "{what}: {x} came back as {y}, off by {:e}, quantum {q:e}",
            (x - y).abs()
        );
    };
    let mut patch_elev: std::collections::HashMap<usize, (f64, f64)> = Default::default();
    for p in a.patches() {
        let all = p
            .primitives
            .iter()
            .flat_map(|pr| pr.vertices.chunks_exact(p.depth));
        let (lo, hi, _, _) = plane_range(all, 2);
        let e = patch_elev.entry(p.depth).or_insert((lo, hi));
        *e = (e.0.min(lo), e.1.max(hi));
    }
    let floor16 = 1.0 / f64::from(n);
    // Lon/lat: half a step of two cells of 1/(n/2) degree at most.
    let ll = 2.0 / f64::from(n) / 65535.0;
    for (i, (x, y)) in a.entities.iter().zip(&b.entities).enumerate() {
        let what = |k: usize| format!("entity {i} plane {k}");
        match (x, y) {
            (Entity::Object(p), Entity::Object(q)) => {
                near(p.lon, q.lon, ll, &what(0));
                near(p.lat, q.lat, ll, &what(1));
                let dh = (p.heading - q.heading).rem_euclid(360.0);
                assert!(
                    dh.min(360.0 - dh) <= 360.0 / 65535.0 / 2.0 + 1e-9,
                    "{p:?} {q:?}"
                );
                let e = p.elevation.unwrap();
                let span = 2.0 * pow2_at_least(e.abs()).max(1024.0);
                near(
                    e,
                    q.elevation.unwrap(),
                    quantum16(span, e.abs() + span),
                    &what(3),
                );
            }
            (Entity::Polygon(p), Entity::Polygon(q)) => {
                assert_eq!((p.depth, p.param), (q.depth, q.param));
                let d = p.depth;
                let all = || p.windings.iter().flat_map(|w| w.chunks_exact(d));
                for k in 2..d {
                    let (lo, hi, m, raw) = plane_range(all(), k);
                    let w = pow2_at_least(hi - lo).max(floor16);
                    let quantum = if raw {
                        0.0
                    } else {
                        quantum16(2.0 * w, m + 2.0 * w)
                    };
                    for (u, v) in all().zip(q.windings.iter().flat_map(|w| w.chunks_exact(d))) {
                        near(u[0], v[0], ll, &what(0));
                        near(u[1], v[1], ll, &what(1));
                        near(u[k], v[k], quantum, &what(k));
                    }
                }
            }
            (Entity::Patch(p), Entity::Patch(q)) => {
                let d = p.depth;
                assert_eq!(p.primitives.len(), q.primitives.len());
                let (elo, ehi) = patch_elev[&d];
                let espan = 2.0 * pow2_at_least(ehi - elo);
                let eq = quantum16(espan, elo.abs().max(ehi.abs()) + espan);
                for (s, t) in p.primitives.iter().zip(&q.primitives) {
                    let pts = || s.vertices.chunks_exact(d);
                    for (u, v) in pts().zip(t.vertices.chunks_exact(d)) {
                        near(u[0], v[0], ll, &what(0));
                        near(u[1], v[1], ll, &what(1));
                        near(u[2], v[2], eq, &what(2));
                    }
                    for k in 3..d {
                        let (_, _, m, _) = plane_range(pts(), k);
                        let span = 2.0 * pow2_at_least(m).max(1.0);
                        for (u, v) in pts().zip(t.vertices.chunks_exact(d)) {
                            near(u[k], v[k], quantum16(span, m + span), &what(k));
                        }
                    }
                }
            }
            (Entity::Network(p), Entity::Network(q)) => {
                let d = p.depth;
                for k in 0..d {
                    let (_, _, m, _) = plane_range(p.points(), k);
                    let floor: f64 = if k == 2 || k == 6 { 65536.0 } else { 1.0 };
                    let span = 2.0 * pow2_at_least(m).max(floor);
                    let quantum = if k == 3 {
                        0.0
                    } else {
                        quantum32(span, m + span)
                    };
                    for (u, v) in p.points().zip(q.points()) {
                        near(u[k], v[k], quantum, &what(k));
                    }
                }
            }
            _ => panic!("entity {i}: kinds differ: {x:?} / {y:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// Every plane of every pool is fitted to the values it holds and
    /// pools split where entities' planes differ: lon-like, UV-like, tiny,
    /// huge and constant planes (and mixes of them in one entity or one
    /// pool) each come back within the quantum of their own values, never
    /// within that of a neighbour's (issue 24: control points and texture
    /// coordinates of real airports moved by up to 1.9e-3 through a pool
    /// shared with wider planes).
    #[test]
    fn every_plane_comes_back_within_the_quantum_of_its_own_values(
        seed: u64,
        blocks in proptest::collection::vec(0u8..4, 1..10),
        divisions in prop_oneof![Just(32u32), 1u32..=64],
    ) {
        let m = extra_planes_model(seed, &blocks);
        let opts = BuildOptions { divisions, ..BuildOptions::default() };
        let back = dsf::read(&dsf::build(&m, &opts).unwrap()).unwrap();
        assert_within_quantum(&m, &back, divisions.next_power_of_two());
    }
}

/// Issue 24, "Bezier control points and texture coordinates move": a
/// curved taxi line (`.lin`, 4 planes: lon, lat and the control point) and
/// a draped polygon with texture coordinates (`.pol`, param 65535, 4
/// planes: lon, lat, s, t) in the same 1/32-degree cell shared one pool,
/// whose third and fourth planes then spanned 0 to 39.2: the control
/// points came back up to 4.9e-4 degrees (54 m) off and the texture
/// coordinates as far. Each now has pools of its own planes' range: the
/// control points within a micro-degree, the texture coordinates within a
/// 16-bit step of 0–1 (DSFTool keeps 3.8e-6 and 3.1e-5 on real tiles).
#[test]
fn bezier_control_points_and_texture_coordinates_do_not_move() {
    let t = "I\n800\nDSF2TEXT\nDIVISIONS 32\n\
             PROPERTY sim/west 39\nPROPERTY sim/south 21\nPROPERTY sim/east 40\n\
             PROPERTY sim/north 22\n\
             POLYGON_DEF lib/airport/lines/solid_yellow.lin\n\
             POLYGON_DEF lib/airport/pavement/asphalt.pol\n\
             BEGIN_POLYGON 0 0 4\nBEGIN_WINDING\n\
             POLYGON_POINT 39.135678454 21.667812345 39.135701234 21.667823456\n\
             POLYGON_POINT 39.136012345 21.668012345 39.136056789 21.668098765\n\
             POLYGON_POINT 39.136512345 21.668512345 39.136498765 21.668587654\n\
             END_WINDING\nEND_POLYGON\n\
             BEGIN_POLYGON 1 65535 4\nBEGIN_WINDING\n\
             POLYGON_POINT 39.135000000 21.667000000 0.000000000 0.000000000\n\
             POLYGON_POINT 39.136000000 21.667000000 0.123456789 0.000000000\n\
             POLYGON_POINT 39.136000000 21.668000000 0.987654321 0.876543210\n\
             POLYGON_POINT 39.135000000 21.668000000 0.000000000 1.000000000\n\
             END_WINDING\nEND_POLYGON\n";
    let (m, o) = parse(t);
    for opts in [
        o,
        BuildOptions {
            group: true,
            strip: true,
            ..o
        },
    ] {
        let back = dsf::read(&dsf::build(&m, &opts).unwrap()).unwrap();
        let e = dsf_support::plane_errors(&m, &back).unwrap();
        use dsf_support::PlaneKind;
        assert!(e.of(PlaneKind::LonLat) <= 1e-6, "{e:?}");
        assert!(e.of(PlaneKind::Control) <= 1e-6, "{e:?}");
        assert!(e.of(PlaneKind::Uv) <= 1.6e-5, "{e:?}");
        assert!(e.worst.contains_key(&PlaneKind::Control) && e.worst.contains_key(&PlaneKind::Uv));
    }
}

/// An error of the owned build names the entity by its index in the
/// model as given, not by its place in the written order.
#[test]
fn the_owned_build_names_a_bad_entity_by_its_index_in_the_model() {
    let mut d = dsf::Dsf {
        properties: [("west", 13), ("south", 47), ("east", 14), ("north", 48)]
            .iter()
            .map(|(k, v)| (format!("sim/{k}"), v.to_string()))
            .collect(),
        object_defs: vec!["a.obj".into(), "b.obj".into()],
        ..dsf::Dsf::default()
    };
    // Definition 1 first in the text, definition 0 after: grouping writes
    // the def-0 objects first, so the bad one (entity 2) is written 0th.
    let object = |def, lon: f64| {
        Entity::Object(dsf::Object {
            def,
            lon,
            lat: 47.5,
            heading: 0.0,
            elevation: None,
            mode: dsf::ElevationMode::Draped,
        })
    };
    d.entities = vec![object(1, 13.1), object(1, 13.2), object(0, f64::NAN)];
    let opts = BuildOptions {
        group: true,
        ..BuildOptions::default()
    };
    let borrowed = dsf::build(&d, &opts).unwrap_err();
    let owned = dsf::write::build_owned(d, &opts).unwrap_err();
    assert_eq!(borrowed.entity, Some(2));
    assert_eq!(owned.entity, Some(2), "{owned:?}");
    assert_eq!(owned.message, borrowed.message);
}
