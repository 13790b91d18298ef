//! Finding and reading the art an asset names, as the simulator finds it:
//! every `OBJECT`, `FACADE`, `VEGETATION` and `TEXTURE*` of an autogen
//! asset, every texture of an object, facade or forest, every object of a
//! facade.
//!
//! **Where a path is looked for** ([`locate`]), the rule in
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
//!    paths of a DSF, [`super::resolve`]). Textures are never library
//!    paths.
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
//!
//! **Reading.** An [`ArtStore`] reads each file once, by the file it
//! resolved to (objects keep only their [`ObjShape`]; textures only their
//! header is read), and keeps the [`Art`] of each asset per tile, so a busy
//! tile placing one asset a thousand times reads its art once. It is
//! `Send + Sync`: tiles placed in parallel share it.

use super::library;
use super::resolve::{self, Conditions, LibraryIndex, Tile};
use crate::diag::{Diagnostic, Location, Severity};
use crate::fac::Facade;
use crate::forest::Forest;
use crate::limits::Limits;
use crate::place::art::{
    Art, ArtFile, ArtState, ImageSource, ObjShape, TextureFile, TextureHandle, TextureRole, codes,
};
use crate::xp::model::Asset;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

pub use crate::place::art::ArtKind;

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
fn library_style(dir: &Path, rel: &str, within: Option<&Path>) -> bool {
    let mut parts = rel.split('/').filter(|p| !p.is_empty() && *p != ".");
    match (parts.next(), parts.next()) {
        (Some(first), Some(_)) if first != ".." => {
            super::install::child_ci(dir, first).is_none_or(|p| !p.is_dir() || !inside(&p, within))
        }
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

/// True when `file` is inside the canonical folder `within` (judged by its
/// canonical path: no `..`, no symlink leaving it), or when there is no
/// such folder.
pub fn inside(file: &Path, within: Option<&Path>) -> bool {
    within.is_none_or(|dir| file.canonicalize().is_ok_and(|c| c.starts_with(dir)))
}

/// [`locate`], seeing only the files inside the canonical folder `within`
/// when given (`agkit serve`): a file outside it, reached by `..`, by a
/// backslash or through a symlink, is treated exactly as a missing one —
/// the same state and the same words — so the answer never tells whether
/// it exists.
pub fn locate_within(
    naming: &Path,
    path: &str,
    kind: ArtKind,
    libs: Option<&Libraries>,
    within: Option<&Path>,
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
        .filter_map(|n| resolve::find_file(dir, n))
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
        if library_style(dir, &rel, within) {
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
                    resolve::find_file(&p.root, &e.real_path)
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
                        crate::out::count(n, "package")
                    );
                }
            }
        }
    }
    out
}

/// A texture file the store found, decoded when a view asks
/// ([`crate::texture::open`]: the input gate, then the decoder's limits).
#[derive(Debug)]
struct FileImage {
    file: PathBuf,
    limits: Limits,
}

impl ImageSource for FileImage {
    fn decode(&self) -> Result<crate::texture::Image, crate::texture::OpenError> {
        crate::texture::open(&self.file, &self.limits)
    }
}

/// An art file as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// An object's shape.
    Object(Arc<ObjShape>),
    /// A facade.
    Facade(Arc<Facade>),
    /// A forest.
    Forest(Arc<Forest>),
    /// A texture whose header reads.
    Texture,
    /// The file cannot be read or has errors: why.
    Failed(String),
}

impl Read {
    /// The paths the file names, each with its kind: an object's and a
    /// forest's textures, a facade's textures and objects.
    pub fn names(&self) -> Vec<(String, ArtKind)> {
        let tex = |v: &mut Vec<(String, ArtKind)>, t: &mut dyn Iterator<Item = &String>| {
            v.extend(
                t.filter(|p| !p.trim().is_empty())
                    .map(|p| (p.clone(), ArtKind::Texture)),
            );
        };
        let mut v = Vec::new();
        match self {
            Read::Object(o) => tex(&mut v, &mut o.textures.iter()),
            Read::Forest(f) => tex(&mut v, &mut f.textures.values()),
            Read::Facade(f) => {
                tex(&mut v, &mut f.textures.values());
                v.extend(
                    f.objects
                        .iter()
                        .chain(&f.scraper_objects)
                        .map(|p| (p.clone(), ArtKind::Object)),
                );
            }
            Read::Texture | Read::Failed(_) => {}
        }
        v.sort();
        v.dedup();
        v
    }
}

