//! The drawing model of agkit's pictures: a [`Drawing`] is layers of
//! shapes with styles, in picture pixels (x right, y down), written as SVG
//! by [`Drawing::to_svg`].
//!
//! A picture style fills a drawing; the writer knows nothing of
//! placements or scenery. The schematic style ([`super::svg`]) fills the
//! map layers with outlines, discs and markers; a textured style adds
//! shapes of its own kind (an image cut to a tile) beside the ones here,
//! and every style shares the frame (title, scale bar, legend, north
//! arrow) of [`super::frame`].
//!
//! The SVG is written one element a line, each layer a `<g id="…">` group
//! on its own line, so that tools (and tests) can read it line by line.
//! Areas are closed paths (every ring ends with `Z`); open lines are
//! `<polyline>`s; words drawn as strokes are paths of class `word`.

use std::fmt::Write;

/// A point of the picture, in pixels: x right, y down.
pub type Px = [f64; 2];

/// A box of the picture: `[x0, y0, x1, y1]`, pixels.
pub type Bbox = [f64; 4];

/// An RGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// The colour of a `0xRRGGBB` number.
    pub const fn hex(v: u32) -> Colour {
        Colour((v >> 16) as u8, (v >> 8) as u8, v as u8)
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Ten colours told apart at a glance, for categories (packages, assets):
/// the last is a grey for "the rest".
pub const CATEGORIES: [Colour; 10] = [
    Colour::hex(0x1f77b4),
    Colour::hex(0xd62728),
    Colour::hex(0x2ca02c),
    Colour::hex(0xff7f0e),
    Colour::hex(0x9467bd),
    Colour::hex(0x8c564b),
    Colour::hex(0xe377c2),
    Colour::hex(0x17becf),
    Colour::hex(0xbcbd22),
    Colour::hex(0x7f7f7f),
];

/// How a fill or stroke is painted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Not painted.
    None,
    /// A plain colour.
    Colour(Colour),
}

impl std::fmt::Display for Paint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Paint::None => f.write_str("none"),
            Paint::Colour(c) => c.fmt(f),
        }
    }
}

/// How a shape (or a whole layer) is painted. `None` fields are inherited
/// from the layer, then from SVG's defaults (black fill, no stroke).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Style {
    /// The fill.
    pub fill: Option<Paint>,
    /// Opacity of the fill, 0–1.
    pub fill_opacity: Option<f64>,
    /// The outline.
    pub stroke: Option<Paint>,
    /// Width of the outline, pixels.
    pub stroke_width: Option<f64>,
    /// Dashes of the outline: drawn and gap lengths, pixels.
    pub dash: Option<[f64; 2]>,
    /// Opacity of the whole shape, 0–1.
    pub opacity: Option<f64>,
    /// Round line caps and joins.
    pub round: bool,
}

impl Style {
    /// Filled with `c`.
    pub fn fill(c: Colour) -> Style {
        Style {
            fill: Some(Paint::Colour(c)),
            ..Style::default()
        }
    }

    /// Outlined with `c`, `width` pixels wide, not filled.
    pub fn outline(c: Colour, width: f64) -> Style {
        Style {
            fill: Some(Paint::None),
            ..Style::default().stroke(c, width)
        }
    }

    /// This style outlined with `c`, `width` pixels wide.
    pub fn stroke(self, c: Colour, width: f64) -> Style {
        Style {
            stroke: Some(Paint::Colour(c)),
            stroke_width: Some(width),
            ..self
        }
    }

    /// This style with the fill at opacity `o`.
    pub fn fill_opacity(self, o: f64) -> Style {
        Style {
            fill_opacity: Some(o),
            ..self
        }
    }

    /// This style with its outline dashed.
    pub fn dashed(self, on: f64, off: f64) -> Style {
        Style {
            dash: Some([on, off]),
            ..self
        }
    }

    /// This style at opacity `o`.
    pub fn opacity(self, o: f64) -> Style {
        Style {
            opacity: Some(o),
            ..self
        }
    }

    /// This style with round caps and joins.
    pub fn round(self) -> Style {
        Style {
            round: true,
            ..self
        }
    }

