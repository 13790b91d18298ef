//! Stop points: where a tile may go.
//!
//! A tile may be placed only where every one of its `STOP_PT`s lies inside
//! the polygon (inside the outer winding and outside every hole) and where
//! it covers no stop point of a tile placed before it. Both tests are
//! indexed with an R-tree so that a check costs `O(log n)` on a polygon of
//! `n` vertices: the polygon's segments for point-in-polygon (a ray cast
//! cast to the nearest side of the bounding box, visiting only the segments
//! near the ray), the placed stop
//! points for coverage. Tile footprints use `geo`'s `Contains` (a point on
//! a tile's outline is not covered).

use crate::geom::Xy;
use geo::{Contains, Coord, LineString, Point, Polygon};
use rstar::primitives::{GeomWithData, Line, Rectangle};
use rstar::{AABB, RTree};

/// The polygon with holes, indexed for point-in-polygon tests.
pub struct Region {
    segments: RTree<Line<[f64; 2]>>,
    min: Xy,
    max: Xy,
}

impl Region {
    /// Indexes every winding (implicitly closed).
    pub fn new(windings: &[Vec<Xy>]) -> Region {
        let mut segs = Vec::new();
        let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for w in windings {
            let n = w.len();
            for i in 0..n {
                let (a, b) = (w[i], w[(i + 1) % n]);
                if a != b {
                    segs.push(Line::new(a, b));
                }
                for k in 0..2 {
                    min[k] = min[k].min(a[k]);
                    max[k] = max[k].max(a[k]);
                }
            }
        }
        Region {
            segments: RTree::bulk_load(segs),
            min,
            max,
        }
    }

    /// The bounding box `(min, max)`.
    pub fn bbox(&self) -> (Xy, Xy) {
        (self.min, self.max)
    }

