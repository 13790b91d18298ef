//! Type-1 panels across a wall: how many a side takes, how they split into
//! `LEFT`, `CENTER` and `RIGHT`, and where each run of them lies.
//!
//! Transcribed from xptools `WED_FacadePreview.cpp`:
//!
//! - [`for_length`] (`PanelsForLength`): panels are added alternately from
//!   the right (first) and the left, the centre panels counting for both
//!   ends, while each one brings the total texture width (times `SCALE` x)
//!   closer to the side's length; then whole cycles of the centre panels;
//!   then centre panels one by one while they bring it closer. At least
//!   one panel (none for a wall without panels).
//! - [`split`] (`BuildOneFacade`, step 1, "horizontal"): an exact count
//!   uses every panel once; more repeat the centre once left and right
//!   have each been extended through the centre; fewer are shared between
//!   left and right.
//! - [`runs`] (`BuildOneFacade`, steps 2 and 3): the panels' texture
//!   widths, scaled together so that they fill the side exactly; the left
//!   panels are one quad, the repeated centre panels one quad per cycle,
//!   the right panels one quad.

use super::floors::{MAX_FLOORS, closer};
use super::{Part, Wall};

/// The most panels a count reports.
pub const MAX_PANELS: u64 = MAX_FLOORS;

/// The width of panel `i` of `wall.across`, a fraction of the texture.
fn width(wall: &Wall, i: usize) -> f64 {
    wall.across.get(i).map_or(0.0, |p| p.range[1] - p.range[0])
}

/// The panels `wall` takes across a side `len` metres long.
pub fn for_length(wall: &Wall, len: f64) -> u64 {
    let n = wall.across.len();
    if n == 0 {
        return 0;
    }
    let needed = if wall.scale[0] != 0.0 {
        len / wall.scale[0]
    } else {
        0.0
    };
    let needed = if needed.is_finite() { needed } else { 0.0 };
    let (left_n, center_n, right_n) = (
        wall.count(Part::Left),
        wall.count(Part::Center),
        wall.count(Part::Right),
    );
    let done = |c: f64| (c.clamp(1.0, MAX_PANELS as f64)) as u64;
    let mut count = 0.0_f64;
    let mut dist = 0.0;
    let (mut left, mut right) = (0, 0);
    let (left_max, right_max) = (left_n + center_n, right_n + center_n);
    let mut i_left = 0;
    // Counts down from the last panel; at most `right + center` are
    // taken, so it stays at or above `left`.
    let mut i_right = n;
    while left < left_max || right < right_max {
        let last = dist;
        let i = if (left < left_max && left < right) || right == right_max {
            i_left += 1;
            left += 1;
            i_left - 1
        } else {
            let Some(i) = i_right.checked_sub(1) else {
                break;
            };
            i_right = i;
            right += 1;
            i
        };
        dist += width(wall, i);
        if !closer(last, dist, needed) && count > 0.0 {
            return done(count);
        }
        count += 1.0;
    }
    let end_mid = n.saturating_sub(right_n);
    let cycle: f64 = (left_n..end_mid).map(|i| width(wall, i)).sum();
    let cycle_n = end_mid.saturating_sub(left_n) as f64;
    if cycle == 0.0 {
        return done(count);
    }
    let reps = ((needed - dist) / cycle).floor();
    let reps = if reps.is_finite() {
        reps.clamp(-(MAX_PANELS as f64), MAX_PANELS as f64)
    } else {
        0.0
    };
    dist += reps * cycle;
    count += reps * cycle_n;
    for i in left_n..end_mid {
        let last = dist;
        dist += width(wall, i);
        if !closer(last, dist, needed) && count > 0.0 {
            return done(count);
        }
        count += 1.0;
    }
    done(count)
}

/// How `n` panels split (`BuildOneFacade`, step 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Split {
    /// Panels from the start of the list (`LEFT`, extended through
    /// `CENTER`; all of them for an exact count).
    pub left: u64,
    /// Centre panels repeated between.
    pub center: u64,
    /// Panels from the end of the list (`RIGHT`, extended back through
    /// `CENTER`).
    pub right: u64,
}

impl Split {
    /// The panels drawn.
    pub fn total(&self) -> u64 {
        self.left + self.center + self.right
    }
}

