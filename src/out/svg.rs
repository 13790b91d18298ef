//! `--format svg`: a top-down picture of placements, north up.
//!
//! [`draw`] turns a [`Sheet`] (placements, uses drawn without a
//! placement, the DSF tile they belong to) into a [`Drawing`]: the map's
//! layers filled by a picture style, inside the frame of
//! [`super::frame`] — a title naming the tile(s) and the assets, a scale
//! bar, a north arrow and a legend of what is drawn. The style
//! ([`PictureStyle`]) fills the map's layers: the textured style
//! (`out/textured.rs`, the default) draws the art as the 3-D scene
//! ([`crate::scene::build`]) builds it, seen from above — tiles with their
//! texture, objects' footprints, facades' roofs, trees' crowns — and
//! leaves what has no art to the schematic style (`out/schematic.rs`),
//! which draws every item as a symbol. A scene past
//! `Limits::max_scene_triangles` is drawn in the schematic style, and the
//! picture's note says why.
//!
//! A picture is bounded whatever the input: when the items of a scene
//! (tiles, objects, facades, trees) are more than [`Options::max_items`]
//! (`agkit::limits::Limits::max_drawn_items`), the map is an
//! **overview** (`out/overview.rs`): each use's outline and its item
//! count (or, past the bound in uses too, counts per area), and the
//! header says so ([`overview_note`] is the same sentence for stderr).

use super::draw::{Colour, Drawing, Layer, Px, Shape, Style, Text};
use super::frame::{self, Entry, Footer, Header, LEFT, Names};
use super::labels::Labels;
use crate::dsf::Tile;
use crate::geom::{LocalFrame, Xy};
use crate::limits::Limits;
use crate::place::Placement;

pub use super::draw::TextMode;

/// The largest map (the drawing between header and footer), in pixels.
const DRAW_MAX_W: f64 = 1040.0;
const DRAW_MAX_H: f64 = 680.0;
/// The smallest map height: a long thin content gets room above and
/// below rather than a sliver of a picture.
const DRAW_MIN_H: f64 = 240.0;
/// The smallest picture width, so that header and legend have room.
const MIN_W: f64 = 900.0;
/// Width kept in the header for the locator of a DSF tile.
const LOCATOR_W: f64 = 56.0;
/// Pixels per metre from which the picture is a close-up: objects get their
/// marker and heading tick, trees their outlined disc, tiles their outline
/// and ground points their ×. Below it the picture is drawn at small scale.
pub const DETAIL_SCALE: f64 = 1.5;

/// What a picture shows.
#[derive(Debug, Clone, Default)]
pub struct Sheet<'a> {
    /// Placed uses, drawn with everything they place; the first one's
    /// origin is the picture's frame.
    pub placements: Vec<&'a Placement>,
    /// Uses drawn without a placement (their asset was not loaded or
    /// resolves nowhere): their DSF polygon or point, dashed. Only the
    /// `kind`, `asset`, `origin` and `polygon` of these are read.
    pub unplaced: Vec<&'a Placement>,
    /// The DSF tile the uses belong to, when known: the title names it, a
    /// locator shows where the map lies in it, and its edge is drawn
    /// where it crosses the map.
    pub tile: Option<Tile>,
}

