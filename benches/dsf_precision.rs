//! How precisely a DSF comes back when rebuilt from its text, plane kind by
//! plane kind, by agkit and (given its path) by Laminar's DSFTool.
//!
//! ```sh
//! cargo bench --bench dsf_precision -- [--dsftool PATH] FILE.dsf|DIR...
//! ```
//!
//! For every tile (directories are searched for `*.dsf`): agkit's DSF2Text
//! of it (`dsf::to_text`, rasters written beside it), that text built as
//! `agkit dsf build` builds it (grouped and stripped) and, with
//! `--dsftool`, by `DSFTool --text2dsf`; each result is read back and its
//! entities paired with the tile's (`dsf_support::plane_errors`). One line
//! per tile gives the sizes and the largest error of each plane kind
//! (agkit / DSFTool), the last line the total sizes and the largest errors
//! over all tiles. A tile that
//! cannot be read, or whose rebuild does not pair up, is reported and
//! counted; the exit status is 1 if there was any.

#[path = "../tests/dsf_support/mod.rs"]
mod dsf_support;

use agkit::dsf::{self, BuildOptions, Dsf, TextOptions};
use dsf_support::{PlaneErrors, PlaneKind, plane_errors};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tiles(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for e in entries {
            tiles(&e, out);
        }
    } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("dsf")) {
        out.push(p.to_path_buf());
    }
}

/// agkit's text of `d`, written into `dir` with its rasters.
fn write_text(d: &Dsf, dir: &Path) -> Result<(PathBuf, String), String> {
    let txt = dir.join("tile.txt");
    let opts = TextOptions {
        source_name: None,
        raster_base: Some(txt.display().to_string()),
    };
    for (k, r) in d.rasters.iter().enumerate() {
        let f = dsf::text::raster_file_name(&opts, k, r);
        std::fs::write(&f, &r.data).map_err(|e| format!("{f}: {e}"))?;
    }
    let t = dsf::to_text(d, &opts);
    std::fs::write(&txt, &t).map_err(|e| format!("{}: {e}", txt.display()))?;
    Ok((txt, t))
}

fn agkit_build(text: &str, dir: &Path) -> Result<Vec<u8>, String> {
    let (m, o) = dsf::from_text(text, &mut |p| {
        std::fs::read(dir.join(p))
            .or_else(|_| std::fs::read(p))
            .map_err(|e| e.to_string())
    })
    .map_err(|e| e.to_string())?;
    let o = BuildOptions {
        group: true,
        strip: true,
        ..o
    };
    dsf::build(&m, &o).map_err(|e| e.to_string())
}

fn dsftool_build(tool: &Path, txt: &Path, dir: &Path) -> Result<Vec<u8>, String> {
    let out = dir.join("dsftool.dsf");
    let o = Command::new(tool)
        .arg("--text2dsf")
        .arg(txt)
        .arg(&out)
        .output()
        .map_err(|e| format!("{}: {e}", tool.display()))?;
    std::fs::read(&out).map_err(|e| {
        format!(
            "DSFTool wrote nothing ({e}): {}",
            String::from_utf8_lossy(&o.stdout)
        )
    })
}

fn fmt(e: f64) -> String {
    if e == 0.0 {
        "0".into()
    } else {
        format!("{e:.1e}")
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let tool = match args.iter().position(|a| a == "--dsftool") {
        Some(i) if i + 1 < args.len() => {
            let t = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            Some(t)
        }
        _ => None,
    };
    let mut files = Vec::new();
    for a in &args {
        tiles(Path::new(a), &mut files);
    }
    if files.is_empty() {
        eprintln!("usage: cargo bench --bench dsf_precision -- [--dsftool PATH] FILE.dsf|DIR...");
        std::process::exit(2);
    }
    let kinds = PlaneKind::ALL;
    print!(
        "{:<44} {:>9} {:>9} {:>9}",
        "tile", "bytes", "agkit", "DSFTool"
    );
    for k in kinds {
        print!(" {:>17}", format!("{k:?}"));
    }
    println!();
    let (mut all_a, mut all_d) = (vec![0f64; kinds.len()], vec![0f64; kinds.len()]);
    let mut failed = 0;
    // Bytes of the tiles, agkit's rebuilds and DSFTool's.
    let mut total = [0usize; 3];
    for f in &files {
        let name: String = f
            .display()
            .to_string()
            .chars()
            .rev()
            .take(44)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let mut run = || -> Result<String, String> {
            let bytes = std::fs::read(f).map_err(|e| e.to_string())?;
            let a = dsf::read(&bytes).map_err(|e| e.to_string())?;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let (txt, t) = write_text(&a, dir.path())?;
            let ours = agkit_build(&t, dir.path())?;
            let ea = plane_errors(&a, &dsf::read(&ours).map_err(|e| e.to_string())?)
                .map_err(|e| format!("agkit: {e}"))?;
            let (theirs, ed) = match &tool {
                Some(tool) => {
                    let b = dsftool_build(tool, &txt, dir.path())?;
                    total[2] += b.len();
                    let r = dsf::read(&b).map_err(|e| format!("DSFTool's file: {e}"))?;
                    let e = plane_errors(&a, &r).map_err(|e| format!("DSFTool: {e}"))?;
                    (b.len().to_string(), Some(e))
                }
                None => ("-".into(), None),
            };
            total[0] += bytes.len();
            total[1] += ours.len();
            let mut line = format!("{:>9} {:>9} {:>9}", bytes.len(), ours.len(), theirs);
            for (i, k) in kinds.iter().enumerate() {
                let has = |e: &PlaneErrors| e.worst.contains_key(k);
                let cell = if !has(&ea) {
                    "-".to_string()
                } else {
                    all_a[i] = all_a[i].max(ea.of(*k));
                    let d = ed.as_ref().map_or("-".to_string(), |e| {
                        all_d[i] = all_d[i].max(e.of(*k));
                        fmt(e.of(*k))
                    });
                    format!("{} / {d}", fmt(ea.of(*k)))
                };
                line += &format!(" {cell:>17}");
            }
            Ok(line)
        };
        match run() {
            Ok(line) => println!("{name:<44} {line}"),
            Err(e) => {
                failed += 1;
                println!("{name:<44} FAILED: {e}");
            }
        }
    }
    let theirs = if tool.is_some() {
        total[2].to_string()
    } else {
        "-".into()
    };
    print!(
        "{:<44} {:>9} {:>9} {:>9}",
        "total; largest (agkit / DSFTool)", total[0], total[1], theirs
    );
    for i in 0..kinds.len() {
        print!(" {:>17}", format!("{} / {}", fmt(all_a[i]), fmt(all_d[i])));
    }
    println!();
    if failed > 0 {
        eprintln!("{failed} of {} tiles failed", files.len());
        std::process::exit(1);
    }
}
