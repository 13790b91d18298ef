//! Features + rules → one DSF per 1°×1° tile.
//!
//! For every feature: validate its geometry (empty, out-of-range or
//! self-intersecting geometries are problems), find the first rule that
//! fits, take the height from the feature (or the rule, or the default),
//! cut the polygon at tile edges, orient the windings, and add the use to
//! each tile's DSF:
//!
//! - AGP: an object at the point with the heading property;
//! - AGB: one CCW winding of 4 points, parameter `height/4 << 8 | spelling`;
//!   a piece that is not a 4-point block is skipped or placed with the
//!   rule's fallback AGS;
//! - AGS: contours from [`super::orient::ags_contours`] (cut
//!   sides last, not spawning), parameter `height/4 << 8 | spawning`.
//!
//! Definitions are numbered in the rules file's asset order (only those a
//! tile uses), so the output does not depend on feature order beyond the
//! order of uses.

use super::orient::{ags_contours, oriented, quad};
use super::rules::{NonQuad, Rule, Rules};
use super::tiles::{TileId, clip_to_tile, tiles_touched};
use super::{Feature, Geometry};
use crate::dsf::autogen::AutogenKind;
use crate::dsf::{self, Dsf, ElevationMode, Entity, Object, Polygon};
use crate::geom::{LocalFrame, LonLat};
use crate::limits::Limits;
use geo::{Area, Coord, LineString};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Options of [`build_overlay`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildOptions {
    /// Skip invalid features (and only warn about rule properties no
    /// feature has) instead of failing.
    pub lenient: bool,
    /// Value of `sim/creation_agent`.
    pub creation_agent: String,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            lenient: false,
            creation_agent: format!("agkit {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

/// A feature (or a part of one) that placed nothing, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skipped {
    /// Index of the feature in the input.
    pub feature: usize,
    /// The feature's id, if any.
    pub id: Option<String>,
    /// The tile, when only the part in that tile was skipped.
    pub tile: Option<String>,
    /// Why.
    pub reason: String,
}

/// One written tile in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TileReport {
    /// Tile name (`+47+013`).
    pub tile: String,
    /// Path inside the scenery folder.
    pub path: String,
    /// Number of autogen uses in it.
    pub uses: usize,
}

/// What a build did.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Report {
    /// Number of features read.
    pub features: usize,
    /// Features that placed at least one use.
    pub used: usize,
    /// Features or parts placing nothing, with the reason.
    pub skipped: Vec<Skipped>,
    /// Uses placed per asset path.
    pub placed: BTreeMap<String, usize>,
    /// Tiles written.
    pub tiles: Vec<TileReport>,
    /// Warnings (rule properties no feature has in lenient mode, …).
    pub warnings: Vec<String>,
    /// Tiles an earlier build wrote into the folder that this one does not
    /// write, removed (paths inside the scenery folder), with their
    /// previews.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
}

/// The built overlay: one DSF model per tile, and the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlay {
    /// DSF per tile.
    pub tiles: BTreeMap<TileId, Dsf>,
    /// Per tile, the feature each use came from, in the DSF's entity order
    /// (as [`Feature::label`] names it: `feature 3 (id "x")`).
    pub sources: BTreeMap<TileId, Vec<String>>,
    /// The report.
    pub report: Report,
}

