//! LOD13 cells: AGN file names ↔ QMID (u, v, level 15) ↔ latitude/longitude.
//!
//! A level-15 QMID grid has 24576 columns of 360/24576 = 0.0146484375° and
//! 16384 rows of 180/16384 = 0.010986328125°. Column `u` counts east from
//! 180° W, row `v` counts south from 90° N, so the cell's top-left corner is
//! `lon = u·0.0146484375 − 180`, `lat = 90 − v·0.010986328125`.
//!
//! The file name interleaves the bits of u and v as base-4 digits (digit =
//! u bit + 2·v bit, most significant first), 15 digits, then `an.agn`.
//!
//! A point belongs to the cell whose top-left corner is north-west of or on
//! it: the west and north edges are inside, the east and south edges are not.
//! Longitude wraps (180° is −180°); latitude −90° belongs to the last row.
//!
//! Cell coordinates: x grows east and y grows south in both frames used by
//! AGN records. Top-left-based coordinates run 0..1 across the cell (`PRDE`,
//! `PBDE`); centre-based ones run −0.5..0.5 (`GBLR`, `VGRE`, `VGRO`, `ROWH`,
//! `A2GE`), so centre-based = top-left-based − 0.5.

use std::fmt;

/// QMID level of an AGN cell (LOD13 + 2).
pub const LEVEL: u32 = 15;
/// Number of cell columns around the world.
pub const COLUMNS: u32 = 24576;
/// Number of cell rows pole to pole.
pub const ROWS: u32 = 16384;
/// Width of a cell in degrees of longitude (360/24576).
pub const WIDTH: f64 = 0.0146484375;
/// Height of a cell in degrees of latitude (180/16384).
pub const HEIGHT: f64 = 0.010986328125;

/// A LOD13 cell (QMID level 15 square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column, 0..24576, counting east from 180° W.
    pub u: u32,
    /// Row, 0..16384, counting south from 90° N.
    pub v: u32,
}

/// Why a name or position has no cell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CellError(pub String);

/// Geographic bounds of a cell, in degrees.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Bounds {
    /// Northern edge (latitude of the top-left corner).
    pub north: f64,
    /// Southern edge.
    pub south: f64,
    /// Western edge (longitude of the top-left corner).
    pub west: f64,
    /// Eastern edge.
    pub east: f64,
}

impl Cell {
    /// The cell at column `u`, row `v`.
    pub fn new(u: u32, v: u32) -> Result<Cell, CellError> {
        if u >= COLUMNS || v >= ROWS {
            return Err(CellError(format!(
                "u={u}, v={v} is outside the level-15 grid (u < {COLUMNS}, v < {ROWS})"
            )));
        }
        Ok(Cell { u, v })
    }

    /// Parses an AGN file name (`001332223121112an.agn`, any case; a leading
    /// directory is ignored).
    pub fn from_name(name: &str) -> Result<Cell, CellError> {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let bad = || {
            CellError(format!(
                "`{name}` is not an AGN cell name: expected 15 digits 0-3 followed by `an.agn`, e.g. 001332223121112an.agn"
            ))
        };
        if base.len() != 21 || !base.is_char_boundary(15) {
            return Err(bad());
        }
        let (digits, tail) = base.split_at(15);
        if !tail.eq_ignore_ascii_case("an.agn") {
            return Err(bad());
        }
        let (mut u, mut v) = (0u32, 0u32);
        for c in digits.bytes() {
            let d = match c {
                b'0'..=b'3' => (c - b'0') as u32,
                _ => return Err(bad()),
            };
            u = u << 1 | (d & 1);
            v = v << 1 | (d >> 1);
        }
        Cell::new(u, v).map_err(|e| CellError(format!("`{name}`: {e}")))
    }

    /// The AGN file name, e.g. `001332223121112an.agn`.
    pub fn name(&self) -> String {
        let mut s = String::with_capacity(21);
        for bit in (0..LEVEL).rev() {
            let d = (self.u >> bit & 1) + 2 * (self.v >> bit & 1);
            s.push(char::from(b'0' + d as u8));
        }
        s.push_str("an.agn");
        s
    }

