//! Facade roofs: whether there is one, how far a sloped top pulls it in,
//! and where its texture comes from.
//!
//! - [`has_roof`]: a type-1 facade has a roof when it has `ROOF` points or
//!   a `ROOF_SCALE` (xptools `WED_ResourceMgr::GetFac` sets `has_roof` for
//!   either); a type-2 facade when a floor has a `ROOF_HEIGHT`, unless
//!   `NO_ROOF_MESH`.
//! - The roof texture is the roof shader's `TEXTURE`, else the wall's
//!   (`GetFac`: `if(roof_tex.empty()) roof_tex = wall_tex`), see
//!   [`super::Facade::roof_texture`].
//! - [`inset`]: a wall whose `ROOF_SLOPE` exceeds 1° pulls the roof in by
//!   tan(slope) × the height of its top panel in metres (sin(slope) when
//!   the facade corrects the texture for the slope), xptools `draw_facade`;
//!   [`inset_ring`] moves each side in by its wall's inset and joins the
//!   moved sides at their intersections.
//! - [`type1_uv`]: the roof's texture coordinates. With `ROOF` points and
//!   fewer than five corners, corner `n` takes point `n` modulo their
//!   count; with more corners, the box of the roof maps onto points 0 and
//!   2. With a `ROOF_SCALE` window (and no points), the window spans
//!   `rsx` × `rsy` metres around its centre point in the frame of the
//!   first side; it is widened to the roof's proportions, and grown to
//!   the roof when the roof is larger, so the texture keeps its
//!   proportions and is never repeated (`draw_facade`, "new UV mapping
//!   algo").

use super::Facade;
use crate::geom::Xy;
use crate::geom::mesh::signed_area;

/// True when the facade draws a roof.
pub fn has_roof(fac: &Facade) -> bool {
    if fac.is_type2() {
        !fac.no_roof_mesh && fac.floors.iter().any(|f| !f.roof_heights.is_empty())
    } else {
        fac.roof_window.is_some() || fac.lods.iter().any(|l| !l.roof.is_empty())
    }
}

/// How far (metres) a wall's sloped top pulls the roof in from its side:
/// 0 for a slope of 1° or less.
pub fn inset(wall: &super::Wall, slant: bool) -> f64 {
    if wall.roof_slope.abs() <= 1.0 {
        return 0.0;
    }
    let top = wall.up.last().map_or(0.0, |p| p.range[1] - p.range[0]) * wall.scale[1];
    let a = wall.roof_slope.to_radians();
    let k = if slant { a.sin() } else { a.tan() };
    let v = k * top;
    if v.is_finite() { v } else { 0.0 }
}

/// `ring` with side `i` (from point `i` to `i + 1`) moved `insets[i]`
/// metres towards the inside, the moved sides joined where they cross.
/// Parallel neighbours keep the moved point. Whatever the ring's turning
/// (agkit's choice: the reference assumes one winding).
pub fn inset_ring(ring: &[Xy], insets: &[f64]) -> Vec<Xy> {
    let n = ring.len();
    if n < 3 || insets.iter().all(|&d| d == 0.0) {
        return ring.to_vec();
    }
    let inward = if signed_area(ring) >= 0.0 { 1.0 } else { -1.0 };
    // Each side as a moved point and a direction.
    let sides: Vec<(Xy, Xy)> = (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let d = [b[0] - a[0], b[1] - a[1]];
            let l = (d[0] * d[0] + d[1] * d[1]).sqrt();
            let d = if l > 0.0 {
                [d[0] / l, d[1] / l]
            } else {
                [0.0, 0.0]
            };
            // Left of the direction is inside a counter-clockwise ring.
            let left = [-d[1] * inward, d[0] * inward];
            let k = insets.get(i).copied().unwrap_or(0.0);
            ([a[0] + left[0] * k, a[1] + left[1] * k], d)
        })
        .collect();
    (0..n)
        .map(|i| {
            let (p, d) = sides[(i + n - 1) % n];
            let (q, e) = sides[i];
            let den = d[0] * e[1] - d[1] * e[0];
            if den.abs() < 1e-12 {
                return q;
            }
            let t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den;
            let x = [p[0] + d[0] * t, p[1] + d[1] * t];
            if x.iter().all(|v| v.is_finite()) {
                x
            } else {
                q
            }
        })
        .collect()
}