/// Why an overlay could not be built or written.
#[derive(Debug)]
#[non_exhaustive]
pub enum OverlayError {
    /// The input has problems (invalid features, rule properties that no
    /// feature has); one message each.
    Invalid(Vec<String>),
    /// A tile could not be encoded as DSF.
    Encode {
        /// The tile.
        tile: TileId,
        /// The builder's message.
        message: String,
    },
    /// The folder holds a tile this build would replace that agkit did not
    /// write (its `sim/creation_agent` is not agkit's, or it is not a DSF).
    Foreign {
        /// The tile.
        path: PathBuf,
        /// What it is.
        why: String,
    },
    /// Writing failed.
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl fmt::Display for OverlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverlayError::Invalid(list) => {
                write!(f, "{} problem(s) in the input", list.len())?;
                for m in list {
                    write!(f, "\n  {m}")?;
                }
                Ok(())
            }
            OverlayError::Encode { tile, message } => write!(f, "tile {tile}: {message}"),
            OverlayError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            OverlayError::Foreign { path, why } => write!(
                f,
                "{}: {why}; overlay build replaces only tiles it wrote itself (write into \
                 another folder, or move the tile away)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OverlayError {}

/// One use waiting for its tile's definition tables, with the label of
/// the feature it comes from.
struct Pending {
    source: String,
    what: Use,
}

enum Use {
    Point {
        asset: String,
        at: LonLat,
        heading: f64,
    },
    Poly {
        asset: String,
        param: u16,
        windings: Vec<Vec<LonLat>>,
    },
}

/// Builds the overlay. Fails with [`OverlayError::Invalid`] listing every
/// problem unless `opts.lenient`, in which case invalid features are
/// skipped (and reported).
pub fn build_overlay(
    features: &[Feature],
    rules: &Rules,
    opts: &BuildOptions,
) -> Result<Overlay, OverlayError> {
    let mut report = Report {
        features: features.len(),
        ..Report::default()
    };
    let mut problems = Vec::new();

    // Rule properties that no feature has: most likely a typo.
    let known: BTreeSet<&str> = features
        .iter()
        .flat_map(|f| f.properties.keys().map(String::as_str))
        .collect();
    for r in &rules.rules {
        for c in &r.conditions {
            if !known.contains(c.key.as_str()) {
                let m = format!(
                    "rule `{}` (rules line {}) matches on property `{}`, which no feature has",
                    r.name, r.at.0, c.key
                );
                if opts.lenient {
                    report.warnings.push(m);
                } else {
                    problems.push(m);
                }
            }
        }
    }

    let mut pending: BTreeMap<TileId, Vec<Pending>> = BTreeMap::new();
    for f in features {
        let mut ctx = FeatureCtx {
            f,
            rules,
            placed: 0,
            skipped: Vec::new(),
            invalid: Vec::new(),
        };
        ctx.run(&mut pending);
        if !ctx.invalid.is_empty() {
            for m in &ctx.invalid {
                if opts.lenient {
                    report.skipped.push(Skipped {
                        feature: f.index,
                        id: f.id.clone(),
                        tile: None,
                        reason: format!("invalid: {m}"),
                    });
                } else {
                    problems.push(format!("{}: {m}", f.label()));
                }
            }
            continue;
        }
        if ctx.placed > 0 {
            report.used += 1;
        }
        report.skipped.extend(ctx.skipped);
    }
    if !problems.is_empty() {
        return Err(OverlayError::Invalid(problems));
    }

    let order = rules.asset_order();
    let mut tiles = BTreeMap::new();
    let mut sources = BTreeMap::new();
    for (tile, uses) in pending {
        let (uses, labels): (Vec<Use>, Vec<String>) =
            uses.into_iter().map(|p| (p.what, p.source)).unzip();
        sources.insert(tile, labels);
        let dsf = tile_dsf(tile, uses, &order, &opts.creation_agent, &mut report.placed);
        report.tiles.push(TileReport {
            tile: tile.to_string(),
            path: tile.relative_path().to_string_lossy().replace('\\', "/"),
            uses: dsf.entities.len(),
        });
        tiles.insert(tile, dsf);
    }
    Ok(Overlay {
        tiles,
        sources,
        report,
    })
}

fn tile_dsf(
    tile: TileId,
    uses: Vec<Use>,
    order: &[String],
    agent: &str,
    placed: &mut BTreeMap<String, usize>,
) -> Dsf {
    let used: BTreeSet<&str> = uses
        .iter()
        .map(|u| match u {
            Use::Point { asset, .. } | Use::Poly { asset, .. } => asset.as_str(),
        })
        .collect();
    let mut dsf = Dsf::default();
    for a in order.iter().filter(|a| used.contains(a.as_str())) {
        if AutogenKind::from_path(a) == Some(AutogenKind::Agp) {
            dsf.object_defs.push(a.clone());
        } else {
            dsf.polygon_defs.push(a.clone());
        }
    }
    let index = |table: &[String], a: &str| table.iter().position(|d| d == a).unwrap_or(0) as u32;
    for u in uses {
        match u {
            Use::Point { asset, at, heading } => {
                *placed.entry(asset.clone()).or_default() += 1;
                dsf.entities.push(Entity::Object(Object {
                    def: index(&dsf.object_defs, &asset),
                    lon: at[0],
                    lat: at[1],
                    heading: heading.rem_euclid(360.0),
                    elevation: None,
                    mode: ElevationMode::Draped,
                }));
            }
            Use::Poly {
                asset,
                param,
                windings,
            } => {
                *placed.entry(asset.clone()).or_default() += 1;
                dsf.entities.push(Entity::Polygon(Polygon {
                    def: index(&dsf.polygon_defs, &asset),
                    param,
                    depth: 2,
                    windings: windings
                        .iter()
                        .map(|w| w.iter().flat_map(|p| [p[0], p[1]]).collect())
                        .collect(),
                }));
            }
        }
    }
    let mut props = tile.bounds_properties();
    props.push(("sim/overlay".into(), "1".into()));
    props.push(("sim/creation_agent".into(), agent.into()));
    if !dsf.object_defs.is_empty() {
        props.push(("sim/require_agpoint".into(), "1/0".into()));
        props.push(("sim/require_object".into(), "1/0".into()));
    }
    dsf.properties = props;
    dsf
}

struct FeatureCtx<'a> {
    f: &'a Feature,
    rules: &'a Rules,
    placed: usize,
    skipped: Vec<Skipped>,
    invalid: Vec<String>,
}

impl FeatureCtx<'_> {
    /// Queues one use of this feature in `tile`.
    fn push(&mut self, out: &mut BTreeMap<TileId, Vec<Pending>>, tile: TileId, what: Use) {
        out.entry(tile).or_default().push(Pending {
            source: self.f.label(),
            what,
        });
        self.placed += 1;
    }

