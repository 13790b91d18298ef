//! The textured style: what the simulator draws, seen from above.
//!
//! - **Tiles** are drawn with the pixels of their asset's `TEXTURE`: each
//!   tile's rectangle of texture coordinates (its `uv`, in `TEXTURE_SCALE`
//!   pixels, t counted up from the bottom as OpenGL counts it) is cut from
//!   the decoded PNG or DDS, mapped onto the tile's outline by the affine
//!   map its vertices give (so rotation, scale and a mirrored tile come
//!   out as placed) and cut to the outline (which is already cropped by
//!   `CROP_POLY`). Hidden tiles (`HIDE_TILES`, `HIDE_TILE`) are not
//!   textured: they stay the schematic's dashed outlines.
//! - **Objects** are their footprints from the OBJ (turned by their
//!   heading), shaded by height: the taller, the darker.
//! - **Facades** are roofed footprints: the roof filled, the walls an
//!   outline (a facade without a roof is its walls over a light fill).
//! - **Trees** of cards are crowns of their own width (an X-Plane 12
//!   3-D tree is the outline of its mesh seen from above), coloured with the mean
//!   colour of the tree's cut of the forest texture (green when the
//!   texture cannot be read).
//! - **Draped polygons and painted lines** of a whole tile are drawn
//!   under everything else (`out/draped_picture.rs`): polygons filled
//!   with their texture as the 3-D scene maps it, holes left empty;
//!   lines as strokes of their width in their texture's mean colour.
//!
//! Everything without art to draw it is left to the schematic style
//! (`out/schematic.rs`): an item whose art was looked up and is missing
//! or unreadable is drawn as its symbol and ringed with a dashed mark, and
//! the legend says so; items whose art was not looked up at all (`--no-art`,
//! placements built by hand) are plain symbols, as in the schematic
//! picture.
//!
//! Memory: each texture file is read and decoded once per picture and
//! dropped before the next one (the tiles are visited grouped by texture);
//! a cut is never larger than the picture pixels it covers (it is averaged
//! down to them); identical cuts are embedded once; and the embedded PNGs
//! of one picture are capped at [`Limits::max_picture_image_bytes`] — past
//! it, tiles are filled with the mean colour of their cut, and the picture
//! says so.

use super::draw::{Colour, Embedded, Image, Layer, Px, Shape, Style};
use super::frame::Entry;
use super::labels::Labels;
use super::svg::{Frames, Scene, View};
use crate::geom::Xy;
use crate::limits::Limits;
use crate::place::Placement;
use crate::place::art::{ArtState, TextureHandle};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Longest side of one embedded cut, pixels.
const MAX_CUT_PX: u32 = 2048;

const MISSING: Colour = Colour::hex(0xc2185b);
const ROOF: Colour = Colour::hex(0xa65a42);
const WALL: Colour = Colour::hex(0x4a2a1c);
const OPEN: Colour = Colour::hex(0xe3d6c0);
const CROWN: Colour = Colour::hex(0x4f8a3a);
/// Object footprints: the colour of a low object and of one
/// [`TALL_M`] metres or taller.
const LOW: Colour = Colour::hex(0xd7d2c8);
const HIGH: Colour = Colour::hex(0x4b4f58);
const TALL_M: f64 = 30.0;
const OBJECT_EDGE: Colour = Colour::hex(0x2b2b2b);

/// The style of the dashed mark around an item whose art is missing.
fn missing_style() -> Style {
    Style::outline(MISSING, 1.6).dashed(4.0, 3.0)
}

/// A cut of a texture: the image's pixels `[x0, y0, x1, y1]` averaged
/// down to `size`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The rectangle of the texture's pixels (x right, y down).
    pub rect: [u32; 4],
    /// Its size once averaged down.
    pub size: [u32; 2],
    /// RGBA8 pixels, rows top to bottom.
    pub rgba: Vec<u8>,
}

impl Cut {
    /// The mean colour of its pixels, weighted by their alpha (`None`
    /// when every pixel is clear).
    pub fn mean(&self) -> Option<Colour> {
        mean_rgba(&self.rgba)
    }
}

