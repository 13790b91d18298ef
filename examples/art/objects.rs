//! The objects: a shared texture atlas (`art/objects.png`) and the OBJ8
//! buildings and props the example assets place, built from boxes,
//! prisms, gable and hip roofs.

use super::canvas::{Canvas, Pt, Rgba, mix, noise, rgb, shade, steps, unit};
use super::mesh::{ATLAS, Mesh, P3, Prism, Region};
use super::paint::{FRAME, GLASS, MORTAR, brick, courses, window};

// ---- the atlas: 512 × 512 pixels, 16 px per metre for the walls ----

/// Cream plaster front, two storeys and a door: 10 × 6 m.
const PLASTER_FRONT: Region = [0.0, 0.0, 160.0, 96.0];
/// Cream plaster side, two storeys of windows: 8 × 6 m.
const PLASTER_SIDE: Region = [160.0, 0.0, 288.0, 96.0];
/// Plaster gable with a round window: 10 × 4 m.
const PLASTER_GABLE: Region = [288.0, 0.0, 448.0, 64.0];
/// Brick front, three storeys and a door: 7 × 9 m.
const BRICK_FRONT: Region = [0.0, 96.0, 112.0, 240.0];
/// Brick side: 10 × 9 m.
const BRICK_SIDE: Region = [112.0, 96.0, 272.0, 240.0];
/// Brick gable: 10 × 4 m.
const BRICK_GABLE: Region = [272.0, 96.0, 432.0, 160.0];
/// Vertical planks (sheds): 5 × 9 m.
const PLANKS: Region = [432.0, 96.0, 512.0, 240.0];
/// Red clay roof tiles.
const ROOF_RED: Region = [0.0, 240.0, 256.0, 368.0];
/// Grey slate.
const ROOF_SLATE: Region = [256.0, 240.0, 512.0, 368.0];
/// Kiosk front: a serving hatch under a striped awning.
const KIOSK_FRONT: Region = [0.0, 368.0, 64.0, 432.0];
/// Kiosk side: green panels with a poster.
const KIOSK_SIDE: Region = [64.0, 368.0, 128.0, 432.0];
/// Dark green painted metal.
const METAL: Region = [128.0, 368.0, 160.0, 432.0];
/// Warm lamp glass.
const LAMP: Region = [160.0, 368.0, 192.0, 400.0];
/// Sandstone blocks.
const STONE: Region = [192.0, 368.0, 256.0, 432.0];
/// Water.
const WATER: Region = [256.0, 368.0, 320.0, 432.0];
/// Bench slats.
const WOOD: Region = [320.0, 368.0, 384.0, 432.0];

const PLASTER: Rgba = rgb(226, 212, 178);
const PLASTER_WARM: Rgba = rgb(218, 180, 140);
const BRICK: Rgba = rgb(150, 72, 52);
const DOOR: Rgba = rgb(104, 62, 38);
const TILE: Rgba = rgb(172, 76, 50);
const SLATE: Rgba = rgb(88, 92, 100);
const GREEN: Rgba = rgb(46, 88, 64);

/// Paints `c` lightly varied by smooth noise, in few steps.
fn plain(c: Rgba, seed: u32) -> impl Fn(Pt) -> Rgba {
    move |p| shade(c, 0.94 + 0.08 * steps(noise(p[0], p[1], 12.0, seed), 4))
}

/// A door with panels and a step.
fn door(cv: &mut Canvas, r: [f64; 4]) {
    cv.rect(r, |_| FRAME);
    let d = [r[0] + 2.0, r[1], r[2] - 2.0, r[3] - 2.0];
    cv.rect(d, |p| {
        let panel = ((p[1] - d[1]) / (d[3] - d[1]) * 3.0).fract();
        if !(0.15..0.85).contains(&panel) {
            shade(DOOR, 0.8)
        } else {
            DOOR
        }
    });
    cv.rect([r[0] - 3.0, r[1], r[2] + 3.0, r[1] + 2.0], |_| {
        shade(MORTAR, 0.8)
    });
}

