//! Validation rules on the finished model (the rules that need the whole
//! file: indices into the OBJECT list, tile bounds, grid ranges, tile ids …).
//!
//! Rules that depend on file order are checked while reading
//! ([`super::parse`](mod@super::parse)). Every code is listed in [`super::rules::RULES`] and in
//! `docs/diagnostics.md`.

use super::doc::Document;
use super::model::*;
use super::rules::MAX_DIAGNOSTICS;
use super::rules::codes as c;
use crate::diag::Diagnostic;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

/// Re-exported rule table.
pub use super::rules::RULES;

const EPS: f64 = 1e-9;

struct Ctx<'a> {
    doc: &'a Document,
    out: &'a mut Vec<Diagnostic>,
    /// Errors and warnings in `out`.
    counts: [usize; 2],
}

impl Ctx<'_> {
    fn err(&mut self, code: &'static str, msg: impl Into<String>, span: Range<usize>) {
        if self.counts[0] < MAX_DIAGNOSTICS {
            self.counts[0] += 1;
            self.out.push(Diagnostic::error(code, msg, span));
        }
    }
    fn warn(&mut self, code: &'static str, msg: impl Into<String>, span: Range<usize>) {
        if self.counts[1] < MAX_DIAGNOSTICS {
            self.counts[1] += 1;
            self.out.push(Diagnostic::warning(code, msg, span));
        }
    }
    fn line(&self, line: usize) -> Range<usize> {
        self.doc.line_span(line)
    }
    fn tok(&self, line: usize, i: usize) -> Range<usize> {
        self.doc.token_span(line, i)
    }
    /// Tokens `i..=j` of a line.
    fn toks(&self, line: usize, i: usize, j: usize) -> Range<usize> {
        self.tok(line, i).start..self.tok(line, j).end
    }
}

/// Adds the diagnostics of the model-level rules to `out`.
pub fn validate(doc: &Document, asset: &Asset, out: &mut Vec<Diagnostic>) {
    let errors = out.iter().filter(|d| d.is_error()).count();
    let counts = [errors, out.len() - errors];
    let mut cx = Ctx { doc, out, counts };
    common(&mut cx, asset);
    absurd(&mut cx, asset);
    annotations(&mut cx, asset);
    match asset.kind {
        Kind::Agp => tiles(&mut cx, asset),
        Kind::Ags => {
            tiles(&mut cx, asset);
            if let Some(s) = &asset.string {
                string(&mut cx, asset, s);
            }
        }
        Kind::Agb => {
            if let Some(b) = &asset.block {
                block(&mut cx, b);
            }
        }
    }
}

/// The rectangle a grid's annotations must lie in, when [`validate`] checks
/// them against one (the grid has its cuts and bands).
fn grid_rect(g: &Grid) -> Option<[f64; 4]> {
    let (h0, h1) = (g.cuts_h.first()?, g.cuts_h.last()?);
    let (v0, v1) = (g.cuts_v.first()?, g.cuts_v.last()?);
    if g.columns.is_empty() || g.rows.is_empty() {
        return None;
    }
    Some([h0.value, v0.value, h1.value, v1.value])
}

