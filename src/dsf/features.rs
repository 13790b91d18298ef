//! A tile's entities as GIS features: one row per object, polygon, line,
//! facade, forest and network chain, each with a geometry that is valid by
//! construction (rings closed, repeated points removed, degenerate holes
//! dropped with a [`Note`]) and the attributes the DSF gives it.
//!
//! The geometry is lon/lat (WGS84, EPSG:4326) from the first two planes of
//! each point. The other planes are not lost: [`Feature::planes`] names
//! them, and [`Feature::extra`] holds their values point by point, in the
//! order of the points of the geometry's rings or line (before closing).
//!
//! Which layer a polygon belongs to follows its definition's extension, as
//! X-Plane reads it (DSF notes §7.3): `.fac` facades (the parameter is the
//! height in metres; a polygon, or a line when it has 2 distinct points:
//! the DSF does not say whether the `.fac` is a closed `RING`), `.for` forests (`density*255 + fill_mode*256`),
//! `.lin` lines (the parameter is the closed flag) and `.str` object
//! strings (spacing) as lines, anything else (`.pol`, `.agb`, `.ags`, `.bch`
//! …) as polygons.

use super::{Dsf, ElevationMode, Entity};
use serde::Serialize;

/// A longitude/latitude pair in degrees.
pub type LonLat = [f64; 2];

/// A feature's geometry, as GeoJSON names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", content = "coordinates")]
pub enum Geometry {
    /// An object's position.
    Point(LonLat),
    /// An open line: at least two distinct points.
    LineString(Vec<LonLat>),
    /// An outer ring and its holes, each closed (first point repeated at
    /// the end) with at least three distinct points.
    Polygon(Vec<Vec<LonLat>>),
}

/// The table a feature belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    /// Objects (`.obj`, `.agp`): points.
    Objects,
    /// Polygons that are areas (`.pol`, `.agb`, `.ags`, `.bch`, …).
    Polygons,
    /// Lines (`.lin`) and object strings (`.str`): one line per winding.
    Lines,
    /// Facades (`.fac`): a polygon when closed, else a line.
    Facades,
    /// Forests (`.for`): a polygon with holes (area fill), else a line.
    Forests,
    /// Network chains: lines.
    Chains,
}

impl Layer {
    /// Every layer, in table order.
    pub const ALL: [Layer; 6] = [
        Layer::Objects,
        Layer::Polygons,
        Layer::Lines,
        Layer::Facades,
        Layer::Forests,
        Layer::Chains,
    ];

    /// Lower-case name (`objects`, `polygons`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Objects => "objects",
            Layer::Polygons => "polygons",
            Layer::Lines => "lines",
            Layer::Facades => "facades",
            Layer::Forests => "forests",
            Layer::Chains => "chains",
        }
    }
}

/// One row: an entity of the tile (or one winding of a line).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Feature {
    /// Its table.
    pub layer: Layer,
    /// Index of the entity in the command stream (every kind counted).
    pub entity: usize,
    /// Index of the definition in its table (`OBJT`, `POLY`, `NETW`).
    pub def: u32,
    /// The definition path as written in the DSF (empty when the index is
    /// past the table's end).
    pub definition: String,
    /// The definition's extension, lower case (`obj`, `agp`, `fac`, …;
    /// `net` for chains).
    pub kind: String,
    /// Lon/lat geometry.
    pub geometry: Geometry,
    /// Polygons: the raw 16-bit parameter.
    pub param: Option<u16>,
    /// Objects: degrees clockwise from true north.
    pub heading: Option<f64>,
    /// Objects: metres MSL or AGL as `mode` says (`None` when draped).
    pub elevation: Option<f64>,
    /// Objects: how the elevation is meant.
    pub mode: Option<ElevationMode>,
    /// Facades: height in metres (the parameter); AGB/AGS: `(param >> 8) * 4`.
    pub height: Option<f64>,
    /// Lines: the winding's index within the entity.
    pub winding: Option<usize>,
    /// Lines and facades: whether the shape closes on itself.
    pub closed: Option<bool>,
    /// Forests: density 0..1 (`(param & 0xFF) / 255`).
    pub density: Option<f64>,
    /// Forests: fill mode (`param >> 8`: 0 area, 1 line, 2 points).
    pub fill_mode: Option<u16>,
    /// Object strings: spacing in metres (the parameter).
    pub spacing: Option<f64>,
    /// Chains: the road subtype.
    pub subtype: Option<u32>,
    /// Chains: junction IDs of the first and last points.
    pub junctions: Option<[u32; 2]>,
    /// Names of the planes past lon/lat (`u`/`v`, `wall`, `ctrl_lon`…).
    pub planes: Vec<&'static str>,
    /// Values of those planes, point by point (`planes.len()` each), for
    /// the points the geometry keeps, before closing.
    pub extra: Vec<f64>,
}

