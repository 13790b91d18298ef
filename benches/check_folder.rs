//! `agkit check` of a folder stays linear in the folder's size (issue 48
//! item 2).
//!
//! `cargo bench --bench check_folder` (harness = false): writes two folders
//! of autogen points into a temporary folder, `SMALL` and `LARGE` files,
//! each point naming a texture, an object and a facade that are not there
//! (the art is looked for beside it: every lookup a miss in a folder of
//! that many files), runs `agkit check -q` on each (the release binary the
//! bench is built with) and prints the best of `REPEATS` wall times and
//! their ratio. A linear check takes about `LARGE / SMALL` times as long
//! for the larger folder; the quadratic one (the folder listed once per
//! missing file) took 12 times as long (1.56 s and 19.2 s on a shared
//! 2-core VM; 0.03 s and 0.12 s with the folder listed once). It exits 1
//! when the ratio passes `MAX_RATIO`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const SMALL: usize = 1_000;
const LARGE: usize = 4_000;
const REPEATS: usize = 3;
/// The largest time ratio a linear check may show: `LARGE / SMALL` is 4;
/// twice that leaves room for a loaded machine, and a quadratic check
/// shows 16.
const MAX_RATIO: f64 = 8.0;

/// A folder of `n` points, each naming missing art.
fn folder(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        let text = format!(
            "A\n1000\nAG_POINT\n\nTEXTURE tex{i}.png\nTEXTURE_SCALE 256 256\nTEXTURE_WIDTH 12.8\n\n\
             OBJECT obj{i}.obj\nFACADE fac{i}.fac\n\nTILE -128 -128 128 128\n\
             OBJ_DRAPED -60 0 90 0\nFAC 0 10 -10 10 10 10 10 -10\n"
        );
        std::fs::write(dir.join(format!("point_{i:05}.agp")), text).unwrap();
    }
}

/// The best wall time of `agkit check -q dir`, which must find the three
/// missing files of each of the `n` points.
fn check(dir: &Path, n: usize) -> Duration {
    (0..REPEATS)
        .map(|_| {
            let t0 = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_agkit"))
                .args(["check", "-q"])
                .arg(dir)
                .output()
                .unwrap();
            let took = t0.elapsed();
            let err = String::from_utf8_lossy(&out.stderr);
            let want = format!("{} warnings", agkit::out::thousands(3 * n));
            assert!(err.contains(&want), "{}: {err}", dir.display());
            took
        })
        .min()
        .unwrap()
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let mut times = Vec::new();
    for n in [SMALL, LARGE] {
        let dir = tmp.path().join(format!("points_{n}"));
        folder(&dir, n);
        let t = check(&dir, n);
        println!(
            "check of {:>5} points naming missing art: {:>8.3} s",
            agkit::out::thousands(n),
            t.as_secs_f64()
        );
        times.push(t.as_secs_f64());
    }
    let ratio = times[1] / times[0].max(1e-6);
    println!(
        "ratio {ratio:.2} for {}× the files (linear ≈ {}, quadratic ≈ {})",
        LARGE / SMALL,
        LARGE / SMALL,
        (LARGE / SMALL).pow(2)
    );
    if ratio > MAX_RATIO {
        eprintln!("error: the check grows faster than the folder (ratio {ratio:.2} > {MAX_RATIO})");
        std::process::exit(1);
    }
}