/// Draws the atlas.
fn atlas() -> Canvas {
    let mut cv = Canvas::new(ATLAS as u32, ATLAS as u32, rgb(128, 128, 128));

    // Plaster front: two storeys (3 m each), door in the middle.
    cv.rect(PLASTER_FRONT, plain(PLASTER, 1));
    cv.rect([0.0, 0.0, 160.0, 4.0], |_| shade(PLASTER, 0.7));
    cv.rect([0.0, 46.0, 160.0, 49.0], |_| shade(PLASTER, 0.85));
    door(&mut cv, [70.0, 2.0, 90.0, 36.0]);
    for x in [18.0, 118.0] {
        window(&mut cv, [x, 14.0, x + 24.0, 36.0], true);
    }
    for x in [18.0, 68.0, 118.0] {
        window(&mut cv, [x, 60.0, x + 24.0, 84.0], true);
    }
    // Plaster side: two windows a storey.
    cv.rect(PLASTER_SIDE, plain(PLASTER_WARM, 2));
    cv.rect([160.0, 0.0, 288.0, 4.0], |_| shade(PLASTER_WARM, 0.7));
    for x in [186.0, 238.0] {
        window(&mut cv, [x, 14.0, x + 22.0, 36.0], true);
        window(&mut cv, [x, 60.0, x + 22.0, 84.0], true);
    }
    // Gable: plaster with a round window.
    cv.rect(PLASTER_GABLE, plain(PLASTER, 3));
    cv.disc([368.0, 22.0], 9.0, |_| FRAME);
    cv.disc([368.0, 22.0], 7.0, |_| GLASS);

    // Brick front: door and a window on the ground floor, two windows
    // on each storey above (3 m each), a stone band between storeys.
    cv.rect(BRICK_FRONT, brick(BRICK, 7));
    for y in [144.0, 192.0] {
        cv.rect([0.0, y - 2.0, 112.0, y + 1.0], |_| MORTAR);
    }
    door(&mut cv, [16.0, 98.0, 36.0, 134.0]);
    window(&mut cv, [60.0, 110.0, 92.0, 134.0], true);
    for y in [154.0, 202.0] {
        window(&mut cv, [16.0, y, 42.0, y + 26.0], true);
        window(&mut cv, [66.0, y, 92.0, y + 26.0], true);
    }
    // Brick side and gable: few windows.
    cv.rect(BRICK_SIDE, brick(BRICK, 7));
    for y in [154.0, 202.0] {
        window(&mut cv, [176.0, y, 196.0, y + 22.0], true);
    }
    cv.rect(BRICK_GABLE, brick(BRICK, 7));
    cv.rect([340.0, 108.0, 364.0, 128.0], |_| FRAME);
    cv.rect([342.0, 110.0, 362.0, 126.0], |_| GLASS);
    // Planks: boards 8 px wide with grain.
    cv.rect(PLANKS, |p| {
        if p[0].rem_euclid(8.0) < 1.0 {
            return rgb(70, 50, 34);
        }
        let g = steps(noise(p[0] * 4.0, p[1] * 0.3, 6.0, 4), 3);
        shade(rgb(132, 98, 66), 0.9 + 0.15 * g)
    });

    // Roofs.
    cv.rect(ROOF_RED, courses(TILE, 8.0, 6.0, 5));
    cv.rect(ROOF_SLATE, courses(SLATE, 10.0, 5.0, 6));

    // Kiosk: green panels; the front has a hatch under a striped awning.
    cv.rect(KIOSK_FRONT, plain(GREEN, 8));
    cv.rect([8.0, 384.0, 56.0, 412.0], |_| FRAME);
    cv.rect([10.0, 386.0, 54.0, 410.0], |p| {
        if p[1] < 392.0 {
            rgb(190, 170, 130)
        } else {
            rgb(250, 226, 160)
        }
    });
    cv.rect([0.0, 414.0, 64.0, 432.0], |p| {
        if (p[0] / 8.0).floor() as i64 % 2 == 0 {
            rgb(236, 236, 226)
        } else {
            rgb(178, 40, 44)
        }
    });
    cv.rect(KIOSK_SIDE, |p| {
        if (p[0] - 64.0).rem_euclid(16.0) < 1.0 {
            shade(GREEN, 0.7)
        } else {
            GREEN
        }
    });
    cv.rect([76.0, 384.0, 116.0, 420.0], |p| {
        let band = ((p[1] - 384.0) / 6.0).floor() as i64;
        [rgb(236, 200, 64), rgb(60, 110, 170), rgb(236, 236, 226)][band.rem_euclid(3) as usize]
    });

    // Metal, lamp glass, stone, water, wood.
    cv.rect(METAL, |p| {
        shade(rgb(40, 60, 48), 0.9 + 0.2 * ((p[0] - 128.0) / 32.0))
    });
    cv.rect(LAMP, |p| {
        mix(
            rgb(255, 246, 214),
            rgb(250, 214, 140),
            (p[1] - 368.0) / 32.0,
        )
    });
    cv.rect(STONE, |p| {
        let row = (p[1] / 8.0).floor();
        let x = p[0] + if row as i64 % 2 == 0 { 0.0 } else { 8.0 };
        if p[1].rem_euclid(8.0) < 1.0 || x.rem_euclid(16.0) < 1.0 {
            return rgb(170, 158, 132);
        }
        let k = steps(unit((x / 16.0).floor() as i64, row as i64, 9), 3);
        shade(rgb(214, 198, 162), 0.92 + 0.1 * k)
    });
    cv.rect(WATER, |p| {
        let d = (p[0] - 288.0).hypot(p[1] - 400.0);
        if (d / 6.0).fract() < 0.2 {
            rgb(150, 190, 214)
        } else {
            rgb(70, 120, 160)
        }
    });
    cv.rect(WOOD, |p| {
        if p[1].rem_euclid(8.0) < 1.5 {
            return rgb(60, 42, 30);
        }
        let g = steps(noise(p[0] * 0.3, p[1] * 3.0, 5.0, 10), 3);
        shade(rgb(150, 104, 62), 0.9 + 0.15 * g)
    });
    cv
}