    fn skip(&mut self, tile: Option<TileId>, reason: String) {
        self.skipped.push(Skipped {
            feature: self.f.index,
            id: self.f.id.clone(),
            tile: tile.map(|t| t.to_string()),
            reason,
        });
    }

    fn number(&mut self, key: &str) -> Option<f64> {
        let v = self.f.properties.get(key)?;
        let n = match v {
            serde_json::Value::Null => return None,
            serde_json::Value::Number(n) => n.as_f64(),
            serde_json::Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        match n.filter(|x| x.is_finite()) {
            Some(x) => Some(x),
            None => {
                self.invalid
                    .push(format!("property `{key}` = {v} is not a number"));
                None
            }
        }
    }

    fn run(&mut self, out: &mut BTreeMap<TileId, Vec<Pending>>) {
        match &self.f.geometry {
            Geometry::Empty => self.invalid.push("the feature has no geometry".into()),
            Geometry::Other(t) => self.skip(
                None,
                format!(
                    "{t} geometries are not used (only Polygon, MultiPolygon, Point, MultiPoint)"
                ),
            ),
            Geometry::Points(pts) => self.points(pts, out),
            Geometry::Polygons(polys) => self.polygons(polys, out),
        }
    }

    fn points(&mut self, pts: &[LonLat], out: &mut BTreeMap<TileId, Vec<Pending>>) {
        if pts.is_empty() {
            self.invalid.push("the MultiPoint has no points".into());
            return;
        }
        for p in pts {
            if let Err(m) = in_range(*p) {
                self.invalid.push(m);
                return;
            }
        }
        let Some(rule) = self
            .rules
            .rules
            .iter()
            .find(|r| r.kind == AutogenKind::Agp && r.properties_match(&self.f.properties))
        else {
            self.skip(None, "no rule matched this point".into());
            return;
        };
        let heading_key = self.rules.settings.heading_property.clone();
        let heading = self.number(&heading_key).unwrap_or(0.0);
        if !self.invalid.is_empty() {
            return;
        }
        for p in pts {
            let what = Use::Point {
                asset: rule.asset.clone(),
                at: *p,
                heading,
            };
            self.push(out, TileId::containing(*p), what);
        }
    }

    fn polygons(&mut self, polys: &[Vec<Vec<LonLat>>], out: &mut BTreeMap<TileId, Vec<Pending>>) {
        if polys.is_empty() {
            self.invalid.push("the MultiPolygon has no polygons".into());
            return;
        }
        let mut shapes = Vec::new();
        for (k, rings) in polys.iter().enumerate() {
            let part = if polys.len() > 1 {
                format!("polygon {k}: ")
            } else {
                String::new()
            };
            match to_geo(rings) {
                Ok(p) => shapes.push(p),
                Err(m) => {
                    self.invalid.push(format!("{part}{m}"));
                }
            }
        }
        if !self.invalid.is_empty() {
            return;
        }
        let height_key = self.rules.settings.height_property.clone();
        let feature_height = self.number(&height_key);
        if let Some(h) = feature_height
            && h < 0.0
        {
            self.invalid.push(format!("height {h} is negative"));
        }
        if !self.invalid.is_empty() {
            return;
        }
        for (k, poly) in shapes.iter().enumerate() {
            let area = area_m2(poly);
            let vertices = poly.exterior().0.len().saturating_sub(1);
            let holes = poly.interiors().len();
            let Some(rule) = self.rules.rules.iter().find(|r| {
                r.kind != AutogenKind::Agp
                    && r.properties_match(&self.f.properties)
                    && r.shape_match(area, vertices, holes)
            }) else {
                let part = if shapes.len() > 1 {
                    format!("polygon {k}: ")
                } else {
                    String::new()
                };
                self.skip(
                    None,
                    format!(
                        "{part}no rule matched (area {area:.0} m², {vertices} vertices, {holes} holes)"
                    ),
                );
                continue;
            };
            let height = feature_height
                .or(rule.height)
                .unwrap_or(self.rules.settings.default_height);
            let high = ((height / 4.0).round().clamp(0.0, 255.0) as u16) << 8;
            let whole = oriented(poly);
            let first_edge = [
                whole[0][1][0] - whole[0][0][0],
                whole[0][1][1] - whole[0][0][1],
            ];
            for copy in copies_on_the_globe(poly) {
                for tile in tiles_touched(&copy) {
                    for piece in clip_to_tile(&copy, tile) {
                        let mut rings = oriented(&piece.polygon);
                        if piece.clipped {
                            align_first_edge(&mut rings[0], first_edge);
                        }
                        self.place_piece(rule, tile, &rings, piece.clipped, high, out);
                    }
                }
            }
        }
    }

    fn place_piece(
        &mut self,
        rule: &Rule,
        tile: TileId,
        rings: &[Vec<LonLat>],
        clipped: bool,
        high: u16,
        out: &mut BTreeMap<TileId, Vec<Pending>>,
    ) {
        let ags_asset = match rule.kind {
            AutogenKind::Agb => {
                if let Some(q) = quad(rings) {
                    let what = Use::Poly {
                        asset: rule.asset.clone(),
                        param: high | u16::from(rule.spelling),
                        windings: vec![q.to_vec()],
                    };
                    self.push(out, tile, what);
                    return;
                }
                let why = if rings.len() > 1 {
                    format!("not a 4-point block ({} holes)", rings.len() - 1)
                } else if clipped {
                    format!(
                        "not a 4-point block after the cut at the tile edge ({} vertices)",
                        rings[0].len()
                    )
                } else {
                    format!("not a 4-point block ({} vertices)", rings[0].len())
                };
                match (rule.non_quad, &rule.fallback) {
                    (NonQuad::Fallback, Some(f)) => f.clone(),
                    _ => {
                        self.skip(
                            clipped.then_some(tile),
                            format!("rule `{}` places an .agb: {why}", rule.name),
                        );
                        return;
                    }
                }
            }
            _ => rule.asset.clone(),
        };
        let c = ags_contours(rings, tile, clipped);
        if c.windings.len() > 255 {
            self.skip(
                Some(tile),
                format!(
                    "{} contours; a DSF polygon holds at most 255",
                    c.windings.len()
                ),
            );
            return;
        }
        if c.spawning == 0 {
            self.skip(
                Some(tile),
                "every side of this part lies on the tile edge; nothing would spawn".into(),
            );
            return;
        }
        let what = Use::Poly {
            asset: ags_asset,
            param: high | c.spawning as u16,
            windings: c.windings,
        };
        self.push(out, tile, what);
    }
}

/// Rotates a ring so its first edge points most nearly along `dir` (a cut
/// piece keeps the grid orientation the feature's first edge gives an AGB).
fn align_first_edge(ring: &mut [LonLat], dir: [f64; 2]) {
    let n = ring.len();
    if n < 2 {
        return;
    }
    let len = dir[0].hypot(dir[1]).max(f64::MIN_POSITIVE);
    let best = (0..n)
        .max_by(|&i, &j| {
            let score = |k: usize| {
                let (a, b) = (ring[k], ring[(k + 1) % n]);
                let e = [b[0] - a[0], b[1] - a[1]];
                (e[0] * dir[0] + e[1] * dir[1]) / (e[0].hypot(e[1]).max(f64::MIN_POSITIVE) * len)
            };
            score(i).total_cmp(&score(j))
        })
        .unwrap_or(0);
    ring.rotate_left(best);
}

fn in_range(p: LonLat) -> Result<(), String> {
    if (-180.0..=180.0).contains(&p[0]) && (-90.0..=90.0).contains(&p[1]) {
        Ok(())
    } else {
        Err(format!(
            "position {}, {} is outside longitude -180..180 / latitude -90..90",
            p[0], p[1]
        ))
    }
}

/// Turns GeoJSON rings into a validated `geo` polygon.
fn to_geo(rings: &[Vec<LonLat>]) -> Result<geo::Polygon<f64>, String> {
    if rings.is_empty() || rings[0].is_empty() {
        return Err("empty polygon".into());
    }
    let mut out = Vec::new();
    for p in rings.iter().flatten() {
        in_range(*p)?;
    }
    let mut reference = None;
    for (k, r) in rings.iter().enumerate() {
        let open = super::orient::open_ring(r.clone());
        if open.len() < 3 {
            return Err(format!(
                "ring {k} has {} distinct vertices; a polygon ring needs at least 3",
                open.len()
            ));
        }
        let open = short_way(open, &mut reference).map_err(|m| format!("ring {k} {m}"))?;
        let mut l = LineString::new(open.iter().map(|p| Coord { x: p[0], y: p[1] }).collect());
        l.close();
        out.push(l);
    }
    let exterior = out.remove(0);
    let poly = geo::Polygon::new(exterior, out);
    // Near-linear, and bounded by the work limit `place` uses.
    crate::geom::valid::validate(&poly, Limits::default().max_work).map_err(|e| e.to_string())?;
    if poly.unsigned_area() == 0.0 {
        return Err("the polygon has no area".into());
    }
    Ok(poly)
}

/// A ring taken the short way round, as `place` measures it: each vertex's
/// longitude moved by 360° where that brings it within 180° of the vertex
/// before (the first within 180° of `reference`, the first vertex of the
/// outer ring, which it sets). A lot crossing longitude 180 keeps its size
/// instead of becoming a band around the globe; its longitudes may then
/// pass ±180, and [`copies_on_the_globe`] brings the part beyond back. A
/// ring whose way round does not close goes around a pole: refused.
fn short_way(ring: Vec<LonLat>, reference: &mut Option<f64>) -> Result<Vec<LonLat>, String> {
    let mut prev = reference.unwrap_or(ring[0][0]);
    let mut out = Vec::with_capacity(ring.len());
    for [lon, lat] in ring {
        let mut lon = lon;
        if lon - prev > 180.0 {
            lon -= 360.0;
        } else if lon - prev < -180.0 {
            lon += 360.0;
        }
        out.push([lon, lat]);
        prev = lon;
    }
    reference.get_or_insert(out[0][0]);
    let (first, last) = (out[0][0], prev);
    if (first - last).abs() > 180.0 {
        return Err(
            "goes all the way around the globe (around a pole); split it into parts that do not"
                .into(),
        );
    }
    Ok(out)
}

/// The polygon, and when it passes longitude ±180 ([`short_way`]) a copy
/// moved by 360° for the part beyond, so that each part lands in the tiles
/// of its own side of the antimeridian.
fn copies_on_the_globe(poly: &geo::Polygon<f64>) -> Vec<geo::Polygon<f64>> {
    use geo::{BoundingRect, Translate};
    let mut out = vec![poly.clone()];
    if let Some(b) = poly.bounding_rect() {
        if b.max().x > 180.0 {
            out.push(poly.translate(-360.0, 0.0));
        }
        if b.min().x < -180.0 {
            out.push(poly.translate(360.0, 0.0));
        }
    }
    out
}

/// Area in square metres (projected on a local frame at the first vertex).
pub fn area_m2(poly: &geo::Polygon<f64>) -> f64 {
    let Some(first) = poly.exterior().0.first() else {
        return 0.0;
    };
    let frame = LocalFrame::new([first.x, first.y]);
    let project = |l: &LineString<f64>| {
        LineString::new(
            l.coords()
                .map(|c| {
                    let [x, y] = frame.to_local([c.x, c.y]);
                    Coord { x, y }
                })
                .collect(),
        )
    };
    geo::Polygon::new(
        project(poly.exterior()),
        poly.interiors().iter().map(project).collect(),
    )
    .unsigned_area()
}

/// Encodes every tile, then writes them under `dir/Earth nav data/…`, with
/// `dir/overlay-report.json`, all or nothing (see [`write_tiles`]). Returns
/// the written paths.
pub fn write_overlay(overlay: &mut Overlay, dir: &Path) -> Result<Vec<PathBuf>, OverlayError> {
    write_overlay_with(overlay, dir, Vec::new())
}

/// [`write_overlay`] with further files (e.g. previews) written in the same
/// all-or-nothing step, before the tiles. Returns the paths of the tiles
/// and the report.
///
/// A folder written before is taken over: the tiles of an earlier agkit
/// build (their `sim/creation_agent` is agkit's) that this build does not
/// write are removed with their previews once everything is written, and
/// listed in the report ([`Report::removed`], and a warning each). A tile
/// this build would replace that agkit did not write is refused
/// ([`OverlayError::Foreign`]) before anything is written; other tiles are
/// left, with a warning.
pub fn write_overlay_with(
    overlay: &mut Overlay,
    dir: &Path,
    extra: Vec<(PathBuf, Vec<u8>)>,
) -> Result<Vec<PathBuf>, OverlayError> {
    let encoded = overlay.encode()?;
    write_encoded_overlay(overlay, encoded, dir, extra)
}

/// The DSFs under `dir/Earth nav data` that an earlier agkit build wrote
/// and this one does not; records them in the report. Refuses a tile this
/// build would replace that agkit did not write.
fn stale_tiles(overlay: &mut Overlay, dir: &Path) -> Result<Vec<PathBuf>, OverlayError> {
    let end = dir.join("Earth nav data");
    if !end.is_dir() {
        return Ok(Vec::new());
    }
    let ours: BTreeSet<PathBuf> = overlay
        .tiles
        .keys()
        .map(|t| dir.join(t.relative_path()))
        .collect();
    let mut stale = Vec::new();
    for e in crate::fsutil::walk(&end).filter_map(Result::ok) {
        let path = e.path();
        if !e.file_type().is_file()
            || !path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("dsf"))
        {
            continue;
        }
        let agent = crate::fsutil::read_earlier_output(
            path,
            "a DSF tile",
            Limits::default().max_input_bytes,
        )
        .map_err(|e| e.reason())
        .and_then(|b| crate::dsf::read(&b).map_err(|e| format!("not a DSF that agkit reads ({e})")))
        .map(|d| d.property("sim/creation_agent").unwrap_or("").to_string());
        let agkit = matches!(&agent, Ok(a) if a.starts_with("agkit"));
        let rel = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        if ours.contains(path) {
            if !agkit {
                return Err(OverlayError::Foreign {
                    path: path.to_path_buf(),
                    why: match agent {
                        Ok(a) if a.is_empty() => "a tile with no sim/creation_agent".into(),
                        Ok(a) => format!("a tile written by {a:?}"),
                        Err(e) => e,
                    },
                });
            }
        } else if agkit {
            overlay.report.warnings.push(format!(
                "removed {rel}: written by an earlier build into this folder, not by this one"
            ));
            overlay.report.removed.push(rel);
            stale.push(path.to_path_buf());
        } else {
            overlay
                .report
                .warnings
                .push(format!("left {rel}: a tile agkit did not write"));
        }
    }
    Ok(stale)
}

