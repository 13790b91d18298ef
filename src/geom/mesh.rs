//! One plain mesh type for everything agkit builds in three dimensions: a
//! facade's walls and roof, an object's static triangles, a tree's card.
//!
//! The builders beside their formats ([`crate::fac::build`],
//! [`crate::obj::mesh`], [`crate::forest::mesh`]) make [`Mesh`]es; the
//! views only draw them, each turning the mesh into its own frame (the
//! glTF writer: y up, v down from the image's top).
//!
//! **Frame.** Local metres, right-handed: x east, y north, z up. Texture
//! coordinates are X-Plane's s, t: 0 … 1 across the texture, the origin at
//! its bottom left. A triangle's front is the side from which its corners
//! run counter-clockwise (for a building, the outside).

use super::Xy;

/// Triangles with texture coordinates, in local metres (x east, y north,
/// z up).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub positions: Vec<[f64; 3]>,
    /// Texture coordinates as X-Plane's s, t (origin at the texture's
    /// bottom left), one per position.
    pub uvs: Vec<[f64; 2]>,
    /// Unit normals, one per position (the art's own where it gives them,
    /// else the face's).
    pub normals: Vec<[f64; 3]>,
    /// Three indices into [`Mesh::positions`] a triangle, counter-clockwise
    /// seen from its front.
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// True when it holds no triangle.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// A mesh of `triangles` over `positions` and their texture
    /// coordinates `uvs` (as many), each vertex's normal the sum of its
    /// triangles' (weighted by area). Triangles naming a vertex past the
    /// positions are left out.
    pub fn smooth(positions: &[[f64; 3]], uvs: &[[f64; 2]], triangles: &[[u32; 3]]) -> Mesh {
        let n = positions.len().min(uvs.len());
        let kept: Vec<[u32; 3]> = triangles
            .iter()
            .filter(|t| t.iter().all(|&i| (i as usize) < n))
            .copied()
            .collect();
        let mut normals = vec![[0.0f64; 3]; n];
        for t in &kept {
            let [a, b, c] = t.map(|i| positions[i as usize]);
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let cross = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            for &i in t {
                let sum = &mut normals[i as usize];
                *sum = [sum[0] + cross[0], sum[1] + cross[1], sum[2] + cross[2]];
            }
        }
        let mut m = Mesh::default();
        for ((p, nrm), st) in positions.iter().zip(&normals).zip(uvs) {
            m.vertex(*p, *nrm, *st);
        }
        m.triangles = kept;
        m
    }

    /// The outline of its triangles as one ring: the indices of the
    /// vertices along the edges that only one triangle uses, in the order
    /// the triangles run them (counter-clockwise seen from their front).
    /// `None` unless those edges make exactly one ring: a mesh of several
    /// pieces, with a hole, or whose triangles disagree on their winding.
    /// A roof or a tile seen from above is this ring.
    pub fn outline(&self) -> Option<Vec<u32>> {
        use std::collections::HashMap;
        // Each undirected edge: how many triangles use it, and its
        // direction in the last one.
        let mut edges: HashMap<(u32, u32), (u32, (u32, u32))> = HashMap::new();
        for t in &self.triangles {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                let e = edges.entry((a.min(b), a.max(b))).or_insert((0, (a, b)));
                e.0 += 1;
                e.1 = (a, b);
            }
        }
        let mut next: HashMap<u32, u32> = HashMap::new();
        for (n, (a, b)) in edges.into_values() {
            // A vertex starting two outline edges: not one simple ring.
            if n == 1 && next.insert(a, b).is_some() {
                return None;
            }
        }
        let start = *next.keys().min()?;
        let mut ring = vec![start];
        let mut at = next[&start];
        while at != start {
            if ring.len() >= next.len() {
                return None;
            }
            ring.push(at);
            at = *next.get(&at)?;
        }
        (ring.len() == next.len() && ring.len() >= 3).then_some(ring)
    }

    /// Adds a vertex with the normal `n` (made of length 1; straight up
    /// when it has no length); its index.
    pub fn vertex(&mut self, p: [f64; 3], n: [f64; 3], st: [f64; 2]) -> u32 {
        let i = self.positions.len() as u32;
        self.positions.push(p);
        self.normals.push(unit(n));
        self.uvs.push(st);
        i
    }

    /// Adds a planar quad `a b c d`, counter-clockwise seen from its
    /// front, as two triangles with the texture coordinates given; its
    /// normal is the quad's own (Newell's), so it agrees with the winding.
    pub fn quad(&mut self, corners: [[f64; 3]; 4], st: [[f64; 2]; 4]) {
        let n = newell(&corners);
        let i: Vec<u32> = (0..4).map(|k| self.vertex(corners[k], n, st[k])).collect();
        self.triangles.push([i[0], i[1], i[2]]);
        self.triangles.push([i[0], i[2], i[3]]);
    }

    /// Adds the triangles `tris` (indices into `points`, three a triangle)
    /// of a horizontal polygon at height `z`, facing up or down, each wound
    /// counter-clockwise seen from that side whatever order the
    /// triangulation gave it; `st_of` gives a point's texture coordinates.
    /// Every point becomes a vertex.
    pub fn flat(
        &mut self,
        points: &[Xy],
        tris: &[usize],
        z: f64,
        facing: Facing,
        st_of: impl Fn(usize) -> [f64; 2],
    ) {
        let up = facing == Facing::Up;
        let n = if up {
            [0.0, 0.0, 1.0]
        } else {
            [0.0, 0.0, -1.0]
        };
        let base = self.positions.len() as u32;
        for (k, p) in points.iter().enumerate() {
            self.vertex([p[0], p[1], z], n, st_of(k));
        }
        for t in tris.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]];
            if a.max(b).max(c) >= points.len() {
                continue;
            }
            let (pa, pb, pc) = (points[a], points[b], points[c]);
            let area = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (pb[1] - pa[1]);
            let [a, b, c] = [a as u32, b as u32, c as u32].map(|k| base + k);
            if (area > 0.0) == up {
                self.triangles.push([a, b, c]);
            } else {
                self.triangles.push([a, c, b]);
            }
        }
    }

    /// Adds a vertical wall quad along the side `a → b` from height
    /// `bottom` to `top`, its front on the right of the side (outward on a
    /// counter-clockwise ring), spanning the texture window `[s0, t0, s1,
    /// t1]`. A side shorter than a micrometre adds nothing.
    pub fn wall(&mut self, a: Xy, b: Xy, bottom: f64, top: f64, window: [f64; 4]) {
        let d = [b[0] - a[0], b[1] - a[1]];
        if d[0].hypot(d[1]) < 1e-6 {
            return;
        }
        let [s0, t0, s1, t1] = window;
        self.quad(
            [
                [a[0], a[1], bottom],
                [b[0], b[1], bottom],
                [b[0], b[1], top],
                [a[0], a[1], top],
            ],
            [[s0, t0], [s1, t0], [s1, t1], [s0, t1]],
        );
    }
}

