//! agkit: X-Plane and FSX/P3D autogen scenery, outside the simulator.
//!
//! The crate follows the pipeline **formats → model → placement → outputs**:
//!
//! - [`xp`]: the X-Plane autogen text formats AGP, AGB and AGS — a lossless
//!   document, a typed model, validation and canonical writing;
//! - [`dsf`]: X-Plane DSF tiles (binary, 7z) and DSF2Text;
//! - [`agn`]: FSX/P3D AGN files and LOD13 cells;
//! - [`apt`]: X-Plane airports (`apt.dat` 1000–1200) and their checks;
//! - [`terrain`]: a base-mesh DSF as a surface (elevation and terrain at a
//!   point);
//! - [`obj`], [`fac`], [`forest`], [`texture`]: the art X-Plane draws —
//!   OBJ8 objects (bounds, footprint, height), facades (heights, wall and
//!   roof textures), forests (tree layers, spacing) and PNG/DDS textures;
//! - [`xptext`]: the text conventions the art formats share (header, lines,
//!   words, numbers);
//! - [`geom`]: local metre frames and plain geometry;
//! - [`limits`]: one value bounding the work and memory an input may cause;
//! - [`place`]: the placement engines (point, block, string) producing one
//!   [`place::Placement`];
//! - [`out`]: JSON, GeoJSON, DSF2Text, SVG and PNG views of a placement;
//! - [`gen`](mod@gen): a deterministic generator of benchmark and fuzz inputs;
//! - [`overlay`]: GIS features + rules → DSF overlays placing autogen;
//! - [`convert`]: FSX AGN cells → X-Plane DSF overlays;
//! - [`serve`]: the live browser previewer behind `agkit serve`;
//! - [`check`]: what `agkit check` does to one file (shared with `serve`);
//! - [`diag`]: diagnostics with stable codes, rendered rustc-style or as JSON.
#![deny(missing_docs)]

pub use ground::{diag, limits};

pub mod agn;
pub mod apt;
pub mod check;
pub mod convert;
pub mod draped;
pub mod dsf;
pub mod fac;
pub mod forest;
pub mod fsutil;
pub mod r#gen;
pub mod geom;
pub mod ground;
pub mod kinds;
pub mod obj;
pub mod out;
pub mod overlay;
pub mod place;
pub mod scene;
pub mod scenery;
pub mod serve;
pub mod terrain;
pub mod texture;
pub mod xp;
pub mod xptext;
