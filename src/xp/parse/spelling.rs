//! Handlers of the AGB spelling sets: `SPELLING_SET`, its ranges and
//! frequency, `USE_GRID`, the spellings, and the named spellings
//! (`DEFINE_SPELLING_*`, `USE_SPELLING_*`).

use super::{Args, Builder, PendingUse, Tok};
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// `SPELLING_SET param`.
pub(super) fn spelling_set(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    let Some(param) = b.int(a[0]) else {
        return;
    };
    let p = b.asset().block.get_or_insert_with(BlockProps::default);
    p.spelling_sets.push(SpellingSet {
        param,
        line,
        height_range: None,
        width_range: None,
        depth_range: None,
        frequency: None,
        use_grid: None,
        spellings_s: Vec::new(),
        spellings_t: Vec::new(),
    });
}

/// A range of the current spelling set, kept once in `slot`.
fn range(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    slot: impl FnOnce(&mut SpellingSet) -> &mut Option<Lined<Range2>>,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, Some(2)) {
        return;
    }
    let Some(v) = b.nums::<2>(a) else {
        return;
    };
    let Some(set) = b.spelling_set(line, kw) else {
        return;
    };
    let had = slot(set).replace(Lined { value: v, line }).is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `HEIGHT_RANGE min max`.
pub(super) fn height_range(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    range(b, l, |s| &mut s.height_range);
}

/// `WIDTH_RANGE min max`.
pub(super) fn width_range(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    range(b, l, |s| &mut s.width_range);
}

/// `DEPTH_RANGE min max`.
pub(super) fn depth_range(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    range(b, l, |s| &mut s.depth_range);
}

/// A one-value property of the current spelling set, read by `read` and
/// kept once in `slot`.
fn one<T>(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    read: impl FnOnce(&mut Builder<'_>, Tok<'_>) -> Option<T>,
    slot: impl FnOnce(&mut SpellingSet) -> &mut Option<Lined<T>>,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    let Some(v) = read(b, a[0]) else { return };
    let Some(set) = b.spelling_set(line, kw) else {
        return;
    };
    let had = slot(set).replace(Lined { value: v, line }).is_some();
    b.dup(&had.then_some(()), line, kw);
}

/// `FREQUENCY weight`.
pub(super) fn frequency(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    one(b, l, |b, t| b.num(t), |s| &mut s.frequency);
}

/// `USE_GRID index`.
pub(super) fn use_grid(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    one(b, l, |b, t| b.int(t), |s| &mut s.use_grid);
}

/// `SPELLING_S` / `SPELLING_T index…`.
pub(super) fn spelling_st(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, None) {
        return;
    }
    let Some(indices) = b.ints(a) else {
        return;
    };
    let Some(set) = b.spelling_set(line, kw) else {
        return;
    };
    let sp = Spelling {
        indices,
        name: None,
        line,
    };
    if kw.ends_with('S') {
        set.spellings_s.push(sp);
    } else {
        set.spellings_t.push(sp);
    }
}

/// `DEFINE_SPELLING_S` / `DEFINE_SPELLING_T name index…` (the name may be
/// glued to the keyword).
pub(super) fn define_spelling(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    let (name, idx) = match l.glued {
        Some(n) => (n, a),
        None => {
            if !b.arity(line, toks, 2, None) {
                return;
            }
            (a[0].1, &a[1..])
        }
    };
    if idx.is_empty() {
        b.arity(line, toks, 2, None);
        return;
    }
    let Some(indices) = b.ints(idx) else {
        return;
    };
    let axis = usize::from(!kw.ends_with('S'));
    let kind = b.kind;
    let p = b
        .asset
        .get_or_insert_with(|| super::empty_asset(kind))
        .block
        .get_or_insert_with(BlockProps::default);
    let list = if axis == 0 {
        &mut p.named_s
    } else {
        &mut p.named_t
    };
    let dup = match b.named[axis].get(name) {
        Some(&first) => Some(list[first].line),
        None => {
            b.named[axis].insert(name.to_string(), list.len());
            None
        }
    };
    list.push(NamedSpelling {
        name: name.to_string(),
        indices,
        line,
    });
    if let Some(first) = dup {
        let span = b.doc.line_span(line);
        b.warn(
            c::DUPLICATE_NAMED_SPELLING,
            format!("spelling `{name}` is already defined on line {first}; the first definition is used: rename one"),
            span,
        );
    }
}

/// `USE_SPELLING_S` / `USE_SPELLING_T name`: resolved at the end of the
/// file.
pub(super) fn use_spelling(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    let name = a[0].1.to_string();
    let span = a[0].0..a[0].0 + a[0].1.len();
    let axis = usize::from(kw.ends_with('T'));
    let Some(set) = b.spelling_set(line, kw) else {
        return;
    };
    let list = if axis == 0 {
        &mut set.spellings_s
    } else {
        &mut set.spellings_t
    };
    list.push(Spelling {
        indices: Vec::new(),
        name: Some(name.clone()),
        line,
    });
    let index = list.len() - 1;
    let set = b
        .asset()
        .block
        .get_or_insert_with(BlockProps::default)
        .spelling_sets
        .len()
        - 1;
    b.uses.push(PendingUse {
        set,
        axis,
        index,
        name,
        line,
        span,
    });
}
