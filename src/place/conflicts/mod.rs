//! "Why is there a tree on my runway?": what the enabled packages of an
//! installation place on the runways, helipads and pavement of the
//! airports its apt.dat files define, who placed it, and the exclusion
//! that takes it off (`agkit scenery conflicts`).
//!
//! For each airport in scope (found as X-Plane finds it,
//! [`crate::scenery::airports`]), the items every enabled package places
//! around it are listed by [`super::at`], which already decides, for each
//! item, the package and DSF that place it and the higher-priority
//! exclusion (or base mesh) that removes it; what an autogen use places is
//! listed with it. Each item that is not removed and does not come from the
//! airport's own package is laid against the airport's features in local
//! metres: runways (`100`, their blast pads added at each end), water
//! runways (`101`), helipads (`102`) and pavement (`110`, its bezier rings
//! flattened by [`crate::apt::bezier`], holes left out). An item that
//! reaches into one is a finding with the depth it reaches (from the
//! feature's nearest edge), and the exclusion that removes it: its kind
//! ([`super::at::ItemKind::exclusion`]) and a rectangle holding the part of
//! the item on the feature and one of the item's vertices (an exclusion
//! removes an item when one of its vertices lies inside,
//! [`crate::scenery::exclude`]). [`fix_tiles`] writes those rectangles as
//! an overlay package.
//!
//! The codes and where each rule comes from are in [`rules`].
//!
//! Limits of this first slice: airports are chosen by their reference
//! point (`--tile`, `--bbox`); forests are tested by their polygon, not by
//! the trees X-Plane grows in it; an airport wider than
//! [`super::at::MAX_RADIUS_M`] is searched that far from its centre only
//! (a warning says so).

pub mod doubles;
pub mod fix;
pub mod rules;

pub use doubles::Double;

use super::at::{self, AtOptions, Item, ItemKind};
use crate::apt::{Airport, bezier};
use crate::dsf::Tile;
use crate::geom::{LocalFrame, LonLat, Xy};
use crate::limits::{LimitExceeded, Limits};
use crate::place::Params;
use crate::scenery::airports::{Airports, Filter};
use crate::scenery::exclude::{self, Exclusion, ExclusionKind};
use crate::scenery::install::{Installation, relative};
use crate::scenery::{Scenery, SceneryError};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Most airports one run looks at.
pub const MAX_AIRPORTS: usize = 100_000;

/// Longest step between the points an item's edges are sampled at, metres.
const SAMPLE_M: f64 = 2.0;

/// Most sample points of one item.
const MAX_SAMPLES: usize = 4096;

/// Half the side of the square a fix puts around a point, in degrees
/// (about a metre).
const PAD_DEG: f64 = 1e-5;

/// Which airports to look at.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// Every airport that has a DSF of some enabled package on its tile.
    All,
    /// The airports whose reference point is in this tile.
    Tile(Tile),
    /// The airport of this ID.
    Airport(String),
    /// The airports whose reference point is in `[west, south, east,
    /// north]`, degrees.
    Bbox([f64; 4]),
}

/// What an airport feature is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FeatureKind {
    /// A land runway with its blast pads.
    Runway,
    /// A helipad.
    Helipad,
    /// A water runway.
    WaterRunway,
    /// Taxiway or apron pavement.
    Pavement,
}

impl FeatureKind {
    /// `runway`, `helipad`, …
    pub fn as_str(self) -> &'static str {
        match self {
            FeatureKind::Runway => "runway",
            FeatureKind::Helipad => "helipad",
            FeatureKind::WaterRunway => "water runway",
            FeatureKind::Pavement => "pavement",
        }
    }

    fn rule(self) -> &'static crate::diag::Rule {
        let code = match self {
            FeatureKind::Runway => rules::codes::ON_RUNWAY,
            FeatureKind::Helipad => rules::codes::ON_HELIPAD,
            FeatureKind::WaterRunway => rules::codes::ON_WATER_RUNWAY,
            FeatureKind::Pavement => rules::codes::ON_PAVEMENT,
        };
        rule(code)
    }
}

fn rule(code: &str) -> &'static crate::diag::Rule {
    rules::RULES
        .iter()
        .find(|r| r.code == code)
        .unwrap_or(&rules::RULES[0])
}

/// One feature of an airport, in local metres of its airport's frame.
#[derive(Debug, Clone)]
struct Feature {
    kind: FeatureKind,
    /// `16L/34R`, `H1`, the pavement's name.
    name: String,
    line: usize,
    /// Outline then holes.
    rings: Vec<Vec<Xy>>,
    /// Points that lie well inside: a runway's centre line, a helipad's
    /// centre (where an item covering the feature reaches deepest).
    spine: Vec<Xy>,
    /// `[min x, min y, max x, max y]` of the outline.
    bounds: [f64; 4],
}