    /// The cell containing a point (degrees). Longitude wraps; latitude must
    /// be within −90..=90.
    pub fn containing(lat: f64, lon: f64) -> Result<Cell, CellError> {
        if !lat.is_finite() || !lon.is_finite() {
            return Err(CellError(format!(
                "latitude {lat}, longitude {lon} is not a finite position"
            )));
        }
        if !(-90.0..=90.0).contains(&lat) {
            return Err(CellError(format!("latitude {lat} is outside -90..90")));
        }
        let lon = wrap_lon(lon);
        // Floor, then correct the division's rounding against exact edges
        // (edges are exact binary fractions).
        let mut u = (((lon + 180.0) / WIDTH).floor() as i64).clamp(0, COLUMNS as i64 - 1);
        while u > 0 && west_of(u) > lon {
            u -= 1;
        }
        while u < COLUMNS as i64 - 1 && west_of(u + 1) <= lon {
            u += 1;
        }
        let mut v = (((90.0 - lat) / HEIGHT).floor() as i64).clamp(0, ROWS as i64 - 1);
        while v > 0 && north_of(v) < lat {
            v -= 1;
        }
        while v < ROWS as i64 - 1 && north_of(v + 1) >= lat {
            v += 1;
        }
        Ok(Cell {
            u: u as u32,
            v: v as u32,
        })
    }

    /// The cell's edges in degrees.
    pub fn bounds(&self) -> Bounds {
        let west = west_of(self.u as i64);
        let north = north_of(self.v as i64);
        Bounds {
            north,
            south: north - HEIGHT,
            west,
            east: west + WIDTH,
        }
    }

    /// True when the point lies in the cell (west/north edges in, east/south
    /// edges out, as [`Cell::containing`] decides).
    pub fn contains(&self, lat: f64, lon: f64) -> bool {
        Cell::containing(lat, lon).is_ok_and(|c| c == *self)
    }

    /// Longitude/latitude of a top-left-based point (x east, y south, 0..1).
    pub fn top_left_to_lonlat(&self, x: f64, y: f64) -> [f64; 2] {
        let b = self.bounds();
        [b.west + x * WIDTH, b.north - y * HEIGHT]
    }

    /// Longitude/latitude of a centre-based point (−0.5..0.5).
    pub fn centre_to_lonlat(&self, x: f64, y: f64) -> [f64; 2] {
        self.top_left_to_lonlat(x + 0.5, y + 0.5)
    }

    /// The top-left-based f32 coordinates of a longitude/latitude: the f32
    /// pair whose image under [`Cell::top_left_to_lonlat`] is nearest to the
    /// point (so coordinates written by a dump come back exactly wherever the
    /// f32 → degrees map is one-to-one).
    pub fn lonlat_to_top_left(&self, lon: f64, lat: f64) -> [f32; 2] {
        let b = self.bounds();
        [
            nearest_f32((lon - b.west) / WIDTH, |x| b.west + x * WIDTH, lon),
            nearest_f32((b.north - lat) / HEIGHT, |y| b.north - y * HEIGHT, lat),
        ]
    }

