//! Placements and previews of an overlay: one SVG (and optionally PNG) per
//! tile.
//!
//! When a rule names a local copy of its asset (`preview_file`), the
//! placement engine runs on each of the rule's uses read back from the
//! tile's DSF model, seeded as `agkit place --dsf` seeds the uses of the
//! written tile with `--seed 0` ([`crate::place::tile::place_use`]: use `i`
//! gets seed `i`), so the preview shows what `place --dsf` places;
//! [`place_overlay`] carries its warnings
//! (an asset that does not fit its polygon, …) into the report, naming the
//! feature. The art each asset names is read beside its `preview_file`
//! ([`load_assets`]) and followed as `place` follows it. Each preview draws
//! the tile's placements with [`crate::out`]'s
//! SVG/PNG picture: tiles, facades, objects and trees where the engine ran,
//! otherwise the use's DSF polygon or point alone.

use super::{Overlay, TileId};
use crate::dsf::autogen::AutogenUse;
use crate::dsf::{Dsf, autogen_uses};
use crate::out::Format;
use crate::place::{Params, Placement, tile};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// An asset the previews place: parsed from its `preview_file`, with the
/// art it names found beside that file ([`crate::scenery::art`]).
#[derive(Debug, Clone)]
pub struct PreviewAsset {
    /// The asset.
    pub asset: crate::xp::model::Asset,
    /// Its objects, facades and forest, as found beside the file.
    pub art: Arc<crate::place::art::Art>,
}

/// Assets the previews can run the placement engine on: DSF path → parsed
/// asset and its art (only for rules with a readable `preview_file`).
pub type Assets = BTreeMap<String, PreviewAsset>;

/// Loads the `preview_file` of every rule (relative to `base`) and the art
/// each names (read once). Files that cannot be read or parsed are listed
/// in the returned notes.
pub fn load_assets(rules: &super::Rules, base: &Path) -> (Assets, Vec<String>) {
    let mut assets = Assets::new();
    let mut notes = Vec::new();
    let store = crate::scenery::art::ArtStore::default();
    for r in &rules.rules {
        let Some(file) = &r.preview_file else {
            continue;
        };
        let path = base.join(file);
        let max = crate::limits::Limits::default().max_input_bytes;
        let text = crate::fsutil::read_file(&path, "an autogen asset (preview_file)", max)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| e.reason());
        match text {
            Ok(text) => match crate::xp::parse(&text) {
                Ok(asset) => {
                    let art = store.art_for(&path, &asset, None);
                    assets.insert(r.asset.clone(), PreviewAsset { asset, art });
                }
                Err(d) => notes.push(format!(
                    "{}: not placed or drawn ({} problem(s) parsing it)",
                    path.display(),
                    d.len()
                )),
            },
            Err(e) => notes.push(format!("{}: not placed or drawn ({e})", path.display())),
        }
    }
    (assets, notes)
}

/// The placements of one tile's DSF, one per autogen use: what the
/// placement engine lays down when the asset is loaded (see
/// [`load_assets`]), otherwise just the use itself (the DSF polygon or
/// point, with a warning). `notes` collects engine errors.
pub fn tile_placements(dsf: &Dsf, assets: &Assets, notes: &mut Vec<String>) -> Vec<Placement> {
    autogen_uses(dsf)
        .iter()
        .enumerate()
        .map(|(i, u)| place_use(i, u, assets, "", notes).0)
        .collect()
}

/// The placements of every tile of `overlay` (as [`tile_placements`]),
/// with every warning of the placement engine (and every use it could not
/// place) added to `warnings`, naming the feature, the tile and the asset:
/// `feature 0 (id "a") in +47+013: assets/block.agb: no SPELLING_S …`.
/// Uses whose asset is not loaded add nothing (no engine ran on them).
///
/// This holds every tile's placements at once; [`place_tile`] places one
/// tile, for a caller that is done with it before the next.
pub fn place_overlay(
    overlay: &Overlay,
    assets: &Assets,
    warnings: &mut Vec<String>,
) -> BTreeMap<TileId, Vec<Placement>> {
    (overlay.tiles.keys())
        .map(|&tile| (tile, place_tile(overlay, tile, assets, warnings)))
        .collect()
}

