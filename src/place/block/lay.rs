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
use crate::place::{Params, PlacedTile, Placement, Rng, Role, TileId};
use crate::xp::model::{Annotation, AnnotationKind, Asset, Band, Grid, Px};

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
    pub feasible: bool,
    pub params: &'a Params,
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
/// last band includes its end).
fn locate(bands: &[Band], x: f64) -> Option<usize> {
    let n = bands.len();
    bands
        .iter()
        .position(|b| b.start <= x && x < b.end)
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
    let (ncols, nrows) = (grid.columns.len(), grid.rows.len());
    let mut buckets: Vec<Vec<Annotation>> = vec![Vec::new(); ncols * nrows];
    let mut formula: Vec<Option<Xy>> = vec![None; ncols * nrows];
    let mut last: Option<usize> = None;
    for ann in &grid.annotations {
        if let AnnotationKind::GroundFormula(f) = &ann.kind {
            match last {
                Some(b) => formula[b] = Some(ground_point(inp.block, f)),
                None => out.warnings.push(format!(
                    "GROUND_PT_FORMULA at line {} follows no annotation on the grid; ignored",
                    ann.line
                )),
            }
            continue;
        }
        let at = anchor(ann);
        last = at.and_then(|p| {
            let c = locate(&grid.columns, p[0])?;
            let r = locate(&grid.rows, p[1])?;
            Some(r * ncols + c)
        });
        match last {
            Some(b) => buckets[b].push(ann.clone()),
            None => out.warnings.push(format!(
                "the annotation at line {} lies outside the grid's tiles; not placed",
                ann.line
            )),
        }
    }

    let (sr, tr) = (&inp.s.run, &inp.t.run);
    let width = inp.s.fit.length;
    let height = inp.t.fit.length;
    let clip = inp.crop.then(|| {
        let (ix, iy) = (&inp.ins[0], &inp.ins[1]);
        let r = [ix.min[0], iy.min[0], width - ix.min[1], height - iy.min[1]];
        let keep: Option<Vec<Xy>> = (!inp.feasible && r[0] < r[2] && r[1] < r[3]).then(|| {
            vec![
                inp.world([r[0], r[1]]),
                inp.world([r[2], r[1]]),
                inp.world([r[2], r[3]]),
                inp.world([r[0], r[3]]),
            ]
        });
        ClipRegion::new(&inp.block.world, keep.as_deref())
    });
    let hidden = inp.asset.common.hide_tiles.is_some();
    let sg = inp.sign();
    let dir = [sg * inp.block.u[0], sg * inp.block.u[1]];

    for (j, lr) in tr.iter().enumerate() {
        let row = &grid.rows[lr.band];
        for (i, lc) in sr.iter().enumerate() {
            if lc.drawn <= TOL || lr.drawn <= TOL {
                continue;
            }
            let col = &grid.columns[lc.band];
            let (x0, y0) = (lc.start, lr.start);
            let (x1, y1) = (x0 + lc.drawn, y0 + lr.drawn);
            let rect = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
            let world: Vec<Xy> = rect.iter().map(|&a| inp.world(a)).collect();
            let to_uv = |a: Px| [col.start + (a[0] - x0), row.start + (a[1] - y0)];
            let (polygon, uv) = match &clip {
                Some(c) => {
                    let inside = inp.block.convex
                        && world.iter().all(|&p| inp.block.contains_convex(p, 1e-9));
                    if inside {
                        (world.clone(), rect.iter().map(|&a| to_uv(a)).collect())
                    } else {
                        let Some(ring) = c.clip(&world) else { continue };
                        let uv = ring.iter().map(|&p| to_uv(inp.a_space(p))).collect();
                        (ring, uv)
                    }
                }
                None => (world.clone(), rect.iter().map(|&a| to_uv(a)).collect()),
            };
            let texture_tile = lr.band * ncols + lc.band;
            let centre = inp.world([(x0 + x1) / 2.0, (y0 + y1) / 2.0]);
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
                ground_point: Some(formula[texture_tile].unwrap_or(centre)),
            });
            let anns = &buckets[texture_tile];
            if anns.is_empty() {
                continue;
            }
            let later_cols = &sr[i + 1..];
            let later_rows = &tr[j + 1..];
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
            let ctx = Context {
                common: &inp.asset.common,
                map,
                base_heading: map.up_heading(),
                block_height: inp.params.height,
                density: inp.params.density,
                tree_spacing: inp.params.tree_spacing,
                keep: &keep,
            };
            annotate(out, index, anns, &ctx, rng);
        }
    }
}
