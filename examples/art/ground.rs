//! The ground textures of the tiles: a town plaza (`point/plaza.png`), a
//! city block (`block/city_block.png`) and the edge of a town
//! (`string/town_edge.png`), with night lighting (`_LIT`) and normal maps
//! (`_NML`) where the assets name them, a cobble decal, and a clear
//! texture for assets whose tiles are hidden.
//!
//! Each texture is as large as the asset's `TEXTURE_SCALE` says (the
//! pixels its tiles, objects and facades are given in) and is drawn in
//! those pixels, y up: what stands at an annotation's pixel on the ground
//! is drawn at that pixel. All three assets are 16 pixels a metre. Parts
//! of a texture no tile uses are one flat colour.

use super::canvas::{CLEAR, Canvas, Pt, Rgba, mix, noise, rgb, shade, steps, unit};

const PX_M: f64 = 16.0;

const STONE: Rgba = rgb(176, 170, 158);
const JOINT: Rgba = rgb(120, 114, 104);
const GRASS: Rgba = rgb(98, 136, 64);
const GRAVEL: Rgba = rgb(176, 164, 140);
const SOIL: Rgba = rgb(108, 82, 58);
const ASPHALT: Rgba = rgb(84, 86, 90);
const HEDGE: Rgba = rgb(50, 90, 44);
const UNUSED: Rgba = rgb(150, 146, 136);

/// Square slabs `size` pixels across, each its own shade, 1-pixel joints.
fn slabs(c: Rgba, size: f64, seed: u32) -> impl Fn(Pt) -> Rgba {
    move |p| {
        if p[0].rem_euclid(size) < 1.0 || p[1].rem_euclid(size) < 1.0 {
            return mix(c, JOINT, 0.6);
        }
        let k = steps(
            unit(
                (p[0] / size).floor() as i64,
                (p[1] / size).floor() as i64,
                seed,
            ),
            4,
        );
        shade(c, 0.92 + 0.1 * k)
    }
}

/// Clay pavers in a basket weave: 8 × 8 cells of two 8 × 4 pavers,
/// alternately across and along.
fn pavers(p: Pt) -> Rgba {
    let (cx, cy) = ((p[0] / 8.0).floor() as i64, (p[1] / 8.0).floor() as i64);
    let (u, v) = (p[0].rem_euclid(8.0), p[1].rem_euclid(8.0));
    let (a, b) = if (cx + cy) % 2 == 0 { (u, v) } else { (v, u) };
    if a < 1.0 || b.rem_euclid(4.0) < 1.0 {
        return rgb(110, 70, 56);
    }
    let k = steps(unit(cx * 2 + i64::from(b >= 4.0), cy, 3), 3);
    shade(rgb(168, 96, 74), 0.9 + 0.14 * k)
}

/// Lawn: mown grass in soft patches.
fn lawn(seed: u32) -> impl Fn(Pt) -> Rgba {
    move |p| {
        let n = noise(p[0], p[1], 24.0, seed) * 0.7 + noise(p[0], p[1], 7.0, seed + 1) * 0.3;
        shade(GRASS, 0.86 + 0.24 * steps(n, 5))
    }
}

/// Gravel: a fine mottle of a few shades.
fn gravel(p: Pt) -> Rgba {
    shade(GRAVEL, 0.9 + 0.14 * steps(noise(p[0], p[1], 2.5, 4), 3))
}

/// Asphalt, faintly patched.
fn asphalt(p: Pt) -> Rgba {
    shade(ASPHALT, 0.94 + 0.1 * steps(noise(p[0], p[1], 18.0, 5), 3))
}

/// A vegetable bed: soil with rows of plants every 10 pixels along x.
fn bed(p: Pt) -> Rgba {
    let row = p[1].rem_euclid(10.0);
    if (3.0..7.0).contains(&row) && noise(p[0], p[1], 3.0, 6) > 0.35 {
        shade(
            rgb(80, 126, 52),
            0.9 + 0.15 * steps(noise(p[0], p[1], 2.0, 7), 2),
        )
    } else {
        shade(SOIL, 0.92 + 0.1 * steps(noise(p[0], p[1], 4.0, 8), 2))
    }
}

