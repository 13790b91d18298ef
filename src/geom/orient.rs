//! GIS polygons wound as X-Plane winds them.
//!
//! A DSF polygon's outer ring runs counter-clockwise and its holes
//! clockwise; GeoJSON (RFC 7946, section 3.1.6) asks the same, but says
//! readers must not reject the reverse, and GIS tools write either. A GIS
//! polygon (first ring the outer one, the others holes) is therefore taken
//! in either orientation: a ring that runs the other way is reversed, and a
//! note says so. An outer ring that runs clockwise is also what coordinates
//! written lat,lon instead of lon,lat give (swapping the axes mirrors the
//! ring), so its note says where the polygon would lie were they swapped;
//! [`swapped_reading`] reads a position that is out of range the other
//! way round.

use super::LonLat;
use geo::{LineString, Winding};

/// When `lat` is no latitude (beyond ±90°) but `lon` could be one, the
/// position read the other way round: `lat 13.04, lon 147.8`. The sign of
/// numbers written in the wrong order (`147.8,13.04` for `LAT,LON`).
///
/// ```
/// use agkit::geom::orient::swapped_reading;
/// assert_eq!(swapped_reading(147.8, 13.04).as_deref(), Some("lat 13.04, lon 147.8"));
/// assert_eq!(swapped_reading(47.8, 13.04), None);
/// assert_eq!(swapped_reading(147.8, 113.0), None);
/// ```
pub fn swapped_reading(lat: f64, lon: f64) -> Option<String> {
    let fits = (-90.0..=90.0).contains(&lon) && (-180.0..=180.0).contains(&lat);
    (!(-90.0..=90.0).contains(&lat) && fits).then(|| lat_lon(lon, lat))
}

/// A position labelled for people: `lat 47.8, lon 13.04` (five decimals
/// at most, about a metre).
pub fn lat_lon(lat: f64, lon: f64) -> String {
    format!("lat {}, lon {}", deg(lat), deg(lon))
}

/// Rewinds `rings` (lon/lat, the first the outer ring, the rest holes;
/// closing vertices kept or not) so that the outer ring runs
/// counter-clockwise and the holes clockwise, and returns one note per ring
/// reversed. A reversed ring keeps its first side (between its first two
/// vertices, now run the other way), so that an AGB block keeps its front.
///
/// ```
/// let mut rings = vec![vec![[13.0, 47.5], [13.0, 47.6], [13.1, 47.6], [13.1, 47.5]]];
/// let notes = agkit::geom::orient::gis_rings(&mut rings);
/// assert_eq!(rings[0], [[13.0, 47.6], [13.0, 47.5], [13.1, 47.5], [13.1, 47.6]]);
/// assert!(notes[0].starts_with("the outer ring runs clockwise"), "{notes:?}");
/// assert!(notes[0].contains("lat 47.55, lon 13.05"), "{notes:?}");
/// assert!(notes[0].contains("lat 13.05, lon 47.55"), "{notes:?}");
/// ```
pub fn gis_rings(rings: &mut [Vec<LonLat>]) -> Vec<String> {
    let mut notes = Vec::new();
    for (i, ring) in rings.iter_mut().enumerate() {
        let line = closed(ring);
        let reverse = if i == 0 { line.is_cw() } else { line.is_ccw() };
        if !reverse {
            continue;
        }
        rewind(ring);
        notes.push(if i == 0 {
            let [lon, lat] = centre(ring);
            format!(
                "the outer ring runs clockwise: taken reversed, its first side kept (X-Plane \
                 and GeoJSON wind it counter-clockwise). GeoJSON is lon,lat: the polygon lies \
                 at {}; were its numbers lat,lon it would lie at {}",
                lat_lon(lat, lon),
                lat_lon(lon, lat)
            )
        } else {
            format!(
                "hole {i} runs counter-clockwise: taken reversed (X-Plane and GeoJSON wind \
                 holes clockwise)"
            )
        });
    }
    notes
}

