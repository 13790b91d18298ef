//! Type-1 floors: how many a height asks for, how they split into
//! `BOTTOM`, `MIDDLE` and `TOP` panels, and how tall they stand.
//!
//! Three rules, each a transcription of the arithmetic in xptools
//! `WED_FacadePreview.cpp` (the simulator's own code is not public; WED's
//! preview is Laminar's reference for it):
//!
//! - [`for_height`] (`get_floors_for_height`): starting from the basement,
//!   floors are added alternately from the top (first) and the bottom, the
//!   middle panels counting for both ends, while each one brings the total
//!   closer to the height asked; then whole cycles of the middle panels,
//!   then middle panels one by one while they bring it closer. The
//!   topmost panel of a wall with a `ROOF_SLOPE` is always taken and
//!   counts with its height times the cosine of the slope. The count is
//!   kept within `FLOORS_MIN` and `FLOORS_MAX`; when the two are equal
//!   it is that count whatever the height.
//! - [`split`] (`BuildOneFacade`, step 1): `n` floors are drawn as bottom,
//!   middle (repeated) and top panels. A facade with a roof draws its last
//!   `TOP` panel as the roof edge (`angled`). An exact count uses every
//!   panel once; more floors repeat the middle once bottom and top have
//!   each been extended through the middle; fewer are shared between
//!   bottom and top, top first.
//! - [`stack`] and [`drawn_height`] (`BuildOneFacade`, step 3): the panels'
//!   texture heights times `SCALE` y, from `-BASEMENT_DEPTH`; the angled
//!   panel's height is multiplied by the cosine of the slope only when the
//!   facade corrects its texture for the slope ([`Facade::slant`]).
//!
//! Panels are taken in file order (`BOTTOM` lines first, as X-Plane
//! expects them). Every count is arithmetic: a height of a million metres
//! costs no more than ten.

use super::{Facade, Part, Wall};

/// The most floors a count reports (`FLOORS_MAX` 999 means no limit).
pub const MAX_FLOORS: u64 = 1_000_000;

/// `closer_to(a, b, x)` of the reference: `b` is strictly closer to `x`
/// than `a` is.
pub(crate) fn closer(a: f64, b: f64, x: f64) -> bool {
    (x - a).abs() > (x - b).abs()
}

/// The height of panel `i` of `wall.up`, a fraction of the texture.
fn band(wall: &Wall, i: usize) -> f64 {
    wall.up.get(i).map_or(0.0, |p| p.range[1] - p.range[0])
}

/// A floor count as the reference reads it: `FLOORS_MIN`/`FLOORS_MAX` are
/// read as numbers and kept as whole numbers.
fn whole(v: f64) -> u64 {
    if v.is_nan() {
        0
    } else {
        v.clamp(0.0, MAX_FLOORS as f64) as u64
    }
}

/// The floors a type-1 facade draws for `height` metres: the rule of
/// xptools `get_floors_for_height`, on the first wall of the nearest level
/// (`None` without a wall).
pub fn for_height(fac: &Facade, height: f64) -> Option<u64> {
    let wall = fac.lods.first()?.walls.first()?;
    Some(for_height_of(
        wall,
        whole(fac.floors_min),
        whole(fac.floors_max),
        height,
    ))
}

