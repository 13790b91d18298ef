//! Planar numeric encoding of pool planes (DSF notes §2.2): raw,
//! differenced, run-length coded, or both, and the choice of the shortest.
//!
//! The run-length coder is optimal for the runs it considers: a dynamic
//! programme over the plane picks, at each value, either the longest
//! repeat run starting there (up to 127 values, 1 + size bytes) or a
//! literal run of any length up to 127 (1 + size × length bytes), so the
//! result is never longer than the greedy coder of xptools on the same
//! values. [`encode_best`] then keeps whichever of modes 0, 2 and 3 is
//! shortest (mode 1 is never shorter than mode 0).

/// Appends `raw` encoded with `mode` (0 raw, 1 differences, 2 RLE, 3
/// differences then RLE), without the mode byte. 16-bit values are
/// truncated to 16 bits.
pub fn encode_plane(out: &mut Vec<u8>, raw: &[u32], wide: bool, mode: u8) {
    let values = if mode & 1 == 1 {
        differences(raw, wide)
    } else {
        raw.iter().map(|&v| v & mask(wide)).collect()
    };
    if mode & 2 == 0 {
        for &v in &values {
            put(out, v, wide);
        }
    } else {
        let plan = Rle::plan(&values, size(wide));
        plan.emit(out, &values, wide);
    }
}

/// Appends the mode byte and `raw` in the shortest of modes 0, 2 and 3
/// (mode 3, as xptools writes, when they tie).
pub fn encode_best(out: &mut Vec<u8>, raw: &[u32], wide: bool) {
    let diffs = differences(raw, wide);
    let plain: Vec<u32> = raw.iter().map(|&v| v & mask(wide)).collect();
    let s = size(wide);
    let rle_diff = Rle::plan(&diffs, s);
    let rle = Rle::plan(&plain, s);
    let flat = raw.len() * s;
    if rle_diff.bytes <= rle.bytes && rle_diff.bytes <= flat {
        out.push(3);
        rle_diff.emit(out, &diffs, wide);
    } else if rle.bytes <= flat {
        out.push(2);
        rle.emit(out, &plain, wide);
    } else {
        out.push(0);
        for &v in &plain {
            put(out, v, wide);
        }
    }
}

fn mask(wide: bool) -> u32 {
    if wide { u32::MAX } else { 0xFFFF }
}

fn size(wide: bool) -> usize {
    if wide { 4 } else { 2 }
}

fn put(out: &mut Vec<u8>, v: u32, wide: bool) {
    if wide {
        out.extend_from_slice(&v.to_le_bytes());
    } else {
        out.extend_from_slice(&(v as u16).to_le_bytes());
    }
}

/// Wrapping differences (the first against 0), masked to the value width.
fn differences(raw: &[u32], wide: bool) -> Vec<u32> {
    let mut prev = 0u32;
    raw.iter()
        .map(|&v| {
            let d = v.wrapping_sub(prev) & mask(wide);
            prev = v;
            d
        })
        .collect()
}

/// The longest run one RLE code can hold.
const RUN: usize = 127;

/// An RLE segmentation: `runs[i]` is the code starting at value `i` on the
/// chosen path (positive: a repeat run of that length; negative: a literal
/// run of minus that length).
struct Rle {
    runs: Vec<i16>,
    bytes: usize,
}

impl Rle {
    /// The cheapest segmentation of `v` (values of `size` bytes).
    fn plan(v: &[u32], size: usize) -> Rle {
        let n = v.len();
        let mut cost = vec![0usize; n + 1];
        let mut runs = vec![0i16; n];
        // Length of the run of equal values starting at i (capped).
        let mut eq = vec![1usize; n];
        for i in (0..n.saturating_sub(1)).rev() {
            if v[i + 1] == v[i] {
                eq[i] = (eq[i + 1] + 1).min(RUN);
            }
        }
        // Candidates j for the end of a literal run from i, by
        // size * j + cost[j], increasing from front to back.
        let mut window: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
        let f = |cost: &[usize], j: usize| size * j + cost[j];
        for i in (0..n).rev() {
            let j = i + 1;
            while window.back().is_some_and(|&b| f(&cost, b) >= f(&cost, j)) {
                window.pop_back();
            }
            window.push_back(j);
            while window.front().is_some_and(|&b| b > i + RUN) {
                window.pop_front();
            }
            let best = window.front().copied().unwrap_or(j);
            let literal = 1 + f(&cost, best) - size * i;
            let r = eq[i];
            let repeat = if r >= 2 {
                1 + size + cost[i + r]
            } else {
                usize::MAX
            };
            if repeat <= literal {
                cost[i] = repeat;
                runs[i] = r as i16;
            } else {
                cost[i] = literal;
                runs[i] = -((best - i) as i16);
            }
        }
        Rle {
            runs,
            bytes: cost[0],
        }
    }

    fn emit(&self, out: &mut Vec<u8>, v: &[u32], wide: bool) {
        let mut i = 0;
        while i < v.len() {
            let r = self.runs[i];
            if r > 0 {
                out.push(0x80 | r as u8);
                put(out, v[i], wide);
                i += r as usize;
            } else {
                let l = (-r) as usize;
                out.push(l as u8);
                for &x in &v[i..i + l] {
                    put(out, x, wide);
                }
                i += l;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_runs_and_literals() {
        let mut out = Vec::new();
        encode_plane(&mut out, &[5, 5, 5, 5, 5, 5], false, 3);
        // Differences 5,0,0,0,0,0: one literal then a repeat run of 5 zeros.
        assert_eq!(out, [1, 5, 0, 0x85, 0, 0]);
        let mut out = Vec::new();
        encode_plane(&mut out, &[1, 2, 3, 3], false, 2);
        // Two repeated values at the end are cheaper as a run.
        assert_eq!(out, [2, 1, 0, 2, 0, 0x82, 3, 0]);
    }

    #[test]
    fn long_runs_split_at_127() {
        let v = vec![9u32; 300];
        let mut out = Vec::new();
        encode_plane(&mut out, &v, true, 2);
        assert_eq!(out.len(), 3 * 5);
        assert_eq!(
            [out[0], out[5], out[10]],
            [0x80 | 127, 0x80 | 127, 0x80 | 46]
        );
    }

    #[test]
    fn best_mode_is_never_longer_than_any() {
        let noisy: Vec<u32> = (0..1000u32).map(|i| (i * 7919) % 65536).collect();
        let ramp: Vec<u32> = (0..1000u32).map(|i| i * 3).collect();
        for v in [noisy, ramp, vec![], vec![1]] {
            let mut best = Vec::new();
            encode_best(&mut best, &v, false);
            for mode in 0..4 {
                let mut o = Vec::new();
                encode_plane(&mut o, &v, false, mode);
                assert!(best.len() <= o.len() + 1, "mode {mode}");
            }
        }
    }
}