impl Feature {
    fn new(
        kind: FeatureKind,
        name: String,
        line: usize,
        rings: Vec<Vec<Xy>>,
        spine: Vec<Xy>,
    ) -> Option<Feature> {
        let outer = rings.first().filter(|r| r.len() >= 3)?;
        let bounds = bounds_of(outer.iter().copied())?;
        Some(Feature {
            kind,
            name,
            line,
            rings,
            spine,
            bounds,
        })
    }

    fn contains(&self, p: Xy) -> bool {
        let b = self.bounds;
        if p[0] < b[0] || p[0] > b[2] || p[1] < b[1] || p[1] > b[3] {
            return false;
        }
        inside(&self.rings[0], p) && !self.rings[1..].iter().any(|h| inside(h, p))
    }

    /// Distance from `p` (inside) to the nearest edge.
    fn depth(&self, p: Xy) -> f64 {
        self.rings
            .iter()
            .map(|r| ring_distance(r, p))
            .fold(f64::INFINITY, f64::min)
    }
}

fn bounds_of(points: impl Iterator<Item = Xy>) -> Option<[f64; 4]> {
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    for p in points {
        b = [
            b[0].min(p[0]),
            b[1].min(p[1]),
            b[2].max(p[0]),
            b[3].max(p[1]),
        ];
    }
    b[0].is_finite().then_some(b)
}

/// Even-odd point in polygon.
fn inside(ring: &[Xy], p: Xy) -> bool {
    let mut c = false;
    let n = ring.len();
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + n - 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1])
            && p[0] < (b[0] - a[0]) * (p[1] - a[1]) / (b[1] - a[1]) + a[0]
        {
            c = !c;
        }
    }
    c
}

fn segment_distance(p: Xy, a: Xy, b: Xy) -> f64 {
    let d = [b[0] - a[0], b[1] - a[1]];
    let len2 = d[0] * d[0] + d[1] * d[1];
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a[0] + t * d[0] - p[0]).hypot(a[1] + t * d[1] - p[1])
}

fn ring_distance(ring: &[Xy], p: Xy) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| segment_distance(p, ring[i], ring[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
}

/// A rectangle of half-width `hw` around the segment `a`–`b`, extended by
/// `before` metres beyond `a` and `after` beyond `b`, and its centre line.
fn strip(a: Xy, b: Xy, hw: f64, before: f64, after: f64) -> Option<(Vec<Xy>, Vec<Xy>)> {
    let len = (b[0] - a[0]).hypot(b[1] - a[1]);
    if !(len > 0.0 && hw > 0.0) {
        return None;
    }
    let u = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    let n = [-u[1], u[0]];
    let s = [a[0] - u[0] * before, a[1] - u[1] * before];
    let e = [b[0] + u[0] * after, b[1] + u[1] * after];
    let ring = vec![
        [s[0] + n[0] * hw, s[1] + n[1] * hw],
        [s[0] - n[0] * hw, s[1] - n[1] * hw],
        [e[0] - n[0] * hw, e[1] - n[1] * hw],
        [e[0] + n[0] * hw, e[1] + n[1] * hw],
    ];
    let total = before + len + after;
    let steps = ((total / 10.0).ceil() as usize).clamp(1, 1000);
    let spine = (0..=steps)
        .map(|k| {
            let t = k as f64 / steps as f64;
            [s[0] + (e[0] - s[0]) * t, s[1] + (e[1] - s[1]) * t]
        })
        .collect();
    Some((ring, spine))
}

/// The features of an airport in `frame`.
fn features(a: &Airport, frame: &LocalFrame) -> Vec<Feature> {
    let l = |p: LonLat| frame.to_local(p);
    let mut out = Vec::new();
    for r in &a.runways {
        let [e0, e1] = &r.ends;
        if let Some((ring, spine)) = strip(
            l(e0.at),
            l(e1.at),
            r.width_m / 2.0,
            e0.overrun_m.max(0.0),
            e1.overrun_m.max(0.0),
        ) {
            out.extend(Feature::new(
                FeatureKind::Runway,
                format!("{}/{}", e0.number, e1.number),
                r.line,
                vec![ring],
                spine,
            ));
        }
    }
    for w in &a.water_runways {
        let [e0, e1] = &w.ends;
        if let Some((ring, spine)) = strip(l(e0.at), l(e1.at), w.width_m / 2.0, 0.0, 0.0) {
            out.extend(Feature::new(
                FeatureKind::WaterRunway,
                format!("{}/{}", e0.number, e1.number),
                w.line,
                vec![ring],
                spine,
            ));
        }
    }
    for h in &a.helipads {
        let c = l(h.at);
        let (sin, cos) = h.heading.to_radians().sin_cos();
        let half = h.length_m / 2.0;
        let a0 = [c[0] - sin * half, c[1] - cos * half];
        let b0 = [c[0] + sin * half, c[1] + cos * half];
        if let Some((ring, mut spine)) = strip(a0, b0, h.width_m / 2.0, 0.0, 0.0) {
            spine.push(c);
            out.extend(Feature::new(
                FeatureKind::Helipad,
                h.designator.clone(),
                h.line,
                vec![ring],
                spine,
            ));
        }
    }
    for p in &a.pavements {
        let rings: Vec<Vec<Xy>> = p
            .rings
            .iter()
            .map(|r| bezier::points(r).into_iter().map(l).collect::<Vec<Xy>>())
            .filter(|r: &Vec<Xy>| r.len() >= 3)
            .collect();
        let name = if p.name.trim().is_empty() {
            format!("pavement of line {}", p.line)
        } else {
            p.name.trim().to_string()
        };
        out.extend(Feature::new(
            FeatureKind::Pavement,
            name,
            p.line,
            rings,
            Vec::new(),
        ));
    }
    out
}

/// The exclusion that takes an item off: its kind and rectangle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fix {
    /// The property's kind (`obj`, `for`, …).
    pub exclusion: ExclusionKind,
    /// West, south, east, north in degrees.
    pub bbox: [f64; 4],
    /// The airport ID the fix scopes the exclusion to (`sim/filter/aptid`).
    pub airport: String,
    /// The property as a DSF holds it.
    pub property: String,
}

