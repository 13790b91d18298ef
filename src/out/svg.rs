//! `--format svg`: a top-down picture of a placement, north up.
//!
//! Layers from the bottom: the DSF polygon (sand), tiles (blue outline and
//! light fill, hidden tiles dashed and almost clear, ids at their centres,
//! an arrow towards texture up), facades (brown, filled), trees (green discs
//! of their width), objects (red markers with a tick towards their heading),
//! ground points (grey ×) and
//! the DSF point (black ⊕). A title, a scale bar, a north arrow and a legend
//! frame the drawing. Several placements share the first one's origin.
//!
//! Drawn by scale, as a map renderer draws by zoom level: a tile's id and
//! its arrow appear only when the tile is big enough on the picture to hold
//! them legibly, and below [`DETAIL_SCALE`] pixels per metre (an overview
//! of a town or a DSF tile) objects are small points without heading
//! ticks, trees a texture of dots, tiles filled areas with hairline
//! outlines, and ground points are left out. A close-up (a single asset, a
//! few blocks) is drawn in full.

use crate::geom::{LocalFrame, Xy};
use crate::place::Placement;
use geo::Area;
use std::fmt::Write;

/// The largest drawing (the map between header and footer), in pixels.
const DRAW_MAX_W: f64 = 1040.0;
const DRAW_MAX_H: f64 = 680.0;
/// The smallest drawing height: a long thin content gets room above and
/// below rather than a sliver of a picture.
const DRAW_MIN_H: f64 = 240.0;
/// The smallest picture width, so that header and legend have room.
const MIN_W: f64 = 900.0;
/// Left and right margin of everything.
const LEFT: f64 = 30.0;
/// Room kept free at the right of the header for the north arrow.
const NORTH_W: f64 = 60.0;
/// Pixels per metre from which the picture is a close-up: objects get their
/// marker and heading tick, trees their outlined disc, tiles their outline
/// and ground points their ×. Below it the picture is an overview.
pub const DETAIL_SCALE: f64 = 1.5;
/// The smallest tile (square root of its area, in pixels) that gets its id
/// label; the label must also fit across it.
const LABEL_MIN_PX: f64 = 22.0;
/// The smallest tile that gets its texture-up arrow; the arrow is 26 px
/// long, shorter (0.45 × the tile's size) on tiles under 58 px.
const ARROW_MIN_PX: f64 = 30.0;
/// Size of the id labels.
const TILE_LABEL_SIZE: f64 = 11.0;

/// Maps every placement's local metres into the first placement's frame.
struct Frames {
    common: LocalFrame,
    own: Vec<Option<LocalFrame>>,
}

impl Frames {
    fn new(ps: &[Placement]) -> Self {
        let origin = ps.first().map_or([0.0, 0.0], |p| p.origin);
        Frames {
            common: LocalFrame::new(origin),
            own: ps
                .iter()
                .map(|p| (p.origin != origin).then(|| LocalFrame::new(p.origin)))
                .collect(),
        }
    }

    fn to_common(&self, i: usize, q: Xy) -> Xy {
        match &self.own[i] {
            Some(f) => self.common.to_local(f.to_lonlat(q)),
            None => q,
        }
    }
}

/// Maps local metres to picture pixels.
struct View {
    min: Xy,
    max: Xy,
    scale: f64,
    /// Pixel row of the drawing's top edge (below the header).
    top: f64,
}

impl View {
    fn px(&self, q: Xy) -> (f64, f64) {
        (
            LEFT + (q[0] - self.min[0]) * self.scale,
            self.top + (self.max[1] - q[1]) * self.scale,
        )
    }

    fn points(&self, ring: &[Xy]) -> String {
        let mut s = String::new();
        for &q in ring {
            let (x, y) = self.px(q);
            let _ = write!(s, "{x:.2},{y:.2} ");
        }
        s.trim_end().to_string()
    }
}

/// How the picture carries its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextMode {
    /// SVG `<text>` elements (selectable, any font).
    Text,
    /// Strokes of a built-in font (for rasterising without fonts).
    Outlined,
}

/// Horizontal alignment of a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Start,
    Middle,
}

/// Writes one label: `y` is the baseline, or the middle when `middle`.
#[allow(clippy::too_many_arguments)]
fn label(
    s: &mut String,
    mode: TextMode,
    x: f64,
    y: f64,
    size: f64,
    anchor: Anchor,
    middle: bool,
    fill: &str,
    bold: bool,
    text: &str,
) {
    match mode {
        TextMode::Text => {
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" fill="{fill}"{}{}{}>{}</text>"#,
                if anchor == Anchor::Middle {
                    r#" text-anchor="middle""#
                } else {
                    ""
                },
                if middle {
                    r#" dominant-baseline="middle""#
                } else {
                    ""
                },
                if bold { r#" font-weight="bold""# } else { "" },
                esc(text)
            );
        }
        TextMode::Outlined => {
            let size = size * 0.9;
            let x = match anchor {
                Anchor::Start => x,
                Anchor::Middle => x - super::strokefont::width(text, size) / 2.0,
            };
            let y = if middle { y + 0.375 * size } else { y };
            let w = size / if bold { 7.0 } else { 10.0 };
            let _ = writeln!(
                s,
                r#"<path d="{}" fill="none" stroke="{fill}" stroke-width="{w:.2}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                super::strokefont::path(text, x, y, size)
            );
        }
    }
}

