//! A short summary of an autogen asset (what `agkit info` prints).

use super::model::{AnnotationKind, Asset, Kind};
use serde::Serialize;

/// The art assets an autogen file refers to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assets {
    /// `OBJECT` paths in order.
    pub objects: Vec<String>,
    /// `FACADE` paths in order.
    pub facades: Vec<String>,
    /// The `VEGETATION` path, if any.
    pub vegetation: Option<String>,
}

/// What `agkit info` reports about one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// `agp`, `agb` or `ags`.
    pub format: Kind,
    /// Tiles: `TILE`s of an AGP/AGS; for an AGB, the cells of all grids
    /// (columns × rows summed over the grids).
    pub tiles: usize,
    /// Number of grids (AGB; 0 otherwise).
    pub grids: usize,
    /// Number of spelling sets (AGB) or edge spellings (AGS).
    pub spellings: usize,
    /// Number of corner rules (AGS).
    pub corners: usize,
    /// Number of `OBJ_*` annotations.
    pub objects: usize,
    /// Number of `FAC` and `FAC_WALLS` annotations.
    pub facades: usize,
    /// Number of `TREE` and `TREE_LINE` annotations.
    pub trees: usize,
    /// The texture (`TEXTURE`), if any.
    pub texture: Option<String>,
    /// Metres per pixel `[x, y]`, when the texture scale is declared.
    pub metres_per_pixel: Option<[f64; 2]>,
    /// Whether the base tiles are hidden.
    pub hidden_tiles: bool,
    /// Referenced art assets.
    pub assets: Assets,
    /// Number of warnings.
    pub warnings: usize,
    /// Number of errors.
    pub errors: usize,
}

/// Summarizes a source text: `None` when the header names no format.
pub fn summarize(source: &str) -> Option<Summary> {
    let (asset, diags) = super::parse_lenient(source);
    let asset = asset?;
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    Some(of_asset(&asset, warnings, errors))
}

/// Summarizes a parsed asset.
pub fn of_asset(a: &Asset, warnings: usize, errors: usize) -> Summary {
    let (mut objects, mut facades, mut trees) = (0, 0, 0);
    for ann in a.annotations() {
        match ann.kind {
            AnnotationKind::Object(_) => objects += 1,
            AnnotationKind::Facade(_) => facades += 1,
            AnnotationKind::Tree(_) | AnnotationKind::TreeLine(_) => trees += 1,
            AnnotationKind::GroundFormula(_) => {}
        }
    }
    let (tiles, grids, spellings) = match (&a.block, &a.string) {
        (Some(b), _) => (
            b.grids.iter().map(|g| g.columns.len() * g.rows.len()).sum(),
            b.grids.len(),
            b.spelling_sets.len(),
        ),
        (_, Some(s)) => (a.tiles.len(), 0, s.spellings.len()),
        _ => (a.tiles.len(), 0, 0),
    };
    let c = &a.common;
    Summary {
        format: a.kind,
        tiles,
        grids,
        spellings,
        corners: a.string.as_ref().map_or(0, |s| s.corners.len()),
        objects,
        facades,
        trees,
        texture: c.texture.as_ref().map(|t| t.value.clone()),
        metres_per_pixel: c.metres_per_pixel(),
        hidden_tiles: c.hide_tiles.is_some(),
        assets: Assets {
            objects: c.objects.iter().map(|o| o.value.clone()).collect(),
            facades: c.facades.iter().map(|o| o.value.clone()).collect(),
            vegetation: c.vegetation.as_ref().map(|v| v.value.clone()),
        },
        warnings,
        errors,
    }
}

impl Summary {
    /// A few human-readable lines.
    pub fn to_human(&self) -> String {
        let mut s = String::new();
        let kind = match self.format {
            Kind::Agp => "autogen point (AGP)",
            Kind::Agb => "autogen block (AGB)",
            Kind::Ags => "autogen string (AGS)",
        };
        s.push_str(&format!("format:     {kind}\n"));
        match self.format {
            Kind::Agb => s.push_str(&format!(
                "grids:      {} ({} tiles), {} spelling set(s)\n",
                self.grids, self.tiles, self.spellings
            )),
            Kind::Ags => s.push_str(&format!(
                "tiles:      {} ({} spelling(s), {} corner rule(s))\n",
                self.tiles, self.spellings, self.corners
            )),
            Kind::Agp => s.push_str(&format!("tiles:      {}\n", self.tiles)),
        }
        if let Some(t) = &self.texture {
            s.push_str(&format!(
                "texture:    {t}{}\n",
                if self.hidden_tiles { " (hidden)" } else { "" }
            ));
        }
        if let Some([x, y]) = self.metres_per_pixel {
            s.push_str(&format!("scale:      {x} x {y} m per pixel\n"));
        }
        s.push_str(&format!(
            "annotations: {} object(s), {} facade(s), {} tree(s)\n",
            self.objects, self.facades, self.trees
        ));
        for o in &self.assets.objects {
            s.push_str(&format!("  OBJECT     {o}\n"));
        }
        for f in &self.assets.facades {
            s.push_str(&format!("  FACADE     {f}\n"));
        }
        if let Some(v) = &self.assets.vegetation {
            s.push_str(&format!("  VEGETATION {v}\n"));
        }
        s.push_str(&format!(
            "diagnostics: {} error(s), {} warning(s)\n",
            self.errors, self.warnings
        ));
        s
    }
}
