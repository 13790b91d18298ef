//! Airports as X-Plane finds them: which `apt.dat` an airport ID is taken
//! from.
//!
//! X-Plane reads the `Earth nav data/apt.dat` of every enabled scenery
//! package, highest priority first, and one airport ID is taken from the
//! first package that has it: a custom airport shadows the same ID in the
//! Global Airports pack, which shadows the default one. The order searched
//! here is:
//!
//! 1. the package given (the one whose tile is placed), its own
//!    `Earth nav data/apt.dat`;
//! 2. every enabled package of the installation in priority order
//!    ([`Installation::packages`]: `scenery_packs.ini` order, with
//!    `*GLOBAL_AIRPORTS*` where the ini lists it, then the default scenery
//!    and Global Scenery);
//! 3. the installation's default apt.dat,
//!    `Resources/default scenery/default apt dat/Earth nav data/apt.dat`,
//!    when step 2 did not reach it.
//!
//! Each file is read once; an ID found again lower down is counted as
//! shadowed ([`Found::shadowed`]) and not kept. A file that cannot be read,
//! or has errors, is reported ([`Airports::problems`]) and its airports
//! are still taken where they could be read: X-Plane reads what it can.

use super::install::{Installation, Origin, child_ci};
use crate::apt::{Airport, AptFile};
use crate::limits::Limits;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// One `apt.dat` searched.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Source {
    /// The package's name (`the package` for the one given without an
    /// installation).
    pub package: String,
    /// The file.
    pub path: PathBuf,
    /// Why it is searched where it is: `package` (the package given),
    /// `installation` (a pack of `Custom Scenery` or the ini) or `default`
    /// (the simulator's own scenery: `Resources/default scenery`, `Global
    /// Scenery`).
    pub role: &'static str,
}

/// An airport and where it was taken from.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The airport.
    pub airport: Airport,
    /// Index into [`Airports::sources`] of the file it was taken from.
    pub source: usize,
    /// Indexes of the lower-priority files that also had the ID.
    pub shadowed: Vec<usize>,
}

/// Which airports to keep.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// Every airport.
    All,
    /// The airports of these IDs.
    Ids(Vec<String>),
    /// The airports whose reference point ([`Airport::reference`]) is in
    /// the box `[west, south, east, north]`, degrees.
    Within([f64; 4]),
}

impl Filter {
    fn keeps(&self, a: &Airport) -> bool {
        match self {
            Filter::All => true,
            Filter::Ids(ids) => ids.contains(&a.icao),
            Filter::Within([w, s, e, n]) => a
                .reference()
                .is_some_and(|[x, y]| x >= *w && x <= *e && y >= *s && y <= *n),
        }
    }
}

/// The airports found, by ID, and where each came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Airports {
    /// The files searched, highest priority first.
    pub sources: Vec<Source>,
    /// Each airport ID kept, with its airport.
    pub airports: BTreeMap<String, Found>,
    /// Files that could not be read or had errors: the file and what is
    /// wrong (one line).
    pub problems: Vec<(PathBuf, String)>,
}

/// The `apt.dat` of a package folder, when it has one (`Earth nav data`
/// matched without case, as X-Plane finds it on every platform).
pub fn package_apt(package: &Path) -> Option<PathBuf> {
    let nav = child_ci(package, "Earth nav data")?;
    child_ci(&nav, "apt.dat").filter(|p| p.is_file())
}

/// The installation's default apt.dat
/// (`Resources/default scenery/default apt dat/Earth nav data/apt.dat`).
pub fn default_apt(install: &Installation) -> Option<PathBuf> {
    let d = child_ci(&install.root, "Resources")?;
    let d = child_ci(&d, "default scenery")?;
    package_apt(&child_ci(&d, "default apt dat")?)
}

