//! Polygon validity in near-linear time: simple rings that do not cross,
//! holes inside the outer ring and not inside one another.
//!
//! The rules are those of `geo`'s [`geo::Validation`] for polygons (and its
//! [`InvalidPolygon`] values name the problem), but the test is not
//! quadratic: `geo` compares every side of a ring with every other, which
//! takes seconds for a ring of 20,000 vertices and minutes for 200,000.
//! Here the sides of all rings go into an R-tree and only sides whose boxes
//! overlap are compared; containment is one ray cast per hole against the
//! sides of the rings around it. Every side compared and every side a ray
//! meets counts one unit of work against a budget (the `max_work` of
//! [`crate::limits::Limits`]), so a ring built to defeat the R-tree (long
//! sides all crossing one spot) is refused in bounded time, never waited
//! on.
//!
//! Edge cases, as `geo` has them:
//! - two sides of one ring that are not neighbours may not meet at all,
//!   not even touch (a ring through the same point twice is a
//!   self-intersection); neighbours may only share their vertex (a spike
//!   that doubles back along itself is a self-intersection);
//! - two rings may touch at points where neither crosses the other, never
//!   along a line;
//! - a hole must lie inside the outer ring, and outside every other hole;
//! - coordinates must be finite and rings must have 3 distinct vertices
//!   (the caller's ring is closed or not: the closing vertex is ignored).

use crate::limits::LimitExceeded;
use geo::algorithm::line_intersection::{LineIntersection, line_intersection};
use geo::kernels::{Kernel, RobustKernel};
use geo::validation::{InvalidPolygon, RingRole};
use geo::{Coord, Line, Orientation, Polygon};
use rstar::{AABB, RTree, RTreeObject};

/// Why a polygon is not valid, or could not be checked within the budget.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The polygon breaks a rule ([`InvalidPolygon`] says which and
    /// where).
    Invalid(InvalidPolygon),
    /// Checking it would take more work than the budget.
    Limit(LimitExceeded),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Invalid(e) => write!(f, "invalid polygon: {e}"),
            Problem::Limit(e) => write!(f, "too complex to check: {e}"),
        }
    }
}

/// One side of a ring.
#[derive(Debug, Clone, Copy)]
struct Side {
    a: Coord<f64>,
    b: Coord<f64>,
    ring: u32,
    index: u32,
}

impl RTreeObject for Side {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        AABB::from_corners([self.a.x, self.a.y], [self.b.x, self.b.y])
    }
}

/// A ring's box, for finding the holes around a point.
#[derive(Debug, Clone, Copy)]
struct RingBox {
    bounds: AABB<[f64; 2]>,
    ring: u32,
}

impl RTreeObject for RingBox {
    type Envelope = AABB<[f64; 2]>;
    fn envelope(&self) -> Self::Envelope {
        self.bounds
    }
}

/// Units of work spent, against a budget.
struct Work {
    spent: u64,
    max: u64,
}

impl Work {
    fn spend(&mut self, n: u64) -> Result<(), Problem> {
        self.spent += n;
        if self.spent > self.max {
            return Err(Problem::Limit(LimitExceeded {
                what: "work to check the polygon (sides compared)".into(),
                needed: self.spent,
                limit: self.max,
            }));
        }
        Ok(())
    }
}

/// Where a point lies with respect to a ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side3 {
    Inside,
    Outside,
    Boundary,
}

/// The rings of a polygon, open (no closing vertex), with their sides in
/// R-trees.
struct Rings {
    rings: Vec<Vec<Coord<f64>>>,
    /// The sides of each ring alone (for ray casts).
    trees: Vec<RTree<Side>>,
    bounds: Vec<AABB<[f64; 2]>>,
}

fn role(ring: u32) -> RingRole {
    match ring {
        0 => RingRole::Exterior,
        k => RingRole::Interior(k as usize - 1),
    }
}