fn mean_rgba(rgba: &[u8]) -> Option<Colour> {
    let (mut r, mut g, mut b, mut a) = (0u64, 0u64, 0u64, 0u64);
    for p in rgba.chunks_exact(4) {
        let w = u64::from(p[3]);
        r += u64::from(p[0]) * w;
        g += u64::from(p[1]) * w;
        b += u64::from(p[2]) * w;
        a += w;
    }
    (a > 0).then(|| Colour((r / a) as u8, (g / a) as u8, (b / a) as u8))
}

/// The rectangle `[x0, y0, x1, y1]` (texture pixels) of `img` averaged down
/// to `size` pixels (each output pixel the mean of the texture pixels it
/// covers; a copy when `size` is the rectangle's own).
pub fn cut(img: &crate::texture::Image, rect: [u32; 4], size: [u32; 2]) -> Cut {
    let [x0, y0, x1, y1] = rect;
    let (cw, ch) = (x1 - x0, y1 - y0);
    let [w, h] = size;
    let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
    let span = |i: u32, n: u32, of: u32| -> (u32, u32) {
        let a = (u64::from(i) * u64::from(of) / u64::from(n)) as u32;
        let b = ((u64::from(i) + 1) * u64::from(of) / u64::from(n)) as u32;
        (a, b.max(a + 1).min(of))
    };
    let stride = img.width as usize * 4;
    for j in 0..h {
        let (sy0, sy1) = span(j, h, ch);
        for i in 0..w {
            let (sx0, sx1) = span(i, w, cw);
            let mut sum = [0u64; 4];
            for y in sy0..sy1 {
                let row = (y0 + y) as usize * stride;
                for x in sx0..sx1 {
                    let at = row + (x0 + x) as usize * 4;
                    for (k, s) in sum.iter_mut().enumerate() {
                        *s += u64::from(img.rgba[at + k]);
                    }
                }
            }
            let n = u64::from((sy1 - sy0) * (sx1 - sx0)).max(1);
            rgba.extend(sum.map(|s| (s / n) as u8));
        }
    }
    Cut { rect, size, rgba }
}

use super::png::encode_rgba as encode_png;

/// The affine map `m` after scaling by `scale` and moving by `at` (both
/// in the source's pixels): `m ∘ (p ↦ p·scale + at)`, as an image's
/// transform takes it.
pub(super) fn after(m: [f64; 6], scale: [f64; 2], at: [f64; 2]) -> [f64; 6] {
    let ([sx, sy], [x0, y0]) = (scale, at);
    [
        m[0] * sx,
        m[1] * sx,
        m[2] * sy,
        m[3] * sy,
        m[0] * x0 + m[2] * y0 + m[4],
        m[1] * x0 + m[3] * y0 + m[5],
    ]
}

/// The affine map taking `from` points onto `to` points, fitted on the
/// first point and the two others spanning the largest triangle:
/// `[a, b, c, d, e, f]` with x' = a·x + c·y + e, y' = b·x + d·y + f.
/// `None` when the `from` points are all on one line.
pub fn affine(from: &[[f64; 2]], to: &[Px]) -> Option<[f64; 6]> {
    let n = from.len().min(to.len()).min(64);
    if n < 3 {
        return None;
    }
    let d = |p: [f64; 2], q: [f64; 2]| [q[0] - p[0], q[1] - p[1]];
    let mut best = (0.0, 0, 0);
    for j in 1..n {
        for k in j + 1..n {
            let (a, b) = (d(from[0], from[j]), d(from[0], from[k]));
            let det = a[0] * b[1] - b[0] * a[1];
            if det.abs() > f64::abs(best.0) {
                best = (det, j, k);
            }
        }
    }
    let (det, j, k) = best;
    if det.abs() < 1e-9 || !det.is_finite() {
        return None;
    }
    let (q1, q2) = (d(from[0], from[j]), d(from[0], from[k]));
    let (p1, p2) = (d(to[0], to[j]), d(to[0], to[k]));
    // L = P · Q⁻¹ with Q = [q1 q2], P = [p1 p2] as columns.
    let inv = [q2[1] / det, -q2[0] / det, -q1[1] / det, q1[0] / det];
    let l00 = p1[0] * inv[0] + p2[0] * inv[2];
    let l01 = p1[0] * inv[1] + p2[0] * inv[3];
    let l10 = p1[1] * inv[0] + p2[1] * inv[2];
    let l11 = p1[1] * inv[1] + p2[1] * inv[3];
    let e = to[0][0] - l00 * from[0][0] - l01 * from[0][1];
    let f = to[0][1] - l10 * from[0][0] - l11 * from[0][1];
    let m = [l00, l10, l01, l11, e, f];
    m.iter().all(|v| v.is_finite()).then_some(m)
}

