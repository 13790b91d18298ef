//! Stop points: where a tile may go.
//!
//! A tile may be placed only where every one of its `STOP_PT`s lies inside
//! the polygon (inside the outer winding and outside every hole) and where
//! it covers no stop point of a tile placed before it. Both tests are
//! indexed so that a check costs about `O(1)`–`O(log n)` on a polygon of
//! `n` vertices: point-in-polygon uses a uniform grid of cells that each
//! list the ring segments near them and know whether their centre is
//! inside ([`Region::locate`]; a point only looks at the segments of its
//! own cell), tile clipping an R-tree of the segments, and coverage an
//! R-tree of the placed stop points. Tile footprints use `geo`'s
//! `Contains` (a point on a tile's outline is not covered).

use crate::geom::Xy;
use geo::{Area, BooleanOps, Contains, Coord, LineString, MultiPolygon, Point, Polygon};
use rstar::primitives::{GeomWithData, Line, Rectangle};
use rstar::{AABB, RTree};
use std::collections::{BTreeSet, HashMap};

/// A ring segment: ring number and the index of its start vertex.
type Seg = GeomWithData<Line<[f64; 2]>, (usize, usize)>;

/// The polygon with holes, indexed for point-in-polygon tests and for
/// clipping tiles ([`Region::clip`]).
pub struct Region {
    segments: RTree<Seg>,
    rings: Vec<Vec<Xy>>,
    min: Xy,
    max: Xy,
    grid: Grid,
    /// Ring segments visited by ray casts and cuts since the last
    /// [`Region::take_work`].
    work: std::cell::Cell<u64>,
}

impl Region {
    /// Indexes every winding (implicitly closed).
    pub fn new(windings: &[Vec<Xy>]) -> Region {
        let mut segs = Vec::new();
        let (mut min, mut max) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for (r, w) in windings.iter().enumerate() {
            let n = w.len();
            for i in 0..n {
                let (a, b) = (w[i], w[(i + 1) % n]);
                if a != b {
                    segs.push(GeomWithData::new(Line::new(a, b), (r, i)));
                }
                for k in 0..2 {
                    min[k] = min[k].min(a[k]);
                    max[k] = max[k].max(a[k]);
                }
            }
        }
        let grid = Grid::new(
            segs.iter().map(|s| [s.geom().from, s.geom().to]).collect(),
            min,
            max,
        );
        Region {
            segments: RTree::bulk_load(segs),
            rings: windings.to_vec(),
            min,
            max,
            grid,
            work: std::cell::Cell::new(0),
        }
    }

    /// The ring segments visited by ray casts ([`Region::locate`]'s
    /// fallback) and cuts ([`Region::clip`]) since the last call: the work
    /// a caller charges to its budget.
    pub fn take_work(&self) -> u64 {
        self.work.take()
    }

    fn add_work(&self, n: usize) {
        self.work.set(self.work.get().saturating_add(n as u64));
    }

    /// The bounding box `(min, max)`.
    pub fn bbox(&self) -> (Xy, Xy) {
        (self.min, self.max)
    }

    /// Whether `p` lies inside the polygon (even–odd over all windings: in
    /// the outer ring and in no hole). Points exactly on an edge count as
    /// outside.
    pub fn contains(&self, p: Xy) -> bool {
        self.locate(p) == Some(true)
    }

    /// Where `p` lies: `Some(true)` inside (even–odd over all windings),
    /// `Some(false)` outside, `None` exactly on an edge.
    ///
    /// The answer comes from the grid cell of `p`: the state of the cell's
    /// centre flipped once for every ring segment the straight line from
    /// `p` to the centre crosses. Only the segments listed for the cell can
    /// cross it, so the cost does not grow with the polygon. Where that is
    /// too close to call (`p` within a hair of a segment, or the line
    /// through a vertex, or a crowded cell), the answer comes from a ray
    /// cast instead, which is exact on the edges.
    pub fn locate(&self, p: Xy) -> Option<bool> {
        if !(p[0] >= self.min[0]
            && p[0] <= self.max[0]
            && p[1] >= self.min[1]
            && p[1] <= self.max[1])
        {
            return Some(false);
        }
        match self.grid.locate(p) {
            Some(inside) => Some(inside),
            None => self.locate_by_ray(p),
        }
    }