/// Checks `poly` (see the module documentation), spending at most
/// `max_work` units. The first problem found is returned.
pub fn validate(poly: &Polygon<f64>, max_work: u64) -> Result<(), Problem> {
    let mut work = Work {
        spent: 0,
        max: max_work,
    };
    let mut rings = Vec::with_capacity(1 + poly.interiors().len());
    for (k, ring) in std::iter::once(poly.exterior())
        .chain(poly.interiors())
        .enumerate()
    {
        let mut pts: Vec<Coord<f64>> = ring.0.clone();
        if let Some(i) = pts
            .iter()
            .position(|c| !(c.x.is_finite() && c.y.is_finite()))
        {
            return Err(Problem::Invalid(InvalidPolygon::NonFiniteCoord(
                role(k as u32),
                geo::validation::CoordIndex(i),
            )));
        }
        pts.dedup();
        if pts.len() > 1 && pts.first() == pts.last() {
            pts.pop();
        }
        if pts.len() < 3 {
            return Err(Problem::Invalid(InvalidPolygon::TooFewPointsInRing(role(
                k as u32,
            ))));
        }
        rings.push(pts);
    }
    let sides_of = |k: usize, pts: &[Coord<f64>]| -> Vec<Side> {
        (0..pts.len())
            .map(|i| Side {
                a: pts[i],
                b: pts[(i + 1) % pts.len()],
                ring: k as u32,
                index: i as u32,
            })
            .collect()
    };
    let all: Vec<Side> = rings
        .iter()
        .enumerate()
        .flat_map(|(k, pts)| sides_of(k, pts))
        .collect();
    work.spend(all.len() as u64)?;
    let tree = RTree::bulk_load(all.clone());
    for s in &all {
        for t in tree.locate_in_envelope_intersecting(&s.envelope()) {
            work.spend(1)?;
            // Each pair once.
            if (t.ring, t.index) <= (s.ring, s.index) {
                continue;
            }
            if let Some(e) = meet(s, t, &rings) {
                return Err(Problem::Invalid(e));
            }
        }
    }
    drop(tree);
    let trees: Vec<RTree<Side>> = rings
        .iter()
        .enumerate()
        .map(|(k, pts)| RTree::bulk_load(sides_of(k, pts)))
        .collect();
    let bounds: Vec<AABB<[f64; 2]>> = rings
        .iter()
        .map(|pts| AABB::from_points(pts.iter().map(|c| [c.x, c.y]).collect::<Vec<_>>().iter()))
        .collect();
    let rings = Rings {
        rings,
        trees,
        bounds,
    };
    contained(&rings, &mut work)
}

/// The problem when sides `s` and `t` (of the same ring or not) meet in a
/// way the rules forbid.
fn meet(s: &Side, t: &Side, rings: &[Vec<Coord<f64>>]) -> Option<InvalidPolygon> {
    let hit = line_intersection(Line::new(s.a, s.b), Line::new(t.a, t.b))?;
    if s.ring == t.ring {
        let n = rings[s.ring as usize].len() as u32;
        let neighbours = (s.index + 1) % n == t.index || (t.index + 1) % n == s.index;
        let spike = matches!(hit, LineIntersection::Collinear { intersection } if intersection.start != intersection.end);
        return (!neighbours || spike).then_some(InvalidPolygon::SelfIntersection(role(s.ring)));
    }
    let (lo, hi) = (s.ring.min(t.ring), s.ring.max(t.ring));
    let crossing = |lo: u32, hi: u32| {
        if lo == 0 {
            InvalidPolygon::InteriorRingNotContainedInExteriorRing(role(hi))
        } else {
            InvalidPolygon::IntersectingRingsOnAnArea(role(lo), role(hi))
        }
    };
    match hit {
        LineIntersection::Collinear { intersection } if intersection.start != intersection.end => {
            Some(InvalidPolygon::IntersectingRingsOnALine(role(lo), role(hi)))
        }
        LineIntersection::Collinear { .. } => None,
        LineIntersection::SinglePoint {
            is_proper: true, ..
        } => Some(crossing(lo, hi)),
        LineIntersection::SinglePoint { intersection, .. } => {
            let p = touch_point(intersection, s, t);
            crosses_at(p, rays(p, s, rings), rays(p, t, rings)).then(|| crossing(lo, hi))
        }
    }
}

/// The vertex where two sides touch (an end of one of them), snapped from
/// the computed point.
fn touch_point(at: Coord<f64>, s: &Side, t: &Side) -> Coord<f64> {
    [s.a, s.b, t.a, t.b]
        .into_iter()
        .min_by(|p, q| {
            let d = |c: &Coord<f64>| (c.x - at.x).hypot(c.y - at.y);
            d(p).total_cmp(&d(q))
        })
        .unwrap_or(at)
}

/// The two directions a ring leaves `p` in, `p` lying on side `s`: to the
/// neighbouring vertices when `p` is a vertex of the ring, else along the
/// side both ways.
fn rays(p: Coord<f64>, s: &Side, rings: &[Vec<Coord<f64>>]) -> [Coord<f64>; 2] {
    let ring = &rings[s.ring as usize];
    let n = ring.len();
    let i = s.index as usize;
    let (before, after) = if p == s.a {
        (ring[(i + n - 1) % n], s.b)
    } else if p == s.b {
        (s.a, ring[(i + 2) % n])
    } else {
        (s.a, s.b)
    };
    [before - p, after - p]
}

