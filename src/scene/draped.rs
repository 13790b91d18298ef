//! Draped polygons (`.pol`) and painted lines (`.lin`) of a whole tile as
//! flat meshes on the ground, built once for every view.
//!
//! **Draped polygons** are their rings (the outer one and its holes)
//! triangulated by ear clipping, at [`DRAPED_Z`] metres, facing up. Their
//! texture coordinates are, as X-Plane maps them:
//! - the DSF's UV planes, one `s, t` per ring point, when the polygon
//!   carries them (X-Plane then ignores the `.pol`'s `SCALE`);
//! - else a projection of the ground: `SCALE` metres one repeat of the
//!   texture, its up (t) turned to the polygon's texture heading
//!   (degrees clockwise from north) and its s 90° clockwise from that:
//!   `s = (dx·cos h − dy·sin h) / SCALE_s`, `t = (dx·sin h + dy·cos h) /
//!   SCALE_t`, with `dx, dy` metres east and north. This is the planar
//!   projection WorldEditor's preview sets up (`setup_transformation` in
//!   xptools' `WED_PreviewLayer.cpp`); a `.pol` without `SCALE` covers
//!   [`DEFAULT_POL_SCALE`] metres a repeat, as WorldEditor reads it. The
//!   texture repeats; agkit anchors it at the outer ring's first point,
//!   where X-Plane anchors it at a point of its own (so the pattern may
//!   be shifted by a fraction of a repeat, never scaled or turned).
//!
//! **Painted lines** are strips along their points at [`LINE_Z`] metres,
//! facing up. Across, a strip spans the `.lin`'s widest `S_OFFSET`
//! layer: a point `d` metres left of the line has `s = sm + d / SCALE_s`
//! for `d` from `(s1 − sm)·SCALE_s` to `(s2 − sm)·SCALE_s`, so the strip
//! is as wide as [`crate::draped::Lin::width`] and centred on the line
//! when `sm` is the layer's middle (WorldEditor's `draw_line_preview`).
//! Along, `t` counts metres from the line's start over `SCALE_t`. Corners
//! are mitred as WorldEditor mitres them (the offset along the bisector,
//! `1 / cos(half the turn)` as long), the mitre held to at most
//! [`MITRE_LIMIT`] times the half width; X-Plane's slant correction of `t`
//! at a mitred corner, its end caps and its other layers are not drawn.
//! A line without its `.lin` is a strip [`PLAIN_LINE_WIDTH`] metres wide.

use crate::geom::mesh::{Facing, open, triangulate_rings};
use crate::geom::{Mesh, Xy};
use crate::place::{PlacedDraped, PlacedLine};

/// Height of a draped polygon above the ground, metres: enough that a
/// viewer's depth buffer keeps it above a ground plane at 0 (no
/// z-fighting in Blender), too little to see from the side.
pub const DRAPED_Z: f64 = 0.05;

/// Height of a painted line above the ground, metres: above the draped
/// polygons it is painted on.
pub const LINE_Z: f64 = 0.07;

/// Metres one repeat of a `.pol`'s texture covers when it has no `SCALE`
/// (WorldEditor's default, `WED_ResourceMgr.cpp`).
pub const DEFAULT_POL_SCALE: f64 = 1000.0;

/// Width of a line drawn without its `.lin`, metres.
pub const PLAIN_LINE_WIDTH: f64 = 0.5;

/// Longest mitre, in half widths (as SVG's default `stroke-miterlimit`).
pub const MITRE_LIMIT: f64 = 4.0;

/// The texture coordinates (X-Plane's s, t) of each point of each ring of
/// `d`: its UV planes when it carries them for every point, else its
/// `SCALE` (or [`DEFAULT_POL_SCALE`]) turned by its heading, anchored at
/// the outer ring's first point. The rings are as `d` holds them.
pub fn draped_st(d: &PlacedDraped) -> Vec<Vec<[f64; 2]>> {
    if let Some(uv) = &d.uv
        && uv.len() == d.rings.len()
        && uv.iter().zip(&d.rings).all(|(u, r)| u.len() == r.len())
    {
        return uv.clone();
    }
    let [sx, sy] = d
        .scale
        .filter(|s| s.iter().all(|v| v.is_finite() && *v > 0.0))
        .unwrap_or([DEFAULT_POL_SCALE; 2]);
    let h = d.heading.filter(|h| h.is_finite()).unwrap_or(0.0);
    let (sin, cos) = h.to_radians().sin_cos();
    let o = d
        .rings
        .first()
        .and_then(|r| r.first())
        .copied()
        .unwrap_or([0.0, 0.0]);
    d.rings
        .iter()
        .map(|r| {
            r.iter()
                .map(|q| {
                    let (dx, dy) = (q[0] - o[0], q[1] - o[1]);
                    [(dx * cos - dy * sin) / sx, (dx * sin + dy * cos) / sy]
                })
                .collect()
        })
        .collect()
}