impl<'a> Sheet<'a> {
    /// Every placement of `ps`, in no particular tile: those placed, and
    /// the uses not placed ([`Placement::unplaced`]) drawn where the DSF
    /// puts them.
    pub fn of(ps: &'a [Placement]) -> Sheet<'a> {
        let (unplaced, placements) = ps.iter().partition(|p| p.is_unplaced());
        Sheet {
            placements,
            unplaced,
            ..Sheet::default()
        }
    }

    fn all(&self) -> impl Iterator<Item = &'a Placement> + '_ {
        self.placements.iter().chain(&self.unplaced).copied()
    }

    /// Items the placed uses hold (tiles, objects, facades, trees).
    pub fn items(&self) -> usize {
        self.placements.iter().map(|p| p.items()).sum()
    }

    /// Uses in the scene, placed or not.
    pub fn uses(&self) -> usize {
        self.placements.len() + self.unplaced.len()
    }

    /// The scene counted for a title: its autogen uses (placed or not),
    /// and, for a whole DSF tile, the other definitions it places
    /// (`57 autogen uses and 12 other definitions`).
    fn counted(&self) -> String {
        let other = self
            .placements
            .iter()
            .filter(|p| !p.is_autogen_use())
            .count();
        let uses = self.uses() - other;
        match (uses, other) {
            (u, 0) => super::count(u, "autogen use"),
            (0, n) => super::count(n, "definition"),
            (u, n) => format!(
                "{} and {}",
                super::count(u, "autogen use"),
                super::count(n, "other definition")
            ),
        }
    }
}

/// What a picture's map layers show; every style shares the frame and the
/// bound of [`draw`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum PictureStyle {
    /// What the simulator draws, from above: tiles with the pixels of
    /// their texture, objects as their footprints shaded by height,
    /// facades as roofed footprints, trees as crowns of their width; items
    /// without art as their schematic symbols (ringed, dashed, when their
    /// art is missing).
    #[default]
    Textured,
    /// Symbols people read at a glance: tile outlines with their ids and
    /// texture arrows, facade footprints, tree discs, object markers.
    Schematic,
}

impl std::str::FromStr for PictureStyle {
    type Err = super::UnknownName;

    /// `textured` or `schematic`.
    fn from_str(s: &str) -> Result<PictureStyle, super::UnknownName> {
        match s {
            "textured" => Ok(PictureStyle::Textured),
            "schematic" => Ok(PictureStyle::Schematic),
            _ => Err(super::UnknownName {
                what: "style",
                name: s.to_string(),
                expected: "textured or schematic",
            }),
        }
    }
}

/// How a picture is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Options {
    /// What the map layers show.
    pub style: PictureStyle,
    /// How words are written.
    pub text: TextMode,
    /// Most items drawn one by one; a scene with more is an overview
    /// (`Limits::max_drawn_items`).
    pub max_items: usize,
    /// What reading textures may cost (their size, the bytes of images one
    /// picture embeds: `Limits::max_picture_image_bytes`).
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            style: PictureStyle::Textured,
            text: TextMode::Text,
            max_items: Limits::default().max_drawn_items,
            limits: Limits::default(),
        }
    }
}

/// A picture and what it left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The picture.
    pub drawing: Drawing,
    /// Set when the picture is an overview: why, in one sentence (the
    /// header carries it too).
    pub overview: Option<String>,
    /// Set when a textured picture filled tiles in flat colour because
    /// its images reached `Limits::max_picture_image_bytes` (how many, in
    /// one sentence; the legend says it too), or drew symbols only because
    /// its 3-D scene would pass `Limits::max_scene_triangles`.
    pub textures: Option<String>,
    /// Set when names (of assets, definitions) were not written as they
    /// are: characters XML 1.0 does not allow written as U+FFFD, names
    /// longer than [`super::frame::NAME_CHARS`] characters shortened in
    /// the middle ([`Names`]); one sentence, which the header carries too.
    pub names: Option<String>,
}

/// The picture of all placements, with SVG text.
pub fn to_svg(ps: &[Placement]) -> String {
    to_svg_with(ps, TextMode::Text)
}

/// The picture of all placements.
pub fn to_svg_with(ps: &[Placement], mode: TextMode) -> String {
    let opts = Options {
        text: mode,
        ..Options::default()
    };
    draw(&Sheet::of(ps), &opts).drawing.to_svg(mode)
}

/// Why a picture of `scene` is an overview (items beyond `max_items`), or
/// `None` when every item is drawn.
pub fn overview_note(scene: &Sheet, max_items: usize) -> Option<String> {
    let items = scene.items();
    (items > max_items).then(|| {
        format!(
            "overview: {} in {} are more than the {} one picture draws; each use is drawn as its outline with its item count (--format json or geojson has every item)",
            super::count(items, "item"),
            super::count(scene.uses(), "use"),
            super::thousands(max_items)
        )
    })
}

/// Maps every placement's local metres into the first placement's frame.
pub(super) struct Frames {
    pub(super) common: LocalFrame,
    own: Vec<Option<LocalFrame>>,
}

