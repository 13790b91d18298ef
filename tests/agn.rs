//! AGN: round trips through bytes, JSON, text and GeoJSON; LOD13 cells;
//! hostile input; the CLI.

use agkit::agn::*;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/agn/001332223121112an.agn"
);

fn guid(seed: u8) -> Guid {
    let mut g = [0u8; 16];
    for (i, b) in g.iter_mut().enumerate() {
        *b = seed.wrapping_mul(31).wrapping_add(i as u8 * 7 + 1);
    }
    Guid(g)
}

fn quad(x: f32, y: f32, dx: f32, dy: f32, k: f32) -> Quad {
    // Third offset perpendicular to the direction, as bounding boxes are.
    Quad {
        x,
        y,
        dx,
        dy,
        ox: -dy * k,
        oy: dx * k,
    }
}

/// The generated example: every section, several records each. This is the
/// file committed as `examples/agn/001332223121112an.agn` (the spec's worked
/// example cell, around 45.5° N 73.4° W).
fn sample() -> Agn {
    let square =
        |x: f32, y: f32, s: f32| vec![[x, y], [x + s, y], [x + s, y + s], [x, y + s], [x, y]];
    Agn {
        chunks: vec![
            Chunk::Vers(Vers {
                version: DEFAULT_VERSION,
            }),
            Chunk::Gbdd(Gbdd {
                floors_1_2: 10,
                floors_3_5: 6,
                floors_6_8: 3,
                floors_9_12: 1,
            }),
            Chunk::Gbte(Texture::padded("genb_roofs_NA")),
            Chunk::Rhte(Texture {
                name: "rowhouse".into(),
                padding: 8,
            }),
            Chunk::Gbld(Group {
                children: vec![
                    Chunk::Gblr(Gblr {
                        roof: Guid::DEFAULT,
                        buildings: vec![
                            quad(-0.25, -0.25, 0.01, 0.0, 1.5),
                            quad(0.1, 0.2, 0.005, 0.005, 2.0),
                            quad(0.3, -0.4, 0.0, 0.02, 0.5),
                        ],
                    }),
                    Chunk::Gblr(Gblr {
                        roof: guid(1),
                        buildings: vec![
                            quad(0.0, 0.0, 0.02, -0.01, 1.0),
                            quad(-0.49, 0.49, 0.003, 0.0, 3.0),
                        ],
                    }),
                ],
            }),
            Chunk::Preg(Group {
                children: vec![
                    Chunk::Prde(Prde {
                        vegetation: guid(2),
                        polygons: vec![square(0.1, 0.1, 0.2), square(0.6, 0.6, 0.125)],
                    }),
                    Chunk::Prde(Prde {
                        vegetation: guid(3),
                        polygons: vec![vec![[0.0, 0.0], [1.0, 0.0], [0.5, 0.3], [0.0, 0.0]]],
                    }),
                ],
            }),
            Chunk::Vgrg(Group {
                children: vec![Chunk::Vgre(Vgre {
                    vegetation: guid(4),
                    rects: vec![
                        Rect {
                            x: -0.5,
                            y: -0.5,
                            dx: 0.1,
                            dy: 0.05,
                        },
                        Rect {
                            x: 0.2,
                            y: 0.3,
                            dx: 0.05,
                            dy: 0.1,
                        },
                    ],
                })],
            }),
            Chunk::Vgrd(Vgrd {
                class1: 3,
                class2: 7,
                percent1: 60,
                max_density: 40,
                min_height1: 8.0,
                max_height1: 15.5,
                min_height2: 4.0,
                max_height2: 9.25,
            }),
            Chunk::Vgro(Vgro {
                rects: vec![
                    Rect {
                        x: 0.0,
                        y: 0.1,
                        dx: 0.2,
                        dy: 0.2,
                    },
                    Rect {
                        x: -0.3,
                        y: 0.25,
                        dx: 0.1,
                        dy: 0.15,
                    },
                ],
            }),
            Chunk::Rowh(Rowh {
                houses: vec![
                    quad(-0.1, 0.05, 0.004, 0.0, 2.0),
                    quad(-0.09, 0.05, 0.004, 0.0, 2.0),
                    quad(-0.08, 0.05, 0.004, 0.0, 2.0),
                ],
            }),
            Chunk::Agn2(Group {
                children: vec![
                    Chunk::A2ge(A2ge {
                        object: guid(5),
                        records: A2geRecords::Long(vec![
                            quad(0.35, 0.35, 0.002, 0.001, 1.0),
                            quad(0.36, 0.35, 0.002, 0.001, 1.0),
                        ]),
                    }),
                    Chunk::A2ge(A2ge {
                        object: guid(6),
                        records: A2geRecords::Short(vec![
                            Rect {
                                x: 0.4,
                                y: -0.2,
                                dx: 0.003,
                                dy: 0.0,
                            },
                            Rect {
                                x: 0.41,
                                y: -0.2,
                                dx: 0.0,
                                dy: 0.003,
                            },
                        ]),
                    }),
                ],
            }),
            Chunk::Pbld(Group {
                children: vec![Chunk::Pbde(Pbde {
                    building: guid(7),
                    buildings: vec![
                        PolyBuilding {
                            kind: 1,
                            width: 12.5,
                            footprint: vec![[0.7, 0.1], [0.72, 0.1], [0.72, 0.12], [0.7, 0.12]],
                        },
                        PolyBuilding {
                            kind: 1,
                            width: 8.0,
                            footprint: vec![[0.8, 0.8], [0.81, 0.8], [0.805, 0.81]],
                        },
                    ],
                })],
            }),
            Chunk::Raw(RawChunk {
                id: FourCc(*b"XTRA"),
                data: vec![1, 2, 3, 4, 5],
            }),
        ],
    }
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn example_file_is_the_generated_sample() {
    let bytes = write(&sample()).unwrap();
    let path = Path::new(EXAMPLE);
    if !path.exists() || std::env::var_os("AGKIT_UPDATE_EXAMPLES").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        agkit::fsutil::write_atomic(path, &bytes).unwrap();
    }
    assert_eq!(
        std::fs::read(path).unwrap(),
        bytes,
        "rerun with AGKIT_UPDATE_EXAMPLES=1"
    );
}

