//! The art of one DSF definition, found and read as a whole tile's
//! placement (`place::whole`) takes it: an OBJ, a facade or a
//! forest with its textures, or a `.pol`, `.lin` or `.str` (a string's
//! objects found beside it or in the libraries). Which file a definition
//! names is the resolver's (`Scenery::resolve_all`);
//! this reads the file it picked, once per run through the art store
//! ([`super::art::ArtStore`]).

use super::art::{
    Art, ArtFile, ArtKind, ArtState, Libraries, Read, TextureRole, facade_textures,
    forest_textures, object_textures,
};
use super::context::Scenery;
use crate::draped::{DrapedArt, DrapedKind};
use crate::limits::Limits;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a DSF definition is read as, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DefKind {
    /// An OBJ8 (`OBJECT`, `OBJECT_MSL`).
    Object,
    /// A facade (`.fac`).
    Facade,
    /// A forest (`.for`).
    Forest,
    /// A draped polygon, painted line or object string.
    Draped(DrapedKind),
}

/// The art of one definition, as placement reads it.
#[derive(Default)]
pub(crate) struct DefArt {
    /// For `Placement::art` (OBJ, facade, forest, a `.str`'s objects).
    pub art: Option<Arc<Art>>,
    /// The state of the definition's own file (`None`: art not looked up).
    pub state: Option<ArtState>,
    /// A `.pol`, `.lin` or `.str`, when read.
    pub draped: Option<DrapedArt>,
    /// Why the definition's own file could not be read (file, line and
    /// reason), when it could not.
    pub why: Option<String>,
}

impl Scenery {
    /// Finds and reads the art of `definition`, a definition of `kind`
    /// resolved to `file` (`None`: it resolves nowhere, `how` says why).
    pub(crate) fn definition_art(
        &self,
        kind: DefKind,
        definition: &str,
        file: Option<&Path>,
        how: &str,
        libs: Option<&Libraries>,
        limits: &Limits,
    ) -> DefArt {
        let missing = |state: ArtState| DefArt {
            state: Some(state),
            ..DefArt::default()
        };
        let Some(file) = file else {
            let mut d = missing(ArtState::Missing);
            let art = match kind {
                DefKind::Object => Art {
                    objects: vec![art_file(definition, None, how, None::<Arc<_>>)],
                    ..Art::default()
                },
                DefKind::Facade => Art {
                    facades: vec![art_file(definition, None, how, None::<Arc<_>>)],
                    ..Art::default()
                },
                DefKind::Forest => Art {
                    forest: Some(art_file(definition, None, how, None::<Arc<_>>)),
                    ..Art::default()
                },
                DefKind::Draped(_) => return d,
            };
            d.art = Some(Arc::new(art));
            return d;
        };
        let read = |kind: ArtKind| self.art().read(file, kind);
        let failed = |r: &Read| match r {
            Read::Failed(why) => Some(why.clone()),
            _ => None,
        };
        match kind {
            DefKind::Object => {
                let r = read(ArtKind::Object);
                let value = match &*r {
                    Read::Object(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(definition, Some(file), &how, value);
                if let Some(o) = a.get() {
                    a.textures = self.art().textures(file, object_textures(o), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        objects: vec![a],
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            DefKind::Facade => {
                let r = read(ArtKind::Facade);
                let value = match &*r {
                    Read::Facade(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(definition, Some(file), &how, value);
                if let Some(fac) = a.get() {
                    a.textures = self.art().textures(file, facade_textures(fac), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        facades: vec![a],
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            DefKind::Forest => {
                let r = read(ArtKind::Forest);
                let value = match &*r {
                    Read::Forest(s) => Some(Arc::clone(s)),
                    _ => None,
                };
                let how = failed(&r).unwrap_or_else(|| how.to_string());
                let mut a = art_file(definition, Some(file), &how, value);
                if let Some(f) = a.get() {
                    a.textures = self.art().textures(file, forest_textures(f), libs);
                }
                DefArt {
                    state: Some(a.state),
                    art: Some(Arc::new(Art {
                        forest: Some(a),
                        ..Art::default()
                    })),
                    draped: None,
                    why: None,
                }
            }
            DefKind::Draped(kind) => match crate::draped::read(file, kind, limits) {
                // The reason (file, line and why) goes with the state, so
                // the placement's warning says why it is unreadable.
                Err(why) => DefArt {
                    why: Some(why),
                    ..missing(ArtState::Invalid)
                },
                Ok(d) => {
                    // A string's objects are the placement's art, found
                    // beside the .str or in the libraries.
                    let art = match &d {
                        DrapedArt::Str(s) => Arc::new(Art {
                            objects: s
                                .objects
                                .iter()
                                .map(|o| self.art().object_file(file, &o.path, libs))
                                .collect(),
                            ..Art::default()
                        }),
                        // A .pol or .lin is the placement's art with its
                        // texture, which the views draw with.
                        _ => {
                            let names = match &d {
                                DrapedArt::Pol(p) => {
                                    p.texture.clone().map(|t| (TextureRole::Draped, t))
                                }
                                DrapedArt::Lin(l) => {
                                    l.texture.clone().map(|t| (TextureRole::Line, t))
                                }
                                DrapedArt::Ter(t) => {
                                    t.base.clone().map(|b| (TextureRole::Terrain, b))
                                }
                                _ => None,
                            };
                            let mut a =
                                art_file(definition, Some(file), how, Some(Arc::new(d.clone())));
                            a.textures =
                                self.art().textures(file, names.into_iter().collect(), libs);
                            Arc::new(Art {
                                draped: Some(a),
                                ..Art::default()
                            })
                        }
                    };
                    let art = Some(art);
                    DefArt {
                        art,
                        state: Some(ArtState::Found),
                        draped: Some(d),
                        why: None,
                    }
                }
            },
        }
    }
}

/// An art file of a definition: found and read (`value`), found and not
/// read (`how` says why), or not found.
pub(crate) fn art_file<T>(
    path: &str,
    file: Option<&Path>,
    how: &str,
    value: Option<Arc<T>>,
) -> ArtFile<T> {
    let state = match (file, &value) {
        (None, _) => ArtState::Missing,
        (Some(_), None) => ArtState::Invalid,
        (Some(_), Some(_)) => ArtState::Found,
    };
    ArtFile {
        path: path.to_string(),
        file: file.map(PathBuf::from),
        state,
        how: how.to_string(),
        value,
        textures: Vec::new(),
    }
}
