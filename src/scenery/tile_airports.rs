//! The airports a whole tile carries: those whose runways, helipads or
//! pavement lie in it, from the `apt.dat` files X-Plane reads, in its
//! order ([`super::airports::sources`]: the tile's package, then
//! the installation's enabled packs, then the default apt.dat; one ID from
//! the highest-priority file that has it).
//!
//! An airport **lies in** a tile when one of its land runway ends, water
//! runway ends, helipads or pavement nodes does ([`touches`]): a runway
//! crossing a tile edge belongs to both tiles, and each draws it whole.
//!
//! **Read once.** [`load`] reads each file once for a set of tiles and
//! keeps only the airports lying in one of them (no other airport is held),
//! so that a run over a package reads its apt.dat files once for all the
//! package's tiles ([`crate::scenery::Scenery::tile_airports`]). As
//! [`super::airports::FirstAirports`] does, an ID met in a
//! higher-priority file is that file's even where that file moves it out
//! of the tiles: a lower file's airport of the same ID is not taken.
//!
//! The views draw what [`TileAirports`] holds: the 3-D scene one node per
//! airport ([`crate::scene`]), the pictures a layer beneath every other
//! ([`crate::out::svg`]); the JSON of a placement holds its
//! [`TileAirports::summary`].

use super::airports::Source;
use crate::apt::Airport;
use crate::dsf::Tile;
use crate::limits::Limits;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;

/// One airport of a tile and the file it was taken from.
#[derive(Debug, Clone, PartialEq)]
pub struct TileAirport {
    /// The airport, as read.
    pub airport: Airport,
    /// The `apt.dat` it comes from.
    pub file: PathBuf,
    /// The package of that file ([`Source::package`]).
    pub package: String,
}

/// The airports lying in one tile, by ID.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TileAirports {
    /// The tile.
    pub tile: Option<Tile>,
    /// Its airports, by ID.
    pub airports: Vec<TileAirport>,
    /// Files that could not be read or had errors: the file and what is
    /// wrong (one line).
    pub problems: Vec<(PathBuf, String)>,
}

/// What the JSON says of one airport of a tile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AirportSummary<'a> {
    /// Its ID.
    pub icao: &'a str,
    /// Its name.
    pub name: &'a str,
    /// The `apt.dat` it was taken from.
    pub file: &'a std::path::Path,
    /// Its header row's line in that file.
    pub line: usize,
    /// Land runways (`100`).
    pub runways: usize,
    /// Water runways (`101`).
    pub water_runways: usize,
    /// Helipads (`102`).
    pub helipads: usize,
    /// Pavement polygons (`110`).
    pub pavements: usize,
}

impl TileAirports {
    /// One line per airport: ID, file, counts.
    pub fn summary(&self) -> Vec<AirportSummary<'_>> {
        self.airports
            .iter()
            .map(|t| AirportSummary {
                icao: &t.airport.icao,
                name: &t.airport.name,
                file: &t.file,
                line: t.airport.line,
                runways: t.airport.runways.len(),
                water_runways: t.airport.water_runways.len(),
                helipads: t.airport.helipads.len(),
                pavements: t.airport.pavements.len(),
            })
            .collect()
    }
}

/// The airports of a tile, shared by every placement of it (two are equal
/// when they are the same list); the JSON holds its summary.
#[derive(Clone)]
pub struct Airports(pub Arc<TileAirports>);

impl PartialEq for Airports {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Airports {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Airports({} airports)", self.0.airports.len())
    }
}

impl Serialize for Airports {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.summary().serialize(s)
    }
}

/// Every point that places airport `a` on the map: its runway ends, water
/// runway ends, helipads and pavement nodes.
fn points(a: &Airport) -> impl Iterator<Item = crate::geom::LonLat> + '_ {
    a.ends().chain(
        a.pavements
            .iter()
            .flat_map(|p| p.rings.iter().flat_map(|r| r.nodes.iter().map(|n| n.at))),
    )
}

/// The tiles airport `a` lies in (module docs): those of its points on
/// the world.
pub fn tiles_of(a: &Airport) -> HashSet<Tile> {
    points(a)
        .filter(|[lon, lat]| (-180.0..=180.0).contains(lon) && (-90.0..=90.0).contains(lat))
        .map(|[lon, lat]| Tile::of(lon, lat))
        .collect()
}

/// True when airport `a` lies in `tile`.
pub fn touches(a: &Airport, tile: Tile) -> bool {
    tiles_of(a).contains(&tile)
}

