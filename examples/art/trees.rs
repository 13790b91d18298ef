//! The forests: a tree sheet (`art/trees.png`, 512 × 256 pixels with
//! alpha) of eight trees and bushes seen from the side, and the three
//! forests the assets name, each a table of trees in two layers.
//!
//! A forest `TREE` line is `s t w h offset percentage min-height
//! max-height quads layer name`: the tree's rectangle on the sheet in
//! `SCALE_X`/`SCALE_Y` units (here pixels, t up), the trunk's offset from
//! the rectangle's left, its share of its layer and its height range in
//! metres; its width is its height times `w / h`.

use super::canvas::{CLEAR, Canvas, Pt, Rgba, mix, noise, rgb, shade, steps, unit};
use super::mesh::num;

/// A sprite on the sheet: rectangle `[x, y, w, h]` in pixels (y up).
#[derive(Clone, Copy)]
struct Sprite {
    name: &'static str,
    rect: [f64; 4],
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A round crown of leaves on a trunk, in a colour.
    Round(Rgba),
    /// A cone of needles.
    Conifer,
    /// A narrow column (poplar).
    Column,
    /// A light crown on a white trunk (birch).
    Birch,
    /// A crown in blossom.
    Blossom,
    /// A bush, no trunk.
    Bush,
}

const SPRITES: [Sprite; 8] = [
    Sprite {
        name: "plane tree",
        rect: [0.0, 0.0, 128.0, 128.0],
        kind: Kind::Round(rgb(74, 112, 50)),
    },
    Sprite {
        name: "oak",
        rect: [128.0, 0.0, 128.0, 128.0],
        kind: Kind::Round(rgb(88, 108, 44)),
    },
    Sprite {
        name: "spruce",
        rect: [256.0, 0.0, 64.0, 128.0],
        kind: Kind::Conifer,
    },
    Sprite {
        name: "poplar",
        rect: [320.0, 0.0, 48.0, 128.0],
        kind: Kind::Column,
    },
    Sprite {
        name: "apple",
        rect: [368.0, 0.0, 96.0, 96.0],
        kind: Kind::Round(rgb(96, 128, 56)),
    },
    Sprite {
        name: "box bush",
        rect: [464.0, 0.0, 48.0, 48.0],
        kind: Kind::Bush,
    },
    Sprite {
        name: "cherry in blossom",
        rect: [0.0, 128.0, 128.0, 128.0],
        kind: Kind::Blossom,
    },
    Sprite {
        name: "birch",
        rect: [128.0, 128.0, 80.0, 128.0],
        kind: Kind::Birch,
    },
];

const TRUNK: Rgba = rgb(84, 62, 44);

/// Shades a crown pixel: light from the upper left, leaf clumps.
fn foliage(c: Rgba, p: Pt, centre: Pt, r: f64, seed: u32) -> Rgba {
    let light = ((centre[0] - p[0]) * 0.6 + (p[1] - centre[1])) / r;
    let clump = noise(p[0], p[1], 5.0, seed);
    shade(
        c,
        0.72 + 0.2 * steps(0.5 + 0.35 * light, 4) + 0.2 * steps(clump, 3),
    )
}

/// True inside a crown made of overlapping discs around `centre`.
fn in_crown(p: Pt, centre: Pt, rx: f64, ry: f64, seed: u32) -> bool {
    let (dx, dy) = ((p[0] - centre[0]) / rx, (p[1] - centre[1]) / ry);
    let ragged = 0.86 + 0.2 * noise(p[0], p[1], 7.0, seed);
    dx * dx + dy * dy < ragged * ragged
}

fn draw(cv: &mut Canvas, s: &Sprite, seed: u32) {
    let [x, y, w, h] = s.rect;
    let cx = x + w / 2.0;
    let bounds = [x, y, x + w, y + h];
    let trunk = |cv: &mut Canvas, top: f64, half: f64, c: Rgba| {
        cv.rect([cx - half, y, cx + half, y + top], move |p| {
            shade(c, if p[0] < cx { 0.85 } else { 1.0 })
        });
    };
    match s.kind {
        Kind::Round(_) | Kind::Blossom => {
            let c = match s.kind {
                Kind::Round(c) => c,
                _ => rgb(96, 116, 60),
            };
            trunk(cv, h * 0.45, w * 0.045, TRUNK);
            let centre = [cx, y + h * 0.6];
            let (rx, ry) = (w * 0.46, h * 0.38);
            cv.fill_where(
                bounds,
                |p| in_crown(p, centre, rx, ry, seed),
                |p| {
                    if s.kind == Kind::Blossom {
                        let petal = unit(p[0] as i64 / 2, p[1] as i64 / 2, seed) < 0.35;
                        let base = foliage(c, p, centre, rx, seed);
                        if petal {
                            mix(
                                rgb(244, 196, 214),
                                rgb(255, 236, 244),
                                steps(noise(p[0], p[1], 4.0, seed), 2),
                            )
                        } else {
                            base
                        }
                    } else {
                        foliage(c, p, centre, rx, seed)
                    }
                },
            );
        }
        Kind::Conifer => {
            trunk(cv, h * 0.15, w * 0.06, TRUNK);
            let base = y + h * 0.1;
            cv.fill_where(
                bounds,
                |p| {
                    let t = (p[1] - base) / (h * 0.9);
                    let tier = (t * 6.0).fract();
                    let half = w * 0.48 * (1.0 - t) * (0.75 + 0.25 * tier);
                    (0.0..1.0).contains(&t) && (p[0] - cx).abs() < half
                },
                |p| foliage(rgb(40, 80, 54), p, [cx, y + h * 0.5], w * 0.5, seed),
            );
        }
        Kind::Column => {
            trunk(cv, h * 0.12, w * 0.06, TRUNK);
            let centre = [cx, y + h * 0.55];
            cv.fill_where(
                bounds,
                |p| in_crown(p, centre, w * 0.44, h * 0.44, seed),
                |p| foliage(rgb(70, 110, 48), p, centre, w * 0.44, seed),
            );
        }
        Kind::Birch => {
            trunk(cv, h * 0.6, w * 0.04, rgb(226, 222, 212));
            let centre = [cx, y + h * 0.62];
            cv.fill_where(
                bounds,
                |p| in_crown(p, centre, w * 0.44, h * 0.36, seed),
                |p| foliage(rgb(116, 150, 62), p, centre, w * 0.44, seed),
            );
        }
        Kind::Bush => {
            let centre = [cx, y + h * 0.45];
            cv.fill_where(
                bounds,
                |p| in_crown(p, centre, w * 0.48, h * 0.44, seed),
                |p| foliage(rgb(52, 96, 46), p, centre, w * 0.48, seed),
            );
        }
    }
}

