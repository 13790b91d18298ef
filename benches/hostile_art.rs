//! The generated worst cases of issue 31, each timed against a bound: the
//! readers and placement that were quadratic must stay linear.
//!
//! `cargo bench --bench hostile_art` (harness = false): builds, in memory
//! and in a temporary folder, the inputs of `tests/hostile_art_support`
//! at the sizes that took tens of seconds before —
//!
//! - `lods`: an OBJ of 60,000 `ATTR_LOD` levels, each drawing a
//!   triangle, read, summarised (`agkit info`) and checked with its
//!   diagnostics rendered (`agkit check`);
//! - `point_counts`: an OBJ repeating `POINT_COUNTS` 40,000 times,
//!   checked and its 39,999 warnings rendered as text and JSON;
//! - `meshes`: a forest of 40,000 `MESH` and 40,000 `MESH_3D` lines, read
//!   and summarised;
//! - `fill`: a 20,000-row forest filling a 395 m lot one tree per square
//!   metre (about 140,000 trees), placed with its art;
//!
//! and prints the best of `REPEATS` runs of each. It exits 1 when one
//! passes `BOUND`: the old code took 11 to 50 s on these, a linear one
//! well under a second even on a loaded 2-core machine.

#[path = "../tests/hostile_art_support/mod.rs"]
mod support;

use agkit::limits::Limits;
use agkit::place::{self, Params, Use};
use agkit::scenery::Scenery;
use std::path::Path;
use std::time::{Duration, Instant};

const REPEATS: usize = 3;
/// The longest a case may take (best of `REPEATS`, wall time).
const BOUND: Duration = Duration::from_secs(2);

fn best(mut f: impl FnMut()) -> Duration {
    (0..REPEATS)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed()
        })
        .min()
        .unwrap()
}

/// `agkit check` of `text` as a file named `name`: its diagnostics
/// rendered as text and JSON; how many there were.
fn check(name: &str, text: &str) -> usize {
    let (src, d) = agkit::check::check_bytes(Path::new(name), text.as_bytes());
    let human = agkit::diag::render_human(name, src.as_deref(), &d);
    let json = agkit::diag::to_json(name, src.as_deref(), &d);
    std::hint::black_box((human.len(), json.len()));
    d.len()
}

fn main() {
    let limits = Limits::default();
    let mut cases: Vec<(&str, String, Duration)> = Vec::new();

    let lods = support::many_lods(60_000);
    let t = best(|| {
        let c = agkit::obj::check(lods.as_bytes(), &limits);
        let o = c.value.unwrap();
        let s = agkit::obj::summary::Summary::of(&o, 0, 0);
        assert_eq!(s.triangles, 1);
        assert_eq!(check("lods.obj", &lods), 0);
    });
    cases.push((
        "lods",
        format!("60,000 ATTR_LOD, {} KB", lods.len() / 1024),
        t,
    ));

    let counts = support::repeated_point_counts(40_000);
    let t = best(|| assert_eq!(check("counts.obj", &counts), 39_999));
    cases.push((
        "point_counts",
        format!("40,000 POINT_COUNTS, {} KB", counts.len() / 1024),
        t,
    ));

    let meshes = support::many_meshes(40_000);
    let t = best(|| {
        let c = agkit::forest::check(meshes.as_bytes(), &limits);
        assert!(!c.has_errors());
        let f = c.value.unwrap();
        let s = agkit::forest::summary::Summary::of(&f, 0, 0);
        assert!(s.has_3d);
    });
    cases.push((
        "meshes",
        format!("40,000 MESH + 40,000 MESH_3D, {} KB", meshes.len() / 1024),
        t,
    ));

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.for"), support::big_forest(20_000)).unwrap();
    let file = dir.path().join("park.ags");
    let text = support::fill_string("big.for");
    std::fs::write(&file, &text).unwrap();
    let asset = agkit::xp::parse(&text).unwrap();
    let use_ = Use::Polygon {
        windings: vec![support::square(395.0)],
    };
    let mut trees = 0;
    let t = best(|| {
        // A fresh scenery per run: the forest is read (and indexed) each
        // time, as one `agkit place` does.
        let scenery = Scenery::without_libraries(Default::default());
        let params = Params {
            seed: 7,
            art: Some(scenery.asset_art(&file, &asset, None)),
            ..Params::default()
        };
        let p = place::place(&asset, "park.ags", &use_, &params).unwrap();
        trees = p.trees.len();
    });
    cases.push(("fill", format!("20,000-row forest, {trees} trees"), t));

    let mut failed = false;
    println!("{:<14} {:>10}  input", "case", "best (ms)");
    for (name, what, t) in &cases {
        let over = *t > BOUND;
        failed |= over;
        println!(
            "{name:<14} {:>10.1}  {what}{}",
            t.as_secs_f64() * 1e3,
            if over { "  OVER THE BOUND" } else { "" }
        );
    }
    println!(
        "bound: {} ms per case (best of {REPEATS})",
        BOUND.as_millis()
    );
    if failed {
        eprintln!("a case passed the bound: a reader or placement went quadratic again");
        std::process::exit(1);
    }
}
