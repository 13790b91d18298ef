//! The flat decode (`agkit::dsf::flat`) against a plain reading of the
//! commands: random command lists over small pools, written with
//! `write_raw`, read back; the entities and their offsets are what the
//! commands say, and `check_bytes` (which lints the flat form) says what
//! `lint` says of the model.

use agkit::dsf::cmd::{Command, parse_all};
use agkit::dsf::{self, Dsf, ElevationMode, Entity, Object, Plane, Polygon, Pool};
use proptest::prelude::*;

const COUNT: usize = 40;

fn pool(depth: usize, seed: u32, encoding: u8) -> Pool {
    let planes = (0..depth)
        .map(|p| Plane {
            encoding,
            scale: if p == 2 { 360.0 } else { 1.0 },
            offset: if p == 0 { 8.0 } else { 47.0 * (p as f32 % 2.0) },
            raw: (0..COUNT as u32)
                .map(|i| {
                    (i.wrapping_mul(2654435761)
                        .wrapping_add(seed * 97 + p as u32))
                        % 65536
                })
                .map(|v| if encoding >= 2 && v % 3 == 0 { 7 } else { v })
                .collect(),
            wide: false,
        })
        .collect();
    Pool {
        offset: 0,
        count: COUNT,
        planes,
    }
}

fn tile(encoding: u8) -> Dsf {
    let mut d = Dsf::overlay(8, 47);
    d.object_defs = vec!["a.obj".into(), "b.agp".into(), "c.agp".into()];
    d.polygon_defs = vec!["x.agb".into(), "y.ags".into(), "z.fac".into()];
    // Pool 0: lon, lat (polygons); 1: lon, lat, heading; 2: + elevation.
    d.pools = vec![
        pool(2, 1, encoding),
        pool(3, 2, encoding),
        pool(4, 3, encoding),
    ];
    d
}

/// One command of the tested subset, as generated.
fn command() -> impl Strategy<Value = Command> {
    let idx = || 0u16..COUNT as u16;
    prop_oneof![
        (0u16..3).prop_map(Command::PoolSelect),
        (0u8..3).prop_map(Command::SetDefinition8),
        idx().prop_map(Command::Object),
        (idx(), idx()).prop_map(|(a, b)| Command::ObjectRange(a.min(b), a.max(b))),
        (any::<u16>(), prop::collection::vec(idx(), 0..8))
            .prop_map(|(param, points)| Command::Polygon { param, points }),
        (any::<u16>(), idx(), idx()).prop_map(|(param, a, b)| Command::PolygonRange {
            param,
            first: a.min(b),
            last: a.max(b)
        }),
        (
            any::<u16>(),
            prop::collection::vec(prop::collection::vec(idx(), 0..6), 0..4)
        )
            .prop_map(|(param, windings)| Command::NestedPolygon { param, windings }),
        (any::<u16>(), prop::collection::vec(idx(), 1..5)).prop_map(|(param, mut bounds)| {
            bounds.sort_unstable();
            Command::NestedPolygonRange { param, bounds }
        }),
        (any::<bool>()).prop_map(|on| Command::typed_comment(2, i32::from(on))),
        (-1i32..3).prop_map(|f| Command::typed_comment(1, f)),
    ]
}

/// The entities and offsets the commands say, read plainly: objects need a
/// pool of 3 or 4 planes (pool 0 has 2: the generator keeps objects off it).
fn expected(d: &Dsf, cmds: &[(u64, Command)]) -> (Vec<Entity>, Vec<u64>) {
    let (mut pool, mut def, mut agl) = (0usize, 0u32, false);
    let mut out = (Vec::new(), Vec::new());
    let flat = |p: &Pool, i: u16, v: &mut Vec<f64>| p.point_into(usize::from(i), v);
    for (at, c) in cmds {
        let p = &d.pools[pool];
        let object = |i: u16| {
            let i = usize::from(i);
            Entity::Object(Object {
                def,
                lon: p.value(i, 0),
                lat: p.value(i, 1),
                heading: p.value(i, 2),
                elevation: (p.depth() == 4).then(|| p.value(i, 3)),
                mode: match (p.depth(), agl) {
                    (3, _) => ElevationMode::Draped,
                    (_, true) => ElevationMode::Agl,
                    _ => ElevationMode::Msl,
                },
            })
        };
        let polygon = |param: u16, ws: Vec<Vec<u16>>| {
            let windings = ws
                .into_iter()
                .map(|w| {
                    let mut v = Vec::new();
                    for i in w {
                        flat(p, i, &mut v);
                    }
                    v
                })
                .collect();
            Entity::Polygon(Polygon {
                def,
                param,
                depth: p.depth(),
                windings,
            })
        };
        let mut push = |e: Entity| {
            out.0.push(e);
            out.1.push(*at);
        };
        match c {
            Command::PoolSelect(p) => pool = usize::from(*p),
            Command::SetDefinition8(v) => def = u32::from(*v),
            Command::Object(i) => push(object(*i)),
            Command::ObjectRange(a, b) => (*a..*b).for_each(|i| push(object(i))),
            Command::Polygon { param, points } => push(polygon(*param, vec![points.clone()])),
            Command::PolygonRange { param, first, last } => {
                push(polygon(*param, vec![(*first..*last).collect()]));
            }
            Command::NestedPolygon { param, windings } => push(polygon(*param, windings.clone())),
            Command::NestedPolygonRange { param, bounds } => push(polygon(
                *param,
                bounds.windows(2).map(|w| (w[0]..w[1]).collect()).collect(),
            )),
            Command::Comment8(b) => {
                let kind = u16::from_le_bytes([b[0], b[1]]);
                let v = i32::from_le_bytes([b[2], b[3], b[4], b[5]]);
                match kind {
                    1 => push(Entity::Filter(v)),
                    _ => agl = v != 0,
                }
            }
            _ => unreachable!("not generated"),
        }
    }
    out
}

