//! Placements as GIS layers: one geometry type per layer, flat typed fields.
//!
//! Every GIS output (GeoJSON, GeoPackage) is made from the rows this module
//! gives, so they share one schema ([`LAYERS`]): a layer per kind of item
//! and geometry type, each with a fixed list of fields, each field with one
//! type everywhere (a field of the same name has the same type in every
//! layer). Names fit the 10 characters of a Shapefile's DBF, so a
//! conversion keeps them. Pairs are two numeric fields (`ground_x`,
//! `ground_y`; `show_lo`, `show_hi`), lists that stay lists are JSON text
//! (`walls`, `wall_pick`, `stop_pts`), and every row has a stable key,
//! `item_id` (`placement/kind/index`). Units are in the docs and in each
//! layer's description ([`Layer::about`]): metres for `x`, `y`, heights and
//! widths, degrees for `lon`, `lat` and headings.
//!
//! Geometry follows RFC 7946: polygon exterior rings turn
//! counter-clockwise, holes clockwise, every ring closed; an open facade (a
//! fence: its `.fac` is not a `RING`) is a LineString. Coordinates are
//! rounded to 7 decimals of a degree (about 1 cm), metres to the
//! millimetre.

use std::borrow::Cow;

use crate::geom::{LocalFrame, LonLat, Xy};
use crate::place::{
    Placement,
    model::{PlacedDraped, PlacedFacade, PlacedLine, PlacedObject, PlacedTile, PlacedTree, TileId},
};

/// The type of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A whole number (64-bit).
    Integer,
    /// A floating-point number.
    Real,
    /// Text.
    Text,
    /// True or false.
    Boolean,
}

/// One field of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Its name (at most 10 characters).
    pub name: &'static str,
    /// Its type.
    pub ty: FieldType,
}

/// The geometry type of a layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GeomType {
    /// A point.
    Point,
    /// An open line.
    LineString,
    /// A polygon (exterior ring and holes).
    Polygon,
}

impl GeomType {
    /// The name GeoJSON, WKB and GeoPackage give it.
    pub fn name(self) -> &'static str {
        match self {
            GeomType::Point => "POINT",
            GeomType::LineString => "LINESTRING",
            GeomType::Polygon => "POLYGON",
        }
    }
}

/// A layer: its name, geometry type and fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer {
    /// Its name (the GeoPackage table, the GeoJSON `layer` property).
    pub name: &'static str,
    /// The one geometry type of its features.
    pub geometry: GeomType,
    /// Its fields, in order.
    pub fields: &'static [Field],
    /// What it holds and the units of its fields, in one sentence.
    pub about: &'static str,
}

/// A field (for the layer tables of this module and its neighbours).
pub(crate) const fn f(name: &'static str, ty: FieldType) -> Field {
    Field { name, ty }
}

use FieldType::{Boolean as B, Integer as I, Real as R, Text as T};

/// The fields every layer starts with.
const COMMON: [Field; 5] = [
    f("layer", T),
    f("item_id", T),
    f("placement", I),
    f("asset_file", T),
    f("kind", T),
];

const TILE_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("tile", I),
    f("tile_id", I),
    f("grid_col", I),
    f("grid_row", I),
    f("order", I),
    f("hidden", B),
    f("role", T),
    f("unit", I),
    f("src_line", I),
    f("ground_x", R),
    f("ground_y", R),
    f("stop_pts", T),
];

const OBJECT_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("tile", I),
    f("asset", T),
    f("index", I),
    f("mode", T),
    f("x", R),
    f("y", R),
    f("lon", R),
    f("lat", R),
    f("heading", R),
    f("height", R),
    f("show_lo", I),
    f("show_hi", I),
    f("src_line", I),
    f("art", T),
    f("obj_height", R),
];

const FACADE_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("tile", I),
    f("asset", T),
    f("height", R),
    f("walls", T),
    f("src_line", I),
    f("art", T),
    f("drawn_hgt", R),
    f("floor", T),
    f("wall_pick", T),
    f("roof", B),
    f("wall_tex", T),
    f("roof_tex", T),
];

