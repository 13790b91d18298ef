//! `scenery check`: what in an installation does not resolve or does not
//! work the way its author meant.
//!
//! | Code | Severity | Finding |
//! |---|---|---|
//! | SCN001 | error | paths a package's DSFs name that resolve nowhere |
//! | SCN002 | warning | exports naming files missing from their package |
//! | SCN003 | note | exports a higher-priority package shadows |
//! | SCN004 | warning | a disabled pack that enabled packs depend on |
//! | SCN005 | warning | exports, or paths a package's DSFs name, reaching outside their package with `../` |
//! | SCN006 | warning | a pack listed twice in `scenery_packs.ini` |
//! | SCN007 | warning | a pack listed in `scenery_packs.ini` that does not exist |
//! | SCN008 | note | packs `scenery_packs.ini` does not list (X-Plane adds them on top) |
//! | SCN009 | error or warning | problems in a `library.txt` (the `LIB` diagnostics) |
//! | SCN010 | error | a DSF that cannot be read |
//! | SCN011 | warning | an overlay DSF below another package's base mesh of its tile |
//! | SCN012 | warning | problems in `scenery_packs.ini` (the `INI` diagnostics) |
//! | SCN013 | error | a `library.txt` that cannot be read |
//! | SCN014 | warning | exports naming an absolute or drive-letter path (never followed) |
//! | SCN015 | warning | art the package's scenery names that cannot be found or read: what its autogen assets name (objects, facades, forests, textures) and the textures and objects of the objects, facades and forests it places or its `library.txt` exports (each named with the exported path) |
//!
//! Only the DSFs of the `Custom Scenery` packages are read (the default
//! scenery's base meshes are large and Laminar's own); the libraries of
//! every package take part in the resolution.

use super::install::{Installation, Origin, Package};
use super::library::ExportKind;
use super::resolve::{self, Conditions, LibraryIndex, LoadError, Tile};
use super::rules::check::codes;
use crate::diag::{Location, Severity};
use crate::ground::words::count;
use crate::limits::Limits;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Details listed per finding at most.
pub const MAX_DETAILS: usize = 25;

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// How serious it is.
    pub severity: Severity,
    /// Stable code (`SCN001`…).
    pub code: &'static str,
    /// The package it is about, if one.
    pub package: Option<String>,
    /// What is wrong, in one line.
    pub message: String,
    /// The instances (at most [`MAX_DETAILS`], then a count of the rest).
    pub details: Vec<String>,
}

/// What was checked.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Packages in the installation.
    pub packages: usize,
    /// Enabled packages that exist.
    pub enabled: usize,
    /// Packages with a `library.txt`.
    pub libraries: usize,
    /// Export lines in those.
    pub exports: usize,
    /// DSFs read.
    pub dsfs: usize,
    /// Definitions resolved (per DSF).
    pub definitions: usize,
    /// Of those, resolving nowhere.
    pub unresolved: usize,
    /// Distinct files whose art was followed: those the definitions
    /// resolve to and those the Custom Scenery libraries export (autogen
    /// assets, objects, facades, forests).
    pub art_followed: usize,
    /// Art files they name, directly or through what they name, that
    /// cannot be found or read (once per package).
    pub missing_art: usize,
}

/// The result of `scenery check`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CheckReport {
    /// The findings, most serious first, then by code.
    pub findings: Vec<Finding>,
    /// What was checked.
    pub stats: Stats,
}

impl CheckReport {
    /// True when a finding is an error (something cannot resolve or be
    /// read).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }
}

/// Details capped at [`MAX_DETAILS`] with a last line counting the rest.
fn capped(mut v: Vec<String>) -> Vec<String> {
    if v.len() > MAX_DETAILS {
        let rest = v.len() - MAX_DETAILS;
        v.truncate(MAX_DETAILS);
        v.push(format!("… and {rest} more"));
    }
    v
}

fn finding(
    severity: Severity,
    code: &'static str,
    package: Option<&str>,
    message: String,
    details: Vec<String>,
) -> Finding {
    Finding {
        severity,
        code,
        package: package.map(str::to_string),
        message,
        details: capped(details),
    }
}

