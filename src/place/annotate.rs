//! The step every engine shares: turning a tile's pixel annotations (objects,
//! facades, trees, tree lines) into placed items, through the affine map that
//! takes the tile's texture pixels to local metres.
//!
//! Show levels: an object with `[lo, hi]` is never shown below `lo`, always
//! from `hi` up, and in between with probability
//! `(level − lo + 1) / (hi − lo + 1)` drawn from the placement's generator
//! (so `2 4` shows at 1/3 of the places at level 2, 2/3 at level 3, all at
//! 4..6). Without show levels an object is always shown.
//!
//! Trees follow the forest when one was read ([`Context::trees`], see
//! [`super::art`]). Without one, tree lines have trees at both ends and
//! evenly between, no further apart than
//! [`Params::tree_spacing`](super::Params::tree_spacing), each
//! [`TREE_LINE_WIDTH`] × the spacing wide (6 m at the default 10 m), so that
//! neighbouring crowns stand apart as in a planted row.

use super::art::TreeArt;
use super::budget::Budget;
use super::{PlacedFacade, PlacedObject, PlacedTree, Placement, Rng};
use crate::geom::Xy;
use crate::xp::model::{Annotation, AnnotationKind, Common, ObjMode, Px};
use rand::RngExt;

/// Width of a TREE_LINE tree as a fraction of the tree-line spacing (the
/// forest files that would give the real width are not read).
pub const TREE_LINE_WIDTH: f64 = 0.6;

/// An affine map from texture pixels to local metres:
/// `local = [a·px + b·py + c, d·px + e·py + f]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Affine(pub [f64; 6]);

impl Affine {
    /// The map that sends pixel `origin_px` to `origin_local`, the texture's
    /// +x axis to the unit vector `dir` (east, north) scaled by `mpp[0]`
    /// metres per pixel, and +y to `dir` turned 90° counter-clockwise scaled
    /// by `mpp[1]`.
    pub fn from_frame(origin_px: Px, origin_local: Xy, dir: Xy, mpp: [f64; 2]) -> Self {
        let len = (dir[0] * dir[0] + dir[1] * dir[1]).sqrt();
        let (ux, uy) = if len > 0.0 {
            (dir[0] / len, dir[1] / len)
        } else {
            (1.0, 0.0)
        };
        let (a, d) = (ux * mpp[0], uy * mpp[0]);
        let (b, e) = (-uy * mpp[1], ux * mpp[1]);
        let c = origin_local[0] - a * origin_px[0] - b * origin_px[1];
        let f = origin_local[1] - d * origin_px[0] - e * origin_px[1];
        Affine([a, b, c, d, e, f])
    }

    /// Applies the map.
    pub fn apply(&self, p: Px) -> Xy {
        let m = &self.0;
        [
            m[0] * p[0] + m[1] * p[1] + m[2],
            m[3] * p[0] + m[4] * p[1] + m[5],
        ]
    }

    /// The compass heading (degrees clockwise from north, 0..360) of the
    /// texture's +y (up) direction.
    pub fn up_heading(&self) -> f64 {
        let m = &self.0;
        normalize_heading(m[1].atan2(m[4]).to_degrees())
    }

    /// True when the map mirrors (texture counter-clockwise becomes
    /// clockwise).
    pub fn mirrors(&self) -> bool {
        let m = &self.0;
        m[0] * m[4] - m[1] * m[3] < 0.0
    }
}

/// Brings a heading into `0 ≤ h < 360`.
pub fn normalize_heading(h: f64) -> f64 {
    let r = h.rem_euclid(360.0);
    if r >= 360.0 { 0.0 } else { r }
}

/// Whether an object with these show levels appears at `density`.
pub fn shown(show: Option<[i64; 2]>, density: u8, rng: &mut Rng) -> bool {
    let Some([lo, hi]) = show else { return true };
    let level = i64::from(density);
    if level < lo {
        return false;
    }
    if level >= hi {
        return true;
    }
    let p = (level - lo + 1) as f64 / (hi - lo + 1) as f64;
    rng.random::<f64>() < p
}

/// What the annotation step needs besides the annotations.
pub struct Context<'a> {
    /// Asset paths.
    pub common: &'a Common,
    /// Pixels → local metres for this tile.
    pub map: Affine,
    /// Heading added to every annotation heading: the world heading of an
    /// object whose annotation heading is 0.
    pub base_heading: f64,
    /// Building height of the use (for OBJ_SCRAPER).
    pub block_height: f64,
    /// Density setting 1..6.
    pub density: u8,
    /// Tree-line spacing in metres, without a forest.
    pub tree_spacing: f64,
    /// The forest trees are drawn from, when it was read.
    pub trees: Option<TreeArt<'a>>,
    /// Annotations whose pixel position fails this test are dropped (covered
    /// by an overlapping tile, cropped away).
    pub keep: &'a dyn Fn(Px) -> bool,
}