impl Frames {
    /// The frames of `scene`'s placements: the common one is the first
    /// placement's.
    pub(super) fn new(scene: &Sheet) -> Self {
        let origin = scene.all().next().map_or([0.0, 0.0], |p| p.origin);
        Frames {
            common: LocalFrame::new(origin),
            own: scene
                .all()
                .map(|p| (p.origin != origin).then(|| LocalFrame::new(p.origin)))
                .collect(),
        }
    }

    /// `q`, in the frame of the `i`th placement of [`Sheet::all`] order, in
    /// the common frame.
    pub(super) fn to_common(&self, i: usize, q: Xy) -> Xy {
        match &self.own[i] {
            Some(f) => self.common.to_local(f.to_lonlat(q)),
            None => q,
        }
    }
}

/// Maps local metres (common frame) to picture pixels.
pub(super) struct View {
    pub(super) min: Xy,
    pub(super) max: Xy,
    /// Pixels per metre.
    pub(super) scale: f64,
    /// Pixel row of the map's top edge (below the header).
    pub(super) top: f64,
}

impl View {
    pub(super) fn px(&self, q: Xy) -> Px {
        [
            LEFT + (q[0] - self.min[0]) * self.scale,
            self.top + (self.max[1] - q[1]) * self.scale,
        ]
    }

    /// The map's pixel box.
    pub(super) fn bbox(&self) -> [f64; 4] {
        let a = self.px([self.min[0], self.max[1]]);
        let b = self.px([self.max[0], self.min[1]]);
        [a[0], a[1], b[0], b[1]]
    }
}

/// The extent of everything in the scene (common frame), at least 10 m
/// across with a margin of 6 %.
fn extent(scene: &Sheet, frames: &Frames) -> (Xy, Xy) {
    let mut min = [f64::INFINITY; 2];
    let mut max = [f64::NEG_INFINITY; 2];
    let mut grow = |q: Xy, r: f64| {
        if q[0].is_finite() && q[1].is_finite() {
            min[0] = min[0].min(q[0] - r);
            min[1] = min[1].min(q[1] - r);
            max[0] = max[0].max(q[0] + r);
            max[1] = max[1].max(q[1] + r);
        }
    };
    for (i, p) in scene.all().enumerate() {
        let mut g = |q: Xy, r: f64| grow(frames.to_common(i, q), r);
        g([0.0, 0.0], 0.0);
        p.polygon.iter().flatten().for_each(|&q| g(q, 0.0));
        for t in &p.tiles {
            t.polygon.iter().for_each(|&q| g(q, 0.0));
        }
        for f in &p.facades {
            f.polygon.iter().for_each(|&q| g(q, 0.0));
        }
        for o in &p.objects {
            g([o.x, o.y], 0.0);
            o.footprint.iter().for_each(|&q| g(q, 0.0));
        }
        p.trees.iter().for_each(|t| g([t.x, t.y], t.width / 2.0));
        for d in &p.draped {
            d.rings.iter().flatten().for_each(|&q| g(q, 0.0));
        }
        for l in &p.lines {
            let r = l.width.unwrap_or(0.0).max(0.0) / 2.0;
            l.points.iter().for_each(|&q| g(q, r));
        }
    }
    if !min[0].is_finite() {
        min = [-10.0, -10.0];
        max = [10.0, 10.0];
    }
    for k in 0..2 {
        let c = (min[k] + max[k]) / 2.0;
        let half = ((max[k] - min[k]) / 2.0).max(5.0) * 1.06;
        min[k] = c - half;
        max[k] = c + half;
    }
    (min, max)
}

/// Grows `[lo, hi]` about its centre to at least `len`.
fn widen(lo: &mut f64, hi: &mut f64, len: f64) {
    if *hi - *lo < len {
        let c = (*lo + *hi) / 2.0;
        *lo = c - len / 2.0;
        *hi = c + len / 2.0;
    }
}

