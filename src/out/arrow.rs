//! Placements, censuses and DSF feature tables as Arrow record batches,
//! and GeoParquet files written from them (features `arrow` and
//! `parquet`).
//!
//! The tables have the schema the other outputs have: a placement layer's
//! batch has the fields of [`layers::LAYERS`] in order, typed as
//! [`layers::FieldType`] says (`Integer` → `Int64`, `Real` → `Float64`,
//! `Text` → `Utf8`, `Boolean` → `Boolean`, every column nullable), then a
//! `geometry` column: ISO WKB (little-endian, 2-D), `null` where a row has
//! no geometry, the field tagged as the GeoArrow extension `geoarrow.wkb`
//! with its CRS (EPSG:4326, as PROJJSON). The schema's `geo` metadata is
//! GeoParquet 1.0's (encoding, geometry types, CRS), so a batch written to
//! Parquet ([`write_parquet`]) is GeoParquet that GeoPandas, GDAL and
//! DuckDB read. The values are those of the GeoJSON and GeoPackage outputs
//! (same rounding, same order of rows).
//!
//! ```
//! # use agkit::out::{arrow, layers};
//! let batches = arrow::layer_batches([], 0);
//! assert_eq!(batches.len(), layers::LAYERS.len());
//! let objects = &batches[layers::OBJECTS];
//! assert_eq!(objects.num_rows(), 0);
//! assert_eq!(objects.schema().field(1).name(), "item_id");
//! assert_eq!(objects.schema().fields().last().unwrap().name(), "geometry");
//! ```

use super::layers::{self, FieldType, LAYERS, Row, Shape, Value};
use crate::dsf::ElevationMode;
use crate::dsf::features::{Feature, Features, Geometry, Layer as DsfLayer};
use crate::place::Placement;
use arrow_array::builder::{
    BinaryBuilder, BooleanBuilder, Float64Builder, Int64Builder, StringBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use std::collections::HashMap;
use std::sync::Arc;

pub use arrow_array;
pub use arrow_schema;

/// The name of the geometry column.
pub const GEOMETRY: &str = "geometry";

/// EPSG:4326 (WGS 84, the CRS of every geometry agkit writes) as PROJJSON,
/// the form GeoParquet and GeoArrow give a CRS in.
pub const EPSG_4326_PROJJSON: &str = r#"{"$schema":"https://proj.org/schemas/v0.7/projjson.schema.json","type":"GeographicCRS","name":"WGS 84","datum_ensemble":{"name":"World Geodetic System 1984 ensemble","members":[{"name":"World Geodetic System 1984 (Transit)","id":{"authority":"EPSG","code":1166}},{"name":"World Geodetic System 1984 (G730)","id":{"authority":"EPSG","code":1152}},{"name":"World Geodetic System 1984 (G873)","id":{"authority":"EPSG","code":1153}},{"name":"World Geodetic System 1984 (G1150)","id":{"authority":"EPSG","code":1154}},{"name":"World Geodetic System 1984 (G1674)","id":{"authority":"EPSG","code":1155}},{"name":"World Geodetic System 1984 (G1762)","id":{"authority":"EPSG","code":1156}},{"name":"World Geodetic System 1984 (G2139)","id":{"authority":"EPSG","code":1309}},{"name":"World Geodetic System 1984 (G2296)","id":{"authority":"EPSG","code":1383}}],"ellipsoid":{"name":"WGS 84","semi_major_axis":6378137,"inverse_flattening":298.257223563},"accuracy":"2.0","id":{"authority":"EPSG","code":6326}},"coordinate_system":{"subtype":"ellipsoidal","axis":[{"name":"Geodetic latitude","abbreviation":"Lat","direction":"north","unit":"degree"},{"name":"Geodetic longitude","abbreviation":"Lon","direction":"east","unit":"degree"}]},"scope":"Horizontal component of 3D system.","area":"World.","bbox":{"south_latitude":-90,"west_longitude":-180,"north_latitude":90,"east_longitude":180},"id":{"authority":"EPSG","code":4326}}"#;

/// One column of a table made here: its name and type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: FieldType,
}

const fn c(name: &'static str, ty: FieldType) -> Column {
    Column { name, ty }
}

use FieldType::{Boolean as B, Integer as I, Real as R, Text as T};

/// The columns of the placed items of a tile ([`placed_batch`], the
/// GeoParquet `agkit.distributed.place_package` writes), besides
/// `geometry`: the fields of the GIS layers under the names the Python
/// recipe gives them (`source_line` is the layers' `src_line`,
/// `object_height` their `obj_height`, `autogen` their `asset_file`),
/// `tile` the DSF's file name without extension and `dsf` the DSF as the
/// caller names it.
pub const PLACED: &[Column] = &[
    c("tile", T),
    c("dsf", T),
    c("placement", I),
    c("autogen", T),
    c("kind", T),
    c("asset", T),
    c("heading", R),
    c("height", R),
    c("mode", T),
    c("source_line", I),
    c("lon", R),
    c("lat", R),
    c("object_height", R),
    c("art", T),
];

/// The layer field a [`PLACED`] column is read from.
fn layer_name(placed: &str) -> &str {
    match placed {
        "autogen" => "asset_file",
        "source_line" => "src_line",
        "object_height" => "obj_height",
        other => other,
    }
}

/// The columns of a census (`out::scenery_tables::census_batch`; no
/// geometry), as `scenery::census::CensusRow` has them.
pub const CENSUS: &[Column] = &[
    c("tile", T),
    c("dsf", T),
    c("use", I),
    c("kind", T),
    c("asset", T),
    c("param", I),
    c("height", R),
    c("low", I),
    c("heading", R),
    c("lon", R),
    c("lat", R),
    c("package", T),
    c("resolved_package", T),
    c("resolved_file", T),
    c("resolution", T),
];

/// The columns of check findings ([`findings_batch`]; no geometry): the
/// keys of `agkit check --format json`'s records, in that order (`line`
/// and `column` 1-based, null for binary files and whole-file findings;
/// `offset` the byte offset in a binary file, else null).
pub const FINDINGS: &[Column] = &[
    c("file", T),
    c("line", I),
    c("column", I),
    c("offset", I),
    c("severity", T),
    c("code", T),
    c("message", T),
];

/// The columns of the installation's findings
/// (`out::scenery_tables::findings_batch`;
/// no geometry): the keys of `agkit scenery check --format json`'s
/// `findings` records, in that order, but `details` (a list of strings,
/// [`rows_batch_with_list`] makes it a `List<Utf8>` column).
pub const SCENERY_FINDINGS: &[Column] = &[
    c("severity", T),
    c("code", T),
    c("package", T),
    c("message", T),
];

/// The columns of a DSF's `vertices` table ([`dsf_vertices_batch`]) besides
/// `geometry`, the same as the Python package's
/// `agkit.dsf.SCHEMAS["vertices"]`: where the point is (`layer`, `entity`,
/// `ring`, `vertex`), its lon/lat, then one column per named plane.
pub const DSF_VERTICES: &[Column] = &[
    c("tile", T),
    c("file", T),
    c("layer", T),
    c("entity", I),
    c("ring", I),
    c("vertex", I),
    c("lon", R),
    c("lat", R),
    c("elevation", R),
    c("junction", R),
    c("wall", R),
    c("u", R),
    c("v", R),
    c("ctrl_lon", R),
    c("ctrl_lat", R),
    c("ctrl_elevation", R),
    c("ctrl_u", R),
    c("ctrl_v", R),
    c("normal_x", R),
    c("normal_z", R),
    c("beach", R),
];

/// Where the plane columns start in [`DSF_VERTICES`] (after `lat`).
const VERTEX_PLANES: usize = 8;

/// One column of a table whose rows are `R` and the cells rows give it:
/// its name and type, and how a row gives its cell. A table is a list of these, so that each column's
/// place, type and value are written once, side by side.
pub struct Cells<R> {
    /// The column.
    pub column: Column,
    /// The row's cell in it.
    pub read: fn(&R) -> Cell<'_>,
}

// Hand-written: a derive would ask `R: Clone`, which the rows need not be.
impl<R> Clone for Cells<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for Cells<R> {}

const fn field<R>(name: &'static str, ty: FieldType, read: fn(&R) -> Cell<'_>) -> Cells<R> {
    Cells {
        column: c(name, ty),
        read,
    }
}

/// A value a DSF feature may lack, as the Python tables have it: NaN.
fn nan(v: Option<f64>) -> Cell<'static> {
    Cell::Real(Some(v.unwrap_or(f64::NAN)))
}

/// A count as a table's integer.
fn int(n: Option<usize>) -> Cell<'static> {
    Cell::Int(n.and_then(|n| i64::try_from(n).ok()))
}

/// The columns every DSF feature table has after `tile` and `file`.
const DSF_COMMON: [Cells<Feature>; 4] = [
    field("entity", I, |f| int(Some(f.entity))),
    field("def", I, |f| Cell::Int(Some(i64::from(f.def)))),
    field("definition", T, |f| Cell::Text(Some(&f.definition))),
    field("kind", T, |f| Cell::Text(Some(&f.kind))),
];

const PARAM: Cells<Feature> = field("param", I, |f| Cell::Int(f.param.map(i64::from)));
const HEIGHT: Cells<Feature> = field("height", R, |f| nan(f.height));
const CLOSED: Cells<Feature> = field("closed", B, |f| Cell::Bool(Some(f.closed.unwrap_or(false))));