/// Encodes `tiles` as binary DSF, then writes them and `report_name` as one
/// step ([`crate::fsutil::write_all_atomic`]): nothing is written when a
/// tile fails to encode or any file fails to write.
pub fn write_tiles(
    tiles: &BTreeMap<TileId, Dsf>,
    dir: &Path,
    report_name: &str,
    report: &[u8],
) -> Result<Vec<PathBuf>, OverlayError> {
    write_encoded(
        encode_tiles(tiles, None)?,
        dir,
        report_name,
        report,
        Vec::new(),
    )
}

/// Encodes `tiles` as binary DSF; with `sources`, a use the encoder
/// refuses is named by its feature.
fn encode_tiles(
    tiles: &BTreeMap<TileId, Dsf>,
    sources: Option<&BTreeMap<TileId, Vec<String>>>,
) -> Result<BTreeMap<TileId, Vec<u8>>, OverlayError> {
    let mut encoded = BTreeMap::new();
    for (tile, d) in tiles {
        let bytes = dsf::build(d, &dsf::BuildOptions::default()).map_err(|e| {
            let source = e
                .entity
                .zip(sources.and_then(|s| s.get(tile)))
                .and_then(|(i, labels)| labels.get(i));
            OverlayError::Encode {
                tile: *tile,
                message: match source {
                    Some(label) => format!("{label}: {}", e.message),
                    None => e.to_string(),
                },
            }
        })?;
        encoded.insert(*tile, bytes);
    }
    Ok(encoded)
}

