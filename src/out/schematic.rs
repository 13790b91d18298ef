//! The schematic style: every item of a placement as a symbol people read
//! at a glance.
//!
//! Layers from the bottom: the DSF polygon (sand); uses not placed
//! (dashed outlines); tiles (blue outline and light fill, hidden tiles
//! dashed and almost clear, an arrow towards texture up); facades (brown
//! footprints); trees (green discs of their width); ground points (grey
//! ×) and DSF points (black ⊕); objects (red markers with a tick towards
//! their heading); tile ids, placed clear of every marker and of each
//! other, or left out.
//!
//! Drawn by scale, as a map renderer draws by zoom level: a tile's id and
//! its arrow appear only when the tile is big enough on the picture to hold
//! them legibly, and below [`DETAIL_SCALE`] pixels per metre (a town or
//! a DSF tile) objects are small red squares without heading ticks, trees
//! a texture of dots, tiles filled areas with hairline outlines, and
//! ground points are left out. A close-up (a single asset, a few blocks)
//! is drawn in full.

use super::draw::{Colour, Layer, Paint, Px, Shape, Style, Text, text_width};
use super::frame::Entry;
use super::labels::{self, Labels};
use super::svg::{DETAIL_SCALE, Frames, Sheet, View};
use crate::geom::Xy;
use crate::place::PlacementKind;
use geo::Area;

/// The smallest tile (square root of its area, in pixels) that gets its id
/// label; the label must also fit across it.
const LABEL_MIN_PX: f64 = 22.0;
/// The smallest tile that gets its texture-up arrow; the arrow is 26 px
/// long, shorter (0.45 × the tile's size) on tiles under 58 px.
const ARROW_MIN_PX: f64 = 30.0;
/// Size of the id labels.
const TILE_LABEL_SIZE: f64 = 11.0;

const SAND: Colour = Colour::hex(0xebe3cc);
const SAND_EDGE: Colour = Colour::hex(0x9a8f6c);
const TILE: Colour = Colour::hex(0x4a7ab5);
const TILE_EDGE: Colour = Colour::hex(0x2f5d95);
const FACADE: Colour = Colour::hex(0xc8793c);
const FACADE_EDGE: Colour = Colour::hex(0x74421c);
const TREE: Colour = Colour::hex(0x3f8f33);
const TREE_EDGE: Colour = Colour::hex(0x25601c);
const OBJECT: Colour = Colour::hex(0xd83a3a);
const OBJECT_SMALL: Colour = Colour::hex(0xc0392b);
const OBJECT_TICK: Colour = Colour::hex(0x8e1b1b);
const POINT: Colour = Colour::hex(0x111111);
const GROUND: Colour = Colour::hex(0x666666);
/// Outline of a use drawn without its placement.
pub(super) const UNPLACED: Colour = Colour::hex(0x555555);

/// Side of an object's square at small scale, pixels.
const OBJECT_SQUARE: f64 = 3.2;

/// The pixel ring of `ring` (local metres of placement `i`).
fn ring_px(frames: &Frames, view: &View, i: usize, ring: &[Xy]) -> Vec<Px> {
    ring.iter()
        .map(|&q| view.px(frames.to_common(i, q)))
        .collect()
}

/// The style of a use drawn without its placement: a dashed outline.
pub(super) fn unplaced_style() -> Style {
    Style::outline(UNPLACED, 1.4).dashed(6.0, 4.0)
}

/// The map's layers and the legend of what they hold.
pub(super) fn paint(
    scene: &Sheet,
    frames: &Frames,
    view: &View,
    labels: &mut Labels,
) -> (Vec<Layer>, Vec<Entry>) {
    let mut map = Map {
        scene,
        frames,
        view,
        labels,
        detail: view.scale >= DETAIL_SCALE,
        entries: Vec::new(),
    };
    let polygons = map.dsf_polygons();
    let unplaced = map.unplaced();
    let (tiles, ids, grounds) = map.tiles();
    let facades = map.facades();
    let trees = map.trees();
    let (points, marks) = map.points(grounds);
    let objects = map.objects();
    map.point_entries(marks);
    if !polygons.shapes.is_empty() {
        map.entries.push(Entry::swatch(
            Style::fill(SAND).stroke(SAND_EDGE, 1.0),
            "DSF polygon",
        ));
    }
    if !unplaced.shapes.is_empty() {
        map.entries
            .push(Entry::swatch(unplaced_style(), "use not placed"));
    }
    let ids_layer = map.ids(ids);
    let layers = vec![
        polygons, unplaced, tiles, facades, trees, points, objects, ids_layer,
    ];
    (layers, map.entries)
}