/// A ring and its texture coordinates without a last point repeating the
/// first.
fn open_with(ring: &[Xy], st: &[[f64; 2]]) -> (Vec<Xy>, Vec<[f64; 2]>) {
    let r = open(ring);
    let st = st.iter().take(r.len()).copied().collect();
    (r, st)
}

/// The mesh of draped polygon `d`: its rings triangulated (holes left
/// empty) at height `z`, facing up, with [`draped_st`]'s coordinates.
/// Empty when its outer ring has no area; a hole that is not a ring (fewer
/// than three points, a value not finite) is left out.
pub fn draped_mesh(d: &PlacedDraped, z: f64) -> Mesh {
    let st = draped_st(d);
    let ok = |r: &Vec<Xy>| r.len() >= 3 && r.iter().flatten().all(|v| v.is_finite());
    let mut rings = Vec::with_capacity(d.rings.len());
    let mut sts = Vec::new();
    for (k, r) in d.rings.iter().enumerate() {
        let (r, s) = open_with(r, st.get(k).map_or(&[][..], Vec::as_slice));
        if !ok(&r) || s.len() != r.len() {
            if k == 0 {
                return Mesh::default();
            }
            continue;
        }
        rings.push(r);
        sts.extend(s);
    }
    let (points, tris) = triangulate_rings(&rings);
    let mut m = Mesh::default();
    if points.len() != sts.len() {
        return m;
    }
    m.flat(&points, &tris, z, Facing::Up, |k| sts[k]);
    m
}

/// How a line's strip spans its texture: across, from `[d, s]` at its
/// right edge to `[d, s]` at its left (`d` metres left of the line, `s`
/// across the texture); along, metres per texture repeat.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Strip {
    /// Right edge: metres left of the line (negative: right) and its s.
    pub right: [f64; 2],
    /// Left edge: metres left of the line and its s.
    pub left: [f64; 2],
    /// Metres along the line one texture repeat covers (`SCALE_t`).
    pub repeat: f64,
}

impl Strip {
    /// The strip of a `.lin` (its widest layer, see the module docs), or
    /// `None` when it has no scale, width or layer.
    pub fn of(lin: &crate::draped::Lin) -> Option<Strip> {
        let ([s1, sm, s2], [ss, st]) = lin.window()?;
        let (lo, hi) = if s1 <= s2 { (s1, s2) } else { (s2, s1) };
        Some(Strip {
            right: [(lo - sm) * ss, lo],
            left: [(hi - sm) * ss, hi],
            repeat: st,
        })
    }

    /// A plain strip `width` metres wide, centred, the whole texture
    /// across and `width` metres a repeat along.
    pub fn plain(width: f64) -> Strip {
        let w = if width.is_finite() && width > 0.0 {
            width
        } else {
            PLAIN_LINE_WIDTH
        };
        Strip {
            right: [-w / 2.0, 0.0],
            left: [w / 2.0, 1.0],
            repeat: w,
        }
    }

    /// Its width, metres.
    pub fn width(&self) -> f64 {
        self.left[0] - self.right[0]
    }
}

/// `v` made of length 1, `None` when it has none.
fn unit(v: Xy) -> Option<Xy> {
    let l = v[0].hypot(v[1]);
    (l.is_finite() && l > 1e-9).then(|| [v[0] / l, v[1] / l])
}

