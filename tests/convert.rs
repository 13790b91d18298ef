//! `agkit convert agn`: FSX AGN cells → X-Plane DSF overlay tiles, read
//! back through agkit's own DSF reader.

use agkit::agn::{
    A2ge, A2geRecords, Agn, Cell, Chunk, Gbdd, Gblr, Group, Guid, Pbde, PolyBuilding, Prde, Quad,
    Rect, Rowh, Texture, Vers, Vgrd, Vgre, Vgro,
};
use agkit::convert::{agn, map::Map};
use agkit::dsf::{self, Entity};
use agkit::overlay::{TileId, orient};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Pool precision of the written DSF (16-bit over a small power-of-two
/// range).
const TOL: f64 = 1e-6;

const ROOF: &str = "{11111111-2222-3333-4444-555555555555}";
const VEG: &str = "{aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee}";
const OBJ: &str = "{01234567-89ab-cdef-0123-456789abcdef}";
const PBD: &str = "{99999999-8888-7777-6666-555555555555}";
const UNKNOWN: &str = "{deadbeef-0000-0000-0000-000000000001}";

fn guid(s: &str) -> Guid {
    s.parse().unwrap()
}

fn quad(x: f32, y: f32) -> Quad {
    Quad {
        x,
        y,
        dx: 0.02,
        dy: 0.0,
        ox: 0.0,
        oy: 0.015,
    }
}

/// An AGN with every section agkit knows, records spread over the cell
/// (including across its centre).
fn every_section() -> Agn {
    let group = |children| Group { children };
    Agn {
        chunks: vec![
            Chunk::Vers(Vers {
                version: agkit::agn::DEFAULT_VERSION,
            }),
            Chunk::Gbdd(Gbdd {
                floors_1_2: 5,
                floors_3_5: 5,
                floors_6_8: 5,
                floors_9_12: 5,
            }),
            Chunk::Gbte(Texture::padded("genbuild")),
            Chunk::Rhte(Texture::padded("rowhouse")),
            Chunk::Gbld(group(vec![
                Chunk::Gblr(Gblr {
                    roof: guid(ROOF),
                    buildings: vec![quad(-0.4, -0.4), quad(0.1, 0.2), quad(0.45, 0.45)],
                }),
                Chunk::Gblr(Gblr {
                    roof: guid(UNKNOWN),
                    buildings: vec![quad(0.0, 0.0), quad(-0.2, 0.3)],
                }),
            ])),
            Chunk::Preg(group(vec![Chunk::Prde(Prde {
                vegetation: guid(VEG),
                polygons: vec![
                    vec![[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9], [0.1, 0.1]],
                    vec![[0.0, 0.0], [0.2, 0.0], [0.1, 0.3], [0.0, 0.0]],
                ],
            })])),
            Chunk::Vgrg(group(vec![Chunk::Vgre(Vgre {
                vegetation: guid(VEG),
                rects: vec![Rect {
                    x: -0.3,
                    y: -0.3,
                    dx: 0.6,
                    dy: 0.2,
                }],
            })])),
            Chunk::Vgrd(Vgrd {
                class1: 1,
                class2: 2,
                percent1: 50,
                max_density: 10,
                min_height1: 5.0,
                max_height1: 10.0,
                min_height2: 5.0,
                max_height2: 10.0,
            }),
            Chunk::Vgro(Vgro {
                rects: vec![Rect {
                    x: 0.2,
                    y: -0.45,
                    dx: 0.2,
                    dy: 0.1,
                }],
            }),
            Chunk::Rowh(Rowh {
                houses: vec![quad(-0.1, -0.1), quad(0.3, -0.3)],
            }),
            Chunk::Agn2(group(vec![
                Chunk::A2ge(A2ge {
                    object: guid(OBJ),
                    records: A2geRecords::Short(vec![Rect {
                        x: 0.0,
                        y: 0.0,
                        dx: 0.0,
                        dy: -0.01,
                    }]),
                }),
                Chunk::A2ge(A2ge {
                    object: guid(OBJ),
                    records: A2geRecords::Long(vec![Quad {
                        x: 0.2,
                        y: 0.2,
                        dx: 0.01,
                        dy: 0.0,
                        ox: 0.0,
                        oy: 0.01,
                    }]),
                }),
                Chunk::A2ge(A2ge {
                    object: guid(UNKNOWN),
                    records: A2geRecords::Short(vec![Rect {
                        x: 0.1,
                        y: 0.1,
                        dx: 0.01,
                        dy: 0.0,
                    }]),
                }),
            ])),
            Chunk::Pbld(group(vec![Chunk::Pbde(Pbde {
                building: guid(PBD),
                buildings: vec![PolyBuilding {
                    kind: 1,
                    width: 10.0,
                    footprint: vec![
                        [0.6, 0.6],
                        [0.62, 0.6],
                        [0.62, 0.63],
                        [0.61, 0.64],
                        [0.6, 0.63],
                    ],
                }],
            })])),
        ],
    }
}

/// A map for every record kind.
fn full_map() -> Map {
    Map::parse(&format!(
        r#"
floor_height = 3.0
seed = 7
forest_density = 0.5
[facade]
default = "fac/default.fac"
row_house = "fac/row.fac"
roof = {{ "{ROOF}" = "fac/roof.fac" }}
building = {{ "{PBD}" = "fac/poly.fac" }}
[forest]
fs2004 = "for/old.for"
vegetation = {{ "{VEG}" = "for/veg.for" }}
[object]
"{OBJ}" = "obj/thing.obj"
"#
    ))
    .unwrap()
}

/// A cell straddling lon 13.0 (its west edge is 12.99316°, east 13.00781°).
fn straddling_cell() -> Cell {
    let c = Cell::containing(47.5, 13.0).unwrap();
    let b = c.bounds();
    assert!(b.west < 13.0 && b.east > 13.0);
    c
}

fn inside(b: &agkit::agn::cell::Bounds, p: [f64; 2]) -> bool {
    p[0] >= b.west - TOL && p[0] <= b.east + TOL && p[1] >= b.south - TOL && p[1] <= b.north + TOL
}

fn write_agn(dir: &Path, cell: Cell, agn: &Agn) -> PathBuf {
    let p = dir.join(cell.name());
    std::fs::write(&p, agkit::agn::write(agn).unwrap()).unwrap();
    p
}

#[test]
fn every_record_lands_inside_its_cell_and_reads_back() {
    let cell = straddling_cell();
    let agn = every_section();
    let dir = tempfile::tempdir().unwrap();
    let path = write_agn(dir.path(), cell, &agn);
    let inputs = agn::read_inputs(&[dir.path().to_path_buf()]).unwrap();
    assert_eq!(inputs.len(), 1);
    assert_eq!(inputs[0].0, path);
    let cells: Vec<_> = inputs.into_iter().map(|(_, c, a)| (c, a)).collect();
    let out = agn::convert_cells(&cells, &full_map(), "agkit test", &|| {});
    let r = &out.report;
    // 5 GBLR (default facade for the unknown roof), 2 PRDE, 1 VGRE, 1 VGRO,
    // 2 ROWH, 2 A2GE mapped, 1 PBDE.
    let n = |k: &str| r.converted.get(k).copied().unwrap_or(0);
    assert_eq!(
        (
            n("GBLR"),
            n("PRDE"),
            n("VGRE"),
            n("VGRO"),
            n("ROWH"),
            n("A2GE"),
            n("PBDE")
        ),
        (5, 2, 1, 1, 2, 2, 1)
    );
    assert_eq!(r.unmapped.len(), 1);
    assert_eq!(r.unmapped[0].kind, "A2GE");
    assert_eq!(r.unmapped[0].guid, UNKNOWN);
    // The cell straddles lon 13: two tiles.
    assert_eq!(
        out.tiles.keys().copied().collect::<Vec<_>>(),
        [
            TileId {
                south: 47,
                west: 12
            },
            TileId {
                south: 47,
                west: 13
            }
        ]
    );
    let outdir = dir.path().join("scenery");
    agkit::overlay::build::write_tiles(&out.tiles, &outdir, "convert-report.json", b"{}").unwrap();
    let b = cell.bounds();
    let (mut facades, mut forests, mut objects) = (0, 0, 0);
    for (tile, model) in &out.tiles {
        let back = dsf::read(&std::fs::read(outdir.join(tile.relative_path())).unwrap()).unwrap();
        assert_eq!(back.polygon_defs, model.polygon_defs);
        assert_eq!(back.object_defs, model.object_defs);
        assert_eq!(back.property("sim/overlay"), Some("1"));
        assert_eq!(back.entities.len(), model.entities.len());
        for (e, m) in back.entities.iter().zip(&model.entities) {
            match (e, m) {
                (Entity::Object(o), Entity::Object(mo)) => {
                    objects += 1;
                    assert!(inside(&b, [o.lon, o.lat]));
                    assert!(tile.covers([o.lon, o.lat]));
                    assert!((o.lon - mo.lon).abs() < TOL && (o.lat - mo.lat).abs() < TOL);
                    assert!((o.heading - mo.heading).abs() < 0.01);
                    assert_eq!(back.object_defs[o.def as usize], "obj/thing.obj");
                }
                (Entity::Polygon(p), Entity::Polygon(mp)) => {
                    assert_eq!(p.param, mp.param);
                    let def = &back.polygon_defs[p.def as usize];
                    let ring: Vec<[f64; 2]> = p.points(0).map(|q| [q[0], q[1]]).collect();
                    assert!(orient::is_ccw(&ring), "{def} not CCW");
                    for q in p.windings.iter().flat_map(|w| w.chunks(2)) {
                        assert!(inside(&b, [q[0], q[1]]), "{def} {q:?} outside {b:?}");
                    }
                    if def.ends_with(".fac") {
                        facades += 1;
                        // Floors 1..=12 × 3 m.
                        assert!((3..=36).contains(&p.param), "{}", p.param);
                        assert_eq!(p.param % 3, 0);
                    } else {
                        forests += 1;
                        // The map's 0.5, but VGRO takes the file's VGRD
                        // maximum density of 10 %.
                        let want = if def == "for/old.for" { 26 } else { 128 };
                        assert_eq!(p.param, want, "{def}");
                        for q in p.windings.iter().flat_map(|w| w.chunks(2)) {
                            assert!(tile.covers([q[0], q[1]]), "forest clipped to {tile}");
                        }
                    }
                }
                _ => panic!("entity kinds differ"),
            }
        }
    }
    assert_eq!(facades, 5 + 2 + 1);
    assert!(forests >= 4, "4 vegetation records, some cut at lon 13");
    assert_eq!(objects, 2);
}

#[test]
fn placements_follow_the_records() {
    let cell = Cell::containing(47.55, 13.5).unwrap();
    let agn = every_section();
    let out = agn::convert_cells(&[(cell, agn)], &full_map(), "t", &|| {});
    let d = out.tiles.values().next().unwrap();
    // The first A2GE: box from (0,0) towards y = -0.01 (north): centre
    // halfway, heading north (0°).
    let objs: Vec<_> = d.objects().collect();
    let want = cell.centre_to_lonlat(0.0, f64::from(-0.01f32) / 2.0);
    assert!((objs[0].lon - want[0]).abs() < 1e-12 && (objs[0].lat - want[1]).abs() < 1e-12);
    assert!(objs[0].heading.abs() < 1e-6 || (objs[0].heading - 360.0).abs() < 1e-6);
    // The second: p + d/2 + o/2, heading east (90°).
    let h = 0.2f32 as f64 + 0.01f32 as f64 / 2.0;
    let want = cell.centre_to_lonlat(h, h);
    assert!((objs[1].lon - want[0]).abs() < 1e-9 && (objs[1].lat - want[1]).abs() < 1e-9);
    assert!((objs[1].heading - 90.0).abs() < 0.01, "{}", objs[1].heading);
    // The first GBLR building has the roof's facade and its corners.
    let first = d.polygons().next().unwrap();
    assert_eq!(d.polygon_defs[first.def as usize], "fac/roof.fac");
    let pts: Vec<[f64; 2]> = first.points(0).map(|q| [q[0], q[1]]).collect();
    for corner in [(-0.4, -0.4), (-0.38, -0.4), (-0.38, -0.385), (-0.4, -0.385)] {
        let c = cell.centre_to_lonlat(corner.0, corner.1);
        assert!(
            pts.iter()
                .any(|p| (p[0] - c[0]).abs() < 1e-8 && (p[1] - c[1]).abs() < 1e-8),
            "{corner:?} not in {pts:?}"
        );
    }
}

#[test]
fn conversion_is_deterministic_and_parallel_safe() {
    let cells: Vec<(Cell, Agn)> = (0..24)
        .map(|i| (Cell::new(13100 + i, 3880 + i % 3).unwrap(), every_section()))
        .collect();
    let count = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let a = agn::convert_cells(&cells, &full_map(), "t", &tick);
    let b = agn::convert_cells(&cells, &full_map(), "t", &|| {});
    assert_eq!(count.load(std::sync::atomic::Ordering::Relaxed), 24);
    assert_eq!(a, b);
    for (t, d) in &a.tiles {
        let x = dsf::build(d, &dsf::BuildOptions::default()).unwrap();
        let y = dsf::build(&b.tiles[t], &dsf::BuildOptions::default()).unwrap();
        assert_eq!(x, y);
    }
    // Another seed draws other heights.
    let mut other = full_map();
    other.seed = 8;
    let c = agn::convert_cells(&cells, &other, "t", &|| {});
    assert_ne!(a.tiles, c.tiles);
}

#[test]
fn the_bundled_map_converts_buildings_and_vegetation_and_reports_objects() {
    let cell = straddling_cell();
    let out = agn::convert_cells(&[(cell, every_section())], &Map::bundled(), "t", &|| {});
    let r = &out.report;
    let n = |k: &str| r.converted.get(k).copied().unwrap_or(0);
    // Every building and vegetation record becomes something visible.
    assert_eq!(
        (
            n("GBLR"),
            n("ROWH"),
            n("PBDE"),
            n("PRDE"),
            n("VGRE"),
            n("VGRO")
        ),
        (5, 2, 1, 2, 1, 1)
    );
    assert_eq!(
        r.placed.keys().collect::<Vec<_>>(),
        [
            "lib/buildings/facades/generic/low_modern_01.fac",
            "lib/buildings/facades/generic/mid_modern_01.fac",
            "lib/g8/shrb_cld_wet.for"
        ]
    );
    assert_eq!(
        r.placed["lib/buildings/facades/generic/low_modern_01.fac"],
        2
    );
    assert_eq!(
        r.placed["lib/buildings/facades/generic/mid_modern_01.fac"],
        6
    );
    // Library objects have no documented X-Plane counterpart: reported with
    // their count and the map entry that would convert them.
    let unmapped: Vec<(&str, &str, usize, &str)> = r
        .unmapped
        .iter()
        .map(|u| {
            (
                u.kind.as_str(),
                u.guid.as_str(),
                u.count,
                u.map_key.as_str(),
            )
        })
        .collect();
    assert_eq!(
        unmapped,
        [
            ("A2GE", OBJ, 2, &*format!("[object] \"{OBJ}\" = \"….obj\"")),
            (
                "A2GE",
                UNKNOWN,
                1,
                &*format!("[object] \"{UNKNOWN}\" = \"….obj\"")
            ),
        ]
    );
    assert!(out.tiles.values().all(|d| d.objects().next().is_none()));
    // The facades' tiles say so.
    for d in out.tiles.values() {
        if d.polygon_defs.iter().any(|p| p.ends_with(".fac")) {
            assert_eq!(d.property("sim/require_facade"), Some("1/0"));
        }
    }
}

#[test]
fn map_keys_of_unmapped_records_parse_as_map_entries() {
    // The hint for each record kind, with a path filled in, is a valid map
    // that maps that kind.
    let cases = [
        ("GBLR", ROOF, "x.fac"),
        ("PBDE", PBD, "x.fac"),
        ("PRDE", VEG, "x.for"),
        ("A2GE", OBJ, "x.obj"),
    ];
    for (kind, g, path) in cases {
        let key = agn::map_key(kind, g);
        let entry = key.split(" (or").next().unwrap();
        let (table, rest) = entry.split_once("] ").unwrap();
        let ext = path.rsplit('.').next().unwrap();
        let line = rest.replace(&format!("….{ext}"), path);
        let text = format!("{table}]\n{line}\n");
        let m = Map::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let guid: agkit::agn::Guid = g.parse().unwrap();
        let got = match kind {
            "GBLR" => m.facade_roof.get(&guid),
            "PBDE" => m.facade_building.get(&guid),
            "PRDE" => m.forest_vegetation.get(&guid),
            _ => m.object.get(&guid),
        };
        assert_eq!(got.map(String::as_str), Some(path), "{text}");
    }
}

fn agkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    if !dir.exists() {
        return Vec::new();
    }
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

#[test]
fn cli_converts_and_reports_unmapped_guids() {
    let dir = tempfile::tempdir().unwrap();
    let cell = straddling_cell();
    write_agn(dir.path(), cell, &every_section());
    let out = dir.path().join("scenery");
    let o = agkit()
        .args(["convert", "agn"])
        .arg(dir.path())
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(stdout.contains("1 cell(s) converted"), "{stdout}");
    assert!(
        stdout.contains("3 record(s) left unmapped (not written)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "unmapped A2GE {OBJ}: 2 record(s) → add [object] \"{OBJ}\" = \"….obj\""
        )),
        "{stdout}"
    );
    assert!(stdout.contains("GBLR: 5 record(s) converted"), "{stdout}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("convert-report.json")).unwrap())
            .unwrap();
    assert_eq!(report["cells"], 1);
    assert_eq!(report["unmapped"].as_array().unwrap().len(), 2);
    assert_eq!(
        report["unmapped"][0]["map_key"],
        format!("[object] \"{OBJ}\" = \"….obj\"")
    );
    assert!(out.join("Earth nav data/+40+010/+47+013.dsf").exists());

    // A map overriding the default.
    let map = dir.path().join("map.toml");
    std::fs::write(
        &map,
        format!("[facade]\ndefault = \"x/house.fac\"\n[object]\n\"{OBJ}\" = \"x/o.obj\"\n"),
    )
    .unwrap();
    let out2 = dir.path().join("scenery2");
    let o = agkit()
        .args(["convert", "agn"])
        .arg(dir.path().join(cell.name()))
        .arg("--map")
        .arg(&map)
        .arg("-o")
        .arg(&out2)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert!(stdout.contains("GBLR: 5 record(s) converted"), "{stdout}");
    assert!(stdout.contains("A2GE: 2 record(s) converted"), "{stdout}");
    assert!(
        !stdout.contains(&format!("unmapped A2GE {OBJ}")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("unmapped A2GE {UNKNOWN}")),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out2.join("convert-report.json")).unwrap())
            .unwrap();
    // The user's default facade wins over the bundled one; the bundled row
    // house facade stays.
    assert_eq!(report["placed"]["x/house.fac"], 6);
    assert_eq!(
        report["placed"]["lib/buildings/facades/generic/low_modern_01.fac"],
        2
    );
}

