//! From GIS data to X-Plane scenery: DSF overlays that place autogen.
//!
//! Pipeline: GeoJSON features ([`read_features`]) + a rules file
//! ([`rules::Rules`]) → per feature a matching rule, a validated and
//! oriented geometry, cut into 1°×1° tiles ([`tiles`]) → per tile a
//! [`Dsf`](crate::dsf::Dsf) with the AGP/AGB/AGS uses ([`build`]) → binary
//! DSF files under `Earth nav data/` ([`build::write_overlay`]) and, on
//! request, one SVG/PNG preview per tile ([`preview`]); [`build_folder`]
//! runs it all into a scenery folder, as `agkit overlay build` does.

pub mod build;
pub mod folder;
pub mod orient;
pub mod preview;
pub mod rules;
pub mod tiles;

pub use build::{
    BuildOptions, Encoded, Overlay, Report, build_overlay, write_encoded_overlay, write_overlay,
    write_overlay_with,
};
pub use folder::{Built, FolderOptions, build_folder};
pub use rules::{Rules, RulesError};
pub use tiles::TileId;

use crate::geom::LonLat;
use serde_json::Value as Json;
use std::fmt;

/// A GeoJSON feature as the overlay builder sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Feature {
    /// 0-based position in the input's `features` array.
    pub index: usize,
    /// The feature's `id` (a string id as is, a number as its text), if
    /// any.
    pub id: Option<String>,
    /// The properties (empty when null).
    pub properties: serde_json::Map<String, Json>,
    /// The geometry.
    pub geometry: Geometry,
}

impl Feature {
    /// `feature 3 (id "x")` — how messages name the feature.
    pub fn label(&self) -> String {
        match &self.id {
            Some(id) => format!("feature {} (id {id:?})", self.index),
            None => format!("feature {}", self.index),
        }
    }
}

/// The geometry of a feature.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    /// Polygon or MultiPolygon: each polygon as rings of lon/lat, outer
    /// first, as given (closing vertex included if the file has it).
    Polygons(Vec<Vec<Vec<LonLat>>>),
    /// Point or MultiPoint.
    Points(Vec<LonLat>),
    /// No geometry (`null`).
    Empty,
    /// Another geometry type (not used by the overlay), named.
    Other(String),
}

/// An error reading the GeoJSON input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureError {
    /// Where: `line L column C` for JSON syntax errors, or the feature.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FeatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for FeatureError {}

/// Reads a GeoJSON FeatureCollection (or a single Feature). Coordinates
/// must be numbers; anything structurally wrong is an error naming the
/// feature. Geometry problems (empty, self-intersecting) are left to the
/// builder, which reports them per feature.
pub fn read_features(text: &str) -> Result<Vec<Feature>, FeatureError> {
    let doc: Json = serde_json::from_str(text).map_err(|e| FeatureError {
        at: format!("line {} column {}", e.line(), e.column()),
        message: format!("not valid JSON: {e}"),
    })?;
    let top = |message: &str| FeatureError {
        at: "top level".into(),
        message: message.into(),
    };
    let list: Vec<&Json> = match doc.get("type").and_then(Json::as_str) {
        Some("FeatureCollection") => doc
            .get("features")
            .and_then(Json::as_array)
            .ok_or_else(|| top("a FeatureCollection needs a `features` array"))?
            .iter()
            .collect(),
        Some("Feature") => vec![&doc],
        _ => return Err(top("expected a GeoJSON FeatureCollection or Feature")),
    };
    list.into_iter()
        .enumerate()
        .map(|(index, f)| feature(index, f))
        .collect()
}

fn feature(index: usize, f: &Json) -> Result<Feature, FeatureError> {
    let id = f.get("id").and_then(|v| match v {
        Json::String(s) => Some(s.clone()),
        Json::Number(n) => Some(n.to_string()),
        _ => None,
    });
    let label = match &id {
        Some(id) => format!("feature {index} (id {id:?})"),
        None => format!("feature {index}"),
    };
    let err = |m: String| FeatureError {
        at: label.clone(),
        message: m,
    };
    if f.get("type").and_then(Json::as_str) != Some("Feature") {
        return Err(err(
            "is not a GeoJSON Feature (`type` must be \"Feature\")".into()
        ));
    }
    let properties = match f.get("properties") {
        None | Some(Json::Null) => serde_json::Map::new(),
        Some(Json::Object(m)) => m.clone(),
        Some(_) => return Err(err("`properties` must be an object or null".into())),
    };
    let geometry = match f.get("geometry") {
        None | Some(Json::Null) => Geometry::Empty,
        Some(g) => geometry(g).map_err(err)?,
    };
    Ok(Feature {
        index,
        id,
        properties,
        geometry,
    })
}

fn geometry(g: &Json) -> Result<Geometry, String> {
    let ty = g
        .get("type")
        .and_then(Json::as_str)
        .ok_or("the geometry has no `type`")?;
    let coords = g.get("coordinates");
    let need = || coords.ok_or_else(|| format!("the {ty} has no `coordinates`"));
    Ok(match ty {
        "Point" => Geometry::Points(vec![position(need()?)?]),
        "MultiPoint" => Geometry::Points(
            array(need()?)?
                .iter()
                .map(position)
                .collect::<Result<_, _>>()?,
        ),
        "Polygon" => Geometry::Polygons(vec![polygon(need()?)?]),
        "MultiPolygon" => Geometry::Polygons(
            array(need()?)?
                .iter()
                .map(polygon)
                .collect::<Result<_, _>>()?,
        ),
        other => Geometry::Other(other.to_string()),
    })
}

fn array(v: &Json) -> Result<&Vec<Json>, String> {
    v.as_array()
        .ok_or_else(|| format!("expected an array of coordinates, found `{v}`"))
}

fn position(v: &Json) -> Result<LonLat, String> {
    let a = array(v)?;
    if a.len() < 2 {
        return Err(format!(
            "a position needs longitude and latitude, found `{v}`"
        ));
    }
    let num = |x: &Json| {
        x.as_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(|| format!("`{x}` is not a finite number"))
    };
    Ok([num(&a[0])?, num(&a[1])?])
}

fn polygon(v: &Json) -> Result<Vec<Vec<LonLat>>, String> {
    array(v)?
        .iter()
        .map(|ring| array(ring)?.iter().map(position).collect())
        .collect()
}