/// The files searched for `package` in `install`, in X-Plane's order (see
/// the module's docs); either may be missing.
pub fn sources(install: Option<&Installation>, package: Option<&Path>) -> Vec<Source> {
    let mut out: Vec<Source> = Vec::new();
    let push = |out: &mut Vec<Source>, package: String, path: PathBuf, role| {
        let key = path.canonicalize().unwrap_or_else(|_| path.clone());
        if !out
            .iter()
            .any(|s| s.path.canonicalize().unwrap_or_else(|_| s.path.clone()) == key)
        {
            out.push(Source {
                package,
                path,
                role,
            });
        }
    };
    if let Some(p) = package
        && let Some(apt) = package_apt(p)
    {
        let name = install
            .and_then(|i| i.package_of(&apt))
            .map_or_else(|| super::install::folder_name(p), |k| k.name.clone());
        push(&mut out, name, apt, "package");
    }
    if let Some(i) = install {
        for k in i.enabled() {
            if let Some(apt) = package_apt(&k.path) {
                let role = match k.origin {
                    Origin::Default | Origin::Global => "default",
                    _ => "installation",
                };
                push(&mut out, k.name.clone(), apt, role);
            }
        }
        if let Some(apt) = default_apt(i) {
            push(&mut out, "default apt dat".into(), apt, "default");
        }
    }
    out
}

impl Airports {
    /// Reads `sources` in order, keeping the airports `filter` keeps, each
    /// ID from the first file that has it.
    pub fn load(sources: Vec<Source>, filter: &Filter, limits: &Limits) -> Airports {
        let mut out = Airports {
            sources,
            ..Airports::default()
        };
        for k in 0..out.sources.len() {
            let path = out.sources[k].path.clone();
            let file = match read_file(&path, filter, limits) {
                Ok(f) => f,
                Err(e) => {
                    out.problems.push((path, e));
                    continue;
                }
            };
            let (file, problem) = file;
            if let Some(p) = problem {
                out.problems.push((path, p));
            }
            for a in file.airports {
                match out.airports.get_mut(&a.icao) {
                    Some(found) => found.shadowed.push(k),
                    None => {
                        out.airports.insert(
                            a.icao.clone(),
                            Found {
                                airport: a,
                                source: k,
                                shadowed: Vec::new(),
                            },
                        );
                    }
                }
            }
        }
        out
    }

    /// The airports of `package` and `install` ([`sources`]) that
    /// `filter` keeps.
    pub fn find(
        install: Option<&Installation>,
        package: Option<&Path>,
        filter: &Filter,
        limits: &Limits,
    ) -> Airports {
        Airports::load(sources(install, package), filter, limits)
    }

    /// The airport of ID `icao`, when one was found.
    pub fn get(&self, icao: &str) -> Option<&Found> {
        self.airports.get(icao)
    }

    /// The package an airport was taken from.
    pub fn source_of(&self, f: &Found) -> &Source {
        &self.sources[f.source]
    }
}

/// Per tile, the first airport X-Plane's order of apt.dat files gives
/// whose reference point is in it ([`Airport::reference`]): the flat
/// ground of a tile that has no mesh ([`crate::place::ground`]). Every
/// file is read once for all tiles, keeping only this (no airport is held
/// whole), so a run over many tiles reads the installation's apt.dat
/// files once. An ID is taken from the first file that has it, as
/// [`Airports::load`] takes it; among the airports of one file in one
/// tile, the first by ID.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FirstAirports {
    /// The files read, highest priority first.
    pub sources: Vec<Source>,
    /// Per tile: the index of the source, the airport's ID and its
    /// elevation in feet.
    by_tile: HashMap<crate::dsf::Tile, (usize, String, f64)>,
    /// Files that could not be read or had errors.
    pub problems: Vec<(PathBuf, String)>,
}

