//! 1°×1° DSF tiles: naming, which tiles a shape touches, and clipping a
//! polygon to a tile (with the `geo` crate's boolean operations).

use crate::geom::LonLat;
use geo::{BooleanOps, BoundingRect, Coord, LineString, Polygon, Rect};
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;

/// A 1°×1° tile named by its south-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct TileId {
    /// Southern edge, degrees (−90..=89).
    pub south: i32,
    /// Western edge, degrees (−180..=179).
    pub west: i32,
}

impl TileId {
    /// The tile holding a point. Points on a tile's west or south edge
    /// belong to it; lon 180 and lat 90 fall in the last tile.
    pub fn containing(p: LonLat) -> TileId {
        TileId {
            west: (p[0].floor() as i32).clamp(-180, 179),
            south: (p[1].floor() as i32).clamp(-90, 89),
        }
    }

    /// The DSF file name, e.g. `+47+013.dsf`.
    pub fn file_name(&self) -> String {
        format!("{self}.dsf")
    }

    /// The 10° folder name, e.g. `+40+010`.
    pub fn folder_name(&self) -> String {
        format!(
            "{:+03}{:+04}",
            self.south.div_euclid(10) * 10,
            self.west.div_euclid(10) * 10
        )
    }

    /// The path inside a scenery package:
    /// `Earth nav data/+40+010/+47+013.dsf`.
    pub fn relative_path(&self) -> PathBuf {
        PathBuf::from("Earth nav data")
            .join(self.folder_name())
            .join(self.file_name())
    }

    /// The tile's rectangle in degrees.
    pub fn rect(&self) -> Rect<f64> {
        Rect::new(
            Coord {
                x: f64::from(self.west),
                y: f64::from(self.south),
            },
            Coord {
                x: f64::from(self.west + 1),
                y: f64::from(self.south + 1),
            },
        )
    }

    /// True when `p` lies on the tile (edges included).
    pub fn covers(&self, p: LonLat) -> bool {
        let (w, s) = (f64::from(self.west), f64::from(self.south));
        (w..=w + 1.0).contains(&p[0]) && (s..=s + 1.0).contains(&p[1])
    }

    /// The DSF bounds properties (`sim/west`, `sim/south`, `sim/east`,
    /// `sim/north`), in that order.
    pub fn bounds_properties(&self) -> Vec<(String, String)> {
        vec![
            ("sim/west".into(), self.west.to_string()),
            ("sim/south".into(), self.south.to_string()),
            ("sim/east".into(), (self.west + 1).to_string()),
            ("sim/north".into(), (self.south + 1).to_string()),
        ]
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+03}{:+04}", self.south, self.west)
    }
}

/// Every tile a polygon's bounding box touches, south-west first. A box
/// ending exactly on a tile edge does not touch the next tile.
pub fn tiles_touched(poly: &Polygon<f64>) -> Vec<TileId> {
    let Some(b) = poly.bounding_rect() else {
        return Vec::new();
    };
    let lo = TileId::containing([b.min().x, b.min().y]);
    let mut hi = TileId::containing([b.max().x, b.max().y]);
    if f64::from(hi.west) == b.max().x && hi.west > lo.west {
        hi.west -= 1;
    }
    if f64::from(hi.south) == b.max().y && hi.south > lo.south {
        hi.south -= 1;
    }
    let mut out = Vec::new();
    for south in lo.south..=hi.south {
        for west in lo.west..=hi.west {
            out.push(TileId { south, west });
        }
    }
    out
}

/// Tolerance (degrees) within which a clipped vertex is snapped onto the
/// tile edge it was cut at. It is twice the largest rounding the DSF writer
/// gives an overlay's polygon points (4.8e-7°): a sliver thinner than that
/// along a tile edge would become, once written, a ring lying on the edge
/// (found by `holed_pieces_keep_a_valid_winding_order`: a hole ending
/// 1.8e-7° short of a degree line), so it is snapped flat and dropped.
pub const EDGE_SNAP: f64 = 1e-6;

