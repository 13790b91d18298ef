//! Doubles: what two packages both place over one airport (`CNF007`), and
//! the objects of a lower package's copy of an airport that X-Plane takes
//! from a higher package (`CNF008`).
//!
//! Both read the items [`super::super::at`] lists around the airport, as
//! the rest of [`super`] does: only items no exclusion (nor base mesh)
//! removes, and only what a DSF places (an autogen use stands for what it
//! places). The airport's scope is its boundary (`130`), or the extent of
//! its features when it has none.
//!
//! Overlap is measured on a grid over the scope: an area item
//! (forest, facade, draped polygon, autogen block, an object's footprint)
//! covers the cells whose centres it holds, a point or line item the
//! cells its samples fall in. Two packages' items of one kind overlap on
//! the cells both cover; the area is those cells' area, so it is exact to
//! a cell ([`MIN_CELL_M`] across, larger on airports wider than
//! [`MAX_CELLS`] cells).

use super::{LocalFrame, inside, rule, rules, samples};
use crate::geom::{LonLat, Xy};
use crate::place::at::{Item, ItemKind};
use crate::scenery::exclude::{Exclusion, ExclusionKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// Smallest side of a grid cell, metres.
pub const MIN_CELL_M: f64 = 10.0;

/// Most cells of one airport's grid.
pub const MAX_CELLS: usize = 40_000;

/// Most doubles one airport reports.
const MAX_PER_AIRPORT: usize = 64;

/// Two packages placing over one area of an airport (`CNF007`), or a
/// lower package's copy of the airport still placing there (`CNF008`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Double {
    /// `CNF007` or `CNF008`.
    pub code: &'static str,
    /// `warning`.
    pub severity: &'static str,
    /// The airport's ID.
    pub airport: String,
    /// The higher-priority package (`CNF008`: the one X-Plane takes the
    /// airport from).
    pub package: String,
    /// The lower-priority package, whose items are drawn too.
    pub lower: String,
    /// What is placed twice (`CNF007`: one kind), or what the lower
    /// package still places (`CNF008`).
    pub kinds: Vec<ItemKind>,
    /// How many of the lower package's items take part.
    pub items: usize,
    /// A DSF of the lower package that places them, relative to it.
    pub dsf: String,
    /// `CNF007`: the area both packages cover with that kind; `CNF008`:
    /// the area the lower package's items cover; m², to a grid cell.
    pub area_m2: f64,
    /// West, south, east, north of that area and of a vertex of each
    /// lower item in it: the rectangle an exclusion needs.
    pub bbox: [f64; 4],
    /// The apt.dat of the airport X-Plane takes, relative to the X-Plane
    /// folder.
    pub apt_file: String,
    /// Its header line.
    pub apt_line: usize,
    /// `CNF008`: the lower package's apt.dat with the same ID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_apt_file: Option<String>,
    /// The exclusion properties (scoped to the airport) that remove the
    /// lower package's items there, to put in the higher package.
    pub fix: Vec<String>,
    /// How to fix it, in words.
    pub advice: String,
}

/// The grid over an airport's scope in its local frame.
pub(super) struct Grid {
    origin: Xy,
    cell: f64,
    nx: usize,
    ny: usize,
    /// Cells inside the scope.
    scope: Vec<bool>,
}

impl Grid {
    /// The grid over `bounds` (local metres), its scope the cells whose
    /// centres are inside one of `rings` (every cell when there are none).
    pub(super) fn new(bounds: [f64; 4], rings: &[Vec<Xy>]) -> Option<Grid> {
        let (w, h) = (bounds[2] - bounds[0], bounds[3] - bounds[1]);
        if !(w.is_finite() && h.is_finite()) {
            return None;
        }
        let cell = MIN_CELL_M.max(((w.max(1.0) * h.max(1.0)) / MAX_CELLS as f64).sqrt());
        let nx = ((w / cell).ceil() as usize).max(1);
        let ny = ((h / cell).ceil() as usize).max(1);
        if nx.saturating_mul(ny) > 4 * MAX_CELLS {
            return None;
        }
        let mut g = Grid {
            origin: [bounds[0], bounds[1]],
            cell,
            nx,
            ny,
            scope: vec![rings.is_empty(); nx * ny],
        };
        if !rings.is_empty() {
            for k in 0..nx * ny {
                let c = g.centre(k);
                g.scope[k] = rings.iter().any(|r| inside(r, c));
            }
        }
        Some(g)
    }

    fn centre(&self, k: usize) -> Xy {
        let (i, j) = (k % self.nx, k / self.nx);
        [
            self.origin[0] + (i as f64 + 0.5) * self.cell,
            self.origin[1] + (j as f64 + 0.5) * self.cell,
        ]
    }

