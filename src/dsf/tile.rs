//! A 1°×1° DSF tile: the square of the globe one DSF file covers, named
//! by its south-west corner as X-Plane names the file (`+47+013.dsf` in the
//! folder `+40+010`).

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

    /// The tile a DSF file name names (`+47+013.dsf`, the extension in
    /// any case), as X-Plane finds a tile's file; `None` for any other
    /// name or a corner off the globe.
    pub fn from_file_name(name: &str) -> Option<Tile> {
        let stem = name
            .len()
            .checked_sub(4)
            .filter(|&k| name.is_char_boundary(k) && name[k..].eq_ignore_ascii_case(".dsf"))
            .map(|k| &name[..k])?;
        if stem.len() != 7 || !stem.is_ascii() {
            return None;
        }
        let (lat, lon) = stem.split_at(3);
        let south: i32 = lat.parse().ok()?;
        let west: i32 = lon.parse().ok()?;
        ((-90..90).contains(&south) && (-180..180).contains(&west)).then_some(Tile { west, south })
    }
}

impl std::fmt::Display for Tile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:+03}{:+04}", self.south, self.west)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_names() {
        assert_eq!(
            Tile::of(13.01, 47.8).file_names(),
            ("+40+010".into(), "+47+013.dsf".into())
        );
        assert_eq!(
            Tile::of(-77.1, 43.9).file_names(),
            ("+40-080".into(), "+43-078.dsf".into())
        );
        assert_eq!(
            Tile::of(55.5, -20.9).file_names(),
            ("-30+050".into(), "-21+055.dsf".into())
        );
        assert_eq!(Tile::of(-0.5, -0.5).to_string(), "-01-001");
    }

    #[test]
    fn the_edges_of_the_globe_stay_on_a_real_tile() {
        // The east and north edges belong to the last tile, never to one
        // past it; out-of-range values are held to the globe.
        assert_eq!(Tile::of(180.0, 90.0).to_string(), "+89+179");
        assert_eq!(Tile::of(-180.0, -90.0).to_string(), "-90-180");
        assert_eq!(Tile::of(1e9, -1e9).to_string(), "-90+179");
        assert_eq!(
            Tile::of(-180.0, -90.0).file_names(),
            ("-90-180".into(), "-90-180.dsf".into())
        );
        // A whole-degree point is the south-west corner of its tile.
        assert_eq!(Tile::of(13.0, 47.0).to_string(), "+47+013");
        assert_eq!(Tile::of(-13.0, -47.0).to_string(), "-47-013");
    }

    #[test]
    fn a_dsf_name_gives_its_tile() {
        assert_eq!(
            Tile::from_file_name("+47+013.dsf"),
            Some(Tile {
                west: 13,
                south: 47
            })
        );
        assert_eq!(
            Tile::from_file_name("-34-058.DSF"),
            Some(Tile {
                west: -58,
                south: -34
            })
        );
        assert_eq!(Tile::from_file_name("+47+013.txt"), None);
        assert_eq!(Tile::from_file_name("+95+013.dsf"), None);
        assert_eq!(Tile::from_file_name("x.dsf"), None);
    }

    #[test]
    fn a_name_and_its_tile_agree() {
        for (w, s) in [(13, 47), (-180, -90), (179, 89), (0, 0), (-1, -1)] {
            let t = Tile { west: w, south: s };
            assert_eq!(Tile::from_file_name(&t.file_names().1), Some(t));
        }
        assert_eq!(Tile::from_file_name("+47+1300.dsf"), None);
        assert_eq!(Tile::from_file_name("+4a+013.dsf"), None);
        assert_eq!(Tile::from_file_name("é+47+01.dsf"), None);
        assert_eq!(Tile::from_file_name(".dsf"), None);
    }
}