/// What every layer of the map is drawn with: the scene, where it lands
/// on the picture, the labels placed so far (and the marks they keep
/// clear of), whether the scale shows detail, and the legend so far.
struct Map<'a> {
    scene: &'a Sheet<'a>,
    frames: &'a Frames,
    view: &'a View,
    labels: &'a mut Labels,
    detail: bool,
    entries: Vec<Entry>,
}

/// A tile id wanted on the map: its text, the tile's centre and size in
/// pixels, and the vertical offset tried first.
struct WantedId {
    text: String,
    centre: Px,
    size: f64,
    first: f64,
}

/// Which point markers the map drew, for the legend.
struct PointMarks {
    ground: bool,
    dsf: bool,
}

impl Map<'_> {
    /// The pixel ring of `ring` (local metres of placement `i`).
    fn ring(&self, i: usize, ring: &[Xy]) -> Vec<Px> {
        ring_px(self.frames, self.view, i, ring)
    }

    /// The DSF polygons, in sand.
    fn dsf_polygons(&self) -> Layer {
        let mut polygons = Layer::new(
            "dsf-polygon",
            Style {
                fill: Some(Paint::Colour(SAND)),
                stroke: Some(Paint::Colour(SAND_EDGE)),
                stroke_width: Some(if self.detail { 1.5 } else { 0.8 }),
                ..Style::default()
            },
        );
        for (i, p) in self.scene.placements.iter().enumerate() {
            let rings: Vec<Vec<Px>> = p.polygon.iter().map(|r| self.ring(i, r)).collect();
            if !rings.is_empty() {
                polygons.shapes.push(Shape::Area {
                    rings,
                    style: Style::default(),
                });
            }
        }
        polygons
    }

    /// Uses drawn without a placement: dashed outlines, or a dashed
    /// circle at a point.
    fn unplaced(&self) -> Layer {
        let n_placed = self.scene.placements.len();
        let mut unplaced = Layer::new("unplaced", unplaced_style());
        for (k, p) in self.scene.unplaced.iter().enumerate() {
            let i = n_placed + k;
            if p.polygon.is_empty() {
                unplaced.shapes.push(Shape::Circle {
                    at: self.view.px(self.frames.to_common(i, [0.0, 0.0])),
                    r: 6.0,
                    style: Style::default(),
                });
            } else {
                let rings = p.polygon.iter().map(|r| self.ring(i, r)).collect();
                unplaced.shapes.push(Shape::Area {
                    rings,
                    style: Style::default(),
                });
            }
        }
        unplaced
    }

    /// Tiles: filled areas; outlines and arrows as far as the scale lets
    /// them be read. Also the ids wanted (placed last, clear of every
    /// marker) and the ground points of the tiles big enough for one.
    fn tiles(&mut self) -> (Layer, Vec<WantedId>, Vec<Xy>) {
        let detail = self.detail;
        let mut tiles = Layer::new(
            "tiles",
            Style::default()
                .stroke(TILE_EDGE, if detail { 1.2 } else { 0.4 })
                .round(),
        );
        let (shown, hidden) = if detail {
            (
                Style::fill(TILE).fill_opacity(0.14),
                Style::fill(TILE).fill_opacity(0.04).dashed(6.0, 4.0),
            )
        } else {
            (
                Style::fill(TILE).fill_opacity(0.3),
                Style::fill(TILE).fill_opacity(0.06).dashed(3.0, 2.0),
            )
        };
        let mut arrows = false;
        let mut any_hidden = false;
        let mut ids = Vec::new();
        let mut grounds = Vec::new();
        for (i, p) in self.scene.placements.iter().enumerate() {
            for t in &p.tiles {
                let ring: Vec<Xy> = t
                    .polygon
                    .iter()
                    .map(|&q| self.frames.to_common(i, q))
                    .collect();
                if ring.is_empty() {
                    continue;
                }
                any_hidden |= t.hidden;
                let pixels: Vec<Px> = ring.iter().map(|&q| self.view.px(q)).collect();
                tiles.shapes.push(Shape::Area {
                    rings: vec![pixels],
                    style: if t.hidden { hidden } else { shown },
                });
                // Its size on the picture: the side of a square of its area.
                let size = geo::Polygon::new(ring.clone().into(), Vec::new())
                    .unsigned_area()
                    .sqrt()
                    * self.view.scale;
                let n = ring.len() as f64;
                let c = self.view.px([
                    ring.iter().map(|q| q[0]).sum::<f64>() / n,
                    ring.iter().map(|q| q[1]).sum::<f64>() / n,
                ]);
                if let Some(up) = texture_up(&ring, &t.uv).filter(|_| size >= ARROW_MIN_PX) {
                    arrows = true;
                    self.tile_arrow(&mut tiles, c, up, size);
                }
                if size < LABEL_MIN_PX {
                    continue;
                }
                grounds.extend(t.ground_point.map(|g| self.frames.to_common(i, g)));
                let first = if p.kind == PlacementKind::Agp {
                    18.0
                } else {
                    10.0
                };
                ids.push(WantedId {
                    text: t.id.to_string(),
                    centre: c,
                    size,
                    first,
                });
            }
        }
        if !tiles.shapes.is_empty() {
            self.tile_entries(arrows, any_hidden);
        }
        (tiles, ids, grounds)
    }

    /// A short arrow from a tile's centre `c` towards texture up (`up`,
    /// east and north), for a tile `size` pixels across.
    fn tile_arrow(&mut self, tiles: &mut Layer, c: Px, up: Xy, size: f64) {
        let len = (0.45 * size).min(26.0);
        let e = [c[0] + len * up[0], c[1] - len * up[1]];
        let b = [e[0] - 7.0 * up[0], e[1] + 7.0 * up[1]];
        let nv = [up[1] * 4.0, up[0] * 4.0];
        let style = Style {
            fill: Some(Paint::None),
            stroke_width: Some(1.4),
            opacity: Some(0.7),
            ..Style::default()
        }
        .round();
        tiles.shapes.push(Shape::Line {
            points: vec![c, e],
            style,
        });
        tiles.shapes.push(Shape::Line {
            points: vec![
                [b[0] + nv[0], b[1] + nv[1]],
                e,
                [b[0] - nv[0], b[1] - nv[1]],
            ],
            style,
        });
        self.labels.obstacle(labels::segment(c, e, 4.0));
    }

    /// The legend of the tiles: the tile (with its arrow when one was
    /// drawn), and the hidden tile when there was one.
    fn tile_entries(&mut self, arrows: bool, any_hidden: bool) {
        let mut icon = vec![Shape::Rect {
            at: [0.0, 0.0],
            size: [12.0, 9.0],
            style: Style::fill(TILE).fill_opacity(0.3).stroke(TILE_EDGE, 1.0),
        }];
        if arrows {
            let s = Style::outline(TILE_EDGE, 1.0);
            icon.push(Shape::Line {
                points: vec![[6.0, 8.0], [6.0, 1.0]],
                style: s,
            });
            icon.push(Shape::Line {
                points: vec![[3.5, 3.5], [6.0, 1.0], [8.5, 3.5]],
                style: s,
            });
        }
        let word = if arrows {
            "tile (arrow: texture up)"
        } else {
            "tile"
        };
        self.entries.push(Entry::new(icon, word));
        if any_hidden {
            self.entries.push(Entry::swatch(
                Style::fill(TILE)
                    .fill_opacity(0.06)
                    .stroke(TILE_EDGE, 1.0)
                    .dashed(3.0, 2.0),
                "hidden tile",
            ));
        }
    }

    /// Facades: their footprints; one whose `.fac` was looked up and is
    /// missing only its outline, as the 3-D scene draws it (a building of
    /// a height and roof its art did not give is never drawn).
    fn facades(&mut self) -> Layer {
        let edge = if self.detail { 1.0 } else { 0.4 };
        let mut facades = Layer::new(
            "facades",
            Style::fill(FACADE)
                .fill_opacity(0.8)
                .stroke(FACADE_EDGE, edge),
        );
        let (mut filled, mut outlined) = (false, false);
        for (i, p) in self.scene.placements.iter().enumerate() {
            for f in &p.facades {
                let missing = f
                    .art
                    .is_some_and(|a| a != crate::place::art::ArtState::Found);
                facades.shapes.push(Shape::Area {
                    rings: vec![self.ring(i, &f.polygon)],
                    style: if missing {
                        Style::outline(FACADE_EDGE, edge.max(1.0))
                    } else {
                        Style::default()
                    },
                });
                outlined |= missing;
                filled |= !missing;
            }
        }
        if filled {
            self.entries.push(Entry::swatch(
                Style::fill(FACADE).stroke(FACADE_EDGE, 1.0),
                "facade",
            ));
        }
        if outlined {
            self.entries.push(Entry::swatch(
                Style::outline(FACADE_EDGE, 1.0),
                "facade, its .fac missing: outline",
            ));
        }
        facades
    }

    /// Trees: outlined discs of their width; a texture of dots at small
    /// scale.
    fn trees(&mut self) -> Layer {
        let detail = self.detail;
        let mut trees = Layer::new(
            "trees",
            if detail {
                Style::fill(TREE).fill_opacity(0.7).stroke(TREE_EDGE, 0.8)
            } else {
                Style::fill(TREE).fill_opacity(0.55)
            },
        );
        let min_r = if detail { 2.0 } else { 0.9 };
        for (i, p) in self.scene.placements.iter().enumerate() {
            for t in &p.trees {
                trees.shapes.push(Shape::Circle {
                    at: self.view.px(self.frames.to_common(i, [t.x, t.y])),
                    r: (t.width / 2.0 * self.view.scale).max(min_r),
                    style: Style::default(),
                });
            }
        }
        if !trees.shapes.is_empty() {
            self.entries
                .push(Entry::disc(5.0, Style::fill(TREE), "tree"));
        }
        trees
    }

    /// Ground points (grey ×, at close range only) at `grounds` and DSF
    /// points (black ⊕; a small circle at small scale).
    fn points(&mut self, grounds: Vec<Xy>) -> (Layer, PointMarks) {
        let mut points = Layer::new(
            "points",
            Style {
                fill: Some(Paint::None),
                stroke_width: Some(1.5),
                ..Style::default()
            },
        );
        let grey = Style {
            stroke: Some(Paint::Colour(GROUND)),
            ..Style::default()
        };
        let mut marks = PointMarks {
            ground: false,
            dsf: false,
        };
        if self.detail {
            for g in grounds {
                let [x, y] = self.view.px(g);
                marks.ground = true;
                points.shapes.push(Shape::Line {
                    points: vec![[x - 4.0, y - 4.0], [x + 4.0, y + 4.0]],
                    style: grey,
                });
                points.shapes.push(Shape::Line {
                    points: vec![[x + 4.0, y - 4.0], [x - 4.0, y + 4.0]],
                    style: grey,
                });
                self.labels.obstacle(labels::disc([x, y], 5.0));
            }
        }
        for (i, _) in self
            .scene
            .placements
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == PlacementKind::Agp)
        {
            marks.dsf = true;
            self.dsf_point(
                &mut points,
                self.view.px(self.frames.to_common(i, [0.0, 0.0])),
            );
        }
        (points, marks)
    }

    /// A DSF point's marker at `at`.
    fn dsf_point(&mut self, points: &mut Layer, [x, y]: Px) {
        let black = Style {
            stroke: Some(Paint::Colour(POINT)),
            ..Style::default()
        };
        if self.detail {
            points.shapes.push(Shape::Circle {
                at: [x, y],
                r: 6.0,
                style: black,
            });
            points.shapes.push(Shape::Line {
                points: vec![[x - 8.0, y], [x + 8.0, y]],
                style: black,
            });
            points.shapes.push(Shape::Line {
                points: vec![[x, y - 8.0], [x, y + 8.0]],
                style: black,
            });
            self.labels.obstacle(labels::disc([x, y], 9.0));
        } else {
            points.shapes.push(Shape::Circle {
                at: [x, y],
                r: 2.5,
                style: Style {
                    stroke_width: Some(1.0),
                    ..black
                },
            });
            self.labels.obstacle(labels::disc([x, y], 3.5));
        }
    }

    /// Objects: a marker with a tick towards the heading; a small square
    /// at small scale.
    fn objects(&mut self) -> Layer {
        let detail = self.detail;
        let mut objects = Layer::new(
            "objects",
            if detail {
                Style::default()
            } else {
                Style::fill(OBJECT_SMALL)
            },
        );
        let tick = Style::outline(OBJECT_TICK, 2.0).round();
        let marker = Style::fill(OBJECT).stroke(Colour(255, 255, 255), 1.2);
        for (i, p) in self.scene.placements.iter().enumerate() {
            for o in &p.objects {
                let [x, y] = self.view.px(self.frames.to_common(i, [o.x, o.y]));
                if !detail {
                    let h = OBJECT_SQUARE / 2.0;
                    objects.shapes.push(Shape::Rect {
                        at: [x - h, y - h],
                        size: [OBJECT_SQUARE, OBJECT_SQUARE],
                        style: Style::default(),
                    });
                    self.labels.obstacle([x - h, y - h, x + h, y + h]);
                    continue;
                }
                let a = o.heading.to_radians();
                let t = [x + 12.0 * a.sin(), y - 12.0 * a.cos()];
                objects.shapes.push(Shape::Line {
                    points: vec![[x, y], t],
                    style: tick,
                });
                objects.shapes.push(Shape::Circle {
                    at: [x, y],
                    r: 4.5,
                    style: marker,
                });
                self.labels.obstacle(labels::disc([x, y], 5.1));
                self.labels.obstacle(labels::segment([x, y], t, 1.0));
            }
        }
        if !objects.shapes.is_empty() {
            self.entries.push(object_entry(detail, tick));
        }
        objects
    }

    /// The legend of the point markers drawn.
    fn point_entries(&mut self, marks: PointMarks) {
        if marks.dsf {
            let line = |points| outline(points, POINT, 1.2);
            self.entries.push(Entry::new(
                vec![
                    Shape::Circle {
                        at: [6.0, 4.5],
                        r: 4.0,
                        style: Style::outline(POINT, 1.2),
                    },
                    line(vec![[0.5, 4.5], [11.5, 4.5]]),
                    line(vec![[6.0, -1.0], [6.0, 10.0]]),
                ],
                "DSF point",
            ));
        }
        if marks.ground {
            let line = |points| outline(points, GROUND, 1.5);
            self.entries.push(Entry::new(
                vec![
                    line(vec![[2.0, 0.5], [10.0, 8.5]]),
                    line(vec![[10.0, 0.5], [2.0, 8.5]]),
                ],
                "ground point",
            ));
        }
    }

    /// Tile ids, clear of every marker and of each other; an id that fits
    /// nowhere is left out.
    fn ids(&mut self, ids: Vec<WantedId>) -> Layer {
        let mut layer = Layer::new("labels", Style::default());
        for id in ids {
            let w = text_width(&id.text, TILE_LABEL_SIZE);
            if id.size < w + 6.0 {
                continue;
            }
            let candidates = id_places(&id, w);
            let text = Text::new(id.text, id.centre, TILE_LABEL_SIZE, TILE_EDGE).centred();
            if let Some(t) = self.labels.place(text, &candidates, 2.0) {
                layer.shapes.push(Shape::Text(t));
            }
        }
        layer
    }
}

