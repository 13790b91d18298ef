//! AGS placement time per vertex on polygons of 1k, 10k and 100k vertices.
//!
//! The polygon is a ring of vertices 5 m apart whose radius steps in and
//! out by 30 m every 25 vertices (so it has a corner every 25 vertices and
//! smooth runs between), with a lake in the middle that only constrains.
//! The asset is `examples/string/town_edge.ags` without its FILL_LAYER (the
//! fill is bounded by a point budget, not by the vertex count, and would
//! hide the per-vertex cost). Criterion's throughput is in vertices, so
//! `time / vertices` is the per-vertex figure.
//!
//! `ags_hostile` places the whole example (fill included) on the two shapes
//! issue 18 found slow: a wiggly ring of 100,000 vertices (3 km across) and
//! a 3 km square with 50,000 square holes of 4 m. Each must place in ≤ 2 s.

use agkit::geom::Xy;
use agkit::place::Params;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn ring(n: usize) -> Vec<Vec<Xy>> {
    let r = 5.0 * n as f64 / std::f64::consts::TAU;
    let outer = (0..n)
        .map(|i| {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            let rr = r - 30.0 * ((i / 25) % 2) as f64;
            [rr * a.cos(), rr * a.sin()]
        })
        .collect();
    let lake = (0..64)
        .rev()
        .map(|i| {
            let a = i as f64 / 64.0 * std::f64::consts::TAU;
            [0.3 * r * a.cos(), 0.3 * r * a.sin()]
        })
        .collect();
    vec![outer, lake]
}

fn bench(c: &mut Criterion) {
    let text = include_str!("../examples/string/town_edge.ags");
    let mut asset = agkit::xp::parse(text).expect("the example parses");
    asset.string.as_mut().expect("an AGS").fill_layer = None;
    let params = Params {
        seed: 7,
        low: 1,
        ..Params::default()
    };
    let mut g = c.benchmark_group("ags_place");
    g.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let w = ring(n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &w, |b, w| {
            b.iter(|| {
                agkit::place::string::place(black_box(&asset), black_box(w), &params).unwrap()
            })
        });
    }
    g.finish();
}

/// A ring of `n` vertices, radius 1.5 km wiggling by 20 m 200 times, and
/// no hole.
fn wiggly_ring(n: usize) -> Vec<Vec<Xy>> {
    let ring = (0..n)
        .map(|i| {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            let r = 1500.0 + 20.0 * (200.0 * a).sin();
            [r * a.cos(), r * a.sin()]
        })
        .collect();
    vec![ring]
}

/// A square of `side` metres with `k × k` square holes of 4 m (clockwise),
/// evenly spread.
fn holes(side: f64, k: usize) -> Vec<Vec<Xy>> {
    let mut w = vec![vec![[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]]];
    let step = side / (k + 1) as f64;
    for i in 1..=k {
        for j in 1..=k {
            let (x, y) = (i as f64 * step, j as f64 * step);
            w.push(vec![
                [x - 2.0, y - 2.0],
                [x - 2.0, y + 2.0],
                [x + 2.0, y + 2.0],
                [x + 2.0, y - 2.0],
            ]);
        }
    }
    w
}

fn hostile(c: &mut Criterion) {
    let text = include_str!("../examples/string/town_edge.ags");
    let asset = agkit::xp::parse(text).expect("the example parses");
    let params = Params::default();
    let mut g = c.benchmark_group("ags_hostile");
    g.sample_size(10);
    let shapes = [
        ("ring_100k_vertices", wiggly_ring(100_000)),
        ("holes_50k", holes(3000.0, 224)),
    ];
    for (name, w) in shapes {
        g.bench_with_input(BenchmarkId::from_parameter(name), &w, |b, w| {
            b.iter(|| {
                agkit::place::string::place(black_box(&asset), black_box(w), &params).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench, hostile);
criterion_main!(benches);