/// The DSF tiles the scene is in: its own, else the tiles of the uses'
/// origins, in order.
fn tiles_of(scene: &Sheet) -> Vec<Tile> {
    if let Some(t) = scene.tile {
        return vec![t];
    }
    let mut tiles: Vec<Tile> = scene
        .all()
        .map(|p| Tile::of(p.origin[0], p.origin[1]))
        .collect();
    tiles.sort();
    tiles.dedup();
    tiles
}

/// The title (naming the asset, or the tile(s) and the count of uses) and
/// the subtitle's parts (the assets, origin, seed and counts), the assets'
/// names written through `names`.
fn title<'a>(scene: &Sheet<'a>, names: &mut Names<'a>) -> (String, Vec<String>) {
    let tiles = tiles_of(scene);
    let tile_names = match tiles.len() {
        0 => String::new(),
        1 => format!("DSF tile {}", tiles[0]),
        2 | 3 => {
            let names: Vec<String> = tiles.iter().map(Tile::to_string).collect();
            format!("DSF tiles {}", names.join(", "))
        }
        n => format!("{n} DSF tiles"),
    };
    let mut parts = Vec::new();
    let title = match (&scene.placements[..], &scene.unplaced[..]) {
        ([p], []) | ([], [p]) => {
            if !tile_names.is_empty() {
                parts.push(tile_names);
            }
            format!("{} ({})", names.show(&p.asset), p.kind)
        }
        _ => {
            parts.push(assets_line(scene, names));
            format!(
                "{}{}{}",
                tile_names,
                if tile_names.is_empty() { "" } else { ": " },
                scene.counted()
            )
        }
    };
    if let Some(p) = scene.all().next() {
        let o = p.origin;
        parts.push(format!("origin lat {:.6}, lon {:.6}", o[1], o[0]));
        parts.push(format!("seed {}", p.seed));
    }
    let (mut tiles, mut objects, mut facades, mut trees) = (0, 0, 0, 0);
    let (mut draped, mut lines) = (0, 0);
    for p in &scene.placements {
        tiles += p.tiles.len();
        objects += p.objects.len();
        facades += p.facades.len();
        trees += p.trees.len();
        draped += p.draped.len();
        lines += p.lines.len();
    }
    let mut counts = vec![
        super::count(tiles, "tile"),
        super::count(objects, "object"),
        super::count(facades, "facade"),
        super::count(trees, "tree"),
    ];
    // A whole tile's: named only when there are some.
    if draped > 0 {
        counts.push(super::count(draped, "draped polygon"));
    }
    if lines > 0 {
        counts.push(super::count(lines, "line"));
    }
    parts.push(counts.join(", "));
    if !scene.unplaced.is_empty() {
        parts.push(format!(
            "{} not placed (dashed)",
            super::count(scene.unplaced.len(), "use")
        ));
    }
    (title, parts)
}

/// Most assets the subtitle names; the rest are counted.
const TITLE_ASSETS: usize = 6;

/// `assets: a.agb ×3, b.ags, …`: the scene's assets by use count, their
/// names written through `names`.
fn assets_line<'a>(scene: &Sheet<'a>, names: &mut Names<'a>) -> String {
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut counts: Vec<(&'a str, usize)> = Vec::new();
    for p in scene.all() {
        let k = *index.entry(&p.asset).or_insert_with(|| {
            counts.push((&p.asset, 0));
            counts.len() - 1
        });
        counts[k].1 += 1;
    }
    // Most used first; a stable sort keeps the order of first use among
    // equals.
    counts.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let mut names: Vec<String> = counts
        .iter()
        .take(TITLE_ASSETS)
        .map(|&(a, n)| {
            let a = names.show(a);
            if n == 1 {
                a.into_owned()
            } else {
                format!("{a} ×{}", super::thousands(n))
            }
        })
        .collect();
    if counts.len() > TITLE_ASSETS {
        names.push(format!("{} more", counts.len() - TITLE_ASSETS));
    }
    format!("assets: {}", names.join(", "))
}

