//! The test polygons the previewer offers, and reading a polygon from a
//! GeoJSON file.
//!
//! Bundled polygons are in local metres (x east, y north) around
//! [`ORIGIN`]; outer rings run counter-clockwise and holes clockwise, as a
//! DSF stores them. Sizes are those of typical autogen: blocks of 60–200 m.

use crate::geom::{LocalFrame, LonLat, Xy};
use serde::Serialize;

/// The origin (lon, lat) of the bundled polygons' local frame.
pub const ORIGIN: LonLat = [13.0, 47.5];

/// A polygon the page can choose.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestPolygon {
    /// Stable name used in URLs (`square`, `lake`, …).
    pub name: &'static str,
    /// What it is for.
    pub label: &'static str,
    /// Origin of the local frame (lon, lat).
    pub origin: LonLat,
    /// Windings in local metres, not closed.
    pub windings: Vec<Vec<Xy>>,
    /// The kinds of asset the polygon takes ([`takes`]): the page switches
    /// to one that takes the asset picked.
    pub takes: Vec<&'static str>,
}

/// The asset kinds the previewer can place, with what each needs of a
/// polygon, in the words the page shows when no polygon takes an asset.
pub const NEEDS: [(&str, &str); 3] = [
    (
        "agp",
        "a point: it is placed at the polygon's first vertex, whatever the polygon",
    ),
    (
        "agb",
        "one counter-clockwise winding of 4 points, without holes, that does not cross itself",
    ),
    (
        "ags",
        "closed rings of 3 or more points: one counter-clockwise outer ring, any holes clockwise \
         inside it",
    ),
];

/// The kinds of asset (`agp`, `agb`, `ags`, as [`NEEDS`] lists them) that
/// can be placed on `windings` (local metres, not closed): an AGP on any
/// (it is placed at a point), an AGB or an AGS when its engine's own check
/// of the polygon passes ([`crate::place::block::check_polygon`],
/// [`crate::place::string::check_polygon`]), so the page and the engines
/// never disagree on what fits.
pub fn takes(windings: &[Vec<Xy>]) -> Vec<&'static str> {
    let fits = |kind: &str| match kind {
        "agb" => crate::place::block::check_polygon(windings).is_ok(),
        "ags" => crate::place::string::check_polygon(windings).is_ok(),
        _ => true,
    };
    NEEDS
        .iter()
        .map(|&(kind, _)| kind)
        .filter(|k| fits(k))
        .collect()
}

/// Every bundled polygon, in menu order.
pub fn bundled() -> Vec<TestPolygon> {
    let p = |name, label, windings: Vec<Vec<Xy>>| TestPolygon {
        name,
        label,
        origin: ORIGIN,
        takes: takes(&windings),
        windings,
    };
    vec![
        p(
            "square",
            "Square block 120 m",
            vec![vec![[0.0, 0.0], [120.0, 0.0], [120.0, 120.0], [0.0, 120.0]]],
        ),
        p(
            "trapezoid",
            "Trapezoid 160 × 90 m",
            vec![vec![[0.0, 0.0], [160.0, 0.0], [130.0, 90.0], [20.0, 90.0]]],
        ),
        p(
            "rectangle",
            "Long block 200 × 60 m",
            vec![vec![[0.0, 0.0], [200.0, 0.0], [200.0, 60.0], [0.0, 60.0]]],
        ),
        p(
            "l-shape",
            "L-shape 140 m",
            vec![vec![
                [0.0, 0.0],
                [140.0, 0.0],
                [140.0, 60.0],
                [60.0, 60.0],
                [60.0, 140.0],
                [0.0, 140.0],
            ]],
        ),
        p("lake", "Lake with an island (hole)", lake()),
        p(
            "shoreline",
            "Curved shoreline, 5 m segments",
            vec![shoreline()],
        ),
        p(
            "reflex",
            "Tight reflex corner",
            vec![vec![
                [0.0, 0.0],
                [160.0, 0.0],
                [160.0, 120.0],
                [90.0, 120.0],
                [80.0, 30.0],
                [70.0, 120.0],
                [0.0, 120.0],
            ]],
        ),
    ]
}

/// The bundled polygon called `name`.
pub fn by_name(name: &str) -> Option<TestPolygon> {
    bundled().into_iter().find(|p| p.name == name)
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn ellipse(cx: f64, cy: f64, rx: f64, ry: f64, n: usize, wobble: f64, ccw: bool) -> Vec<Xy> {
    (0..n)
        .map(|i| {
            let k = if ccw { i } else { n - i };
            let a = std::f64::consts::TAU * k as f64 / n as f64;
            let r = 1.0 + wobble * (3.0 * a).sin();
            [round(cx + rx * r * a.cos()), round(cy + ry * r * a.sin())]
        })
        .collect()
}

fn lake() -> Vec<Vec<Xy>> {
    vec![
        ellipse(0.0, 0.0, 160.0, 100.0, 28, 0.12, true),
        ellipse(25.0, 10.0, 40.0, 25.0, 10, 0.0, false),
    ]
}

fn shoreline() -> Vec<Xy> {
    // A wavy 600 m shore of 5 m segments (water to the north), closed by a
    // straight back edge 80 m south.
    let mut v: Vec<Xy> = vec![[600.0, -80.0], [600.0, 0.0]];
    let mut x: f64 = 600.0;
    while x > 0.0 {
        x -= 5.0;
        let y = 18.0 * (x / 45.0).sin() + 6.0 * (x / 11.0).sin();
        v.push([round(x.max(0.0)), round(y)]);
    }
    v.push([0.0, -80.0]);
    // Up the east end, west along the shore, down, and back east along the
    // bottom edge: counter-clockwise.
    v
}

/// A polygon read from a GeoJSON file: lon/lat windings of its first
/// Polygon (or the first polygon of a MultiPolygon), closing vertex dropped.
pub fn from_geojson(text: &str) -> Result<Vec<Vec<LonLat>>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let rings = find_polygon(&v, 0).ok_or("no Polygon or MultiPolygon geometry found")?;
    let mut windings = Vec::new();
    for ring in rings
        .as_array()
        .ok_or("polygon coordinates are not an array")?
    {
        let mut w = Vec::new();
        for pt in ring.as_array().ok_or("a ring is not an array")? {
            let pair = pt.as_array().ok_or("a position is not an array")?;
            let lon = pair.first().and_then(|x| x.as_f64());
            let lat = pair.get(1).and_then(|x| x.as_f64());
            match (lon, lat) {
                (Some(lon), Some(lat))
                    if (-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat) =>
                {
                    w.push([lon, lat])
                }
                _ => return Err("a position is not [lon, lat] in degrees".into()),
            }
        }
        if w.len() > 1 && w.first() == w.last() {
            w.pop();
        }
        if w.len() < 3 {
            return Err("a ring has fewer than 3 vertices".into());
        }
        windings.push(w);
    }
    if windings.is_empty() {
        return Err("the polygon has no rings".into());
    }
    Ok(windings)
}

