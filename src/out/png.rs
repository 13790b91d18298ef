//! `--format png`: the SVG picture rasterised with resvg.
//!
//! resvg is built without its text feature (no fonts are loaded), so the
//! picture given here is drawn with its words as strokes of a small
//! built-in font ([`super::strokefont`]); any `<text>` left in an
//! SVG passed in is not drawn.

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
