//! Outputs: a [`Placement`] as JSON, GeoJSON, DSF2Text, SVG and PNG.
//!
//! [`render`] draws one placement; [`render_all`] draws several (every
//! autogen use of a DSF tile) as one combined result: a JSON array, one
//! FeatureCollection, one DSF2Text file, one picture. The formats are
//! described in `docs/placement.md`.

pub mod dsf_text;
pub mod geojson;
pub mod json;
pub mod png;
pub mod strokefont;
pub mod svg;

use crate::place::Placement;
use std::path::Path;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The placement model serialized (stable field names).
    Json,
    /// A GeoJSON FeatureCollection in lon/lat.
    Geojson,
    /// DSF2Text (DSFTool's text form of a DSF) with objects and facades.
    DsfText,
    /// A top-down SVG picture.
    Svg,
    /// The SVG picture rasterised (labels are SVG-only).
    Png,
}

impl Format {
    /// The format a file name asks for by its extension (`.json`,
    /// `.geojson`, `.txt`, `.svg`, `.png`), if any.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "json" => Format::Json,
            "geojson" => Format::Geojson,
            "txt" => Format::DsfText,
            "svg" => Format::Svg,
            "png" => Format::Png,
            _ => return None,
        })
    }
}

/// Why an output could not be made.
#[derive(Debug, thiserror::Error)]
pub enum OutError {
    /// Serialization failed.
    #[error("cannot serialize: {0}")]
    Json(#[from] serde_json::Error),
    /// Rasterising failed.
    #[error("cannot rasterise: {0}")]
    Png(String),
}

/// Renders one placement. JSON is one object (see [`render_all`] for the
/// array form).
pub fn render(p: &Placement, format: Format) -> Result<Vec<u8>, OutError> {
    match format {
        Format::Json => json::to_json(p),
        _ => render_all(std::slice::from_ref(p), format),
    }
}

/// Renders several placements as one result: JSON is always an array here
/// (even of one); the other formats combine everything (GeoJSON features
/// carry a `placement` index, the picture uses the first placement's
/// origin as its frame).
pub fn render_all(ps: &[Placement], format: Format) -> Result<Vec<u8>, OutError> {
    match format {
        Format::Json => json::to_json_array(ps),
        Format::Geojson => geojson::to_geojson(ps),
        Format::DsfText => Ok(dsf_text::to_dsf_text(ps).into_bytes()),
        Format::Svg => Ok(svg::to_svg(ps).into_bytes()),
        Format::Png => png::to_png(&svg::to_svg_with(ps, svg::TextMode::Outlined)),
    }
}