/// Something left out or changed to keep a geometry valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    /// The entity's index in the command stream.
    pub entity: usize,
    /// What was done and why.
    pub message: String,
}

/// A tile's features and the notes about them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Features {
    /// The tile's name from `sim/west` and `sim/south` (`+47+013`), or
    /// empty when those properties are missing.
    pub tile: String,
    /// Every feature in command-stream order.
    pub features: Vec<Feature>,
    /// What was dropped or changed.
    pub notes: Vec<Note>,
}

impl Features {
    /// The features of one layer, in order.
    pub fn layer(&self, layer: Layer) -> impl Iterator<Item = &Feature> {
        self.features.iter().filter(move |f| f.layer == layer)
    }
}

/// The tile name of a DSF's `sim/south` and `sim/west` (`+47+013`).
pub fn tile_name(dsf: &Dsf) -> String {
    let deg = |n: &str| {
        dsf.property(n)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map(|v| v.floor() as i64)
    };
    match (deg("sim/south"), deg("sim/west")) {
        (Some(s), Some(w)) => format!("{s:+03}{w:+04}"),
        _ => String::new(),
    }
}

/// Lower-case extension of a definition path.
fn extension(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// Names of a polygon's planes past lon/lat, by its kind and depth (DSF
/// notes §2.5).
fn polygon_planes(kind: &str, depth: usize) -> Vec<&'static str> {
    let named: &[&'static str] = match (kind, depth) {
        (_, 0..=2) => &[],
        ("fac", 3) => &["wall"],
        ("fac", 5) => &["wall", "ctrl_lon", "ctrl_lat"],
        ("pol", 4) => &["u", "v"],
        ("pol", 8) => &["ctrl_lon", "ctrl_lat", "u", "v", "ctrl_u", "ctrl_v"],
        ("bch", 6) => &["elevation", "normal_x", "normal_z", "beach"],
        (_, 4) => &["ctrl_lon", "ctrl_lat"],
        _ => &[],
    };
    if named.len() + 2 == depth {
        named.to_vec()
    } else {
        GENERIC[..depth.saturating_sub(2).min(GENERIC.len())].to_vec()
    }
}

/// Names of planes no layout names.
const GENERIC: [&str; 8] = [
    "plane2", "plane3", "plane4", "plane5", "plane6", "plane7", "plane8", "plane9",
];

/// A ring or line of points (each `depth` values) with consecutive repeats
/// (and, for a ring, a repeated closing point) removed; the kept points'
/// extra planes appended to `extra`.
fn clean(
    points: &mut dyn Iterator<Item = &[f64]>,
    ring: bool,
    extra: &mut Vec<f64>,
    keep: usize,
) -> Vec<LonLat> {
    let mut out: Vec<LonLat> = Vec::new();
    let mut planes: Vec<f64> = Vec::new();
    for p in points {
        if p.len() < 2 || !p[0].is_finite() || !p[1].is_finite() {
            continue;
        }
        let ll = [p[0], p[1]];
        if out.last() == Some(&ll) {
            continue;
        }
        out.push(ll);
        planes.extend((0..keep).map(|i| p.get(2 + i).copied().unwrap_or(f64::NAN)));
    }
    if ring && out.len() > 1 && out.first() == out.last() {
        out.pop();
        planes.truncate(planes.len() - keep);
    }
    extra.extend(planes);
    out
}

/// Closes a ring (first point repeated at the end).
fn closed(mut ring: Vec<LonLat>) -> Vec<LonLat> {
    if let Some(&first) = ring.first() {
        ring.push(first);
    }
    ring
}

