//! `--format png`: the SVG picture rasterised with resvg.
//!
//! resvg is built without its text feature (no fonts are loaded), so the
//! PNG has every shape of the SVG but none of its text: tile ids, title,
//! legend labels and the scale bar's number are SVG-only.

use super::OutError;
use resvg::{tiny_skia, usvg};

/// Rasterises an SVG document at its own size.
pub fn to_png(svg: &str) -> Result<Vec<u8>, OutError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| OutError::Png(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| OutError::Png("empty picture".into()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| OutError::Png(e.to_string()))
}
