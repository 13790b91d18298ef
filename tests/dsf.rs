//! DSF reader, builder, DSF2Text and autogen listing: real tiles, round
//! trips, 7z, hostile input and CLI snapshots.

use agkit::diag::{Location, Severity};
use agkit::dsf::{
    self, BuildOptions, Command, Dsf, ElevationMode, Entity, ErrorKind, Md5Status, NetworkChain,
    Object, Patch, Polygon, Primitive, PrimitiveKind, Raster, TextOptions, autogen::AutogenKind,
};
use proptest::prelude::*;
use std::path::PathBuf;

mod dsf_support;
use dsf_support::{Rng, assert_same_within, close};

const DEMO_TXT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/dsf/autogen_demo.txt");
const DEMO_DSF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/dsf/autogen_demo.dsf");
/// A second tile agkit built (the `Town` package of the installation
/// fixture).
const TOWN_DSF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/xplane/Custom Scenery/Town/Earth nav data/+40+010/+47+013.dsf"
);
/// A third (the `Airport` package's overlay).
const AIRPORT_DSF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/xplane/Custom Scenery/Airport/Earth nav data/+40+010/+47+013.dsf"
);

fn bytes(p: &str) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn no_raster(_: &str) -> Result<Vec<u8>, String> {
    Err("no rasters here".into())
}

fn parse_text(t: &str) -> (Dsf, BuildOptions) {
    dsf::from_text(t, &mut no_raster).unwrap()
}

fn text_of(d: &Dsf) -> String {
    dsf::to_text(d, &TextOptions::default())
}

/// The text without its comment lines (DSFTool's pool summary, `# file:`).
fn strip_comments(t: &str) -> String {
    t.lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

// ------------------------------------------------------------ generated

/// A generated tile: objects (draped, MSL, AGL), AGB and AGS polygons (AGS
/// with a hole), a facade with a wall-type plane, a terrain patch with all
/// three primitive kinds and a network chain with an inner junction.
fn generated(seed: &[f64]) -> Dsf {
    let j = |i: usize| seed[i % seed.len()];
    let mut d = Dsf {
        properties: vec![
            ("sim/west".into(), "-123".into()),
            ("sim/south".into(), "45".into()),
            ("sim/east".into(), "-122".into()),
            ("sim/north".into(), "46".into()),
            ("sim/filter/aptid".into(), "KPDX".into()),
        ],
        terrain_defs: vec!["terrain/grass.ter".into()],
        object_defs: vec!["objects/tree.obj".into(), "point/plaza.AGP".into()],
        polygon_defs: vec![
            "block/city_block.agb".into(),
            "string/town_edge.ags".into(),
            "facades/wall.fac".into(),
        ],
        network_defs: vec!["lib/g8/roads.net".into()],
        ..Dsf::default()
    };
    let lon = |x: f64| -123.0 + x;
    let lat = |y: f64| 45.0 + y;
    d.entities.push(Entity::Object(Object {
        def: 0,
        lon: lon(0.1 + 0.01 * j(0)),
        lat: lat(0.2 + 0.01 * j(1)),
        heading: 359.0 * j(2),
        elevation: None,
        mode: ElevationMode::Draped,
    }));
    // Headings that quantize to raw 65535 (prints 360.000) and a negative
    // one (stored as 270).
    for h in [359.9999, -90.0] {
        d.entities.push(Entity::Object(Object {
            def: 0,
            lon: lon(0.1),
            lat: lat(0.2),
            heading: h,
            elevation: None,
            mode: ElevationMode::Draped,
        }));
    }
    d.entities.push(Entity::Filter(0));
    d.entities.push(Entity::Object(Object {
        def: 1,
        lon: lon(0.11 + 0.01 * j(3)),
        lat: lat(0.21),
        heading: 90.0,
        elevation: None,
        mode: ElevationMode::Draped,
    }));
    d.entities.push(Entity::Object(Object {
        def: 0,
        lon: lon(0.5 + 0.1 * j(4)),
        lat: lat(0.6),
        heading: 12.5,
        elevation: Some(100.0 + 50.0 * j(5)),
        mode: ElevationMode::Msl,
    }));
    d.entities.push(Entity::Object(Object {
        def: 0,
        lon: lon(0.5),
        lat: lat(0.61),
        heading: 200.0,
        elevation: Some(3.5 * j(6)),
        mode: ElevationMode::Agl,
    }));
    d.entities.push(Entity::Filter(-1));
    let sq = |x: f64, y: f64, w: f64, ccw: bool| {
        let mut v = vec![
            lon(x),
            lat(y),
            lon(x + w),
            lat(y),
            lon(x + w),
            lat(y + w),
            lon(x),
            lat(y + w),
        ];
        if !ccw {
            let pts: Vec<[f64; 2]> = v.chunks(2).rev().map(|c| [c[0], c[1]]).collect();
            v = pts.concat();
        }
        v
    };
    d.entities.push(Entity::Polygon(Polygon {
        def: 0,
        param: (5 << 8) | 3,
        depth: 2,
        windings: vec![sq(0.3 + 0.01 * j(7), 0.3, 0.001, true)],
    }));
    d.entities.push(Entity::Polygon(Polygon {
        def: 1,
        param: (3 << 8) | 1,
        depth: 2,
        windings: vec![
            sq(0.7, 0.7 + 0.01 * j(8), 0.004, true),
            sq(0.701, 0.701 + 0.01 * j(8), 0.001, false),
        ],
    }));
    d.entities.push(Entity::Polygon(Polygon {
        def: 2,
        param: 12,
        depth: 3,
        windings: vec![vec![
            lon(0.9),
            lat(0.9),
            1.0,
            lon(0.9001),
            lat(0.9),
            0.0,
            lon(0.9001),
            lat(0.9001),
            2.0,
        ]],
    }));
    let v = |x: f64, y: f64, z: f64| vec![lon(x), lat(y), z, 0.1 * j(9) - 0.05, 0.02, x, y];
    d.entities.push(Entity::Patch(Patch {
        def: 0,
        flags: 1,
        lod_near: 0.0,
        lod_far: -1.0,
        depth: 7,
        primitives: vec![
            Primitive {
                kind: PrimitiveKind::Triangles,
                vertices: [
                    v(0.0, 0.0, 10.0),
                    v(0.1, 0.0, 11.0),
                    v(0.0, 0.1, 12.5 * j(10)),
                ]
                .concat(),
            },
            Primitive {
                kind: PrimitiveKind::Strip,
                vertices: [
                    v(0.2, 0.2, 1.0),
                    v(0.3, 0.2, 2.0),
                    v(0.2, 0.3, 3.0),
                    v(0.3, 0.3, 4.0),
                ]
                .concat(),
            },
            Primitive {
                kind: PrimitiveKind::Fan,
                vertices: [v(0.5, 0.5, 1.0), v(0.6, 0.5, 2.0), v(0.6, 0.6, 3.0)].concat(),
            },
        ],
    }));
    let n = |x: f64, y: f64, id: f64| vec![lon(x), lat(y), 20.0 * j(11), id];
    d.entities.push(Entity::Network(NetworkChain {
        def: 0,
        subtype: 3,
        depth: 4,
        points: [
            n(0.4, 0.4, 1.0),
            n(0.41, 0.4 + 0.01 * j(12), 0.0),
            n(0.42, 0.41, 2.0),
            n(0.43, 0.42, 0.0),
            n(0.44, 0.44, 3.0),
        ]
        .concat(),
    }));
    d
}

#[test]
fn generated_tile_round_trips() {
    let d = generated(&[0.3, 0.7, 0.1, 0.9, 0.5]);
    let b1 = dsf::build(&d, &BuildOptions::default()).unwrap();
    let r = dsf::read(&b1).unwrap();
    assert_eq!(r.md5, Md5Status::Valid);
    assert_eq!(r.properties, d.properties);
    assert_same_within(&d, &r, &r, Some(2.4e-7));
    // Every plane is in the shortest of modes 0, 2 and 3; junction IDs use
    // scale 0.
    assert!(
        r.pools
            .iter()
            .chain(&r.pools32)
            .all(|p| p.planes.iter().all(|pl| pl.encoding != 1))
    );
    assert!(r.pools32.iter().all(|p| p.planes[3].scale == 0.0));
    // Autogen uses: the AGP (upper-case extension), the AGB and the AGS.
    let uses = dsf::autogen_uses(&r);
    let kinds: Vec<AutogenKind> = uses.iter().map(|u| u.kind).collect();
    assert_eq!(
        kinds,
        [AutogenKind::Agp, AutogenKind::Agb, AutogenKind::Ags]
    );
    assert_eq!(uses[1].height, Some(20.0));
    assert_eq!(uses[1].low, Some(3));
    assert_eq!(uses[2].height, Some(12.0));
    assert_eq!(uses[2].low, Some(1));
    assert_eq!(uses[2].windings.len(), 2);
    assert_eq!(uses[2].windings[1].len(), 4);
    // The network text is split at the inner junction and merged back.
    let t = text_of(&r);
    assert_eq!(t.matches("BEGIN_SEGMENT ").count(), 2);
    assert_eq!(t.matches("SHAPE_POINT ").count(), 2);
    let (m, o) = parse_text(&t);
    assert_eq!(m.chains().count(), 1);
    let b2 = dsf::build(&m, &o).unwrap();
    assert_eq!(
        strip_comments(&text_of(&dsf::read(&b2).unwrap())),
        strip_comments(&t)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn generated_tiles_round_trip(seed in proptest::collection::vec(0.0f64..1.0, 13)) {
        let d = generated(&seed);
        let b1 = dsf::build(&d, &BuildOptions::default()).unwrap();
        let r1 = dsf::read(&b1).unwrap();
        assert_same_within(&d, &r1, &r1, Some(4.8e-7));
        // text -> binary -> text is a fixed point once the values are on the
        // pools' grids.
        let t1 = text_of(&r1);
        let (m, o) = parse_text(&t1);
        let r2 = dsf::read(&dsf::build(&m, &o).unwrap()).unwrap();
        prop_assert_eq!(strip_comments(&text_of(&r2)), strip_comments(&t1));
    }

    #[test]
    fn rle_diff_encoding_round_trips(raw in proptest::collection::vec(0u32..65536, 0..600), wide: bool) {
        let raw: Vec<u32> = if wide { raw.iter().map(|v| v.wrapping_mul(65537)).collect() } else { raw };
        let mut payload = Vec::new();
        payload.extend_from_slice(&(raw.len() as u32).to_le_bytes());
        payload.push(1);
        payload.push(3);
        dsf::write::rle_diff(&mut payload, &raw, wide);
        let file = tiny_dsf_with_pool(&payload, wide);
        let d = dsf::read(&file).unwrap();
        let pool = if wide { &d.pools32[0] } else { &d.pools[0] };
        prop_assert_eq!(&pool.planes[0].raw, &raw);
    }

    #[test]
    fn hostile_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300), cut in 0usize..600) {
        // Random bytes, and a tile cut or corrupted at a random place.
        let _ = dsf::check_bytes(&data);
        let mut tile = bytes(DEMO_DSF);
        let k = cut % tile.len();
        tile[k] ^= data.first().copied().unwrap_or(0x5A) | 1;
        let _ = dsf::check_bytes(&tile);
        let _ = dsf::check_bytes(&tile[..k]);
    }
}