/// The texture coordinates of a type-1 roof over `roof` (its corners;
/// `ring` is the footprint, whose first side sets the frame of a
/// `ROOF_SCALE` window). Empty when the facade gives neither points nor a
/// window.
pub fn type1_uv(fac: &Facade, ring: &[Xy], roof: &[Xy]) -> Vec<[f64; 2]> {
    let points = fac.lods.first().map(|l| l.roof.as_slice()).unwrap_or(&[]);
    if !points.is_empty() {
        if roof.len() < 5 {
            return (0..roof.len()).map(|n| points[n % points.len()]).collect();
        }
        let (lo, hi) = bbox(roof);
        let (a, b) = (points[0], points[2 % points.len()]);
        return roof
            .iter()
            .map(|p| {
                [
                    interp(lo[0], a[0], hi[0], b[0], p[0]),
                    interp(lo[1], a[1], hi[1], b[1], p[1]),
                ]
            })
            .collect();
    }
    let Some(w) = fac.roof_window else {
        return Vec::new();
    };
    if ring.len() < 2 {
        return vec![[w.center[0], w.center[1]]; roof.len()];
    }
    // The frame: along the first side, and across it; its origin at the
    // first side's middle.
    let (a, b) = (ring[0], ring[1]);
    let d = [b[0] - a[0], b[1] - a[1]];
    let l = (d[0] * d[0] + d[1] * d[1]).sqrt();
    if l == 0.0 {
        return vec![[w.center[0], w.center[1]]; roof.len()];
    }
    let dir = [d[0] / l, d[1] / l];
    let perp = [dir[1], -dir[0]];
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let along = |p: Xy| (p[0] - mid[0]) * dir[0] + (p[1] - mid[1]) * dir[1];
    let across = |p: Xy| (p[0] - mid[0]) * perp[0] + (p[1] - mid[1]) * perp[1];
    // The metres the window spans, around its centre point.
    let frac = |c: f64, a: f64, b: f64| if b != a { (c - a) / (b - a) } else { 0.5 };
    let s_rat = frac(w.center[0], w.st[0], w.st[2]);
    let t_rat = frac(w.center[1], w.st[1], w.st[3]);
    let ideal = [
        -w.metres[0] * s_rat,
        -w.metres[1] * t_rat,
        -w.metres[0] * s_rat + w.metres[0],
        -w.metres[1] * t_rat + w.metres[1],
    ];
    let xs: Vec<f64> = ring.iter().map(|&p| along(p)).collect();
    let ys: Vec<f64> = ring.iter().map(|&p| across(p)).collect();
    let mut ab = [
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        ys.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    ];
    let (wide, deep) = (ab[2] - ab[0], ab[3] - ab[1]);
    let (iw, id) = (ideal[2] - ideal[0], ideal[3] - ideal[1]);
    if wide > 0.0 && deep > 0.0 && iw > 0.0 && id > 0.0 {
        let (want, now) = (iw / id, wide / deep);
        if want > now {
            expand(&mut ab, 0, want / now);
        } else if want < now {
            expand(&mut ab, 1, now / want);
        }
        if ab[2] - ab[0] < iw {
            let k = iw / (ab[2] - ab[0]);
            expand(&mut ab, 0, k);
            expand(&mut ab, 1, k);
        }
    }
    roof.iter()
        .map(|&p| {
            [
                interp(ab[0], w.st[0], ab[2], w.st[2], along(p)),
                interp(ab[1], w.st[1], ab[3], w.st[3], across(p)),
            ]
        })
        .collect()
}

/// Grows the pair `ab[k]`, `ab[k + 2]` by `s` (≥ 1): about 0 when it holds
/// 0, else about its middle (`expand_pair`).
fn expand(ab: &mut [f64; 4], k: usize, s: f64) {
    if !(s.is_finite() && s >= 1.0) {
        return;
    }
    let (v1, v2) = (ab[k], ab[k + 2]);
    if v1 <= 0.0 && v2 >= 0.0 {
        ab[k] = v1 * s;
        ab[k + 2] = v2 * s;
    } else {
        let d = (v2 - v1) * (s - 1.0) * 0.5;
        ab[k] = v1 - d;
        ab[k + 2] = v2 + d;
    }
}

/// Linear map of `x` from `[x1, x2]` onto `[y1, y2]` (the start value when
/// the range is empty).
fn interp(x1: f64, y1: f64, x2: f64, y2: f64, x: f64) -> f64 {
    if x2 == x1 {
        y1
    } else {
        y1 + (y2 - y1) * (x - x1) / (x2 - x1)
    }
}

fn bbox(pts: &[Xy]) -> (Xy, Xy) {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for p in pts {
        lo = [lo[0].min(p[0]), lo[1].min(p[1])];
        hi = [hi[0].max(p[0]), hi[1].max(p[1])];
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_insets_evenly_whatever_its_turning() {
        let ccw = [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let r = inset_ring(&ccw, &[1.0; 4]);
        assert!(
            r.iter().all(|p| p.iter().all(|v| (1.0..=9.0).contains(v))),
            "{r:?}"
        );
        let cw: Vec<Xy> = ccw.iter().rev().copied().collect();
        let r = inset_ring(&cw, &[1.0; 4]);
        assert!(
            r.iter().all(|p| p.iter().all(|v| (1.0..=9.0).contains(v))),
            "{r:?}"
        );
        assert_eq!(inset_ring(&ccw, &[0.0; 4]), ccw.to_vec());
    }
}