/// The `.dsf` files under a package's `Earth nav data`, sorted.
pub fn package_dsfs(pkg: &Path) -> Vec<PathBuf> {
    super::install::child_ci(pkg, "Earth nav data")
        .map(|end| super::install::dsf_files(&end))
        .unwrap_or_default()
}

/// The packages whose DSFs `check` reads: the enabled ones outside the
/// default scenery.
pub fn scanned_packages(inst: &Installation) -> impl Iterator<Item = &Package> {
    inst.enabled()
        .filter(|p| !matches!(p.origin, Origin::Default | Origin::Global))
}

/// What one DSF contributes to the check.
struct DsfFacts {
    rel: String,
    tile: Tile,
    overlay: bool,
    defs: Vec<String>,
}

/// Reads one DSF's tile, overlay flag and definitions.
fn dsf_facts(path: &Path, pkg: &Package) -> Result<DsfFacts, String> {
    let bytes = crate::fsutil::read_input(path, "a DSF tile", Limits::default().max_input_bytes)
        .map_err(|e| e.reason())?;
    let dsf = crate::dsf::read(&bytes).map_err(|e| e.to_string())?;
    let prop = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
    let tile = match (prop("sim/west"), prop("sim/south")) {
        (Some(west), Some(south)) => Tile { west, south },
        _ => return Err("no sim/west and sim/south properties".into()),
    };
    let defs = dsf
        .object_defs
        .iter()
        .chain(&dsf.polygon_defs)
        .chain(&dsf.network_defs)
        .chain(
            dsf.terrain_defs
                .iter()
                .filter(|t| t.as_str() != "terrain_Water"),
        )
        .cloned()
        .collect();
    Ok(DsfFacts {
        rel: super::install::relative(path, &pkg.path),
        tile,
        overlay: dsf.is_overlay(),
        defs,
    })
}

/// An overlay DSF below another package's base mesh of its tile
/// (`SCN011`): X-Plane does not load it. `scenery check` reports each;
/// `scenery conflicts` reports those of the airports' tiles
/// ([`overlays_below_meshes`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BelowMesh {
    /// The overlay's package.
    pub package: String,
    /// The overlay DSF, relative to its package.
    pub dsf: String,
    /// The tile.
    pub tile: Tile,
    /// The highest-priority package with a base mesh of the tile.
    pub mesh: String,
}

impl BelowMesh {
    /// The finding's line, as `scenery check` prints it.
    pub fn message(&self) -> String {
        format!(
            "{}: {} is below the base mesh of {} for tile {}, so X-Plane does not load it; \
             move {} above {} in scenery_packs.ini",
            self.package, self.dsf, self.mesh, self.tile, self.package, self.mesh
        )
    }
}

/// The overlays of `read` (packages with their DSFs, any order) below the
/// highest-priority base mesh of their tile.
fn below_meshes<'a>(read: impl Iterator<Item = (&'a Package, &'a DsfFacts)>) -> Vec<BelowMesh> {
    let read: Vec<(&Package, &DsfFacts)> = read.collect();
    let mut meshes: HashMap<Tile, &Package> = HashMap::new();
    for (p, f) in &read {
        if !f.overlay {
            let m = meshes.entry(f.tile).or_insert(p);
            if p.priority < m.priority {
                *m = p;
            }
        }
    }
    read.iter()
        .filter_map(|(p, f)| {
            let m = meshes.get(&f.tile)?;
            (f.overlay && m.priority < p.priority).then(|| BelowMesh {
                package: p.name.clone(),
                dsf: f.rel.clone(),
                tile: f.tile,
                mesh: m.name.clone(),
            })
        })
        .collect()
}