/// Places the annotations of tile number `tile` into `out`, charging one
/// unit of `budget`'s work per annotation, tree-line point and facade
/// vertex and one item per placed item; stops once the budget is spent
/// (the engine then fails).
pub fn annotate(
    out: &mut Placement,
    tile: usize,
    anns: &[Annotation],
    ctx: &Context,
    rng: &mut Rng,
    budget: &Budget,
) {
    for ann in anns {
        if !budget.work(1) {
            return;
        }
        match &ann.kind {
            AnnotationKind::Object(o) => {
                if !(ctx.keep)(o.at) || !shown(o.show, ctx.density, rng) {
                    continue;
                }
                if !budget.items(1) {
                    return;
                }
                let [x, y] = ctx.map.apply(o.at);
                let height = match o.mode {
                    ObjMode::Delta { height } => height,
                    ObjMode::Scraper { min, max, step } => {
                        scraper_raise(ctx.block_height, min, max, step)
                    }
                    _ => 0.0,
                };
                let asset = usize::try_from(o.index)
                    .ok()
                    .and_then(|i| ctx.common.objects.get(i))
                    .map_or_else(|| format!("<object {}>", o.index), |l| l.value.clone());
                out.objects.push(PlacedObject {
                    tile,
                    asset,
                    index: o.index,
                    mode: o.mode.name().to_string(),
                    x,
                    y,
                    lon: 0.0,
                    lat: 0.0,
                    heading: normalize_heading(ctx.base_heading + o.heading),
                    height,
                    show: o.show,
                    source_line: ann.line,
                    ..PlacedObject::default()
                });
            }
            AnnotationKind::Facade(f) => {
                let Some(first) = f.points.first() else {
                    continue;
                };
                if !(ctx.keep)(*first) {
                    continue;
                }
                // Its outline is copied for every copy of the tile.
                if !budget.items(1) || !budget.work(f.points.len() as u64) {
                    return;
                }
                let asset = usize::try_from(f.index)
                    .ok()
                    .and_then(|i| ctx.common.facades.get(i))
                    .map_or_else(|| format!("<facade {}>", f.index), |l| l.value.clone());
                out.facades.push(PlacedFacade {
                    tile,
                    asset,
                    height: f.height,
                    polygon: f.points.iter().map(|&p| ctx.map.apply(p)).collect(),
                    lonlat: Vec::new(),
                    walls: f.walls.clone(),
                    source_line: ann.line,
                    ..PlacedFacade::default()
                });
            }
            AnnotationKind::Tree(t) => {
                if !(ctx.keep)(t.at) {
                    continue;
                }
                if !budget.items(1) {
                    return;
                }
                let [x, y] = ctx.map.apply(t.at);
                let mut tree = PlacedTree {
                    tile: Some(tile),
                    x,
                    y,
                    width: t.width,
                    layer: t.layer,
                    heading: normalize_heading(ctx.base_heading + t.heading),
                    source_line: ann.line,
                    ..PlacedTree::default()
                };
                if let Some(trees) = &ctx.trees {
                    let mut r = trees.rng(tile, ann.line);
                    if let Some(pick) = trees.pick(t.layer, Some(t.width), &mut r) {
                        super::art::set_tree(&mut tree, pick);
                    }
                }
                out.trees.push(tree);
            }
            AnnotationKind::TreeLine(l) if ctx.trees.is_some() => {
                if !forest_line(out, tile, ann.line, l, ctx, budget) {
                    return;
                }
            }
            AnnotationKind::TreeLine(l) => {
                let a = ctx.map.apply(l.from);
                let b = ctx.map.apply(l.to);
                let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
                let spacing = ctx.tree_spacing.max(0.1);
                let gaps = (len / spacing).ceil().max(1.0);
                // One unit per point, charged before the loop: a line too
                // long for the budget costs nothing to refuse.
                if !gaps.is_finite() || !budget.work(gaps as u64) {
                    return;
                }
                let gaps = gaps as usize;
                for k in 0..=gaps {
                    let t = k as f64 / gaps as f64;
                    let px = [
                        l.from[0] + t * (l.to[0] - l.from[0]),
                        l.from[1] + t * (l.to[1] - l.from[1]),
                    ];
                    if !(ctx.keep)(px) {
                        continue;
                    }
                    if !budget.items(1) {
                        return;
                    }
                    let [x, y] = ctx.map.apply(px);
                    out.trees.push(PlacedTree {
                        tile: Some(tile),
                        x,
                        y,
                        width: TREE_LINE_WIDTH * spacing,
                        layer: l.layer,
                        heading: normalize_heading(rng.random::<f64>() * 360.0),
                        source_line: ann.line,
                        ..PlacedTree::default()
                    });
                }
            }
            AnnotationKind::GroundFormula(_) => {}
        }
    }
}

