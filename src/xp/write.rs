//! Writing a model as canonical text.
//!
//! [`to_string`] writes an [`Asset`] in a fixed order (header, metadata
//! comments, common directives, format properties, tiles or grids, selection
//! rules) with one space between tokens, LF line endings and numbers in
//! Rust's shortest round-trip form. Parsing the result gives the same model
//! back, line numbers aside. To reformat a file keeping its comments and
//! layout, use [`super::Document::to_canonical`] instead.

use super::model::*;
use super::parse::kw;
use std::fmt::Write as _;

struct W {
    out: String,
}

impl W {
    fn line(&mut self, kw: &str) -> &mut Self {
        self.out.push_str(kw);
        self
    }
    fn n(&mut self, v: f64) -> &mut Self {
        let _ = write!(self.out, " {v}");
        self
    }
    fn i(&mut self, v: i64) -> &mut Self {
        let _ = write!(self.out, " {v}");
        self
    }
    fn s(&mut self, v: &str) -> &mut Self {
        self.out.push(' ');
        self.out.push_str(v);
        self
    }
    fn end(&mut self) {
        self.out.push('\n');
    }
    fn blank(&mut self) {
        if !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }
}

/// Writes `asset` as canonical autogen text.
pub fn to_string(asset: &Asset) -> String {
    let mut w = W {
        out: String::with_capacity(4096),
    };
    w.line("A").end();
    w.line("1000").end();
    w.line(asset.kind.header()).end();
    w.blank();
    for m in &asset.meta {
        w.line("#").out.push_str(&m.key);
        if !m.value.is_empty() {
            w.s(&m.value);
        }
        w.end();
    }
    common(&mut w, asset);
    for u in &asset.unknown {
        w.line(&u.keyword);
        if !u.args.is_empty() {
            w.s(&u.args);
        }
        w.end();
    }
    if let Some(s) = &asset.string {
        if let Some(c) = &s.creasing_angle {
            w.line(kw!("CREASING_ANGLE"))
                .n(c.value[0])
                .n(c.value[1])
                .end();
        }
        if let Some(f) = &s.fill_layer {
            w.line(kw!("FILL_LAYER")).i(f.value).end();
        }
        if s.share_y.is_some() {
            w.line(kw!("SHARE_Y")).end();
        }
    }
    for (k, t) in asset.tiles.iter().enumerate() {
        w.blank();
        tile(&mut w, t, k);
    }
    if let Some(b) = &asset.block {
        block(&mut w, b);
    }
    if let Some(s) = &asset.string {
        string(&mut w, s);
    }
    w.out
}

