//! The textured style: what the simulator draws, seen from above.
//!
//! The art is drawn as the 3-D scene builds it ([`crate::scene`], the
//! same build the glTF writer serialises): the picture projects the
//! scene's meshes from above rather than working their geometry out
//! again. Tiles and trees are drawn piece by piece ([`scene::Piece`]: one
//! item of a mesh that merges a placement's tiles or trees).
//!
//! - **Tiles** are drawn with the pixels of the texture the scene's ground
//!   draws them with: each tile's texture coordinates in the scene (its
//!   `uv` over `TEXTURE_SCALE`, t counted up from the bottom as OpenGL
//!   counts it) give the rectangle cut from the decoded PNG or DDS, mapped
//!   onto the tile's outline by the affine map its vertices give (so
//!   rotation, scale and a mirrored tile come out as placed) and cut to
//!   the outline (which is already cropped by `CROP_POLY`). Hidden tiles
//!   (`HIDE_TILES`, `HIDE_TILE`) are not in the scene: they stay the
//!   schematic's dashed outlines.
//! - **Objects** are the scene's mesh of their OBJ seen from above (its
//!   outline, turned by their heading), shaded by its height: the taller,
//!   the darker.
//! - **Facades** are roofed footprints, their roofs as the scene builds
//!   them: the roof's outline ([`crate::geom::Mesh::outline`]) filled with
//!   its roof texture mapped by the scene's texture coordinates (one copy
//!   per repeat, as a draped polygon), over the footprint filled with the
//!   texture's mean colour (all there is when the texture cannot be drawn
//!   as images: past its repeats, texture coordinates no single map gives,
//!   the image budget spent), the walls an outline. A facade without a
//!   roof texture is a plain roof colour darkening with the height of its
//!   layout ([`crate::fac::layout::layout`]); one without a roof, its walls
//!   over a light fill.
//! - **Trees** drawn as cards are crowns of the card's width (the scene's
//!   [`scene::Piece::crown`]); an X-Plane 12 3-D tree is the outline of
//!   its mesh, as the scene places it, seen from above. Each is coloured
//!   with the mean colour of its window of the texture the scene draws it
//!   with (its card's rectangle of the forest texture, its mesh's of the
//!   3-D texture; green without a texture).
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
//! Memory: each texture is decoded once per picture and dropped before
//! the next one (the tiles and trees are visited grouped by texture);
//! a cut is never larger than the picture pixels it covers (it is averaged
//! down to them); identical cuts are embedded once; and the embedded PNGs
//! of one picture are capped at [`Limits::max_picture_image_bytes`] — past
//! it, tiles are filled with the mean colour of their cut, and the picture
//! says so.

use super::draped_picture::{Budget, Decoded, MAX_PICTURE_COPIES, copies};
use super::draw::{Colour, Embedded, Image, Layer, Px, Shape, Style};
use super::frame::Entry;
use super::labels::Labels;
use super::svg::{Frames, Sheet, View};
use crate::geom::Xy;
use crate::limits::Limits;
use crate::place::Placement;
use crate::place::art::ArtState;
use crate::scene::{self, ItemKind};
use std::collections::HashMap;
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

/// Where texture coordinates `st` (X-Plane's s, t: one repeat is the
/// image, t up) fall in an image of `w` × `h` pixels (x right, y down).
fn image_px(st: [f64; 2], w: u32, h: u32) -> [f64; 2] {
    let (w, h) = (f64::from(w), f64::from(h));
    [st[0] * w, h - st[1] * h]
}

/// The pixels `[x0, y0, x1, y1]` of a `w` × `h` image covering the
/// texture coordinates `st` (their box, inside the image).
fn texel_box(st: impl Iterator<Item = [f64; 2]>, w: u32, h: u32) -> [u32; 4] {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for q in st.map(|q| image_px(q, w, h)) {
        for a in 0..2 {
            lo[a] = lo[a].min(q[a]);
            hi[a] = hi[a].max(q[a]);
        }
    }
    let bound = |v: f64, hi: u32| v.clamp(0.0, f64::from(hi)) as u32;
    [
        bound(lo[0].floor(), w),
        bound(lo[1].floor(), h),
        bound(hi[0].ceil(), w),
        bound(hi[1].ceil(), h),
    ]
}

/// One item of the 3-D scene the picture draws piece by piece (a tile, a
/// tree): its node, the part holding it, its vertices in that part and
/// (a tree card) its crown. A 3-D tree is a node of its own using its
/// kind's mesh: its vertices are the outline of that mesh, worked out once
/// per mesh (`hull`), which the node scales, turns and moves.
#[derive(Clone, Copy)]
struct Drawn<'a> {
    node: &'a scene::Node,
    part: &'a scene::Part,
    vertices: &'a [[f64; 3]],
    st: &'a [[f64; 2]],
    crown: Option<(Xy, f64)>,
}

impl Drawn<'_> {
    /// Its vertices seen from above, in its placement's frame.
    fn plan(&self) -> impl Iterator<Item = Xy> + '_ {
        self.vertices.iter().map(|&q| {
            let [x, y, _] = self.node.to_parent(q);
            [x, y]
        })
    }

    /// Its texture coordinates.
    fn st(&self) -> &[[f64; 2]] {
        self.st
    }
}

/// The outline seen from above of each mesh 3-D trees use (its convex
/// hull, as points of the mesh at height 0, at most [`HULL_CORNERS`]), by
/// mesh.
type Hulls = HashMap<usize, Vec<[f64; 3]>>;

/// Corners a 3-D tree's outline keeps in a picture. The hull of a mesh can
/// have as many corners as the mesh has vertices (a cone of 20,000 has
/// 20,000), and every tree of the tile draws it: a 305-byte tile of 1,406
/// such trees took 12 s to draw (issue 46). A tree is a few pixels across;
/// every `n`-th corner of the hull is a convex outline inside it.
const HULL_CORNERS: usize = 64;

/// `hull` held to at most `max` corners, evenly spaced along it.
fn thinned(hull: Vec<[f64; 2]>, max: usize) -> Vec<[f64; 2]> {
    if hull.len() <= max {
        return hull;
    }
    let n = hull.len();
    (0..max).map(|k| hull[k * n / max]).collect()
}