/// Where a tile's `uv` (TEXTURE_SCALE pixels, t up) falls in an image of
/// `w` × `h` pixels (x right, y down).
fn image_px(uv: [f64; 2], scale: [f64; 2], w: u32, h: u32) -> [f64; 2] {
    let (w, h) = (f64::from(w), f64::from(h));
    [uv[0] * w / scale[0], h - uv[1] * h / scale[1]]
}

/// A texture, its `TEXTURE_SCALE`, and the (placement, tile) pairs drawn
/// with it.
type Job = (TextureHandle, [f64; 2], Vec<(usize, usize)>);

/// A cut made: embedded, or (past the budget) its mean colour; by
/// (job, rectangle, size).
type Cuts = HashMap<(usize, [u32; 4], [u32; 2]), Result<Arc<Embedded>, Colour>>;

/// How one tile is drawn on the ground.
enum Ground {
    /// Its cut, mapped and clipped.
    Image(Image),
    /// Its cut's mean colour (the image budget is spent).
    Flat(Vec<Px>, Colour),
}

/// What one picture's textures came to.
#[derive(Default)]
struct Grounds {
    /// By (placement, tile).
    drawn: HashMap<(usize, usize), Ground>,
    /// Tiles that could not be textured (no texture, unreadable, no
    /// mapping): drawn as symbols, marked.
    failed: Vec<(usize, usize)>,
    /// Tiles filled flat because the budget was spent.
    flat: usize,
    /// Bytes embedded.
    bytes: u64,
}

/// The textured tiles of `scene`: each texture read and decoded once,
/// dropped before the next.
fn grounds(scene: &Scene, frames: &Frames, view: &View, limits: &Limits) -> Grounds {
    let mut out = Grounds::default();
    // Texture file → its tiles, in first-seen order.
    let mut jobs: Vec<Job> = Vec::new();
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for (i, p) in scene.placements.iter().enumerate() {
        let Some(art) = &p.art else { continue };
        let tex = art.ground_texture();
        for (k, t) in p.tiles.iter().enumerate() {
            if t.hidden {
                continue;
            }
            match &tex {
                Some((tex, scale)) if scale[0] > 0.0 && scale[1] > 0.0 => {
                    let at = *index.entry(tex.file().to_path_buf()).or_insert_with(|| {
                        jobs.push(((*tex).clone(), *scale, Vec::new()));
                        jobs.len() - 1
                    });
                    jobs[at].2.push((i, k));
                }
                _ => out.failed.push((i, k)),
            }
        }
    }
    // Identical cuts (same file, rectangle and size) are embedded once.
    let mut cuts: Cuts = HashMap::new();
    for (n, (tex, _, tiles)) in jobs.iter().enumerate() {
        let Ok(img) = tex.decode() else {
            out.failed.extend(tiles);
            continue;
        };
        let scale = jobs[n].1;
        for &(i, k) in tiles {
            let t = &scene.placements[i].tiles[k];
            let ring: Vec<Px> = t
                .polygon
                .iter()
                .map(|&q| view.px(frames.to_common(i, q)))
                .collect();
            let q: Vec<[f64; 2]> =
                t.uv.iter()
                    .map(|&uv| image_px(uv, scale, img.width, img.height))
                    .collect();
            let Some(m) = affine(&q, &ring) else {
                out.failed.push((i, k));
                continue;
            };
            // The cut: the box of the tile's texture pixels, inside the
            // image.
            let bound = |v: f64, hi: u32| v.clamp(0.0, f64::from(hi));
            let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
            for p in &q {
                for a in 0..2 {
                    lo[a] = lo[a].min(p[a]);
                    hi[a] = hi[a].max(p[a]);
                }
            }
            let rect = [
                bound(lo[0].floor(), img.width) as u32,
                bound(lo[1].floor(), img.height) as u32,
                bound(hi[0].ceil(), img.width) as u32,
                bound(hi[1].ceil(), img.height) as u32,
            ];
            if rect[2] <= rect[0] || rect[3] <= rect[1] {
                out.failed.push((i, k));
                continue;
            }
            // Picture pixels per texture pixel: never embed more.
            let k_px = (m[0] * m[3] - m[1] * m[2]).abs().sqrt().min(1.0);
            let side = |n: u32| ((f64::from(n) * k_px).ceil() as u32).clamp(1, MAX_CUT_PX);
            let size = [side(rect[2] - rect[0]), side(rect[3] - rect[1])];
            let made = cuts.entry((n, rect, size)).or_insert_with(|| {
                let c = cut(&img, rect, size);
                let mean = c.mean().unwrap_or(Colour(128, 128, 128));
                if out.bytes >= limits.max_picture_image_bytes {
                    return Err(mean);
                }
                match encode_png(size[0], size[1], &c.rgba) {
                    Some(png) if out.bytes + png.len() as u64 <= limits.max_picture_image_bytes => {
                        out.bytes += png.len() as u64;
                        Ok(Arc::new(Embedded {
                            png,
                            width: size[0],
                            height: size[1],
                        }))
                    }
                    _ => {
                        // Spent: no further cut is tried.
                        out.bytes = limits.max_picture_image_bytes;
                        Err(mean)
                    }
                }
            });
            let ground = match made {
                Ok(image) => {
                    // From the cut's pixels to the texture's, then to the
                    // picture's.
                    let sx = f64::from(rect[2] - rect[0]) / f64::from(size[0]);
                    let sy = f64::from(rect[3] - rect[1]) / f64::from(size[1]);
                    let (x0, y0) = (f64::from(rect[0]), f64::from(rect[1]));
                    Ground::Image(Image {
                        image: Arc::clone(image),
                        transform: after(m, [sx, sy], [x0, y0]),
                        clip: ring,
                        holes: Vec::new(),
                    })
                }
                Err(mean) => {
                    out.flat += 1;
                    Ground::Flat(ring, *mean)
                }
            };
            out.drawn.insert((i, k), ground);
        }
    }
    out
}

