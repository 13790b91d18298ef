//! Which wall each side of a facade draws.
//!
//! - When the DSF gives wall types, they are used as given: "In the case
//!   where the DSF provides walls, the wall-picking rules and filters are
//!   completely ignored" (Laminar's facade specification). An index past
//!   the walls is the last wall (xptools `draw_facade`:
//!   `intmin2(walls.size()-1, choices[n])`); a negative one is wall 0.
//! - Otherwise each side takes the first wall whose filter admits the
//!   side's length and heading: a type-1 `WALL min max [hmin hmax]`, or a
//!   type-2 `WALL` with its `WALL_RULE`s, any one of which may admit it
//!   (xptools `REN_facade_wall_filter_t::is_ok`, `…filters_t::is_ok`). The
//!   width test includes both ends (`fltrange`); the heading test wraps
//!   both ends and the heading into 0…360 and includes the start only; a
//!   range whose ends are equal admits every heading.
//!
//! WorldEditor's preview skips this choice (its `draw_facade` uses wall 0
//! wherever the DSF gives none); agkit follows the simulator. Two things
//! xptools does not show and agkit decides: the heading a side is tested
//! with is its compass heading (clockwise from north, from its first point
//! to its second) relative to the first side's; a side no wall admits
//! takes wall 0.

use super::{FacadeLod, Floor};
use crate::geom::Xy;

/// The heading test of `is_ok` (`in_heading_in_range`).
pub fn heading_in_range(h: f64, min: f64, max: f64) -> bool {
    if min == max {
        return true;
    }
    let wrap = |v: f64| v.rem_euclid(360.0);
    let (h, min, max) = (wrap(h), wrap(min), wrap(max));
    if min < max {
        min <= h && h < max
    } else {
        min <= h || h < max
    }
}

/// One filter `[min width, max width, min heading, max heading]` admits a
/// side `len` metres long at relative heading `heading`.
pub fn admits(filter: [f64; 4], len: f64, heading: f64) -> bool {
    (filter[0]..=filter[1]).contains(&len) && heading_in_range(heading, filter[2], filter[3])
}

/// The filters of a type-1 level's walls, in file order.
pub fn type1_filters(lod: &FacadeLod) -> Vec<Vec<[f64; 4]>> {
    lod.walls
        .iter()
        .map(|w| {
            let [lo, hi] = w.headings.unwrap_or([0.0, 0.0]);
            vec![[w.min_width, w.max_width, lo, hi]]
        })
        .collect()
}

/// The filters of a type-2 floor's walls, in file order.
pub fn type2_filters(floor: &Floor) -> Vec<Vec<[f64; 4]>> {
    floor.walls.iter().map(|w| w.filters.clone()).collect()
}

/// The first wall whose filters admit the side (0 when none does).
pub fn pick(filters: &[Vec<[f64; 4]>], len: f64, heading: f64) -> usize {
    filters
        .iter()
        .position(|f| f.iter().any(|&f| admits(f, len, heading)))
        .unwrap_or(0)
}

/// The compass heading of the side from `a` to `b` (x east, y north),
/// degrees clockwise from north in 0…360.
pub fn heading(a: Xy, b: Xy) -> f64 {
    (b[0] - a[0])
        .atan2(b[1] - a[1])
        .to_degrees()
        .rem_euclid(360.0)
}

/// The wall of each of `sides` sides of `ring`: the DSF's `given` types
/// when there are any, else the filters' choice. `walls` is how many
/// walls there are (the result is empty when there are none).
pub fn choose(
    filters: &[Vec<[f64; 4]>],
    ring: &[Xy],
    sides: usize,
    given: Option<&[i64]>,
) -> Vec<usize> {
    let walls = filters.len();
    if walls == 0 {
        return Vec::new();
    }
    let side = |i: usize| (ring[i % ring.len()], ring[(i + 1) % ring.len()]);
    if let Some(given) = given.filter(|g| !g.is_empty()) {
        return (0..sides)
            .map(|i| {
                let t = given.get(i).copied().unwrap_or(0);
                usize::try_from(t).unwrap_or(0).min(walls - 1)
            })
            .collect();
    }
    if ring.len() < 2 {
        return vec![0; sides];
    }
    let first = heading(side(0).0, side(0).1);
    (0..sides)
        .map(|i| {
            let (a, b) = side(i);
            let len = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
            pick(filters, len, heading(a, b) - first)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heading_ranges_wrap() {
        assert!(heading_in_range(10.0, 350.0, 20.0));
        assert!(heading_in_range(355.0, -10.0, 20.0));
        assert!(!heading_in_range(180.0, 350.0, 20.0));
        assert!(heading_in_range(45.0, 0.0, 90.0));
        assert!(!heading_in_range(90.0, 0.0, 90.0));
        assert!(heading_in_range(123.0, 7.0, 7.0));
    }

    #[test]
    fn given_types_override_the_filters() {
        let f = vec![vec![[0.0, 15.0, 0.0, 0.0]], vec![[15.0, 1000.0, 0.0, 0.0]]];
        let ring = [[0.0, 0.0], [10.0, 0.0], [10.0, 37.0], [0.0, 37.0]];
        assert_eq!(choose(&f, &ring, 4, None), [0, 1, 0, 1]);
        assert_eq!(choose(&f, &ring, 4, Some(&[1, 7, -3, 0])), [1, 1, 0, 0]);
        assert!(choose(&[], &ring, 4, None).is_empty());
    }
}
