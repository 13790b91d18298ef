//! How `place --dsf` finds the files behind a DSF's asset paths, and how it
//! reports the ones it cannot find.
//!
//! With `--xplane DIR` the whole installation resolves the paths, in
//! `scenery_packs.ini` order, exactly as `agkit scenery` does. Otherwise the
//! DSF's own package (`--scenery`, default: the folder above `Earth nav
//! data`) comes first, then each `--library` folder in the order given: a
//! folder holding a `library.txt` is one package; any other folder is read
//! as a Custom Scenery folder whose packages with a `library.txt` follow in
//! their priority order.
//!
//! Paths that resolve nowhere are counted per asset, not printed per use:
//! the report lists each asset once with its count and the reason.

pub use agkit::out::{count as plural, thousands};
use agkit::scenery::install::{Installation, folder_name};
use agkit::scenery::resolve::{self, Conditions, LibraryIndex, Resolution, Tile};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The resolution context of one `place --dsf` run.
pub struct Resolver {
    /// The libraries every tile sees.
    base: Arc<LibraryIndex>,
    /// The installation, with `--xplane`.
    inst: Option<Installation>,
    /// `--scenery`: the package every DSF belongs to.
    scenery: Option<PathBuf>,
    /// Dataref values and season.
    cond: Conditions,
    /// `base` with a DSF package's own `library.txt` on top, per package.
    own: Mutex<HashMap<PathBuf, Arc<LibraryIndex>>>,
}

impl Resolver {
    /// Opens the installation or reads the `--library` folders. The
    /// strings are warnings to print once; `Err` is a usage error.
    pub fn new(
        xplane: Option<&Path>,
        library: &[PathBuf],
        scenery: Option<&Path>,
        cond: Conditions,
    ) -> Result<(Resolver, Vec<String>), String> {
        let mut warnings = Vec::new();
        let (base, inst) = match xplane {
            Some(dir) => {
                let inst = Installation::open(dir).map_err(|e| format!("--xplane {e}"))?;
                let (index, errors) = LibraryIndex::from_installation(&inst);
                for e in errors {
                    warnings.push(format!("{}: {}", e.package, e.error));
                }
                (index, Some(inst))
            }
            None => (libraries(library, &mut warnings)?, None),
        };
        warnings.extend(base.season_warning(&cond));
        Ok((
            Resolver {
                base: Arc::new(base),
                inst,
                scenery: scenery.map(Path::to_path_buf),
                cond,
                own: Mutex::new(HashMap::new()),
            },
            warnings,
        ))
    }

    /// The package a DSF belongs to: its name and folder.
    pub fn package_of(&self, dsf: &Path) -> (String, PathBuf) {
        if let Some(s) = &self.scenery {
            return (folder_name(s), s.clone());
        }
        if let Some(p) = self.inst.as_ref().and_then(|i| i.package_of(dsf)) {
            return (p.name.clone(), p.path.clone());
        }
        let p = super::place::default_package(dsf);
        (folder_name(&p), p)
    }

    /// The index a DSF of the package at `root` resolves through.
    fn index_for(&self, root: &Path) -> Arc<LibraryIndex> {
        let has_own = self.inst.is_none()
            && root.join("library.txt").is_file()
            && !self.base.packages.iter().any(|p| p.root == root);
        if !has_own {
            return Arc::clone(&self.base);
        }
        let mut cache = self.own.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry(root.to_path_buf()).or_insert_with(|| {
            let mut index = LibraryIndex::default();
            if let Ok(p) = LibraryIndex::load_package(root, 0) {
                index.push(p);
            }
            for p in &self.base.packages {
                index.push(p.clone());
            }
            Arc::new(index)
        }))
    }

    /// Resolves every distinct asset path of one DSF at its tile.
    pub fn resolve_all<'a>(
        &self,
        dsf: &Path,
        tile: Tile,
        assets: impl Iterator<Item = &'a str>,
    ) -> HashMap<String, Resolution> {
        let (name, root) = self.package_of(dsf);
        let index = self.index_for(&root);
        let mut out = HashMap::new();
        for a in assets {
            if !out.contains_key(a) {
                let r = resolve::resolve(&index, Some((&name, &root)), a, tile, &self.cond);
                out.insert(a.to_string(), r);
            }
        }
        out
    }

    /// Why `r` did not resolve, naming where agkit looked.
    pub fn why(&self, dsf: &Path, r: &Resolution) -> String {
        let (_, root) = self.package_of(dsf);
        let libs = self.base.packages.iter().filter(|p| p.enabled).count();
        let mut why = format!("not a file of {}", root.display());
        if r.candidates.is_empty() && r.shadowed.is_empty() && libs == 0 {
            why.push_str(" and no library package was given (--library DIR or --xplane DIR)");
        } else {
            why.push_str(&format!(
                " and {} (searched {libs} library package{})",
                r.why_unresolved(),
                if libs == 1 { "" } else { "s" }
            ));
        }
        why
    }
}

