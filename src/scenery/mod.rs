//! Scenery resolution across an X-Plane installation, the way the simulator
//! does it: which packages load in which order, what every path a DSF names
//! resolves to and why, and what higher-priority packages exclude.
//!
//! - [`packs`]: the `scenery_packs.ini` reader;
//! - [`install`]: the installation model — every package in the simulator's
//!   priority order;
//! - [`library`]: the `library.txt` reader, every directive, problems as
//!   diagnostics `LIB001`…;
//! - [`resolve`]: the library index of an installation and the resolver,
//!   which returns for a path at a tile the candidate files, the package of
//!   each and the rule that made them win (and why the others lost);
//! - [`exclude`]: the `sim/exclude_*` zones of DSF overlays;
//! - [`airports`]: which `apt.dat` each airport ID is taken from (the
//!   package's own, then the enabled packages in order, then the default);
//! - [`tile_airports`]: the airports a whole tile carries, read once for a
//!   set of tiles from the files [`airports`] orders;
//! - [`mesh`]: which base mesh a tile stands on (the first enabled package
//!   whose DSF for it is not an overlay, or `--mesh`), read as a surface
//!   by [`crate::terrain`];
//! - [`check`]: what in an installation does not resolve or is
//!   misconfigured (`agkit scenery check`);
//! - [`package`]: what `agkit check` of a package says of its DSFs'
//!   definitions (`PKG001`, `PKG002`);
//! - [`Scenery`] ([`context`]): an installation, or a package and its
//!   libraries, as one value to ask — [`Scenery::resolve`],
//!   [`Scenery::check`] — and to find and read the art a definition names
//!   ([`art`], [`definition`]);
//! - [`tile`]: what the resolver says of a tile it cannot place
//!   ([`TileError`]) and of assets that resolve nowhere ([`Unresolved`]).
//!
//! **A resolver only.** This floor answers which file wins and reads it;
//! it places nothing and draws nothing (`tests/floors.rs` keeps it so).
//! Placing through it is the placement floor's: [`crate::place::tiles`]
//! (`Scenery::place_tile`, `place_tiles`), [`crate::place::whole`] (every
//! item of a tile) and [`crate::place::at`] (`Scenery::at`, what is placed
//! near a point). Its reports' text, GeoJSON, SVG and Arrow forms are
//! views: [`crate::out::scenery_report`], [`crate::out::at_picture`] and
//! `out::scenery_tables`.
//!
//! The rules and their sources are in `docs/scenery.md`.
//!
//! Placing the bundled demo tile with `examples/` as its package (its
//! paths are files of the package):
//!
//! ```
//! use agkit::place::Params;
//! use agkit::scenery::{Scenery, resolve::Conditions};
//! use std::path::Path;
//!
//! let scenery = Scenery::packages(Some(Path::new("examples")), &[], Conditions::default())?;
//! let tile = scenery.place_tile(Path::new("examples/dsf/autogen_demo.dsf"), &Params::default())?;
//! assert_eq!((tile.uses, tile.placements.len()), (3, 3));
//! assert!(tile.unresolved.is_empty() && tile.warnings.is_empty());
//! // Use i of a tile is placed with the seed `seed XOR i`.
//! let seeds: Vec<u64> = tile.placements.iter().map(|p| p.seed).collect();
//! assert_eq!(seeds, [0, 1, 2]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ```
//! use agkit::scenery::library;
//! use agkit::scenery::resolve::{Conditions, LibPackage, LibraryIndex, Tile};
//!
//! let mut index = LibraryIndex::default();
//! for (name, text) in [
//!     ("High", "A\n800\nLIBRARY\nEXPORT_EXTEND lib/tree.obj big.obj\n"),
//!     ("Low", "A\n800\nLIBRARY\nEXPORT lib/tree.obj small.obj\n"),
//! ] {
//!     index.push(LibPackage {
//!         name: name.into(),
//!         root: name.into(),
//!         priority: 0,
//!         enabled: true,
//!         library: library::parse(text),
//!     });
//! }
//! let r = index.resolve("lib/tree.obj", Tile { west: 13, south: 47 }, &Conditions::default());
//! let from: Vec<&str> = r.candidates.iter().map(|c| c.package.as_str()).collect();
//! assert_eq!(from, ["High", "Low"], "EXPORT_EXTEND adds to the lower export");
//! ```

pub mod airports;
pub mod art;
pub mod census;
pub mod check;
pub mod context;
pub mod definition;
pub mod exclude;
pub mod install;
pub mod library;
pub mod mesh;
pub mod package;
pub mod packs;
pub mod resolve;
pub mod rules;
pub mod tile;
pub mod tile_airports;

pub use context::{ArtCheck, Scenery, SceneryError};
pub use tile::{TileError, Unresolved};