#[test]
fn bad_inputs_fail_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let cell = straddling_cell();
    write_agn(dir.path(), cell, &every_section());
    let map = dir.path().join("map.toml");
    std::fs::write(
        &map,
        "floor_height = 3.0\n[object]\n\"not-a-guid\" = \"x.obj\"\n",
    )
    .unwrap();
    let out = dir.path().join("scenery");
    let o = agkit()
        .args(["convert", "agn"])
        .arg(dir.path())
        .arg("--map")
        .arg(&map)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("map.toml:3:1:"), "{err}");
    assert!(files_under(&out).is_empty());

    // A truncated AGN and a file whose name is not a cell.
    let bytes = agkit::agn::write(&every_section()).unwrap();
    std::fs::write(dir.path().join(cell.name()), &bytes[..bytes.len() - 7]).unwrap();
    std::fs::write(dir.path().join("notacell.agn"), &bytes).unwrap();
    let o = agkit()
        .args(["convert", "agn"])
        .arg(dir.path())
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("byte "), "{err}");
    assert!(err.contains("notacell.agn"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(files_under(&out).is_empty());
}

#[test]
fn bundled_map_report_snapshot() {
    let out = agn::convert_cells(
        &[(straddling_cell(), every_section())],
        &Map::bundled(),
        "t",
        &|| {},
    );
    insta::assert_json_snapshot!("convert_bundled_map_report", out.report);
}

/// Record counts of an AGN by kind, and its library-object GUIDs.
fn census(
    chunks: &[Chunk],
    counts: &mut std::collections::BTreeMap<&'static str, usize>,
    objs: &mut Vec<Guid>,
) {
    for c in chunks {
        if let Some(children) = c.children() {
            census(children, counts, objs);
            continue;
        }
        let (kind, n) = match c {
            Chunk::Gblr(g) => ("GBLR", g.buildings.len()),
            Chunk::Rowh(r) => ("ROWH", r.houses.len()),
            Chunk::Pbde(p) => ("PBDE", p.buildings.len()),
            Chunk::Prde(p) => ("PRDE", p.polygons.len()),
            Chunk::Vgre(v) => ("VGRE", v.rects.len()),
            Chunk::Vgro(v) => ("VGRO", v.rects.len()),
            Chunk::A2ge(a) => {
                objs.push(a.object);
                ("A2GE", a.records.len())
            }
            _ => continue,
        };
        *counts.entry(kind).or_default() += n;
    }
}

/// The committed every-section example (`examples/agn/001332223121112an.agn`,
/// generated by tests/agn.rs) through the CLI: every record of every kind
/// is converted and lands inside the cell's bounds in the written DSF.
#[test]
fn the_committed_every_section_agn_converts_inside_its_cell() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/agn/001332223121112an.agn"
    );
    let agn = agkit::agn::read(&std::fs::read(path).unwrap()).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    let mut objs = Vec::new();
    census(&agn.chunks, &mut counts, &mut objs);
    assert_eq!(
        counts.keys().copied().collect::<Vec<_>>(),
        ["A2GE", "GBLR", "PBDE", "PRDE", "ROWH", "VGRE", "VGRO"],
        "the example has every record kind"
    );
    let dir = tempfile::tempdir().unwrap();
    let guids: std::collections::BTreeSet<String> = objs.iter().map(Guid::to_string).collect();
    let mut map = String::from("[object]\n");
    for (i, g) in guids.iter().enumerate() {
        map.push_str(&format!("\"{g}\" = \"obj/o{i}.obj\"\n"));
    }
    let map_path = dir.path().join("map.toml");
    std::fs::write(&map_path, map).unwrap();
    let out = dir.path().join("scenery");
    let o = agkit()
        .args(["convert", "agn", path, "--map"])
        .arg(&map_path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("convert-report.json")).unwrap())
            .unwrap();
    assert_eq!(report["unmapped"], serde_json::json!([]));
    assert_eq!(report["skipped"], serde_json::json!({}));
    for (kind, n) in &counts {
        assert_eq!(report["converted"][kind], *n, "{kind}");
    }
    let cell = Cell::from_name("001332223121112an.agn").unwrap();
    let b = cell.bounds();
    let tiles: Vec<PathBuf> = files_under(&out)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "dsf"))
        .collect();
    assert_eq!(tiles.len(), 1);
    let d = dsf::read(&std::fs::read(&tiles[0]).unwrap()).unwrap();
    let tile = TileId::containing([b.west, b.south]);
    assert!(tiles[0].ends_with(tile.relative_path()));
    let (mut facades, mut objects) = (0, 0);
    for e in &d.entities {
        match e {
            Entity::Object(o) => {
                objects += 1;
                assert!(inside(&b, [o.lon, o.lat]), "{o:?} outside {b:?}");
            }
            Entity::Polygon(p) => {
                let def = &d.polygon_defs[p.def as usize];
                if def.ends_with(".fac") {
                    facades += 1;
                }
                for q in p.windings.iter().flat_map(|w| w.chunks(2)) {
                    assert!(inside(&b, [q[0], q[1]]), "{def} {q:?} outside {b:?}");
                }
            }
            _ => {}
        }
    }
    assert_eq!(objects, counts["A2GE"]);
    assert_eq!(facades, counts["GBLR"] + counts["ROWH"] + counts["PBDE"]);
}

