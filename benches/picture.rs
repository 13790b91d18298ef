//! Pictures of busy tiles: `agkit place --dsf TILE -o tile.png|svg` on a
//! tile of 8,001 autogen uses (the bundled demo tile's three uses 2,667
//! times over, `agkit::gen::busy_demo_tile`, placed with `--scenery
//! examples`: about 400,000 items), beside the peer: the same placements
//! written as JSON, which holds every item and draws nothing.
//!
//! ```sh
//! cargo bench --bench picture        # exits 1 when a guard is missed
//! cargo bench --bench picture -- names   # the long-name tile alone
//! ```
//!
//! A second tile, of 1,140 uses (the demo's three uses 380 times over,
//! about 46,000 items: just under `Limits::max_drawn_items`, so every item
//! is drawn), measures the textured picture at its largest: every tile cut
//! from its texture, every footprint, roof and crown drawn. Its guard: the
//! picture's peak RSS within 160 MB of its JSON run's (the embedded
//! images are capped at `Limits::max_picture_image_bytes`, 24 MiB).
//!
//! A third tile holds definitions whose names are 25,000, 100,000 and
//! 1,000,000 characters long (issue 46: laying out the header and legend
//! measured the text once per character cut off, so the picture took
//! 0.76 s at 25,000 characters and 8.5 s at 100,000; a megabyte ran past
//! a minute). Its guard: the picture of the 100,000-character names takes
//! at most 4 times as long as that of the 25,000 (linear, or better: a
//! name is written as its first and last characters), plus 0.05 s of
//! noise.
//!
//! Each run is a process of its own, timed and measured with
//! `/usr/bin/time` (wall seconds, peak RSS) where it exists. The guard: a
//! picture's peak RSS stays within 64 MB of the JSON run's, i.e. the
//! picture adds a bounded overview, not a drawing of every item (before
//! the bound, the PNG peaked at 590 MB in a debug build and failed with
//! the SVG library's "nodes limit reached" on busier tiles).

use std::path::Path;
use std::process::Command;

/// Uses × 3 of the busy tile.
const COPIES: usize = 2667;
/// Most MB a picture's peak RSS may exceed the JSON run's by.
const GUARD_MB: f64 = 64.0;
/// Uses × 3 of the tile drawn in full, textured.
const COPIES_DRAWN: usize = 380;
/// Most MB its textured picture's peak RSS may exceed its JSON run's by.
const GUARD_DRAWN_MB: f64 = 160.0;

/// Runs `agkit place --dsf TILE --scenery examples -o OUT`: wall seconds,
/// peak RSS in MB (when `/usr/bin/time` measures it) and the output's
/// size in bytes.
fn run(tile: &Path, out: &Path) -> (f64, Option<f64>, u64) {
    let root = env!("CARGO_MANIFEST_DIR");
    let scenery = format!("{root}/examples");
    let args = ["--scenery", &scenery];
    run_with(tile, &args, out)
}

/// Runs `agkit place --dsf TILE EXTRA… -o OUT`, measured as [`run`].
fn run_with(tile: &Path, extra: &[&str], out: &Path) -> (f64, Option<f64>, u64) {
    let exe = env!("CARGO_BIN_EXE_agkit");
    let mut args = vec!["place", "--dsf", tile.to_str().unwrap()];
    args.extend(extra);
    args.extend(["-o", out.to_str().unwrap()]);
    let timed = Path::new("/usr/bin/time").exists();
    let start = std::time::Instant::now();
    let o = if timed {
        Command::new("/usr/bin/time")
            .args(["-f", "%e %M", exe])
            .args(args)
            .output()
    } else {
        Command::new(exe).args(args).output()
    }
    .expect("runs agkit");
    let wall = start.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let rss = timed
        .then(|| {
            err.lines()
                .last()?
                .split_whitespace()
                .nth(1)?
                .parse::<f64>()
                .ok()
        })
        .flatten()
        .map(|kb| kb / 1024.0);
    if let Some(note) = err.lines().find(|l| l.starts_with("note: ")) {
        println!("  {note}");
    }
    (wall, rss, std::fs::metadata(out).unwrap().len())
}

