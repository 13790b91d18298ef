//! An independent transcription of the reference's facade arithmetic
//! (xptools `WED_FacadePreview.cpp`: `get_floors_for_height`,
//! `PanelsForLength`, `BuildOneFacade`), written for the tests in another
//! shape than agkit's code, and an independent OBJ8 pose interpreter
//! (`ObjDraw8` with every animation at its first key), shared by
//! `tests/built_art.rs` and the corpus suite.

#![allow(dead_code)]

use agkit::fac;

/// Panels as (kind, size) in file order.
pub type Panels = Vec<(char, f64)>;

/// An open key table: the rotation axis (none for a move) and its first
/// row's values.
type KeyTable = (Option<[f64; 3]>, Option<Vec<f64>>);

// Panels are given as (kind, size in texture fractions); the reference
// keeps bottom/left panels first and top/right ones last.

/// `get_floors_for_height`, written as a walk over a list of candidate
/// steps: first the two ends taken alternately (top first), then cycles of
/// the middle, then single middle panels. The walk starts below ground by
/// the basement's texture depth `basement`.
pub fn ref_floors(
    up: &[(char, f64)],
    y: f64,
    slope: f64,
    basement: f64,
    [min, max]: [i64; 2],
    h: f64,
) -> i64 {
    if min == max {
        return min;
    }
    let want = h / y;
    let nb = up.iter().filter(|p| p.0 == 'B').count();
    let nm = up.iter().filter(|p| p.0 == 'M').count();
    let nt = up.iter().filter(|p| p.0 == 'T').count();
    let clamp = |c: i64| c.clamp(min, max);
    let better = |from: f64, to: f64| (want - to).abs() < (want - from).abs();
    // Bottom candidates from the start, top ones from the end.
    let bottoms: Vec<f64> = up.iter().take(nb + nm).map(|p| p.1).collect();
    let tops: Vec<(f64, bool)> = up
        .iter()
        .rev()
        .take(nt + nm)
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                (p.1 * slope.to_radians().cos(), slope != 0.0)
            } else {
                (p.1, false)
            }
        })
        .collect();
    let (mut b, mut t, mut have, mut n) = (0usize, 0usize, -basement, 0i64);
    let mut t_len = tops.len();
    while b < bottoms.len() || t < t_len {
        let take_bottom = (b < bottoms.len() && b < t) || t == t_len;
        if take_bottom {
            let next = have + bottoms[b];
            if !better(have, next) && n > 0 {
                return clamp(n);
            }
            have = next;
            b += 1;
        } else {
            // `t` counts top panels taken; a folded roof edge is taken
            // without a test and shortens the list instead.
            let (size, folded) = tops[tops.len() - t_len + t];
            let next = have + size;
            if folded {
                have = next;
                t_len -= 1;
                n += 1;
                // The folded one was the first of the list: shift the view.
                continue;
            }
            if !better(have, next) && n > 0 {
                return clamp(n);
            }
            have = next;
            t += 1;
        }
        n += 1;
    }
    let mids: Vec<f64> = up[nb..up.len() - nt].iter().map(|p| p.1).collect();
    let cycle: f64 = mids.iter().sum();
    if cycle == 0.0 {
        return clamp(n);
    }
    let k = ((want - have) / cycle).floor();
    have += k * cycle;
    n += k as i64 * mids.len() as i64;
    for m in mids {
        if !better(have, have + m) && n > 0 {
            return clamp(n);
        }
        have += m;
        n += 1;
    }
    clamp(n)
}

/// `PanelsForLength`, in the same shape.
pub fn ref_panels(across: &[(char, f64)], x: f64, len: f64) -> i64 {
    if across.is_empty() {
        return 0;
    }
    let want = len / x;
    let nl = across.iter().filter(|p| p.0 == 'L').count();
    let nc = across.iter().filter(|p| p.0 == 'C').count();
    let nr = across.iter().filter(|p| p.0 == 'R').count();
    let lefts: Vec<f64> = across.iter().take(nl + nc).map(|p| p.1).collect();
    let rights: Vec<f64> = across.iter().rev().take(nr + nc).map(|p| p.1).collect();
    let better = |from: f64, to: f64| (want - to).abs() < (want - from).abs();
    let (mut l, mut r, mut have, mut n) = (0usize, 0usize, 0.0, 0i64);
    while l < lefts.len() || r < rights.len() {
        let next = if (l < lefts.len() && l < r) || r == rights.len() {
            l += 1;
            have + lefts[l - 1]
        } else {
            r += 1;
            have + rights[r - 1]
        };
        if !better(have, next) && n > 0 {
            return n.max(1);
        }
        have = next;
        n += 1;
    }
    let mids: Vec<f64> = across[nl..across.len() - nr].iter().map(|p| p.1).collect();
    let cycle: f64 = mids.iter().sum();
    if cycle == 0.0 {
        return n.max(1);
    }
    let k = ((want - have) / cycle).floor();
    have += k * cycle;
    n += k as i64 * mids.len() as i64;
    for m in mids {
        if !better(have, have + m) && n > 0 {
            return n.max(1);
        }
        have += m;
        n += 1;
    }
    n
}

