//! Blocks placed per second by the AGB engine.
//!
//! Input: a 4×3-band grid (one slop column and row, anti-slop, EDGE bands,
//! 16 × 21 = 336 object annotations), 8 column and 8 row spellings, placed on
//! 64 near-rectangles 15..60 × 12..40 m turned to all headings, with and
//! without CROP. Run: `cargo bench --bench block`.

use agkit::geom::Xy;
use agkit::place::{Params, block};
use agkit::xp::model::*;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn band(start: f64, end: f64, slop: Option<f64>, antislop: f64) -> Band {
    Band {
        start,
        end,
        slop,
        antislop,
        line: 0,
    }
}

fn asset(crop: bool) -> Asset {
    let columns = vec![
        band(0.0, 128.0, None, 0.0),
        band(128.0, 256.0, Some(16.0), 0.0),
        band(256.0, 384.0, None, 8.0),
        band(384.0, 512.0, None, 0.0),
    ];
    let rows = vec![
        band(0.0, 128.0, None, 0.0),
        band(128.0, 256.0, Some(16.0), 0.0),
        band(256.0, 384.0, None, 0.0),
    ];
    let mut annotations = Vec::new();
    for x in (8..512).step_by(24) {
        for y in (8..384).step_by(24) {
            annotations.push(Annotation {
                kind: AnnotationKind::Object(ObjectAnn {
                    mode: ObjMode::Graded,
                    at: [x as f64, y as f64],
                    heading: 0.0,
                    index: 0,
                    show: None,
                }),
                line: 100,
            });
        }
    }
    let lined = |value| Some(Lined { value, line: 0 });
    let grid = Grid {
        columns,
        rows,
        edge_max: lined([0.0, 0.0, 512.0, 384.0]),
        edge_best: lined([16.0, 16.0, 496.0, 368.0]),
        edge_min: lined([32.0, 32.0, 480.0, 352.0]),
        annotations,
        ..Grid::default()
    };
    let sp = |v: Vec<i64>, line| Spelling {
        indices: v,
        name: None,
        line,
    };
    let mut s = vec![sp(vec![0, 3], 11), sp(vec![0, 1, 3], 12)];
    let mut t = vec![sp(vec![0, 2], 31), sp(vec![0, 1, 2], 32)];
    for k in 1..=6usize {
        let mut v = vec![0i64];
        for _ in 0..k {
            v.extend([1, 2]);
        }
        t.push(sp(v.clone(), 32 + k));
        v.push(3);
        s.push(sp(v, 12 + k));
    }
    Asset {
        kind: Kind::Agb,
        common: Common {
            texture_scale: Some(Lined {
                value: [1024.0, 1024.0],
                line: 2,
            }),
            texture_width: Some(Lined {
                value: 51.2,
                line: 3,
            }),
            objects: vec![Lined {
                value: "a.obj".into(),
                line: 4,
            }],
            ..Common::default()
        },
        tiles: vec![],
        block: Some(BlockProps {
            crop: Some(Lined {
                value: crop,
                line: 1,
            }),
            grids: vec![grid],
            spelling_sets: vec![SpellingSet {
                param: 0,
                line: 10,
                height_range: None,
                width_range: None,
                depth_range: None,
                frequency: None,
                use_grid: None,
                spellings_s: s,
                spellings_t: t,
            }],
            ..BlockProps::default()
        }),
        string: None,
        meta: vec![],
        unknown: vec![],
    }
}

fn polygons() -> Vec<Vec<Vec<Xy>>> {
    (0..64)
        .map(|k| {
            let f = k as f64;
            let (w, d) = (15.0 + (f * 7.3) % 45.0, 12.0 + (f * 3.1) % 28.0);
            let j = [
                (f * 0.37).sin(),
                (f * 0.71).cos(),
                (f * 1.3).sin(),
                (f * 0.9).cos(),
            ];
            let local = [[0.0, 0.0], [w, 0.0], [w + j[0], d + j[1]], [j[2], d + j[3]]];
            let (s, c) = (f * 0.1).sin_cos();
            vec![
                local
                    .iter()
                    .map(|p| [c * p[0] - s * p[1], s * p[0] + c * p[1]])
                    .collect(),
            ]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let polys = polygons();
    let mut g = c.benchmark_group("agb");
    g.throughput(Throughput::Elements(polys.len() as u64));
    for crop in [false, true] {
        let a = asset(crop);
        let params = Params::default();
        let name = if crop {
            "place_64_blocks_crop"
        } else {
            "place_64_blocks"
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                for p in &polys {
                    black_box(block::place(&a, black_box(p), &params).unwrap());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
