//! Patterns and details the objects' and the facades' textures share:
//! windows, brick, roof courses.

use super::canvas::{Canvas, Pt, Rgba, rgb, shade, steps, unit};

/// White window frames.
pub const FRAME: Rgba = rgb(238, 236, 228);
/// Window glass.
pub const GLASS: Rgba = rgb(58, 74, 92);
/// Mortar between bricks.
pub const MORTAR: Rgba = rgb(196, 188, 172);

/// Brick courses of `c`: 8 × 4 px bricks, each its own shade, mortar
/// joints.
pub fn brick(c: Rgba, seed: u32) -> impl Fn(Pt) -> Rgba {
    move |p| {
        let row = (p[1] / 4.0).floor();
        let x = p[0] + if row as i64 % 2 == 0 { 0.0 } else { 4.0 };
        if p[1].rem_euclid(4.0) < 1.0 || x.rem_euclid(8.0) < 1.0 {
            return MORTAR;
        }
        let k = steps(unit((x / 8.0).floor() as i64, row as i64, seed), 4);
        shade(c, 0.86 + 0.22 * k)
    }
}

/// Roof tiles or slates of `c` in courses `h` px high, `w` px wide; each
/// course darker at its lower edge.
pub fn courses(c: Rgba, w: f64, h: f64, seed: u32) -> impl Fn(Pt) -> Rgba {
    move |p| {
        let row = (p[1] / h).floor();
        let x = p[0] + if row as i64 % 2 == 0 { 0.0 } else { w / 2.0 };
        let y = p[1].rem_euclid(h) / h;
        if x.rem_euclid(w) < 1.0 {
            return shade(c, 0.7);
        }
        let k = steps(unit((x / w).floor() as i64, row as i64, seed), 3);
        shade(c, (0.78 + 0.22 * y.min(0.75) / 0.75) * (0.92 + 0.12 * k))
    }
}

/// A window in the box `r`: a white frame, a glazing bar (and a transom
/// when `transom`), a glint on the pane and a sill.
pub fn window(cv: &mut Canvas, r: [f64; 4], transom: bool) {
    cv.rect(r, |_| FRAME);
    let g = [r[0] + 2.0, r[1] + 2.0, r[2] - 2.0, r[3] - 2.0];
    cv.rect(g, |p| {
        let glint = (p[0] - g[0]) - (p[1] - g[1]) * 0.6;
        if (2.0..5.0).contains(&glint) {
            shade(GLASS, 1.5)
        } else {
            GLASS
        }
    });
    let mx = (r[0] + r[2]) / 2.0;
    cv.rect([mx - 1.0, g[1], mx + 1.0, g[3]], |_| FRAME);
    if transom {
        let my = r[1] + (r[3] - r[1]) * 0.62;
        cv.rect([g[0], my - 1.0, g[2], my + 1.0], |_| FRAME);
    }
    cv.rect([r[0] - 2.0, r[1] - 2.0, r[2] + 2.0, r[1]], |_| {
        shade(FRAME, 0.85)
    });
}