/// The outlines seen from above of trees drawn as their X-Plane 12 3-D
/// mesh (`MESH_3D`), each mesh's hull worked out once for a tree 1 m tall
/// (the mesh scales evenly with height: [`crate::forest::tree3d::scale`]).
#[derive(Default)]
struct Outlines(HashMap<(usize, usize), Option<Vec<Xy>>>);

impl Outlines {
    /// The outline of `t` in local metres: the convex hull of its mesh as
    /// the 3-D scene places it (its height, its heading;
    /// [`crate::scene::append`]). `None` for a tree of cards, drawn as a
    /// crown of its width, and for a tree whose place is not finite.
    fn of(&mut self, p: &Placement, t: &crate::place::PlacedTree) -> Option<Vec<Xy>> {
        let file = p.art.as_ref()?.forest.as_ref()?;
        let forest = file.value.as_ref()?;
        let k = t.forest_tree?;
        let unit = self
            .0
            .entry((std::sync::Arc::as_ptr(forest) as usize, k))
            .or_insert_with(|| {
                let tree = forest.trees.get(k)?;
                if !crate::forest::mesh::is_3d(forest, tree) {
                    return None;
                }
                let mesh = crate::forest::mesh::tree(forest, tree, 1.0, 1.0);
                let hull = crate::obj::footprint::hull(mesh.positions.iter().map(|q| [q[0], q[1]]));
                (hull.len() >= 3).then_some(hull)
            })
            .as_ref()?;
        let w = Some(t.width)
            .filter(|w| w.is_finite() && *w > 0.0)
            .unwrap_or(3.0);
        let h = t
            .height
            .filter(|h| h.is_finite() && *h > 0.0)
            .unwrap_or(w * 1.5);
        let flat = crate::geom::Mesh {
            positions: unit.iter().map(|&[x, y]| [x * h, y * h, 0.0]).collect(),
            ..crate::geom::Mesh::default()
        };
        let mut placed = crate::geom::Mesh::default();
        crate::scene::append(&mut placed, &flat, [t.x, t.y], t.heading);
        let ring: Vec<Xy> = placed.positions.iter().map(|q| [q[0], q[1]]).collect();
        ring.iter().flatten().all(|v| v.is_finite()).then_some(ring)
    }
}