/// Heights follow the file's GBDD floor bands (0x14 = 100 %).
#[test]
fn building_heights_follow_the_gbdd_floor_bands() {
    let heights = |gbdd: Option<Gbdd>| -> Vec<u16> {
        let mut chunks: Vec<Chunk> = gbdd.into_iter().map(Chunk::Gbdd).collect();
        chunks.push(Chunk::Gbld(Group {
            children: vec![Chunk::Gblr(Gblr {
                roof: guid(ROOF),
                buildings: (0..40).map(|i| quad(-0.4 + 0.02 * i as f32, 0.0)).collect(),
            })],
        }));
        let cell = Cell::containing(47.55, 13.5).unwrap();
        let out = agn::convert_cells(&[(cell, Agn { chunks })], &full_map(), "t", &|| {});
        out.tiles
            .values()
            .flat_map(|d| d.polygons().map(|p| p.param).collect::<Vec<_>>())
            .collect()
    };
    let band = |f: [i32; 4]| {
        Some(Gbdd {
            floors_1_2: f[0],
            floors_3_5: f[1],
            floors_6_8: f[2],
            floors_9_12: f[3],
        })
    };
    let tall = heights(band([0, 0, 0, 20]));
    assert_eq!(tall.len(), 40);
    assert!(tall.iter().all(|h| (27..=36).contains(h)), "{tall:?}");
    let mid = heights(band([0, 0, 20, 0]));
    assert!(mid.iter().all(|h| (18..=24).contains(h)), "{mid:?}");
    // Without GBDD: 1–2 floors.
    let low = heights(None);
    assert!(low.iter().all(|h| *h == 3 || *h == 6), "{low:?}");
    // A mixed distribution uses more than one band.
    let mixed = heights(band([10, 0, 0, 10]));
    assert!(
        mixed.iter().any(|h| *h <= 6) && mixed.iter().any(|h| *h >= 27),
        "{mixed:?}"
    );
}

