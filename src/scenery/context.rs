//! [`Scenery`]: where the paths a DSF names resolve — an X-Plane
//! installation, or a package and the libraries given with it — and what
//! can be asked of it: [`Scenery::resolve`], [`Scenery::at`],
//! [`Scenery::check`] and placing tiles ([`Scenery::place_tile`],
//! [`Scenery::place_tiles`]).
//!
//! Opened on an installation ([`Scenery::installation`]), every package
//! resolves the paths in `scenery_packs.ini` order, exactly as `agkit
//! scenery` does. Opened on packages ([`Scenery::packages`]), the DSF's own
//! package (given, else the folder above `Earth nav data`) comes first,
//! then each library folder in the order given: a folder holding a
//! `library.txt` is one package; any other folder is read as a Custom
//! Scenery folder whose packages with a `library.txt` follow in their
//! priority order.
//!
//! A `Scenery` is `Send + Sync`: one value serves every thread placing
//! tiles. It reads each autogen asset file once and keeps it (see
//! [`Scenery::asset`]), and each art file the assets name once
//! ([`Scenery::art`], [`super::art`]), so a file changed on disk while it
//! lives is not read again.

use super::art::{ArtStore, Libraries};
use super::check::{self, CheckReport};
use super::install::{InstallError, Installation, folder_name};
use super::resolve::{self, Conditions, LibraryIndex, LoadError, Resolution, Tile};
use crate::check::asset::AssetFile;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Why a [`Scenery`] could not be opened, or cannot answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneryError {
    /// The installation could not be opened.
    #[error(transparent)]
    Installation(#[from] InstallError),
    /// A library folder could not be read.
    #[error("{}: {source}", dir.display())]
    LibraryFolder {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A library folder's `library.txt` could not be read.
    #[error("{}: {source}", dir.display())]
    LibraryFile {
        /// The folder.
        dir: PathBuf,
        /// Why (naming the file).
        source: InstallError,
    },
    /// A library folder holds no `library.txt`, nor any package with one.
    #[error(
        "{}: no library.txt in it, nor in any package folder inside it (a library package has \
         library.txt at its root; give that folder, or the Custom Scenery folder holding it)",
        dir.display()
    )]
    NoLibrary {
        /// The folder.
        dir: PathBuf,
    },
    /// A question only an installation answers (`at`, `check`), asked of
    /// packages given one by one.
    #[error("{0} needs an X-Plane installation, not packages given one by one")]
    NoInstallation(&'static str),
}

/// Whether [`Scenery::check_bytes`] checks the art a text names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtCheck {
    /// The text was read from a file: the art it names beside it is
    /// checked too.
    Named,
    /// The text came from standard input or memory: it names nothing
    /// beside it.
    Skipped,
}

/// The scenery a DSF's paths resolve in, with the simulator's assumed
/// state (dataref values, season).
pub struct Scenery {
    /// The libraries every DSF sees.
    index: Arc<LibraryIndex>,
    /// The installation, when opened on one.
    installation: Option<Installation>,
    /// The package every DSF belongs to, when given.
    package: Option<PathBuf>,
    /// Dataref values and season.
    conditions: Conditions,
    /// Libraries that could not be read (left out of the index).
    load_errors: Vec<LoadError>,
    /// `index` with a DSF package's own `library.txt` on top, per package.
    own: Mutex<HashMap<PathBuf, Arc<LibraryIndex>>>,
    /// Autogen asset files read so far, by path.
    assets: Mutex<HashMap<PathBuf, Arc<AssetFile>>>,
    /// Each tile's first airport, per package root the apt.dat files are
    /// searched from ([`Scenery::first_airports`]).
    first_airports: Mutex<HashMap<PathBuf, Arc<super::airports::FirstAirports>>>,
    /// The airports lying in each tile, per package root the apt.dat files
    /// are searched from ([`Scenery::tile_airports`]).
    tile_airports: Mutex<TileAirportCache>,
    /// Art files read so far, and each asset's art per tile.
    art: ArtStore,
    /// Whether placement reads the art the assets name.
    read_art: bool,
    /// Files outside this canonical folder are not read ([`Scenery::within`]).
    within: Option<super::art::Within>,
}

