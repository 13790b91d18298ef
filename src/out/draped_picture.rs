//! The textured picture's draped polygons and painted lines (a whole
//! tile's `.pol` and `.lin`), drawn under everything else.
//!
//! - A **draped polygon** is filled with its texture as the 3-D scene maps
//!   it ([`crate::scene::draped::draped_st`]: the DSF's UV planes, or the
//!   `.pol`'s `SCALE` turned by its heading): the texture, averaged down
//!   to the picture's pixels for one repeat, is embedded once and drawn
//!   once per repeat the polygon covers, each copy cut to the polygon
//!   with its holes (even-odd). A polygon covering more than
//!   [`MAX_REPEATS`] repeats, or drawn once the picture's image budget
//!   ([`Limits::max_picture_image_bytes`], shared with the tiles) or its
//!   [`MAX_PICTURE_COPIES`] copies (shared with the facades' roofs) are
//!   spent, is filled with the texture's mean colour instead; one whose
//!   texture coordinates span no area (UV planes giving every point the
//!   same `s, t`) with the texture's colour there. Without its
//!   texture it is a plain grey fill (and, when its `.pol` is missing,
//!   ringed as missing art).
//! - A **painted line** is a stroke of its `.lin`'s width (metres to
//!   pixels) in the mean colour of the texture columns it draws
//!   ([`crate::scene::draped::Strip`]), or yellow without its texture.
//!   An object string's line is not painted (its objects are drawn).

use super::draw::{Colour, Embedded, Image, Layer, Px, Shape, Style};
use super::frame::Entry;
use super::svg::{Frames, Sheet, View};
use super::textured::{affine, cut};
use crate::limits::Limits;
use crate::place::Placement;
use crate::place::art::{Art, ArtState};
use crate::scene::draped::{Strip, draped_st};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Most copies of a texture one draped polygon is drawn with; past it, its
/// mean colour.
pub const MAX_REPEATS: usize = 256;

/// Most copies of textures one picture draws for its draped polygons and
/// roofs together; past it, each further one is its colour.
pub const MAX_PICTURE_COPIES: usize = 20_000;

/// What one picture may still spend on textures: the bytes of the images
/// it embeds (up to [`Limits::max_picture_image_bytes`], shared with the
/// tiles) and the copies of them it draws (up to [`MAX_PICTURE_COPIES`]).
pub(super) struct Budget {
    /// Bytes embedded so far.
    pub bytes: u64,
    /// Copies still to draw.
    pub copies: usize,
}

/// Longest side of one embedded texture, pixels.
const MAX_SIDE_PX: u32 = 2048;

/// A draped polygon without its texture.
const PLAIN: Colour = Colour::hex(0x9a9a92);
/// A painted line without its texture.
const PAINT: Colour = Colour::hex(0xf2cc26);

/// What the draped layers came to.
pub(super) struct Drawn {
    /// Draped polygons.
    pub draped: Layer,
    /// Painted lines.
    pub lines: Layer,
    /// Rings of draped polygons whose `.pol` is missing (the caller marks
    /// them).
    pub missing: Vec<Vec<Px>>,
    /// Polygons filled flat for want of image budget.
    pub flat: usize,
    /// Legend entries.
    pub entries: Vec<Entry>,
}

/// A texture decoded once: its full size, its mean colour, and its
/// copies averaged down to a size, embedded once each.
pub(super) struct Decoded {
    img: crate::texture::Image,
    /// The mean colour of its pixels.
    pub mean: Colour,
    sized: HashMap<[u32; 2], Option<Arc<Embedded>>>,
}

impl Decoded {
    /// `img`, with its mean colour (`plain` when every pixel is clear).
    pub fn new(img: crate::texture::Image, plain: Colour) -> Decoded {
        let mean = cut(
            &img,
            [0, 0, img.width, img.height],
            [img.width.min(32), img.height.min(32)],
        )
        .mean()
        .unwrap_or(plain);
        Decoded {
            img,
            mean,
            sized: HashMap::new(),
        }
    }

    /// The decoded image.
    pub fn image(&self) -> &crate::texture::Image {
        &self.img
    }
}

