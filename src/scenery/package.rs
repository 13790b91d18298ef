//! What `agkit check` says of a scenery package's DSFs beyond their bytes
//! (issue 48 item 2): every definition they name — objects, facades,
//! forests, draped polygons, lines, strings, autogen assets, networks,
//! terrain — resolved as placing the tile resolves it
//! ([`Scenery::resolve_in`]: a file of the DSF's package first, then its
//! own `library.txt`, the libraries given or the installation), and the
//! art each found one names, looked for as `place` looks for it.
//!
//! | Code | Severity | Finding |
//! |---|---|---|
//! | PKG001 | warning | a definition found neither in the package nor in the libraries (each path once per package, at the first DSF naming it, with its table and index) |
//! | PKG002 | note | definitions that read as library paths, not looked up: no library was given (one note per DSF) |
//!
//! A definition found outside the files the run checks (in a library) is
//! followed into: when it cannot be read, or names art that cannot be
//! found or read, that is `AG0085`…`AG0087` ([`crate::place::art`]'s
//! codes), at the DSF, the definition named. A definition that is a file
//! the run checks is not followed: its own check reports what it names.

use super::art::{ArtKind, ArtProblem, Libraries};
use super::context::Scenery;
use super::resolve::Tile;
use crate::diag::{Diagnostic, Location, Severity};
use crate::draped::DrapedKind;
use crate::dsf::Dsf;
use crate::scenery::art::{ArtState, codes as art_codes};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

crate::diag::rules! {
    MISSING = "PKG001", Warning, "a definition a package's DSF names is found neither in the package nor in the libraries given (named once per package, at the first DSF naming it, with its table and index)";
    NOT_LOOKED_UP = "PKG002", Note, "definitions of a DSF that read as library paths were not looked up: no library was given (--library, --xplane)";
}

/// One definition of a DSF: its table (`OBJECT_DEF`, `POLYGON_DEF`,
/// `NETWORK_DEF`, `TERRAIN_DEF`, as DSF2Text names them), its index there
/// and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// `OBJECT_DEF`, `POLYGON_DEF`, `NETWORK_DEF` or `TERRAIN_DEF`.
    pub table: &'static str,
    /// Its index in that table.
    pub index: usize,
    /// The path, as the DSF names it.
    pub path: String,
}

