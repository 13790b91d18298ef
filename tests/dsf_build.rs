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
        let g = dsf::read(&dsf::build(&m0, &grouped).unwrap()).unwrap();
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
        let g = dsf::read(&dsf::build(&m0, &grouped).unwrap()).unwrap();
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