/// Which way a flat polygon faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    /// Its front seen from above.
    Up,
    /// Its front seen from below.
    Down,
}

/// The whole texture as a window `[s0, t0, s1, t1]`.
pub const WHOLE: [f64; 4] = [0.0, 0.0, 1.0, 1.0];

/// `ring` without a last point repeating the first.
pub fn open(ring: &[Xy]) -> Vec<Xy> {
    let mut v = ring.to_vec();
    if v.len() > 1 && v.first() == v.last() {
        v.pop();
    }
    v
}

/// Triangles of a ring (indices into it, three a triangle), by ear
/// clipping; empty when it has fewer than three points, a value that is
/// not finite, or no area.
pub fn triangulate(ring: &[Xy]) -> Vec<usize> {
    use geo::TriangulateEarcut;
    let ring = open(ring);
    if ring.len() < 3 || ring.iter().flatten().any(|v| !v.is_finite()) {
        return Vec::new();
    }
    let poly = geo::Polygon::new(geo::LineString::from(ring.clone()), vec![]);
    let raw = poly.earcut_triangles_raw();
    // The earcut vertices are the ring's, in order, without its closing point.
    if raw.vertices.len() != ring.len() {
        return Vec::new();
    }
    raw.triangle_indices
}

/// Triangles of a polygon with holes: `rings` is its outer ring then its
/// holes (each open or closed, either way round). Returns the points
/// triangulated (the outer ring's, then each hole's, without closing
/// points) and the triangles (indices into them, three a triangle), by
/// ear clipping; nothing when the outer ring has fewer than three points
/// or a value that is not finite. Holes with fewer than three points or a
/// value that is not finite are left out.
pub fn triangulate_rings(rings: &[Vec<Xy>]) -> (Vec<Xy>, Vec<usize>) {
    use geo::TriangulateEarcut;
    let ok = |r: &Vec<Xy>| r.len() >= 3 && r.iter().flatten().all(|v| v.is_finite());
    let rings: Vec<Vec<Xy>> = rings.iter().map(|r| open(r)).collect();
    let Some(outer) = rings.first().filter(|r| ok(r)) else {
        return (Vec::new(), Vec::new());
    };
    let holes: Vec<geo::LineString> = rings[1..]
        .iter()
        .filter(|r| ok(r))
        .map(|r| geo::LineString::from(r.clone()))
        .collect();
    let poly = geo::Polygon::new(geo::LineString::from(outer.clone()), holes);
    let raw = poly.earcut_triangles_raw();
    (raw.vertices, raw.triangle_indices)
}

