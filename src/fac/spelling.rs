//! Type-2 spellings: which segments a side is built of.
//!
//! A type-2 wall lists `SPELLING`s, each a row of segment indices; a
//! segment is as wide as its meshes reach along z. For a side `len`
//! metres long, xptools `UTL_pick_spelling` (`WED_FacadePreview.cpp`),
//! with the spellings sorted by width (`GetFac` sorts them), adds the
//! middle spelling of the sorted list while even the widest would still
//! leave the side unfilled, then the spelling whose addition comes
//! closest to the length (searching from the widest, stopping at the
//! first that stays short), if any brings it closer. Nothing chosen
//! means the first spelling. The segments are then scaled along the side
//! by `len / width` so that they fill it exactly.
//!
//! agkit bounds the repeats ([`MAX_SEGMENTS`]) and stops when a spelling
//! has no width (the reference would loop for ever).

use super::Floor;
use super::floors::closer;

/// The most segments one side takes.
pub const MAX_SEGMENTS: usize = 10_000;

/// A spelling of a wall with its width.
#[derive(Debug, Clone, PartialEq)]
pub struct Spelling {
    /// Segment indices, left to right.
    pub segments: Vec<usize>,
    /// Metres: the sum of the segments' widths.
    pub width: f64,
}

/// The width of each segment of `floor` (metres along z of its meshes; 0
/// for a segment without vertices).
pub fn segment_widths(floor: &Floor) -> Vec<f64> {
    floor
        .segments
        .iter()
        .map(|s| {
            let lo = s
                .meshes
                .iter()
                .filter_map(|m| m.bounds.map(|b| b.min[2]))
                .reduce(f64::min);
            let hi = s
                .meshes
                .iter()
                .filter_map(|m| m.bounds.map(|b| b.max[2]))
                .reduce(f64::max);
            match (lo, hi) {
                (Some(lo), Some(hi)) => hi - lo,
                _ => 0.0,
            }
        })
        .collect()
}

/// The spellings of wall `wall` of `floor`, sorted by width (stable).
pub fn spellings(floor: &Floor, wall: usize) -> Vec<Spelling> {
    let widths = segment_widths(floor);
    let mut out: Vec<Spelling> = floor
        .walls
        .get(wall)
        .map(|w| {
            w.spellings
                .iter()
                .map(|s| Spelling {
                    segments: s.clone(),
                    width: s
                        .iter()
                        .map(|&i| widths.get(i).copied().unwrap_or(0.0))
                        .sum(),
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| a.width.total_cmp(&b.width));
    out
}

/// The segments a side `len` metres long is built of, and their width;
/// `None` without spellings.
pub fn pick(sorted: &[Spelling], len: f64) -> Option<Spelling> {
    let last = sorted.last()?;
    let n = sorted.len();
    let mut choice = Spelling {
        segments: Vec::new(),
        width: 0.0,
    };
    loop {
        if choice.width + last.width < len {
            let low = (n / 4).min(n - 1);
            let high = (n * 3 / 4).min(n - 1);
            let s = &sorted[(low + high) / 2];
            if s.width <= 0.0 || choice.segments.len() + s.segments.len() > MAX_SEGMENTS {
                break;
            }
            choice.segments.extend(&s.segments);
            choice.width += s.width;
        } else {
            let mut best: Option<usize> = None;
            for k in (0..n).rev() {
                let with = choice.width + sorted[k].width;
                if closer(choice.width, with, len)
                    && best.is_none_or(|b| closer(choice.width + sorted[b].width, with, len))
                {
                    best = Some(k);
                    if with < len {
                        break;
                    }
                }
            }
            if let Some(b) = best {
                choice.segments.extend(&sorted[b].segments);
                choice.width += sorted[b].width;
            }
            break;
        }
    }
    if choice.segments.is_empty() {
        return Some(sorted[0].clone());
    }
    Some(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(w: f64) -> Spelling {
        Spelling {
            segments: vec![0],
            width: w,
        }
    }

    #[test]
    fn short_sides_take_the_closest_spelling() {
        let s = [sp(2.0), sp(5.0), sp(9.0)];
        assert_eq!(pick(&s, 4.0).unwrap().width, 5.0);
        assert_eq!(pick(&s, 1.0).unwrap().width, 2.0);
        // Long: middle spellings (5 m) while the widest leaves room.
        let long = pick(&s, 23.0).unwrap();
        assert!((long.width - 23.0).abs() <= 2.5, "{}", long.width);
        assert!(pick(&[], 3.0).is_none());
        // A spelling without width never loops.
        assert_eq!(pick(&[sp(0.0)], 1e9).unwrap().segments, vec![0]);
    }
}