impl FirstAirports {
    /// Reads `sources` in order ([`sources`]), keeping per tile its first
    /// airport.
    pub fn load(sources: Vec<Source>, limits: &Limits) -> FirstAirports {
        let mut out = FirstAirports {
            sources,
            ..FirstAirports::default()
        };
        let mut seen: HashSet<String> = HashSet::new();
        for k in 0..out.sources.len() {
            let path = out.sources[k].path.clone();
            let bytes = match crate::fsutil::read_input(&path, "an apt.dat", limits.max_input_bytes)
            {
                Ok(b) => b,
                Err(e) => {
                    out.problems.push((path, e.to_string()));
                    continue;
                }
            };
            // IDs first met in this file: an ID an earlier file has is
            // that file's.
            let mut mine: HashSet<String> = HashSet::new();
            let by_tile = &mut out.by_tile;
            let c = crate::apt::check_keeping(&bytes, limits, &mut |a| {
                // An ID an earlier file has, or this file had before, is
                // not this airport's.
                if seen.contains(&a.icao) || !mine.insert(a.icao.clone()) {
                    return false;
                }
                if let Some([lon, lat]) = a.reference()
                    && (-180.0..=180.0).contains(&lon)
                    && (-90.0..=90.0).contains(&lat)
                {
                    let t = crate::dsf::Tile::of(lon, lat);
                    let better = by_tile
                        .get(&t)
                        .is_none_or(|(src, id, _)| *src == k && a.icao < *id);
                    if better {
                        by_tile.insert(t, (k, a.icao.clone(), a.elevation_ft));
                    }
                }
                false
            });
            seen.extend(mine);
            if c.has_errors() {
                let refused = crate::diag::Refused::new(
                    &path.display().to_string(),
                    Some(&c.text),
                    c.diagnostics.clone(),
                );
                out.problems.push((path, refused.to_string()));
            }
        }
        out
    }

    /// The first airport of `tile`: its ID, elevation in feet and the file
    /// it comes from.
    pub fn of(&self, tile: crate::dsf::Tile) -> Option<(&str, f64, &Path)> {
        let (k, id, ft) = self.by_tile.get(&tile)?;
        Some((id.as_str(), *ft, self.sources[*k].path.as_path()))
    }
}

