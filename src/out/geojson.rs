//! `--format geojson`: a FeatureCollection in lon/lat (RFC 7946).
//!
//! The features are the rows of [`super::layers`]: one per use (Polygon
//! for an .agb/.ags, Point for an .agp), tile (Polygon), object (its
//! footprint as a Polygon when its OBJ was read, else a Point), facade
//! (Polygon; LineString when open, a fence) and tree (Point). Every
//! feature has the properties of its layer, in the layer's order, with
//! `layer` naming it (`tiles`, `objects`, `obj_points`, `facades`,
//! `fences`, `trees`, `uses`, `use_points`: one geometry type each) and
//! `item_id` its stable key. A property has one type in every feature
//! (`null` where an item has no value). The text is compact unless
//! `pretty`; coordinates have 7 decimals.
//!
//! [`read_polygons`] goes the other way for `--polygon`: the DSF windings of
//! each polygon in a GeoJSON document.

use super::OutError;
use super::layers::{self, Row, Shape, Value};
use crate::geom::LonLat;
use crate::place::Placement;
use geojson::{Feature, Geometry, GeometryValue, JsonObject, JsonValue};
use serde::Serialize;

/// All placements as one compact FeatureCollection.
pub fn to_geojson(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    let mut v = Vec::new();
    write_geojson(ps, false, &mut v)?;
    Ok(v)
}

/// [`to_geojson`] written to `w` as it is made (neither the features nor
/// the text are held whole), indented when `pretty`.
pub fn write_geojson(
    ps: &[Placement],
    pretty: bool,
    w: &mut dyn std::io::Write,
) -> Result<(), OutError> {
    if pretty {
        serde_json::to_writer_pretty(&mut *w, &Collection(ps))?;
    } else {
        serde_json::to_writer(&mut *w, &Collection(ps))?;
    }
    w.write_all(b"\n")?;
    Ok(())
}

/// A FeatureCollection of placements, its features made as they are
/// written.
struct Collection<'a>(&'a [Placement]);

impl Serialize for Collection<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Features<'a>(&'a [Placement]);
        impl Serialize for Features<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(None)?;
                layers::each_row(self.0, 0, &mut |r| seq.serialize_element(&RowFeature(&r)))?;
                seq.end()
            }
        }
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("type", "FeatureCollection")?;
        m.serialize_entry("features", &Features(self.0))?;
        m.end()
    }
}

/// One row as a GeoJSON Feature, its properties in the layer's order.
pub struct RowFeature<'a>(pub &'a Row);

impl Serialize for RowFeature<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        struct Props<'a>(&'a Row);
        impl Serialize for Props<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.values.len()))?;
                for (f, v) in self.0.fields() {
                    m.serialize_entry(f.name, &json(v))?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("type", "Feature")?;
        m.serialize_entry("properties", &Props(self.0))?;
        m.serialize_entry("geometry", &geometry(&self.0.shape).map(Geometry::new))?;
        m.end()
    }
}

/// A value as JSON.
fn json(v: &Value) -> JsonValue {
    match v {
        Value::Null => JsonValue::Null,
        Value::Int(n) => JsonValue::from(*n),
        Value::Real(x) => JsonValue::from(*x),
        Value::Text(t) => JsonValue::from(t.as_ref()),
        Value::Bool(b) => JsonValue::from(*b),
    }
}

/// A shape as a GeoJSON geometry (`None` for no geometry).
fn geometry(s: &Shape) -> Option<GeometryValue> {
    Some(match s {
        Shape::None => return None,
        Shape::Point(p) => GeometryValue::new_point(*p),
        Shape::LineString(l) => GeometryValue::new_line_string(l.iter().copied()),
        Shape::Polygon(rings) => GeometryValue::new_polygon(rings.iter().map(|r| r.to_vec())),
    })
}

/// The features of `ps`, numbered (`properties.placement`) from `first`:
/// the pieces of one collection written in parts ([`super::Stream`]).
pub fn features(ps: &[Placement], first: usize) -> Result<Vec<Feature>, OutError> {
    let mut features = Vec::new();
    each_feature(ps, first, &mut |f| {
        features.push(f);
        Ok::<(), serde_json::Error>(())
    })?;
    Ok(features)
}

/// Calls `emit` with each feature of `ps` in turn (as [`features`] lists
/// them), making one at a time; stops at the first error.
pub fn each_feature<E: serde::ser::Error>(
    ps: &[Placement],
    first: usize,
    emit: &mut dyn FnMut(Feature) -> Result<(), E>,
) -> Result<(), E> {
    layers::each_row(ps, first, &mut |r| {
        let props: JsonObject = r
            .fields()
            .map(|(f, v)| (f.name.to_string(), json(v)))
            .collect();
        emit(Feature {
            bbox: None,
            geometry: geometry(&r.shape).map(Geometry::new),
            id: None,
            properties: Some(props),
            foreign_members: None,
        })
    })
}