fn common(cx: &mut Ctx, a: &Asset) {
    let cm = &a.common;
    let header = cx.line(3);
    match &cm.texture_scale {
        None => cx.warn(
            c::NO_TEXTURE_SCALE,
            "TEXTURE_SCALE is missing, which the specification requires; X-Plane's tools then take the texture as 1 × 1 pixels (WorldEditor's AGP reader), so a pixel is as wide as the whole texture (TEXTURE_WIDTH, else 1 m): add `TEXTURE_SCALE width_px height_px`",
            header.clone(),
        ),
        Some(s) if s.value[0] <= 0.0 || s.value[1] <= 0.0 => cx.err(
            c::BAD_TEXTURE_SIZE,
            "TEXTURE_SCALE sizes must be positive pixel counts",
            cx.line(s.line),
        ),
        _ => {}
    }
    match &cm.texture_width {
        None => cx.warn(
            c::NO_TEXTURE_WIDTH,
            "TEXTURE_WIDTH is missing, which the specification requires; X-Plane's tools then take the texture as 1 m wide (WorldEditor's AGP reader), so a pixel is 1/TEXTURE_SCALE m (1 m without TEXTURE_SCALE): add `TEXTURE_WIDTH metres` (the width of the texture on the ground)",
            header.clone(),
        ),
        Some(w) if w.value <= 0.0 => cx.err(
            c::BAD_TEXTURE_SIZE,
            "TEXTURE_WIDTH must be a positive number of metres",
            cx.tok(w.line, 1),
        ),
        _ => {}
    }
    if let Some(h) = &cm.texture_height
        && h.value <= 0.0
    {
        cx.err(
            c::BAD_TEXTURE_SIZE,
            "TEXTURE_HEIGHT must be a positive number of metres",
            cx.tok(h.line, 1),
        );
    }
    if cm.texture.is_none() && cm.hide_tiles.is_none() && a.kind != Kind::Agb {
        cx.warn(
            c::NO_TEXTURE,
            "there is no TEXTURE but the tiles are drawn: add a TEXTURE or HIDE_TILES/HIDE_TILE",
            header.clone(),
        );
    }
    if cm.texture.is_none() && a.kind == Kind::Agb {
        cx.warn(
            c::NO_TEXTURE,
            "there is no TEXTURE for the block's tiles: add one",
            header,
        );
    }
    if let Some(l) = &cm.tile_lod
        && l.value <= 0.0
    {
        cx.err(
            c::BAD_TILE_LOD,
            "TILE_LOD must be a positive distance in metres",
            cx.tok(l.line, 1),
        );
    }
    if let Some(s) = &cm.slope_limit {
        let v = s.value;
        if v[0] > v[1] {
            cx.err(
                c::BAD_SLOPE_LIMIT,
                format!(
                    "SLOPE_LIMIT min pitch {} is greater than max pitch {}: swap them",
                    v[0], v[1]
                ),
                cx.toks(s.line, 1, 2),
            );
        }
        if v[2] > v[3] {
            cx.err(
                c::BAD_SLOPE_LIMIT,
                format!(
                    "SLOPE_LIMIT min roll {} is greater than max roll {}: swap them",
                    v[2], v[3]
                ),
                cx.toks(s.line, 3, 4),
            );
        }
    }
    if cm.vegetation.is_none()
        && let Some(f) = a.string.as_ref().and_then(|s| s.fill_layer.as_ref())
    {
        cx.err(
            c::TREE_WITHOUT_VEGETATION,
            "FILL_LAYER needs a VEGETATION (.for) file to take trees from: add one",
            cx.tok(f.line, 0),
        );
    }
}

