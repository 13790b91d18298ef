//! `LAT,LON[,HEADING]` on the command line: latitude first everywhere,
//! numbers out of range read the other way round in the message.

use agkit::geom::orient::swapped_reading;

/// A position (and heading) from the command line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Degrees north.
    pub lat: f64,
    /// Degrees east.
    pub lon: f64,
    /// Degrees clockwise from true north, when given.
    pub heading: Option<f64>,
}

/// Reads `s` as `LAT,LON` (and `,HEADING` when `heading`); `what` names
/// the argument in messages (`--at 47.8,13.04`). A latitude beyond ±90°
/// whose longitude could be one says how the numbers read the other way.
pub fn parse(s: &str, what: &str, heading: bool) -> Result<Point, String> {
    let form = if heading {
        "LAT,LON[,HEADING]"
    } else {
        "LAT,LON"
    };
    let bad = || format!("{what} {s}: expected {form} in degrees, latitude first");
    let v: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    let p = match v[..] {
        [lat, lon] => Point {
            lat,
            lon,
            heading: None,
        },
        [lat, lon, h] if heading => Point {
            lat,
            lon,
            heading: Some(h),
        },
        _ => return Err(bad()),
    };
    if !(p.lat.is_finite() && p.lon.is_finite() && p.heading.is_none_or(f64::is_finite)) {
        return Err(bad());
    }
    if !(-90.0..=90.0).contains(&p.lat) {
        let hint = match swapped_reading(p.lat, p.lon) {
            Some(r) => format!("; latitude comes first: {r} is {}", swapped(s)),
            None => String::new(),
        };
        return Err(format!(
            "{what} {s}: latitude {} is outside -90..90{hint}",
            p.lat
        ));
    }
    if !(-180.0..=180.0).contains(&p.lon) {
        return Err(format!(
            "{what} {s}: longitude {} is outside -180..180",
            p.lon
        ));
    }
    Ok(p)
}

/// `s` with its first two numbers exchanged.
fn swapped(s: &str) -> String {
    let mut parts: Vec<&str> = s.split(',').map(str::trim).collect();
    parts.swap(0, 1);
    parts.join(",")
}