/// The overlays below a base mesh of their tile (`SCN011`, as
/// [`check`] finds them) among the DSFs of the packages `check` reads,
/// only those of `tiles` when given (by the DSF's file name, then its
/// `sim/west` and `sim/south`). DSFs that cannot be read are left out
/// (`check` reports them, `SCN010`).
pub fn overlays_below_meshes(
    inst: &Installation,
    tiles: Option<&std::collections::BTreeSet<Tile>>,
) -> Vec<BelowMesh> {
    let named = |d: &Path| {
        let Some(t) = tiles else { return true };
        let stem = d
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match (
            stem.get(..3).map(str::parse::<i32>),
            stem.get(3..).map(str::parse::<i32>),
        ) {
            (Some(Ok(south)), Some(Ok(west))) => t.contains(&Tile { west, south }),
            _ => true,
        }
    };
    let facts: Vec<(&Package, DsfFacts)> = scanned_packages(inst)
        .flat_map(|p| package_dsfs(&p.path).into_iter().map(move |d| (p, d)))
        .filter(|(_, d)| named(d))
        .filter_map(|(p, d)| dsf_facts(&d, p).ok().map(|f| (p, f)))
        .filter(|(_, f)| tiles.is_none_or(|t| t.contains(&f.tile)))
        .collect();
    below_meshes(facts.iter().map(|(p, f)| (*p, f)))
}

