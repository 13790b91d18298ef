//! `--format geojson`: a FeatureCollection in lon/lat (RFC 7946).
//!
//! One feature per tile (Polygon), object (Point), facade (Polygon) and tree
//! (Point). `properties.kind` is `tile`, `object`, `facade` or `tree`;
//! `properties.placement` is the index of the placement (0 for a single
//! asset) and `properties.asset_file` its asset; the other properties are the
//! JSON fields of the item (without the coordinates).

use super::OutError;
use crate::geom::LonLat;
use crate::place::Placement;
use geojson::{Feature, FeatureCollection, Geometry, GeometryValue, JsonObject, JsonValue};
use serde::Serialize;

/// All placements as one FeatureCollection.
pub fn to_geojson(ps: &[Placement]) -> Result<Vec<u8>, OutError> {
    let mut features = Vec::new();
    for (i, p) in ps.iter().enumerate() {
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
    let fc = FeatureCollection {
        bbox: None,
        features,
        foreign_members: None,
    };
    let mut v = serde_json::to_vec_pretty(&fc)?;
    v.push(b'\n');
    Ok(v)
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
