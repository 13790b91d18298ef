//! Caps: one small tile at the end of each side, over the end of its last
//! edge tile.
//!
//! A side gets a cap only when an edge tile was placed on it and `CAPS`
//! lists a usable tile. The cap chosen is the narrowest one at least as
//! wide as the gap between the last edge tile and the end of the free part
//! of the side (ties drawn at random); if none is that wide, the widest.
//! It is laid like an edge tile, ending at the end of the free part when the
//! gap is no wider than the cap (so it overlaps the last tile) and starting
//! at the last tile's end otherwise. A cap refused by a stop point slides
//! back along the side, up to its width, or is not placed.

use super::spell::{MAX_SLIDES, step_for};
use super::{Engine, UnitKind};
use crate::place::Role;
use rand::RngExt;

/// A tile `CAPS` lists that can be used: its index, width in metres and
/// the line of the first `CAPS` naming it.
pub(crate) type Cap = (usize, f64, usize);

/// The usable caps, each once, in file order.
pub(crate) fn usable(eng: &Engine) -> Vec<Cap> {
    let mut seen = std::collections::HashSet::new();
    let mut caps = Vec::new();
    for line in &eng.props.caps {
        for &id in &line.value {
            if let Ok((ts, w)) = eng.resolve(&[id])
                && seen.insert(ts[0])
            {
                caps.push((ts[0], w, line.line));
            }
        }
    }
    caps
}

/// Caps side `s` with one of `caps` ([`usable`]).
pub(crate) fn cap_side(eng: &mut Engine, s: usize, caps: &[Cap]) {
    let Some((last_end, b)) = eng.last_edge[s] else {
        return;
    };
    if caps.is_empty() || eng.full() || !eng.budget.work(caps.len() as u64) {
        return;
    }
    let name = if eng.params.explain {
        eng.side_name(s)
    } else {
        String::new()
    };
    let gap = (b - last_end).max(0.0);
    let wide: Vec<&Cap> = caps.iter().filter(|c| c.1 >= gap - 1e-9).collect();
    let pool: Vec<&Cap> = if wide.is_empty() {
        let max = caps.iter().map(|c| c.1).fold(0.0, f64::max);
        caps.iter().filter(|c| c.1 >= max - 1e-9).collect()
    } else {
        let min = wide.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        wide.into_iter().filter(|c| c.1 <= min + 1e-9).collect()
    };
    let &(t, w, line) = pool[eng.rng.random_range(0..pool.len())];
    let start = if gap <= w { b - w } else { last_end };
    let step = step_for(w);
    let n = ((w / step).floor() as usize).min(MAX_SLIDES);
    let mut err = None;
    for k in 0..=n {
        let at = start - k as f64 * step;
        let (o, d) = eng.sides[s].chord(at, w);
        let c = eng.cand_at(t, o, d);
        match eng.check(&c, &[]) {
            Ok(()) => {
                let id = eng.asset.tiles[t].id;
                eng.explain(|| format!("{name}: cap tile {id} (CAPS line {line}) at {at:.1} m"));
                eng.commit(vec![c], Role::Cap, UnitKind::Cap, line);
                return;
            }
            Err(e) => {
                err.get_or_insert(e);
            }
        }
    }
    let id = eng.asset.tiles[t].id;
    let e = err.map_or_else(String::new, |e| e.to_string());
    eng.explain(|| format!("{name}: cap tile {id} (CAPS line {line}) refused: {e}"));
}
