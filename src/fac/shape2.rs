//! The geometry of a type-2 facade from its [`Layout`]: each side built of
//! its spelling's segment meshes, and a flat roof at the floor's roof
//! height.
//!
//! As xptools `draw_facade` (`WED_FacadePreview.cpp`) lays them: a
//! segment's meshes are moved so that they end at z = 0 (`GetFac`:
//! `xyz[z] -= xyz_max[2]`), run along −z from the side's start, x pointing
//! out of the wall and y up; segments follow one another, each as wide as
//! its meshes reach along z, and the whole row is stretched along the side
//! so that it fills it (`glScalef(1, 1, seg_length / total)`). The roof's
//! texture coordinates are metres in the frame of the first side, from its
//! middle, divided by `ROOF_SCALE`.
//!
//! Not built (listed in `docs/art.md`): the mitred corners WorldEditor
//! shears the first and last segments into, curved segments
//! (`SEGMENT_CURVED`), attached objects and roof objects, and roofs below
//! the top one.

use super::layout::{Layout, open};
use super::shape::{Geometry, triangulate};
use super::{Facade, Floor};
use crate::geom::Xy;
use crate::geom::mesh::signed_area;

/// The most triangles one facade's walls take; segments past it are left
/// out.
pub const MAX_TRIANGLES: usize = 2_000_000;

/// The segment's z range (its meshes together).
fn z_range(floor: &Floor, seg: usize) -> Option<[f64; 2]> {
    let s = floor.segments.get(seg)?;
    let lo = s
        .meshes
        .iter()
        .filter_map(|m| m.bounds.map(|b| b.min[2]))
        .reduce(f64::min)?;
    let hi = s
        .meshes
        .iter()
        .filter_map(|m| m.bounds.map(|b| b.max[2]))
        .reduce(f64::max)?;
    Some([lo, hi])
}

/// The walls of a type-2 facade.
pub fn walls(fac: &Facade, ring: &[Xy], layout: &Layout) -> Geometry {
    let mut g = Geometry::default();
    let ring = open(ring);
    let Some(floor) = layout.floor.and_then(|k| fac.floors.get(k)) else {
        return g;
    };
    let flip = layout.closed && signed_area(ring) < 0.0;
    let n = ring.len();
    for (i, side) in layout.sides.iter().enumerate() {
        let Some(segs) = &side.segments else { continue };
        let (j, k) = (i, (i + 1) % n);
        let (a, b) = if flip {
            (ring[k], ring[j])
        } else {
            (ring[j], ring[k])
        };
        let d = [b[0] - a[0], b[1] - a[1]];
        let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
        if len == 0.0 || !len.is_finite() {
            continue;
        }
        let dir = [d[0] / len, d[1] / len];
        // Out of the wall: the right of the direction.
        let out = [dir[1], -dir[0]];
        let stretch = side.stretch;
        let mut at = 0.0;
        for &seg in segs {
            let Some([_, zmax]) = z_range(floor, seg) else {
                continue;
            };
            let width = z_range(floor, seg).map_or(0.0, |r| r[1] - r[0]);
            for m in &floor.segments[seg].meshes {
                if g.triangles.len() + m.idx.len() / 3 > MAX_TRIANGLES {
                    return g;
                }
                let base = g.positions.len() as u32;
                for (p, uv) in m.positions.iter().zip(&m.uvs) {
                    let along = (at + (zmax - p[2])) * stretch;
                    g.positions.push([
                        a[0] + dir[0] * along + out[0] * p[0],
                        a[1] + dir[1] * along + out[1] * p[0],
                        p[1],
                    ]);
                    g.uvs.push(*uv);
                }
                let nv = m.positions.len() as u32;
                for t in m.idx.chunks_exact(3) {
                    // X-Plane winds fronts clockwise; the mesh
                    // counter-clockwise (the frame change keeps turning).
                    if t.iter().all(|&v| v < nv) {
                        g.triangles.push([base + t[0], base + t[2], base + t[1]]);
                    }
                }
            }
            at += width;
        }
    }
    g
}

/// The roof of a type-2 facade: flat over the footprint at the drawn
/// height. Empty without a roof.
pub fn roof(fac: &Facade, ring: &[Xy], layout: &Layout) -> Geometry {
    let mut g = Geometry::default();
    let ring = open(ring);
    if !layout.roof || ring.len() < 3 {
        return g;
    }
    let tris = triangulate(ring);
    if tris.is_empty() {
        return g;
    }
    let [ss, st] = fac.roof_scale.unwrap_or([1.0, 1.0]);
    let (a, b) = (ring[0], ring[1]);
    let d = [b[0] - a[0], b[1] - a[1]];
    let l = (d[0] * d[0] + d[1] * d[1]).sqrt().max(f64::MIN_POSITIVE);
    let dir = [d[0] / l, d[1] / l];
    let perp = [dir[1], -dir[0]];
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let div = |v: f64, s: f64| if s != 0.0 { v / s } else { v };
    for p in ring {
        let q = [p[0] - mid[0], p[1] - mid[1]];
        g.positions.push([p[0], p[1], layout.height]);
        g.uvs.push([
            div(q[0] * dir[0] + q[1] * dir[1], ss),
            div(q[0] * perp[0] + q[1] * perp[1], st),
        ]);
    }
    for t in tris.chunks_exact(3) {
        g.triangles
            .push(super::shape::facing_up(ring, [t[0], t[1], t[2]]));
    }
    g
}