/// Textures by file, decoded when first needed (`None`: it would not
/// decode).
#[derive(Default)]
struct Textures {
    by_file: HashMap<PathBuf, Option<Decoded>>,
}

impl Textures {
    /// The decoded texture of `art`'s `.pol`/`.lin`, when found and it
    /// decodes.
    fn of(&mut self, art: Option<&Art>) -> Option<&mut Decoded> {
        let h = art?.draped_texture()?.found.as_ref()?;
        self.by_file
            .entry(h.file().to_path_buf())
            .or_insert_with(|| Some(Decoded::new(h.decode().ok()?, PLAIN)))
            .as_mut()
    }
}

/// The draped polygons and painted lines of `scene`, drawn within what is
/// left of the picture's `budget` (spent here too).
pub(super) fn paint(
    scene: &Sheet,
    frames: &Frames,
    view: &View,
    limits: &Limits,
    budget: &mut Budget,
) -> Drawn {
    let mut out = Drawn {
        draped: Layer::new("draped", Style::default()),
        lines: Layer::new("lines", Style::default().opacity(0.95)),
        missing: Vec::new(),
        flat: 0,
        entries: Vec::new(),
    };
    let mut textures = Textures::default();
    let (mut any_textured, mut any_plain) = (false, false);
    for (i, p) in scene.placements.iter().enumerate() {
        if !p.draped.is_empty() {
            let (t, pl) = polygons(i, p, frames, view, limits, budget, &mut textures, &mut out);
            any_textured |= t;
            any_plain |= pl;
        }
        if !p.lines.is_empty() && p.kind != crate::place::PlacementKind::Str {
            lines(i, p, frames, view, &mut textures, &mut out);
        }
    }
    if any_textured {
        out.entries.push(Entry::swatch(
            Style::fill(Colour::hex(0x8c8c84)),
            "draped polygon (its texture)",
        ));
    }
    if any_plain {
        out.entries.push(Entry::swatch(
            Style::fill(PLAIN),
            "draped polygon (no texture)",
        ));
    }
    if !out.lines.shapes.is_empty() {
        out.entries.push(Entry::new(
            vec![Shape::Line {
                points: vec![[0.0, 4.5], [12.0, 4.5]],
                style: Style::outline(PAINT, 2.5),
            }],
            "painted line (its width)",
        ));
    }
    out
}

/// Placement `i`'s draped polygons into `out`: whether any was textured,
/// and whether any was plain.
#[allow(clippy::too_many_arguments)]
fn polygons(
    i: usize,
    p: &Placement,
    frames: &Frames,
    view: &View,
    limits: &Limits,
    budget: &mut Budget,
    textures: &mut Textures,
    out: &mut Drawn,
) -> (bool, bool) {
    let px = |q: [f64; 2]| view.px(frames.to_common(i, q));
    let mut tex = textures.of(p.art.as_deref());
    let (mut textured, mut plain) = (false, false);
    for d in &p.draped {
        let rings: Vec<Vec<Px>> = d
            .rings
            .iter()
            .map(|r| r.iter().map(|&q| px(q)).collect())
            .collect();
        if rings.first().is_none_or(|r| r.len() < 3) {
            continue;
        }
        if d.art.is_some_and(|s| s != ArtState::Found) {
            out.missing.push(rings[0].clone());
        }
        let Some(t) = tex.as_deref_mut() else {
            plain = true;
            out.draped.shapes.push(Shape::Area {
                rings,
                style: Style::fill(PLAIN),
            });
            continue;
        };
        textured = true;
        let st = draped_st(d);
        match copies(
            st.first().map_or(&[], Vec::as_slice),
            &rings,
            t,
            limits,
            budget,
        ) {
            Ok(images) => out
                .draped
                .shapes
                .extend(images.into_iter().map(Shape::Image)),
            Err(colour) => {
                out.flat += 1;
                out.draped.shapes.push(Shape::Area {
                    rings,
                    style: Style::fill(colour),
                });
            }
        }
    }
    (textured, plain)
}