/// [`for_height`] for one wall and the facade's floor limits.
pub fn for_height_of(wall: &Wall, min: u64, max: u64, height: f64) -> u64 {
    let limit = |c: f64| {
        let c = if c.is_nan() { 0.0 } else { c.max(0.0) };
        (c.min(MAX_FLOORS as f64) as u64).clamp(min, max.max(min))
    };
    if min == max {
        return min;
    }
    let scale = wall.scale[1];
    let needed = if scale != 0.0 { height / scale } else { 0.0 };
    let needed = if needed.is_finite() { needed } else { 0.0 };
    let len = wall.up.len();
    let (bottom, middle, top) = (
        wall.count(Part::Bottom),
        wall.count(Part::Middle),
        wall.count(Part::Top),
    );
    let mut count = 0.0_f64;
    let mut dist = -wall.basement;
    let (mut bot, mut topn) = (0, 0);
    let bot_max = bottom + middle;
    let mut top_max = top + middle;
    let mut i_bot = 0;
    // `i_top` counts down from the last panel; the loop takes at most
    // `top + middle` of them, so it stays at or above `bottom`.
    let mut i_top = len;
    while bot < bot_max || topn < top_max {
        let last = dist;
        if (bot < bot_max && bot < topn) || topn == top_max {
            dist += band(wall, i_bot);
            if !closer(last, dist, needed) && count > 0.0 {
                return limit(count);
            }
            i_bot += 1;
            bot += 1;
            count += 1.0;
        } else {
            let Some(i) = i_top.checked_sub(1) else { break };
            let roof_edge = i + 1 == len;
            let lean = if roof_edge {
                wall.roof_slope.to_radians().cos()
            } else {
                1.0
            };
            dist += band(wall, i) * lean;
            if wall.roof_slope != 0.0 && roof_edge {
                // The sloped roof edge is always drawn.
                count += 1.0;
                top_max -= 1;
                i_top = i;
            } else {
                if !closer(last, dist, needed) && count > 0.0 {
                    return limit(count);
                }
                i_top = i;
                topn += 1;
                count += 1.0;
            }
        }
    }
    let end_mid = len.saturating_sub(top);
    let cycle: f64 = (bottom..end_mid).map(|i| band(wall, i)).sum();
    let cycle_n = end_mid.saturating_sub(bottom) as f64;
    if cycle == 0.0 {
        return limit(count);
    }
    let reps = ((needed - dist) / cycle).floor();
    let reps = if reps.is_finite() {
        reps.clamp(-(MAX_FLOORS as f64), MAX_FLOORS as f64)
    } else {
        0.0
    };
    count += reps * cycle_n;
    dist += reps * cycle;
    for i in bottom..end_mid {
        let last = dist;
        dist += band(wall, i);
        if !closer(last, dist, needed) && count > 0.0 {
            return limit(count);
        }
        count += 1.0;
    }
    // The reference returns this last count unclamped; agkit keeps every
    // count within the facade's limits.
    limit(count)
}

/// How `n` floors split into panels (`BuildOneFacade`, step 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Split {
    /// Panels from the start of the list (`BOTTOM`, extended through
    /// `MIDDLE`; all of them for an exact count).
    pub bottom: u64,
    /// Middle panels repeated above them.
    pub middle: u64,
    /// Panels from the end of the list (extended back through `MIDDLE`),
    /// before the angled one.
    pub top: u64,
    /// 1 when the last `TOP` panel is drawn as the roof edge.
    pub angled: u64,
}

impl Split {
    /// The floors drawn.
    pub fn floors(&self) -> u64 {
        self.bottom + self.middle + self.top + self.angled
    }
}

/// Splits `floors` floors of `wall`; `roof_edge` when the facade has a
/// roof (the reference draws the last `TOP` panel as its edge then).
pub fn split(wall: &Wall, floors: u64, roof_edge: bool) -> Split {
    if floors == 0 {
        return Split::default();
    }
    let (bottom, middle, top) = (
        wall.count(Part::Bottom) as u64,
        wall.count(Part::Middle) as u64,
        wall.count(Part::Top) as u64,
    );
    let angled = u64::from(roof_edge && top > 0);
    let n = floors - angled;
    let mut s = if n + angled == bottom + middle + top {
        Split {
            bottom: n,
            middle: 0,
            top: 0,
            angled,
        }
    } else {
        let middle_c = (n + angled).saturating_sub(bottom + 2 * middle + top);
        let b = (bottom + middle).min((n - middle_c) / 2);
        let t = (top + middle - angled).min(n - middle_c - b);
        Split {
            bottom: n - middle_c - t,
            middle: middle_c,
            top: t,
            angled,
        }
    };
    if middle == 0 {
        s.middle = 0;
    }
    s
}

/// One horizontal band of a wall: a run of panels drawn as one quad.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// Bottom and top, metres above the ground (the first may be below:
    /// the basement).
    pub z: [f64; 2],
    /// The texture's t at bottom and top.
    pub t: [f64; 2],
    /// The roof edge: drawn from the wall's foot line to the roof's inset
    /// line.
    pub leaning: bool,
}