/// `ring` as a closed line (`geo` tells the winding of closed lines only).
fn closed(ring: &[LonLat]) -> LineString<f64> {
    let mut line: LineString<f64> = ring.iter().map(|&[x, y]| (x, y)).collect();
    line.close();
    line
}

/// Reverses `ring` so that its first side stays the side between the same
/// two vertices: `a b c d (a)` becomes `b a d c (b)`.
fn rewind(ring: &mut Vec<LonLat>) {
    let closed = ring.len() > 1 && ring.first() == ring.last();
    if closed {
        ring.pop();
    }
    let n = ring.len();
    ring.reverse();
    if n >= 2 {
        ring.rotate_left(n - 2);
    }
    if closed && n > 0 {
        ring.push(ring[0]);
    }
}

/// The mean of a ring's distinct vertices (a closing vertex counted once).
fn centre(ring: &[LonLat]) -> LonLat {
    let open = match ring {
        [first, .., last] if first == last => &ring[..ring.len() - 1],
        _ => ring,
    };
    let n = open.len().max(1) as f64;
    let [x, y] = open
        .iter()
        .fold([0.0, 0.0], |[x, y], p| [x + p[0], y + p[1]]);
    [x / n, y / n]
}

/// Degrees to five decimals (about a metre), trailing zeros dropped.
fn deg(v: f64) -> String {
    let s = format!("{v:.5}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ccw_square() -> Vec<LonLat> {
        vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [0.0, 0.0]]
    }

    #[test]
    fn a_wound_polygon_is_left_alone() {
        let hole = vec![[0.2, 0.2], [0.2, 0.8], [0.8, 0.8], [0.8, 0.2], [0.2, 0.2]];
        let mut rings = vec![ccw_square(), hole.clone()];
        assert!(gis_rings(&mut rings).is_empty());
        assert_eq!(rings, [ccw_square(), hole]);
    }

    #[test]
    fn a_closed_ring_stays_closed_and_keeps_its_first_side() {
        let mut rings = vec![ccw_square().into_iter().rev().collect::<Vec<_>>()];
        // 0,0 0,1 1,1 1,0 0,0: first side (0,0)-(0,1).
        let notes = gis_rings(&mut rings);
        assert_eq!(notes.len(), 1);
        assert_eq!(
            rings[0],
            [[0.0, 1.0], [0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
        );
    }

    proptest! {
        /// Whatever the orientation of each ring, the outer ring ends
        /// counter-clockwise and the holes clockwise, with the same
        /// vertices, the same first side, and a note per ring reversed.
        #[test]
        fn every_ring_ends_wound_as_x_plane_winds_it(
            flips in proptest::collection::vec(any::<bool>(), 1..4),
            close in any::<bool>(),
        ) {
            let mut rings: Vec<Vec<LonLat>> = Vec::new();
            for (i, &flip) in flips.iter().enumerate() {
                let (lo, hi) = if i == 0 { (0.0, 10.0) } else { (i as f64, i as f64 + 0.5) };
                // Outer ring counter-clockwise, holes clockwise, then flipped.
                let mut r = vec![[lo, lo], [hi, lo], [hi, hi], [lo, hi]];
                if i > 0 {
                    r.reverse();
                }
                if flip {
                    r.reverse();
                }
                if close {
                    r.push(r[0]);
                }
                rings.push(r);
            }
            let before = rings.clone();
            let notes = gis_rings(&mut rings);
            prop_assert_eq!(notes.len(), flips.iter().filter(|&&f| f).count());
            for (i, (r, b)) in rings.iter().zip(&before).enumerate() {
                prop_assert_eq!(closed(r).is_ccw(), i == 0);
                prop_assert_eq!(r.len(), b.len());
                let side = |v: &[LonLat]| {
                    let (mut a, mut b) = (v[0], v[1]);
                    if a > b {
                        std::mem::swap(&mut a, &mut b);
                    }
                    (a, b)
                };
                prop_assert_eq!(side(r), side(b));
            }
        }
    }
}
