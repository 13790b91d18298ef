//! A conflict report ([`crate::place::conflicts`]) for people and for GIS:
//! rustc-style text ([`text`], [`fix_notes`]), and layers in the common
//! schema of [`super::layers`] under the airports' own geometry
//! ([`super::airports`]), written as GeoJSON ([`write_geojson`]) or a
//! GeoPackage ([`write_gpkg`]), and as the Arrow table `conflicts`
//! (`conflicts_batch`, with the `arrow` feature).
//!
//! | Layer | Geometry | One row per |
//! |---|---|---|
//! | `cnf_items` | Point | item found on an airport feature (`CNF001`–`CNF004`, `CNF006`), at its deepest point |
//! | `cnf_fixes` | Polygon | the exclusion rectangle that removes that item (same `item_id`) |
//! | `cnf_missing` | Point | airport package that excludes nothing over its airport (`CNF005`), at the airport's centre |
//! | `cnf_doubles` | Polygon | two packages placing one kind over an airport (`CNF007`), a lower copy of an airport still placing there (`CNF008`): the rectangle the exclusion needs |
//! | `cnf_order` | Polygon | `scenery check`'s overlay below a base mesh (`SCN011`) on an airport's tile, as the tile |
//!
//! The GIS outputs hold these five layers and the four airport layers of
//! the airports looked at (`apt_runways`, `apt_pavement`,
//! `apt_boundaries`, `apt_lines`), so QGIS draws each finding over the
//! runway or pavement it stands on. `depth` is metres from the feature's
//! nearest edge; `src_line` the feature's (or the airport header's) line
//! in `apt_file`.

use super::OutError;
use super::layers::{ALL_LAYERS, FieldType, GeomType, Layer, Row, Shape, Value, deg, f, ring};
use crate::place::conflicts::fix::FixWritten;
use crate::place::conflicts::{ConflictReport, Double, Finding, MissingExclusion, OrderProblem};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use FieldType::{Integer as I, Real as R, Text as T};

/// Index of the items layer in [`ALL_LAYERS`].
pub const CNF_ITEMS: usize = super::airports::LAYER_RANGE.end;
/// Index of the fixes layer.
pub const CNF_FIXES: usize = CNF_ITEMS + 1;
/// Index of the missing-exclusions layer.
pub const CNF_MISSING: usize = CNF_ITEMS + 2;
/// Index of the doubles layer.
pub const CNF_DOUBLES: usize = CNF_ITEMS + 3;
/// Index of the pack-order layer.
pub const CNF_ORDER: usize = CNF_ITEMS + 4;
/// The conflict layers' range of [`ALL_LAYERS`].
pub const LAYER_RANGE: Range<usize> = CNF_ITEMS..CNF_ORDER + 1;
/// What a conflicts GeoPackage holds: the airport layers, then the
/// conflict layers (one range of [`ALL_LAYERS`]).
pub const GPKG_RANGE: Range<usize> = super::airports::LAYER_RANGE.start..CNF_ORDER + 1;

const ITEM_FIELDS: &[super::layers::Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("code", T),
    f("severity", T),
    f("package", T),
    f("dsf", T),
    f("kind", T),
    f("asset", T),
    f("def_index", I),
    f("entity", I),
    f("placed_by", T),
    f("feature", T),
    f("feat_name", T),
    f("apt_file", T),
    f("src_line", I),
    f("depth", R),
    f("lon", R),
    f("lat", R),
    f("fix_kind", T),
    f("fix_prop", T),
    f("advice", T),
];

const FIX_FIELDS: &[super::layers::Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("code", T),
    f("package", T),
    f("fix_kind", T),
    f("fix_prop", T),
];

const MISSING_FIELDS: &[super::layers::Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("code", T),
    f("severity", T),
    f("package", T),
    f("apt_file", T),
    f("src_line", I),
    f("items", I),
    f("packages", T),
    f("lon", R),
    f("lat", R),
];

const DOUBLE_FIELDS: &[super::layers::Field] = &[
    f("layer", T),
    f("item_id", T),
    f("airport", T),
    f("code", T),
    f("severity", T),
    f("package", T),
    f("lower", T),
    f("kinds", T),
    f("items", I),
    f("dsf", T),
    f("area_m2", R),
    f("apt_file", T),
    f("src_line", I),
    f("lower_apt", T),
    f("fix_prop", T),
    f("advice", T),
];

