//! The 3-D scene and its glTF writer at two input sizes (issues 46 and 48):
//! time and heap per placed item, so that a quadratic writer or a copy per
//! instance shows.
//!
//! `cargo bench --bench scene`: writes into a temporary folder a package
//! and one DSF tile per case and size, places each tile whole as `agkit
//! place --dsf TILE --all` does ([`Scenery::place_tile`]), then builds its
//! scene and writes it as GLB ([`agkit::out::gltf::write_scene_to`]) into
//! a sink that only counts the bytes. The cases:
//!
//! - `strings`: two object strings, one OBJ every metre (the hostile
//!   round's 413,491-object tile at 4×);
//! - `trees3d`: a forest at full density whose one tree is a 3-D mesh of
//!   `TREE_TRIANGLES` triangles (the round's 305-byte tile at 4×);
//! - `mixed`: objects, facades, cards of trees, draped polygons and lines
//!   together.
//!
//! For each: the items placed, the build and write time (best of
//! `REPEATS`, this thread's CPU), the GLB's bytes and the peak heap the
//! scene and the writer add on this thread (a counting allocator), per
//! placed item (the GLB's binary buffer is held while written, its JSON is
//! streamed); then the ratio of the 4× time per item to the 1×, and the time and
//! heap each item the 4× run adds costs. The bench exits 1 when the ratio
//! passes `LINEAR` (quadratic work shows as about 4; runs under 20 ms are
//! not judged) or, for objects and 3-D trees (instances of a shared mesh),
//! the heap per item added passes `HEAP_PER_ITEM`.

use agkit::dsf::{self, BuildOptions, Dsf, Entity, Polygon};
use agkit::limits::Limits;
use agkit::out::gltf::{Container, write_scene_to};
use agkit::place::Params;
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "../tests/heap_support/mod.rs"]
mod heap_support;
#[path = "../tests/hostile_art_support/mod.rs"]
mod hostile_art_support;

const REPEATS: usize = 3;
/// Largest ratio of time per item at 4× to time per item at 1×.
const LINEAR: f64 = 1.6;
/// Largest heap the scene and writer add per placed item (issue 46: about
/// 300 bytes beyond the GLB's own; the GLB is no longer held whole).
const HEAP_PER_ITEM: f64 = 300.0;
/// Triangles of the 3-D tree of `trees3d`.
const TREE_TRIANGLES: usize = 20_000;

/// CPU time of this thread (`/proc/thread-self/schedstat`), else wall.
fn cpu_now() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        stat.split_whitespace().next()?.parse().ok()?,
    ))
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let (c0, t0) = (cpu_now(), Instant::now());
    let out = f();
    let wall = t0.elapsed();
    let d = match (c0, cpu_now()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    (d, out)
}

/// Counts the bytes written.
#[derive(Default)]
struct Count(u64);