/// Checks an installation. `progress` is called once per DSF read.
pub fn check(
    inst: &Installation,
    index: &LibraryIndex,
    load_errors: &[LoadError],
    cond: &Conditions,
    art: &super::art::ArtStore,
    progress: &(dyn Fn() + Sync),
) -> CheckReport {
    use rayon::prelude::*;
    let mut out: Vec<Finding> = Vec::new();
    let mut stats = Stats {
        packages: inst.packages.len(),
        enabled: inst.enabled().count(),
        libraries: index.packages.len(),
        exports: index.packages.iter().map(|p| p.library.exports.len()).sum(),
        ..Stats::default()
    };

    ini_findings(inst, &mut out);
    for e in load_errors {
        out.push(finding(
            Severity::Error,
            codes::LIBRARY_UNREADABLE,
            Some(&e.package),
            format!("{}", e.error),
            Vec::new(),
        ));
    }
    library_findings(index, &mut out);

    // Read the DSFs of every enabled Custom Scenery package.
    let custom: Vec<&Package> = scanned_packages(inst).collect();
    let jobs: Vec<(&Package, PathBuf)> = custom
        .iter()
        .flat_map(|p| package_dsfs(&p.path).into_iter().map(move |d| (*p, d)))
        .collect();
    let read: Vec<(&Package, PathBuf, Result<DsfFacts, String>)> = jobs
        .into_par_iter()
        .map(|(p, d)| {
            let f = dsf_facts(&d, p);
            progress();
            (p, d, f)
        })
        .collect();
    stats.dsfs = read.len();

    // Unresolved paths per package; which disabled packs would have helped.
    let mut unresolved: BTreeMap<usize, BTreeMap<String, (Vec<String>, String)>> = BTreeMap::new();
    let mut needs_disabled: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    // Paths a package's DSFs name outside the package with `../`.
    let mut climbing: BTreeMap<usize, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    // Art files to follow: (package, tile, resolved file, definition) →
    // the DSFs naming it (or the library lines exporting it).
    let mut follow: Follow = BTreeMap::new();
    for (p, d, f) in &read {
        match f {
            Err(e) => out.push(finding(
                Severity::Error,
                codes::DSF_UNREADABLE,
                Some(&p.name),
                format!("{}: {e}", super::install::relative(d, &inst.root)),
                Vec::new(),
            )),
            Ok(f) => {
                for def in &f.defs {
                    stats.definitions += 1;
                    let path = super::library::normalize(def);
                    if !super::library::is_absolute(&path) && super::library::leaves_root(&path) {
                        climbing
                            .entry(p.priority)
                            .or_default()
                            .entry(def.clone())
                            .or_default()
                            .push(f.rel.clone());
                    }
                    let r = resolve::resolve(index, Some((&p.name, &p.path)), def, f.tile, cond);
                    if let Some(c) = r.usable().next() {
                        if art_kind(def).is_some() {
                            follow
                                .entry((p.priority, Some(f.tile), c.file.clone(), def.clone()))
                                .or_default()
                                .push(f.rel.clone());
                        }
                        continue;
                    }
                    stats.unresolved += 1;
                    let why = r.why_unresolved_in(&p.name);
                    for s in r.shadowed.iter().filter(|s| {
                        index
                            .packages
                            .iter()
                            .any(|l| !l.enabled && l.name == s.candidate.package)
                    }) {
                        needs_disabled
                            .entry(s.candidate.package.clone())
                            .or_default()
                            .entry(p.name.clone())
                            .or_default()
                            .push(def.clone());
                    }
                    unresolved
                        .entry(p.priority)
                        .or_default()
                        .entry(def.clone())
                        .or_insert_with(|| (Vec::new(), why))
                        .0
                        .push(f.rel.clone());
                }
            }
        }
    }
    for (prio, defs) in &unresolved {
        let pkg = &inst.packages[*prio];
        let details = defs
            .iter()
            .map(|(def, (dsfs, why))| format!("{def} ({}): {why}", used_in(dsfs)))
            .collect();
        out.push(finding(
            Severity::Error,
            codes::UNRESOLVED,
            Some(&pkg.name),
            format!(
                "{}: {} {} nowhere",
                pkg.name,
                count(defs.len(), "path"),
                agree(defs.len(), "resolves", "resolve")
            ),
            details,
        ));
    }
    export_follows(inst, index, &mut follow);
    art_findings(inst, index, cond, art, follow, &mut stats, &mut out);
    for (prio, defs) in &climbing {
        let pkg = &inst.packages[*prio];
        out.push(finding(
            Severity::Warning,
            codes::OUTSIDE_PACKAGE,
            Some(&pkg.name),
            format!(
                "{}: its DSFs name {} outside the package with `../`; Laminar says never to \
                 reference another library by file path (name the path it exports instead)",
                pkg.name,
                count(defs.len(), "file")
            ),
            defs.iter()
                .map(|(def, dsfs)| format!("{def} ({})", used_in(dsfs)))
                .collect(),
        ));
    }
    for (disabled, users) in &needs_disabled {
        let line = inst
            .packages
            .iter()
            .find(|p| &p.name == disabled)
            .and_then(|p| match p.origin {
                Origin::Ini { line } => Some(format!(" (scenery_packs.ini:{line})")),
                _ => None,
            })
            .unwrap_or_default();
        let mut details = Vec::new();
        for (user, defs) in users {
            let mut defs = defs.clone();
            defs.sort();
            defs.dedup();
            details.push(format!(
                "{user} uses {}: {}",
                count(defs.len(), "path"),
                defs.join(", ")
            ));
        }
        out.push(finding(
            Severity::Warning,
            codes::DISABLED_NEEDED,
            Some(disabled),
            format!(
                "{disabled} is disabled{line} but enabled packs use paths only it exports; \
                 enable it or remove what needs it"
            ),
            details,
        ));
    }
    // Overlays below a base mesh of their tile.
    let ok = read
        .iter()
        .filter_map(|(p, _, f)| f.as_ref().ok().map(|f| (*p, f)));
    for b in below_meshes(ok) {
        out.push(finding(
            Severity::Warning,
            codes::BELOW_MESH,
            Some(&b.package),
            b.message(),
            Vec::new(),
        ));
    }
    shadow_findings(index, &mut out);
    out.sort_by(|a, b| a.severity.cmp(&b.severity).then(a.code.cmp(b.code)));
    CheckReport {
        findings: out,
        stats,
    }
}

/// What a definition names, for following its art: an autogen asset
/// (`None` inside) or an object, facade or forest.
fn art_kind(def: &str) -> Option<Option<super::art::ArtKind>> {
    use super::art::ArtKind;
    match def.rsplit_once('.')?.1.to_ascii_lowercase().as_str() {
        "agp" | "agb" | "ags" => Some(None),
        ext => ArtKind::from_extension(ext)
            .filter(|k| *k != ArtKind::Texture)
            .map(Some),
    }
}

/// Art files to follow: (package, the tile of the DSF naming it or `None`
/// for a library export, resolved file, the path as named) → the DSFs
/// naming it or the `library.txt` lines exporting it.
type Follow = BTreeMap<(usize, Option<Tile>, PathBuf, String), Vec<String>>;

