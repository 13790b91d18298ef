//! Exclusion zones: the `sim/exclude_*` properties of a DSF overlay.
//!
//! Each property removes one kind of content of lower-priority packages
//! inside an area: `sim/exclude_obj` objects (and autogen points, which sit
//! in the same definition table), `_fac` facades, `_for` forests, `_bch`
//! beaches, `_net` roads and other networks, `_lin` lines, `_pol` draped
//! polygons, `_str` object strings. The value is `west/south/east/north` in
//! degrees; newer WorldEditor versions may follow it with `;` and a polygon
//! as `lon/lat` pairs. An entity is removed when one of its vertices lies
//! inside the area (Laminar's description of the rule), never content of
//! the package that defines the zone.
//!
//! A `sim/filter/aptid` property before an exclusion scopes it to that
//! airport; agkit records the airport but does not evaluate it (it assumes
//! the pack's airport is the one in use).

use crate::dsf::Dsf;
use crate::geom::LonLat;

/// What an exclusion removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExclusionKind {
    /// `sim/exclude_obj`: objects and autogen points.
    Obj,
    /// `sim/exclude_fac`: facades.
    Fac,
    /// `sim/exclude_for`: forests.
    For,
    /// `sim/exclude_bch`: beaches.
    Bch,
    /// `sim/exclude_net`: networks (roads, railways, power lines).
    Net,
    /// `sim/exclude_lin`: painted lines.
    Lin,
    /// `sim/exclude_pol`: draped polygons.
    Pol,
    /// `sim/exclude_str`: object strings.
    Str,
}

impl ExclusionKind {
    /// Every kind, in property-name order.
    pub const ALL: [ExclusionKind; 8] = [
        ExclusionKind::Obj,
        ExclusionKind::Fac,
        ExclusionKind::For,
        ExclusionKind::Bch,
        ExclusionKind::Net,
        ExclusionKind::Lin,
        ExclusionKind::Pol,
        ExclusionKind::Str,
    ];

    /// The kind a property names (`sim/exclude_obj` …).
    pub fn from_property(name: &str) -> Option<ExclusionKind> {
        let suffix = name.strip_prefix("sim/exclude_")?;
        Self::ALL.into_iter().find(|k| k.suffix() == suffix)
    }

    /// `obj`, `fac`, …
    pub fn suffix(self) -> &'static str {
        match self {
            ExclusionKind::Obj => "obj",
            ExclusionKind::Fac => "fac",
            ExclusionKind::For => "for",
            ExclusionKind::Bch => "bch",
            ExclusionKind::Net => "net",
            ExclusionKind::Lin => "lin",
            ExclusionKind::Pol => "pol",
            ExclusionKind::Str => "str",
        }
    }

    /// Its place in [`ExclusionKind::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The property name.
    pub fn property(self) -> String {
        format!("sim/exclude_{}", self.suffix())
    }
}

/// One exclusion zone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Exclusion {
    /// What it removes.
    pub kind: ExclusionKind,
    /// West, south, east, north in degrees.
    pub bbox: [f64; 4],
    /// The polygon form's ring (lon, lat), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polygon: Option<Vec<LonLat>>,
    /// The airport of the `sim/filter/aptid` in force, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airport: Option<String>,
}

impl Exclusion {
    /// True when `p` lies inside the zone (edges included).
    pub fn contains(&self, p: LonLat) -> bool {
        let [w, s, e, n] = self.bbox;
        if !(p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n) {
            return false;
        }
        match &self.polygon {
            Some(ring) if ring.len() >= 3 => {
                use geo::{Contains, Coord, LineString, Polygon};
                let poly = Polygon::new(
                    LineString::from(
                        ring.iter()
                            .map(|q| Coord { x: q[0], y: q[1] })
                            .collect::<Vec<_>>(),
                    ),
                    vec![],
                );
                let c = Coord { x: p[0], y: p[1] };
                poly.contains(&c) || geo::Intersects::intersects(&poly.exterior().clone(), &c)
            }
            _ => true,
        }
    }

    /// True when any of `points` lies inside the zone.
    pub fn hits(&self, points: &[LonLat]) -> bool {
        points.iter().any(|p| self.contains(*p))
    }