/// The forest parameters of every forest polygon, by definition path.
fn forest_params(out: &agkit::convert::agn::Converted) -> BTreeMap<String, BTreeSet<u16>> {
    let mut by_path: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
    for d in out.tiles.values() {
        for p in d.polygons() {
            let path = &d.polygon_defs[p.def as usize];
            if path.ends_with(".for") {
                by_path.entry(path.clone()).or_default().insert(p.param);
            }
        }
    }
    by_path
}

#[test]
fn fs2004_forest_density_comes_from_vgrd_and_the_rest_from_the_map() {
    let cell = Cell::containing(47.55, 13.5).unwrap();
    // every_section's VGRD says 10 % maximum density; the map says 0.5.
    let out = agn::convert_cells(&[(cell, every_section())], &full_map(), "t", &|| {});
    let params = forest_params(&out);
    assert_eq!(
        params["for/old.for"],
        BTreeSet::from([26]),
        "VGRO: 10 % of 255"
    );
    assert_eq!(
        params["for/veg.for"],
        BTreeSet::from([128]),
        "PRDE/VGRE: map 0.5"
    );

    // Without a VGRD (or with a density outside 0..=100) the map applies.
    for replace in [None, Some(250)] {
        let mut agn = every_section();
        agn.chunks.retain_mut(|c| match c {
            Chunk::Vgrd(v) => match replace {
                Some(d) => {
                    v.max_density = d;
                    true
                }
                None => false,
            },
            _ => true,
        });
        let out = agn::convert_cells(&[(cell, agn)], &full_map(), "t", &|| {});
        assert_eq!(
            forest_params(&out)["for/old.for"],
            BTreeSet::from([128]),
            "VGRD {replace:?}"
        );
    }
}