/// Writes encoded tiles under `dir/Earth nav data/…` and `report_name`,
/// `extra` files first, as one all-or-nothing step
/// ([`crate::fsutil::write_all_atomic`]). Returns the paths of the tiles
/// and the report.
fn write_encoded(
    encoded: BTreeMap<TileId, Vec<u8>>,
    dir: &Path,
    report_name: &str,
    report: &[u8],
    extra: Vec<(PathBuf, Vec<u8>)>,
) -> Result<Vec<PathBuf>, OverlayError> {
    let skip = extra.len();
    let mut files = extra;
    files.extend(
        encoded
            .into_iter()
            .map(|(tile, bytes)| (dir.join(tile.relative_path()), bytes)),
    );
    files.push((dir.join(report_name), report.to_vec()));
    crate::fsutil::write_all_atomic(&files)
        .map_err(|(path, error)| OverlayError::Io { path, error })?;
    let written = files.into_iter().skip(skip).map(|(path, _)| path).collect();
    Ok(written)
}

/// An overlay's tiles encoded as binary DSF ([`Overlay::encode`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The DSF bytes per tile.
    pub tiles: BTreeMap<TileId, Vec<u8>>,
}

impl Overlay {
    /// Encodes every tile as binary DSF, as [`write_overlay`] writes it
    /// (with [`write_encoded_overlay`]).
    pub fn encode(&self) -> Result<Encoded, OverlayError> {
        Ok(Encoded {
            tiles: encode_tiles(&self.tiles, Some(&self.sources))?,
        })
    }