/// The fields of one DSF feature table ([`dsf_batch`]), after its `tile`
/// and `file` columns: the common ones, then the layer's own.
pub fn dsf_fields(layer: DsfLayer) -> Vec<Cells<Feature>> {
    let own: &[Cells<Feature>] = match layer {
        DsfLayer::Objects => &[
            field("heading", R, |f| nan(f.heading)),
            field("elevation", R, |f| nan(f.elevation)),
            field("mode", T, |f| {
                Cell::Text(f.mode.map(|m| match m {
                    ElevationMode::Draped => "draped",
                    ElevationMode::Msl => "msl",
                    ElevationMode::Agl => "agl",
                }))
            }),
        ],
        DsfLayer::Polygons => &[PARAM, HEIGHT],
        DsfLayer::Lines => &[
            field("winding", I, |f| int(f.winding)),
            PARAM,
            CLOSED,
            field("spacing", R, |f| nan(f.spacing)),
        ],
        DsfLayer::Facades => &[PARAM, HEIGHT, CLOSED],
        DsfLayer::Forests => &[
            PARAM,
            field("density", R, |f| nan(f.density)),
            field("fill_mode", I, |f| Cell::Int(f.fill_mode.map(i64::from))),
        ],
        DsfLayer::Chains => &[
            field("subtype", I, |f| Cell::Int(f.subtype.map(i64::from))),
            field("start_junction", I, |f| {
                Cell::Int(f.junctions.map(|j| i64::from(j[0])))
            }),
            field("end_junction", I, |f| {
                Cell::Int(f.junctions.map(|j| i64::from(j[1])))
            }),
        ],
    };
    DSF_COMMON.iter().chain(own).copied().collect()
}

/// The columns of a DSF feature table ([`dsf_batch`]) besides `geometry`,
/// the same as the Python package's `agkit.dsf.SCHEMAS`: every table has
/// `tile`, `file`, `entity`, `def`, `definition` and `kind`, then its own
/// ([`dsf_fields`]).
pub fn dsf_columns(layer: DsfLayer) -> Vec<Column> {
    [c("tile", T), c("file", T)]
        .into_iter()
        .chain(dsf_fields(layer).iter().map(|f| f.column))
        .collect()
}

/// The Arrow type of a field type.
pub fn data_type(ty: FieldType) -> DataType {
    match ty {
        FieldType::Integer => DataType::Int64,
        FieldType::Real => DataType::Float64,
        FieldType::Text => DataType::Utf8,
        FieldType::Boolean => DataType::Boolean,
    }
}

/// The `geometry` field: WKB, tagged `geoarrow.wkb` with its CRS.
pub fn geometry_field() -> Field {
    let meta = HashMap::from([
        (
            "ARROW:extension:name".to_string(),
            "geoarrow.wkb".to_string(),
        ),
        (
            "ARROW:extension:metadata".to_string(),
            format!(r#"{{"crs":{EPSG_4326_PROJJSON}}}"#),
        ),
    ]);
    Field::new(GEOMETRY, DataType::Binary, true).with_metadata(meta)
}

/// A column being built.
enum Col {
    I(Int64Builder),
    R(Float64Builder),
    T(StringBuilder),
    B(BooleanBuilder),
}

impl Col {
    fn new(ty: FieldType) -> Col {
        match ty {
            FieldType::Integer => Col::I(Int64Builder::new()),
            FieldType::Real => Col::R(Float64Builder::new()),
            FieldType::Text => Col::T(StringBuilder::new()),
            FieldType::Boolean => Col::B(BooleanBuilder::new()),
        }
    }

    /// Appends `v`; a value of another type than the column's is null
    /// (never made here: the field lists give each value its type), except
    /// a whole number in a real column.
    fn push(&mut self, v: &Value) {
        match (self, v) {
            (Col::I(b), Value::Int(n)) => b.append_value(*n),
            (Col::I(b), _) => b.append_null(),
            (Col::R(b), Value::Real(x)) => b.append_value(*x),
            (Col::R(b), Value::Int(n)) => b.append_value(*n as f64),
            (Col::R(b), _) => b.append_null(),
            (Col::T(b), Value::Text(s)) => b.append_value(s),
            (Col::T(b), _) => b.append_null(),
            (Col::B(b), Value::Bool(x)) => b.append_value(*x),
            (Col::B(b), _) => b.append_null(),
        }
    }

    fn int(&mut self, v: Option<i64>) {
        match (self, v) {
            (Col::I(b), v) => b.append_option(v),
            (c, v) => c.push(&v.map_or(Value::Null, Value::Int)),
        }
    }

    fn real(&mut self, v: Option<f64>) {
        match (self, v) {
            (Col::R(b), v) => b.append_option(v),
            (c, v) => c.push(&v.map_or(Value::Null, Value::Real)),
        }
    }

    fn text(&mut self, v: Option<&str>) {
        match (self, v) {
            (Col::T(b), v) => b.append_option(v),
            (c, v) => c.push(&v.map_or(Value::Null, |s| Value::Text(s.to_owned().into()))),
        }
    }

    /// Appends the cell `v`.
    fn cell(&mut self, v: Cell) {
        match v {
            Cell::Text(v) => self.text(v),
            Cell::Int(v) => self.int(v),
            Cell::Real(v) => self.real(v),
            Cell::Bool(v) => self.bool(v),
        }
    }

    fn bool(&mut self, v: Option<bool>) {
        match (self, v) {
            (Col::B(b), v) => b.append_option(v),
            (c, v) => c.push(&v.map_or(Value::Null, Value::Bool)),
        }
    }

    fn finish(self) -> ArrayRef {
        match self {
            Col::I(mut b) => Arc::new(b.finish()),
            Col::R(mut b) => Arc::new(b.finish()),
            Col::T(mut b) => Arc::new(b.finish()),
            Col::B(mut b) => Arc::new(b.finish()),
        }
    }
}

/// What a geometry column holds, for GeoParquet's `geo` metadata: the
/// geometry types seen (Point, LineString, Polygon) and the bounding box
/// of every coordinate.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Seen {
    types: [bool; 3],
    /// `[xmin, ymin, xmax, ymax]`, `None` before the first finite point.
    bbox: Option<[f64; 4]>,
}