/// A line through `points` in `colour`, `width` pixels wide.
fn outline(points: Vec<Px>, colour: Colour, width: f64) -> Shape {
    Shape::Line {
        points,
        style: Style::outline(colour, width),
    }
}

/// The legend entry of the objects: the marker and its tick at close
/// range, the small square otherwise.
fn object_entry(detail: bool, tick: Style) -> Entry {
    if !detail {
        return Entry::swatch(Style::fill(OBJECT_SMALL), "object").with_square();
    }
    Entry::new(
        vec![
            Shape::Line {
                points: vec![[6.0, 5.0], [6.0, -3.0]],
                style: tick,
            },
            Shape::Circle {
                at: [6.0, 5.0],
                r: 4.5,
                style: Style::fill(OBJECT),
            },
        ],
        "object (tick: heading)",
    )
}

/// Where a tile's id `w` pixels wide may go, in the order tried: below
/// the centre first (clear of the arrow and of a DSF point at the centre
/// of an AGP), then above, at the centre, either side, then out to the
/// tile's reach; never farther from the centre than the tile's size
/// allows.
fn id_places(id: &WantedId, w: f64) -> Vec<Px> {
    let c = id.centre;
    let reach = (id.size / 2.0 - 6.0).max(0.0);
    let side = w / 2.0 + 6.0;
    let mut candidates: Vec<Px> = Vec::new();
    for dy in [id.first, -id.first, 0.0, reach, -reach] {
        for dx in [0.0, side, -side, reach, -reach] {
            let far = dx.abs().max(dy.abs()) > reach;
            let p = [c[0] + dx, c[1] + dy];
            if !far && !candidates.contains(&p) {
                candidates.push(p);
            }
        }
    }
    candidates
}

