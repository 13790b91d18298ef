//! The facades: a shared texture (`art/facades.png`) and four type-1
//! facades (version 800) cut from it: a row of low shops, brick row
//! houses, a hedge and a picket fence.
//!
//! A type-1 wall is a grid of texture panels: `LEFT`, `CENTER` (repeated)
//! and `RIGHT` across, `BOTTOM`, `MIDDLE` (repeated) and `TOP` up, in
//! texture fractions; `SCALE` gives the metres the whole texture would
//! cover, so the buildings' walls are drawn at 16 pixels a metre (`SCALE
//! 32 32`) and the hedge and fence at 64 (`SCALE 8 8`).

use super::canvas::{CLEAR, Canvas, Pt, Rgba, mix, noise, rgb, shade, steps, unit};
use super::mesh::num;
use super::paint::{FRAME, GLASS, MORTAR, brick, courses, window};

/// The texture's side in pixels.
const SIZE: f64 = 512.0;

/// One wall: its panels across and up, in pixels (y up).
struct Wall {
    scale: f64,
    slope: f64,
    left: Option<[f64; 2]>,
    center: [f64; 2],
    right: Option<[f64; 2]>,
    bottom: [f64; 2],
    middle: [f64; 2],
    top: [f64; 2],
}

/// One facade: its comment, ring or chain, sides, floors, roof corners
/// (pixels) and walls.
struct Fac {
    comment: &'static str,
    ring: bool,
    two_sided: bool,
    floors: [u32; 2],
    roof: Option<[f64; 4]>,
    walls: Vec<Wall>,
}

impl Fac {
    fn text(&self) -> String {
        let f = |px: f64| num6(px / SIZE);
        let mut s = String::from("A\n800\nFACADE\n\n");
        for line in self.comment.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str("\nTEXTURE ../art/facades.png\n");
        s.push_str(&format!("RING {}\n", u8::from(self.ring)));
        s.push_str(&format!("TWO_SIDED {}\n", u8::from(self.two_sided)));
        s.push_str(&format!(
            "FLOORS_MIN {}\nFLOORS_MAX {}\n\n",
            self.floors[0], self.floors[1]
        ));
        s.push_str("LOD 0 10000\n");
        if let Some([x0, y0, x1, y1]) = self.roof {
            for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                s.push_str(&format!("  ROOF {} {}\n", f(x), f(y)));
            }
        }
        for w in &self.walls {
            s.push_str("  WALL 0 1000\n");
            s.push_str(&format!("    SCALE {} {}\n", num(w.scale), num(w.scale)));
            s.push_str(&format!("    ROOF_SLOPE {}\n", num(w.slope)));
            let mut panel = |kw: &str, r: [f64; 2]| {
                s.push_str(&format!("    {kw} {} {}\n", f(r[0]), f(r[1])));
            };
            if let Some(r) = w.left {
                panel("LEFT", r);
            }
            panel("CENTER", w.center);
            if let Some(r) = w.right {
                panel("RIGHT", r);
            }
            panel("BOTTOM", w.bottom);
            panel("MIDDLE", w.middle);
            panel("TOP", w.top);
        }
        s
    }
}