impl Seen {
    fn point(&mut self, [x, y]: [f64; 2]) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        self.bbox = Some(match self.bbox {
            None => [x, y, x, y],
            Some([a, b, c, d]) => [a.min(x), b.min(y), c.max(x), d.max(y)],
        });
    }

    fn shape(&mut self, kind: usize, shape: &Shape) {
        self.types[kind] = true;
        match shape {
            Shape::None => {}
            Shape::Point(p) => self.point(*p),
            Shape::LineString(l) => l.iter().for_each(|p| self.point(*p)),
            Shape::Polygon(rings) => rings.iter().flatten().for_each(|p| self.point(*p)),
        }
    }

    /// Notes one WKB geometry (2-D Point, LineString or Polygon, either
    /// byte order; anything else, or bytes too short, is passed over).
    fn wkb(&mut self, v: &[u8]) {
        let le = match v.first() {
            Some(1) => true,
            Some(0) => false,
            _ => return,
        };
        let u32_at = |i: usize| -> Option<usize> {
            let b: [u8; 4] = v.get(i..i + 4)?.try_into().ok()?;
            Some(if le {
                u32::from_le_bytes(b)
            } else {
                u32::from_be_bytes(b)
            } as usize)
        };
        let f64_at = |i: usize| -> Option<f64> {
            let b: [u8; 8] = v.get(i..i + 8)?.try_into().ok()?;
            Some(if le {
                f64::from_le_bytes(b)
            } else {
                f64::from_be_bytes(b)
            })
        };
        let Some(ty) = u32_at(1) else { return };
        if !(1..=3).contains(&ty) {
            return;
        }
        self.types[ty - 1] = true;
        // Points from byte `at` on, `n` of them (bounded by the bytes there
        // are: a count past the end reads what is there and stops).
        let mut points = |mut at: usize, n: usize| -> usize {
            for _ in 0..n {
                let (Some(x), Some(y)) = (f64_at(at), f64_at(at + 8)) else {
                    break;
                };
                self.point([x, y]);
                at += 16;
            }
            at
        };
        match ty {
            1 => {
                points(5, 1);
            }
            2 => {
                if let Some(n) = u32_at(5) {
                    points(9, n);
                }
            }
            _ => {
                let Some(rings) = u32_at(5) else { return };
                let mut at = 9;
                for _ in 0..rings {
                    let Some(n) = u32_at(at) else { return };
                    at = points(at + 4, n);
                }
            }
        }
    }

    /// GeoParquet 1.0's `geo` metadata of a WKB `geometry` column in
    /// EPSG:4326 holding what was seen (types, and the bbox when a
    /// coordinate was).
    fn geo(&self) -> String {
        let names = ["Point", "LineString", "Polygon"];
        let types: Vec<String> = (0..3)
            .filter(|&k| self.types[k])
            .map(|k| format!("\"{}\"", names[k]))
            .collect();
        let bbox = self
            .bbox
            .map(|[a, b, c, d]| format!(r#","bbox":[{a},{b},{c},{d}]"#))
            .unwrap_or_default();
        format!(
            r#"{{"version":"1.0.0","primary_column":"{GEOMETRY}","columns":{{"{GEOMETRY}":{{"encoding":"WKB","geometry_types":[{}]{bbox},"crs":{EPSG_4326_PROJJSON}}}}}}}"#,
            types.join(",")
        )
    }
}

/// The WKB geometry column being built, with what it holds.
struct Geom {
    builder: BinaryBuilder,
    scratch: Vec<u8>,
    seen: Seen,
}

impl Geom {
    fn new() -> Geom {
        Geom {
            builder: BinaryBuilder::new(),
            scratch: Vec::new(),
            seen: Seen::default(),
        }
    }

    fn push(&mut self, shape: &Shape) {
        self.scratch.clear();
        match wkb(shape, &mut self.scratch) {
            Some(k) => {
                self.seen.shape(k, shape);
                self.builder.append_value(&self.scratch);
            }
            None => self.builder.append_null(),
        }
    }

    /// The GeoParquet `geo` metadata of the column.
    fn geo(&self) -> String {
        self.seen.geo()
    }
}

/// Writes `shape` as ISO WKB (little-endian, 2-D) to `out`: the index of
/// its type (0 Point, 1 LineString, 2 Polygon), or `None` (nothing
/// written) for no geometry.
///
/// ```
/// # use agkit::out::{arrow::wkb, layers::Shape};
/// let mut b = Vec::new();
/// assert_eq!(wkb(&Shape::Point([13.0, 47.0]), &mut b), Some(0));
/// assert_eq!(b.len(), 21);
/// assert_eq!(&b[..5], &[1, 1, 0, 0, 0]);
/// ```
pub fn wkb(shape: &Shape, out: &mut Vec<u8>) -> Option<usize> {
    fn count(out: &mut Vec<u8>, n: usize) {
        // Rings and lines of agkit's outputs are far below 2^32 points
        // (placements are bounded by `Limits`); saturate all the same.
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
    fn coords(out: &mut Vec<u8>, pts: &[[f64; 2]]) {
        for [x, y] in pts {
            out.extend_from_slice(&x.to_le_bytes());
            out.extend_from_slice(&y.to_le_bytes());
        }
    }
    let kind = match shape {
        Shape::None => return None,
        Shape::Point(_) => 0,
        Shape::LineString(_) => 1,
        Shape::Polygon(_) => 2,
    };
    out.push(1);
    out.extend_from_slice(&(kind as u32 + 1).to_le_bytes());
    match shape {
        Shape::None => {}
        Shape::Point(p) => coords(out, std::slice::from_ref(p)),
        Shape::LineString(l) => {
            count(out, l.len());
            coords(out, l);
        }
        Shape::Polygon(rings) => {
            count(out, rings.len());
            for r in rings {
                count(out, r.len());
                coords(out, r);
            }
        }
    }
    Some(kind)
}

/// A table being built: typed columns, then optionally the geometry.
struct Builder {
    columns: Vec<(&'static str, FieldType, Col)>,
    geometry: Option<Geom>,
}

impl Builder {
    fn new(
        columns: impl IntoIterator<Item = (&'static str, FieldType)>,
        geometry: bool,
    ) -> Builder {
        Builder {
            columns: columns
                .into_iter()
                .map(|(n, t)| (n, t, Col::new(t)))
                .collect(),
            geometry: geometry.then(Geom::new),
        }
    }

    fn finish(self) -> RecordBatch {
        let mut fields: Vec<Field> = Vec::with_capacity(self.columns.len() + 1);
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.columns.len() + 1);
        for (name, ty, col) in self.columns {
            fields.push(Field::new(name, data_type(ty), true));
            arrays.push(col.finish());
        }
        let mut meta = HashMap::new();
        if let Some(mut g) = self.geometry {
            meta.insert("geo".to_string(), g.geo());
            fields.push(geometry_field());
            arrays.push(Arc::new(g.builder.finish()));
        }
        let schema = Arc::new(Schema::new(fields).with_metadata(meta));
        // The columns are built to the schema made beside them, each as
        // long as the rows pushed: this cannot fail.
        RecordBatch::try_new(schema, arrays).expect("columns match their schema")
    }
}

fn layer_builder(layer: usize) -> Builder {
    Builder::new(LAYERS[layer].fields.iter().map(|f| (f.name, f.ty)), true)
}

/// Every row of `ps` (numbered from `first`, as [`layers::each_row`]
/// numbers them) as one record batch per layer of [`layers::LAYERS`], in
/// that order (an empty batch for a layer without rows): the rows the
/// GeoJSON and GeoPackage outputs write, column for column.
pub fn layer_batches<'a>(
    ps: impl IntoIterator<Item = &'a Placement>,
    first: usize,
) -> Vec<RecordBatch> {
    let mut builders: Vec<Builder> = (0..LAYERS.len()).map(layer_builder).collect();
    for (n, p) in (first..).zip(ps) {
        let _ = layers::each_row(std::slice::from_ref(p), n, &mut |row: Row| {
            let b = &mut builders[row.layer];
            for ((_, _, col), v) in b.columns.iter_mut().zip(&row.values) {
                col.push(v);
            }
            if let Some(g) = &mut b.geometry {
                g.push(&row.shape);
            }
            Ok::<(), ()>(())
        });
    }
    builders.into_iter().map(Builder::finish).collect()
}

/// The rows of one layer of [`layers::ALL_LAYERS`] (`layer` indexes it;
/// rows of other layers are left out) as one batch of its fields, in
/// order, and `geometry`: the table a GIS output of those rows writes,
/// column for column.
pub fn rows_layer_batch(layer: usize, rows: impl IntoIterator<Item = Row>) -> RecordBatch {
    let l = &layers::ALL_LAYERS[layer];
    let mut b = Builder::new(l.fields.iter().map(|f| (f.name, f.ty)), true);
    for row in rows.into_iter().filter(|r| r.layer == layer) {
        for ((_, _, col), v) in b.columns.iter_mut().zip(&row.values) {
            col.push(v);
        }
        if let Some(g) = &mut b.geometry {
            g.push(&row.shape);
        }
    }
    b.finish()
}

/// The index of the layer named `name` in [`layers::LAYERS`].
pub fn layer_index(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.name == name)
}

/// The placed objects, facades and trees of a tile's placements (numbered
/// from 0, in use order) as one batch of [`PLACED`] columns and
/// `geometry`, in [`layers::each_item_row`]'s order: `tile` and `dsf` name the
/// tile in every row.
pub fn placed_batch<'a>(
    ps: impl IntoIterator<Item = &'a Placement>,
    tile: &str,
    dsf: &str,
) -> RecordBatch {
    let mut b = Builder::new(PLACED.iter().map(|c| (c.name, c.ty)), true);
    // Where each PLACED column is in each layer's fields.
    let index: Vec<Vec<Option<usize>>> = LAYERS
        .iter()
        .map(|l| {
            PLACED
                .iter()
                .map(|c| l.fields.iter().position(|f| f.name == layer_name(c.name)))
                .collect()
        })
        .collect();
    for (n, p) in ps.into_iter().enumerate() {
        let _ = layers::each_item_row(p, n, &mut |row: Row| {
            for (k, (name, _, col)) in b.columns.iter_mut().enumerate() {
                match *name {
                    "tile" => col.text(Some(tile)),
                    "dsf" => col.text(Some(dsf)),
                    _ => col.push(index[row.layer][k].map_or(&Value::Null, |i| &row.values[i])),
                }
            }
            if let Some(g) = &mut b.geometry {
                g.push(&row.shape);
            }
            Ok::<(), ()>(())
        });
    }
    b.finish()
}

/// The findings of `agkit check` (the records its `--format json`
/// prints, in order) as one batch of [`FINDINGS`].
pub fn findings_batch(rows: &[crate::diag::JsonDiagnostic]) -> RecordBatch {
    let mut b = Builder::new(FINDINGS.iter().map(|c| (c.name, c.ty)), false);
    let int = |n: usize| i64::try_from(n).ok();
    for r in rows {
        for (name, _, col) in b.columns.iter_mut() {
            match *name {
                "file" => col.text(Some(&r.file)),
                "line" => col.int(r.line.and_then(int)),
                "column" => col.int(r.column.and_then(int)),
                "offset" => col.int(r.offset.and_then(|o| i64::try_from(o).ok())),
                "severity" => col.text(Some(r.severity.as_str())),
                "code" => col.text(Some(&r.code)),
                "message" => col.text(Some(&r.message)),
                _ => col.push(&Value::Null),
            }
        }
    }
    b.finish()
}