/// Every object, polygon, line, facade, forest and network chain of `dsf`
/// as features, in command-stream order (terrain patches and filters are
/// not features). A polygon whose outer ring has fewer than three distinct
/// points, a line or chain with fewer than two, is left out, and a hole of
/// fewer than three points dropped, each with a [`Note`].
pub fn features(dsf: &Dsf) -> Features {
    let mut out = Features {
        tile: tile_name(dsf),
        ..Features::default()
    };
    for (entity, e) in dsf.entities.iter().enumerate() {
        match e {
            Entity::Object(o) => {
                let definition = dsf
                    .object_defs
                    .get(o.def as usize)
                    .cloned()
                    .unwrap_or_default();
                out.features.push(Feature {
                    kind: extension(&definition),
                    definition,
                    heading: Some(o.heading),
                    elevation: o.elevation,
                    mode: Some(o.mode),
                    ..Feature::new(
                        Layer::Objects,
                        entity,
                        o.def,
                        Geometry::Point([o.lon, o.lat]),
                    )
                });
            }
            Entity::Polygon(p) => polygon(dsf, entity, p, &mut out),
            Entity::Network(c) => {
                let definition = dsf
                    .network_defs
                    .get(c.def as usize)
                    .cloned()
                    .unwrap_or_default();
                let keep = c.depth.saturating_sub(2);
                let planes: Vec<&'static str> = match c.depth {
                    4 => vec!["elevation", "junction"],
                    7 => vec![
                        "elevation",
                        "junction",
                        "ctrl_lon",
                        "ctrl_lat",
                        "ctrl_elevation",
                    ],
                    d => GENERIC[..d.saturating_sub(2).min(GENERIC.len())].to_vec(),
                };
                let keep = keep.min(planes.len());
                let mut extra = Vec::new();
                let line = clean(&mut c.points(), false, &mut extra, keep);
                if line.len() < 2 {
                    out.notes.push(Note {
                        entity,
                        message: format!(
                            "network chain of {} distinct point(s) left out: a line needs 2",
                            line.len()
                        ),
                    });
                    continue;
                }
                let junction =
                    |p: Option<&[f64]>| p.and_then(|p| p.get(3)).map_or(0, |&j| j as u32);
                let pts: Vec<&[f64]> = c.points().collect();
                out.features.push(Feature {
                    kind: "net".to_string(),
                    definition,
                    subtype: Some(c.subtype),
                    junctions: Some([
                        junction(pts.first().copied()),
                        junction(pts.last().copied()),
                    ]),
                    planes,
                    extra,
                    ..Feature::new(Layer::Chains, entity, c.def, Geometry::LineString(line))
                });
            }
            Entity::Patch(_) | Entity::Filter(_) => {}
        }
    }
    out
}

impl Feature {
    fn new(layer: Layer, entity: usize, def: u32, geometry: Geometry) -> Feature {
        Feature {
            layer,
            entity,
            def,
            definition: String::new(),
            kind: String::new(),
            geometry,
            param: None,
            heading: None,
            elevation: None,
            mode: None,
            height: None,
            winding: None,
            closed: None,
            density: None,
            fill_mode: None,
            spacing: None,
            subtype: None,
            junctions: None,
            planes: Vec::new(),
            extra: Vec::new(),
        }
    }
}

