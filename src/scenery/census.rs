//! An autogen census of one DSF tile: one row per autogen use, its asset
//! resolved as the simulator resolves it (the rows of the Python package's
//! `agkit.distributed.census`, built here so a tile's census costs what
//! the CLI's `dsf autogen` costs).

use super::Scenery;
use super::resolve::{Resolution, Tile};
use super::tile::TileError;
use crate::dsf::autogen::AutogenUse;
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;

/// One autogen use of a DSF with its asset resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CensusRow {
    /// The tile: the DSF's file name without its extension (`+47+013`).
    pub tile: String,
    /// The DSF as the caller names it (a path relative to the folder
    /// surveyed).
    pub dsf: String,
    /// Index of the use among the DSF's autogen uses.
    pub use_index: usize,
    /// `agp`, `agb` or `ags`.
    pub kind: &'static str,
    /// The definition path as the DSF writes it.
    pub asset: String,
    /// AGB/AGS: the raw 16-bit parameter.
    pub param: Option<u16>,
    /// AGB/AGS: height in metres (`(param >> 8) * 4`).
    pub height: Option<f64>,
    /// AGB: spelling set; AGS: spawning-contour count (`param & 0xFF`).
    pub low: Option<u8>,
    /// AGP: heading in degrees clockwise from true north.
    pub heading: Option<f64>,
    /// The point of an AGP; the mean of the first winding's vertices
    /// (its closing vertex once) of an AGB/AGS.
    pub lon: f64,
    /// See `lon`.
    pub lat: f64,
    /// The package the DSF belongs to ([`Scenery::package_of`]).
    pub package: String,
    /// The package of the first candidate file that exists.
    pub resolved_package: Option<String>,
    /// That file.
    pub resolved_file: Option<String>,
    /// Where the winners come from: `local`, `library`, `backup` or
    /// `nothing`.
    pub resolution: &'static str,
}

/// Where a use is: an AGP's point, else the mean of the vertices of its
/// first winding, counted once when the winding repeats its first point at
/// the end (as `agkit scenery at` places an item).
pub fn centroid(u: &AutogenUse) -> [f64; 2] {
    if let Some(p) = u.point {
        return p;
    }
    let Some(w) = u.windings.first().filter(|w| !w.is_empty()) else {
        return [f64::NAN, f64::NAN];
    };
    let ring = if w.len() > 1 && w.first() == w.last() {
        &w[..w.len() - 1]
    } else {
        &w[..]
    };
    let n = ring.len() as f64;
    let (sx, sy) = ring
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    [sx / n, sy / n]
}

fn source_name(r: &Resolution) -> &'static str {
    use super::resolve::Source;
    match r.source {
        Source::Local => "local",
        Source::Library => "library",
        Source::Backup => "backup",
        Source::Nothing => "nothing",
    }
}

impl Scenery {
    /// The census of the DSF at `path`, named `name` in the rows: one row
    /// per autogen use, in use order. Each asset is resolved once, at the
    /// tile of its first use, as the DSF names it (a file of its package
    /// first).
    pub fn census(&self, path: &Path, name: &str) -> Result<Vec<CensusRow>, TileError> {
        let max = crate::limits::Limits::default().max_input_bytes;
        let bytes = crate::fsutil::read_file(path, "a DSF tile", max).map_err(|source| {
            TileError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
        let dsf = crate::dsf::read(&bytes).map_err(|error| TileError::Dsf {
            path: path.to_path_buf(),
            error,
            hint: None,
        })?;
        let tile = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (package, _) = self.package_of(path);
        let mut resolved: HashMap<String, Resolution> = HashMap::new();
        let uses = crate::dsf::autogen_uses(&dsf);
        let mut rows = Vec::with_capacity(uses.len());
        for (i, u) in uses.into_iter().enumerate() {
            let [lon, lat] = centroid(&u);
            let r = resolved
                .entry(u.asset.clone())
                .or_insert_with(|| self.resolve_in(path, &u.asset, Tile::of(lon, lat)));
            let first = r.usable().next();
            rows.push(CensusRow {
                tile: tile.clone(),
                dsf: name.to_string(),
                use_index: i,
                kind: u.kind.as_str(),
                param: u.param,
                height: u.height,
                low: u.low,
                heading: u.heading,
                lon,
                lat,
                package: package.clone(),
                resolved_package: first.map(|c| c.package.clone()),
                resolved_file: first.map(|c| c.file.display().to_string()),
                resolution: source_name(r),
                asset: u.asset,
            });
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsf::autogen::AutogenKind;

    fn polygon(w: Vec<[f64; 2]>) -> AutogenUse {
        AutogenUse {
            kind: AutogenKind::Agb,
            asset: "a.agb".into(),
            def: 0,
            point: None,
            heading: None,
            windings: vec![w],
            param: None,
            height: None,
            low: None,
        }
    }

    #[test]
    fn a_closing_vertex_counts_once_in_the_centroid() {
        let open = polygon(vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]);
        let mut closed = open.clone();
        closed.windings[0].push([0.0, 0.0]);
        assert_eq!(centroid(&open), [1.0, 1.0]);
        assert_eq!(centroid(&closed), [1.0, 1.0]);
        assert!(centroid(&polygon(vec![]))[0].is_nan());
    }
}
