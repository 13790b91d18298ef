//! Edge spellings: filling each side between its corner tiles.
//!
//! The free part of a side runs from where the corner at its start stops
//! to where the corner at its end begins (the whole ring for a winding
//! without corners). It is filled from its start: at each step every
//! spelling is checked —
//!
//! * its tiles must exist and its length (the sum of its tile widths) must
//!   fit in what is left;
//! * an `ATOMIC_SPELLING` also needs the single segment under its start to
//!   be within its length range, and the previously placed tile of the side
//!   to be in its group (or no tile placed yet on the side, or group 0).
//!
//! Among the spellings that pass, those of the first `PRIORITY_MARKER`
//! group that has any are kept. If some spelling of that group no longer
//! fits (the side's tail), the longest candidates are kept (best fit);
//! otherwise all are. One is drawn at random.
//!
//! Tiles are laid on the chord between the points at their start and end
//! arclength, bottom edge on the chord, texture +x along the walking
//! direction, extending to the left (into the block). An atomic spelling
//! slides forward as a whole (never onto a segment outside its length
//! range) until every tile passes the stop-point checks, or is refused and
//! another spelling is drawn; the tiles of an ordinary
//! spelling slide on their own (up to their width) and a tile that cannot
//! be placed is dropped, leaving its space empty.

use super::{Cand, Engine, UnitKind};
use crate::place::Role;
use crate::xp::model::EdgeSpelling;
use rand::RngExt;

/// How a spelling fared at one position.
enum Verdict {
    Fits(Vec<usize>, f64),
    /// Its length (metres) is more than what is left of the side.
    TooLong(f64),
    /// Why, when the run explains (empty otherwise).
    Refused(String),
}

fn spelling_name(s: &EdgeSpelling) -> &'static str {
    if s.atomic.is_some() {
        "ATOMIC_SPELLING"
    } else {
        "SPELLING"
    }
}

/// Most steps a tile, a spelling or a cap slides: a run slides at most its
/// own length, in steps of an eighth of it (0.25–2 m, at least its length
/// over this).
pub const MAX_SLIDES: usize = 256;

/// Slide step for a run of length `w`: an eighth of it, between 0.25 and
/// 2 m, but never less than `w / MAX_SLIDES` (so a run wider than 512 m
/// takes coarser steps rather than more of them).
pub(crate) fn step_for(w: f64) -> f64 {
    (w / 8.0).clamp(0.25, 2.0).max(w / MAX_SLIDES as f64)
}

