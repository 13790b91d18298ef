//! Finding the files behind the asset paths a DSF names.
//!
//! A path in a DSF is first looked for as a file of the scenery package the
//! DSF belongs to (relative to the package root); failing that it is a
//! *virtual* library path, looked up in the `library.txt` files of library
//! packages.
//!
//! `library.txt` lines used here (others — `REGION*`, `PUBLIC`, `PRIVATE`,
//! `DEPRECATED`, … — are ignored):
//!
//! - `EXPORT virtual real` and `EXPORT_EXCLUDE virtual real`: the package
//!   provides `real` (relative to the package) for `virtual`; a package of
//!   higher priority replaces what lower ones export;
//! - `EXPORT_RATIO ratio virtual real`: the same with a weight for the random
//!   pick (plain exports weigh 1);
//! - `EXPORT_EXTEND virtual real`: adds to the exports instead of replacing;
//! - `EXPORT_BACKUP virtual real`: used only when nothing else exports the
//!   path.
//!
//! The real path is the rest of the line (it may contain spaces);
//! backslashes are read as `/`. Packages are searched in priority order:
//! the DSF's own package first (when it has a `library.txt`), then each
//! `--library` folder in the order given — a folder holding a `library.txt`
//! is one package, any other folder is a Custom Scenery folder whose
//! sub-folders with a `library.txt` are packages, ordered as its
//! `scenery_packs.ini` lists them (`SCENERY_PACK …`, disabled ones skipped),
//! the rest alphabetically after them. When several files export one path,
//! one is picked at random (weighted by ratio) from the placement seed.

use rand::RngExt;
use std::path::{Path, PathBuf};

/// How an export line adds its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// `EXPORT`, `EXPORT_RATIO`, `EXPORT_EXCLUDE`: replaces lower packages.
    Export,
    /// `EXPORT_EXTEND`: adds to the other packages' exports.
    Extend,
    /// `EXPORT_BACKUP`: only when nothing else exports the path.
    Backup,
}

/// One export line of a `library.txt`.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// What kind of export.
    pub kind: ExportKind,
    /// The virtual path.
    pub virtual_path: String,
    /// The file, relative to the package.
    pub real: String,
    /// Weight of the random pick (1 unless `EXPORT_RATIO`).
    pub ratio: f64,
    /// 1-based line.
    pub line: usize,
}

/// Reads the export lines of a `library.txt`.
pub fn parse_library(text: &str) -> Vec<Export> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let mut it = line.splitn(2, char::is_whitespace);
        let keyword = it.next().unwrap_or("");
        let rest = it.next().unwrap_or("").trim_start();
        let (kind, ratio, rest) = match keyword {
            "EXPORT" | "EXPORT_EXCLUDE" => (ExportKind::Export, 1.0, rest),
            "EXPORT_EXTEND" => (ExportKind::Extend, 1.0, rest),
            "EXPORT_BACKUP" => (ExportKind::Backup, 1.0, rest),
            "EXPORT_RATIO" => {
                let mut it = rest.splitn(2, char::is_whitespace);
                let Some(ratio) = it.next().and_then(|r| r.parse::<f64>().ok()) else {
                    continue;
                };
                (
                    ExportKind::Export,
                    ratio,
                    it.next().unwrap_or("").trim_start(),
                )
            }
            _ => continue,
        };
        let mut it = rest.splitn(2, char::is_whitespace);
        let (Some(v), Some(r)) = (it.next(), it.next()) else {
            continue;
        };
        let (v, r) = (normalize(v), normalize(r.trim()));
        if v.is_empty() || r.is_empty() {
            continue;
        }
        out.push(Export {
            kind,
            virtual_path: v,
            real: r,
            ratio: if ratio.is_finite() && ratio > 0.0 {
                ratio
            } else {
                0.0
            },
            line: i + 1,
        });
    }
    out
}

fn normalize(p: &str) -> String {
    p.replace('\\', "/")
}

/// A library package: its folder and exports.
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    /// The package folder.
    pub root: PathBuf,
    /// Its `library.txt` exports.
    pub exports: Vec<Export>,
}

/// Library packages in priority order (highest first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Library {
    /// The packages.
    pub packages: Vec<Package>,
}