/// Twice the signed area of `ring` (positive counter-clockwise).
pub fn signed_area(ring: &[Xy]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|k| {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// `n` scaled to length 1 (straight up when it has no length).
fn unit(n: [f64; 3]) -> [f64; 3] {
    let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if l.is_finite() && l > 1e-9 {
        n.map(|v| v / l)
    } else {
        [0.0, 0.0, 1.0]
    }
}

/// The normal of a polygon's corners by Newell's method (its front where
/// they run counter-clockwise), not normalised.
fn newell(p: &[[f64; 3]]) -> [f64; 3] {
    let mut n = [0.0; 3];
    for (k, a) in p.iter().enumerate() {
        let b = p[(k + 1) % p.len()];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mesh of `triangles` over points numbered as given.
    fn tris(triangles: &[[u32; 3]]) -> Mesh {
        Mesh {
            triangles: triangles.to_vec(),
            ..Mesh::default()
        }
    }

    #[test]
    fn the_outline_runs_the_outer_edges_once_in_the_triangles_order() {
        // A square 0 1 2 3 (counter-clockwise) as two triangles.
        assert_eq!(
            tris(&[[0, 1, 2], [0, 2, 3]]).outline(),
            Some(vec![0, 1, 2, 3])
        );
        // An L of four triangles over six corners, numbered out of order.
        let l = tris(&[[5, 0, 1], [5, 1, 2], [5, 2, 3], [5, 3, 4]]);
        assert_eq!(l.outline(), Some(vec![0, 1, 2, 3, 4, 5]));
        // Wound the other way, the ring runs the other way.
        assert_eq!(
            tris(&[[0, 2, 1], [0, 3, 2]]).outline(),
            Some(vec![0, 3, 2, 1])
        );
    }

    #[test]
    fn no_outline_for_pieces_holes_disagreeing_windings_or_nothing() {
        assert_eq!(tris(&[]).outline(), None);
        // Two triangles apart.
        assert_eq!(tris(&[[0, 1, 2], [3, 4, 5]]).outline(), None);
        // Two triangles touching at one corner.
        assert_eq!(tris(&[[0, 1, 2], [0, 3, 4]]).outline(), None);
        // A square ring 0-3 around a square hole 4-7: eight triangles.
        let holed = tris(&[
            [0, 1, 5],
            [0, 5, 4],
            [1, 2, 6],
            [1, 6, 5],
            [2, 3, 7],
            [2, 7, 6],
            [3, 0, 4],
            [3, 4, 7],
        ]);
        assert_eq!(holed.outline(), None);
        // The second triangle wound against the first: their shared edge
        // runs the same way in both and is still inner, but the outline
        // edges no longer chain.
        assert_eq!(tris(&[[0, 1, 2], [0, 3, 2]]).outline(), None);
    }

    #[test]
    fn walls_of_a_counter_clockwise_ring_face_out() {
        let mut m = Mesh::default();
        m.wall([0.0, 0.0], [10.0, 0.0], 0.0, 3.0, WHOLE);
        // The side runs east: its right is south.
        let n = m.normals[0];
        assert!(n[1] < 0.0 && n[0].abs() < 1e-12 && n[2].abs() < 1e-12);
        assert_eq!(m.triangles.len(), 2);
        m.wall([0.0, 0.0], [0.0, 0.0], 0.0, 3.0, WHOLE);
        assert_eq!(m.triangles.len(), 2, "a side without length adds nothing");
    }

    #[test]
    fn flat_polygons_wind_toward_the_side_they_face() {
        let sq = [[0.0, 0.0], [0.0, 4.0], [4.0, 4.0], [4.0, 0.0]];
        for facing in [Facing::Up, Facing::Down] {
            let mut m = Mesh::default();
            m.flat(&sq, &triangulate(&sq), 2.0, facing, |_| [0.0, 0.0]);
            assert_eq!(m.triangles.len(), 2);
            for t in &m.triangles {
                let [a, b, c] = t.map(|i| m.positions[i as usize]);
                let z = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
                assert_eq!(z > 0.0, facing == Facing::Up);
            }
        }
    }
}
