//! Helpers shared by the DSF integration tests (`tests/dsf.rs`,
//! `tests/dsf_build.rs`).

// Each test binary uses only some of them.
#![allow(dead_code)]

use agkit::dsf::{Dsf, Entity, Patch, PrimitiveKind};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
}

pub fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// The triangles of a patch, in order, each as its three vertices' values
/// (so that splitting a long primitive does not change them).
pub fn triangles(p: &Patch) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    for pr in &p.primitives {
        let v: Vec<&[f64]> = pr.vertices.chunks_exact(p.depth).collect();
        let tri = |a: &[f64], b: &[f64], c: &[f64]| [a, b, c].concat();
        match pr.kind {
            PrimitiveKind::Triangles => {
                out.extend(v.chunks_exact(3).map(|t| tri(t[0], t[1], t[2])))
            }
            PrimitiveKind::Strip => {
                for i in 0..v.len().saturating_sub(2) {
                    out.push(if i % 2 == 0 {
                        tri(v[i], v[i + 1], v[i + 2])
                    } else {
                        tri(v[i + 1], v[i], v[i + 2])
                    });
                }
            }
            PrimitiveKind::Fan => {
                for i in 1..v.len().saturating_sub(1) {
                    out.push(tri(v[0], v[i], v[i + 1]));
                }
            }
        }
    }
    out
}

/// Half a step of the coarsest plane `plane` among `pools`' pools of
/// `depth` planes (16-bit, or 32-bit with `wide`; lon and lat over every
/// 16-bit pool): the most a value of that plane may move when quantised.
pub fn half_step(pools: &Dsf, depth: usize, plane: usize, wide: bool) -> f64 {
    let (list, max) = if wide {
        (&pools.pools32, 4_294_967_295.0)
    } else {
        (&pools.pools, 65535.0)
    };
    list.iter()
        .filter(|p| p.depth() == depth || (plane < 2 && !wide && p.depth() >= 2))
        .map(|p| f64::from(p.planes[plane].scale) / max / 2.0)
        .fold(0.0, f64::max)
        * 1.000_001
}

/// Asserts that `b` (a tile read back, or its text read back) holds `a`'s
/// entities in order: lon/lat within `deg` degrees (by default half a
/// step of `pools`), every other value within half a step of `pools`'
/// planes, plus DSF2Text's rounding (headings 3 decimals, object
/// elevations 5, the rest 9; a relative 1e-15 for huge values); patches
/// triangle by triangle.
pub fn assert_same_within(a: &Dsf, b: &Dsf, pools: &Dsf, deg: Option<f64>) {
    let slack = |v: f64, decimals: f64| decimals + v.abs() * 1e-15;
    let check = |u: &[f64], v: &[f64], depth: usize| {
        for (k, (x, y)) in u.iter().zip(v).enumerate() {
            let plane = k % depth;
            let tol = match deg {
                Some(d) if plane < 2 => d,
                _ => half_step(pools, depth, plane, false) + slack(*x, 5e-10),
            };
            assert!(
                close(*x, *y, tol),
                "{x} {y} (plane {plane} of {depth}, tol {tol})"
            );
        }
    };
    assert_eq!(a.entities.len(), b.entities.len());
    for (x, y) in a.entities.iter().zip(&b.entities) {
        match (x, y) {
            (Entity::Filter(p), Entity::Filter(q)) => assert_eq!(p, q),
            (Entity::Object(p), Entity::Object(q)) => {
                assert_eq!((p.def, p.mode), (q.def, q.mode));
                let d = if p.elevation.is_some() { 4 } else { 3 };
                check(&[p.lon, p.lat], &[q.lon, q.lat], d);
                let dh = (p.heading - q.heading).rem_euclid(360.0);
                assert!(
                    dh.min(360.0 - dh) <= 360.0 / 65535.0 / 2.0 + 5e-4,
                    "{p:?} {q:?}"
                );
                if let (Some(e), Some(f)) = (p.elevation, q.elevation) {
                    let tol = half_step(pools, 4, 3, false) + slack(e, 5e-6);
                    assert!(close(e, f, tol), "{p:?} {q:?}");
                }
            }
            (Entity::Polygon(p), Entity::Polygon(q)) => {
                assert_eq!((p.def, p.param, p.depth), (q.def, q.param, q.depth));
                assert_eq!(p.windings.len(), q.windings.len());
                for (w, v) in p.windings.iter().zip(&q.windings) {
                    assert_eq!(w.len(), v.len());
                    check(w, v, p.depth);
                }
            }
            (Entity::Patch(p), Entity::Patch(q)) => {
                assert_eq!((p.def, p.flags, p.depth), (q.def, q.flags, q.depth));
                assert_eq!((p.lod_near, p.lod_far), (q.lod_near, q.lod_far));
                let (s, t) = (triangles(p), triangles(q));
                assert_eq!(s.len(), t.len());
                for (u, v) in s.iter().zip(&t) {
                    check(u, v, p.depth);
                }
            }
            (Entity::Network(p), Entity::Network(q)) => {
                assert_eq!((p.def, p.subtype, p.depth), (q.def, q.subtype, q.depth));
                assert_eq!(p.points.len(), q.points.len());
                for (u, v) in p.points().zip(q.points()) {
                    for k in 0..p.depth {
                        let tol = if k == 3 {
                            0.0
                        } else {
                            half_step(pools, p.depth, k, true) + slack(u[k], 5e-10)
                        };
                        assert!(close(u[k], v[k], tol), "{} {} (plane {k})", u[k], v[k]);
                    }
                }
            }
            _ => panic!("entity kinds differ: {x:?} / {y:?}"),
        }
    }
}
