//! Content warnings for a decoded DSF: what X-Plane would accept but
//! probably misplace (autogen polygons of the wrong shape or winding,
//! missing tile bounds, filters without an airport).

use super::autogen::AutogenKind;
use super::flat::{Item, View};
use super::read::Decoded;
use super::rules::codes;
use super::{Dsf, ElevationMode, Entity};
use crate::diag::{Diagnostic, Location, Severity};
use geo::{Coord, LineString, Winding};

fn warn(code: &'static str, message: String, location: Location) -> Diagnostic {
    Diagnostic::new(Severity::Warning, code, message, location)
}

/// Warnings about `dsf`'s content, pointing at the command that made each
/// entity (or the whole file for properties):
///
/// * `DSF021` an AGB use that is not one winding of 4 points;
/// * `DSF022` an AGB winding that is clockwise, or an AGS without a
///   counter-clockwise winding (its outer ring may come anywhere);
/// * `DSF023` an AGS whose spawning-contour count (param low byte) exceeds
///   its windings;
/// * `DSF024` an AGB/AGS polygon whose pool has more than lon/lat (depth ≠ 2);
/// * `DSF025` an AGP placed from a 4-plane pool (its elevation is ignored);
/// * `DSF026` `sim/west|south|east|north` missing, not integers in range,
///   or inverted (west not less than east, south not less than north);
/// * `DSF027` a filter index with no matching `sim/filter/aptid`.
pub fn lint(dsf: &Dsf) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    bounds(dsf, &mut out);
    let filters = filter_count(dsf);
    let kinds = Kinds::of(dsf);
    let mut scratch = Vec::new();
    for (i, e) in dsf.entities.iter().enumerate() {
        let at = dsf
            .entity_offsets
            .get(i)
            .map_or(Location::File, |&o| Location::Offset(o));
        match e {
            Entity::Filter(f) => filter(*f, filters, at, &mut out),
            Entity::Object(o) => {
                object(dsf, &kinds, o.def, o.elevation.is_some(), || at, &mut out);
            }
            Entity::Polygon(p) => {
                let shape = Shape {
                    def: p.def,
                    param: p.param,
                    depth: p.depth,
                    windings: p.windings.len(),
                };
                polygon(
                    dsf,
                    &kinds,
                    &shape,
                    at,
                    &mut out,
                    &mut scratch,
                    |k, ring| {
                        ring.extend(
                            p.points(k)
                                .filter(|c| c.len() >= 2)
                                .map(|c| Coord { x: c[0], y: c[1] }),
                        );
                    },
                );
            }
            _ => {}
        }
    }
    out
}

/// The autogen kind of each object and polygon definition, found once
/// per tile rather than once per entity.
#[derive(Debug, Default)]
struct Kinds {
    objects: Vec<Option<AutogenKind>>,
    polygons: Vec<Option<AutogenKind>>,
}

impl Kinds {
    fn of(dsf: &Dsf) -> Kinds {
        let kinds = |defs: &[String]| defs.iter().map(|p| AutogenKind::from_path(p)).collect();
        Kinds {
            objects: kinds(&dsf.object_defs),
            polygons: kinds(&dsf.polygon_defs),
        }
    }
}

/// [`lint`] of a binary DSF as its records are decoded (what `agkit
/// check` runs through [`super::check_bytes`]: no entity is built).
pub fn lint_decoded(d: &Decoded<'_>) -> Result<Vec<Diagnostic>, super::DsfError> {
    let flat = d.flat()?;
    let mut lint = Lint::default();
    for it in &flat.items {
        lint.item(&d.head, &flat.view(), it);
    }
    Ok(lint.finish(&d.head))
}

/// The checks of [`lint`], fed one flat record at a time.
#[derive(Debug, Default)]
pub(crate) struct Lint {
    filters: Option<usize>,
    /// The definitions' kinds, found at the first record that needs them.
    kinds: Option<Kinds>,
    /// One ring's coordinates, reused from polygon to polygon.
    scratch: Vec<Coord<f64>>,
    out: Vec<Diagnostic>,
}