const ORDER_FIELDS: &[super::layers::Field] = &[
    f("layer", T),
    f("item_id", T),
    f("code", T),
    f("severity", T),
    f("package", T),
    f("dsf", T),
    f("dsf_tile", T),
    f("mesh", T),
    f("airports", T),
    f("apt_pack", I),
    f("advice", T),
];

/// The conflict layers, in the order outputs write them.
pub const CONFLICT_LAYERS: [Layer; 5] = [
    Layer {
        name: "cnf_items",
        geometry: GeomType::Point,
        fields: ITEM_FIELDS,
        about: "Items of other packages found on an airport's runways, helipads or pavement (CNF001-CNF004, CNF006), at their deepest point; depth in metres from the feature's nearest edge, src_line the feature's apt.dat line.",
    },
    Layer {
        name: "cnf_fixes",
        geometry: GeomType::Polygon,
        fields: FIX_FIELDS,
        about: "The exclusion rectangle (fix_prop, scoped to the airport) that removes each item of cnf_items (same item_id).",
    },
    Layer {
        name: "cnf_missing",
        geometry: GeomType::Point,
        fields: MISSING_FIELDS,
        about: "Airport packages that exclude nothing over their airport while lower packages place items there (CNF005), at the airport's centre; packages a JSON list.",
    },
    Layer {
        name: "cnf_doubles",
        geometry: GeomType::Polygon,
        fields: DOUBLE_FIELDS,
        about: "Two packages placing the same kind over one area of an airport (CNF007), or a lower package's copy of the airport still placing there (CNF008): the rectangle an exclusion of the lower package's items needs; area_m2 the overlap (CNF008: what the lower package covers), kinds and fix_prop JSON lists.",
    },
    Layer {
        name: "cnf_order",
        geometry: GeomType::Polygon,
        fields: ORDER_FIELDS,
        about: "scenery check's pack-order findings (SCN011: an overlay below a base mesh, which X-Plane does not load) on the tiles of the airports looked at, as the tile; airports a JSON list, apt_pack 1 when the overlay is an airport's own.",
    },
];

fn text_value(s: &str) -> Value {
    Value::Text(Cow::Owned(s.to_string()))
}

fn name(l: usize) -> Value {
    Value::Text(Cow::Borrowed(ALL_LAYERS[l].name))
}

fn int(n: Option<usize>) -> Value {
    n.and_then(|n| i64::try_from(n).ok())
        .map_or(Value::Null, Value::Int)
}

fn item_id(f: &Finding, k: usize) -> Value {
    text_value(&format!("{}/conflict/{k}", f.airport))
}

fn item_row(f: &Finding, k: usize) -> Row {
    let values = vec![
        name(CNF_ITEMS),
        item_id(f, k),
        text_value(&f.airport),
        Value::Text(Cow::Borrowed(f.code)),
        Value::Text(Cow::Borrowed(f.severity)),
        text_value(&f.package),
        text_value(&f.dsf),
        Value::Text(Cow::Borrowed(f.kind.as_str())),
        text_value(&f.definition),
        f.definition_index
            .map_or(Value::Null, |d| Value::Int(d.into())),
        int(f.entity),
        f.placed_by.as_deref().map_or(Value::Null, text_value),
        Value::Text(Cow::Borrowed(f.feature.as_str())),
        text_value(&f.feature_name),
        text_value(&f.apt_file),
        int(Some(f.apt_line)),
        Value::Real(f.depth_m),
        Value::Real(deg(f.at[0])),
        Value::Real(deg(f.at[1])),
        Value::Text(Cow::Borrowed(f.fix.exclusion.suffix())),
        text_value(&f.fix.property),
        text_value(&f.advice),
    ];
    Row {
        layer: CNF_ITEMS,
        shape: Shape::Point([deg(f.at[0]), deg(f.at[1])]),
        values,
    }
}

/// A `[west, south, east, north]` rectangle as a polygon.
fn rect(b: [f64; 4]) -> Shape {
    let [w, s, e, n] = b;
    let corners = [[w, s], [e, s], [e, n], [w, n]].map(|p| [deg(p[0]), deg(p[1])]);
    ring(&corners, true).map_or(Shape::None, |r| Shape::Polygon(vec![r]))
}

