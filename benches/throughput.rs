//! Side-by-side throughput of agkit against the machine's own limit.
//!
//! `cargo bench --bench throughput -- [DIR]`: DIR is a tree written by
//! `agkit gen` (default: a small set generated into a temporary folder).
//! Every figure is printed next to its baseline over the same bytes, with the
//! ratio:
//!
//! - text parse+validate (`xp::check_bytes`) vs counting newlines over the
//!   same in-memory bytes (`wc -l`);
//! - AGN `fs::read` + `agn::read` vs `fs::read`; `agn::write` + `fs::write`
//!   vs `fs::write` of the same bytes;
//! - DSF `fs::read` + `dsf::read` vs `fs::read`; for the base-mesh and
//!   dense-overlay tiles, streamed `totext` vs `fs::read` and `build` from
//!   their text vs counting its newlines (`--dsf` runs only these);
//! - AGS placement time per vertex at 1k/10k/100k vertices (a wiggly comb);
//! - AGB blocks placed per second;
//! - peak RSS (VmHWM) before/after a streaming pass over every file.
//!
//! Each measurement is the best of `REPEATS` runs (the machine is shared);
//! the text rows compare CPU time of the bench thread, the others wall time,
//! except the AGS rows: CPU time per placement, the best of `AGS_REPEATS`
//! timings of at least `MIN_TIMING` each (the 1k case runs many times per
//! timing). `--text` measures only the text rows (parse+validate, its phases
//! and the baselines) and skips the rest; `--ags` measures only the AGS
//! rows (no input needed); `--check-only` runs only the `xp::check_bytes`
//! loop, ten times (for a profiler).

use agkit::r#gen;
use agkit::place::{self, Params, Use};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const REPEATS: usize = 3;
/// Timings of which the AGS rows keep the best.
const AGS_REPEATS: usize = 5;
/// The least time one AGS timing covers.
const MIN_TIMING: Duration = Duration::from_millis(200);

fn best<T>(mut f: impl FnMut() -> T) -> Duration {
    (0..REPEATS)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// CPU time of this thread so far (`/proc/thread-self/schedstat`, ns), or
/// `None` where that file does not exist.
fn cpu_now() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Like [`best`], but the thread's CPU time instead of wall time when the
/// system reports it: on a shared, loaded machine a long run waits for the
/// CPU far more than a short one, which wall-time ratios would count
/// against it.
fn best_cpu<T>(mut f: impl FnMut() -> T) -> Duration {
    if cpu_now().is_none() {
        return best(f);
    }
    (0..REPEATS)
        .map(|_| {
            let t = cpu_now().unwrap_or_default();
            black_box(f());
            cpu_now().unwrap_or_default().saturating_sub(t)
        })
        .min()
        .unwrap_or_default()
}

/// CPU time of one call of `f` (wall time where the system does not
/// report CPU time): each timing covers at least [`MIN_TIMING`] (a short
/// case runs that many times in a row and the time is divided), and the
/// best of [`AGS_REPEATS`] timings is kept, so a 10 ms case is as steady as
/// a 1 s one.
fn best_cpu_per_run<T>(mut f: impl FnMut() -> T) -> Duration {
    let now = || {
        cpu_now().unwrap_or_else(|| {
            static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
            START.get_or_init(Instant::now).elapsed()
        })
    };
    // One warm-up call, which also tells how many calls a timing needs.
    let t = now();
    black_box(f());
    let once = now().saturating_sub(t).max(Duration::from_micros(1));
    let runs = MIN_TIMING.as_nanos().div_ceil(once.as_nanos()).max(1) as u32;
    (0..AGS_REPEATS)
        .map(|_| {
            let t = now();
            for _ in 0..runs {
                black_box(f());
            }
            now().saturating_sub(t) / runs
        })
        .min()
        .unwrap_or_default()
}

fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
        })
        .collect();
    v.sort();
    v
}

fn mbps(bytes: u64, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn row(what: &str, bytes: u64, ours: Duration, base: Duration, base_name: &str) {
    println!(
        "{what:<34} {:>9.1} MB/s   {base_name:<22} {:>9.1} MB/s   ratio {:>6.1} %",
        mbps(bytes, ours),
        mbps(bytes, base),
        100.0 * base.as_secs_f64() / ours.as_secs_f64()
    );
}

fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    if std::env::args().any(|a| a == "--ags") {
        ags();
        return;
    }
    let arg = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(PathBuf::from);
    let _tmp;
    let dir = match arg {
        Some(d) => d,
        None => {
            _tmp = tempfile::tempdir().expect("a temporary folder");
            r#gen::generate(1, _tmp.path(), r#gen::Scale::Small).expect("generate");
            _tmp.path().to_path_buf()
        }
    };
    if std::env::args().any(|a| a == "--dsf") {
        dsf_tiles(&dir);
        return;
    }
    let text_only = std::env::args().any(|a| a == "--text");
    if std::env::args().any(|a| a == "--check-only") {
        check_only(&dir);
        return;
    }
    let hwm_start = vm_hwm_kb();
    println!("input: {}", dir.display());
    if !text_only {
        streaming(&dir, hwm_start);
    }
    text(&dir);
    if text_only {
        return;
    }
    rest(&dir);
}

