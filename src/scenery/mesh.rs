//! Which base mesh a tile stands on, as X-Plane chooses it: the
//! highest-priority enabled package whose DSF for the tile is not an
//! overlay (`sim/overlay` is not `1`: DSF notes, properties table) — an
//! Ortho4XP `zOrtho4XP_*` package, a custom mesh, or the Global Scenery —
//! or the file or folder given with `--mesh`.

use super::install::{Installation, child_ci};
use crate::dsf::{Dsf, Tile};
use crate::limits::Limits;
use std::path::{Path, PathBuf};

/// The DSF of `tile` in the package folder `package`
/// (`Earth nav data/<folder>/<tile>.dsf`, names matched without case).
pub fn tile_in_package(package: &Path, tile: Tile) -> Option<PathBuf> {
    let (folder, file) = tile.file_names();
    let nav = child_ci(package, "Earth nav data")?;
    child_ci(&child_ci(&nav, &folder)?, &file).filter(|p| p.is_file())
}

/// What `--mesh` names for `tile`: a DSF file as it is; a folder holding
/// the tile as a package does (`Earth nav data/<folder>/<tile>.dsf`), as a
/// tile folder (`<folder>/<tile>.dsf`) or directly (`<tile>.dsf`).
pub fn given(path: &Path, tile: Tile) -> Option<PathBuf> {
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let (folder, file) = tile.file_names();
    tile_in_package(path, tile)
        .or_else(|| child_ci(&child_ci(path, &folder)?, &file).filter(|p| p.is_file()))
        .or_else(|| child_ci(path, &file).filter(|p| p.is_file()))
}

/// The base mesh of `tile` in `install`: the first enabled package, in
/// priority order, whose DSF for the tile reads and is not an overlay,
/// with that DSF read. DSFs that cannot be read are passed over (and
/// listed in the second value, with why), as X-Plane would load the next.
#[allow(clippy::type_complexity)]
pub fn find(
    install: &Installation,
    tile: Tile,
    limits: &Limits,
) -> (Option<(PathBuf, Dsf)>, Vec<(PathBuf, String)>) {
    let mut skipped = Vec::new();
    for p in install.enabled() {
        let Some(f) = tile_in_package(&p.path, tile) else {
            continue;
        };
        let dsf = crate::fsutil::read_input(&f, "a DSF", limits.max_input_bytes)
            .map_err(|e| e.to_string())
            .and_then(|b| crate::dsf::read_with(&b, limits).map_err(|e| e.message()));
        match dsf {
            Ok(d) if !d.is_overlay() => return (Some((f, d)), skipped),
            Ok(_) => {}
            Err(e) => skipped.push((f, e)),
        }
    }
    (None, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_package_whose_tile_is_not_an_overlay_is_the_mesh() {
        let d = tempfile::tempdir().unwrap();
        let custom = d.path().join("Custom Scenery");
        let tile = Tile {
            west: 13,
            south: 47,
        };
        let put = |pkg: &str, dsf: &Dsf| {
            let dir = custom.join(pkg).join("Earth nav data/+40+010");
            std::fs::create_dir_all(&dir).unwrap();
            let bytes = crate::dsf::build(dsf, &Default::default()).unwrap();
            std::fs::write(dir.join("+47+013.dsf"), bytes).unwrap();
        };
        put("A_overlay", &Dsf::overlay(13, 47));
        let mut mesh = Dsf::overlay(13, 47);
        mesh.properties.retain(|(k, _)| k != "sim/overlay");
        put("B_mesh", &mesh);
        let inst = Installation::open(d.path()).unwrap();
        let (found, skipped) = find(&inst, tile, &Limits::default());
        let (path, dsf) = found.unwrap();
        assert!(
            path.starts_with(custom.join("B_mesh")),
            "{}",
            path.display()
        );
        assert!(!dsf.is_overlay() && skipped.is_empty());
        assert_eq!(given(&custom.join("B_mesh"), tile), Some(path.clone()));
        assert_eq!(given(&path, tile), Some(path));
    }
}