fn main() {
    // `cargo bench` passes --bench; `names` measures the long-name tile
    // alone.
    let names_only = std::env::args().skip(1).any(|a| a == "names");
    let mut missed = false;
    for (copies, guard) in [(COPIES, GUARD_MB), (COPIES_DRAWN, GUARD_DRAWN_MB)] {
        if !names_only {
            missed |= measure(copies, guard);
        }
    }
    if missed {
        println!(
            "guard missed: a picture's peak RSS is over its JSON run's by more than its guard"
        );
    }
    let slow = long_names();
    if slow {
        println!(
            "guard missed: the picture of 100,000-character names took more than 4 times that of 25,000"
        );
    }
    if missed || slow {
        std::process::exit(1);
    }
}

/// Name lengths of the long-name tile, characters.
const NAME_LENGTHS: [usize; 3] = [25_000, 100_000, 1_000_000];

/// A tile (+47+013) of three objects whose definitions are named by
/// `n` characters each (two of them with control characters).
fn long_name_tile(n: usize) -> Vec<u8> {
    let names: Vec<String> = ["a", "b\u{1}", "c\u{1b}"]
        .iter()
        .map(|c| format!("lib/{}.obj", c.repeat(n / c.chars().count())))
        .collect();
    agkit::r#gen::named_tile(&names, &[]).expect("builds the tile")
}

/// Measures `place --dsf --all` of the long-name tiles as JSON, SVG and
/// PNG; true when the guard is missed.
fn long_names() -> bool {
    let dir = tempfile::tempdir().unwrap();
    println!("tile: 3 definitions named by n characters each");
    println!("| n | output | wall | peak RSS | file |");
    println!("|---|---|---|---|---|");
    let mut walls = std::collections::HashMap::new();
    for n in NAME_LENGTHS {
        let tile = dir.path().join(format!("{n}.dsf"));
        std::fs::write(&tile, long_name_tile(n)).unwrap();
        for ext in ["json", "svg", "png"] {
            let out = dir.path().join(format!("{n}.{ext}"));
            let (wall, rss, size) = run_with(&tile, &["--all"], &out);
            let rss_text = rss.map_or("?".into(), |r| format!("{r:.0} MB"));
            println!(
                "| {} | {ext} | {wall:.2} s | {rss_text} | {:.1} KB |",
                agkit::out::thousands(n),
                size as f64 / 1e3
            );
            walls.insert((n, ext), wall);
        }
    }
    let mut missed = false;
    for ext in ["svg", "png"] {
        let (short, long) = (walls[&(25_000, ext)], walls[&(100_000, ext)]);
        println!(
            "{ext}: {:.1}× the time for 4× the name",
            long / short.max(1e-3)
        );
        missed |= long > 4.0 * short + 0.05;
    }
    missed
}

/// Measures the pictures of the demo tile's uses `copies` times over;
/// true when a picture missed `guard`.
fn measure(copies: usize, guard: f64) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let tile = dir.path().join("+47+013.dsf");
    let bytes = agkit::r#gen::busy_demo_tile(copies).expect("builds the busy tile");
    std::fs::write(&tile, &bytes).unwrap();
    println!(
        "tile: {} uses, {} KB",
        agkit::out::thousands(3 * copies),
        bytes.len() / 1024
    );
    println!("| output | wall | peak RSS | file |");
    println!("|---|---|---|---|");
    let mut json_rss = None;
    let mut missed = false;
    for ext in ["json", "svg", "png"] {
        let (wall, rss, size) = run(&tile, &dir.path().join(format!("tile.{ext}")));
        let rss_text = rss.map_or("?".into(), |r| format!("{r:.0} MB"));
        println!(
            "| {ext} | {wall:.2} s | {rss_text} | {:.1} MB |",
            size as f64 / 1e6
        );
        match (ext, rss, json_rss) {
            ("json", r, _) => json_rss = r,
            (_, Some(r), Some(j)) if r > j + guard => missed = true,
            _ => {}
        }
    }
    missed
}