    /// The centre-based f32 coordinates of a longitude/latitude (see
    /// [`Cell::lonlat_to_top_left`]).
    pub fn lonlat_to_centre(&self, lon: f64, lat: f64) -> [f32; 2] {
        let b = self.bounds();
        [
            nearest_f32(
                (lon - b.west) / WIDTH - 0.5,
                |x| b.west + (x + 0.5) * WIDTH,
                lon,
            ),
            nearest_f32(
                (b.north - lat) / HEIGHT - 0.5,
                |y| b.north - (y + 0.5) * HEIGHT,
                lat,
            ),
        ]
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

fn west_of(u: i64) -> f64 {
    u as f64 * WIDTH - 180.0
}

fn north_of(v: i64) -> f64 {
    90.0 - v as f64 * HEIGHT
}

/// Longitude reduced to −180 ≤ lon < 180.
fn wrap_lon(lon: f64) -> f64 {
    let w = (lon + 180.0).rem_euclid(360.0) - 180.0;
    if w >= 180.0 { w - 360.0 } else { w }
}

/// The f32 near `guess` whose image under `map` is closest to `target`.
fn nearest_f32(guess: f64, map: impl Fn(f64) -> f64, target: f64) -> f32 {
    let mut best = guess as f32;
    let mut best_err = (map(best as f64) - target).abs();
    let mut cand = best;
    for _ in 0..4 {
        cand = cand.next_down();
        let e = (map(cand as f64) - target).abs();
        if e < best_err {
            (best, best_err) = (cand, e);
        }
    }
    cand = guess as f32;
    for _ in 0..4 {
        cand = cand.next_up();
        let e = (map(cand as f64) - target).abs();
        if e < best_err {
            (best, best_err) = (cand, e);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_worked_example_both_ways() {
        let c = Cell::from_name("001332223121112an.agn").unwrap();
        assert_eq!(c, Cell { u: 7278, v: 4049 });
        assert_eq!(c.name(), "001332223121112an.agn");
        let b = c.bounds();
        assert!((b.west - -73.38).abs() < WIDTH, "{b:?}");
        assert!((b.north - 45.51).abs() < HEIGHT, "{b:?}");
        assert_eq!(b.west, 7278.0 * 0.0146484375 - 180.0);
        assert_eq!(b.north, 90.0 - 4049.0 * 0.010986328125);
        assert_eq!(Cell::containing(45.51, -73.38).unwrap(), c);
        assert_eq!(
            Cell::from_name("001332223121112AN.AGN").unwrap(),
            c,
            "names are case-insensitive"
        );
    }

    #[test]
    fn bad_names_are_refused() {
        for n in [
            "00133222312111an.agn",
            "001332223121114an.agn",
            "001332223121112an.bgl",
            "",
            "0013322231211é2an.agn",
            // v would be 16384+: top bit of v set in the first digit.
            "200000000000000an.agn",
            // u would be 24576.
            "110000000000000an.agn",
        ] {
            assert!(Cell::from_name(n).is_err(), "{n}");
        }
    }

    #[test]
    fn edges_and_poles() {
        assert_eq!(Cell::containing(90.0, -180.0).unwrap(), Cell { u: 0, v: 0 });
        assert_eq!(Cell::containing(-90.0, 0.0).unwrap().v, ROWS - 1);
        assert_eq!(Cell::containing(0.0, 180.0).unwrap().u, 0);
        assert_eq!(Cell::containing(0.0, 540.0).unwrap().u, 0);
        assert_eq!(Cell::containing(0.0, -180.0 - 1e-9).unwrap().u, COLUMNS - 1);
        // A point on a boundary belongs to the cell east / south of it.
        let c = Cell { u: 7278, v: 4049 };
        let b = c.bounds();
        assert_eq!(Cell::containing(b.north, b.west).unwrap(), c);
        assert_eq!(
            Cell::containing(b.south, b.west).unwrap(),
            Cell { u: 7278, v: 4050 }
        );
        assert_eq!(
            Cell::containing(b.north, b.east).unwrap(),
            Cell { u: 7279, v: 4049 }
        );
        assert!(Cell::containing(91.0, 0.0).is_err());
        assert!(Cell::containing(f64::NAN, 0.0).is_err());
    }

    #[test]
    fn inverse_is_exact_for_f32() {
        let c = Cell { u: 7278, v: 4049 };
        for x in [0.0f32, 1.0, 0.5, 0.123_456_79, 0.999_999_9, 1e-3] {
            let [lon, lat] = c.top_left_to_lonlat(x as f64, x as f64);
            assert_eq!(c.lonlat_to_top_left(lon, lat), [x, x]);
            let [lon, lat] = c.centre_to_lonlat(x as f64 - 0.5, -(x as f64) / 2.0);
            let back = c.lonlat_to_centre(lon, lat);
            assert_eq!(back[0], (x as f64 - 0.5) as f32);
        }
    }
}