/// The bands `floors` floors of `wall` draw, bottom up; `roof_edge` as for
/// [`split`], `slant` as [`Facade::slant`]. At most `max` bands (the
/// middle repeats are cut there; `None` when more were needed).
pub fn stack(
    wall: &Wall,
    floors: u64,
    roof_edge: bool,
    slant: bool,
    max: usize,
) -> Option<Vec<Band>> {
    let s = split(wall, floors, roof_edge);
    let len = wall.up.len();
    let middle = wall.count(Part::Middle);
    let bottom_n = wall.count(Part::Bottom);
    let y = wall.scale[1];
    let tex = |from: usize, to: usize| -> [f64; 2] {
        let a = wall.up.get(from).map_or(0.0, |p| p.range[0]);
        let b = wall.up.get(to.saturating_sub(1)).map_or(a, |p| p.range[1]);
        [a, b]
    };
    let sum = |from: usize, to: usize| -> f64 { (from..to).map(|i| band(wall, i)).sum() };
    let mut out = Vec::new();
    let mut z = -wall.basement;
    let mut push = |out: &mut Vec<Band>, h: f64, t: [f64; 2], leaning: bool| -> Option<()> {
        if out.len() >= max {
            return None;
        }
        out.push(Band {
            z: [z * y, (z + h) * y],
            t,
            leaning,
        });
        z += h;
        Some(())
    };
    let bottom_c = s.bottom as usize;
    if bottom_c > 0 {
        push(&mut out, sum(0, bottom_c), tex(0, bottom_c), false)?;
    }
    if middle > 0 && s.middle > 0 {
        let reps = s.middle.div_ceil(middle as u64);
        if reps > max as u64 {
            return None;
        }
        for j in 0..reps as usize {
            let b = j * middle;
            let t = (b + middle).min(s.middle as usize);
            let k = t - b;
            push(
                &mut out,
                sum(bottom_n, bottom_n + k),
                tex(bottom_n, bottom_n + k),
                false,
            )?;
        }
    }
    let ang = s.angled as usize;
    let top_c = s.top as usize;
    if top_c > 0 {
        let from = len - top_c - ang;
        push(&mut out, sum(from, len - ang), tex(from, len - ang), false)?;
    }
    if ang > 0 {
        let lean = if slant {
            wall.roof_slope.to_radians().cos()
        } else {
            1.0
        };
        push(
            &mut out,
            band(wall, len - 1) * lean,
            tex(len - 1, len),
            true,
        )?;
    }
    Some(out)
}

/// How tall `floors` floors of `wall` stand, metres (the top of
/// [`stack`], computed without building it).
pub fn drawn_height(wall: &Wall, floors: u64, roof_edge: bool, slant: bool) -> f64 {
    let s = split(wall, floors, roof_edge);
    if s.floors() == 0 {
        return 0.0;
    }
    let len = wall.up.len();
    let middle = wall.count(Part::Middle) as u64;
    let bottom_n = wall.count(Part::Bottom) as u64;
    let sum = |from: u64, to: u64| -> f64 { (from..to).map(|i| band(wall, i as usize)).sum() };
    let mut t = -wall.basement + sum(0, s.bottom);
    if let Some(cycles) = s.middle.checked_div(middle) {
        t += cycles as f64 * sum(bottom_n, bottom_n + middle);
        t += sum(bottom_n, bottom_n + s.middle % middle);
    }
    let (ang, top) = (s.angled, s.top);
    let len = len as u64;
    t += sum(len - top - ang, len - ang);
    if ang > 0 {
        let lean = if slant {
            wall.roof_slope.to_radians().cos()
        } else {
            1.0
        };
        t += band(wall, (len - 1) as usize) * lean;
    }
    t * wall.scale[1]
}

#[cfg(test)]
mod tests {
    use super::super::Panel;
    use super::*;

    fn wall(up: &[(Part, f64)], slope: f64) -> Wall {
        let mut at = 0.0;
        Wall {
            scale: [10.0, 10.0],
            roof_slope: slope,
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

    const BMT: &[(Part, f64)] = &[(Part::Bottom, 0.1), (Part::Middle, 0.2), (Part::Top, 0.3)];

    #[test]
    fn exact_counts_use_every_panel_once() {
        let w = wall(BMT, 0.0);
        assert_eq!(
            split(&w, 3, true),
            Split {
                bottom: 2,
                middle: 0,
                top: 0,
                angled: 1
            }
        );
        assert!((drawn_height(&w, 3, true, false) - 6.0).abs() < 1e-9);
    }

    #[test]
    fn the_stack_reaches_the_drawn_height() {
        let w = wall(BMT, 0.0);
        for n in 1..40 {
            for edge in [false, true] {
                let st = stack(&w, n, edge, false, 1000).unwrap();
                let top = st.last().unwrap().z[1];
                assert!((top - drawn_height(&w, n, edge, false)).abs() < 1e-9, "{n}");
                // Bands touch.
                for p in st.windows(2) {
                    assert!((p[0].z[1] - p[1].z[0]).abs() < 1e-9);
                }
            }
        }
        assert!(stack(&w, 1_000_000, true, false, 100).is_none());
    }

    #[test]
    fn equal_limits_fix_the_count() {
        let w = wall(BMT, 0.0);
        assert_eq!(for_height_of(&w, 4, 4, 1000.0), 4);
        assert_eq!(for_height_of(&w, 1, 999, 1e5), 999);
        assert_eq!(for_height_of(&w, 2, 999, 0.0), 2);
        assert_eq!(for_height_of(&w, 1, 999, f64::NAN), 1);
    }
}
