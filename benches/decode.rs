//! DSF decode beside MD5 of the same bytes (issue 48 item 2).
//!
//! `cargo bench --bench decode -- [FILE.dsf ...]`
//!
//! Inputs: two overlay tiles the bench builds itself (1× and 4×: objects
//! one `Object` command each, as DSFTool writes them, AGB and AGS
//! polygons, so a decoder that grows faster than its input shows in the
//! ratio of the two rows), then every DSF named on the command line (plain
//! or 7z). Each is measured in memory, best of `REPEATS` wall times:
//!
//! - `md5`: the md-5 crate over the file's bytes (what `md5sum` computes);
//! - `check`: [`agkit::dsf::check_bytes`], decode and every check, as
//!   `agkit check` runs it (MD5 included, on a second thread);
//! - `decode`: [`agkit::dsf::read::decode`] alone (flat form, MD5 included);
//! - `read`: [`agkit::dsf::read`], the typed model;
//! - `totext`: decode and DSF2Text streamed into a sink;
//! - for a base mesh, `mesh load`: [`agkit::dsf::read_with`] and
//!   [`agkit::terrain::Surface::from_dsf`], as `place --mesh` loads it;
//! - the same file packed as 7z: `unpack` (the bare LZMA decode,
//!   [`agkit::dsf::read::unpack_7z`]) and `check` of the archive.
//!
//! Peak memory: each input is also checked in a child process of this
//! bench (`--peak FILE`), which reads the file as `agkit check` does and
//! prints its peak RSS (`VmHWM`) beside the file's size.

use agkit::dsf::{self, Command, Dsf, Plane, Pool};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

const REPEATS: usize = 5;

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

/// A synthetic overlay tile of `n` objects (one `Object` command each, in
/// pools of 60,000 points) and `n / 10` AGB polygons of 4 points.
fn synthetic(n: usize) -> Vec<u8> {
    let mut d = Dsf::overlay(8, 47);
    d.object_defs = (0..40).map(|k| format!("lib/o{k}.agp")).collect();
    d.polygon_defs = vec!["lib/block.agb".into(), "lib/street.ags".into()];
    let mut cmds = Vec::new();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % 65536) as u32
    };
    let chunk = 60_000usize;
    let mut left = n;
    while left > 0 {
        let m = left.min(chunk);
        let pool = |depth: usize, count: usize, next: &mut dyn FnMut() -> u32| Pool {
            offset: 0,
            count,
            planes: (0..depth)
                .map(|p| Plane {
                    encoding: 1,
                    scale: if p == 2 { 360.0 } else { 1.0 },
                    offset: if p == 0 { 8.0 } else { 47.0 },
                    raw: (0..count).map(|_| next()).collect(),
                    wide: false,
                })
                .collect(),
        };
        let k = d.pools.len() as u16;
        d.pools.push(pool(3, m, &mut next));
        cmds.push(Command::PoolSelect(k));
        for i in 0..m {
            if i % 1500 == 0 {
                cmds.push(Command::set_definition((i / 1500 % 40) as u32));
            }
            cmds.push(Command::Object(i as u16));
        }
        // Squares, counter-clockwise (what `check` passes).
        let polys = m / 10;
        let mut square = pool(2, polys * 4, &mut next);
        for p in 0..polys {
            let (x, y) = (next() % 65000, next() % 65000);
            for (c, (dx, dy)) in [(0, 0), (500, 0), (500, 500), (0, 500)]
                .into_iter()
                .enumerate()
            {
                square.planes[0].raw[4 * p + c] = x + dx;
                square.planes[1].raw[4 * p + c] = y + dy;
            }
        }
        for plane in &mut square.planes {
            plane.encoding = 0;
        }
        d.pools.push(square);
        cmds.push(Command::PoolSelect(k + 1));
        cmds.push(Command::SetDefinition8(0));
        for p in 0..polys {
            let a = (4 * p) as u16;
            cmds.push(Command::PolygonRange {
                param: 0,
                first: a,
                last: a + 4,
            });
        }
        left -= m;
    }
    dsf::write_raw(&d, &cmds).expect("the synthetic tile writes")
}

fn seven_zip(inner: &[u8]) -> Vec<u8> {
    use sevenz_rust2::{ArchiveEntry, ArchiveWriter};
    let mut w = ArchiveWriter::new(std::io::Cursor::new(Vec::new())).expect("7z writer");
    w.push_archive_entry(ArchiveEntry::new_file("tile.dsf"), Some(inner))
        .expect("7z entry");
    w.finish().expect("7z archive").into_inner()
}

fn mbs(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / 1e6 / t.as_secs_f64().max(1e-9)
}

