//! Placement engines: what the simulator lays down for one autogen use.
//!
//! Pipeline: a parsed [`crate::xp::model::Asset`] plus where a DSF puts
//! it ([`Use`]) → an engine (`point` for AGP, `block` for AGB, `string` for
//! AGS) working in local metres → one [`Placement`] → georeferenced to
//! lon/lat. Engines share the annotation step ([`annotate`]). Random choices
//! come from a [`Rng`] seeded from [`Params::seed`], so the same inputs and
//! seed give the same output.
//!
//! Every run is bounded: [`place`] checks the use first ([`check_use`]:
//! coordinates in range, a polygon no wider than
//! [`Limits::max_extent_m`]), each engine refuses an asset that breaks a
//! sanity rule ([`crate::xp::sanity`]) and counts what it places and what
//! it tries against [`Params::limits`] ([`budget`]); passing a limit is a
//! [`PlaceError::Limit`], never an allocation or a hang.
//!
//! The uses of a DSF tile are placed one by one through [`tile::place_use`],
//! which seeds use `i` with `seed XOR i` ([`tile`]); an asset read from its
//! file, with its diagnostics, is a [`crate::check::asset::AssetFile`].

pub mod annotate;
pub mod art;
pub mod at;
pub mod block;
pub mod budget;
pub mod conflicts;
pub mod exclusions;
pub mod ground;
pub mod model;
pub mod point;
pub mod string;
pub mod tile;
pub mod tiles;
pub mod whole;

pub use model::{
    PlacedCorner, PlacedDraped, PlacedFacade, PlacedLine, PlacedObject, PlacedTile, PlacedTree,
    Placement, PlacementKind, Role, Tally, TileId, WallChoice, Warning,
};

use crate::geom::{LocalFrame, LonLat, Xy};
use crate::limits::{LimitExceeded, Limits};
use crate::xp::model::{Asset, Kind};

pub use crate::ground::rng::{Rng, rng};
pub use tiles::{TILE_BATCH, TilePlacement, UseWarning};

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
    /// Spacing of trees along a TREE_LINE and of fill trees in metres,
    /// when no forest was read (10 m by default; with a forest its
    /// `SPACING` counts, see [`art`]).
    pub tree_spacing: f64,
    /// The art the asset names, found and read ([`art::Art`], made by
    /// [`crate::scenery::art::ArtStore`]): objects get their footprints and
    /// heights, facades their heights and walls, trees follow the forest.
    /// `None`: not looked up (objects are points, trees are laid
    /// `tree_spacing` apart, items carry no art fields).
    pub art: Option<std::sync::Arc<art::Art>>,
    /// Record the engine's decisions in [`Placement::explain`].
    pub explain: bool,
    /// What one run may place and spend, and how wide its polygon may be
    /// (a previewer serving many users passes tighter ones).
    pub limits: Limits,
    /// With a DSF tile ([`crate::scenery::Scenery::place_tile`]): place
    /// everything the tile places — objects, facade, forest and draped
    /// polygons, lines, object strings — not only its autogen uses
    /// ([`crate::place::whole`]). Off by default.
    pub whole_tile: bool,
    /// With [`Params::whole_tile`]: the base mesh to set the tile on (a
    /// DSF, or a folder holding the tile's DSF: `--mesh`); `None` finds
    /// it as X-Plane does ([`Scenery::ground_for`](crate::scenery::Scenery::ground_for)).
    pub mesh: Option<std::path::PathBuf>,
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
            art: None,
            explain: false,
            limits: Limits::default(),
            whole_tile: false,
            mesh: None,
        }
    }
}