impl std::io::Write for Count {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0 += b.len() as u64;
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A square ring (lon, lat) of `half` degrees around (`lon`, `lat`).
fn square(lon: f64, lat: f64, half: f64) -> Vec<f64> {
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .flat_map(|(dx, dy)| [lon + dx * half, lat + dy * half])
        .collect()
}

fn poly(def: u32, param: u16, windings: Vec<Vec<f64>>) -> Entity {
    Entity::Polygon(Polygon {
        def,
        param,
        depth: 2,
        windings,
    })
}

/// The art every case names, written into `dir`.
fn art(dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (from, to) in [
        ("examples/point/kiosk.obj", "kiosk.obj"),
        ("examples/block/row_house.fac", "row_house.fac"),
        ("examples/block/backyard_trees.for", "cards.for"),
    ] {
        std::fs::copy(root.join(from), dir.join(to)).unwrap();
    }
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write(
        "lights.str",
        "A\n850\nOBJECT_STRING\n\nOBJECT 0 0 kiosk.obj\nOFFSET 1.5\n",
    );
    // No textures: the scene's geometry is what is measured.
    write("apron.pol", "A\n850\nDRAPED_POLYGON\n\nSCALE 25 25\n");
    write(
        "stripe.lin",
        "A\n850\nLINE_PAINT\n\nSCALE 20 20\nTEX_WIDTH 1024\nS_OFFSET 0 0 64 128\n",
    );
    let f = hostile_art_support::cone_forest(TREE_TRIANGLES);
    write("cones.for", &f);
}

/// The DSF of case `case` at `scale` (1 or 4) in `dir`.
fn tile(dir: &Path, case: &str, scale: usize) -> std::path::PathBuf {
    let (lon, lat) = (13.5, 47.5);
    let metre = 1.0 / 111_320.0;
    let mut entities = Vec::new();
    match case {
        // Two strings of 10 km × scale, one object a metre: 20,000 ×
        // scale objects.
        "strings" => {
            for k in 0..2 {
                let y = lat + k as f64 * 10.0 * metre;
                let len = 10_000.0 * scale as f64 * metre / lat.to_radians().cos();
                entities.push(poly(0, 1, vec![vec![lon - 0.45, y, lon - 0.45 + len, y]]));
            }
        }
        // A forest square whose area grows with `scale`.
        "trees3d" => {
            let half = 160.0 * (scale as f64).sqrt() * metre;
            entities.push(poly(1, 255, vec![square(lon, lat, half)]));
        }
        // A grid of uses of every kind, `scale` times as many.
        _ => {
            let per = 30 * scale;
            let step = 60.0 * metre;
            for i in 0..per {
                for j in 0..30 {
                    let (x, y) = (lon + i as f64 * step, lat + j as f64 * step);
                    let h = 8.0 * metre;
                    let kind = (i + j) % 5;
                    let ring = square(x, y, h);
                    entities.push(match kind {
                        0 => Entity::Object(dsf::Object {
                            def: 0,
                            lon: x,
                            lat: y,
                            heading: (i * 7 % 360) as f64,
                            elevation: None,
                            mode: dsf::ElevationMode::Draped,
                        }),
                        1 => poly(2, 10, vec![ring]),
                        2 => poly(3, 128, vec![ring]),
                        3 => poly(4, 0, vec![ring]),
                        _ => poly(5, 0, vec![vec![x - h, y, x + h, y + h]]),
                    });
                }
            }
        }
    }
    let dsf = Dsf {
        object_defs: vec!["kiosk.obj".into()],
        polygon_defs: vec![
            "lights.str".into(),
            "cones.for".into(),
            "row_house.fac".into(),
            "cards.for".into(),
            "apron.pol".into(),
            "stripe.lin".into(),
        ],
        entities,
        ..Dsf::overlay(13, 47)
    };
    let bytes = dsf::build(&dsf, &BuildOptions::default()).unwrap();
    let path = dir.join(format!("{case}{scale}/Earth nav data/+40+010/+47+013.dsf"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    // The package's art beside its DSF folder.
    art(&dir.join(format!("{case}{scale}")));
    path
}

/// One case at one scale: (items, best time, peak heap, GLB bytes), or
/// the writer's refusal.
fn run(dir: &Path, case: &str, scale: usize) -> Result<(usize, Duration, usize, u64), String> {
    let path = tile(dir, case, scale);
    let limits = Limits {
        max_placed_items: 10_000_000,
        max_extent_m: 100_000.0,
        ..Limits::default()
    };
    let params = Params {
        whole_tile: true,
        limits,
        ..Params::default()
    };
    let scenery = Scenery::packages(None, &[], Conditions::default())
        .unwrap()
        .with_art(true);
    let t = scenery.place_tile(&path, &params).unwrap();
    let items: usize = t
        .placements
        .iter()
        .map(|p| p.objects.len() + p.facades.len() + p.trees.len() + p.draped.len() + p.lines.len())
        .sum();
    let mut best = Duration::MAX;
    let (mut heap, mut glb) = (0, 0);
    for _ in 0..REPEATS {
        let (d, (n, peak)) = timed(|| {
            heap_support::peak_of(|| {
                let mut sink = Count::default();
                write_scene_to(&t.placements, Container::Glb, &limits, &mut sink)
                    .map(|_| sink.0)
                    .map_err(|e| e.to_string())
            })
        });
        best = best.min(d);
        heap = peak;
        glb = n?;
    }
    Ok((items, best, heap, glb))
}

/// What the 4× run adds over the 1× per item added: time in µs and heap
/// in bytes (the cost that grows with the input, without what a scene
/// holds once, such as a 3-D tree's one mesh).
fn marginal(a: (usize, Duration, usize), b: (usize, Duration, usize)) -> (f64, f64) {
    let n = b.0.saturating_sub(a.0).max(1) as f64;
    let t = (b.1.as_secs_f64() - a.1.as_secs_f64()).max(0.0) * 1e6 / n;
    let h = b.2.saturating_sub(a.2) as f64 / n;
    (t, h)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let mut failed = false;
    println!(
        "{:<8} {:>5} {:>9} {:>10} {:>12} {:>11} {:>10} {:>10}",
        "case", "scale", "items", "time", "µs/item", "glb bytes", "glb/item", "heap/item"
    );
    for case in ["strings", "trees3d", "mixed"] {
        let mut runs = Vec::new();
        for scale in [1, 4] {
            let (items, d, heap, glb) = match run(dir.path(), case, scale) {
                Ok(r) => r,
                Err(e) => {
                    println!("{case:<8} {scale:>5} refused: {e}");
                    failed = true;
                    continue;
                }
            };
            let us = d.as_secs_f64() * 1e6 / items.max(1) as f64;
            let h = heap as f64 / items.max(1) as f64;
            let g = glb as f64 / items.max(1) as f64;
            println!(
                "{case:<8} {scale:>5} {items:>9} {:>9.3}s {us:>12.3} {glb:>11} {g:>10.0} {h:>10.0}",
                d.as_secs_f64()
            );
            runs.push((items, d, heap));
        }
        let [a, b] = runs[..] else {
            continue;
        };
        // Time per item, 4× over 1× (of runs long enough to time).
        let per = |r: (usize, Duration, usize)| r.1.as_secs_f64() / r.0.max(1) as f64;
        let ratio = per(b) / per(a);
        let (t, h) = marginal(a, b);
        println!(
            "  {case}: time per item 4× ÷ 1× = {ratio:.2}; each item added: {t:.3} µs, {h:.0} B of heap"
        );
        if a.1 >= Duration::from_millis(20) && ratio > LINEAR {
            println!("  passes {LINEAR}: not linear");
            failed = true;
        }
        // Objects and 3-D trees are instances of a shared mesh: each costs
        // a node. Facades, polygons and lines are geometry of their own.
        if case != "mixed" && h > HEAP_PER_ITEM {
            println!("  heap per item added {h:.0} B passes {HEAP_PER_ITEM} B");
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}
