//! Placing every autogen use of a DSF tile, its assets resolved through a
//! [`Scenery`]: [`Scenery::place_tile`] (a file), [`Scenery::place_dsf`]
//! (bytes) and [`Scenery::place_tiles`] (many files, in parallel, handed
//! over in path order one batch at a time).
//!
//! Each use resolves its asset at the tile (a file of the DSF's package
//! first, then the libraries), picks one of several alternatives and is
//! placed by [`crate::place::tile::place_use`], both seeded as
//! [`crate::place::tile`] says. What could not be placed is data, not
//! messages: uses whose asset resolves nowhere are counted per asset with
//! the reason ([`Unresolved`]), uses the engine refuses are
//! [`UseWarning`]s, and asset files with errors or warnings are listed
//! with their diagnostics.

use crate::check::asset::AssetFile;
use crate::dsf::{DsfError, autogen::AutogenUse};
use crate::place::tile::{place_use, unplaced, use_seed};
use crate::place::{Params, Placement, Use};
use crate::scenery::art::Art;
use crate::scenery::resolve::{Resolution, Tile};
use crate::scenery::{Scenery, TileError, Unresolved};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// An autogen use the engine could not place.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UseWarning {
    /// The use: its index in the tile ([`crate::dsf::autogen_uses`]
    /// order).
    pub index: usize,
    /// The asset path as the DSF names it.
    pub asset: String,
    /// Why it was not placed.
    pub message: String,
}

/// Every autogen use of one DSF tile, placed.
#[derive(Debug, Serialize)]
pub struct TilePlacement {
    /// The DSF.
    pub dsf: PathBuf,
    /// Its tile (from `sim/west` and `sim/south`, else its first use).
    pub tile: Tile,
    /// The package it belongs to ([`Scenery::package_of`]).
    pub package: String,
    /// Autogen uses in the tile.
    pub uses: usize,
    /// One placement per placed use, in use order. Use `i` is placed with
    /// the seed `params.seed XOR i` ([`crate::place::tile::use_seed`]),
    /// which its [`Placement::seed`] holds.
    pub placements: Vec<Placement>,
    /// Uses whose asset resolved nowhere, per asset.
    pub unresolved: Unresolved,
    /// Uses the engine could not place.
    pub warnings: Vec<UseWarning>,
    /// Every use that was not placed (its asset resolves nowhere, does not
    /// load, or the engine refused it), in use order, as a placement of
    /// nothing where the DSF puts it ([`crate::place::tile::unplaced`]):
    /// the pictures and the 3-D scene draw it marked as missing art.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<Placement>,
    /// The asset files the uses resolved to that have errors or warnings
    /// (a use whose file has errors is not placed), in order of first use.
    #[serde(serialize_with = "asset_files")]
    pub assets: Vec<Arc<AssetFile>>,
    /// With [`Params::whole_tile`]: every kind of item the tile has,
    /// counted, and what is not drawn ([`super::whole`]); the
    /// placements then hold, after the autogen uses, one placement per
    /// definition of the tile's other content. `None` (and absent from the
    /// JSON) otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole: Option<crate::place::whole::WholeTile>,
    /// With [`Params::whole_tile`]: the ground every item was set on
    /// ([`crate::place::ground`]), which each placement also names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground: Option<crate::place::ground::GroundSource>,
    /// With [`Params::whole_tile`]: the exclusions of the packages above
    /// the tile's applied to its items ([`crate::place::exclusions`]), or
    /// why none were looked at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclusions: Option<crate::place::exclusions::Exclusions>,
    /// Points the mesh did not cover (set at 0 m); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub off_mesh: usize,
    /// With [`Params::whole_tile`]: the airports whose runways, helipads
    /// or pavement lie in the tile ([`crate::scenery::tile_airports`]), which
    /// each placement also carries; the JSON holds their summary. `None`
    /// when no apt.dat searched has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub airports: Option<crate::scenery::tile_airports::Airports>,
}

/// Serde: leaves a zero count out.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl TilePlacement {
    /// True when an asset file a use resolved to cannot be placed (it has
    /// errors or cannot be read): those uses are missing.
    pub fn has_errors(&self) -> bool {
        self.assets.iter().any(|a| a.asset.is_err())
    }
}

/// Serializes the shared asset files as a list of them.
fn asset_files<S: serde::Serializer>(v: &[Arc<AssetFile>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|a| &**a))
}