/// Bytes of a texture read to check its header.
const TEXTURE_HEAD: u64 = 4096;

/// Reads `file` as art of `kind`, bounded by `limits`.
pub fn read(file: &Path, kind: ArtKind, limits: &Limits) -> Read {
    let name = file.display().to_string();
    if kind == ArtKind::Texture {
        use std::io::Read as _;
        let mut head = Vec::new();
        let opened = crate::fsutil::open_input(file, "a texture")
            .map_err(|e| e.to_string())
            .and_then(|f| {
                f.take(TEXTURE_HEAD)
                    .read_to_end(&mut head)
                    .map_err(|e| format!("{name}: {e}"))
            });
        return match opened.and_then(|_| crate::texture::probe(&head).map_err(|e| e.to_string())) {
            Ok(_) => Read::Texture,
            Err(e) => Read::Failed(e),
        };
    }
    let bytes = match crate::fsutil::read_input(file, kind.noun(), limits.max_input_bytes) {
        Ok(b) => b,
        Err(e) => return Read::Failed(e.to_string()),
    };
    let first = |r: crate::diag::Refused| r.to_string();
    match kind {
        ArtKind::Object => crate::obj::read(&bytes, &name, limits)
            .map(|o| Read::Object(Arc::new(ObjShape::of(&o))))
            .unwrap_or_else(|e| Read::Failed(first(e))),
        ArtKind::Facade => crate::fac::read(&bytes, &name, limits)
            .map(|f| Read::Facade(Arc::new(f)))
            .unwrap_or_else(|e| Read::Failed(first(e))),
        ArtKind::Forest => crate::forest::read(&bytes, &name, limits)
            .map(|f| Read::Forest(Arc::new(f)))
            .unwrap_or_else(|e| Read::Failed(first(e))),
        ArtKind::Texture => Read::Texture,
    }
}

/// One art file that could not be found or read, and the chain of files
/// that named it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtProblem {
    /// The paths from the asset's directive down to this one (the first
    /// is what the asset names; the last is this file).
    pub chain: Vec<String>,
    /// What the last path names.
    pub kind: ArtKind,
    /// Missing, not looked up, or unreadable.
    pub state: ArtState,
    /// Why it was not found, or why it does not read.
    pub how: String,
    /// The path tried beside the file naming it.
    pub tried: Option<PathBuf>,
}

impl ArtProblem {
    /// One line: `fountain.obj names texture fountain.dds: not found
    /// (…; tried …)`.
    pub fn message(&self) -> String {
        self.message_within(None)
    }

    /// [`ArtProblem::message`] with the path tried shown relative to
    /// `root` when inside it (an installation's reports).
    pub fn message_within(&self, root: Option<&Path>) -> String {
        let mut s = String::new();
        for (i, p) in self.chain.iter().enumerate() {
            if i + 1 == self.chain.len() {
                if i == 0 {
                    s.push_str(&format!("{} {p}", self.kind.noun()));
                } else {
                    s.push_str(&format!("names {} {p}", self.kind.noun()));
                }
            } else {
                s.push_str(&format!("{p} "));
            }
        }
        match &self.tried {
            Some(t) => format!(
                "{s}: {} ({}; tried {})",
                self.state.describe(),
                self.how,
                root.and_then(|r| t.strip_prefix(r).ok())
                    .unwrap_or(t)
                    .display()
            ),
            None => format!("{s}: {} ({})", self.state.describe(), self.how),
        }
    }

    /// The diagnostic for it at `location`, paths tried shown relative
    /// to `root` when given.
    pub fn diagnostic(&self, location: Location, root: Option<&Path>) -> Diagnostic {
        let (sev, code) = match self.state {
            ArtState::Unchecked => (Severity::Note, codes::ART_UNCHECKED),
            ArtState::Invalid => (Severity::Warning, codes::ART_INVALID),
            _ => (Severity::Warning, codes::ART_MISSING),
        };
        Diagnostic::new(sev, code, self.message_within(root), location)
    }
}

/// How deep [`ArtStore::problems`] follows names (asset → facade → its
/// object → its texture).
pub const MAX_DEPTH: usize = 4;

/// Cache key of an asset's art: the asset file, the tile, and whether
/// libraries were given.
type ArtKey = (PathBuf, Option<Tile>, bool);