/// A flower bed: mulch with dabs of colour.
fn flowers(p: Pt) -> Rgba {
    let (cx, cy) = ((p[0] / 4.0).floor() as i64, (p[1] / 4.0).floor() as i64);
    match hash_pick(cx, cy) {
        0 => rgb(220, 70, 80),
        1 => rgb(240, 200, 70),
        2 => rgb(236, 236, 240),
        3..=5 => rgb(70, 116, 52),
        _ => shade(SOIL, 0.95),
    }
}

fn hash_pick(x: i64, y: i64) -> u32 {
    super::canvas::hash(x, y, 9) % 9
}

/// Water with ripple rings around `c`.
fn water(c: Pt) -> impl Fn(Pt) -> Rgba {
    move |p| {
        let d = (p[0] - c[0]).hypot(p[1] - c[1]);
        if (d / 7.0).fract() < 0.18 {
            rgb(140, 180, 206)
        } else {
            rgb(64, 112, 150)
        }
    }
}

/// A hedge seen from above: dark clumps.
fn hedge(p: Pt) -> Rgba {
    shade(HEDGE, 0.8 + 0.3 * steps(noise(p[0], p[1], 4.0, 10), 3))
}

/// Metres to pixels.
fn m(v: f64) -> f64 {
    v * PX_M
}

/// A sidewalk along the bottom of `[x0, x1]` from `y`: a granite kerb
/// then `width` pixels of half-metre slabs.
fn sidewalk(cv: &mut Canvas, x: [f64; 2], y: f64, width: f64) {
    cv.rect([x[0], y, x[1], y + 6.0], |p| {
        shade(rgb(150, 148, 144), if p[1] - y < 2.0 { 0.75 } else { 1.0 })
    });
    cv.rect(
        [x[0], y + 6.0, x[1], y + width],
        slabs(rgb(190, 186, 176), 8.0, 11),
    );
}

/// A path of slabs between two points, `w` pixels wide.
fn path(cv: &mut Canvas, a: Pt, b: Pt, w: f64) {
    cv.line(a, b, w, slabs(rgb(196, 188, 170), 8.0, 12));
}

/// The ground under a building: plain concrete a little larger than its
/// footprint (`r`, pixels).
fn pad(cv: &mut Canvas, r: [f64; 4]) {
    cv.rect([r[0] - 4.0, r[1] - 4.0, r[2] + 4.0, r[3] + 4.0], concrete);
}

/// Concrete, faintly patched.
fn concrete(p: Pt) -> Rgba {
    shade(
        rgb(164, 162, 156),
        0.97 + 0.04 * steps(noise(p[0], p[1], 12.0, 13), 2),
    )
}

/// A rectangle of `w × h` metres around the pixel `c`.
fn around(c: Pt, w: f64, h: f64) -> [f64; 4] {
    [
        c[0] - m(w) / 2.0,
        c[1] - m(h) / 2.0,
        c[0] + m(w) / 2.0,
        c[1] + m(h) / 2.0,
    ]
}

// ---- the plaza: 1024 × 1024, tiles in the bottom half ----