impl Scenery {
    /// The art of `asset`, read from `file`, for one use of it: the tile
    /// is the one under the use's point (or its polygon's first vertex),
    /// where the libraries are looked up as the simulator looks them up
    /// for that tile ([`Scenery::asset_art`]).
    pub fn use_art(&self, file: &Path, asset: &crate::xp::model::Asset, use_: &Use) -> Arc<Art> {
        let at = match use_ {
            Use::Point { at, .. } => Some(*at),
            Use::Polygon { windings } => windings.iter().flatten().next().copied(),
        };
        self.asset_art(file, asset, at.map(|[lon, lat]| Tile::of(lon, lat)))
    }
}

/// Tiles [`Scenery::place_tiles`] places in parallel at a time.
pub const TILE_BATCH: usize = 32;

impl Scenery {
    /// Places every autogen use of the DSF at `path` (and, with
    /// [`Params::whole_tile`], everything else it places,
    /// [`super::whole`]).
    pub fn place_tile(&self, path: &Path, params: &Params) -> Result<TilePlacement, TileError> {
        let max = params.limits.max_input_bytes;
        let bytes = crate::fsutil::read_file(path, "a DSF tile", max).map_err(|source| {
            TileError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
        self.place_dsf(path, &bytes, params)
    }

    /// Places every autogen use of the DSF `bytes`, read from `path` (the
    /// path names it in messages and gives its package,
    /// [`Scenery::package_of`]).
    pub fn place_dsf(
        &self,
        path: &Path,
        bytes: &[u8],
        params: &Params,
    ) -> Result<TilePlacement, TileError> {
        let (dsf, tile, uses) = dsf_uses(bytes, &params.limits).map_err(|error| {
            let contents = crate::check::Contents::of(bytes);
            TileError::Dsf {
                path: path.to_path_buf(),
                error,
                hint: contents
                    .hint()
                    .filter(|_| contents != crate::check::Contents::Dsf),
            }
        })?;
        let mut out = TilePlacement {
            dsf: path.to_path_buf(),
            tile,
            package: self.package_of(path).0,
            uses: uses.len(),
            placements: Vec::new(),
            unresolved: Unresolved::default(),
            warnings: Vec::new(),
            unplaced: Vec::new(),
            assets: Vec::new(),
            whole: None,
            ground: None,
            exclusions: None,
            off_mesh: 0,
            airports: None,
        };
        let resolved = self.resolve_all(path, tile, uses.iter().map(|u| u.asset.as_str()));
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for u in &uses {
            *counts.entry(u.asset.as_str()).or_insert(0) += 1;
        }
        for (asset, r) in &resolved {
            if !r.is_resolved() {
                out.unresolved
                    .add(asset, counts[asset.as_str()], self.why_unresolved(path, r));
            }
        }
        let mut listed: HashSet<PathBuf> = HashSet::new();
        let (_, root) = self.package_of(path);
        let index = self.index_for(&root);
        // No library at all (no installation, none given, none in the
        // package): library paths are not looked up, as `Scenery::asset_art`.
        let libs = (self.install().is_some() || !index.packages.is_empty()).then(|| {
            crate::scenery::art::Libraries {
                index: &index,
                tile: Some(tile),
                conditions: self.conditions(),
            }
        });
        let judge = params
            .whole_tile
            .then(|| crate::place::exclusions::judge_for(self, path, tile, &params.limits));
        let removed = |u: &AutogenUse| match &judge {
            Some(Ok(j)) => j.removes_use(u),
            _ => None,
        };
        for (i, u) in uses.iter().enumerate() {
            let r = &resolved[&u.asset];
            let Some(file) = r.pick(use_seed(params.seed, i)).map(|c| &c.file) else {
                out.unplaced.push(Placement {
                    removed_by: removed(u),
                    ..unplaced(u, "its asset resolves nowhere")
                });
                continue;
            };
            let loaded = self.asset(file);
            if loaded.has_news() && listed.insert(file.clone()) {
                out.assets.push(Arc::clone(&loaded));
            }
            let Ok(asset) = &loaded.asset else {
                out.unplaced.push(Placement {
                    removed_by: removed(u),
                    ..unplaced(u, "its asset does not load")
                });
                continue;
            };
            let art_params;
            let params = if self.reads_art() {
                art_params = Params {
                    art: Some(self.art().art_for(file, asset, libs.as_ref())),
                    ..params.clone()
                };
                &art_params
            } else {
                params
            };
            match place_use(asset, u, i, params) {
                Ok(mut p) => {
                    p.removed_by = removed(u);
                    if params.explain {
                        p.explain.insert(0, explain_resolution(file, r));
                    }
                    out.placements.push(p);
                }
                Err(e) => {
                    out.unplaced.push(Placement {
                        removed_by: removed(u),
                        ..unplaced(u, format!("not placed: {e}"))
                    });
                    out.warnings.push(UseWarning {
                        index: i,
                        asset: u.asset.clone(),
                        message: e.to_string(),
                    });
                }
            }
        }
        if params.whole_tile {
            out.whole = Some(self.place_rest(path, &dsf, tile, params, &mut out.placements));
            out.exclusions = judge.as_ref().map(|j| match j {
                Ok(j) => {
                    crate::place::exclusions::apply(j, &dsf, &mut out.placements, &out.unplaced)
                }
                Err(why) => crate::place::exclusions::Exclusions::not_looked_at(why.clone()),
            });
            let ground = self
                .ground_for(path, &dsf, tile, params.mesh.as_deref(), &params.limits)
                .map_err(|e| TileError::Mesh {
                    path: e.path,
                    why: e.why,
                })?;
            let found = self.tile_airports(&root, tile, &params.limits);
            let airports = (!found.airports.is_empty())
                .then_some(crate::scenery::tile_airports::Airports(found));
            for p in out.placements.iter_mut().chain(&mut out.unplaced) {
                out.off_mesh += ground.apply(p).off_mesh;
                p.airports.clone_from(&airports);
            }
            out.ground = Some(ground.source);
            out.airports = airports;
        }
        Ok(out)
    }

    /// Places every tile of `tiles` ([`Scenery::place_tile`]), in
    /// parallel [`TILE_BATCH`] tiles at a time, and hands each batch to
    /// `sink` in path order (as given) while the next batch is placed: the
    /// results are the same whatever the number of threads, and memory
    /// holds two batches, never the whole list. `progress` is called once
    /// per tile placed. The first error of `sink` ends the run.
    pub fn place_tiles<E>(
        &self,
        tiles: &[PathBuf],
        params: &Params,
        progress: &(dyn Fn() + Sync),
        sink: impl FnMut(Vec<Result<TilePlacement, TileError>>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.place_tiles_with(tiles, params, progress, |batch| batch, sink)
    }

    /// [`Scenery::place_tiles`] with a step of the caller's on the placing
    /// side: `prepare` turns each placed batch (in order) into what `sink`
    /// takes, while `sink` is busy with the batch before. A `prepare` that
    /// keeps less than the placements (text to write, counts) keeps memory
    /// to one batch of placements.
    pub fn place_tiles_with<T: Send, E>(
        &self,
        tiles: &[PathBuf],
        params: &Params,
        progress: &(dyn Fn() + Sync),
        mut prepare: impl FnMut(Vec<Result<TilePlacement, TileError>>) -> T + Send,
        mut sink: impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), E> {
        use rayon::prelude::*;
        let place = |batch: &[PathBuf]| -> Vec<Result<TilePlacement, TileError>> {
            batch
                .par_iter()
                .map(|t| {
                    let placed = self.place_tile(t, params);
                    progress();
                    placed
                })
                .collect()
        };
        let mut batches = tiles.chunks(TILE_BATCH);
        let mut pending = batches.next().map(|b| prepare(place(b)));
        while let Some(done) = pending.take() {
            let next = batches.next();
            let (place, prepare) = (&place, &mut prepare);
            let (prepared, sunk) = std::thread::scope(|s| {
                let handle = next.map(|b| s.spawn(move || prepare(place(b))));
                let sunk = sink(done);
                let prepared =
                    handle.map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
                (prepared, sunk)
            });
            sunk?;
            pending = prepared;
        }
        Ok(())
    }
}

/// The `--explain` line saying where a use's asset came from.
fn explain_resolution(file: &Path, r: &Resolution) -> String {
    let mut line = format!("resolved to {} ({})", file.display(), r.rule);
    let conds: Vec<&str> = r
        .candidates
        .iter()
        .flat_map(|c| &c.conditions)
        .map(String::as_str)
        .collect();
    if !conds.is_empty() {
        line.push_str(&format!(", assuming {}", conds.join(" and ")));
    }
    line
}

/// The DSF read within `limits` (a 7z archive's unpacked size, the
/// pools and commands), its tile (from `sim/west` and `sim/south`, else
/// the first use) and its autogen uses.
fn dsf_uses(
    bytes: &[u8],
    limits: &crate::limits::Limits,
) -> Result<(crate::dsf::Dsf, Tile, Vec<AutogenUse>), DsfError> {
    let dsf = crate::dsf::read_with(bytes, limits)?;
    let uses = crate::dsf::autogen_uses(&dsf);
    let prop = |n: &str| dsf.property(n).and_then(|v| v.trim().parse::<i32>().ok());
    let tile = match (prop("sim/west"), prop("sim/south")) {
        (Some(west), Some(south)) => Tile { west, south },
        _ => {
            let first = uses
                .first()
                .and_then(|u| u.point.or_else(|| u.windings.first()?.first().copied()))
                .unwrap_or([0.0, 0.0]);
            Tile::of(first[0], first[1])
        }
    };
    Ok((dsf, tile, uses))
}