fn common(w: &mut W, asset: &Asset) {
    let c = &asset.common;
    if let Some(t) = &c.texture {
        w.line(kw!("TEXTURE")).s(&t.value).end();
    }
    if let Some(t) = &c.texture_lit {
        w.line(kw!("TEXTURE_LIT")).s(&t.value).end();
    }
    if let Some(t) = &c.texture_normal {
        w.line(kw!("TEXTURE_NORMAL"));
        if let Some(r) = t.value.ratio {
            w.n(r);
        }
        w.s(&t.value.path).end();
    }
    if let Some(t) = &c.texture_scale {
        w.line(kw!("TEXTURE_SCALE"))
            .n(t.value[0])
            .n(t.value[1])
            .end();
    }
    if let Some(t) = &c.texture_width {
        w.line(kw!("TEXTURE_WIDTH")).n(t.value).end();
    }
    if let Some(t) = &c.texture_height {
        w.line(kw!("TEXTURE_HEIGHT")).n(t.value).end();
    }
    if let Some(m) = &c.mesh_shader {
        w.line(kw!("MESH_SHADER"));
        for a in &m.value {
            w.s(a);
        }
        w.end();
    }
    for d in &c.decal_lib {
        w.line(kw!("DECAL_LIB")).s(&d.value).end();
    }
    for d in &c.decal_params {
        w.line(&d.value.keyword);
        for v in &d.value.values {
            w.n(*v);
        }
        for r in &d.value.rest {
            w.s(r);
        }
        w.end();
    }
    if let Some(nb) = &c.no_blend {
        w.line(kw!("NO_BLEND"));
        if let Some(v) = nb.value {
            w.n(v);
        }
        w.end();
    }
    if let Some(d) = &c.dither_alpha {
        w.line(kw!("DITHER_ALPHA"))
            .n(d.value[0])
            .n(d.value[1])
            .end();
    }
    if let Some(l) = &c.layer_group {
        w.line(kw!("LAYER_GROUP"))
            .s(&l.value.name)
            .i(l.value.offset)
            .end();
    }
    if let Some(l) = &c.tile_lod {
        w.line(kw!("TILE_LOD")).n(l.value).end();
    }
    if let Some(s) = &c.slope_limit {
        let v = s.value;
        w.line(kw!("SLOPE_LIMIT"))
            .n(v[0])
            .n(v[1])
            .n(v[2])
            .n(v[3])
            .end();
    }
    if c.hide_tiles.is_some() {
        let kw = if asset.kind == Kind::Ags {
            kw!("HIDE_TILE")
        } else {
            kw!("HIDE_TILES")
        };
        w.line(kw).end();
    }
    if let Some(v) = &c.vegetation {
        w.line(kw!("VEGETATION")).s(&v.value).end();
    }
    for o in &c.objects {
        w.line(kw!("OBJECT")).s(&o.value).end();
    }
    for f in &c.facades {
        w.line(kw!("FACADE")).s(&f.value).end();
    }
}

fn pt(w: &mut W, kw: &str, p: &Px) {
    w.line(kw).n(p[0]).n(p[1]).end();
}

fn tile(w: &mut W, t: &Tile, index: usize) {
    if t.explicit_id || t.id != index as i64 {
        w.line(kw!("TILE_ID")).i(t.id).end();
    }
    let r = t.rect;
    w.line(kw!("TILE")).n(r[0]).n(r[1]).n(r[2]).n(r[3]).end();
    if let Some(rot) = &t.rotation {
        w.line(kw!("ROTATION")).i(rot.value).end();
    }
    if let Some(p) = &t.anchor {
        pt(w, kw!("ANCHOR_PT"), &p.value);
    }
    if let Some(p) = &t.ground {
        pt(w, kw!("GROUND_PT"), &p.value);
    }
    if let Some(cp) = &t.crop_poly {
        w.line(kw!("CROP_POLY"));
        for p in &cp.value {
            w.n(p[0]).n(p[1]);
        }
        w.end();
    }
    for p in &t.stop_pts {
        pt(w, kw!("STOP_PT"), &p.value);
    }
    if let Some(p) = &t.pivot_lead {
        pt(w, kw!("PIVOT_LEAD_PT"), &p.value);
    }
    if let Some(p) = &t.pivot_trail {
        pt(w, kw!("PIVOT_TRAIL_PT"), &p.value);
    }
    for a in &t.annotations {
        annotation(w, a);
    }
}

