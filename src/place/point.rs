//! The point engine: one AGP tile laid down at a DSF point and heading.
//!
//! # Orientation
//!
//! Let `h` be the DSF heading (degrees clockwise from true north), `n` the
//! tile's `ROTATION` (quarter turns counter-clockwise) and `A` the anchor
//! pixel (`ANCHOR_PT`, else the tile centre). The compass heading `U` of the
//! texture's up direction (+y, towards `TILE`'s top) is
//!
//! - WorldEditor frame (default, `--frame wed`): `U = h + 90·n` — texture
//!   up is north at heading 0 and `ROTATION` turns clockwise;
//! - spec frame (`--frame spec`): `U = 180 + h − 90·n` — at heading 0 and no
//!   rotation the tile's bottom edge faces north.
//!
//! The two agree for odd `n` and differ by 180° for even `n`. With
//! `u = (sin U, cos U)` (up, in east/north) and `r = (cos U, −sin U)` (the
//! texture's +x, `u` turned 90° clockwise), a pixel `p` lands at
//!
//! ```text
//! local(p) = (p.x − A.x)·mx·r + (p.y − A.y)·my·u
//! ```
//!
//! metres from the DSF point, with `[mx, my]` from
//! [`Common::metres_per_pixel`](crate::xp::model::Common::metres_per_pixel).
//! The tile and its annotations turn as one rigid body: an annotation with
//! heading `a` faces `U + a` (so heading 0 points to texture up).

use super::annotate::{self, Affine, Context, normalize_heading};
use super::{
    FrameConvention, Params, PlaceError, PlacedTile, Placement, PlacementKind, Role, TileId,
};
use crate::xp::model::{Asset, Px, Tile};
use rand::RngExt;

/// The compass heading of the texture's up direction for a tile with
/// `rotation` quarter turns placed at `heading` (see the module docs).
pub fn up_heading(heading: f64, rotation: i64, frame: FrameConvention) -> f64 {
    let quarter = 90.0 * rotation.rem_euclid(4) as f64;
    match frame {
        FrameConvention::Spec => normalize_heading(180.0 + heading - quarter),
        FrameConvention::Wed => normalize_heading(heading + quarter),
    }
}

/// The pixel → local metre map of `tile` placed at `heading` (the anchor at
/// the origin).
pub fn tile_map(tile: &Tile, mpp: [f64; 2], heading: f64, frame: FrameConvention) -> Affine {
    let u = up_heading(heading, tile.rotation_quarters(), frame).to_radians();
    let right = [u.cos(), -u.sin()];
    Affine::from_frame(tile.anchor_px(), [0.0, 0.0], snap(right), mpp)
}

/// Rounds direction components within 1e-15 of 0 or ±1 so that quarter
/// turns give exact coordinates.
fn snap(v: [f64; 2]) -> [f64; 2] {
    v.map(|c| {
        let r = c.round();
        if (c - r).abs() < 1e-12 { r } else { c }
    })
}

