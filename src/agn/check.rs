//! Warnings about AGN content that reads fine but that the simulator would
//! probably misplace or ignore.

use super::read::Located;
use super::rules::codes;
use super::*;
use crate::diag::{Location, Severity};

/// Checks a model and returns warnings. `located` (from
/// [`read::read_located`]) gives each chunk's byte offset; without it the
/// diagnostics point at the whole file.
pub fn check_model(agn: &Agn, located: Option<&[Located]>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, c) in agn.chunks.iter().enumerate() {
        let loc = located.and_then(|l| l.get(i));
        check_chunk(c, None, loc, &mut out);
    }
    out
}

fn warn(out: &mut Vec<Diagnostic>, loc: Option<&Located>, code: &'static str, message: String) {
    let location = loc.map_or(Location::File, |l| Location::Offset(l.offset));
    out.push(Diagnostic::new(Severity::Warning, code, message, location));
}

fn check_chunk(
    c: &Chunk,
    parent: Option<FourCc>,
    loc: Option<&Located>,
    out: &mut Vec<Diagnostic>,
) {
    let id = c.id();
    let expected_parent = [b"GBLD", b"PREG", b"VGRG", b"AGN2", b"PBLD"]
        .into_iter()
        .map(|p| FourCc(*p))
        .find(|p| child_id(*p) == Some(id));
    match (expected_parent, parent) {
        (Some(p), q) if q != Some(p) => warn(
            out,
            loc,
            codes::OUT_OF_CONTAINER,
            format!("{id} chunk outside a {p} container; the simulator looks for it inside {p}"),
        ),
        (None, Some(p)) if !matches!(c, Chunk::Raw(_)) => warn(
            out,
            loc,
            codes::OUT_OF_CONTAINER,
            format!("{id} chunk inside {p}; it belongs at the top level"),
        ),
        _ => {}
    }
    let centre = |out: &mut Vec<Diagnostic>, x: f32, y: f32, what: &str| {
        if x.abs() > 0.5 || y.abs() > 0.5 {
            warn(
                out,
                loc,
                codes::OUTSIDE_CELL,
                format!(
                    "{id} {what} at ({x}, {y}) is outside the cell (centre-based range -0.5..0.5)"
                ),
            );
        }
    };
    let top_left = |out: &mut Vec<Diagnostic>, v: &Vertex, what: &str| {
        if !(0.0..=1.0).contains(&v[0]) || !(0.0..=1.0).contains(&v[1]) {
            warn(
                out,
                loc,
                codes::OUTSIDE_CELL,
                format!(
                    "{id} {what} vertex ({}, {}) is outside the cell (top-left-based range 0..1)",
                    v[0], v[1]
                ),
            );
        }
    };
    match c {
        Chunk::Gbdd(g) => {
            for v in [g.floors_1_2, g.floors_3_5, g.floors_6_8, g.floors_9_12] {
                if !(0..=20).contains(&v) {
                    warn(
                        out,
                        loc,
                        codes::PERCENT_RANGE,
                        format!("GBDD percentage {v} is outside 0..20 (0x14 = 100 %)"),
                    );
                }
            }
        }
        Chunk::Gbte(t) | Chunk::Rhte(t) => {
            if !(t.name.len() + t.padding as usize).is_multiple_of(4) || t.padding == 0 {
                warn(
                    out,
                    loc,
                    codes::TEXTURE_PADDING,
                    format!(
                        "{id} texture name is not NUL-terminated and padded to a multiple of 4 bytes"
                    ),
                );
            }
        }
        Chunk::Gbld(g) | Chunk::Preg(g) | Chunk::Vgrg(g) | Chunk::Agn2(g) | Chunk::Pbld(g) => {
            for (i, ch) in g.children.iter().enumerate() {
                let l = loc.and_then(|l| l.children.get(i));
                check_chunk(ch, Some(id), l, out);
            }
        }
        Chunk::Gblr(g) => g
            .buildings
            .iter()
            .for_each(|q| centre(out, q.x, q.y, "building")),
        Chunk::Rowh(r) => r
            .houses
            .iter()
            .for_each(|q| centre(out, q.x, q.y, "row house")),
        Chunk::Vgre(v) => v
            .rects
            .iter()
            .for_each(|r| centre(out, r.x, r.y, "rectangle")),
        Chunk::Vgro(v) => v
            .rects
            .iter()
            .for_each(|r| centre(out, r.x, r.y, "rectangle")),
        Chunk::A2ge(a) => match &a.records {
            A2geRecords::Short(v) => v
                .iter()
                .for_each(|r| centre(out, r.x, r.y, "library object")),
            A2geRecords::Long(v) => v
                .iter()
                .for_each(|q| centre(out, q.x, q.y, "library object")),
        },
        Chunk::Prde(p) => {
            for (i, poly) in p.polygons.iter().enumerate() {
                if poly.len() < 4 || poly.first() != poly.last() {
                    warn(
                        out,
                        loc,
                        codes::NOT_CLOSED,
                        format!(
                            "PRDE polygon {i} is not closed (needs 3+ vertices and the last equal to the first)"
                        ),
                    );
                }
                poly.iter().for_each(|v| top_left(out, v, "polygon"));
            }
        }
        Chunk::Pbde(p) => {
            for (i, b) in p.buildings.iter().enumerate() {
                if b.kind != 1 {
                    warn(
                        out,
                        loc,
                        codes::PBDE_KIND,
                        format!("PBDE building {i} starts with {} instead of 1", b.kind),
                    );
                }
                if b.footprint.len() < 3 {
                    warn(
                        out,
                        loc,
                        codes::NOT_CLOSED,
                        format!("PBDE building {i} has fewer than 3 footprint vertices"),
                    );
                }
                b.footprint
                    .iter()
                    .for_each(|v| top_left(out, v, "footprint"));
            }
        }
        Chunk::Raw(_) | Chunk::Vers(_) | Chunk::Vgrd(_) => {}
    }
}