/// Adds to `follow` every asset, object, facade and forest the enabled
/// Custom Scenery packages export in their `library.txt`, whether or not a
/// DSF uses it (a library package such as openSAM_Library has no DSF of its
/// own), keyed by the exported virtual path; exports naming missing files
/// are SCN002's, absolute ones SCN014's.
fn export_follows(inst: &Installation, index: &LibraryIndex, follow: &mut Follow) {
    for pkg in scanned_packages(inst) {
        let Some(lib) = index
            .packages
            .iter()
            .find(|l| l.enabled && l.root == pkg.path)
        else {
            continue;
        };
        for e in &lib.library.exports {
            if e.is_absolute() || art_kind(&e.real_path).is_none() {
                continue;
            }
            let Some(file) = resolve::find_file(&lib.root, &e.real_path) else {
                continue;
            };
            follow
                .entry((pkg.priority, None, file, e.virtual_path.clone()))
                .or_default()
                .push(format!("library.txt:{}", e.line));
        }
    }
}

/// SCN015: the art what the packages' DSFs place, and what their libraries
/// export, names (an autogen asset's objects, facades, forest and
/// textures; an object's, facade's or forest's textures and objects) that
/// cannot be found or read, found as placement finds it ([`super::art`])
/// at each DSF's tile (an export's: through any export of the path).
fn art_findings(
    inst: &Installation,
    index: &LibraryIndex,
    cond: &Conditions,
    art: &super::art::ArtStore,
    follow: Follow,
    stats: &mut Stats,
    out: &mut Vec<Finding>,
) {
    use rayon::prelude::*;
    let jobs: Vec<_> = follow.into_iter().collect();
    stats.art_followed += jobs
        .iter()
        .map(|((_, _, file, _), _)| file)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    // Each problem keyed by the definition and the line naming the art
    // (0 for what an object, facade or forest names), so that details
    // come in line order (line 8 before line 16), then its message.
    type Problem = (String, usize, String);
    let found: Vec<(usize, Vec<String>, Vec<Problem>)> = jobs
        .into_par_iter()
        .map(|((prio, tile, file, def), dsfs)| {
            let libs = super::art::Libraries {
                index,
                tile,
                conditions: cond,
            };
            let mut problems = Vec::new();
            match art_kind(&def).flatten() {
                None => {
                    if let Ok(asset) = &crate::check::asset::AssetFile::read(&file).asset {
                        for (line, p) in art.asset_problems(&file, asset, Some(&libs)) {
                            let msg =
                                format!("{def}:{line}: {}", p.message_within(Some(&inst.root)));
                            problems.push((def.clone(), line, msg));
                        }
                    }
                }
                Some(kind) => {
                    for (path, k) in art.read(&file, kind).names() {
                        for p in art.problems(&file, &path, k, Some(&libs)) {
                            let msg = format!("{def} {}", p.message_within(Some(&inst.root)));
                            problems.push((def.clone(), 0, msg));
                        }
                    }
                }
            }
            (prio, dsfs, problems)
        })
        .collect();
    let mut per: BTreeMap<usize, BTreeMap<Problem, Vec<String>>> = BTreeMap::new();
    for (prio, dsfs, problems) in found {
        for msg in problems {
            per.entry(prio)
                .or_default()
                .entry(msg)
                .or_default()
                .extend(dsfs.iter().cloned());
        }
    }
    for (prio, problems) in per {
        let pkg = &inst.packages[prio];
        stats.missing_art += problems.len();
        let details = problems
            .iter()
            .map(|((_, _, msg), dsfs)| {
                let mut dsfs = dsfs.clone();
                dsfs.sort();
                dsfs.dedup();
                format!("{msg} [{}]", used_in(&dsfs))
            })
            .collect();
        out.push(finding(
            Severity::Warning,
            codes::ART_MISSING,
            Some(&pkg.name),
            format!(
                "{}: {} its scenery names cannot be found or read",
                pkg.name,
                count(problems.len(), "art file"),
            ),
            details,
        ));
    }
}