    /// [`Region::locate`] by a ray cast: every ring segment whose envelope
    /// meets a ray from `p` to the nearest side of the bounding box is
    /// visited (on a comb-like polygon that is `O(√n)` of them).
    fn locate_by_ray(&self, p: Xy) -> Option<bool> {
        if !(p[0] >= self.min[0]
            && p[0] <= self.max[0]
            && p[1] >= self.min[1]
            && p[1] <= self.max[1])
        {
            return Some(false);
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
        let mut visited = 0;
        for seg in self.segments.locate_in_envelope_intersecting(&ray) {
            visited += 1;
            let (a, b) = (seg.geom().from, seg.geom().to);
            // On the edge: outside.
            let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
            if cross == 0.0
                && p[0] >= a[0].min(b[0])
                && p[0] <= a[0].max(b[0])
                && p[1] >= a[1].min(b[1])
                && p[1] <= a[1].max(b[1])
            {
                self.add_work(visited);
                return None;
            }
            let (a, b) = (t(a), t(b));
            if (a[1] > pt[1]) != (b[1] > pt[1]) {
                let x = a[0] + (pt[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if x > pt[0] {
                    inside = !inside;
                }
            }
        }
        self.add_work(visited);
        Some(inside)
    }
}

/// Cells listing more segments than this are left to the ray cast.
const CROWDED: usize = 64;
/// [`Grid::state`] of a cell whose centre is outside.
const OUT: u8 = 0;
/// [`Grid::state`] of a cell whose centre is inside.
const IN: u8 = 1;
/// [`Grid::state`] of a cell the grid does not answer for.
const UNKNOWN: u8 = 2;

/// A uniform grid over the bounding box of the rings, about one cell per
/// segment. Each cell lists the segments that come within [`Grid::near`]
/// of it and knows the even–odd state of its centre.
struct Grid {
    min: Xy,
    /// The side of a (square) cell.
    size: f64,
    /// Columns and rows; `[0, 0]` when the grid answers nothing.
    dims: [usize; 2],
    /// Where each cell's list starts in `lists` (one more than cells).
    starts: Vec<u32>,
    /// The cells' segment lists, as indices into `segs`.
    lists: Vec<u32>,
    segs: Vec<[Xy; 2]>,
    /// [`IN`], [`OUT`] or [`UNKNOWN`] per cell (row-major).
    state: Vec<u8>,
    /// Points closer than this to a segment are left to the ray cast
    /// (far beyond the rounding of either method).
    near: f64,
}

impl Grid {
    fn new(segs: Vec<[Xy; 2]>, min: Xy, max: Xy) -> Grid {
        let scale = [min[0], min[1], max[0], max[1]]
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let near = 1e-9 * (1.0 + scale);
        let mut grid = Grid {
            min,
            size: 1.0,
            dims: [0, 0],
            starts: Vec::new(),
            lists: Vec::new(),
            segs,
            state: Vec::new(),
            near,
        };
        let (w, h) = (max[0] - min[0], max[1] - min[1]);
        let n = grid.segs.len();
        let finite = grid
            .segs
            .iter()
            .all(|s| s.iter().all(|p| p[0].is_finite() && p[1].is_finite()));
        // Cell lists longer than this in all (long slanted segments cross
        // many cells) are not worth it: the ray cast answers everything.
        let budget = 32 * n + 4096;
        if n == 0 || !finite || u32::try_from(2 * budget).is_err() {
            return grid;
        }
        // About one cell per segment: at most (w/s + 1)(h/s + 1) <= 3n + 1.
        let size = (w * h / n as f64)
            .sqrt()
            .max(w.max(h) / n as f64)
            .max(64.0 * near);
        grid.size = size;
        grid.dims = [(w / size) as usize + 1, (h / size) as usize + 1];
        let cells = grid.dims[0] * grid.dims[1];
        // Segment lists (counted, then filled).
        let margin = 2.0 * near;
        let mut starts = vec![0u32; cells + 1];
        let mut total = 0usize;
        for s in &grid.segs {
            grid.each_cell(s[0], s[1], margin, |c| {
                starts[c + 1] += 1;
                total += 1;
            });
            if total > budget {
                grid.dims = [0, 0];
                return grid;
            }
        }
        for c in 0..cells {
            starts[c + 1] += starts[c];
        }
        let mut fill = starts.clone();
        let mut lists = vec![0u32; starts[cells] as usize];
        for (k, s) in grid.segs.iter().enumerate() {
            grid.each_cell(s[0], s[1], margin, |c| {
                lists[fill[c] as usize] = k as u32;
                fill[c] += 1;
            });
        }
        grid.starts = starts;
        grid.lists = lists;
        // The centres' states: a ray along +x from every centre of a row,
        // counting the crossings of the row's centre line as the ray cast
        // does (half-open in y).
        let rows = grid.dims[1];
        let mut xs: Vec<Vec<f64>> = vec![Vec::new(); rows];
        for &[a, b] in &grid.segs {
            if a[1] == b[1] {
                continue;
            }
            let (lo, hi) = (a[1].min(b[1]), a[1].max(b[1]));
            let j0 = ((lo - min[1]) / size - 1.5).max(0.0) as usize;
            let j1 = (((hi - min[1]) / size + 0.5).max(0.0) as usize).min(rows - 1);
            for (j, row) in xs.iter_mut().enumerate().take(j1 + 1).skip(j0) {
                let y = grid.centre(0, j)[1];
                if (a[1] > y) != (b[1] > y) {
                    row.push(a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]));
                }
            }
        }
        let mut state = vec![UNKNOWN; cells];
        for (j, row) in xs.iter_mut().enumerate() {
            row.sort_unstable_by(f64::total_cmp);
            for i in 0..grid.dims[0] {
                let c = j * grid.dims[0] + i;
                let r = grid.centre(i, j);
                let list = grid.list(c);
                if list.len() > CROWDED
                    || list.iter().any(|&k| grid.close(r, grid.segs[k as usize]))
                {
                    continue;
                }
                let right = row.len() - row.partition_point(|&x| x <= r[0]);
                state[c] = if right % 2 == 1 { IN } else { OUT };
            }
        }
        grid.state = state;
        grid
    }

    /// The centre of cell `(i, j)`.
    fn centre(&self, i: usize, j: usize) -> Xy {
        [
            self.min[0] + (i as f64 + 0.5) * self.size,
            self.min[1] + (j as f64 + 0.5) * self.size,
        ]
    }

    /// The segments listed for cell `c`.
    fn list(&self, c: usize) -> &[u32] {
        &self.lists[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// Calls `f` with every cell that segment `a → b` comes within `m` of
    /// (and maybe a few more).
    fn each_cell(&self, a: Xy, b: Xy, m: f64, mut f: impl FnMut(usize)) {
        let s = self.size;
        let index = |v: f64, k: usize| {
            (((v - self.min[k]) / s).floor().max(0.0) as usize).min(self.dims[k] - 1)
        };
        let (lo, hi) = (a[1].min(b[1]) - m, a[1].max(b[1]) + m);
        for j in index(lo, 1)..=index(hi, 1) {
            // The part of the segment in the row's band (widened by m).
            let (x0, x1) = if a[1] == b[1] {
                (a[0].min(b[0]), a[0].max(b[0]))
            } else {
                let band = [
                    self.min[1] + j as f64 * s - m,
                    self.min[1] + (j + 1) as f64 * s + m,
                ];
                let [xa, xb] = band.map(|y| {
                    let t = ((y - a[1]) / (b[1] - a[1])).clamp(0.0, 1.0);
                    a[0] + t * (b[0] - a[0])
                });
                (xa.min(xb), xa.max(xb))
            };
            for i in index(x0 - m, 0)..=index(x1 + m, 0) {
                f(j * self.dims[0] + i);
            }
        }
    }

    /// Whether `p` lies within [`Grid::near`] of segment `s`.
    fn close(&self, p: Xy, [a, b]: [Xy; 2]) -> bool {
        let m = self.near;
        if p[0] < a[0].min(b[0]) - m
            || p[0] > a[0].max(b[0]) + m
            || p[1] < a[1].min(b[1]) - m
            || p[1] > a[1].max(b[1]) + m
        {
            return false;
        }
        let d = [b[0] - a[0], b[1] - a[1]];
        let len2 = d[0] * d[0] + d[1] * d[1];
        let t = (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0);
        let q = lerp(a, b, t);
        let e = [p[0] - q[0], p[1] - q[1]];
        let d2 = e[0] * e[0] + e[1] * e[1];
        // A NaN (a segment too short to square) counts as close.
        d2.is_nan() || d2 <= m * m
    }

    /// The even–odd state of `p` (inside the bounding box), or `None` when
    /// the grid cannot tell it reliably.
    fn locate(&self, p: Xy) -> Option<bool> {
        if self.dims[0] == 0 {
            return None;
        }
        let index =
            |k: usize| (((p[k] - self.min[k]) / self.size).max(0.0) as usize).min(self.dims[k] - 1);
        let (i, j) = (index(0), index(1));
        let c = j * self.dims[0] + i;
        let mut inside = match self.state[c] {
            IN => true,
            OUT => false,
            _ => return None,
        };
        let r = self.centre(i, j);
        let (lo, hi) = (
            [p[0].min(r[0]), p[1].min(r[1])],
            [p[0].max(r[0]), p[1].max(r[1])],
        );
        for &k in self.list(c) {
            let s @ [a, b] = self.segs[k as usize];
            if self.close(p, s) {
                return None;
            }
            if a[0].max(b[0]) < lo[0]
                || a[0].min(b[0]) > hi[0]
                || a[1].max(b[1]) < lo[1]
                || a[1].min(b[1]) > hi[1]
            {
                continue;
            }
            // Both p and r are clear of the segment; the line p → r crosses
            // it when a and b lie on either side of the line and p and r on
            // either side of the segment's line.
            if turn(p, r, a)? == turn(p, r, b)? {
                continue;
            }
            if turn(a, b, p)? != turn(a, b, r)? {
                inside = !inside;
            }
        }
        Some(inside)
    }
}

/// Whether `o → a → b` turns left (`true`) or right, or `None` when it is
/// too close to straight to tell under rounding.
fn turn(o: Xy, a: Xy, b: Xy) -> Option<bool> {
    let (l, r) = ((a[0] - o[0]) * (b[1] - o[1]), (a[1] - o[1]) * (b[0] - o[0]));
    let d = l - r;
    (d.abs() > 1e-10 * (l.abs() + r.abs())).then_some(d > 0.0)
}

/// What is left of a tile cut at the polygon's rings ([`Region::clip`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Clipped {
    /// All of the tile is inside the polygon.
    Whole,
    /// Only this part is (the largest piece, counter-clockwise, no closing
    /// vertex).
    Part(Vec<Xy>),
    /// None of it is.
    Outside,
}

/// Parameter tolerance of the segment clips.
const T_EPS: f64 = 1e-9;
/// Distance in metres below which a point counts as on a tile's outline.
const ON_EDGE: f64 = 1e-9;
/// Relative area below which a cut changes nothing / leaves nothing.
const AREA_EPS: f64 = 1e-6;

/// An axis-aligned window a tile is clipped in.
struct Window {
    min: Xy,
    max: Xy,
}

impl Window {
    fn size(&self) -> [f64; 2] {
        [self.max[0] - self.min[0], self.max[1] - self.min[1]]
    }

    /// The part `[t0, t1]` of segment `a → b` inside the window
    /// (Liang–Barsky), when it has a length.
    fn clip(&self, a: Xy, b: Xy) -> Option<(f64, f64)> {
        let d = [b[0] - a[0], b[1] - a[1]];
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for k in 0..2 {
            for (p, q) in [(-d[k], a[k] - self.min[k]), (d[k], self.max[k] - a[k])] {
                if p == 0.0 {
                    if q < 0.0 {
                        return None;
                    }
                } else {
                    let r = q / p;
                    if p < 0.0 {
                        t0 = t0.max(r);
                    } else {
                        t1 = t1.min(r);
                    }
                }
            }
        }
        (t1 - t0 > T_EPS).then_some((t0, t1))
    }

    /// Position of a boundary point along the outline, counter-clockwise
    /// from the lower-left corner.
    fn param(&self, p: Xy) -> f64 {
        let [w, h] = self.size();
        let d = [
            p[1] - self.min[1],
            self.max[0] - p[0],
            self.max[1] - p[1],
            p[0] - self.min[0],
        ];
        let side = (0..4).min_by(|&a, &b| d[a].total_cmp(&d[b])).unwrap_or(0);
        match side {
            0 => (p[0] - self.min[0]).clamp(0.0, w),
            1 => w + (p[1] - self.min[1]).clamp(0.0, h),
            2 => w + h + (self.max[0] - p[0]).clamp(0.0, w),
            _ => 2.0 * w + h + (self.max[1] - p[1]).clamp(0.0, h),
        }
    }

    /// The corners counter-clockwise with their outline positions.
    fn corners(&self) -> [(f64, Xy); 4] {
        let [w, h] = self.size();
        [
            (0.0, self.min),
            (w, [self.max[0], self.min[1]]),
            (w + h, self.max),
            (2.0 * w + h, [self.min[0], self.max[1]]),
        ]
    }
}

/// A run of a ring inside a window.
struct Path {
    pts: Vec<Xy>,
    entry: f64,
    exit: f64,
}

fn lerp(a: Xy, b: Xy, t: f64) -> Xy {
    [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
}

fn cross(o: Xy, a: Xy, b: Xy) -> f64 {
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
}

/// Whether the counter-clockwise outline `poly` is convex.
fn convex(poly: &[Xy]) -> bool {
    let n = poly.len();
    n >= 3 && (0..n).all(|i| cross(poly[i], poly[(i + 1) % n], poly[(i + 2) % n]) >= 0.0)
}

/// Whether segment `a → b` passes strictly through the interior of the
/// convex counter-clockwise outline `poly` (Cyrus–Beck; running along an
/// edge or touching a vertex does not count).
fn enters(poly: &[Xy], a: Xy, b: Xy) -> bool {
    let n = poly.len();
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let fa = cross(p, q, a);
        let fb = cross(p, q, b);
        if fa < 0.0 && fb < 0.0 {
            return false;
        }
        if fa < 0.0 {
            t0 = t0.max(fa / (fa - fb));
        } else if fb < 0.0 {
            t1 = t1.min(fa / (fa - fb));
        }
    }
    if t1 - t0 <= T_EPS {
        return false;
    }
    let m = lerp(a, b, (t0 + t1) / 2.0);
    (0..n).all(|i| {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let len = ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt();
        cross(p, q, m) > ON_EDGE * len
    })
}

impl Region {
    /// Cuts a tile outline (counter-clockwise) at the polygon: what lies in
    /// the outer ring and outside every hole.
    ///
    /// Only the ring segments near the tile are visited (an R-tree query of
    /// a window around it), so a cut costs `O(log n + k)` for `k` segments
    /// near the tile: the runs of the rings inside the window are joined
    /// along the window's outline into the polygon's part in the window
    /// (the rings keep the polygon on their left), which `geo`'s boolean
    /// intersection then cuts the tile with.
    pub fn clip(&self, tile: &[Xy]) -> Clipped {
        if tile.len() < 3 {
            return Clipped::Outside;
        }
        let env = envelope(tile);
        let (lo, hi) = (env.lower(), env.upper());
        // An odd margin, so that ring vertices rarely fall on the window.
        let m = 0.2371 + 1e-3 * ((hi[0] - lo[0]) + (hi[1] - lo[1]));
        let win = Window {
            min: [lo[0] - m, lo[1] - m],
            max: [hi[0] + m, hi[1] + m],
        };
        let query = AABB::from_corners(win.min, win.max);
        let mut hits: HashMap<(usize, usize), (f64, f64)> = HashMap::new();
        let mut visited = 0;
        for seg in self.segments.locate_in_envelope_intersecting(&query) {
            visited += 1;
            let l = seg.geom();
            if let Some(t) = win.clip(l.from, l.to) {
                hits.insert(seg.data, t);
            }
        }
        self.add_work(visited);
        let inner = |p: Xy| match self.locate(p) {
            Some(false) => Clipped::Outside,
            _ => Clipped::Whole,
        };
        if hits.is_empty() {
            return inner(tile[0]);
        }
        if convex(tile)
            && !hits.keys().any(|&(r, i)| {
                let ring = &self.rings[r];
                enters(tile, ring[i], ring[(i + 1) % ring.len()])
            })
        {
            // The rings only touch the tile: it is all in or all out.
            let n = tile.len() as f64;
            let c = tile
                .iter()
                .fold([0.0, 0.0], |s, p| [s[0] + p[0] / n, s[1] + p[1] / n]);
            return inner(c);
        }
        let local = self.local(&win, &hits);
        let fp = footprint(tile);
        let area = fp.unsigned_area();
        let cut = fp.intersection(&local);
        let left = cut.unsigned_area();
        if left >= area * (1.0 - AREA_EPS) {
            return Clipped::Whole;
        }
        let Some(best) = cut
            .0
            .into_iter()
            .map(|p| (p.unsigned_area(), p))
            .filter(|(a, _)| *a > area * AREA_EPS)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, p)| p)
        else {
            return Clipped::Outside;
        };
        let mut ring: Vec<Xy> = best.exterior().coords().map(|c| [c.x, c.y]).collect();
        if ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
        }
        if footprint(&ring).signed_area() < 0.0 {
            ring.reverse();
        }
        // Undo the rounding of the boolean operation at the tile's corners.
        for v in &mut ring {
            if let Some(t) = tile
                .iter()
                .find(|t| (t[0] - v[0]).abs() <= 1e-7 && (t[1] - v[1]).abs() <= 1e-7)
            {
                *v = *t;
            }
        }
        Clipped::Part(ring)
    }

    /// The polygon's part inside `win`, from the ring segments `hits`
    /// (ring, segment → parameter range inside the window).
    fn local(&self, win: &Window, hits: &HashMap<(usize, usize), (f64, f64)>) -> MultiPolygon<f64> {
        let next = |(r, i): (usize, usize)| (r, (i + 1) % self.rings[r].len());
        let prev = |(r, i): (usize, usize)| {
            let n = self.rings[r].len();
            (r, (i + n - 1) % n)
        };
        // Whether the run goes on from segment `h` into the next one.
        let goes_on = |h: (usize, usize)| {
            hits[&h].1 >= 1.0 - T_EPS && hits.get(&next(h)).is_some_and(|t| t.0 <= T_EPS)
        };
        let point = |(r, i): (usize, usize), t: f64| {
            let ring = &self.rings[r];
            lerp(ring[i], ring[(i + 1) % ring.len()], t)
        };
        let mut keys: Vec<(usize, usize)> = hits.keys().copied().collect();
        keys.sort_unstable();
        let mut seen: HashMap<(usize, usize), ()> = HashMap::with_capacity(keys.len());
        let mut paths = Vec::new();
        for &h in &keys {
            if hits.contains_key(&prev(h)) && goes_on(prev(h)) {
                continue;
            }
            let mut pts = vec![point(h, hits[&h].0)];
            let mut cur = h;
            loop {
                seen.insert(cur, ());
                pts.push(point(cur, hits[&cur].1));
                if !goes_on(cur) || seen.contains_key(&next(cur)) {
                    break;
                }
                cur = next(cur);
            }
            let (entry, exit) = (win.param(pts[0]), win.param(pts[pts.len() - 1]));
            paths.push(Path { pts, entry, exit });
        }
        // Runs that never leave the window: whole rings.
        let mut closed: Vec<Vec<Xy>> = Vec::new();
        for &h in &keys {
            if seen.contains_key(&h) {
                continue;
            }
            let mut pts = Vec::new();
            let mut cur = h;
            while !seen.contains_key(&cur) {
                seen.insert(cur, ());
                pts.push(point(cur, hits[&cur].1));
                cur = next(cur);
                if !hits.contains_key(&cur) {
                    break;
                }
            }
            if pts.len() >= 3 {
                closed.push(pts);
            }
        }
        // Join the runs along the window's outline, counter-clockwise from
        // each exit to the nearest entry.
        let [w, h] = win.size();
        let per = 2.0 * (w + h);
        let corners = win.corners();
        let mut outers: Vec<Vec<Xy>> = Vec::new();
        // The paths not yet joined, by entry (positions along the outline
        // are never negative, so their bits sort as they do): the nearest
        // entry after an exit is a range query, and joining all the runs
        // costs O(p log p), however many cross the window.
        let key = |t: f64| (t + 0.0).to_bits();
        let mut unused: BTreeSet<(u64, usize)> = (paths.iter().enumerate())
            .map(|(j, p)| (key(p.entry), j))
            .collect();
        for start in 0..paths.len() {
            if !unused.remove(&(key(paths[start].entry), start)) {
                continue;
            }
            let mut ring: Vec<Xy> = Vec::new();
            let mut cur = start;
            // Each turn joins one more path, or closes the ring.
            loop {
                ring.extend_from_slice(&paths[cur].pts);
                let e = paths[cur].exit;
                let dist = |j: usize| (paths[j].entry - e).rem_euclid(per);
                let next = (unused.range((key(e), 0)..).next())
                    .or_else(|| unused.iter().next())
                    .map(|&(_, j)| j);
                // The nearest entry, the lower index on a tie; the ring's
                // own start counts.
                let j = match next {
                    Some(n) if dist(n) < dist(start) || (dist(n) == dist(start) && n < start) => n,
                    _ => start,
                };
                let d = dist(j);
                let mut between: Vec<(f64, Xy)> = corners
                    .iter()
                    .map(|&(s, c)| ((s - e).rem_euclid(per), c))
                    .filter(|&(dc, _)| dc > 0.0 && dc < d)
                    .collect();
                between.sort_by(|a, b| a.0.total_cmp(&b.0));
                ring.extend(between.into_iter().map(|(_, c)| c));
                if j == start {
                    break;
                }
                unused.remove(&(key(paths[j].entry), j));
                cur = j;
            }
            outers.push(ring);
        }
        let mut holes = Vec::new();
        for c in closed {
            if footprint(&c).signed_area() > 0.0 {
                outers.push(c);
            } else {
                holes.push(c);
            }
        }
        if paths.is_empty() && outers.is_empty() {
            // No run crosses the window: it lies in the polygon (around
            // the holes) or outside it.
            let inside = corners
                .iter()
                .find_map(|&(_, c)| self.locate(c))
                .unwrap_or(false);
            if inside {
                outers.push(corners.iter().map(|&(_, c)| c).collect());
            }
        }
        let mut polys: Vec<(Polygon<f64>, Vec<LineString<f64>>)> =
            outers.iter().map(|o| (footprint(o), Vec::new())).collect();
        // A hole lies in the polygon and in the window, so in one of its
        // pieces here: the only one when there is one.
        let single = polys.len() == 1;
        for hole in holes {
            let p = Point::new(hole[0][0], hole[0][1]);
            if let Some((_, hs)) = polys.iter_mut().find(|(o, _)| single || o.contains(&p)) {
                hs.push(footprint(&hole).exterior().clone());
            }
        }
        MultiPolygon::new(
            polys
                .into_iter()
                .map(|(o, hs)| Polygon::new(o.exterior().clone(), hs))
                .collect(),
        )
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

    fn area(c: &Clipped, tile: &[Xy]) -> f64 {
        match c {
            Clipped::Whole => footprint(tile).unsigned_area(),
            Clipped::Part(r) => footprint(r).unsigned_area(),
            Clipped::Outside => 0.0,
        }
    }

    #[test]
    fn clip_at_holes_and_the_outer_ring() {
        let outer = vec![[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]];
        let hole = vec![[4.0, 4.0], [4.0, 6.0], [6.0, 6.0], [6.0, 4.0]];
        let r = Region::new(&[hole, outer]);
        let rect =
            |x0: f64, y0: f64, x1: f64, y1: f64| vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        // On the outer ring's edge, inside: whole.
        assert_eq!(r.clip(&rect(0.0, 0.0, 2.0, 1.0)), Clipped::Whole);
        // Along the hole's edge, outside it: whole.
        assert_eq!(r.clip(&rect(2.0, 4.0, 4.0, 6.0)), Clipped::Whole);
        // In the hole: nothing; far outside: nothing.
        assert_eq!(r.clip(&rect(4.5, 4.5, 5.5, 5.5)), Clipped::Outside);
        assert_eq!(r.clip(&rect(20.0, 20.0, 21.0, 21.0)), Clipped::Outside);
        // Half in the hole: the half outside it.
        let t = rect(3.0, 4.5, 5.0, 5.5);
        let c = r.clip(&t);
        assert!(matches!(c, Clipped::Part(_)), "{c:?}");
        assert!((area(&c, &t) - 1.0).abs() < 1e-6, "{c:?}");
        // Over the outer ring: the part inside.
        let t = rect(9.0, 1.0, 11.0, 2.0);
        assert!((area(&r.clip(&t), &t) - 1.0).abs() < 1e-9);
        // Over a corner of the hole (the hole's corner inside the tile).
        let t = rect(5.0, 5.0, 7.0, 7.0);
        assert!((area(&r.clip(&t), &t) - 3.0).abs() < 1e-9);
    }

    #[test]
    fn clip_agrees_with_a_full_boolean_intersection() {
        // A wavy outer ring (many short segments, reflex stretches) and a
        // 13-gon hole; rotated tiles all over it.
        let n = 240;
        let outer: Vec<Xy> = (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                let rr = 100.0 + 12.0 * (7.0 * a).sin();
                [rr * a.cos(), rr * a.sin()]
            })
            .collect();
        let hole: Vec<Xy> = (0..13)
            .rev()
            .map(|i| {
                let a = i as f64 / 13.0 * std::f64::consts::TAU;
                [20.0 + 30.0 * a.cos(), 30.0 * a.sin()]
            })
            .collect();
        let r = Region::new(&[outer.clone(), hole.clone()]);
        let full = Polygon::new(
            footprint(&outer).exterior().clone(),
            vec![footprint(&hole).exterior().clone()],
        );
        let mut checked = 0;
        for i in 0..40 {
            for j in 0..40 {
                let (x, y) = (-120.0 + i as f64 * 6.1, -120.0 + j as f64 * 6.1);
                let a = (i * 7 + j * 3) as f64 * 0.37;
                let (u, v) = ([a.cos(), a.sin()], [-a.sin(), a.cos()]);
                let (w, h) = (9.0, 6.0);
                let t = vec![
                    [x, y],
                    [x + w * u[0], y + w * u[1]],
                    [x + w * u[0] + h * v[0], y + w * u[1] + h * v[1]],
                    [x + h * v[0], y + h * v[1]],
                ];
                let cut = footprint(&t).intersection(&full);
                let want = cut
                    .0
                    .iter()
                    .map(|p| p.exterior().clone())
                    .map(|e| Polygon::new(e, vec![]).unsigned_area())
                    .fold(0.0, f64::max);
                let got = area(&r.clip(&t), &t);
                assert!(
                    (got - want).abs() < 1e-4,
                    "tile at ({x}, {y}): {got} vs {want}"
                );
                checked += usize::from(want > 0.0 && want < 54.0 - 1e-6);
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// A wide tile across every tooth of a comb (runs of the ring enter
    /// and leave its window 200 times, and holes sit in it): the
    /// cut is the full boolean intersection's largest piece.
    #[test]
    fn a_tile_across_hundreds_of_runs_is_cut_like_a_full_intersection() {
        let comb = crate::r#gen::wiggly_comb(7, 40_000);
        let (lo, hi) = comb
            .iter()
            .fold(([f64::MAX; 2], [f64::MIN; 2]), |(l, h), p| {
                (
                    [l[0].min(p[0]), l[1].min(p[1])],
                    [h[0].max(p[0]), h[1].max(p[1])],
                )
            });
        // Square holes in the teeth (each tooth spans x = 80 t .. 80 t + 40).
        let mut rings = vec![comb.clone()];
        let mut holes = Vec::new();
        for t in 0..((hi[0] - lo[0]) / 80.0) as usize {
            let x = t as f64 * 80.0 + 15.0;
            let h = vec![[x, 100.0], [x, 110.0], [x + 10.0, 110.0], [x + 10.0, 100.0]];
            holes.push(footprint(&h).exterior().clone());
            rings.push(h);
        }
        let region = Region::new(&rings);
        // Across all teeth, over the holes, not reaching the comb's back.
        let t = vec![
            [lo[0] - 10.0, 50.0],
            [hi[0] + 10.0, 50.0],
            [hi[0] + 10.0, 150.0],
            [lo[0] - 10.0, 150.0],
        ];
        let full = Polygon::new(footprint(&comb).exterior().clone(), holes);
        // The largest piece, reported by its outline (a cut tile has no
        // holes).
        let cut = footprint(&t).intersection(&full);
        let best = cut
            .0
            .iter()
            .max_by(|a, b| a.unsigned_area().total_cmp(&b.unsigned_area()))
            .unwrap();
        let want = Polygon::new(best.exterior().clone(), vec![]).unsigned_area();
        assert!(cut.0.len() >= 100, "{} pieces", cut.0.len());
        assert!(want > 0.0);
        let got = area(&region.clip(&t), &t);
        assert!((got - want).abs() < 1e-3 * want, "{got} vs {want}");
    }

    /// The grid answers for nearly every point of a comb and agrees with
    /// the ray cast.
    #[test]
    fn grid_answers_on_a_comb() {
        let ring = crate::r#gen::wiggly_comb(3, 4000);
        let r = Region::new(&[ring]);
        let (min, max) = r.bbox();
        let mut rng = crate::place::rng(5);
        let (mut answered, total) = (0, 20_000);
        for _ in 0..total {
            let p = [
                rand::RngExt::random_range(&mut rng, min[0]..max[0]),
                rand::RngExt::random_range(&mut rng, min[1]..max[1]),
            ];
            let want = r.locate_by_ray(p);
            if let Some(got) = r.grid.locate(p) {
                answered += 1;
                assert_eq!(Some(got), want, "{p:?}");
            }
            assert_eq!(r.locate(p), want, "{p:?}");
        }
        assert!(answered > total * 99 / 100, "{answered} of {total}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

        /// The grid gives exactly the ray cast's answers on random rings
        /// (crossing each other and themselves: even–odd), at vertices, on
        /// edges, on the lines through vertices and anywhere else.
        #[test]
        fn locate_agrees_with_the_ray_cast(
            rings in proptest::collection::vec(
                proptest::collection::vec((-20i32..=20, -20i32..=20), 3..40),
                1..4,
            ),
            scale in proptest::sample::select(vec![1.0, 0.1, 3.7, 1e3, 1e-3]),
            offset in proptest::sample::select(vec![0.0, 1e5, -2.5e4]),
            lattice in proptest::collection::vec((-42i32..=42, -42i32..=42), 64),
            free in proptest::collection::vec((-21.0f64..21.0, -21.0f64..21.0), 64),
            on_edge in proptest::collection::vec((0usize..1000, 0u32..=8), 64),
        ) {
            let f = |x: f64, y: f64| [x * scale + offset, y * scale - offset];
            let rings: Vec<Vec<Xy>> = rings
                .iter()
                .map(|r| r.iter().map(|&(x, y)| f(x.into(), y.into())).collect())
                .collect();
            let region = Region::new(&rings);
            let mut pts: Vec<Xy> = rings.iter().flatten().copied().collect();
            pts.extend(lattice.iter().map(|&(x, y)| f(f64::from(x) / 2.0, f64::from(y) / 2.0)));
            pts.extend(free.iter().map(|&(x, y)| f(x, y)));
            let all: Vec<[Xy; 2]> = rings
                .iter()
                .flat_map(|r| (0..r.len()).map(move |i| [r[i], r[(i + 1) % r.len()]]))
                .collect();
            pts.extend(on_edge.iter().map(|&(k, t)| {
                let [a, b] = all[k % all.len()];
                lerp(a, b, f64::from(t) / 8.0)
            }));
            for p in pts {
                proptest::prop_assert_eq!(region.locate(p), region.locate_by_ray(p), "{:?}", p);
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