/// The features of one polygon entity.
fn polygon(dsf: &Dsf, entity: usize, p: &super::Polygon, out: &mut Features) {
    let definition = dsf
        .polygon_defs
        .get(p.def as usize)
        .cloned()
        .unwrap_or_default();
    let kind = extension(&definition);
    let planes = polygon_planes(&kind, p.depth);
    let keep = planes.len();
    let param = p.param;
    let base = |layer, geometry, extra| Feature {
        kind: kind.clone(),
        definition: definition.clone(),
        param: Some(param),
        planes: planes.clone(),
        extra,
        ..Feature::new(layer, entity, p.def, geometry)
    };
    let mut note = |message: String| out.notes.push(Note { entity, message });
    match kind.as_str() {
        "lin" | "str" => {
            let is_closed = kind == "lin" && param == 1;
            let mut rows = Vec::new();
            for k in 0..p.windings.len() {
                let mut extra = Vec::new();
                let line = clean(&mut p.points(k), is_closed, &mut extra, keep);
                let need = if is_closed { 3 } else { 2 };
                if line.len() < need {
                    note(format!(
                        "winding {k} of {} distinct point(s) left out: a {} line needs {need}",
                        line.len(),
                        if is_closed { "closed" } else { "open" }
                    ));
                    continue;
                }
                let line = if is_closed { closed(line) } else { line };
                rows.push(Feature {
                    winding: Some(k),
                    closed: Some(is_closed),
                    spacing: (kind == "str").then_some(f64::from(param)),
                    ..base(Layer::Lines, Geometry::LineString(line), extra)
                });
            }
            out.features.extend(rows);
        }
        _ => {
            let layer = match kind.as_str() {
                "fac" => Layer::Facades,
                "for" => Layer::Forests,
                _ => Layer::Polygons,
            };
            let fill_mode = param >> 8;
            // A forest fills an area only in fill mode 0. A facade is a
            // closed ring (a building) when its `.fac` says `RING 1`, the
            // default, and it has at least 3 points, else an open chain of
            // walls (a fence; agkit's `fac::layout` draws it so): the DSF
            // says nothing of `RING`, so a facade of 3 points or more is a
            // polygon here, and one of 2 distinct points, which X-Plane can
            // only draw as a wall, a line.
            let mut area = layer != Layer::Forests || fill_mode == 0;
            let mut extra = Vec::new();
            let mut rings: Vec<Vec<LonLat>> = Vec::new();
            for k in 0..p.windings.len() {
                let mark = extra.len();
                let ring = clean(&mut p.points(k), area, &mut extra, keep);
                if k == 0 && layer == Layer::Facades && ring.len() == 2 {
                    area = false;
                }
                let need = if area { 3 } else { 2 };
                if ring.len() < need {
                    extra.truncate(mark);
                    if k == 0 {
                        note(format!(
                            "{} of {} distinct point(s) left out: its outer ring needs {need}",
                            layer_noun(layer),
                            ring.len()
                        ));
                        return;
                    }
                    note(format!(
                        "hole {k} of {} distinct point(s) dropped: a ring needs 3",
                        ring.len()
                    ));
                    continue;
                }
                if !area && k > 0 {
                    note(if layer == Layer::Facades {
                        format!(
                            "winding {k} of a facade of 2 points (a wall) dropped: a line has one"
                        )
                    } else {
                        format!(
                            "winding {k} of a forest in fill mode {fill_mode} dropped: a line has one"
                        )
                    });
                    extra.truncate(mark);
                    continue;
                }
                rings.push(ring);
            }
            if rings.is_empty() {
                note(format!("{} without windings left out", layer_noun(layer)));
                return;
            }
            let geometry = if area {
                Geometry::Polygon(rings.into_iter().map(closed).collect())
            } else {
                Geometry::LineString(rings.swap_remove(0))
            };
            let mut f = base(layer, geometry, extra);
            match layer {
                Layer::Facades => {
                    f.height = Some(f64::from(param));
                    f.closed = Some(area);
                }
                Layer::Forests => {
                    f.density = Some(f64::from(param & 0xFF) / 255.0);
                    f.fill_mode = Some(fill_mode);
                }
                _ if matches!(kind.as_str(), "agb" | "ags") => {
                    f.height = Some(f64::from(param >> 8) * 4.0);
                }
                _ => {}
            }
            out.features.push(f);
        }
    }
}