/// The airports of each tile, by package root and tile.
type TileAirportCache =
    HashMap<(PathBuf, crate::dsf::Tile), Arc<crate::scenery::tile_airports::TileAirports>>;

impl Scenery {
    fn new(
        index: LibraryIndex,
        installation: Option<Installation>,
        conditions: Conditions,
        load_errors: Vec<LoadError>,
    ) -> Scenery {
        Scenery {
            index: Arc::new(index),
            installation,
            package: None,
            conditions,
            load_errors,
            own: Mutex::new(HashMap::new()),
            assets: Mutex::new(HashMap::new()),
            first_airports: Mutex::new(HashMap::new()),
            tile_airports: Mutex::new(HashMap::new()),
            art: ArtStore::default(),
            read_art: true,
            within: None,
        }
    }

    /// Each tile's first airport in X-Plane's order of apt.dat files for a
    /// DSF of the package at `root` ([`super::airports::sources`]: the
    /// package's own, then the installation's), read once per root for the
    /// whole run: a run over many tiles does not read the apt.dat files
    /// again for each.
    pub fn first_airports(
        &self,
        root: &Path,
        limits: &crate::limits::Limits,
    ) -> Arc<super::airports::FirstAirports> {
        let mut cache = self
            .first_airports
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache
            .entry(root.to_path_buf())
            .or_insert_with(|| {
                let sources = super::airports::sources(self.install(), Some(root));
                Arc::new(super::airports::FirstAirports::load(sources, limits))
            })
            .clone()
    }

    /// The airports lying in `tile` ([`crate::scenery::tile_airports`]) for a DSF
    /// of the package at `root`, in X-Plane's order of apt.dat files
    /// ([`super::airports::sources`]). The files are read once per root for
    /// every tile the package has a DSF of (and `tile`): a run over the
    /// package's tiles reads them once; a tile outside them is read for on
    /// its own, once.
    pub fn tile_airports(
        &self,
        root: &Path,
        tile: crate::dsf::Tile,
        limits: &crate::limits::Limits,
    ) -> Arc<crate::scenery::tile_airports::TileAirports> {
        let mut cache = self.tile_airports.lock().unwrap_or_else(|e| e.into_inner());
        let key = (root.to_path_buf(), tile);
        if let Some(t) = cache.get(&key) {
            return t.clone();
        }
        let mut tiles = crate::scenery::tile_airports::package_tiles(root);
        tiles.retain(|t| !cache.contains_key(&(root.to_path_buf(), *t)));
        tiles.insert(tile);
        let sources = super::airports::sources(self.install(), Some(root));
        for (t, found) in crate::scenery::tile_airports::load(&sources, &tiles, limits) {
            cache.insert((root.to_path_buf(), t), Arc::new(found));
        }
        cache.get(&key).cloned().unwrap_or_default()
    }

    /// Opens the X-Plane folder (or its Custom Scenery folder) `dir`:
    /// every package in the simulator's order, every `library.txt` read (an
    /// unreadable one is left out and listed in [`Scenery::load_errors`]).
    pub fn installation(dir: &Path, conditions: Conditions) -> Result<Scenery, SceneryError> {
        let inst = Installation::open(dir)?;
        let (index, errors) = LibraryIndex::from_installation(&inst);
        Ok(Scenery::new(index, Some(inst), conditions, errors))
    }

    /// No library at all: art named by a library path is not looked up
    /// ([`crate::scenery::art::ArtState::Unchecked`]).
    pub fn without_libraries(conditions: Conditions) -> Scenery {
        Scenery::new(LibraryIndex::default(), None, conditions, Vec::new())
    }

