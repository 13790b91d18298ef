//! The geometry of a type-1 facade from its [`Layout`]: walls panel by
//! panel, floor by floor, and the roof over the inset footprint.
//!
//! Per side, the wall is a grid of quads: across, the runs of
//! [`panels::runs`] (left panels, each cycle of centre panels, right
//! panels), scaled together to fill the side; up, the bands of
//! [`floors::stack`] (bottom panels, each cycle of middle panels, top
//! panels, the leaning roof edge). The roof edge runs from the side's
//! foot line to the roof's inset line; its texture s is re-projected
//! along its bottom edge as xptools `BuildOnePanel` does, so a leaning
//! panel is not sheared. The roof is the footprint moved in by each
//! side's inset ([`roof::inset_ring`]), ear-clipped, with the texture
//! coordinates of [`roof::type1_uv`].
//!
//! Positions are local metres (x east, y north, z up); texture
//! coordinates are X-Plane's s, t. Each wall faces out of a ring (whatever
//! its winding), or to the right of a chain's direction; its texture reads
//! left to right seen from the front (agkit's choice: X-Plane draws the
//! front of a correctly wound facade, and WorldEditor notes that facades
//! wind clockwise).

use super::layout::{Layout, open};
use super::{Facade, floors, panels, roof};
use crate::geom::Xy;
use crate::geom::mesh::signed_area;

/// The most quads of one side (bands × runs); a side needing more is drawn
/// as one quad over its whole texture window.
pub const MAX_SIDE_QUADS: usize = 20_000;

/// Plain triangles: positions, texture coordinates, counter-clockwise
/// seen from the front.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Geometry {
    /// Positions, local metres (x east, y north, z up).
    pub positions: Vec<[f64; 3]>,
    /// Texture coordinates s, t.
    pub uvs: Vec<[f64; 2]>,
    /// Triangles (indices into both lists).
    pub triangles: Vec<[u32; 3]>,
}

impl Geometry {
    /// Adds a quad `[bottom-left, bottom-right, top-right, top-left]` seen
    /// from its front.
    pub fn quad(&mut self, p: [[f64; 3]; 4], uv: [[f64; 2]; 4]) {
        let n = self.positions.len() as u32;
        self.positions.extend(p);
        self.uvs.extend(uv);
        self.triangles.push([n, n + 1, n + 2]);
        self.triangles.push([n, n + 2, n + 3]);
    }
}

fn lerp(a: Xy, b: Xy, t: f64) -> Xy {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// The walls of a type-1 facade.
pub fn walls(fac: &Facade, ring: &[Xy], layout: &Layout) -> Geometry {
    let mut g = Geometry::default();
    let ring = open(ring);
    let Some(lod) = fac.lods.first() else {
        return g;
    };
    let floors = layout.floors.unwrap_or(0);
    let slant = fac.slant();
    let insets: Vec<f64> = layout.sides.iter().map(|s| s.inset).collect();
    let roof_ring = if layout.closed {
        roof::inset_ring(ring, &insets)
    } else {
        ring.to_vec()
    };
    // Seen from above, a counter-clockwise ring has its outside on the
    // right of each side; a chain faces right.
    let flip = layout.closed && signed_area(ring) < 0.0;
    let n = ring.len();
    for (i, side) in layout.sides.iter().enumerate() {
        let Some(wall) = lod.walls.get(side.wall) else {
            continue;
        };
        let (j, k) = (i, (i + 1) % n);
        // Left and right ends as seen from the front.
        let (a, b, ra, rb) = if flip {
            (ring[k], ring[j], roof_ring[k], roof_ring[j])
        } else {
            (ring[j], ring[k], roof_ring[j], roof_ring[k])
        };
        let count = side.panels.map_or(0, |p| p.total);
        // The roof edge is drawn whenever the facade has a roof (a chain
        // too, as `draw_facade` passes `has_roof`), so the walls reach the
        // height the layout measured.
        let bands = floors::stack(wall, floors, fac.has_roof(), slant, MAX_SIDE_QUADS);
        let runs = panels::runs(wall, count, MAX_SIDE_QUADS);
        let (bands, runs) = match (bands, runs) {
            (Some(bs), Some(rs)) if bs.len().saturating_mul(rs.len()) <= MAX_SIDE_QUADS => (bs, rs),
            _ => (
                one_band(wall, layout.height),
                one_run(wall).into_iter().collect(),
            ),
        };
        for band in &bands {
            for run in &runs {
                let bl = lerp(a, b, run.x[0]);
                let br = lerp(a, b, run.x[1]);
                let (tl, tr) = if band.leaning {
                    (lerp(ra, rb, run.x[0]), lerp(ra, rb, run.x[1]))
                } else {
                    (bl, br)
                };
                let p = [
                    [bl[0], bl[1], band.z[0]],
                    [br[0], br[1], band.z[0]],
                    [tr[0], tr[1], band.z[1]],
                    [tl[0], tl[1], band.z[1]],
                ];
                let s = if band.leaning {
                    reproject(&p, run.s)
                } else {
                    [run.s[0], run.s[1], run.s[1], run.s[0]]
                };
                let t = band.t;
                g.quad(p, [[s[0], t[0]], [s[1], t[0]], [s[2], t[1]], [s[3], t[1]]]);
            }
        }
    }
    g
}

/// The texture s of the four corners of a leaning quad: each corner
/// projected on the bottom edge, the extremes mapped to the run's ends
/// (`BuildOnePanel` with a roof).
fn reproject(p: &[[f64; 3]; 4], s: [f64; 2]) -> [f64; 4] {
    let basis = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]];
    let u: Vec<f64> = p
        .iter()
        .map(|c| c[0] * basis[0] + c[1] * basis[1] + c[2] * basis[2])
        .collect();
    let lo = u.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = u.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let f = |v: f64| {
        if hi > lo {
            s[0] + (s[1] - s[0]) * (v - lo) / (hi - lo)
        } else {
            s[0]
        }
    };
    [f(u[0]), f(u[1]), f(u[2]), f(u[3])]
}