/// A `TREE_LINE` drawn from the forest of `ctx.trees`: from the start,
/// steps of the forest's `SPACING` x each moved by up to its `RANDOM` x
/// (never shorter than a tenth of the spacing), as long as the line lasts;
/// each tree picked from the layer with a height in its range. False when
/// the budget is spent.
fn forest_line(
    out: &mut Placement,
    tile: usize,
    line: usize,
    l: &crate::xp::model::TreeLineAnn,
    ctx: &Context,
    budget: &Budget,
) -> bool {
    let Some(trees) = ctx.trees else {
        return true;
    };
    let ([spacing, _], [random, _]) = trees.spacing();
    let shortest = (spacing - random).max(spacing / 10.0);
    let a = ctx.map.apply(l.from);
    let b = ctx.map.apply(l.to);
    let len = (b[0] - a[0]).hypot(b[1] - a[1]);
    let most = (len / shortest).floor() + 1.0;
    // One unit per point the line can hold, charged before the loop.
    if !most.is_finite() || !budget.work(most as u64) {
        return false;
    }
    let mut rng = trees.rng(tile, line);
    let mut at = 0.0;
    while at <= len {
        let t = if len > 0.0 { at / len } else { 0.0 };
        let px = [
            l.from[0] + t * (l.to[0] - l.from[0]),
            l.from[1] + t * (l.to[1] - l.from[1]),
        ];
        let step = (spacing + (rng.random::<f64>() * 2.0 - 1.0) * random).max(shortest);
        if (ctx.keep)(px) {
            if !budget.items(1) {
                return false;
            }
            let [x, y] = ctx.map.apply(px);
            let mut tree = PlacedTree {
                tile: Some(tile),
                x,
                y,
                width: TREE_LINE_WIDTH * spacing,
                layer: l.layer,
                heading: normalize_heading(rng.random::<f64>() * 360.0),
                source_line: line,
                ..PlacedTree::default()
            };
            if let Some(pick) = trees.pick(l.layer, None, &mut rng) {
                super::art::set_tree(&mut tree, pick);
            }
            out.trees.push(tree);
        }
        at += step;
    }
    true
}

/// How far an OBJ_SCRAPER is raised for a block of height `h`: every `step`
/// metres of height past `min`, up to `max − min`.
pub fn scraper_raise(h: f64, min: f64, max: f64, step: f64) -> f64 {
    if h <= min || step <= 0.0 {
        return 0.0;
    }
    let raise = ((h - min) / step).floor() * step;
    raise.min((max - min).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_axes_and_heading() {
        // Texture +x to the east, 0.5 m per pixel, pixel (10,10) at the origin.
        let m = Affine::from_frame([10.0, 10.0], [0.0, 0.0], [1.0, 0.0], [0.5, 0.5]);
        assert_eq!(m.apply([10.0, 10.0]), [0.0, 0.0]);
        assert_eq!(m.apply([12.0, 10.0]), [1.0, 0.0]);
        assert_eq!(m.apply([10.0, 14.0]), [0.0, 2.0]);
        assert!((m.up_heading() - 0.0).abs() < 1e-9);
        // +x to the north: +y points west.
        let m = Affine::from_frame([0.0, 0.0], [0.0, 0.0], [0.0, 1.0], [1.0, 1.0]);
        let w = m.apply([0.0, 1.0]);
        assert!((w[0] + 1.0).abs() < 1e-12 && w[1].abs() < 1e-12);
        assert!((m.up_heading() - 270.0).abs() < 1e-9);
        assert!(!m.mirrors());
    }

    #[test]
    fn show_levels() {
        let mut r = super::super::rng(1);
        assert!(shown(None, 1, &mut r));
        assert!(!shown(Some([2, 4]), 1, &mut r));
        assert!(shown(Some([2, 4]), 4, &mut r));
        let n = (0..3000).filter(|_| shown(Some([2, 4]), 2, &mut r)).count();
        assert!((800..1200).contains(&n), "{n}");
    }

    #[test]
    fn scraper() {
        assert_eq!(scraper_raise(10.0, 20.0, 60.0, 4.0), 0.0);
        assert_eq!(scraper_raise(30.0, 20.0, 60.0, 4.0), 8.0);
        assert_eq!(scraper_raise(300.0, 20.0, 60.0, 4.0), 40.0);
    }
}