/// The names of a batch's columns, in order.
pub fn column_names(b: &RecordBatch) -> Vec<String> {
    b.schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

/// One cell of a row of a plain table ([`TableRow`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    /// A text, or null.
    Text(Option<&'a str>),
    /// A whole number, or null.
    Int(Option<i64>),
    /// A real, or null.
    Real(Option<f64>),
    /// A truth value, or null.
    Bool(Option<bool>),
}

/// A row of a table without geometry, given cell by cell: how another
/// module's results (a census, an installation's findings) become Arrow
/// without this module knowing their types.
pub trait TableRow {
    /// The cell of the column `name`, one of the table's [`Column`]s (a
    /// name it does not know is null).
    fn cell(&self, name: &str) -> Cell<'_>;

    /// The strings of the row's list column, for a table that has one
    /// ([`rows_batch_with_list`]); none by default.
    fn texts(&self) -> &[String] {
        &[]
    }
}

/// `rows` as one batch of the plain `columns` (no geometry), in order.
pub fn rows_batch<R: TableRow>(columns: &[Column], rows: &[R]) -> RecordBatch {
    let mut b = Builder::new(columns.iter().map(|c| (c.name, c.ty)), false);
    for r in rows {
        for (name, _, col) in b.columns.iter_mut() {
            col.cell(r.cell(name));
        }
    }
    b.finish()
}

/// A DSF feature geometry as a layer shape.
fn dsf_shape(g: &Geometry) -> Shape {
    match g {
        Geometry::Point(p) => Shape::Point(*p),
        Geometry::LineString(l) => Shape::LineString(l.clone()),
        Geometry::Polygon(r) => Shape::Polygon(r.clone()),
    }
}

/// One table of a DSF's features ([`crate::dsf::features::features`]) as
/// a batch of [`dsf_columns`] and `geometry`, rows in command-stream order;
/// `file` names the DSF in every row.
pub fn dsf_batch(features: &Features, layer: DsfLayer, file: &str) -> RecordBatch {
    let columns = dsf_columns(layer);
    let fields = dsf_fields(layer);
    let mut b = Builder::new(columns.iter().map(|c| (c.name, c.ty)), true);
    for f in features.layer(layer) {
        let (names, own) = b.columns.split_at_mut(2);
        names[0].2.text(Some(&features.tile));
        names[1].2.text(Some(file));
        for ((_, _, col), field) in own.iter_mut().zip(&fields) {
            col.cell((field.read)(f));
        }
        if let Some(g) = &mut b.geometry {
            g.push(&dsf_shape(&f.geometry));
        }
    }
    b.finish()
}

/// The points of a DSF feature the extra planes follow, ring by ring: a
/// polygon's rings without their closing point, a line's points (a closed
/// line without its closing point), a point.
fn plane_rings(f: &Feature) -> Vec<&[[f64; 2]]> {
    match &f.geometry {
        Geometry::Point(p) => vec![std::slice::from_ref(p)],
        Geometry::Polygon(rings) => rings
            .iter()
            .map(|r| &r[..r.len().saturating_sub(1)])
            .collect(),
        Geometry::LineString(l) => {
            if f.layer == DsfLayer::Lines && f.closed == Some(true) {
                vec![&l[..l.len().saturating_sub(1)]]
            } else {
                vec![&l[..]]
            }
        }
    }
}

/// The `vertices` table of a DSF's features: one row per point of every
/// feature with planes past lon/lat (in feature order, then ring, then
/// point), its named planes as columns ([`DSF_VERTICES`]; NaN where the
/// point has no such plane, planes of no known name left out), and the
/// point as `geometry`; `file` names the DSF in every row. `ring` is a
/// line's winding, else the ring's index. The rows of the Python package's
/// `agkit.dsf.Tables.vertices`.
pub fn dsf_vertices_batch(features: &Features, file: &str) -> RecordBatch {
    let mut b = Builder::new(DSF_VERTICES.iter().map(|c| (c.name, c.ty)), true);
    let int = |n: usize| i64::try_from(n).ok();
    for f in &features.features {
        if f.planes.is_empty() {
            continue;
        }
        let k = f.planes.len();
        // Which plane fills each plane column, if any.
        let slot: Vec<Option<usize>> = DSF_VERTICES[VERTEX_PLANES..]
            .iter()
            .map(|c| f.planes.iter().position(|p| *p == c.name))
            .collect();
        let mut at = 0;
        for (ring, points) in plane_rings(f).into_iter().enumerate() {
            let ring = if f.layer == DsfLayer::Lines {
                f.winding.and_then(int)
            } else {
                int(ring)
            };
            for (vertex, &[lon, lat]) in points.iter().enumerate() {
                let values = f.extra.get(at..at + k);
                at += k;
                for (j, (_, _, col)) in b.columns.iter_mut().enumerate() {
                    match j {
                        0 => col.text(Some(&features.tile)),
                        1 => col.text(Some(file)),
                        2 => col.text(Some(f.layer.as_str())),
                        3 => col.int(int(f.entity)),
                        4 => col.int(ring),
                        5 => col.int(int(vertex)),
                        6 => col.real(Some(lon)),
                        7 => col.real(Some(lat)),
                        _ => col.real(Some(
                            slot[j - VERTEX_PLANES]
                                .and_then(|s| values.map(|v| v[s]))
                                .unwrap_or(f64::NAN),
                        )),
                    }
                }
                if let Some(g) = &mut b.geometry {
                    g.push(&Shape::Point([lon, lat]));
                }
            }
        }
    }
    b.finish()
}

/// [`rows_batch`] and a last column `list` of each row's
/// [`TableRow::texts`], a list of strings ([`details_type`]; an empty list
/// for a row with none, never null).
pub fn rows_batch_with_list<R: TableRow>(
    columns: &[Column],
    rows: &[R],
    list: &'static str,
) -> RecordBatch {
    use arrow_array::builder::ListBuilder;
    let batch = rows_batch(columns, rows);
    let mut texts =
        ListBuilder::new(StringBuilder::new()).with_field(Field::new("item", DataType::Utf8, true));
    for r in rows {
        for t in r.texts() {
            texts.values().append_value(t);
        }
        texts.append(true);
    }
    let mut fields: Vec<Field> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    fields.push(Field::new(list, details_type(), false));
    let mut arrays = batch.columns().to_vec();
    arrays.push(Arc::new(texts.finish()));
    // One list per row: as long as the other columns.
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).expect("columns match their schema")
}

/// The type of a list column of [`rows_batch_with_list`] (the findings'
/// `details`).
pub fn details_type() -> DataType {
    DataType::List(Arc::new(Field::new("item", DataType::Utf8, true)))
}

/// Writes `batches` (one schema, [`RecordBatch::schema`] of the first) to
/// `path` as Parquet, Snappy-compressed: GeoParquet 1.0 when the schema has
/// a geometry column (every batch with a geometry made here has one).
/// Written to a temporary file beside `path`, then renamed: `path` exists
/// only complete ([`ParquetSink`] with one batch after the other). No
/// batches write nothing and fail.
#[cfg(feature = "parquet")]
pub fn write_parquet(batches: &[RecordBatch], path: &std::path::Path) -> std::io::Result<()> {
    let Some(first) = batches.first() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no record batch to write",
        ));
    };
    let mut sink = ParquetSink::create(path, first.schema(), &[])?;
    for b in batches {
        sink.write(b)?;
    }
    sink.finish().map(|_| ())
}

/// One Parquet file written table after table, so that many tables (the
/// tiles of a run, or the part files a cluster wrote) make one file with no
/// more of them in memory than the one being written.
///
/// Each batch written must have the sink's columns (names and types); its
/// rows are appended in order, [`ROW_GROUP_ROWS`] rows to a row group.
/// A Parquet file of the same columns is appended as it is stored
/// ([`ParquetSink::append_file`]: its row groups copied, not decoded).
/// Snappy-compressed; with a geometry column the file is GeoParquet 1.0,
/// its `geo` entry (in the file's key-value metadata, where GeoParquet
/// readers look) listing the geometry types and the extent of every row
/// written. The file is a temporary one beside `path` until
/// [`ParquetSink::finish`] renames it into place; dropped unfinished, it is
/// removed and `path` is left as it was. A `path` that is a named pipe or a
/// character device is written straight into ([`crate::fsutil::Output`]). After an error the sink holds an
/// unknown part of what failed: drop it.
#[cfg(feature = "parquet")]
pub struct ParquetSink {
    file: parquet::file::writer::SerializedFileWriter<std::fs::File>,
    /// Makes the column writers of each row group.
    columns: parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory,
    /// The row group being encoded: a writer per leaf column, and its rows.
    open: Option<(Vec<parquet::arrow::arrow_writer::ArrowColumnWriter>, usize)>,
    out: crate::fsutil::Output,
    schema: arrow_schema::SchemaRef,
    /// The index of the geometry column, if any.
    geometry: Option<usize>,
    /// What the geometry column held: its types and bbox.
    seen: Seen,
    rows: usize,
    /// The rows of a row group [`ParquetSink::write`] encodes
    /// ([`ROW_GROUP_ROWS`]; fewer in the tests).
    group_rows: usize,
}

/// The rows of a row group [`ParquetSink::write`] encodes (Parquet's own
/// default): a file of fewer rows is one row group.
#[cfg(feature = "parquet")]
pub const ROW_GROUP_ROWS: usize = 1024 * 1024;

#[cfg(feature = "parquet")]
fn parquet_io(e: parquet::errors::ParquetError) -> std::io::Error {
    std::io::Error::other(e.to_string())
}