    fn cell_of(&self, p: Xy) -> Option<usize> {
        let i = ((p[0] - self.origin[0]) / self.cell).floor();
        let j = ((p[1] - self.origin[1]) / self.cell).floor();
        (i >= 0.0 && j >= 0.0 && (i as usize) < self.nx && (j as usize) < self.ny)
            .then(|| j as usize * self.nx + i as usize)
    }

    fn cell_area(&self) -> f64 {
        self.cell * self.cell
    }

    /// The scope's cells `item` covers.
    fn covered(&self, frame: &LocalFrame, item: &Item) -> Vec<usize> {
        let area = (item.kind.is_area() && !item.open)
            || (matches!(item.kind, ItemKind::Object | ItemKind::AutogenPoint)
                && item.shape.first().is_some_and(|w| w.len() >= 3));
        let mut out: Vec<usize> = Vec::new();
        if area && let Some(outer) = item.shape.first() {
            let outer: Vec<Xy> = outer.iter().map(|&p| frame.to_local(p)).collect();
            let holes: Vec<Vec<Xy>> = item.shape[1..]
                .iter()
                .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
                .collect();
            if let Some(b) = super::bounds_of(outer.iter().copied()) {
                let lo = self.cell_of([b[0].max(self.origin[0]), b[1].max(self.origin[1])]);
                let top = [
                    self.origin[0] + self.nx as f64 * self.cell - 1e-9,
                    self.origin[1] + self.ny as f64 * self.cell - 1e-9,
                ];
                let hi = self.cell_of([b[2].min(top[0]), b[3].min(top[1])]);
                if let (Some(lo), Some(hi)) = (lo, hi) {
                    let (i0, j0, i1, j1) = (lo % self.nx, lo / self.nx, hi % self.nx, hi / self.nx);
                    for j in j0..=j1 {
                        for i in i0..=i1 {
                            let k = j * self.nx + i;
                            let c = self.centre(k);
                            if self.scope[k]
                                && inside(&outer, c)
                                && !holes.iter().any(|h| inside(h, c))
                            {
                                out.push(k);
                            }
                        }
                    }
                }
            }
        }
        // Samples always count: an area smaller than a cell still covers
        // the cells its edges cross.
        for (p, _) in samples(frame, &item.shape, area) {
            if let Some(k) = self.cell_of(p).filter(|&k| self.scope[k]) {
                out.push(k);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The vertex of `item` nearest to `at`.
fn nearest_vertex(item: &Item, at: LonLat) -> Option<LonLat> {
    item.shape.iter().flatten().copied().min_by(|a, b| {
        let d = |p: &LonLat| (p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2);
        d(a).total_cmp(&d(b))
    })
}

/// What one airport's doubles are measured over.
pub(super) struct Scope<'a> {
    pub(super) icao: &'a str,
    pub(super) frame: &'a LocalFrame,
    pub(super) grid: &'a Grid,
    pub(super) apt_file: &'a str,
    pub(super) apt_line: usize,
    /// Package name → priority (0 highest).
    pub(super) priority: &'a BTreeMap<String, usize>,
}

/// The bounding box, lon/lat, of `cells` and of a vertex of each item.
fn fix_bbox(s: &Scope, cells: &[usize], items: &[&Item]) -> [f64; 4] {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    let mut add = |p: LonLat| {
        b = [
            b[0].min(p[0]),
            b[1].min(p[1]),
            b[2].max(p[0]),
            b[3].max(p[1]),
        ];
    };
    let half = s.grid.cell / 2.0;
    let mut centre = [0.0, 0.0];
    for &k in cells {
        let c = s.grid.centre(k);
        centre = [centre[0] + c[0], centre[1] + c[1]];
        add(s.frame.to_lonlat([c[0] - half, c[1] - half]));
        add(s.frame.to_lonlat([c[0] + half, c[1] + half]));
    }
    if !cells.is_empty() {
        let n = cells.len() as f64;
        let at = s.frame.to_lonlat([centre[0] / n, centre[1] / n]);
        for i in items {
            if let Some(v) = nearest_vertex(i, at) {
                add(v);
            }
        }
    }
    b
}

fn zone(kind: ExclusionKind, bbox: [f64; 4], icao: &str) -> String {
    Exclusion {
        kind,
        bbox,
        polygon: None,
        airport: Some(icao.to_string()),
    }
    .describe()
}

/// `CNF007`: per kind, each pair of packages whose items of that kind
/// overlap in the scope; `items` are the airport's items no exclusion
/// removes, placed by a DSF (not by an autogen use).
pub(super) fn overlapping(s: &Scope, items: &[&Item]) -> Vec<Double> {
    // kind → package → (cells, items)
    type Cover<'i> = BTreeMap<String, (Vec<usize>, Vec<&'i Item>)>;
    let mut by_kind: BTreeMap<ItemKind, Cover> = BTreeMap::new();
    for &i in items {
        if i.kind == ItemKind::Tree || !s.priority.contains_key(&i.package) {
            continue;
        }
        let cells = s.grid.covered(s.frame, i);
        if cells.is_empty() {
            continue;
        }
        let e = by_kind
            .entry(i.kind)
            .or_default()
            .entry(i.package.clone())
            .or_default();
        e.0.extend(cells);
        e.1.push(i);
    }
    let r = rule(rules::codes::DOUBLE);
    let mut out = Vec::new();
    for (kind, packages) in &mut by_kind {
        if packages.len() < 2 {
            continue;
        }
        for (c, _) in packages.values_mut() {
            c.sort_unstable();
            c.dedup();
        }
        let mut names: Vec<&String> = packages.keys().collect();
        names.sort_by_key(|n| s.priority[*n]);
        for (a, hi) in names.iter().enumerate() {
            for lo in &names[a + 1..] {
                let (hc, _) = &packages[*hi];
                let (lc, li) = &packages[*lo];
                let both: Vec<usize> = lc
                    .iter()
                    .copied()
                    .filter(|k| hc.binary_search(k).is_ok())
                    .collect();
                if both.is_empty() {
                    continue;
                }
                // The lower items with a cell in the overlap.
                let takes: Vec<&Item> = li
                    .iter()
                    .copied()
                    .filter(|i| {
                        s.grid
                            .covered(s.frame, i)
                            .iter()
                            .any(|k| both.binary_search(k).is_ok())
                    })
                    .collect();
                let bbox = fix_bbox(s, &both, &takes);
                let fix: Vec<String> = kind
                    .exclusion()
                    .map(|e| zone(e, bbox, s.icao))
                    .into_iter()
                    .collect();
                let noun = kind.as_str().replace('_', " ");
                let advice = match fix.first() {
                    Some(z) => format!(
                        "add `{z}` to `{hi}` (an exclusion removes `{lo}`'s {noun}s under it, \
                         as it is lower), or disable one of the two packages"
                    ),
                    None => format!("disable one of `{hi}` and `{lo}`"),
                };
                out.push(Double {
                    code: r.code,
                    severity: r.severity.as_str(),
                    airport: s.icao.to_string(),
                    package: (*hi).clone(),
                    lower: (*lo).clone(),
                    kinds: vec![*kind],
                    items: takes.len(),
                    dsf: takes.first().map(|i| i.dsf.clone()).unwrap_or_default(),
                    area_m2: both.len() as f64 * s.grid.cell_area(),
                    bbox,
                    apt_file: s.apt_file.to_string(),
                    apt_line: s.apt_line,
                    lower_apt_file: None,
                    fix,
                    advice,
                });
                if out.len() >= MAX_PER_AIRPORT {
                    return out;
                }
            }
        }
    }
    out
}

/// `CNF008`: `lower` (a package lower than `taken_from`, whose apt.dat
/// `lower_apt` has the airport's ID too) still places `items` in the
/// scope.
pub(super) fn shadowed_airport(
    s: &Scope,
    taken_from: &str,
    lower: &str,
    lower_apt: &str,
    items: &[&Item],
) -> Option<Double> {
    let mut cells: Vec<usize> = Vec::new();
    let mut takes: Vec<&Item> = Vec::new();
    for &i in items {
        if i.package != lower || i.kind == ItemKind::Tree {
            continue;
        }
        let c = s.grid.covered(s.frame, i);
        if !c.is_empty() {
            cells.extend(c);
            takes.push(i);
        }
    }
    if takes.is_empty() {
        return None;
    }
    cells.sort_unstable();
    cells.dedup();
    let bbox = fix_bbox(s, &cells, &takes);
    let mut kinds: Vec<ItemKind> = takes.iter().map(|i| i.kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut ex: Vec<ExclusionKind> = kinds.iter().filter_map(|k| k.exclusion()).collect();
    ex.sort_by_key(|e| e.suffix());
    ex.dedup();
    let fix: Vec<String> = ex.iter().map(|&e| zone(e, bbox, s.icao)).collect();
    let r = rule(rules::codes::SHADOWED_AIRPORT);
    Some(Double {
        code: r.code,
        severity: r.severity.as_str(),
        airport: s.icao.to_string(),
        package: taken_from.to_string(),
        lower: lower.to_string(),
        kinds,
        items: takes.len(),
        dsf: takes[0].dsf.clone(),
        area_m2: cells.len() as f64 * s.grid.cell_area(),
        bbox,
        apt_file: s.apt_file.to_string(),
        apt_line: s.apt_line,
        lower_apt_file: Some(lower_apt.to_string()),
        advice: format!(
            "X-Plane takes {} from `{taken_from}` but draws `{lower}`'s DSF too: disable \
             `{lower}` in scenery_packs.ini, or exclude its items in `{taken_from}` ({})",
            s.icao,
            if fix.is_empty() {
                "no exclusion kind removes them".to_string()
            } else {
                fix.iter()
                    .map(|z| format!("`{z}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        fix,
    })
}