/// The mean colour of each tree's cut of each forest texture, by
/// (texture file, tree index); each texture decoded once.
fn crown_colours(scene: &Scene) -> HashMap<(PathBuf, usize), Colour> {
    let mut out = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    for p in &scene.placements {
        let Some(art) = &p.art else { continue };
        let (Some(tex), Some(forest)) = (art.forest_texture(), art.forest()) else {
            continue;
        };
        let file = tex.file().to_path_buf();
        if p.trees.is_empty() || !seen.insert(file.clone()) {
            continue;
        }
        let Ok(img) = tex.decode() else {
            continue;
        };
        let [sx, sy] = forest.scale;
        if !(sx > 0.0 && sy > 0.0) {
            continue;
        }
        for (n, t) in forest.trees.iter().enumerate() {
            let a = image_px([t.s, t.t + t.h], [sx, sy], img.width, img.height);
            let b = image_px([t.s + t.w, t.t], [sx, sy], img.width, img.height);
            let clamp = |v: f64, hi: u32| v.clamp(0.0, f64::from(hi)) as u32;
            let rect = [
                clamp(a[0].floor(), img.width),
                clamp(a[1].floor(), img.height),
                clamp(b[0].ceil(), img.width),
                clamp(b[1].ceil(), img.height),
            ];
            if rect[2] <= rect[0] || rect[3] <= rect[1] {
                continue;
            }
            // A small average is enough for a colour.
            let size = [(rect[2] - rect[0]).min(16), (rect[3] - rect[1]).min(16)];
            if let Some(c) = cut(&img, rect, size).mean() {
                out.insert((file.clone(), n), c);
            }
        }
    }
    out
}

/// `c` mixed with `d` by `t` (0: `c`, 1: `d`).
fn mix(c: Colour, d: Colour, t: f64) -> Colour {
    let t = t.clamp(0.0, 1.0);
    let m = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    Colour(m(c.0, d.0), m(c.1, d.1), m(c.2, d.2))
}

/// True when an item's art was looked up and is not there to draw.
fn missing(state: Option<ArtState>) -> bool {
    state.is_some_and(|s| s != ArtState::Found)
}

