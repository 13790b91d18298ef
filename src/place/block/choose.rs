//! Step 2: which spelling set a block uses.
//!
//! Candidates are the sets whose `SPELLING_SET` equals the DSF parameter's
//! low byte and whose `HEIGHT_RANGE`, `WIDTH_RANGE` and `DEPTH_RANGE` (each
//! inclusive, absent = any) admit the block. One candidate is drawn at
//! random, weighted by `FREQUENCY` (default 1; a weight that is not a
//! positive finite number never wins unless every candidate has one, in
//! which case the first candidate is used). With no candidate the first set
//! in the file is the default, as the spec says.

use crate::place::Rng;
use crate::xp::model::{BlockProps, Lined, SpellingSet};
use rand::RngExt;

/// The outcome of the choice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Choice {
    /// Index of the chosen set in [`BlockProps::spelling_sets`].
    pub index: usize,
    /// Indices of every set that matched.
    pub candidates: Vec<usize>,
}

/// The measures a set's ranges are tested against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Measures {
    /// DSF low byte.
    pub low: u8,
    /// Height in metres.
    pub height: f64,
    /// Width in metres.
    pub width: f64,
    /// Depth in metres.
    pub depth: f64,
}

fn admits(range: &Option<Lined<[f64; 2]>>, x: f64) -> bool {
    range.as_ref().is_none_or(|r| {
        let [a, b] = r.value;
        a.min(b) <= x && x <= a.max(b)
    })
}

/// Whether `set` may be used for a block with these measures.
pub(crate) fn matches(set: &SpellingSet, m: &Measures) -> bool {
    set.param == i64::from(m.low)
        && admits(&set.height_range, m.height)
        && admits(&set.width_range, m.width)
        && admits(&set.depth_range, m.depth)
}

/// The warning when no spelling set matches `m`: which of the number
/// (the DSF parameter's low byte) or the ranges rejected them all, and that
/// the first set (at `first_line`) is used, as the spec says.
pub(crate) fn no_match(block: &BlockProps, m: &Measures, first_line: usize) -> String {
    let mut numbers: Vec<i64> = block.spelling_sets.iter().map(|s| s.param).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let why = if numbers.contains(&i64::from(m.low)) {
        format!(
            "no SPELLING_SET {} admits a block {:.2} m high, {:.2} m wide and {:.2} m deep \
             (their HEIGHT_RANGE, WIDTH_RANGE or DEPTH_RANGE)",
            m.low, m.height, m.width, m.depth
        )
    } else {
        let list: Vec<String> = numbers.iter().take(16).map(i64::to_string).collect();
        format!(
            "no SPELLING_SET is numbered {} (the DSF parameter's low byte); the asset's are {}",
            m.low,
            list.join(", ")
        )
    };
    format!("{why}: the first set, at line {first_line}, is used")
}

/// Chooses the spelling set (`None` when the block has no sets at all).
pub(crate) fn choose(block: &BlockProps, m: &Measures, rng: &mut Rng) -> Option<Choice> {
    if block.spelling_sets.is_empty() {
        return None;
    }
    let candidates: Vec<usize> = block
        .spelling_sets
        .iter()
        .enumerate()
        .filter(|(_, s)| matches(s, m))
        .map(|(i, _)| i)
        .collect();
    let index = match candidates.as_slice() {
        [] => 0,
        [only] => *only,
        many => {
            let weight = |i: usize| {
                let w = block.spelling_sets[i].weight();
                if w.is_finite() && w > 0.0 { w } else { 0.0 }
            };
            let total: f64 = many.iter().map(|&i| weight(i)).sum();
            if total > 0.0 {
                let r = rng.random::<f64>() * total;
                let mut acc = 0.0;
                let mut pick = many[0];
                for &i in many {
                    let w = weight(i);
                    if w > 0.0 {
                        pick = i;
                        acc += w;
                        if r < acc {
                            break;
                        }
                    }
                }
                pick
            } else {
                many[0]
            }
        }
    };
    Some(Choice { index, candidates })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::place::rng;

    fn set(param: i64, line: usize, width: Option<[f64; 2]>, freq: Option<f64>) -> SpellingSet {
        SpellingSet {
            param,
            line,
            height_range: None,
            width_range: width.map(|value| Lined { value, line }),
            depth_range: None,
            frequency: freq.map(|value| Lined { value, line }),
            use_grid: None,
            spellings_s: vec![],
            spellings_t: vec![],
        }
    }

    fn m(low: u8, width: f64) -> Measures {
        Measures {
            low,
            height: 8.0,
            width,
            depth: 20.0,
        }
    }

    #[test]
    fn ranges_params_and_default() {
        let b = BlockProps {
            spelling_sets: vec![
                set(1, 1, Some([0.0, 20.0]), None),
                set(1, 2, Some([40.0, 20.0]), None),
                set(2, 3, None, None),
            ],
            ..BlockProps::default()
        };
        let mut r = rng(0);
        let c = choose(&b, &m(1, 10.0), &mut r).unwrap();
        assert_eq!((c.index, c.candidates), (0, vec![0]));
        // Reversed bounds are accepted; 20 m is in both (inclusive).
        let c = choose(&b, &m(1, 20.0), &mut r).unwrap();
        assert_eq!(c.candidates, vec![0, 1]);
        let c = choose(&b, &m(2, 99.0), &mut r).unwrap();
        assert_eq!(c.index, 2);
        let c = choose(&b, &m(1, 99.0), &mut r).unwrap();
        assert_eq!((c.index, c.candidates.len()), (0, 0));
        assert!(choose(&BlockProps::default(), &m(1, 1.0), &mut r).is_none());
    }

    #[test]
    fn zero_weights_never_win() {
        let b = BlockProps {
            spelling_sets: vec![set(0, 1, None, Some(0.0)), set(0, 2, None, Some(2.0))],
            ..BlockProps::default()
        };
        for seed in 0..200 {
            assert_eq!(choose(&b, &m(0, 1.0), &mut rng(seed)).unwrap().index, 1);
        }
        let b = BlockProps {
            spelling_sets: vec![set(0, 1, None, Some(0.0)), set(0, 2, None, Some(-1.0))],
            ..BlockProps::default()
        };
        assert_eq!(choose(&b, &m(0, 1.0), &mut rng(3)).unwrap().index, 0);
    }
}