/// The picture of `scene`.
pub fn draw(scene: &Sheet, opts: &Options) -> Picture {
    let frames = Frames::new(scene);
    let (mut min, mut max) = extent(scene, &frames);
    let scale = (DRAW_MAX_W / (max[0] - min[0])).min(DRAW_MAX_H / (max[1] - min[1]));
    // The picture is at least MIN_W wide and the map DRAW_MIN_H tall: a
    // narrow or flat content is centred in a wider view at the same scale.
    let w = ((max[0] - min[0]) * scale + 2.0 * LEFT).max(MIN_W).round();
    widen(&mut min[0], &mut max[0], (w - 2.0 * LEFT) / scale);
    widen(&mut min[1], &mut max[1], DRAW_MIN_H / scale);
    let map_h = (max[1] - min[1]) * scale;

    let note = overview_note(scene, opts.max_items);
    // Every name the picture writes is written through `names` before the
    // header is laid out, so that the header can say what was changed.
    let mut names = Names::default();
    let (title, parts) = title(scene, &mut names);
    let legend = note
        .is_some()
        .then(|| super::overview::Legend::of(scene, &mut names));
    let names = names.note();
    let said: Vec<&str> = [note.as_deref(), names.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let said = (!said.is_empty()).then(|| said.join("; "));
    let inset = if scene.tile.is_some() { LOCATOR_W } else { 0.0 };
    let header = Header::new(&title, &parts, said.as_deref(), w, inset);
    let view = View {
        min,
        max,
        scale,
        top: header.height,
    };
    let mut labels = Labels::inside(view.bbox());
    let mut textures = None;
    let (mut layers, mut entries) = match (legend, opts.style) {
        (Some(legend), _) => {
            super::overview::paint(scene, legend, &frames, &view, &mut labels, opts.max_items)
        }
        (None, PictureStyle::Schematic) => {
            super::schematic::paint(scene, &frames, &view, &mut labels)
        }
        (None, PictureStyle::Textured) => {
            // The art is drawn as the 3-D scene builds it.
            match crate::scene::build(&scene.placements, &opts.limits) {
                Ok(built) => {
                    let (layers, entries, flat) = super::textured::paint(
                        scene,
                        &built,
                        &frames,
                        &view,
                        &mut labels,
                        &opts.limits,
                    );
                    textures = flat;
                    (layers, entries)
                }
                Err(e) => {
                    textures = Some(format!("textures: not drawn ({e}); drawn as symbols"));
                    super::schematic::paint(scene, &frames, &view, &mut labels)
                }
            }
        }
    };
    // The airports' runways and pavement beneath every other layer.
    let (under, airport_entries) = super::runways::layers(scene, &frames, &view);
    layers.splice(0..0, under);
    entries.splice(0..0, airport_entries);
    if let Some((layer, n)) = removed_layer(scene, &frames, &view) {
        // Over the items, under the labels.
        let at = layers.len().saturating_sub(1);
        layers.insert(at, layer);
        entries.push(Entry::new(
            vec![Shape::Rect {
                at: [1.0, 0.5],
                size: [10.0, 8.0],
                style: Style::default(),
            }],
            format!(
                "removed by a higher package's exclusion ({})",
                super::count(n, "item")
            ),
        ));
    }
    let mut locator = Vec::new();
    if let Some(tile) = scene.tile {
        if let Some(edge) = tile_edge(tile, &frames, &view) {
            // Under the labels, over everything else.
            let at = layers.len().saturating_sub(1);
            layers.insert(at, edge);
            entries.push(Entry::new(
                vec![Shape::Line {
                    points: vec![[0.0, 4.5], [12.0, 4.5]],
                    style: edge_style(),
                }],
                format!("edge of tile {tile}"),
            ));
        }
        locator.push(locator_layer(tile, &frames, &view, w));
    }
    let footer = Footer::new(scale, w, entries);
    let drawing = frame::compose(w, &header, layers, map_h, locator, &footer);
    Picture {
        drawing,
        overview: note,
        textures,
        names,
    }
}

fn edge_style() -> Style {
    Style::outline(Colour::hex(0x6b2f8a), 1.6).dashed(8.0, 4.0)
}

/// The part of `a`–`b` inside `bbox` (Liang–Barsky), if any.
fn clip(a: Px, b: Px, bbox: [f64; 4]) -> Option<(Px, Px)> {
    let d = [b[0] - a[0], b[1] - a[1]];
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d[0], a[0] - bbox[0]),
        (d[0], bbox[2] - a[0]),
        (-d[1], a[1] - bbox[1]),
        (d[1], bbox[3] - a[1]),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    (t0 <= t1).then(|| {
        let at = |t: f64| [a[0] + t * d[0], a[1] + t * d[1]];
        (at(t0), at(t1))
    })
}

