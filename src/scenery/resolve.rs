//! The library index of an installation and the resolver: for a path a DSF
//! names, at one tile, the files the simulator picks from, the package of
//! each, and why they won.
//!
//! The rules, as Laminar describes them (sources in `docs/scenery.md`):
//!
//! - a path that is a file of the DSF's own package is that file;
//! - otherwise it is a virtual path. Within one package the export lines
//!   are read in order: `EXPORT` (and `EXPORT_RATIO`) adds an alternative;
//!   `EXPORT_EXCLUDE` drops the package's earlier alternatives and makes
//!   its later plain exports of the path ineffective (which is why Laminar
//!   tells authors to put it first); `EXPORT_EXTEND` adds an alternative;
//! - across packages, a package with an `EXPORT`/`EXPORT_EXCLUDE`/
//!   `EXPORT_RATIO` of the path replaces what every lower-priority package
//!   exports; `EXPORT_EXTEND` adds to the lower packages' exports instead;
//! - `EXPORT_BACKUP` counts only when no package exports the path at all;
//!   then the first backup line of the highest-priority package with one
//!   is the file (backups are not alternatives: WorldEditor's library
//!   manager keeps only the first);
//! - an export under a `REGION` counts only on the tiles of that region,
//!   and only while its `REGION_DREF` conditions hold; a seasonal export
//!   only in its seasons. Conditions agkit cannot evaluate (a dataref with
//!   no `--dref` value, a season not given, a region bitmap) are assumed to
//!   hold and reported as conditions;
//! - disabled packages export nothing.
//!
//! When several candidates remain the simulator picks one at random,
//! weighted by `EXPORT_RATIO` (plain exports weigh 1); [`Resolution::pick`]
//! does the same from a seed.

use super::install::{InstallError, Installation, read_text};
use super::library::{self, Export, ExportKind, LibraryFile};
use rand::RngExt;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use crate::dsf::Tile;

/// What agkit assumes about the simulator's state when a library has
/// conditions: dataref values (`--dref NAME=VALUE`) and the season.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conditions {
    /// Dataref values.
    pub drefs: BTreeMap<String, f64>,
    /// The season for `EXPORT_*_SEASON` lines (as the library writes it,
    /// e.g. `sum`).
    pub season: Option<String>,
}

impl Conditions {
    /// Reads `--dref NAME=VALUE` (the value a finite number).
    pub fn set_dref(&mut self, arg: &str) -> Result<(), String> {
        let (name, value) = arg
            .split_once('=')
            .ok_or_else(|| format!("--dref {arg}: expected NAME=VALUE"))?;
        let v = value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("--dref {arg}: the value must be a finite number"))?;
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("--dref {arg}: the dataref name must be one word"));
        }
        self.drefs.insert(name.to_string(), v);
        Ok(())
    }

    /// Conditions from `--dref` arguments and a season.
    pub fn from_args(drefs: &[String], season: Option<&str>) -> Result<Conditions, String> {
        let mut c = Conditions {
            season: season.map(str::to_string),
            ..Conditions::default()
        };
        for d in drefs {
            c.set_dref(d)?;
        }
        Ok(c)
    }
}

/// One package's library.
#[derive(Debug, Clone, PartialEq)]
pub struct LibPackage {
    /// The package name.
    pub name: String,
    /// The package folder.
    pub root: PathBuf,
    /// Rank: 0 is the highest priority.
    pub priority: usize,
    /// False for a disabled package (it exports nothing).
    pub enabled: bool,
    /// The parsed `library.txt`.
    pub library: LibraryFile,
}

/// Every package's library, highest priority first, with an index of the
/// exports by virtual path.
#[derive(Debug, Clone, Default)]
pub struct LibraryIndex {
    /// The packages with a `library.txt`, highest priority first.
    pub packages: Vec<LibPackage>,
    /// Virtual path → (package index, export index) in line order.
    by_path: HashMap<String, Vec<(u32, u32)>>,
}

/// A package's `library.txt` that could not be read.
#[derive(Debug)]
pub struct LoadError {
    /// The package.
    pub package: String,
    /// What went wrong.
    pub error: InstallError,
}

