//! A facade built on a footprint: first its [`Layout`] (the choices:
//! height drawn, floor, the wall of each side, roof or not), then its
//! [`FacadeMesh`] (walls and roof as plain [`Mesh`]es).
//!
//! Placement fills [`crate::place::PlacedFacade`] from the layout, and
//! every view draws the mesh built from that same layout, so the placement
//! JSON, the pictures and the 3-D scene agree on every side.
//!
//! The rules:
//!
//! - **Height.** Type 2: the floor whose top `ROOF_HEIGHT` is closest to
//!   the height asked (the first of equals; WorldEditor's `draw_facade`,
//!   xptools `WED_FacadePreview.cpp`); type 1: the height asked within the
//!   facade's [`Facade::height_range`].
//! - **Walls.** Each side draws the wall its `FAC_WALLS` type names (0
//!   without them), the last wall when the type is past them (as
//!   `draw_facade` clamps it): of the nearest type-1 level, or of the
//!   type-2 floor drawn.
//! - **Mesh.** Each side of the footprint is one quad from the ground to
//!   the height drawn, spanning its wall's panels (type 1: from the
//!   leftmost to the rightmost panel across, bottom to top panel up; the
//!   whole texture for type 2 or a wall without panels). A ring's walls
//!   face out whichever way it runs; a fence (not `RING`) is an open
//!   chain. The roof is flat at the height drawn, the `ROOF` points'
//!   bounding box stretched over the footprint's (else the texture tiled
//!   once per 10 m).

use super::{Facade, Floor, Panel};
use crate::geom::Xy;
use crate::geom::mesh::{self, Facing, Mesh, WHOLE};
use serde::Serialize;

/// The choices a facade makes on one footprint.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// The height asked, metres.
    pub asked: f64,
    /// The height the facade draws, as the rules give it (`None` when the
    /// facade has nothing to measure it by).
    pub drawn_height: Option<f64>,
    /// The height the mesh is built to: [`Layout::drawn_height`], else the
    /// height asked, else 1 m when neither is a positive number.
    pub height: f64,
    /// Type 1: the floors stacked (not counted yet: `None`).
    pub floors: Option<usize>,
    /// Type 2: the `FLOOR` drawn, by name.
    pub floor: Option<String>,
    /// The wall of each side, in side order (empty when the facade has no
    /// walls).
    pub walls: Vec<WallChoice>,
    /// Panels across each side, in side order (today each side spans its
    /// wall's panels once: 1 each).
    pub panels: Vec<usize>,
    /// Whether a roof is drawn.
    pub roof: bool,
}

/// The wall one side of a facade draws.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WallChoice {
    /// Its index among the walls (of the nearest level, or of the floor
    /// drawn).
    pub wall: usize,
    /// Its name, when the facade gives one.
    pub name: Option<String>,
}

/// A facade's geometry: walls drawn with its wall texture, the roof with
/// its roof texture.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FacadeMesh {
    /// The walls.
    pub walls: Mesh,
    /// The roof (empty when none is drawn).
    pub roof: Mesh,
    /// True for a closed ring (a building): walls face out and are seen
    /// from outside only; false for a fence, whose walls are seen from
    /// both sides.
    pub closed: bool,
}

/// The sides of a footprint of `points` points: a ring closes, a chain
/// does not.
fn sides(ring: bool, points: usize) -> usize {
    if ring {
        points
    } else {
        points.saturating_sub(1)
    }
}

/// The layout of `fac` on the footprint `ring` (local metres, as placed)
/// asked `height` metres tall, with the `FAC_WALLS` type of each point.
pub fn layout(fac: &Facade, ring: &[Xy], height: f64, wall_types: Option<&[i64]>) -> Layout {
    let n = sides(fac.ring, ring.len());
    let type_of = |side: usize| -> usize {
        wall_types
            .and_then(|w| w.get(side))
            .map_or(0, |&t| usize::try_from(t).unwrap_or(0))
    };
    let (drawn_height, floor, names): (Option<f64>, Option<&Floor>, Vec<Option<&str>>) =
        if fac.is_type2() {
            // The floor whose top roof is closest to the height asked (the
            // first of equals).
            let top = |fl: &Floor| fl.roof_heights.iter().copied().reduce(f64::max);
            let best = fac
                .floors
                .iter()
                .filter_map(|fl| Some((fl, top(fl)?)))
                .fold(None::<(&Floor, f64)>, |best, (fl, h)| match best {
                    Some((_, b)) if (b - height).abs() <= (h - height).abs() => best,
                    _ => Some((fl, h)),
                });
            let floor = best.map(|(fl, _)| fl).or(fac.floors.first());
            let names = floor
                .map(|fl| fl.walls.iter().map(|w| w.name.as_deref()).collect())
                .unwrap_or_default();
            (best.map(|(_, h)| h), floor, names)
        } else {
            let drawn = fac.height_range().map(|r| {
                height
                    .max(r.min)
                    .min(r.max.unwrap_or(f64::INFINITY).max(r.min))
            });
            let names = fac
                .lods
                .first()
                .map(|l| l.walls.iter().map(|w| w.name.as_deref()).collect())
                .unwrap_or_default();
            (drawn, None, names)
        };
    let walls: Vec<WallChoice> = if names.is_empty() {
        Vec::new()
    } else {
        (0..n)
            .map(|s| {
                let wall = type_of(s).min(names.len() - 1);
                WallChoice {
                    wall,
                    name: names[wall].map(str::to_string),
                }
            })
            .collect()
    };
    Layout {
        asked: height,
        drawn_height,
        height: drawable(drawn_height.unwrap_or(height)),
        floors: None,
        floor: floor.map(|fl| fl.name.clone()),
        panels: vec![1; walls.len()],
        walls,
        roof: fac.has_roof(),
    }
}