fn plaza() -> Canvas {
    let mut cv = Canvas::new(1024, 1024, UNUSED);

    // Variant A (0..512): granite slabs, a kerb outside the crop.
    cv.rect([0.0, 0.0, 512.0, 512.0], slabs(STONE, 16.0, 20));
    cv.tint([0.0, 0.0, 512.0, 512.0], |p, c| {
        let edge = p[0].min(p[1]).min(512.0 - p[0]).min(512.0 - p[1]);
        if edge < 16.0 {
            shade(
                rgb(130, 126, 118),
                if (p[0] + p[1]).rem_euclid(16.0) < 1.0 {
                    0.8
                } else {
                    1.0
                },
            )
        } else {
            c
        }
    });
    // The entrance from the south: lighter slabs up to the fountain.
    cv.rect(
        [224.0, 16.0, 288.0, 160.0],
        slabs(rgb(204, 196, 178), 16.0, 21),
    );
    // Around the fountain: rings of cobbles, then the basin.
    let f = [256.0, 256.0];
    cv.ring(f, 48.0, 116.0, |p| {
        let (dx, dy) = (p[0] - f[0], p[1] - f[1]);
        let r = dx.hypot(dy);
        let ring = (r / 8.0).floor();
        let arc = (dy.atan2(dx) * r / 8.0).floor();
        let edge = r.rem_euclid(8.0) < 1.0;
        if edge || r > 112.0 {
            return JOINT;
        }
        shade(
            rgb(196, 186, 164),
            0.9 + 0.12 * steps(unit(arc as i64, ring as i64, 22), 3),
        )
    });
    cv.ring(f, 44.0, 48.0, |_| rgb(150, 140, 120));
    cv.disc(f, 44.0, water(f));
    // Kiosk pads and lamp bases.
    for c in [[120.0, 360.0], [392.0, 360.0]] {
        cv.rect(around(c, 3.5, 3.5), slabs(rgb(150, 144, 134), 8.0, 23));
    }
    for c in [[64.0, 64.0], [448.0, 64.0]] {
        cv.disc(c, 6.0, |_| rgb(60, 64, 60));
    }
    // The shops' arcade strip and the hedged garden to the north.
    cv.rect([32.0, 400.0, 288.0, 416.0], |p| {
        shade(slabs(STONE, 16.0, 20)(p), 0.78)
    });
    cv.rect([320.0, 416.0, 480.0, 496.0], lawn(24));
    cv.rect([344.0, 436.0, 456.0, 476.0], flowers);
    // A tree bed along the east edge and a grate for the lone tree.
    cv.rect([440.0, 80.0, 488.0, 400.0], gravel);
    cv.disc([64.0, 256.0], 26.0, |p| {
        if (p[0] + p[1]).rem_euclid(6.0) < 2.0 {
            rgb(60, 60, 58)
        } else {
            rgb(96, 92, 86)
        }
    });
    cv.disc([64.0, 256.0], 6.0, |_| SOIL);

    // Variant B (512..1024): a market of clay pavers inside a hedge ring,
    // granite paths crossing it, lawn outside.
    cv.rect([512.0, 0.0, 1024.0, 512.0], lawn(25));
    cv.rect([544.0, 32.0, 992.0, 480.0], gravel);
    cv.rect([560.0, 48.0, 976.0, 464.0], pavers);
    cv.rect(
        [560.0, 232.0, 976.0, 280.0],
        slabs(rgb(200, 194, 180), 16.0, 26),
    );
    cv.rect(
        [744.0, 48.0, 792.0, 464.0],
        slabs(rgb(200, 194, 180), 16.0, 26),
    );
    for c in [[768.0, 256.0], [640.0, 256.0]] {
        cv.rect(around(c, 3.5, 3.5), slabs(rgb(150, 144, 134), 8.0, 27));
    }
    cv
}

/// Night: warm pools of light around the lamps, kiosks and shop windows.
fn plaza_lit() -> Canvas {
    let mut cv = Canvas::new(1024, 1024, rgb(0, 0, 0));
    let glow = |cv: &mut Canvas, c: Pt, r: f64| {
        cv.disc(c, r, move |p| {
            let t = 1.0 - (p[0] - c[0]).hypot(p[1] - c[1]) / r;
            let a = (steps(t, 8) * 200.0) as u8;
            [255, 214, 150, a]
        });
    };
    for c in [[64.0, 64.0], [448.0, 64.0]] {
        glow(&mut cv, c, 80.0);
    }
    for c in [
        [120.0, 340.0],
        [392.0, 340.0],
        [768.0, 236.0],
        [640.0, 236.0],
    ] {
        glow(&mut cv, c, 40.0);
    }
    cv.rect([32.0, 384.0, 288.0, 416.0], |p| {
        [
            255,
            220,
            160,
            (steps((p[1] - 384.0) / 32.0, 6) * 160.0) as u8,
        ]
    });
    cv
}

/// A normal map for the plaza: flat, the slab joints tilted.
fn plaza_nml() -> Canvas {
    let mut cv = Canvas::new(1024, 1024, rgb(128, 128, 255));
    cv.rect([16.0, 16.0, 496.0, 496.0], |p| {
        let (u, v) = (p[0].rem_euclid(16.0), p[1].rem_euclid(16.0));
        if u < 1.0 {
            rgb(96, 128, 240)
        } else if v < 1.0 {
            rgb(128, 96, 240)
        } else {
            rgb(128, 128, 255)
        }
    });
    cv
}