impl Params {
    /// What tree annotations draw from: the forest of [`Params::art`],
    /// when it was read.
    pub fn tree_art(&self) -> Option<art::TreeArt<'_>> {
        let forest = self.art.as_deref()?.forest()?;
        Some(art::TreeArt {
            forest,
            seed: self.seed,
        })
    }

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
#[non_exhaustive]
pub enum PlaceError {
    /// The DSF geometry does not fit the asset (wrong winding count, not
    /// counter-clockwise, …).
    #[error("invalid polygon: {0}")]
    Polygon(String),
    /// The DSF point of an AGP is not a place on Earth, or its heading is
    /// not a number.
    #[error("invalid point: {0}")]
    Point(String),
    /// The asset cannot be placed (no tiles, missing TEXTURE_SCALE, …).
    #[error("asset cannot be placed: {0}")]
    Asset(String),
    /// The asset has a value a sanity rule refuses (see
    /// [`crate::xp::sanity`]): a texture or tile size out of all reason.
    /// Said as `asset cannot be placed: line N: … [CODE]`.
    #[error("asset cannot be placed: line {}: {} [{}]", .0.line, .0.message, .0.code)]
    Absurd(crate::xp::sanity::Absurd),
    /// A point asset given a polygon or the other way round.
    #[error("{0}")]
    Mismatch(String),
    /// The use, the asset or both ask for more than [`Params::limits`]
    /// allow (a polygon too wide, too many tiles, too much work).
    #[error("too large to place: {0}")]
    Limit(#[from] LimitExceeded),
}

impl PlaceError {
    /// The code of the diagnostic rule the error reports (a sanity rule's,
    /// `AG0080` …), when it reports one.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            PlaceError::Absurd(a) => Some(a.code),
            _ => None,
        }
    }
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
    check_use(use_, &params.limits)?;
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
    if let Some(art) = &params.art {
        art::apply(&mut placement, art);
        placement.art = Some(std::sync::Arc::clone(art));
    }
    placement.kind = asset.kind.into();
    placement.asset = name.to_string();
    placement.seed = params.seed;
    placement.georeference(&frame);
    Ok(placement)
}

/// Checks a use before any engine runs: finite coordinates, longitudes in
/// −180..180 and latitudes in −90..90, a finite heading, and a polygon
/// whose extent (the larger side of its bounding box in metres, measured
/// in the frame of its first vertex) is at most `limits.max_extent_m`.
/// Winding and vertex numbers in messages are 1-based.
pub fn check_use(use_: &Use, limits: &Limits) -> Result<(), PlaceError> {
    let where_ = |what: &str, p: LonLat| -> Result<(), String> {
        let (lon, lat) = (p[0], p[1]);
        if !(lon.is_finite() && lat.is_finite()) {
            Err(format!(
                "{what} ({lon}, {lat}) is not a finite longitude and latitude"
            ))
        } else if !(-180.0..=180.0).contains(&lon) {
            Err(format!("{what} has longitude {lon}, outside -180..180"))
        } else if !(-90.0..=90.0).contains(&lat) {
            Err(format!("{what} has latitude {lat}, outside -90..90"))
        } else {
            Ok(())
        }
    };
    match use_ {
        Use::Point { at, heading } => {
            where_("the point", *at).map_err(PlaceError::Point)?;
            if !heading.is_finite() {
                return Err(PlaceError::Point(format!(
                    "the heading {heading} is not a number"
                )));
            }
            Ok(())
        }
        Use::Polygon { windings } => {
            for (i, w) in windings.iter().enumerate() {
                for (j, &p) in w.iter().enumerate() {
                    where_(&format!("winding {}, vertex {}", i + 1, j + 1), p)
                        .map_err(PlaceError::Polygon)?;
                }
            }
            let Some(&first) = windings.iter().flatten().next() else {
                return Ok(());
            };
            let frame = LocalFrame::new(first);
            let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for &p in windings.iter().flatten() {
                let q = frame.to_local(p);
                for k in 0..2 {
                    min[k] = min[k].min(q[k]);
                    max[k] = max[k].max(q[k]);
                }
            }
            let extent = (max[0] - min[0]).max(max[1] - min[1]);
            if extent > limits.max_extent_m || !extent.is_finite() {
                return Err(PlaceError::Limit(LimitExceeded {
                    what: "extent of the polygon in metres".into(),
                    needed: extent.min(u64::MAX as f64).ceil() as u64,
                    limit: limits.max_extent_m as u64,
                }));
            }
            Ok(())
        }
    }
}

/// Refuses an asset that breaks a sanity rule (see
/// [`crate::xp::sanity`]), with the rule's code and message.
pub(crate) fn sane(asset: &Asset) -> Result<(), PlaceError> {
    match crate::xp::sanity::first(asset) {
        Some(a) => Err(PlaceError::Absurd(a)),
        None => Ok(()),
    }
}

