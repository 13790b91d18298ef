//! Placement engines: what the simulator lays down for one autogen use.
//!
//! Pipeline: a parsed [`crate::xp::model::Asset`] plus where a DSF puts
//! it ([`Use`]) → an engine (`point` for AGP, `block` for AGB, `string` for
//! AGS) working in local metres → one [`Placement`] → georeferenced to
//! lon/lat. Engines share the annotation step ([`annotate`]). Random choices
//! come from a [`Rng`] seeded from [`Params::seed`], so the same inputs and
//! seed give the same output.

pub mod annotate;
pub mod block;
pub mod model;
pub mod point;
pub mod string;

pub use model::{
    PlacedCorner, PlacedFacade, PlacedObject, PlacedTile, PlacedTree, Placement, Role, TileId,
};

use crate::geom::{LocalFrame, LonLat, Xy};
use crate::xp::model::{Asset, Kind};

/// The deterministic random generator every engine draws from.
pub type Rng = rand_chacha::ChaCha8Rng;

/// Creates the generator for a seed.
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}

/// Which convention orients an AGP tile (see `point` and
/// docs/placement.md, "Why WorldEditor's frame is the default").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameConvention {
    /// What Laminar's WorldEditor preview draws, and the Blender and
    /// OverlayEditor tools with it: texture up is north at heading 0,
    /// `ROTATION` turns clockwise (the default).
    #[default]
    Wed,
    /// The AGP spec's sentence: the tile's bottom edge faces north at
    /// heading 0, `ROTATION` turns counter-clockwise.
    Spec,
}

/// Settings of one placement run.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Seed of every random choice.
    pub seed: u64,
    /// Building height in metres (the DSF parameter's high byte × 4).
    pub height: f64,
    /// The DSF parameter's low byte: AGB spelling set, AGS number of
    /// tile-spawning contours.
    pub low: u8,
    /// Object density setting 1..6 (6 shows everything).
    pub density: u8,
    /// AGP orientation convention.
    pub frame: FrameConvention,
    /// Spacing of trees along a TREE_LINE in metres (forest files are not
    /// read; 10 m by default).
    pub tree_spacing: f64,
    /// Record the engine's decisions in [`Placement::explain`].
    pub explain: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            seed: 0,
            height: 0.0,
            low: 0,
            density: 6,
            frame: FrameConvention::default(),
            tree_spacing: 10.0,
            explain: false,
        }
    }
}

impl Params {
    /// Splits a 16-bit DSF polygon parameter into height (high byte × 4 m)
    /// and the low byte.
    pub fn with_dsf_param(mut self, param: u16) -> Self {
        self.height = f64::from(param >> 8) * 4.0;
        self.low = (param & 0xFF) as u8;
        self
    }
}

/// Where a DSF puts an asset.
#[derive(Debug, Clone, PartialEq)]
pub enum Use {
    /// An AGP: a point and a heading (degrees clockwise from true north).
    Point {
        /// lon, lat.
        at: LonLat,
        /// Heading in degrees.
        heading: f64,
    },
    /// An AGB or AGS: polygon windings in DSF order (lon, lat; not closed —
    /// a repeated closing vertex is dropped).
    Polygon {
        /// The windings.
        windings: Vec<Vec<LonLat>>,
    },
}

/// Why a placement could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PlaceError {
    /// The DSF geometry does not fit the asset (wrong winding count, not
    /// counter-clockwise, …).
    #[error("invalid polygon: {0}")]
    Polygon(String),
    /// The asset cannot be placed (no tiles, missing TEXTURE_SCALE, …).
    #[error("asset cannot be placed: {0}")]
    Asset(String),
    /// A point asset given a polygon or the other way round.
    #[error("{0}")]
    Mismatch(String),
}

/// Places `asset` (named `name` in the output) at `use_`.
///
/// The local frame's origin is the DSF point (AGP) or the first vertex of
/// the first winding (AGB/AGS); every position in the result is given in
/// both local metres and lon/lat.
pub fn place(
    asset: &Asset,
    name: &str,
    use_: &Use,
    params: &Params,
) -> Result<Placement, PlaceError> {
    let (frame, mut placement) = match (asset.kind, use_) {
        (Kind::Agp, Use::Point { at, heading }) => {
            let frame = LocalFrame::new(*at);
            (frame, point::place(asset, *heading, params)?)
        }
        (Kind::Agb | Kind::Ags, Use::Polygon { windings }) => {
            let first = windings
                .first()
                .and_then(|w| w.first())
                .ok_or_else(|| PlaceError::Polygon("the polygon has no vertices".into()))?;
            let frame = LocalFrame::new(*first);
            let local: Vec<Vec<Xy>> = windings
                .iter()
                .map(|w| open_ring(w).iter().map(|&p| frame.to_local(p)).collect())
                .collect();
            let p = if asset.kind == Kind::Agb {
                block::place(asset, &local, params)?
            } else {
                string::place(asset, &local, params)?
            };
            (frame, p)
        }
        (Kind::Agp, Use::Polygon { .. }) => {
            return Err(PlaceError::Mismatch(
                "an .agp is placed at a point: give --at LAT,LON[,HEADING]".into(),
            ));
        }
        (_, Use::Point { .. }) => {
            return Err(PlaceError::Mismatch(format!(
                "an .{} is placed on a polygon: give --polygon FILE.geojson",
                asset.kind.extension()
            )));
        }
    };
    placement.kind = asset.kind.extension().to_string();
    placement.asset = name.to_string();
    placement.seed = params.seed;
    placement.georeference(&frame);
    Ok(placement)
}

/// Drops a repeated closing vertex.
fn open_ring(w: &[LonLat]) -> &[LonLat] {
    if w.len() > 1 && w.first() == w.last() {
        &w[..w.len() - 1]
    } else {
        w
    }
}
