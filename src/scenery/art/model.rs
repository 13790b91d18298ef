//! The art an asset names, as the scenery found and read it: one
//! [`ArtFile`] per `OBJECT`, `FACADE`, `VEGETATION`, `TEXTURE` (and a whole
//! tile's `.pol` or `.lin`), each found and read ([`ArtState::Found`]) or
//! not (missing, a library path not looked up, or a file with errors), with
//! the textures it names ([`TextureFile`]). The art store
//! ([`super::ArtStore`]) makes them; placement follows them
//! ([`crate::place::art`]) and the views draw with them.

use crate::fac::Facade;
use crate::forest::Forest;
use crate::geom::Box3;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

crate::diag::rules! {
    ART_MISSING = "AG0085", Warning, "an art file the asset names (OBJECT, FACADE, VEGETATION, TEXTURE*, or a texture or object those name) is not found beside the file naming it nor in the libraries given";
    ART_UNCHECKED = "AG0086", Note, "an art file named by a library path is not beside the file naming it and no library was given to look in (--library or --xplane)";
    ART_INVALID = "AG0087", Warning, "an art file the asset names is found but cannot be read (it has errors)";
}

pub use crate::kinds::ArtKind;

/// Whether an art file was found and read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArtState {
    /// Found and read.
    Found,
    /// Found neither beside the file naming it nor in the libraries given.
    Missing,
    /// A library path that is not beside the file naming it, with no
    /// library given to look in: it may well exist.
    Unchecked,
    /// Found, but it has errors.
    Invalid,
}

impl ArtState {
    /// The state as its JSON spells it (`found`, `missing`, `unchecked`,
    /// `invalid`).
    pub fn as_str(self) -> &'static str {
        match self {
            ArtState::Found => "found",
            ArtState::Missing => "missing",
            ArtState::Unchecked => "unchecked",
            ArtState::Invalid => "invalid",
        }
    }

    /// The diagnostic code of an art file in this state (`None` when
    /// found).
    pub fn code(self) -> Option<&'static str> {
        match self {
            ArtState::Found => None,
            ArtState::Missing => Some(codes::ART_MISSING),
            ArtState::Unchecked => Some(codes::ART_UNCHECKED),
            ArtState::Invalid => Some(codes::ART_INVALID),
        }
    }

    /// [`ArtState::code`] as the codes of a placement `Warning` (none when found).
    pub fn codes(self) -> &'static [&'static str] {
        match self {
            ArtState::Found => &[],
            ArtState::Missing => &[codes::ART_MISSING],
            ArtState::Unchecked => &[codes::ART_UNCHECKED],
            ArtState::Invalid => &[codes::ART_INVALID],
        }
    }

    /// How messages say it: `found`, `not found`, `not looked up`,
    /// `unreadable`.
    pub fn describe(self) -> &'static str {
        match self {
            ArtState::Found => "found",
            ArtState::Missing => "not found",
            ArtState::Unchecked => "not looked up",
            ArtState::Invalid => "unreadable",
        }
    }
}

/// What a texture is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextureRole {
    /// An asset's ground tiles (its `TEXTURE`).
    Ground,
    /// An object's triangles (its `TEXTURE`).
    Object,
    /// A facade's walls.
    Wall,
    /// A facade's roof (the roof shader's texture, else the wall's).
    Roof,
    /// A forest's trees (its 2-D `TEXTURE`).
    Forest,
    /// A forest's 3-D trees (the `TEXTURE` after `SHADER_3D`).
    Forest3d,
    /// A draped polygon's texture (the `.pol`'s `TEXTURE`).
    Draped,
    /// A painted line's texture (the `.lin`'s `TEXTURE`).
    Line,
    /// A terrain type's base texture (the `.ter`'s `BASE_TEX` or
    /// `BASE_TEX_NOWRAP`), drawn on the base mesh's patches.
    Terrain,
}