/// One item found on an airport feature.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Finding {
    /// The rule's code (`CNF001` …).
    pub code: &'static str,
    /// `error`, `warning` or `note`.
    pub severity: &'static str,
    /// The package whose DSF places the item.
    pub package: String,
    /// The DSF, relative to its package.
    pub dsf: String,
    /// The tile of the DSF.
    pub tile: Tile,
    /// What the item is.
    pub kind: ItemKind,
    /// Its definition, as the DSF (or the autogen asset) names it.
    pub definition: String,
    /// Index of the definition in its DSF table (of the autogen use, for
    /// an item an autogen asset places).
    pub definition_index: Option<u32>,
    /// Index of the entity in the DSF's command stream.
    pub entity: Option<usize>,
    /// For an item an autogen asset places: the autogen use's definition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placed_by: Option<String>,
    /// The airport's ID.
    pub airport: String,
    /// What the item stands on.
    pub feature: FeatureKind,
    /// `16/34`, a helipad's designator, a pavement's name.
    pub feature_name: String,
    /// The apt.dat defining the airport, relative to the X-Plane folder.
    pub apt_file: String,
    /// Its 1-based line of the feature.
    pub apt_line: usize,
    /// How far into the feature the item reaches, metres from its nearest
    /// edge.
    pub depth_m: f64,
    /// Where (the deepest point), lon/lat.
    pub at: LonLat,
    /// The exclusion that removes it.
    pub fix: Fix,
    /// How to fix it, in words.
    pub advice: String,
}

/// An airport package that excludes nothing over its airport.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct MissingExclusion {
    /// `CNF005`.
    pub code: &'static str,
    /// `warning`.
    pub severity: &'static str,
    /// The airport's ID.
    pub airport: String,
    /// Its package.
    pub package: String,
    /// The apt.dat, relative to the X-Plane folder.
    pub apt_file: String,
    /// The airport's header line.
    pub apt_line: usize,
    /// How many items lower packages place on it (within its boundary,
    /// else on its features).
    pub items: usize,
    /// Those packages.
    pub packages: Vec<String>,
    /// The centre of the airport's extent, lon/lat.
    pub at: LonLat,
}

/// An item on an airport feature that a higher-priority exclusion (or a
/// base mesh) already removes: not a conflict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Excluded {
    /// The package whose DSF places it.
    pub package: String,
    /// What it is.
    pub kind: ItemKind,
    /// Its definition.
    pub definition: String,
    /// The airport and feature.
    pub airport: String,
    /// The feature it would stand on.
    pub feature_name: String,
    /// The package whose exclusion removes it.
    pub excluded_by: String,
    /// The zone.
    pub exclusion: Option<String>,
}

/// A pack-order line `scenery check` finds (`SCN011`: an overlay below a
/// base mesh of its tile, which X-Plane does not load), with the airports
/// looked at on that tile.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct OrderProblem {
    /// `SCN011`, `scenery check`'s code.
    pub code: &'static str,
    /// `warning`.
    pub severity: &'static str,
    /// The overlay's package.
    pub package: String,
    /// Its DSF, relative to the package.
    pub dsf: String,
    /// The tile.
    pub tile: Tile,
    /// The package of the base mesh above it.
    pub mesh: String,
    /// The airports of the report on that tile.
    pub airports: Vec<String>,
    /// True when the overlay is of an airport's own package (a mesh above
    /// an airport).
    pub airport_package: bool,
    /// `scenery check`'s line for it.
    pub message: String,
}

/// An airport looked at.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct AirportInfo {
    /// Its ID.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The package its apt.dat is taken from.
    pub package: String,
    /// The apt.dat, relative to the X-Plane folder.
    pub apt_file: String,
    /// Features tested.
    pub features: usize,
    /// Items of enabled packages around it.
    pub items: usize,
    /// The centre of its extent (features and boundary), lon/lat.
    pub at: LonLat,
}

