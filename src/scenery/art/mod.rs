//! Finding and reading the art an asset names, as the simulator finds it:
//! every `OBJECT`, `FACADE`, `VEGETATION` and `TEXTURE*` of an autogen
//! asset, every texture of an object, facade or forest, every object of a
//! facade.
//!
//! - [`locate`](mod@locate): where a path is looked for — beside the file
//!   naming it, then through the libraries given.
//! - [`store`]: the [`ArtStore`], which reads each file once, resolves the
//!   textures it draws with, and keeps the [`Art`] of
//!   each asset per tile.
//! - [`check`]: the art problems of an asset or an art file, as
//!   diagnostics (`agkit check`, the previewer).
//! - [`model`]: what is found and read — [`Art`], [`ArtFile`], their
//!   states and textures.

pub mod check;
pub mod locate;
pub mod model;
pub mod store;

pub use crate::kinds::ArtKind;
pub use check::{ArtProblem, MAX_DEPTH, asset_diagnostics, file_diagnostics};
pub use locate::{
    Folders, Libraries, Located, Within, inside, locate, locate_indexed, locate_within,
};
pub use model::*;
pub use store::{ArtStore, Read, facade_textures, forest_textures, object_textures, read};
