//! Plain geometry shared by the placement engines and outputs: points in local
//! metres, the local tangent frame that maps them to lon/lat.
//!
//! Clipping, orientation and point-in-polygon come from the `geo` crate; this
//! module only holds what `geo` does not have.

pub mod frame;
pub mod mesh;
pub mod orient;
pub mod tile;
pub mod valid;

pub use frame::LocalFrame;
pub use mesh::Mesh;
pub use tile::Tile;

/// A point in local metres: x east, y north.
pub type Xy = [f64; 2];

/// A geographic position: longitude then latitude, degrees on WGS84.
pub type LonLat = [f64; 2];

/// An axis-aligned box in three dimensions (an art file's own frame:
/// metres, x right, y up, z toward the viewer).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Box3 {
    /// Smallest x, y, z.
    pub min: [f64; 3],
    /// Largest x, y, z.
    pub max: [f64; 3],
}

impl Box3 {
    /// The box of the single point `p`.
    pub fn point(p: [f64; 3]) -> Box3 {
        Box3 { min: p, max: p }
    }

    /// The box of `points`, `None` when there are none.
    pub fn of(points: impl IntoIterator<Item = [f64; 3]>) -> Option<Box3> {
        let mut b: Option<Box3> = None;
        for p in points {
            Box3::grow(&mut b, p);
        }
        b
    }

    /// Grows `b` (or starts it) to hold `p`.
    pub fn grow(b: &mut Option<Box3>, p: [f64; 3]) {
        let b = b.get_or_insert(Box3::point(p));
        for ((lo, hi), v) in b.min.iter_mut().zip(b.max.iter_mut()).zip(p) {
            *lo = lo.min(v);
            *hi = hi.max(v);
        }
    }

    /// True when `p` lies inside the box (or on it), within `eps`.
    pub fn contains(&self, p: [f64; 3], eps: f64) -> bool {
        (0..3).all(|i| p[i] >= self.min[i] - eps && p[i] <= self.max[i] + eps)
    }
}