/// One piece of a polygon inside one tile.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The piece.
    pub polygon: Polygon<f64>,
    /// True when the piece was cut from a larger polygon (some of its edges
    /// lie on the tile boundary and were made by the cut).
    pub clipped: bool,
}

/// The parts of `poly` inside `tile`.
///
/// A polygon wholly inside the tile comes back unchanged (same vertices,
/// same order). Otherwise it is intersected with the tile's square
/// (`geo::BooleanOps`, which rounds coordinates to a fixed grid): vertices
/// within [`EDGE_SNAP`] of an input vertex get that vertex's exact
/// coordinates back, vertices (input ones too) within [`EDGE_SNAP`] of the
/// tile edge are snapped onto it so cut edges lie exactly on the integer
/// degree lines, and slivers and holes without area are dropped.
pub fn clip_to_tile(poly: &Polygon<f64>, tile: TileId) -> Vec<Piece> {
    let inside = poly.exterior().coords().all(|c| tile.covers([c.x, c.y]));
    if inside {
        return vec![Piece {
            polygon: poly.clone(),
            clipped: false,
        }];
    }
    let square = tile.rect().to_polygon();
    let result = poly.intersection(&square);
    let key = |c: Coord<f64>| {
        (
            (c.x / EDGE_SNAP).round() as i64,
            (c.y / EDGE_SNAP).round() as i64,
        )
    };
    let mut originals: HashMap<(i64, i64), Coord<f64>> = HashMap::new();
    for l in std::iter::once(poly.exterior()).chain(poly.interiors()) {
        for &c in l.coords() {
            originals.insert(key(c), c);
        }
    }
    let edges: Vec<(Coord<f64>, Coord<f64>)> = std::iter::once(poly.exterior())
        .chain(poly.interiors())
        .flat_map(|l| l.lines().map(|ln| (ln.start, ln.end)))
        .collect();
    let snap = |c: Coord<f64>| -> Coord<f64> {
        let (kx, ky) = key(c);
        let original = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (kx + dx, ky + dy)))
            .filter_map(|k| originals.get(&k))
            .find(|o| (o.x - c.x).abs() <= EDGE_SNAP && (o.y - c.y).abs() <= EDGE_SNAP);
        // An input vertex keeps its exact coordinates, unless it lies within
        // the snap of the tile edge: then it goes onto the edge below.
        let mut c = original.copied().unwrap_or(c);
        for e in [f64::from(tile.west), f64::from(tile.west + 1)] {
            if (c.x - e).abs() < EDGE_SNAP {
                c.x = e;
                if let Some(y) = crossing(&edges, e, c.y, |p| (p.x, p.y)) {
                    c.y = y;
                }
            }
        }
        for e in [f64::from(tile.south), f64::from(tile.south + 1)] {
            if (c.y - e).abs() < EDGE_SNAP {
                c.y = e;
                if c.x != f64::from(tile.west)
                    && c.x != f64::from(tile.west + 1)
                    && let Some(x) = crossing(&edges, e, c.x, |p| (p.y, p.x))
                {
                    c.x = x;
                }
            }
        }
        c
    };
    let ring = |l: &LineString<f64>| -> LineString<f64> {
        let mut pts: Vec<Coord<f64>> = Vec::new();
        for &c in l.coords() {
            let c = snap(c);
            if pts.last() != Some(&c) {
                pts.push(c);
            }
        }
        let mut l = LineString::new(pts);
        l.close();
        l
    };
    result
        .0
        .iter()
        .map(|p| {
            Polygon::new(
                ring(p.exterior()),
                p.interiors()
                    .iter()
                    .map(ring)
                    .filter(|r| r.0.len() >= 4 && ring_area(r) > 1e-16)
                    .collect(),
            )
        })
        .filter(|p| p.exterior().0.len() >= 4 && geo::Area::unsigned_area(p) > 1e-16)
        .map(|polygon| Piece {
            polygon,
            clipped: true,
        })
        .collect()
}