/// Keeps objects off the 2-plane pool and polygons off the others, and
/// the definitions in range of what follows.
fn fit(cmds: Vec<Command>) -> Vec<Command> {
    let mut pool = 0;
    let mut out = vec![Command::PoolSelect(0), Command::SetDefinition8(0)];
    for c in cmds {
        match &c {
            Command::PoolSelect(p) => pool = *p,
            Command::Object(_) | Command::ObjectRange(..) if pool == 0 => {
                out.push(Command::PoolSelect(1));
                pool = 1;
            }
            Command::Polygon { .. }
            | Command::PolygonRange { .. }
            | Command::NestedPolygon { .. }
            | Command::NestedPolygonRange { .. }
                if pool != 0 =>
            {
                out.push(Command::PoolSelect(0));
                pool = 0;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_flat_decode_reads_what_the_commands_say(
        cmds in prop::collection::vec(command(), 0..40),
        encoding in 0u8..4,
    ) {
        let d = tile(encoding);
        let cmds = fit(cmds);
        let file = dsf::write_raw(&d, &cmds).unwrap();
        let back = dsf::read(&file).unwrap();
        let (start, end) = find_cmds(&file);
        let parsed = parse_all(&file[start..end], start as u64).unwrap();
        let (entities, offsets) = expected(&d, &parsed);
        prop_assert_eq!(&back.entities, &entities);
        prop_assert_eq!(&back.entity_offsets, &offsets);
        // The flat form's lint is the model's.
        let mut model = agkit::dsf::lint::lint(&back);
        model.sort_by_key(|x| format!("{x:?}"));
        let mut flat = dsf::check_bytes(&file);
        flat.sort_by_key(|x| format!("{x:?}"));
        prop_assert_eq!(flat, model);
    }
}

/// Where the `CMDS` payload starts and ends.
fn find_cmds(file: &[u8]) -> (usize, usize) {
    let mut at = 12;
    let end = file.len() - 16;
    while at + 8 <= end {
        let len = u32::from_le_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
        // IDs are written as little-endian u32s of the big-endian name.
        if &file[at..at + 4] == b"SDMC" {
            return (at + 8, at + len);
        }
        at += len;
    }
    panic!("no CMDS atom")
}

#[test]
fn consecutive_object_commands_keep_one_offset_each_and_share_one_record() {
    let d = tile(0);
    let cmds: Vec<Command> = std::iter::once(Command::PoolSelect(2))
        .chain(std::iter::once(Command::SetDefinition8(1)))
        .chain((0..30u16).map(Command::Object))
        .collect();
    let file = dsf::write_raw(&d, &cmds).unwrap();
    let decoded = dsf::read::decode(&file, &Default::default()).unwrap();
    assert_eq!(
        decoded.flat().unwrap().items.len(),
        1,
        "{:?}",
        decoded.flat().unwrap().items
    );
    let back = dsf::read(&file).unwrap();
    let offs = &back.entity_offsets;
    assert_eq!(offs.len(), 30);
    assert!(offs.windows(2).all(|w| w[1] == w[0] + 3), "{offs:?}");
    // 30 elevated AGPs: one DSF025 each, at its own command.
    let diags = dsf::check_bytes(&file);
    let at: Vec<_> = diags
        .iter()
        .filter(|x| x.code == "DSF025")
        .map(|x| x.location.clone())
        .collect();
    assert_eq!(at.len(), 30);
    assert_eq!(
        at,
        offs.iter()
            .map(|&o| agkit::diag::Location::Offset(o))
            .collect::<Vec<_>>()
    );
}
