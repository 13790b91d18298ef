//! The art a scene draws, read once per file: whole OBJ8 objects (the
//! placement keeps only their footprints) and textures decoded and
//! embedded as PNG, their total bytes capped.
//!
//! A scene built inside [`confined`] (the previewer's, through
//! [`super::write_scene_within`]) reads no file outside the folder given:
//! an object or texture outside it — by `..`, a backslash or a symlink,
//! judged by canonical path — is missing, in the words of a missing file.

use super::model::{Image, Scene};
use crate::limits::Limits;
use crate::obj::Obj;
use crate::scenery::art::{ArtKind, inside, locate_within};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A texture embedded in the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Tex {
    /// Index into [`Scene::images`].
    pub image: usize,
    /// Width and height in pixels.
    pub size: [u32; 2],
    /// True when some pixel is less than half opaque (drawn as a MASK).
    pub alpha: bool,
}

std::thread_local! {
    /// The folder scenes built on this thread may read art from.
    static CONFINED: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// Runs `f` with every scene built on this thread by it reading art only
/// inside the canonical folder `dir`.
pub(crate) fn confined<R>(dir: &Path, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<PathBuf>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CONFINED.with(|c| *c.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(CONFINED.with(|c| c.borrow_mut().replace(dir.to_path_buf())));
    f()
}

/// Reads art for one scene.
pub(crate) struct Loader<'a> {
    limits: &'a Limits,
    /// Files outside this folder are missing ([`confined`]).
    within: Option<PathBuf>,
    objs: HashMap<PathBuf, Option<Arc<Obj>>>,
    textures: HashMap<PathBuf, Option<Tex>>,
    /// PNG bytes embedded so far.
    embedded: u64,
    /// Why some art is drawn in plain colours.
    pub warnings: Vec<String>,
}

impl<'a> Loader<'a> {
    /// A loader within `limits`.
    pub fn new(limits: &'a Limits) -> Loader<'a> {
        Loader {
            limits,
            within: CONFINED.with(|c| c.borrow().clone()),
            objs: HashMap::new(),
            textures: HashMap::new(),
            embedded: 0,
            warnings: Vec::new(),
        }
    }

    /// The object at `file`, read once (`None`, with a warning, when it
    /// cannot be read).
    pub fn obj(&mut self, file: &Path) -> Option<Arc<Obj>> {
        if let Some(o) = self.objs.get(file) {
            return o.clone();
        }
        let name = file.display().to_string();
        if !inside(file, self.within.as_deref()) {
            self.warnings.push(format!(
                "{}: object not found; drawn as a box",
                name_of(file)
            ));
            self.objs.insert(file.to_path_buf(), None);
            return None;
        }
        let read = crate::fsutil::read_input(file, "an object", self.limits.max_input_bytes)
            .map_err(|e| e.to_string())
            .and_then(|b| crate::obj::read(&b, &name, self.limits).map_err(|e| e.to_string()));
        let o = match read {
            Ok(o) => Some(Arc::new(o)),
            Err(e) => {
                self.warnings.push(format!("{e}; drawn as a box"));
                None
            }
        };
        self.objs.insert(file.to_path_buf(), o.clone());
        o
    }

    /// The texture `path` names from the file `naming` (found as X-Plane
    /// finds it: `.dds`, then `.png`, then as written), embedded once.
    pub fn texture_named(&mut self, scene: &mut Scene, naming: &Path, path: &str) -> Option<Tex> {
        if path.trim().is_empty() {
            return None;
        }
        let at = locate_within(naming, path, ArtKind::Texture, None, self.within.as_deref());
        match at.file {
            Some(f) => self.texture(scene, &f),
            None => {
                let key = naming.join(path);
                if !self.textures.contains_key(&key) {
                    self.warnings.push(format!(
                        "{}: texture {path} not found ({}); drawn in a plain colour",
                        naming.display(),
                        at.how
                    ));
                    self.textures.insert(key, None);
                }
                None
            }
        }
    }

    /// The texture at `file`, decoded and embedded once (`None`, with a
    /// warning, when it cannot be decoded or the scene's texture bytes are
    /// spent).
    pub fn texture(&mut self, scene: &mut Scene, file: &Path) -> Option<Tex> {
        if let Some(t) = self.textures.get(file) {
            return *t;
        }
        if !inside(file, self.within.as_deref()) {
            self.warnings.push(format!(
                "{}: texture not found; drawn in a plain colour",
                name_of(file)
            ));
            self.textures.insert(file.to_path_buf(), None);
            return None;
        }
        let t = self.embed(scene, file).map_err(|e| {
            self.warnings
                .push(format!("{}: {e}; drawn in a plain colour", file.display()))
        });
        let t = t.ok();
        self.textures.insert(file.to_path_buf(), t);
        t
    }

    /// Decodes `file` and embeds it as PNG.
    fn embed(&mut self, scene: &mut Scene, file: &Path) -> Result<Tex, String> {
        let img = crate::texture::open(file, self.limits)?;
        let alpha = img.rgba.chunks_exact(4).any(|p| p[3] < 128);
        let png = encode_png(&img).map_err(|e| format!("cannot encode as PNG: {e}"))?;
        let max = self.limits.max_scene_texture_bytes;
        if self.embedded + png.len() as u64 > max {
            return Err(format!(
                "the scene's textures would take more than {} bytes (the limit)",
                crate::out::thousands(usize::try_from(max).unwrap_or(usize::MAX))
            ));
        }
        self.embedded += png.len() as u64;
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        scene.images.push(Image { name, png });
        Ok(Tex {
            image: scene.images.len() - 1,
            size: [img.width, img.height],
            alpha,
        })
    }
}

/// The file name of `p`, for messages that must not show where it is.
fn name_of(p: &Path) -> String {
    p.file_name().map_or_else(
        || "(unnamed)".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// `img` as an 8-bit RGBA PNG.
fn encode_png(img: &crate::texture::Image) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut w = enc.write_header()?;
    w.write_image_data(&img.rgba)?;
    w.finish()?;
    Ok(out)
}