const TREE_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("tile", I),
    f("x", R),
    f("y", R),
    f("lon", R),
    f("lat", R),
    f("width", R),
    f("tree_layer", I),
    f("heading", R),
    f("src_line", I),
    f("art", T),
    f("height", R),
    f("fst_tree", I),
    f("tree_name", T),
];

const USE_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("use_kind", T),
    f("seed", T),
    f("n_tiles", I),
    f("n_objects", I),
    f("n_facades", I),
    f("n_trees", I),
    f("n_warnings", I),
];

const DRAPED_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("entity", I),
    f("holes", I),
    f("uv", B),
    f("heading", R),
    f("art", T),
    f("texture", T),
    f("scale_x", R),
    f("scale_y", R),
];

const LINE_FIELDS: &[Field] = &[
    COMMON[0],
    COMMON[1],
    COMMON[2],
    COMMON[3],
    COMMON[4],
    f("entity", I),
    f("winding", I),
    f("closed", B),
    f("width", R),
    f("spacing", R),
    f("art", T),
    f("texture", T),
];

/// Index of the tiles layer in [`LAYERS`].
pub const TILES: usize = 0;
/// Index of the object footprints layer.
pub const OBJECTS: usize = 1;
/// Index of the layer of objects without a footprint.
pub const OBJ_POINTS: usize = 2;
/// Index of the closed facades layer.
pub const FACADES: usize = 3;
/// Index of the open facades (fences) layer.
pub const FENCES: usize = 4;
/// Index of the trees layer.
pub const TREES: usize = 5;
/// Index of the polygon uses (AGB, AGS) layer.
pub const USES: usize = 6;
/// Index of the point uses (AGP) layer.
pub const USE_POINTS: usize = 7;
/// Index of the draped polygons (DSF `.pol`) layer.
pub const DRAPED: usize = 8;
/// Index of the lines (DSF `.lin`, `.str`) layer.
pub const LINES: usize = 9;

/// Every layer, in the order outputs write them.
pub const LAYERS: [Layer; 10] = [
    Layer {
        name: "tiles",
        geometry: GeomType::Polygon,
        fields: TILE_FIELDS,
        about: "Autogen tiles as placed (kind tile); ground_x/ground_y in local metres east/north of the use's origin, stop_pts a JSON list of [x, y] metres.",
    },
    Layer {
        name: "objects",
        geometry: GeomType::Polygon,
        fields: OBJECT_FIELDS,
        about: "Objects drawn as their OBJ's footprint (kind object); x/y local metres, lon/lat degrees of the position, heading degrees clockwise from true north, height (base offset) and obj_height metres.",
    },
    Layer {
        name: "obj_points",
        geometry: GeomType::Point,
        fields: OBJECT_FIELDS,
        about: "Objects whose footprint is not known (kind object): their position; x/y local metres, heading degrees clockwise from true north, height and obj_height metres.",
    },
    Layer {
        name: "facades",
        geometry: GeomType::Polygon,
        fields: FACADE_FIELDS,
        about: "Closed facades (buildings, kind facade); height and drawn_hgt in metres, walls and wall_pick JSON lists.",
    },
    Layer {
        name: "fences",
        geometry: GeomType::LineString,
        fields: FACADE_FIELDS,
        about: "Open facades (fences: the .fac is not a RING, kind facade); height and drawn_hgt in metres, walls and wall_pick JSON lists.",
    },
    Layer {
        name: "trees",
        geometry: GeomType::Point,
        fields: TREE_FIELDS,
        about: "Trees (kind tree); x/y local metres, width and height metres, heading degrees clockwise from true north.",
    },
    Layer {
        name: "uses",
        geometry: GeomType::Polygon,
        fields: USE_FIELDS,
        about: "DSF uses of an .agb or .ags (kind use): the polygon placed on; n_* count what it placed.",
    },
    Layer {
        name: "use_points",
        geometry: GeomType::Point,
        fields: USE_FIELDS,
        about: "DSF uses of an .agp (kind use): the point placed at; n_* count what it placed.",
    },
    Layer {
        name: "draped",
        geometry: GeomType::Polygon,
        fields: DRAPED_FIELDS,
        about: "Draped polygons of a whole DSF tile (.pol, kind draped) with their holes; entity is the DSF entity, heading the texture's in degrees clockwise, scale_x/scale_y the .pol's SCALE in metres.",
    },
    Layer {
        name: "lines",
        geometry: GeomType::LineString,
        fields: LINE_FIELDS,
        about: "Painted lines (.lin) and object strings' lines (.str) of a whole DSF tile (kind line); width and spacing in metres.",
    },
];