/// The production-scale DSF rows: for each base-mesh tile (`basemesh/`) and
/// the dense overlay (`dense/`), streamed `totext` (to a sink) against
/// `fs::read` of the DSF, and `from_text` + `build` (grouped and stripped,
/// as `dsf build`) against counting the text's newlines, with the sizes.
fn dsf_tiles(dir: &Path) {
    use agkit::dsf::{self, BuildOptions, TextOptions};
    let mut tiles = files(&dir.join("basemesh"), &["dsf"]);
    tiles.extend(files(&dir.join("dense"), &["dsf"]));
    for p in tiles {
        let name = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
        let bytes = std::fs::read(&p).unwrap();
        let read_raw = best(|| std::fs::read(&p).unwrap().len());
        let limits = agkit::limits::Limits::default();
        let totext = best(|| {
            let d = dsf::read::decode(&bytes, &limits).unwrap();
            let mut sink = std::io::BufWriter::new(std::io::sink());
            dsf::text::write_stream(&d, &TextOptions::default(), &mut sink).unwrap();
        });
        row(
            &format!("dsf totext (streamed) {name}"),
            bytes.len() as u64,
            totext,
            read_raw,
            "fs::read",
        );
        let model = dsf::read(&bytes).unwrap();
        let text = dsf::to_text(&model, &TextOptions::default());
        let lines = best(|| memchr::memchr_iter(b'\n', text.as_bytes()).count());
        let mut out = 0;
        let build = best(|| {
            // The rasters' sidecar files are the tile's own rasters, in order.
            let mut next = model.rasters.iter().map(|r| r.data.clone());
            let (m, o) =
                dsf::from_text(&text, &mut |_| next.next().ok_or("no raster".into())).unwrap();
            let opts = BuildOptions {
                group: true,
                strip: true,
                ..o
            };
            out = dsf::build(&m, &opts).unwrap().len();
        });
        drop(model);
        row(
            &format!("dsf build (as dsf build) {name}"),
            text.len() as u64,
            build,
            lines,
            "count newlines",
        );
        println!(
            "  {name}: DSF {:.1} MB, its text {:.1} MB, rebuilt {:.1} MB",
            bytes.len() as f64 / 1e6,
            text.len() as f64 / 1e6,
            out as f64 / 1e6
        );
    }
}

/// Streaming pass first (before anything is held in memory): one file at a
/// time, as `agkit check` does per thread.
fn streaming(dir: &Path, hwm_start: u64) {
    let all = files(dir, &["agp", "agb", "ags", "agn", "dsf"]);
    let mut largest = 0u64;
    let t = Instant::now();
    for p in &all {
        let b = std::fs::read(p).expect("read");
        largest = largest.max(b.len() as u64);
        let d = match p.extension().and_then(|e| e.to_str()) {
            Some("agn") => agkit::agn::check_bytes(&b),
            Some("dsf") => agkit::dsf::check_bytes(&b),
            _ => agkit::xp::check_bytes(&b).1,
        };
        black_box(d);
    }
    println!(
        "streaming check of {} files: {:.2} s; VmHWM {} kB before, {} kB after (largest file {} kB)",
        all.len(),
        t.elapsed().as_secs_f64(),
        hwm_start,
        vm_hwm_kb(),
        largest / 1024
    );
}

/// Every AGP/AGB/AGS file under `dir`, read into memory, and their total size.
fn text_files(dir: &Path) -> (Vec<Vec<u8>>, u64) {
    let text: Vec<Vec<u8>> = files(dir, &["agp", "agb", "ags"])
        .iter()
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    let bytes = text.iter().map(|b| b.len() as u64).sum();
    (text, bytes)
}

/// `xp::check_bytes` over every text file, ten times, and nothing else.
fn check_only(dir: &Path) {
    let (text, bytes) = text_files(dir);
    let mut times = Vec::new();
    for _ in 0..10 {
        let t = cpu_now().unwrap_or_default();
        let n: usize = text.iter().map(|b| agkit::xp::check_bytes(b).1.len()).sum();
        black_box(n);
        times.push(cpu_now().unwrap_or_default().saturating_sub(t));
    }
    let best = times.iter().min().copied().unwrap_or_default();
    println!(
        "check_bytes: {:.1} MB, best of 10 {:.0} ms CPU, {:.1} MB/s",
        bytes as f64 / 1e6,
        best.as_secs_f64() * 1e3,
        bytes as f64 / 1e6 / best.as_secs_f64()
    );
}