/// The lon/lat box of the map.
fn view_lonlat(frames: &Frames, view: &View) -> [f64; 4] {
    let corners = [
        [view.min[0], view.min[1]],
        [view.max[0], view.min[1]],
        [view.max[0], view.max[1]],
        [view.min[0], view.max[1]],
    ]
    .map(|q| frames.common.to_lonlat(q));
    let lon = corners.map(|c| c[0]);
    let lat = corners.map(|c| c[1]);
    [
        lon.iter().copied().fold(f64::INFINITY, f64::min),
        lat.iter().copied().fold(f64::INFINITY, f64::min),
        lon.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        lat.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    ]
}

/// The edges of `tile` that cross the map, as dashed lines; `None` when
/// none does.
fn tile_edge(tile: Tile, frames: &Frames, view: &View) -> Option<Layer> {
    let [w, s, e, n] = view_lonlat(frames, view);
    let (west, south) = (f64::from(tile.west), f64::from(tile.south));
    let mut sides: Vec<(crate::geom::LonLat, crate::geom::LonLat)> = Vec::new();
    for lon in [west, west + 1.0] {
        if (w..=e).contains(&lon) {
            sides.push(([lon, s.max(south)], [lon, n.min(south + 1.0)]));
        }
    }
    for lat in [south, south + 1.0] {
        if (s..=n).contains(&lat) {
            sides.push(([w.max(west), lat], [e.min(west + 1.0), lat]));
        }
    }
    let mut layer = Layer::new("tile-edge", edge_style());
    for (a, b) in sides {
        let pa = view.px(frames.common.to_local(a));
        let pb = view.px(frames.common.to_local(b));
        if let Some((pa, pb)) = clip(pa, pb, view.bbox()) {
            layer.shapes.push(Shape::Line {
                points: vec![pa, pb],
                style: Style::default(),
            });
        }
    }
    (!layer.shapes.is_empty()).then_some(layer)
}

/// The removed style: X-Plane does not draw these items (another
/// package's exclusion zone or base mesh removes them), so they are
/// outlined in magenta, dashed, over what is drawn.
fn removed_style() -> Style {
    Style::outline(Colour::hex(0xd4145a), 1.4).dashed(3.0, 2.0)
}

/// Outlines of every item marked `removed_by` ([`crate::place::exclusions`]),
/// and how many; `None` when there are none.
fn removed_layer(scene: &Sheet, frames: &Frames, view: &View) -> Option<(Layer, usize)> {
    let px = |q: crate::geom::LonLat| view.px(frames.common.to_local(q));
    let mut layer = Layer::new("removed", removed_style());
    let mut n = 0;
    let mark = |q: crate::geom::LonLat, shapes: &mut Vec<Shape>| {
        let at = px(q);
        shapes.push(Shape::Rect {
            at: [at[0] - 3.0, at[1] - 3.0],
            size: [6.0, 6.0],
            style: Style::default(),
        });
    };
    for p in scene.all() {
        let use_removed = p.removed_by.is_some();
        if use_removed && p.is_unplaced() {
            mark(p.origin, &mut layer.shapes);
            n += 1;
        }
        for o in p
            .objects
            .iter()
            .filter(|o| use_removed || o.removed_by.is_some())
        {
            n += 1;
            if o.footprint_lonlat.len() >= 3 {
                let ring = o.footprint_lonlat.iter().map(|&q| px(q)).collect();
                layer.shapes.push(Shape::Area {
                    rings: vec![ring],
                    style: Style::default(),
                });
            } else {
                mark([o.lon, o.lat], &mut layer.shapes);
            }
        }
        for f in p
            .facades
            .iter()
            .filter(|f| use_removed || f.removed_by.is_some())
        {
            n += 1;
            layer.shapes.push(Shape::Area {
                rings: vec![f.lonlat.iter().map(|&q| px(q)).collect()],
                style: Style::default(),
            });
        }
        for t in p
            .trees
            .iter()
            .filter(|t| use_removed || t.removed_by.is_some())
        {
            n += 1;
            layer.shapes.push(Shape::Circle {
                at: px([t.lon, t.lat]),
                r: 2.5,
                style: Style::default(),
            });
        }
        for d in p.draped.iter().filter(|d| d.removed_by.is_some()) {
            n += 1;
            layer.shapes.push(Shape::Area {
                rings: d
                    .lonlat
                    .iter()
                    .map(|r| r.iter().map(|&q| px(q)).collect())
                    .collect(),
                style: Style::default(),
            });
        }
        for l in p.lines.iter().filter(|l| l.removed_by.is_some()) {
            n += 1;
            layer.shapes.push(Shape::Line {
                points: l.lonlat.iter().map(|&q| px(q)).collect(),
                style: Style::default(),
            });
        }
    }
    (n > 0).then_some((layer, n))
}