#[cfg(feature = "parquet")]
impl ParquetSink {
    /// Starts writing `path` (through a temporary file in its folder) with
    /// the columns of `schema`; `metadata` is added to the schema's
    /// metadata and to the file's key-value metadata (for example pandas'
    /// `pandas` entry). The `geo` entry is the sink's own, made from the
    /// rows written.
    pub fn create(
        path: &std::path::Path,
        schema: arrow_schema::SchemaRef,
        metadata: &[(String, String)],
    ) -> std::io::Result<ParquetSink> {
        use parquet::basic::Compression;
        use parquet::file::metadata::KeyValue;
        use parquet::file::properties::WriterProperties;
        // A temporary file renamed into place, or a pipe written into.
        let mut out = crate::fsutil::Output::create(path)?;
        // The schema's own metadata less `geo` (written at the end, once
        // every row's type is known), plus `metadata`.
        let mut meta = schema.metadata().clone();
        meta.remove("geo");
        meta.extend(metadata.iter().cloned());
        let schema = Arc::new(Schema::new_with_metadata(schema.fields().clone(), meta));
        let kv: Vec<KeyValue> = metadata
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
            .collect();
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_key_value_metadata((!kv.is_empty()).then_some(kv))
            .build();
        // The Arrow schema Parquet readers restore types and metadata from
        // (`ARROW:schema`) is written at the end, with the `geo` entry.
        let parquet_schema = parquet::arrow::ArrowSchemaConverter::new()
            .convert(&schema)
            .map_err(parquet_io)?;
        let file = parquet::file::writer::SerializedFileWriter::new(
            out.file().try_clone()?,
            parquet_schema.root_schema_ptr(),
            Arc::new(props),
        )
        .map_err(parquet_io)?;
        let columns =
            parquet::arrow::arrow_writer::ArrowRowGroupWriterFactory::new(&file, schema.clone());
        let geometry = schema.column_with_name(GEOMETRY).map(|(k, _)| k);
        Ok(ParquetSink {
            file,
            columns,
            open: None,
            out,
            schema,
            geometry,
            seen: Seen::default(),
            rows: 0,
            group_rows: ROW_GROUP_ROWS,
        })
    }

    /// Appends the rows of `batch`; a batch whose columns differ from the
    /// sink's (names, types) is an `InvalidInput` error naming the first
    /// difference.
    pub fn write(&mut self, batch: &RecordBatch) -> std::io::Result<()> {
        let ours = self.schema.fields();
        let theirs = batch.schema();
        if ours.len() != theirs.fields().len() {
            return Err(mismatch(format!(
                "{} columns, the file has {}",
                theirs.fields().len(),
                ours.len()
            )));
        }
        for (a, b) in ours.iter().zip(theirs.fields().iter()) {
            if a.name() != b.name() || a.data_type() != b.data_type() {
                return Err(mismatch(format!(
                    "column {} {}, the file has {} {}",
                    b.name(),
                    b.data_type(),
                    a.name(),
                    a.data_type()
                )));
            }
        }
        let batch = RecordBatch::try_new(self.schema.clone(), batch.columns().to_vec())
            .map_err(|e| mismatch(e.to_string()))?;
        if let Some(k) = self.geometry {
            self.see(batch.column(k));
        }
        // The rows that fill the open row group go into it, the rest into
        // the next.
        let mut at = 0;
        while at < batch.num_rows() {
            let fill = self.encode(&batch.slice(at, batch.num_rows() - at))?;
            at += fill;
            self.rows += fill;
        }
        Ok(())
    }

    /// Encodes the first rows of `batch` into the open row group (started
    /// if none is), as many as it takes: the rows encoded. A row group
    /// that is full is written out.
    fn encode(&mut self, batch: &RecordBatch) -> std::io::Result<usize> {
        use parquet::arrow::arrow_writer::compute_leaves;
        let open = match self.open.take() {
            Some(open) => open,
            None => {
                let index = self.file.flushed_row_groups().len();
                let writers = self
                    .columns
                    .create_column_writers(index)
                    .map_err(parquet_io)?;
                (writers, 0)
            }
        };
        let (writers, rows) = self.open.insert(open);
        let n = batch.num_rows().min(self.group_rows - *rows);
        let part = batch.slice(0, n);
        let mut leaves = writers.iter_mut();
        for (field, column) in self.schema.fields().iter().zip(part.columns()) {
            for leaf in compute_leaves(field, column).map_err(parquet_io)? {
                let Some(writer) = leaves.next() else {
                    return Err(std::io::Error::other("more leaf columns than writers"));
                };
                writer.write(&leaf).map_err(parquet_io)?;
            }
        }
        *rows += n;
        if *rows >= self.group_rows {
            self.close_group()?;
        }
        Ok(n)
    }

    /// Writes out the open row group, if any.
    fn close_group(&mut self) -> std::io::Result<()> {
        let Some((writers, _)) = self.open.take() else {
            return Ok(());
        };
        let mut group = self.file.next_row_group().map_err(parquet_io)?;
        for writer in writers {
            let chunk = writer.close().map_err(parquet_io)?;
            chunk.append_to_row_group(&mut group).map_err(parquet_io)?;
        }
        group.close().map_err(parquet_io)?;
        Ok(())
    }