/// The mesh of line `l` drawn as `strip` at height `z`, facing up: one
/// quad per segment, mitred at its corners (closed lines at their first
/// point too). Points closer than a micrometre to the one before are
/// skipped; empty with fewer than two points left.
pub fn line_mesh(l: &PlacedLine, strip: &Strip, z: f64) -> Mesh {
    let mut pts: Vec<Xy> = Vec::with_capacity(l.points.len() + 1);
    for q in &l.points {
        if !q.iter().all(|v| v.is_finite()) {
            return Mesh::default();
        }
        if pts
            .last()
            .is_none_or(|p: &Xy| (q[0] - p[0]).hypot(q[1] - p[1]) > 1e-6)
        {
            pts.push(*q);
        }
    }
    let closed = l.closed && pts.len() > 2;
    if closed {
        if pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        pts.push(pts[0]);
    }
    let mut m = Mesh::default();
    if pts.len() < 2 {
        return m;
    }
    let n = pts.len();
    let dirs: Vec<Xy> = pts
        .windows(2)
        .map(|w| unit([w[1][0] - w[0][0], w[1][1] - w[0][1]]).unwrap_or([1.0, 0.0]))
        .collect();
    let half = strip.width().abs().max(1e-6) / 2.0;
    let reach = strip.right[0].abs().max(strip.left[0].abs()).max(half);
    // The offset direction at point k (left of the line, scaled to the
    // mitre): the bisector of the segments meeting there.
    let mitre = |k: usize| -> Xy {
        let (a, b) = if k == 0 {
            if closed {
                (dirs[dirs.len() - 1], dirs[0])
            } else {
                (dirs[0], dirs[0])
            }
        } else if k == n - 1 {
            if closed {
                (dirs[dirs.len() - 1], dirs[0])
            } else {
                (dirs[k - 1], dirs[k - 1])
            }
        } else {
            (dirs[k - 1], dirs[k])
        };
        let c = a[0] * b[0] + a[1] * b[1];
        let along = if 1.0 + c > 1e-9 {
            [(a[0] + b[0]) / (1.0 + c), (a[1] + b[1]) / (1.0 + c)]
        } else {
            a
        };
        let mut left = [-along[1], along[0]];
        let len = left[0].hypot(left[1]);
        let most = MITRE_LIMIT * half / reach;
        if len > most.max(1.0) {
            let k = most.max(1.0) / len;
            left = [left[0] * k, left[1] * k];
        }
        left
    };
    let repeat = if strip.repeat.is_finite() && strip.repeat > 0.0 {
        strip.repeat
    } else {
        1.0
    };
    let at = |k: usize, [d, _]: [f64; 2], off: Xy| -> Xy {
        [pts[k][0] + off[0] * d, pts[k][1] + off[1] * d]
    };
    let mut along = 0.0;
    for k in 0..n - 1 {
        let len = (pts[k + 1][0] - pts[k][0]).hypot(pts[k + 1][1] - pts[k][1]);
        let (t0, t1) = (along / repeat, (along + len) / repeat);
        along += len;
        let (o0, o1) = (mitre(k), mitre(k + 1));
        let quad = [
            at(k, strip.right, o0),
            at(k + 1, strip.right, o1),
            at(k + 1, strip.left, o1),
            at(k, strip.left, o0),
        ];
        let st = [
            [strip.right[1], t0],
            [strip.right[1], t1],
            [strip.left[1], t1],
            [strip.left[1], t0],
        ];
        m.flat(&quad, &[0, 1, 2, 0, 2, 3], z, Facing::Up, |i| st[i]);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(m: &Mesh) -> f64 {
        m.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| m.positions[i as usize]);
                ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
            })
            .sum()
    }

    #[test]
    fn a_draped_polygon_keeps_its_hole_and_faces_up() {
        let d = PlacedDraped {
            rings: vec![
                vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]],
                vec![[2.0, 2.0], [2.0, 4.0], [4.0, 4.0], [4.0, 2.0]],
            ],
            scale: Some([5.0, 5.0]),
            ..PlacedDraped::default()
        };
        let m = draped_mesh(&d, DRAPED_Z);
        // Counter-clockwise seen from above: positive area, every one.
        assert!((area(&m) - 96.0).abs() < 1e-9, "{}", area(&m));
        assert!(m.normals.iter().all(|n| *n == [0.0, 0.0, 1.0]));
        assert!(m.positions.iter().all(|p| p[2] == DRAPED_Z));
        assert_eq!(m.uvs[2], [2.0, 2.0]);
    }

    #[test]
    fn the_texture_turns_with_the_heading() {
        let d = PlacedDraped {
            rings: vec![vec![[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]]],
            scale: Some([10.0, 20.0]),
            heading: Some(90.0),
            ..PlacedDraped::default()
        };
        let st = draped_st(&d);
        // Up points east: 10 m east is half a repeat up; north is left.
        assert!((st[0][1][0] - 0.0).abs() < 1e-12 && (st[0][1][1] - 0.5).abs() < 1e-12);
        assert!((st[0][2][0] + 1.0).abs() < 1e-12 && st[0][2][1].abs() < 1e-12);
    }

    #[test]
    fn a_mitred_corner_keeps_the_width() {
        let l = PlacedLine {
            points: vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]],
            ..PlacedLine::default()
        };
        let m = line_mesh(&l, &Strip::plain(2.0), LINE_Z);
        // Two 10 m segments, 2 m wide, mitred: 10×2 + 10×2 exactly.
        assert!((area(&m) - 40.0).abs() < 1e-9, "{}", area(&m));
        assert!(m.positions.contains(&[11.0, -1.0, LINE_Z]));
    }
}