    /// Whether `p` lies inside the polygon (even–odd over all windings: in
    /// the outer ring and in no hole). Points exactly on an edge count as
    /// outside.
    pub fn contains(&self, p: Xy) -> bool {
        if !(p[0] >= self.min[0]
            && p[0] <= self.max[0]
            && p[1] >= self.min[1]
            && p[1] <= self.max[1])
        {
            return false;
        }
        // Cast the ray towards the nearest side of the bounding box: it
        // then meets the fewest R-tree nodes.
        let d = [
            self.max[0] - p[0],
            p[0] - self.min[0],
            self.max[1] - p[1],
            p[1] - self.min[1],
        ];
        let dir = (0..4).min_by(|&a, &b| d[a].total_cmp(&d[b])).unwrap_or(0);
        let end = match dir {
            0 => [self.max[0] + 1.0, p[1]],
            1 => [self.min[0] - 1.0, p[1]],
            2 => [p[0], self.max[1] + 1.0],
            _ => [p[0], self.min[1] - 1.0],
        };
        // Work in a frame where the ray points along +x: swap axes for
        // vertical rays, negate for rays towards -x / -y.
        let (axis, sign) = (usize::from(dir >= 2), if dir % 2 == 0 { 1.0 } else { -1.0 });
        let t = |q: Xy| [sign * q[axis], q[1 - axis]];
        let pt = t(p);
        let ray = AABB::from_corners(p, end);
        let mut inside = false;
        for seg in self.segments.locate_in_envelope_intersecting(&ray) {
            let (a, b) = (seg.from, seg.to);
            // On the edge: outside.
            let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
            if cross == 0.0
                && p[0] >= a[0].min(b[0])
                && p[0] <= a[0].max(b[0])
                && p[1] >= a[1].min(b[1])
                && p[1] <= a[1].max(b[1])
            {
                return false;
            }
            let (a, b) = (t(a), t(b));
            if (a[1] > pt[1]) != (b[1] > pt[1]) {
                let x = a[0] + (pt[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if x > pt[0] {
                    inside = !inside;
                }
            }
        }
        inside
    }
}

/// A tile footprint (counter-clockwise outline in local metres).
pub fn footprint(poly: &[Xy]) -> Polygon<f64> {
    Polygon::new(
        LineString::from(
            poly.iter()
                .map(|p| Coord { x: p[0], y: p[1] })
                .collect::<Vec<_>>(),
        ),
        vec![],
    )
}

fn envelope(poly: &[Xy]) -> AABB<[f64; 2]> {
    let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in poly {
        for k in 0..2 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    AABB::from_corners(min, max)
}

/// The stop points of the tiles placed so far.
#[derive(Default)]
pub struct StopIndex {
    tree: RTree<[f64; 2]>,
}

impl StopIndex {
    /// Records placed stop points.
    pub fn insert(&mut self, pts: &[Xy]) {
        for &p in pts {
            self.tree.insert(p);
        }
    }

    /// The first recorded stop point strictly inside the footprint `poly`.
    pub fn covered_by(&self, poly: &[Xy]) -> Option<Xy> {
        let env = envelope(poly);
        let mut hits = self.tree.locate_in_envelope(&env).peekable();
        hits.peek()?;
        let fp = footprint(poly);
        hits.find(|p| fp.contains(&Point::new(p[0], p[1]))).copied()
    }
}

/// Every placed tile footprint, indexed (built once all tiles are placed).
pub struct TileIndex {
    tree: RTree<GeomWithData<Rectangle<[f64; 2]>, usize>>,
    polys: Vec<Polygon<f64>>,
}

impl TileIndex {
    /// Indexes the outlines.
    pub fn new<'a>(outlines: impl Iterator<Item = &'a [Xy]>) -> TileIndex {
        let mut items = Vec::new();
        let mut polys = Vec::new();
        for (i, o) in outlines.enumerate() {
            let env = envelope(o);
            items.push(GeomWithData::new(
                Rectangle::from_corners(env.lower(), env.upper()),
                i,
            ));
            polys.push(footprint(o));
        }
        TileIndex {
            tree: RTree::bulk_load(items),
            polys,
        }
    }

    /// Whether a tile covers `p` (its interior or outline).
    pub fn covers(&self, p: Xy) -> bool {
        let pt = Point::new(p[0], p[1]);
        self.tree
            .locate_all_at_point(&p)
            .any(|r| geo::Intersects::intersects(&self.polys[r.data], &pt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_with_hole() {
        let outer = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let hole = vec![[4.0, 4.0], [4.0, 6.0], [6.0, 6.0], [6.0, 4.0]];
        let r = Region::new(&[outer, hole]);
        assert!(r.contains([1.0, 1.0]));
        assert!(r.contains([5.0, 8.0]));
        assert!(!r.contains([5.0, 5.0]));
        assert!(!r.contains([11.0, 5.0]));
        assert!(!r.contains([10.0, 5.0]));
        assert!(!r.contains([4.0, 5.0]));
        // A ray through a vertex is counted once.
        assert!(r.contains([2.0, 4.0]));
        assert!(r.contains([2.0, 6.0]));
        // Rays in all four directions agree with geo.
        use geo::Contains;
        let g = geo::Polygon::new(
            footprint(&[[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
                .exterior()
                .clone(),
            vec![
                footprint(&[[4.0, 4.0], [4.0, 6.0], [6.0, 6.0], [6.0, 4.0]])
                    .exterior()
                    .clone(),
            ],
        );
        for i in 0..=40 {
            for j in 0..=40 {
                let p = [i as f64 * 0.25 + 0.01, j as f64 * 0.25 + 0.02];
                assert_eq!(r.contains(p), g.contains(&Point::new(p[0], p[1])), "{p:?}");
            }
        }
    }

    #[test]
    fn stop_cover() {
        let mut s = StopIndex::default();
        s.insert(&[[1.0, 1.0], [5.0, 5.0]]);
        let sq = [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        assert_eq!(s.covered_by(&sq), Some([1.0, 1.0]));
        let edge = [[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]];
        assert_eq!(s.covered_by(&edge), None);
        let t = TileIndex::new([&sq[..]].into_iter());
        assert!(t.covers([0.5, 1.5]));
        assert!(!t.covers([2.5, 1.5]));
    }
}