impl LibraryIndex {
    /// The libraries of every package of `inst` that has one (disabled
    /// packages included, marked disabled). Unreadable files are returned
    /// beside the index.
    pub fn from_installation(inst: &Installation) -> (LibraryIndex, Vec<LoadError>) {
        let mut index = LibraryIndex::default();
        let mut errors = Vec::new();
        for p in inst.packages.iter().filter(|p| p.exists) {
            let Some(file) = p.library_file() else {
                continue;
            };
            match read_text(&file, "library.txt", library::MAX_LIBRARY_BYTES) {
                Ok(text) => index.push(LibPackage {
                    name: p.name.clone(),
                    root: p.path.clone(),
                    priority: p.priority,
                    enabled: p.enabled,
                    library: library::parse(&text),
                }),
                Err(error) => errors.push(LoadError {
                    package: p.name.clone(),
                    error,
                }),
            }
        }
        (index, errors)
    }

    /// Adds a package below the ones already added.
    pub fn push(&mut self, mut pkg: LibPackage) {
        let k = self.packages.len() as u32;
        if let Some(last) = self.packages.last() {
            pkg.priority = pkg.priority.max(last.priority + 1);
        }
        if !pkg.library.header_rejected() {
            for (i, e) in pkg.library.exports.iter().enumerate() {
                self.by_path
                    .entry(e.virtual_path.clone())
                    .or_default()
                    .push((k, i as u32));
            }
        }
        self.packages.push(pkg);
    }

    /// Reads `dir/library.txt` as one package called after the folder.
    pub fn load_package(dir: &Path, priority: usize) -> Result<LibPackage, InstallError> {
        let text = read_text(
            &dir.join("library.txt"),
            "library.txt",
            library::MAX_LIBRARY_BYTES,
        )?;
        Ok(LibPackage {
            name: super::install::folder_name(dir),
            root: dir.to_path_buf(),
            priority,
            enabled: true,
            library: library::parse(&text),
        })
    }

    /// Every export of `virtual_path`: (package index, package, export),
    /// highest priority package first, lines in order.
    pub fn exports_of<'a>(
        &'a self,
        virtual_path: &str,
    ) -> impl Iterator<Item = (usize, &'a LibPackage, &'a Export)> + 'a {
        self.by_path
            .get(virtual_path)
            .into_iter()
            .flatten()
            .map(|&(p, e)| {
                let pkg = &self.packages[p as usize];
                (p as usize, pkg, &pkg.library.exports[e as usize])
            })
    }

    /// The virtual paths exported, in no order.
    pub fn virtual_paths(&self) -> impl Iterator<Item = &str> {
        self.by_path.keys().map(String::as_str)
    }

    /// A virtual path exported with other letter case than `virtual_path`
    /// (X-Plane compares virtual paths exactly), for hints.
    pub fn case_variant(&self, virtual_path: &str) -> Option<&str> {
        self.virtual_paths()
            .filter(|v| v.eq_ignore_ascii_case(virtual_path) && *v != virtual_path)
            .min()
    }

    /// A warning when `cond` names a season no enabled library's
    /// `EXPORT_*_SEASON` line names (a `--season summer` for `sum` would
    /// silently drop every seasonal export), listing the ones named.
    pub fn season_warning(&self, cond: &Conditions) -> Option<String> {
        let season = cond.season.as_deref()?;
        let named: std::collections::BTreeSet<String> = self
            .packages
            .iter()
            .filter(|p| p.enabled)
            .flat_map(|p| &p.library.exports)
            .flat_map(|e| e.seasons.iter().flatten())
            .map(|s| s.to_ascii_lowercase())
            .collect();
        if named.is_empty() || named.contains(&season.to_ascii_lowercase()) {
            return None;
        }
        let named: Vec<String> = named.into_iter().collect();
        Some(format!(
            "--season {season}: no library names that season (they name {}), so every \
             seasonal export is left out",
            named.join(", ")
        ))
    }

    /// Resolves `path` as a virtual path at `tile`.
    pub fn resolve(&self, path: &str, tile: Tile, cond: &Conditions) -> Resolution {
        resolve(self, None, path, tile, cond)
    }
}