    /// The property as written (`sim/exclude_obj w/s/e/n`).
    pub fn describe(&self) -> String {
        let [w, s, e, n] = self.bbox;
        format!("{} {w:.6}/{s:.6}/{e:.6}/{n:.6}", self.kind.property())
    }
}

/// Parses an exclusion property value: `w/s/e/n`, optionally followed by
/// `;` and `lon/lat` pairs separated by commas or blanks.
pub fn parse_value(value: &str) -> Result<([f64; 4], Option<Vec<LonLat>>), String> {
    let (bbox, poly) = match value.split_once(';') {
        Some((b, p)) => (b, Some(p)),
        None => (value, None),
    };
    let v: Vec<f64> = bbox
        .trim()
        .split('/')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{value}` is not west/south/east/north in degrees"))?;
    let [w, s, e, n] = v[..] else {
        return Err(format!("`{value}` is not west/south/east/north in degrees"));
    };
    if !(w.is_finite() && s.is_finite() && e.is_finite() && n.is_finite())
        || w > e
        || s > n
        || !(-180.0..=180.0).contains(&w)
        || !(-180.0..=180.0).contains(&e)
        || !(-90.0..=90.0).contains(&s)
        || !(-90.0..=90.0).contains(&n)
    {
        return Err(format!(
            "`{value}`: west/south/east/north out of range or reversed"
        ));
    }
    let polygon = match poly {
        None => None,
        Some(p) => {
            let pts: Option<Vec<LonLat>> = p
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|pair| {
                    let (a, b) = pair.split_once('/')?;
                    let (lon, lat) = (a.parse::<f64>().ok()?, b.parse::<f64>().ok()?);
                    (lon.is_finite() && lat.is_finite()).then_some([lon, lat])
                })
                .collect();
            match pts {
                Some(v) if v.len() >= 3 => Some(v),
                _ => {
                    return Err(format!(
                        "`{value}`: the polygon after `;` is not lon/lat pairs"
                    ));
                }
            }
        }
    };
    Ok(([w, s, e, n], polygon))
}

/// The exclusion zones of a DSF, in property order, and the properties
/// that could not be read.
pub fn exclusions(dsf: &Dsf) -> (Vec<Exclusion>, Vec<String>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut airport: Option<String> = None;
    for (name, value) in &dsf.properties {
        if name == "sim/filter/aptid" {
            airport = Some(value.trim().to_string());
            continue;
        }
        let Some(kind) = ExclusionKind::from_property(name) else {
            continue;
        };
        match parse_value(value) {
            Ok((bbox, polygon)) => out.push(Exclusion {
                kind,
                bbox,
                polygon,
                airport: airport.clone(),
            }),
            Err(e) => problems.push(format!("{name}: {e}")),
        }
    }
    (out, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bbox_and_polygon_forms() {
        let (b, p) = parse_value("8.670848/51.931424/8.671534/51.932189").unwrap();
        assert_eq!(b, [8.670848, 51.931424, 8.671534, 51.932189]);
        assert!(p.is_none());
        let (_, p) = parse_value("0/0/2/2;0/0,2/0,0/2").unwrap();
        assert_eq!(p.unwrap().len(), 3);
        for bad in [
            "",
            "1/2/3",
            "a/b/c/d",
            "3/0/1/1",
            "0/0/1/NaN",
            "0/0/1/91",
            "0/0/1/1;x",
        ] {
            assert!(parse_value(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn contains_by_box_then_polygon() {
        let x = Exclusion {
            kind: ExclusionKind::Obj,
            bbox: [0.0, 0.0, 2.0, 2.0],
            polygon: None,
            airport: None,
        };
        assert!(x.contains([2.0, 2.0]) && x.contains([1.0, 0.5]));
        assert!(!x.contains([2.1, 1.0]));
        let tri = Exclusion {
            polygon: Some(vec![[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]),
            ..x.clone()
        };
        assert!(tri.contains([0.5, 0.5]));
        assert!(
            !tri.contains([1.9, 1.9]),
            "inside the box, outside the triangle"
        );
        assert!(tri.hits(&[[5.0, 5.0], [0.1, 0.1]]));
        assert_eq!(
            ExclusionKind::from_property("sim/exclude_net"),
            Some(ExclusionKind::Net)
        );
        assert_eq!(ExclusionKind::from_property("sim/exclude_xyz"), None);
    }
}