/// What `scenery conflicts` found.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
#[non_exhaustive]
pub struct ConflictReport {
    /// The airports looked at.
    pub airports: Vec<AirportInfo>,
    /// Items on airport features (`CNF001`–`CNF004`, `CNF006`).
    pub findings: Vec<Finding>,
    /// Airport packages without exclusions (`CNF005`).
    pub missing_exclusions: Vec<MissingExclusion>,
    /// Items on features that exclusions already remove.
    pub excluded: Vec<Excluded>,
    /// What two packages both place over one airport (`CNF007`), and
    /// lower copies of an airport that still place there (`CNF008`).
    pub doubles: Vec<Double>,
    /// `scenery check`'s pack-order findings on the airports' tiles
    /// (`SCN011`).
    pub order: Vec<OrderProblem>,
    /// The highest-priority package whose items the fixes exclude: the
    /// fix package goes above its line in `scenery_packs.ini`.
    pub fix_above: Option<String>,
    /// Problems met (unreadable DSFs or apt.dat files, airports too wide).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The apt.dat records of the airports looked at, in the order of
    /// `airports`: the geometry the GIS views draw under the findings
    /// ([`crate::out::conflicts`]); not in the JSON.
    #[serde(skip)]
    pub records: Vec<Airport>,
}

impl ConflictReport {
    /// True when a finding is an error (exit 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == "error")
    }
}

/// Options of [`conflicts`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictOptions {
    /// The airports to look at.
    pub scope: Scope,
    /// Seed, density and limits for the autogen engines.
    pub params: Params,
    /// Place autogen uses and test what they place.
    pub expand_autogen: bool,
}

/// The tiles some enabled package has a DSF of.
fn dsf_tiles(inst: &Installation) -> BTreeSet<Tile> {
    let mut out = BTreeSet::new();
    for p in inst.enabled() {
        let Some(end) = crate::scenery::install::child_ci(&p.path, "Earth nav data") else {
            continue;
        };
        for f in crate::scenery::install::dsf_files(&end) {
            // By name, as X-Plane finds a tile's file (a name that is not
            // one, `+4é013.dsf` too, names no tile).
            if let Some(t) = f
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(Tile::from_file_name)
            {
                out.insert(t);
            }
        }
    }
    out
}

/// The sample points of an item's shape in `frame`: its vertices and
/// points along its edges at most [`SAMPLE_M`] apart (fewer when there
/// would be more than [`MAX_SAMPLES`]), each with its lon/lat.
fn samples(frame: &LocalFrame, shape: &[Vec<LonLat>], closed: bool) -> Vec<(Xy, LonLat)> {
    let mut total = 0.0;
    let local: Vec<Vec<Xy>> = shape
        .iter()
        .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
        .collect();
    for w in &local {
        for i in 1..w.len() {
            total += (w[i][0] - w[i - 1][0]).hypot(w[i][1] - w[i - 1][1]);
        }
    }
    let step = SAMPLE_M.max(total / MAX_SAMPLES as f64);
    let mut out = Vec::new();
    for w in &local {
        let n = w.len();
        let edges = if closed && n > 2 {
            n
        } else {
            n.saturating_sub(1)
        };
        if n == 1 {
            out.push((w[0], frame.to_lonlat(w[0])));
        }
        for i in 0..edges {
            let (a, b) = (w[i], w[(i + 1) % n]);
            let len = (b[0] - a[0]).hypot(b[1] - a[1]);
            let k = ((len / step).ceil() as usize).clamp(1, MAX_SAMPLES);
            for j in 0..k {
                let t = j as f64 / k as f64;
                let p = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
                out.push((p, frame.to_lonlat(p)));
            }
            if !closed && i + 1 == edges {
                out.push((b, frame.to_lonlat(b)));
            }
        }
        if out.len() > 4 * MAX_SAMPLES {
            break;
        }
    }
    out
}

/// Where an item reaches into a feature: the deepest point and its depth,
/// and the lon/lat of every sample on the feature.
fn reach(item: &Item, frame: &LocalFrame, f: &Feature) -> Option<(f64, LonLat, Vec<LonLat>)> {
    let area = item.kind.is_area() && !item.open;
    let pts = samples(frame, &item.shape, area);
    let mut on: Vec<(f64, LonLat)> = pts
        .iter()
        .filter(|(p, _)| f.contains(*p))
        .map(|(p, q)| (f.depth(*p), *q))
        .collect();
    if area && let Some(outer) = item.shape.first() {
        let outer: Vec<Xy> = outer.iter().map(|&p| frame.to_local(p)).collect();
        let holes: Vec<Vec<Xy>> = item.shape[1..]
            .iter()
            .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
            .collect();
        let covered = |p: Xy| inside(&outer, p) && !holes.iter().any(|h| inside(h, p));
        for &p in f.rings[0].iter().chain(&f.spine) {
            if covered(p) && (f.contains(p) || f.spine.contains(&p)) {
                on.push((f.depth(p), frame.to_lonlat(p)));
            } else if covered(p) {
                on.push((0.0, frame.to_lonlat(p)));
            }
        }
    }
    let (depth, at) = on.iter().copied().max_by(|a, b| a.0.total_cmp(&b.0))?;
    Some((depth, at, on.into_iter().map(|(_, q)| q).collect()))
}