impl Library {
    /// Adds `dir` as a package when it holds a `library.txt`; otherwise adds
    /// the packages found in it as a Custom Scenery folder. Unreadable files
    /// are reported in the returned warnings.
    pub fn add_dir(&mut self, dir: &Path) -> Vec<String> {
        let mut warnings = Vec::new();
        if dir.join("library.txt").is_file() {
            self.add_package(dir, &mut warnings);
            return warnings;
        }
        let mut subs: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(rd) => rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("library.txt").is_file())
                .collect(),
            Err(e) => {
                warnings.push(format!("cannot read library folder {}: {e}", dir.display()));
                return warnings;
            }
        };
        subs.sort();
        let order = pack_order(dir);
        let rank = |p: &PathBuf| {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string());
            name.and_then(|n| order.iter().position(|o| *o == n))
                .unwrap_or(usize::MAX)
        };
        subs.sort_by_key(rank);
        for p in subs {
            self.add_package(&p, &mut warnings);
        }
        warnings
    }

    fn add_package(&mut self, dir: &Path, warnings: &mut Vec<String>) {
        let path = dir.join("library.txt");
        match std::fs::read(&path) {
            Ok(bytes) => self.packages.push(Package {
                root: dir.to_path_buf(),
                exports: parse_library(&String::from_utf8_lossy(&bytes)),
            }),
            Err(e) => warnings.push(format!("cannot read {}: {e}", path.display())),
        }
    }

    /// The files exporting `virtual_path`, with their weights, by the
    /// priority rules in the module docs.
    pub fn candidates(&self, virtual_path: &str) -> Vec<(PathBuf, f64)> {
        let want = normalize(virtual_path);
        let mut plain: Option<Vec<(PathBuf, f64)>> = None;
        let mut extend = Vec::new();
        let mut backup = Vec::new();
        for pkg in &self.packages {
            let mut mine = Vec::new();
            for e in pkg.exports.iter().filter(|e| e.virtual_path == want) {
                let item = (pkg.root.join(&e.real), e.ratio);
                match e.kind {
                    ExportKind::Export => mine.push(item),
                    ExportKind::Extend => extend.push(item),
                    ExportKind::Backup => backup.push(item),
                }
            }
            if plain.is_none() && !mine.is_empty() {
                plain = Some(mine);
            }
        }
        let mut all = plain.unwrap_or_default();
        all.extend(extend);
        if all.is_empty() { backup } else { all }
    }
}

/// Package folder names in `scenery_packs.ini` order (enabled ones).
fn pack_order(dir: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(dir.join("scenery_packs.ini")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("SCENERY_PACK "))
        .map(|p| {
            let p = normalize(p.trim());
            let p = p.trim_end_matches('/');
            p.rsplit('/').next().unwrap_or(p).to_string()
        })
        .collect()
}

/// Finds the file for `asset` (as written in a DSF of the package
/// `scenery`): the package's own file first, else a library export that
/// exists on disk, picked with `seed`. The error names the asset.
pub fn resolve(
    asset: &str,
    scenery: &Path,
    library: &Library,
    seed: u64,
) -> Result<PathBuf, String> {
    let rel = normalize(asset);
    let local = scenery.join(&rel);
    if local.is_file() {
        return Ok(local);
    }
    let found: Vec<(PathBuf, f64)> = library
        .candidates(&rel)
        .into_iter()
        .filter(|(p, _)| p.is_file())
        .collect();
    match found.len() {
        0 => Err(format!(
            "{asset}: not a file of {} and not exported by any of {} library packages",
            scenery.display(),
            library.packages.len()
        )),
        1 => Ok(found[0].0.clone()),
        _ => {
            let total: f64 = found.iter().map(|f| f.1).sum();
            let mut rng = crate::place::rng(seed);
            let mut x = rng.random::<f64>() * total;
            for (p, w) in &found {
                if x < *w {
                    return Ok(p.clone());
                }
                x -= w;
            }
            Ok(found[found.len() - 1].0.clone())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_export_lines() {
        let e = parse_library(
            "A\n800\nLIBRARY\n\nEXPORT lib/a.agp real/a b.agp\nEXPORT_RATIO 2.5 lib/a.agp x\\y.agp\n\
             EXPORT_EXTEND lib/a.agp e.agp\nEXPORT_BACKUP lib/b.agp b.agp\nREGION_DEFINE r\nEXPORT broken\n",
        );
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].real, "real/a b.agp");
        assert_eq!(e[0].line, 5);
        assert_eq!((e[1].ratio, e[1].real.as_str()), (2.5, "x/y.agp"));
        assert_eq!(e[2].kind, ExportKind::Extend);
        assert_eq!(e[3].kind, ExportKind::Backup);
    }

    #[test]
    fn priority_extend_and_backup() {
        let pkg = |root: &str, text: &str| Package {
            root: PathBuf::from(root),
            exports: parse_library(text),
        };
        let lib = Library {
            packages: vec![
                pkg("/hi", "EXPORT v.agp hi.agp\nEXPORT_BACKUP w.agp hiw.agp\n"),
                pkg(
                    "/lo",
                    "EXPORT v.agp lo.agp\nEXPORT_EXTEND v.agp ext.agp\nEXPORT w.agp low.agp\n",
                ),
            ],
        };
        let c: Vec<PathBuf> = lib.candidates("v.agp").into_iter().map(|c| c.0).collect();
        assert_eq!(
            c,
            vec![PathBuf::from("/hi/hi.agp"), PathBuf::from("/lo/ext.agp")]
        );
        let c: Vec<PathBuf> = lib.candidates("w.agp").into_iter().map(|c| c.0).collect();
        assert_eq!(
            c,
            vec![PathBuf::from("/lo/low.agp")],
            "backup only when nothing else"
        );
        assert!(lib.candidates("none.agp").is_empty());
    }
}