/// One polygon of a GeoJSON document ([`read_polygon_features`]) and
/// where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct InputPolygon {
    /// The 0-based index of its feature in a FeatureCollection (`None` for
    /// a bare geometry or a single Feature).
    pub feature: Option<usize>,
    /// The feature's `id` (a string as is, a number as its text), if any.
    pub id: Option<String>,
    /// The 0-based index of the polygon in its MultiPolygon (`None` for a
    /// Polygon).
    pub part: Option<usize>,
    /// Its rings in lon/lat, closing vertices kept: the DSF windings of one
    /// use.
    pub windings: Vec<Vec<LonLat>>,
}

impl InputPolygon {
    /// How messages name it: `feature 3 (id "lake"), polygon 2`, `the
    /// polygon`.
    pub fn label(&self) -> String {
        let mut s = match (self.feature, &self.id) {
            (Some(i), Some(id)) => format!("feature {i} (id {id:?})"),
            (Some(i), None) => format!("feature {i}"),
            (None, Some(id)) => format!("the feature (id {id:?})"),
            (None, None) => "the polygon".to_string(),
        };
        if let Some(k) = self.part {
            s.push_str(&format!(", polygon {k}"));
        }
        s
    }
}

/// The polygons of a GeoJSON document (a Polygon, MultiPolygon, Feature or
/// FeatureCollection of those), each as its rings in lon/lat — the DSF
/// windings of one use, in order. Closing vertices are kept (placement drops
/// them).
pub fn read_polygons(text: &str) -> Result<Vec<Vec<Vec<LonLat>>>, String> {
    Ok(read_polygon_features(text)?
        .into_iter()
        .map(|p| p.windings)
        .collect())
}

/// [`read_polygons`] with where each polygon came from. Every position
/// must be a finite longitude in −180..180 and latitude in −90..90; an
/// error names the feature (index and id), the polygon of a MultiPolygon,
/// the ring and the position (all 0-based). Features without a geometry
/// are skipped; any other geometry than Polygon or MultiPolygon is an
/// error.
pub fn read_polygon_features(text: &str) -> Result<Vec<InputPolygon>, String> {
    use geojson::GeoJson;
    let gj: GeoJson = text.parse().map_err(|e| format!("not GeoJSON: {e}"))?;
    // (feature index, id, geometry)
    let mut geoms: Vec<(Option<usize>, Option<String>, Geometry)> = Vec::new();
    let id_of = |id: Option<geojson::feature::Id>| {
        id.map(|id| match id {
            geojson::feature::Id::String(s) => s,
            geojson::feature::Id::Number(n) => n.to_string(),
        })
    };
    match gj {
        GeoJson::Geometry(g) => geoms.push((None, None, g)),
        GeoJson::Feature(f) => {
            let id = id_of(f.id);
            geoms.extend(f.geometry.map(|g| (None, id, g)));
        }
        GeoJson::FeatureCollection(fc) => {
            for (i, f) in fc.features.into_iter().enumerate() {
                let id = id_of(f.id);
                geoms.extend(f.geometry.map(|g| (Some(i), id, g)));
            }
        }
    }
    let mut out = Vec::new();
    for (feature, id, g) in geoms {
        let label = |part| {
            InputPolygon {
                feature,
                id: id.clone(),
                part,
                windings: Vec::new(),
            }
            .label()
        };
        let polys = match g.value {
            GeometryValue::Polygon { coordinates } => vec![(None, coordinates)],
            GeometryValue::MultiPolygon { coordinates } => coordinates
                .into_iter()
                .enumerate()
                .map(|(k, p)| (Some(k), p))
                .collect(),
            other => {
                return Err(format!(
                    "{}: expected Polygon or MultiPolygon, found {}",
                    label(None),
                    other.type_name()
                ));
            }
        };
        for (part, rings) in polys {
            let windings = rings
                .iter()
                .enumerate()
                .map(|(r, ring)| {
                    ring.iter()
                        .enumerate()
                        .map(|(k, p)| {
                            position(p).map_err(|e| {
                                format!("{}, ring {r}, position {k}: {e}", label(part))
                            })
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?;
            out.push(InputPolygon {
                feature,
                id: id.clone(),
                part,
                windings,
            });
        }
    }
    if out.is_empty() {
        return Err("no polygon found".into());
    }
    Ok(out)
}

/// A GeoJSON position as lon/lat, on Earth.
fn position(p: &geojson::Position) -> Result<LonLat, String> {
    let [lon, lat] = match p.as_slice() {
        [lon, lat, ..] if lon.is_finite() && lat.is_finite() => [*lon, *lat],
        _ => return Err("a position needs a finite longitude and latitude".into()),
    };
    if !(-180.0..=180.0).contains(&lon) {
        return Err(format!("longitude {lon} is outside -180..180"));
    }
    if !(-90.0..=90.0).contains(&lat) {
        let hint = crate::geom::orient::swapped_reading(lat, lon)
            .map(|r| format!("; GeoJSON is lon,lat: were these numbers lat,lon, it would be {r}"))
            .unwrap_or_default();
        return Err(format!("latitude {lat} is outside -90..90{hint}"));
    }
    Ok([lon, lat])
}