fn fix_row(f: &Finding, k: usize) -> Row {
    let shape = rect(f.fix.bbox);
    Row {
        layer: CNF_FIXES,
        shape,
        values: vec![
            name(CNF_FIXES),
            item_id(f, k),
            text_value(&f.airport),
            Value::Text(Cow::Borrowed(f.code)),
            text_value(&f.package),
            Value::Text(Cow::Borrowed(f.fix.exclusion.suffix())),
            text_value(&f.fix.property),
        ],
    }
}

fn missing_row(m: &MissingExclusion, k: usize) -> Row {
    let packages = serde_json::to_string(&m.packages).unwrap_or_default();
    Row {
        layer: CNF_MISSING,
        shape: Shape::Point([deg(m.at[0]), deg(m.at[1])]),
        values: vec![
            name(CNF_MISSING),
            text_value(&format!("{}/missing_exclusion/{k}", m.airport)),
            text_value(&m.airport),
            Value::Text(Cow::Borrowed(m.code)),
            Value::Text(Cow::Borrowed(m.severity)),
            text_value(&m.package),
            text_value(&m.apt_file),
            int(Some(m.apt_line)),
            int(Some(m.items)),
            Value::Text(Cow::Owned(packages)),
            Value::Real(deg(m.at[0])),
            Value::Real(deg(m.at[1])),
        ],
    }
}

fn double_row(d: &Double, k: usize) -> Row {
    let shape = rect(d.bbox);
    let kinds: Vec<&str> = d.kinds.iter().map(|k| k.as_str()).collect();
    Row {
        layer: CNF_DOUBLES,
        shape,
        values: vec![
            name(CNF_DOUBLES),
            text_value(&format!("{}/double/{k}", d.airport)),
            text_value(&d.airport),
            Value::Text(Cow::Borrowed(d.code)),
            Value::Text(Cow::Borrowed(d.severity)),
            text_value(&d.package),
            text_value(&d.lower),
            Value::Text(Cow::Owned(
                serde_json::to_string(&kinds).unwrap_or_default(),
            )),
            int(Some(d.items)),
            text_value(&d.dsf),
            Value::Real(super::layers::metres(d.area_m2)),
            text_value(&d.apt_file),
            int(Some(d.apt_line)),
            d.lower_apt_file.as_deref().map_or(Value::Null, text_value),
            Value::Text(Cow::Owned(
                serde_json::to_string(&d.fix).unwrap_or_default(),
            )),
            text_value(&d.advice),
        ],
    }
}

fn order_row(o: &OrderProblem, k: usize) -> Row {
    let (w, s) = (f64::from(o.tile.west), f64::from(o.tile.south));
    let shape = rect([w, s, w + 1.0, s + 1.0]);
    Row {
        layer: CNF_ORDER,
        shape,
        values: vec![
            name(CNF_ORDER),
            text_value(&format!("{}/order/{k}", o.tile)),
            Value::Text(Cow::Borrowed(o.code)),
            Value::Text(Cow::Borrowed(o.severity)),
            text_value(&o.package),
            text_value(&o.dsf),
            text_value(&o.tile.to_string()),
            text_value(&o.mesh),
            Value::Text(Cow::Owned(
                serde_json::to_string(&o.airports).unwrap_or_default(),
            )),
            Value::Int(i64::from(o.airport_package)),
            text_value(&o.message),
        ],
    }
}