/// One file the simulator may use for a path.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Candidate {
    /// The package it belongs to.
    pub package: String,
    /// That package's rank.
    pub priority: usize,
    /// The file.
    pub file: PathBuf,
    /// The file as the export (or the DSF) names it, relative to the
    /// package.
    pub relative: String,
    /// The export line (`None` for a file of the DSF's own package).
    pub line: Option<usize>,
    /// The export directive (`None` for a file of the DSF's own package).
    pub kind: Option<ExportKind>,
    /// Weight of the random pick.
    pub weight: f64,
    /// True when the file exists (with the letter case given, or another).
    pub exists: bool,
    /// Conditions assumed to hold for this candidate to count.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
}

impl Candidate {
    /// `package:line` (or `package` for a local file) for messages.
    pub fn place(&self) -> String {
        match self.line {
            Some(l) => format!("{}/library.txt:{l}", self.package),
            None => self.package.clone(),
        }
    }
}

/// A candidate that lost, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Shadowed {
    /// The export that does not count.
    pub candidate: Candidate,
    /// Why.
    pub why: String,
}

/// Where the winning candidates come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A file of the DSF's own package.
    Local,
    /// Library exports.
    Library,
    /// `EXPORT_BACKUP` lines (nothing else exports the path).
    Backup,
    /// Nothing: the path resolves nowhere.
    Nothing,
}

/// What a path resolves to at one tile.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Resolution {
    /// The path as the DSF names it.
    pub path: String,
    /// The tile it was resolved at.
    pub tile: Tile,
    /// Where the candidates come from.
    pub source: Source,
    /// The files the simulator picks from (some may be missing on disk).
    pub candidates: Vec<Candidate>,
    /// Why these won, in words.
    pub rule: String,
    /// Exports that do not count here, each with its reason.
    pub shadowed: Vec<Shadowed>,
    /// When nothing exports the path: the same path exported with other
    /// letter case (X-Plane compares virtual paths exactly).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case_variant: Option<String>,
}