impl std::fmt::Display for Definition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{} {}` {}", self.table, self.index, self.path)
    }
}

/// Every definition of `dsf` in table order, the water terrain aside (it
/// is the simulator's own, never a file).
pub fn definitions(dsf: &Dsf) -> Vec<Definition> {
    let tables: [(&'static str, &[String]); 4] = [
        ("TERRAIN_DEF", &dsf.terrain_defs),
        ("OBJECT_DEF", &dsf.object_defs),
        ("POLYGON_DEF", &dsf.polygon_defs),
        ("NETWORK_DEF", &dsf.network_defs),
    ];
    tables
        .into_iter()
        .flat_map(|(table, defs)| {
            defs.iter()
                .enumerate()
                .filter(|(_, p)| p.as_str() != "terrain_Water")
                .map(move |(index, path)| Definition {
                    table,
                    index,
                    path: path.clone(),
                })
        })
        .collect()
}

/// True when `dsf` sits where a package's tiles do:
/// `<package>/Earth nav data/<folder>/<tile>.dsf`.
pub fn in_package_layout(dsf: &Path) -> bool {
    dsf.parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .is_some_and(|n| n.eq_ignore_ascii_case("Earth nav data"))
}

/// What one DSF's definitions came to.
struct Followed {
    dsf: PathBuf,
    root: PathBuf,
    /// Definitions resolving nowhere, with why.
    missing: Vec<(Definition, String)>,
    /// Library-style definitions not looked up (no library at all).
    unchecked: Vec<Definition>,
    /// Art problems of definitions found outside the checked files.
    problems: Vec<Diagnostic>,
}

/// The art a definition's file is, for following it: an autogen asset
/// (`None`), art of a kind the store reads, or a draped format.
enum DefKind {
    Autogen,
    Art(ArtKind),
    Draped(DrapedKind),
}

fn def_kind(path: &str) -> Option<DefKind> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "agp" | "agb" | "ags" => Some(DefKind::Autogen),
        e => ArtKind::from_extension(e)
            .filter(|k| *k != ArtKind::Texture)
            .map(DefKind::Art)
            .or_else(|| DrapedKind::from_extension(e).map(DefKind::Draped)),
    }
}

/// True when `rel` reads as a library path from the package at `root`: a
/// folder, then a file, the first folder not in the package.
fn library_style(root: &Path, rel: &str, art: &super::art::ArtStore) -> bool {
    let rel = super::library::normalize(rel);
    let mut parts = rel.split('/').filter(|p| !p.is_empty() && *p != ".");
    match (parts.next(), parts.next()) {
        (Some(first), Some(_)) if first != ".." => art
            .folders()
            .child_ci(root, first)
            .is_none_or(|p| !p.is_dir()),
        _ => false,
    }
}

impl Scenery {
    /// The diagnostics of the definitions the DSFs `dsfs` name (see the
    /// module docs), by DSF; `checked` holds the files the run checks
    /// itself (canonical paths), whose art is not followed here. A DSF
    /// that cannot be read, or has no tile bounds, gets nothing here: its
    /// own check says why. Each missing path is named once per package,
    /// at the first DSF (in path order) naming it.
    pub fn check_definitions(
        &self,
        dsfs: &[PathBuf],
        checked: &HashSet<PathBuf>,
    ) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
        use rayon::prelude::*;
        let mut sorted: Vec<&PathBuf> = dsfs.iter().collect();
        sorted.sort();
        sorted.dedup();
        let followed: Vec<Followed> = sorted
            .par_iter()
            .filter_map(|d| self.follow(d, checked))
            .collect();
        let mut out: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
        // Each missing path once per package: at its first DSF, with how
        // many others name it.
        let mut first: BTreeMap<(PathBuf, String), (usize, usize, String)> = BTreeMap::new();
        for (k, f) in followed.iter().enumerate() {
            for (def, why) in &f.missing {
                let key = (f.root.clone(), super::library::normalize(&def.path));
                first
                    .entry(key)
                    .and_modify(|e| e.1 += 1)
                    .or_insert((k, 0, why.clone()));
            }
        }
        let mut seen_problems: HashSet<(PathBuf, String)> = HashSet::new();
        for (k, f) in followed.iter().enumerate() {
            let diags = out.entry(f.dsf.clone()).or_default();
            for (def, _) in &f.missing {
                let key = (f.root.clone(), super::library::normalize(&def.path));
                let Some((at, others, why)) = first.get(&key) else {
                    continue;
                };
                if *at != k {
                    continue;
                }
                let also = match others {
                    0 => String::new(),
                    n => format!(
                        " (named by {} of the package too)",
                        crate::ground::words::count(*n, "other DSF")
                    ),
                };
                diags.push(Diagnostic::new(
                    Severity::Warning,
                    codes::MISSING,
                    format!("{def} is not found: {why}{also}"),
                    Location::File,
                ));
                // A path named by several definitions of one DSF is named
                // once too.
                first.remove(&key);
            }
            if !f.unchecked.is_empty() {
                let n = f.unchecked.len();
                let shown: Vec<&str> = f
                    .unchecked
                    .iter()
                    .take(3)
                    .map(|d| d.path.as_str())
                    .collect();
                let what = if n == 1 {
                    "1 definition is a library path".to_string()
                } else {
                    format!(
                        "{} definitions are library paths",
                        crate::ground::words::thousands(n)
                    )
                };
                let more = match n - shown.len() {
                    0 => String::new(),
                    m => format!(", … {} more", crate::ground::words::thousands(m)),
                };
                diags.push(Diagnostic::new(
                    Severity::Note,
                    codes::NOT_LOOKED_UP,
                    format!(
                        "{what} not in {} and not looked up ({}{more}): give --library or \
                         --xplane to look them up",
                        f.root.display(),
                        shown.join(", "),
                    ),
                    Location::File,
                ));
            }
            for p in &f.problems {
                if seen_problems.insert((f.root.clone(), p.message.clone())) {
                    diags.push(p.clone());
                }
            }
        }
        out.retain(|_, v| !v.is_empty());
        out
    }

    /// Resolves and follows one DSF's definitions.
    fn follow(&self, dsf_path: &Path, checked: &HashSet<PathBuf>) -> Option<Followed> {
        let limits = crate::limits::Limits::default();
        let bytes =
            crate::fsutil::read_input(dsf_path, "a DSF tile", limits.max_input_bytes).ok()?;
        let dsf = crate::dsf::read(&bytes).ok()?;
        drop(bytes);
        let prop = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
        let tile = Tile {
            west: prop("sim/west")?,
            south: prop("sim/south")?,
        };
        let defs = definitions(&dsf);
        drop(dsf);
        let (_, root) = self.package_of(dsf_path);
        let index = self.index_for(&root);
        let has_libraries = self.install().is_some() || !index.packages.is_empty();
        let libs = has_libraries.then(|| Libraries {
            index: &index,
            tile: Some(tile),
            conditions: self.conditions(),
        });
        let resolved = self.resolve_all(dsf_path, tile, defs.iter().map(|d| d.path.as_str()));
        let mut f = Followed {
            dsf: dsf_path.to_path_buf(),
            root: root.clone(),
            missing: Vec::new(),
            unchecked: Vec::new(),
            problems: Vec::new(),
        };
        for def in defs {
            let Some(r) = resolved.get(&def.path) else {
                continue;
            };
            let Some(c) = r.pick(0) else {
                if !has_libraries && library_style(&root, &def.path, self.art()) {
                    // A path in two tables (or twice in one) is one.
                    if !f.unchecked.iter().any(|u| u.path == def.path) {
                        f.unchecked.push(def);
                    }
                } else {
                    let why = self.why_unresolved(dsf_path, r);
                    f.missing.push((def, why));
                }
                continue;
            };
            let file = c.file.clone();
            let inside_run = file
                .canonicalize()
                .is_ok_and(|canon| checked.contains(&canon));
            if !inside_run {
                f.problems
                    .extend(self.definition_problems(&def, &file, libs.as_ref()));
            }
        }
        Some(f)
    }

    /// What the definition `def`, found as `file` outside the files the
    /// run checks, cannot read or names that cannot be found or read.
    fn definition_problems(
        &self,
        def: &Definition,
        file: &Path,
        libs: Option<&Libraries>,
    ) -> Vec<Diagnostic> {
        let store = self.art();
        let unreadable = |why: String| {
            Diagnostic::new(
                Severity::Warning,
                art_codes::ART_INVALID,
                format!(
                    "{def} (found as {}) is {}: {why}",
                    file.display(),
                    ArtState::Invalid.describe()
                ),
                Location::File,
            )
        };
        let named = |p: ArtProblem| {
            let d = p.diagnostic(Location::File, None);
            Diagnostic {
                message: format!("{def} (found as {}) {}", file.display(), d.message),
                ..d
            }
        };
        match def_kind(&def.path) {
            None => Vec::new(),
            Some(DefKind::Autogen) => {
                let a = self.asset(file);
                match &a.asset {
                    Ok(asset) => store
                        .asset_problems(file, asset, libs)
                        .into_iter()
                        .map(|(_, p)| named(p))
                        .collect(),
                    Err(e) => {
                        let why = if a.diagnostics.is_empty() {
                            e.to_string()
                        } else {
                            crate::diag::Refused::new(
                                &file.display().to_string(),
                                Some(&a.text),
                                a.diagnostics.clone(),
                            )
                            .to_string()
                        };
                        vec![unreadable(why)]
                    }
                }
            }
            Some(DefKind::Art(kind)) => match &*store.read(file, kind) {
                super::art::Read::Failed(why) => vec![unreadable(why.clone())],
                read => read
                    .names()
                    .into_iter()
                    .flat_map(|(p, k)| store.problems(file, &p, k, libs))
                    .map(named)
                    .collect(),
            },
            Some(DefKind::Draped(kind)) => {
                match crate::draped::read(file, kind, &crate::limits::Limits::default()) {
                    Err(why) => vec![unreadable(why)],
                    Ok(d) => d
                        .names()
                        .into_iter()
                        .filter(|(p, _)| !p.trim().is_empty())
                        .flat_map(|(p, k)| store.problems(file, &p, k, libs))
                        .map(named)
                        .collect(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_keep_their_table_and_index() {
        let dsf = Dsf {
            terrain_defs: vec!["terrain_Water".into(), "t/a.ter".into()],
            object_defs: vec!["a.obj".into(), "b.agp".into()],
            polygon_defs: vec!["c.pol".into()],
            network_defs: vec!["lib/g10/roads.net".into()],
            ..Dsf::default()
        };
        let d: Vec<String> = definitions(&dsf).iter().map(|d| d.to_string()).collect();
        assert_eq!(
            d,
            [
                "`TERRAIN_DEF 1` t/a.ter",
                "`OBJECT_DEF 0` a.obj",
                "`OBJECT_DEF 1` b.agp",
                "`POLYGON_DEF 0` c.pol",
                "`NETWORK_DEF 0` lib/g10/roads.net",
            ]
        );
        assert!(in_package_layout(Path::new(
            "p/Earth Nav Data/+40+010/+47+013.dsf"
        )));
        assert!(!in_package_layout(Path::new("gen/dsf/+47+013.dsf")));
    }
}
