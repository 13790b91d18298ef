//! The guard of the autogen text reader: a tile-rich AGS of about 40 MB
//! (tiles with ids, stop and pivot points, objects, facades and trees, and
//! the groups, corners, spellings and caps that name them) is checked by
//! `xp::check_bytes` within [`MAX_SECONDS`] and a peak resident set of
//! [`MAX_RSS_MB`]; the bench exits non-zero when either is exceeded.
//!
//! `cargo bench --bench text` (add `-- MB` for another size). Real files are
//! 0.1–100 KB; this is the size the reader must still handle without
//! trouble, not a throughput target.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

/// The most one check of the file may take.
const MAX_SECONDS: f64 = 10.0;
/// The most the process may hold at its peak, input included.
const MAX_RSS_MB: f64 = 1024.0;
/// The default size of the generated file.
const DEFAULT_MB: usize = 40;

/// An AGS of at least `bytes` bytes, every line valid: tile after tile,
/// then the selection rules naming them.
fn tile_rich_ags(bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 4096);
    s.push_str(
        "A\n1000\nAG_STRING\n\nTEXTURE town.dds\nTEXTURE_SCALE 4096 4096\nTEXTURE_WIDTH 256\n\
         VEGETATION trees.for\nFILL_LAYER 0\nOBJECT house.obj\nOBJECT shed.obj\nFACADE wall.fac\n\
         CREASING_ANGLE 25 35\n\n",
    );
    // The rules take about a fifth of the file.
    let tiles_end = bytes * 4 / 5;
    let mut n = 0usize;
    while s.len() < tiles_end {
        let (x, y) = ((n % 64) as f64 * 64.0, ((n / 64) % 64) as f64 * 64.0);
        let _ = write!(
            s,
            "TILE_ID {n}\nTILE {x} {y} {} {}\nSTOP_PT {} {}\nPIVOT_LEAD_PT {} {}\nPIVOT_TRAIL_PT {x} {}\n\
             OBJ_DRAPED {} {} 90 0\nOBJ_GRADED {} {} 180 1 2 5\nFAC 0 6.5 {} {} {} {} {} {} {} {}\n\
             TREE {} {} 0 4 0\nTREE_LINE {} {} {} {} 0\n",
            x + 64.0,
            y + 64.0,
            x + 32.0,
            y + 8.0,
            x + 64.0,
            y + 32.0,
            y + 32.0,
            x + 12.5,
            y + 20.25,
            x + 40.0,
            y + 44.0,
            x + 8.0,
            y + 8.0,
            x + 8.0,
            y + 30.0,
            x + 30.0,
            y + 30.0,
            x + 30.0,
            y + 8.0,
            x + 50.0,
            y + 10.0,
            x + 2.0,
            y + 60.0,
            x + 60.0,
            y + 60.0,
        );
        n += 1;
    }
    let _ = writeln!(
        s,
        "GROUP 1 {}",
        (0..n.min(1000))
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut i = 0;
    while s.len() < bytes {
        let (a, b, c) = (i % n, (i + 1) % n, (i + 2) % n);
        let _ = write!(
            s,
            "CORNER -100 -80 {a}\nCORNER_LEN 0 500 -100 -80 0 500 1 {a} {b} {c}\nCORNER_ORDER 2 1 0\n\
             SPELLING {a} {b} {c} {a}\nATOMIC_SPELLING 10 200 0 {b} {c}\nCAPS {c}\n"
        );
        if i % 1000 == 999 {
            s.push_str("PRIORITY_MARKER_CORNER\nPRIORITY_MARKER\n");
        }
        i += 1;
    }
    s
}

/// Peak resident set of this process so far, in MB (`VmHWM`), or `None`
/// where `/proc` does not report it.
fn peak_rss_mb() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = s
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let mb = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(DEFAULT_MB);
    let text = tile_rich_ags(mb * 1_000_000);
    let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    let tiles = text.matches("\nTILE ").count();
    println!(
        "input: tile-rich AGS, {:.1} MB, {lines} lines, {tiles} tiles",
        text.len() as f64 / 1e6
    );
    let t = Instant::now();
    let (_, diags) = black_box(agkit::xp::check_bytes(black_box(text.as_bytes())));
    let secs = t.elapsed().as_secs_f64();
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).take(3).collect();
    assert!(
        errors.is_empty(),
        "the generated AGS has errors: {errors:?}"
    );
    let rss = peak_rss_mb();
    println!(
        "xp::check_bytes: {secs:.2} s ({:.1} MB/s), {} warnings; peak RSS {} (input held twice: {:.0} MB)",
        text.len() as f64 / 1e6 / secs,
        diags.len(),
        rss.map_or("unknown".into(), |r| format!("{r:.0} MB")),
        2.0 * text.len() as f64 / 1e6,
    );
    let mut failed = false;
    if secs > MAX_SECONDS {
        eprintln!("FAILED: {secs:.2} s is over the guard of {MAX_SECONDS} s");
        failed = true;
    }
    if let Some(r) = rss.filter(|&r| r > MAX_RSS_MB) {
        eprintln!("FAILED: peak RSS {r:.0} MB is over the guard of {MAX_RSS_MB} MB");
        failed = true;
    }
    if failed {
        std::process::exit(1);
    }
    println!("guard met: under {MAX_SECONDS} s and {MAX_RSS_MB} MB");
}
