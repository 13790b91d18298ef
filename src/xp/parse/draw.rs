//! Handlers of the drawing properties every format takes: shader, blending,
//! layer group, slope limit, hiding the tiles and the decal parameters.

use super::{Args, Builder};
use crate::xp::doc::number as parse_number;
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// `MESH_SHADER args…` (kept as written).
pub(super) fn mesh_shader(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, _, a) = l.parts();
    let had = b.asset().common.mesh_shader.is_some();
    b.dup(&had.then_some(()), line, kw);
    let value = a.iter().map(|t| t.1.to_string()).collect();
    b.asset().common.mesh_shader = Some(Lined { value, line });
}

/// `NO_BLEND [level]`.
pub(super) fn no_blend(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 0, Some(1)) {
        return;
    }
    let v = match a.first() {
        Some(t) => match b.num(*t) {
            Some(v) => Some(v),
            None => return,
        },
        None => None,
    };
    let had = b.asset().common.no_blend.is_some();
    b.dup(&had.then_some(()), line, kw);
    b.asset().common.no_blend = Some(Lined { value: v, line });
}

/// `LAYER_GROUP name offset` (either order).
pub(super) fn layer_group(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, Some(2)) {
        return;
    }
    let (name, off) = if a[0].1.parse::<i64>().is_ok() || parse_number(a[0].1).is_ok() {
        (a[1], a[0])
    } else {
        (a[0], a[1])
    };
    if let Some(offset) = b.int(off) {
        let had = b.asset().common.layer_group.is_some();
        b.dup(&had.then_some(()), line, kw);
        b.asset().common.layer_group = Some(Lined {
            value: LayerGroup {
                name: name.1.to_string(),
                offset,
            },
            line,
        });
    }
}

/// `SLOPE_LIMIT min max min max`.
pub(super) fn slope_limit(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 4, Some(4)) {
        return;
    }
    if let Some(v) = b.nums::<4>(a) {
        let had = b.asset().common.slope_limit.is_some();
        b.dup(&had.then_some(()), line, kw);
        b.asset().common.slope_limit = Some(Lined { value: v, line });
    }
}

/// `HIDE_TILES` (AGP, AGB) and `HIDE_TILE` (AGS): either is read in any
/// format, with a warning when spelled as the other format spells it.
pub(super) fn hide_tiles(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, _) = l.parts();
    b.arity(line, toks, 0, Some(0));
    let expected = if b.kind == Kind::Ags {
        super::kw!("HIDE_TILE")
    } else {
        super::kw!("HIDE_TILES")
    };
    if kw != expected {
        let span = b.doc.token_span(line, 0);
        let fmt = b.kind.header();
        b.warn(
            c::HIDE_SPELLING,
            format!("{fmt} files spell this directive `{expected}`: rename `{kw}`"),
            span,
        );
    }
    let had = b.asset().common.hide_tiles.is_some();
    b.dup(&had.then_some(()), line, kw);
    b.asset().common.hide_tiles = Some(line);
}

/// `DECAL`, `DECAL_KEYED`, `DECAL_PARAMS`, `DECAL_PARAMS_PROJ`,
/// `DECAL_PARAMS_RGBA` and `DECAL_RGBA`: the leading numbers and the rest
/// as written, under the keyword.
pub(super) fn decal(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, _, a) = l.parts();
    let mut values = Vec::new();
    let mut rest = Vec::new();
    for t in a {
        match parse_number(t.1) {
            Ok(v) if rest.is_empty() => values.push(v),
            Err(true) => {
                b.num(*t);
                return;
            }
            _ => rest.push(t.1.to_string()),
        }
    }
    b.asset().common.decal_params.push(Lined {
        value: DecalParams {
            keyword: kw.to_string(),
            values,
            rest,
        },
        line,
    });
}