/// True when, at a point where two rings touch, one passes from one side of
/// the other to the other side: exactly one of `q`'s directions lies
/// strictly inside the angle swept counter-clockwise from `r[0]` to `r[1]`
/// and the other strictly outside it. A direction along one of `r`'s is a
/// shared side, which the collinear test reports.
fn crosses_at(_p: Coord<f64>, r: [Coord<f64>; 2], q: [Coord<f64>; 2]) -> bool {
    let angle = |v: Coord<f64>| v.y.atan2(v.x);
    let tau = std::f64::consts::TAU;
    let from = angle(r[0]);
    let sweep = (angle(r[1]) - from).rem_euclid(tau);
    let place = |v: Coord<f64>| {
        let a = (angle(v) - from).rem_euclid(tau);
        if a == 0.0 || a == sweep {
            None
        } else {
            Some(a < sweep)
        }
    };
    match (place(q[0]), place(q[1])) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// Every hole inside the outer ring and outside the other holes.
fn contained(r: &Rings, work: &mut Work) -> Result<(), Problem> {
    if r.rings.len() < 2 {
        return Ok(());
    }
    let boxes = RTree::bulk_load(
        (1..r.rings.len())
            .map(|k| RingBox {
                bounds: r.bounds[k],
                ring: k as u32,
            })
            .collect(),
    );
    for h in 1..r.rings.len() {
        // A vertex of the hole off the outer ring (rings that do not cross
        // are wholly on one side of each other).
        let mut at = None;
        for &p in &r.rings[h] {
            match locate(r, 0, p, work)? {
                Side3::Boundary => continue,
                side => {
                    at = Some((p, side));
                    break;
                }
            }
        }
        let Some((p, side)) = at else {
            continue; // every vertex on the outer ring: a shared side, reported before
        };
        if side == Side3::Outside {
            return Err(Problem::Invalid(
                InvalidPolygon::InteriorRingNotContainedInExteriorRing(role(h as u32)),
            ));
        }
        for other in boxes.locate_in_envelope_intersecting(&AABB::from_point([p.x, p.y])) {
            work.spend(1)?;
            let k = other.ring as usize;
            if k != h && locate(r, k, p, work)? == Side3::Inside {
                let (lo, hi) = (h.min(k) as u32, h.max(k) as u32);
                return Err(Problem::Invalid(InvalidPolygon::IntersectingRingsOnAnArea(
                    role(lo),
                    role(hi),
                )));
            }
        }
    }
    Ok(())
}

/// Where `p` lies with respect to ring `k`: a ray cast towards +x against
/// the sides whose boxes meet the ray (even-odd, half-open in y).
fn locate(r: &Rings, k: usize, p: Coord<f64>, work: &mut Work) -> Result<Side3, Problem> {
    let right = r.bounds[k].upper()[0].max(p.x);
    let ray = AABB::from_corners([p.x, p.y], [right, p.y]);
    let mut inside = false;
    for s in r.trees[k].locate_in_envelope_intersecting(&ray) {
        work.spend(1)?;
        let o = RobustKernel::orient2d(s.a, s.b, p);
        if o == Orientation::Collinear
            && (s.a.x.min(s.b.x)..=s.a.x.max(s.b.x)).contains(&p.x)
            && (s.a.y.min(s.b.y)..=s.a.y.max(s.b.y)).contains(&p.y)
        {
            return Ok(Side3::Boundary);
        }
        let up = s.a.y <= p.y && p.y < s.b.y;
        let down = s.b.y <= p.y && p.y < s.a.y;
        if (up && o == Orientation::CounterClockwise) || (down && o == Orientation::Clockwise) {
            inside = !inside;
        }
    }
    Ok(if inside {
        Side3::Inside
    } else {
        Side3::Outside
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use geo::{LineString, Validation};

    fn poly(rings: &[&[(f64, f64)]]) -> Polygon<f64> {
        let mut ls: Vec<LineString<f64>> =
            rings.iter().map(|r| LineString::from(r.to_vec())).collect();
        let ext = ls.remove(0);
        Polygon::new(ext, ls)
    }

    const SQUARE: &[(f64, f64)] = &[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];

    #[test]
    fn agrees_with_geo_on_the_classic_cases() {
        let cases: Vec<(&str, Polygon<f64>)> = vec![
            ("square", poly(&[SQUARE])),
            (
                "bow tie",
                poly(&[&[(0.0, 0.0), (10.0, 10.0), (10.0, 0.0), (0.0, 10.0)]]),
            ),
            (
                "hole inside",
                poly(&[SQUARE, &[(2.0, 2.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0)]]),
            ),
            (
                "hole outside",
                poly(&[
                    SQUARE,
                    &[(12.0, 2.0), (14.0, 2.0), (14.0, 4.0), (12.0, 4.0)],
                ]),
            ),
            (
                "hole crossing the outer ring",
                poly(&[SQUARE, &[(8.0, 2.0), (12.0, 2.0), (12.0, 4.0), (8.0, 4.0)]]),
            ),
            (
                "hole touching the outer ring at a vertex",
                poly(&[SQUARE, &[(0.0, 5.0), (2.0, 4.0), (2.0, 6.0)]]),
            ),
            (
                "hole sharing a side with the outer ring",
                poly(&[SQUARE, &[(0.0, 2.0), (2.0, 2.0), (2.0, 4.0), (0.0, 4.0)]]),
            ),
            (
                "two holes crossing",
                poly(&[
                    SQUARE,
                    &[(2.0, 2.0), (5.0, 2.0), (5.0, 5.0), (2.0, 5.0)],
                    &[(4.0, 4.0), (7.0, 4.0), (7.0, 7.0), (4.0, 7.0)],
                ]),
            ),
            (
                "a hole inside a hole",
                poly(&[
                    SQUARE,
                    &[(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)],
                    &[(4.0, 4.0), (6.0, 4.0), (6.0, 6.0), (4.0, 6.0)],
                ]),
            ),
            (
                "two holes touching at a corner",
                poly(&[
                    SQUARE,
                    &[(2.0, 2.0), (5.0, 2.0), (5.0, 5.0), (2.0, 5.0)],
                    &[(5.0, 5.0), (7.0, 5.0), (7.0, 7.0), (5.0, 7.0)],
                ]),
            ),
            (
                "a ring through one point twice",
                poly(&[&[
                    (0.0, 0.0),
                    (4.0, 0.0),
                    (2.0, 2.0),
                    (4.0, 4.0),
                    (0.0, 4.0),
                    (2.0, 2.0),
                ]]),
            ),
        ];
        for (name, p) in cases {
            let ours = validate(&p, u64::MAX).err();
            let theirs = p.validation_errors().into_iter().next();
            assert_eq!(
                ours.as_ref().map(|e| e.to_string()),
                theirs.map(|e| format!("invalid polygon: {e}")),
                "{name}"
            );
        }
    }

    #[test]
    fn a_spike_doubling_back_is_a_self_intersection() {
        let p = poly(&[&[
            (0.0, 0.0),
            (10.0, 0.0),
            (10.0, 10.0),
            (10.0, 15.0),
            (10.0, 12.0),
            (0.0, 10.0),
        ]]);
        assert_eq!(
            validate(&p, u64::MAX),
            Err(Problem::Invalid(InvalidPolygon::SelfIntersection(
                RingRole::Exterior
            )))
        );
    }

    /// A ring of `n` vertices (a star when `inner` < 100) and holes in a
    /// grid.
    fn star(n: usize, inner: f64, holes: usize) -> Polygon<f64> {
        let ring: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                let r = if i % 2 == 0 { 100.0 } else { inner };
                (r * a.cos(), r * a.sin())
            })
            .collect();
        let k = (holes as f64).sqrt().ceil() as usize;
        let s = 120.0 / k.max(1) as f64;
        let mut hs = Vec::new();
        for i in 0..holes {
            let (x, y) = (-60.0 + (i / k) as f64 * s, -60.0 + (i % k) as f64 * s);
            let h = s * 0.3;
            hs.push(LineString::from(vec![
                (x, y),
                (x + h, y),
                (x + h, y + h),
                (x, y + h),
            ]));
        }
        Polygon::new(LineString::from(ring), hs)
    }

    #[test]
    fn work_grows_near_linearly() {
        // Quadratic checking would spend n² / 2 units; this stays within a
        // small multiple of n.
        for n in [1_000usize, 10_000, 200_000] {
            let p = star(n, 100.0, 0);
            assert_eq!(validate(&p, 20 * n as u64), Ok(()), "{n} vertices");
        }
        // Spikes 3 % deep: a side's box meets those of the sides near it.
        let p = star(40_000, 97.0, 0);
        assert_eq!(validate(&p, 10_000_000), Ok(()), "a star of 40,000");
        let p = star(100, 100.0, 22_500);
        assert_eq!(validate(&p, 20 * 22_500 * 4), Ok(()), "22,500 holes");
    }

    #[test]
    fn a_ring_defeating_the_tree_is_refused_within_the_budget() {
        // A fan of long spikes: simple, but the boxes of the sides of one
        // quadrant all overlap.
        let n = 4_000;
        let ring: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * i as f64 / n as f64;
                let r = if i % 2 == 0 { 100.0 } else { 1.0 };
                (r * a.cos(), r * a.sin())
            })
            .collect();
        let p = poly(&[&ring]);
        match validate(&p, 100_000) {
            Err(Problem::Limit(l)) => assert_eq!(l.limit, 100_000),
            other => panic!("{other:?}"),
        }
        assert_eq!(validate(&p, u64::MAX), Ok(()), "and it is valid");
    }
}