/// The asset's metres per pixel
/// ([`Common::metres_per_pixel`](crate::xp::model::Common::metres_per_pixel),
/// with the simulator's defaults for a missing `TEXTURE_SCALE` or
/// `TEXTURE_WIDTH`), both positive and finite, and the warning a placement
/// carries when a default was applied.
pub(crate) fn scale(asset: &Asset) -> Result<([f64; 2], Option<Warning>), PlaceError> {
    let mpp = asset.common.metres_per_pixel().unwrap_or([0.0, 0.0]);
    if !(mpp[0].is_finite() && mpp[1].is_finite() && mpp[0] > 0.0 && mpp[1] > 0.0) {
        return Err(PlaceError::Asset(format!(
            "the texture scale gives {} × {} metres per pixel; both must be positive (check TEXTURE_SCALE, TEXTURE_WIDTH and TEXTURE_HEIGHT)",
            mpp[0], mpp[1]
        )));
    }
    use crate::xp::rules::codes::{NO_TEXTURE_SCALE, NO_TEXTURE_WIDTH};
    let missing = asset.common.defaulted_scale();
    let codes: &'static [&'static str] = match missing.as_slice() {
        ["TEXTURE_SCALE"] => &[NO_TEXTURE_SCALE],
        ["TEXTURE_WIDTH"] => &[NO_TEXTURE_WIDTH],
        // Both (`defaulted_scale` names them in this order), or none.
        _ => &[NO_TEXTURE_SCALE, NO_TEXTURE_WIDTH],
    };
    let warning = (!missing.is_empty()).then(|| {
        Warning::coded(
            format!(
                "no {}: placed at {} × {} m per pixel, as X-Plane's tools read it (WorldEditor takes a 1-pixel texture 1 m wide)",
                missing.join(" or "),
                mpp[0],
                mpp[1],
            ),
            codes,
        )
    });
    Ok((mpp, warning))
}

/// Drops a repeated closing vertex.
fn open_ring(w: &[LonLat]) -> &[LonLat] {
    if w.len() > 1 && w.first() == w.last() {
        &w[..w.len() - 1]
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn poly(pts: &[LonLat]) -> Use {
        Use::Polygon {
            windings: vec![pts.to_vec()],
        }
    }

    fn square(lon: f64, lat: f64, deg: f64) -> Use {
        poly(&[
            [lon, lat],
            [lon + deg, lat],
            [lon + deg, lat + deg],
            [lon, lat + deg],
        ])
    }

    #[test]
    fn uses_off_the_earth_are_refused_naming_the_vertex() {
        let l = Limits::default();
        let e = check_use(&poly(&[[13.0, 47.0], [913.0, 47.0], [13.0, 47.1]]), &l);
        let e = e.unwrap_err().to_string();
        assert!(
            e.contains("winding 1, vertex 2") && e.contains("longitude 913"),
            "{e}"
        );
        let e = check_use(&poly(&[[13.0, 47.0], [13.1, 91.0], [13.0, 47.1]]), &l);
        assert!(e.unwrap_err().to_string().contains("latitude 91"));
        let e = check_use(&poly(&[[13.0, 47.0], [f64::NAN, 47.0], [13.0, 47.1]]), &l);
        assert!(e.unwrap_err().to_string().contains("not a finite"));
        let at = |at, heading| Use::Point { at, heading };
        assert!(matches!(
            check_use(&at([13.0, -91.0], 0.0), &l),
            Err(PlaceError::Point(_))
        ));
        assert!(matches!(
            check_use(&at([13.0, 47.0], f64::NAN), &l),
            Err(PlaceError::Point(_))
        ));
        assert!(check_use(&at([-180.0, 90.0], 359.0), &l).is_ok());
    }

    #[test]
    fn extent_is_limited_and_the_limit_can_be_raised() {
        // 0.1° of latitude is about 11 km.
        let wide = square(13.0, 47.0, 0.1);
        let e = check_use(&wide, &Limits::default()).unwrap_err();
        let PlaceError::Limit(l) = &e else {
            panic!("{e}")
        };
        assert!(
            (11_000..11_300).contains(&l.needed) && l.limit == 10_000,
            "{l:?}"
        );
        let roomy = Limits {
            max_extent_m: 12_000.0,
            ..Limits::default()
        };
        assert!(check_use(&wide, &roomy).is_ok());
        assert!(check_use(&square(13.0, 47.0, 0.05), &Limits::default()).is_ok());
        // Measured on the ground, not in degrees: 2 km across the
        // antimeridian is 2 km.
        let across = poly(&[[179.99, 0.0], [-179.99, 0.0], [-179.99, 0.01]]);
        assert!(check_use(&across, &Limits::default()).is_ok());
    }
}