/// The DSFs naming a path (or the library lines exporting it), for a
/// finding's details: the one, or how many with the first.
fn used_in(dsfs: &[String]) -> String {
    if dsfs.len() == 1 {
        dsfs[0].clone()
    } else if dsfs.iter().all(|d| !d.starts_with("library.txt:")) {
        format!("{} DSFs, e.g. {}", dsfs.len(), dsfs[0])
    } else {
        format!("{} DSFs or exports, e.g. {}", dsfs.len(), dsfs[0])
    }
}

/// The verb form for a count.
fn agree<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// SCN006, SCN007, SCN008, SCN012.
fn ini_findings(inst: &Installation, out: &mut Vec<Finding>) {
    let Some(ini) = &inst.ini else {
        return;
    };
    let name = "scenery_packs.ini";
    if !ini.diagnostics.is_empty() {
        let text = super::install::read_text(
            &inst.ini_path,
            "scenery_packs.ini",
            super::packs::MAX_INI_BYTES,
        )
        .unwrap_or_default();
        out.push(finding(
            Severity::Warning,
            codes::PACKS_PROBLEMS,
            None,
            format!("{name}: {}", count(ini.diagnostics.len(), "problem")),
            diag_lines(name, &text, &ini.diagnostics),
        ));
    }
    for (first, again) in super::packs::duplicates(ini) {
        out.push(finding(
            Severity::Warning,
            codes::LISTED_TWICE,
            Some(again.name()),
            format!(
                "{name}:{}: {} is listed again (first at line {}); keep one line",
                again.line, again.path, first.line
            ),
            Vec::new(),
        ));
    }
    for p in inst.packages.iter().filter(|p| !p.exists) {
        if let Origin::Ini { line } = p.origin {
            out.push(finding(
                Severity::Warning,
                codes::LISTED_MISSING,
                Some(&p.name),
                format!(
                    "{name}:{line}: {} does not exist (X-Plane drops the line when it starts)",
                    inst.display_path(p)
                ),
                Vec::new(),
            ));
        }
    }
    let new: Vec<String> = inst
        .packages
        .iter()
        .filter(|p| p.origin == Origin::NotListed)
        .map(|p| p.name.clone())
        .collect();
    if !new.is_empty() {
        out.push(finding(
            Severity::Note,
            codes::NOT_LISTED,
            None,
            format!(
                "{} not in {name}: X-Plane adds them at the top (highest priority) when it starts",
                count(new.len(), "pack")
            ),
            new,
        ));
    }
}

/// `file:line:col: code: message` lines for diagnostics.
fn diag_lines(file: &str, text: &str, diags: &[crate::diag::Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let at = match &d.location {
                Location::Span(s) => {
                    let (l, c) = super::library::line_col(text, s.start);
                    format!("{file}:{l}:{c}")
                }
                _ => file.to_string(),
            };
            format!("{at}: {}[{}]: {}", d.severity.as_str(), d.code, d.message)
        })
        .collect()
}

/// `file:line: virtual → real` for an export in a finding's details.
fn export_line(file: &str, e: &super::library::Export) -> String {
    use super::library::quote;
    format!(
        "{file}:{}: {} → {}",
        e.line,
        quote(&e.virtual_path),
        quote(&e.real_path)
    )
}