    /// The SVG attributes of the style, each with a leading space.
    fn attributes(&self, s: &mut String) {
        if let Some(p) = self.fill {
            let _ = write!(s, r#" fill="{p}""#);
        }
        if let Some(o) = self.fill_opacity {
            let _ = write!(s, r#" fill-opacity="{}""#, num(o));
        }
        if let Some(p) = self.stroke {
            let _ = write!(s, r#" stroke="{p}""#);
        }
        if let Some(w) = self.stroke_width {
            let _ = write!(s, r#" stroke-width="{}""#, num(w));
        }
        if let Some([on, off]) = self.dash {
            let _ = write!(s, r#" stroke-dasharray="{} {}""#, num(on), num(off));
        }
        if let Some(o) = self.opacity {
            let _ = write!(s, r#" opacity="{}""#, num(o));
        }
        if self.round {
            s.push_str(r#" stroke-linecap="round" stroke-linejoin="round""#);
        }
    }
}

/// Horizontal alignment of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// `at` is the text's left end.
    Start,
    /// `at` is the text's middle.
    Middle,
}

/// Words on the picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// Where: the baseline's left end or middle ([`Anchor`]), or the
    /// vertical middle of the text when `middle`.
    pub at: Px,
    /// Font size, pixels.
    pub size: f64,
    /// Horizontal alignment.
    pub anchor: Anchor,
    /// `at` is the vertical middle, not the baseline.
    pub middle: bool,
    /// Colour.
    pub colour: Colour,
    /// Bold.
    pub bold: bool,
    /// The words.
    pub text: String,
}

impl Text {
    /// A text of `size` in `colour` with its baseline starting at `at`.
    pub fn new(text: impl Into<String>, at: Px, size: f64, colour: Colour) -> Text {
        Text {
            at,
            size,
            anchor: Anchor::Start,
            middle: false,
            colour,
            bold: false,
            text: text.into(),
        }
    }

    /// This text centred on `at` (both ways).
    pub fn centred(self) -> Text {
        Text {
            anchor: Anchor::Middle,
            middle: true,
            ..self
        }
    }

    /// This text centred horizontally on `at`, on its baseline.
    pub fn centred_x(self) -> Text {
        Text {
            anchor: Anchor::Middle,
            ..self
        }
    }

    /// This text in bold.
    pub fn bold(self) -> Text {
        Text { bold: true, ..self }
    }

    /// The box the text takes at most, in either [`TextMode`].
    pub fn bbox(&self) -> Bbox {
        let w = text_width(&self.text, self.size);
        let x0 = match self.anchor {
            Anchor::Start => self.at[0],
            Anchor::Middle => self.at[0] - w / 2.0,
        };
        let (y0, y1) = if self.middle {
            (self.at[1] - 0.5 * self.size, self.at[1] + 0.5 * self.size)
        } else {
            (self.at[1] - 0.8 * self.size, self.at[1] + 0.25 * self.size)
        };
        [x0, y0, x0 + w, y1]
    }
}

/// Width in pixels that `text` at `size` takes at most, in either
/// [`TextMode`] (the stroke font is wider than a proportional font's
/// average, so a layout holds in both). It depends on the count of
/// characters only ([`chars_width`]), so a layout measures a text once,
/// whatever it cuts from it.
pub fn text_width(text: &str, size: f64) -> f64 {
    let n = text.chars().count();
    #[cfg(test)]
    MEASURED.with(|m| m.set(m.get() + n));
    chars_width(n, size)
}

#[cfg(test)]
std::thread_local! {
    /// Characters [`text_width`] has counted on this thread: what the
    /// tests of layouts count their work by.
    pub(crate) static MEASURED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Width in pixels that `n` characters at `size` take at most, in either
/// [`TextMode`]: [`text_width`] of any text of `n` characters.
pub fn chars_width(n: usize, size: f64) -> f64 {
    super::strokefont::chars_width(n, size * 0.9).max(0.62 * size * n as f64)
}

/// One thing drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Closed rings, filled even-odd (an outer ring and its holes).
    Area {
        /// The rings; each is closed back to its first point.
        rings: Vec<Vec<Px>>,
        /// Its style.
        style: Style,
    },
    /// An open line through the points.
    Line {
        /// The points in order.
        points: Vec<Px>,
        /// Its style.
        style: Style,
    },
    /// A disc.
    Circle {
        /// Its centre.
        at: Px,
        /// Its radius, pixels.
        r: f64,
        /// Its style.
        style: Style,
    },
    /// An upright rectangle.
    Rect {
        /// Its top left corner.
        at: Px,
        /// Its width and height.
        size: Px,
        /// Its style.
        style: Style,
    },
    /// Words.
    Text(Text),
    /// A raster image (a tile's cut of its texture) mapped into place by
    /// an affine transform and cut to a ring.
    Image(Image),
    /// Shapes drawn with their origin moved to `at` (a legend's icon).
    Group {
        /// Where the shapes' origin goes.
        at: Px,
        /// The shapes.
        shapes: Vec<Shape>,
    },
}

/// A PNG embedded in a picture: written once (a `<defs>` entry the first
/// time a [`Shape::Image`] draws it) however many shapes draw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Embedded {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// An [`Embedded`] image drawn into the picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// The image (shared: the same cut drawn by many tiles is embedded
    /// once).
    pub image: std::sync::Arc<Embedded>,
    /// The affine map from the image's pixels (x right, y down, its top
    /// left corner at 0, 0) to the picture's: SVG's `matrix(a b c d e f)`,
    /// picture x = a·x + c·y + e, picture y = b·x + d·y + f.
    pub transform: [f64; 6],
    /// The ring (picture pixels) the image is cut to; not cut when empty.
    pub clip: Vec<Px>,
    /// Holes cut out of [`Image::clip`] (picture pixels; a draped
    /// polygon's), even-odd.
    pub holes: Vec<Vec<Px>>,
}

/// A named group of shapes with a common style, drawn in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// The group's `id`.
    pub id: &'static str,
    /// The style its shapes inherit.
    pub style: Style,
    /// Extra attributes of the group (`data-…`).
    pub data: Vec<(&'static str, String)>,
    /// A box the shapes are cut to, if any.
    pub clip: Option<Bbox>,
    /// The shapes, bottom first.
    pub shapes: Vec<Shape>,
}

impl Layer {
    /// An empty layer.
    pub fn new(id: &'static str, style: Style) -> Layer {
        Layer {
            id,
            style,
            data: Vec::new(),
            clip: None,
            shapes: Vec::new(),
        }
    }
}

/// How a picture carries its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextMode {
    /// SVG `<text>` elements (selectable, any font).
    Text,
    /// Strokes of a built-in font (for rasterising without fonts).
    Outlined,
}

/// A whole picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// Width and height, pixels.
    pub size: Px,
    /// The colour under everything.
    pub background: Colour,
    /// The layers, bottom first.
    pub layers: Vec<Layer>,
}

impl Drawing {
    /// How many shapes the drawing holds (groups counted with their
    /// members).
    pub fn shapes(&self) -> usize {
        fn count(s: &Shape) -> usize {
            match s {
                Shape::Group { shapes, .. } => 1 + shapes.iter().map(count).sum::<usize>(),
                _ => 1,
            }
        }
        self.layers.iter().flat_map(|l| &l.shapes).map(count).sum()
    }

    /// The SVG document.
    pub fn to_svg(&self, mode: TextMode) -> String {
        let [w, h] = self.size;
        let mut s = String::with_capacity(4096 + 64 * self.shapes());
        let _ = writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="Helvetica, Arial, sans-serif">"##
        );
        let _ = writeln!(
            s,
            r#"<rect width="100%" height="100%" fill="{}"/>"#,
            self.background
        );
        let mut ids = Ids::default();
        for layer in &self.layers {
            if let Some(b) = layer.clip {
                let _ = writeln!(
                    s,
                    r#"<clipPath id="clip-{}"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
                    esc(layer.id),
                    num(b[0]),
                    num(b[1]),
                    num(b[2] - b[0]),
                    num(b[3] - b[1])
                );
            }
            s.push_str(r#"<g id=""#);
            write_esc(&mut s, layer.id);
            s.push('"');
            if layer.clip.is_some() {
                s.push_str(r#" clip-path="url(#clip-"#);
                write_esc(&mut s, layer.id);
                s.push_str(r#")""#);
            }
            for (k, v) in &layer.data {
                let _ = write!(s, " {k}=\"");
                write_esc(&mut s, v);
                s.push('"');
            }
            layer.style.attributes(&mut s);
            s.push_str(">\n");
            for shape in &layer.shapes {
                write_shape(&mut s, shape, mode, &mut ids);
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}

/// A number for an attribute: at most two decimals, no trailing zeros.
fn num(v: f64) -> String {
    let t = format!("{v:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

/// Points closer than this to the last one kept are left out of a path:
/// they change nothing a viewer can see, and the path of a long outline
/// stays proportional to its length on the picture.
const MIN_STEP_PX: f64 = 0.25;

/// `points` as SVG coordinates `x,y x,y …`, dropping points within
/// [`MIN_STEP_PX`] of the last kept one (the last point is always kept
/// when `keep_last`). At least `min` points are kept when there are that
/// many.
fn coords(points: &[Px], keep_last: bool, min: usize) -> String {
    let mut kept: Vec<Px> = Vec::with_capacity(points.len().min(4096));
    for (i, &p) in points.iter().enumerate() {
        let last = i + 1 == points.len();
        let far = kept.last().is_none_or(|q: &Px| {
            (p[0] - q[0]).abs() >= MIN_STEP_PX || (p[1] - q[1]).abs() >= MIN_STEP_PX
        });
        if far || (last && keep_last) {
            kept.push(p);
        }
    }
    if kept.len() < min && points.len() >= min {
        kept = points.to_vec();
    }
    let mut s = String::with_capacity(kept.len() * 14);
    for (i, p) in kept.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{:.2},{:.2}", p[0], p[1]);
    }
    s
}

/// The ids given so far to embedded images (by their address) and clip
/// paths while writing one document.
#[derive(Default)]
struct Ids {
    images: std::collections::HashMap<*const Embedded, usize>,
    clips: usize,
}

/// Writes `img`: its image's `<defs>` entry the first time, its clip path,
/// and the image drawn (`<use>`) inside a group cut to it.
fn write_image(s: &mut String, img: &Image, ids: &mut Ids) {
    use base64::Engine as _;
    let key = std::sync::Arc::as_ptr(&img.image);
    let next = ids.images.len();
    let id = *ids.images.entry(key).or_insert_with(|| {
        let _ = writeln!(
            s,
            r#"<defs><image id="img{next}" width="{}" height="{}" preserveAspectRatio="none" href="data:image/png;base64,{}"/></defs>"#,
            img.image.width,
            img.image.height,
            base64::engine::general_purpose::STANDARD.encode(&img.image.png)
        );
        next
    });
    let t = img.transform;
    let matrix = format!(
        "matrix({:.5} {:.5} {:.5} {:.5} {:.3} {:.3})",
        t[0], t[1], t[2], t[3], t[4], t[5]
    );
    if img.clip.len() >= 3 {
        let c = ids.clips;
        ids.clips += 1;
        if img.holes.is_empty() {
            let _ = writeln!(
                s,
                r#"<clipPath id="cut{c}"><path d="M{}Z"/></clipPath>"#,
                coords(&img.clip, false, 3)
            );
        } else {
            let mut d = format!("M{}Z", coords(&img.clip, false, 3));
            for h in img.holes.iter().filter(|h| h.len() >= 3) {
                let _ = write!(d, " M{}Z", coords(h, false, 3));
            }
            let _ = writeln!(
                s,
                r#"<clipPath id="cut{c}"><path clip-rule="evenodd" d="{d}"/></clipPath>"#
            );
        }
        let _ = writeln!(
            s,
            r##"<g clip-path="url(#cut{c})"><use href="#img{id}" transform="{matrix}"/></g>"##
        );
    } else {
        let _ = writeln!(s, r##"<use href="#img{id}" transform="{matrix}"/>"##);
    }
}

fn write_shape(s: &mut String, shape: &Shape, mode: TextMode, ids: &mut Ids) {
    let mut attrs = String::new();
    match shape {
        Shape::Image(img) => write_image(s, img, ids),
        Shape::Area { rings, style } => {
            style.attributes(&mut attrs);
            let mut d = String::new();
            for ring in rings.iter().filter(|r| !r.is_empty()) {
                let _ = write!(d, "M{}Z", coords(ring, false, 3));
            }
            if rings.len() > 1 {
                attrs.push_str(r#" fill-rule="evenodd""#);
            }
            if !d.is_empty() {
                let _ = writeln!(s, r#"<path d="{d}"{attrs}/>"#);
            }
        }
        Shape::Line { points, style } => {
            style.attributes(&mut attrs);
            if points.len() >= 2 {
                let _ = writeln!(
                    s,
                    r#"<polyline points="{}"{attrs}/>"#,
                    coords(points, true, 2)
                );
            }
        }
        Shape::Circle { at, r, style } => {
            style.attributes(&mut attrs);
            let _ = writeln!(
                s,
                r#"<circle cx="{:.2}" cy="{:.2}" r="{}"{attrs}/>"#,
                at[0],
                at[1],
                num(*r)
            );
        }
        Shape::Rect { at, size, style } => {
            style.attributes(&mut attrs);
            let _ = writeln!(
                s,
                r#"<rect x="{:.2}" y="{:.2}" width="{}" height="{}"{attrs}/>"#,
                at[0],
                at[1],
                num(size[0]),
                num(size[1])
            );
        }
        Shape::Text(t) => write_text(s, t, mode),
        Shape::Group { at, shapes } => {
            let _ = writeln!(
                s,
                r#"<g transform="translate({},{})">"#,
                num(at[0]),
                num(at[1])
            );
            for shape in shapes {
                write_shape(s, shape, mode, ids);
            }
            s.push_str("</g>\n");
        }
    }
}

fn write_text(s: &mut String, t: &Text, mode: TextMode) {
    let [x, y] = t.at;
    match mode {
        TextMode::Text => {
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="{}" fill="{}"{}{}{}>"#,
                num(t.size),
                t.colour,
                if t.anchor == Anchor::Middle {
                    r#" text-anchor="middle""#
                } else {
                    ""
                },
                if t.middle {
                    r#" dominant-baseline="middle""#
                } else {
                    ""
                },
                if t.bold { r#" font-weight="bold""# } else { "" },
            );
            write_esc(s, &t.text);
            s.push_str("</text>\n");
        }
        TextMode::Outlined => {
            let size = t.size * 0.9;
            let x = match t.anchor {
                Anchor::Start => x,
                Anchor::Middle => x - super::strokefont::width(&t.text, size) / 2.0,
            };
            let y = if t.middle { y + 0.375 * size } else { y };
            let w = size / if t.bold { 7.0 } else { 10.0 };
            let _ = writeln!(
                s,
                r#"<path class="word" d="{}" fill="none" stroke="{}" stroke-width="{w:.2}" stroke-linecap="round" stroke-linejoin="round"/>"#,
                super::strokefont::path(&t.text, x, y, size),
                t.colour
            );
        }
    }
}

/// Whether XML 1.0 allows `c` in a document: `#x9 | #xA | #xD |
/// [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]` (Rust's `char`
/// holds no surrogates). The other C0 controls, U+FFFE and U+FFFF are
/// not allowed, not even as character references.
pub fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        || c >= '\u{10000}'
}

/// What a picture writes for a character XML 1.0 does not allow
/// ([`xml_char`]): U+FFFD REPLACEMENT CHARACTER, the character Unicode
/// gives for one that cannot be shown.
pub const REPLACEMENT: char = '\u{FFFD}';

/// `s` as XML text or attribute value (in double quotes): `&`, `<`, `>`
/// and `"` escaped, and each character XML 1.0 does not allow
/// ([`xml_char`]) written as [`REPLACEMENT`]. Every word and attribute
/// value of a [`Drawing`]'s SVG goes through it, so the document is XML
/// whatever the names it holds; one pass, linear in `s`.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    write_esc(&mut out, s);
    out
}

/// [`esc`] of `s`, appended to `out`.
fn write_esc(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if xml_char(c) => out.push(c),
            _ => out.push(REPLACEMENT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawing(shapes: Vec<Shape>) -> String {
        let mut layer = Layer::new("x", Style::fill(Colour::hex(0x112233)));
        layer.data.push(("data-n", "a\"b".into()));
        layer.shapes = shapes;
        Drawing {
            size: [100.0, 50.0],
            background: Colour(255, 255, 255),
            layers: vec![layer],
        }
        .to_svg(TextMode::Text)
    }

    #[test]
    fn shapes_are_written_one_a_line_and_areas_are_closed() {
        let sq = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let hole = vec![[2.0, 2.0], [2.0, 4.0], [4.0, 4.0]];
        let svg = drawing(vec![
            Shape::Area {
                rings: vec![sq.clone(), hole],
                style: Style::outline(Colour::hex(0xff0000), 1.5).dashed(3.0, 2.0),
            },
            Shape::Line {
                points: sq,
                style: Style::default(),
            },
            Shape::Circle {
                at: [1.0, 2.0],
                r: 0.5,
                style: Style::default().opacity(0.5),
            },
            Shape::Text(Text::new("a<b", [1.0, 2.0], 11.0, Colour(0, 0, 0)).centred()),
        ]);
        let lines: Vec<&str> = svg.lines().collect();
        assert_eq!(lines[2], r##"<g id="x" data-n="a&quot;b" fill="#112233">"##);
        assert_eq!(
            lines[3],
            r##"<path d="M0.00,0.00 10.00,0.00 10.00,10.00 0.00,10.00ZM2.00,2.00 2.00,4.00 4.00,4.00Z" fill="none" stroke="#ff0000" stroke-width="1.5" stroke-dasharray="3 2" fill-rule="evenodd"/>"##
        );
        assert!(lines[4].starts_with("<polyline points=\"0.00,0.00 "));
        assert_eq!(
            lines[5],
            r#"<circle cx="1.00" cy="2.00" r="0.5" opacity="0.5"/>"#
        );
        assert!(lines[6].ends_with(">a&lt;b</text>"), "{}", lines[6]);
        assert_eq!(lines[7], "</g>");
    }

    #[test]
    fn points_closer_than_a_quarter_pixel_are_dropped_but_rings_keep_three() {
        let fine: Vec<Px> = (0..1000).map(|i| [i as f64 * 0.01, 0.0]).collect();
        assert_eq!(coords(&fine, true, 2).split(' ').count(), 41);
        let tiny = [[0.0, 0.0], [0.1, 0.0], [0.1, 0.1]];
        assert_eq!(coords(&tiny, false, 3).split(' ').count(), 3);
    }

    #[test]
    fn characters_xml_does_not_allow_are_written_as_the_replacement() {
        let allowed = [
            '\t',
            '\n',
            '\r',
            ' ',
            '\u{D7FF}',
            '\u{E000}',
            '\u{FFFD}',
            '\u{10000}',
        ];
        assert!(allowed.iter().all(|&c| xml_char(c)));
        let forbidden = [
            '\0', '\u{1}', '\u{8}', '\u{b}', '\u{1b}', '\u{1f}', '\u{FFFE}', '\u{FFFF}',
        ];
        assert!(forbidden.iter().all(|&c| !xml_char(c)));
        assert_eq!(
            esc("a\u{1}b\u{1b}[0m<&>\"'\u{FFFF}\t"),
            "a\u{FFFD}b\u{FFFD}[0m&lt;&amp;&gt;&quot;'\u{FFFD}\t"
        );
        // Attributes go through it too: a layer's data.
        let mut layer = Layer::new("x", Style::default());
        layer.data.push(("data-n", "\u{1}\"".into()));
        let svg = Drawing {
            size: [10.0, 10.0],
            background: Colour(0, 0, 0),
            layers: vec![layer],
        }
        .to_svg(TextMode::Text);
        assert!(svg.contains("data-n=\"\u{FFFD}&quot;\""), "{svg}");
    }

    #[test]
    fn a_text_box_covers_its_words() {
        let t = Text::new("abc", [10.0, 20.0], 10.0, Colour(0, 0, 0));
        let b = t.bbox();
        assert_eq!((b[0], b[1], b[3]), (10.0, 12.0, 22.5));
        assert!(b[2] - b[0] >= 3.0 * 6.0);
        let c = t.centred().bbox();
        assert!((c[0] + c[2] - 20.0).abs() < 1e-9 && c[1] == 15.0 && c[3] == 25.0);
        assert_eq!(num(1.50), "1.5");
        assert_eq!(num(-0.001), "0");
        assert_eq!(Colour::hex(0x0a0b0c).to_string(), "#0a0b0c");
    }
}