impl Resolution {
    /// The candidates whose file exists.
    pub fn usable(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.exists)
    }

    /// True when at least one candidate's file exists.
    pub fn is_resolved(&self) -> bool {
        self.usable().next().is_some()
    }

    /// True when the winners depend on conditions agkit assumed.
    pub fn is_conditional(&self) -> bool {
        self.candidates.iter().any(|c| !c.conditions.is_empty())
    }

    /// One usable candidate, picked at random by weight from `seed` (the
    /// simulator's choice is random too).
    pub fn pick(&self, seed: u64) -> Option<&Candidate> {
        let usable: Vec<&Candidate> = self.usable().collect();
        match usable.len() {
            0 => None,
            1 => Some(usable[0]),
            _ => {
                let total: f64 = usable.iter().map(|c| c.weight).sum();
                let mut rng = crate::ground::rng::rng(seed);
                let mut x = rng.random::<f64>() * total;
                for c in &usable {
                    if x < c.weight {
                        return Some(c);
                    }
                    x -= c.weight;
                }
                usable.last().copied()
            }
        }
    }

    /// Why nothing usable was found, in one sentence.
    pub fn why_unresolved(&self) -> String {
        if self.is_resolved() {
            return String::new();
        }
        if !self.candidates.is_empty() {
            let (absolute, missing): (Vec<&Candidate>, Vec<&Candidate>) = self
                .candidates
                .iter()
                .partition(|c| library::is_absolute(&c.relative));
            let list = |v: &[&Candidate], own: bool| {
                v.iter()
                    .map(|c| match own {
                        true => format!("{}/{} ({})", c.package, c.relative, c.place()),
                        false => format!("{} ({})", c.relative, c.place()),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut why = Vec::new();
            if !missing.is_empty() {
                why.push(format!(
                    "exported, but the file is missing: {}",
                    list(&missing, true)
                ));
            }
            if !absolute.is_empty() {
                why.push(format!(
                    "exported as an absolute path, which is never followed (SCN014): {}",
                    list(&absolute, false)
                ));
            }
            return why.join("; ");
        }
        let mut why = String::from("no enabled package exports it");
        if let Some(s) = self.shadowed.first() {
            why.push_str(&format!(
                "; {} exports it but {}",
                s.candidate.place(),
                s.why
            ));
            if self.shadowed.len() > 1 {
                why.push_str(&format!(" (and {} more)", self.shadowed.len() - 1));
            }
        }
        if let Some(v) = &self.case_variant {
            why.push_str(&format!(
                "; `{v}` is exported (X-Plane compares virtual paths with their case)"
            ));
        }
        why
    }

    /// [`Resolution::why_unresolved`] for a path named by a DSF of the
    /// package `own`, whose own files are searched first.
    pub fn why_unresolved_in(&self, own: &str) -> String {
        if self.candidates.is_empty() {
            format!("not a file of {own} and {}", self.why_unresolved())
        } else {
            self.why_unresolved()
        }
    }
}

/// Whether an export counts at a tile: `Ok(conditions assumed)` or
/// `Err(why not)`.
fn applies(
    pkg: &LibPackage,
    e: &Export,
    tile: Tile,
    cond: &Conditions,
) -> Result<Vec<String>, String> {
    let mut assumed = Vec::new();
    if let Some(seasons) = &e.seasons {
        match &cond.season {
            Some(s) if seasons.iter().any(|x| x.eq_ignore_ascii_case(s)) => {}
            Some(s) => {
                return Err(format!(
                    "it is for the seasons {} and the season is {s}",
                    seasons.join(",")
                ));
            }
            None => assumed.push(format!("season in {}", seasons.join(","))),
        }
    }
    let Some(r) = e.region.and_then(|k| pkg.library.regions.get(k)) else {
        return Ok(assumed);
    };
    match r.covers(tile.west, tile.south) {
        Some(true) => {}
        Some(false) => {
            return Err(format!(
                "its region `{}` (line {}) does not cover tile {tile}",
                r.name, r.line
            ));
        }
        None => assumed.push(format!(
            "tile {tile} is in the bitmap {} of region `{}`",
            r.bitmaps.join(", "),
            r.name
        )),
    }
    for d in &r.drefs {
        match cond.drefs.get(&d.dataref) {
            Some(&v) if d.op.holds(v, d.value) => {}
            Some(&v) => {
                return Err(format!(
                    "its region `{}` needs {d} and {} is {v}",
                    r.name, d.dataref
                ));
            }
            None => assumed.push(d.to_string()),
        }
    }
    Ok(assumed)
}

/// The file `rel` under `root`: exact, else with other letter case (X-Plane
/// finds files regardless of case on every platform). A file reached by
/// `../` is named by its own folder (`Custom Scenery/Lib/x.obj`, not
/// `Custom Scenery/Airport/../Lib/x.obj`) when that is the same file (a
/// package that is a symbolic link climbs from where the link points, as
/// the operating system reads the path).
pub fn find_file(root: &Path, rel: &str) -> Option<PathBuf> {
    find_file_with(root, rel, &super::install::child_ci)
}

/// [`find_file`], each folder's child in other letter case found by
/// `child` (`child_ci`, or an index of the folders listed once:
/// [`super::art::Folders`]), which must answer as
/// [`super::install::child_ci`] does.
pub fn find_file_with(
    root: &Path,
    rel: &str,
    child: &dyn Fn(&Path, &str) -> Option<PathBuf>,
) -> Option<PathBuf> {
    let exact = root.join(rel);
    let climbs = rel.split('/').any(|p| p == "..");
    if exact.is_file() {
        if climbs
            && let Some(clean) = walk_ci(root, rel, child)
            && clean.canonicalize().ok() == exact.canonicalize().ok()
        {
            return Some(clean);
        }
        return Some(exact);
    }
    walk_ci(root, rel, child)
}

/// `rel` under `root` component by component, each in any letter case
/// (`child`), `..` taking the last folder off (or climbing above a
/// relative root).
fn walk_ci(
    root: &Path,
    rel: &str,
    child: &dyn Fn(&Path, &str) -> Option<PathBuf>,
) -> Option<PathBuf> {
    let mut at = root.to_path_buf();
    for part in rel.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            match at.components().next_back() {
                Some(std::path::Component::Normal(_)) => {
                    at.pop();
                }
                _ => at.push(".."),
            }
            continue;
        }
        at = child(&at, part)?;
    }
    at.is_file().then_some(at)
}