/// The copies of texture `t` that fill a surface seen from above (a
/// draped polygon, a facade's roof): `rings` its outer ring and holes in
/// picture pixels, `outer` the texture coordinates of the outer ring's
/// points (s, t, one repeat the image; the map from them to the picture
/// is fitted on them). Or the colour to fill it with instead: the
/// texture's colour where its texture coordinates are when they span no
/// area (UV planes giving one point), else its mean colour when it covers
/// more than [`MAX_REPEATS`] repeats or the picture's `budget` cannot pay
/// for its image or its copies.
pub(super) fn copies(
    outer: &[[f64; 2]],
    rings: &[Vec<Px>],
    t: &mut Decoded,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Vec<Image>, Colour> {
    if outer.is_empty() || rings.is_empty() {
        return Err(t.mean);
    }
    let (w, h) = (f64::from(t.img.width), f64::from(t.img.height));
    // Texture pixels (x right, y down, one repeat = the image) to the
    // picture's, fitted on the outer ring.
    let from: Vec<[f64; 2]> = outer.iter().map(|q| [q[0] * w, (1.0 - q[1]) * h]).collect();
    let Some(m) = affine(&from, &rings[0]) else {
        return Err(texel(&t.img, outer[0]).unwrap_or(t.mean));
    };
    // Texture coordinates no affine map gives (a roof's four corners
    // each given its own point of the texture) cannot be drawn as one
    // image: the mean colour.
    if !fits(m, &from, &rings[0]) {
        return Err(t.mean);
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for q in outer {
        for a in 0..2 {
            lo[a] = lo[a].min(q[a]);
            hi[a] = hi[a].max(q[a]);
        }
    }
    let (s0, s1) = (lo[0].floor(), hi[0].ceil());
    let (t0, t1) = (lo[1].floor(), hi[1].ceil());
    let n = (s1 - s0).max(1.0) * (t1 - t0).max(1.0);
    if !n.is_finite() || n > MAX_REPEATS as f64 || n > budget.copies as f64 {
        return Err(t.mean);
    }
    // Picture pixels per texture pixel: never embed more. Rounded up to a
    // power of two, as mipmaps are, so that the many polygons or roofs of
    // one texture at nearly the same scale share one embedded copy.
    let k = mip_scale((m[0] * m[3] - m[1] * m[2]).abs().sqrt());
    let side = |v: u32| ((f64::from(v) * k).ceil() as u32).clamp(1, MAX_SIDE_PX);
    let size = [side(t.img.width), side(t.img.height)];
    let image = match t.sized.get(&size) {
        Some(Some(made)) => Arc::clone(made),
        Some(None) => return Err(t.mean),
        None => {
            let c = cut(&t.img, [0, 0, t.img.width, t.img.height], size);
            let made = super::png::encode_rgba(size[0], size[1], &c.rgba)
                .filter(|png| budget.bytes + png.len() as u64 <= limits.max_picture_image_bytes)
                .map(|png| {
                    budget.bytes += png.len() as u64;
                    Arc::new(Embedded {
                        png,
                        width: size[0],
                        height: size[1],
                    })
                });
            t.sized.insert(size, made.clone());
            made.ok_or(t.mean)?
        }
    };
    let (sx, sy) = (w / f64::from(size[0]), h / f64::from(size[1]));
    let holes: Vec<Vec<Px>> = rings[1..].to_vec();
    let mut v = Vec::new();
    let mut s = s0;
    while s < s1.max(s0 + 1.0) {
        let mut tt = t0;
        while tt < t1.max(t0 + 1.0) {
            // The repeat covering s..s+1, tt..tt+1 starts at texture pixel
            // (s·w, −tt·h).
            let (x0, y0) = (s * w, -tt * h);
            v.push(Image {
                image: Arc::clone(&image),
                transform: super::textured::after(m, [sx, sy], [x0, y0]),
                clip: rings[0].clone(),
                holes: holes.clone(),
            });
            tt += 1.0;
        }
        s += 1.0;
    }
    budget.copies -= v.len();
    Ok(v)
}

/// The scale `k` (picture pixels per texture pixel) rounded up to a
/// power of two, at most 1 and at least 2⁻¹⁶ (0 and what is not a number
/// give the least).
fn mip_scale(k: f64) -> f64 {
    if k.is_nan() || k <= 0.0 {
        return 2f64.powi(-16);
    }
    2f64.powi(k.log2().ceil().clamp(-16.0, 0.0) as i32)
}

/// True when the affine map `m` takes every point of `from` within a
/// pixel (or 1 % of the ring's size, when larger) of its point of `to`.
fn fits(m: [f64; 6], from: &[[f64; 2]], to: &[Px]) -> bool {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for q in to {
        for a in 0..2 {
            lo[a] = lo[a].min(q[a]);
            hi[a] = hi[a].max(q[a]);
        }
    }
    let slack = (0.01 * (hi[0] - lo[0]).hypot(hi[1] - lo[1])).max(1.0);
    from.iter().zip(to).all(|(p, q)| {
        let x = m[0] * p[0] + m[2] * p[1] + m[4];
        let y = m[1] * p[0] + m[3] * p[1] + m[5];
        (x - q[0]).hypot(y - q[1]) <= slack
    })
}

/// The colour of `img` at texture coordinates `st` (repeating), when the
/// pixel there is not clear.
fn texel(img: &crate::texture::Image, st: [f64; 2]) -> Option<Colour> {
    if !st.iter().all(|v| v.is_finite()) || img.width == 0 || img.height == 0 {
        return None;
    }
    let (s, t) = (st[0].rem_euclid(1.0), st[1].rem_euclid(1.0));
    let x = ((s * f64::from(img.width)) as u32).min(img.width - 1);
    let y = (((1.0 - t) * f64::from(img.height)) as u32).min(img.height - 1);
    let at = (y as usize * img.width as usize + x as usize) * 4;
    let p = img.rgba.get(at..at + 4)?;
    (p[3] > 0).then_some(Colour(p[0], p[1], p[2]))
}

/// Placement `i`'s painted lines into `out`.
fn lines(
    i: usize,
    p: &Placement,
    frames: &Frames,
    view: &View,
    textures: &mut Textures,
    out: &mut Drawn,
) {
    let px = |q: [f64; 2]| view.px(frames.to_common(i, q));
    let strip = p.art.as_deref().and_then(Art::lin).and_then(Strip::of);
    let colour = match (textures.of(p.art.as_deref()), strip) {
        (Some(t), Some(st)) => {
            // The mean of the texture columns the strip draws.
            let w = t.img.width;
            let col = |s: f64| ((s * f64::from(w)).round().clamp(0.0, f64::from(w))) as u32;
            let (a, b) = (col(st.right[1]), col(st.left[1]));
            let (a, b) = (a.min(b), a.max(b).max(a.min(b) + 1).min(w));
            if a < b {
                let size = [(b - a).min(16), t.img.height.min(16)];
                cut(&t.img, [a, 0, b, t.img.height], size)
                    .mean()
                    .unwrap_or(t.mean)
            } else {
                t.mean
            }
        }
        (Some(t), None) => t.mean,
        _ => PAINT,
    };
    for l in &p.lines {
        let width = strip
            .map(|s| s.width())
            .or(l.width)
            .unwrap_or(crate::scene::draped::PLAIN_LINE_WIDTH);
        let mut points: Vec<Px> = l.points.iter().map(|&q| px(q)).collect();
        if points.len() < 2 {
            continue;
        }
        if l.closed {
            points.push(points[0]);
        }
        out.lines.shapes.push(Shape::Line {
            points,
            style: Style::outline(colour, (width * view.scale).max(0.6)),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_round_up_to_powers_of_two_within_bounds() {
        let cases = [
            (1.0, 1.0),
            (3.0, 1.0),
            (0.5, 0.5),
            (0.3, 0.5),
            (0.26, 0.5),
            (0.25, 0.25),
            (0.0, 2f64.powi(-16)),
            (f64::NAN, 2f64.powi(-16)),
            (1e-30, 2f64.powi(-16)),
        ];
        for (k, want) in cases {
            assert_eq!(mip_scale(k), want, "{k}");
        }
    }
}
