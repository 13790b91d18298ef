//! Handlers of the annotations (most lines of a big file): objects,
//! facades, trees, tree lines and AGB ground-point formulas.

use super::{Args, Builder, Tok};
use crate::xp::model::*;
use crate::xp::rules::codes as c;

/// An object annotation with `base` required arguments and an optional
/// pair of show levels; `mode` reads the mode and the object index from
/// the arguments after `x y heading`.
fn object(
    b: &mut Builder<'_>,
    l: &Args<'_, '_>,
    base: usize,
    mode: impl FnOnce(&mut Builder<'_>, &[Tok<'_>]) -> (Option<ObjMode>, Option<i64>),
) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, base, Some(base + 2)) {
        return;
    }
    if a.len() == base + 1 {
        let span = b.doc.token_span(line, base + 1);
        b.err(
            c::TOO_FEW_ARGS,
            format!(
                "{kw} show levels come in pairs `lo hi`: add the missing level or remove this one"
            ),
            span,
        );
        return;
    }
    let Some([x, y, heading]) = b.nums::<3>(a) else {
        return;
    };
    let (mode, index) = mode(b, a);
    let show = if a.len() >= base + 2 {
        match (b.int(a[base]), b.int(a[base + 1])) {
            (Some(lo), Some(hi)) => Some([lo, hi]),
            _ => return,
        }
    } else {
        None
    };
    let (Some(mode), Some(index)) = (mode, index) else {
        return;
    };
    let kind = AnnotationKind::Object(ObjectAnn {
        mode,
        at: [x, y],
        heading,
        index,
        show,
    });
    b.push_annotation(Annotation { kind, line }, kw);
}

/// `OBJ_DRAPED x y heading index [lo hi]`.
pub(super) fn obj_draped(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    object(b, l, 4, |b, a| (Some(ObjMode::Draped), b.int(a[3])));
}

/// `OBJ_GRADED x y heading index [lo hi]`.
pub(super) fn obj_graded(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    object(b, l, 4, |b, a| (Some(ObjMode::Graded), b.int(a[3])));
}

/// `OBJ_SCRAPER x y heading index min max step [lo hi]`.
pub(super) fn obj_scraper(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    object(b, l, 7, |b, a| {
        let i = b.int(a[3]);
        let m = b
            .nums::<3>(&a[4..7])
            .map(|[min, max, step]| ObjMode::Scraper { min, max, step });
        (m, i)
    });
}

/// `OBJ_DELTA x y heading height index [lo hi]`.
pub(super) fn obj_delta(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    object(b, l, 5, |b, a| {
        let h = b.num(a[3]).map(|height| ObjMode::Delta { height });
        (h, b.int(a[4]))
    });
}

/// `FAC index height x y …` or, with `walls`, `FAC_WALLS index height x y
/// wall …`.
fn facade(b: &mut Builder<'_>, l: &Args<'_, '_>, walls: bool) {
    let (kw, line, toks, a) = l.parts();
    let stride = if walls { 3 } else { 2 };
    if !b.arity(line, toks, 2 + stride, None) {
        return;
    }
    if !(a.len() - 2).is_multiple_of(stride) {
        let span = b.doc.line_span(line);
        let what = if walls {
            "x y wall triples"
        } else {
            "x y pairs"
        };
        b.err(
            c::TOO_FEW_ARGS,
            format!("{kw} points come as {what}: a value is missing"),
            span,
        );
        return;
    }
    let index = b.int(a[0]);
    let height = b.num(a[1]);
    let mut points = Vec::with_capacity((a.len() - 2) / stride);
    let mut wall_types = Vec::new();
    let mut ok = true;
    for chunk in a[2..].chunks(stride) {
        match b.nums::<2>(chunk) {
            Some(p) => points.push(p),
            None => ok = false,
        }
        if walls {
            match b.int(chunk[2]) {
                Some(w) => wall_types.push(w),
                None => ok = false,
            }
        }
    }
    let (Some(index), Some(height), true) = (index, height, ok) else {
        return;
    };
    let kind = AnnotationKind::Facade(FacadeAnn {
        index,
        height,
        points,
        walls: walls.then_some(wall_types),
    });
    b.push_annotation(Annotation { kind, line }, kw);
}

/// `FAC index height x y …`.
pub(super) fn fac(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    facade(b, l, false);
}

/// `FAC_WALLS index height x y wall …`.
pub(super) fn fac_walls(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    facade(b, l, true);
}

/// Four numbers and an integer (`TREE`, `TREE_LINE`), or `None` after the
/// errors.
fn four_and_layer(b: &mut Builder<'_>, l: &Args<'_, '_>) -> Option<([f64; 4], i64)> {
    let (_, line, toks, a) = l.parts();
    if !b.arity(line, toks, 5, Some(5)) {
        return None;
    }
    let v = b.nums::<4>(a);
    let layer = b.int(a[4]);
    Some((v?, layer?))
}

/// `TREE x y heading width layer`.
pub(super) fn tree(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some(([x, y, heading, width], layer)) = four_and_layer(b, l) else {
        return;
    };
    let kind = AnnotationKind::Tree(TreeAnn {
        at: [x, y],
        heading,
        width,
        layer,
    });
    b.push_annotation(Annotation { kind, line: l.line }, l.kw);
}

/// `TREE_LINE x0 y0 x1 y1 layer`.
pub(super) fn tree_line(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let Some(([x0, y0, x1, y1], layer)) = four_and_layer(b, l) else {
        return;
    };
    let kind = AnnotationKind::TreeLine(TreeLineAnn {
        from: [x0, y0],
        to: [x1, y1],
        layer,
    });
    b.push_annotation(Annotation { kind, line: l.line }, l.kw);
}

/// `GROUND_PT_FORMULA x_ratio x_delta y_ratio y_delta` (AGB).
pub(super) fn ground_pt_formula(b: &mut Builder<'_>, l: &Args<'_, '_>) {
    let (kw, line, toks, a) = l.parts();
    if !b.arity(line, toks, 4, Some(4)) {
        return;
    }
    let Some([x_ratio, x_delta, y_ratio, y_delta]) = b.nums::<4>(a) else {
        return;
    };
    let kind = AnnotationKind::GroundFormula(GroundFormula {
        x_ratio,
        x_delta,
        y_ratio,
        y_delta,
    });
    b.push_annotation(Annotation { kind, line }, kw);
}