/// A field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// No value.
    Null,
    /// A whole number.
    Int(i64),
    /// A number.
    Real(f64),
    /// Text: the layer's name, the kind and the art's state are
    /// borrowed, not copied into every row.
    Text(Cow<'static, str>),
    /// True or false.
    Bool(bool),
}

impl From<Option<f64>> for Value {
    fn from(v: Option<f64>) -> Self {
        v.map_or(Value::Null, Value::Real)
    }
}

/// A feature's geometry, in lon/lat, rings closed and wound as RFC 7946
/// asks.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// No geometry (a facade of fewer than two points).
    None,
    /// A point.
    Point(LonLat),
    /// An open line.
    LineString(Vec<LonLat>),
    /// Exterior ring then holes.
    Polygon(Vec<Vec<LonLat>>),
}

/// One feature: its layer (an index into [`ALL_LAYERS`], which starts
/// with [`LAYERS`]), geometry and values (one per field of the layer, in
/// order).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Index into [`ALL_LAYERS`].
    pub layer: usize,
    /// Its geometry.
    pub shape: Shape,
    /// One value per field of the layer.
    pub values: Vec<Value>,
}

/// Every layer any output writes: the placement layers ([`LAYERS`]), then
/// the airport layers ([`super::airports::AIRPORT_LAYERS`]), then the
/// conflict layers ([`super::conflicts::CONFLICT_LAYERS`]), then `scenery
/// at`'s ([`super::scenery_report::AT_LAYER_DEFS`]); a [`Row`]'s
/// `layer` indexes this list.
pub const ALL_LAYERS: [Layer; 22] = {
    let a = super::airports::AIRPORT_LAYERS;
    let c = super::conflicts::CONFLICT_LAYERS;
    let s = super::scenery_report::AT_LAYER_DEFS;
    let p = LAYERS;
    [
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], a[0], a[1], a[2], a[3], c[0],
        c[1], c[2], c[3], c[4], s[0], s[1], s[2],
    ]
};

impl Row {
    /// Its layer.
    pub fn layer(&self) -> &'static Layer {
        &ALL_LAYERS[self.layer]
    }

    /// Its fields paired with their values.
    pub fn fields(&self) -> impl Iterator<Item = (&'static Field, &Value)> {
        self.layer().fields.iter().zip(&self.values)
    }
}

/// `v` rounded to 7 decimals (degrees: about 1 cm).
pub fn deg(v: f64) -> f64 {
    round_to(v, 1e7)
}

/// `v` rounded to the millimetre.
pub fn metres(v: f64) -> f64 {
    round_to(v, 1e3)
}

fn round_to(v: f64, scale: f64) -> f64 {
    let r = (v * scale).round() / scale;
    // Keep -0.0 out of the output.
    if r == 0.0 { 0.0 } else { r }
}

fn ll(p: LonLat) -> LonLat {
    [deg(p[0]), deg(p[1])]
}