// ------------------------------------------------------------------- 7z

fn seven_zip(inner: &[u8]) -> Vec<u8> {
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter};
    let mut w = ArchiveWriter::new(std::io::Cursor::new(Vec::new())).unwrap();
    w.push_archive_entry(ArchiveEntry::new_file("+47+013.dsf"), Some(inner))
        .unwrap();
    w.finish().unwrap().into_inner()
}

#[test]
fn seven_zip_copy_reads_the_same() {
    let plain = bytes(DEMO_DSF);
    let packed = seven_zip(&plain);
    assert!(packed.starts_with(&dsf::read::SEVENZ_MAGIC));
    let a = dsf::read(&plain).unwrap();
    let b = dsf::read(&packed).unwrap();
    assert!(b.compressed && !a.compressed);
    assert_eq!(a.properties, b.properties);
    assert_eq!(a.entities, b.entities);
    assert_eq!(a.pools, b.pools);
    assert_eq!(b.md5, Md5Status::Valid);
    assert!(dsf::check_bytes(&packed).is_empty());
    // More than the limit unpacked is refused.
    let size = plain.len() as u64;
    let e = dsf::read::unpack_7z_limited(&packed, size - 1).unwrap_err();
    assert_eq!(e.code(), "DSF015", "{e}");
    assert_eq!(dsf::read::unpack_7z_limited(&packed, size).unwrap(), plain);
    // A broken archive is an error, not a panic.
    let e = dsf::read(&packed[..packed.len() / 2]).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::SevenZ(_)), "{e}");
    assert_eq!(e.code(), "DSF016");
}

/// A 32-bit pool payload of `n` points of one plane, all 7, in RLE repeat
/// runs (5 bytes per 127 values).
fn rle_pool(n: u32) -> Vec<u8> {
    let mut p = n.to_le_bytes().to_vec();
    p.extend_from_slice(&[1, 2]);
    let mut left = n;
    while left > 0 {
        let c = left.min(127);
        p.push(0x80 | c as u8);
        p.extend_from_slice(&7u32.to_le_bytes());
        left -= c;
    }
    p
}

/// A DSF whose one 32-bit pool claims `n` values ([`rle_pool`]): tiny
/// once compressed.
fn rle_bomb(n: u32) -> Vec<u8> {
    let mut g = atom(*b"PO32", &rle_pool(n));
    g.extend(atom(*b"SC32", &[0u8; 8]));
    assemble(&g, &[], &["x.obj"])
}

#[test]
fn seven_zip_bombs_are_refused_relative_to_the_archive() {
    use agkit::limits::Limits;
    // 40 M values (160 MB of u32) in a 1.6 MB DSF, a few KB once packed.
    let plain = rle_bomb(40_000_000);
    let packed = seven_zip(&plain);
    assert!(packed.len() * 100 < plain.len(), "{} bytes", packed.len());
    let plane_at = plain.windows(4).position(|w| w == b"23OP").unwrap() + 8 + 5;
    // Refused with the default limits: by the archive's ratio, or at the
    // pool.
    let e = dsf::read(&packed).unwrap_err();
    assert_eq!(e.code(), "DSF015", "{e}");
    assert!([0, plane_at as u64].contains(&e.offset), "{e}");
    // With a ratio that lets the DSF unpack, its pool may still decode to
    // only a quarter of the same bytes (4 bytes a value): refused at the
    // plane.
    let ratio = Limits {
        max_unpack_ratio: plain.len().div_ceil(packed.len()) as u64,
        ..Limits::default()
    };
    let e = dsf::read::read_with(&packed, &ratio).unwrap_err();
    assert_eq!((e.code(), e.offset), ("DSF015", plane_at as u64), "{e}");
    // That offset is in the unpacked DSF, and the message says so.
    assert!(
        e.unpacked && e.to_string().contains("inside the 7z archive"),
        "{e}"
    );
    // Read plain, the same pool exceeds its budget of 8 values a byte of
    // DSF.
    let e = dsf::read(&plain).unwrap_err();
    assert_eq!((e.code(), e.offset), ("DSF015", plane_at as u64), "{e}");
    assert!(!e.unpacked && !e.to_string().contains("7z"), "{e}");
    // A tighter ratio refuses the archive itself, before unpacking, naming
    // the entry and the sizes.
    let tight = Limits {
        max_unpack_ratio: 10,
        ..Limits::default()
    };
    let e = dsf::read::read_with(&packed, &tight).unwrap_err();
    assert_eq!((e.code(), e.offset), ("DSF015", 0), "{e}");
    assert!(!e.unpacked, "{e}");
    let m = e.to_string();
    assert!(
        m.contains("+47+013.dsf") && m.contains(&plain.len().to_string()),
        "{m}"
    );
    // So does the absolute cap.
    let capped = Limits {
        max_unpacked_bytes: 1 << 20,
        ..Limits::default()
    };
    let e = dsf::read::read_with(&packed, &capped).unwrap_err();
    assert_eq!((e.code(), e.offset), ("DSF015", 0), "{e}");

    // The CLI names the file and the offset, with exit status 1.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bomb.dsf");
    std::fs::write(&f, &packed).unwrap();
    for out in refusals(&f) {
        assert!(out.contains("DSF015") && out.contains("bomb.dsf"), "{out}");
        assert!(out.contains("byte"), "{out}");
    }
    // A damaged DSF inside an archive: the offset is the inner file's, and
    // the report says so.
    let mut cut = bytes(DEMO_DSF);
    cut.truncate(cut.len() - 20);
    let inner = dsf::read(&cut).unwrap_err();
    assert_eq!(inner.code(), "DSF004", "{inner}");
    let damaged = dir.path().join("damaged.dsf");
    std::fs::write(&damaged, seven_zip(&cut)).unwrap();
    for out in refusals(&damaged) {
        assert!(
            out.contains("DSF004")
                && out.contains(&format!("byte {}", inner.offset))
                && out.contains("inside the 7z archive"),
            "{out}"
        );
    }
}

/// What `agkit check` and `agkit dsf totext` print for `f`, each asserted
/// to exit 1.
fn refusals(f: &std::path::Path) -> Vec<String> {
    let commands: [&[&str]; 2] = [&["check", path(f)], &["dsf", "totext", path(f)]];
    commands
        .iter()
        .map(|args| {
            let o = run(args);
            assert_eq!(o.status.code(), Some(1), "{args:?}");
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        })
        .collect()
}

// -------------------------------------------------------------- hostile