/// The picture of all placements, with SVG text.
pub fn to_svg(ps: &[Placement]) -> String {
    to_svg_with(ps, TextMode::Text)
}

/// The picture of all placements.
pub fn to_svg_with(ps: &[Placement], mode: TextMode) -> String {
    let frames = Frames::new(ps);
    // Everything in the common frame.
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    let mut grow = |q: Xy, r: f64| {
        min[0] = min[0].min(q[0] - r);
        min[1] = min[1].min(q[1] - r);
        max[0] = max[0].max(q[0] + r);
        max[1] = max[1].max(q[1] + r);
    };
    for (i, p) in ps.iter().enumerate() {
        grow(frames.to_common(i, [0.0, 0.0]), 0.0);
        for q in p.polygon.iter().flatten() {
            grow(frames.to_common(i, *q), 0.0);
        }
        for q in p.tiles.iter().flat_map(|t| &t.polygon) {
            grow(frames.to_common(i, *q), 0.0);
        }
        for q in p.facades.iter().flat_map(|f| &f.polygon) {
            grow(frames.to_common(i, *q), 0.0);
        }
        for o in &p.objects {
            grow(frames.to_common(i, [o.x, o.y]), 0.0);
            for q in &o.footprint {
                grow(frames.to_common(i, *q), 0.0);
            }
        }
        for t in &p.trees {
            grow(frames.to_common(i, [t.x, t.y]), t.width / 2.0);
        }
    }
    if !min[0].is_finite() {
        min = [-10.0, -10.0];
        max = [10.0, 10.0];
    }
    // At least 10 m across, and a margin of 6 %.
    for k in 0..2 {
        let c = (min[k] + max[k]) / 2.0;
        let half = ((max[k] - min[k]) / 2.0).max(5.0) * 1.06;
        min[k] = c - half;
        max[k] = c + half;
    }
    let scale = (DRAW_MAX_W / (max[0] - min[0])).min(DRAW_MAX_H / (max[1] - min[1]));
    // The picture is at least MIN_W wide and the drawing DRAW_MIN_H tall:
    // a narrow or flat content is centred in a wider view at the same scale.
    let w = ((max[0] - min[0]) * scale + 2.0 * LEFT).max(MIN_W).round();
    widen(&mut min[0], &mut max[0], (w - 2.0 * LEFT) / scale);
    widen(&mut min[1], &mut max[1], DRAW_MIN_H / scale);
    let draw_h = (max[1] - min[1]) * scale;

    let header = Header::new(ps, w);
    let top = header.height;
    let view = View {
        min,
        max,
        scale,
        top,
    };
    // The drawing first: the legend shows what it holds.
    let mut s = String::new();
    // DSF polygons.
    let detail = scale >= DETAIL_SCALE;
    let _ = writeln!(
        s,
        r##"<g id="dsf-polygon" fill="#ebe3cc" stroke="#9a8f6c" stroke-width="{}" fill-rule="evenodd">"##,
        if detail { "1.5" } else { "0.8" }
    );
    for (i, p) in ps.iter().enumerate() {
        if p.polygon.is_empty() {
            continue;
        }
        let mut d = String::new();
        for ring in &p.polygon {
            let ring: Vec<Xy> = ring.iter().map(|&q| frames.to_common(i, q)).collect();
            let _ = write!(d, "M{}Z", view.points(&ring));
        }
        let _ = writeln!(s, r#"<path d="{d}"/>"#);
    }
    s.push_str("</g>\n");

    // Tiles: filled areas; outlines, arrows and ids as far as the scale
    // lets them be read.
    let _ = writeln!(
        s,
        r##"<g id="tiles" stroke="#2f5d95" stroke-width="{}" stroke-linejoin="round">"##,
        if detail { "1.2" } else { "0.4" }
    );
    let (shown, hidden) = if detail {
        (
            r##"fill="#4a7ab5" fill-opacity="0.14""##,
            r##"fill="#4a7ab5" fill-opacity="0.04" stroke-dasharray="6 4""##,
        )
    } else {
        (
            r##"fill="#4a7ab5" fill-opacity="0.3""##,
            r##"fill="#4a7ab5" fill-opacity="0.06" stroke-dasharray="3 2""##,
        )
    };
    let mut labels = String::new();
    let mut arrows = false;
    // Tiles big enough for an id get their ground point drawn too; an id
    // that would overlap one already placed is left out.
    let mut grounds = Vec::new();
    let mut taken = Taken::default();
    for (i, p) in ps.iter().enumerate() {
        for t in &p.tiles {
            let ring: Vec<Xy> = t.polygon.iter().map(|&q| frames.to_common(i, q)).collect();
            if ring.is_empty() {
                continue;
            }
            let style = if t.hidden { hidden } else { shown };
            let _ = writeln!(s, r#"<polygon points="{}" {style}/>"#, view.points(&ring));
            // Its size on the picture: the side of a square of its area.
            let size = geo::Polygon::new(ring.clone().into(), Vec::new())
                .unsigned_area()
                .sqrt()
                * scale;
            let id = t.id.to_string();
            let n = ring.len() as f64;
            let c = [
                ring.iter().map(|q| q[0]).sum::<f64>() / n,
                ring.iter().map(|q| q[1]).sum::<f64>() / n,
            ];
            if let Some(up) = texture_up(&ring, &t.uv).filter(|_| size >= ARROW_MIN_PX) {
                // A short arrow from the centre towards texture up (+v).
                arrows = true;
                let (cx, cy) = view.px(c);
                let len = (0.45 * size).min(26.0);
                let (ex, ey) = (cx + len * up[0], cy - len * up[1]);
                let (bx, by) = (ex - 7.0 * up[0], ey + 7.0 * up[1]);
                let (nx, ny) = (up[1] * 4.0, up[0] * 4.0);
                let _ = writeln!(
                    s,
                    r##"<path d="M{cx:.2},{cy:.2}L{ex:.2},{ey:.2}M{:.2},{:.2}L{ex:.2},{ey:.2}L{:.2},{:.2}" fill="none" stroke-width="1.4" stroke-linecap="round" opacity="0.7"/>"##,
                    bx + nx,
                    by + ny,
                    bx - nx,
                    by - ny
                );
            }
            let text_w = text_width(&id, TILE_LABEL_SIZE);
            // Below the centre: clear of the arrow and of the DSF point
            // marker (often at the centre of an AGP).
            let (x, y) = view.px(c);
            let y = y + if p.kind == "agp" { 18.0 } else { 10.0 };
            if size < LABEL_MIN_PX {
                continue;
            }
            grounds.extend(t.ground_point.map(|g| frames.to_common(i, g)));
            let bbox = [x - text_w / 2.0, y - 7.0, x + text_w / 2.0, y + 7.0];
            if size < text_w + 6.0 || !taken.claim(bbox) {
                continue;
            }
            label(
                &mut labels,
                mode,
                x,
                y,
                TILE_LABEL_SIZE,
                Anchor::Middle,
                true,
                "#2f5d95",
                false,
                &id,
            );
        }
    }
    s.push_str("</g>\n");

    // Facades.
    let _ = writeln!(
        s,
        r##"<g id="facades" fill="#c8793c" fill-opacity="0.8" stroke="#74421c" stroke-width="{}">"##,
        if detail { "1" } else { "0.4" }
    );
    for (i, p) in ps.iter().enumerate() {
        for f in &p.facades {
            let ring: Vec<Xy> = f.polygon.iter().map(|&q| frames.to_common(i, q)).collect();
            let _ = writeln!(s, r#"<polygon points="{}"/>"#, view.points(&ring));
        }
    }
    s.push_str("</g>\n");

    // Trees: outlined discs of their width; a texture of dots in an
    // overview.
    s.push_str(if detail {
        r##"<g id="trees" fill="#3f8f33" fill-opacity="0.7" stroke="#25601c" stroke-width="0.8">"##
    } else {
        r##"<g id="trees" fill="#3f8f33" fill-opacity="0.55">"##
    });
    s.push('\n');
    let min_r = if detail { 2.0 } else { 0.9 };
    for (i, p) in ps.iter().enumerate() {
        for t in &p.trees {
            let (x, y) = view.px(frames.to_common(i, [t.x, t.y]));
            let r = (t.width / 2.0 * scale).max(min_r);
            let _ = writeln!(s, r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}"/>"#);
        }
    }
    s.push_str("</g>\n");

    // Ground points and DSF points.
    s.push_str(r##"<g id="points" stroke-width="1.5" fill="none">"##);
    s.push('\n');
    if detail {
        for g in grounds {
            let (x, y) = view.px(g);
            let _ = writeln!(
                s,
                r##"<path d="M{:.2},{:.2}l8,8m0,-8l-8,8" stroke="#666"/>"##,
                x - 4.0,
                y - 4.0
            );
        }
    }
    for (i, _) in ps.iter().enumerate().filter(|(_, p)| p.kind == "agp") {
        let (x, y) = view.px(frames.to_common(i, [0.0, 0.0]));
        if detail {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="6" stroke="#111"/><path d="M{:.2},{y:.2}h16M{x:.2},{:.2}v16" stroke="#111"/>"##,
                x - 8.0,
                y - 8.0
            );
        } else {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.2}" cy="{y:.2}" r="2.5" stroke="#111" stroke-width="1"/>"##
            );
        }
    }
    s.push_str("</g>\n");
    // Objects: a marker with a tick towards the heading; a small point in
    // an overview.
    s.push_str(if detail {
        r##"<g id="objects">"##
    } else {
        r##"<g id="objects" fill="#c0392b">"##
    });
    s.push('\n');
    for (i, p) in ps.iter().enumerate() {
        for o in &p.objects {
            // The footprint read from its OBJ, under the marker.
            if o.footprint.len() >= 3 {
                let mut d = String::new();
                for (k, q) in o.footprint.iter().enumerate() {
                    let (x, y) = view.px(frames.to_common(i, *q));
                    let _ = write!(d, "{}{x:.2},{y:.2}", if k == 0 { "M" } else { "L" });
                }
                let _ = writeln!(
                    s,
                    r##"<path d="{d}Z" fill="#d83a3a" fill-opacity="0.3" stroke="#8e1b1b" stroke-width="0.8"/>"##
                );
            }
            let (x, y) = view.px(frames.to_common(i, [o.x, o.y]));
            if !detail {
                let _ = writeln!(s, r#"<circle cx="{x:.2}" cy="{y:.2}" r="1.6"/>"#);
                continue;
            }
            let a = o.heading.to_radians();
            let (tx, ty) = (x + 12.0 * a.sin(), y - 12.0 * a.cos());
            let _ = writeln!(
                s,
                r##"<line x1="{x:.2}" y1="{y:.2}" x2="{tx:.2}" y2="{ty:.2}" stroke="#8e1b1b" stroke-width="2" stroke-linecap="round"/><circle cx="{x:.2}" cy="{y:.2}" r="4.5" fill="#d83a3a" stroke="#fff" stroke-width="1.2"/>"##
            );
        }
    }
    s.push_str("</g>\n");

    s.push_str("<g id=\"labels\">\n");
    s.push_str(&labels);
    s.push_str("</g>\n");
    let drawing = s;

    let has_polygon = ps.iter().any(|p| !p.polygon.is_empty());
    let footer = Footer::new(scale, w, legend(arrows, detail, has_polygon));
    let footer_top = top + draw_h + 14.0;
    let h = (footer_top + footer.height).ceil();
    let mut s = String::with_capacity(drawing.len() + 4096);
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="Helvetica, Arial, sans-serif">"##
    );
    s.push_str(r##"<rect width="100%" height="100%" fill="#fbfaf6"/>"##);
    s.push('\n');
    header.draw(&mut s, mode);
    s.push_str(&drawing);
    north_arrow(&mut s, w, mode);
    footer.draw(&mut s, footer_top, mode);
    s.push_str("</svg>\n");
    s
}

/// The boxes of the labels placed so far, bucketed in 32-pixel cells.
#[derive(Default)]
struct Taken {
    cells: std::collections::HashMap<(i64, i64), Vec<[f64; 4]>>,
}

impl Taken {
    const CELL: f64 = 32.0;

    /// Takes `b` (`[x0, y0, x1, y1]`, pixels) unless it overlaps a box
    /// taken before; true when taken.
    fn claim(&mut self, b: [f64; 4]) -> bool {
        let span = |lo: f64, hi: f64| {
            let (a, z) = (
                (lo / Self::CELL).floor() as i64,
                (hi / Self::CELL).floor() as i64,
            );
            // A label is a few cells wide; a non-finite or huge box is
            // one cell (it cannot be on the picture anyway).
            if z.saturating_sub(a) > 64 {
                a..=a
            } else {
                a..=z
            }
        };
        let cells: Vec<(i64, i64)> = span(b[0], b[2])
            .flat_map(|cx| span(b[1], b[3]).map(move |cy| (cx, cy)))
            .collect();
        let hit = |o: &[f64; 4]| b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3];
        if cells
            .iter()
            .any(|c| self.cells.get(c).is_some_and(|v| v.iter().any(hit)))
        {
            return false;
        }
        for c in cells {
            self.cells.entry(c).or_default().push(b);
        }
        true
    }
}

/// The unit direction (east, north) of the texture's +v axis over a tile,
/// from three of its vertices and their pixels; `None` when degenerate.
fn texture_up(ring: &[Xy], uv: &[[f64; 2]]) -> Option<Xy> {
    if ring.len() < 3 || uv.len() != ring.len() {
        return None;
    }
    let (p0, u0) = (ring[0], uv[0]);
    for k in 2..ring.len() {
        let (a, b) = (1, k);
        let du = [
            [uv[a][0] - u0[0], uv[a][1] - u0[1]],
            [uv[b][0] - u0[0], uv[b][1] - u0[1]],
        ];
        let det = du[0][0] * du[1][1] - du[0][1] * du[1][0];
        if det.abs() < 1e-9 {
            continue;
        }
        let dl = [
            [ring[a][0] - p0[0], ring[a][1] - p0[1]],
            [ring[b][0] - p0[0], ring[b][1] - p0[1]],
        ];
        // Solve M·du_i = dl_i for the column M·(0,1): with du as rows,
        // (0,1) = α·du_a + β·du_b.
        let alpha = -du[1][0] / det;
        let beta = du[0][0] / det;
        let v = [
            alpha * dl[0][0] + beta * dl[1][0],
            alpha * dl[0][1] + beta * dl[1][1],
        ];
        let len = (v[0] * v[0] + v[1] * v[1]).sqrt();
        return (len > 0.0).then(|| [v[0] / len, v[1] / len]);
    }
    None
}

/// Grows `[lo, hi]` about its centre to at least `len`.
fn widen(lo: &mut f64, hi: &mut f64, len: f64) {
    if *hi - *lo < len {
        let c = (*lo + *hi) / 2.0;
        *lo = c - len / 2.0;
        *hi = c + len / 2.0;
    }
}

/// Width in pixels that a label of `text` at `size` takes at most, in
/// either [`TextMode`] (the stroke font is wider than a proportional
/// font's average, so the layout is the same in both).
fn text_width(text: &str, size: f64) -> f64 {
    super::strokefont::width(text, size * 0.9).max(0.62 * size * text.chars().count() as f64)
}

/// `text` at `size`, shrunk down to `min_size` and then shortened from
/// the left (with a leading `...`) until it fits in `room` pixels.
fn fit_text(text: &str, size: f64, min_size: f64, room: f64) -> (String, f64) {
    let mut size = size;
    while text_width(text, size) > room && size > min_size {
        size = (size - 0.5).max(min_size);
    }
    if text_width(text, size) <= room {
        return (text.to_string(), size);
    }
    let chars: Vec<char> = text.chars().collect();
    for skip in 1..chars.len() {
        let t = format!("...{}", chars[skip..].iter().collect::<String>());
        if text_width(&t, size) <= room {
            return (t, size);
        }
    }
    ("...".to_string(), size)
}

/// Splits `parts` into lines of at most `room` pixels at `size`, joined by
/// `sep`; a part too long for a line gets a line of its own.
fn wrap(parts: &[String], sep: &str, size: f64, room: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for part in parts {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line}{sep}{part}"), size) <= room => {
                line.push_str(sep);
                line.push_str(part);
            }
            _ => lines.push(part.clone()),
        }
    }
    lines
}