/// The rows of the conflict layers only: per finding its `cnf_items` row
/// then its `cnf_fixes` row, then the `cnf_missing` rows.
pub fn each_conflict_row<E>(
    r: &ConflictReport,
    emit: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<(), E> {
    for (k, f) in r.findings.iter().enumerate() {
        emit(item_row(f, k))?;
        emit(fix_row(f, k))?;
    }
    for (k, m) in r.missing_exclusions.iter().enumerate() {
        emit(missing_row(m, k))?;
    }
    for (k, d) in r.doubles.iter().enumerate() {
        emit(double_row(d, k))?;
    }
    for (k, o) in r.order.iter().enumerate() {
        emit(order_row(o, k))?;
    }
    Ok(())
}

/// Every row a conflicts GIS output writes: the airport layers of the
/// airports looked at, each with its apt.dat, then [`each_conflict_row`].
pub fn each_row<E>(
    r: &ConflictReport,
    emit: &mut dyn FnMut(Row) -> Result<(), E>,
) -> Result<(), E> {
    for (a, info) in r.records.iter().zip(&r.airports) {
        super::airports::each_row(std::iter::once(a), &info.apt_file, emit)?;
    }
    each_conflict_row(r, emit)
}

/// The report as one GeoJSON FeatureCollection written to `w` (airport
/// geometry, then the findings: [`each_row`]), indented when `pretty`.
pub fn write_geojson(
    r: &ConflictReport,
    pretty: bool,
    w: &mut dyn std::io::Write,
) -> Result<(), OutError> {
    struct Collection<'a>(&'a ConflictReport);
    impl serde::Serialize for Collection<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{SerializeMap, SerializeSeq};
            struct Features<'a>(&'a ConflictReport);
            impl serde::Serialize for Features<'_> {
                fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                    let mut seq = s.serialize_seq(None)?;
                    each_row(self.0, &mut |row| {
                        seq.serialize_element(&super::geojson::RowFeature(&row))
                    })?;
                    seq.end()
                }
            }
            let mut m = s.serialize_map(Some(2))?;
            m.serialize_entry("type", "FeatureCollection")?;
            m.serialize_entry("features", &Features(self.0))?;
            m.end()
        }
    }
    if pretty {
        serde_json::to_writer_pretty(&mut *w, &Collection(r))?;
    } else {
        serde_json::to_writer(&mut *w, &Collection(r))?;
    }
    w.write_all(b"\n")?;
    Ok(())
}

/// The report as a GeoPackage of the airport and conflict layers
/// ([`GPKG_RANGE`], every table present even when empty), written to `w`
/// (built in a scratch folder, then copied).
pub fn write_gpkg(r: &ConflictReport, w: &mut dyn std::io::Write) -> Result<(), OutError> {
    let dir = crate::fsutil::ScratchDir::new()?;
    let path = dir.path().join("out.gpkg");
    let mut g = super::gpkg::GpkgWriter::create_layers(&path, GPKG_RANGE)?;
    each_row(r, &mut |row| g.add(&row))?;
    g.finish()?;
    std::io::copy(&mut std::fs::File::open(&path)?, w)?;
    Ok(())
}

/// The findings of a report as one Arrow batch, the table `conflicts`:
/// the `cnf_items` layer's fields, in order, and `geometry` (the deepest
/// point), one row per finding, as the GeoPackage's `cnf_items` table
/// (with the `arrow` feature).
#[cfg(feature = "arrow")]
pub fn conflicts_batch(r: &ConflictReport) -> arrow_array::RecordBatch {
    let rows = r.findings.iter().enumerate().map(|(k, f)| item_row(f, k));
    super::arrow::rows_layer_batch(CNF_ITEMS, rows)
}

/// The findings as a compiler prints them, with a summary line.
pub fn text(r: &ConflictReport) -> String {
    let mut s = String::new();
    for f in &r.findings {
        let _ = writeln!(
            s,
            "{}[{}]: {} of `{}` stands {:.1} m into {} {} of {}",
            f.severity,
            f.code,
            f.kind.as_str().replace('_', " "),
            f.package,
            f.depth_m,
            f.feature.as_str(),
            f.feature_name,
            f.airport
        );
        let def = match (f.definition_index, f.entity) {
            (Some(d), Some(e)) => format!("entity {e}, definition {d}"),
            _ => "definition".to_string(),
        };
        let _ = writeln!(s, "  --> {}/{}: {def} `{}`", f.package, f.dsf, f.definition);
        if let Some(p) = &f.placed_by {
            let _ = writeln!(s, "   = placed by the autogen use `{p}`");
        }
        let _ = writeln!(
            s,
            "   = {} {} is at {}:{} ({:.6}, {:.6})",
            f.feature.as_str(),
            f.feature_name,
            f.apt_file,
            f.apt_line,
            f.at[1],
            f.at[0]
        );
        let _ = writeln!(s, "   = fix: {}\n", f.advice);
    }
    for m in &r.missing_exclusions {
        let _ = writeln!(
            s,
            "{}[{}]: `{}` defines {} but excludes nothing over it, while {} {} {} there",
            m.severity,
            m.code,
            m.package,
            m.airport,
            m.packages
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if m.packages.len() == 1 {
                "places"
            } else {
                "place"
            },
            super::count(m.items, "item")
        );
        let _ = writeln!(s, "  --> {}:{}", m.apt_file, m.apt_line);
        let _ = writeln!(
            s,
            "   = fix: draw exclusion zones over the airport in `{}` (WorldEditor's exclusion tool), or use --fix\n",
            m.package
        );
    }
    for d in &r.doubles {
        double_text(&mut s, d);
    }
    for o in &r.order {
        let _ = writeln!(s, "{}[{}]: {}", o.severity, o.code, o.message);
        let _ = writeln!(s, "  --> {}/{}", o.package, o.dsf);
        let _ = writeln!(
            s,
            "   = on the tile of {}{}\n",
            o.airports.join(", "),
            if o.airport_package {
                ": a base mesh above an airport package hides the airport's own overlay"
            } else {
                ""
            }
        );
    }
    let errors = r.findings.iter().filter(|f| f.severity == "error").count();
    let on = if r.findings.len() == 1 {
        "a feature"
    } else {
        "features"
    };
    let _ = writeln!(
        s,
        "{} looked at: {} on {on}, {}, {}, {} ({} errors), {} already excluded",
        super::count(r.airports.len(), "airport"),
        super::count(r.findings.len(), "item"),
        super::count(r.missing_exclusions.len(), "missing exclusion"),
        super::count(r.doubles.len(), "double"),
        super::count(r.order.len(), "order problem"),
        errors,
        r.excluded.len()
    );
    s
}