// ---- shapes ----

/// Four walls around `[-w/2, w/2] × [-d/2, d/2]`, `h` high: front (+z),
/// back (-z), east (+x) and west (-x) covering their regions.
fn walls(m: &mut Mesh, w: f64, d: f64, h: f64, r: [Region; 4]) {
    let (x, z) = (w / 2.0, d / 2.0);
    m.quad([[-x, 0.0, z], [x, 0.0, z], [x, h, z], [-x, h, z]], r[0]);
    m.quad([[x, 0.0, -z], [-x, 0.0, -z], [-x, h, -z], [x, h, -z]], r[1]);
    m.quad([[x, 0.0, z], [x, 0.0, -z], [x, h, -z], [x, h, z]], r[2]);
    m.quad([[-x, 0.0, -z], [-x, 0.0, z], [-x, h, z], [-x, h, -z]], r[3]);
}

/// A roof over a `w × d` box: eaves at `eave` overhanging by `o`, the
/// ridge (along x) at `ridge`.
#[derive(Clone, Copy)]
struct Roof {
    w: f64,
    d: f64,
    eave: f64,
    ridge: f64,
    o: f64,
}

impl Roof {
    /// Half the eaves' width and depth, and their height (lowered by the
    /// overhang at the roof's slope).
    fn eaves(self) -> (f64, f64, f64) {
        let slope = (self.ridge - self.eave) / (self.d / 2.0);
        (
            self.w / 2.0 + self.o,
            self.d / 2.0 + self.o,
            self.eave - self.o * slope,
        )
    }
}

/// A gable roof covering `roof`, and the two gable triangles covering
/// `gable`.
fn gable_roof(m: &mut Mesh, shape: Roof, roof: Region, gable: Region) {
    let Roof {
        w, d, eave, ridge, ..
    } = shape;
    let (x, z, ye) = shape.eaves();
    m.quad(
        [[-x, ye, z], [x, ye, z], [x, ridge, 0.0], [-x, ridge, 0.0]],
        roof,
    );
    m.quad(
        [[x, ye, -z], [-x, ye, -z], [-x, ridge, 0.0], [x, ridge, 0.0]],
        roof,
    );
    let (wx, wz) = (w / 2.0, d / 2.0);
    m.gable([[wx, eave, wz], [wx, eave, -wz], [wx, ridge, 0.0]], gable);
    m.gable(
        [[-wx, eave, -wz], [-wx, eave, wz], [-wx, ridge, 0.0]],
        gable,
    );
}

