//! The 1°×1° tiles X-Plane divides the world into (one DSF file each).

/// A 1°×1° DSF tile by its south-west corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Tile {
    /// Longitude of the west edge.
    pub west: i32,
    /// Latitude of the south edge.
    pub south: i32,
}

impl Tile {
    /// The tile holding a point (lon, lat).
    pub fn of(lon: f64, lat: f64) -> Tile {
        Tile {
            west: lon.floor().clamp(-180.0, 179.0) as i32,
            south: lat.floor().clamp(-90.0, 89.0) as i32,
        }
    }

    /// The DSF file name and its 10° folder, as X-Plane names them
    /// (`+40+010`, `+47+013.dsf`).
    pub fn file_names(self) -> (String, String) {
        let folder = |v: i32| v.div_euclid(10) * 10;
        (
            format!("{:+03}{:+04}", folder(self.south), folder(self.west)),
            format!("{:+03}{:+04}.dsf", self.south, self.west),
        )
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:+03}{:+04}", self.south, self.west)
    }
}