/// The hulls of the meshes the scene's 3-D tree nodes use.
fn tree_hulls(built: &scene::Scene<'_>) -> Hulls {
    let mut out = Hulls::new();
    for node in built.nodes.iter().filter(|n| n.item.kind == ItemKind::Tree) {
        let Some(m) = node.mesh else { continue };
        out.entry(m).or_insert_with(|| {
            let points = built
                .meshes
                .get(m)
                .into_iter()
                .flat_map(|mesh| &mesh.parts)
                .flat_map(|pt| &pt.mesh.positions);
            let hull = crate::obj::footprint::hull(points.map(|q| [q[0], q[1]]));
            thinned(hull, HULL_CORNERS)
                .into_iter()
                .map(|[x, y]| [x, y, 0.0])
                .collect()
        });
    }
    out
}

/// The pieces of the scene's nodes of one kind (ground, trees), by
/// (placement, item index); for trees, the 3-D trees too (their outlines
/// from `hulls`).
fn pieces<'a>(
    built: &'a scene::Scene<'_>,
    kind: ItemKind,
    hulls: &'a Hulls,
) -> HashMap<(usize, usize), Drawn<'a>> {
    let mut out = HashMap::new();
    for node in built.nodes.iter() {
        let Some(mesh) = node.mesh.and_then(|m| built.meshes.get(m)) else {
            continue;
        };
        if node.item.kind == kind {
            for part in &mesh.parts {
                for piece in &part.pieces {
                    let d = Drawn {
                        node,
                        part,
                        vertices: &part.mesh.positions[piece.vertices.clone()],
                        st: &part.mesh.uvs[piece.vertices.clone()],
                        crown: piece.crown,
                    };
                    out.insert((node.item.placement, piece.index), d);
                }
            }
        }
        if kind == ItemKind::Trees
            && node.item.kind == ItemKind::Tree
            && let (Some(part), Some(hull)) =
                (mesh.parts.first(), node.mesh.and_then(|m| hulls.get(&m)))
        {
            let d = Drawn {
                node,
                part,
                vertices: hull,
                st: &part.mesh.uvs,
                crown: None,
            };
            out.insert((node.item.placement, node.item.index), d);
        }
    }
    out
}

/// Items of the scene by (placement, item index), grouped by the
/// texture they are drawn with: textures in first-seen order.
type ByTexture<T> = Vec<(usize, Vec<((usize, usize), T)>)>;