/// Decodes one texture the art store found. Placement and the views
/// never open a file: they decode through this.
pub trait ImageSource: Send + Sync + std::fmt::Debug {
    /// The texture's pixels.
    fn decode(&self) -> Result<crate::texture::Image, crate::texture::OpenError>;
}

/// A texture found: its file and what decodes it.
#[derive(Debug, Clone)]
pub struct TextureHandle {
    file: PathBuf,
    source: Arc<dyn ImageSource>,
}

impl TextureHandle {
    /// The handle of the texture `file`, decoded by `source`.
    pub fn new(file: PathBuf, source: Arc<dyn ImageSource>) -> TextureHandle {
        TextureHandle { file, source }
    }

    /// The file it decodes (for names and messages; never opened by
    /// the caller).
    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// Its file name.
    pub fn name(&self) -> String {
        self.file.file_name().map_or_else(
            || self.file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// The texture's pixels.
    pub fn decode(&self) -> Result<crate::texture::Image, crate::texture::OpenError> {
        self.source.decode()
    }
}

impl PartialEq for TextureHandle {
    fn eq(&self, other: &TextureHandle) -> bool {
        self.file == other.file
    }
}

/// A texture an art file names, as the art store resolved it.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureFile {
    /// What it is drawn on.
    pub role: TextureRole,
    /// The path as the art names it.
    pub path: String,
    /// The file naming it.
    pub naming: PathBuf,
    /// How it resolved, or why it did not.
    pub how: String,
    /// The texture, when found and its header reads.
    pub found: Option<TextureHandle>,
}

/// One art file an asset names, found and read or not.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtFile<T> {
    /// The path as the asset names it.
    pub path: String,
    /// The file it resolved to (`None` when it was not found).
    pub file: Option<PathBuf>,
    /// Found and read, or why not.
    pub state: ArtState,
    /// How it resolved (beside the asset, or the library rule), or why it
    /// did not (the paths tried, the error).
    pub how: String,
    /// What placement reads of it, when found and read.
    pub value: Option<Arc<T>>,
    /// The textures it names, resolved (the views draw with them).
    pub textures: Vec<TextureFile>,
}

impl<T> ArtFile<T> {
    /// `path` found as `file` and read as `value`, with no textures
    /// resolved yet (art built by hand: tests, tools that read their own).
    ///
    /// ```
    /// use agkit::place::art::{ArtFile, ArtState};
    /// let f = ArtFile::found("a.obj", "/art/a.obj", 3);
    /// assert_eq!((f.get(), f.state), (Some(&3), ArtState::Found));
    /// ```
    pub fn found(path: &str, file: impl Into<PathBuf>, value: T) -> ArtFile<T> {
        ArtFile {
            path: path.to_string(),
            file: Some(file.into()),
            state: ArtState::Found,
            how: String::new(),
            value: Some(Arc::new(value)),
            textures: Vec::new(),
        }
    }

    /// The value when the file was found and read.
    pub fn get(&self) -> Option<&T> {
        self.value.as_deref()
    }

    /// Its texture for `role`, as resolved.
    pub fn texture(&self, role: TextureRole) -> Option<&TextureFile> {
        self.textures.iter().find(|t| t.role == role)
    }
}

/// What placement reads of an OBJ8 object (the rest of the file is not
/// kept).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ObjShape {
    /// [`crate::obj::Obj::footprint`]: `[x, z]` points in the object's
    /// frame, counter-clockwise in (x, z); empty without solid triangles.
    pub footprint: Vec<[f64; 2]>,
    /// [`crate::obj::Obj::height`].
    pub height: Option<f64>,
    /// [`crate::obj::Obj::bounds`].
    pub bounds: Option<Box3>,
    /// The textures it names, as written (relative to the object).
    pub textures: Vec<String>,
    /// Its `TEXTURE`, as written.
    pub texture: Option<String>,
    /// Its static mesh ([`crate::obj::mesh::mesh`]), which the views draw.
    pub mesh: crate::geom::Mesh,
}

