//! Reading art once: an [`ArtStore`] reads each file once, by the file it
//! resolved to (objects keep only their [`ObjShape`]; textures only their
//! header is read), resolves the textures each file draws with into
//! handles the views decode, and keeps the [`Art`] of each asset per tile,
//! so a busy tile placing one asset a thousand times reads its art once.
//! It is `Send + Sync`: tiles placed in parallel share it.

use super::super::resolve::Tile;
use super::locate::{Folders, Libraries, Located, Within, locate_indexed};
use crate::fac::Facade;
use crate::forest::Forest;
use crate::limits::Limits;
use crate::scenery::art::{
    Art, ArtFile, ArtKind, ArtState, ImageSource, ObjShape, TextureFile, TextureHandle, TextureRole,
};
use crate::xp::model::Asset;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

/// Cache key of an asset's art: the asset file, the tile, and whether
/// libraries were given.
type ArtKey = (PathBuf, Option<Tile>, bool);

/// Art read once per run and shared by every thread (see the module
/// docs).
#[derive(Debug, Default)]
pub struct ArtStore {
    limits: Limits,
    /// Files outside these folders are not read (`agkit serve`).
    within: Option<Within>,
    files: Mutex<HashMap<(PathBuf, ArtKind), Arc<Read>>>,
    arts: Mutex<HashMap<ArtKey, Arc<Art>>>,
    /// The folders looked in, each listed once.
    folders: Folders,
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
    /// same words as a file that does not exist ([`super::locate_within`]; the
    /// previewer reads nothing outside its PATH, nor tells what is there).
    pub fn within(self, dir: &Path) -> ArtStore {
        self.within_all(Within::new(dir))
    }

    /// The same store reading only files inside the folders `within`.
    pub fn within_all(mut self, within: Within) -> ArtStore {
        self.within = Some(within);
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

    /// The folders its lookups list, each once.
    pub fn folders(&self) -> &Folders {
        &self.folders
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
        let mut at = locate_indexed(
            naming,
            path,
            kind,
            libs,
            self.within.as_ref(),
            &self.folders,
        );
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
                    Arc::new(crate::scenery::art::TileTexture {
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
pub fn object_textures(s: &crate::scenery::art::ObjShape) -> Vec<(TextureRole, String)> {
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
