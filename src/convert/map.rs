//! The AGN → X-Plane map: which X-Plane library path each AGN record
//! becomes.
//!
//! ```toml
//! floor_height = 3.0     # metres per floor of a generated building
//! seed = 0               # floor counts are drawn from this seed
//! forest_density = 1.0   # 0..1, forest parameter = round(density × 255)
//!
//! [facade]
//! default = "…/house.fac"          # GBLR/PBDE without a mapping of their own
//! row_house = "…/row.fac"          # ROWH
//! roof = { "{guid}" = "…/a.fac" }  # GBLR by roof GUID
//! building = { "{guid}" = "…" }    # PBDE by building GUID
//!
//! [forest]
//! default = "lib/…/x.for"          # PRDE/VGRE without a mapping
//! fs2004 = "lib/…/y.for"           # VGRO rectangles
//! vegetation = { "{guid}" = "…" }  # PRDE/VGRE by vegetation GUID
//!
//! [object]
//! "{guid}" = "lib/…/z.obj"         # A2GE by library object GUID
//! ```
//!
//! A user map given with `--map` is laid over the bundled default
//! (`data/agn_default_map.toml`): its settings and entries win, the rest
//! comes from the default.

use crate::agn::Guid;
use crate::overlay::rules::{RulesError, line_col};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// The bundled default map's text.
pub const DEFAULT_MAP: &str = include_str!("../../data/agn_default_map.toml");

/// A parsed map.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// Metres per floor.
    pub floor_height: f64,
    /// Seed of the floor-count draws.
    pub seed: u64,
    /// Forest density 0..1.
    pub forest_density: f64,
    /// Facade for buildings without their own mapping.
    pub facade_default: Option<String>,
    /// Facade for row houses.
    pub facade_row_house: Option<String>,
    /// GBLR roof GUID → facade.
    pub facade_roof: BTreeMap<Guid, String>,
    /// PBDE building GUID → facade.
    pub facade_building: BTreeMap<Guid, String>,
    /// Forest for vegetation without its own mapping.
    pub forest_default: Option<String>,
    /// Forest for FS2004 `VGRO` rectangles.
    pub forest_fs2004: Option<String>,
    /// PRDE/VGRE vegetation GUID → forest.
    pub forest_vegetation: BTreeMap<Guid, String>,
    /// A2GE object GUID → object.
    pub object: BTreeMap<Guid, String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawMap {
    floor_height: Option<Spanned<f64>>,
    seed: Option<u64>,
    forest_density: Option<Spanned<f64>>,
    #[serde(default)]
    facade: RawFacade,
    #[serde(default)]
    forest: RawForest,
    #[serde(default)]
    object: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawFacade {
    default: Option<Spanned<String>>,
    row_house: Option<Spanned<String>>,
    #[serde(default)]
    roof: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default)]
    building: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawForest {
    default: Option<Spanned<String>>,
    fs2004: Option<Spanned<String>>,
    #[serde(default)]
    vegetation: BTreeMap<Spanned<String>, Spanned<String>>,
}

impl Map {
    /// The bundled default map.
    pub fn bundled() -> Map {
        Map::parse(DEFAULT_MAP).unwrap_or_else(|_| Map::empty())
    }

    /// A map with no mappings (3 m floors, seed 0, density 1).
    pub fn empty() -> Map {
        Map {
            floor_height: 3.0,
            seed: 0,
            forest_density: 1.0,
            facade_default: None,
            facade_row_house: None,
            facade_roof: BTreeMap::new(),
            facade_building: BTreeMap::new(),
            forest_default: None,
            forest_fs2004: None,
            forest_vegetation: BTreeMap::new(),
            object: BTreeMap::new(),
        }
    }

    /// Parses a map on its own (over [`Map::empty`]).
    pub fn parse(text: &str) -> Result<Map, RulesError> {
        Map::empty().overlaid(text)
    }