    /// Appends every row of the Parquet file at `part`, a file of the
    /// sink's columns (as [`write_parquet`] and [`ParquetSink::finish`]
    /// write them): its row groups are copied as they are stored, not
    /// decoded and encoded again, after the rows written before them. Only
    /// its geometry column, if any, is read, for the `geo` entry. A part
    /// of other columns is an `InvalidInput` error naming it.
    pub fn append_file(&mut self, part: &std::path::Path) -> std::io::Result<()> {
        use parquet::arrow::ProjectionMask;
        use parquet::arrow::arrow_reader::{
            ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
        };
        use parquet::column::writer::ColumnCloseResult;
        use parquet::file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
        let at =
            |e: std::io::Error| std::io::Error::new(e.kind(), format!("{}: {e}", part.display()));
        // A regular file only: a named pipe or a device could block the
        // open or never end.
        let file = crate::fsutil::open_input(part, "a Parquet part").map_err(|e| {
            let kind = match &e.kind {
                crate::fsutil::InputErrorKind::Io(io) => io.kind(),
                _ => std::io::ErrorKind::InvalidInput,
            };
            std::io::Error::new(kind, e.to_string())
        })?;
        let meta = ParquetMetaDataReader::new()
            .with_page_index_policy(PageIndexPolicy::Optional)
            .parse_and_finish(&file)
            .map(Arc::new)
            .map_err(|e| at(parquet_io(e)))?;
        // A count or size the footer gives below zero.
        let count = |n: i64, what: &str| {
            u64::try_from(n).map_err(|_| {
                at(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("the footer gives {n} as {what}"),
                ))
            })
        };
        let ours = self.file.schema_descr();
        let theirs = meta.file_metadata().schema_descr();
        // Leaf for leaf the same Parquet types (the root's name aside: the
        // writer's own, such as pyarrow's `schema`).
        if theirs.columns() != ours.columns() {
            let first = ours
                .columns()
                .iter()
                .zip(theirs.columns())
                .find(|(a, b)| a != b)
                .map(|(a, b)| {
                    let ty = |c: &parquet::schema::types::ColumnDescriptor| {
                        format!("{} {:?}", c.path(), c.self_type())
                    };
                    format!("column {}, the file has {}", ty(b), ty(a))
                })
                .unwrap_or_else(|| {
                    format!(
                        "{} columns, the file has {}",
                        theirs.num_columns(),
                        ours.num_columns()
                    )
                });
            return Err(at(mismatch(first)));
        }
        // Every row group's chunks, their counts checked, before anything
        // is written.
        let groups = meta
            .row_groups()
            .iter()
            .enumerate()
            .map(|(g, group)| {
                let rows = count(group.num_rows(), "a row group's rows")?;
                let index = meta.page_index_for_row_group(g);
                let chunks = group
                    .columns()
                    .iter()
                    .enumerate()
                    .map(|(c, column)| {
                        Ok(ColumnCloseResult {
                            bytes_written: count(
                                column.compressed_size(),
                                "a column chunk's size",
                            )?,
                            rows_written: rows,
                            metadata: column.clone(),
                            bloom_filter: None,
                            column_index: index.column_index(c).cloned(),
                            offset_index: index.offset_index(c).cloned(),
                        })
                    })
                    .collect::<std::io::Result<Vec<_>>>()?;
                let rows = usize::try_from(rows).map_err(|e| at(std::io::Error::other(e)))?;
                Ok((rows, chunks))
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        if let Some(k) = self.geometry {
            // The footer read above, not read again; what the sink had
            // seen is kept if the column cannot be read.
            let before = self.seen;
            let read = ArrowReaderMetadata::try_new(meta.clone(), ArrowReaderOptions::new())
                .and_then(|m| {
                    let only = ProjectionMask::roots(m.parquet_schema(), [k]);
                    ParquetRecordBatchReaderBuilder::new_with_metadata(
                        file.try_clone()
                            .map_err(parquet::errors::ParquetError::from)?,
                        m,
                    )
                    .with_projection(only)
                    .build()
                })
                .map_err(|e| at(parquet_io(e)))
                .and_then(|reader| {
                    for batch in reader {
                        let batch = batch.map_err(|e| at(std::io::Error::other(e.to_string())))?;
                        self.see(batch.column(0));
                    }
                    Ok(())
                });
            if let Err(e) = read {
                self.seen = before;
                return Err(e);
            }
        }
        self.close_group()?;
        for (rows, chunks) in groups {
            let mut out = self.file.next_row_group().map_err(parquet_io)?;
            for chunk in chunks {
                out.append_column(&file, chunk)
                    .map_err(|e| at(parquet_io(e)))?;
            }
            out.close().map_err(|e| at(parquet_io(e)))?;
            self.rows += rows;
        }
        Ok(())
    }

    /// The rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Completes the file and renames it to its path: the rows written.
    pub fn finish(self) -> std::io::Result<usize> {
        self.finish_with(&[])
    }

    /// [`ParquetSink::finish`], with `metadata` added to the file's and
    /// the schema's metadata (what is only known once every row is written,
    /// such as the tiles a part holds).
    pub fn finish_with(mut self, metadata: &[(String, String)]) -> std::io::Result<usize> {
        use parquet::file::metadata::KeyValue;
        self.close_group()?;
        let mut meta = self.schema.metadata().clone();
        for (k, v) in metadata {
            meta.insert(k.clone(), v.clone());
            self.file
                .append_key_value_metadata(KeyValue::new(k.clone(), v.clone()));
        }
        if self.geometry.is_some() {
            let geo = self.seen.geo();
            meta.insert("geo".to_string(), geo.clone());
            self.file
                .append_key_value_metadata(KeyValue::new("geo".to_string(), geo));
        }
        // pyarrow takes a file's schema metadata from here, and the
        // geometry column's GeoArrow extension type.
        let schema = Schema::new_with_metadata(self.schema.fields().clone(), meta);
        self.file.append_key_value_metadata(KeyValue::new(
            parquet::arrow::ARROW_SCHEMA_META_KEY.to_string(),
            parquet::arrow::encode_arrow_schema(&schema),
        ));
        self.file.close().map_err(parquet_io)?;
        self.out.commit()?;
        Ok(self.rows)
    }

    /// Notes the WKB geometry types and extent of `column`: a binary
    /// column, as the sink writes it, or a large binary one, as a part
    /// another writer stored may be read back (the same Parquet column).
    fn see(&mut self, column: &ArrayRef) {
        use arrow_array::cast::AsArray;
        fn each<O: arrow_array::OffsetSizeTrait>(
            seen: &mut Seen,
            wkb: &arrow_array::GenericBinaryArray<O>,
        ) {
            wkb.iter().flatten().for_each(|v| seen.wkb(v));
        }
        if let Some(a) = column.as_binary_opt::<i32>() {
            each(&mut self.seen, a);
        } else if let Some(a) = column.as_binary_opt::<i64>() {
            each(&mut self.seen, a);
        }
    }
}

#[cfg(feature = "parquet")]
fn mismatch(why: String) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("a table of other columns than the file's: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Array, BinaryArray, Float64Array, Int64Array, StringArray};
    use proptest::prelude::*;

    /// A WKB geometry read back (the writer's inverse, for the tests).
    fn read_wkb(b: &[u8]) -> Shape {
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        let f64_at = |i: usize| f64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        let pts = |at: &mut usize, n: usize| -> Vec<[f64; 2]> {
            let v = (0..n)
                .map(|k| [f64_at(*at + 16 * k), f64_at(*at + 16 * k + 8)])
                .collect();
            *at += 16 * n;
            v
        };
        assert_eq!(b[0], 1, "little-endian");
        let mut at = 5;
        let shape = match u32_at(1) {
            1 => Shape::Point(pts(&mut at, 1)[0]),
            2 => {
                let n = u32_at(at);
                at += 4;
                Shape::LineString(pts(&mut at, n))
            }
            3 => {
                let rings = u32_at(at);
                at += 4;
                Shape::Polygon(
                    (0..rings)
                        .map(|_| {
                            let n = u32_at(at);
                            at += 4;
                            pts(&mut at, n)
                        })
                        .collect(),
                )
            }
            t => panic!("WKB type {t}"),
        };
        assert_eq!(at, b.len(), "no byte left over");
        shape
    }

    fn feature(layer: DsfLayer, entity: usize, geometry: Geometry) -> Feature {
        Feature {
            layer,
            entity,
            def: 0,
            definition: "lib/x.fac".into(),
            kind: "fac".into(),
            geometry,
            param: Some(10),
            heading: None,
            elevation: None,
            mode: None,
            height: Some(10.0),
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

    fn lonlat() -> impl Strategy<Value = [f64; 2]> {
        (-180.0f64..180.0, -90.0f64..90.0).prop_map(|(x, y)| [x, y])
    }

    /// A closed ring of 3 to 8 distinct points.
    fn closed_ring() -> impl Strategy<Value = Vec<[f64; 2]>> {
        proptest::collection::vec(lonlat(), 3..8).prop_map(|mut r| {
            r.push(r[0]);
            r
        })
    }

    fn geometry() -> impl Strategy<Value = Geometry> {
        prop_oneof![
            lonlat().prop_map(Geometry::Point),
            proptest::collection::vec(lonlat(), 2..6).prop_map(Geometry::LineString),
            // An outer ring and up to three holes.
            proptest::collection::vec(closed_ring(), 1..5).prop_map(Geometry::Polygon),
        ]
    }

    fn tile_of(geoms: Vec<Geometry>) -> Features {
        Features {
            tile: "+47+013".into(),
            features: geoms
                .into_iter()
                .enumerate()
                .map(|(i, g)| {
                    let layer = if matches!(g, Geometry::Point(_)) {
                        DsfLayer::Objects
                    } else {
                        DsfLayer::Facades
                    };
                    feature(layer, i, g)
                })
                .collect(),
            notes: Vec::new(),
        }
    }

    /// Every row of a DSF table: one per feature of its layer, the
    /// columns their values, the WKB the geometry point for point.
    fn check_tile(f: &Features) -> Result<(), TestCaseError> {
        for layer in DsfLayer::ALL {
            let b = dsf_batch(f, layer, "t.dsf");
            let want: Vec<&Feature> = f.layer(layer).collect();
            prop_assert_eq!(b.num_rows(), want.len());
            prop_assert_eq!(b.num_columns(), dsf_columns(layer).len() + 1);
            let entity = b.column_by_name("entity").unwrap();
            let entity = entity.as_any().downcast_ref::<Int64Array>().unwrap();
            let geom = b.column_by_name(GEOMETRY).unwrap();
            let geom = geom.as_any().downcast_ref::<BinaryArray>().unwrap();
            let tile = b.column_by_name("tile").unwrap();
            let tile = tile.as_any().downcast_ref::<StringArray>().unwrap();
            for (i, w) in want.iter().enumerate() {
                prop_assert_eq!(entity.value(i), w.entity as i64);
                prop_assert_eq!(tile.value(i), "+47+013");
                prop_assert_eq!(read_wkb(geom.value(i)), dsf_shape(&w.geometry));
            }
            let schema = b.schema();
            let geo = &schema.metadata()["geo"];
            let v: serde_json::Value = serde_json::from_str(geo).unwrap();
            let types = v["columns"]["geometry"]["geometry_types"]
                .as_array()
                .unwrap();
            let seen: std::collections::BTreeSet<&str> = want
                .iter()
                .map(|w| match w.geometry {
                    Geometry::Point(_) => "Point",
                    Geometry::LineString(_) => "LineString",
                    Geometry::Polygon(_) => "Polygon",
                })
                .collect();
            prop_assert_eq!(types.len(), seen.len());
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn dsf_tables_keep_every_feature_and_its_geometry(
            geoms in proptest::collection::vec(geometry(), 0..12)
        ) {
            check_tile(&tile_of(geoms))?;
        }

        #[test]
        fn a_tile_of_points_only_has_only_an_objects_table(
            points in proptest::collection::vec(lonlat(), 1..20)
        ) {
            let f = tile_of(points.into_iter().map(Geometry::Point).collect());
            check_tile(&f)?;
            prop_assert_eq!(dsf_batch(&f, DsfLayer::Objects, "t").num_rows(), f.features.len());
            prop_assert_eq!(dsf_batch(&f, DsfLayer::Facades, "t").num_rows(), 0);
        }

        #[test]
        fn the_geo_bbox_and_types_read_from_wkb_are_those_of_the_shapes(
            geoms in proptest::collection::vec(geometry(), 0..12)
        ) {
            // Built from the shapes (a batch's schema) and read back from
            // the WKB (what a sink sees): the same types and bbox, and the
            // bbox bounds every point.
            let f = tile_of(geoms);
            let mut from_wkb = Seen::default();
            let mut from_shapes = Seen::default();
            for layer in DsfLayer::ALL {
                let b = dsf_batch(&f, layer, "t");
                let geom = b.column_by_name(GEOMETRY).unwrap();
                let geom = geom.as_any().downcast_ref::<BinaryArray>().unwrap();
                for k in 0..geom.len() {
                    from_wkb.wkb(geom.value(k));
                }
                for w in f.layer(layer) {
                    let shape = dsf_shape(&w.geometry);
                    let kind = match shape {
                        Shape::Point(_) => 0,
                        Shape::LineString(_) => 1,
                        _ => 2,
                    };
                    from_shapes.shape(kind, &shape);
                }
            }
            prop_assert_eq!(from_wkb, from_shapes);
            let points: Vec<[f64; 2]> = f.features.iter().flat_map(|w| match &w.geometry {
                Geometry::Point(p) => vec![*p],
                Geometry::LineString(l) => l.clone(),
                Geometry::Polygon(r) => r.concat(),
            }).collect();
            match from_wkb.bbox {
                None => prop_assert!(points.is_empty()),
                Some([a, b, c, d]) => {
                    for [x, y] in &points {
                        prop_assert!(a <= *x && *x <= c && b <= *y && *y <= d);
                    }
                    prop_assert!(points.iter().any(|p| p[0] == a) && points.iter().any(|p| p[1] == d));
                }
            }
            let geo: serde_json::Value = serde_json::from_str(&from_wkb.geo()).unwrap();
            let bbox = &geo["columns"]["geometry"]["bbox"];
            match from_wkb.bbox {
                None => prop_assert!(bbox.is_null()),
                Some(b) => {
                    let got: Vec<f64> = bbox
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_f64().unwrap())
                        .collect();
                    // Written exactly (Rust's shortest round-trip form);
                    // serde_json's default parser may land an ulp off.
                    prop_assert_eq!(got.len(), 4);
                    for (g, w) in got.iter().zip(b) {
                        prop_assert!((g - w).abs() <= 1e-12 * w.abs().max(1.0), "{} {}", g, w);
                    }
                }
            }
        }

        #[test]
        fn holes_come_back_ring_for_ring(outer in closed_ring(), holes in proptest::collection::vec(closed_ring(), 1..4)) {
            let mut rings = vec![outer];
            rings.extend(holes);
            let f = tile_of(vec![Geometry::Polygon(rings.clone())]);
            check_tile(&f)?;
            let b = dsf_batch(&f, DsfLayer::Facades, "t");
            let geom = b.column_by_name(GEOMETRY).unwrap();
            let geom = geom.as_any().downcast_ref::<BinaryArray>().unwrap();
            prop_assert_eq!(read_wkb(geom.value(0)), Shape::Polygon(rings));
        }
    }

    #[test]
    fn an_empty_tile_has_every_table_with_its_full_schema() {
        let f = Features::default();
        for layer in DsfLayer::ALL {
            let b = dsf_batch(&f, layer, "t");
            assert_eq!(b.num_rows(), 0);
            let names = column_names(&b);
            let mut want: Vec<&str> = dsf_columns(layer).iter().map(|c| c.name).collect();
            want.push(GEOMETRY);
            assert_eq!(names, want);
        }
        for (l, b) in LAYERS.iter().zip(layer_batches([], 0)) {
            assert_eq!(b.num_rows(), 0);
            assert_eq!(b.num_columns(), l.fields.len() + 1, "{}", l.name);
        }
        assert_eq!(placed_batch([], "", "").num_columns(), PLACED.len() + 1);
    }

    #[test]
    fn no_geometry_is_a_null_and_the_field_is_geoarrow_wkb() {
        let mut g = Geom::new();
        g.push(&Shape::None);
        g.push(&Shape::Point([1.0, 2.0]));
        let a = g.builder.finish();
        assert!(a.is_null(0) && !a.is_null(1));
        assert_eq!(read_wkb(a.value(1)), Shape::Point([1.0, 2.0]));
        let f = geometry_field();
        assert_eq!(f.metadata()["ARROW:extension:name"], "geoarrow.wkb");
        let meta: serde_json::Value =
            serde_json::from_str(&f.metadata()["ARROW:extension:metadata"]).unwrap();
        assert_eq!(meta["crs"]["id"]["code"], 4326);
    }

    /// Every row of the Parquet file at `path`, batch by batch, with its
    /// row groups' sizes and its `geo` entry.
    #[cfg(feature = "parquet")]
    fn read_back(path: &std::path::Path) -> (Vec<RecordBatch>, Vec<i64>, String) {
        use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
        let b =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
        let groups = b
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect();
        let geo = b.schema().metadata()["geo"].clone();
        let batches = b.build().unwrap().map(|b| b.unwrap()).collect();
        (batches, groups, geo)
    }

    /// The rows of the Parquet file at `path` from row `skip` on, read
    /// through its page indexes (the pages before are not read).
    #[cfg(feature = "parquet")]
    fn read_from(path: &std::path::Path, skip: usize) -> Vec<RecordBatch> {
        use parquet::arrow::arrow_reader::{
            ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection, RowSelector,
        };
        let options = ArrowReaderOptions::new()
            .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required);
        let b = ParquetRecordBatchReaderBuilder::try_new_with_options(
            std::fs::File::open(path).unwrap(),
            options,
        )
        .unwrap();
        let rows = usize::try_from(b.metadata().file_metadata().num_rows()).unwrap();
        let selection = RowSelection::from(vec![
            RowSelector::skip(skip),
            RowSelector::select(rows - skip),
        ]);
        b.with_row_selection(selection)
            .build()
            .unwrap()
            .map(|b| b.unwrap())
            .collect()
    }

    #[cfg(feature = "parquet")]
    proptest! {
        #[test]
        fn a_sink_holds_what_was_written_and_appended_in_order_whatever_the_row_groups(
            geoms in proptest::collection::vec(geometry(), 0..30),
            cuts in proptest::collection::vec((0usize..31, any::<bool>()), 0..6),
            group_rows in 1usize..8,
        ) {
            // The rows cut into pieces, each written or appended from a part
            // file of its own (row groups as they were stored), make the file
            // that writing them all at once makes: the same rows in order and
            // the same `geo` entry, no row group over the limit.
            let f = Features {
                features: geoms
                    .into_iter()
                    .enumerate()
                    .map(|(i, g)| feature(DsfLayer::Objects, i, g))
                    .collect(),
                ..Features::default()
            };
            let all = dsf_batch(&f, DsfLayer::Objects, "t");
            let n = all.num_rows();
            let mut ends: Vec<(usize, bool)> = cuts.iter().map(|&(c, a)| (c.min(n), a)).collect();
            ends.push((n, false));
            ends.sort_by_key(|e| e.0);
            ends.dedup_by_key(|e| e.0);
            let dir = tempfile::tempdir().unwrap();
            let once = dir.path().join("once.parquet");
            let mut sink = ParquetSink::create(&once, all.schema(), &[]).unwrap();
            sink.group_rows = group_rows;
            sink.write(&all).unwrap();
            prop_assert_eq!(sink.finish().unwrap(), n);
            let out = dir.path().join("pieces.parquet");
            let mut sink = ParquetSink::create(&out, all.schema(), &[]).unwrap();
            sink.group_rows = group_rows;
            let mut from = 0;
            for (k, &(to, append)) in ends.iter().enumerate() {
                let piece = all.slice(from, to - from);
                if append {
                    let part = dir.path().join(format!("part{k}.parquet"));
                    let mut p = ParquetSink::create(&part, all.schema(), &[]).unwrap();
                    p.group_rows = group_rows;
                    p.write(&piece).unwrap();
                    p.finish().unwrap();
                    sink.append_file(&part).unwrap();
                } else {
                    sink.write(&piece).unwrap();
                }
                from = to;
            }
            prop_assert_eq!(sink.finish().unwrap(), n);
            let (want, _, want_geo) = read_back(&once);
            let (got, groups, got_geo) = read_back(&out);
            prop_assert_eq!(got_geo, want_geo);
            prop_assert!(groups.iter().all(|&g| g > 0 && g as usize <= group_rows), "{:?}", groups);
            prop_assert_eq!(groups.iter().sum::<i64>() as usize, n);
            let cells = |bs: &[RecordBatch]| -> Vec<Vec<String>> {
                let mut rows = Vec::new();
                for b in bs {
                    for r in 0..b.num_rows() {
                        rows.push(
                            b.columns()
                                .iter()
                                .map(|c| format!("{:?}", c.slice(r, 1)))
                                .collect(),
                        );
                    }
                }
                rows
            };
            prop_assert_eq!(cells(&got), cells(&want));
            prop_assert_eq!(cells(&want), cells(std::slice::from_ref(&all)));
            // A reader that seeks pages through the copied page indexes
            // (rows skipped by a selection) finds the same rows.
            let skip = n / 2;
            let picked = read_from(&out, skip);
            prop_assert_eq!(cells(&picked), cells(&[all.slice(skip, n - skip)]));
        }
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn a_sink_refuses_a_part_of_other_columns_naming_it_and_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let points = Features {
            features: vec![feature(DsfLayer::Objects, 0, Geometry::Point([13.5, 47.5]))],
            ..Features::default()
        };
        let a = dsf_batch(&points, DsfLayer::Objects, "a");
        let census = dir.path().join("census.parquet");
        write_parquet(&[rows_batch::<Plain>(CENSUS, &[])], &census).unwrap();
        let junk = dir.path().join("junk.parquet");
        std::fs::write(&junk, b"PAR1 not really").unwrap();
        let out = dir.path().join("all.parquet");
        let mut sink = ParquetSink::create(&out, a.schema(), &[]).unwrap();
        sink.write(&a).unwrap();
        let fifo = dir.path().join("fifo.parquet");
        #[cfg(unix)]
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        for bad in [
            &census,
            &junk,
            &dir.path().join("missing.parquet"),
            &fifo,
            &dir.path().to_path_buf(),
        ] {
            let e = sink.append_file(bad).unwrap_err();
            assert!(e.to_string().contains(&bad.display().to_string()), "{e}");
        }
        let e = sink.append_file(&census).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{e}");
        assert_eq!(sink.finish().unwrap(), 1);
        assert_eq!(read_back(&out).1, [1]);
        // The refused parts left nothing in the `geo` entry either.
        let alone = dir.path().join("alone.parquet");
        write_parquet(std::slice::from_ref(&a), &alone).unwrap();
        assert_eq!(read_back(&out).2, read_back(&alone).2);
    }

    #[cfg(feature = "parquet")]
    #[test]
    fn a_sink_writes_every_batch_and_the_geometry_types_of_all_rows() {
        use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
        let dir = tempfile::tempdir().unwrap();
        let points = Features {
            features: vec![feature(DsfLayer::Objects, 0, Geometry::Point([13.5, 47.5]))],
            ..Features::default()
        };
        let lines = Features {
            features: vec![feature(
                DsfLayer::Objects,
                0,
                Geometry::LineString(vec![[13.0, 47.0], [13.1, 47.1]]),
            )],
            ..Features::default()
        };
        let a = dsf_batch(&points, DsfLayer::Objects, "a");
        let b = dsf_batch(&lines, DsfLayer::Objects, "b");
        let part = dir.path().join("b.parquet");
        write_parquet(std::slice::from_ref(&b), &part).unwrap();
        let out = dir.path().join("all.parquet");
        let mut sink = ParquetSink::create(&out, a.schema(), &[("k".into(), "v".into())]).unwrap();
        sink.write(&dsf_batch(&Features::default(), DsfLayer::Objects, ""))
            .unwrap();
        sink.write(&a).unwrap();
        sink.append_file(&part).unwrap();
        // A batch of other columns is refused, and the file goes on.
        let census = rows_batch::<Plain>(CENSUS, &[]);
        assert_eq!(
            sink.write(&census).unwrap_err().kind(),
            std::io::ErrorKind::InvalidInput
        );
        assert!(!out.exists(), "the file is a temporary one until finished");
        assert_eq!(sink.finish().unwrap(), 2);
        let reader =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap()).unwrap();
        let schema = reader.schema().clone();
        let geo: serde_json::Value = serde_json::from_str(&schema.metadata()["geo"]).unwrap();
        assert_eq!(
            geo["columns"]["geometry"]["geometry_types"],
            serde_json::json!(["Point", "LineString"])
        );
        assert_eq!(schema.metadata()["k"], "v");
        let rows: usize = reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
        assert_eq!(rows, 2);
        // Dropped unfinished: nothing is left, the file as it was.
        let sink = ParquetSink::create(&out, a.schema(), &[]).unwrap();
        drop(sink);
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["all.parquet", "b.parquet"]);
    }

