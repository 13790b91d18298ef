//! The autogen uses found in a DSF tile.

use crate::geom::LonLat;
use serde::Serialize;

/// Which autogen asset kind a definition names (from its extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AutogenKind {
    /// `.agp`, placed as an object point.
    Agp,
    /// `.agb`, placed as a 4-point polygon.
    Agb,
    /// `.ags`, placed as a polygon with contours.
    Ags,
}

/// One placement of an autogen asset in a DSF.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AutogenUse {
    /// The asset kind.
    pub kind: AutogenKind,
    /// The definition path as written in the DSF (OBJT or POLY table).
    pub asset: String,
    /// Index of the definition in its table.
    pub def: u32,
    /// AGP: the point (lon, lat).
    pub point: Option<LonLat>,
    /// AGP: heading in degrees clockwise from true north.
    pub heading: Option<f64>,
    /// AGB/AGS: the windings in order (lon, lat), as stored (not closed).
    pub windings: Vec<Vec<LonLat>>,
    /// AGB/AGS: the raw 16-bit polygon parameter.
    pub param: Option<u16>,
    /// AGB/AGS: height in metres (`(param >> 8) * 4`).
    pub height: Option<f64>,
    /// AGB: spelling set; AGS: number of tile-spawning contours
    /// (`param & 0xFF`).
    pub low: Option<u8>,
}
