//! How tall a facade is.
//!
//! **Type 1.** A wall of `n` floors stacks its `BOTTOM` panels, then its
//! `MIDDLE` panels repeated, then its `TOP` panels; the last `TOP` panel is
//! the roof edge, leaning by `ROOF_SLOPE` (its height scaled by the cosine
//! of the slope when `SLANT` corrects the texture). The split of `n`
//! between the three follows xptools `WED_FacadePreview.cpp`
//! (`BuildOneFacade`): an exact count uses every panel once; otherwise the
//! extra floors are middle repeats once bottom and top (each extended
//! through the middle) are used, and fewer floors are shared between bottom
//! and top with top first. Heights are texture fractions times the wall's
//! `SCALE` y, less the basement. Without middle panels (or with
//! `FLOORS_MIN` = `FLOORS_MAX`) the height is fixed: the texture's whole
//! floor band, as WorldEditor reports it.
//!
//! **Type 2.** Each floor's height is its top `ROOF_HEIGHT`; a floor
//! without roofs is as tall as its tallest segment mesh.

use super::{Facade, HeightRange, Part, floors};

/// Most floors counted (a `FLOORS_MAX` beyond means "no limit").
const NO_LIMIT: f64 = 999.0;

pub(super) fn type1(fac: &Facade) -> Option<HeightRange> {
    let wall = fac.lods.first()?.walls.first()?;
    let (first, last) = (wall.up.first()?, wall.up.last()?);
    let middle = wall.count(Part::Middle);
    if middle == 0 || fac.floors_min >= fac.floors_max {
        let h = (last.range[1] - first.range[0]) * wall.scale[1];
        return Some(HeightRange {
            min: h,
            max: Some(h),
        });
    }
    let floors = |f: f64| f.clamp(0.0, 1e6) as u64;
    // As xptools `height_desc_for_facade` measures it: with the roof edge.
    let of_floors = |n| floors::drawn_height(wall, n, true, fac.slant());
    let min = of_floors(floors(fac.floors_min));
    let max = (fac.floors_max < NO_LIMIT).then(|| of_floors(floors(fac.floors_max)));
    Some(HeightRange { min, max })
}

pub(super) fn type2(fac: &Facade) -> Option<HeightRange> {
    let heights: Vec<f64> = fac
        .floors
        .iter()
        .filter_map(|f| {
            f.roof_heights.iter().copied().reduce(f64::max).or_else(|| {
                f.segments
                    .iter()
                    .chain(&f.curved)
                    .flat_map(|s| &s.meshes)
                    .filter_map(|m| m.bounds.map(|b| b.max[1]))
                    .reduce(f64::max)
            })
        })
        .collect();
    let min = heights.iter().copied().reduce(f64::min)?;
    let max = heights.iter().copied().reduce(f64::max);
    Some(HeightRange { min, max })
}
