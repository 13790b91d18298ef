//! A whole overlay build into a scenery folder, as `agkit overlay build`
//! (and Python's `agkit.overlay.build`) runs it: build, encode, place the
//! uses as written for the report's warnings and the previews, then write
//! tiles, previews and report in one all-or-nothing step.

use super::build::{BuildOptions, Overlay, OverlayError, build_overlay, write_encoded_overlay};
use super::{Feature, Rules, preview};
use std::path::{Path, PathBuf};

/// Options of [`build_folder`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderOptions {
    /// How the overlay is built (lenient, creation agent).
    pub build: BuildOptions,
    /// Previews into `DIR/preview`: `None` for none, `Some(false)` for one
    /// SVG per tile, `Some(true)` for an SVG and a PNG per tile.
    pub preview: Option<bool>,
}

/// What [`build_folder`] did.
#[derive(Debug)]
pub struct Built {
    /// The overlay built: its tiles and its report (with the placement
    /// engine's warnings and the tiles of an earlier build removed), as
    /// written to `overlay-report.json`.
    pub overlay: Overlay,
    /// The written tiles, then the report.
    pub written: Vec<PathBuf>,
    /// Preview files written.
    pub previews: usize,
}

/// Builds the overlay of `features` by `rules` into the scenery folder
/// `dir`. The rules' `preview_file`s are read relative to `base` (the
/// rules file's folder). The tiles are encoded once and read back, and
/// the placement engine runs on the uses as written (as `agkit place
/// --dsf` of the tile reads them): its warnings go into the report, its
/// placements into the previews, all before anything is written; one
/// tile's placements are held at a time, and none without previews.
pub fn build_folder(
    features: &[Feature],
    rules: &Rules,
    base: &Path,
    dir: &Path,
    opts: &FolderOptions,
) -> Result<Built, OverlayError> {
    let mut built = build_overlay(features, rules, &opts.build)?;
    let encoded = built.encode()?;
    let as_written = built.read_back(&encoded)?;
    let (assets, mut notes) = preview::load_assets(rules, base);
    let mut previews = Vec::new();
    let folder = dir.join("preview");
    for &tile in as_written.tiles.keys() {
        let Some(png) = opts.preview else {
            preview::tile_warnings(&as_written, tile, &assets, &mut notes);
            continue;
        };
        let ps = preview::place_tile(&as_written, tile, &assets, &mut notes);
        let formats: &[(bool, &str)] = if png {
            &[(false, "svg"), (true, "png")]
        } else {
            &[(false, "svg")]
        };
        for &(png, ext) in formats {
            let bytes = preview::render(tile, &ps, png, &mut notes).map_err(|message| {
                OverlayError::Encode {
                    tile,
                    message: format!("preview: {message}"),
                }
            })?;
            previews.push((folder.join(format!("{tile}.{ext}")), bytes));
        }
    }
    notes.sort();
    notes.dedup();
    built.report.warnings.extend(notes);
    let n = previews.len();
    let written = write_encoded_overlay(&mut built, encoded, dir, previews)?;
    Ok(Built {
        overlay: built,
        written,
        previews: n,
    })
}