#[test]
fn cells_in_all_four_hemispheres_convert_inside_their_tiles() {
    let dir = tempfile::tempdir().unwrap();
    for (lat, lon) in [
        (52.5, 13.4),
        (45.52, -122.68),
        (-33.87, 151.2),
        (-34.61, -58.38),
        (0.0, 0.0),
        (-0.01, -0.01),
    ] {
        let cell = Cell::containing(lat, lon).unwrap();
        let cells = vec![(cell, every_section())];
        let out = agn::convert_cells(&cells, &full_map(), "agkit test", &|| {});
        assert!(!out.tiles.is_empty(), "{lat} {lon}");
        let outdir = dir.path().join(cell.name());
        agkit::overlay::build::write_tiles(&out.tiles, &outdir, "r.json", b"{}").unwrap();
        let b = cell.bounds();
        for (tile, model) in &out.tiles {
            let back =
                dsf::read(&std::fs::read(outdir.join(tile.relative_path())).unwrap()).unwrap();
            assert_eq!(back.entities.len(), model.entities.len(), "{tile}");
            for (e, m) in back.entities.iter().zip(&model.entities) {
                let pts = |e: &Entity| -> Vec<[f64; 2]> {
                    match e {
                        Entity::Object(o) => vec![[o.lon, o.lat]],
                        Entity::Polygon(p) => p
                            .windings
                            .iter()
                            .flat_map(|w| w.chunks(p.depth))
                            .map(|q| [q[0], q[1]])
                            .collect(),
                        _ => Vec::new(),
                    }
                };
                for (p, q) in pts(e).into_iter().zip(pts(m)) {
                    assert!(inside(&b, p) && tile.covers(p), "{p:?} outside {tile}");
                    assert!((p[0] - q[0]).abs() < TOL && (p[1] - q[1]).abs() < TOL);
                }
            }
        }
    }
}