/// Fills side `s` with edge spellings.
pub(crate) fn fill_side(eng: &mut Engine, s: usize) {
    let side_len = eng.sides[s].len();
    let a = eng.taken[s][0];
    let b = side_len - eng.taken[s][1];
    // Named in explanations and warnings only.
    let name = if eng.params.explain {
        eng.side_name(s)
    } else {
        String::new()
    };
    if b - a <= 1e-6 || b.is_nan() {
        eng.explain(|| format!("{name}: no room left by the corners"));
        return;
    }
    eng.explain(|| format!("{name}: edge from {a:.1} m to {b:.1} m"));
    let spellings = &eng.props.spellings;
    // What weighing every spelling at one cursor costs (each resolves its
    // tiles).
    let weigh: u64 = spellings.iter().map(|sp| 1 + sp.tiles.len() as u64).sum();
    let mut cursor = a;
    let mut last_tile: Option<i64> = None;
    let mut last_end: Option<f64> = None;
    let mut excluded: std::collections::BTreeSet<usize> = Default::default();
    loop {
        if !eng.budget.work(weigh) {
            break;
        }
        let rem = b - cursor;
        if rem <= 1e-6 {
            break;
        }
        let seg = eng.sides[s].seg_at(cursor);
        let seg_len = eng.sides[s].seg_len(seg);
        let verdicts: Vec<Verdict> = spellings
            .iter()
            .enumerate()
            .map(|(i, sp)| {
                let why = |msg: &dyn Fn() -> String| {
                    Verdict::Refused(if eng.params.explain {
                        msg()
                    } else {
                        String::new()
                    })
                };
                if excluded.contains(&i) {
                    return Verdict::Refused("refused here already".into());
                }
                let (ts, len) = match eng.resolve(&sp.tiles) {
                    Ok(v) => v,
                    Err(e) => return Verdict::Refused(e),
                };
                if let Some(at) = &sp.atomic {
                    if !super::within(seg_len, at.length) {
                        return why(&|| {
                            format!(
                                "segment {seg_len:.1} m not in [{}, {}]",
                                at.length[0], at.length[1]
                            )
                        });
                    }
                    if at.group != 0
                        && let Some(t) = last_tile
                        && !eng.props.in_group(at.group, t)
                    {
                        return why(&|| {
                            format!("the previous tile {t} is not in group {}", at.group)
                        });
                    }
                }
                if len > rem + 1e-9 {
                    return Verdict::TooLong(len);
                }
                Verdict::Fits(ts, len)
            })
            .collect();
        if eng.params.explain {
            for (i, v) in verdicts.iter().enumerate() {
                let why = match v {
                    Verdict::Fits(..) => continue,
                    Verdict::TooLong(len) => {
                        format!("{len:.1} m is longer than the {rem:.1} m left")
                    }
                    Verdict::Refused(why) => why.clone(),
                };
                let sp = &spellings[i];
                eng.explain(|| {
                    format!(
                        "{name} at {cursor:.1} m: {} line {} refused: {why}",
                        spelling_name(sp),
                        sp.line
                    )
                });
            }
        }
        let fits: Vec<usize> = (0..spellings.len())
            .filter(|&i| matches!(verdicts[i], Verdict::Fits(..)))
            .collect();
        let Some(prio) = fits.iter().map(|&i| spellings[i].priority).min() else {
            if excluded.is_empty() {
                eng.explain(|| {
                    format!("{name} at {cursor:.1} m: nothing fits the {rem:.1} m left")
                });
                break;
            }
            // Every fitting spelling was refused by stop points here: move on
            // by the shortest of them and try again.
            let adv = excluded
                .iter()
                .filter_map(|&i| eng.resolve(&spellings[i].tiles).ok().map(|v| v.1))
                .fold(f64::INFINITY, f64::min)
                .min(rem);
            eng.explain(|| {
                format!("{name} at {cursor:.1} m: every spelling refused, skipping {adv:.1} m")
            });
            cursor += adv.max(1e-3);
            excluded.clear();
            continue;
        };
        let group: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|&i| spellings[i].priority == prio)
            .collect();
        let len_of = |i: usize| match &verdicts[i] {
            Verdict::Fits(_, l) => *l,
            Verdict::TooLong(_) | Verdict::Refused(_) => 0.0,
        };
        // The tail: some spelling of this priority (one that could be used
        // here but for its length) no longer fits → best fit.
        let tail = (0..spellings.len())
            .any(|i| spellings[i].priority == prio && matches!(verdicts[i], Verdict::TooLong(_)));
        let pool: Vec<usize> = if tail {
            let best = group.iter().map(|&i| len_of(i)).fold(0.0, f64::max);
            group
                .iter()
                .copied()
                .filter(|&i| len_of(i) >= best - 1e-9)
                .collect()
        } else {
            group
        };
        let pick = pool[eng.rng.random_range(0..pool.len())];
        let Verdict::Fits(ts, len) = &verdicts[pick] else {
            unreachable!("only fitting spellings are in the pool")
        };
        let sp = &spellings[pick];
        let why = if tail {
            "best fit for the tail"
        } else {
            "random pick"
        };
        if sp.atomic.is_some() {
            let range = sp.atomic.as_ref().map(|a| a.length);
            match place_atomic(eng, s, ts, cursor, b, range) {
                Ok((tiles, off)) => {
                    eng.explain(|| {
                        format!(
                            "{name} at {cursor:.1} m: {} line {} accepted ({why}, {len:.1} m, slid {off:.1} m)",
                            spelling_name(sp),
                            sp.line
                        )
                    });
                    last_tile = tiles.last().map(|c| eng.asset.tiles[c.tile].id);
                    cursor += off + len;
                    last_end = Some(cursor);
                    eng.commit(tiles, Role::Edge, UnitKind::AtomicSpelling, sp.line);
                    excluded.clear();
                }
                Err(e) => {
                    eng.explain(|| {
                        format!(
                            "{name} at {cursor:.1} m: {} line {} refused: {e}",
                            spelling_name(sp),
                            sp.line
                        )
                    });
                    excluded.insert(pick);
                }
            }
        } else {
            let (tiles, end, dropped) = place_loose(eng, s, ts, cursor, b);
            eng.explain(|| {
                format!(
                    "{name} at {cursor:.1} m: {} line {} accepted ({why}, {len:.1} m, {} tile(s) placed, {} dropped)",
                    spelling_name(sp),
                    sp.line,
                    tiles.len(),
                    dropped.len()
                )
            });
            if !dropped.is_empty() {
                let side = eng.side_name(s);
                for d in dropped {
                    eng.warn(|| format!("{side}: SPELLING line {}: {d}", sp.line));
                }
            }
            if let Some(c) = tiles.last() {
                last_tile = Some(eng.asset.tiles[c.tile].id);
                last_end = Some(end);
            }
            cursor = end.max(cursor + 1e-3);
            if !tiles.is_empty() {
                eng.commit(tiles, Role::Edge, UnitKind::Spelling, sp.line);
            }
            excluded.clear();
        }
    }
    if let Some(e) = last_end {
        eng.last_edge[s] = Some((e, b));
    }
}