/// `items` grouped by the texture the scene draws each with ([`ByTexture`];
/// `part` gives the part an item is drawn in); those drawn without one are
/// left out.
fn by_texture<T>(
    built: &scene::Scene,
    items: impl Iterator<Item = ((usize, usize), T)>,
    part: impl Fn(&T) -> &scene::Part,
) -> ByTexture<T> {
    let mut groups: ByTexture<T> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for (key, d) in items {
        let material = built.materials.get(part(&d).material);
        let Some(tex) = material.and_then(|m| m.texture) else {
            continue;
        };
        let at = *index.entry(tex).or_insert_with(|| {
            groups.push((tex, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push((key, d));
    }
    groups
}

/// Objects seen from above, by (placement, object): the outline of the
/// mesh the scene draws (in the placement's frame) and its height.
type Footprints = HashMap<(usize, usize), (Vec<Xy>, f64)>;

/// The scene's objects seen from above ([`Footprints`]): each mesh's
/// outline (the convex hull of its vertices) and height worked out once,
/// each object's outline turned and moved as its node places it. An
/// object whose OBJ draws nothing static has none.
fn footprints(built: &scene::Scene) -> Footprints {
    let mut by_mesh: HashMap<usize, Option<(Vec<Xy>, f64)>> = HashMap::new();
    let mut out = HashMap::new();
    for node in built
        .nodes
        .iter()
        .filter(|n| n.item.kind == ItemKind::Object)
    {
        let Some(m) = node.mesh else { continue };
        let plan = by_mesh.entry(m).or_insert_with(|| {
            let parts = &built.meshes.get(m)?.parts;
            let points = || parts.iter().flat_map(|pt| &pt.mesh.positions);
            let hull = crate::obj::footprint::hull(points().map(|q| [q[0], q[1]]));
            let height = points().map(|q| q[2]).fold(f64::NEG_INFINITY, f64::max);
            (hull.len() >= 3).then_some((hull, height))
        });
        if let Some((hull, height)) = plan {
            let ring = hull
                .iter()
                .map(|q| {
                    let [x, y, _] = node.to_parent([q[0], q[1], 0.0]);
                    [x, y]
                })
                .collect();
            out.insert((node.item.placement, node.item.index), (ring, *height));
        }
    }
    out
}

/// A cut made: embedded, or (past the budget) its mean colour; by
/// (texture, rectangle, size).
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
    /// Tiles filled flat because the budget was spent.
    flat: usize,
    /// Bytes embedded.
    bytes: u64,
}

/// The tiles of `scene` the 3-D scene `built` textures, each cut from
/// its texture by the texture coordinates the scene gives it: each
/// texture decoded once, dropped before the next. A tile that is not
/// drawn here (no texture, not decoded, no mapping) is left to the
/// schematic style.
fn grounds(
    scene: &Sheet,
    built: &scene::Scene,
    frames: &Frames,
    view: &View,
    limits: &Limits,
) -> Grounds {
    let mut out = Grounds::default();
    let no_hulls = Hulls::new();
    let tiles = pieces(built, ItemKind::Ground, &no_hulls);
    let tiles = &tiles;
    // Texture → its tiles, in first-seen order.
    let jobs = by_texture(
        built,
        scene.placements.iter().enumerate().flat_map(|(i, p)| {
            (0..p.tiles.len()).filter_map(move |k| tiles.get(&(i, k)).map(|d| ((i, k), *d)))
        }),
        |d| d.part,
    );
    // Identical cuts (same texture, rectangle and size) are embedded once.
    let mut cuts: Cuts = HashMap::new();
    for (tex, tiles) in jobs {
        let Ok(img) = built.textures[tex].handle.decode() else {
            continue;
        };
        for ((i, k), d) in tiles {
            let ring: Vec<Px> = d.plan().map(|q| view.px(frames.to_common(i, q))).collect();
            let q: Vec<[f64; 2]> = d
                .st()
                .iter()
                .map(|&st| image_px(st, img.width, img.height))
                .collect();
            let Some(m) = affine(&q, &ring) else {
                continue;
            };
            // The cut: the box of the tile's texture pixels, inside the
            // image.
            let rect = texel_box(d.st().iter().copied(), img.width, img.height);
            if rect[2] <= rect[0] || rect[3] <= rect[1] {
                continue;
            }
            // Picture pixels per texture pixel: never embed more.
            let k_px = (m[0] * m[3] - m[1] * m[2]).abs().sqrt().min(1.0);
            let side = |n: u32| ((f64::from(n) * k_px).ceil() as u32).clamp(1, MAX_CUT_PX);
            let size = [side(rect[2] - rect[0]), side(rect[3] - rect[1])];
            let made = cuts
                .entry((tex, rect, size))
                .or_insert_with(|| embed(&img, rect, size, limits, &mut out.bytes));
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

/// The cut `rect` of `img` averaged down to `size`, embedded while the
/// picture's images (`bytes` so far) stay within
/// [`Limits::max_picture_image_bytes`]; past it, its mean colour (and the
/// budget counts as spent: no further cut is tried).
fn embed(
    img: &crate::texture::Image,
    rect: [u32; 4],
    size: [u32; 2],
    limits: &Limits,
    bytes: &mut u64,
) -> Result<Arc<Embedded>, Colour> {
    let c = cut(img, rect, size);
    let mean = c.mean().unwrap_or(Colour(128, 128, 128));
    if *bytes >= limits.max_picture_image_bytes {
        return Err(mean);
    }
    match encode_png(size[0], size[1], &c.rgba) {
        Some(png) if *bytes + png.len() as u64 <= limits.max_picture_image_bytes => {
            *bytes += png.len() as u64;
            Ok(Arc::new(Embedded {
                png,
                width: size[0],
                height: size[1],
            }))
        }
        _ => {
            *bytes = limits.max_picture_image_bytes;
            Err(mean)
        }
    }
}

/// How a facade's roof is drawn: its footprint filled with `colour`,
/// and over it the copies of its roof texture cut to the roof's outline
/// (none when the roof could not be drawn as images).
struct Roof {
    colour: Colour,
    images: Vec<Image>,
}

/// What the facades' roofs came to.
#[derive(Default)]
struct Roofs {
    /// By (placement, facade).
    drawn: HashMap<(usize, usize), Roof>,
    /// Roofs filled with their texture's mean colour instead of it.
    flat: usize,
}

/// The roofs of the 3-D scene's facades that have a roof texture, seen
/// from above: each roof's outline ([`crate::geom::Mesh::outline`]) filled
/// with the copies of its texture the scene's texture coordinates map
/// onto it (as a draped polygon is,
/// [`super::draped_picture::copies`]), or with the texture's mean colour
/// when that cannot be (more than its repeats, texture coordinates no
/// affine map gives, the picture's `budget` of images and copies spent).
/// Each texture decoded once, dropped before the next.
fn roofs(
    built: &scene::Scene,
    frames: &Frames,
    view: &View,
    limits: &Limits,
    budget: &mut Budget,
) -> Roofs {
    let mut out = Roofs::default();
    let parts = built
        .nodes
        .iter()
        .filter(|n| n.item.kind == ItemKind::Facade)
        .filter_map(|node| {
            let mesh = built.meshes.get(node.mesh?)?;
            let part = mesh.parts.iter().find(|p| p.roof)?;
            Some(((node.item.placement, node.item.index), (node, part)))
        });
    for (tex, items) in by_texture(built, parts, |(_, part)| part) {
        let Ok(img) = built.textures[tex].handle.decode() else {
            continue;
        };
        let mut decoded = Decoded::new(img, ROOF);
        for ((i, k), (node, part)) in items {
            let m = &part.mesh;
            let Some(outline) = m.outline() else {
                out.flat += 1;
                let colour = window_mean(decoded.image(), &m.uvs).unwrap_or(decoded.mean);
                let images = Vec::new();
                out.drawn.insert((i, k), Roof { colour, images });
                continue;
            };
            let ring: Vec<Px> = outline
                .iter()
                .map(|&v| {
                    let [x, y, _] = node.to_parent(m.positions[v as usize]);
                    view.px(frames.to_common(i, [x, y]))
                })
                .collect();
            let st: Vec<[f64; 2]> = outline.iter().map(|&v| m.uvs[v as usize]).collect();
            let window = window_mean(decoded.image(), &st);
            let roof = match copies(&st, &[ring], &mut decoded, limits, budget) {
                Ok(images) => Roof {
                    colour: window.unwrap_or(decoded.mean),
                    images,
                },
                Err(colour) => {
                    // One texture point for every corner (a type-1
                    // facade's single `ROOF` point) is a roof of that
                    // texel's colour, as the simulator draws it: nothing
                    // left out.
                    if st.iter().any(|q| *q != st[0]) {
                        out.flat += 1;
                    }
                    Roof {
                        colour: window.unwrap_or(colour),
                        images: Vec::new(),
                    }
                }
            };
            out.drawn.insert((i, k), roof);
        }
    }
    out
}

/// The mean colour of the window of `img` that texture coordinates `st`
/// span, when they stay within one repeat of it (a roof's window of a
/// texture it shares with the walls); `None` when they repeat it or the
/// window is clear.
fn window_mean(img: &crate::texture::Image, st: &[[f64; 2]]) -> Option<Colour> {
    let within = |v: f64| (-1e-6..=1.0 + 1e-6).contains(&v);
    if st.is_empty() || !st.iter().flatten().all(|&v| within(v)) {
        return None;
    }
    rect_mean(img, texel_box(st.iter().copied(), img.width, img.height))
}

/// The mean colour of the pixels `rect` (`[x0, y0, x1, y1]`) of `img`,
/// `None` when it is empty or clear. A small average (at most 16 × 16) is
/// enough for a colour.
fn rect_mean(img: &crate::texture::Image, rect: [u32; 4]) -> Option<Colour> {
    if rect[2] <= rect[0] || rect[3] <= rect[1] {
        return None;
    }
    let size = [(rect[2] - rect[0]).min(16), (rect[3] - rect[1]).min(16)];
    cut(img, rect, size).mean()
}

/// The mean colour of each tree's window of the texture the 3-D scene
/// draws it with (its card's rectangle of the forest texture, or its 3-D
/// mesh's of the 3-D texture), by (placement, tree); each texture decoded
/// once, dropped before the next. Trees drawn without a texture have
/// none.
fn crown_colours(
    trees: &HashMap<(usize, usize), Drawn>,
    built: &scene::Scene,
) -> HashMap<(usize, usize), Colour> {
    let mut keys: Vec<&(usize, usize)> = trees.keys().collect();
    keys.sort_unstable();
    let groups = by_texture(built, keys.into_iter().map(|k| (*k, trees[k])), |d| d.part);
    let mut out = HashMap::new();
    for (tex, ts) in groups {
        let Ok(img) = built.textures[tex].handle.decode() else {
            continue;
        };
        let mut by_rect: HashMap<[u32; 4], Option<Colour>> = HashMap::new();
        // 3-D trees of one kind share their coordinates: boxed once.
        let mut by_st: HashMap<(usize, usize), [u32; 4]> = HashMap::new();
        for (key, d) in ts {
            let st = d.st();
            let rect = *by_st
                .entry((st.as_ptr() as usize, st.len()))
                .or_insert_with(|| texel_box(st.iter().copied(), img.width, img.height));
            let colour = *by_rect.entry(rect).or_insert_with(|| rect_mean(&img, rect));
            if let Some(c) = colour {
                out.insert(key, c);
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

/// The layers the textured style fills, what it leaves to the schematic
/// style, and what its legend needs to know.
struct Painter<'a> {
    frames: &'a Frames,
    view: &'a View,
    ground: Layer,
    roofs: Layer,
    footprints: Layer,
    crowns: Layer,
    marks: Layer,
    any_roof: bool,
    any_textured_roof: bool,
    any_open: bool,
}

impl Painter<'_> {
    /// Local metres of placement `i` to picture pixels.
    fn px(&self, i: usize, q: Xy) -> Px {
        self.view.px(self.frames.to_common(i, q))
    }

    /// Marks the ring `q` (local metres of placement `i`) as missing art.
    fn mark_ring(&mut self, i: usize, q: &[Xy]) {
        let ring = q.iter().map(|&q| self.px(i, q)).collect();
        self.marks.shapes.push(Shape::Area {
            rings: vec![ring],
            style: Style::default(),
        });
    }

    /// Placement `i`'s tiles: those textured, the rest into `r` (marked
    /// when their art was looked up: it did not texture them).
    fn tiles(&mut self, i: usize, p: &Placement, grounds: &Grounds, r: &mut Placement) {
        for (k, t) in p.tiles.iter().enumerate() {
            match grounds.drawn.get(&(i, k)) {
                Some(Ground::Image(img)) => self.ground.shapes.push(Shape::Image(img.clone())),
                Some(Ground::Flat(ring, c)) => self.ground.shapes.push(Shape::Area {
                    rings: vec![ring.clone()],
                    style: Style::fill(*c),
                }),
                None => {
                    if !t.hidden && p.art.is_some() {
                        self.mark_ring(i, &t.polygon);
                    }
                    r.tiles.push(t.clone());
                }
            }
        }
    }

    /// Placement `i`'s objects with their OBJ as the scene's mesh of it
    /// seen from above (`seen`), shaded by height; the rest into `r`.
    fn objects(&mut self, i: usize, p: &Placement, seen: &Footprints, r: &mut Placement) {
        for (k, o) in p.objects.iter().enumerate() {
            let plan = seen.get(&(i, k)).filter(|_| o.art == Some(ArtState::Found));
            if let Some((ring, h)) = plan {
                let ring = ring.iter().map(|&q| self.px(i, q)).collect();
                self.footprints.shapes.push(Shape::Area {
                    rings: vec![ring],
                    style: Style::fill(mix(LOW, HIGH, h.max(0.0) / TALL_M)),
                });
                continue;
            }
            if missing(o.art) {
                let at = self.px(i, [o.x, o.y]);
                self.marks.shapes.push(Shape::Circle {
                    at,
                    r: 8.0,
                    style: Style::default(),
                });
            }
            r.objects.push(o.clone());
        }
    }

    /// Placement `i`'s facades with their `.fac` as roofed footprints (the
    /// roof textured as `roofs` drew it), the rest into `r`.
    fn facades(&mut self, i: usize, p: &Placement, roofs: &Roofs, r: &mut Placement) {
        let edge = if self.view.scale >= 1.0 { 1.6 } else { 0.6 };
        for (k, f) in p.facades.iter().enumerate() {
            if f.art == Some(ArtState::Found) && f.polygon.len() >= 2 {
                let ring: Vec<Px> = f.polygon.iter().map(|&q| self.px(i, q)).collect();
                let roofed = f.roof.unwrap_or(true);
                if let Some(roof) = roofs.drawn.get(&(i, k)).filter(|_| roofed) {
                    self.any_textured_roof = true;
                    self.roofs.shapes.push(Shape::Area {
                        rings: vec![ring.clone()],
                        style: Style::fill(roof.colour).stroke(WALL, edge),
                    });
                    if !roof.images.is_empty() {
                        let images = roof.images.iter().cloned().map(Shape::Image);
                        self.roofs.shapes.extend(images);
                        // The walls' top edge over the roof's texture.
                        self.roofs.shapes.push(Shape::Area {
                            rings: vec![ring],
                            style: Style::outline(WALL, edge),
                        });
                    }
                    continue;
                }
                self.any_roof |= roofed;
                self.any_open |= !roofed;
                let h = f.drawn_height.unwrap_or(f.height).max(0.0);
                let style = if roofed {
                    Style::fill(mix(ROOF, WALL, h / 120.0))
                } else {
                    Style::fill(OPEN).fill_opacity(0.5)
                };
                self.roofs.shapes.push(Shape::Area {
                    rings: vec![ring],
                    style: style.stroke(WALL, edge),
                });
                continue;
            }
            if missing(f.art) {
                self.mark_ring(i, &f.polygon);
            }
            r.facades.push(f.clone());
        }
    }

    /// Placement `i`'s trees with their forest as the scene builds them,
    /// seen from above (a card as its crown, a 3-D tree as the outline of
    /// its mesh), coloured by their texture; the rest into `r`.
    fn trees(&mut self, i: usize, p: &Placement, seen: &Trees, r: &mut Placement) {
        for (k, t) in p.trees.iter().enumerate() {
            if t.art == Some(ArtState::Found) {
                // A tree the scene left out (its place not finite) is not
                // drawn.
                let Some(d) = seen.pieces.get(&(i, k)) else {
                    continue;
                };
                let c = seen.colours.get(&(i, k)).copied().unwrap_or(CROWN);
                let style = Style::fill(c).stroke(mix(c, Colour(0, 0, 0), 0.45), 0.6);
                if let Some(shape) = self.crown(i, d, style) {
                    self.crowns.shapes.push(shape);
                }
                continue;
            }
            if missing(t.art) {
                let at = self.px(i, [t.x, t.y]);
                self.marks.shapes.push(Shape::Circle {
                    at,
                    r: (t.width / 2.0 * self.view.scale).max(3.0) + 2.0,
                    style: Style::default(),
                });
            }
            r.trees.push(t.clone());
        }
    }

    /// Tree `d` of placement `i` seen from above: its crown, or the
    /// outline of its 3-D mesh.
    fn crown(&self, i: usize, d: &Drawn, style: Style) -> Option<Shape> {
        if let Some((foot, radius)) = d.crown {
            let [x, y, _] = d.node.to_parent([foot[0], foot[1], 0.0]);
            return Some(Shape::Circle {
                at: self.px(i, [x, y]),
                r: (radius * self.view.scale).max(0.8),
                style,
            });
        }
        let hull = crate::obj::footprint::hull(d.plan());
        (hull.len() >= 3).then(|| Shape::Area {
            rings: vec![hull.into_iter().map(|q| self.px(i, q)).collect()],
            style,
        })
    }
}

/// The trees of the 3-D scene, by (placement, tree), and their colours.
struct Trees<'a> {
    pieces: HashMap<(usize, usize), Drawn<'a>>,
    colours: HashMap<(usize, usize), Colour>,
}

/// The map's layers and legend entries, and a note when tiles were
/// filled flat because the picture's image budget was spent. The art is
/// drawn as the 3-D scene `built` (of the scene's placements) builds it;
/// what has none is left to the schematic style.
pub(super) fn paint(
    scene: &Sheet,
    built: &scene::Scene,
    frames: &Frames,
    view: &View,
    labels: &mut Labels,
    limits: &Limits,
) -> (Vec<Layer>, Vec<Entry>, Option<String>) {
    let scale = view.scale;
    let grounds = grounds(scene, built, frames, view, limits);
    // A whole tile's draped polygons and lines, sharing the image budget.
    let mut budget = Budget {
        bytes: grounds.bytes,
        copies: MAX_PICTURE_COPIES,
    };
    let drapes = super::draped_picture::paint(scene, frames, view, limits, &mut budget);
    // The facades' roofs, sharing it too.
    let roofs = roofs(built, frames, view, limits, &mut budget);
    let footprints = footprints(built);
    let hulls = tree_hulls(built);
    let pieces = pieces(built, ItemKind::Trees, &hulls);
    let trees = Trees {
        colours: crown_colours(&pieces, built),
        pieces,
    };
    let mut painter = Painter {
        frames,
        view,
        ground: Layer::new("ground", Style::default()),
        roofs: Layer::new("roofs", Style::default()),
        footprints: Layer::new(
            "footprints",
            Style::default().stroke(OBJECT_EDGE, if scale >= 1.0 { 0.8 } else { 0.4 }),
        ),
        crowns: Layer::new("crowns", Style::default().opacity(0.92)),
        marks: Layer::new("art-missing", missing_style()),
        any_roof: false,
        any_textured_roof: false,
        any_open: false,
    };
    for ring in &drapes.missing {
        painter.marks.shapes.push(Shape::Area {
            rings: vec![ring.clone()],
            style: Style::default(),
        });
    }
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
        painter.tiles(i, p, &grounds, &mut r);
        painter.objects(i, p, &footprints, &mut r);
        painter.facades(i, p, &roofs, &mut r);
        painter.trees(i, p, &trees, &mut r);
        rest.push(r);
    }
    let sub = Sheet {
        placements: rest.iter().collect(),
        unplaced: scene.unplaced.clone(),
        tile: scene.tile,
    };
    let (mut layers, entries) = super::schematic::paint(&sub, frames, view, labels);
    let mut mine = legend(&painter, &grounds, drapes.entries);
    mine.extend(entries);

    // Ground under the schematic tiles; buildings, footprints and crowns
    // over the schematic facades; the marks under the labels.
    // Only the layers that hold something are added.
    let put = |layers: &mut Vec<Layer>, before: &str, layer: Layer| {
        if !layer.shapes.is_empty() {
            let at = layers.iter().position(|l| l.id == before);
            layers.insert(at.unwrap_or(layers.len()), layer);
        }
    };
    put(&mut layers, "tiles", painter.ground);
    put(&mut layers, "trees", painter.roofs);
    put(&mut layers, "trees", painter.footprints);
    put(&mut layers, "trees", painter.crowns);
    put(&mut layers, "labels", painter.marks);
    // Draped polygons and lines under everything else, lines above the
    // polygons they are painted on.
    for layer in [drapes.lines, drapes.draped] {
        if !layer.shapes.is_empty() {
            layers.insert(0, layer);
        }
    }
    (
        layers,
        mine,
        note(grounds.flat, drapes.flat, roofs.flat, limits),
    )
}

/// The legend entries of what the textured style drew (the draped
/// layers' `drapes` among them), in the order they are listed.
fn legend(painter: &Painter, grounds: &Grounds, drapes: Vec<Entry>) -> Vec<Entry> {
    let mut mine = Vec::new();
    if painter.ground.shapes.len() > grounds.flat {
        let quarter = |at: [f64; 2], c: u32| Shape::Rect {
            at,
            size: [6.0, 4.5],
            style: Style::fill(Colour::hex(c)),
        };
        mine.push(Entry::new(
            vec![
                quarter([0.0, 0.0], 0x8a9a6b),
                quarter([6.0, 0.0], 0xb9ad8f),
                quarter([0.0, 4.5], 0x9c9a94),
                quarter([6.0, 4.5], 0x6f8455),
            ],
            "tile (its texture)",
        ));
    }
    mine.extend(drapes);
    if grounds.flat > 0 {
        mine.push(Entry::swatch(
            Style::fill(Colour::hex(0x9c9a94)),
            format!(
                "{} in flat colour (image budget spent)",
                super::count(grounds.flat, "tile")
            ),
        ));
    }
    if painter.any_textured_roof {
        mine.push(Entry::new(
            vec![
                Shape::Rect {
                    at: [0.0, 0.0],
                    size: [12.0, 9.0],
                    style: Style::fill(Colour::hex(0x8d8478)).stroke(WALL, 1.6),
                },
                Shape::Rect {
                    at: [3.0, 2.0],
                    size: [6.0, 5.0],
                    style: Style::fill(Colour::hex(0x6d655c)),
                },
            ],
            "facade (its roof texture, walls)",
        ));
    }
    if painter.any_roof {
        mine.push(Entry::swatch(
            Style::fill(ROOF).stroke(WALL, 1.6),
            "facade (roof, walls)",
        ));
    }
    if painter.any_open {
        mine.push(Entry::swatch(
            Style::fill(OPEN).stroke(WALL, 1.6),
            "facade without roof",
        ));
    }
    if !painter.footprints.shapes.is_empty() {
        let half = |x: f64, c: Colour| Shape::Rect {
            at: [x, 0.0],
            size: [6.0, 9.0],
            style: Style::fill(c).stroke(OBJECT_EDGE, 0.8),
        };
        mine.push(Entry::new(
            vec![half(0.0, LOW), half(6.0, HIGH)],
            "object footprint (darker: taller)",
        ));
    }
    if !painter.crowns.shapes.is_empty() {
        mine.push(Entry::disc(
            5.0,
            Style::fill(CROWN).stroke(mix(CROWN, Colour(0, 0, 0), 0.45), 0.6),
            "tree crown (its width)",
        ));
    }
    if !painter.marks.shapes.is_empty() {
        mine.push(Entry::new(
            vec![Shape::Circle {
                at: [6.0, 4.5],
                r: 5.0,
                style: missing_style(),
            }],
            "art missing: drawn as symbol",
        ));
    }
    mine
}

/// The note of what the picture's image budget (and the draped
/// polygons' and roofs' repeats) left flat: `tiles` tiles, `draped` draped
/// polygons and `roofs` facade roofs.
fn note(tiles: usize, draped: usize, roofs: usize, limits: &Limits) -> Option<String> {
    let mut said = Vec::new();
    if tiles > 0 {
        said.push(format!(
            "textures: {} drawn in flat colour, the picture's images having reached {} bytes (Limits::max_picture_image_bytes)",
            super::count(tiles, "tile"),
            super::thousands(limits.max_picture_image_bytes as usize)
        ));
    }
    if draped > 0 {
        said.push(format!(
            "textures: {} filled with their texture's mean colour (more than {} repeats, no texture mapping, or the picture's budget of images or copies spent)",
            super::count(draped, "draped polygon"),
            super::draped_picture::MAX_REPEATS
        ));
    }
    if roofs > 0 {
        said.push(format!(
            "textures: {} filled with their roof texture's colour (more than {} repeats, texture coordinates no single map gives, or the picture's budget of images or copies spent)",
            super::count(roofs, "facade roof"),
            super::draped_picture::MAX_REPEATS
        ));
    }
    (!said.is_empty()).then(|| said.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A texture of two halves: red on the left, blue on the right.
    #[derive(Debug)]
    struct Halves;

    impl crate::place::art::ImageSource for Halves {
        fn decode(&self) -> Result<crate::texture::Image, crate::texture::OpenError> {
            let rgba = (0..32 * 16)
                .flat_map(|k| {
                    if k % 32 < 16 {
                        [200, 0, 0, 255]
                    } else {
                        [0, 0, 200, 255]
                    }
                })
                .collect();
            Ok(crate::texture::Image::new(32, 16, rgba))
        }
    }

    /// Regression (issue 32): the crowns' colours were worked out per
    /// texture file and tree number, so that the trees of a second forest
    /// drawing from the same texture took the first forest's rectangles.
    /// Each crown is now the colour of its own card's rectangle, as the
    /// 3-D scene textures it.
    #[test]
    fn forests_sharing_a_texture_colour_their_own_trees() {
        use crate::place::art::{Art, ArtFile, TextureFile, TextureHandle, TextureRole};
        let handle = TextureHandle::new(PathBuf::from("/art/t.png"), Arc::new(Halves));
        let placed = |tree: &str, lon: f64| {
            let text = format!(
                "A\n800\nFOREST\nTEXTURE t.png\nSCALE_X 32\nSCALE_Y 16\n\
                 SPACING 10 10\nRANDOM 0 0\n{tree}\n"
            );
            let forest = crate::forest::read(text.as_bytes(), "t.for", &Limits::default()).unwrap();
            Placement {
                origin: [lon, 47.0],
                trees: vec![crate::place::PlacedTree {
                    width: 4.0,
                    height: Some(6.0),
                    forest_tree: Some(0),
                    art: Some(ArtState::Found),
                    ..crate::place::PlacedTree::default()
                }],
                art: Some(Arc::new(Art {
                    forest: Some(ArtFile {
                        path: "t.for".into(),
                        file: Some(PathBuf::from(format!("/art/{lon}.for"))),
                        state: ArtState::Found,
                        how: String::new(),
                        value: Some(Arc::new(forest)),
                        textures: vec![TextureFile {
                            role: TextureRole::Forest,
                            path: "t.png".into(),
                            naming: PathBuf::from("/art/t.for"),
                            how: String::new(),
                            found: Some(handle.clone()),
                        }],
                    }),
                    ..Art::default()
                })),
                ..Placement::default()
            }
        };
        let ps = [
            placed("TREE 0 0 16 16 8 100 5 5 2 0 red", 13.0),
            placed("TREE 16 0 16 16 8 100 5 5 2 0 blue", 13.0001),
        ];
        let svg = super::super::svg::to_svg(&ps);
        let crowns = svg.split("<g id=\"crowns\"").nth(1).unwrap();
        let crowns = crowns.split("</g>").next().unwrap();
        assert_eq!(crowns.matches("<circle").count(), 2, "{crowns}");
        assert!(crowns.contains("fill=\"#c80000\""), "{crowns}");
        assert!(crowns.contains("fill=\"#0000c8\""), "{crowns}");
    }

    /// A 3-D tree is drawn as the outline of its mesh as the scene places
    /// it (a path), a tree of cards as its crown (a circle).
    #[test]
    fn a_3d_tree_is_its_outline_and_a_card_its_crown() {
        use crate::place::art::{Art, ArtFile};
        let text = "A\n800\nFOREST\n\nTEXTURE t.png\nSCALE_X 256\nSCALE_Y 256\n\
                    SPACING 10 10\nRANDOM 0 0\n\nSHADER_3D\nTEXTURE t3.png\n\
                    MESH cone 0 500 4 6\nVERTEX 1 0 2  0 1 0  0 0  0\n\
                    VERTEX -1 0 2  0 1 0  0 0  0\nVERTEX 0 10 -2  0 1 0  0 0  0\n\
                    IDX 0 1 2\n\nTREE 0 0 64 128 32 50 10 10 2 0 cone\nMESH_3D cone\n\
                    TREE 64 0 64 128 32 50 10 10 2 0 card\n";
        let forest = crate::forest::read(text.as_bytes(), "t.for", &Limits::default()).unwrap();
        let tree = |k: usize, x: f64| crate::place::PlacedTree {
            x,
            width: 4.0,
            height: Some(20.0),
            forest_tree: Some(k),
            art: Some(ArtState::Found),
            ..crate::place::PlacedTree::default()
        };
        let p = Placement {
            trees: vec![tree(0, 0.0), tree(1, 30.0)],
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found("t.for", "/art/t.for", forest)),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let svg = super::super::svg::to_svg(std::slice::from_ref(&p));
        let crowns = svg.split("<g id=\"crowns\"").nth(1).unwrap();
        let crowns = crowns.split("</g>").next().unwrap();
        assert_eq!(crowns.matches("<path").count(), 1, "{crowns}");
        assert_eq!(crowns.matches("<circle").count(), 1, "{crowns}");
    }

    /// A 3-D tree whose mesh has thousands of corners around it was drawn
    /// with all of them, for every tree: a 305-byte tile of 1,406 trees of
    /// 20,000 took 12 s (issue 46). Its outline keeps at most
    /// [`super::HULL_CORNERS`] of them.
    #[test]
    fn a_3d_tree_of_many_corners_is_drawn_with_few() {
        use crate::place::art::{Art, ArtFile};
        use std::fmt::Write;
        let n = 2_000;
        let mut text = String::from(
            "A\n800\nFOREST\n\nTEXTURE t.png\nSCALE_X 256\nSCALE_Y 256\n\
             SPACING 10 10\nRANDOM 0 0\n\nSHADER_3D\nTEXTURE t3.png\n",
        );
        let _ = writeln!(text, "MESH cone 0 500 {} {}", n + 1, 3 * n);
        text.push_str("VERTEX 0 10 0  0 1 0  0.5 1  0\n");
        for k in 0..n {
            let (s, c) = (k as f64 / n as f64 * std::f64::consts::TAU).sin_cos();
            let _ = writeln!(
                text,
                "VERTEX {:.5} 0 {:.5}  0 1 0  0.5 0  0",
                2.0 * c,
                2.0 * s
            );
        }
        for k in 0..n {
            let _ = writeln!(text, "IDX 0 {} {}", 1 + k, 1 + (k + 1) % n);
        }
        text.push_str("\nTREE 0 0 64 128 32 100 8 12 2 0 cone\nMESH_3D cone\n");
        let forest = crate::forest::read(text.as_bytes(), "t.for", &Limits::default()).unwrap();
        let p = Placement {
            trees: vec![crate::place::PlacedTree {
                width: 4.0,
                height: Some(20.0),
                forest_tree: Some(0),
                art: Some(ArtState::Found),
                ..crate::place::PlacedTree::default()
            }],
            art: Some(Arc::new(Art {
                forest: Some(ArtFile::found("t.for", "/art/t.for", forest)),
                ..Art::default()
            })),
            ..Placement::default()
        };
        let built = crate::scene::build(std::slice::from_ref(&p), &Limits::default()).unwrap();
        let hulls = super::tree_hulls(&built);
        assert_eq!(hulls.len(), 1, "one mesh");
        let corners = hulls.values().next().unwrap().len();
        assert!(
            (3..=super::HULL_CORNERS).contains(&corners),
            "{corners} corners"
        );
        // Still the cone's outline: its corners all as far from its axis.
        let hull = hulls.values().next().unwrap();
        let r = |q: &[f64; 3]| (q[0] * q[0] + q[1] * q[1]).sqrt();
        for q in hull {
            assert!((r(q) - r(&hull[0])).abs() < 1e-3 * r(&hull[0]), "{q:?}");
        }
        // Without the cap it would have every corner of the mesh's rim.
        let rim = built
            .meshes
            .iter()
            .flat_map(|m| &m.parts)
            .flat_map(|pt| &pt.mesh.positions)
            .map(|q| [q[0], q[1]]);
        assert!(crate::obj::footprint::hull(rim).len() > 10 * super::HULL_CORNERS);
        assert_eq!(super::thinned(vec![[0.0, 0.0]; 10], 4).len(), 4);
        assert_eq!(super::thinned(vec![[0.0, 0.0]; 3], 4).len(), 3);
    }

    /// A placement of one type-1 facade over `polygon` (counter-clockwise,
    /// metres) whose roof corners take the texture points `roof` in turn,
    /// drawn with [`Halves`] as its texture.
    fn roofed(polygon: &[Xy], roof: &[[f64; 2]]) -> Placement {
        use crate::place::art::{Art, ArtFile, TextureFile, TextureHandle, TextureRole};
        let points: String = roof
            .iter()
            .map(|p| format!("  ROOF {} {}\n", p[0], p[1]))
            .collect();
        let text = format!(
            "A\n800\nFACADE\nTEXTURE t.png\nRING 1\nLOD 0 10000\n{points}  WALL 0 1000\n    \
             SCALE 32 32\n    ROOF_SLOPE 0\n    LEFT 0 0.5\n    BOTTOM 0 1\n"
        );
        let fac = crate::fac::read(text.as_bytes(), "t.fac", &Limits::default()).unwrap();
        let handle = TextureHandle::new(PathBuf::from("/art/t.png"), Arc::new(Halves));
        let mut file = ArtFile::found("t.fac", "/art/t.fac", fac);
        file.textures = [TextureRole::Wall, TextureRole::Roof]
            .map(|role| TextureFile {
                role,
                path: "t.png".into(),
                naming: PathBuf::from("/art/t.fac"),
                how: String::new(),
                found: Some(handle.clone()),
            })
            .to_vec();
        Placement {
            origin: [13.0, 47.0],
            facades: vec![crate::place::PlacedFacade {
                asset: "t.fac".into(),
                polygon: polygon.to_vec(),
                height: 6.0,
                art: Some(ArtState::Found),
                roof: Some(true),
                ..crate::place::PlacedFacade::default()
            }],
            art: Some(Arc::new(Art {
                facades: vec![file],
                ..Art::default()
            })),
            ..Placement::default()
        }
    }

    /// A 20 m × 10 m footprint, counter-clockwise.
    const RECT: [Xy; 4] = [[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]];

    /// The roofs of `p` drawn in a view of 2 pixels a metre.
    fn roofs_of(p: &Placement) -> (Roofs, View) {
        roofs_within(p, MAX_PICTURE_COPIES)
    }

    /// [`roofs_of`] with `copies` copies of textures left to draw.
    fn roofs_within(p: &Placement, copies: usize) -> (Roofs, View) {
        let ps = std::slice::from_ref(p);
        let built = crate::scene::build(ps, &Limits::default()).unwrap();
        let scene = Sheet::of(ps);
        let frames = Frames::new(&scene);
        let view = View {
            min: [-50.0, -50.0],
            max: [50.0, 50.0],
            scale: 2.0,
            top: 0.0,
        };
        let mut budget = Budget { bytes: 0, copies };
        let r = roofs(&built, &frames, &view, &Limits::default(), &mut budget);
        (r, view)
    }

    /// A type-1 roof of four corners takes the facade's four `ROOF`
    /// points in turn (X-Plane's rule for a roof of up to four corners,
    /// `fac::roof::type1_uv`): the picture draws the texture so that each
    /// corner's point lands on the corner, and fills the footprint with
    /// the colour of that window alone.
    #[test]
    fn a_roof_is_its_texture_window_on_its_corners() {
        let window = [[0.0, 0.0], [0.5, 0.0], [0.5, 1.0], [0.0, 1.0]];
        let (roofs, view) = roofs_of(&roofed(&RECT, &window));
        let roof = &roofs.drawn[&(0, 0)];
        assert_eq!(roofs.flat, 0);
        // The window is the red half of the texture.
        assert_eq!(roof.colour, Colour(200, 0, 0));
        let [img] = roof.images.as_slice() else {
            panic!("one copy of the texture: {}", roof.images.len());
        };
        // The embedded copy is the whole texture at its own size.
        let (cw, ch) = (f64::from(img.image.width), f64::from(img.image.height));
        let t = img.transform;
        for (corner, st) in RECT.iter().zip(window) {
            // The point in the copy's pixels (y down: t counts up).
            let (x, y) = (st[0] * cw, (1.0 - st[1]) * ch);
            let at = [t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]];
            let want = view.px(*corner);
            assert!(
                (at[0] - want[0]).hypot(at[1] - want[1]) < 1e-6,
                "{corner:?}: {at:?} against {want:?}"
            );
        }
        // Cut to the roof's outline: the footprint's corners.
        let mut clip = img.clip.clone();
        let mut want: Vec<Px> = RECT.iter().map(|&q| view.px(q)).collect();
        clip.sort_by(|a, b| a.partial_cmp(b).unwrap());
        want.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(clip, want);
    }

    /// Corners given texture points that no single affine map takes them
    /// to (a window twisted on a rectangle) are not drawn as a warped
    /// image: the roof is its texture's colour.
    #[test]
    fn a_twisted_roof_window_is_its_colour() {
        let twisted = [[0.0, 0.0], [0.5, 0.0], [0.1, 1.0], [0.4, 1.0]];
        let (roofs, _) = roofs_of(&roofed(&RECT, &twisted));
        let roof = &roofs.drawn[&(0, 0)];
        assert!(roof.images.is_empty());
        assert_eq!(roofs.flat, 1);
        assert_eq!(roof.colour, Colour(200, 0, 0));
    }

    /// Past the picture's copies of textures (draped polygons and roofs
    /// together), a roof is its colour, and counted.
    #[test]
    fn a_roof_past_the_pictures_copies_is_its_colour() {
        let window = [[0.0, 0.0], [0.5, 0.0], [0.5, 1.0], [0.0, 1.0]];
        let (roofs, _) = roofs_within(&roofed(&RECT, &window), 0);
        let roof = &roofs.drawn[&(0, 0)];
        assert!(roof.images.is_empty());
        assert_eq!((roof.colour, roofs.flat), (Colour(200, 0, 0), 1));
        let (roofs, _) = roofs_within(&roofed(&RECT, &window), 1);
        assert_eq!((roofs.drawn[&(0, 0)].images.len(), roofs.flat), (1, 0));
    }

    /// One `ROOF` point gives every corner the same texel: the roof is
    /// that texel's colour, drawn as it is, not counted as left flat.
    #[test]
    fn a_roof_of_one_texture_point_is_its_colour() {
        let (roofs, _) = roofs_of(&roofed(&RECT, &[[0.75, 0.5]]));
        let roof = &roofs.drawn[&(0, 0)];
        assert!(roof.images.is_empty());
        assert_eq!((roof.colour, roofs.flat), (Colour(0, 0, 200), 0));
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