/// Text parse+validate against the newline count of the same bytes.
fn text(dir: &Path) {
    let (text, bytes) = text_files(dir);
    println!("text: {} files, {:.1} MB", text.len(), bytes as f64 / 1e6);
    let scan = best_cpu(|| {
        text.iter()
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .sum::<usize>()
    });
    let lines = best_cpu(|| {
        text.iter()
            .map(|b| std::str::from_utf8(b).map_or(0, |s| s.lines().count()))
            .sum::<usize>()
    });
    let check = best_cpu(|| {
        text.iter()
            .map(|b| agkit::xp::check_bytes(b).1.len())
            .sum::<usize>()
    });
    println!("(text rows: CPU time of the bench thread, best of {REPEATS})");
    row("text parse+validate", bytes, check, scan, "newline count");
    row(
        "text parse+validate",
        bytes,
        check,
        lines,
        "utf8 + str::lines",
    );
    // Where the text time goes: line document, typed read, validation.
    let srcs: Vec<&str> = text
        .iter()
        .map(|b| std::str::from_utf8(b).expect("generated text is UTF-8"))
        .collect();
    let doc = best_cpu(|| {
        srcs.iter()
            .map(|s| agkit::xp::Document::parse(s).lines().len())
            .sum::<usize>()
    });
    let docs: Vec<_> = srcs.iter().map(|s| agkit::xp::Document::parse(s)).collect();
    let toks = best_cpu(|| {
        let mut buf = Vec::with_capacity(16);
        docs.iter()
            .map(|d| {
                d.lines()
                    .iter()
                    .map(|l| {
                        buf.clear();
                        d.tokens_into(l, &mut buf);
                        buf.len()
                    })
                    .sum::<usize>()
            })
            .sum::<usize>()
    });
    let read = best_cpu(|| {
        docs.iter()
            .map(|d| agkit::xp::parse::read(d).diags.len())
            .sum::<usize>()
    });
    let parsed: Vec<_> = docs.iter().map(agkit::xp::parse::read).collect();
    let validate = best_cpu(|| {
        let mut n = 0;
        for (d, p) in docs.iter().zip(&parsed) {
            let mut out = Vec::new();
            if let Some(a) = &p.asset {
                agkit::xp::check::validate(d, a, &mut out);
            }
            n += out.len();
        }
        n
    });
    println!(
        "text phases: Document::parse {:.0} ms, parse::read {:.0} ms (tokenizer over every line {:.0} ms), check::validate {:.0} ms (check_bytes total {:.0} ms)",
        doc.as_secs_f64() * 1e3,
        read.as_secs_f64() * 1e3,
        toks.as_secs_f64() * 1e3,
        validate.as_secs_f64() * 1e3,
        check.as_secs_f64() * 1e3
    );
}

