//! The text and GeoJSON forms of `scenery at` and the text form of
//! `scenery check` (the JSON forms are the reports serialized).

use crate::geom::LonLat;
use crate::ground::words::{count, thousands};
use crate::place::at::{AtReport, Item, ItemKind};
use crate::scenery::check::CheckReport;
use crate::scenery::resolve::Resolution;
use std::fmt::Write as _;

/// `scenery at` for people: the packages, then the items of each package
/// with their definition, the file they resolve to and any exclusion.
pub fn at_text(r: &AtReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} within {} m of lat {:.6}, lon {:.6}",
        count(r.items.len(), "item"),
        r.radius_m,
        r.center[1],
        r.center[0]
    );
    if let Some(g) = &r.ground {
        let off = if g.on_mesh { "" } else { ", off the mesh" };
        let _ = writeln!(
            s,
            "ground: {:.2} m ({}{off})",
            g.elevation,
            g.source.describe()
        );
    }
    // Items per package counted in one pass (an installation has thousands
    // of packages, a query up to a million items).
    let mut per: std::collections::HashMap<&str, usize> = Default::default();
    for i in &r.items {
        *per.entry(i.package.as_str()).or_insert(0) += 1;
    }
    let placing: Vec<_> = r
        .packages
        .iter()
        .filter_map(|p| per.get(p.name.as_str()).map(|&n| (p, n)))
        .collect();
    let _ = writeln!(
        s,
        "\npackages placing something here: {} of {} (#0 is the highest priority)",
        placing.len(),
        r.packages.len()
    );
    for (p, n) in placing {
        let _ = writeln!(s, "  #{:<3} {}  {}", p.priority, p.path, count(n, "item"));
    }
    let mut last: Option<(&str, &str)> = None;
    for (k, i) in r.items.iter().enumerate() {
        if last != Some((&i.package, &i.dsf)) {
            let _ = writeln!(s, "\n{} — {}", i.package, i.dsf);
            last = Some((&i.package, &i.dsf));
        }
        item_line(&mut s, k, i);
    }
    s
}

fn item_line(s: &mut String, k: usize, i: &Item) {
    let indent = if i.placed_by.is_some() { "    " } else { "  " };
    let _ = writeln!(
        s,
        "{indent}[{k}] {} {} at lat {:.6}, lon {:.6}",
        i.kind.as_str(),
        i.definition,
        i.lat,
        i.lon
    );
    match &i.resolved {
        Some(f) => {
            let _ = writeln!(s, "{indent}      -> {} ({})", f.file, i.rule);
        }
        None => {
            let _ = writeln!(s, "{indent}      -> {}", i.rule);
        }
    }
    if !i.conditions.is_empty() {
        let _ = writeln!(s, "{indent}      assuming {}", i.conditions.join(" and "));
    }
    if let Some(z) = i.z {
        let _ = writeln!(s, "{indent}      stands at {z:.2} m");
    }
    if let Some(by) = &i.excluded_by {
        let _ = writeln!(
            s,
            "{indent}      EXCLUDED by {by}: {}",
            i.exclusion.as_deref().unwrap_or("")
        );
    }
}

/// `scenery at` as a compact GeoJSON FeatureCollection ([`at_geojson_with`]).
pub fn at_geojson(r: &AtReport) -> Result<Vec<u8>, serde_json::Error> {
    at_geojson_with(r, false)
}

/// The layers of `scenery at`'s GeoJSON by geometry type: the `layer`
/// property of each feature.
pub const AT_LAYERS: [&str; 3] = ["at_points", "at_lines", "at_areas"];

