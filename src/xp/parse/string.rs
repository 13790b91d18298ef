//! Handlers of the AGS directives: string properties, groups, corners,
//! spellings, caps and the priority markers between them.

use super::{Args, Builder, Tok};
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// `CREASING_ANGLE min max`.
pub(super) fn creasing_angle(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, Some(2)) {
        return;
    }
    if let Some(v) = b.nums::<2>(a) {
        let s = b.asset().string.get_or_insert_with(StringProps::default);
        let had = s.creasing_angle.replace(Lined { value: v, line }).is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}

/// `FILL_LAYER layer`.
pub(super) fn fill_layer(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    if let Some(v) = b.int(a[0]) {
        let s = b.asset().string.get_or_insert_with(StringProps::default);
        let had = s.fill_layer.replace(Lined { value: v, line }).is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}

/// `SHARE_Y`.
pub(super) fn share_y(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    let s = b.asset().string.get_or_insert_with(StringProps::default);
    let had = s.share_y.replace(line).is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `GROUP id tile …`.
pub(super) fn group(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, None) {
        return;
    }
    if let (Some(id), Some(tiles)) = (b.int(a[0]), b.ints(&a[1..])) {
        let s = b.asset().string.get_or_insert_with(StringProps::default);
        s.groups.push(Group { id, tiles, line });
    }
}

/// `CAPS tile …`.
pub(super) fn caps(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, None) {
        return;
    }
    if let Some(v) = b.ints(a) {
        let s = b.asset().string.get_or_insert_with(StringProps::default);
        s.caps.push(Lined { value: v, line });
    }
}

/// `n` ranges from `a` (two numbers each).
fn ranges(b: &mut Builder<'_>, a: &[Tok<'_>]) -> Option<Vec<Range2>> {
    let mut out = Vec::with_capacity(a.len() / 2);
    for pair in a.chunks(2) {
        out.push(b.nums::<2>(pair)?);
    }
    Some(out)
}

/// A corner rule: `nums` numbers (two for `CORNER`, three ranges and a
/// group for the others), then one tile or three; `kind` makes the corner
/// of the ranges and the group.
fn corner(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    nums: usize,
    kind: impl FnOnce(&[Range2], i64) -> CornerKind,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, nums + 1, None) {
        return;
    }
    let n_tiles = a.len() - nums;
    if n_tiles != 1 && n_tiles != 3 {
        let span = b.doc.token_span(line, nums + 1).start..b.doc.line_span(line).end;
        b.err(
            c::CORNER_TILE_COUNT,
            format!("{kw} names {n_tiles} tiles; a corner has one tile or three (preceding, middle, trailing)"),
            span,
        );
        return;
    }
    let (r, g) = if nums == 2 {
        (ranges(b, &a[..2]), Some(0))
    } else {
        (ranges(b, &a[..6]), b.int(a[6]))
    };
    let tiles = b.ints(&a[nums..]);
    let (Some(r), Some(group), Some(tiles)) = (r, g, tiles) else {
        return;
    };
    let kind = kind(&r, group);
    let priority = b.corner_priority;
    b.mark_rule(0);
    let s = b.asset().string.get_or_insert_with(StringProps::default);
    s.corners.push(CornerRule {
        kind,
        tiles,
        order: None,
        priority,
        line,
    });
}

/// `CORNER min max tile…`.
pub(super) fn corner_plain(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    corner(b, l, 2, |r, _| CornerKind::Corner { angle: r[0] });
}

/// `CORNER_LEN len1 angle len2 group tile…`.
pub(super) fn corner_len(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    corner(b, l, 7, |r, group| CornerKind::Len {
        len1: r[0],
        angle: r[1],
        len2: r[2],
        group,
    });
}

/// `CORNER_PAIR angle1 length angle2 group tile…`.
pub(super) fn corner_pair(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    corner(b, l, 7, |r, group| CornerKind::Pair {
        angle1: r[0],
        length: r[1],
        angle2: r[2],
        group,
    });
}

/// `ATOMIC_SPELLING_CORNER len1 angle len2 group tile…`.
pub(super) fn atomic_spelling_corner(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    corner(b, l, 7, |r, group| CornerKind::Atomic {
        len1: r[0],
        angle: r[1],
        len2: r[2],
        group,
    });
}

/// `CORNER_ORDER a b c` after a corner with three tiles.
pub(super) fn corner_order(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 3, Some(3)) {
        return;
    }
    let Some(v) = b.ints(&a[..3]) else {
        return;
    };
    let order = [v[0], v[1], v[2]];
    let mut sorted = order;
    sorted.sort_unstable();
    if sorted != [0, 1, 2] {
        let span = b.doc.line_span(line);
        b.err(
            c::ORDER_PERMUTATION,
            format!(
                "CORNER_ORDER {} {} {} is not a permutation of 0 1 2: name each of the three tiles once",
                v[0], v[1], v[2]
            ),
            span,
        );
        return;
    }
    let s = b.asset().string.get_or_insert_with(StringProps::default);
    match s.corners.last_mut() {
        Some(cr) if cr.tiles.len() == 3 => {
            let had = cr.order.replace(Lined { value: order, line }).is_some();
            b.dup(&had.then_some(()), line, kw);
        }
        _ => {
            let span = b.doc.token_span(line, 0);
            b.err(
                c::ORDER_WITHOUT_CORNER,
                "CORNER_ORDER must follow a corner directive with three tiles: move it after one",
                span,
            );
        }
    }
}

/// A priority marker: `which` is 0 for corners, 1 for edge spellings.
fn marker(b: &mut Builder<'_>, l: &Args<'_, '_>, which: usize) {
    let (_, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    if let Some((l, false)) = b.markers[which] {
        b.empty_marker(l);
    }
    b.markers[which] = Some((line, false));
    if which == 0 {
        b.corner_priority += 1;
    } else {
        b.spelling_priority += 1;
    }
}

/// `PRIORITY_MARKER_CORNER`.
pub(super) fn priority_marker_corner(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    marker(b, l, 0);
}

/// `PRIORITY_MARKER`.
pub(super) fn priority_marker(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    marker(b, l, 1);
}

/// An edge spelling: `SPELLING tile…` or, when `atomic`,
/// `ATOMIC_SPELLING min max group tile…`.
fn edge_spelling(b: &mut Builder<'_>, l: &Args<'_, '_>, atomic: bool) {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, if atomic { 4 } else { 1 }, None) {
        return;
    }
    let (cond, ids) = if atomic {
        let r = b.nums::<2>(&a[..2]);
        let g = b.int(a[2]);
        match (r, g) {
            (Some(length), Some(group)) => (Some(AtomicCond { length, group }), &a[3..]),
            _ => return,
        }
    } else {
        (None, a)
    };
    let Some(tiles) = b.ints(ids) else {
        return;
    };
    let priority = b.spelling_priority;
    b.mark_rule(1);
    let s = b.asset().string.get_or_insert_with(StringProps::default);
    s.spellings.push(EdgeSpelling {
        tiles,
        atomic: cond,
        priority,
        line,
    });
}

/// `SPELLING tile…`.
pub(super) fn spelling(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    edge_spelling(b, l, false);
}

/// `ATOMIC_SPELLING min max group tile…`.
pub(super) fn atomic_spelling(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    edge_spelling(b, l, true);
}