/// One file read: its airports and, when it has errors, a line saying so.
fn read_file(
    path: &Path,
    filter: &Filter,
    limits: &Limits,
) -> Result<(AptFile, Option<String>), String> {
    let bytes = crate::fsutil::read_input(path, "an apt.dat", limits.max_input_bytes)
        .map_err(|e| e.to_string())?;
    let c = crate::apt::check_keeping(&bytes, limits, &mut |a| filter.keeps(a));
    let problem = c.has_errors().then(|| {
        crate::diag::Refused::new(
            &path.display().to_string(),
            Some(&c.text),
            c.diagnostics.clone(),
        )
        .to_string()
    });
    match c.value {
        Some(v) => Ok((v, problem)),
        None => Err(problem.unwrap_or_else(|| "not an apt.dat".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apt(dir: &Path, body: &str) {
        let nav = dir.join("Earth nav data");
        std::fs::create_dir_all(&nav).unwrap();
        std::fs::write(nav.join("apt.dat"), format!("I\n1100 test\n\n{body}99\n")).unwrap();
    }

    const RWY: &str = "100 30 1 0 0.25 0 0 0 09 47.0 13.0 0 0 0 0 0 0 27 47.0 13.01 0 0 0 0 0 0\n";

    #[test]
    fn the_first_airport_of_a_tile_follows_the_file_order_and_ids() {
        let d = tempfile::tempdir().unwrap();
        let custom = d.path().join("Custom Scenery");
        // A_custom moves XAAA out of the tile: B_other's XAAA in it does not
        // count; B_other's XBBB is the tile's first airport.
        let away = "100 30 1 0 0.25 0 0 0 09 50.0 13.0 0 0 0 0 0 0 27 50.0 13.01 0 0 0 0 0 0\n";
        apt(
            &custom.join("A_custom"),
            &format!("1 10 0 0 XAAA Custom A\n{away}"),
        );
        apt(
            &custom.join("B_other"),
            &format!("1 20 0 0 XAAA Other A\n{RWY}1 30 0 0 XBBB B\n{RWY}1 40 0 0 XCCC C\n{RWY}"),
        );
        let srcs = vec![
            Source {
                package: "A".into(),
                path: package_apt(&custom.join("A_custom")).unwrap(),
                role: "installation",
            },
            Source {
                package: "B".into(),
                path: package_apt(&custom.join("B_other")).unwrap(),
                role: "installation",
            },
        ];
        let f = FirstAirports::load(srcs, &Limits::default());
        assert!(f.problems.is_empty(), "{:?}", f.problems);
        let (id, ft, path) = f.of(crate::dsf::Tile::of(13.005, 47.0)).unwrap();
        assert_eq!((id, ft), ("XBBB", 30.0));
        assert!(path.starts_with(custom.join("B_other")));
        let (id, _, _) = f.of(crate::dsf::Tile::of(13.005, 50.0)).unwrap();
        assert_eq!(id, "XAAA");
        assert!(f.of(crate::dsf::Tile::of(0.5, 0.5)).is_none());
    }

    #[test]
    fn the_highest_priority_package_wins_each_id() {
        let d = tempfile::tempdir().unwrap();
        let custom = d.path().join("Custom Scenery");
        apt(
            &custom.join("A_custom"),
            &format!("1 10 0 0 XAAA Custom A\n{RWY}"),
        );
        apt(
            &custom.join("B_other"),
            &format!("1 20 0 0 XAAA Other A\n{RWY}1 30 0 0 XBBB B\n{RWY}"),
        );
        let default = d.path().join("Resources/default scenery/default apt dat");
        apt(
            &default,
            &format!("1 40 0 0 XBBB Default B\n{RWY}1 50 0 0 XCCC C\n{RWY}"),
        );
        std::fs::write(
            custom.join("scenery_packs.ini"),
            "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/B_other/\nSCENERY_PACK Custom Scenery/A_custom/\n",
        )
        .unwrap();
        let inst = Installation::open(d.path()).unwrap();
        let all = Airports::find(Some(&inst), None, &Filter::All, &Limits::default());
        let names: Vec<&str> = all.sources.iter().map(|s| s.package.as_str()).collect();
        assert_eq!(names, ["B_other", "A_custom", "default apt dat"]);
        let a = all.get("XAAA").unwrap();
        assert_eq!(a.airport.name, "Other A", "the ini ranks B_other first");
        assert_eq!(a.shadowed, [1]);
        assert_eq!(all.get("XBBB").unwrap().airport.elevation_ft, 30.0);
        assert_eq!(all.source_of(all.get("XCCC").unwrap()).role, "default");
        // The package given comes first, whatever the ini says.
        let own = Airports::find(
            Some(&inst),
            Some(&custom.join("A_custom")),
            &Filter::Ids(vec!["XAAA".into()]),
            &Limits::default(),
        );
        let a = own.get("XAAA").unwrap();
        assert_eq!(
            (a.airport.name.as_str(), own.source_of(a).role),
            ("Custom A", "package")
        );
        assert_eq!(own.airports.len(), 1);
        // A box keeps the airports whose reference point is inside.
        let none = Airports::find(
            Some(&inst),
            None,
            &Filter::Within([0.0, 0.0, 1.0, 1.0]),
            &Limits::default(),
        );
        assert!(none.airports.is_empty());
    }

    #[test]
    fn a_broken_file_is_reported_and_what_reads_is_kept() {
        let d = tempfile::tempdir().unwrap();
        apt(d.path(), &format!("1 10 0 0 XAAA A\n{RWY}111 47 13\n"));
        let all = Airports::find(None, Some(d.path()), &Filter::All, &Limits::default());
        assert!(all.get("XAAA").is_some());
        assert_eq!(all.problems.len(), 1);
        assert!(all.problems[0].1.contains("APT008"), "{:?}", all.problems);
    }
}