/// Splits `panels` panels of `wall`. A wall without `CENTER` panels draws
/// no repeats (fewer panels than asked, as the reference does).
pub fn split(wall: &Wall, panels: u64) -> Split {
    let (l, c, r) = (
        wall.count(Part::Left) as u64,
        wall.count(Part::Center) as u64,
        wall.count(Part::Right) as u64,
    );
    let mut s = if panels == l + c + r {
        Split {
            left: panels,
            center: 0,
            right: 0,
        }
    } else {
        let center = panels.saturating_sub(l + 2 * c + r);
        let left = (l + c).min((panels - center) / 2);
        let right = (c + r).min(panels - center - left);
        Split {
            left: panels - right - center,
            center,
            right,
        }
    };
    if c == 0 {
        s.center = 0;
    }
    s
}

/// A run of panels drawn as one quad across a side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    /// Where it starts and ends, fractions of the side.
    pub x: [f64; 2],
    /// The texture's s at its start and end.
    pub s: [f64; 2],
    /// How many panels it holds.
    pub panels: u64,
}

/// The runs `panels` panels of `wall` draw across a side, left to right;
/// at most `max` (`None` when more were needed). Empty when the panels
/// have no width.
pub fn runs(wall: &Wall, panels: u64, max: usize) -> Option<Vec<Run>> {
    let sp = split(wall, panels);
    let n = wall.across.len();
    let center_n = wall.count(Part::Center);
    let left_n = wall.count(Part::Left);
    let reps = if center_n > 0 {
        sp.center.div_ceil(center_n as u64)
    } else {
        0
    };
    if reps.saturating_add(2) > max as u64 {
        return None;
    }
    let tex = |from: usize, to: usize| -> [f64; 2] {
        let a = wall.across.get(from).map_or(0.0, |p| p.range[0]);
        let b = wall
            .across
            .get(to.saturating_sub(1))
            .map_or(a, |p| p.range[1]);
        [a, b]
    };
    let sum = |from: usize, to: usize| -> f64 { (from..to).map(|i| width(wall, i)).sum() };
    // (texture width, s range, panels) of each run, then scaled to the side.
    let mut parts: Vec<(f64, [f64; 2], u64)> = Vec::new();
    let left_c = sp.left as usize;
    if left_c > 0 {
        parts.push((sum(0, left_c), tex(0, left_c), sp.left));
    }
    let cycle = sum(left_n, left_n + center_n);
    for j in 0..reps {
        let k = (sp.center - j * center_n as u64).min(center_n as u64) as usize;
        let w = if k == center_n {
            cycle
        } else {
            sum(left_n, left_n + k)
        };
        parts.push((w, tex(left_n, left_n + k), k as u64));
    }
    let right_c = sp.right as usize;
    if right_c > 0 {
        parts.push((sum(n - right_c, n), tex(n - right_c, n), sp.right));
    }
    let total: f64 = parts.iter().map(|p| p.0).sum();
    if total == 0.0 || !total.is_finite() {
        return Some(Vec::new());
    }
    let mut at = 0.0;
    let mut out: Vec<Run> = parts
        .into_iter()
        .map(|(w, s, panels)| {
            let x = [at / total, (at + w) / total];
            at += w;
            Run { x, s, panels }
        })
        .collect();
    if let Some(last) = out.last_mut() {
        // As the reference does: the right edge is exactly the corner.
        last.x[1] = 1.0;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::Panel;
    use super::*;

    fn wall(across: &[(Part, f64)]) -> Wall {
        let mut at = 0.0;
        Wall {
            scale: [10.0, 10.0],
            across: across
                .iter()
                .map(|&(part, w)| {
                    at += w;
                    Panel {
                        part,
                        range: [at - w, at],
                    }
                })
                .collect(),
            ..Wall::default()
        }
    }

    #[test]
    fn a_centre_only_wall_repeats_its_panel() {
        let w = wall(&[(Part::Center, 0.1)]);
        // 1 m panels on a 7.4 m side.
        assert_eq!(for_length(&w, 7.4), 7);
        assert_eq!(for_length(&w, 7.6), 8);
        assert_eq!(for_length(&w, 0.01), 1);
        let r = runs(&w, 7, 100).unwrap();
        assert_eq!(r.iter().map(|r| r.panels).sum::<u64>(), 7);
        assert_eq!(r.last().unwrap().x[1], 1.0);
    }

    #[test]
    fn huge_sides_are_arithmetic() {
        let w = wall(&[(Part::Left, 0.1), (Part::Center, 0.2), (Part::Right, 0.1)]);
        assert_eq!(for_length(&w, 1e7), MAX_PANELS);
        assert!(runs(&w, MAX_PANELS, 1000).is_none());
        assert_eq!(for_length(&wall(&[]), 50.0), 0);
    }
}
