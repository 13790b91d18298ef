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

use super::{Facade, HeightRange, Part, Wall};

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
    let min = of_floors(wall, floors(fac.floors_min));
    let max = (fac.floors_max < NO_LIMIT).then(|| of_floors(wall, floors(fac.floors_max)));
    Some(HeightRange { min, max })
}

/// The height of `wall` built with `n` floors.
fn of_floors(wall: &Wall, n: u64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (bottom, middle, top) = (
        wall.count(Part::Bottom) as u64,
        wall.count(Part::Middle) as u64,
        wall.count(Part::Top) as u64,
    );
    let band = |i: u64| {
        wall.up
            .get(i as usize)
            .map_or(0.0, |p| p.range[1] - p.range[0])
    };
    let len = wall.up.len() as u64;
    let ang = u64::from(top > 0);
    let n = n - ang;
    let (bottom_c, mut middle_c, top_c) = if n + ang == bottom + middle + top {
        (n, 0, 0)
    } else {
        let middle_c = (n + ang).saturating_sub(bottom + 2 * middle + top);
        let b = (bottom + middle).min((n - middle_c) / 2);
        let t = (top + middle - ang).min(n - middle_c - b);
        (n - middle_c - t, middle_c, t)
    };
    if middle == 0 {
        middle_c = 0;
    }
    let mut t = -wall.basement;
    t += (0..bottom_c).map(band).sum::<f64>();
    if middle > 0 {
        let cycle: f64 = (bottom..bottom + middle).map(band).sum();
        t += (middle_c / middle) as f64 * cycle;
        t += (0..middle_c % middle)
            .map(|k| band(bottom + k))
            .sum::<f64>();
    }
    let top_start = len.saturating_sub(top_c + ang);
    t += (top_start..top_start + top_c).map(band).sum::<f64>();
    if ang == 1 {
        let lean = if wall.slant {
            wall.roof_slope.to_radians().cos()
        } else {
            1.0
        };
        t += band(len - 1) * lean;
    }
    t * wall.scale[1]
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

#[cfg(test)]
mod tests {
    use super::super::Panel;
    use super::*;

    fn wall(up: &[(Part, f64)]) -> Wall {
        let mut at = 0.0;
        Wall {
            scale: [10.0, 10.0],
            up: up
                .iter()
                .map(|&(part, h)| {
                    at += h;
                    Panel {
                        part,
                        range: [at - h, at],
                    }
                })
                .collect(),
            ..Wall::default()
        }
    }

    #[test]
    fn exact_floors_use_every_panel_once() {
        let w = wall(&[(Part::Bottom, 0.1), (Part::Middle, 0.2), (Part::Top, 0.3)]);
        assert!((of_floors(&w, 3) - 6.0).abs() < 1e-9);
    }

    #[test]
    fn extra_floors_repeat_the_middle() {
        let w = wall(&[(Part::Bottom, 0.1), (Part::Middle, 0.2), (Part::Top, 0.3)]);
        // 5 floors: bottom, middle ×3, top.
        assert!(
            (of_floors(&w, 5) - 10.0).abs() < 1e-9,
            "{}",
            of_floors(&w, 5)
        );
        // A huge count is arithmetic, not a loop.
        assert!(of_floors(&w, 1_000_000).is_finite());
        assert_eq!(of_floors(&w, 0), 0.0);
    }
}