/// One band over the wall's whole floor window, `height` tall.
fn one_band(wall: &super::Wall, height: f64) -> Vec<floors::Band> {
    let t0 = wall.up.first().map_or(0.0, |p| p.range[0]);
    let t1 = wall.up.last().map_or(1.0, |p| p.range[1]);
    vec![floors::Band {
        z: [0.0, height],
        t: [t0, t1],
        leaning: false,
    }]
}

/// One run over the wall's whole panel window.
fn one_run(wall: &super::Wall) -> Option<panels::Run> {
    let s0 = wall.across.first()?.range[0];
    let s1 = wall.across.last()?.range[1];
    Some(panels::Run {
        x: [0.0, 1.0],
        s: [s0, s1],
        panels: 1,
    })
}

/// The roof of a type-1 facade: the footprint moved in by the sides'
/// insets, at the drawn height, facing up. Empty without a roof.
pub fn roof(fac: &Facade, ring: &[Xy], layout: &Layout) -> Geometry {
    let mut g = Geometry::default();
    if !layout.roof {
        return g;
    }
    let ring = open(ring);
    let insets: Vec<f64> = layout.sides.iter().map(|s| s.inset).collect();
    let top = roof::inset_ring(ring, &insets);
    let tris = triangulate(&top);
    if tris.is_empty() {
        return g;
    }
    let uv = roof::type1_uv(fac, ring, &top);
    g.positions = top.iter().map(|p| [p[0], p[1], layout.height]).collect();
    g.uvs = if uv.len() == top.len() {
        uv
    } else {
        vec![[0.0, 0.0]; top.len()]
    };
    for t in tris.chunks_exact(3) {
        g.triangles.push(facing_up(&top, [t[0], t[1], t[2]]));
    }
    g
}

/// Triangle `t` of `ring` (indices) wound counter-clockwise seen from
/// above, so that it faces up: ear clipping gives its triangles one
/// winding whichever way the ring runs, so each is turned by its own area
/// (a regression: the roof of a clockwise ring faced down, unseen from
/// above by a client that culls back faces).
pub(crate) fn facing_up(ring: &[Xy], t: [usize; 3]) -> [u32; 3] {
    let [a, b, c] = t.map(|k| ring[k]);
    let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    let [i, j, k] = t.map(|k| k as u32);
    if cross >= 0.0 { [i, j, k] } else { [i, k, j] }
}

/// Triangles of a ring (indices into it) by ear clipping; empty for fewer
/// than three points or coordinates that are not finite.
pub fn triangulate(ring: &[Xy]) -> Vec<usize> {
    use geo::TriangulateEarcut;
    if ring.len() < 3 || ring.iter().flatten().any(|v| !v.is_finite()) {
        return Vec::new();
    }
    let poly = geo::Polygon::new(geo::LineString::from(ring.to_vec()), vec![]);
    let raw = poly.earcut_triangles_raw();
    // The earcut vertices are the ring's, in order, without a closing point.
    if raw.vertices.len() != ring.len() {
        return Vec::new();
    }
    raw.triangle_indices
}