    /// This map with `text`'s settings and entries laid over it.
    pub fn overlaid(mut self, text: &str) -> Result<Map, RulesError> {
        let at = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_col(text, span.start);
            RulesError {
                line,
                column,
                message,
            }
        };
        let raw: RawMap = toml::from_str(text)
            .map_err(|e| at(e.span().unwrap_or(0..0), e.message().trim().to_string()))?;
        if let Some(h) = raw.floor_height {
            let v = *h.get_ref();
            if !(v.is_finite() && v > 0.0 && v <= 100.0) {
                return Err(at(
                    h.span(),
                    format!("floor_height {v} is not within 0..100 m"),
                ));
            }
            self.floor_height = v;
        }
        if let Some(s) = raw.seed {
            self.seed = s;
        }
        if let Some(d) = raw.forest_density {
            let v = *d.get_ref();
            if !(0.0..=1.0).contains(&v) {
                return Err(at(
                    d.span(),
                    format!("forest_density {v} is not within 0..1"),
                ));
            }
            self.forest_density = v;
        }
        let path = |p: &Spanned<String>, ext: &[&str]| -> Result<String, RulesError> {
            let s = p.get_ref();
            let lower = s.to_ascii_lowercase();
            if s.trim().is_empty() || s.contains('\0') || !ext.iter().any(|e| lower.ends_with(e)) {
                return Err(at(
                    p.span(),
                    format!("`{s}` is not a {} path", ext.join(" or ")),
                ));
            }
            Ok(s.clone())
        };
        let table = |t: &BTreeMap<Spanned<String>, Spanned<String>>,
                     ext: &[&str],
                     into: &mut BTreeMap<Guid, String>|
         -> Result<(), RulesError> {
            for (k, v) in t {
                let g: Guid = k.get_ref().parse().map_err(|e: String| at(k.span(), e))?;
                into.insert(g, path(v, ext)?);
            }
            Ok(())
        };
        const FAC: &[&str] = &[".fac"];
        const FOR: &[&str] = &[".for"];
        const OBJ: &[&str] = &[".obj", ".agp"];
        if let Some(p) = &raw.facade.default {
            self.facade_default = Some(path(p, FAC)?);
        }
        if let Some(p) = &raw.facade.row_house {
            self.facade_row_house = Some(path(p, FAC)?);
        }
        table(&raw.facade.roof, FAC, &mut self.facade_roof)?;
        table(&raw.facade.building, FAC, &mut self.facade_building)?;
        if let Some(p) = &raw.forest.default {
            self.forest_default = Some(path(p, FOR)?);
        }
        if let Some(p) = &raw.forest.fs2004 {
            self.forest_fs2004 = Some(path(p, FOR)?);
        }
        table(&raw.forest.vegetation, FOR, &mut self.forest_vegetation)?;
        table(&raw.object, OBJ, &mut self.object)?;
        Ok(self)
    }

    /// The forest polygon parameter: `round(density × 255)` (fill mode 0).
    pub fn forest_param(&self) -> u16 {
        (self.forest_density * 255.0).round().clamp(0.0, 255.0) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_map_parses() {
        let m = Map::parse(DEFAULT_MAP).expect("the bundled map parses");
        assert_eq!(m.floor_height, 3.0);
        assert_eq!(m.forest_param(), 255);
    }

    #[test]
    fn bundled_map_maps_every_record_class_and_cites_every_path() {
        let m = Map::bundled();
        assert!(m.facade_default.is_some() && m.facade_row_house.is_some());
        assert!(m.forest_default.is_some() && m.forest_fs2004.is_some());
        // FSX library objects have no documented X-Plane counterpart.
        assert!(m.object.is_empty());
        let lines: Vec<&str> = DEFAULT_MAP.lines().map(str::trim).collect();
        let mut paths = 0;
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with('#') || !l.contains("= \"") {
                continue;
            }
            paths += 1;
            let comments: Vec<&str> = lines[..i]
                .iter()
                .rev()
                .take_while(|c| c.starts_with('#'))
                .copied()
                .collect();
            assert!(
                comments.iter().any(|c| c.contains("Source:")),
                "line {}: `{l}` has no `Source:` comment above it",
                i + 1
            );
        }
        assert_eq!(paths, 4);
    }

    #[test]
    fn user_map_overrides_and_errors_have_positions() {
        let m = Map::bundled()
            .overlaid(
                "floor_height = 2.5\n[object]\n\"{00112233-4455-6677-8899-aabbccddeeff}\" = \"x/y.obj\"\n",
            )
            .unwrap();
        assert_eq!(m.floor_height, 2.5);
        assert_eq!(m.object.len(), 1);
        let e = Map::parse("[object]\n\"nope\" = \"x.obj\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        let e = Map::parse("[facade]\ndefault = \"x.obj\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 11), "{e}");
        let e = Map::parse("floor_height = -1.0\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }
}