/// A hip roof (`w` ≥ `d`): a ridge along x of `w - d` (a point when
/// square), four planes covering `roof`.
fn hip_roof(m: &mut Mesh, shape: Roof, roof: Region) {
    let Roof { w, d, ridge, .. } = shape;
    let (x, z, ye) = shape.eaves();
    let r = (w - d) / 2.0;
    let [s0, t0, s1, t1] = roof.map(|v| v / ATLAS);
    let inset = (s1 - s0) * (1.0 - r / x) / 2.0;
    let trapezoid = |m: &mut Mesh, p: [P3; 4]| {
        if r > 0.0 {
            m.face(
                &p,
                &[[s0, t0], [s1, t0], [s1 - inset, t1], [s0 + inset, t1]],
            );
        } else {
            m.gable([p[0], p[1], p[2]], roof);
        }
    };
    trapezoid(
        m,
        [[-x, ye, z], [x, ye, z], [r, ridge, 0.0], [-r, ridge, 0.0]],
    );
    trapezoid(
        m,
        [[x, ye, -z], [-x, ye, -z], [-r, ridge, 0.0], [r, ridge, 0.0]],
    );
    m.gable([[x, ye, z], [x, ye, -z], [r, ridge, 0.0]], roof);
    m.gable([[-x, ye, -z], [-x, ye, z], [-r, ridge, 0.0]], roof);
}

/// Turns a mesh a quarter clockwise seen from above (its +x face ends up
/// facing +z).
fn turned(m: Mesh) -> Mesh {
    m.map(|[x, y, z]| [-z, y, x])
}

/// The rim of a basin: the ring between radii `r0` and `r1` at height
/// `y`, `n` sided.
fn rim(m: &mut Mesh, r0: f64, r1: f64, y: f64, n: usize, r: Region) {
    let at = |rad: f64, k: usize| {
        let a = std::f64::consts::TAU * (k as f64 + 0.5) / n as f64;
        [rad * a.cos(), y, -rad * a.sin()]
    };
    for k in 0..n {
        m.quad([at(r1, k), at(r1, k + 1), at(r0, k + 1), at(r0, k)], r);
    }
}

fn prism(c: [f64; 2], r: f64, y: [f64; 2], n: usize) -> Prism {
    Prism {
        c,
        r,
        y,
        n,
        inward: false,
    }
}

// ---- the objects ----

/// Every object: its path under examples/, what it is, how it is built.
type Recipe = (&'static str, &'static str, fn() -> Mesh);

const OBJECTS: [Recipe; 12] = [
    // Point assets: a town plaza and a kiosk cluster.
    (
        "point/fountain.obj",
        "A fountain: a 6 m sandstone basin of water with a pillar and a bowl,\n2.3 m high.",
        fountain,
    ),
    (
        "point/kiosk.obj",
        "A kiosk: 2.6 x 2.6 m, green panels, a hatch under an awning, a\npyramid roof 3.4 m high.",
        kiosk,
    ),
    (
        "point/lamp_post.obj",
        "A street lamp: a green iron post with a lantern, 4.8 m high.",
        lamp_post,
    ),
    (
        "point/bench.obj",
        "A park bench: 1.8 m of wooden slats on iron legs, facing +z (south).",
        bench,
    ),
    // Block asset: a city block of brick terraces.
    (
        "block/corner_house.obj",
        "A brick corner house: 11 x 10 m, three storeys (9 m) under a slate hip\nroof 12.5 m high; front to +z (south).",
        brick_corner,
    ),
    (
        "block/terrace_house.obj",
        "A brick terrace house: 7 m front, 10 m deep, three storeys under a\nslate gable roof 12 m high; front to +z (south).",
        terrace,
    ),
    (
        "block/shed.obj",
        "A garden shed: 3 x 2.5 m of planks under a slate lean-to roof.",
        shed,
    ),
    // String asset: houses along the edge of a town.
    (
        "string/house_a.obj",
        "A plaster house: 10 m front, 8 m deep, two storeys (6 m) under a red\ntile gable roof 9 m high; front to +z (south).",
        house_a,
    ),
    (
        "string/house_b.obj",
        "A gable-fronted plaster house: 8 m front, 10 m deep, under a slate roof\n9.5 m high; front to +z (south).",
        house_b,
    ),
    (
        "string/corner_house.obj",
        "A plaster corner house: 11 x 10 m, two storeys under a red tile hip\nroof 9.5 m high; front to +z (south).",
        plaster_corner,
    ),
    (
        "string/wing.obj",
        "A one-storey wing: 6 m front, 8 m deep, under a red tile gable roof\n6 m high; front to +z (south).",
        wing,
    ),
    (
        "string/shed.obj",
        "A garden shed: 3 x 2.5 m of planks under a slate lean-to roof.",
        shed,
    ),
];

