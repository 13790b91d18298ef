//! Where the simulator finds an art path ([`locate`]), the rule in
//! `docs/scenery.md` ("Art an asset names"):
//!
//! 1. beside the file naming it: the path taken relative to that file's
//!    folder (`\` read as `/`, any letter case, `../` climbing as the
//!    operating system climbs). A texture is looked for with `.dds`, then
//!    `.png`, in place of the extension written, then as written: xptools'
//!    `process_texture_path` (`src/WEDCore/WED_ResourceMgr.cpp`) does the
//!    same, and X-Plane loads the DDS when there is one;
//! 2. else, for an object, facade or forest, as a library path through the
//!    libraries given ([`Libraries`]: the same index and rules as the
//!    paths of a DSF, [`crate::scenery::resolve`]). Textures are never
//!    library paths.
//!
//! The order is the one WorldEditor's resource manager (`GetObjRelative`)
//! says should be used — its own comment notes that trying the library
//! first resolves a path such as `objects/x.obj` to a different file than
//! the one beside the asset — and the one Laminar's library document gives
//! for a DSF: the package's own file first, then the library.
//!
//! Without libraries, a path that is not beside the file is
//! [`ArtState::Missing`] — unless it looks like a library path (a folder,
//! then a file, whose first folder is not beside the file naming it):
//! then it is [`ArtState::Unchecked`], since no library was given to look
//! in.

use super::super::library;
use super::super::resolve::{self, Conditions, LibraryIndex, Tile};
use crate::scenery::art::{ArtKind, ArtState};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The folders art is looked for in, each listed once for the life of the
/// index (an [`super::ArtStore`]: one `agkit check` run, one request) and
/// shared by every thread. Finding a name in other letter case
/// ([`super::super::install::child_ci`]) lists its folder; a folder of N
/// assets each naming art missing beside them was listed once per miss,
/// N² entries read (issue 48 item 2: 3,000 AGPs took 24 s). The answers
/// are `child_ci`'s: the exact spelling when it exists, else the first
/// entry of the folder's listing whose name matches without case.
///
/// A file created or removed while the index lives is seen (the exact
/// spelling is still looked up each time); a name in other letter case is
/// found as the folder was when first listed.
#[derive(Debug, Default)]
pub struct Folders {
    listed: Mutex<HashMap<PathBuf, Arc<Listing>>>,
}

/// One folder's entries, by name in lower case (ASCII letters, as
/// [`super::super::install::same_name`] compares them): the first entry
/// of that name in listing order.
#[derive(Debug, Default)]
struct Listing {
    first: HashMap<String, OsString>,
}

impl Listing {
    fn of(dir: &Path) -> Listing {
        let mut first = HashMap::new();
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = e.file_name();
            first
                .entry(name.to_string_lossy().to_ascii_lowercase())
                .or_insert(name);
        }
        Listing { first }
    }
}

impl Folders {
    /// The child of `dir` called `name` in any letter case, preferring the
    /// exact spelling: [`super::super::install::child_ci`]'s answer, the
    /// folder listed once.
    pub fn child_ci(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        let exact = dir.join(name);
        if exact.exists() {
            return Some(exact);
        }
        let listing = self.listing(dir);
        let found = listing.first.get(&name.to_ascii_lowercase())?;
        Some(dir.join(found))
    }

    /// The file `rel` under `root`: [`resolve::find_file`]'s answer, each
    /// folder listed once.
    pub fn find_file(&self, root: &Path, rel: &str) -> Option<PathBuf> {
        resolve::find_file_with(root, rel, &|d, n| self.child_ci(d, n))
    }

    /// How many folders were listed so far.
    pub fn listed(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Listing>>> {
        self.listed.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn listing(&self, dir: &Path) -> Arc<Listing> {
        if let Some(l) = self.lock().get(dir) {
            return Arc::clone(l);
        }
        // Listed outside the lock; the first one kept wins.
        let l = Arc::new(Listing::of(dir));
        Arc::clone(self.lock().entry(dir.to_path_buf()).or_insert(l))
    }
}

/// The libraries art is looked up in when it is not beside the file
/// naming it.
#[derive(Debug, Clone, Copy)]
pub struct Libraries<'a> {
    /// Every library package, highest priority first.
    pub index: &'a LibraryIndex,
    /// The tile the asset is placed on (regional exports count only on
    /// their tiles); `None` when there is none (`agkit check`): then any
    /// export of the path counts.
    pub tile: Option<Tile>,
    /// Dataref values and season.
    pub conditions: &'a Conditions,
}

/// Where a path led.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// The path as written.
    pub path: String,
    /// The file found.
    pub file: Option<PathBuf>,
    /// [`ArtState::Found`] (the file exists), `Missing` or `Unchecked`.
    pub state: ArtState,
    /// How it was found (`beside house.agp`, a library rule), or why it
    /// was not (naming the file beside which it was looked for, not its
    /// folder).
    pub how: String,
    /// The path tried beside the file naming it, when not found there.
    pub tried: Option<PathBuf>,
}