/// A cobble detail decal: grey stones, 0.5 grey being no change.
fn cobble_decal() -> Canvas {
    let mut cv = Canvas::new(128, 128, rgb(128, 128, 128));
    cv.rect([0.0, 0.0, 128.0, 128.0], |p| {
        let row = (p[1] / 8.0).floor();
        let x = p[0] + if row as i64 % 2 == 0 { 0.0 } else { 4.0 };
        let (u, v) = (x.rem_euclid(8.0) - 4.0, p[1].rem_euclid(8.0) - 4.0);
        let d = u.hypot(v) / 4.0;
        if d > 0.9 {
            rgb(96, 96, 96)
        } else {
            let k =
                0.9 + 0.25 * steps(unit((x / 8.0).floor() as i64, row as i64, 30), 3) - 0.15 * d;
            shade(rgb(140, 140, 140), k)
        }
    });
    cv
}

// ---- the city block: 2048 × 2048, the grid in 0..1792 × 0..1024 ----

fn city_block() -> Canvas {
    let mut cv = Canvas::new(2048, 2048, UNUSED);
    // Lawn everywhere the grid reaches, then what lies on it.
    cv.rect([0.0, 0.0, 1792.0, 1024.0], lawn(31));
    // Front: the sidewalk and a low hedge behind it.
    sidewalk(&mut cv, [0.0, 1792.0], 0.0, 48.0);
    cv.rect([0.0, 48.0, 1792.0, 56.0], hedge);
    // Driveways in the two slop columns.
    for x in [400.0, 1296.0] {
        cv.rect([x, 0.0, x + 96.0, 384.0], asphalt);
        cv.rect([x - 4.0, 0.0, x, 384.0], |_| rgb(150, 148, 144));
        cv.rect([x + 96.0, 0.0, x + 100.0, 384.0], |_| rgb(150, 148, 144));
    }
    // Houses of row 0 and their paths to the sidewalk.
    for (c, w, h) in [
        ([192.0, 192.0], 11.0, 10.0),
        ([896.0, 192.0], 7.0, 10.0),
        ([1600.0, 192.0], 10.0, 11.0),
    ] {
        let r = around(c, w, h);
        path(&mut cv, [c[0], 48.0], [c[0], r[1]], 24.0);
        pad(&mut cv, r);
    }
    // Patios behind the houses.
    for (x, w) in [(192.0, 11.0), (896.0, 7.0), (1600.0, 10.0)] {
        cv.rect(
            [x - m(w) / 2.0, 276.0, x + m(w) / 2.0, 324.0],
            slabs(rgb(196, 188, 170), 16.0, 37),
        );
    }
    // The wide column's front gardens: flower beds along the paths.
    cv.rect([560.0, 80.0, 800.0, 120.0], flowers);
    cv.rect([992.0, 80.0, 1232.0, 120.0], flowers);
    // A footpath across the slop row.
    cv.rect(
        [0.0, 424.0, 1792.0, 472.0],
        slabs(rgb(186, 180, 166), 16.0, 32),
    );
    // Back gardens (row 2): plots between hedges, beds, patios.
    for x in [384.0, 512.0, 1280.0, 1408.0] {
        cv.rect([x - 3.0, 512.0, x + 3.0, 968.0], hedge);
    }
    cv.rect([40.0, 560.0, 160.0, 680.0], bed);
    cv.rect([48.0, 872.0, 344.0, 936.0], bed);
    path(&mut cv, [200.0, 472.0], [200.0, 780.0], 16.0);
    pad(&mut cv, around([200.0, 800.0], 3.0, 2.5));
    cv.disc([300.0, 700.0], 20.0, |p| {
        shade(SOIL, 0.9 + 0.1 * steps(noise(p[0], p[1], 3.0, 33), 2))
    });
    cv.rect([408.0, 560.0, 488.0, 940.0], gravel);
    cv.rect([1304.0, 560.0, 1384.0, 940.0], gravel);
    // The row houses (FAC) and the walled building (FAC_WALLS) stand on
    // pads; the row houses' yard in front of them is paved.
    pad(&mut cv, [600.0, 560.0, 1200.0, 960.0]);
    pad(&mut cv, [1450.0, 560.0, 1750.0, 960.0]);
    cv.rect(
        [600.0, 520.0, 1200.0, 552.0],
        slabs(rgb(186, 180, 166), 16.0, 34),
    );
    // The back lane: a verge with a mulched bed for the row of trees.
    cv.rect([0.0, 968.0, 1792.0, 1024.0], lawn(35));
    cv.rect([0.0, 984.0, 1792.0, 1016.0], |p| {
        shade(
            rgb(92, 70, 52),
            0.9 + 0.12 * steps(noise(p[0], p[1], 5.0, 36), 3),
        )
    });
    cv
}

