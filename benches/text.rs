//! The guard of the autogen text reader: a tile-rich AGS of about 40 MB
//! (tiles with ids, stop and pivot points, objects, facades and trees, and
//! the groups, corners, spellings and caps that name them) is checked by
//! `xp::check_bytes` within [`MAX_SECONDS`] and a peak resident set of
//! [`MAX_RSS_MB`]; the bench exits non-zero when either is exceeded.
//!
//! It then times the hostile repetitions `tests/hardening.rs` holds the
//! reports of (each once quadratic), under the same guard.
//!
//! `cargo bench --bench text` (add `-- MB` for another size). Real files are
//! 0.1–100 KB; this is the size the reader must still handle without
//! trouble, not a throughput target. Beside it, the bench prints the time a
//! newline count (`memchr`) takes over the same bytes, and both CPU times
//! of the bench thread where Linux reports them.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

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

/// CPU time of this thread so far (`/proc/thread-self/schedstat`), or
/// `None` where that file does not exist.
fn cpu_now() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

/// Wall and CPU time of `f` (CPU `None` where not reported).
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let (c, t) = (cpu_now(), Instant::now());
    let out = black_box(f());
    let wall = t.elapsed();
    let cpu = c.zip(cpu_now()).map(|(a, b)| b.saturating_sub(a));
    (out, wall, cpu)
}