/// `h` when it is a positive number, else 1 m.
fn drawable(h: f64) -> f64 {
    if h.is_finite() && h > 0.0 { h } else { 1.0 }
}

/// The walls and roof of `fac` on the footprint `ring` (local metres), as
/// `layout` chose them.
pub fn mesh(fac: &Facade, ring: &[Xy], layout: &Layout) -> FacadeMesh {
    let lod = fac.lods.first().filter(|_| !fac.is_type2());
    let window = |side: usize| -> [f64; 4] {
        let Some(lod) = lod else { return WHOLE };
        let k = layout.walls.get(side).map_or(0, |c| c.wall);
        lod.walls
            .get(k)
            .or(lod.walls.first())
            .and_then(|w| Some([span(&w.across)?, span(&w.up)?]))
            .map_or(WHOLE, |[[s0, s1], [t0, t1]]| [s0, t0, s1, t1])
    };
    let roof = layout.roof.then(|| roof_window(fac));
    build(ring, fac.ring, layout.height, window, roof)
}

/// The walls and roof of a facade whose `.fac` was not read, on the
/// footprint `ring`, `height` metres tall: a closed building with a roof
/// (a fence for two points), each side spanning the whole texture.
pub fn untextured(ring: &[Xy], height: f64) -> FacadeMesh {
    build(ring, true, drawable(height), |_| WHOLE, Some(None))
}

/// The walls of `ring` (closed when `ring_closes` and it has three points)
/// from 0 to `height`, side `k` spanning `window(k)`, and a flat roof
/// (`roof`: `Some` to draw one, with its texture window or `None` to tile
/// the texture every 10 m).
fn build(
    ring: &[Xy],
    ring_closes: bool,
    height: f64,
    window: impl Fn(usize) -> [f64; 4],
    roof: Option<Option<[f64; 4]>>,
) -> FacadeMesh {
    let pts = mesh::open(ring);
    let mut out = FacadeMesh::default();
    if pts.len() < 2 {
        return out;
    }
    out.closed = ring_closes && pts.len() >= 3;
    if !out.closed {
        for (k, s) in pts.windows(2).enumerate() {
            out.walls.wall(s[0], s[1], 0.0, height, window(k));
        }
        return out;
    }
    // Fronts out: a wall's front is on the right of its side, and the
    // outside is on the right of a counter-clockwise ring. Reversed, side
    // j of the ring is side n − 2 − j (mod n) of the footprint.
    let n = pts.len();
    let reversed = mesh::signed_area(&pts) < 0.0;
    let mut ccw = pts.clone();
    if reversed {
        ccw.reverse();
    }
    for j in 0..n {
        let side = if reversed { (2 * n - 2 - j) % n } else { j };
        out.walls
            .wall(ccw[j], ccw[(j + 1) % n], 0.0, height, window(side));
    }
    if let Some(window) = roof {
        roof_flat(&mut out.roof, &ccw, height, window);
    }
    out
}

/// The span `[lo, hi]` of panels (`None` without panels).
fn span(ps: &[Panel]) -> Option<[f64; 2]> {
    let lo = ps
        .iter()
        .map(|p| p.range[0].min(p.range[1]))
        .reduce(f64::min)?;
    let hi = ps
        .iter()
        .map(|p| p.range[0].max(p.range[1]))
        .reduce(f64::max)?;
    Some([lo, hi])
}

/// The texture window `[s0, t0, s1, t1]` of a type-1 facade's `ROOF`
/// points (their bounding box).
fn roof_window(fac: &Facade) -> Option<[f64; 4]> {
    let pts = &fac.lods.first()?.roof;
    let s0 = pts.iter().map(|p| p[0]).reduce(f64::min)?;
    let s1 = pts.iter().map(|p| p[0]).reduce(f64::max)?;
    let t0 = pts.iter().map(|p| p[1]).reduce(f64::min)?;
    let t1 = pts.iter().map(|p| p[1]).reduce(f64::max)?;
    Some([s0, t0, s1, t1])
}

/// A flat roof over `ring` at `top`, facing up, the texture window
/// stretched over its bounding box (or the texture tiled once per 10 m).
fn roof_flat(m: &mut Mesh, ring: &[Xy], top: f64, window: Option<[f64; 4]>) {
    let tris = mesh::triangulate(ring);
    if tris.is_empty() {
        return;
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in ring {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let size = [(hi[0] - lo[0]).max(1e-6), (hi[1] - lo[1]).max(1e-6)];
    m.flat(ring, &tris, top, Facing::Up, |k| {
        let p = ring[k];
        let f = [(p[0] - lo[0]) / size[0], (p[1] - lo[1]) / size[1]];
        match window {
            Some([s0, t0, s1, t1]) => [s0 + f[0] * (s1 - s0), t0 + f[1] * (t1 - t0)],
            None => [p[0] / 10.0, p[1] / 10.0],
        }
    });
}