/// What a note calls a feature of `layer`.
fn layer_noun(layer: Layer) -> &'static str {
    match layer {
        Layer::Facades => "facade",
        Layer::Forests => "forest",
        _ => "polygon",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsf::Polygon;

    fn tile(entities: Vec<Entity>, polygon_defs: &[&str]) -> Dsf {
        Dsf {
            properties: vec![
                ("sim/west".into(), "13".into()),
                ("sim/south".into(), "-7".into()),
            ],
            polygon_defs: polygon_defs.iter().map(|s| s.to_string()).collect(),
            entities,
            ..Dsf::default()
        }
    }

    fn poly(def: u32, param: u16, depth: usize, windings: Vec<Vec<f64>>) -> Entity {
        Entity::Polygon(Polygon {
            def,
            param,
            depth,
            windings,
        })
    }

    #[test]
    fn tile_name_is_signed_and_padded() {
        assert_eq!(features(&tile(vec![], &[])).tile, "-07+013");
    }

    #[test]
    fn rings_are_closed_and_short_holes_dropped_with_a_note() {
        let square = vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let short_hole = vec![0.2, 0.2, 0.3, 0.3, 0.3, 0.3];
        let f = features(&tile(
            vec![poly(0, 0, 2, vec![square, short_hole])],
            &["a.pol"],
        ));
        assert_eq!(f.features.len(), 1);
        let Geometry::Polygon(rings) = &f.features[0].geometry else {
            panic!()
        };
        assert_eq!(rings.len(), 1);
        assert_eq!(rings[0].first(), rings[0].last());
        assert_eq!(rings[0].len(), 5);
        assert_eq!(f.notes.len(), 1);
        assert!(
            f.notes[0]
                .message
                .contains("hole 1 of 2 distinct point(s) dropped")
        );
    }

    #[test]
    fn a_facade_of_two_points_is_an_open_line_and_of_three_a_closed_ring() {
        // A facade with wall types: lon, lat, wall (DSF notes §5 table).
        let wall = vec![0.0, 0.0, 1.0, 1.0, 0.0, 2.0, 0.0, 0.0, 3.0];
        let building = vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0];
        let f = features(&tile(
            vec![
                poly(0, 10, 3, vec![wall, vec![0.5, 0.5, 0.0, 0.6, 0.6, 0.0]]),
                poly(0, 12, 3, vec![building]),
            ],
            &["fence.fac"],
        ));
        assert_eq!(f.features.len(), 2);
        let Geometry::LineString(line) = &f.features[0].geometry else {
            panic!("{:?}", f.features[0].geometry)
        };
        // The closing repeat of the first point is no third point.
        assert_eq!(line, &vec![[0.0, 0.0], [1.0, 0.0]]);
        assert_eq!(f.features[0].closed, Some(false));
        assert_eq!(f.features[0].extra, [1.0, 2.0]);
        assert_eq!(f.features[0].height, Some(10.0));
        assert!(matches!(f.features[1].geometry, Geometry::Polygon(_)));
        assert_eq!(f.features[1].closed, Some(true));
        assert_eq!(f.notes.len(), 1, "{:?}", f.notes);
        assert!(f.notes[0].message.contains("facade of 2 points"));
    }

    #[test]
    fn lines_are_open_unless_the_closed_flag_is_set_and_keep_their_planes() {
        let w = vec![0.0, 0.0, 5.0, 6.0, 1.0, 0.0, 7.0, 8.0, 1.0, 1.0, 9.0, 10.0];
        let f = features(&tile(
            vec![
                poly(0, 0, 4, vec![w.clone()]),
                poly(0, 1, 4, vec![w]),
                poly(1, 3, 2, vec![vec![0.0, 0.0]]),
            ],
            &["road.lin", "x.str"],
        ));
        assert_eq!(f.features.len(), 2);
        let Geometry::LineString(open) = &f.features[0].geometry else {
            panic!()
        };
        assert_eq!(open.len(), 3);
        assert_eq!(f.features[0].planes, ["ctrl_lon", "ctrl_lat"]);
        assert_eq!(f.features[0].extra, [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        let Geometry::LineString(ring) = &f.features[1].geometry else {
            panic!()
        };
        assert_eq!(ring.len(), 4);
        assert_eq!(f.features[1].closed, Some(true));
        assert!(
            f.notes[0].message.contains("open line needs 2"),
            "{:?}",
            f.notes
        );
    }

    #[test]
    fn forests_carry_density_and_fill_mode() {
        let sq = vec![0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let f = features(&tile(
            vec![
                poly(0, 255, 2, vec![sq.clone()]),
                poly(0, 256 + 51, 2, vec![sq]),
            ],
            &["t.for"],
        ));
        assert_eq!(f.features[0].layer, Layer::Forests);
        assert_eq!(f.features[0].density, Some(1.0));
        assert!(matches!(f.features[0].geometry, Geometry::Polygon(_)));
        assert_eq!(f.features[1].fill_mode, Some(1));
        assert!(matches!(f.features[1].geometry, Geometry::LineString(_)));
    }
}