/// The area a closed ring encloses (square degrees).
fn ring_area(r: &LineString<f64>) -> f64 {
    geo::Area::unsigned_area(&Polygon::new(r.clone(), Vec::new()))
}

/// Where an input edge crosses the line `u = at` (with `uv` picking the
/// coordinate across and along the line): the exact `v` of the crossing
/// nearest `near`, if one is within [`EDGE_SNAP`].
fn crossing(
    edges: &[(Coord<f64>, Coord<f64>)],
    at: f64,
    near: f64,
    uv: impl Fn(Coord<f64>) -> (f64, f64),
) -> Option<f64> {
    let mut best: Option<f64> = None;
    for &(a, b) in edges {
        let ((ua, va), (ub, vb)) = (uv(a), uv(b));
        if ua == ub || (ua - at) * (ub - at) > 0.0 {
            continue;
        }
        let v = va + (at - ua) * (vb - va) / (ub - ua);
        if (v - near).abs() <= EDGE_SNAP && best.is_none_or(|w| (v - near).abs() < (w - near).abs())
        {
            best = Some(v);
        }
    }
    best
}

/// True when the edge `a`–`b` lies on an edge of `tile` (both ends on the
/// same boundary line): the kind of edge a cut creates.
pub fn on_tile_edge(tile: TileId, a: LonLat, b: LonLat) -> bool {
    let (w, s) = (f64::from(tile.west), f64::from(tile.south));
    [w, w + 1.0].iter().any(|&x| a[0] == x && b[0] == x)
        || [s, s + 1.0].iter().any(|&y| a[1] == y && b[1] == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use geo::polygon;

    #[test]
    fn names_follow_the_dsf_convention() {
        let t = TileId::containing([13.4, 47.8]);
        assert_eq!(t.file_name(), "+47+013.dsf");
        assert_eq!(t.folder_name(), "+40+010");
        let t = TileId::containing([-0.5, -0.5]);
        assert_eq!(t.to_string(), "-01-001");
        assert_eq!(t.folder_name(), "-10-010");
        let t = TileId::containing([-122.3, 37.6]);
        assert_eq!(
            t.relative_path(),
            PathBuf::from("Earth nav data/+30-130/+37-123.dsf")
        );
        assert_eq!(
            TileId::containing([180.0, 90.0]),
            TileId {
                south: 89,
                west: 179
            }
        );
    }

    #[test]
    fn a_square_across_lon_13_is_cut_in_two() {
        let p = polygon![(x: 12.9, y: 47.1), (x: 13.1, y: 47.1), (x: 13.1, y: 47.2), (x: 12.9, y: 47.2)];
        let tiles = tiles_touched(&p);
        assert_eq!(tiles.len(), 2);
        let west = clip_to_tile(&p, tiles[0]);
        let east = clip_to_tile(&p, tiles[1]);
        assert_eq!((west.len(), east.len()), (1, 1));
        for (pieces, t) in [(&west, tiles[0]), (&east, tiles[1])] {
            assert!(pieces[0].clipped);
            let cs: Vec<_> = pieces[0].polygon.exterior().coords().collect();
            assert!(cs.iter().all(|c| t.covers([c.x, c.y])));
            assert!(cs.iter().any(|c| c.x == 13.0));
            let area = geo::Area::unsigned_area(&pieces[0].polygon);
            assert!((area - 0.1 * 0.1).abs() < 1e-12, "{area} {cs:?}");
        }
        // Ending exactly on an edge touches one tile only.
        let q = polygon![(x: 12.9, y: 47.1), (x: 13.0, y: 47.1), (x: 13.0, y: 47.2)];
        assert_eq!(tiles_touched(&q).len(), 1);
        assert!(!clip_to_tile(&q, tiles[0])[0].clipped);
    }
}