    /// Packages given one by one: `package`, the package every DSF
    /// belongs to (`None`: each DSF's own, the folder above `Earth nav
    /// data`), and the `libraries` in order (a folder with a `library.txt`
    /// is one package, any other a Custom Scenery folder whose libraries
    /// follow in its order; one with neither is an error).
    pub fn packages(
        package: Option<&Path>,
        libraries: &[PathBuf],
        conditions: Conditions,
    ) -> Result<Scenery, SceneryError> {
        let mut index = LibraryIndex::default();
        let mut errors = Vec::new();
        for dir in libraries {
            if let Err(source) = std::fs::metadata(dir) {
                return Err(SceneryError::LibraryFolder {
                    dir: dir.clone(),
                    source,
                });
            }
            if dir.join("library.txt").is_file() {
                let p = LibraryIndex::load_package(dir, 0).map_err(|source| {
                    SceneryError::LibraryFile {
                        dir: dir.clone(),
                        source,
                    }
                })?;
                index.push(p);
                continue;
            }
            let found = Installation::open(dir)
                .ok()
                .map(|i| LibraryIndex::from_installation(&i));
            match found {
                Some((sub, sub_errors)) if !sub.packages.is_empty() => {
                    errors.extend(sub_errors);
                    for p in sub.packages.into_iter().filter(|p| p.enabled) {
                        index.push(p);
                    }
                }
                _ => return Err(SceneryError::NoLibrary { dir: dir.clone() }),
            }
        }
        Ok(Scenery::new(index, None, conditions, errors).with_package(package))
    }

    /// The same scenery with every DSF taken as a file of `package` (its
    /// own files first), whatever folder it is in; `None` keeps each DSF's
    /// own package.
    pub fn with_package(mut self, package: Option<&Path>) -> Scenery {
        self.package = package.map(Path::to_path_buf);
        self
    }

    /// The same scenery placing without art when `read` is false: objects
    /// as points, trees at the fixed spacing, no art fields (as before art
    /// was read; `agkit place --no-art`).
    pub fn with_art(mut self, read: bool) -> Scenery {
        self.read_art = read;
        self
    }

    /// The same scenery reading no file outside the folder `dir` (`agkit
    /// serve`), every file read within `limits`: a DSF path, an autogen
    /// asset, a definition, an art file or a texture whose file (judged by
    /// its canonical path: no `..`, no symlink leaving it) is outside
    /// `dir` is taken as missing, in the same words as one that does not
    /// exist, and a package's own `library.txt` outside `dir` is not read.
    /// The art read so far is forgotten.
    pub fn within(self, dir: &Path, limits: crate::limits::Limits) -> Scenery {
        self.within_all(super::art::Within::new(dir), limits)
    }

    /// [`Scenery::within`] several folders: the served PATH, and the
    /// installation or library packages the previewer was given, whose
    /// files the user allowed by naming them.
    pub fn within_all(
        mut self,
        within: super::art::Within,
        limits: crate::limits::Limits,
    ) -> Scenery {
        self.art = ArtStore::new(limits).within_all(within.clone());
        self.within = Some(within);
        self
    }

    /// True when `file` may be read: inside the folder of
    /// [`Scenery::within`], or anywhere when none was given.
    fn may_read(&self, file: &Path) -> bool {
        super::art::inside(file, self.within.as_ref())
    }

    /// Whether placement reads the art the assets name.
    pub fn reads_art(&self) -> bool {
        self.read_art
    }

    /// The art files read so far, and each asset's art per tile.
    pub fn art(&self) -> &ArtStore {
        &self.art
    }

    /// The libraries art is looked up in at `tile`, handed to `f`: `None`
    /// when no library was given at all (neither an installation nor a
    /// library package).
    fn with_libraries<R>(&self, tile: Option<Tile>, f: impl FnOnce(Option<&Libraries>) -> R) -> R {
        if self.installation.is_none() && self.index.packages.is_empty() {
            return f(None);
        }
        f(Some(&Libraries {
            index: &self.index,
            tile,
            conditions: &self.conditions,
        }))
    }

    /// The art of `asset`, read from `file` and placed on `tile`, found
    /// beside the file or in the libraries (read once, see
    /// [`super::art`]): what placement's `Params::art` takes.
    pub fn asset_art(
        &self,
        file: &Path,
        asset: &crate::xp::model::Asset,
        tile: Option<Tile>,
    ) -> Arc<crate::scenery::art::Art> {
        self.with_libraries(tile, |libs| self.art.art_for(file, asset, libs))
    }