/// A small square for `tile` in the header, left of the north arrow, with
/// the map's box inside it (a dot when it is too small to see).
fn locator_layer(tile: Tile, frames: &Frames, view: &View, w: f64) -> Layer {
    const SIDE: f64 = 40.0;
    let x0 = w - LEFT - frame::NORTH_W - LOCATOR_W + 8.0;
    let y0 = 8.0;
    let [lw, ls, le, ln] = view_lonlat(frames, view);
    let (west, south) = (f64::from(tile.west), f64::from(tile.south));
    let fx = |lon: f64| x0 + (lon - west).clamp(0.0, 1.0) * SIDE;
    let fy = |lat: f64| y0 + (1.0 - (lat - south).clamp(0.0, 1.0)) * SIDE;
    let mut layer = Layer::new("locator", Style::default());
    layer.shapes.push(Shape::Rect {
        at: [x0, y0],
        size: [SIDE, SIDE],
        style: Style::fill(Colour::hex(0xffffff)).stroke(Colour::hex(0x6b2f8a), 1.2),
    });
    let (a, b) = ([fx(lw), fy(ln)], [fx(le), fy(ls)]);
    let red = Colour::hex(0xc0392b);
    if b[0] - a[0] < 3.0 && b[1] - a[1] < 3.0 {
        layer.shapes.push(Shape::Circle {
            at: [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0],
            r: 2.0,
            style: Style::fill(red),
        });
    } else {
        layer.shapes.push(Shape::Rect {
            at: a,
            size: [b[0] - a[0], b[1] - a[1]],
            style: Style::fill(red).fill_opacity(0.3).stroke(red, 1.0),
        });
    }
    layer.shapes.push(Shape::Text(
        Text::new(
            tile.to_string(),
            [x0 + SIDE / 2.0, y0 + SIDE + 11.0],
            9.0,
            frame::INK,
        )
        .centred_x(),
    ));
    layer
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
            kind: crate::place::PlacementKind::Agb,
            asset: asset.into(),
            polygon: vec![vec![[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]],
            ..Placement::default()
        }
    }

    #[test]
    fn narrow_content_gets_a_wide_picture_and_header_fits() {
        let name = format!("lib/{}/city_block.agb", "very_long_folder".repeat(12));
        let p = block(20.0, 2000.0, &name);
        let svg = to_svg(std::slice::from_ref(&p));
        let (w, h) = size(&svg);
        assert_eq!(w, MIN_W);
        // Map at most DRAW_MAX_H tall plus header and footer.
        assert!(h < DRAW_MAX_H + 200.0, "{h}");
        let scene = Sheet::of(std::slice::from_ref(&p));
        let (t, parts) = title(&scene, &mut Names::default());
        let head = Header::new(&t, &parts, None, w, 0.0);
        let room = w - 2.0 * LEFT - frame::NORTH_W;
        assert!(head.title.starts_with("...") && head.title.ends_with("city_block.agb (agb)"));
        assert!(super::super::draw::text_width(&head.title, head.title_size) <= room);
        assert!(svg.contains(&super::super::draw::esc(&head.title)));
    }

    #[test]
    fn flat_content_keeps_a_minimum_map_height() {
        let p = block(3000.0, 10.0, "b.agb");
        let svg = to_svg(std::slice::from_ref(&p));
        let (w, h) = size(&svg);
        assert!((w - (DRAW_MAX_W + 2.0 * LEFT)).abs() < 1.0, "{w}");
        assert!(h >= 64.0 + DRAW_MIN_H + 34.0, "{h}");
    }

    #[test]
    fn titles_name_the_tiles_and_the_assets() {
        let mut a = block(50.0, 50.0, "block/a.agb");
        a.origin = [13.04, 47.8];
        let mut b = block(50.0, 50.0, "string/b.ags");
        b.origin = [13.05, 47.8];
        let mut c = b.clone();
        c.origin = [12.99, 47.8];
        let ps = [a, b.clone(), b, c];
        let (t, parts) = title(&Sheet::of(&ps), &mut Names::default());
        assert_eq!(t, "DSF tiles +47+012, +47+013: 4 autogen uses");
        assert_eq!(parts[0], "assets: string/b.ags ×3, block/a.agb");
        assert_eq!(parts[1], "origin lat 47.800000, lon 13.040000");
        let scene = Sheet {
            tile: Some(Tile {
                west: 13,
                south: 47,
            }),
            ..Sheet::of(&ps[..1])
        };
        let (t, parts) = title(&scene, &mut Names::default());
        assert_eq!(t, "block/a.agb (agb)");
        assert_eq!(parts[0], "DSF tile +47+013");
        // A whole tile: its other definitions are not counted as uses.
        let mut kiosk = ps[0].clone();
        kiosk.kind = crate::place::PlacementKind::Obj;
        kiosk.asset = "kiosk.obj".into();
        let mut apron = kiosk.clone();
        apron.kind = crate::place::PlacementKind::Pol;
        let whole = [ps[0].clone(), kiosk, apron];
        let (t, _) = title(&Sheet::of(&whole), &mut Names::default());
        assert_eq!(t, "DSF tile +47+013: 1 autogen use and 2 other definitions");
        let (t, _) = title(&Sheet::of(&whole[1..]), &mut Names::default());
        assert_eq!(t, "DSF tile +47+013: 2 definitions");
        assert!(
            crate::place::Tally::of(&whole[1..])
                .to_string()
                .starts_with("2 definitions, ")
        );
        let mut tally = crate::place::Tally::of(&whole);
        assert_eq!((tally.uses, tally.definitions), (1, 2));
        assert!(
            tally
                .to_string()
                .starts_with("1 autogen use and 2 other definitions, ")
        );
        tally.definitions = 0;
        assert!(
            tally.to_string().starts_with("1 use, "),
            "autogen tallies read as before"
        );
    }

    #[test]
    fn a_scene_past_its_triangle_bound_is_drawn_as_symbols_and_said() {
        let p = Placement {
            trees: vec![crate::place::PlacedTree {
                width: 4.0,
                ..crate::place::PlacedTree::default()
            }],
            ..block(20.0, 20.0, "b.agb")
        };
        let mut opts = Options::default();
        opts.limits.max_scene_triangles = 0;
        let pic = draw(&Sheet::of(std::slice::from_ref(&p)), &opts);
        let note = pic.textures.expect("a note");
        assert!(note.contains("triangles of the 3-D scene"), "{note}");
        assert!(
            pic.drawing
                .to_svg(TextMode::Text)
                .contains("<g id=\"trees\"")
        );
        // Within the bound, nothing is said.
        let pic = draw(&Sheet::of(std::slice::from_ref(&p)), &Options::default());
        assert_eq!(pic.textures, None);
    }

    #[test]
    fn segments_are_clipped_to_the_box() {
        let b = [0.0, 0.0, 10.0, 10.0];
        assert_eq!(
            clip([-5.0, 5.0], [15.0, 5.0], b),
            Some(([0.0, 5.0], [10.0, 5.0]))
        );
        assert_eq!(clip([-5.0, -5.0], [-1.0, 20.0], b), None);
        assert_eq!(clip([5.0, -5.0], [5.0, -1.0], b), None);
    }
}