/// A minimal DSF whose GEOD holds one pool atom with `payload` (and a scale
/// atom for its planes) and an empty CMDS.
fn tiny_dsf_with_pool(payload: &[u8], wide: bool) -> Vec<u8> {
    let planes = payload.get(4).copied().unwrap_or(0) as usize;
    let (pid, sid) = if wide {
        (*b"PO32", *b"SC32")
    } else {
        (*b"POOL", *b"SCAL")
    };
    let mut geod = atom(pid, payload);
    geod.extend(atom(sid, &vec![0u8; 8 * planes]));
    assemble(&geod, &[], &["x.obj"])
}

fn atom(id: [u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut a = u32::from_be_bytes(id).to_le_bytes().to_vec();
    a.extend_from_slice(&((payload.len() + 8) as u32).to_le_bytes());
    a.extend_from_slice(payload);
    a
}

/// A DSF with the given GEOD payload, CMDS payload and object definitions.
fn assemble(geod: &[u8], cmds: &[u8], objects: &[&str]) -> Vec<u8> {
    assemble_defs(geod, cmds, [&[], objects, &[], &[]])
}

/// A DSF with the given GEOD and CMDS payloads and TERT, OBJT, POLY, NETW.
fn assemble_defs(geod: &[u8], cmds: &[u8], tables: [&[&str]; 4]) -> Vec<u8> {
    use md5::{Digest, Md5};
    let mut f = b"XPLNEDSF".to_vec();
    f.extend_from_slice(&1i32.to_le_bytes());
    f.extend(atom(
        *b"HEAD",
        &atom(
            *b"PROP",
            b"sim/west\x0012\x00sim/south\x0047\x00sim/east\x0013\x00sim/north\x0048\x00",
        ),
    ));
    let mut defn = Vec::new();
    for (id, table) in [*b"TERT", *b"OBJT", *b"POLY", *b"NETW"]
        .into_iter()
        .zip(tables)
    {
        let mut t = Vec::new();
        for o in table {
            t.extend_from_slice(o.as_bytes());
            t.push(0);
        }
        defn.extend(atom(id, &t));
    }
    f.extend(atom(*b"DEFN", &defn));
    f.extend(atom(*b"GEOD", geod));
    f.extend(atom(*b"CMDS", cmds));
    let d: [u8; 16] = Md5::digest(&f).into();
    f.extend_from_slice(&d);
    f
}

/// One 3-plane 16-bit pool with two points, raw encoding.
fn two_point_pool() -> Vec<u8> {
    let mut p = 2u32.to_le_bytes().to_vec();
    p.push(3);
    for _ in 0..3 {
        p.push(0);
        p.extend_from_slice(&[1, 0, 2, 0]);
    }
    let mut g = atom(*b"POOL", &p);
    g.extend(atom(*b"SCAL", &[0u8; 24]));
    g
}

/// Offset of the CMDS payload in a file built by `assemble`.
fn cmds_payload_offset(f: &[u8]) -> u64 {
    let id = u32::from_be_bytes(*b"CMDS").to_le_bytes();
    (f.windows(4).rposition(|w| w == id).unwrap() + 8) as u64
}

fn expect_err(file: &[u8], code: &str, offset: u64) -> ErrorKind {
    let e = dsf::read(file).unwrap_err();
    assert_eq!(e.code(), code, "{e}");
    assert_eq!(e.offset, offset, "{e}");
    let diags: Vec<_> = dsf::check_bytes(file)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code, code);
    assert_eq!(diags[0].location, Location::Offset(offset));
    e.kind
}

#[test]
fn good_tiny_file_reads() {
    let f = assemble(
        &two_point_pool(),
        &[1, 0, 0, 3, 0, 8, 0, 0, 2, 0],
        &["x.obj"],
    );
    let d = dsf::read(&f).unwrap();
    assert_eq!(d.objects().count(), 2);
    // Scale 0: raw values.
    assert_eq!(d.objects().nth(1).unwrap().lon, 2.0);
}

#[test]
fn wrong_magic_and_version() {
    let mut f = assemble(&two_point_pool(), &[], &[]);
    f[0] = b'Y';
    expect_err(&f, "DSF001", 0);
    let mut f = assemble(&two_point_pool(), &[], &[]);
    f[8] = 2;
    assert_eq!(expect_err(&f, "DSF002", 8), ErrorKind::BadVersion(2));
    expect_err(b"XPLNEDSF\x01\x00\x00\x00", "DSF003", 12);
}

#[test]
fn atom_length_below_8_or_past_end() {
    let mut f = assemble(&two_point_pool(), &[], &[]);
    f[16..20].copy_from_slice(&4u32.to_le_bytes()); // HEAD length
    expect_err(&f, "DSF004", 12);
    let mut f = assemble(&two_point_pool(), &[], &[]);
    f[16..20].copy_from_slice(&100_000u32.to_le_bytes());
    expect_err(&f, "DSF004", 12);
}

#[test]
fn missing_atom() {
    let f = assemble(&two_point_pool(), &[], &[]);
    // Rename CMDS to CMDX: the file lacks CMDS.
    let id = u32::from_be_bytes(*b"CMDS").to_le_bytes();
    let at = f.windows(4).rposition(|w| w == id).unwrap();
    let mut g = f.clone();
    g[at] = b'X';
    let k = expect_err(&g, "DSF005", (f.len() - 16) as u64);
    assert_eq!(k, ErrorKind::MissingAtom("CMDS"));
}

#[test]
fn pool_index_out_of_range() {
    let f = assemble(&two_point_pool(), &[1, 5, 0], &["x.obj"]);
    let at = cmds_payload_offset(&f);
    let k = expect_err(&f, "DSF009", at);
    assert_eq!(k, ErrorKind::PoolIndex { pool: 5, count: 1 });
    // Geometry before any PoolSelect.
    let f = assemble(&two_point_pool(), &[3, 0, 7, 0, 0], &["x.obj"]);
    expect_err(&f, "DSF009", cmds_payload_offset(&f) + 2);
}

#[test]
fn point_index_out_of_range() {
    let f = assemble(
        &two_point_pool(),
        &[1, 0, 0, 3, 0, 8, 0, 0, 3, 0],
        &["x.obj"],
    );
    let k = expect_err(&f, "DSF010", cmds_payload_offset(&f) + 5);
    assert!(matches!(k, ErrorKind::PointIndex { count: 2, .. }), "{k:?}");
}

#[test]
fn def_index_out_of_range() {
    let f = assemble(&two_point_pool(), &[1, 0, 0, 3, 4, 7, 0, 0], &["x.obj"]);
    let k = expect_err(&f, "DSF011", cmds_payload_offset(&f) + 5);
    assert_eq!(
        k,
        ErrorKind::DefIndex {
            table: "OBJT",
            def: 4,
            count: 1
        }
    );
}

#[test]
fn truncated_command_and_unknown_opcode() {
    let f = assemble(&two_point_pool(), &[1, 0, 0, 8, 0], &["x.obj"]);
    let k = expect_err(&f, "DSF013", cmds_payload_offset(&f) + 3);
    assert_eq!(k, ErrorKind::TruncatedCommand(8));
    // A polygon whose count says 200 points but the atom ends.
    let f = assemble(&two_point_pool(), &[12, 0, 0, 200, 1, 0], &["x.obj"]);
    expect_err(&f, "DSF013", cmds_payload_offset(&f));
    let f = assemble(&two_point_pool(), &[1, 0, 0, 20], &["x.obj"]);
    let k = expect_err(&f, "DSF012", cmds_payload_offset(&f) + 3);
    assert_eq!(k, ErrorKind::UnknownOpcode(20));
    let f = assemble(&two_point_pool(), &[0], &[]);
    expect_err(&f, "DSF012", cmds_payload_offset(&f));
}

#[test]
fn rle_overrun_and_zero_run() {
    // N = 3, D = 1, mode 2, a repeat run of 5.
    let mut p = 3u32.to_le_bytes().to_vec();
    p.extend_from_slice(&[1, 2, 0x85, 7, 0]);
    let f = tiny_dsf_with_pool(&p, false);
    let plane_at = f.windows(4).position(|w| w == b"LOOP").unwrap() + 8 + 5;
    let k = expect_err(&f, "DSF007", plane_at as u64 + 1);
    assert!(k.to_string().contains("overruns"), "{k}");
    let mut p = 3u32.to_le_bytes().to_vec();
    p.extend_from_slice(&[1, 2, 0x80, 7, 0]);
    let f = tiny_dsf_with_pool(&p, false);
    expect_err(&f, "DSF007", plane_at as u64 + 1);
}