/// SCN002, SCN005, SCN009.
fn library_findings(index: &LibraryIndex, out: &mut Vec<Finding>) {
    for p in index.packages.iter().filter(|p| p.enabled) {
        let file = format!("{}/library.txt", p.name);
        let lib = &p.library;
        let (up, other): (Vec<_>, Vec<_>) = lib
            .diagnostics
            .iter()
            .cloned()
            .partition(|d| d.code == super::rules::library::codes::LEAVES_PACKAGE);
        if !other.is_empty() {
            // The text the diagnostics' spans point into, read as the index
            // read it (bounded, invalid UTF-8 replaced).
            let text = super::install::read_text(
                &p.root.join("library.txt"),
                "library.txt",
                super::library::MAX_LIBRARY_BYTES,
            )
            .unwrap_or_default();
            let worst = other
                .iter()
                .map(|d| d.severity)
                .min()
                .unwrap_or(Severity::Warning);
            out.push(finding(
                worst,
                codes::LIBRARY_PROBLEMS,
                Some(&p.name),
                format!(
                    "{file}: {}{}",
                    count(other.len(), "problem"),
                    if lib.header_rejected() {
                        "; X-Plane ignores the whole file"
                    } else {
                        ""
                    }
                ),
                diag_lines(&file, &text, &other),
            ));
        }
        if !up.is_empty() {
            let (absolute, climbing): (Vec<_>, Vec<_>) = lib
                .exports
                .iter()
                .filter(|e| e.leaves_package())
                .partition(|e| e.is_absolute());
            if !climbing.is_empty() {
                out.push(finding(
                    Severity::Warning,
                    codes::OUTSIDE_PACKAGE,
                    Some(&p.name),
                    format!(
                        "{file}: {} {} outside the package with `../`; Laminar says never to \
                         reference another library by file path (export the virtual path \
                         instead)",
                        count(climbing.len(), "export"),
                        agree(climbing.len(), "reaches", "reach")
                    ),
                    climbing.iter().map(|e| export_line(&file, e)).collect(),
                ));
            }
            if !absolute.is_empty() {
                out.push(finding(
                    Severity::Warning,
                    codes::ABSOLUTE_EXPORT,
                    Some(&p.name),
                    format!(
                        "{file}: {} {} an absolute or drive-letter path, which agkit never \
                         follows (it would read a file outside the installation); a library \
                         exports files of its own package",
                        count(absolute.len(), "export"),
                        agree(absolute.len(), "names", "name")
                    ),
                    absolute.iter().map(|e| export_line(&file, e)).collect(),
                ));
            }
        }
        if lib.header_rejected() {
            continue;
        }
        let missing: Vec<String> = lib
            .exports
            .iter()
            .filter(|e| !e.leaves_package() && resolve::find_file(&p.root, &e.real_path).is_none())
            .map(|e| export_line(&file, e))
            .collect();
        if !missing.is_empty() {
            out.push(finding(
                Severity::Warning,
                codes::EXPORT_MISSING,
                Some(&p.name),
                format!(
                    "{file}: {} {} missing from the package",
                    count(missing.len(), "export"),
                    agree(missing.len(), "names a file", "name files")
                ),
                missing,
            ));
        }
    }
}

/// SCN003: for each pair of packages, the exports the higher one replaces
/// (counting only exports not limited to a region, which replace the lower
/// package on every tile).
fn shadow_findings(index: &LibraryIndex, out: &mut Vec<Finding>) {
    let mut pairs: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
    let mut paths: Vec<&str> = index.virtual_paths().collect();
    paths.sort_unstable();
    for v in paths {
        // Per package (highest priority first): does it export the path on
        // every tile, and does it export it at all (backups aside)?
        let mut per: Vec<(usize, bool)> = Vec::new();
        for (k, p, e) in index.exports_of(v) {
            if !p.enabled || e.kind == ExportKind::ExportBackup {
                continue;
            }
            let everywhere = e.kind != ExportKind::ExportExtend
                && e.seasons.is_none()
                && e.region.is_none_or(|r| {
                    let r = &p.library.regions[r];
                    r.is_global() && r.drefs.is_empty()
                });
            match per.last_mut() {
                Some((last, all)) if *last == k => *all |= everywhere,
                _ => per.push((k, everywhere)),
            }
        }
        if let Some(w) = per.iter().position(|(_, all)| *all) {
            for (l, _) in &per[w + 1..] {
                pairs.entry((per[w].0, *l)).or_default().push(v.to_string());
            }
        }
    }
    for ((w, l), v) in pairs {
        let (w, l) = (&index.packages[w].name, &index.packages[l].name);
        out.push(finding(
            Severity::Note,
            codes::SHADOWED,
            Some(l),
            format!("{w} shadows {} of {l}", count(v.len(), "export")),
            v,
        ));
    }
}
