//! Step 4: the tiles of the fitted grid and their annotations.
//!
//! Tiles are drawn row by row from the bottom of the assembled grid, each
//! row left to right, so a tile is drawn after the tiles it overlaps (slop
//! bands and anti-slop overlap their left / lower neighbour). An annotation
//! belongs to the texture tile its point (a facade's first point, a tree
//! line's start) falls in; it is placed with every placed copy of that tile
//! unless its point is outside the drawn part of the copy, lies under a
//! later-drawn tile, or (with CROP) lies outside the clip region.

use super::crop::ClipRegion;
use super::fit::{AxisFit, Insets, Laid};
use super::ground::ground_point;
use super::measure::Block;
use crate::geom::Xy;
use crate::place::annotate::{Affine, Context, annotate};
use crate::place::budget::Budget;
use crate::place::{Params, PlacedTile, Placement, Rng, Role, TileId};
use crate::xp::model::{Annotation, AnnotationKind, Asset, Band, Grid, Px};
use std::collections::HashMap;

/// One fitted axis.
pub(crate) struct AxisRun {
    /// The fit.
    pub fit: AxisFit,
    /// The bands as laid.
    pub run: Vec<Laid>,
    /// Line of the spelling used.
    pub line: usize,
}

/// Everything the laying step reads.
pub(crate) struct Input<'a> {
    pub asset: &'a Asset,
    pub grid: &'a Grid,
    pub block: &'a Block,
    pub flip: bool,
    pub mpp: [f64; 2],
    pub ins: &'a [Insets; 2],
    pub s: &'a AxisRun,
    pub t: &'a AxisRun,
    pub crop: bool,
    pub params: &'a Params,
    /// What laying may place and cost.
    pub budget: &'a Budget,
}

const TOL: f64 = 1e-9;

impl Input<'_> {
    fn sign(&self) -> f64 {
        if self.flip { -1.0 } else { 1.0 }
    }

    /// Local metres of an A-space pixel position.
    fn world(&self, a: Px) -> Xy {
        let sg = self.sign();
        self.block.to_world(
            sg * (a[0] - self.s.fit.offset) * self.mpp[0],
            sg * (a[1] - self.t.fit.offset) * self.mpp[1],
        )
    }

    /// A-space pixel position of a local point.
    fn a_space(&self, p: Xy) -> Px {
        let sg = self.sign();
        let [s, t] = self.block.to_block(p);
        [
            self.s.fit.offset + sg * s / self.mpp[0],
            self.t.fit.offset + sg * t / self.mpp[1],
        ]
    }
}

/// The band of `bands` a pixel coordinate falls in (`start ≤ x < end`; the
/// last band includes its end). A binary search: the bands of a valid grid
/// follow each other (its cuts increase), so the first band ending after
/// `x` is the only one that can hold it.
fn locate(bands: &[Band], x: f64) -> Option<usize> {
    let n = bands.len();
    let k = bands.partition_point(|b| b.end <= x);
    (k < n && bands[k].start <= x)
        .then_some(k)
        .or_else(|| (n > 0 && x == bands[n - 1].end).then(|| n - 1))
}

/// The point that decides which tile an annotation belongs to.
fn anchor(a: &Annotation) -> Option<Px> {
    match &a.kind {
        AnnotationKind::Object(o) => Some(o.at),
        AnnotationKind::Facade(f) => f.points.first().copied(),
        AnnotationKind::Tree(t) => Some(t.at),
        AnnotationKind::TreeLine(l) => Some(l.from),
        AnnotationKind::GroundFormula(_) => None,
    }
}