/// The band above the drawing: a title and a subtitle wrapped to the
/// picture's width (the north arrow keeps the top right corner).
struct Header {
    title: String,
    title_size: f64,
    sub: Vec<String>,
    height: f64,
}

const SUB_SIZE: f64 = 11.5;
const SUB_STEP: f64 = 16.0;

impl Header {
    fn new(ps: &[Placement], w: f64) -> Self {
        let name = match ps {
            [p] => format!("{} ({})", p.asset, p.kind),
            _ => format!("{} autogen uses", ps.len()),
        };
        let (mut tiles, mut objects, mut facades, mut trees) = (0, 0, 0, 0);
        for p in ps {
            tiles += p.tiles.len();
            objects += p.objects.len();
            facades += p.facades.len();
            trees += p.trees.len();
        }
        let o = ps.first().map_or([0.0, 0.0], |p| p.origin);
        let seed = ps.first().map_or(0, |p| p.seed);
        let room = w - 2.0 * LEFT - NORTH_W;
        let (title, title_size) = fit_text(&name, 17.0, 12.0, room);
        let parts = [
            format!("origin {:.6}, {:.6}", o[1], o[0]),
            format!("seed {seed}"),
            [
                super::count(tiles, "tile"),
                super::count(objects, "object"),
                super::count(facades, "facade"),
                super::count(trees, "tree"),
            ]
            .join(", "),
        ];
        let sub: Vec<String> = wrap(&parts, " · ", SUB_SIZE, room)
            .into_iter()
            .map(|l| fit_text(&l, SUB_SIZE, SUB_SIZE, room).0)
            .collect();
        let height = (47.0 + (sub.len() as f64 - 1.0) * SUB_STEP + 17.0).max(64.0);
        Header {
            title,
            title_size,
            sub,
            height,
        }
    }