/// The city block's normal map: flat, the kerb and sidewalk joints tilted.
fn city_block_nml() -> Canvas {
    let mut cv = Canvas::new(2048, 2048, rgb(128, 128, 255));
    cv.rect([0.0, 0.0, 1792.0, 48.0], |p| {
        if p[1] < 6.0 && p[1] >= 4.0 {
            rgb(128, 90, 236)
        } else if p[1] >= 6.0 && (p[0].rem_euclid(8.0) < 1.0 || p[1].rem_euclid(8.0) < 1.0) {
            rgb(110, 110, 248)
        } else {
            rgb(128, 128, 255)
        }
    });
    cv
}

// ---- the town edge: 2048 × 1024, two rows of 32 m tiles ----

/// One 32 m deep garden strip along a street at `y` from `x0` to `x1`:
/// verge, sidewalk and lawn; `hedges` at both ends.
fn garden_strip(cv: &mut Canvas, x: [f64; 2], y: f64, seed: u32) {
    cv.rect([x[0], y, x[1], y + 512.0], lawn(seed));
    cv.rect([x[0], y, x[1], y + 24.0], lawn(seed + 100));
    sidewalk(cv, x, y + 24.0, 32.0);
    cv.rect([x[0], y + 56.0, x[1], y + 60.0], hedge);
}