    /// What `agkit check` says of `bytes`, read from `file`: the format's
    /// own checks ([`crate::check::check_bytes`]) and, for a text without
    /// errors, the art it names ([`Scenery::art_diagnostics`]) when `art`
    /// is [`ArtCheck::Named`] ([`ArtCheck::Skipped`] for a text from
    /// standard input or from memory: it names nothing beside it). Returns
    /// the text (for pointing at lines) and the diagnostics.
    pub fn check_bytes(
        &self,
        file: &Path,
        bytes: &[u8],
        art: ArtCheck,
    ) -> (Option<String>, Vec<crate::diag::Diagnostic>) {
        let (text, asset, mut diags) = crate::check::check_bytes_model(file, bytes);
        if let Some(t) = &text
            && art == ArtCheck::Named
            && !diags.iter().any(|d| d.is_error())
        {
            // An asset is followed from the model just read, not parsed
            // again (half the time of `check` of a folder of assets).
            match &asset {
                Some(a) => diags.extend(self.with_libraries(None, |libs| {
                    super::art::check::asset_diagnostics(&self.art, file, t, a, libs, None)
                })),
                None => diags.extend(self.art_diagnostics(file, t)),
            }
        }
        (text, diags)
    }

    /// What `agkit check` says of the art the file at `file` (whose text
    /// is `text`) names: [`super::art::file_diagnostics`] with these
    /// libraries.
    pub fn art_diagnostics(&self, file: &Path, text: &str) -> Vec<crate::diag::Diagnostic> {
        self.with_libraries(None, |libs| {
            super::art::file_diagnostics(&self.art, file, text, libs, None)
        })
    }

    /// The installation, when opened on one.
    pub fn install(&self) -> Option<&Installation> {
        self.installation.as_ref()
    }

    /// Every library, highest priority first.
    pub fn index(&self) -> &LibraryIndex {
        &self.index
    }

    /// The dataref values and season assumed.
    pub fn conditions(&self) -> &Conditions {
        &self.conditions
    }

    /// Libraries that could not be read and are left out: what to warn
    /// about.
    pub fn load_errors(&self) -> &[LoadError] {
        &self.load_errors
    }

    /// A warning when the season names none of the libraries' seasons
    /// ([`LibraryIndex::season_warning`]).
    pub fn season_warning(&self) -> Option<String> {
        self.index.season_warning(&self.conditions)
    }

    /// The package a DSF belongs to: its name and folder — the package
    /// given, else the installation's package holding the file, else the
    /// folder above `Earth nav data` (or the DSF's own folder).
    pub fn package_of(&self, dsf: &Path) -> (String, PathBuf) {
        if let Some(s) = &self.package {
            return (folder_name(s), s.clone());
        }
        if let Some(p) = self.installation.as_ref().and_then(|i| i.package_of(dsf)) {
            return (p.name.clone(), p.path.clone());
        }
        let p = default_package(dsf);
        (folder_name(&p), p)
    }

    /// What the library path `path` resolves to at `tile`: the candidate
    /// files, the package of each, the rule that made them win and why
    /// every other export lost.
    pub fn resolve(&self, path: &str, tile: Tile) -> Resolution {
        self.index.resolve(path, tile, &self.conditions)
    }

    /// What `path`, as the DSF `dsf` names it, resolves to at `tile`: a
    /// file of the DSF's package first, then the libraries (the package's
    /// own `library.txt` on top when given packages one by one).
    pub fn resolve_in(&self, dsf: &Path, path: &str, tile: Tile) -> Resolution {
        self.resolve_all(dsf, tile, std::iter::once(path))
            .remove(path)
            .unwrap_or_else(|| self.resolve(path, tile))
    }

