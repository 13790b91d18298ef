//! What the resolver says of a tile it could not place, or of the assets
//! it names: [`TileError`] (the tile cannot be read) and [`Unresolved`]
//! (uses whose asset resolves nowhere, counted per asset with the reason
//! naming where agkit looked). Placing the tile is
//! [`crate::place::tiles`]'s.

use crate::dsf::DsfError;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Why a tile could not be placed at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TileError {
    /// The file could not be read (missing, not a regular file, too
    /// large …).
    #[error("{source}")]
    Read {
        /// The DSF.
        path: PathBuf,
        /// Why.
        source: crate::fsutil::InputError,
    },
    /// The bytes are not a DSF agkit can read (the error carries the byte
    /// offset).
    #[error("{}: {error}{}", path.display(),
        hint.as_deref().map(|h| format!("; {h}")).unwrap_or_default())]
    Dsf {
        /// The DSF.
        path: PathBuf,
        /// What is wrong, and where.
        error: DsfError,
        /// What the file is instead, when agkit can tell (a PNG, an AGN …).
        hint: Option<String>,
    },
    /// The base mesh given for the tile (`--mesh`) cannot be found or read.
    #[error("--mesh {}: {why}", path.display())]
    Mesh {
        /// The file or folder given.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Uses of one asset that resolved nowhere.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnresolvedAsset {
    /// Uses skipped.
    pub uses: usize,
    /// Tiles they are in.
    pub tiles: usize,
    /// Why the path resolves nowhere, naming where agkit looked.
    pub why: String,
}

/// Uses whose asset resolved nowhere, counted per asset path (over one
/// tile, or summed over many with [`Unresolved::merge`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Unresolved {
    /// Asset path → its uses, tiles and reason.
    pub assets: BTreeMap<String, UnresolvedAsset>,
}

impl Unresolved {
    /// Counts `uses` uses of `asset` in one tile.
    pub fn add(&mut self, asset: &str, uses: usize, why: String) {
        let e = self
            .assets
            .entry(asset.to_string())
            .or_insert(UnresolvedAsset {
                uses: 0,
                tiles: 0,
                why,
            });
        e.uses += uses;
        e.tiles += 1;
    }

    /// Adds another tile's (or run's) counts.
    pub fn merge(&mut self, other: Unresolved) {
        for (asset, u) in other.assets {
            let e = self.assets.entry(asset).or_insert(UnresolvedAsset {
                uses: 0,
                tiles: 0,
                why: u.why,
            });
            e.uses += u.uses;
            e.tiles += u.tiles;
        }
    }

    /// True when every asset resolved.
    pub fn is_empty(&self) -> bool {
        self.assets.is_empty()
    }

    /// Uses skipped.
    pub fn uses(&self) -> usize {
        self.assets.values().map(|u| u.uses).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unresolved_assets_are_counted_per_asset_and_tile() {
        let mut u = Unresolved::default();
        u.add("a.agp", 3, "why a".into());
        let mut v = Unresolved::default();
        v.add("a.agp", 2, "why a".into());
        v.add("b.agb", 10, "why b".into());
        u.merge(v);
        assert_eq!(u.uses(), 15);
        let a = &u.assets["a.agp"];
        assert_eq!((a.uses, a.tiles, a.why.as_str()), (5, 2, "why a"));
        assert_eq!(u.assets["b.agb"].tiles, 1);
    }
}