#[test]
fn huge_point_count_is_refused_before_allocating() {
    // A 189-byte file whose PO32 header claims 4 Gi points of 4 bytes
    // (16 GiB): refused at the plane, before any allocation.
    for mode in 0..4u8 {
        let mut p = u32::MAX.to_le_bytes().to_vec();
        p.extend_from_slice(&[1, mode, 0x81, 0, 0]);
        let f = tiny_dsf_with_pool(&p, true);
        assert!(f.len() < 200, "{} bytes", f.len());
        let plane_at = f.windows(4).position(|w| w == b"23OP").unwrap() + 8 + 5;
        let k = expect_err(&f, "DSF015", plane_at as u64);
        assert!(k.to_string().contains("claims 4294967295 points"), "{k}");
    }
    // Within the budget (a quarter of 1000 bytes per byte of file) but
    // more than the bytes can hold.
    for mode in 0..4u8 {
        let mut p = 20_000u32.to_le_bytes().to_vec();
        p.extend_from_slice(&[1, mode, 0x81, 0, 0]);
        let f = tiny_dsf_with_pool(&p, false);
        let plane_at = f.windows(4).position(|w| w == b"LOOP").unwrap() + 8 + 5;
        let k = expect_err(&f, "DSF007", plane_at as u64);
        assert!(k.to_string().contains("need at least"), "{k}");
    }
    // Unknown encoding.
    let mut p = 1u32.to_le_bytes().to_vec();
    p.extend_from_slice(&[1, 9, 0, 0]);
    let f = tiny_dsf_with_pool(&p, false);
    let plane_at = f.windows(4).position(|w| w == b"LOOP").unwrap() + 8 + 5;
    let k = expect_err(&f, "DSF007", plane_at as u64);
    assert!(k.to_string().contains("encoding 9"), "{k}");
}

#[test]
fn rle_pool_amplification_is_capped() {
    // Two 32-bit pools of 600,000 points each, one plane, RLE repeat runs
    // of 127 (5 bytes each): the bytes are all there (about 47 KB), but
    // 1.2 million values exceed the budget of a 47 KB file (1 Mi values):
    // the second pool's plane is refused.
    let n = 600_000u32;
    let p = rle_pool(n);
    let mut g = atom(*b"PO32", &p);
    g.extend(atom(*b"SC32", &[0u8; 8]));
    let one = assemble(&g, &[], &["x.obj"]);
    let d = dsf::read(&one).unwrap();
    assert_eq!(d.pools32[0].planes[0].raw.len(), n as usize);
    assert!(d.pools32[0].planes[0].raw.iter().all(|&v| v == 7));
    let mut g2 = g.clone();
    g2.extend(atom(*b"PO32", &p));
    g2.extend(atom(*b"SC32", &[0u8; 8]));
    let f = assemble(&g2, &[], &["x.obj"]);
    assert!(
        dsf::read::value_budget(f.len()) < 2 * u64::from(n),
        "the test needs a budget below both pools"
    );
    let second = f
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"23OP")
        .nth(1)
        .unwrap()
        .0;
    let k = expect_err(&f, "DSF015", (second + 8 + 5) as u64);
    assert!(k.to_string().contains("claims 600000 points"), "{k}");
}

#[test]
fn one_byte_patch_commands_are_bounded() {
    // 200,000 TerrainPatch opcodes (one byte each) would make 200,000
    // patches from a 200 KB file; each entity is charged, so the stream
    // is refused with the offset of the command that crossed the budget.
    let mut g = atom(*b"POOL", &[0, 0, 0, 0, 0]);
    g.extend(atom(*b"SCAL", &[]));
    let mut cmds = vec![1, 0, 0, 3, 0];
    cmds.extend(std::iter::repeat_n(16u8, 200_000));
    let file = assemble_defs(&g, &cmds, [&["t.ter"], &[], &[], &[]]);
    let e = match dsf::read(&file) {
        Ok(d) => panic!("read {} patches", d.patches().count()),
        Err(e) => e,
    };
    assert_eq!(e.code(), "DSF015", "{e}");
    let start = cmds_payload_offset(&file);
    assert!(e.offset > start + 5 && e.offset < start + cmds.len() as u64);
    // A few thousand are fine.
    cmds.truncate(5 + 3000);
    let d = dsf::read(&assemble_defs(&g, &cmds, [&["t.ter"], &[], &[], &[]])).unwrap();
    assert_eq!(d.patches().count(), 3000);
}

#[test]
fn huge_range_amplification_is_bounded() {
    // One 65535-point pool (RLE: 516 runs), then 40,000 ObjectRange commands
    // over all of it: 2.6 billion objects would be asked for.
    let n = 65535u32;
    let mut p = n.to_le_bytes().to_vec();
    p.push(3);
    let mut plane = vec![2u8];
    let mut left = n;
    while left > 0 {
        let c = left.min(127);
        plane.extend_from_slice(&[0x80 | c as u8, 0, 0]);
        left -= c;
    }
    for _ in 0..3 {
        p.extend_from_slice(&plane);
    }
    let mut g = atom(*b"POOL", &p);
    g.extend(atom(*b"SCAL", &[0u8; 24]));
    let mut cmds = vec![1, 0, 0, 3, 0];
    for _ in 0..40_000 {
        cmds.extend_from_slice(&[8, 0, 0, 0xFF, 0xFF]);
    }
    let f = assemble(&g, &cmds, &["x.obj"]);
    let e = dsf::read(&f).unwrap_err();
    assert_eq!(e.code(), "DSF015", "{e}");
}

#[test]
fn md5_mismatch_is_a_warning() {
    let mut f = bytes(DEMO_DSF);
    let n = f.len();
    f[n - 1] ^= 0xFF;
    let d = dsf::read(&f).unwrap();
    assert!(matches!(d.md5, Md5Status::Mismatch { offset, .. } if offset == (n - 16) as u64));
    let diags = dsf::check_bytes(&f);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity, Severity::Warning);
    assert_eq!(diags[0].code, "DSF020");
    assert_eq!(diags[0].location, Location::Offset((n - 16) as u64));
}

// ---------------------------------------------------------------- rasters