/// The alternatives X-Plane tries for a texture path: `.dds`, `.png` in
/// place of its extension, then as written.
fn texture_names(rel: &str) -> Vec<String> {
    let stem = match rel.rsplit_once('.') {
        Some((s, ext)) if !ext.contains('/') => s,
        _ => rel,
    };
    let mut v = vec![format!("{stem}.dds"), format!("{stem}.png")];
    if !v.iter().any(|n| n.eq_ignore_ascii_case(rel)) {
        v.push(rel.to_string());
    }
    v
}

/// True when `rel` reads as a library path seen from `dir`: a folder,
/// then a file, the first folder not beside the file (nor `..`; a folder
/// outside `within` counts as not there).
fn library_style(dir: &Path, rel: &str, within: Option<&Within>, folders: &Folders) -> bool {
    let mut parts = rel.split('/').filter(|p| !p.is_empty() && *p != ".");
    match (parts.next(), parts.next()) {
        (Some(first), Some(_)) if first != ".." => folders
            .child_ci(dir, first)
            .is_none_or(|p| !p.is_dir() || !inside(&p, within)),
        _ => false,
    }
}

/// The file name of `p` for messages.
fn name_of(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Where the simulator finds `path`, named by the file `naming` (see the
/// module docs).
pub fn locate(naming: &Path, path: &str, kind: ArtKind, libs: Option<&Libraries>) -> Located {
    locate_within(naming, path, kind, libs, None)
}

/// The folders reading is confined to (`agkit serve`: its PATH, and the
/// installation or libraries it was given), held canonical. A file is in
/// them when its canonical path is under one: no `..`, no symlink leaving
/// them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Within {
    dirs: Vec<PathBuf>,
}

impl Within {
    /// Reading confined to `dir` (made canonical when it exists).
    pub fn new(dir: &Path) -> Within {
        Within::default().and(dir)
    }

    /// `dir` allowed too.
    pub fn and(mut self, dir: &Path) -> Within {
        self.dirs
            .push(dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()));
        self
    }

    /// The folders, canonical, in the order given.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// True when `file` is inside one of the folders.
    pub fn holds(&self, file: &Path) -> bool {
        file.canonicalize()
            .is_ok_and(|c| self.dirs.iter().any(|d| c.starts_with(d)))
    }
}

/// True when `file` is inside the folders `within` ([`Within::holds`]),
/// or when reading is not confined.
pub fn inside(file: &Path, within: Option<&Within>) -> bool {
    within.is_none_or(|w| w.holds(file))
}

/// [`locate`], seeing only the files inside the folders `within`
/// when given (`agkit serve`): a file outside it, reached by `..`, by a
/// backslash or through a symlink, is treated exactly as a missing one —
/// the same state and the same words — so the answer never tells whether
/// it exists.
pub fn locate_within(
    naming: &Path,
    path: &str,
    kind: ArtKind,
    libs: Option<&Libraries>,
    within: Option<&Within>,
) -> Located {
    locate_indexed(naming, path, kind, libs, within, &Folders::default())
}