/// The placements of one tile of `overlay` (none when it has no such
/// tile), its warnings added to `warnings` as by [`place_overlay`].
pub fn place_tile(
    overlay: &Overlay,
    tile: TileId,
    assets: &Assets,
    warnings: &mut Vec<String>,
) -> Vec<Placement> {
    let mut placements = Vec::new();
    each_placement(overlay, tile, assets, warnings, &mut |p| placements.push(p));
    placements
}

/// Only the warnings of [`place_tile`]: each placement is dropped once
/// its warnings are taken, so memory stays that of one use.
pub fn tile_warnings(overlay: &Overlay, tile: TileId, assets: &Assets, warnings: &mut Vec<String>) {
    each_placement(overlay, tile, assets, warnings, &mut drop);
}

/// Places the uses of `tile` in order, handing each placement to `f`
/// after adding its warnings to `warnings`.
fn each_placement(
    overlay: &Overlay,
    tile: TileId,
    assets: &Assets,
    warnings: &mut Vec<String>,
    f: &mut dyn FnMut(Placement),
) {
    let Some(dsf) = overlay.tiles.get(&tile) else {
        return;
    };
    let sources = overlay.sources.get(&tile).map(Vec::as_slice).unwrap_or(&[]);
    for (i, u) in autogen_uses(dsf).iter().enumerate() {
        let from = sources.get(i).map_or("a feature", String::as_str);
        let from = format!("{from} in {tile}: ");
        let (p, engine) = place_use(i, u, assets, &from, warnings);
        if engine {
            for w in &p.warnings {
                warnings.push(format!("{from}{}: {w}", u.asset));
            }
        }
        f(p);
    }
}

/// One use's placement (the `i`th of its tile, placed with seed 0 as
/// every face places a tile's uses: [`crate::place::tile`]), and whether
/// the engine placed it (`false`: drawn as the use's outline). An engine
/// error goes into `notes` after `from` (where the use comes from).
fn place_use(
    i: usize,
    u: &AutogenUse,
    assets: &Assets,
    from: &str,
    notes: &mut Vec<String>,
) -> (Placement, bool) {
    if let Some(a) = assets.get(&u.asset) {
        let params = Params {
            art: Some(Arc::clone(&a.art)),
            ..Params::default()
        };
        match tile::place_use(&a.asset, u, i, &params) {
            Ok(p) => return (p, true),
            Err(e) => notes.push(format!("{from}{}: drawn as an outline: {e}", u.asset)),
        }
    }
    (outline(u), false)
}

/// The reason a use is drawn without its placement (its asset is not
/// loaded): the preview draws it dashed.
const NOT_LOADED: &str = "asset not loaded: the use is drawn without its placement";

/// A placement holding only the use (no engine run).
fn outline(u: &AutogenUse) -> Placement {
    tile::unplaced(u, NOT_LOADED)
}

/// The preview of `tile`'s placements (from [`place_overlay`],
/// [`place_tile`] or [`tile_placements`]) as SVG (or PNG) bytes, drawn by
/// [`crate::out::svg`]: the title names the tile, a locator shows where
/// the map lies in it and its edge is drawn where it crosses the map;
/// uses whose asset is not loaded are dashed outlines. `notes` gets a line
/// for each thing the picture says it left out or changed: that it is an
/// overview (the tile holds more items than one picture draws), that
/// names were shortened or had characters XML does not allow replaced.
pub fn render(
    tile: TileId,
    placements: &[Placement],
    png: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>, String> {
    let format = if png { Format::Png } else { Format::Svg };
    let (unplaced, placed): (Vec<&Placement>, Vec<&Placement>) =
        placements.iter().partition(|p| p.is_unplaced());
    let scene = crate::out::svg::Sheet {
        placements: placed,
        unplaced,
        tile: Some(crate::dsf::Tile {
            west: tile.west,
            south: tile.south,
        }),
    };
    // The schematic style: a preview checks the overlay's uses and tiles
    // (ids, texture arrows) across a whole town, not the art.
    let opts = crate::out::svg::Options {
        style: crate::out::svg::PictureStyle::Schematic,
        ..crate::out::svg::Options::default()
    };
    let (bytes, said) =
        crate::out::picture_with(&scene, format, &opts).map_err(|e| e.to_string())?;
    notes.extend(said.into_iter().map(|n| format!("preview of {tile}: {n}")));
    Ok(bytes)
}