/// The rectangle a fix writes: the part of the item on the feature and
/// the vertex of `entity` (the DSF item to remove) nearest to it, padded.
fn fix_box(on: &[LonLat], at: LonLat, entity: &[Vec<LonLat>]) -> [f64; 4] {
    let nearest = entity
        .iter()
        .flatten()
        .copied()
        .min_by(|a, b| {
            let d = |p: &LonLat| (p[0] - at[0]).powi(2) + (p[1] - at[1]).powi(2);
            d(a).total_cmp(&d(b))
        })
        .unwrap_or(at);
    let mut b = [nearest[0], nearest[1], nearest[0], nearest[1]];
    for p in on {
        b = [
            b[0].min(p[0]),
            b[1].min(p[1]),
            b[2].max(p[0]),
            b[3].max(p[1]),
        ];
    }
    [
        (b[0] - PAD_DEG).max(-180.0),
        (b[1] - PAD_DEG).max(-90.0),
        (b[2] + PAD_DEG).min(180.0),
        (b[3] + PAD_DEG).min(90.0),
    ]
}

/// The exclusion zones of a package's DSFs of `tiles`.
fn zones_of(path: &std::path::Path, tiles: &BTreeSet<Tile>, limits: &Limits) -> Vec<Exclusion> {
    let mut out = Vec::new();
    for &t in tiles {
        let Some(f) = at::dsf_path(path, t) else {
            continue;
        };
        let Ok(bytes) = crate::fsutil::read_input(&f, "a DSF tile", limits.max_input_bytes) else {
            continue;
        };
        if let Ok(d) = crate::dsf::read(&bytes) {
            out.extend(exclude::exclusions(&d).0);
        }
    }
    out
}