/// [`locate_within`], the folders looked in listed once by `folders`
/// (shared by every lookup of a run: the art store's).
pub fn locate_indexed(
    naming: &Path,
    path: &str,
    kind: ArtKind,
    libs: Option<&Libraries>,
    within: Option<&Within>,
    folders: &Folders,
) -> Located {
    let rel = library::normalize(path);
    let dir = naming.parent().unwrap_or(Path::new("."));
    let mut out = Located {
        path: path.to_string(),
        file: None,
        state: ArtState::Missing,
        how: String::new(),
        tried: None,
    };
    if rel.is_empty() {
        out.how = "no path given".into();
        return out;
    }
    if library::is_absolute(&rel) {
        out.how = "an absolute path, which X-Plane's libraries never follow".into();
        return out;
    }
    let names = match kind {
        ArtKind::Texture => texture_names(&rel),
        _ => vec![rel.clone()],
    };
    if let Some(f) = names
        .iter()
        .filter_map(|n| folders.find_file(dir, n))
        .find(|f| inside(f, within))
    {
        out.file = Some(f);
        out.state = ArtState::Found;
        out.how = format!("beside {}", name_of(naming));
        return out;
    }
    // Something by that name that is not a regular file (a FIFO, a
    // device, a folder): said so, not "not found".
    if let Some((p, what)) = names.iter().find_map(|n| {
        let p = dir.join(n);
        let meta = std::fs::metadata(&p).ok()?;
        (!meta.is_file() && inside(&p, within))
            .then(|| (p, crate::fsutil::kind_of(meta.file_type())))
    }) {
        out.state = ArtState::Invalid;
        out.how = format!("{what}, not a regular file");
        out.tried = Some(p);
        return out;
    }
    out.tried = Some(dir.join(&rel));
    let beside = format!("not beside {}", name_of(naming));
    if kind == ArtKind::Texture {
        out.how = format!("{beside} as written, .dds or .png");
        return out;
    }
    let Some(libs) = libs else {
        if library_style(dir, &rel, within, folders) {
            out.state = ArtState::Unchecked;
            out.how = format!("a library path {beside}: give --library or --xplane to look it up");
        } else {
            out.how = beside;
        }
        return out;
    };
    match libs.tile {
        Some(tile) => {
            let r = resolve::resolve(libs.index, None, path, tile, libs.conditions);
            if let Some(c) = r.pick(0).filter(|c| inside(&c.file, within)) {
                out.file = Some(c.file.clone());
                out.state = ArtState::Found;
                out.how = format!("library: {}", r.rule);
            } else {
                out.how = format!("{beside}; as a library path: {}", r.why_unresolved());
            }
        }
        None => {
            let found = libs
                .index
                .exports_of(&rel)
                .filter(|(_, p, e)| p.enabled && !e.is_absolute())
                .find_map(|(_, p, e)| {
                    folders
                        .find_file(&p.root, &e.real_path)
                        .filter(|f| inside(f, within))
                        .map(|f| (p, e, f))
                });
            match found {
                Some((p, e, f)) => {
                    out.file = Some(f);
                    out.state = ArtState::Found;
                    out.how = format!("library: exported by {}/library.txt:{}", p.name, e.line);
                }
                None => {
                    let n = libs.index.packages.iter().filter(|p| p.enabled).count();
                    out.how = format!(
                        "{beside}; no enabled library exports it (searched {})",
                        crate::ground::words::count(n, "package")
                    );
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_are_tried_as_dds_then_png() {
        assert_eq!(texture_names("a/b.png"), ["a/b.dds", "a/b.png"]);
        assert_eq!(texture_names("b.bmp"), ["b.dds", "b.png", "b.bmp"]);
        assert_eq!(texture_names("b"), ["b.dds", "b.png", "b"]);
        assert_eq!(texture_names("x.y/b"), ["x.y/b.dds", "x.y/b.png", "x.y/b"]);
    }

    /// Issue 48 item 2: the folder check listed a folder once per file it
    /// missed there. The index lists it once and answers as `child_ci`
    /// and `find_file` do: the exact spelling first, else the first entry
    /// matching without case, `..` climbing, a missing name missing.
    #[test]
    fn a_folder_listed_once_answers_as_child_ci() {
        use super::super::super::install::child_ci;
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("Objects/Sub")).unwrap();
        for f in [
            "Objects/House.OBJ",
            "Objects/Sub/a.png",
            "roof.DDS",
            "x.agp",
        ] {
            std::fs::write(root.join(f), "x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("gone"), root.join("Dangling.obj")).unwrap();
        let folders = Folders::default();
        for (dir, name) in [
            (root.to_path_buf(), "objects"),
            (root.to_path_buf(), "Objects"),
            (root.to_path_buf(), "ROOF.dds"),
            (root.to_path_buf(), "dangling.obj"),
            (root.to_path_buf(), "missing.obj"),
            (root.join("Objects"), "house.obj"),
            (root.join("nowhere"), "a.png"),
        ] {
            assert_eq!(
                folders.child_ci(&dir, name),
                child_ci(&dir, name),
                "{name} in {}",
                dir.display()
            );
        }
        for rel in [
            "objects/house.obj",
            "OBJECTS/SUB/A.PNG",
            "objects/sub/../house.obj",
            "../x/y.obj",
            "roof.dds",
            "objects/shed.obj",
        ] {
            assert_eq!(
                folders.find_file(root, rel),
                resolve::find_file(root, rel),
                "{rel}"
            );
        }
        let listed = folders.listed();
        for _ in 0..100 {
            assert!(folders.child_ci(root, "MISSING.OBJ").is_none());
        }
        assert_eq!(folders.listed(), listed, "a folder is listed once");
    }

    #[test]
    fn found_beside_the_file_missing_or_unchecked() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(d.path().join("objects")).unwrap();
        std::fs::write(d.path().join("objects/House.OBJ"), "x").unwrap();
        std::fs::write(d.path().join("roof.dds"), "x").unwrap();
        let asset = d.path().join("a.agp");
        let l = locate(&asset, "objects\\house.obj", ArtKind::Object, None);
        assert_eq!(l.state, ArtState::Found, "{l:?}");
        let l = locate(&asset, "roof.png", ArtKind::Texture, None);
        assert_eq!(l.file, Some(d.path().join("roof.dds")));
        let l = locate(&asset, "objects/shed.obj", ArtKind::Object, None);
        assert_eq!(l.state, ArtState::Missing);
        assert_eq!(l.tried, Some(d.path().join("objects/shed.obj")));
        assert_eq!(l.how, "not beside a.agp");
        let l = locate(&asset, "lib/g10/shed.obj", ArtKind::Object, None);
        assert_eq!(l.state, ArtState::Unchecked);
        let l = locate(&asset, "lib/g10/shed.png", ArtKind::Texture, None);
        assert_eq!(l.state, ArtState::Missing);
        let l = locate(&asset, "/etc/passwd", ArtKind::Object, None);
        assert_eq!(l.state, ArtState::Missing);
    }
}
