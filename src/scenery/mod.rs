//! Scenery resolution across an X-Plane installation, the way the simulator
//! does it.
//!
//! - [`library`]: the `library.txt` reader (every directive);
//! - [`packs`]: the `scenery_packs.ini` reader;
pub mod at;
pub mod check;
pub mod exclude;
pub mod install;
pub mod library;
pub mod packs;
pub mod picture;
pub mod report;
pub mod resolve;