#[test]
fn sample_round_trips_byte_identical() {
    let bytes = write(&sample()).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, sample());
    assert_eq!(write(&back).unwrap(), bytes);
    assert!(check_bytes(&bytes).is_empty(), "{:?}", check_bytes(&bytes));
}

#[test]
fn sample_round_trips_through_json_text_and_geojson_in_process() {
    let m = sample();
    let bytes = write(&m).unwrap();
    assert_eq!(json::from_json(&json::to_json(&m)).unwrap(), m);
    assert_eq!(text::from_text(&text::to_text(&m)).unwrap(), m);
    let cell = Cell::from_name("001332223121112an.agn").unwrap();
    let gj = geojson::to_geojson_string(&m, cell);
    let (back, c2) = geojson::from_geojson(&gj, None).unwrap();
    assert_eq!(c2, cell);
    assert_eq!(write(&back).unwrap(), bytes);
}

fn dump(file: &Path, format: &str, out: &Path) {
    let st = bin()
        .args(["agn", "dump", "--format", format, "-o"])
        .arg(out)
        .arg(file)
        .status()
        .unwrap();
    assert!(st.success());
}

fn build(input: &Path, out: &Path) -> std::process::Output {
    bin()
        .args(["agn", "build"])
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn cli_dump_then_build_reproduces_the_file() {
    let d = tmp();
    let agn_path = d.path().join("001332223121112an.agn");
    let bytes = write(&sample()).unwrap();
    std::fs::write(&agn_path, &bytes).unwrap();
    for (format, ext) in [("json", "json"), ("text", "txt"), ("geojson", "geojson")] {
        let view = d.path().join(format!("dump.{ext}"));
        dump(&agn_path, format, &view);
        let out = d.path().join(format!("from_{format}.agn"));
        let o = build(&view, &out);
        assert!(
            o.status.success(),
            "{format}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(std::fs::read(&out).unwrap(), bytes, "{format}");
    }
}

#[test]
fn geojson_features_carry_sections_guids_and_first_points() {
    let m = sample();
    let cell = Cell::from_name("001332223121112an.agn").unwrap();
    let fc = geojson::to_geojson(&m, cell);
    let sections: std::collections::BTreeSet<String> = fc
        .features
        .iter()
        .map(|f| {
            f.properties.as_ref().unwrap()["section"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let want: std::collections::BTreeSet<String> =
        ["GBLR", "PRDE", "VGRE", "VGRO", "ROWH", "A2GE", "PBDE"]
            .map(String::from)
            .into();
    assert_eq!(sections, want);
    assert_eq!(fc.features.len(), 3 + 2 + 3 + 2 + 2 + 3 + 4 + 2);
    // First GBLR building: first vertex is the record's first point.
    let f = &fc.features[0];
    let ::geojson::GeometryValue::Polygon { coordinates } = &f.geometry.as_ref().unwrap().value
    else {
        panic!("polygon expected")
    };
    let p0 = coordinates[0][0].as_slice();
    let want = cell.centre_to_lonlat(-0.25, -0.25);
    assert_eq!([p0[0], p0[1]], want);
    assert_eq!(f.properties.as_ref().unwrap()["guid"], "default");
    // A PRDE polygon keeps every vertex (closed: no extra vertex).
    let prde = fc
        .features
        .iter()
        .find(|f| f.properties.as_ref().unwrap()["section"] == "PRDE")
        .unwrap();
    let ::geojson::GeometryValue::Polygon { coordinates } = &prde.geometry.as_ref().unwrap().value
    else {
        panic!()
    };
    assert_eq!(coordinates[0].len(), 5);
    assert_eq!(
        prde.properties.as_ref().unwrap()["guid"],
        guid(2).to_string()
    );
}

#[test]
fn geojson_without_skeleton_builds_from_geometry_and_refuses_outside_features() {
    let cell = Cell::from_name("001332223121112an.agn").unwrap();
    let b = cell.bounds();
    let lon = |x: f64| b.west + x * (b.east - b.west);
    let lat = |y: f64| b.north - y * (b.north - b.south);
    let poly = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|&(x, y)| format!("[{}, {}]", lon(x), lat(y)))
            .collect::<Vec<_>>()
            .join(",")
    };
    let gj = format!(
        r#"{{"type":"FeatureCollection","features":[
        {{"type":"Feature","properties":{{"section":"PRDE","guid":"{g}"}},
          "geometry":{{"type":"Polygon","coordinates":[[{p}]]}}}},
        {{"type":"Feature","properties":{{"section":"PBDE","width":10}},
          "geometry":{{"type":"Polygon","coordinates":[[{q}]]}}}}]}}"#,
        g = guid(9),
        p = poly(&[(0.25, 0.25), (0.5, 0.25), (0.5, 0.5), (0.25, 0.25)]),
        q = poly(&[(0.75, 0.75), (0.875, 0.75), (0.875, 0.875), (0.75, 0.75)]),
    );
    let (m, c) = geojson::from_geojson(&gj, None).unwrap();
    assert_eq!(c, cell, "cell from the features' extent");
    let prde = m
        .chunks
        .iter()
        .find_map(|c| {
            c.children().and_then(|ch| {
                ch.iter().find_map(|x| match x {
                    Chunk::Prde(p) => Some(p.clone()),
                    _ => None,
                })
            })
        })
        .unwrap();
    assert_eq!(prde.vegetation, guid(9));
    assert_eq!(
        prde.polygons[0],
        vec![[0.25, 0.25], [0.5, 0.25], [0.5, 0.5], [0.25, 0.25]]
    );
    assert!(write(&m).is_ok());

    // The same collection placed in a neighbouring cell is refused.
    let other = Cell::new(cell.u + 1, cell.v).unwrap();
    let e = geojson::from_geojson(&gj, Some(other)).unwrap_err();
    assert!(e.contains("feature 0") && e.contains("outside cell"), "{e}");
    let d = tmp();
    let input = d.path().join("x.geojson");
    std::fs::write(&input, &gj).unwrap();
    let o = bin()
        .args(["agn", "build", "--cell", &other.name()])
        .arg(&input)
        .arg("-o")
        .arg(d.path().join("x.agn"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("x.geojson"));
    assert!(!d.path().join("x.agn").exists());
}

#[test]
fn spec_worked_example_via_cli() {
    let o = bin()
        .args(["agn", "locate", "001332223121112an.agn", "--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["u"], 7278);
    assert_eq!(v["v"], 4049);
    assert_eq!(v["level"], 15);
    assert_eq!(v["west"], 7278.0 * 0.0146484375 - 180.0);
    assert_eq!(v["north"], 90.0 - 4049.0 * 0.010986328125);
    let o = bin()
        .args(["agn", "name", "--lat", "45.51", "--lon", "-73.38"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        "001332223121112an.agn"
    );
    let o = bin()
        .args(["agn", "locate", "001332223121114an.agn"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = bin()
        .args(["agn", "name", "--lat", "95", "--lon", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

/// A 100-byte file whose first chunk claims 4 GB.
fn claims_4gb() -> Vec<u8> {
    let mut v = b"RIFF".to_vec();
    v.extend_from_slice(&92u32.to_le_bytes());
    v.extend_from_slice(b"AGNX");
    v.extend_from_slice(b"GBLD");
    v.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
    v.resize(100, 0);
    v
}

#[test]
fn hostile_inputs_fail_with_offsets() {
    let e = read(&claims_4gb()).unwrap_err();
    assert_eq!((e.code, e.offset), ("AGN003", 16));
    // RIFF itself claiming 4 GB.
    let mut v = claims_4gb();
    v[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(read(&v).unwrap_err().offset, 4);
    // Truncated header.
    assert_eq!(read(b"RIF").unwrap_err().code, "AGN001");
    // Not RIFF / not AGNX.
    assert_eq!(read(b"RIFX\x04\0\0\0AGNX").unwrap_err().code, "AGN002");
    assert_eq!(read(b"RIFF\x04\0\0\0WAVE").unwrap_err().offset, 8);
    // Trailing garbage.
    let mut ok = write(&sample()).unwrap();
    ok.push(0);
    assert_eq!(read(&ok).unwrap_err().code, "AGN009");
    // Every truncation of a valid file fails cleanly.
    let full = write(&sample()).unwrap();
    for n in 0..full.len() {
        let mut t = full[..n].to_vec();
        if n >= 8 {
            let l = (n - 8) as u32;
            t[4..8].copy_from_slice(&l.to_le_bytes());
        }
        match read(&t) {
            // Cut at a top-level chunk boundary: a shorter valid file.
            Ok(m) => assert_eq!(write(&m).unwrap(), t, "truncated at {n}"),
            Err(e) => assert!(e.offset as usize <= n, "truncated at {n}: {e}"),
        }
    }
    assert!(check_bytes(&claims_4gb())[0].is_error());
}

#[test]
fn cli_reports_bad_input_with_file_and_offset() {
    let d = tmp();
    let p = d.path().join("bad.agn");
    std::fs::write(&p, claims_4gb()).unwrap();
    let o = bin().args(["agn", "dump"]).arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr).replace(&d.path().display().to_string(), "DIR");
    insta::assert_snapshot!("hostile_dump_error", err);
    let o = bin()
        .args(["agn", "dump"])
        .arg(d.path().join("missing.agn"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // A text error names the file and line.
    let t = d.path().join("bad.txt");
    std::fs::write(&t, "AGNX\nVGRO\n  R 0 0 1\n").unwrap();
    let o = build(&t, &d.path().join("o.agn"));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.txt: line 3"), "{err}");
}

#[test]
fn check_accepts_the_example_and_flags_problems() {
    let d = tmp();
    let p = d.path().join("001332223121112an.agn");
    std::fs::write(&p, write(&sample()).unwrap()).unwrap();
    let o = bin().arg("check").arg(&p).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let mut m = sample();
    if let Chunk::Preg(g) = &mut m.chunks[5]
        && let Chunk::Prde(p) = &mut g.children[0]
    {
        p.polygons[0].pop();
    }
    m.chunks.push(Chunk::Gblr(Gblr {
        roof: Guid::DEFAULT,
        buildings: vec![quad(0.7, 0.0, 0.01, 0.0, 1.0)],
    }));
    let bytes = write(&m).unwrap();
    let diags = check_bytes(&bytes);
    insta::assert_snapshot!(
        "check_warnings",
        agkit::diag::render_human("warn.agn", None, &diags)
    );
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"AGN101"), "{codes:?}");
    assert!(codes.contains(&"AGN102"), "{codes:?}");
    assert!(codes.contains(&"AGN105"), "{codes:?}");
}

#[test]
fn text_dump_snapshot() {
    insta::assert_snapshot!("sample_text_dump", text::to_text(&sample()));
}

// ---------- property tests ----------

fn any_f32() -> BoxedStrategy<f32> {
    prop_oneof![
        -1.0f32..1.0,
        proptest::num::f32::NORMAL | proptest::num::f32::SUBNORMAL | proptest::num::f32::ZERO,
    ]
    .boxed()
}

fn signed(lo: f32, hi: f32) -> impl Strategy<Value = f32> {
    (lo..hi, any::<bool>()).prop_map(|(v, neg)| if neg { -v } else { v })
}

fn any_guid() -> impl Strategy<Value = Guid> {
    prop_oneof![Just(Guid::DEFAULT), any::<[u8; 16]>().prop_map(Guid)]
}

fn any_quad(f: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Quad> {
    (f.clone(), f.clone(), f.clone(), f.clone(), f.clone(), f).prop_map(|(x, y, dx, dy, ox, oy)| {
        Quad {
            x,
            y,
            dx,
            dy,
            ox,
            oy,
        }
    })
}

fn any_rect(f: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Rect> {
    (f.clone(), f.clone(), f.clone(), f).prop_map(|(x, y, dx, dy)| Rect { x, y, dx, dy })
}

fn any_poly(f: impl Strategy<Value = f32> + Clone) -> impl Strategy<Value = Vec<Vertex>> {
    (prop::collection::vec([f.clone(), f], 0..7), any::<bool>()).prop_map(|(mut v, close)| {
        if close && !v.is_empty() {
            v.push(v[0]);
        }
        v
    })
}

/// Leaf chunks: `wide` allows any finite f32 (binary/JSON/text); otherwise
/// values stay inside the cell (GeoJSON).
fn leaf(wide: bool) -> BoxedStrategy<Chunk> {
    let f: BoxedStrategy<f32> = if wide {
        any_f32().boxed()
    } else {
        (-0.5f32..0.5).boxed()
    };
    let tl: BoxedStrategy<f32> = if wide {
        any_f32().boxed()
    } else {
        (0.0f32..=1.0).boxed()
    };
    let a2_long = (
        f.clone(),
        f.clone(),
        signed(0.001, 0.05),
        signed(0.001, 0.05),
        0.5f32..3.0,
    )
        .prop_map(|(x, y, dx, dy, k)| quad(x, y, dx, dy, k));
    prop_oneof![
        (any_guid(), prop::collection::vec(any_quad(f.clone()), 0..4))
            .prop_map(|(roof, buildings)| Chunk::Gblr(Gblr { roof, buildings })),
        (
            any_guid(),
            prop::collection::vec(any_poly(tl.clone()), 0..3)
        )
            .prop_map(|(vegetation, polygons)| Chunk::Prde(Prde {
                vegetation,
                polygons
            })),
        (any_guid(), prop::collection::vec(any_rect(f.clone()), 0..4))
            .prop_map(|(vegetation, rects)| Chunk::Vgre(Vgre { vegetation, rects })),
        // An empty A2GE reads back as 16-byte (same bytes), so Long has 1+.
        (any_guid(), prop::collection::vec(a2_long, 1..4)).prop_map(|(object, v)| Chunk::A2ge(
            A2ge {
                object,
                records: A2geRecords::Long(v)
            }
        )),
        (
            any_guid(),
            prop::collection::vec(any_rect(-0.5f32..0.5), 0..7)
        )
            .prop_map(|(object, v)| {
                Chunk::A2ge(A2ge {
                    object,
                    records: A2geRecords::Short(v),
                })
            }),
        (
            any_guid(),
            prop::collection::vec((any::<i32>(), 1.0f32..50.0, any_poly(tl)), 0..3)
        )
            .prop_map(|(building, v)| Chunk::Pbde(Pbde {
                building,
                buildings: v
                    .into_iter()
                    .map(|(kind, width, footprint)| PolyBuilding {
                        kind,
                        width,
                        footprint
                    })
                    .collect()
            })),
    ]
    .boxed()
}

fn top(wide: bool) -> BoxedStrategy<Chunk> {
    let f: BoxedStrategy<f32> = if wide {
        any_f32().boxed()
    } else {
        (-0.5f32..0.5).boxed()
    };
    prop_oneof![
        any::<i32>().prop_map(|version| Chunk::Vers(Vers { version })),
        any::<[i32; 4]>().prop_map(|p| Chunk::Gbdd(Gbdd {
            floors_1_2: p[0],
            floors_3_5: p[1],
            floors_6_8: p[2],
            floors_9_12: p[3]
        })),
        ("[^\\x00]{0,12}", 0u32..9)
            .prop_map(|(name, padding)| Chunk::Gbte(Texture { name, padding })),
        "[a-z]{1,8}".prop_map(|n| Chunk::Rhte(Texture::padded(n))),
        (any::<[i32; 4]>(), any_rect(any_f32())).prop_map(|(i, r)| Chunk::Vgrd(Vgrd {
            class1: i[0],
            class2: i[1],
            percent1: i[2],
            max_density: i[3],
            min_height1: r.x,
            max_height1: r.y,
            min_height2: r.dx,
            max_height2: r.dy
        })),
        prop::collection::vec(any_rect(f.clone()), 0..4)
            .prop_map(|rects| Chunk::Vgro(Vgro { rects })),
        prop::collection::vec(any_quad(f), 0..4).prop_map(|houses| Chunk::Rowh(Rowh { houses })),
        (any::<[u8; 4]>(), prop::collection::vec(any::<u8>(), 0..12))
            .prop_filter("not a known id", |(id, _)| !is_known(id))
            .prop_map(|(id, data)| Chunk::Raw(RawChunk {
                id: FourCc(id),
                data
            })),
        (0usize..5, prop::collection::vec(leaf(wide), 0..3)).prop_map(|(k, children)| {
            let g = Group { children };
            match k {
                0 => Chunk::Gbld(g),
                1 => Chunk::Preg(g),
                2 => Chunk::Vgrg(g),
                3 => Chunk::Agn2(g),
                _ => Chunk::Pbld(g),
            }
        }),
    ]
    .boxed()
}

fn is_known(id: &[u8; 4]) -> bool {
    [
        b"VERS", b"GBDD", b"GBTE", b"RHTE", b"GBLD", b"GBLR", b"PREG", b"PRDE", b"VGRG", b"VGRE",
        b"VGRD", b"VGRO", b"ROWH", b"AGN2", b"A2GE", b"PBLD", b"PBDE",
    ]
    .contains(&id)
}

fn any_agn(wide: bool) -> impl Strategy<Value = Agn> {
    prop::collection::vec(top(wide), 0..6).prop_map(|chunks| Agn { chunks })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn name_of_cell_contains_the_point(lat in -90.0f64..=90.0, lon in -540.0f64..540.0) {
        let c = Cell::containing(lat, lon).unwrap();
        let back = Cell::from_name(&c.name()).unwrap();
        prop_assert_eq!(back, c);
        let b = back.bounds();
        let wrapped = (lon + 180.0).rem_euclid(360.0) - 180.0;
        let wrapped = if wrapped >= 180.0 { wrapped - 360.0 } else { wrapped };
        prop_assert!(b.west <= wrapped && wrapped < b.east, "{wrapped} not in {b:?}");
        prop_assert!(lat <= b.north && (lat > b.south || (lat == -90.0 && b.south == -90.0)), "{lat} not in {b:?}");
    }

    #[test]
    fn model_round_trips_through_bytes_json_and_text(m in any_agn(true)) {
        let bytes = write(&m).unwrap();
        let back = read(&bytes).unwrap();
        prop_assert_eq!(&back, &m);
        prop_assert_eq!(write(&back).unwrap(), bytes.clone());
        prop_assert_eq!(json::from_json(&json::to_json(&m)).unwrap(), m.clone());
        prop_assert_eq!(text::from_text(&text::to_text(&m)).unwrap(), m.clone());
    }

    #[test]
    fn geojson_round_trip_is_byte_identical(m in any_agn(false), u in 0u32..24576, v in 0u32..16384) {
        let cell = Cell::new(u, v).unwrap();
        let bytes = write(&m).unwrap();
        let (back, c) = geojson::from_geojson(&geojson::to_geojson_string(&m, cell), None).unwrap();
        prop_assert_eq!(c, cell);
        prop_assert_eq!(write(&back).unwrap(), bytes);
    }

    #[test]
    fn geojson_vertices_come_back_exactly_from_geometry_alone(
        verts in prop::collection::vec([0.0f32..=1.0, 0.0f32..=1.0], 3..8),
        u in 0u32..24576, v in 0u32..16384,
    ) {
        // Drop the `local` property: the f32 values must come back from lon/lat.
        let cell = Cell::new(u, v).unwrap();
        let m = Agn { chunks: vec![Chunk::Preg(Group { children: vec![Chunk::Prde(Prde {
            vegetation: Guid::DEFAULT, polygons: vec![verts.clone()] })] })] };
        let mut fc = geojson::to_geojson(&m, cell);
        for f in &mut fc.features {
            f.properties.as_mut().unwrap().remove("local");
        }
        let (back, _) = geojson::from_geojson(&serde_json::to_string(&fc).unwrap(), None).unwrap();
        let Chunk::Preg(g) = &back.chunks[0] else { panic!() };
        let Chunk::Prde(p) = &g.children[0] else { panic!() };
        for (a, b) in p.polygons[0].iter().zip(&verts) {
            // Exact wherever the f32 → degree map is one to one (|x| ≥ 2^-10 here).
            if b[0] >= 1.0 / 1024.0 && b[1] >= 1.0 / 1024.0 {
                prop_assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..200), cut in 0usize..200) {
        let mut v = b"RIFF".to_vec();
        v.extend_from_slice(&((data.len() + 4) as u32).to_le_bytes());
        v.extend_from_slice(b"AGNX");
        v.extend_from_slice(&data);
        let _ = read(&v);
        let _ = check_bytes(&v);
        let _ = read(&data);
        let _ = read(&v[..cut.min(v.len())]);
    }

    #[test]
    fn corrupting_a_valid_file_never_panics(pos in 0usize..10_000, byte in any::<u8>()) {
        let mut v = write(&sample()).unwrap();
        let p = pos % v.len();
        v[p] = byte;
        if let Err(e) = read(&v) {
            prop_assert!(e.offset as usize <= v.len());
        }
    }
}

/// An A2GE whose 48-byte payload fits both record sizes and neither
/// heuristic: refused with AGN008 unless `--a2ge-record-size` decides.
#[test]
fn ambiguous_a2ge_is_refused_unless_forced() {
    let mut body = b"A2GE".to_vec();
    body.extend_from_slice(&64u32.to_le_bytes());
    body.extend_from_slice(&[7u8; 16]);
    for f in [
        3.0f32, 0.1, 0.01, 0.0, -0.2, 0.3, 0.0, 0.02, 0.4, -0.4, 0.01, 0.01,
    ] {
        body.extend_from_slice(&f.to_le_bytes());
    }
    let mut file = b"RIFF".to_vec();
    file.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
    file.extend_from_slice(b"AGNX");
    file.extend_from_slice(&body);
    let d = tmp();
    let p = d.path().join("a.agn");
    std::fs::write(&p, &file).unwrap();
    let o = bin().args(["agn", "dump"]).arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("AGN008") && err.contains("@ byte 36"), "{err}");
    for (size, tag) in [("16", "A2GE {"), ("24", "A2GE {")] {
        let o = bin()
            .args(["agn", "dump", "--a2ge-record-size", size])
            .arg(&p)
            .output()
            .unwrap();
        assert!(o.status.success());
        let out = String::from_utf8_lossy(&o.stdout);
        let header = out.lines().find(|l| l.contains(tag)).unwrap();
        assert!(header.ends_with(size), "{header}");
        // Either reading writes back the same bytes.
        let view = d.path().join(format!("a{size}.txt"));
        std::fs::write(&view, out.as_bytes()).unwrap();
        let back = d.path().join(format!("a{size}.agn"));
        assert!(build(&view, &back).status.success());
        assert_eq!(std::fs::read(&back).unwrap(), file);
    }
}

#[test]
fn json_input_errors_name_the_file_and_line() {
    let d = tmp();
    let p = d.path().join("m.json");
    std::fs::write(
        &p,
        "{\"format\": \"agkit-agn\", \"version\": 1,\n \"chunks\": [{\"chunk\": \"VERS\"}]}",
    )
    .unwrap();
    let o = build(&p, &d.path().join("m.agn"));
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("m.json: line 2"), "{err}");
    assert!(err.contains("version"), "{err}");
    std::fs::write(
        &p,
        "{\"format\": \"other\", \"version\": 1, \"chunks\": []}",
    )
    .unwrap();
    let o = build(&p, &d.path().join("m.agn"));
    assert_eq!(o.status.code(), Some(1));
}

// ---------- the committed example ----------

/// The committed example reads and writes back byte for byte, and through
/// JSON and the text form to the same model (the real files: the `agn`
/// module of the real-file suite, tests/corpus/agn.rs).
#[test]
fn example_agn_round_trips_byte_identical() {
    let bytes = std::fs::read(EXAMPLE).unwrap();
    let m = read(&bytes).unwrap();
    assert_eq!(write(&m).unwrap(), bytes);
    assert_eq!(json::from_json(&json::to_json(&m)).unwrap(), m);
    assert_eq!(text::from_text(&text::to_text(&m)).unwrap(), m);
}

// ---------- bulk dump ----------

/// A small second model for another cell.
fn small() -> Agn {
    Agn {
        chunks: vec![
            Chunk::Vers(Vers {
                version: DEFAULT_VERSION,
            }),
            Chunk::Vgro(Vgro {
                rects: vec![
                    Rect {
                        x: -0.25,
                        y: 0.125,
                        dx: 0.0625,
                        dy: 0.03125,
                    },
                    Rect {
                        x: 0.25,
                        y: -0.125,
                        dx: 0.015625,
                        dy: 0.0625,
                    },
                ],
            }),
        ],
    }
}

/// The features a single-file dump gives, with the bulk properties added,
/// as read back from JSON text.
fn expected_features(m: &Agn, name: &str, rel: &str) -> Vec<serde_json::Value> {
    let cell = Cell::from_name(name).unwrap();
    geojson::features(m, cell)
        .into_iter()
        .map(|f| {
            let mut v = serde_json::to_value(f).unwrap();
            v["properties"]["file"] = rel.into();
            v["properties"]["agn_cell"] = name.into();
            // Through text and back, like the CLI's output is read.
            serde_json::from_str(&v.to_string()).unwrap()
        })
        .collect()
}

/// A tree with two good cells (one nested), a hostile file, a file whose
/// name is not a cell, and a non-AGN file that is ignored.
fn tree() -> tempfile::TempDir {
    let d = tmp();
    let nested = d.path().join("b/c");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(
        d.path().join("001332223121112an.agn"),
        write(&sample()).unwrap(),
    )
    .unwrap();
    std::fs::write(
        nested.join("001332223121113AN.AGN"),
        write(&small()).unwrap(),
    )
    .unwrap();
    std::fs::write(d.path().join("b/notes.txt"), "not autogen").unwrap();
    d
}

fn run_bulk(dir: &Path, out: Option<&Path>) -> std::process::Output {
    let mut c = bin();
    c.args(["agn", "dump", "--format", "geojson"]).arg(dir);
    if let Some(o) = out {
        c.arg("-o").arg(o);
    }
    c.output().unwrap()
}

#[test]
fn bulk_dump_streams_every_file_in_path_order() {
    let d = tree();
    let out_dir = tmp();
    let out = out_dir.path().join("all.geojson");
    let o = run_bulk(d.path(), Some(&out));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["type"], "FeatureCollection");
    let mut want = expected_features(&sample(), "001332223121112an.agn", "001332223121112an.agn");
    want.extend(expected_features(
        &small(),
        "001332223121113an.agn",
        "b/c/001332223121113AN.AGN",
    ));
    assert_eq!(v["features"].as_array().unwrap(), &want);
    // Piped: no progress bar, one summary line.
    assert!(!err.contains('\r'), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "dumped 2 AGN files: {} features, 0 errors, 0 warnings (0 files failed) in ",
            want.len()
        )),
        "{err}"
    );
    // Standard output gets the same collection.
    let o = run_bulk(d.path(), None);
    assert!(o.status.success());
    assert_eq!(o.stdout, std::fs::read(&out).unwrap());
}

#[test]
fn bulk_dump_reports_bad_files_and_keeps_the_rest() {
    let d = tree();
    std::fs::write(d.path().join("b/001332223121110an.agn"), claims_4gb()).unwrap();
    std::fs::write(d.path().join("b/renamed.agn"), write(&small()).unwrap()).unwrap();
    let mut warned = small();
    warned.chunks.push(Chunk::Gbdd(Gbdd {
        floors_1_2: 30,
        floors_3_5: 0,
        floors_6_8: 0,
        floors_9_12: 0,
    }));
    std::fs::write(
        d.path().join("b/001332223121111an.agn"),
        write(&warned).unwrap(),
    )
    .unwrap();
    let out = d.path().join("all.geojson");
    std::fs::write(&out, "old").unwrap();
    let o = run_bulk(d.path(), Some(&out));
    let err = String::from_utf8_lossy(&o.stderr).replace(&d.path().display().to_string(), "DIR");
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("DIR/b/001332223121110an.agn"), "{err}");
    assert!(err.contains("AGN003") && err.contains("@ byte 16"), "{err}");
    assert!(
        err.contains("DIR/b/renamed.agn") && err.contains("AGN011"),
        "{err}"
    );
    assert!(err.contains("AGN103"), "{err}");
    let summary = err.lines().last().unwrap();
    assert!(
        summary.starts_with("dumped 5 AGN files: ")
            && summary.contains(" 2 errors, 1 warning (2 files failed) in "),
        "{summary}"
    );
    // The good files are all there, in path order, warnings included.
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let files: Vec<&str> = v["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["properties"]["file"].as_str().unwrap())
        .collect();
    let mut seen = files.clone();
    seen.dedup();
    assert_eq!(
        seen,
        [
            "001332223121112an.agn",
            "b/001332223121111an.agn",
            "b/c/001332223121113AN.AGN"
        ]
    );
    let mut want = expected_features(&sample(), "001332223121112an.agn", "001332223121112an.agn");
    want.extend(expected_features(
        &warned,
        "001332223121111an.agn",
        "b/001332223121111an.agn",
    ));
    want.extend(expected_features(
        &small(),
        "001332223121113an.agn",
        "b/c/001332223121113AN.AGN",
    ));
    assert_eq!(v["features"].as_array().unwrap(), &want);
}

#[test]
fn bulk_dump_refuses_other_formats_and_cells_and_keeps_old_output_on_failure() {
    let d = tree();
    for extra in [
        &["--format", "text"][..],
        &["--format", "json"],
        &["--format", "geojson", "--cell", "001332223121112an.agn"],
    ] {
        let o = bin()
            .args(["agn", "dump"])
            .args(extra)
            .arg(d.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(o.stdout.is_empty());
    }
    // An output in a missing directory: usage error, nothing written.
    let o = run_bulk(d.path(), Some(&d.path().join("missing/x.geojson")));
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.path().join("missing").exists());
}

/// The bytes on disk, assembled by hand from the spec: texture names padded
/// with NULs to a multiple of 4, GUIDs in Windows order, a PRDE holding two
/// polygons one after the other, unknown chunks as they were.
#[test]
fn layouts_on_disk_follow_the_spec() {
    let g: Guid = "{00112233-4455-6677-8899-aabbccddeeff}".parse().unwrap();
    let m = Agn {
        chunks: vec![
            Chunk::Gbte(Texture::padded("abcde")),
            Chunk::Preg(Group {
                children: vec![Chunk::Prde(Prde {
                    vegetation: g,
                    polygons: vec![vec![[0.5, 0.25]], vec![[1.0, 0.0], [0.0, 1.0]]],
                })],
            }),
            Chunk::Raw(RawChunk {
                id: FourCc(*b"ZZZZ"),
                data: vec![9, 8, 7],
            }),
        ],
    };
    let le = |v: u32| v.to_le_bytes().to_vec();
    let f = |v: f32| v.to_le_bytes().to_vec();
    let guid_bytes = [
        0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
        0xff,
    ];
    let mut prde = guid_bytes.to_vec();
    prde.extend(le(1));
    prde.extend([f(0.5), f(0.25)].concat());
    prde.extend(le(2));
    prde.extend([f(1.0), f(0.0), f(0.0), f(1.0)].concat());
    let mut body = b"AGNX".to_vec();
    body.extend(b"GBTE");
    body.extend(le(8));
    body.extend(b"abcde\0\0\0");
    body.extend(b"PREG");
    body.extend(le(8 + prde.len() as u32));
    body.extend(b"PRDE");
    body.extend(le(prde.len() as u32));
    body.extend(&prde);
    body.extend(b"ZZZZ");
    body.extend(le(3));
    body.extend([9, 8, 7]);
    let mut want = b"RIFF".to_vec();
    want.extend(le(body.len() as u32));
    want.extend(body);
    assert_eq!(write(&m).unwrap(), want);
    assert_eq!(read(&want).unwrap(), m);
}