/// Finds what `inst`'s enabled packages place on the airports of
/// `opts.scope` ([the module's docs](self)).
pub fn conflicts(
    inst: &Installation,
    index: &crate::scenery::resolve::LibraryIndex,
    art: &crate::scenery::art::ArtStore,
    place_art: bool,
    opts: &ConflictOptions,
) -> Result<ConflictReport, LimitExceeded> {
    let limits = opts.params.limits;
    let filter = match &opts.scope {
        Scope::All => Filter::All,
        Scope::Airport(id) => Filter::Ids(vec![id.clone()]),
        Scope::Tile(t) => Filter::Within([
            f64::from(t.west),
            f64::from(t.south),
            f64::from(t.west) + 1.0,
            f64::from(t.south) + 1.0,
        ]),
        Scope::Bbox(b) => Filter::Within(*b),
    };
    let airports = Airports::find(Some(inst), None, &filter, &limits);
    let mut report = ConflictReport::default();
    for (path, problem) in &airports.problems {
        report
            .warnings
            .push(format!("{}: {problem}", relative(path, &inst.root)));
    }
    let with_dsfs = dsf_tiles(inst);
    LimitExceeded::check(
        "airports",
        airports.airports.len() as u64,
        MAX_AIRPORTS as u64,
    )?;
    let mut offenders: BTreeMap<usize, String> = BTreeMap::new();
    let priority: BTreeMap<String, usize> = inst
        .enabled()
        .map(|p| (p.name.clone(), p.priority))
        .collect();
    // The tiles of each airport looked at, and its package.
    let mut airport_tiles: Vec<(String, String, BTreeSet<Tile>)> = Vec::new();
    for found in airports.airports.values() {
        let a = &found.airport;
        let source = airports.source_of(found);
        let own = inst.package_of(&source.path);
        let own_name = own.map_or(source.package.as_str(), |p| p.name.as_str());
        let apt_file = relative(&source.path, &inst.root);
        // The airport's extent: its features and boundary, lon/lat.
        let mut pts: Vec<LonLat> = Vec::new();
        for r in &a.runways {
            pts.extend(r.ends.iter().map(|e| e.at));
        }
        for w in &a.water_runways {
            pts.extend(w.ends.iter().map(|e| e.at));
        }
        pts.extend(a.helipads.iter().map(|h| h.at));
        for p in &a.pavements {
            pts.extend(bezier::all_points(&p.rings).into_iter().flatten());
        }
        let boundary: Vec<Vec<LonLat>> = a
            .boundaries
            .iter()
            .flat_map(|b| bezier::all_points(&b.rings).into_iter().take(1))
            .filter(|r| r.len() >= 3)
            .collect();
        pts.extend(boundary.iter().flatten().copied());
        pts.retain(|p| p[0].is_finite() && p[1].is_finite());
        let Some(b) = bounds_of(pts.iter().copied()) else {
            continue;
        };
        let center = [(b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0];
        let tiles: BTreeSet<Tile> = [
            Tile::of(b[0], b[1]),
            Tile::of(b[2], b[1]),
            Tile::of(b[0], b[3]),
            Tile::of(b[2], b[3]),
        ]
        .into_iter()
        .collect();
        if opts.scope == Scope::All && !tiles.iter().any(|t| with_dsfs.contains(t)) {
            continue;
        }
        let frame = LocalFrame::new(center);
        let feats = features(a, &frame);
        let mut radius = pts
            .iter()
            .map(|&p| {
                let q = frame.to_local(p);
                q[0].hypot(q[1])
            })
            .fold(0.0, f64::max)
            + 50.0;
        if radius > at::MAX_RADIUS_M {
            report.warnings.push(format!(
                "{}: the airport reaches {:.0} m from its centre; searched {} m only",
                a.icao,
                radius,
                at::MAX_RADIUS_M
            ));
            radius = at::MAX_RADIUS_M;
        }
        let ask = AtOptions {
            lon: center[0],
            lat: center[1],
            radius_m: radius,
            conditions: Default::default(),
            params: opts.params.clone(),
            expand_autogen: opts.expand_autogen,
            limits,
        };
        let near = match at::at(inst, index, &ask, art, place_art) {
            Ok(r) => r,
            Err(at::AtError::Limit(e)) => return Err(e),
            Err(e) => {
                report.warnings.push(format!("{}: {e}", a.icao));
                continue;
            }
        };
        report.warnings.extend(near.warnings.iter().cloned());
        report.airports.push(AirportInfo {
            id: a.icao.clone(),
            name: a.name.clone(),
            package: own_name.to_string(),
            apt_file: apt_file.clone(),
            features: feats.len(),
            items: near.items.len(),
            at: center,
        });
        report.records.push(a.clone());
        airport_tiles.push((a.icao.clone(), own_name.to_string(), tiles.clone()));
        let own_zones = own
            .map(|p| zones_of(&p.path, &tiles, &limits))
            .unwrap_or_default();
        let own_priority = own.map(|p| p.priority);
        // Parents already found: their children are not listed again.
        let mut found_parents: BTreeSet<usize> = BTreeSet::new();
        let mut below: BTreeMap<String, usize> = BTreeMap::new();
        let boundary_local: Vec<Vec<Xy>> = boundary
            .iter()
            .map(|r| r.iter().map(|&p| frame.to_local(p)).collect())
            .collect();
        for (k, item) in near.items.iter().enumerate() {
            if item.package == own_name {
                continue;
            }
            if let Some(p) = item.placed_by
                && found_parents.contains(&p)
            {
                continue;
            }
            // The deepest reach into any feature, runways first.
            let hit = feats
                .iter()
                .filter_map(|f| reach(item, &frame, f).map(|r| (f, r)))
                .min_by(|(f, r), (g, s)| f.kind.cmp(&g.kind).then(s.0.total_cmp(&r.0)));
            // On the airport for CNF005: inside the boundary, else on a
            // feature.
            let on_airport = hit.is_some()
                || boundary_local.iter().any(|r| {
                    samples(&frame, &item.shape, item.kind.is_area())
                        .iter()
                        .any(|(p, _)| inside(r, *p))
                });
            let lower = own_priority.is_some_and(|o| {
                inst.packages
                    .iter()
                    .find(|p| p.name == item.package)
                    .is_some_and(|p| p.priority > o)
            });
            if on_airport && lower && item.excluded_by.is_none() {
                *below.entry(item.package.clone()).or_default() += 1;
            }
            let Some((f, (depth, deepest, on))) = hit else {
                continue;
            };
            if let Some(by) = &item.excluded_by {
                report.excluded.push(Excluded {
                    package: item.package.clone(),
                    kind: item.kind,
                    definition: item.definition.clone(),
                    airport: a.icao.clone(),
                    feature_name: f.name.clone(),
                    excluded_by: by.clone(),
                    exclusion: item.exclusion.clone(),
                });
                continue;
            }
            found_parents.insert(k);
            let parent = item.placed_by.and_then(|p| near.items.get(p));
            let entity = parent.unwrap_or(item);
            let Some(kind) = entity.kind.exclusion() else {
                continue;
            };
            let bbox = fix_box(&on, deepest, &entity.shape);
            let zone = Exclusion {
                kind,
                bbox,
                polygon: None,
                airport: Some(a.icao.clone()),
            };
            let pkg = inst.packages.iter().find(|p| p.name == item.package);
            let points: Vec<LonLat> = entity.shape.iter().flatten().copied().collect();
            let defeated = !lower && own_zones.iter().any(|z| z.kind == kind && z.hits(&points));
            let (rule, advice) = if defeated {
                (
                    rule(rules::codes::ORDER_DEFEATS),
                    format!(
                        "`{own_name}` excludes it, but `{}` sits above `{own_name}` in \
                         scenery_packs.ini: move `{}` below `{own_name}`",
                        item.package, item.package
                    ),
                )
            } else {
                (
                    f.kind.rule(),
                    format!(
                        "exclude it with `{}` in an overlay package above `{}`",
                        zone.describe(),
                        item.package
                    ),
                )
            };
            if !defeated && let Some(p) = pkg {
                offenders
                    .entry(p.priority)
                    .or_insert_with(|| p.name.clone());
            }
            LimitExceeded::check(
                "conflicts",
                report.findings.len() as u64 + 1,
                limits.max_placed_items as u64,
            )?;
            report.findings.push(Finding {
                code: rule.code,
                severity: rule.severity.as_str(),
                package: item.package.clone(),
                dsf: item.dsf.clone(),
                tile: Tile::of(entity.lon, entity.lat),
                kind: item.kind,
                definition: item.definition.clone(),
                definition_index: item.source.map(|s| s.0),
                entity: item.source.map(|s| s.1),
                placed_by: parent.map(|p| p.definition.clone()),
                airport: a.icao.clone(),
                feature: f.kind,
                feature_name: f.name.clone(),
                apt_file: apt_file.clone(),
                apt_line: f.line,
                depth_m: (depth * 10.0).round() / 10.0,
                at: deepest,
                fix: Fix {
                    exclusion: kind,
                    bbox,
                    airport: a.icao.clone(),
                    property: zone.describe(),
                },
                advice,
            });
        }
        // CNF007 and CNF008, over the airport's boundary (else its
        // extent).
        let lo = frame.to_local([b[0], b[1]]);
        let hi = frame.to_local([b[2], b[3]]);
        if let Some(grid) = doubles::Grid::new(
            [
                lo[0].min(hi[0]),
                lo[1].min(hi[1]),
                lo[0].max(hi[0]),
                lo[1].max(hi[1]),
            ],
            &boundary_local,
        ) {
            let standing: Vec<&Item> = near
                .items
                .iter()
                .filter(|i| i.excluded_by.is_none() && i.placed_by.is_none())
                .collect();
            let scope = doubles::Scope {
                icao: &a.icao,
                frame: &frame,
                grid: &grid,
                apt_file: &apt_file,
                apt_line: a.line,
                priority: &priority,
            };
            let overlaps = doubles::overlapping(&scope, &standing);
            let first = report.doubles.len();
            let mut seen = BTreeSet::new();
            for &k in &found.shadowed {
                let Some(src) = airports.sources.get(k) else {
                    continue;
                };
                let Some(lower) = inst
                    .package_of(&src.path)
                    .filter(|p| p.enabled && p.name != own_name)
                else {
                    continue;
                };
                if !seen.insert(lower.name.clone()) {
                    continue;
                }
                report.doubles.extend(doubles::shadowed_airport(
                    &scope,
                    own_name,
                    &lower.name,
                    &relative(&src.path, &inst.root),
                    &standing,
                ));
            }
            // A pair of packages already a CNF008 here is not also a
            // CNF007: the lower copy of the airport is the one finding.
            let copies: BTreeSet<(String, String)> = report.doubles[first..]
                .iter()
                .map(|d| (d.package.clone(), d.lower.clone()))
                .collect();
            report.doubles.extend(
                overlaps
                    .into_iter()
                    .filter(|d| !copies.contains(&(d.package.clone(), d.lower.clone()))),
            );
        }
        // CNF005: an airport package with no exclusion over its airport.
        if own.is_some()
            && !below.is_empty()
            && !own_zones.iter().any(|z| {
                let [w, s, e, n] = z.bbox;
                w <= b[2] && e >= b[0] && s <= b[3] && n >= b[1]
            })
        {
            let r = rule(rules::codes::NO_EXCLUSION);
            report.missing_exclusions.push(MissingExclusion {
                code: r.code,
                severity: r.severity.as_str(),
                airport: a.icao.clone(),
                package: own_name.to_string(),
                apt_file: apt_file.clone(),
                apt_line: a.line,
                items: below.values().sum(),
                packages: below.keys().cloned().collect(),
                at: center,
            });
        }
    }
    report.fix_above = offenders.into_values().next();
    // SCN011 on the airports' tiles, as `scenery check` finds it.
    let all: BTreeSet<Tile> = airport_tiles
        .iter()
        .flat_map(|(_, _, t)| t.iter().copied())
        .collect();
    if !all.is_empty() {
        for m in crate::scenery::check::overlays_below_meshes(inst, Some(&all)) {
            let on: Vec<&(String, String, BTreeSet<Tile>)> = airport_tiles
                .iter()
                .filter(|(_, _, t)| t.contains(&m.tile))
                .collect();
            let r = crate::scenery::rules::check::RULES
                .iter()
                .find(|r| r.code == crate::scenery::rules::check::codes::BELOW_MESH)
                .unwrap_or(&crate::scenery::rules::check::RULES[0]);
            report.order.push(OrderProblem {
                code: r.code,
                severity: r.severity.as_str(),
                package: m.package.clone(),
                dsf: m.dsf.clone(),
                tile: m.tile,
                mesh: m.mesh.clone(),
                airports: on.iter().map(|(id, _, _)| id.clone()).collect(),
                airport_package: on.iter().any(|(_, p, _)| *p == m.package),
                message: m.message(),
            });
        }
    }
    Ok(report)
}

impl Scenery {
    /// What the enabled packages place on the airports of `opts.scope`
    /// ([`conflicts`]).
    pub fn conflicts(&self, opts: &ConflictOptions) -> Result<ConflictReport, ConflictError> {
        let inst = self
            .install()
            .ok_or(SceneryError::NoInstallation("`conflicts`"))?;
        Ok(conflicts(
            inst,
            self.index(),
            self.art(),
            self.reads_art(),
            opts,
        )?)
    }
}

/// Why conflicts could not be found.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum ConflictError {
    /// Too much work.
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
    /// The scenery has no installation.
    #[error(transparent)]
    Scenery(#[from] SceneryError),
}

/// One DSF of a fix package.
#[derive(Debug, Clone, PartialEq)]
pub struct FixTile {
    /// The tile.
    pub tile: Tile,
    /// Its path inside the package (`Earth nav data/+40+010/+47+013.dsf`).
    pub path: String,
    /// The DSF, built and read back.
    pub bytes: Vec<u8>,
    /// How many exclusions it holds.
    pub exclusions: usize,
}

/// The value of an exclusion property, rounded outward to 7 decimals.
fn zone_value(b: [f64; 4]) -> String {
    let down = |v: f64| (v * 1e7).floor() / 1e7;
    let up = |v: f64| (v * 1e7).ceil() / 1e7;
    format!(
        "{:.7}/{:.7}/{:.7}/{:.7}",
        down(b[0]),
        down(b[1]),
        up(b[2]),
        up(b[3])
    )
}

/// The DSFs of an overlay package excluding every finding of `report`
/// that an exclusion fixes (not `CNF006`, which the pack order fixes):
/// per tile, `sim/overlay 1`, then per airport its `sim/filter/aptid` and
/// one `sim/exclude_*` per distinct rectangle. Each DSF is built with
/// [`crate::dsf::build`], read back, and its exclusions compared with what
/// was meant; a difference is an error.
pub fn fix_tiles(report: &ConflictReport) -> Result<Vec<FixTile>, String> {
    let mut by_tile: BTreeMap<Tile, BTreeMap<String, BTreeSet<(String, String)>>> = BTreeMap::new();
    for f in &report.findings {
        if f.code == rules::codes::ORDER_DEFEATS {
            continue;
        }
        let [w, s, e, n] = f.fix.bbox;
        by_tile
            .entry(Tile::of((w + e) / 2.0, (s + n) / 2.0))
            .or_default()
            .entry(f.airport.clone())
            .or_default()
            .insert((f.fix.exclusion.property(), zone_value(f.fix.bbox)));
    }
    let mut out = Vec::new();
    for (tile, airports) in by_tile {
        let mut dsf = crate::dsf::Dsf::overlay(tile.west, tile.south);
        let mut meant = 0;
        for (id, zones) in airports {
            dsf.properties.push(("sim/filter/aptid".into(), id));
            for (name, value) in zones {
                dsf.properties.push((name, value));
                meant += 1;
            }
        }
        let bytes = crate::dsf::build(&dsf, &crate::dsf::write::BuildOptions::default())
            .map_err(|e| format!("{tile}: {e}"))?;
        let back = crate::dsf::read(&bytes).map_err(|e| format!("{tile}: read back: {e}"))?;
        let (zones, problems) = exclude::exclusions(&back);
        if !problems.is_empty() || zones.len() != meant || back.properties != dsf.properties {
            return Err(format!(
                "{tile}: the DSF read back does not hold the exclusions written ({} of {meant}; {})",
                zones.len(),
                problems.join("; ")
            ));
        }
        let (folder, file) = tile.file_names();
        out.push(FixTile {
            tile,
            path: format!("Earth nav data/{folder}/{file}"),
            bytes,
            exclusions: meant,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runway_strip_holds_its_blast_pads_and_depth_is_from_the_edge() {
        let (ring, spine) = strip([0.0, 0.0], [0.0, 1000.0], 15.0, 60.0, 0.0).unwrap();
        let f = Feature::new(FeatureKind::Runway, "18/36".into(), 7, vec![ring], spine).unwrap();
        assert!(f.contains([0.0, -50.0]), "on the blast pad");
        assert!(!f.contains([0.0, -70.0]));
        assert!(!f.contains([16.0, 500.0]));
        assert!((f.depth([0.0, 500.0]) - 15.0).abs() < 1e-9);
        assert!((f.depth([10.0, 500.0]) - 5.0).abs() < 1e-9);
    }

    #[test]
    fn zone_values_round_outward() {
        assert_eq!(
            zone_value([13.12345678, 47.12345671, 13.12345671, 47.2]),
            "13.1234567/47.1234567/13.1234568/47.2000000"
        );
    }
}
