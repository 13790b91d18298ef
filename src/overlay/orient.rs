//! Winding order and contours for DSF autogen polygons.
//!
//! - [`oriented`]: outer ring counter-clockwise, holes clockwise (the
//!   `geo` crate's `Orient`), closing vertex dropped, first vertex kept;
//! - [`quad`]: the 4-point block an AGB needs, if the polygon is one;
//! - [`ags_contours`]: the windings and spawning count of an AGS polygon.
//!
//! # Sides made by a tile cut
//!
//! An AGS polygon's windings are contours; the parameter's low byte says how
//! many of the first contours spawn tiles. When a feature is cut at a tile
//! edge, the edges lying on the tile boundary are not real street sides and
//! must not spawn buildings. [`ags_contours`] therefore splits every ring
//! that has cut edges into runs: each run of original edges becomes an open
//! contour (its end vertices included, so consecutive contours share a
//! vertex as the AGS spec asks), and each run of cut edges becomes a
//! contour too, but all cut contours are written *after* all spawning
//! contours and are not counted in the low byte. A ring without cut edges
//! stays one closed winding (closing vertex implied, as in every DSF
//! polygon).
//!
//! # Order of the windings
//!
//! Spawning contours come in ring order (the outer ring's runs first, each
//! starting where a cut ends, then the holes), then the cut contours in the
//! same ring order. So contour 1 belongs to the outer ring whenever the
//! outer ring keeps at least one original side in the tile.
//!
//! When *every* side of the outer ring lies on the tile edge (the feature
//! covers the whole tile), the outer ring is one cut contour; the spec's
//! rule "tile-spawning contours are first" then puts the spawning holes
//! before it (the outer ring keeps its counter-clockwise circulation, holes
//! stay clockwise). A piece with no spawning contour at all places nothing
//! and is reported as skipped.

use super::tiles::{TileId, on_tile_edge};
use crate::geom::LonLat;
use geo::{Orient, Polygon, orient::Direction};

/// The rings of `poly` (outer first) as open lon/lat lists, outer ring
/// counter-clockwise and holes clockwise.
pub fn oriented(poly: &Polygon<f64>) -> Vec<Vec<LonLat>> {
    let o = poly.orient(Direction::Default);
    std::iter::once(o.exterior())
        .chain(o.interiors())
        .map(|r| open_ring(r.coords().map(|c| [c.x, c.y]).collect()))
        .collect()
}

/// Drops a repeated closing vertex and consecutive duplicates.
pub fn open_ring(mut pts: Vec<LonLat>) -> Vec<LonLat> {
    pts.dedup();
    if pts.len() > 1 && pts.first() == pts.last() {
        pts.pop();
    }
    pts
}

/// The four corners (counter-clockwise) when `rings` is one ring of exactly
/// four distinct vertices; the AGB's first edge is the ring's first edge.
pub fn quad(rings: &[Vec<LonLat>]) -> Option<[LonLat; 4]> {
    match rings {
        [outer] if outer.len() == 4 => Some([outer[0], outer[1], outer[2], outer[3]]),
        _ => None,
    }
}

/// The contours of an AGS polygon and the number of tile-spawning ones.
#[derive(Debug, Clone, PartialEq)]
pub struct Contours {
    /// Windings in DSF order: spawning contours first.
    pub windings: Vec<Vec<LonLat>>,
    /// How many of the first windings spawn tiles.
    pub spawning: usize,
}

/// Splits oriented `rings` into AGS contours; edges on `tile`'s boundary
/// count as cut edges when `clipped` is true (see the module docs).
pub fn ags_contours(rings: &[Vec<LonLat>], tile: TileId, clipped: bool) -> Contours {
    let mut spawning = Vec::new();
    let mut cut = Vec::new();
    for ring in rings {
        let n = ring.len();
        if n < 2 {
            continue;
        }
        let is_cut: Vec<bool> = (0..n)
            .map(|i| clipped && on_tile_edge(tile, ring[i], ring[(i + 1) % n]))
            .collect();
        if is_cut.iter().all(|&c| !c) {
            spawning.push(ring.clone());
            continue;
        }
        if is_cut.iter().all(|&c| c) {
            cut.push(ring.clone());
            continue;
        }
        // Start at the first edge whose kind differs from the edge before.
        let start = (0..n)
            .find(|&i| is_cut[i] != is_cut[(i + n - 1) % n])
            .unwrap_or(0);
        let mut i = 0;
        while i < n {
            let kind = is_cut[(start + i) % n];
            let mut run = vec![ring[(start + i) % n]];
            while i < n && is_cut[(start + i) % n] == kind {
                run.push(ring[(start + i + 1) % n]);
                i += 1;
            }
            if kind {
                cut.push(run);
            } else {
                spawning.push(run);
            }
        }
    }
    let count = spawning.len();
    spawning.extend(cut);
    Contours {
        windings: spawning,
        spawning: count,
    }
}

/// True when `ring` (open) is counter-clockwise (positive signed area in
/// lon/lat).
pub fn is_ccw(ring: &[LonLat]) -> bool {
    signed_area(ring) > 0.0
}

/// Signed shoelace area of an open ring, in square degrees.
pub fn signed_area(ring: &[LonLat]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use geo::polygon;

    #[test]
    fn outer_ccw_holes_cw() {
        let p = polygon!(
            exterior: [(x: 0.0, y: 0.0), (x: 0.0, y: 1.0), (x: 1.0, y: 1.0), (x: 1.0, y: 0.0)],
            interiors: [[(x: 0.2, y: 0.2), (x: 0.8, y: 0.2), (x: 0.8, y: 0.8), (x: 0.2, y: 0.8)]],
        );
        let r = oriented(&p);
        assert!(is_ccw(&r[0]));
        assert!(!is_ccw(&r[1]));
        assert_eq!(r[0][0], [0.0, 0.0], "first vertex kept");
        assert_eq!(r[0].len(), 4);
    }

    #[test]
    fn cut_sides_go_last_and_do_not_spawn() {
        let tile = TileId {
            south: 47,
            west: 12,
        };
        // The western half of a square cut at lon 13: the edge at x = 13 is
        // the cut.
        let ring = vec![[12.9, 47.1], [13.0, 47.1], [13.0, 47.2], [12.9, 47.2]];
        let c = ags_contours(std::slice::from_ref(&ring), tile, true);
        assert_eq!(c.spawning, 1);
        assert_eq!(c.windings.len(), 2);
        assert_eq!(
            c.windings[0],
            vec![[13.0, 47.2], [12.9, 47.2], [12.9, 47.1], [13.0, 47.1]]
        );
        assert_eq!(c.windings[1], vec![[13.0, 47.1], [13.0, 47.2]]);
        // Not clipped: one closed ring, spawning.
        let c = ags_contours(std::slice::from_ref(&ring), tile, false);
        assert_eq!((c.spawning, c.windings.len()), (1, 1));
    }
}
