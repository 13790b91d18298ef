//! What `agkit info` says about a facade: kind, heights, textures, walls.

use super::{Facade, HeightRange};
use serde::Serialize;
use std::collections::BTreeMap;

/// The summary of one facade (`agkit info --format json X.fac`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Always `fac`.
    pub format: &'static str,
    /// The header's version, 800 or 1000.
    pub version: u32,
    /// 1 (walls cut from the texture) or 2 (walls of meshes).
    #[serde(rename = "type")]
    pub kind: u8,
    /// A closed ring (building) rather than an open chain (fence).
    pub ring: bool,
    /// Walls drawn from both sides.
    pub two_sided: bool,
    /// Follows the terrain.
    pub graded: bool,
    /// The heights the facade can take, metres (`max` null: no limit).
    pub height: Option<HeightRange>,
    /// The wall texture.
    pub wall_texture: Option<String>,
    /// The roof texture (the wall's when the roof has none of its own).
    pub roof_texture: Option<String>,
    /// Every texture path by role.
    pub textures: BTreeMap<String, String>,
    /// Type 1: levels of detail.
    pub lods: usize,
    /// Type 2: floors.
    pub floors: usize,
    /// The wall choices of the nearest level (type 1) or the first floor
    /// (type 2).
    pub walls: Vec<WallSummary>,
    /// Objects the facade attaches (type 2 `OBJ`, scraper models).
    pub objects: Vec<String>,
    /// Errors found.
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
}

/// One wall choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WallSummary {
    /// Its name, if any.
    pub name: Option<String>,
    /// Shortest side it is chosen for, metres.
    pub min_width: f64,
    /// Longest side, metres.
    pub max_width: f64,
}

impl Summary {
    /// The summary of `fac`, with the numbers of errors and warnings found
    /// reading it.
    pub fn of(fac: &Facade, errors: usize, warnings: usize) -> Summary {
        Summary {
            format: "fac",
            version: fac.version,
            kind: if fac.is_type2() { 2 } else { 1 },
            ring: fac.ring,
            two_sided: fac.two_sided,
            graded: fac.graded,
            height: fac.height_range(),
            wall_texture: fac.wall_texture().map(str::to_string),
            roof_texture: fac.roof_texture().map(str::to_string),
            textures: fac.textures.clone(),
            lods: fac.lods.len(),
            floors: fac.floors.len(),
            walls: fac
                .wall_choices()
                .into_iter()
                .map(|(name, min_width, max_width)| WallSummary {
                    name: name.map(str::to_string),
                    min_width,
                    max_width,
                })
                .collect(),
            objects: fac
                .objects
                .iter()
                .chain(&fac.scraper_objects)
                .cloned()
                .collect(),
            errors,
            warnings,
        }
    }

    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        let mut out = format!(
            "format     facade (version {}, type {}, {})\n",
            self.version,
            self.kind,
            if self.ring { "ring" } else { "chain" }
        );
        out += &match self.height {
            Some(HeightRange {
                min,
                max: Some(max),
            }) if min == max => {
                format!("height     {min:.2} m\n")
            }
            Some(HeightRange {
                min,
                max: Some(max),
            }) => format!("height     {min:.2} … {max:.2} m\n"),
            Some(HeightRange { min, max: None }) => format!("height     from {min:.2} m\n"),
            None => "height     unknown\n".to_string(),
        };
        if let Some(t) = &self.wall_texture {
            out += &format!("wall       {t}\n");
        }
        if let Some(t) = &self.roof_texture {
            out += &format!("roof       {t}\n");
        }
        out += &format!(
            "walls      {} ({} LODs, {} floors)\n",
            self.walls.len(),
            self.lods,
            self.floors
        );
        if !self.objects.is_empty() {
            out += &format!("objects    {}\n", self.objects.len());
        }
        out += &format!(
            "problems   {} errors, {} warnings\n",
            self.errors, self.warnings
        );
        out
    }
}