/// The map's layers and legend entries, and a note when tiles were
/// filled flat because the picture's image budget was spent.
pub(super) fn paint(
    scene: &Scene,
    frames: &Frames,
    view: &View,
    labels: &mut Labels,
    limits: &Limits,
) -> (Vec<Layer>, Vec<Entry>, Option<String>) {
    let scale = view.scale;
    let px = |i: usize, q: Xy| view.px(frames.to_common(i, q));
    let mut ground = grounds(scene, frames, view, limits);
    // A whole tile's draped polygons and lines, sharing the image budget.
    let drapes = super::draped_picture::paint(scene, frames, view, limits, &mut ground.bytes);
    let crowns = crown_colours(scene);
    let mut outlines = Outlines::default();
    let failed: std::collections::HashSet<(usize, usize)> = ground.failed.iter().copied().collect();

    let mut ground_layer = Layer::new("ground", Style::default());
    let mut roofs = Layer::new("roofs", Style::default());
    let mut footprints = Layer::new(
        "footprints",
        Style::default().stroke(OBJECT_EDGE, if scale >= 1.0 { 0.8 } else { 0.4 }),
    );
    let mut crown_layer = Layer::new("crowns", Style::default().opacity(0.92));
    let mut marks = Layer::new("art-missing", missing_style());
    for ring in drapes.missing {
        marks.shapes.push(Shape::Area {
            rings: vec![ring],
            style: Style::default(),
        });
    }
    let (mut any_roof, mut any_open) = (false, false);

    // What the schematic style draws: everything not drawn here.
    let mut rest: Vec<Placement> = Vec::with_capacity(scene.placements.len());
    for (i, p) in scene.placements.iter().enumerate() {
        let mut r = Placement {
            kind: p.kind,
            asset: p.asset.clone(),
            origin: p.origin,
            seed: p.seed,
            polygon: p.polygon.clone(),
            ..Placement::default()
        };
        for (k, t) in p.tiles.iter().enumerate() {
            match ground.drawn.get(&(i, k)) {
                Some(Ground::Image(img)) => ground_layer.shapes.push(Shape::Image(img.clone())),
                Some(Ground::Flat(ring, c)) => ground_layer.shapes.push(Shape::Area {
                    rings: vec![ring.clone()],
                    style: Style::fill(*c),
                }),
                None => {
                    if failed.contains(&(i, k)) {
                        marks.shapes.push(Shape::Area {
                            rings: vec![t.polygon.iter().map(|&q| px(i, q)).collect()],
                            style: Style::default(),
                        });
                    }
                    r.tiles.push(t.clone());
                }
            }
        }
        for o in &p.objects {
            if o.art == Some(ArtState::Found) && o.footprint.len() >= 3 {
                let h = o.object_height.unwrap_or(0.0).max(0.0);
                footprints.shapes.push(Shape::Area {
                    rings: vec![o.footprint.iter().map(|&q| px(i, q)).collect()],
                    style: Style::fill(mix(LOW, HIGH, h / TALL_M)),
                });
                continue;
            }
            if missing(o.art) {
                marks.shapes.push(Shape::Circle {
                    at: px(i, [o.x, o.y]),
                    r: 8.0,
                    style: Style::default(),
                });
            }
            r.objects.push(o.clone());
        }
        for f in &p.facades {
            if f.art == Some(ArtState::Found) && f.polygon.len() >= 2 {
                let ring: Vec<Px> = f.polygon.iter().map(|&q| px(i, q)).collect();
                let roofed = f.roof.unwrap_or(true);
                any_roof |= roofed;
                any_open |= !roofed;
                let h = f.drawn_height.unwrap_or(f.height).max(0.0);
                let style = if roofed {
                    Style::fill(mix(ROOF, WALL, h / 120.0))
                } else {
                    Style::fill(OPEN).fill_opacity(0.5)
                };
                roofs.shapes.push(Shape::Area {
                    rings: vec![ring],
                    style: style.stroke(WALL, if scale >= 1.0 { 1.6 } else { 0.6 }),
                });
                continue;
            }
            if missing(f.art) {
                marks.shapes.push(Shape::Area {
                    rings: vec![f.polygon.iter().map(|&q| px(i, q)).collect()],
                    style: Style::default(),
                });
            }
            r.facades.push(f.clone());
        }
        let forest_tex = p
            .art
            .as_ref()
            .and_then(|a| a.forest_texture())
            .map(|t| t.file().to_path_buf());
        for t in &p.trees {
            if t.art == Some(ArtState::Found) {
                let c = forest_tex
                    .as_ref()
                    .zip(t.forest_tree)
                    .and_then(|(f, n)| crowns.get(&(f.clone(), n)).copied())
                    .unwrap_or(CROWN);
                let style = Style::fill(c).stroke(mix(c, Colour(0, 0, 0), 0.45), 0.6);
                if let Some(ring) = outlines.of(p, t) {
                    crown_layer.shapes.push(Shape::Area {
                        rings: vec![ring.into_iter().map(|q| px(i, q)).collect()],
                        style,
                    });
                    continue;
                }
                crown_layer.shapes.push(Shape::Circle {
                    at: px(i, [t.x, t.y]),
                    r: (t.width / 2.0 * scale).max(0.8),
                    style: Style::fill(c).stroke(mix(c, Colour(0, 0, 0), 0.45), 0.6),
                });
                continue;
            }
            if missing(t.art) {
                marks.shapes.push(Shape::Circle {
                    at: px(i, [t.x, t.y]),
                    r: (t.width / 2.0 * scale).max(3.0) + 2.0,
                    style: Style::default(),
                });
            }
            r.trees.push(t.clone());
        }
        rest.push(r);
    }
    let sub = Scene {
        placements: rest.iter().collect(),
        unplaced: scene.unplaced.clone(),
        tile: scene.tile,
    };
    let (mut layers, mut entries) = super::schematic::paint(&sub, frames, view, labels);

    // Legend entries of what is drawn here, first.
    let mut mine = Vec::new();
    if ground_layer.shapes.len() > ground.flat {
        mine.push(Entry::new(
            vec![
                Shape::Rect {
                    at: [0.0, 0.0],
                    size: [6.0, 4.5],
                    style: Style::fill(Colour::hex(0x8a9a6b)),
                },
                Shape::Rect {
                    at: [6.0, 0.0],
                    size: [6.0, 4.5],
                    style: Style::fill(Colour::hex(0xb9ad8f)),
                },
                Shape::Rect {
                    at: [0.0, 4.5],
                    size: [6.0, 4.5],
                    style: Style::fill(Colour::hex(0x9c9a94)),
                },
                Shape::Rect {
                    at: [6.0, 4.5],
                    size: [6.0, 4.5],
                    style: Style::fill(Colour::hex(0x6f8455)),
                },
            ],
            "tile (its texture)",
        ));
    }
    mine.extend(drapes.entries);
    if ground.flat > 0 {
        mine.push(Entry::swatch(
            Style::fill(Colour::hex(0x9c9a94)),
            format!(
                "{} in flat colour (image budget spent)",
                super::count(ground.flat, "tile")
            ),
        ));
    }
    if any_roof {
        mine.push(Entry::swatch(
            Style::fill(ROOF).stroke(WALL, 1.6),
            "facade (roof, walls)",
        ));
    }
    if any_open {
        mine.push(Entry::swatch(
            Style::fill(OPEN).stroke(WALL, 1.6),
            "facade without roof",
        ));
    }
    if !footprints.shapes.is_empty() {
        mine.push(Entry::new(
            vec![
                Shape::Rect {
                    at: [0.0, 0.0],
                    size: [6.0, 9.0],
                    style: Style::fill(LOW).stroke(OBJECT_EDGE, 0.8),
                },
                Shape::Rect {
                    at: [6.0, 0.0],
                    size: [6.0, 9.0],
                    style: Style::fill(HIGH).stroke(OBJECT_EDGE, 0.8),
                },
            ],
            "object footprint (darker: taller)",
        ));
    }
    if !crown_layer.shapes.is_empty() {
        mine.push(Entry::disc(
            5.0,
            Style::fill(CROWN).stroke(mix(CROWN, Colour(0, 0, 0), 0.45), 0.6),
            "tree crown (its width)",
        ));
    }
    if !marks.shapes.is_empty() {
        mine.push(Entry::new(
            vec![Shape::Circle {
                at: [6.0, 4.5],
                r: 5.0,
                style: missing_style(),
            }],
            "art missing: drawn as symbol",
        ));
    }
    mine.append(&mut entries);

    // Ground under the schematic tiles; buildings, footprints and crowns
    // over the schematic facades; the marks under the labels.
    // Only the layers that hold something are added.
    let put = |layers: &mut Vec<Layer>, before: &str, layer: Layer| {
        if !layer.shapes.is_empty() {
            let at = layers.iter().position(|l| l.id == before);
            layers.insert(at.unwrap_or(layers.len()), layer);
        }
    };
    put(&mut layers, "tiles", ground_layer);
    put(&mut layers, "trees", roofs);
    put(&mut layers, "trees", footprints);
    put(&mut layers, "trees", crown_layer);
    put(&mut layers, "labels", marks);
    // Draped polygons and lines under everything else, lines above the
    // polygons they are painted on.
    for layer in [drapes.lines, drapes.draped] {
        if !layer.shapes.is_empty() {
            layers.insert(0, layer);
        }
    }

    let note = (ground.flat > 0).then(|| {
        format!(
            "textures: {} drawn in flat colour, the picture's images having reached {} bytes (Limits::max_picture_image_bytes)",
            super::count(ground.flat, "tile"),
            super::thousands(limits.max_picture_image_bytes as usize)
        )
    });
    let note = match (note, drapes.flat) {
        (note, 0) => note,
        (note, n) => Some(
            note.into_iter()
                .chain([format!(
                    "textures: {} filled with their texture's mean colour (more than {} repeats, no texture mapping, or the image budget spent)",
                    super::count(n, "draped polygon"),
                    super::draped_picture::MAX_REPEATS
                )])
                .collect::<Vec<_>>()
                .join("; "),
        ),
    };
    (layers, mine, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree drawn as its 3-D mesh is outlined by the mesh seen from
    /// above: here a mesh 10 m tall spanning x −1…1 and z −2…2 (X-Plane's
    /// z points south), drawn 20 m tall (twice) at (100, 50): x 98…102 and
    /// y 46…54 facing north, and turned a quarter (heading 90) x 96…104,
    /// y 48…52. A tree of cards has no outline (it is a crown).
    #[test]
    fn a_3d_tree_is_outlined_by_its_mesh_seen_from_above() {
        let text = "A\n800\nFOREST\n\nTEXTURE t.png\nSCALE_X 256\nSCALE_Y 256\n\
                    SPACING 10 10\nRANDOM 0 0\n\nSHADER_3D\nTEXTURE t3.png\n\
                    MESH cone 0 500 4 6\nVERTEX 1 0 2  0 1 0  0 0  0\n\
                    VERTEX -1 0 2  0 1 0  0 0  0\nVERTEX 0 10 -2  0 1 0  0 0  0\n\
                    VERTEX 0 5 0  0 1 0  0 0  0\nIDX 0 1 2\nIDX 0 2 3\n\n\
                    TREE 0 0 64 128 32 50 10 10 2 0 cone\nMESH_3D cone\n\
                    TREE 64 0 64 128 32 50 10 10 2 0 card\n";
        let forest = crate::forest::read(text.as_bytes(), "t.for", &Limits::default()).unwrap();
        let p = Placement {
            art: Some(std::sync::Arc::new(crate::place::art::Art {
                forest: Some(crate::place::art::ArtFile {
                    path: "t.for".into(),
                    file: Some(PathBuf::from("/art/t.for")),
                    state: ArtState::Found,
                    how: String::new(),
                    value: Some(std::sync::Arc::new(forest)),
                    textures: Vec::new(),
                }),
                ..crate::place::art::Art::default()
            })),
            ..Placement::default()
        };
        let tree = |k: usize, heading: f64| crate::place::PlacedTree {
            x: 100.0,
            y: 50.0,
            width: 4.0,
            height: Some(20.0),
            heading,
            forest_tree: Some(k),
            ..crate::place::PlacedTree::default()
        };
        let bounds = |ring: Vec<Xy>| {
            let f = |c: usize, m: fn(f64, f64) -> f64, i: f64| ring.iter().map(|q| q[c]).fold(i, m);
            [
                f(0, f64::min, f64::INFINITY),
                f(0, f64::max, -f64::INFINITY),
                f(1, f64::min, f64::INFINITY),
                f(1, f64::max, -f64::INFINITY),
            ]
        };
        let near = |a: [f64; 4], b: [f64; 4]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        let mut outlines = Outlines::default();
        let north = bounds(outlines.of(&p, &tree(0, 0.0)).unwrap());
        assert!(near(north, [98.0, 102.0, 46.0, 54.0]), "{north:?}");
        let east = bounds(outlines.of(&p, &tree(0, 90.0)).unwrap());
        assert!(near(east, [96.0, 104.0, 48.0, 52.0]), "{east:?}");
        assert_eq!(outlines.of(&p, &tree(1, 0.0)), None);
        let mut lost = tree(0, f64::NAN);
        assert_eq!(outlines.of(&p, &lost), None, "a heading that is not finite");
        lost.heading = 0.0;
        lost.x = f64::INFINITY;
        assert_eq!(outlines.of(&p, &lost), None, "a place that is not finite");
    }

    #[test]
    fn affine_maps_the_points_it_was_fitted_on() {
        let from = [[0.0, 0.0], [10.0, 0.0], [10.0, 5.0], [0.0, 5.0]];
        // Turned a quarter, doubled and moved.
        let to: Vec<Px> = from
            .iter()
            .map(|p| [100.0 - 2.0 * p[1], 50.0 + 2.0 * p[0]])
            .collect();
        let m = affine(&from, &to).unwrap();
        for (p, q) in from.iter().zip(&to) {
            let x = m[0] * p[0] + m[2] * p[1] + m[4];
            let y = m[1] * p[0] + m[3] * p[1] + m[5];
            assert!((x - q[0]).abs() < 1e-9 && (y - q[1]).abs() < 1e-9);
        }
        assert!(affine(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], &to[..3]).is_none());
    }

    #[test]
    fn cuts_average_down_and_copy_at_their_own_size() {
        let img = crate::texture::Image::new(4, 2, (0..32).map(|v| v as u8 * 8).collect());
        let copy = cut(&img, [1, 0, 3, 2], [2, 2]);
        assert_eq!(&copy.rgba[..4], &img.rgba[4..8]);
        assert_eq!(&copy.rgba[8..12], &img.rgba[20..24]);
        let one = cut(&img, [0, 0, 2, 1], [1, 1]);
        assert_eq!(one.rgba, vec![16, 24, 32, 40]);
        assert_eq!(
            mean_rgba(&[10, 20, 30, 0, 200, 100, 50, 255]),
            Some(Colour(200, 100, 50))
        );
    }
}
