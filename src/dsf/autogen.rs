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

impl AutogenKind {
    /// The kind named by a definition path's extension (case-insensitive),
    /// or `None` for anything else.
    pub fn from_path(path: &str) -> Option<Self> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "agp" => Some(AutogenKind::Agp),
            "agb" => Some(AutogenKind::Agb),
            "ags" => Some(AutogenKind::Ags),
            _ => None,
        }
    }

    /// Lower-case name (`agp`, `agb`, `ags`).
    pub fn as_str(self) -> &'static str {
        match self {
            AutogenKind::Agp => "agp",
            AutogenKind::Agb => "agb",
            AutogenKind::Ags => "ags",
        }
    }
}

/// Every autogen use in `dsf`, in command-stream order: `.agp` objects
/// (point and heading) and `.agb`/`.ags` polygons (windings in order, the
/// parameter split into height `(param >> 8) * 4` m and the low byte:
/// spelling set for AGB, spawning-contour count for AGS).
pub fn autogen_uses(dsf: &super::Dsf) -> Vec<AutogenUse> {
    use super::Entity;
    let mut out = Vec::new();
    for e in &dsf.entities {
        match e {
            Entity::Object(o) => {
                let Some(asset) = dsf.object_defs.get(o.def as usize) else {
                    continue;
                };
                if AutogenKind::from_path(asset) != Some(AutogenKind::Agp) {
                    continue;
                }
                out.push(AutogenUse {
                    kind: AutogenKind::Agp,
                    asset: asset.clone(),
                    def: o.def,
                    point: Some([o.lon, o.lat]),
                    heading: Some(o.heading),
                    windings: Vec::new(),
                    param: None,
                    height: None,
                    low: None,
                });
            }
            Entity::Polygon(p) => {
                let Some(asset) = dsf.polygon_defs.get(p.def as usize) else {
                    continue;
                };
                let kind = match AutogenKind::from_path(asset) {
                    Some(k @ (AutogenKind::Agb | AutogenKind::Ags)) => k,
                    _ => continue,
                };
                let windings = (0..p.windings.len())
                    .map(|k| {
                        p.points(k)
                            .filter(|pt| pt.len() >= 2)
                            .map(|pt| [pt[0], pt[1]])
                            .collect()
                    })
                    .collect();
                out.push(AutogenUse {
                    kind,
                    asset: asset.clone(),
                    def: p.def,
                    point: None,
                    heading: None,
                    windings,
                    param: Some(p.param),
                    height: Some(f64::from(p.param >> 8) * 4.0),
                    low: Some((p.param & 0xFF) as u8),
                });
            }
            _ => {}
        }
    }
    out
}