/// `BuildOneFacade`'s height of `n` floors with the roof edge (no slant):
/// the panels each floor uses, listed and summed.
pub fn ref_height(up: &[(char, f64)], y: f64, n: i64) -> f64 {
    let nb = up.iter().filter(|p| p.0 == 'B').count() as i64;
    let nm = up.iter().filter(|p| p.0 == 'M').count() as i64;
    let nt = up.iter().filter(|p| p.0 == 'T').count() as i64;
    let len = up.len() as i64;
    let ang = i64::from(nt > 0);
    let floors = n - ang;
    let (bc, mut mc, tc) = if floors + ang == nb + nm + nt {
        (floors, 0, 0)
    } else {
        let mc = (floors + ang - (nb + 2 * nm + nt)).max(0);
        let b = (nb + nm).min((floors - mc) / 2);
        let t = (nt + nm - ang).min(floors - mc - b);
        (floors - mc - t, mc, t)
    };
    if nm == 0 {
        mc = 0;
    }
    let mut used: Vec<i64> = (0..bc).collect();
    used.extend((0..mc).map(|k| nb + k % nm.max(1)));
    used.extend(len - tc - ang..len - ang);
    if ang == 1 {
        used.push(len - 1);
    }
    used.iter().map(|&i| up[i as usize].1).sum::<f64>() * y
}

/// The panels of a wall as (kind, size) lists.
pub fn lists(w: &fac::Wall) -> (Panels, Panels) {
    let kind = |p: fac::Part| match p {
        fac::Part::Left => 'L',
        fac::Part::Center => 'C',
        fac::Part::Right => 'R',
        fac::Part::Bottom => 'B',
        fac::Part::Middle => 'M',
        fac::Part::Top => 'T',
    };
    let l = |ps: &[fac::Panel]| {
        ps.iter()
            .map(|p| (kind(p.part), p.range[1] - p.range[0]))
            .collect()
    };
    (l(&w.across), l(&w.up))
}

/// The posed box of an OBJ8's LOD-0 triangles, read here from the text:
/// `ANIM_begin` saves the transform list, `ANIM_end` restores it, each
/// `ANIM_trans`/`ANIM_rotate` (or keyed table, its first row) appends a
/// step, and the points drawn by `TRIS` go through the steps last to
/// first (Rodrigues' formula for turns). Only files without `ATTR_LOD`
/// past the first level are handled (`None` otherwise).
pub fn ref_posed_box(text: &str) -> Option<([f64; 3], [f64; 3])> {
    #[derive(Clone, Copy)]
    enum Step {
        Move([f64; 3]),
        Turn([f64; 3], f64),
    }
    let mut vt: Vec<[f64; 3]> = Vec::new();
    let mut idx: Vec<usize> = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut saved: Vec<usize> = Vec::new();
    let mut table: Option<KeyTable> = None;
    let mut lods = 0;
    let mut draws: Vec<(usize, usize, Vec<Step>)> = Vec::new();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| -> f64 { w.get(i).and_then(|v| v.parse().ok()).unwrap_or(0.0) };
        match w.first().copied() {
            Some("VT") => vt.push([num(1), num(2), num(3)]),
            Some("IDX") => idx.push(num(1) as usize),
            Some("IDX10") => idx.extend((1..=10).map(|i| num(i) as usize)),
            Some("ATTR_LOD") => {
                lods += 1;
                if lods > 1 {
                    return None;
                }
            }
            Some("ANIM_begin") => saved.push(steps.len()),
            Some("ANIM_end") => {
                let n = saved.pop().unwrap_or(0);
                steps.truncate(n);
            }
            Some("ANIM_trans") => steps.push(Step::Move([num(1), num(2), num(3)])),
            Some("ANIM_rotate") => steps.push(Step::Turn([num(1), num(2), num(3)], num(4))),
            Some("ANIM_trans_begin") => table = Some((None, None)),
            Some("ANIM_rotate_begin") => table = Some((Some([num(1), num(2), num(3)]), None)),
            Some("ANIM_trans_key") | Some("ANIM_rotate_key") => {
                if let Some((_, first @ None)) = &mut table {
                    *first = Some(vec![num(2), num(3), num(4)]);
                }
            }
            Some("ANIM_trans_end") | Some("ANIM_rotate_end") => match table.take() {
                Some((None, Some(v))) => steps.push(Step::Move([v[0], v[1], v[2]])),
                Some((Some(axis), Some(v))) => steps.push(Step::Turn(axis, v[0])),
                _ => {}
            },
            Some("TRIS") => draws.push((num(1) as usize, num(2) as usize, steps.clone())),
            _ => {}
        }
    }
    let turn = |p: [f64; 3], axis: [f64; 3], deg: f64| -> [f64; 3] {
        let l = (axis[0].powi(2) + axis[1].powi(2) + axis[2].powi(2)).sqrt();
        if l == 0.0 {
            return p;
        }
        let k = [axis[0] / l, axis[1] / l, axis[2] / l];
        let (s, c) = deg.to_radians().sin_cos();
        let kxp = [
            k[1] * p[2] - k[2] * p[1],
            k[2] * p[0] - k[0] * p[2],
            k[0] * p[1] - k[1] * p[0],
        ];
        let kp = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
        [0, 1, 2].map(|i| p[i] * c + kxp[i] * s + k[i] * kp * (1.0 - c))
    };
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for (offset, count, steps) in draws {
        for &i in idx.iter().skip(offset).take(count / 3 * 3) {
            let Some(&v) = vt.get(i) else { continue };
            let mut p = v;
            for s in steps.iter().rev() {
                p = match *s {
                    Step::Move(d) => [p[0] + d[0], p[1] + d[1], p[2] + d[2]],
                    Step::Turn(a, deg) => turn(p, a, deg),
                };
            }
            lo = [0, 1, 2].map(|k| lo[k].min(p[k]));
            hi = [0, 1, 2].map(|k| hi[k].max(p[k]));
        }
    }
    lo[0].is_finite().then_some((lo, hi))
}