/// Writes one annotation line.
fn annotation(w: &mut W, a: &Annotation) {
    match &a.kind {
        AnnotationKind::Object(o) => {
            let kw = match o.mode {
                ObjMode::Draped => kw!("OBJ_DRAPED"),
                ObjMode::Graded => kw!("OBJ_GRADED"),
                ObjMode::Scraper { .. } => kw!("OBJ_SCRAPER"),
                ObjMode::Delta { .. } => kw!("OBJ_DELTA"),
            };
            w.line(kw).n(o.at[0]).n(o.at[1]).n(o.heading);
            match o.mode {
                ObjMode::Scraper { min, max, step } => {
                    w.i(o.index).n(min).n(max).n(step);
                }
                ObjMode::Delta { height } => {
                    w.n(height).i(o.index);
                }
                _ => {
                    w.i(o.index);
                }
            }
            if let Some([lo, hi]) = o.show {
                w.i(lo).i(hi);
            }
            w.end();
        }
        AnnotationKind::Facade(f) => {
            let kw = if f.walls.is_some() {
                kw!("FAC_WALLS")
            } else {
                kw!("FAC")
            };
            w.line(kw).i(f.index).n(f.height);
            for (k, p) in f.points.iter().enumerate() {
                w.n(p[0]).n(p[1]);
                if let Some(walls) = &f.walls {
                    w.i(walls.get(k).copied().unwrap_or(0));
                }
            }
            w.end();
        }
        AnnotationKind::Tree(t) => {
            w.line(kw!("TREE"))
                .n(t.at[0])
                .n(t.at[1])
                .n(t.heading)
                .n(t.width)
                .i(t.layer)
                .end();
        }
        AnnotationKind::TreeLine(t) => {
            w.line(kw!("TREE_LINE"))
                .n(t.from[0])
                .n(t.from[1])
                .n(t.to[0])
                .n(t.to[1])
                .i(t.layer)
                .end();
        }
        AnnotationKind::GroundFormula(g) => {
            w.line(kw!("GROUND_PT_FORMULA"))
                .n(g.x_ratio)
                .n(g.x_delta)
                .n(g.y_ratio)
                .n(g.y_delta)
                .end();
        }
    }
}

fn block(w: &mut W, b: &BlockProps) {
    if let Some(c) = &b.crop {
        w.line(kw!("CROP")).i(i64::from(c.value)).end();
    }
    if b.flip_180.is_some() {
        w.line(kw!("FLIP_180")).end();
    }
    for (k, g) in b.grids.iter().enumerate() {
        w.blank();
        if g.line.is_some() || k > 0 {
            w.line(kw!("SUB_GRID")).end();
        }
        for (dir, cuts, bands) in [('H', &g.cuts_h, &g.columns), ('V', &g.cuts_v, &g.rows)] {
            for (i, cut) in cuts.iter().enumerate() {
                w.line(if dir == 'H' {
                    kw!("CUT_H")
                } else {
                    kw!("CUT_V")
                })
                .n(cut.value)
                .end();
                if let Some(band) = bands.get(i) {
                    if let Some(o) = band.slop {
                        w.line(if dir == 'H' {
                            kw!("SLOP_H")
                        } else {
                            kw!("SLOP_V")
                        })
                        .n(o)
                        .end();
                    }
                    if band.antislop != 0.0 {
                        w.line(if dir == 'H' {
                            kw!("ANTISLOP_H")
                        } else {
                            kw!("ANTISLOP_V")
                        })
                        .n(band.antislop)
                        .end();
                    }
                }
            }
        }
        if g.end_cuts.is_some() {
            w.line(kw!("END_CUTS")).end();
        }
        for (kw, e) in [
            (kw!("EDGE_MIN"), &g.edge_min),
            (kw!("EDGE_BEST"), &g.edge_best),
            (kw!("EDGE_MAX"), &g.edge_max),
        ] {
            if let Some(e) = e {
                let v = e.value;
                w.line(kw).n(v[0]).n(v[1]).n(v[2]).n(v[3]).end();
            }
        }
        for a in &g.annotations {
            annotation(w, a);
        }
    }
    if !b.named_s.is_empty() || !b.named_t.is_empty() {
        w.blank();
    }
    for (kw, list) in [
        (kw!("DEFINE_SPELLING_S"), &b.named_s),
        (kw!("DEFINE_SPELLING_T"), &b.named_t),
    ] {
        for n in list {
            w.line(kw).s(&n.name);
            for i in &n.indices {
                w.i(*i);
            }
            w.end();
        }
    }
    for set in &b.spelling_sets {
        w.blank();
        w.line(kw!("SPELLING_SET")).i(set.param).end();
        for (kw, r) in [
            (kw!("HEIGHT_RANGE"), &set.height_range),
            (kw!("WIDTH_RANGE"), &set.width_range),
            (kw!("DEPTH_RANGE"), &set.depth_range),
        ] {
            if let Some(r) = r {
                w.line(kw).n(r.value[0]).n(r.value[1]).end();
            }
        }
        if let Some(f) = &set.frequency {
            w.line(kw!("FREQUENCY")).n(f.value).end();
        }
        if let Some(g) = &set.use_grid {
            w.line(kw!("USE_GRID")).i(g.value).end();
        }
        for (axis, list) in [('S', &set.spellings_s), ('T', &set.spellings_t)] {
            for sp in list {
                match &sp.name {
                    Some(name) => {
                        w.line(if axis == 'S' {
                            kw!("USE_SPELLING_S")
                        } else {
                            kw!("USE_SPELLING_T")
                        })
                        .s(name)
                        .end();
                    }
                    None => {
                        w.line(if axis == 'S' {
                            kw!("SPELLING_S")
                        } else {
                            kw!("SPELLING_T")
                        });
                        for i in &sp.indices {
                            w.i(*i);
                        }
                        w.end();
                    }
                }
            }
        }
    }
}