/// Every object: its path under examples/ and its OBJ8 text.
pub fn objects() -> Vec<(&'static str, String)> {
    OBJECTS
        .iter()
        .map(|(path, what, build)| (*path, build().obj(what, "../art/objects.png")))
        .collect()
}

/// The atlas as PNG.
pub fn atlas_png() -> Vec<u8> {
    atlas().png(false)
}

fn fountain() -> Mesh {
    let mut m = Mesh::default();
    m.prism(prism([0.0, 0.0], 3.0, [0.0, 0.55], 12), Some(STONE), None);
    rim(&mut m, 2.65, 3.0, 0.55, 12, STONE);
    m.prism(
        Prism {
            inward: true,
            ..prism([0.0, 0.0], 2.65, [0.35, 0.55], 12)
        },
        Some(STONE),
        None,
    );
    // The water: a 12-gon at 0.35 m, the pillar standing in it.
    m.prism(prism([0.0, 0.0], 2.65, [0.0, 0.35], 12), None, Some(WATER));
    m.prism(
        prism([0.0, 0.0], 0.35, [0.35, 1.45], 8),
        Some(STONE),
        Some(STONE),
    );
    m.prism(
        prism([0.0, 0.0], 1.0, [1.45, 1.7], 12),
        Some(STONE),
        Some(WATER),
    );
    m.prism(
        prism([0.0, 0.0], 0.12, [1.7, 2.3], 6),
        Some(STONE),
        Some(STONE),
    );
    m
}

fn kiosk() -> Mesh {
    let mut m = Mesh::default();
    walls(
        &mut m,
        2.6,
        2.6,
        2.4,
        [KIOSK_FRONT, KIOSK_SIDE, KIOSK_SIDE, KIOSK_SIDE],
    );
    hip_roof(
        &mut m,
        Roof {
            w: 2.6,
            d: 2.6,
            eave: 2.4,
            ridge: 3.4,
            o: 0.3,
        },
        METAL,
    );
    m
}

fn lamp_post() -> Mesh {
    let mut m = Mesh::default();
    m.boxed([-0.18, 0.18], [0.0, 0.6], [-0.18, 0.18], METAL, METAL);
    m.boxed([-0.07, 0.07], [0.6, 4.0], [-0.07, 0.07], METAL, METAL);
    m.boxed([-0.22, 0.22], [4.0, 4.5], [-0.22, 0.22], LAMP, METAL);
    let mut cap = Mesh::default();
    hip_roof(
        &mut cap,
        Roof {
            w: 0.44,
            d: 0.44,
            eave: 0.0,
            ridge: 0.3,
            o: 0.04,
        },
        METAL,
    );
    m.extend(cap.map(|[x, y, z]| [x, y + 4.5, z]));
    m
}

fn bench() -> Mesh {
    let mut m = Mesh::default();
    m.boxed([-0.9, 0.9], [0.42, 0.47], [-0.2, 0.25], WOOD, WOOD);
    m.boxed([-0.9, 0.9], [0.52, 0.9], [-0.25, -0.2], WOOD, WOOD);
    for x in [-0.8, 0.74] {
        m.boxed([x, x + 0.06], [0.0, 0.42], [-0.2, 0.2], METAL, METAL);
        m.boxed([x, x + 0.06], [0.42, 0.9], [-0.27, -0.2], METAL, METAL);
    }
    m
}

fn brick_corner() -> Mesh {
    let mut m = Mesh::default();
    walls(
        &mut m,
        11.0,
        10.0,
        9.0,
        [BRICK_FRONT, BRICK_SIDE, BRICK_SIDE, BRICK_SIDE],
    );
    hip_roof(
        &mut m,
        Roof {
            w: 11.0,
            d: 10.0,
            eave: 9.0,
            ridge: 12.5,
            o: 0.3,
        },
        ROOF_SLATE,
    );
    m
}

