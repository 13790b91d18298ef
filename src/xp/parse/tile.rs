//! Handlers of the tiles of AGP and AGS files: `TILE_ID`, `TILE` and the
//! properties of the tile before them.

use super::{Args, Builder};
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// `TILE_ID id`: the id of the next `TILE`.
pub(super) fn tile_id(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, a) = l.parts();
    if b.arity(line, toks, 1, Some(1))
        && let Some(id) = b.int(a[0])
    {
        if let Some((_, l)) = b.pending_id {
            b.dangling_id(l);
        }
        b.pending_id = Some((id, line));
    }
}

/// `TILE left bottom right top`.
pub(super) fn tile(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, 4, Some(4)) {
        return;
    }
    let Some(rect) = b.nums::<4>(a) else {
        return;
    };
    let index = b.asset().tiles.len() as i64;
    let (id, explicit_id) = match b.pending_id.take() {
        Some((id, _)) => (id, true),
        None => (index, false),
    };
    b.asset().tiles.push(Tile {
        id,
        explicit_id,
        rect,
        line,
        rotation: None,
        anchor: None,
        ground: None,
        crop_poly: None,
        stop_pts: Vec::new(),
        pivot_lead: None,
        pivot_trail: None,
        annotations: Vec::new(),
    });
}

/// `ROTATION quarter-turns`.
pub(super) fn rotation(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    let Some(v) = b.int(a[0]) else { return };
    if let Some(t) = b.current_tile(line, kw) {
        let had = t.rotation.replace(Lined { value: v, line }).is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}

/// A point `x y` of the current tile, handed to `put`; `put` returns
/// whether the tile already had one.
fn point(b: &mut Builder<'_>, l: &Args<'_, '_>, put: impl FnOnce(&mut Tile, Lined<Px>) -> bool) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, Some(2)) {
        return;
    }
    let Some(p) = b.nums::<2>(a) else {
        return;
    };
    let v = Lined { value: p, line };
    if let Some(t) = b.current_tile(line, kw) {
        let had = put(t, v);
        b.dup(&had.then_some(()), line, kw);
    }
}

/// `ANCHOR_PT x y`.
pub(super) fn anchor_pt(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    point(b, l, |t, v| t.anchor.replace(v).is_some());
}

/// `GROUND_PT x y`.
pub(super) fn ground_pt(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    point(b, l, |t, v| t.ground.replace(v).is_some());
}

/// `PIVOT_LEAD_PT x y` (AGS).
pub(super) fn pivot_lead_pt(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    point(b, l, |t, v| t.pivot_lead.replace(v).is_some());
}

/// `PIVOT_TRAIL_PT x y` (AGS).
pub(super) fn pivot_trail_pt(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    point(b, l, |t, v| t.pivot_trail.replace(v).is_some());
}

/// `STOP_PT x y` (AGS; any number of them).
pub(super) fn stop_pt(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    point(b, l, |t, v| {
        t.stop_pts.push(v);
        false
    });
}

/// `CROP_POLY x y x y …`.
pub(super) fn crop_poly(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, None) {
        return;
    }
    if a.len() % 2 == 1 {
        let span = b.doc.line_span(line);
        b.err(
            c::TOO_FEW_ARGS,
            "CROP_POLY needs x y pairs: one coordinate is missing its partner",
            span,
        );
        return;
    }
    let Some(pts) = b.points(a) else {
        return;
    };
    if let Some(t) = b.current_tile(line, kw) {
        let had = t.crop_poly.replace(Lined { value: pts, line }).is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}