fn town_edge() -> Canvas {
    let mut cv = Canvas::new(2048, 1024, UNUSED);
    // Row 0: tiles 1, 2, 3 and the corner tile 10.
    for (i, x) in [0.0, 512.0, 1024.0, 1536.0].into_iter().enumerate() {
        garden_strip(&mut cv, [x, x + 512.0], 0.0, 40 + i as u32);
    }
    // Row 1: the articulated corner (20, 21, 22) and the cap (30).
    for (i, x) in [0.0, 512.0, 1024.0].into_iter().enumerate() {
        garden_strip(&mut cv, [x, x + 512.0], 512.0, 50 + i as u32);
    }
    cv.rect([1536.0, 512.0, 1664.0, 1024.0], gravel);
    sidewalk(&mut cv, [1536.0, 1664.0], 536.0, 32.0);
    // Plot hedges between the houses (the tiles repeat along the street).
    for x in [0.0, 512.0, 1024.0, 1536.0] {
        for y in [0.0, 512.0] {
            if !(x == 1536.0 && y == 512.0) {
                cv.rect([x, y + 60.0, x + 4.0, y + 512.0], hedge);
                cv.rect([x + 508.0, y + 60.0, x + 512.0, y + 512.0], hedge);
            }
        }
    }

    // Tile 1: house A with a driveway, a patio, a flower bed and the
    // shed at the back.
    let house = around([256.0, 200.0], 10.0, 8.0);
    cv.rect([40.0, 56.0, 104.0, 300.0], gravel);
    path(&mut cv, [256.0, 56.0], [256.0, house[1]], 24.0);
    pad(&mut cv, house);
    cv.rect(
        [house[0], house[3], house[2], house[3] + 40.0],
        slabs(rgb(196, 188, 170), 16.0, 60),
    );
    cv.rect([200.0, 360.0, 340.0, 392.0], flowers);
    pad(&mut cv, around([420.0, 420.0], 2.5, 3.0));
    // Tile 2: house B, a vegetable garden, the back fence.
    let house = around([768.0, 200.0], 8.0, 10.0);
    path(&mut cv, [768.0, 56.0], [768.0, house[1]], 24.0);
    pad(&mut cv, house);
    cv.rect([560.0, 330.0, 720.0, 450.0], bed);
    cv.rect([820.0, 330.0, 980.0, 450.0], bed);
    cv.rect([540.0, 462.0, 1000.0, 508.0], gravel);
    // Tile 3: a small orchard meadow; a mulched verge for the row of trees.
    cv.rect([1040.0, 84.0, 1520.0, 116.0], |p| {
        shade(
            rgb(92, 70, 52),
            0.9 + 0.12 * steps(noise(p[0], p[1], 5.0, 61), 3),
        )
    });
    cv.line([1280.0, 60.0], [1180.0, 250.0], 20.0, gravel);
    cv.line([1180.0, 250.0], [1290.0, 470.0], 20.0, gravel);
    cv.rect([1340.0, 200.0, 1480.0, 300.0], flowers);
    cv.disc([1280.0, 320.0], 22.0, |p| {
        shade(SOIL, 0.9 + 0.1 * steps(noise(p[0], p[1], 3.0, 62), 2))
    });
    // Tile 10: the corner house, turned a quarter.
    let house = around([1700.0, 200.0], 10.0, 11.0);
    path(&mut cv, [1700.0, 56.0], [1700.0, house[1]], 24.0);
    pad(&mut cv, house);
    cv.rect([1560.0, 300.0, 1640.0, 480.0], bed);

    // Row 1. Tile 20: a wing; tile 21: the corner house at 45 degrees;
    // tile 22: another wing; the cap: the shed on gravel.
    let wing = around([256.0, 700.0], 6.0, 8.0);
    path(&mut cv, [256.0, 568.0], [256.0, wing[1]], 24.0);
    pad(&mut cv, wing);
    cv.rect([80.0, 840.0, 200.0, 960.0], bed);
    path(&mut cv, [768.0, 568.0], [768.0, 632.0], 24.0);
    let (c, r) = ([768.0, 720.0], m(5.5) * std::f64::consts::SQRT_2);
    cv.poly(
        &[
            [c[0], c[1] - r],
            [c[0] + r, c[1]],
            [c[0], c[1] + r],
            [c[0] - r, c[1]],
        ],
        concrete,
    );
    cv.rect([600.0, 880.0, 700.0, 980.0], flowers);
    let wing = around([1280.0, 700.0], 8.0, 6.0);
    path(&mut cv, [1280.0, 568.0], [1280.0, wing[1]], 24.0);
    pad(&mut cv, wing);
    cv.rect([1100.0, 860.0, 1460.0, 900.0], flowers);
    pad(&mut cv, around([1600.0, 700.0], 3.0, 2.5));
    cv
}

/// Night on the town edge: street lamps along the sidewalks and the
/// light of the front doors.
fn town_edge_lit() -> Canvas {
    let mut cv = Canvas::new(2048, 1024, rgb(0, 0, 0));
    let glow = |cv: &mut Canvas, c: Pt, r: f64, a: f64| {
        cv.disc(c, r, move |p| {
            let t = 1.0 - (p[0] - c[0]).hypot(p[1] - c[1]) / r;
            [255, 210, 140, (steps(t, 8) * a) as u8]
        });
    };
    for y in [40.0, 552.0] {
        let mut x = 128.0;
        while x < 1536.0 {
            glow(&mut cv, [x, y], 64.0, 210.0);
            x += 256.0;
        }
    }
    for c in [
        [256.0, 136.0],
        [768.0, 120.0],
        [1700.0, 112.0],
        [256.0, 636.0],
        [1280.0, 652.0],
    ] {
        glow(&mut cv, c, 28.0, 170.0);
    }
    cv
}

/// Every ground texture: its path under examples/ and its PNG bytes.
pub fn files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("blank.png", Canvas::new(512, 512, CLEAR).png(true)),
        ("point/plaza.png", plaza().png(false)),
        ("point/plaza_LIT.png", plaza_lit().png(false)),
        ("point/plaza_NML.png", plaza_nml().png(false)),
        ("point/cobble_decal.png", cobble_decal().png(false)),
        ("block/city_block.png", city_block().png(false)),
        ("block/city_block_NML.png", city_block_nml().png(false)),
        ("string/town_edge.png", town_edge().png(false)),
        ("string/town_edge_LIT.png", town_edge_lit().png(false)),
    ]
}