/// `scenery at` as a GeoJSON FeatureCollection (indented when `pretty`):
/// one feature per item, flat typed properties in a fixed order and one
/// geometry type per `layer` ([`AT_LAYERS`]): `at_points` (Point: objects
/// without a known footprint, autogen points, trees), `at_lines`
/// (MultiLineString: lines, strings, networks, open facades) and
/// `at_areas` (Polygon: facades, forests, draped polygons, beaches,
/// autogen blocks, and placed objects' footprints). Exterior rings turn
/// counter-clockwise, holes clockwise (RFC 7946); coordinates have 7
/// decimals. `index` is the item's place in the JSON list (its stable
/// key), `res_file`/`res_pkg` the file it resolves to, `height` metres
/// where placement knows it, `conditions` a JSON list as text.
pub fn at_geojson_with(r: &AtReport, pretty: bool) -> Result<Vec<u8>, serde_json::Error> {
    use super::layers::deg;
    use geojson::{Feature, FeatureCollection, Geometry, GeometryValue, JsonObject, JsonValue};
    let mut features = Vec::new();
    for (k, i) in r.items.iter().enumerate() {
        let (layer, g) = match at_shape(i) {
            AtShape::Area(rings) => (AT_LAYERS[2], GeometryValue::new_polygon(rings)),
            AtShape::Point(p) => (AT_LAYERS[0], GeometryValue::new_point(p)),
            AtShape::Lines(w) => (AT_LAYERS[1], GeometryValue::new_multi_line_string(w)),
        };
        let text = |s: Option<&str>| s.map_or(JsonValue::Null, JsonValue::from);
        let mut props = JsonObject::new();
        let mut put = |name: &str, v: JsonValue| {
            props.insert(name.to_string(), v);
        };
        put("layer", JsonValue::from(layer));
        put("index", JsonValue::from(k));
        put("package", JsonValue::from(i.package.as_str()));
        put("dsf", JsonValue::from(i.dsf.as_str()));
        put("kind", JsonValue::from(i.kind.as_str()));
        put("definition", JsonValue::from(i.definition.as_str()));
        put(
            "res_file",
            text(i.resolved.as_ref().map(|r| r.file.as_str())),
        );
        put(
            "res_pkg",
            text(i.resolved.as_ref().map(|r| r.package.as_str())),
        );
        put("lon", JsonValue::from(deg(i.lon)));
        put("lat", JsonValue::from(deg(i.lat)));
        put("excl_by", text(i.excluded_by.as_deref()));
        put("rule", JsonValue::from(i.rule.as_str()));
        put(
            "conditions",
            if i.conditions.is_empty() {
                JsonValue::Null
            } else {
                JsonValue::from(serde_json::to_string(&i.conditions)?)
            },
        );
        put("exclusion", text(i.exclusion.as_deref()));
        put(
            "placed_by",
            i.placed_by.map_or(JsonValue::Null, JsonValue::from),
        );
        put(
            "art",
            match i.art.map(serde_json::to_value).transpose()? {
                Some(v) => v,
                None => JsonValue::Null,
            },
        );
        put(
            "height",
            i.height.map_or(JsonValue::Null, |h| {
                JsonValue::from(super::layers::metres(h))
            }),
        );
        features.push(Feature {
            bbox: None,
            geometry: Some(Geometry::new(g)),
            id: None,
            properties: Some(props),
            foreign_members: None,
        });
    }
    let fc = FeatureCollection {
        bbox: None,
        features,
        foreign_members: None,
    };
    let mut v = if pretty {
        serde_json::to_vec_pretty(&fc)?
    } else {
        serde_json::to_vec(&fc)?
    };
    v.push(b'\n');
    Ok(v)
}

/// One `scenery at` item's geometry in degrees, as its layer holds it.
enum AtShape {
    /// A closed area: exterior ring counter-clockwise, holes clockwise.
    Area(Vec<Vec<LonLat>>),
    /// A single point.
    Point(LonLat),
    /// Lines, a winding each.
    Lines(Vec<Vec<LonLat>>),
}

/// Which geometry `i` is drawn as: an area (a closed area item of three
/// points or more, or an object's footprint), a point (one winding of one
/// point) or lines (everything else).
fn at_shape(i: &Item) -> AtShape {
    use super::layers::{deg, ring};
    let shape: Vec<Vec<LonLat>> = i
        .shape
        .iter()
        .map(|w| w.iter().map(|p| [deg(p[0]), deg(p[1])]).collect())
        .collect();
    let area = (i.kind.is_area() && !i.open) || i.kind == ItemKind::Object;
    if area
        && shape.first().is_some_and(|w| w.len() >= 3)
        && let Some(rings) = shape
            .iter()
            .enumerate()
            .map(|(n, w)| ring(w, n == 0))
            .collect::<Option<Vec<_>>>()
    {
        return AtShape::Area(rings);
    }
    if shape.len() == 1 && shape[0].len() == 1 {
        AtShape::Point(shape[0][0])
    } else {
        AtShape::Lines(shape)
    }
}