fn find_polygon(v: &serde_json::Value, depth: usize) -> Option<&serde_json::Value> {
    if depth > 8 {
        return None;
    }
    match v.get("type")?.as_str()? {
        "Polygon" => v.get("coordinates"),
        "MultiPolygon" => v.get("coordinates")?.as_array()?.first(),
        "Feature" => find_polygon(v.get("geometry")?, depth + 1),
        "FeatureCollection" => v
            .get("features")?
            .as_array()?
            .iter()
            .find_map(|f| find_polygon(f, depth + 1)),
        "GeometryCollection" => v
            .get("geometries")?
            .as_array()?
            .iter()
            .find_map(|g| find_polygon(g, depth + 1)),
        _ => None,
    }
}

/// A lon/lat polygon expressed in a local frame at its first vertex.
pub fn localize(windings: &[Vec<LonLat>]) -> (LonLat, Vec<Vec<Xy>>) {
    let origin = windings
        .first()
        .and_then(|w| w.first())
        .copied()
        .unwrap_or(ORIGIN);
    let frame = LocalFrame::new(origin);
    let local = windings
        .iter()
        .map(|w| {
            w.iter()
                .map(|&p| {
                    let [x, y] = frame.to_local(p);
                    [(x * 1000.0).round() / 1000.0, (y * 1000.0).round() / 1000.0]
                })
                .collect()
        })
        .collect();
    (origin, local)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed_area(w: &[Xy]) -> f64 {
        let n = w.len();
        (0..n)
            .map(|i| {
                let (a, b) = (w[i], w[(i + 1) % n]);
                a[0] * b[1] - b[0] * a[1]
            })
            .sum::<f64>()
            / 2.0
    }

    #[test]
    fn outer_rings_ccw_holes_cw_and_sizes_sane() {
        for p in bundled() {
            for (i, w) in p.windings.iter().enumerate() {
                let a = signed_area(w);
                if i == 0 {
                    assert!(a > 0.0, "{} outer ring is not CCW", p.name);
                } else {
                    assert!(a < 0.0, "{} hole is not CW", p.name);
                }
                for q in w {
                    assert!(q[0].abs() <= 650.0 && q[1].abs() <= 650.0, "{}", p.name);
                }
            }
        }
        let shore = by_name("shoreline").unwrap();
        assert!(shore.windings[0].len() > 100);
    }

    #[test]
    fn each_polygon_takes_what_its_engine_places_on_it() {
        let takes = |name: &str| by_name(name).unwrap().takes;
        for four in ["square", "trapezoid", "rectangle"] {
            assert_eq!(takes(four), ["agp", "agb", "ags"], "{four}");
        }
        // The lake has a hole, the others more than four points: no AGB.
        for other in ["l-shape", "lake", "shoreline", "reflex"] {
            assert_eq!(takes(other), ["agp", "ags"], "{other}");
        }
        // The engine's own word on the lake is what the page is spared.
        let lake = by_name("lake").unwrap();
        let e = crate::place::block::check_polygon(&lake.windings).unwrap_err();
        assert!(e.to_string().contains("got 2 windings"), "{e}");
        // A clockwise square is taken by neither polygon engine.
        let cw = vec![vec![[0.0, 0.0], [0.0, 10.0], [10.0, 10.0], [10.0, 0.0]]];
        assert_eq!(super::takes(&cw), ["agp"]);
        assert_eq!(super::takes(&[]), ["agp"]);
        assert!(
            NEEDS
                .iter()
                .all(|(k, needs)| !k.is_empty() && !needs.is_empty())
        );
    }

    #[test]
    fn geojson_feature_collection() {
        let text = r#"{"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
            {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[
              [[13.0,47.5],[13.001,47.5],[13.001,47.501],[13.0,47.5]]]}}]}"#;
        let w = from_geojson(text).unwrap();
        assert_eq!(
            w,
            vec![vec![[13.0, 47.5], [13.001, 47.5], [13.001, 47.501]]]
        );
        let (origin, local) = localize(&w);
        assert_eq!(origin, [13.0, 47.5]);
        assert!((local[0][1][0] - 75.3).abs() < 1.0, "{local:?}");
        assert!(from_geojson("{}").is_err());
        assert!(from_geojson("nope").is_err());
        assert!(
            from_geojson(r#"{"type":"Polygon","coordinates":[[[500,1],[1,1],[2,2]]]}"#).is_err()
        );
    }
}