/// Art read once per run and shared by every thread (see the module
/// docs).
#[derive(Debug, Default)]
pub struct ArtStore {
    limits: Limits,
    /// Files outside this folder are not read (`agkit serve`).
    within: Option<PathBuf>,
    files: Mutex<HashMap<(PathBuf, ArtKind), Arc<Read>>>,
    arts: Mutex<HashMap<ArtKey, Arc<Art>>>,
}

impl ArtStore {
    /// A store reading files within `limits`.
    pub fn new(limits: Limits) -> ArtStore {
        ArtStore {
            limits,
            ..ArtStore::default()
        }
    }

    /// The same store reading only files inside the folder `dir` (given
    /// canonical, judged by canonical paths): any other is missing, in the
    /// same words as a file that does not exist ([`locate_within`]; the
    /// previewer reads nothing outside its PATH, nor tells what is there).
    pub fn within(mut self, dir: &Path) -> ArtStore {
        self.within = Some(dir.to_path_buf());
        self
    }

    /// The file `file` read as `kind`, once for the life of the store.
    pub fn read(&self, file: &Path, kind: ArtKind) -> Arc<Read> {
        let key = (file.to_path_buf(), kind);
        let lock = || self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = lock().get(&key) {
            return Arc::clone(r);
        }
        // Read outside the lock; the first one kept wins.
        let r = Arc::new(read(file, kind, &self.limits));
        Arc::clone(lock().entry(key).or_insert(r))
    }

    /// How many distinct files were read so far.
    pub fn files_read(&self) -> usize {
        self.files.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// `path` located from `naming` and read.
    pub fn open(
        &self,
        naming: &Path,
        path: &str,
        kind: ArtKind,
        libs: Option<&Libraries>,
    ) -> (Located, Option<Arc<Read>>) {
        let mut at = locate_within(naming, path, kind, libs, self.within.as_deref());
        let read = at.file.as_ref().map(|f| self.read(f, kind));
        if let Some(Read::Failed(why)) = read.as_deref() {
            at.state = ArtState::Invalid;
            at.how = why.clone();
        }
        (at, read)
    }

    /// The art of `asset`, read from `file`: its objects, facades and
    /// forest, found beside it or in `libs`. Kept per asset file and tile.
    pub fn art_for(&self, file: &Path, asset: &Asset, libs: Option<&Libraries>) -> Arc<Art> {
        let key = (
            file.to_path_buf(),
            libs.and_then(|l| l.tile),
            libs.is_some(),
        );
        let lock = || self.arts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(a) = lock().get(&key) {
            return Arc::clone(a);
        }
        let from = (file, libs);
        let c = &asset.common;
        let objects = c
            .objects
            .iter()
            .map(|o| self.object_file(file, &o.value, libs))
            .collect();
        let facades = c
            .facades
            .iter()
            .map(|f| {
                one(
                    self,
                    from,
                    &f.value,
                    ArtKind::Facade,
                    |r| match r {
                        Read::Facade(s) => Some(Arc::clone(s)),
                        _ => None,
                    },
                    facade_textures,
                )
            })
            .collect();
        let forest = c.vegetation.as_ref().map(|v| {
            one(
                self,
                from,
                &v.value,
                ArtKind::Forest,
                |r| match r {
                    Read::Forest(s) => Some(Arc::clone(s)),
                    _ => None,
                },
                forest_textures,
            )
        });
        // The tiles' texture and the forest's: located (and their headers
        // read) now, decoded only by a picture that draws them.
        let texture = c.texture.as_ref().map(|t| {
            let ground = self.texture(file, &t.value, TextureRole::Ground, libs);
            let (at, read) = self.open(file, &t.value, ArtKind::Texture, libs);
            let ok = matches!(read.as_deref(), Some(Read::Texture));
            ArtFile {
                path: at.path,
                file: at.file,
                state: at.state,
                how: at.how,
                value: ok.then(|| {
                    Arc::new(crate::place::art::TileTexture {
                        scale: c.texture_scale_px(),
                    })
                }),
                textures: vec![ground],
            }
        });
        let art = Arc::new(Art {
            objects,
            facades,
            forest,
            texture,
            draped: None,
        });
        Arc::clone(lock().entry(key).or_insert(art))
    }

    /// The OBJ `path` named by `naming`: located, read, and the textures
    /// it draws with resolved.
    pub fn object_file(
        &self,
        naming: &Path,
        path: &str,
        libs: Option<&Libraries>,
    ) -> ArtFile<ObjShape> {
        one(
            self,
            (naming, libs),
            path,
            ArtKind::Object,
            |r| match r {
                Read::Object(s) => Some(Arc::clone(s)),
                _ => None,
            },
            object_textures,
        )
    }

    /// The textures `names` (each with its role) named by `naming`, as
    /// [`ArtStore::texture`] finds them; blank names are skipped.
    pub fn textures(
        &self,
        naming: &Path,
        names: Vec<(TextureRole, String)>,
        libs: Option<&Libraries>,
    ) -> Vec<TextureFile> {
        names
            .into_iter()
            .filter(|(_, p)| !p.trim().is_empty())
            .map(|(role, p)| self.texture(naming, &p, role, libs))
            .collect()
    }

    /// The texture `path` named by `naming` for `role`: located (within
    /// the store's folder), its header read, and a handle that decodes it
    /// when it is found and reads.
    pub fn texture(
        &self,
        naming: &Path,
        path: &str,
        role: TextureRole,
        libs: Option<&Libraries>,
    ) -> TextureFile {
        let (at, read) = self.open(naming, path, ArtKind::Texture, libs);
        let found = match (read.as_deref(), &at.file) {
            (Some(Read::Texture), Some(f)) => Some(TextureHandle::new(
                f.clone(),
                Arc::new(FileImage {
                    file: f.clone(),
                    limits: self.limits,
                }),
            )),
            _ => None,
        };
        TextureFile {
            role,
            path: path.to_string(),
            naming: naming.to_path_buf(),
            how: at.how,
            found,
        }
    }

    /// Every art file `path` (named by `naming`) leads to that cannot be
    /// found or read: the file itself, else what it names, and so on down
    /// to [`MAX_DEPTH`] files.
    pub fn problems(
        &self,
        naming: &Path,
        path: &str,
        kind: ArtKind,
        libs: Option<&Libraries>,
    ) -> Vec<ArtProblem> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        self.walk(
            naming,
            path,
            kind,
            libs,
            &mut Vec::new(),
            &mut seen,
            &mut out,
        );
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        naming: &Path,
        path: &str,
        kind: ArtKind,
        libs: Option<&Libraries>,
        chain: &mut Vec<String>,
        seen: &mut std::collections::HashSet<PathBuf>,
        out: &mut Vec<ArtProblem>,
    ) {
        chain.push(path.to_string());
        let (at, read) = self.open(naming, path, kind, libs);
        if at.state != ArtState::Found {
            out.push(ArtProblem {
                chain: chain.clone(),
                kind,
                state: at.state,
                how: at.how,
                tried: at.tried,
            });
        } else if let (Some(file), Some(read)) = (&at.file, read)
            && chain.len() < MAX_DEPTH
            && seen.insert(file.clone())
        {
            for (p, k) in read.names() {
                self.walk(file, &p, k, libs, chain, seen, out);
            }
        }
        chain.pop();
    }