/// `scenery resolve` for people: the winners with the rule, then every
/// export that lost and why.
pub fn resolution_text(r: &Resolution) -> String {
    let mut s = format!("{} at tile {}: {}\n", r.path, r.tile, r.rule);
    for c in &r.candidates {
        let _ = write!(
            s,
            "  {} {}/{} ({}{}, weight {})",
            if c.exists { "->" } else { "!!" },
            c.package,
            c.relative,
            c.kind.map_or("a file of the package", |k| k.as_str()),
            c.line.map_or(String::new(), |l| format!(" line {l}")),
            c.weight
        );
        if !c.exists {
            s.push_str(", file missing");
        }
        if !c.conditions.is_empty() {
            let _ = write!(s, ", assuming {}", c.conditions.join(" and "));
        }
        s.push('\n');
    }
    if !r.is_resolved() {
        let _ = writeln!(s, "  unresolved: {}", r.why_unresolved());
    }
    for x in &r.shadowed {
        let _ = writeln!(
            s,
            "  not used: {} {}/{} ({}): {}",
            x.candidate.kind.map_or("", |k| k.as_str()),
            x.candidate.package,
            x.candidate.relative,
            x.candidate.place(),
            x.why
        );
    }
    s
}

/// `scenery check` for people: one block per finding, then a summary.
pub fn check_text(r: &CheckReport) -> String {
    let mut s = String::new();
    for f in &r.findings {
        let _ = writeln!(s, "{}[{}]: {}", f.severity.as_str(), f.code, f.message);
        for d in &f.details {
            let _ = writeln!(s, "  {d}");
        }
    }
    let st = &r.stats;
    let _ = writeln!(
        s,
        "checked {} ({} enabled, {} with a library.txt, {}), {}, {}: {} unresolved{}",
        count(st.packages, "package"),
        thousands(st.enabled),
        thousands(st.libraries),
        count(st.exports, "export"),
        count(st.dsfs, "DSF"),
        count(st.definitions, "definition"),
        thousands(st.unresolved),
        if st.art_followed > 0 {
            format!(
                "; art of {} followed: {} missing",
                count(st.art_followed, "file"),
                thousands(st.missing_art)
            )
        } else {
            String::new()
        }
    );
    s
}

/// Index of `scenery at`'s point layer in [`super::layers::ALL_LAYERS`]
/// (after the conflict layers); its line and area layers follow.
pub const AT_POINTS: usize = super::conflicts::LAYER_RANGE.end;
/// `scenery at`'s layers' range of [`super::layers::ALL_LAYERS`]: points,
/// lines, areas, the three of [`AT_LAYERS`].
pub const AT_RANGE: std::ops::Range<usize> = AT_POINTS..AT_POINTS + 3;

/// The fields of every `scenery at` layer: the GeoJSON's properties, in
/// its order (its `placed_by`, the index of the autogen use that placed
/// the item, as `placer_idx`: `placed_by` is text in the conflict
/// layers), and `part` (a line item of several windings is a row per
/// winding, GeoPackage holding one geometry type a layer).
const AT_FIELDS: &[super::layers::Field] = {
    use super::layers::FieldType::{Integer as I, Real as R, Text as T};
    use super::layers::f;
    &[
        f("layer", T),
        f("index", I),
        f("part", I),
        f("package", T),
        f("dsf", T),
        f("kind", T),
        f("definition", T),
        f("res_file", T),
        f("res_pkg", T),
        f("lon", R),
        f("lat", R),
        f("excl_by", T),
        f("rule", T),
        f("conditions", T),
        f("exclusion", T),
        f("placer_idx", I),
        f("art", T),
        f("height", R),
    ]
};

