//! `--format png`: the SVG picture rasterised with resvg.
//!
//! resvg is built without its text feature (no fonts are loaded), so the
//! picture given here is drawn with its words as strokes of a small
//! built-in font ([`super::strokefont`]); any `<text>` left in an
//! SVG passed in is not drawn.

use super::OutError;
use resvg::{tiny_skia, usvg};

/// A PNG file of `w` × `h` RGBA8 pixels (`None` when `rgba` is not that
/// size): the one encoder of the pictures' cuts, the 3-D scene's
/// textures and the previewer's textures.
pub fn encode_rgba(w: u32, h: u32, rgba: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut enc = ::png::Encoder::new(&mut out, w, h);
    enc.set_color(::png::ColorType::Rgba);
    enc.set_depth(::png::BitDepth::Eight);
    let mut wr = enc.write_header().ok()?;
    wr.write_image_data(rgba).ok()?;
    wr.finish().ok()?;
    Some(out)
}

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