fn row(what: &str, bytes: usize, t: Duration, base: Duration) {
    println!(
        "  {what:<22} {:>9.2} ms {:>8.1} MB/s  {:>5.2}x md5's time",
        t.as_secs_f64() * 1e3,
        mbs(bytes, t),
        t.as_secs_f64() / base.as_secs_f64().max(1e-9)
    );
}

fn measure(name: &str, bytes: &[u8], file: Option<&Path>) {
    use md5::{Digest, Md5};
    let limits = agkit::limits::Limits::default();
    let plain = if bytes.starts_with(&dsf::read::SEVENZ_MAGIC) {
        dsf::read::unpack_7z(bytes).expect("the archive unpacks")
    } else {
        bytes.to_vec()
    };
    println!("{name}: {:.2} MB", plain.len() as f64 / 1e6);
    let md5 = best(|| Md5::digest(&plain));
    row("md5", plain.len(), md5, md5);
    row(
        "check",
        plain.len(),
        best(|| dsf::check_bytes(&plain).len()),
        md5,
    );
    row(
        "decode (flat)",
        plain.len(),
        best(|| dsf::read::decode(&plain, &limits).map(|d| d.pools().len())),
        md5,
    );
    row(
        "read (model)",
        plain.len(),
        best(|| dsf::read(&plain).map(|d| d.entities.len())),
        md5,
    );
    row(
        "totext (to a sink)",
        plain.len(),
        best(|| {
            let d = dsf::read::decode(&plain, &limits).expect("decodes");
            let mut sink = std::io::sink();
            dsf::text::write_stream(&d, &dsf::TextOptions::default(), &mut sink).is_ok()
        }),
        md5,
    );
    // A base mesh: what `place --mesh` and the scene load (issue 49 item
    // 6: comparable to `totext`), the typed read and the surface with its
    // triangle index.
    if dsf::read(&plain).is_ok_and(|d| !d.is_overlay()) {
        let mut triangles = 0;
        let load = best(|| {
            let d = dsf::read_with(&plain, &limits).expect("reads");
            let s = agkit::terrain::Surface::from_dsf(&d, &limits).expect("a surface");
            triangles = s.triangles.len();
        });
        row("mesh load (surface)", plain.len(), load, md5);
        println!("  mesh: {triangles} triangles");
    }
    let packed = seven_zip(&plain);
    let unpack = best(|| dsf::read::unpack_7z(&packed).map(|v| v.len()));
    println!("  7z form: {:.2} MB", packed.len() as f64 / 1e6);
    row("7z: unpack (LZMA)", plain.len(), unpack, md5);
    let check7 = best(|| dsf::check_bytes(&packed).len());
    row("7z: check", plain.len(), check7, md5);
    println!(
        "  7z: check / unpack    {:>5.2}x",
        check7.as_secs_f64() / unpack.as_secs_f64().max(1e-9)
    );
    // Peak memory of a process that only checks the file.
    let tmp;
    let path = match file {
        Some(p) => p,
        None => {
            tmp =
                std::env::temp_dir().join(format!("agkit-decode-bench-{}.dsf", std::process::id()));
            std::fs::write(&tmp, &plain).expect("write the synthetic tile");
            &tmp
        }
    };
    peak_row("peak RSS, check", path, plain.len());
    if file.is_none() {
        let _ = std::fs::remove_file(path);
    }
}

fn peak_row(what: &str, path: &Path, size: usize) {
    let out = std::env::current_exe()
        .ok()
        .and_then(|exe| {
            std::process::Command::new(exe)
                .arg("--peak")
                .arg(path)
                .output()
                .ok()
        })
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    match out.parse::<f64>() {
        Ok(kb) => println!(
            "  {what:<22} {:>9.1} MB ({:.2}x the file; a bare process {:.1} MB)",
            kb / 1e3,
            kb * 1e3 / size as f64,
            bare_peak_kb() / 1e3
        ),
        Err(_) => println!("  {what}: not measured ({out})"),
    }
}

/// VmHWM of this process, kB (0 where /proc is missing).
fn vm_hwm_kb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0.0)
}

/// Peak RSS of a child that does nothing.
fn bare_peak_kb() -> f64 {
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            std::process::Command::new(exe)
                .arg("--peak-bare")
                .output()
                .ok()
        })
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(0.0)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("--peak") {
        let bytes = std::fs::read(&args[1]).expect("read the DSF");
        black_box(dsf::check_bytes(&bytes));
        drop(bytes);
        println!("{}", vm_hwm_kb());
        return;
    }
    if args.first().map(String::as_str) == Some("--peak-bare") {
        println!("{}", vm_hwm_kb());
        return;
    }
    for n in [250_000, 1_000_000] {
        let bytes = synthetic(n);
        measure(&format!("synthetic overlay, {n} objects"), &bytes, None);
    }
    for f in &args {
        let p = Path::new(f);
        let bytes = std::fs::read(p).expect("read the DSF");
        measure(f, &bytes, Some(p));
    }
}