impl Lint {
    /// Checks one record of the tile whose head is `dsf`; its points are
    /// in `view`.
    pub(crate) fn item(&mut self, dsf: &Dsf, view: &View<'_>, it: &Item) {
        let out = &mut self.out;
        match *it {
            Item::Filter { at, value } => {
                let filters = *self.filters.get_or_insert_with(|| filter_count(dsf));
                filter(value, filters, Location::Offset(at), out);
            }
            Item::Objects {
                at,
                step,
                def,
                first,
                last,
                mode,
                ..
            } => {
                if mode == ElevationMode::Draped {
                    return; // no elevation: nothing to warn about
                }
                let kinds = self.kinds.get_or_insert_with(|| Kinds::of(dsf));
                for k in 0..u64::from(last - first) {
                    let at = || Location::Offset(at + u64::from(step) * k);
                    if !object(dsf, kinds, def, true, at, out) {
                        break; // not an elevated AGP: neither is the rest
                    }
                }
            }
            Item::Polygon {
                at,
                def,
                param,
                pool,
                form,
                start,
                windings,
            } => {
                let p = &view.pools[pool as usize];
                let shape = Shape {
                    def,
                    param,
                    depth: p.depth(),
                    windings: windings as usize,
                };
                let kinds = self.kinds.get_or_insert_with(|| Kinds::of(dsf));
                polygon(
                    dsf,
                    kinds,
                    &shape,
                    Location::Offset(at),
                    out,
                    &mut self.scratch,
                    |k, ring| {
                        if p.depth() >= 2 {
                            ring.extend(view.winding(form, start, k as u32).map(|i| Coord {
                                x: p.value(i as usize, 0),
                                y: p.value(i as usize, 1),
                            }));
                        }
                    },
                );
            }
            _ => {}
        }
    }

    /// The diagnostics, in the order [`lint`] gives them: the tile's
    /// bounds first, then the records'.
    pub(crate) fn finish(self, dsf: &Dsf) -> Vec<Diagnostic> {
        let mut out = Vec::with_capacity(self.out.len() + 4);
        bounds(dsf, &mut out);
        out.extend(self.out);
        out
    }
}

fn filter_count(dsf: &Dsf) -> usize {
    dsf.properties
        .iter()
        .filter(|(n, _)| n == "sim/filter/aptid")
        .count()
}

/// `DSF027` for filter `f`.
fn filter(f: i32, filters: usize, at: Location, out: &mut Vec<Diagnostic>) {
    if f >= 0 && f as usize >= filters {
        out.push(warn(
            codes::FILTER_WITHOUT_APTID,
            format!("filter {f} has no sim/filter/aptid property ({filters} defined)"),
            at,
        ));
    }
}

/// `DSF025` for an object of definition `def`; true when it was warned
/// about (an AGP with an elevation).
fn object(
    dsf: &Dsf,
    kinds: &Kinds,
    def: u32,
    elevated: bool,
    at: impl FnOnce() -> Location,
    out: &mut Vec<Diagnostic>,
) -> bool {
    if !elevated {
        return false;
    }
    let path = dsf.object_defs.get(def as usize);
    if kinds.objects.get(def as usize).copied().flatten() != Some(AutogenKind::Agp) {
        return false;
    }
    out.push(warn(
        codes::AGP_ELEVATION,
        format!(
            "AGP {} is placed from a 4-plane pool; AGPs take no elevation",
            path.map_or("", |s| s.as_str())
        ),
        at(),
    ));
    true
}

/// What the polygon checks need to know of one polygon.
struct Shape {
    def: u32,
    param: u16,
    depth: usize,
    windings: usize,
}