fn terrace() -> Mesh {
    let mut m = Mesh::default();
    walls(
        &mut m,
        7.0,
        10.0,
        9.0,
        [BRICK_FRONT, BRICK_SIDE, BRICK_SIDE, BRICK_SIDE],
    );
    gable_roof(
        &mut m,
        Roof {
            w: 7.0,
            d: 10.0,
            eave: 9.0,
            ridge: 12.0,
            o: 0.3,
        },
        ROOF_SLATE,
        BRICK_GABLE,
    );
    m
}

fn shed() -> Mesh {
    let mut m = Mesh::default();
    let (x, z, lo, hi) = (1.5, 1.25, 2.1, 2.6);
    m.quad([[-x, 0.0, z], [x, 0.0, z], [x, lo, z], [-x, lo, z]], PLANKS);
    m.quad(
        [[x, 0.0, -z], [-x, 0.0, -z], [-x, hi, -z], [x, hi, -z]],
        PLANKS,
    );
    let [s0, t0, s1, t1] = PLANKS.map(|v| v / ATLAS);
    let tl = t0 + (t1 - t0) * lo / hi;
    m.face(
        &[[x, 0.0, z], [x, 0.0, -z], [x, hi, -z], [x, lo, z]],
        &[[s0, t0], [s1, t0], [s1, t1], [s0, tl]],
    );
    m.face(
        &[[-x, 0.0, -z], [-x, 0.0, z], [-x, lo, z], [-x, hi, -z]],
        &[[s0, t0], [s1, t0], [s1, tl], [s0, t1]],
    );
    let o = 0.2;
    let k = (hi - lo) / (2.0 * z);
    m.quad(
        [
            [-x - o, lo - o * k, z + o],
            [x + o, lo - o * k, z + o],
            [x + o, hi + o * k, -z - o],
            [-x - o, hi + o * k, -z - o],
        ],
        ROOF_SLATE,
    );
    m
}

fn house_a() -> Mesh {
    let mut m = Mesh::default();
    walls(
        &mut m,
        10.0,
        8.0,
        6.0,
        [PLASTER_FRONT, PLASTER_SIDE, PLASTER_SIDE, PLASTER_SIDE],
    );
    gable_roof(
        &mut m,
        Roof {
            w: 10.0,
            d: 8.0,
            eave: 6.0,
            ridge: 9.0,
            o: 0.4,
        },
        ROOF_RED,
        PLASTER_GABLE,
    );
    m
}

fn house_b() -> Mesh {
    // Built with its ridge along x and its door to +x, then turned so the
    // gable end with the door faces the street (+z).
    let mut m = Mesh::default();
    walls(
        &mut m,
        10.0,
        8.0,
        5.5,
        [PLASTER_SIDE, PLASTER_SIDE, PLASTER_FRONT, PLASTER_SIDE],
    );
    gable_roof(
        &mut m,
        Roof {
            w: 10.0,
            d: 8.0,
            eave: 5.5,
            ridge: 9.5,
            o: 0.4,
        },
        ROOF_SLATE,
        PLASTER_GABLE,
    );
    turned(m)
}

fn plaster_corner() -> Mesh {
    let mut m = Mesh::default();
    walls(
        &mut m,
        11.0,
        10.0,
        6.0,
        [PLASTER_FRONT, PLASTER_SIDE, PLASTER_SIDE, PLASTER_FRONT],
    );
    hip_roof(
        &mut m,
        Roof {
            w: 11.0,
            d: 10.0,
            eave: 6.0,
            ridge: 9.5,
            o: 0.4,
        },
        ROOF_RED,
    );
    m
}

fn wing() -> Mesh {
    let mut m = Mesh::default();
    let half = [PLASTER_SIDE[0], PLASTER_SIDE[1], PLASTER_SIDE[2], 48.0];
    walls(&mut m, 6.0, 8.0, 3.5, [half, half, half, half]);
    gable_roof(
        &mut m,
        Roof {
            w: 6.0,
            d: 8.0,
            eave: 3.5,
            ridge: 6.0,
            o: 0.3,
        },
        ROOF_RED,
        PLASTER_GABLE,
    );
    m
}