/// Places the tiles and annotations into `out`.
pub(crate) fn lay(out: &mut Placement, inp: &Input, rng: &mut Rng) {
    let grid = inp.grid;
    // Keyed by texture tile (column, row): only tiles with annotations take
    // memory, however many cuts the grid has.
    let mut buckets: HashMap<(usize, usize), Vec<Annotation>> = HashMap::new();
    let mut formula: HashMap<(usize, usize), Xy> = HashMap::new();
    let mut last: Option<(usize, usize)> = None;
    for ann in &grid.annotations {
        if let AnnotationKind::GroundFormula(f) = &ann.kind {
            match last {
                Some(b) => {
                    formula.insert(b, ground_point(inp.block, f));
                }
                None => out.warnings.push(
                    format!(
                        "GROUND_PT_FORMULA at line {} follows no annotation on the grid; ignored",
                        ann.line
                    )
                    .into(),
                ),
            }
            continue;
        }
        let at = anchor(ann);
        last = at.and_then(|p| {
            let c = locate(&grid.columns, p[0])?;
            let r = locate(&grid.rows, p[1])?;
            Some((c, r))
        });
        match last {
            Some(b) => buckets.entry(b).or_default().push(ann.clone()),
            None => out.warnings.push(
                format!(
                    "the annotation at line {} lies outside the grid's tiles; not placed",
                    ann.line
                )
                .into(),
            ),
        }
    }

    let (sr, tr) = (&inp.s.run, &inp.t.run);
    let width = inp.s.fit.length;
    let height = inp.t.fit.length;
    let clip = inp.crop.then(|| {
        let (ix, iy) = (&inp.ins[0], &inp.ins[1]);
        let r = [ix.min[0], iy.min[0], width - ix.min[1], height - iy.min[1]];
        let rect: Option<Vec<Xy>> = (r[0] < r[2] && r[1] < r[3]).then(|| {
            vec![
                inp.world([r[0], r[1]]),
                inp.world([r[2], r[1]]),
                inp.world([r[2], r[3]]),
                inp.world([r[0], r[3]]),
            ]
        });
        // An EDGE_MIN rectangle the file gives joins the region unless it
        // is already inside the polygon (the usual case of a valid fit).
        let keep = rect.filter(|k| {
            inp.grid.edge_min.is_some()
                && !(inp.block.convex && k.iter().all(|&p| inp.block.contains_convex(p, 1e-6)))
        });
        ClipRegion::new(&inp.block.world, keep.as_deref())
    });
    let hidden = inp.asset.common.hide_tiles.is_some();
    let sg = inp.sign();
    let dir = [sg * inp.block.u[0], sg * inp.block.u[1]];

    for (j, lr) in tr.iter().enumerate() {
        let row = &grid.rows[lr.band];
        for (i, lc) in sr.iter().enumerate() {
            if !inp.budget.work(1) {
                return;
            }
            if lc.drawn <= TOL || lr.drawn <= TOL {
                continue;
            }
            let col = &grid.columns[lc.band];
            let (x0, y0) = (lc.start, lr.start);
            let (x1, y1) = (x0 + lc.drawn, y0 + lr.drawn);
            let rect = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
            let world: Vec<Xy> = rect.iter().map(|&a| inp.world(a)).collect();
            let to_uv = |a: Px| [col.start + (a[0] - x0), row.start + (a[1] - y0)];
            let pieces: Vec<(Vec<Xy>, Vec<Px>)> = match &clip {
                Some(c) => {
                    let inside = inp.block.convex
                        && world.iter().all(|&p| inp.block.contains_convex(p, 1e-9));
                    if inside {
                        vec![(world.clone(), rect.iter().map(|&a| to_uv(a)).collect())]
                    } else {
                        c.clip(&world)
                            .into_iter()
                            .map(|ring| {
                                let uv = ring.iter().map(|&p| to_uv(inp.a_space(p))).collect();
                                (ring, uv)
                            })
                            .collect()
                    }
                }
                None => vec![(world.clone(), rect.iter().map(|&a| to_uv(a)).collect())],
            };
            if pieces.is_empty() {
                continue;
            }
            let vertices: usize = pieces.iter().map(|(ring, _)| ring.len()).sum();
            if !inp.budget.items(pieces.len()) || !inp.budget.work(vertices as u64) {
                return;
            }
            let key = (lc.band, lr.band);
            let centre = inp.world([(x0 + x1) / 2.0, (y0 + y1) / 2.0]);
            let first = out.tiles.len();
            let split = pieces.len() > 1;
            let rings: Vec<Vec<Xy>> = if split {
                pieces.iter().map(|(r, _)| r.clone()).collect()
            } else {
                Vec::new()
            };
            for (polygon, uv) in pieces {
                let index = out.tiles.len();
                out.tiles.push(PlacedTile {
                    id: TileId::Grid(lc.band, lr.band),
                    polygon,
                    lonlat: Vec::new(),
                    uv,
                    order: index,
                    hidden,
                    role: Role::Grid,
                    unit: j,
                    source_line: inp.s.line,
                    stop_points: Vec::new(),
                    ground_point: Some(formula.get(&key).copied().unwrap_or(centre)),
                    z: None,
                });
            }
            let Some(anns) = buckets.get(&key) else {
                continue;
            };
            let later_cols = &sr[i + 1..];
            let later_rows = &tr[j + 1..];
            // Each annotation's test looks at the later columns and rows.
            let per = 1 + (later_cols.len() + later_rows.len()) as u64;
            if !inp.budget.work(per.saturating_mul(anns.len() as u64)) {
                return;
            }
            let keep = |px: Px| {
                let (dx, dy) = (px[0] - col.start, px[1] - row.start);
                if dx < -TOL || dx > lc.drawn + TOL || dy < -TOL || dy > lr.drawn + TOL {
                    return false;
                }
                let (xa, ya) = (x0 + dx, y0 + dy);
                let under = |l: &Laid, v: f64| {
                    l.drawn > TOL && v > l.start + TOL && v < l.start + l.drawn - TOL
                };
                if later_cols.iter().any(|l| under(l, xa))
                    || later_rows.iter().any(|l| under(l, ya))
                {
                    return false;
                }
                clip.as_ref()
                    .is_none_or(|c| c.contains(inp.world([xa, ya])))
            };
            let map = Affine::from_frame([col.start, row.start], world[0], dir, inp.mpp);
            // A split tile: each annotation goes with the piece holding its
            // point (the first such piece; the largest if none does).
            let owner = |px: Px| {
                let p = inp.world([x0 + px[0] - col.start, y0 + px[1] - row.start]);
                rings.iter().position(|r| ring_contains(r, p)).unwrap_or(0)
            };
            for k in 0..rings.len().max(1) {
                let keep_k = |px: Px| keep(px) && (!split || owner(px) == k);
                let ctx = Context {
                    common: &inp.asset.common,
                    map,
                    base_heading: map.up_heading(),
                    block_height: inp.params.height,
                    density: inp.params.density,
                    tree_spacing: inp.params.tree_spacing,
                    trees: inp.params.tree_art(),
                    keep: &keep_k,
                };
                annotate(out, first + k, anns, &ctx, rng, inp.budget);
            }
        }
    }
}