/// Resolves `path` (as a DSF names it) at `tile`: first as a file of the
/// DSF's package `own` (name, folder), then through the library.
pub fn resolve(
    index: &LibraryIndex,
    own: Option<(&str, &Path)>,
    path: &str,
    tile: Tile,
    cond: &Conditions,
) -> Resolution {
    let vpath = library::normalize(path);
    let mut res = Resolution {
        path: path.to_string(),
        tile,
        source: Source::Nothing,
        candidates: Vec::new(),
        rule: String::new(),
        shadowed: Vec::new(),
        case_variant: None,
    };
    let exports: Vec<(&LibPackage, &Export)> =
        index.exports_of(&vpath).map(|(_, p, e)| (p, e)).collect();
    let candidate = |pkg: &LibPackage, e: &Export, conditions: Vec<String>| {
        // An absolute or drive-letter path is never followed: it would read
        // a file outside the installation.
        let file = (!e.is_absolute())
            .then(|| find_file(&pkg.root, &e.real_path))
            .flatten();
        Candidate {
            package: pkg.name.clone(),
            priority: pkg.priority,
            exists: file.is_some(),
            file: file.unwrap_or_else(|| {
                if e.is_absolute() {
                    PathBuf::from(&e.real_path)
                } else {
                    pkg.root.join(&e.real_path)
                }
            }),
            relative: e.real_path.clone(),
            line: Some(e.line),
            kind: Some(e.kind),
            weight: e.weight,
            conditions,
        }
    };
    // A path climbing out of the package with `../` is followed as the
    // simulator follows it (`scenery check` warns: Laminar says to name the
    // library's virtual path instead); an absolute one is not.
    if let Some((name, root)) = own
        && !library::is_absolute(&vpath)
        && let Some(file) = find_file(root, &vpath)
    {
        res.source = Source::Local;
        res.rule = if library::leaves_root(&vpath) {
            format!(
                "a file outside the DSF's own package {name}, reached by `../` \
                 (Laminar: name the library's virtual path instead)"
            )
        } else {
            format!("a file of the DSF's own package {name}")
        };
        res.candidates.push(Candidate {
            package: name.to_string(),
            priority: 0,
            file,
            relative: vpath.clone(),
            line: None,
            kind: None,
            weight: 1.0,
            exists: true,
            conditions: Vec::new(),
        });
        for (pkg, e) in exports {
            res.shadowed.push(Shadowed {
                candidate: candidate(pkg, e, Vec::new()),
                why: format!("the DSF's own package {name} has the file"),
            });
        }
        return res;
    }

    // Group by package, lowest priority last in `exports` (highest first).
    let mut groups: Vec<(&LibPackage, Vec<&Export>)> = Vec::new();
    for (pkg, e) in exports {
        match groups.last_mut() {
            Some((p, v)) if std::ptr::eq(*p, pkg) => v.push(e),
            _ => groups.push((pkg, vec![e])),
        }
    }
    let mut set: Vec<Candidate> = Vec::new();
    let mut winner: Option<String> = None;
    let mut backups: Vec<Vec<Candidate>> = Vec::new();
    for (pkg, lines) in groups.iter().rev() {
        if !pkg.enabled {
            for e in lines {
                res.shadowed.push(Shadowed {
                    candidate: candidate(pkg, e, Vec::new()),
                    why: format!("package {} is disabled", pkg.name),
                });
            }
            continue;
        }
        let mut plain: Vec<Candidate> = Vec::new();
        let mut extend: Vec<Candidate> = Vec::new();
        let mut backup: Vec<Candidate> = Vec::new();
        let mut lock: Option<usize> = None;
        let mut first_plain: Option<(ExportKind, usize)> = None;
        for e in lines {
            let c = match applies(pkg, e, tile, cond) {
                Ok(conds) => candidate(pkg, e, conds),
                Err(why) => {
                    res.shadowed.push(Shadowed {
                        candidate: candidate(pkg, e, Vec::new()),
                        why,
                    });
                    continue;
                }
            };
            match e.kind {
                ExportKind::ExportBackup => backup.push(c),
                ExportKind::ExportExclude if lock.is_none() => {
                    for old in plain.drain(..).chain(extend.drain(..)) {
                        res.shadowed.push(Shadowed {
                            candidate: old,
                            why: format!(
                                "EXPORT_EXCLUDE at line {} of the same package replaces it",
                                e.line
                            ),
                        });
                    }
                    lock = Some(e.line);
                    first_plain = Some((e.kind, e.line));
                    plain.push(c);
                }
                ExportKind::ExportExclude => plain.push(c),
                _ if lock.is_some() => res.shadowed.push(Shadowed {
                    candidate: c,
                    why: format!(
                        "EXPORT_EXCLUDE at line {} of the same package hides it",
                        lock.unwrap_or(0)
                    ),
                }),
                ExportKind::ExportExtend => extend.push(c),
                _ => {
                    first_plain.get_or_insert((e.kind, e.line));
                    plain.push(c);
                }
            }
        }
        if let Some((kind, line)) = first_plain {
            for old in set.drain(..) {
                res.shadowed.push(Shadowed {
                    candidate: old,
                    why: format!(
                        "{} in higher-priority package {} (line {line}) replaces it",
                        kind.as_str(),
                        pkg.name
                    ),
                });
            }
            winner = Some(format!(
                "{} in {} (line {line}), the highest-priority package exporting the path",
                kind.as_str(),
                pkg.name
            ));
            set.extend(plain);
        }
        if let Some(first) = extend.first() {
            let by = format!(
                "EXPORT_EXTEND in {} (line {})",
                pkg.name,
                first.line.unwrap_or(0)
            );
            winner = Some(match winner {
                Some(w) => format!("{w}, with {by}"),
                None => by,
            });
        }
        set.extend(extend);
        backups.push(backup);
    }
    // `backups` runs lowest priority first.
    if set.is_empty() {
        if let Some(k) = backups.iter().rposition(|b| !b.is_empty()) {
            // The first backup line of the highest-priority package: backups
            // are not alternatives (WorldEditor's library reads them so).
            let chosen = backups[k].remove(0);
            res.rule = format!(
                "EXPORT_BACKUP in {} (line {}): no package exports the path",
                chosen.package,
                chosen.line.unwrap_or(0)
            );
            res.source = Source::Backup;
            let by = chosen.place();
            set = vec![chosen];
            for b in backups.into_iter().flatten() {
                res.shadowed.push(Shadowed {
                    candidate: b,
                    why: format!(
                        "the first EXPORT_BACKUP of the highest-priority package ({by}) wins"
                    ),
                });
            }
        }
    } else {
        res.source = Source::Library;
        res.rule = winner.unwrap_or_default();
        let by = set[0].place();
        for b in backups.into_iter().flatten() {
            res.shadowed.push(Shadowed {
                candidate: b,
                why: format!("EXPORT_BACKUP is unused: {by} exports the path"),
            });
        }
    }
    set.sort_by_key(|c| c.priority);
    res.candidates = set;
    if res.candidates.is_empty() {
        res.rule = "nothing exports the path".to_string();
        res.case_variant = index.case_variant(&vpath).map(str::to_string);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkg(name: &str, priority: usize, text: &str) -> LibPackage {
        LibPackage {
            name: name.to_string(),
            root: PathBuf::from(format!("/nonexistent/{name}")),
            priority,
            enabled: true,
            library: library::parse(&format!("A\n800\nLIBRARY\n{text}")),
        }
    }

    fn files(r: &Resolution) -> Vec<String> {
        r.candidates
            .iter()
            .map(|c| {
                format!(
                    "{}:{}",
                    c.package,
                    c.file.file_name().unwrap().to_string_lossy()
                )
            })
            .collect()
    }

    fn index(p: Vec<LibPackage>) -> LibraryIndex {
        let mut i = LibraryIndex::default();
        for p in p {
            i.push(p);
        }
        i
    }

    const T: Tile = Tile {
        west: 13,
        south: 47,
    };

    #[test]
    fn higher_export_replaces_extend_adds_backup_last() {
        let i = index(vec![
            pkg(
                "hi",
                0,
                "EXPORT v.obj hi.obj\nEXPORT_BACKUP w.obj hiw.obj\n",
            ),
            pkg("mid", 1, "EXPORT_EXTEND v.obj ext.obj\n"),
            pkg(
                "lo",
                2,
                "EXPORT v.obj lo.obj\nEXPORT_EXTEND x.obj lox.obj\nEXPORT_BACKUP w.obj low.obj\n",
            ),
        ]);
        let c = Conditions::default();
        let r = i.resolve("v.obj", T, &c);
        assert_eq!(files(&r), ["hi:hi.obj"], "hi replaces mid's extend and lo");
        assert_eq!(r.shadowed.len(), 2);
        assert!(
            r.shadowed[0].why.contains("higher-priority package hi"),
            "{:?}",
            r.shadowed
        );
        let r = i.resolve("w.obj", T, &c);
        assert_eq!(files(&r), ["hi:hiw.obj"]);
        assert_eq!(r.source, Source::Backup);
        let r = i.resolve("x.obj", T, &c);
        assert_eq!(files(&r), ["lo:lox.obj"]);
        let r = i.resolve("none.obj", T, &c);
        assert_eq!(r.source, Source::Nothing);
        assert!(r.why_unresolved().contains("no enabled package"));
    }

    #[test]
    fn extend_without_higher_export_adds_to_lower() {
        let i = index(vec![
            pkg("hi", 0, "EXPORT_EXTEND v.obj ext.obj\n"),
            pkg("lo", 1, "EXPORT v.obj a.obj\nEXPORT_RATIO 3 v.obj b.obj\n"),
        ]);
        let r = i.resolve("v.obj", T, &Conditions::default());
        assert_eq!(files(&r), ["hi:ext.obj", "lo:a.obj", "lo:b.obj"]);
        assert_eq!(r.candidates[2].weight, 3.0);
    }

    #[test]
    fn exclude_locks_the_package_sequentially() {
        // PuF's hay rolls: summer region excludes first, the blank export
        // after it applies only where the exclude does not.
        let text = "REGION_DEFINE summer\nREGION_RECT -180 -90 179 89\n\
                    REGION_DREF sim/time/local_date_days >= 165\n\
                    REGION_DREF sim/time/local_date_days <= 243\n\
                    REGION_DEFINE all\nREGION_RECT -180 -90 179 89\n\
                    REGION summer\nEXPORT_EXCLUDE hay.str real.str\n\
                    REGION all\nEXPORT hay.str blank.str\n";
        let i = index(vec![
            pkg("PuF", 0, text),
            pkg("lo", 1, "EXPORT hay.str lo.str\n"),
        ]);
        let mut c = Conditions::default();
        c.drefs.insert("sim/time/local_date_days".into(), 200.0);
        let r = i.resolve("hay.str", T, &c);
        assert_eq!(files(&r), ["PuF:real.str"]);
        assert!(r.shadowed.iter().any(|s| s.why.contains("hides it")));
        c.drefs.insert("sim/time/local_date_days".into(), 20.0);
        let r = i.resolve("hay.str", T, &c);
        assert_eq!(files(&r), ["PuF:blank.str"]);
        assert!(
            r.shadowed
                .iter()
                .any(|s| s.why.contains("needs sim/time/local_date_days >= 165"))
        );
        // Unknown dataref: assumed true and reported.
        let r = i.resolve("hay.str", T, &Conditions::default());
        assert_eq!(files(&r), ["PuF:real.str"]);
        assert!(r.is_conditional());
        assert_eq!(r.candidates[0].conditions.len(), 2);
    }

    #[test]
    fn exclude_drops_earlier_alternatives() {
        let i = index(vec![pkg(
            "p",
            0,
            "EXPORT v.obj a.obj\nEXPORT_EXCLUDE v.obj b.obj\nEXPORT_EXCLUDE v.obj c.obj\nEXPORT v.obj d.obj\n",
        )]);
        let r = i.resolve("v.obj", T, &Conditions::default());
        assert_eq!(files(&r), ["p:b.obj", "p:c.obj"]);
        assert_eq!(r.shadowed.len(), 2);
    }

    #[test]
    fn regions_select_by_tile_and_disabled_packages_export_nothing() {
        let mut lo = pkg("lo", 1, "EXPORT v.obj off.obj\n");
        lo.enabled = false;
        let i = index(vec![
            pkg(
                "p",
                0,
                "REGION_DEFINE de\nREGION_RECT 6 47 15 55\nREGION de\nEXPORT v.obj de.obj\n",
            ),
            lo,
        ]);
        let c = Conditions::default();
        assert_eq!(files(&i.resolve("v.obj", T, &c)), ["p:de.obj"]);
        let r = i.resolve(
            "v.obj",
            Tile {
                west: 20,
                south: 47,
            },
            &c,
        );
        assert!(r.candidates.is_empty());
        let why = r.why_unresolved();
        assert!(
            why.contains("does not cover tile +47+020") || why.contains("disabled"),
            "{why}"
        );
        assert_eq!(r.shadowed.len(), 2);
    }

    #[test]
    fn seasons_and_pick() {
        let i = index(vec![pkg(
            "p",
            0,
            "EXPORT_SEASON win v.obj w.obj\nEXPORT_SEASON sum,spr v.obj s.obj\n",
        )]);
        let mut c = Conditions {
            season: Some("win".into()),
            ..Conditions::default()
        };
        assert_eq!(files(&i.resolve("v.obj", T, &c)), ["p:w.obj"]);
        c.season = None;
        let r = i.resolve("v.obj", T, &c);
        assert_eq!(r.candidates.len(), 2);
        assert!(r.pick(0).is_none(), "no file exists");
        assert_eq!(i.season_warning(&c), None, "no season given");
        c.season = Some("SPR".into());
        assert_eq!(i.season_warning(&c), None, "named, in other case");
        c.season = Some("summer".into());
        assert_eq!(
            i.season_warning(&c).as_deref(),
            Some(
                "--season summer: no library names that season (they name spr, sum, win), \
                 so every seasonal export is left out"
            )
        );
    }

    #[test]
    fn files_reached_by_climbing_are_named_by_their_folder() {
        let t = tempfile::tempdir().unwrap();
        let cs = t.path().join("Custom Scenery");
        std::fs::create_dir_all(cs.join("Airport")).unwrap();
        std::fs::create_dir_all(cs.join("Lib/Objects")).unwrap();
        std::fs::write(cs.join("Lib/Objects/x.obj"), b"").unwrap();
        let want = Some(cs.join("Lib/Objects/x.obj"));
        assert_eq!(find_file(&cs.join("Airport"), "../Lib/Objects/x.obj"), want);
        assert_eq!(find_file(&cs.join("Airport"), "../lib/objects/X.OBJ"), want);
        assert_eq!(
            find_file(&cs.join("Airport"), "./../Lib/./Objects/x.obj"),
            want
        );
        assert_eq!(find_file(&cs.join("Airport"), "../Lib/none.obj"), None);
        // A root ending in `..` climbs further, not back down.
        assert_eq!(
            walk_ci(
                &cs.join("Airport/.."),
                "../custom scenery/Lib/Objects/x.obj",
                &super::super::install::child_ci
            ),
            Some(cs.join("Airport/../../Custom Scenery/Lib/Objects/x.obj"))
        );
        #[cfg(unix)]
        {
            // A package that is a link climbs from where the link points.
            let far = t.path().join("far");
            std::fs::create_dir_all(far.join("Airport")).unwrap();
            std::fs::create_dir_all(far.join("Lib")).unwrap();
            std::fs::write(far.join("Lib/y.obj"), b"").unwrap();
            std::os::unix::fs::symlink(far.join("Airport"), cs.join("Linked")).unwrap();
            assert_eq!(
                find_file(&cs.join("Linked"), "../Lib/y.obj"),
                Some(cs.join("Linked/../Lib/y.obj"))
            );
        }
    }
}