    /// Every art `asset` (read from `file`) names, directly or through
    /// what it names, that cannot be found or read, with the line of the
    /// asset's directive: `OBJECT`, `FACADE`, `VEGETATION`, `TEXTURE`,
    /// `TEXTURE_LIT`, `TEXTURE_NORMAL`.
    pub fn asset_problems(
        &self,
        file: &Path,
        asset: &Asset,
        libs: Option<&Libraries>,
    ) -> Vec<(usize, ArtProblem)> {
        let c = &asset.common;
        let mut named: Vec<(usize, &str, ArtKind)> = Vec::new();
        for t in [&c.texture, &c.texture_lit].into_iter().flatten() {
            named.push((t.line, &t.value, ArtKind::Texture));
        }
        if let Some(n) = &c.texture_normal {
            named.push((n.line, &n.value.path, ArtKind::Texture));
        }
        named.extend(
            c.objects
                .iter()
                .map(|o| (o.line, o.value.as_str(), ArtKind::Object)),
        );
        named.extend(
            c.facades
                .iter()
                .map(|f| (f.line, f.value.as_str(), ArtKind::Facade)),
        );
        named.extend(
            c.vegetation
                .iter()
                .map(|v| (v.line, v.value.as_str(), ArtKind::Forest)),
        );
        let mut out = Vec::new();
        for (line, path, kind) in named {
            if path.trim().is_empty() {
                continue;
            }
            for p in self.problems(file, path, kind, libs) {
                out.push((line, p));
            }
        }
        out
    }
}