/// Whether a point is inside a ring or on its boundary (to 1e-9 m), by
/// winding number.
fn ring_contains(ring: &[Xy], p: Xy) -> bool {
    let n = ring.len();
    let mut winding = 0i32;
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
        let within = |u: f64, v: f64, x: f64| u.min(v) - 1e-9 <= x && x <= u.max(v) + 1e-9;
        if cross.abs() <= 1e-9 * len.max(1.0)
            && within(a[0], b[0], p[0])
            && within(a[1], b[1], p[1])
        {
            return true;
        }
        if a[1] <= p[1] {
            if b[1] > p[1] && cross > 0.0 {
                winding += 1;
            }
        } else if b[1] <= p[1] && cross < 0.0 {
            winding -= 1;
        }
    }
    winding != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The binary search finds the band the scan of every band finds,
        /// on the increasing cuts of a valid grid (empty bands included).
        #[test]
        fn locate_agrees_with_a_scan(
            steps in proptest::collection::vec(0u8..4, 1..40),
            xs in proptest::collection::vec(-2.0f64..120.0, 1..40),
        ) {
            let mut cut = 0.0;
            let bands: Vec<Band> = steps
                .iter()
                .map(|&s| {
                    let start = cut;
                    cut += f64::from(s);
                    Band { start, end: cut, slop: None, antislop: 0.0, line: 1 }
                })
                .collect();
            let n = bands.len();
            let scan = |x: f64| {
                bands
                    .iter()
                    .position(|b| b.start <= x && x < b.end)
                    .or_else(|| (x == bands[n - 1].end).then(|| n - 1))
            };
            let cuts = bands.iter().map(|b| b.start).chain([cut]);
            for x in xs.into_iter().chain(cuts) {
                proptest::prop_assert_eq!(locate(&bands, x), scan(x), "{}", x);
            }
        }
    }
}
