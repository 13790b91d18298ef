//! Handlers of the AGB grid directives: crop, flip, sub-grids, cuts with
//! their slop, overlap and antislop, `END_CUTS` and the edge rectangles.

use super::{Args, Builder, Cut, GridState};
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// `CROP 0|1`.
pub(super) fn crop(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    let Some(v) = b.int(a[0]) else { return };
    if v != 0 && v != 1 {
        let span = b.doc.token_span(line, 1);
        b.err(c::BAD_CROP, "CROP takes 0 (off) or 1 (on)", span);
        return;
    }
    let p = b.asset().block.get_or_insert_with(BlockProps::default);
    let had = p
        .crop
        .replace(Lined {
            value: v == 1,
            line,
        })
        .is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `FLIP_180`.
pub(super) fn flip_180(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    let p = b.asset().block.get_or_insert_with(BlockProps::default);
    let had = p.flip_180.replace(line).is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `SUB_GRID`: ends the grid before and starts the next.
pub(super) fn sub_grid(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    if b.grid.is_some() {
        b.finish_grid();
    }
    let p = b.asset().block.get_or_insert_with(BlockProps::default);
    p.grids.push(Grid {
        line: Some(line),
        ..Grid::default()
    });
    b.grid = Some(GridState {
        first_line: line,
        ..GridState::default()
    });
}

/// The common part of the cut directives (`CUT_`, `SLOP_`, `ANTISLOP_`,
/// `OVERLAP_` with `H` or `V`): the direction (0 = H, 1 = V) and the
/// value (optional for SLOP), or `None` after the errors, among them one
/// for a directive after END_CUTS.
fn cut_value(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    optional: bool,
) -> Option<(usize, Option<f64>)> {
    let (kw, line, toks, a) = l.parts();
    let d = usize::from(kw.ends_with('V'));
    if !b.arity(line, toks, usize::from(!optional), Some(1)) {
        return None;
    }
    let v = match a.first() {
        Some(t) => Some(b.num(*t)?),
        None => None,
    };
    if b.grid_state(line).ended {
        let span = b.doc.token_span(line, 0);
        b.err(
            c::AFTER_END_CUTS,
            format!("{kw} comes after END_CUTS: move it before END_CUTS or start a SUB_GRID"),
            span,
        );
        return None;
    }
    Some((d, v))
}

/// The letter of direction `d`.
fn dir(d: usize) -> char {
    if d == 0 { 'H' } else { 'V' }
}

/// `OVERLAP_H` / `OVERLAP_V overlap`.
pub(super) fn overlap(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some((d, v)) = cut_value(b, l, false) else {
        return;
    };
    b.grid_state(l.line).overlap[d] = v.unwrap_or(0.0);
}

/// `CUT_H` / `CUT_V position`.
pub(super) fn cut(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some((d, v)) = cut_value(b, l, false) else {
        return;
    };
    let line = l.line;
    let v = v.unwrap_or(0.0);
    let gs = b.grid_state(line);
    let prev = gs.cuts[d].last().map(|c| c.value);
    gs.cuts[d].push(Cut {
        value: v,
        line,
        ..Cut::default()
    });
    if let Some(p) = prev.filter(|&p| v <= p) {
        let span = b.doc.token_span(line, 1);
        let dir = dir(d);
        b.err(
            c::CUTS_ORDER,
            format!(
                "CUT_{dir} {v} is not greater than the cut before it ({p}): cuts must increase"
            ),
            span,
        );
    }
}

/// `ANTISLOP_H` / `ANTISLOP_V value`: of the band the last cut opens, or
/// the default of the grid before the first cut.
pub(super) fn antislop(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some((d, v)) = cut_value(b, l, false) else {
        return;
    };
    let (kw, line) = (l.kw, l.line);
    let v = v.unwrap_or(0.0);
    let gs = b.grid_state(line);
    match gs.cuts[d].last_mut() {
        Some(cut) => {
            let had = cut.antislop.replace((v, line)).is_some();
            b.dup(&had.then_some(()), line, kw);
        }
        None => gs.antislop_default[d] = v,
    }
}

/// `SLOP_H` / `SLOP_V [overlap]`: the band the last cut opens slops.
pub(super) fn slop(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some((d, v)) = cut_value(b, l, true) else {
        return;
    };
    let (kw, line) = (l.kw, l.line);
    let gs = b.grid_state(line);
    let overlap = v.unwrap_or(gs.overlap[d]);
    match gs.cuts[d].last_mut() {
        Some(cut) => {
            let had = cut.slop.replace((overlap, line)).is_some();
            b.dup(&had.then_some(()), line, kw);
        }
        None => {
            let span = b.doc.token_span(line, 0);
            let dir = dir(d);
            b.err(
                c::SLOP_BEFORE_CUT,
                format!("{kw} comes before the first CUT_{dir}: put it after the cut that opens its band"),
                span,
            );
        }
    }
}

/// `END_CUTS`: builds the bands of the grid.
pub(super) fn end_cuts(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    let gs = b.grid_state(line);
    if gs.ended {
        let span = b.doc.token_span(line, 0);
        b.warn(
            c::DUPLICATE,
            "END_CUTS appears twice in this grid: remove one",
            span,
        );
        return;
    }
    gs.ended = true;
    b.build_bands();
    b.current_grid().end_cuts = Some(line);
}

/// An edge rectangle of the grid, kept once in `slot`.
fn edge(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    slot: impl FnOnce(&mut Grid) -> &mut Option<Lined<[f64; 4]>>,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 4, Some(4)) {
        return;
    }
    let Some(v) = b.nums::<4>(a) else {
        return;
    };
    b.grid_state(line);
    let had = slot(b.current_grid())
        .replace(Lined { value: v, line })
        .is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `EDGE_MIN l b r t`.
pub(super) fn edge_min(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    edge(b, l, |g| &mut g.edge_min);
}

/// `EDGE_BEST l b r t`.
pub(super) fn edge_best(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    edge(b, l, |g| &mut g.edge_best);
}

/// `EDGE_MAX l b r t`.
pub(super) fn edge_max(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    edge(b, l, |g| &mut g.edge_max);
}