/// The art diagnostics of a file `agkit check` reads: for an autogen
/// asset, every art it names that cannot be found or read, at its
/// directive's line; for an object, facade or forest, every texture (and a
/// facade's objects) it names, at the first line that names it. Paths
/// tried are shown relative to `root` when given.
pub fn file_diagnostics(
    store: &ArtStore,
    file: &Path,
    text: &str,
    libs: Option<&Libraries>,
    root: Option<&Path>,
) -> Vec<Diagnostic> {
    // One index of the text's lines for every diagnostic.
    let lines = crate::diag::LineIndex::new(text);
    let line_span = |line: usize| lines.span(text, line);
    match crate::check::classify(file, text.as_bytes()) {
        crate::check::FileKind::Text => {
            let (Some(asset), _) = crate::xp::parse_lenient(text) else {
                return Vec::new();
            };
            store
                .asset_problems(file, &asset, libs)
                .into_iter()
                .map(|(line, p)| p.diagnostic(Location::Span(line_span(line)), root))
                .collect()
        }
        crate::check::FileKind::Art(k) => {
            let kind = match k {
                crate::check::ArtKind::Obj => ArtKind::Object,
                crate::check::ArtKind::Facade => ArtKind::Facade,
                crate::check::ArtKind::Forest => ArtKind::Forest,
                crate::check::ArtKind::Texture => return Vec::new(),
            };
            let read = store.read(file, kind);
            let mut out = Vec::new();
            for (path, k) in read.names() {
                let at = text.find(path.as_str()).map_or(Location::File, |i| {
                    let line = text[..i].bytes().filter(|&c| c == b'\n').count() + 1;
                    Location::Span(line_span(line))
                });
                for p in store.problems(file, &path, k, libs) {
                    out.push(p.diagnostic(at.clone(), root));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// One path named by `file`, read as `kind`; `pick` takes what placement
/// keeps, `names` the textures the views draw it with.
fn one<T>(
    store: &ArtStore,
    (file, libs): (&Path, Option<&Libraries>),
    path: &str,
    kind: ArtKind,
    pick: fn(&Read) -> Option<Arc<T>>,
    names: fn(&T) -> Vec<(TextureRole, String)>,
) -> ArtFile<T> {
    let (at, read) = store.open(file, path, kind, libs);
    let value = read.as_deref().and_then(pick);
    let textures = match (&value, &at.file) {
        (Some(v), Some(f)) => store.textures(f, names(v), libs),
        _ => Vec::new(),
    };
    ArtFile {
        path: at.path,
        file: at.file,
        state: at.state,
        how: at.how,
        value,
        textures,
    }
}

/// The textures an object draws with: its `TEXTURE`.
pub fn object_textures(s: &crate::place::art::ObjShape) -> Vec<(TextureRole, String)> {
    s.texture
        .iter()
        .map(|t| (TextureRole::Object, t.clone()))
        .collect()
}

/// The textures a facade draws with: its wall texture and its roof
/// texture.
pub fn facade_textures(fac: &crate::fac::Facade) -> Vec<(TextureRole, String)> {
    let wall = fac.wall_texture().map(|t| (TextureRole::Wall, t));
    let roof = fac.roof_texture().map(|t| (TextureRole::Roof, t));
    wall.into_iter()
        .chain(roof)
        .map(|(r, t)| (r, t.to_string()))
        .collect()
}

/// The textures a forest draws with: its `TEXTURE`, and the 3-D trees'
/// (after `SHADER_3D`) when it has 3-D trees.
pub fn forest_textures(f: &crate::forest::Forest) -> Vec<(TextureRole, String)> {
    let flat = f.texture().map(|t| (TextureRole::Forest, t.to_string()));
    let solid = f
        .has_3d()
        .then(|| f.textures.get("texture_3d"))
        .flatten()
        .map(|t| (TextureRole::Forest3d, t.clone()));
    flat.into_iter().chain(solid).collect()
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

    #[test]
    fn spans_of_lines_end_at_any_break() {
        let t = "A\r\n1000\rAG_POINT\nOBJECT x.obj\n";
        let lines = crate::diag::LineIndex::new(t);
        let line_span = |n| lines.span(t, n);
        assert_eq!(&t[line_span(1)], "A");
        assert_eq!(&t[line_span(2)], "1000");
        assert_eq!(&t[line_span(4)], "OBJECT x.obj");
        assert_eq!(line_span(9), t.len()..t.len());
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