/// The sanity rules ([`super::sanity`]), at most [`MAX_DIAGNOSTICS`] of
/// them.
fn absurd(cx: &mut Ctx, a: &Asset) {
    let mut left = MAX_DIAGNOSTICS;
    super::sanity::each(a, &mut |v| {
        let span = cx.toks(v.line, v.tokens[0], v.tokens[1]);
        cx.err(v.code, v.message, span);
        left -= 1;
        if left == 0 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
}

/// The first point of an annotation that lies outside `rect`, with the
/// index of its first token (a plain match: this runs once per annotation
/// line).
fn first_outside(k: &AnnotationKind, rect: [f64; 4]) -> Option<(usize, Px)> {
    let out = |ti: usize, p: Px| (!inside(rect, p)).then_some((ti, p));
    match k {
        AnnotationKind::Object(o) => out(1, o.at),
        AnnotationKind::Tree(t) => out(1, t.at),
        AnnotationKind::TreeLine(t) => out(1, t.from).or_else(|| out(3, t.to)),
        AnnotationKind::Facade(f) => {
            let stride = if f.walls.is_some() { 3 } else { 2 };
            f.points
                .iter()
                .enumerate()
                .find_map(|(i, &p)| out(3 + stride * i, p))
        }
        AnnotationKind::GroundFormula(_) => None,
    }
}

fn inside(rect: [f64; 4], p: Px) -> bool {
    within(bounds(rect), p)
}

/// The least and greatest coordinates a point inside `rect` (corners in
/// either order) may have: `[left, bottom, right, top]`, widened by `EPS`.
fn bounds(rect: [f64; 4]) -> [f64; 4] {
    let (l, r) = (rect[0].min(rect[2]), rect[0].max(rect[2]));
    let (b, t) = (rect[1].min(rect[3]), rect[1].max(rect[3]));
    [l - EPS, b - EPS, r + EPS, t + EPS]
}

/// Whether `p` lies within `bounds` (see [`bounds`]).
#[inline]
fn within(bounds: [f64; 4], p: Px) -> bool {
    p[0] >= bounds[0] && p[0] <= bounds[2] && p[1] >= bounds[1] && p[1] <= bounds[3]
}

/// Twice the signed area (positive = counter-clockwise with y up).
fn signed_area2(pts: &[Px]) -> f64 {
    let n = pts.len();
    (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

fn is_convex(pts: &[Px]) -> bool {
    let n = pts.len();
    let mut sign = 0.0;
    for i in 0..n {
        let (a, b, p) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
        let cross = (b[0] - a[0]) * (p[1] - b[1]) - (b[1] - a[1]) * (p[0] - b[0]);
        if cross.abs() <= EPS {
            continue;
        }
        if sign == 0.0 {
            sign = cross.signum();
        } else if cross.signum() != sign {
            return false;
        }
    }
    true
}

fn annotations(cx: &mut Ctx, a: &Asset) {
    let cm = &a.common;
    for ann in a.annotations() {
        let line = ann.line;
        match &ann.kind {
            AnnotationKind::Object(o) => {
                let it = match o.mode {
                    ObjMode::Delta { .. } => 5,
                    _ => 4,
                };
                if o.index < 0 || o.index as usize >= cm.objects.len() {
                    cx.err(
                            c::OBJECT_INDEX,
                            format!(
                                "object index {} is out of range: the file declares {} OBJECT(s), numbered from 0",
                                o.index,
                                cm.objects.len()
                            ),
                            cx.tok(line, it),
                        );
                }
                if let Some([lo, hi]) = o.show {
                    let base = match o.mode {
                        ObjMode::Scraper { .. } => 8,
                        ObjMode::Delta { .. } => 6,
                        _ => 5,
                    };
                    if !(1..=6).contains(&lo) || !(1..=6).contains(&hi) {
                        cx.err(
                            c::SHOW_LEVEL_RANGE,
                            format!("show levels {lo} {hi} must both be between 1 and 6"),
                            cx.toks(line, base, base + 1),
                        );
                    } else if lo > hi {
                        cx.err(
                            c::SHOW_LEVEL_ORDER,
                            format!("show level lo {lo} is greater than hi {hi}: swap them"),
                            cx.toks(line, base, base + 1),
                        );
                    }
                }
                if let ObjMode::Scraper { min, max, step } = o.mode
                    && (min > max || step <= 0.0)
                {
                    cx.err(
                                c::BAD_SCRAPER,
                                format!(
                                    "OBJ_SCRAPER needs min <= max and a positive step (has {min} {max} {step})"
                                ),
                                cx.toks(line, 5, 7),
                            );
                }
            }
            AnnotationKind::Facade(f) => {
                if f.index < 0 || f.index as usize >= cm.facades.len() {
                    cx.err(
                            c::FACADE_INDEX,
                            format!(
                                "facade index {} is out of range: the file declares {} FACADE(s), numbered from 0",
                                f.index,
                                cm.facades.len()
                            ),
                            cx.tok(line, 1),
                        );
                }
                if f.height <= 0.0 {
                    cx.err(
                        c::NEGATIVE_SIZE,
                        "facade height must be a positive number of metres",
                        cx.tok(line, 2),
                    );
                }
                if f.points.len() < 2 {
                    cx.err(
                        c::FACADE_POINTS,
                        "a facade needs at least 2 points",
                        cx.line(line),
                    );
                } else if f.points.len() >= 3 && signed_area2(&f.points) > EPS {
                    cx.warn(
                            c::FACADE_WINDING,
                            "facade points run counter-clockwise; the spec wants them clockwise: reverse the order",
                            cx.line(line),
                        );
                }
            }
            AnnotationKind::Tree(t) => {
                if t.width <= 0.0 {
                    cx.err(
                        c::NEGATIVE_SIZE,
                        "TREE width must be a positive number of metres",
                        cx.tok(line, 4),
                    );
                }
                if t.layer < 0 {
                    cx.err(
                        c::NEGATIVE_LAYER,
                        "forest layer must be 0 or more",
                        cx.tok(line, 5),
                    );
                }
            }
            AnnotationKind::TreeLine(t) => {
                if t.from == t.to {
                    cx.warn(
                        c::EMPTY_TREE_LINE,
                        "TREE_LINE starts and ends at the same point: use TREE or move an end",
                        cx.line(line),
                    );
                }
                if t.layer < 0 {
                    cx.err(
                        c::NEGATIVE_LAYER,
                        "forest layer must be 0 or more",
                        cx.tok(line, 5),
                    );
                }
            }
            AnnotationKind::GroundFormula(_) => {}
        }
        if matches!(
            ann.kind,
            AnnotationKind::Tree(_) | AnnotationKind::TreeLine(_)
        ) && cm.vegetation.is_none()
        {
            cx.err(
                c::TREE_WITHOUT_VEGETATION,
                "trees need a VEGETATION (.for) file: add `VEGETATION path.for`",
                cx.tok(line, 0),
            );
        }
    }
    if let Some(l) = a.string.as_ref().and_then(|s| s.fill_layer.as_ref())
        && l.value < 0
    {
        cx.err(
            c::NEGATIVE_LAYER,
            "FILL_LAYER must be 0 or more",
            cx.tok(l.line, 1),
        );
    }
}

fn tiles(cx: &mut Ctx, a: &Asset) {
    if a.tiles.is_empty() {
        cx.err(
            c::NO_TILE,
            format!(
                "an {} file needs at least one TILE: add `TILE left bottom right top`",
                a.kind.header()
            ),
            cx.line(3),
        );
    }
    let mut first_with_id: HashMap<i64, usize> = HashMap::with_capacity(a.tiles.len());
    for t in &a.tiles {
        let r = t.rect;
        if r[2] <= r[0] || r[3] <= r[1] {
            cx.err(
                c::BAD_TILE_RECT,
                "TILE must be `left bottom right top` with right > left and top > bottom",
                cx.line(t.line),
            );
        }
        if let Some(prev_line) = first_with_id.get(&t.id).copied() {
            let what = if t.explicit_id {
                "TILE_ID"
            } else {
                "implicit tile id (its index)"
            };
            cx.err(
                c::DUPLICATE_TILE_ID,
                format!(
                    "{what} {} is already used by the tile on line {}: give each tile its own id",
                    t.id, prev_line
                ),
                cx.line(t.line),
            );
        } else {
            first_with_id.insert(t.id, t.line);
        }
        if let Some(rot) = &t.rotation
            && !(0..=3).contains(&rot.value)
        {
            cx.warn(
                c::ROTATION_RANGE,
                format!(
                    "ROTATION {} is outside 0..3 quarter turns: use {}",
                    rot.value,
                    rot.value.rem_euclid(4)
                ),
                cx.tok(rot.line, 1),
            );
        }
        if let Some(cp) = &t.crop_poly {
            let pts = &cp.value;
            if pts.len() < 3 {
                cx.err(
                    c::CROP_POLY_POINTS,
                    format!("CROP_POLY has {} point(s); it needs at least 3", pts.len()),
                    cx.line(cp.line),
                );
            } else if !is_convex(pts) {
                cx.err(
                    c::CROP_POLY_CONVEX,
                    "CROP_POLY must be convex: remove the points that make it concave",
                    cx.line(cp.line),
                );
            } else if signed_area2(pts) >= 0.0 {
                cx.warn(
                    c::CROP_POLY_CLOCKWISE,
                    "CROP_POLY runs counter-clockwise; the specification asks for a clockwise polygon, X-Plane's tools take either order (WorldEditor's AGP reader uses the points as given) and placement reverses it: list the points clockwise",
                    cx.line(cp.line),
                );
            }
        }
        let singles = [
            ("ANCHOR_PT", &t.anchor),
            ("GROUND_PT", &t.ground),
            ("PIVOT_LEAD_PT", &t.pivot_lead),
            ("PIVOT_TRAIL_PT", &t.pivot_trail),
        ];
        let stops = t.stop_pts.iter().map(|p| ("STOP_PT", p));
        for (kw, p) in singles
            .into_iter()
            .filter_map(|(k, p)| p.as_ref().map(|p| (k, p)))
            .chain(stops)
        {
            if !inside(r, p.value) {
                cx.warn(
                    c::POINT_OUTSIDE_TILE,
                    format!(
                        "{kw} ({}, {}) is outside its tile ({} {} {} {})",
                        p.value[0], p.value[1], r[0], r[1], r[2], r[3]
                    ),
                    cx.toks(p.line, 1, 2),
                );
            }
        }
        for ann in &t.annotations {
            if let Some((ti, p)) = first_outside(&ann.kind, r) {
                cx.err(
                    c::OUTSIDE_TILE,
                    format!(
                        "point ({}, {}) is outside its tile ({} {} {} {}, line {}): annotations must lie within the tile",
                        p[0], p[1], r[0], r[1], r[2], r[3], t.line
                    ),
                    cx.toks(ann.line, ti, ti + 1),
                );
            }
        }
    }
}

fn range_checks(cx: &mut Ctx, line: usize, first_tok: usize, what: &str, r: [f64; 2], len: bool) {
    if r[0] > r[1] {
        let code = if what.contains("angle") {
            c::ANGLE_ORDER
        } else {
            c::RANGE_ORDER
        };
        cx.err(
            code,
            format!(
                "{what} range {} {} has min greater than max: swap them",
                r[0], r[1]
            ),
            cx.toks(line, first_tok, first_tok + 1),
        );
    }
    if len && r[0] < 0.0 {
        cx.err(
            c::NEGATIVE_LENGTH,
            format!("{what} range {} {} must not be negative", r[0], r[1]),
            cx.toks(line, first_tok, first_tok + 1),
        );
    }
}

fn block(cx: &mut Ctx, b: &BlockProps) {
    if b.grids.is_empty() {
        cx.err(
            c::TOO_FEW_CUTS,
            "this AGB defines no grid: add CUT_H and CUT_V lines and END_CUTS",
            cx.line(3),
        );
    }
    for g in &b.grids {
        let edges = [
            ("EDGE_MIN", &g.edge_min),
            ("EDGE_BEST", &g.edge_best),
            ("EDGE_MAX", &g.edge_max),
        ];
        for (kw, e) in edges {
            if let Some(e) = e {
                let v = e.value;
                if v[0] > v[2] || v[1] > v[3] {
                    cx.err(
                        c::BAD_EDGE,
                        format!("{kw} must be `left bottom right top` with left <= right and bottom <= top"),
                        cx.line(e.line),
                    );
                }
            }
        }
        let contains =
            |o: [f64; 4], i: [f64; 4]| o[0] <= i[0] && o[1] <= i[1] && o[2] >= i[2] && o[3] >= i[3];
        if let (Some(mn), Some(be)) = (&g.edge_min, &g.edge_best)
            && !contains(be.value, mn.value)
        {
            cx.warn(
                c::EDGE_NESTING,
                "EDGE_MIN is not inside EDGE_BEST",
                cx.line(mn.line),
            );
        }
        if let (Some(be), Some(mx)) = (&g.edge_best, &g.edge_max)
            && !contains(mx.value, be.value)
        {
            cx.warn(
                c::EDGE_NESTING,
                "EDGE_BEST is not inside EDGE_MAX",
                cx.line(be.line),
            );
        }
        for (dir, bands) in [('H', &g.columns), ('V', &g.rows)] {
            for band in bands {
                if let Some(o) = band.slop
                    && (o < 0.0 || o > band.size() + EPS)
                {
                    cx.warn(
                        c::SLOP_OVERLAP,
                        format!(
                            "slop overlap {o} px does not fit the {} px slop band: use 0..{}",
                            band.size(),
                            band.size()
                        ),
                        cx.line(band.line),
                    );
                }
                let _ = dir;
            }
        }
        if let Some(rect) = grid_rect(g) {
            for ann in &g.annotations {
                if let Some((ti, p)) = first_outside(&ann.kind, rect) {
                    cx.err(
                        c::OUTSIDE_GRID,
                        format!(
                            "point ({}, {}) is outside the grid ({} {} {} {})",
                            p[0], p[1], rect[0], rect[1], rect[2], rect[3]
                        ),
                        cx.toks(ann.line, ti, ti + 1),
                    );
                }
            }
        }
    }
    if b.spelling_sets.is_empty() {
        cx.err(
            c::NO_SPELLING_SET,
            "an AGB needs at least one SPELLING_SET with SPELLING_S and SPELLING_T lines",
            cx.line(3),
        );
    }
    for set in &b.spelling_sets {
        if !(0..=255).contains(&set.param) {
            cx.warn(
                c::SPELLING_SET_PARAM,
                format!(
                    "SPELLING_SET {} can never match: the DSF passes only the low 8 bits (0..255)",
                    set.param
                ),
                cx.tok(set.line, 1),
            );
        }
        if set.spellings_s.is_empty() || set.spellings_t.is_empty() {
            let missing = if set.spellings_s.is_empty() {
                "SPELLING_S"
            } else {
                "SPELLING_T"
            };
            cx.err(
                c::EMPTY_SPELLING_SET,
                format!("this spelling set has no {missing}: add at least one"),
                cx.line(set.line),
            );
        }
        for (kw, r, len) in [
            ("HEIGHT_RANGE", &set.height_range, true),
            ("WIDTH_RANGE", &set.width_range, true),
            ("DEPTH_RANGE", &set.depth_range, true),
        ] {
            if let Some(r) = r {
                range_checks(cx, r.line, 1, kw, r.value, len);
            }
        }
        if let Some(f) = &set.frequency
            && f.value < 0.0
        {
            cx.err(
                c::BAD_FREQUENCY,
                "FREQUENCY must be 0 or more (a relative weight)",
                cx.tok(f.line, 1),
            );
        }
        let gi = set.grid();
        let grid = usize::try_from(gi).ok().and_then(|i| b.grids.get(i));
        let Some(grid) = grid else {
            let span = match &set.use_grid {
                Some(u) => cx.tok(u.line, 1),
                None => cx.line(set.line),
            };
            if !b.grids.is_empty() {
                cx.err(
                    c::USE_GRID_UNKNOWN,
                    format!(
                        "grid {gi} does not exist: this file has {} grid(s), numbered from 0",
                        b.grids.len()
                    ),
                    span,
                );
            }
            continue;
        };
        for (axis, list, n) in [
            ('S', &set.spellings_s, grid.columns.len()),
            ('T', &set.spellings_t, grid.rows.len()),
        ] {
            for sp in list {
                if let Some((k, bad)) = sp
                    .indices
                    .iter()
                    .enumerate()
                    .find(|(_, i)| **i < 0 || **i as usize >= n)
                {
                    let span = if sp.name.is_some() {
                        cx.tok(sp.line, 1)
                    } else {
                        cx.tok(sp.line, k + 1)
                    };
                    let what = if axis == 'S' { "column" } else { "row" };
                    cx.err(
                        c::SPELLING_INDEX,
                        if n == 0 {
                            format!("{what} {bad} does not exist: grid {gi} has no {what}s (check its cuts)")
                        } else {
                            format!(
                                "{what} {bad} does not exist in grid {gi}, which has {n} {what}s (0..{})",
                                n - 1
                            )
                        },
                        span,
                    );
                }
            }
        }
    }
}

fn string(cx: &mut Ctx, a: &Asset, s: &StringProps) {
    if let Some(cr) = &s.creasing_angle {
        for (i, v) in cr.value.iter().enumerate() {
            if !(0.0..=180.0).contains(v) {
                cx.err(
                    c::BAD_CREASE,
                    format!("crease angle {v} must be between 0 and 180 degrees"),
                    cx.tok(cr.line, i + 1),
                );
            }
        }
    }
    let by_id: HashMap<i64, &Tile> = a.tiles.iter().rev().map(|t| (t.id, t)).collect();
    let groups: HashSet<i64> = s.groups.iter().map(|g| g.id).collect();
    // Reports the first unknown id of a directive only (a hostile line may
    // hold a million of them).
    let check_ids = |cx: &mut Ctx, line: usize, first_tok: usize, ids: &[i64]| {
        if let Some((k, id)) = ids
            .iter()
            .enumerate()
            .find(|(_, id)| !by_id.contains_key(id))
        {
            let more = ids.iter().filter(|id| !by_id.contains_key(id)).count() - 1;
            let more = if more > 0 {
                format!(" ({more} more unknown id(s) on this line)")
            } else {
                String::new()
            };
            cx.err(
                c::UNKNOWN_TILE_ID,
                format!("no tile has id {id}{more}: check the TILE_IDs (tiles without one are numbered from 0 in file order)"),
                cx.tok(line, first_tok + k),
            );
        }
    };
    for g in &s.groups {
        if g.id <= 0 {
            cx.err(
                c::BAD_GROUP_ID,
                format!("group id {} must be a positive integer", g.id),
                cx.tok(g.line, 1),
            );
        }
        check_ids(cx, g.line, 2, &g.tiles);
    }
    let group_known = |g: i64| g == 0 || groups.contains(&g);
    for cr in &s.corners {
        let (first_tile, group) = match &cr.kind {
            CornerKind::Corner { angle } => {
                range_checks(cx, cr.line, 1, "corner angle", *angle, false);
                (3, 0)
            }
            CornerKind::Len {
                len1,
                angle,
                len2,
                group,
            }
            | CornerKind::Atomic {
                len1,
                angle,
                len2,
                group,
            } => {
                range_checks(cx, cr.line, 1, "previous side length", *len1, true);
                range_checks(cx, cr.line, 3, "corner angle", *angle, false);
                range_checks(cx, cr.line, 5, "next side length", *len2, true);
                (8, *group)
            }
            CornerKind::Pair {
                angle1,
                length,
                angle2,
                group,
            } => {
                range_checks(cx, cr.line, 1, "first corner angle", *angle1, false);
                range_checks(cx, cr.line, 3, "side length", *length, true);
                range_checks(cx, cr.line, 5, "second corner angle", *angle2, false);
                (8, *group)
            }
        };
        if !group_known(group) {
            cx.warn(
                c::UNKNOWN_GROUP,
                format!("no GROUP {group} is defined, so this condition never holds: define the group or use 0"),
                cx.tok(cr.line, 7),
            );
        }
        check_ids(cx, cr.line, first_tile, &cr.tiles);
        if cr.tiles.len() == 3 {
            let need = [
                (0usize, true, false),
                (1usize, true, true),
                (2usize, false, true),
            ];
            for (k, lead, trail) in need {
                if let Some(t) = by_id.get(&cr.tiles[k]) {
                    let miss = if lead && t.pivot_lead.is_none() {
                        Some("PIVOT_LEAD_PT")
                    } else if trail && t.pivot_trail.is_none() {
                        Some("PIVOT_TRAIL_PT")
                    } else {
                        None
                    };
                    if let Some(m) = miss {
                        cx.warn(
                            c::PIVOT_MISSING,
                            format!(
                                "tile {} of this 3-tile corner has no {m}, so the corner cannot articulate: add it to the tile",
                                t.id
                            ),
                            cx.tok(cr.line, first_tile + k),
                        );
                    }
                }
            }
        }
    }
    for sp in &s.spellings {
        let first = match &sp.atomic {
            Some(cond) => {
                range_checks(cx, sp.line, 1, "side length", cond.length, true);
                if !group_known(cond.group) {
                    cx.warn(
                        c::UNKNOWN_GROUP,
                        format!("no GROUP {} is defined, so this condition never holds: define the group or use 0", cond.group),
                        cx.tok(sp.line, 3),
                    );
                }
                4
            }
            None => 1,
        };
        check_ids(cx, sp.line, first, &sp.tiles);
    }
    for cap in &s.caps {
        check_ids(cx, cap.line, 1, &cap.value);
    }
    if s.spellings.is_empty() {
        cx.warn(
            c::NO_SPELLING,
            "this AGS has no SPELLING or ATOMIC_SPELLING, so no edge is ever filled",
            cx.line(3),
        );
    }
}