/// Lays tiles `ts` end to end from arclength `at` on side `s`.
fn lay(eng: &Engine, s: usize, ts: &[usize], at: f64) -> Vec<Cand> {
    let mut pos = at;
    ts.iter()
        .map(|&t| {
            let w = eng.size_m(t)[0];
            let (o, d) = eng.sides[s].chord(pos, w);
            pos += w;
            eng.cand_at(t, o, d)
        })
        .collect()
}

/// An atomic spelling: the first forward offset (from 0, in steps, while
/// it still fits before `b`) at which every tile passes.
fn place_atomic(
    eng: &Engine,
    s: usize,
    ts: &[usize],
    at: f64,
    b: f64,
    range: Option<[f64; 2]>,
) -> Result<(Vec<Cand>, f64), String> {
    let len: f64 = ts.iter().map(|&t| eng.size_m(t)[0]).sum();
    let room = (b - at - len).max(0.0).min(len);
    let step = step_for(len);
    let mut off = 0.0;
    let mut first_err = None;
    loop {
        let side = &eng.sides[s];
        if let Some(r) = range
            && !super::within(side.seg_len(side.seg_at(at + off)), r)
        {
            // Sliding onto a segment outside the length range: stop.
            break;
        }
        let cands = lay(eng, s, ts, at + off);
        let mut ok = true;
        for i in 0..cands.len() {
            if let Err(e) = eng.check(&cands[i], &cands[..i]) {
                first_err.get_or_insert_with(|| {
                    format!("tile {} cannot be placed: {e}", eng.asset.tiles[ts[i]].id)
                });
                ok = false;
                break;
            }
        }
        if ok {
            return Ok((cands, off));
        }
        if off >= room - 1e-9 {
            break;
        }
        off = (off + step).min(room);
    }
    Err(format!(
        "atomic: {} (no slide up to {room:.1} m helps)",
        first_err.unwrap_or_default()
    ))
}

/// An ordinary spelling: each tile slides on its own; the tiles placed, the
/// end of the last one, and why tiles were dropped.
fn place_loose(
    eng: &Engine,
    s: usize,
    ts: &[usize],
    at: f64,
    b: f64,
) -> (Vec<Cand>, f64, Vec<String>) {
    let mut pos = at;
    let mut placed: Vec<Cand> = Vec::new();
    let mut dropped = Vec::new();
    let mut end = at;
    for &t in ts {
        let w = eng.size_m(t)[0];
        let room = (b - pos - w).max(0.0).min(w);
        let step = step_for(w);
        let mut off = 0.0;
        let mut done = false;
        let mut err = None;
        loop {
            let (o, d) = eng.sides[s].chord(pos + off, w);
            let c = eng.cand_at(t, o, d);
            match eng.check(&c, &placed) {
                Ok(()) => {
                    placed.push(c);
                    pos += off + w;
                    end = pos;
                    done = true;
                    break;
                }
                Err(e) => {
                    err.get_or_insert(e);
                }
            }
            if off >= room - 1e-9 {
                break;
            }
            off = (off + step).min(room);
        }
        if !done {
            dropped.push(format!(
                "tile {} dropped: {}",
                eng.asset.tiles[t].id,
                err.map_or_else(String::new, |e| e.to_string())
            ));
            pos += w;
            end = pos;
        }
    }
    (placed, end, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_take_at_most_max_slides_steps_and_keep_their_step_up_to_512_m() {
        for w in [0.1, 1.0, 8.0, 16.0, 100.0, 512.0] {
            assert_eq!(step_for(w), (w / 8.0).clamp(0.25, 2.0), "{w}");
        }
        for w in [0.01, 3.0, 513.0, 5_000.0, 10_000.0, 1e9] {
            assert!((w / step_for(w)).floor() as usize <= MAX_SLIDES, "{w}");
        }
    }
}