    #[test]
    fn a_sink_finished_with_metadata_has_it_and_its_own_bbox() {
        use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
        let dir = tempfile::tempdir().unwrap();
        let f = Features {
            features: vec![
                feature(DsfLayer::Objects, 0, Geometry::Point([13.5, 47.5])),
                feature(DsfLayer::Objects, 1, Geometry::Point([13.25, 47.75])),
            ],
            ..Features::default()
        };
        let b = dsf_batch(&f, DsfLayer::Objects, "a");
        let out = dir.path().join("part.parquet");
        let mut sink = ParquetSink::create(&out, b.schema(), &[("k".into(), "v".into())]).unwrap();
        sink.write(&b).unwrap();
        sink.finish_with(&[("tiles".into(), "[\"a\"]".into())])
            .unwrap();
        let reader =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&out).unwrap()).unwrap();
        let kv: HashMap<String, Option<String>> = reader
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .unwrap()
            .iter()
            .map(|e| (e.key.clone(), e.value.clone()))
            .collect();
        assert_eq!(kv["tiles"].as_deref(), Some("[\"a\"]"));
        assert_eq!(kv["k"].as_deref(), Some("v"));
        let schema = reader.schema();
        assert_eq!(schema.metadata()["tiles"], "[\"a\"]");
        let geo: serde_json::Value = serde_json::from_str(&schema.metadata()["geo"]).unwrap();
        assert_eq!(
            geo["columns"]["geometry"]["bbox"],
            serde_json::json!([13.25, 47.5, 13.5, 47.75])
        );
        // An empty part has no bbox (GeoParquet: optional).
        let empty = dir.path().join("empty.parquet");
        write_parquet(
            &[dsf_batch(&Features::default(), DsfLayer::Objects, "")],
            &empty,
        )
        .unwrap();
        let reader =
            ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&empty).unwrap()).unwrap();
        let geo: serde_json::Value =
            serde_json::from_str(&reader.schema().metadata()["geo"]).unwrap();
        assert!(geo["columns"]["geometry"].get("bbox").is_none());
        assert_eq!(
            geo["columns"]["geometry"]["geometry_types"],
            serde_json::json!([])
        );
    }

    #[test]
    fn the_vertices_table_has_a_row_per_point_with_planes() {
        let mut fac = feature(
            DsfLayer::Facades,
            3,
            Geometry::Polygon(vec![vec![[1.0, 2.0], [3.0, 2.0], [3.0, 4.0], [1.0, 2.0]]]),
        );
        fac.planes = vec!["wall"];
        fac.extra = vec![0.0, 1.0, 2.0];
        let mut line = feature(
            DsfLayer::Lines,
            5,
            Geometry::LineString(vec![[5.0, 6.0], [7.0, 8.0], [5.0, 6.0]]),
        );
        line.closed = Some(true);
        line.winding = Some(2);
        line.planes = vec!["u", "plane3"];
        line.extra = vec![0.5, 9.0, 0.25, 9.0];
        // No planes: no rows.
        let obj = feature(DsfLayer::Objects, 0, Geometry::Point([0.0, 0.0]));
        let f = Features {
            tile: "+02+001".into(),
            features: vec![obj, fac, line],
            notes: Vec::new(),
        };
        let b = dsf_vertices_batch(&f, "t.dsf");
        let names = column_names(&b);
        let want: Vec<&str> = DSF_VERTICES
            .iter()
            .map(|c| c.name)
            .chain([GEOMETRY])
            .collect();
        assert_eq!(names, want);
        assert_eq!(b.num_rows(), 3 + 2);
        let int = |n: &str| {
            let c = b.column_by_name(n).unwrap();
            let c = c.as_any().downcast_ref::<Int64Array>().unwrap();
            (0..c.len()).map(|k| c.value(k)).collect::<Vec<_>>()
        };
        let real = |n: &str| {
            let c = b.column_by_name(n).unwrap();
            let c = c.as_any().downcast_ref::<Float64Array>().unwrap();
            (0..c.len()).map(|k| c.value(k)).collect::<Vec<_>>()
        };
        assert_eq!(int("entity"), [3, 3, 3, 5, 5]);
        assert_eq!(int("ring"), [0, 0, 0, 2, 2]);
        assert_eq!(int("vertex"), [0, 1, 2, 0, 1]);
        assert_eq!(real("lon"), [1.0, 3.0, 3.0, 5.0, 7.0]);
        let wall = real("wall");
        assert_eq!(wall[..3], [0.0, 1.0, 2.0]);
        assert!(wall[3..].iter().all(|w| w.is_nan()));
        let u = real("u");
        assert!(u[..3].iter().all(|w| w.is_nan()));
        assert_eq!(u[3..], [0.5, 0.25]);
        let layer = b.column_by_name("layer").unwrap();
        let layer = layer.as_any().downcast_ref::<StringArray>().unwrap();
        assert_eq!(layer.value(0), "facades");
        assert_eq!(layer.value(4), "lines");
        let geom = b.column_by_name(GEOMETRY).unwrap();
        let geom = geom.as_any().downcast_ref::<BinaryArray>().unwrap();
        assert_eq!(read_wkb(geom.value(4)), Shape::Point([7.0, 8.0]));
        assert_eq!(
            dsf_vertices_batch(&Features::default(), "").num_columns(),
            want.len()
        );
    }

    /// A plain row for the generic tables.
    struct Plain {
        name: &'static str,
        n: Option<i64>,
        x: Option<f64>,
        list: Vec<String>,
    }

    impl TableRow for Plain {
        fn cell(&self, column: &str) -> Cell<'_> {
            match column {
                "name" => Cell::Text(Some(self.name)),
                "n" => Cell::Int(self.n),
                "x" => Cell::Real(self.x),
                // A value of another type than its column's: an int in a
                // real column is the number, anything else null.
                "n_as_real" => Cell::Int(self.n),
                "x_as_text" => Cell::Real(self.x),
                _ => Cell::Text(None),
            }
        }

        fn texts(&self) -> &[String] {
            &self.list
        }
    }

    #[test]
    fn plain_rows_keep_their_cells_types_nulls_and_lists() {
        const COLUMNS: &[Column] = &[
            c("name", T),
            c("n", I),
            c("x", R),
            c("n_as_real", R),
            c("x_as_text", T),
            c("unknown", I),
        ];
        let rows = [
            Plain {
                name: "a",
                n: Some(-3),
                x: Some(0.5),
                list: vec!["p".into(), "q".into()],
            },
            Plain {
                name: "b",
                n: None,
                x: None,
                list: Vec::new(),
            },
        ];
        let b = rows_batch_with_list(COLUMNS, &rows, "items");
        assert_eq!(
            column_names(&b),
            [
                "name",
                "n",
                "x",
                "n_as_real",
                "x_as_text",
                "unknown",
                "items"
            ]
        );
        let ints = b.column_by_name("n").unwrap();
        let ints = ints.as_any().downcast_ref::<Int64Array>().unwrap();
        assert_eq!(ints.value(0), -3);
        assert!(ints.is_null(1));
        let reals = b.column_by_name("n_as_real").unwrap();
        let reals = reals.as_any().downcast_ref::<Float64Array>().unwrap();
        assert_eq!(reals.value(0), -3.0);
        assert!(b.column_by_name("x_as_text").unwrap().is_null(0));
        assert_eq!(b.column_by_name("unknown").unwrap().null_count(), 2);
        let items = b.column_by_name("items").unwrap();
        let items = items
            .as_any()
            .downcast_ref::<arrow_array::ListArray>()
            .unwrap();
        assert_eq!(items.value(0).len(), 2);
        assert!(items.value(1).is_empty() && !items.is_null(1));
        // Without the list, the same columns less the last.
        let plain = rows_batch(COLUMNS, &rows);
        assert_eq!(plain.num_columns(), COLUMNS.len());
        assert_eq!(plain.num_rows(), 2);
    }
}