/// `scenery at`'s layers, as a GeoPackage holds them ([`at_gpkg`]).
pub const AT_LAYER_DEFS: [super::layers::Layer; 3] = {
    use super::layers::{GeomType, Layer};
    [
        Layer {
            name: AT_LAYERS[0],
            geometry: GeomType::Point,
            fields: AT_FIELDS,
            about: "scenery at: items that are a point (objects without a known footprint, autogen points, trees); lon/lat the item's reference point, height metres where placement knows it, conditions a JSON list, index the item's place in the JSON list.",
        },
        Layer {
            name: AT_LAYERS[1],
            geometry: GeomType::LineString,
            fields: AT_FIELDS,
            about: "scenery at: items that are lines (painted lines, object strings, networks, open facades), a row per winding (part); fields as at_points.",
        },
        Layer {
            name: AT_LAYERS[2],
            geometry: GeomType::Polygon,
            fields: AT_FIELDS,
            about: "scenery at: items that are areas (facades, forests, draped polygons, beaches, autogen blocks, placed objects' footprints), holes kept; fields as at_points.",
        },
    ]
};

/// The rows of `scenery at`'s layers ([`AT_LAYER_DEFS`]): the features of
/// [`at_geojson`], a line item split into a row per winding.
pub fn at_rows(r: &AtReport) -> Vec<super::layers::Row> {
    use super::layers::{Row, Shape, Value, deg, metres};
    use std::borrow::Cow;
    let text = |s: Option<&str>| s.map_or(Value::Null, |s| Value::Text(Cow::Owned(s.to_string())));
    let mut rows = Vec::new();
    for (k, i) in r.items.iter().enumerate() {
        let parts: Vec<(usize, Shape)> = match at_shape(i) {
            AtShape::Area(rings) => vec![(2, Shape::Polygon(rings))],
            AtShape::Point(p) => vec![(0, Shape::Point(p))],
            AtShape::Lines(w) => w
                .into_iter()
                .filter(|w| w.len() >= 2)
                .map(|w| (1, Shape::LineString(w)))
                .collect(),
        };
        let conditions = if i.conditions.is_empty() {
            Value::Null
        } else {
            Value::Text(Cow::Owned(
                serde_json::to_string(&i.conditions).unwrap_or_default(),
            ))
        };
        for (part, (layer, shape)) in parts.into_iter().enumerate() {
            rows.push(Row {
                layer: AT_POINTS + layer,
                shape,
                values: vec![
                    Value::Text(Cow::Borrowed(AT_LAYERS[layer])),
                    Value::Int(k as i64),
                    Value::Int(part as i64),
                    text(Some(&i.package)),
                    text(Some(&i.dsf)),
                    Value::Text(Cow::Borrowed(i.kind.as_str())),
                    text(Some(&i.definition)),
                    text(i.resolved.as_ref().map(|r| r.file.as_str())),
                    text(i.resolved.as_ref().map(|r| r.package.as_str())),
                    Value::Real(deg(i.lon)),
                    Value::Real(deg(i.lat)),
                    text(i.excluded_by.as_deref()),
                    text(Some(&i.rule)),
                    conditions.clone(),
                    text(i.exclusion.as_deref()),
                    i.placed_by.map_or(Value::Null, |p| Value::Int(p as i64)),
                    i.art
                        .map_or(Value::Null, |a| Value::Text(Cow::Borrowed(a.as_str()))),
                    i.height.map(metres).into(),
                ],
            });
        }
    }
    rows
}

/// `scenery at` as a GeoPackage: its three layers ([`AT_LAYER_DEFS`],
/// every table present even when empty), written to `w` (built in a
/// scratch folder, then copied).
pub fn at_gpkg(r: &AtReport, w: &mut dyn std::io::Write) -> Result<(), super::OutError> {
    let dir = crate::fsutil::ScratchDir::new()?;
    let path = dir.path().join("at.gpkg");
    let mut g = super::gpkg::GpkgWriter::create_layers(&path, AT_RANGE)?;
    for row in at_rows(r) {
        g.add(&row)?;
    }
    g.finish()?;
    std::io::copy(&mut std::fs::File::open(&path)?, w)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_summary_separates_every_count() {
        let r = CheckReport {
            findings: Vec::new(),
            stats: crate::scenery::check::Stats {
                packages: 5000,
                enabled: 4999,
                libraries: 1200,
                exports: 49_900,
                dsfs: 3000,
                definitions: 12_345,
                unresolved: 1001,
                ..Default::default()
            },
        };
        assert_eq!(
            check_text(&r),
            "checked 5,000 packages (4,999 enabled, 1,200 with a library.txt, 49,900 exports), \
             3,000 DSFs, 12,345 definitions: 1,001 unresolved\n"
        );
    }
}