/// AGN, DSF, placement.
fn rest(dir: &Path) {
    // AGN.
    let agn_files = files(dir, &["agn"]);
    let raw: Vec<Vec<u8>> = agn_files
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let bytes: u64 = raw.iter().map(|b| b.len() as u64).sum();
    println!("agn: {} files, {:.1} MB", raw.len(), bytes as f64 / 1e6);
    let read_raw = best(|| {
        agn_files
            .iter()
            .map(|p| std::fs::read(p).unwrap().len())
            .sum::<usize>()
    });
    let read_agn = best(|| {
        agn_files
            .iter()
            .map(|p| {
                agkit::agn::read(&std::fs::read(p).unwrap())
                    .unwrap()
                    .chunks
                    .len()
            })
            .sum::<usize>()
    });
    row(
        "agn fs::read + agn::read",
        bytes,
        read_agn,
        read_raw,
        "fs::read",
    );
    let models: Vec<_> = raw.iter().map(|b| agkit::agn::read(b).unwrap()).collect();
    // Every repetition writes new files into a fresh folder (overwriting
    // existing files costs more on ext4 and would favour whichever ran
    // first).
    let out = tempfile::tempdir().unwrap();
    let mut run = 0;
    let mut fresh = || {
        run += 1;
        let d = out.path().join(run.to_string());
        std::fs::create_dir(&d).unwrap();
        d
    };
    let write_raw = best(|| {
        let d = fresh();
        for (i, b) in raw.iter().enumerate() {
            std::fs::write(d.join(format!("{i}.agn")), b).unwrap();
        }
    });
    let write_agn = best(|| {
        let d = fresh();
        for (i, m) in models.iter().enumerate() {
            std::fs::write(d.join(format!("{i}.agn")), agkit::agn::write(m).unwrap()).unwrap();
        }
    });
    let encode = best(|| {
        models
            .iter()
            .map(|m| agkit::agn::write(m).unwrap().len())
            .sum::<usize>()
    });
    row(
        "agn agn::write + fs::write",
        bytes,
        write_agn,
        write_raw,
        "fs::write",
    );
    println!(
        "agn agn::write alone (in memory): {:.1} MB/s",
        mbps(bytes, encode)
    );
    drop((raw, models, out));

    // DSF.
    let dsf_files = files(dir, &["dsf"]);
    let bytes: u64 = dsf_files
        .iter()
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    println!(
        "dsf: {} files, {:.1} MB",
        dsf_files.len(),
        bytes as f64 / 1e6
    );
    let read_raw = best(|| {
        dsf_files
            .iter()
            .map(|p| std::fs::read(p).unwrap().len())
            .sum::<usize>()
    });
    let read_dsf = best(|| {
        dsf_files
            .iter()
            .map(|p| {
                agkit::dsf::read(&std::fs::read(p).unwrap())
                    .unwrap()
                    .entities
                    .len()
            })
            .sum::<usize>()
    });
    row(
        "dsf fs::read + dsf::read",
        bytes,
        read_dsf,
        read_raw,
        "fs::read",
    );
    let check_dsf = best(|| {
        dsf_files
            .iter()
            .map(|p| agkit::dsf::check_bytes(&std::fs::read(p).unwrap()).len())
            .sum::<usize>()
    });
    row(
        "dsf fs::read + dsf::check_bytes",
        bytes,
        check_dsf,
        read_raw,
        "fs::read",
    );
    dsf_tiles(dir);

    // AGS per vertex.
    ags();

    // AGB blocks per second.
    let agb = agkit::xp::parse(r#gen::BLOCK_EXAMPLE).expect("example parses");
    let blocks: Vec<Use> = (0..200)
        .map(|i| {
            let (w, h) = (30.0 + (i % 17) as f64 * 10.0, 25.0 + (i % 7) as f64 * 7.0);
            Use::Polygon {
                windings: vec![r#gen::to_lonlat(&[[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])],
            }
        })
        .collect();
    let mut placed = 0usize;
    let d = best(|| {
        placed = 0;
        for (i, u) in blocks.iter().enumerate() {
            let p = Params {
                seed: i as u64,
                ..Params::default()
            };
            if place::place(&agb, "city_block.agb", u, &p).is_ok() {
                placed += 1;
            }
        }
    });
    println!(
        "agb place: {} blocks ({placed} placed) in {:.1} ms = {:.0} blocks/s",
        blocks.len(),
        d.as_secs_f64() * 1e3,
        blocks.len() as f64 / d.as_secs_f64()
    );
    println!(
        "VmHWM at the end (everything loaded at once): {} kB",
        vm_hwm_kb()
    );
}

/// AGS placement time per vertex on a wiggly comb of 1k, 10k and 100k
/// vertices (CPU time of the bench thread per placement, see
/// [`best_cpu_per_run`]).
fn ags() {
    let mut ags = agkit::xp::parse(r#gen::STRING_EXAMPLE).expect("example parses");
    if let Some(s) = ags.string.as_mut() {
        // The fill is bounded by a point budget, not by the outline: leave
        // it out so the figure is the per-vertex cost.
        s.fill_layer = None;
    }
    let params = Params {
        seed: 7,
        low: 1,
        ..Params::default()
    };
    let mut per_vertex = Vec::new();
    for n in [1_000usize, 10_000, 100_000] {
        let ring = r#gen::wiggly_comb(n as u64, n);
        let use_ = Use::Polygon {
            windings: vec![r#gen::to_lonlat(&ring)],
        };
        let mut tiles = 0;
        let d = best_cpu_per_run(
            || match place::place(&ags, "town_edge.ags", &use_, &params) {
                Ok(p) => tiles = p.tiles.len(),
                Err(e) => eprintln!("ags place failed: {e}"),
            },
        );
        let us = d.as_secs_f64() * 1e6 / ring.len() as f64;
        per_vertex.push(us);
        println!(
            "ags place {:>6} vertices: {:>8.1} ms, {:>6.2} µs/vertex, {tiles} tiles",
            ring.len(),
            d.as_secs_f64() * 1e3,
            us
        );
    }
    println!(
        "ags µs/vertex at 100k ÷ at 1k: {:.2}",
        per_vertex[2] / per_vertex[0]
    );
}