fn range(w: &mut W, r: &Range2) {
    w.n(r[0]).n(r[1]);
}

fn string(w: &mut W, s: &StringProps) {
    if !s.groups.is_empty() {
        w.blank();
    }
    for g in &s.groups {
        w.line(kw!("GROUP")).i(g.id);
        for t in &g.tiles {
            w.i(*t);
        }
        w.end();
    }
    if !s.corners.is_empty() {
        w.blank();
    }
    let mut level = 0;
    for c in &s.corners {
        while level < c.priority {
            w.line(kw!("PRIORITY_MARKER_CORNER")).end();
            level += 1;
        }
        match &c.kind {
            CornerKind::Corner { angle } => {
                w.line(kw!("CORNER"));
                range(w, angle);
            }
            CornerKind::Len {
                len1,
                angle,
                len2,
                group,
            } => {
                w.line(kw!("CORNER_LEN"));
                range(w, len1);
                range(w, angle);
                range(w, len2);
                w.i(*group);
            }
            CornerKind::Pair {
                angle1,
                length,
                angle2,
                group,
            } => {
                w.line(kw!("CORNER_PAIR"));
                range(w, angle1);
                range(w, length);
                range(w, angle2);
                w.i(*group);
            }
            CornerKind::Atomic {
                len1,
                angle,
                len2,
                group,
            } => {
                w.line(kw!("ATOMIC_SPELLING_CORNER"));
                range(w, len1);
                range(w, angle);
                range(w, len2);
                w.i(*group);
            }
        }
        for t in &c.tiles {
            w.i(*t);
        }
        w.end();
        if let Some(o) = &c.order {
            w.line(kw!("CORNER_ORDER"))
                .i(o.value[0])
                .i(o.value[1])
                .i(o.value[2])
                .end();
        }
    }
    if !s.spellings.is_empty() {
        w.blank();
    }
    let mut level = 0;
    for sp in &s.spellings {
        while level < sp.priority {
            w.line(kw!("PRIORITY_MARKER")).end();
            level += 1;
        }
        match &sp.atomic {
            Some(a) => {
                w.line(kw!("ATOMIC_SPELLING"));
                range(w, &a.length);
                w.i(a.group);
            }
            None => {
                w.line(kw!("SPELLING"));
            }
        }
        for t in &sp.tiles {
            w.i(*t);
        }
        w.end();
    }
    if !s.caps.is_empty() {
        w.blank();
    }
    for c in &s.caps {
        w.line(kw!("CAPS"));
        for t in &c.value {
            w.i(*t);
        }
        w.end();
    }
}