/// Places an AGP at a heading (degrees clockwise from north); the DSF point
/// is the local origin.
///
/// One tile is picked at random (seeded) among the asset's tiles; objects
/// with show levels are thinned for [`Params::density`]. What the
/// annotations place is bounded by [`Params::limits`] ([`PlaceError::Limit`]
/// past it).
pub fn place(asset: &Asset, heading: f64, params: &Params) -> Result<Placement, PlaceError> {
    super::sane(asset)?;
    let budget = super::budget::Budget::new(&params.limits);
    let (mpp, defaulted) = super::scale(asset)?;
    if asset.tiles.is_empty() {
        return Err(PlaceError::Asset("the asset has no TILE".into()));
    }
    let mut rng = super::rng(params.seed);
    let pick = rng.random_range(0..asset.tiles.len());
    let tile = &asset.tiles[pick];
    let mut out = Placement {
        kind: PlacementKind::Agp,
        ..Placement::default()
    };
    out.warnings.extend(defaulted);
    let map = tile_map(tile, mpp, heading, params.frame);
    let up = map.up_heading();
    if params.explain {
        out.explain.push(format!(
            "tile {pick} of {} picked (line {}, seed {})",
            asset.tiles.len(),
            tile.line,
            params.seed
        ));
        out.explain.push(format!(
            "{mx} × {my} m per pixel; anchor pixel {:?}{}",
            tile.anchor_px(),
            if tile.anchor.is_some() {
                " (ANCHOR_PT)"
            } else {
                " (tile centre)"
            },
            mx = mpp[0],
            my = mpp[1],
        ));
        out.explain.push(format!(
            "ROTATION {} at DSF heading {heading}: texture up faces {up}° ({:?} frame)",
            tile.rotation_quarters(),
            params.frame
        ));
    }

    // Outline: the crop polygon when there is one, else the rectangle;
    // counter-clockwise in the texture (a rotation keeps the sense).
    let mut px: Vec<Px> = match &tile.crop_poly {
        Some(c) if c.value.len() >= 3 => c.value.clone(),
        _ => {
            let [l, b, r, t] = tile.rect;
            vec![[l, b], [r, b], [r, t], [l, t]]
        }
    };
    if signed_area(&px) < 0.0 {
        px.reverse();
    }
    let ground = map.apply(tile.ground_px());
    out.tiles.push(PlacedTile {
        id: TileId::Num(pick as i64),
        polygon: px.iter().map(|&p| map.apply(p)).collect(),
        lonlat: Vec::new(),
        uv: px.clone(),
        order: 0,
        hidden: asset.common.hide_tiles.is_some(),
        role: Role::Point,
        unit: 0,
        source_line: tile.line,
        stop_points: Vec::new(),
        ground_point: Some(ground),
        z: None,
    });
    if params.explain {
        out.explain.push(format!(
            "ground point {:?}{} at [{:.3}, {:.3}] m",
            tile.ground_px(),
            if tile.ground.is_some() {
                " (GROUND_PT)"
            } else {
                " (tile centre)"
            },
            ground[0],
            ground[1]
        ));
    }

    // Annotations outside the tile are still placed (the sim does not
    // check), but reported.
    let [l, b, r, t] = tile.rect;
    let (x0, x1, y0, y1) = (l.min(r), l.max(r), b.min(t), b.max(t));
    for ann in &tile.annotations {
        for p in annotation_points(&ann.kind) {
            if p[0] < x0 || p[0] > x1 || p[1] < y0 || p[1] > y1 {
                out.warnings.push(
                    format!(
                        "line {}: annotation at pixel {:?} lies outside its tile {:?}",
                        ann.line, p, tile.rect
                    )
                    .into(),
                );
                break;
            }
        }
    }

    let keep = |_: Px| true;
    let ctx = Context {
        common: &asset.common,
        map,
        base_heading: up,
        block_height: 0.0,
        density: params.density,
        tree_spacing: params.tree_spacing,
        trees: params.tree_art(),
        keep: &keep,
    };
    let before = tile
        .annotations
        .iter()
        .filter(|a| matches!(a.kind, crate::xp::model::AnnotationKind::Object(_)))
        .count();
    budget.items(1);
    annotate::annotate(&mut out, 0, &tile.annotations, &ctx, &mut rng, &budget);
    budget.finish()?;
    if params.explain {
        out.explain.push(format!(
            "{} of {before} objects shown at density {}; {} facades, {} trees",
            out.objects.len(),
            params.density,
            out.facades.len(),
            out.trees.len()
        ));
    }
    Ok(out)
}

/// Pixel positions an annotation uses.
fn annotation_points(kind: &crate::xp::model::AnnotationKind) -> Vec<Px> {
    use crate::xp::model::AnnotationKind as K;
    match kind {
        K::Object(o) => vec![o.at],
        K::Facade(f) => f.points.clone(),
        K::Tree(t) => vec![t.at],
        K::TreeLine(l) => vec![l.from, l.to],
        K::GroundFormula(_) => Vec::new(),
    }
}

/// Twice the signed area (positive = counter-clockwise).
fn signed_area(p: &[Px]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}