    /// [`Scenery::resolve_in`] for every distinct path of one DSF.
    pub(crate) fn resolve_all<'a>(
        &self,
        dsf: &Path,
        tile: Tile,
        paths: impl Iterator<Item = &'a str>,
    ) -> HashMap<String, Resolution> {
        self.resolve_all_of(self.package_of(dsf), tile, paths)
    }

    /// The package a file of its own lies in: the package given, when the
    /// file is inside it; else the installation's package holding it;
    /// else the folder above its `Earth nav data` ([`default_package`]).
    /// A base mesh given apart from the scenery (`--mesh`) resolves its
    /// terrain in its own package, not in the overlay's.
    pub(crate) fn own_package_of(&self, file: &Path) -> (String, PathBuf) {
        if let Some(s) = &self.package
            && file.starts_with(s)
        {
            return (folder_name(s), s.clone());
        }
        if let Some(p) = self.installation.as_ref().and_then(|i| i.package_of(file)) {
            return (p.name.clone(), p.path.clone());
        }
        let p = default_package(file);
        (folder_name(&p), p)
    }

    /// [`Scenery::resolve_all`] in the package `(name, root)`.
    pub(crate) fn resolve_all_of<'a>(
        &self,
        (name, root): (String, PathBuf),
        tile: Tile,
        paths: impl Iterator<Item = &'a str>,
    ) -> HashMap<String, Resolution> {
        let index = self.index_for(&root);
        let mut out = HashMap::new();
        for a in paths {
            if !out.contains_key(a) {
                let mut r =
                    resolve::resolve(&index, Some((&name, &root)), a, tile, &self.conditions);
                // A file outside the folder given to `within` is missing,
                // as one that is not there: a file of the package is then
                // no candidate, a library's export one whose file is
                // missing.
                if self.within.is_some() {
                    r.candidates
                        .retain(|c| c.line.is_some() || self.may_read(&c.file));
                    for c in &mut r.candidates {
                        c.exists = c.exists && self.may_read(&c.file);
                    }
                }
                out.insert(a.to_string(), r);
            }
        }
        out
    }

    /// The index a DSF of the package at `root` resolves through.
    pub(crate) fn index_for(&self, root: &Path) -> Arc<LibraryIndex> {
        let has_own = self.installation.is_none()
            && root.join("library.txt").is_file()
            && self.may_read(&root.join("library.txt"))
            && !self.index.packages.iter().any(|p| p.root == root);
        if !has_own {
            return Arc::clone(&self.index);
        }
        let mut cache = self.own.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry(root.to_path_buf()).or_insert_with(|| {
            let mut index = LibraryIndex::default();
            if let Ok(p) = LibraryIndex::load_package(root, 0) {
                index.push(p);
            }
            for p in &self.index.packages {
                index.push(p.clone());
            }
            Arc::new(index)
        }))
    }

    /// Why `r`, a path of the DSF `dsf`, resolved nowhere, naming where
    /// agkit looked.
    pub fn why_unresolved(&self, dsf: &Path, r: &Resolution) -> String {
        let (_, root) = self.package_of(dsf);
        let libs = self.index.packages.iter().filter(|p| p.enabled).count();
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

    /// The autogen asset file at `path`, read and checked once for the
    /// life of this value ([`AssetFile::read`]).
    pub fn asset(&self, path: &Path) -> Arc<AssetFile> {
        let lock = || self.assets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(a) = lock().get(path) {
            return Arc::clone(a);
        }
        // Read outside the lock: another thread may read the same file
        // meanwhile, and the first one kept wins.
        let read = Arc::new(AssetFile::read(path));
        Arc::clone(lock().entry(path.to_path_buf()).or_insert(read))
    }

    /// What in the installation does not resolve or is misconfigured.
    /// `progress` is called once per DSF read.
    pub fn check(&self, progress: &(dyn Fn() + Sync)) -> Result<CheckReport, SceneryError> {
        let inst = self
            .installation
            .as_ref()
            .ok_or(SceneryError::NoInstallation("`check`"))?;
        Ok(check::check(
            inst,
            &self.index,
            &self.load_errors,
            &self.conditions,
            &self.art,
            progress,
        ))
    }
}

/// The package folder of a DSF at `<package>/Earth nav data/<dir>/<tile>.dsf`,
/// else the DSF's own folder.
pub fn default_package(dsf: &Path) -> PathBuf {
    let parent = dsf.parent().unwrap_or(Path::new("."));
    match parent.parent() {
        Some(e)
            if e.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("Earth nav data")) =>
        {
            e.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        }
        _ => parent.to_path_buf(),
    }
}