/// Twice the signed area of a ring (positive when counter-clockwise with x
/// east and y north).
fn signed_area2(r: &[LonLat]) -> f64 {
    let n = r.len();
    (0..n)
        .map(|i| {
            let (a, b) = (r[i], r[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// A closed ring of `pts` (closed or not) turning counter-clockwise
/// (`ccw`) or clockwise, rounded to 7 decimals; `None` for fewer than three
/// points.
pub fn ring(pts: &[LonLat], ccw: bool) -> Option<Vec<LonLat>> {
    if pts.len() < 3 {
        return None;
    }
    let mut r: Vec<LonLat> = pts.iter().map(|&p| ll(p)).collect();
    if r.first() == r.last() {
        r.pop();
    }
    if (signed_area2(&r) > 0.0) != ccw {
        r.reverse();
    }
    r.push(r[0]);
    Some(r)
}

fn text(s: &str) -> Value {
    Value::Text(Cow::Owned(s.to_string()))
}

fn name(s: &'static str) -> Value {
    Value::Text(Cow::Borrowed(s))
}

fn opt_text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, text)
}

fn int(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn json_text<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_string(v).map_or(Value::Null, |t| Value::Text(Cow::Owned(t)))
}

/// A unit enum as the JSON form spells it (`grid`, `found`).
fn enum_text<T: serde::Serialize>(v: &T) -> Value {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => Value::Text(Cow::Owned(s)),
        _ => Value::Null,
    }
}

fn art(a: Option<crate::place::art::ArtState>) -> Value {
    a.map_or(Value::Null, |a| name(a.as_str()))
}

fn common(
    layer: usize,
    placement: usize,
    p: &Placement,
    kind: &'static str,
    index: usize,
) -> Vec<Value> {
    vec![
        name(LAYERS[layer].name),
        Value::Text(Cow::Owned(format!("{placement}/{kind}/{index}"))),
        int(placement),
        text(&p.asset),
        name(kind),
    ]
}

fn tile_row(p: &Placement, placement: usize, i: usize, t: &PlacedTile) -> Row {
    let mut v = common(TILES, placement, p, "tile", i);
    let (id, col, row) = match t.id {
        TileId::Num(n) => (Value::Int(n), Value::Null, Value::Null),
        TileId::Grid(c, r) => (Value::Null, int(c), int(r)),
    };
    let stops: Vec<Xy> = t
        .stop_points
        .iter()
        .map(|s| [metres(s[0]), metres(s[1])])
        .collect();
    v.extend([
        int(i),
        id,
        col,
        row,
        int(t.order),
        Value::Bool(t.hidden),
        enum_text(&t.role),
        int(t.unit),
        int(t.source_line),
        t.ground_point.map(|g| metres(g[0])).into(),
        t.ground_point.map(|g| metres(g[1])).into(),
        if stops.is_empty() {
            Value::Null
        } else {
            json_text(&stops)
        },
    ]);
    let shape = ring(&t.lonlat, true).map_or(Shape::None, |r| Shape::Polygon(vec![r]));
    Row {
        layer: TILES,
        shape,
        values: v,
    }
}

fn object_row(p: &Placement, placement: usize, i: usize, o: &PlacedObject) -> Row {
    let (layer, shape) = match ring(&o.footprint_lonlat, true) {
        Some(r) => (OBJECTS, Shape::Polygon(vec![r])),
        None => (OBJ_POINTS, Shape::Point(ll([o.lon, o.lat]))),
    };
    let mut v = common(layer, placement, p, "object", i);
    v.extend([
        int(o.tile),
        text(&o.asset),
        Value::Int(o.index),
        text(&o.mode),
        Value::Real(metres(o.x)),
        Value::Real(metres(o.y)),
        Value::Real(deg(o.lon)),
        Value::Real(deg(o.lat)),
        Value::Real(metres(o.heading)),
        Value::Real(metres(o.height)),
        o.show.map_or(Value::Null, |s| Value::Int(s[0])),
        o.show.map_or(Value::Null, |s| Value::Int(s[1])),
        int(o.source_line),
        art(o.art),
        o.object_height.map(metres).into(),
    ]);
    Row {
        layer,
        shape,
        values: v,
    }
}

/// True when the facade's `.fac` was read and is not a `RING` (a fence).
fn is_open(p: &Placement, f: &PlacedFacade) -> bool {
    p.art
        .as_ref()
        .and_then(|a| a.facades.iter().find(|af| af.path == f.asset))
        .and_then(|af| af.get())
        .is_some_and(|fac| !fac.ring)
}

fn facade_row(p: &Placement, placement: usize, i: usize, f: &PlacedFacade) -> Row {
    let closed = if is_open(p, f) {
        None
    } else {
        ring(&f.lonlat, true)
    };
    let (layer, shape) = match closed {
        Some(r) => (FACADES, Shape::Polygon(vec![r])),
        None if f.lonlat.len() >= 2 => (
            FENCES,
            Shape::LineString(f.lonlat.iter().map(|&q| ll(q)).collect()),
        ),
        None => (FACADES, Shape::None),
    };
    let mut v = common(layer, placement, p, "facade", i);
    v.extend([
        int(f.tile),
        text(&f.asset),
        Value::Real(metres(f.height)),
        f.walls.as_ref().map_or(Value::Null, json_text),
        int(f.source_line),
        art(f.art),
        f.drawn_height.map(metres).into(),
        opt_text(f.floor.as_deref()),
        f.wall_choice.as_ref().map_or(Value::Null, json_text),
        f.roof.map_or(Value::Null, Value::Bool),
        opt_text(f.wall_texture.as_deref()),
        opt_text(f.roof_texture.as_deref()),
    ]);
    Row {
        layer,
        shape,
        values: v,
    }
}

fn tree_row(p: &Placement, placement: usize, i: usize, t: &PlacedTree) -> Row {
    let mut v = common(TREES, placement, p, "tree", i);
    v.extend([
        t.tile.map_or(Value::Null, int),
        Value::Real(metres(t.x)),
        Value::Real(metres(t.y)),
        Value::Real(deg(t.lon)),
        Value::Real(deg(t.lat)),
        Value::Real(metres(t.width)),
        Value::Int(t.layer),
        Value::Real(metres(t.heading)),
        int(t.source_line),
        art(t.art),
        t.height.map(metres).into(),
        t.forest_tree.map_or(Value::Null, int),
        opt_text(t.tree_name.as_deref()),
    ]);
    Row {
        layer: TREES,
        shape: Shape::Point(ll([t.lon, t.lat])),
        values: v,
    }
}

fn draped_row(p: &Placement, placement: usize, i: usize, d: &PlacedDraped) -> Row {
    let rings: Vec<Vec<LonLat>> = d
        .lonlat
        .iter()
        .enumerate()
        .filter_map(|(k, r)| ring(r, k == 0))
        .collect();
    let shape = if rings.is_empty() {
        Shape::None
    } else {
        Shape::Polygon(rings)
    };
    let mut v = common(DRAPED, placement, p, "draped", i);
    v.extend([
        int(d.entity),
        int(d.rings.len().saturating_sub(1)),
        Value::Bool(d.uv.is_some()),
        d.heading.map(metres).into(),
        art(d.art),
        opt_text(d.texture.as_deref()),
        d.scale.map(|s| metres(s[0])).into(),
        d.scale.map(|s| metres(s[1])).into(),
    ]);
    Row {
        layer: DRAPED,
        shape,
        values: v,
    }
}

fn line_row(p: &Placement, placement: usize, i: usize, l: &PlacedLine) -> Row {
    let mut pts: Vec<LonLat> = l.lonlat.iter().map(|&q| ll(q)).collect();
    if l.closed
        && let Some(&first) = pts.first()
    {
        pts.push(first);
    }
    let shape = if pts.len() >= 2 {
        Shape::LineString(pts)
    } else {
        Shape::None
    };
    let mut v = common(LINES, placement, p, "line", i);
    v.extend([
        int(l.entity),
        int(l.winding),
        Value::Bool(l.closed),
        l.width.map(metres).into(),
        l.spacing.map(metres).into(),
        art(l.art),
        opt_text(l.texture.as_deref()),
    ]);
    Row {
        layer: LINES,
        shape,
        values: v,
    }
}

fn use_row(p: &Placement, placement: usize) -> Row {
    let frame = LocalFrame::new(p.origin);
    let rings: Vec<Vec<LonLat>> = p
        .polygon
        .iter()
        .enumerate()
        .filter_map(|(k, w)| {
            let pts: Vec<LonLat> = w.iter().map(|&q| frame.to_lonlat(q)).collect();
            ring(&pts, k == 0)
        })
        .collect();
    let (layer, shape) = if p.polygon.is_empty() {
        (USE_POINTS, Shape::Point(ll(p.origin)))
    } else if rings.is_empty() {
        (USES, Shape::None)
    } else {
        (USES, Shape::Polygon(rings))
    };
    let mut v = common(layer, placement, p, "use", 0);
    v.extend([
        text(p.kind.as_str()),
        Value::Text(Cow::Owned(p.seed.to_string())),
        int(p.tiles.len()),
        int(p.objects.len()),
        int(p.facades.len()),
        int(p.trees.len()),
        int(p.warnings.len()),
    ]);
    Row {
        layer,
        shape,
        values: v,
    }
}

/// Calls `emit` with the rows of `ps` in turn, the placements numbered
/// from `first`: for each placement its use (autogen placements only),
/// tiles, objects, facades, trees, draped polygons and lines, one row at a
/// time. A use not placed ([`Placement::unplaced`]) has no rows and no
/// number (such uses come after those placed). Stops at the first error.
pub fn each_row<E>(
    ps: &[Placement],
    first: usize,
    emit: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<(), E> {
    for (n, p) in (first..).zip(ps.iter().filter(|p| !p.is_unplaced())) {
        if p.is_autogen_use() {
            emit(use_row(p, n))?;
        }
        for (i, t) in p.tiles.iter().enumerate() {
            emit(tile_row(p, n, i, t))?;
        }
        each_item_row(p, n, emit)?;
    }
    Ok(())
}

/// Calls `emit` with the rows of what placement `p` (numbered `n`) puts
/// on the ground, in [`each_row`]'s order: its objects, facades, trees,
/// draped polygons and lines, without the rows of its use and its tiles.
/// Stops at the first error.
pub fn each_item_row<E>(
    p: &Placement,
    n: usize,
    emit: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<(), E> {
    for (i, o) in p.objects.iter().enumerate() {
        emit(object_row(p, n, i, o))?;
    }
    for (i, f) in p.facades.iter().enumerate() {
        emit(facade_row(p, n, i, f))?;
    }
    for (i, t) in p.trees.iter().enumerate() {
        emit(tree_row(p, n, i, t))?;
    }
    for (i, d) in p.draped.iter().enumerate() {
        emit(draped_row(p, n, i, d))?;
    }
    for (i, l) in p.lines.iter().enumerate() {
        emit(line_row(p, n, i, l))?;
    }
    Ok(())
}

/// Every row of `ps` ([`each_row`]), collected.
pub fn rows(ps: &[Placement], first: usize) -> Vec<Row> {
    let mut out = Vec::new();
    let _ = each_row(ps, first, &mut |r| {
        out.push(r);
        Ok::<(), ()>(())
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_a_dbf_and_types_agree_across_layers() {
        let mut seen = std::collections::HashMap::new();
        for l in &ALL_LAYERS {
            for fld in l.fields {
                assert!(fld.name.len() <= 10, "{} is too long", fld.name);
                let prev = seen.insert(fld.name, fld.ty);
                assert!(
                    prev.is_none_or(|t| t == fld.ty),
                    "{} changes type",
                    fld.name
                );
            }
        }
    }

    #[test]
    fn rings_are_closed_and_counter_clockwise() {
        let cw = [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]];
        let r = ring(&cw, true).unwrap();
        assert_eq!(r.first(), r.last());
        assert!(signed_area2(&r) > 0.0);
        let hole = ring(&r, false).unwrap();
        assert!(signed_area2(&hole) < 0.0);
        assert_eq!(hole.len(), 5, "an already closed ring is not closed twice");
        assert!(ring(&cw[..2], true).is_none());
    }

    #[test]
    fn rounding_keeps_seven_decimals_and_no_negative_zero() {
        assert_eq!(deg(13.123_456_789), 13.123_456_8);
        assert_eq!(metres(-0.0001).to_string(), "0");
    }
}