/// Reads `sources` in order, each once, keeping per tile of `tiles` the
/// airports lying in it (an ID from the first file that has it, wherever
/// that file puts it). Every tile asked gets an entry, empty when no
/// airport lies in it.
pub fn load(
    sources: &[Source],
    tiles: &HashSet<Tile>,
    limits: &Limits,
) -> HashMap<Tile, TileAirports> {
    let mut out: HashMap<Tile, TileAirports> = tiles
        .iter()
        .map(|&t| {
            (
                t,
                TileAirports {
                    tile: Some(t),
                    ..TileAirports::default()
                },
            )
        })
        .collect();
    let mut problems = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for src in sources {
        let bytes = match crate::fsutil::read_input(&src.path, "an apt.dat", limits.max_input_bytes)
        {
            Ok(b) => b,
            Err(e) => {
                problems.push((src.path.clone(), e.to_string()));
                continue;
            }
        };
        let mut mine: HashSet<String> = HashSet::new();
        let mut kept: Vec<(Airport, Vec<Tile>)> = Vec::new();
        let c = crate::apt::check_keeping(&bytes, limits, &mut |a| {
            // An ID an earlier file has, or this file had before, is not
            // this airport's.
            if seen.contains(&a.icao) || !mine.insert(a.icao.clone()) {
                return false;
            }
            let mut in_tiles: Vec<Tile> = tiles_of(a).intersection(tiles).copied().collect();
            in_tiles.sort_by_key(|t| (t.south, t.west));
            if !in_tiles.is_empty() {
                kept.push((a.clone(), in_tiles));
            }
            false
        });
        seen.extend(mine);
        if c.has_errors() {
            let refused = crate::diag::Refused::new(
                &src.path.display().to_string(),
                Some(&c.text),
                c.diagnostics.clone(),
            );
            problems.push((src.path.clone(), refused.to_string()));
        }
        for (a, ts) in kept {
            for t in ts {
                if let Some(entry) = out.get_mut(&t) {
                    entry.airports.push(TileAirport {
                        airport: a.clone(),
                        file: src.path.clone(),
                        package: src.package.clone(),
                    });
                }
            }
        }
    }
    for entry in out.values_mut() {
        entry
            .airports
            .sort_by(|a, b| a.airport.icao.cmp(&b.airport.icao));
        entry.problems = problems.clone();
    }
    out
}

/// The tiles of the DSFs under `root/Earth nav data/<folder>/` (their file
/// names, `+47+013.dsf`), in no order: the tiles a run over the package
/// places.
pub fn package_tiles(root: &std::path::Path) -> HashSet<Tile> {
    let mut out = HashSet::new();
    let Some(nav) = crate::scenery::install::child_ci(root, "Earth nav data") else {
        return out;
    };
    let Ok(folders) = std::fs::read_dir(&nav) else {
        return out;
    };
    for f in folders.flatten() {
        let Ok(files) = std::fs::read_dir(f.path()) else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name();
            if let Some(t) = name.to_str().and_then(Tile::from_file_name) {
                out.insert(t);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_taken_from_the_first_file_even_out_of_the_tile() {
        let d = tempfile::tempdir().unwrap();
        let rwy = |lat: f64| {
            format!("100 30 1 0 0.25 0 0 0 09 {lat} 13.0 0 0 0 0 0 0 27 {lat} 13.01 0 0 0 0 0 0\n")
        };
        let a = d.path().join("a.dat");
        let b = d.path().join("b.dat");
        std::fs::write(
            &a,
            format!("I\n1100 x\n\n1 10 0 0 XAAA A\n{}99\n", rwy(50.0)),
        )
        .unwrap();
        std::fs::write(
            &b,
            format!(
                "I\n1100 x\n\n1 10 0 0 XAAA B\n{}1 10 0 0 XBBB B\n{}99\n",
                rwy(47.0),
                rwy(47.0)
            ),
        )
        .unwrap();
        let src = |p: &std::path::Path| Source {
            package: "p".into(),
            path: p.to_path_buf(),
            role: "installation",
        };
        let t = Tile {
            west: 13,
            south: 47,
        };
        let got = load(&[src(&a), src(&b)], &HashSet::from([t]), &Limits::default());
        let ids: Vec<&str> = got[&t]
            .airports
            .iter()
            .map(|a| a.airport.icao.as_str())
            .collect();
        assert_eq!(ids, ["XBBB"], "a.dat's XAAA moved out of the tile");
        assert!(got[&t].problems.is_empty());
    }
}
