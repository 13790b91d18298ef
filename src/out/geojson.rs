//! `--format geojson`: a FeatureCollection in lon/lat (RFC 7946).
//!
//! One feature per tile (Polygon), object (Point), facade (Polygon) and tree
//! (Point). `properties.kind` is `tile`, `object`, `facade` or `tree`;
//! `properties.placement` is the index of the placement (0 for a single
//! asset) and `properties.asset_file` its asset; the other properties are the
//! JSON fields of the item (without the coordinates).
//!
//! [`read_polygons`] goes the other way for `--polygon`: the DSF windings of
//! each polygon in a GeoJSON document.

use super::OutError;
use crate::geom::LonLat;
use crate::place::Placement;
use geojson::{Feature, FeatureCollection, Geometry, GeometryValue, JsonObject, JsonValue};
use serde::Serialize;

/// All placements as one FeatureCollection.
pub fn to_geojson(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    let fc = FeatureCollection {
        bbox: None,
        features: features(ps, 0)?,
        foreign_members: None,
    };
    let mut v = serde_json::to_vec_pretty(&fc)?;
    v.push(b'\n');
    Ok(v)
}

/// The features of `ps`, numbered (`properties.placement`) from `first`:
/// the pieces of one collection written in parts ([`super::Stream`]).
pub fn features(ps: &[Placement], first: usize) -> Result<Vec<Feature>, OutError> {
    let mut features = Vec::new();
    for (i, p) in (first..).zip(ps) {
        for t in &p.tiles {
            features.push(feature(
                p,
                i,
                "tile",
                t,
                ring(&t.lonlat),
                &["polygon", "lonlat"],
            )?);
        }
        for o in &p.objects {
            let g = GeometryValue::new_point([o.lon, o.lat]);
            features.push(feature(
                p,
                i,
                "object",
                o,
                Some(g),
                &["x", "y", "lon", "lat"],
            )?);
        }
        for f in &p.facades {
            features.push(feature(
                p,
                i,
                "facade",
                f,
                ring(&f.lonlat),
                &["polygon", "lonlat"],
            )?);
        }
        for t in &p.trees {
            let g = GeometryValue::new_point([t.lon, t.lat]);
            features.push(feature(
                p,
                i,
                "tree",
                t,
                Some(g),
                &["x", "y", "lon", "lat"],
            )?);
        }
    }
    Ok(features)
}

/// A closed polygon ring, or nothing for fewer than three points.
fn ring(ll: &[LonLat]) -> Option<GeometryValue> {
    if ll.len() < 3 {
        return None;
    }
    let mut r: Vec<LonLat> = ll.to_vec();
    r.push(ll[0]);
    Some(GeometryValue::new_polygon([r]))
}

fn feature<T: Serialize>(
    p: &Placement,
    index: usize,
    kind: &str,
    item: &T,
    geometry: Option<GeometryValue>,
    drop: &[&str],
) -> Result<Feature, OutError> {
    let mut props = JsonObject::new();
    props.insert("kind".into(), JsonValue::from(kind));
    props.insert("placement".into(), JsonValue::from(index));
    props.insert("asset_file".into(), JsonValue::from(p.asset.clone()));
    if let JsonValue::Object(m) = serde_json::to_value(item)? {
        for (k, v) in m {
            if !drop.contains(&k.as_str()) {
                props.insert(k, v);
            }
        }
    }
    Ok(Feature {
        bbox: None,
        geometry: geometry.map(Geometry::new),
        id: None,
        properties: Some(props),
        foreign_members: None,
    })
}

/// The polygons of a GeoJSON document (a Polygon, MultiPolygon, Feature or
/// FeatureCollection of those), each as its rings in lon/lat — the DSF
/// windings of one use, in order. Closing vertices are kept (placement drops
/// them).
pub fn read_polygons(text: &str) -> Result<Vec<Vec<Vec<LonLat>>>, String> {
    use geojson::GeoJson;
    let gj: GeoJson = text.parse().map_err(|e| format!("not GeoJSON: {e}"))?;
    let mut geoms = Vec::new();
    match gj {
        GeoJson::Geometry(g) => geoms.push(g),
        GeoJson::Feature(f) => geoms.extend(f.geometry),
        GeoJson::FeatureCollection(fc) => {
            geoms.extend(fc.features.into_iter().filter_map(|f| f.geometry))
        }
    }
    let ring = |r: &Vec<geojson::Position>| -> Result<Vec<LonLat>, String> {
        r.iter()
            .map(|p| match p.as_slice() {
                [lon, lat, ..] if lon.is_finite() && lat.is_finite() => Ok([*lon, *lat]),
                _ => Err("a position needs a finite longitude and latitude".to_string()),
            })
            .collect()
    };
    let mut out = Vec::new();
    for g in geoms {
        match &g.value {
            GeometryValue::Polygon { coordinates } => {
                out.push(coordinates.iter().map(ring).collect::<Result<_, _>>()?)
            }
            GeometryValue::MultiPolygon { coordinates } => {
                for poly in coordinates {
                    out.push(poly.iter().map(ring).collect::<Result<_, _>>()?);
                }
            }
            other => {
                return Err(format!(
                    "expected Polygon or MultiPolygon, found {}",
                    other.type_name()
                ));
            }
        }
    }
    if out.is_empty() {
        return Err("no polygon found".into());
    }
    Ok(out)
}