/// `x` with at most six decimals (texture fractions of 8-pixel steps are
/// exact).
fn num6(x: f64) -> String {
    let s = format!("{:.6}", x);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

const PLASTER: Rgba = rgb(232, 220, 196);
const BRICK: Rgba = rgb(142, 66, 48);
const TILE: Rgba = rgb(166, 72, 48);
const LEAF: Rgba = rgb(58, 102, 46);

/// Leaves: clumps of smooth noise in three greens.
fn leaves(p: Pt, seed: u32) -> Rgba {
    let n = noise(p[0], p[1], 6.0, seed) * 0.6 + noise(p[0], p[1], 2.5, seed + 1) * 0.4;
    shade(LEAF, 0.7 + 0.45 * steps(n, 4))
}

/// Draws the texture.
fn texture() -> Canvas {
    let mut cv = Canvas::new(SIZE as u32, SIZE as u32, CLEAR);

    // Shops (x 0..128): a shopfront 4.5 m, an upper floor 3.5 m and a
    // 1 m cornice; a 1 m pilaster each side of a 6 m bay.
    cv.rect([0.0, 0.0, 128.0, 144.0], |p| {
        shade(PLASTER, 0.95 + 0.05 * steps(noise(p[0], p[1], 10.0, 23), 3))
    });
    cv.rect([16.0, 8.0, 112.0, 54.0], |_| rgb(70, 64, 58));
    cv.rect([20.0, 10.0, 108.0, 52.0], |p| {
        if (p[0] - 20.0).rem_euclid(22.0) < 2.0 {
            rgb(70, 64, 58)
        } else {
            mix(GLASS, rgb(210, 190, 140), (p[1] - 10.0) / 80.0)
        }
    });
    cv.rect([16.0, 56.0, 112.0, 70.0], |p| {
        if (p[0] / 8.0).floor() as i64 % 2 == 0 {
            rgb(170, 40, 40)
        } else {
            rgb(236, 232, 220)
        }
    });
    for x in [28.0, 72.0] {
        window(&mut cv, [x, 84.0, x + 28.0, 118.0], false);
    }
    cv.rect([0.0, 128.0, 128.0, 144.0], |p| {
        if p[1] < 131.0 {
            shade(PLASTER, 0.75)
        } else {
            shade(PLASTER, 1.03)
        }
    });
    cv.rect([0.0, 0.0, 8.0, 128.0], |_| shade(PLASTER, 0.88));
    cv.rect([120.0, 0.0, 128.0, 128.0], |_| shade(PLASTER, 0.88));

    // Row houses (x 128..384): front and side walls of brick, a 3 m
    // ground floor, 3 m upper floors and a 3 m band of roof tiles.
    cv.rect([128.0, 0.0, 384.0, 96.0], brick(BRICK, 21));
    cv.rect([128.0, 96.0, 384.0, 144.0], courses(TILE, 8.0, 6.0, 22));
    cv.rect([128.0, 46.0, 384.0, 48.0], |_| MORTAR);
    // Front: a door and a window below, two windows above.
    cv.rect([150.0, 2.0, 170.0, 36.0], |_| FRAME);
    cv.rect([152.0, 2.0, 168.0, 34.0], |_| rgb(40, 70, 100));
    window(&mut cv, [196.0, 12.0, 228.0, 36.0], false);
    for x in [150.0, 200.0] {
        window(&mut cv, [x, 58.0, x + 26.0, 84.0], false);
    }
    // Side: one small window a floor.
    for y in [12.0, 58.0] {
        window(&mut cv, [308.0, y, 332.0, y + 24.0], false);
    }

    // Roofs: gravel on the shops, dark felt on the row houses.
    cv.rect([0.0, 160.0, 128.0, 288.0], |p| {
        shade(
            rgb(150, 146, 136),
            0.85 + 0.2 * steps(noise(p[0], p[1], 3.0, 24), 4),
        )
    });
    cv.rect([128.0, 160.0, 256.0, 288.0], |p| {
        if (p[0] - 128.0).rem_euclid(32.0) < 2.0 {
            rgb(50, 52, 56)
        } else {
            shade(
                rgb(78, 80, 86),
                0.95 + 0.08 * steps(noise(p[0], p[1], 8.0, 25), 3),
            )
        }
    });

    // Hedge (x 384..512, 64 px a metre): wall 0 clipped box, wall 1 in
    // flower; dark stems below, a ragged top against the sky.
    for (y0, flowers) in [(0.0, false), (96.0, true)] {
        cv.rect([384.0, y0, 512.0, y0 + 96.0], |p| {
            let h = p[1] - y0;
            let edge = 86.0 + 8.0 * noise(p[0], 0.0, 5.0, 26);
            if h > edge {
                return CLEAR;
            }
            if h < 10.0 && noise(p[0], p[1], 3.0, 27) < 0.45 {
                return rgb(58, 44, 30);
            }
            if flowers && unit(p[0] as i64 / 3, p[1] as i64 / 3, 28) < 0.08 {
                return rgb(236, 220, 240);
            }
            leaves(p, 29)
        });
    }

    // Picket fence (x 384..512, y 192..272): pickets 6 cm wide every
    // 12 cm with pointed tips, two rails; transparent between.
    cv.rect([384.0, 192.0, 512.0, 272.0], |p| {
        let x = (p[0] - 384.0).rem_euclid(8.0);
        let h = p[1] - 192.0;
        let rail = (20.0..26.0).contains(&h) || (56.0..62.0).contains(&h);
        let tip = 72.0 + 6.0 * (1.0 - (x - 3.0).abs() / 3.0);
        let picket = x < 6.0 && h < tip;
        if picket || rail {
            shade(rgb(236, 234, 224), if rail && !picket { 0.85 } else { 1.0 })
        } else {
            CLEAR
        }
    });
    cv
}

fn facades() -> Vec<(&'static str, Fac)> {
    let building = |left: f64, right: f64, top: [f64; 2], slope: f64| Wall {
        scale: 32.0,
        slope,
        left: Some([left, left + 8.0]),
        center: [left + 8.0, right - 8.0],
        right: Some([right - 8.0, right]),
        bottom: [0.0, 48.0],
        middle: [48.0, 96.0],
        top,
    };
    vec![
        (
            "point/shops_low.fac",
            Fac {
                comment: "A row of low shops: a 4.5 m shopfront with an awning, 3.5 m upper\nfloors and a cornice; a flat gravel roof.",
                ring: true,
                two_sided: false,
                floors: [2, 5],
                roof: Some([0.0, 160.0, 128.0, 288.0]),
                walls: vec![Wall {
                    scale: 32.0,
                    slope: 0.0,
                    left: Some([0.0, 16.0]),
                    center: [16.0, 112.0],
                    right: Some([112.0, 128.0]),
                    bottom: [0.0, 72.0],
                    middle: [72.0, 128.0],
                    top: [128.0, 144.0],
                }],
            },
        ),
        (
            "point/hedge.fac",
            Fac {
                comment: "A clipped hedge (wall 0) and a hedge in flower (wall 1), about 1.5 m\nhigh; no roof, seen from both sides.",
                ring: true,
                two_sided: true,
                floors: [2, 4],
                roof: None,
                walls: [0.0, 96.0]
                    .map(|y| Wall {
                        scale: 8.0,
                        slope: 0.0,
                        left: None,
                        center: [384.0, 512.0],
                        right: None,
                        bottom: [y, y + 32.0],
                        middle: [y + 32.0, y + 64.0],
                        top: [y + 64.0, y + 96.0],
                    })
                    .into(),
            },
        ),
        (
            "block/row_house.fac",
            Fac {
                comment: "Brick row houses: 3 m floors, a door and window bay at the front\n(wall 0), plain side walls (wall 1), a 3 m band of tiles leaning\nin at 40 degrees and a flat felt roof.",
                ring: true,
                two_sided: false,
                floors: [2, 8],
                roof: Some([128.0, 160.0, 256.0, 288.0]),
                walls: vec![
                    building(128.0, 256.0, [96.0, 144.0], 40.0),
                    building(256.0, 384.0, [96.0, 144.0], 40.0),
                ],
            },
        ),
        (
            "string/fence.fac",
            Fac {
                comment: "A white picket fence about 1.2 m high: pickets with pointed tips on\ntwo rails; a chain, seen from both sides.",
                ring: false,
                two_sided: true,
                floors: [2, 3],
                roof: None,
                walls: vec![Wall {
                    scale: 8.0,
                    slope: 0.0,
                    left: None,
                    center: [384.0, 512.0],
                    right: None,
                    bottom: [192.0, 208.0],
                    middle: [208.0, 256.0],
                    top: [256.0, 272.0],
                }],
            },
        ),
    ]
}

/// Every facade: its path under examples/ and its text.
pub fn files() -> Vec<(&'static str, String)> {
    facades().into_iter().map(|(p, f)| (p, f.text())).collect()
}

/// The shared texture as PNG (with alpha: the hedge's top, the fence).
pub fn texture_png() -> Vec<u8> {
    texture().png(true)
}