/// The `--library` folders as one index, in the order given.
fn libraries(dirs: &[PathBuf], warnings: &mut Vec<String>) -> Result<LibraryIndex, String> {
    let mut index = LibraryIndex::default();
    for dir in dirs {
        if let Err(e) = std::fs::metadata(dir) {
            return Err(format!("--library {}: {e}", dir.display()));
        }
        if dir.join("library.txt").is_file() {
            let p = LibraryIndex::load_package(dir, 0)
                .map_err(|e| format!("--library {}: {e}", dir.display()))?;
            index.push(p);
            continue;
        }
        let inst = Installation::open(dir).ok();
        let found = inst.as_ref().map(LibraryIndex::from_installation);
        match found {
            Some((sub, errors)) if !sub.packages.is_empty() => {
                for e in errors {
                    warnings.push(format!("{}: {}", e.package, e.error));
                }
                for p in sub.packages.into_iter().filter(|p| p.enabled) {
                    index.push(p);
                }
            }
            _ => {
                return Err(format!(
                    "--library {}: no library.txt in it, nor in any package folder inside it \
                     (a library package has library.txt at its root; give that folder, or the \
                     Custom Scenery folder holding it)",
                    dir.display()
                ));
            }
        }
    }
    Ok(index)
}

/// Assets that resolved nowhere, counted: asset → (uses, tiles, reason).
#[derive(Debug, Default)]
pub struct Unresolved {
    assets: BTreeMap<String, (usize, usize, String)>,
}

impl Unresolved {
    /// Counts `uses` uses of `asset` in one tile.
    pub fn add(&mut self, asset: &str, uses: usize, why: String) {
        let e = self.assets.entry(asset.to_string()).or_insert((0, 0, why));
        e.0 += uses;
        e.1 += 1;
    }

    /// Adds another tile's counts.
    pub fn merge(&mut self, other: Unresolved) {
        for (a, (uses, tiles, why)) in other.assets {
            let e = self.assets.entry(a).or_insert((0, 0, why));
            e.0 += uses;
            e.1 += tiles;
        }
    }

    /// True when every asset resolved.
    pub fn is_empty(&self) -> bool {
        self.assets.is_empty()
    }

    /// Uses skipped.
    pub fn uses(&self) -> usize {
        self.assets.values().map(|v| v.0).sum()
    }

    /// The report: one line per asset (most used first, at most 20), each
    /// with its use count and reason; `head` is the first line.
    pub fn report(&self, head: &str, per_tile: bool) -> String {
        let mut v: Vec<(&String, &(usize, usize, String))> = self.assets.iter().collect();
        v.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        let mut out = format!("{head}\n");
        const SHOWN: usize = 20;
        for (asset, (uses, tiles, why)) in v.iter().take(SHOWN) {
            let count = plural(*uses, "use");
            if per_tile {
                out.push_str(&format!(
                    "  {asset} ({count} in {}): {why}\n",
                    plural(*tiles, "tile")
                ));
            } else {
                out.push_str(&format!("  {asset} ({count}): {why}\n"));
            }
        }
        if v.len() > SHOWN {
            out.push_str(&format!("  … and {} more assets\n", v.len() - SHOWN));
        }
        out
    }
}

/// Repeated warning lines counted instead of printed one per line.
#[derive(Debug, Default)]
pub struct Repeats {
    counts: BTreeMap<String, usize>,
}

impl Repeats {
    /// Counts one occurrence.
    pub fn add(&mut self, line: String) {
        *self.counts.entry(line).or_insert(0) += 1;
    }

    /// Total occurrences.
    pub fn total(&self) -> usize {
        self.counts.values().sum()
    }

    /// The distinct lines (most frequent first, at most 20) with counts.
    pub fn report(&self) -> String {
        let mut v: Vec<(&String, &usize)> = self.counts.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut out = String::new();
        for (line, n) in v.iter().take(20) {
            if **n == 1 {
                out.push_str(&format!("warning: {line}\n"));
            } else {
                out.push_str(&format!("warning: {line} ({} times)\n", thousands(**n)));
            }
        }
        if v.len() > 20 {
            out.push_str(&format!(
                "warning: … and {} more distinct warnings\n",
                v.len() - 20
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_reports() {
        assert_eq!(plural(1, "use"), "1 use");
        assert_eq!(plural(114_000, "use"), "114,000 uses");
        let mut u = Unresolved::default();
        u.add("a.agp", 3, "why a".into());
        let mut v = Unresolved::default();
        v.add("a.agp", 2, "why a".into());
        v.add("b.agb", 10, "why b".into());
        u.merge(v);
        assert_eq!(u.uses(), 15);
        let r = u.report("head", true);
        assert_eq!(
            r,
            "head\n  b.agb (10 uses in 1 tile): why b\n  a.agp (5 uses in 2 tiles): why a\n"
        );
        let mut w = Repeats::default();
        for _ in 0..3 {
            w.add("x".into());
        }
        w.add("y".into());
        assert_eq!(w.total(), 4);
        assert_eq!(w.report(), "warning: x (3 times)\nwarning: y\n");
    }
}
