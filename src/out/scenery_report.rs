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
    use super::layers::{deg, ring};
    use geojson::{Feature, FeatureCollection, Geometry, GeometryValue, JsonObject, JsonValue};
    let mut features = Vec::new();
    for (k, i) in r.items.iter().enumerate() {
        let shape: Vec<Vec<LonLat>> = i
            .shape
            .iter()
            .map(|w| w.iter().map(|p| [deg(p[0]), deg(p[1])]).collect())
            .collect();
        let area = (i.kind.is_area() && !i.open) || i.kind == ItemKind::Object;
        let rings: Option<Vec<Vec<LonLat>>> = (area && shape.first().is_some_and(|w| w.len() >= 3))
            .then(|| {
                shape
                    .iter()
                    .enumerate()
                    .map(|(n, w)| ring(w, n == 0))
                    .collect()
            })
            .flatten();
        let (layer, g) = if let Some(rings) = rings {
            (AT_LAYERS[2], GeometryValue::new_polygon(rings))
        } else if shape.len() == 1 && shape[0].len() == 1 {
            (AT_LAYERS[0], GeometryValue::new_point(shape[0][0]))
        } else {
            (AT_LAYERS[1], GeometryValue::new_multi_line_string(shape))
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