/// `1234.5 ms wall, 456.7 ms CPU`.
fn both(wall: Duration, cpu: Option<Duration>) -> String {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    match cpu {
        Some(c) => format!("{:.1} ms wall, {:.1} ms CPU", ms(wall), ms(c)),
        None => format!("{:.1} ms wall", ms(wall)),
    }
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

const AGB_GRID: &str = "A\n1000\nAG_BLOCK\nTEXTURE_SCALE 1024 1024\nTEXTURE_WIDTH 10\nOBJECT a.obj\nCUT_H 0\nCUT_H 10\nCUT_V 0\nCUT_V 10\nEND_CUTS\n";

/// How many hostile cases [`hostile`] has.
const HOSTILE: usize = 6;

/// Hostile repetition `i` of those `tests/hardening.rs` asserts the reports
/// of (each once quadratic): what it is, its text, and whether the report is
/// rendered as JSON (else as human text, as `agkit check` does).
fn hostile(i: usize) -> (&'static str, String, bool) {
    let n = 200_000;
    match i {
        0 => {
            let mut s = String::from(AGB_GRID);
            s.push_str(&"GROUND_PT_FORMULA 1 0 1 0\n".repeat(n));
            s.push_str(&"OBJ_DRAPED 1 1 0 0\nGROUND_PT_FORMULA 1 0 1 0\n".repeat(n));
            s.push_str("SPELLING_SET 0\nSPELLING_T 0\nSPELLING_S 0\n");
            (
                "AGB, 200k GROUND_PT_FORMULA then 200k OBJ_DRAPED + formula",
                s,
                false,
            )
        }
        1 => {
            let mut s = String::from(AGB_GRID);
            for i in 0..n {
                let _ = writeln!(s, "DEFINE_SPELLING_S n{i} {}", i % 2);
            }
            s.push_str("SPELLING_SET 0\nSPELLING_T 0\n");
            for i in (0..n).rev() {
                let _ = writeln!(s, "USE_SPELLING_S n{i}");
            }
            (
                "AGB, 200k DEFINE_SPELLING_S names + 200k USE_SPELLING_S",
                s,
                false,
            )
        }
        2 => {
            let mut s = String::from(AGB_GRID);
            s.push_str(&"DEFINE_SPELLING_S same 0\n".repeat(n));
            s.push_str("SPELLING_SET 0\nSPELLING_T 0\n");
            s.push_str(&"USE_SPELLING_S other\n".repeat(n));
            (
                "AGB, 200k repeats of one name + 200k unknown uses",
                s,
                false,
            )
        }
        3 => {
            // Trees without VEGETATION (errors) and corners in a group no
            // GROUP defines, naming tiles that do not exist.
            let mut s = String::from(
                "A\n1000\nAG_STRING\nTEXTURE_SCALE 1024 1024\nTEXTURE_WIDTH 10\nTEXTURE t.dds\n",
            );
            for i in 0..n {
                let _ = writeln!(s, "TILE_ID {i}\nTILE 0 0 64 64\nTREE 8 8 0 4 0");
            }
            for i in 0..n {
                let _ = writeln!(s, "CORNER_LEN 0 9 -100 -80 0 9 5 {}", n + i);
            }
            s.push_str("SPELLING 0\n");
            (
                "AGS, 200k tiles with trees + 200k CORNER_LEN, JSON",
                s,
                true,
            )
        }
        4 => (
            "AGS, CAPS with 1M non-numbers on one line",
            format!(
                "A\n1000\nAG_STRING\nTEXTURE_SCALE 8 8\nTEXTURE_WIDTH 8\nTILE 0 0 8 8\nCAPS{}\n",
                " x".repeat(1_000_000)
            ),
            false,
        ),
        _ => (
            "AGP, unknown directive with 1M arguments",
            format!(
                "A\n1000\nAG_POINT\nTEXTURE_SCALE 8 8\nTEXTURE_WIDTH 8\nTILE 0 0 8 8\nFOO{}\n",
                " 7".repeat(1_000_000)
            ),
            false,
        ),
    }
}

/// Checks hostile case `i` and renders its report, prints one line and
/// whether it met the guard (run in a process of its own, so that its
/// peak resident set is its own).
fn run_hostile(i: usize) -> bool {
    let (what, src, json) = hostile(i);
    let ((n, len), wall, cpu) = timed(|| {
        let (text, diags) = agkit::xp::check_bytes(src.as_bytes());
        let len = if json {
            agkit::diag::to_json("f", Some(&text), &diags).len()
        } else {
            agkit::diag::render_human("f", Some(&text), &diags).len()
        };
        (diags.len(), len)
    });
    let rss = peak_rss_mb();
    println!(
        "  {what} ({:.1} MB): {}; {n} diagnostics ({len} {}); peak RSS {}",
        src.len() as f64 / 1e6,
        both(wall, cpu),
        if json { "records" } else { "bytes of report" },
        rss.map_or("unknown".into(), |r| format!("{r:.0} MB")),
    );
    wall.as_secs_f64() <= MAX_SECONDS && rss.is_none_or(|r| r <= MAX_RSS_MB)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--hostile") {
        let i = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(0);
        std::process::exit(if run_hostile(i) { 0 } else { 1 });
    }
    let mb = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(DEFAULT_MB);
    let text = tile_rich_ags(mb * 1_000_000);
    let (lines, nl_wall, nl_cpu) = timed(|| memchr::memchr_iter(b'\n', text.as_bytes()).count());
    let tiles = text.matches("\nTILE ").count();
    println!(
        "input: tile-rich AGS, {:.1} MB, {lines} lines, {tiles} tiles",
        text.len() as f64 / 1e6
    );
    let ((_, diags), wall, cpu) = timed(|| agkit::xp::check_bytes(black_box(text.as_bytes())));
    let secs = wall.as_secs_f64();
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).take(3).collect();
    assert!(
        errors.is_empty(),
        "the generated AGS has errors: {errors:?}"
    );
    let rss = peak_rss_mb();
    println!(
        "xp::check_bytes: {} ({:.1} MB/s of wall time), {} warnings; newline count: {}; peak RSS {} (input held twice: {:.0} MB)",
        both(wall, cpu),
        text.len() as f64 / 1e6 / secs,
        diags.len(),
        both(nl_wall, nl_cpu),
        rss.map_or("unknown".into(), |r| format!("{r:.0} MB")),
        2.0 * text.len() as f64 / 1e6,
    );
    let mut failed = Vec::new();
    let mut guard = |what: &str, secs: f64, rss: Option<f64>| {
        if secs > MAX_SECONDS {
            failed.push(format!(
                "{what}: {secs:.2} s is over the guard of {MAX_SECONDS} s"
            ));
        }
        if let Some(r) = rss.filter(|&r| r > MAX_RSS_MB) {
            failed.push(format!(
                "{what}: peak RSS {r:.0} MB is over the guard of {MAX_RSS_MB} MB"
            ));
        }
    };
    guard("tile-rich AGS", secs, rss);
    drop(text);
    println!(
        "hostile repetitions (check and render the report, as `agkit check` does; one process each):"
    );
    for i in 0..HOSTILE {
        let ok = std::env::current_exe()
            .and_then(|exe| {
                std::process::Command::new(exe)
                    .arg("--hostile")
                    .arg(i.to_string())
                    .status()
            })
            .is_ok_and(|s| s.success());
        if !ok {
            failed.push(format!("hostile case {i} missed the guard or failed"));
        }
    }
    if !failed.is_empty() {
        for f in failed {
            eprintln!("FAILED: {f}");
        }
        std::process::exit(1);
    }
    println!("guard met: under {MAX_SECONDS} s and {MAX_RSS_MB} MB");
}