fn kinds_text(kinds: &[crate::place::at::ItemKind]) -> String {
    kinds
        .iter()
        .map(|k| format!("{}s", k.as_str().replace('_', " ")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One double (`CNF007`, `CNF008`) as a compiler prints it.
fn double_text(s: &mut String, d: &Double) {
    let area = format!(
        "{} m²",
        crate::ground::words::thousands(d.area_m2.round() as usize)
    );
    if d.lower_apt_file.is_some() {
        let _ = writeln!(
            s,
            "{}[{}]: {} is defined by `{}` and by `{}`; X-Plane takes it from `{}`, but `{}`'s DSF \
             still places {} there ({}, over {area})",
            d.severity,
            d.code,
            d.airport,
            d.package,
            d.lower,
            d.package,
            d.lower,
            super::count(d.items, "item"),
            kinds_text(&d.kinds)
        );
    } else {
        let _ = writeln!(
            s,
            "{}[{}]: {} of `{}` and of `{}` overlap over {area} of {}",
            d.severity,
            d.code,
            kinds_text(&d.kinds),
            d.package,
            d.lower,
            d.airport
        );
    }
    let _ = writeln!(
        s,
        "  --> {}/{}: {} of `{}`",
        d.lower,
        d.dsf,
        super::count(d.items, "item"),
        d.lower
    );
    let _ = writeln!(s, "   = {} is at {}:{}", d.airport, d.apt_file, d.apt_line);
    if let Some(l) = &d.lower_apt_file {
        let _ = writeln!(s, "   = `{}` defines it again in {l}", d.lower);
    }
    let _ = writeln!(s, "   = fix: {}\n", d.advice);
}

/// What a written fix ([`crate::place::conflicts::fix::write_fix`]) tells
/// the user: what was written and the `scenery_packs.ini` line.
pub fn fix_notes(w: &FixWritten) -> String {
    let mut s = String::new();
    if w.dsfs.is_empty() {
        let _ = writeln!(s, "nothing to exclude: {} not written", w.dir.display());
        return s;
    }
    let _ = writeln!(
        s,
        "wrote {} with {} in {} (read back and checked)",
        w.dir.display(),
        super::count(w.exclusions, "exclusion"),
        super::count(w.dsfs.len(), "DSF")
    );
    if !w.in_custom_scenery {
        let _ = writeln!(s, "move it into Custom Scenery, then:");
    }
    match &w.above {
        Some(p) => {
            let _ = writeln!(
                s,
                "add to scenery_packs.ini, above the line of `{p}`:\n  {}",
                w.line
            );
        }
        None => {
            let _ = writeln!(s, "add to scenery_packs.ini:\n  {}", w.line);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_conflict_layer_names_itself_and_has_its_fields() {
        for (k, l) in CONFLICT_LAYERS.iter().enumerate() {
            assert_eq!(ALL_LAYERS[CNF_ITEMS + k], *l);
            assert!(l.fields.iter().all(|f| f.name.len() <= 10), "{}", l.name);
        }
        let e: Vec<Row> = {
            let mut v = Vec::new();
            each_row(&ConflictReport::default(), &mut |r| {
                v.push(r);
                Ok::<(), ()>(())
            })
            .unwrap();
            v
        };
        assert!(e.is_empty());
    }
}