#[test]
fn rasters_round_trip_through_sidecar_files() {
    let mut d = generated(&[0.5]);
    d.raster_defs = vec!["elevation".into()];
    d.rasters = vec![Raster {
        name: "elevation".into(),
        version: 1,
        bpp: 2,
        flags: 5,
        width: 3,
        height: 2,
        scale: 1.0,
        offset: 0.0,
        data: vec![1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0xFF, 0x7F],
    }];
    let b = dsf::build(&d, &BuildOptions::default()).unwrap();
    let r = dsf::read(&b).unwrap();
    assert_eq!(r.rasters, d.rasters);

    let dir = tempfile::tempdir().unwrap();
    let dsf_path = dir.path().join("r.dsf");
    std::fs::write(&dsf_path, &b).unwrap();
    let txt = dir.path().join("r.txt");
    run_ok(&["dsf", "totext", path(&dsf_path), "-o", path(&txt)]);
    let side = dir.path().join("r.txt.elevation.raw");
    assert_eq!(std::fs::read(&side).unwrap(), d.rasters[0].data);
    let text = std::fs::read_to_string(&txt).unwrap();
    assert!(text.contains(
        "RASTER_DATA version=1 bpp=2 flags=5 width=3 height=2 scale=1.000000 offset=0.000000 "
    ));
    let out = dir.path().join("back.dsf");
    run_ok(&["dsf", "build", path(&txt), "-o", path(&out)]);
    let back = dsf::read(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(back.rasters, d.rasters);
}

// -------------------------------------------------------------------- CLI

fn path(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

fn run(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
        .args(args)
        .output()
        .unwrap()
}

fn run_ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn cli_autogen_snapshots() {
    let demo_human = run_ok(&["dsf", "autogen", DEMO_DSF]);
    insta::assert_snapshot!("autogen_demo_human", demo_human);
    let json: serde_json::Value =
        serde_json::from_str(&run_ok(&["dsf", "autogen", DEMO_DSF, "--format", "json"])).unwrap();
    insta::assert_json_snapshot!("autogen_demo_json", json);
}

#[test]
fn committed_example_is_built_from_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo.dsf");
    run_ok(&["dsf", "build", DEMO_TXT, "-o", path(&out)]);
    assert_eq!(std::fs::read(&out).unwrap(), bytes(DEMO_DSF));
    let d = dsf::read(&bytes(DEMO_DSF)).unwrap();
    let uses = dsf::autogen_uses(&d);
    assert_eq!(uses.len(), 3);
    assert_eq!(uses[0].asset, "point/plaza.agp");
    assert_eq!(uses[1].asset, "block/city_block.agb");
    assert_eq!(uses[1].windings[0].len(), 4);
    assert_eq!(uses[2].asset, "string/town_edge.ags");
    assert_eq!(uses[2].windings.len(), 2);
    // The assets are the examples package's own (paths relative to
    // examples/).
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    for u in &uses {
        assert!(root.join(&u.asset).is_file(), "{} is missing", u.asset);
    }
}

#[test]
fn cli_totext_many_files_and_directories() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("tiles");
    std::fs::create_dir_all(src.join("+40+010")).unwrap();
    std::fs::copy(DEMO_DSF, src.join("+40+010/+47+013.dsf")).unwrap();
    std::fs::copy(TOWN_DSF, src.join("+47+012.dsf")).unwrap();
    // A truncated tile among good ones, and a text file that is skipped.
    let mut cut = bytes(DEMO_DSF);
    cut.truncate(100);
    std::fs::write(src.join("+40+010/+47+014.dsf"), &cut).unwrap();
    std::fs::write(src.join("notes.txt"), "not a tile").unwrap();

    // A directory into -o DIR: the layout below it is kept; the bad tile
    // is reported with its name and byte offset; the others are written;
    // the exit status is 1.
    let out = dir.path().join("out");
    let o = run(&["dsf", "totext", path(&src), "-o", path(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("+47+014.dsf @ byte"), "{err}");
    assert!(err.contains("2 converted, 1 failed"), "{err}");
    let a = std::fs::read_to_string(out.join("+40+010/+47+013.dsf.txt")).unwrap();
    let b = std::fs::read_to_string(out.join("+47+012.dsf.txt")).unwrap();
    assert!(!out.join("+40+010/+47+014.dsf.txt").exists());
    assert!(!out.join("notes.txt.txt").exists());
    let single = |f: &str| {
        let t = run_ok(&["dsf", "totext", f]);
        t.lines()
            .filter(|l| !l.starts_with("# file:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("# file:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), single(DEMO_DSF));
    assert_eq!(strip(&b), single(TOWN_DSF));

    // Several files without -o: each text next to its DSF; all good → 0.
    let f1 = src.join("+47+012.dsf");
    let f2 = src.join("+40+010/+47+013.dsf");
    let o = run(&["dsf", "totext", path(&f1), path(&f2)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        strip(&std::fs::read_to_string(src.join("+47+012.dsf.txt")).unwrap()),
        strip(&b)
    );
    assert!(src.join("+40+010/+47+013.dsf.txt").is_file());
    // The inputs are untouched.
    assert_eq!(std::fs::read(&f1).unwrap(), bytes(TOWN_DSF));

    // A missing file among good ones: exit 2 (I/O), the good one written.
    let out2 = dir.path().join("out2");
    let o = run(&[
        "dsf",
        "totext",
        path(&f1),
        path(&dir.path().join("nope.dsf")),
        "-o",
        path(&out2),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope.dsf"));
    assert!(out2.join("+47+012.dsf.txt").is_file());

    // Two inputs with the same name into one directory: the second is an
    // error rather than overwriting the first.
    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::copy(DEMO_DSF, other.join("+47+012.dsf")).unwrap();
    let out3 = dir.path().join("out3");
    let o = run(&[
        "dsf",
        "totext",
        path(&f1),
        path(&other.join("+47+012.dsf")),
        "-o",
        path(&out3),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("already written"));
    assert_eq!(
        strip(&std::fs::read_to_string(out3.join("+47+012.dsf.txt")).unwrap()),
        strip(&b)
    );

    // -o naming a file with several inputs is a usage error.
    let o = run(&["dsf", "totext", path(&f1), path(&f2), "-o", path(&f1)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&f1).unwrap(), bytes(TOWN_DSF));

    // One file into an existing directory.
    let out4 = dir.path().join("out4");
    std::fs::create_dir_all(&out4).unwrap();
    run_ok(&["dsf", "totext", path(&f1), "-o", path(&out4)]);
    assert!(out4.join("+47+012.dsf.txt").is_file());
}

#[test]
fn cli_totext_build_round_trip_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let t1 = dir.path().join("a.txt");
    run_ok(&["dsf", "totext", DEMO_DSF, "-o", path(&t1)]);
    let d1 = dir.path().join("a.dsf");
    run_ok(&["dsf", "build", path(&t1), "-o", path(&d1)]);
    let t2 = run_ok(&["dsf", "totext", path(&d1)]);
    assert_eq!(
        strip_comments(&std::fs::read_to_string(&t1).unwrap()),
        strip_comments(&t2)
    );

    // An output naming the input is refused, and the input kept.
    let before = std::fs::read(&t1).unwrap();
    let o = run(&["dsf", "build", path(&t1), "-o", path(&t1)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("writing it would replace it"));
    assert_eq!(std::fs::read(&t1).unwrap(), before);
    let before = std::fs::read(&d1).unwrap();
    let same = dir.path().join(".").join("a.dsf");
    let o = run(&["dsf", "totext", path(&d1), "-o", path(&same)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&d1).unwrap(), before);

    // A bad DSF: exit 1 with code and offset.
    let bad = dir.path().join("bad.dsf");
    let mut b = bytes(DEMO_DSF);
    b[0] = b'Q';
    std::fs::write(&bad, &b).unwrap();
    let o = run(&["dsf", "totext", path(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("DSF001") && err.contains("@ byte 0"), "{err}");

    // A bad text: exit 1 with the line.
    let bt = dir.path().join("bad.txt");
    std::fs::write(
        &bt,
        "PROPERTY sim/west 1\nOBJECT_DEF a.obj\nOBJECT 3 1 2 3\n",
    )
    .unwrap();
    let o = run(&[
        "dsf",
        "build",
        path(&bt),
        "-o",
        path(&dir.path().join("x.dsf")),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.txt:3:1") && err.contains("definition 3"),
        "{err}"
    );
    assert!(!dir.path().join("x.dsf").exists());

    // A text that parses but cannot be built: exit 1 at the line of the
    // entity the builder refuses (not its index in the model), with the
    // value readable.
    let bt = dir.path().join("far.txt");
    std::fs::write(
        &bt,
        "OBJECT_DEF a.obj\nNETWORK_DEF r.net\nOBJECT 0 1 2 3\n\
         BEGIN_SEGMENT 0 0 1 1 2 0\nEND_SEGMENT 2 1.1 2 0\n\
         BEGIN_SEGMENT 0 0 2 1.1 2 0\nEND_SEGMENT 3 1.2 2 0\n\
         OBJECT_MSL 0 1 2 1e308 0\nBEGIN_SEGMENT 0 300 4 1 2 0\nEND_SEGMENT 5 1 2 0\n\
         PROPERTY sim/west 1\nPROPERTY sim/south 2\nPROPERTY sim/east 2\nPROPERTY sim/north 3\n",
    )
    .unwrap();
    let x = dir.path().join("x.dsf");
    let o = run(&["dsf", "build", path(&bt), "-o", path(&x)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("DSF031") && err.contains("far.txt:8:1") && err.contains("1e308"),
        "{err}"
    );
    assert!(!x.exists());
    // The two segments sharing node 2 are one chain, which begins on
    // line 4; the chain after the object begins on line 9.
    let t = std::fs::read_to_string(&bt).unwrap();
    let line_of = |i: usize| {
        let s = dsf::text::entity_span(&t, i).unwrap();
        t[..s.start].lines().count() + 1
    };
    assert_eq!(
        [line_of(0), line_of(1), line_of(2), line_of(3)],
        [3, 4, 8, 9]
    );
    assert_eq!(dsf::text::entity_span(&t, 4), None);
    std::fs::write(&bt, t.replace("1e308", "10")).unwrap();
    let o = run(&["dsf", "build", path(&bt), "-o", path(&x)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("far.txt:9:1") && err.contains("subtype 300"),
        "{err}"
    );

    // A RASTER_DATA line naming something other than a regular file is
    // refused before reading it (/dev/zero would never end).
    let bt = dir.path().join("dev.txt");
    std::fs::write(
        &bt,
        "RASTER_DEF elevation\nRASTER_DATA version=1 bpp=2 flags=5 width=2 height=2 \
         scale=1 offset=0 /dev/zero\nPROPERTY sim/west 1\nPROPERTY sim/south 2\nPROPERTY sim/east 2\nPROPERTY sim/north 3\n",
    )
    .unwrap();
    let o = run(&["dsf", "build", path(&bt), "-o", path(&x)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dev.txt:2:1") && err.contains("not a regular file"),
        "{err}"
    );

    // agkit check on a good tile and a broken one.
    let o = run(&["check", DEMO_DSF]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["check", path(&bad)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("DSF001"));
}

#[test]
fn text_reader_errors_name_the_line() {
    let cases = [
        (
            "POLYGON_DEF a.agb\nBEGIN_POLYGON 0 1 2\nBEGIN_WINDING\nPOLYGON_POINT 1 2 3\n",
            4,
        ),
        ("OBJECT_DEF a.obj\nOBJECT 0 1 2\n", 2),
        ("OBJECT_DEF a.obj\nOBJECT 0 1 x 2\n", 2),
        (
            "TERRAIN_DEF t.ter\nBEGIN_PATCH 0 0 -1 1 5\nPATCH_VERTEX 1 2 3 4 5\n",
            3,
        ),
        ("POLYGON_DEF a.agb\nEND_POLYGON\n", 2),
        ("DIVISIONS 0\n", 1),
    ];
    for (text, line) in cases {
        let e = dsf::from_text(text, &mut no_raster).unwrap_err();
        assert_eq!(e.line, line, "{text}: {e}");
        // The span is that line, without its end (a report shows one line).
        let shown = &text[e.span.clone()];
        assert!(!shown.contains('\n'), "{shown:?}");
        assert_eq!(text.lines().nth(line - 1), Some(shown), "{text}");
    }
    // An unterminated polygon.
    let e = dsf::from_text("POLYGON_DEF a.agb\nBEGIN_POLYGON 0 1\n", &mut no_raster).unwrap_err();
    assert!(e.message.contains("ends inside"));
    // Comments, CRLF and unknown keywords are accepted.
    let (d, _) = parse_text(
        "FOO bar\r\nOBJECT_DEF a.obj # comment\r\nOBJECT 0 1 2 3 # x\r\n\
         PROPERTY sim/west 1\r\nPROPERTY sim/south 2\r\nPROPERTY sim/east 2\r\nPROPERTY sim/north 3\r\n",
    );
    assert_eq!(d.object_defs, ["a.obj"]);
    assert_eq!(d.objects().count(), 1);
}

/// A raw-encoded (mode 0) pool whose point `i`, plane `k` is
/// `base + i + 100 k`, except plane 3 of a 32-bit pool, which is `junctions`.
fn raw_pool(n: u32, d: u8, base: u32, wide: bool, junctions: &[u32]) -> Vec<u8> {
    let mut p = n.to_le_bytes().to_vec();
    p.push(d);
    for k in 0..u32::from(d) {
        p.push(0);
        for i in 0..n {
            let v = if wide && k == 3 {
                junctions[i as usize]
            } else {
                base + i + 100 * k
            };
            if wide {
                p.extend_from_slice(&v.to_le_bytes());
            } else {
                p.extend_from_slice(&(v as u16).to_le_bytes());
            }
        }
    }
    p
}

#[test]
fn hand_assembled_commands_decode() {
    // Two 5-plane 16-bit pools, one 4-plane 32-bit pool, all scale 0 (raw).
    let mut geod = atom(*b"POOL", &raw_pool(3, 5, 0, false, &[]));
    geod.extend(atom(*b"POOL", &raw_pool(3, 5, 1000, false, &[])));
    geod.extend(atom(*b"SCAL", &[0u8; 40]));
    geod.extend(atom(*b"SCAL", &[0u8; 40]));
    geod.extend(atom(*b"PO32", &raw_pool(4, 4, 0, true, &[1, 0, 0, 2])));
    geod.extend(atom(*b"SC32", &[0u8; 32]));
    let cmds: Vec<u8> = [
        &[1, 0, 0][..],                               // PoolSelect 0
        &[3, 0],                                      // SetDefinition8 0
        &[17, 3],                                     // TerrainPatchFlags 3
        &[23, 3, 0, 0, 1, 0, 2, 0],                   // Triangle 0 1 2
        &[24, 3, 0, 0, 0, 0, 1, 0, 2, 0, 1, 0, 0, 0], // cross-pool (0,0) (1,2) (1,0)
        &[16],                                        // TerrainPatch (flags persist)
        &[29, 3, 2, 0, 1, 0, 0, 0],                   // TriangleFan 2 1 0
        &[26, 3, 0, 0, 1, 0, 2, 0],                   // TriangleStrip 0 1 2
        &[12, 7, 0, 2, 0, 0, 1, 0],                   // Polygon param 7: 0 1
        &[14, 9, 0, 2, 1, 2, 0, 2, 0, 0, 1, 0],       // NestedPolygon param 9: [2] [0 1]
        &[2, 1, 0, 0, 0],                             // JunctionOffset 1
        &[6, 5],                                      // SetRoadSubtype8 5
        &[9, 2, 0, 0, 2, 0],                          // NetworkChain 0 2 (+1)
        &[11, 2, 0, 0, 0, 0, 3, 0, 0, 0],             // NetworkChain32 0 3
        &[34, 6, 0, 0, 0, 1, 0, 255, 255, 255, 255],  // Comment32: filter -1
        &[33, 3, 0, 9, 9, 9],                         // Comment16: plain comment
    ]
    .concat();
    let f = assemble_defs(&geod, &cmds, [&["t.ter"], &[], &["p.fac"], &["n.net"]]);
    let d = dsf::read(&f).unwrap();
    let pt = |base: f64, i: f64, depth: usize| -> Vec<f64> {
        (0..depth).map(|k| base + i + 100.0 * k as f64).collect()
    };
    let patches: Vec<&Patch> = d.patches().collect();
    assert_eq!(patches.len(), 2);
    assert_eq!((patches[0].flags, patches[0].depth), (3, 5));
    assert_eq!((patches[0].lod_near, patches[0].lod_far), (-1.0, -1.0));
    assert_eq!(patches[0].primitives.len(), 2);
    assert_eq!(
        patches[0].primitives[0].vertices,
        [pt(0.0, 0.0, 5), pt(0.0, 1.0, 5), pt(0.0, 2.0, 5)].concat()
    );
    assert_eq!(
        patches[0].primitives[1].vertices,
        [pt(0.0, 0.0, 5), pt(1000.0, 2.0, 5), pt(1000.0, 0.0, 5)].concat()
    );
    assert_eq!(patches[1].flags, 3);
    let kinds: Vec<PrimitiveKind> = patches[1].primitives.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [PrimitiveKind::Fan, PrimitiveKind::Strip]);
    assert_eq!(
        patches[1].primitives[0].vertices,
        [pt(0.0, 2.0, 5), pt(0.0, 1.0, 5), pt(0.0, 0.0, 5)].concat()
    );
    let polys: Vec<&Polygon> = d.polygons().collect();
    assert_eq!((polys[0].param, polys[0].depth), (7, 5));
    assert_eq!(
        polys[0].windings,
        [[pt(0.0, 0.0, 5), pt(0.0, 1.0, 5)].concat()]
    );
    assert_eq!(polys[1].param, 9);
    assert_eq!(
        polys[1].windings,
        [pt(0.0, 2.0, 5), [pt(0.0, 0.0, 5), pt(0.0, 1.0, 5)].concat()]
    );
    let chains: Vec<&NetworkChain> = d.chains().collect();
    assert_eq!(chains.len(), 2);
    assert_eq!(chains[0].subtype, 5);
    // Junction offset 1 applies to opcode 9 (indices 1, 3) ...
    assert_eq!(
        chains[0].points,
        [1.0, 101.0, 201.0, 0.0, 3.0, 103.0, 203.0, 2.0]
    );
    // ... and not to opcode 11 (indices 0, 3).
    assert_eq!(
        chains[1].points,
        [0.0, 100.0, 200.0, 1.0, 3.0, 103.0, 203.0, 2.0]
    );
    assert_eq!(d.entities.last(), Some(&Entity::Filter(-1)));
    // The builder re-creates the entities (these raw integers are not real
    // coordinates, so the lon/lat cells quantize them: compare within half
    // a step of a two-cell box, other planes within a step of their
    // power-of-two grid), and a second trip is exact.
    let (m, o) = parse_text(&text_of(&d));
    let again = dsf::read(&dsf::build(&m, &o).unwrap()).unwrap();
    assert_eq!(again.entities.len(), d.entities.len());
    for (a, b) in d.patches().zip(again.patches()) {
        for (p, q) in a.primitives.iter().zip(&b.primitives) {
            assert_eq!(p.kind, q.kind);
            for (u, v) in p.vertices.iter().zip(&q.vertices) {
                assert!(close(*u, *v, 1.0 / 65535.0), "{u} {v}");
            }
        }
    }
    let t1 = text_of(&again);
    let (m, o) = parse_text(&t1);
    assert_eq!(
        strip_comments(&text_of(&dsf::read(&dsf::build(&m, &o).unwrap()).unwrap())),
        strip_comments(&t1)
    );
}

/// Found by the dsf_read fuzz smoke: an AGB polygon with no winding (a
/// binary DSF can hold one) made the lint index its first winding.
#[test]
fn an_autogen_polygon_without_windings_is_linted_not_a_panic() {
    let mut d = generated(&[0.5]);
    d.entities.push(Entity::Polygon(Polygon {
        def: 0,
        param: 0,
        depth: 2,
        windings: Vec::new(),
    }));
    let diags = dsf::lint::lint(&d);
    let agb = diags.iter().find(|x| x.code == "DSF021").expect("DSF021");
    assert!(
        agb.message
            .contains("0 winding(s), the first with 0 points"),
        "{}",
        agb.message
    );
    let crash = bytes(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/crashers/dsf_read/agb_without_windings"
    ));
    let _ = dsf::check_bytes(&crash);
}

#[test]
fn lint_warnings_for_autogen_shapes_bounds_and_filters() {
    let mut d = generated(&[0.5]);
    d.properties.retain(|(n, _)| n != "sim/north");
    d.properties.push(("sim/west".into(), "x".into()));
    // AGP from a 4-plane (MSL) pool.
    d.entities.push(Entity::Object(Object {
        def: 1,
        lon: -122.5,
        lat: 45.5,
        heading: 0.0,
        elevation: Some(10.0),
        mode: ElevationMode::Msl,
    }));
    // AGB with 3 points, clockwise.
    d.entities.push(Entity::Polygon(Polygon {
        def: 0,
        param: 0,
        depth: 2,
        windings: vec![vec![-122.5, 45.5, -122.5, 45.501, -122.499, 45.5]],
    }));
    // AGS claiming 3 spawning contours with 1 winding, depth 3.
    d.entities.push(Entity::Polygon(Polygon {
        def: 1,
        param: 3,
        depth: 3,
        windings: vec![vec![
            -122.5, 45.5, 0.5, -122.499, 45.5, 0.5, -122.499, 45.501, 0.5,
        ]],
    }));
    d.entities.push(Entity::Filter(4));
    let file = dsf::build(&d, &BuildOptions::default()).unwrap();
    let diags = dsf::check_bytes(&file);
    assert!(diags.iter().all(|x| x.severity == Severity::Warning));
    let codes: Vec<&str> = diags.iter().map(|x| x.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "DSF026", "DSF025", "DSF021", "DSF022", "DSF024", "DSF023", "DSF027"
        ]
    );
    // Entity warnings point at the command that made the entity.
    assert!(
        diags[1..]
            .iter()
            .all(|x| matches!(x.location, Location::Offset(_)))
    );
    insta::assert_snapshot!(
        "lint_warnings",
        agkit::diag::render_human("lint.dsf", None, &diags)
    );
    // The example and agkit's fixture tiles are clean (the real tiles:
    // tests/corpus/dsf.rs).
    for f in [DEMO_DSF, TOWN_DSF, AIRPORT_DSF] {
        assert_eq!(dsf::check_bytes(&bytes(f)), [], "{f}");
    }
}

// ---------------------------------------------------------- every command

const N: u16 = 16;

/// A tile with hand-made pools on grids the builder's own contain (lon/lat
/// boxes of 1/8 degree, power-of-two steps of 16-bit planes, 32-bit ranges
/// from a whole-unit offset), so the text of any command list over them
/// survives text → DSF → text exactly:
/// 16-bit pools 0 draped objects, 1 MSL/AGL objects, 2 polygons, 3 facade
/// polygons with a raw wall-type plane, 4 and 5 terrain (depth 5); 32-bit
/// pool 0 a network whose even points are junctions.
fn command_tile(seed: u64) -> Dsf {
    use agkit::dsf::{Plane, Pool};
    let mut r = Rng(seed | 1);
    let plane = |r: &mut Rng, scale: f32, offset: f32, wide: bool, f: &dyn Fn(u32) -> u32| Plane {
        encoding: r.below(4) as u8,
        scale,
        offset,
        raw: (0..u32::from(N))
            .map(|i| {
                let v = f(i);
                if v == u32::MAX {
                    let x = r.below(65536) as u32;
                    if wide { x.wrapping_mul(65537) } else { x }
                } else {
                    v
                }
            })
            .collect(),
        wide,
    };
    let any = |_| u32::MAX;
    let mut pools = Vec::new();
    let lonlat = |r: &mut Rng, wide: bool| {
        if wide {
            vec![
                plane(r, 1.0, 12.0, wide, &any),
                plane(r, 1.0, 47.0, wide, &any),
            ]
        } else {
            vec![
                plane(r, 0.125, 12.375, wide, &any),
                plane(r, 0.125, 47.625, wide, &any),
            ]
        }
    };
    // A 16-bit plane of power-of-two step 2^-k.
    let step = |k: i32| (65535.0 * 2f64.powi(-k)) as f32;
    for kind in 0..6 {
        let mut planes = lonlat(&mut r, false);
        match kind {
            0 | 1 => {
                planes.push(plane(&mut r, 360.0, 0.0, false, &any));
                if kind == 1 {
                    planes.push(plane(&mut r, step(6), 0.0, false, &any));
                }
            }
            2 => {}
            3 => planes.push(plane(&mut r, 0.0, 0.0, false, &|i| i % 8)),
            _ => {
                planes.push(plane(&mut r, step(7), 0.0, false, &any));
                planes.push(plane(&mut r, step(14), -4.0, false, &any));
                planes.push(plane(&mut r, step(14), -4.0, false, &any));
            }
        }
        pools.push(Pool {
            offset: 0,
            count: usize::from(N),
            planes,
        });
    }
    let mut net = lonlat(&mut r, true);
    net.push(plane(&mut r, 1.0, 0.0, true, &any));
    net.push(plane(&mut r, 0.0, 0.0, true, &|i| {
        if i % 2 == 0 { i / 2 + 1 } else { 0 }
    }));
    Dsf {
        properties: vec![
            ("sim/west".into(), "12".into()),
            ("sim/south".into(), "47".into()),
            ("sim/east".into(), "13".into()),
            ("sim/north".into(), "48".into()),
            ("sim/filter/aptid".into(), "LOWI".into()),
        ],
        terrain_defs: vec!["t0.ter".into(), "t1.ter".into()],
        object_defs: vec!["o0.obj".into(), "p.agp".into()],
        polygon_defs: vec!["b.agb".into(), "s.ags".into(), "w.fac".into()],
        network_defs: vec!["r.net".into()],
        pools,
        pools32: vec![Pool {
            offset: 0,
            count: usize::from(N),
            planes: net,
        }],
        ..Dsf::default()
    }
}

/// `SetDefinition` in a random width.
fn def_cmd(r: &mut Rng, count: u64) -> Command {
    let d = r.below(count);
    match r.below(3) {
        0 => Command::SetDefinition8(d as u8),
        1 => Command::SetDefinition16(d as u16),
        _ => Command::SetDefinition32(d as u32),
    }
}

/// A comment body in a random width.
fn comment_cmd(r: &mut Rng, body: Vec<u8>) -> Command {
    match (body.len() > 255, r.below(3)) {
        (false, 0) => Command::Comment8(body),
        (_, 1) => Command::Comment16(body),
        _ => Command::Comment32(body),
    }
}

fn typed(r: &mut Rng, kind: u16, v: i32) -> Command {
    let mut b = kind.to_le_bytes().to_vec();
    b.extend_from_slice(&v.to_le_bytes());
    comment_cmd(r, b)
}

fn idx(r: &mut Rng, min: usize, max: usize) -> Vec<u16> {
    let n = min + r.below((max - min + 1) as u64) as usize;
    (0..n).map(|_| r.below(u64::from(N)) as u16).collect()
}

fn span(r: &mut Rng) -> (u16, u16) {
    let a = r.below(u64::from(N) - 1) as u16;
    (a, a + 1 + r.below(u64::from(N - a - 1)) as u16)
}

/// An even (junction) point index at or above `min`.
fn junction(r: &mut Rng, min: u16) -> u16 {
    let lo = min.div_ceil(2);
    2 * (lo + r.below(u64::from(N / 2 - lo)) as u16)
}

/// One valid block of commands of kind `kind`.
fn block(kind: u8, seed: u64) -> Vec<Command> {
    use PrimitiveKind::*;
    let mut r = Rng(seed | 1);
    let r = &mut r;
    match kind {
        0 => {
            let (a, b) = span(r);
            let one = Command::Object(a);
            vec![
                Command::PoolSelect(0),
                def_cmd(r, 2),
                if r.below(2) == 0 {
                    one
                } else {
                    Command::ObjectRange(a, b)
                },
            ]
        }
        1 => {
            let (a, b) = span(r);
            let agl = r.below(2) as i32;
            vec![
                typed(r, 2, agl),
                Command::PoolSelect(1),
                def_cmd(r, 2),
                if r.below(2) == 0 {
                    Command::Object(b - 1)
                } else {
                    Command::ObjectRange(a, b)
                },
            ]
        }
        2 => {
            let f = r.below(2) as i32 - 1;
            vec![typed(r, 1, f)]
        }
        3 => {
            let len = [0usize, 3, 7, 300][r.below(4) as usize];
            let body = (0..len).map(|_| r.below(256) as u8).collect();
            vec![comment_cmd(r, body)]
        }
        4..=7 => {
            let pool = 2 + r.below(2) as u16;
            let param = r.below(65536) as u16;
            let cmd = match kind {
                4 => Command::Polygon {
                    param,
                    points: idx(r, 1, 6),
                },
                5 => {
                    let (first, last) = span(r);
                    Command::PolygonRange { param, first, last }
                }
                6 => {
                    let w = 1 + r.below(3) as usize;
                    Command::NestedPolygon {
                        param,
                        windings: (0..w).map(|_| idx(r, 1, 5)).collect(),
                    }
                }
                _ => {
                    let mut bounds = vec![r.below(4) as u16];
                    for _ in 0..1 + r.below(3) {
                        let b = *bounds.last().unwrap() + 1 + r.below(4) as u16;
                        bounds.push(b);
                    }
                    Command::NestedPolygonRange { param, bounds }
                }
            };
            vec![Command::PoolSelect(pool), def_cmd(r, 3), cmd]
        }
        8 => {
            let lods = [0.0f32, -1.0, 1000.0, 2500.5];
            let flags = r.below(4) as u8;
            let open = match r.below(3) {
                0 => Command::TerrainPatch,
                1 => Command::TerrainPatchFlags(flags),
                _ => Command::TerrainPatchFlagsLod {
                    flags,
                    near: lods[r.below(4) as usize],
                    far: lods[r.below(4) as usize],
                },
            };
            let mut v = vec![Command::PoolSelect(4), def_cmd(r, 2), open];
            for _ in 0..1 + r.below(3) {
                if r.below(3) == 0 {
                    v.push(Command::PoolSelect(4 + r.below(2) as u16));
                }
                let k = [Triangles, Strip, Fan][r.below(3) as usize];
                v.push(match r.below(3) {
                    0 => Command::Primitive(k, idx(r, 1, 7)),
                    1 => {
                        let n = 1 + r.below(6);
                        Command::PrimitiveCrossPool(
                            k,
                            (0..n)
                                .map(|_| (4 + r.below(2) as u16, r.below(u64::from(N)) as u16))
                                .collect(),
                        )
                    }
                    _ => {
                        let (a, b) = span(r);
                        Command::PrimitiveRange(k, a, b)
                    }
                });
            }
            v
        }
        _ => {
            let offset = 2 * r.below(2) as u16;
            let mut v = vec![
                Command::PoolSelect(0),
                def_cmd(r, 1),
                Command::RoadSubtype(r.below(4) as u8),
                Command::JunctionOffset(u32::from(offset)),
            ];
            // Chains start and end at junctions (even points).
            let first = junction(r, offset);
            let last = junction(r, offset);
            let mut abs = vec![first];
            for _ in 0..r.below(4) {
                abs.push(offset + r.below(u64::from(N - offset)) as u16);
            }
            abs.push(last);
            v.push(match r.below(3) {
                0 => Command::NetworkChain(abs.iter().map(|a| a - offset).collect()),
                1 => {
                    let a = junction(r, offset).min(N - 4);
                    let b = a + 2 * (1 + r.below(u64::from((N - 1 - a) / 2)) as u16);
                    Command::NetworkChainRange(a - offset, b + 1 - offset)
                }
                _ => Command::NetworkChain32(abs.iter().map(|&a| u32::from(a)).collect()),
            });
            v
        }
    }
}

/// Writes `cmds` over the command tile's pools, reads it, and checks that
/// the command list survives encoding and that its text survives
/// text → DSF → text exactly. Returns the opcodes written.
fn check_commands(seed: u64, cmds: &[Command]) -> Vec<u8> {
    let tile = command_tile(seed);
    let payload = dsf::cmd::encode_all(cmds).unwrap();
    let parsed: Vec<Command> = dsf::cmd::parse_all(&payload, 0)
        .unwrap()
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(parsed, cmds);
    let file = dsf::write_raw(&tile, cmds).unwrap();
    let d1 = dsf::read(&file).unwrap_or_else(|e| panic!("{e} in {cmds:?}"));
    assert_eq!(d1.md5, Md5Status::Valid);
    assert_eq!(d1.pools, {
        let mut p = tile.pools.clone();
        let at: Vec<u64> = d1.pools.iter().map(|q| q.offset).collect();
        for (q, o) in p.iter_mut().zip(at) {
            q.offset = o;
        }
        p
    });
    let t1 = text_of(&d1);
    let (m, o) = parse_text(&t1);
    let b2 = dsf::build(&m, &o).unwrap();
    let t2 = text_of(&dsf::read(&b2).unwrap());
    // DIVISIONS and HEIGHTS describe the pools, and the hand-made tile has
    // pools the commands may not use.
    let entities = |t: &str| {
        strip_comments(t)
            .lines()
            .filter(|l| !l.starts_with("DIVISIONS") && !l.starts_with("HEIGHTS"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(entities(&t2), entities(&t1), "commands {cmds:?}");
    cmds.iter().map(Command::opcode).collect()
}

#[test]
fn every_command_is_written_read_and_round_trips_through_text() {
    // Every block kind with many variations: together they use every
    // opcode the reader knows.
    let mut used = std::collections::BTreeSet::new();
    for seed in 0..60u64 {
        let cmds: Vec<Command> = (0..10u8)
            .flat_map(|k| block(k, seed * 31 + u64::from(k)))
            .collect();
        used.extend(check_commands(seed, &cmds));
    }
    let all: std::collections::BTreeSet<u8> = (1..=18).chain(23..=34).collect();
    assert_eq!(used, all);
}

#[test]
fn builder_opens_patches_with_16_17_and_18() {
    let mut d = generated(&[0.5]);
    let Entity::Patch(p) = d
        .entities
        .iter()
        .find(|e| matches!(e, Entity::Patch(_)))
        .unwrap()
        .clone()
    else {
        unreachable!()
    };
    // Same flags and LOD (16), other flags (17), other LOD (18).
    let mut q = p.clone();
    d.entities.push(Entity::Patch(q.clone()));
    q.flags = 3;
    d.entities.push(Entity::Patch(q.clone()));
    q.lod_far = 5000.0;
    d.entities.push(Entity::Patch(q));
    let b = dsf::build(&d, &BuildOptions::default()).unwrap();
    let id = u32::from_be_bytes(*b"CMDS").to_le_bytes();
    let at = b.windows(4).rposition(|w| w == id).unwrap();
    let len = u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as usize;
    let ops: Vec<u8> = dsf::cmd::parse_all(&b[at + 8..at + len], 0)
        .unwrap()
        .iter()
        .map(|(_, c)| c.opcode())
        .filter(|o| (16..=18).contains(o))
        .collect();
    assert_eq!(ops, [18, 16, 17, 18]);
    let r = dsf::read(&b).unwrap();
    let got: Vec<(u8, f32)> = r.patches().map(|p| (p.flags, p.lod_far)).collect();
    assert_eq!(got, [(1, -1.0), (1, -1.0), (3, -1.0), (3, 5000.0)]);
    let t = text_of(&r);
    let (m, o) = parse_text(&t);
    assert_eq!(
        strip_comments(&text_of(&dsf::read(&dsf::build(&m, &o).unwrap()).unwrap())),
        strip_comments(&t)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_command_streams_round_trip(
        seed: u64,
        blocks in proptest::collection::vec((0u8..10, any::<u64>()), 1..16),
    ) {
        let cmds: Vec<Command> = blocks.iter().flat_map(|&(k, s)| block(k, s)).collect();
        check_commands(seed, &cmds);
    }
}

#[test]
fn every_truncation_of_a_tile_is_an_error_with_an_offset() {
    let full = bytes(DEMO_DSF);
    for n in 0..full.len() {
        let e = match dsf::read(&full[..n]) {
            Ok(_) => panic!("{n} bytes read"),
            Err(e) => e,
        };
        assert!(
            ["DSF001", "DSF003", "DSF004", "DSF005"].contains(&e.code()),
            "{n}: {e}"
        );
        assert!(e.offset <= n as u64, "{n}: {e}");
    }
}

#[test]
fn cli_reports_an_md5_mismatch_with_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("+47+013.dsf");
    let mut b = bytes(DEMO_DSF);
    // Change a property value's text: the tile still reads, the digest
    // no longer matches.
    let at = b.windows(5).position(|w| w == b"earth").unwrap();
    b[at] = b'E';
    std::fs::write(&f, &b).unwrap();
    let o = run(&["dsf", "totext", path(&f)]);
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let footer = format!("@ byte {}", b.len() - 16);
    assert!(
        err.contains("warning[DSF020]") && err.contains("+47+013.dsf") && err.contains(&footer),
        "{err}"
    );
    let o = run(&["check", path(&f)]);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("DSF020") && out.contains("+47+013.dsf"),
        "{out}"
    );
}

#[test]
fn lint_finds_an_ags_outer_ring_wherever_it_comes() {
    // A tile-edge cut lists the spawning hole first: clockwise hole, then the
    // counter-clockwise outer ring. That is valid; only an AGS with no
    // counter-clockwise winding at all gets DSF022.
    let hole = vec![
        -122.6, 45.6, -122.7, 45.6, -122.7, 45.7, -122.6, 45.7, // clockwise
    ];
    let outer = vec![
        -122.9, 45.1, -122.1, 45.1, -122.1, 45.9, -122.9, 45.9, // counter-clockwise
    ];
    let reversed_outer: Vec<f64> = outer.chunks(2).rev().flatten().copied().collect();
    for (windings, want) in [
        (vec![hole.clone(), outer.clone()], false),
        (vec![outer.clone(), hole.clone()], false),
        (vec![hole, reversed_outer], true),
    ] {
        let mut d = generated(&[0.5]);
        let ags = d
            .polygon_defs
            .iter()
            .position(|p| p.ends_with(".ags"))
            .expect("the generated tile defines an AGS") as u32;
        d.entities.push(Entity::Polygon(Polygon {
            def: ags,
            param: 1,
            depth: 2,
            windings,
        }));
        let file = dsf::build(&d, &BuildOptions::default()).unwrap();
        let got = dsf::check_bytes(&file).iter().any(|x| x.code == "DSF022");
        assert_eq!(got, want);
    }
}