impl Entry {
    /// This entry's swatch as a small square (an object's symbol at small
    /// scale).
    fn with_square(mut self) -> Entry {
        if let Some(Shape::Rect { at, size, .. }) = self.icon.first_mut() {
            *at = [3.5, 2.5];
            *size = [5.0, 5.0];
        }
        self
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::out::draw::Bbox;
    use crate::out::svg::{self, TextMode};
    use crate::place::art::ArtState;
    use crate::place::{PlacedObject, PlacedTile, Placement, Role, TileId};

    /// The box of an object's marker at a close-up (its disc and tick).
    fn marker_box(at: Px, heading: f64) -> Bbox {
        let a = heading.to_radians();
        let t = [at[0] + 12.0 * a.sin(), at[1] - 12.0 * a.cos()];
        let d = labels::disc(at, 5.1);
        let s = labels::segment(at, t, 1.0);
        [
            d[0].min(s[0]),
            d[1].min(s[1]),
            d[2].max(s[2]),
            d[3].max(s[3]),
        ]
    }

    /// A 24 m grid tile with an object and a ground point at `at`.
    fn tile_at(at: Xy) -> Placement {
        let [x, y] = at;
        let polygon = vec![[x, y], [x + 24.0, y], [x + 24.0, y + 24.0], [x, y + 24.0]];
        Placement {
            kind: crate::place::PlacementKind::Agb,
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
                z: None,
            }],
            objects: vec![PlacedObject {
                tile: 0,
                asset: "o.obj".into(),
                index: 0,
                mode: "graded".into(),
                x: x + 12.0,
                y: y + 11.6,
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

    fn group<'a>(svg: &'a str, id: &str) -> &'a str {
        let at = svg.find(&format!("<g id=\"{id}\"")).unwrap();
        let g = &svg[at..];
        &g[..g.find("\n</g>").unwrap()]
    }

    #[test]
    fn a_close_up_has_ids_arrows_ticks_and_a_small_scale_does_not() {
        let near = svg::to_svg(&[tile_at([0.0, 0.0])]);
        assert!(near.contains(">1,2</text>"), "the id");
        assert!(group(&near, "objects").contains("<polyline "), "the tick");
        assert_eq!(group(&near, "points").matches("<polyline").count(), 2);
        assert!(near.contains("tile (arrow: texture up)"));
        assert_eq!(group(&near, "tiles").matches("<polyline").count(), 2);
        // The same tile in a 3 km picture: 24 m is about 8 px.
        let far = svg::to_svg(&[tile_at([0.0, 0.0]), tile_at([3000.0, 1500.0])]);
        assert!(!far.contains(",2</text>"));
        assert!(!group(&far, "objects").contains("<polyline"));
        assert!(!group(&far, "points").contains("<polyline"));
        assert_eq!(group(&far, "tiles").matches("<polyline").count(), 0);
        assert!(far.contains(r##"<g id="objects" fill="#c0392b">"##));
        assert!(group(&far, "objects").contains(r#"width="3.2" height="3.2""#));
        assert!(
            !far.contains("(arrow: texture up)"),
            "the legend says what is drawn"
        );
    }

    #[test]
    fn the_id_moves_off_the_object_under_it() {
        // The object sits 0.4 m (about 11 px) below the tile's centre,
        // where the id goes first: the id takes another place, clear of
        // the marker.
        let p = tile_at([0.0, 0.0]);
        let scene = svg::Sheet::of(std::slice::from_ref(&p));
        let pic = svg::draw(&scene, &svg::Options::default());
        let svg = pic.drawing.to_svg(TextMode::Text);
        let labels: Vec<&Text> = pic
            .drawing
            .layers
            .iter()
            .filter(|l| l.id == "labels")
            .flat_map(|l| &l.shapes)
            .filter_map(|s| match s {
                Shape::Text(t) => Some(t),
                _ => None,
            })
            .collect();
        assert_eq!(labels.len(), 1, "{svg}");
        let objects = pic
            .drawing
            .layers
            .iter()
            .find(|l| l.id == "objects")
            .unwrap();
        let Some(Shape::Circle { at, .. }) = objects.shapes.get(1) else {
            panic!("no marker")
        };
        let centre = pic.drawing.layers.iter().find(|l| l.id == "tiles").unwrap();
        let Some(Shape::Area { rings, .. }) = centre.shapes.first() else {
            panic!("no tile")
        };
        let c = [
            rings[0].iter().map(|p| p[0]).sum::<f64>() / 4.0,
            rings[0].iter().map(|p| p[1]).sum::<f64>() / 4.0,
        ];
        assert!(
            (labels[0].at[0] - c[0]).abs() + (labels[0].at[1] - (c[1] + 10.0)).abs() > 1.0,
            "the first place is taken by the marker"
        );
        let (a, b) = (labels[0].bbox(), marker_box(*at, 90.0));
        assert!(
            !(a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]),
            "{a:?} overlaps {b:?}"
        );
    }

    /// Regression (issue 46): a facade whose `.fac` is missing was drawn
    /// as a filled footprint (a 30 ha slab over the runways, for a fence);
    /// it is now its outline, and the legend says why.
    #[test]
    fn a_facade_whose_fac_is_missing_is_an_outline() {
        let mut p = tile_at([0.0, 0.0]);
        let ring = vec![[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]];
        for (asset, art) in [("kept.fac", None), ("gone.fac", Some(ArtState::Missing))] {
            p.facades.push(crate::place::PlacedFacade {
                asset: asset.into(),
                polygon: ring.clone(),
                height: 10.0,
                art,
                ..crate::place::PlacedFacade::default()
            });
        }
        let pic = svg::to_svg(std::slice::from_ref(&p));
        let g = group(&pic, "facades");
        let paths: Vec<&str> = g.lines().filter(|l| l.contains("<path")).collect();
        assert_eq!(paths.len(), 2, "{g}");
        assert!(!paths[0].contains("fill=\"none\""), "{}", paths[0]);
        assert!(paths[1].contains("fill=\"none\""), "{}", paths[1]);
        assert!(pic.contains("facade, its .fac missing: outline"));
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