    /// This overlay as its encoded tiles read back: the uses as X-Plane
    /// and `agkit place --dsf` read them from the written files, their
    /// positions rounded to the DSF's pools (objects within 2.4e-7°,
    /// polygons within 4.8e-7°). The overlay preview places these, so it
    /// equals `place --dsf` of the written tile.
    pub fn read_back(&self, encoded: &Encoded) -> Result<Overlay, OverlayError> {
        let mut tiles = BTreeMap::new();
        for (tile, bytes) in &encoded.tiles {
            let d = dsf::read(bytes).map_err(|e| OverlayError::Encode {
                tile: *tile,
                message: format!("the encoded tile does not read back: {e}"),
            })?;
            tiles.insert(*tile, d);
        }
        Ok(Overlay {
            tiles,
            sources: self.sources.clone(),
            report: self.report.clone(),
        })
    }
}

/// [`write_overlay_with`] for tiles already encoded by
/// [`Overlay::encode`] (the report is `overlay`'s, with the tiles of an
/// earlier build it removes).
pub fn write_encoded_overlay(
    overlay: &mut Overlay,
    encoded: Encoded,
    dir: &Path,
    extra: Vec<(PathBuf, Vec<u8>)>,
) -> Result<Vec<PathBuf>, OverlayError> {
    let stale = stale_tiles(overlay, dir)?;
    let report = serde_json::to_string_pretty(&overlay.report).unwrap_or_default() + "\n";
    let written = write_encoded(
        encoded.tiles,
        dir,
        "overlay-report.json",
        report.as_bytes(),
        extra,
    )?;
    for path in stale {
        let mut gone = vec![path.clone()];
        if let Some(stem) = path.file_stem().and_then(|s| s.to_str()) {
            for ext in ["svg", "png"] {
                gone.push(dir.join("preview").join(format!("{stem}.{ext}")));
            }
        }
        for p in gone {
            match std::fs::remove_file(&p) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(OverlayError::Io { path: p, error: e });
                }
                _ => {}
            }
        }
    }
    Ok(written)
}