impl ObjShape {
    /// The shape of `obj`.
    pub fn of(obj: &crate::obj::Obj) -> ObjShape {
        ObjShape {
            footprint: obj.footprint(),
            height: obj.height(),
            bounds: obj.bounds(),
            textures: obj.textures.values().cloned().collect(),
            texture: obj.texture("TEXTURE").map(str::to_string),
            mesh: crate::obj::mesh::mesh(obj),
        }
    }
}

/// What the tiles of an asset are drawn with: its `TEXTURE` (the file in
/// [`ArtFile::file`]) and the `TEXTURE_SCALE` its tile coordinates count
/// pixels in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TileTexture {
    /// `TEXTURE_SCALE` width and height in pixels (`[1, 1]` without it,
    /// as [`crate::xp::model::Common::texture_scale_px`] says).
    pub scale: [f64; 2],
}

impl TileTexture {
    /// [`TileTexture::scale`], `[1, 1]` when a side is not positive (as
    /// WorldEditor reads an AGP).
    pub fn scale_or_one(&self) -> [f64; 2] {
        if self.scale[0] > 0.0 && self.scale[1] > 0.0 {
            self.scale
        } else {
            [1.0, 1.0]
        }
    }
}

/// The art of one asset: its `OBJECT`s and `FACADE`s by index and its
/// `VEGETATION`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Art {
    /// `OBJECT` paths, by index.
    pub objects: Vec<ArtFile<ObjShape>>,
    /// `FACADE` paths, by index.
    pub facades: Vec<ArtFile<Facade>>,
    /// The `VEGETATION` forest.
    pub forest: Option<ArtFile<Forest>>,
    /// The tiles' `TEXTURE` (textured pictures and 3-D scenes draw with
    /// it, [`TextureRole::Ground`]; placement does not read it).
    pub texture: Option<ArtFile<TileTexture>>,
    /// The `.pol` or `.lin` of a whole tile's draped polygons or lines,
    /// with its texture ([`TextureRole::Draped`], [`TextureRole::Line`]).
    pub draped: Option<ArtFile<crate::draped::DrapedArt>>,
}

impl Art {
    /// The forest, when found and read.
    pub fn forest(&self) -> Option<&Forest> {
        self.forest.as_ref().and_then(ArtFile::get)
    }

    /// The forest's texture, when found (pictures colour tree crowns
    /// with it).
    pub fn forest_texture(&self) -> Option<&TextureHandle> {
        self.forest
            .as_ref()?
            .texture(TextureRole::Forest)?
            .found
            .as_ref()
    }

    /// The tiles' texture and its `TEXTURE_SCALE`, when found.
    pub fn ground_texture(&self) -> Option<(&TextureHandle, [f64; 2])> {
        let t = self.texture.as_ref()?;
        let h = t.texture(TextureRole::Ground)?.found.as_ref()?;
        Some((h, t.get()?.scale))
    }

    /// The draped polygon definition, when found and read.
    pub fn pol(&self) -> Option<&crate::draped::Pol> {
        match self.draped.as_ref()?.get()? {
            crate::draped::DrapedArt::Pol(p) => Some(p),
            _ => None,
        }
    }

    /// The painted line definition, when found and read.
    pub fn lin(&self) -> Option<&crate::draped::Lin> {
        match self.draped.as_ref()?.get()? {
            crate::draped::DrapedArt::Lin(l) => Some(l),
            _ => None,
        }
    }

    /// The texture of a draped polygon or painted line, as resolved
    /// (found or not), when its definition names one.
    pub fn draped_texture(&self) -> Option<&TextureFile> {
        let d = self.draped.as_ref()?;
        d.texture(TextureRole::Draped)
            .or_else(|| d.texture(TextureRole::Line))
    }

    /// The facade an item names by path.
    pub(crate) fn facade(&self, path: &str) -> Option<&ArtFile<Facade>> {
        self.facades.iter().find(|f| f.path == path)
    }
}