fn sheet() -> Canvas {
    let mut cv = Canvas::new(512, 256, CLEAR);
    for (i, s) in SPRITES.iter().enumerate() {
        draw(&mut cv, s, 40 + i as u32);
    }
    cv
}

/// One row of a forest's tree table: sprite, percentage of its layer,
/// height range (m), layer.
type Row = (usize, f64, [f64; 2], u32);

struct Forest {
    comment: &'static str,
    spacing: f64,
    random: f64,
    rows: Vec<Row>,
}

impl Forest {
    fn text(&self) -> String {
        let mut s = String::from("A\n800\nFOREST\n\n");
        for line in self.comment.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str("\nTEXTURE ../art/trees.png\nLOD 40000\nSCALE_X 512\nSCALE_Y 256\n");
        s.push_str(&format!(
            "SPACING {} {}\n",
            num(self.spacing),
            num(self.spacing)
        ));
        s.push_str(&format!(
            "RANDOM {} {}\n",
            num(self.random),
            num(self.random)
        ));
        s.push_str("SKIP_SURFACE water\n\n");
        s.push_str("#    s   t   w   h  offset  %   min  max  quads layer  name\n");
        for &(i, pct, [lo, hi], layer) in &self.rows {
            let sp = SPRITES[i];
            let [x, y, w, h] = sp.rect;
            s.push_str(&format!(
                "TREE {} {} {} {} {} {} {} {} 2 {} {}\n",
                num(x),
                num(y),
                num(w),
                num(h),
                num(w / 2.0),
                num(pct),
                num(lo),
                num(hi),
                layer,
                sp.name
            ));
        }
        s
    }
}

fn forests() -> Vec<(&'static str, Forest)> {
    vec![
        (
            "point/plaza_trees.for",
            Forest {
                comment: "Trees of a town plaza: broad plane trees and oaks for single trees\n(layer 0), poplars and birches for the rows (layer 1).",
                spacing: 7.0,
                random: 1.0,
                rows: vec![
                    (0, 50.0, [6.0, 9.0], 0),
                    (1, 50.0, [7.0, 10.0], 0),
                    (3, 60.0, [10.0, 14.0], 1),
                    (7, 40.0, [9.0, 12.0], 1),
                ],
            },
        ),
        (
            "block/backyard_trees.for",
            Forest {
                comment: "Back garden trees: apple, cherry and oak (layer 0), box bushes and\nspruces along the back lane (layer 1).",
                spacing: 5.0,
                random: 1.5,
                rows: vec![
                    (4, 40.0, [4.0, 6.0], 0),
                    (6, 30.0, [5.0, 7.0], 0),
                    (1, 30.0, [6.0, 9.0], 0),
                    (5, 50.0, [2.0, 3.5], 1),
                    (2, 50.0, [5.0, 8.0], 1),
                ],
            },
        ),
        (
            "string/town_trees.for",
            Forest {
                comment: "Trees around a town: plane trees, oaks and spruces filling the open\nground (layer 0); oaks, birches and cherries in the gardens (layer 1).",
                spacing: 14.0,
                random: 5.0,
                rows: vec![
                    (0, 35.0, [9.0, 14.0], 0),
                    (1, 35.0, [8.0, 12.0], 0),
                    (2, 30.0, [10.0, 16.0], 0),
                    (1, 35.0, [7.0, 10.0], 1),
                    (7, 35.0, [9.0, 13.0], 1),
                    (6, 30.0, [6.0, 8.0], 1),
                ],
            },
        ),
    ]
}

/// Every forest: its path under examples/ and its text.
pub fn files() -> Vec<(&'static str, String)> {
    forests().into_iter().map(|(p, f)| (p, f.text())).collect()
}

/// The tree sheet as PNG.
pub fn sheet_png() -> Vec<u8> {
    sheet().png(true)
}
