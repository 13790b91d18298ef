//! Handlers of the directives every format takes: textures, the art lists,
//! decals and the drawing properties.

use super::{Args, Builder};
use crate::xp::doc::number as parse_number;
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// The path from the first argument to the end of the line, or `None`
/// (after an error) when there is none.
fn path(b: &mut Builder<'_>, l: &Args<'_, '_>) -> Option<Lined<String>> {
    if !b.arity(l.line, l.toks, 1, None) {
        return None;
    }
    Some(Lined {
        value: b.rest(l.toks, 1),
        line: l.line,
    })
}

/// `TEXTURE path`.
pub(super) fn texture(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some(value) = path(b, l) else { return };
    let had = b.asset().common.texture.is_some();
    b.dup(&had.then_some(()), l.line, l.kw);
    b.asset().common.texture = Some(value);
}

/// `TEXTURE_LIT path`.
pub(super) fn texture_lit(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some(value) = path(b, l) else { return };
    let had = b.asset().common.texture_lit.is_some();
    b.dup(&had.then_some(()), l.line, l.kw);
    b.asset().common.texture_lit = Some(value);
}

/// `DECAL_LIB path`.
pub(super) fn decal_lib(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    if let Some(value) = path(b, l) {
        b.asset().common.decal_lib.push(value);
    }
}

/// `OBJECT path`.
pub(super) fn object(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    if let Some(value) = path(b, l) {
        b.asset().common.objects.push(value);
    }
}

/// `FACADE path`.
pub(super) fn facade(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    if let Some(value) = path(b, l) {
        b.asset().common.facades.push(value);
    }
}

/// `VEGETATION path` (once).
pub(super) fn vegetation(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some(value) = path(b, l) else { return };
    if let Some(first) = &b.asset().common.vegetation {
        let first = first.line;
        let span = b.doc.token_span(l.line, 0);
        b.err(
            c::TWO_VEGETATION,
            format!(
                "only one VEGETATION is allowed (the first is on line {first}): remove this one"
            ),
            span,
        );
    } else {
        b.asset().common.vegetation = Some(value);
    }
}

/// `TEXTURE_NORMAL [ratio] path`.
pub(super) fn texture_normal(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, None) {
        return;
    }
    let (ratio, path_at) = match (a.len() >= 2).then(|| parse_number(a[0].1)) {
        Some(Ok(r)) => (Some(r), 2),
        _ => (None, 1),
    };
    let path = b.rest(toks, path_at);
    let had = b.asset().common.texture_normal.is_some();
    b.dup(&had.then_some(()), line, kw);
    b.asset().common.texture_normal = Some(Lined {
        value: TextureNormal { ratio, path },
        line,
    });
}

/// A directive of two numbers kept once in `slot`.
fn pair(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    slot: impl FnOnce(&mut Common) -> &mut Option<Lined<[f64; 2]>>,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 2, Some(2)) {
        return;
    }
    if let Some(v) = b.nums::<2>(a) {
        let had = slot(&mut b.asset().common)
            .replace(Lined { value: v, line })
            .is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}

/// `TEXTURE_SCALE w h`.
pub(super) fn texture_scale(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    pair(b, l, |cm| &mut cm.texture_scale);
}

/// `DITHER_ALPHA a b`.
pub(super) fn dither_alpha(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    pair(b, l, |cm| &mut cm.dither_alpha);
}

/// A directive of one number kept once in `slot`.
fn single(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    slot: impl FnOnce(&mut Common) -> &mut Option<Lined<f64>>,
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 1, Some(1)) {
        return;
    }
    if let Some([v]) = b.nums::<1>(a) {
        let had = slot(&mut b.asset().common)
            .replace(Lined { value: v, line })
            .is_some();
        b.dup(&had.then_some(()), line, kw);
    }
}

/// `TEXTURE_WIDTH metres`.
pub(super) fn texture_width(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    single(b, l, |cm| &mut cm.texture_width);
}

/// `TEXTURE_HEIGHT metres`.
pub(super) fn texture_height(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    single(b, l, |cm| &mut cm.texture_height);
}

/// `TILE_LOD distance`.
pub(super) fn tile_lod(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    single(b, l, |cm| &mut cm.tile_lod);
}