/// `DSF021`…`DSF024` for one polygon; `ring(k, out)` appends the lon/lat
/// of winding `k`'s points (none when the polygon has fewer than two
/// coordinates per point) to `out`, which `scratch` lends.
fn polygon(
    dsf: &Dsf,
    kinds: &Kinds,
    p: &Shape,
    at: Location,
    out: &mut Vec<Diagnostic>,
    scratch: &mut Vec<Coord<f64>>,
    ring: impl Fn(usize, &mut Vec<Coord<f64>>),
) {
    let Some(path) = dsf.polygon_defs.get(p.def as usize) else {
        return;
    };
    let kind = match kinds.polygons.get(p.def as usize).copied().flatten() {
        Some(k @ (AutogenKind::Agb | AutogenKind::Ags)) => k,
        _ => return,
    };
    if p.depth != 2 {
        out.push(warn(
            codes::AUTOGEN_DEPTH,
            format!(
                "{path} is placed with {} coordinates per point, not 2",
                p.depth
            ),
            at.clone(),
        ));
    }
    // A polygon may have no winding at all (a binary DSF can say so).
    // Winding 0's points, read once here, serve both checks below.
    scratch.clear();
    if p.windings > 0 {
        ring(0, scratch);
    }
    let first = scratch.len();
    if kind == AutogenKind::Agb && (p.windings != 1 || first != 4) {
        out.push(warn(
            codes::AGB_NOT_QUAD,
            format!(
                "AGB {path} should be one winding of 4 points; it has {} winding(s), the first with {first} points",
                p.windings,
            ),
            at.clone(),
        ));
    }
    // An AGB's one winding must run counter-clockwise. An AGS's
    // outer ring is its counter-clockwise winding wherever it
    // comes: a polygon cut at a tile edge may list spawning
    // holes first (the AGS engine finds the outer ring by
    // shape), so only a polygon with no counter-clockwise
    // winding at all is suspect.
    let mut clockwise = |k: usize| {
        if k > 0 {
            scratch.clear();
            ring(k, scratch);
        }
        is_clockwise(scratch)
    };
    let suspect = p.windings > 0
        && match kind {
            AutogenKind::Agb => clockwise(0),
            _ => (0..p.windings).all(&mut clockwise),
        };
    if suspect {
        let what = if kind == AutogenKind::Agb {
            format!("AGB winding of {path} is clockwise; it should be counter-clockwise")
        } else {
            format!(
                "AGS {path} has no counter-clockwise winding to be its outer ring; wind the outer ring counter-clockwise (holes clockwise)"
            )
        };
        out.push(warn(codes::WINDING_ORDER, what, at.clone()));
    }
    let spawning = usize::from((p.param & 0xFF) as u8);
    if kind == AutogenKind::Ags && spawning > p.windings {
        out.push(warn(
            codes::AGS_CONTOURS,
            format!(
                "AGS {path}: param low byte says {spawning} spawning contours but there are {} windings",
                p.windings
            ),
            at,
        ));
    }
}

/// Whether the ring in `coords` (closed here if it is not) runs
/// clockwise, by geo's rule; `coords` is handed back for reuse.
fn is_clockwise(coords: &mut Vec<Coord<f64>>) -> bool {
    if let (Some(&first), Some(&last)) = (coords.first(), coords.last())
        && first != last
    {
        coords.push(first);
    }
    let line = LineString::new(std::mem::take(coords));
    let cw = line.is_cw();
    *coords = line.0;
    cw
}

fn bounds(dsf: &Dsf, out: &mut Vec<Diagnostic>) {
    for (name, lo, hi) in [
        ("sim/west", -180, 179),
        ("sim/south", -90, 89),
        ("sim/east", -179, 180),
        ("sim/north", -89, 90),
    ] {
        match dsf.property(name).map(|v| v.trim().parse::<i32>()) {
            None => out.push(warn(
                codes::BOUNDS,
                format!("property {name} is missing; X-Plane requires the tile bounds"),
                Location::File,
            )),
            Some(Ok(v)) if (lo..=hi).contains(&v) => {}
            Some(_) => out.push(warn(
                codes::BOUNDS,
                format!(
                    "property {name} = {:?} is not an integer in {lo}..{hi}",
                    dsf.property(name).unwrap_or("")
                ),
                Location::File,
            )),
        }
    }
    let get = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
    for (lo, hi) in [("sim/west", "sim/east"), ("sim/south", "sim/north")] {
        if let (Some(a), Some(b)) = (get(lo), get(hi))
            && a >= b
        {
            out.push(warn(
                codes::BOUNDS,
                format!(
                    "property {lo} = {a} is not less than {hi} = {b}: the tile's bounds are \
                     inverted or empty"
                ),
                Location::File,
            ));
        }
    }
}