    fn draw(&self, s: &mut String, mode: TextMode) {
        label(
            s,
            mode,
            LEFT,
            28.0,
            self.title_size,
            Anchor::Start,
            false,
            "#222",
            true,
            &self.title,
        );
        for (i, line) in self.sub.iter().enumerate() {
            label(
                s,
                mode,
                LEFT,
                47.0 + i as f64 * SUB_STEP,
                SUB_SIZE,
                Anchor::Start,
                false,
                "#555",
                false,
                line,
            );
        }
    }
}

fn north_arrow(s: &mut String, w: f64, mode: TextMode) {
    let x = w - 34.0;
    let _ = writeln!(
        s,
        r##"<g id="north"><path d="M{x:.1},14l9,26l-9,-7l-9,7z" fill="#222"/>"##
    );
    label(
        s,
        mode,
        x,
        54.0,
        11.0,
        Anchor::Middle,
        false,
        "#222",
        false,
        "N",
    );
    s.push_str("</g>\n");
}

/// A legend entry: an icon (drawn in a 12 × 9 box) and a word.
type Entry = (&'static str, &'static str);

/// The legend of a picture: tiles with or without their arrows, objects
/// as markers (close-up) or points (overview), the DSF polygon when drawn.
fn legend(arrows: bool, detail: bool, polygon: bool) -> Vec<Entry> {
    let mut v = vec![
        if arrows {
            (
                r##"<rect width="12" height="9" fill="#4a7ab5" fill-opacity="0.3" stroke="#2f5d95"/><path d="M6,8V1M3.5,3.5L6,1L8.5,3.5" fill="none" stroke="#2f5d95"/>"##,
                "tile (arrow: texture up)",
            )
        } else {
            (
                r##"<rect width="12" height="9" fill="#4a7ab5" fill-opacity="0.3" stroke="#2f5d95"/>"##,
                "tile",
            )
        },
        (
            r##"<rect width="12" height="9" fill="#c8793c" stroke="#74421c"/>"##,
            "facade",
        ),
        (r##"<circle cx="6" cy="5" r="5" fill="#3f8f33"/>"##, "tree"),
        if detail {
            (
                r##"<circle cx="6" cy="5" r="4.5" fill="#d83a3a"/><line x1="6" y1="5" x2="6" y2="-3" stroke="#8e1b1b" stroke-width="2"/>"##,
                "object",
            )
        } else {
            (
                r##"<circle cx="6" cy="5" r="2" fill="#c0392b"/>"##,
                "object",
            )
        },
    ];
    if polygon {
        v.push((
            r##"<rect width="12" height="9" fill="#ebe3cc" stroke="#9a8f6c"/>"##,
            "DSF polygon",
        ));
    }
    v
}
const LEGEND_SIZE: f64 = 11.0;
const LEGEND_ROW: f64 = 22.0;

/// The band below the drawing: the scale bar at the left, the legend in
/// right-aligned rows at the right (as many rows as the width needs).
struct Footer {
    /// Bar length in metres and pixels, and its label.
    bar_m: f64,
    bar_px: f64,
    bar_text: String,
    /// The legend's entries.
    entries: Vec<Entry>,
    /// Legend rows: (x of each entry, entry index), right-aligned.
    rows: Vec<Vec<(f64, usize)>>,
    height: f64,
}

impl Footer {
    fn new(scale: f64, w: f64, entries: Vec<Entry>) -> Self {
        // A bar of a round length (1, 2 or 5 × 10^k m) of at most 1/4 of
        // the picture's inner width.
        let target = (w - 2.0 * LEFT) / 4.0 / scale;
        let mag = 10f64.powf(target.log10().floor());
        let bar_m = [5.0, 2.0, 1.0]
            .iter()
            .map(|m| m * mag)
            .find(|&l| l <= target)
            .unwrap_or(mag);
        let bar_px = bar_m * scale;
        let bar_text = if bar_m >= 1000.0 {
            format!("{} km", bar_m / 1000.0)
        } else {
            format!("{bar_m} m")
        };
        let bar_w = bar_px.max(text_width(&bar_text, 11.0));
        let left = LEFT + bar_w + 30.0;
        let right = w - LEFT;
        let n = entries.len();
        let entry = |i: usize| 17.0 + text_width(entries[i].1, LEGEND_SIZE);
        const GAP: f64 = 16.0;
        // Fill rows left to right, then right-align each.
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut used = 0.0;
        for i in 0..n {
            let e = entry(i);
            match rows.last_mut() {
                Some(row) if used + GAP + e <= right - left => {
                    row.push(i);
                    used += GAP + e;
                }
                _ => {
                    rows.push(vec![i]);
                    used = e;
                }
            }
        }
        let rows: Vec<Vec<(f64, usize)>> = rows
            .into_iter()
            .map(|row| {
                let total: f64 =
                    row.iter().map(|&i| entry(i)).sum::<f64>() + GAP * (row.len() - 1) as f64;
                let mut x = (right - total).max(left);
                row.into_iter()
                    .map(|i| {
                        let at = x;
                        x += entry(i) + GAP;
                        (at, i)
                    })
                    .collect()
            })
            .collect();
        let height = (rows.len() as f64 * LEGEND_ROW).max(34.0) + 12.0;
        Footer {
            bar_m,
            bar_px,
            bar_text,
            entries,
            rows,
            height,
        }
    }

    fn draw(&self, s: &mut String, top: f64, mode: TextMode) {
        let y = top + 6.0;
        let px = self.bar_px;
        let _ = writeln!(
            s,
            r##"<g id="scale" data-metres="{}"><rect x="{LEFT}" y="{y:.1}" width="{:.2}" height="5" fill="#222"/><rect x="{:.2}" y="{y:.1}" width="{:.2}" height="5" fill="#fff" stroke="#222" stroke-width="1"/>"##,
            self.bar_m,
            px / 2.0,
            LEFT + px / 2.0,
            px / 2.0,
        );
        label(
            s,
            mode,
            LEFT,
            y + 20.0,
            11.0,
            Anchor::Start,
            false,
            "#222",
            false,
            &self.bar_text,
        );
        s.push_str("</g>\n");
        s.push_str("<g id=\"legend\">\n");
        for (r, row) in self.rows.iter().enumerate() {
            let y = top + 4.0 + r as f64 * LEGEND_ROW;
            for &(x, i) in row {
                let (shape, word) = self.entries[i];
                let _ = writeln!(s, r##"<g transform="translate({x:.1},{y:.1})">{shape}"##);
                label(
                    s,
                    mode,
                    17.0,
                    9.0,
                    LEGEND_SIZE,
                    Anchor::Start,
                    false,
                    "#333",
                    false,
                    word,
                );
                s.push_str("</g>\n");
            }
        }
        s.push_str("</g>\n");
    }
}

/// Escapes text for XML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Width and height of a picture, from its first line.
    fn size(svg: &str) -> (f64, f64) {
        let num = |key: &str| -> f64 {
            let at = svg.find(key).unwrap() + key.len();
            let rest = &svg[at..];
            rest[..rest.find('"').unwrap()].parse().unwrap()
        };
        (num(" width=\""), num(" height=\""))
    }

    fn block(w: f64, h: f64, asset: &str) -> Placement {
        Placement {
            kind: "agb".into(),
            asset: asset.into(),
            polygon: vec![vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]],
            ..Placement::default()
        }
    }

    #[test]
    fn text_is_shrunk_then_shortened_to_fit() {
        let (t, size) = fit_text("short", 17.0, 12.0, 500.0);
        assert_eq!((t.as_str(), size), ("short", 17.0));
        let long = "a".repeat(50);
        let (t, size) = fit_text(&long, 17.0, 12.0, text_width(&long, 13.0));
        assert_eq!(t, long);
        assert!((12.0..=13.0).contains(&size), "{size}");
        let (t, size) = fit_text(&long, 17.0, 12.0, 100.0);
        assert_eq!(size, 12.0);
        assert!(t.starts_with("...") && text_width(&t, size) <= 100.0, "{t}");
        let parts = ["aaaa".to_string(), "bbbb".to_string(), "cccc".to_string()];
        let room = text_width("aaaa · bbbb", 10.0);
        assert_eq!(wrap(&parts, " · ", 10.0, room), ["aaaa · bbbb", "cccc"]);
    }

    #[test]
    fn narrow_content_gets_a_wide_picture_and_header_fits() {
        let name = format!("lib/{}/city_block.agb", "very_long_folder".repeat(12));
        let p = block(20.0, 2000.0, &name);
        let svg = to_svg(std::slice::from_ref(&p));
        let (w, h) = size(&svg);
        assert_eq!(w, MIN_W);
        // Drawing at most DRAW_MAX_H tall plus header and footer.
        assert!(h < DRAW_MAX_H + 200.0, "{h}");
        let head = Header::new(std::slice::from_ref(&p), w);
        let room = w - 2.0 * LEFT - NORTH_W;
        assert!(head.title.starts_with("...") && head.title.ends_with("city_block.agb (agb)"));
        assert!(text_width(&head.title, head.title_size) <= room);
        assert!(head.sub.iter().all(|l| text_width(l, SUB_SIZE) <= room));
        assert!(svg.contains(&esc(&head.title)));
    }

    #[test]
    fn flat_content_keeps_a_minimum_drawing_height() {
        let p = block(3000.0, 10.0, "b.agb");
        let svg = to_svg(std::slice::from_ref(&p));
        let (w, h) = size(&svg);
        assert!((w - (DRAW_MAX_W + 2.0 * LEFT)).abs() < 1.0, "{w}");
        let head = Header::new(std::slice::from_ref(&p), w);
        assert!(h >= head.height + DRAW_MIN_H + 34.0, "{h}");
    }

    #[test]
    fn legend_wraps_and_stays_inside_the_picture() {
        for w in [MIN_W, 600.0, 420.0] {
            let f = Footer::new(0.5, w, legend(true, true, true));
            let n: usize = f.rows.iter().map(Vec::len).sum();
            assert_eq!(n, 5);
            let left = LEFT + f.bar_px.max(text_width(&f.bar_text, 11.0)) + 30.0;
            for row in &f.rows {
                let &(x0, _) = row.first().unwrap();
                let &(x1, i) = row.last().unwrap();
                assert!(x0 >= left - 1e-9, "{w}: {x0} < {left}");
                let end = x1 + 17.0 + text_width(f.entries[i].1, LEGEND_SIZE);
                assert!(end <= w - LEFT + 1e-9 || row.len() == 1, "{w}: {end}");
            }
            assert!(f.bar_px <= (w - 2.0 * LEFT) / 4.0 + 1e-9);
            if w == MIN_W {
                assert_eq!(f.rows.len(), 1);
            } else {
                assert!(f.rows.len() > 1);
            }
            assert!(f.height >= f.rows.len() as f64 * LEGEND_ROW);
        }
    }

    /// A 24 m grid tile with an object and a ground point at `at`.
    fn tile_at(at: Xy) -> Placement {
        use crate::place::{PlacedObject, PlacedTile, Role, TileId};
        let [x, y] = at;
        let polygon = vec![[x, y], [x + 24.0, y], [x + 24.0, y + 24.0], [x, y + 24.0]];
        Placement {
            kind: "agb".into(),
            asset: "b.agb".into(),
            polygon: vec![polygon.clone()],
            tiles: vec![PlacedTile {
                id: TileId::Grid(1, 2),
                polygon,
                lonlat: Vec::new(),
                uv: vec![[0.0, 0.0], [64.0, 0.0], [64.0, 64.0], [0.0, 64.0]],
                order: 0,
                hidden: false,
                role: Role::Grid,
                unit: 0,
                source_line: 1,
                stop_points: Vec::new(),
                ground_point: Some([x + 12.0, y + 12.0]),
            }],
            objects: vec![PlacedObject {
                tile: 0,
                asset: "o.obj".into(),
                index: 0,
                mode: "graded".into(),
                x: x + 6.0,
                y: y + 6.0,
                lon: 0.0,
                lat: 0.0,
                heading: 90.0,
                height: 0.0,
                show: None,
                source_line: 2,
                ..PlacedObject::default()
            }],
            ..Placement::default()
        }
    }

    #[test]
    fn a_close_up_has_ids_arrows_ticks_and_an_overview_does_not() {
        let near = to_svg(&[tile_at([0.0, 0.0])]);
        assert!(near.contains(">1,2</text>"), "the id");
        assert!(near.contains("<line "), "the object's heading tick");
        assert!(near.contains("l8,8m0,-8l-8,8"), "the ground point");
        assert!(near.contains("tile (arrow: texture up)"));
        let arrows = |svg: &str| {
            let tiles = &svg[svg.find("id=\"tiles\"").unwrap()..];
            tiles[..tiles.find("</g>").unwrap()]
                .matches("<path")
                .count()
        };
        assert_eq!(arrows(&near), 1);
        // The same tile in a 3 km picture: 24 m is about 8 px.
        let far = to_svg(&[tile_at([0.0, 0.0]), tile_at([3000.0, 1500.0])]);
        assert!(!far.contains(",2</text>") && !far.contains("<line "));
        assert!(!far.contains("l8,8m0,-8l-8,8"));
        assert_eq!(arrows(&far), 0);
        assert!(far.contains(r##"<g id="objects" fill="#c0392b">"##));
        assert!(far.contains(r#"r="1.6"/>"#), "objects as points");
        assert!(
            !far.contains("(arrow: texture up)"),
            "the legend says what is drawn"
        );
    }

    #[test]
    fn overlapping_labels_are_left_out() {
        let mut t = Taken::default();
        assert!(t.claim([0.0, 0.0, 20.0, 10.0]));
        assert!(!t.claim([19.0, 9.0, 40.0, 20.0]), "overlaps the first");
        assert!(t.claim([20.0, 0.0, 40.0, 10.0]), "touching is fine");
        assert!(t.claim([100.0, 100.0, 120.0, 110.0]));
        assert!(!t.claim([90.0, 95.0, 130.0, 105.0]), "across cells");
        assert!(t.claim([f64::NAN, 0.0, f64::NAN, 1.0]), "no panic on NaN");
        assert!(t.claim([-1e300, 0.0, 1e300, 1.0]), "huge boxes are bounded");
    }

    #[test]
    fn texture_up_follows_the_uv_map() {
        let uv = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        // Texture turned 180°: up points south.
        let ring = [[5.0, 5.0], [-5.0, 5.0], [-5.0, -5.0], [5.0, -5.0]];
        let u = texture_up(&ring, &uv).unwrap();
        assert!((u[0]).abs() < 1e-12 && (u[1] + 1.0).abs() < 1e-12, "{u:?}");
        // Turned 90° clockwise: up points east.
        let ring = [[-5.0, 5.0], [-5.0, -5.0], [5.0, -5.0], [5.0, 5.0]];
        let u = texture_up(&ring, &uv).unwrap();
        assert!((u[0] - 1.0).abs() < 1e-12 && u[1].abs() < 1e-12, "{u:?}");
        assert!(texture_up(&ring[..2], &uv[..2]).is_none());
    }
}
