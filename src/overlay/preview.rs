//! Previews of an overlay: one SVG (and optionally PNG) per tile.
//!
//! Each preview draws the tile's autogen uses read back from its DSF model
//! with [`crate::out`]'s SVG/PNG picture: when the rule names a local copy
//! of the asset (`preview_file`), what the placement engine lays down for
//! the use (`place::place`: tiles, facades, objects, trees); otherwise the
//! use's DSF polygon or point alone.

use crate::dsf::{Dsf, autogen::AutogenKind, autogen_uses};
use crate::geom::LocalFrame;
use crate::out::Format;
use crate::place::{self, Params, Placement, Use};
use std::collections::BTreeMap;
use std::path::Path;

/// Assets the previews can run the placement engine on: DSF path → parsed
/// asset (only for rules with a readable `preview_file`).
pub type Assets = BTreeMap<String, crate::xp::model::Asset>;

/// Loads the `preview_file` of every rule (relative to `base`). Files that
/// cannot be read or parsed are listed in the returned notes.
pub fn load_assets(rules: &super::Rules, base: &Path) -> (Assets, Vec<String>) {
    let mut assets = Assets::new();
    let mut notes = Vec::new();
    for r in &rules.rules {
        let Some(file) = &r.preview_file else {
            continue;
        };
        let path = base.join(file);
        match std::fs::read_to_string(&path) {
            Ok(text) => match crate::xp::parse(&text) {
                Ok(a) => {
                    assets.insert(r.asset.clone(), a);
                }
                Err(d) => notes.push(format!(
                    "{}: not drawn ({} problem(s) parsing it)",
                    path.display(),
                    d.len()
                )),
            },
            Err(e) => notes.push(format!("{}: not drawn ({e})", path.display())),
        }
    }
    (assets, notes)
}

/// The placements of one tile's DSF, one per autogen use: what the
/// placement engine lays down when the asset is loaded (see
/// [`load_assets`]), otherwise just the use itself (the DSF polygon or
/// point, with a warning). `notes` collects engine errors.
pub fn tile_placements(dsf: &Dsf, assets: &Assets, notes: &mut Vec<String>) -> Vec<Placement> {
    let mut out = Vec::new();
    for (i, u) in autogen_uses(dsf).iter().enumerate() {
        let use_ = match u.kind {
            AutogenKind::Agp => Use::Point {
                at: u.point.unwrap_or_default(),
                heading: u.heading.unwrap_or(0.0),
            },
            _ => Use::Polygon {
                windings: u.windings.clone(),
            },
        };
        if let Some(asset) = assets.get(&u.asset) {
            let params = Params {
                seed: i as u64,
                ..Params::default()
            }
            .with_dsf_param(u.param.unwrap_or(0));
            match place::place(asset, &u.asset, &use_, &params) {
                Ok(p) => {
                    out.push(p);
                    continue;
                }
                Err(e) => {
                    let cut = u.kind == AutogenKind::Ags
                        && usize::from(u.low.unwrap_or(0)) < u.windings.len();
                    notes.push(if cut {
                        format!(
                            "{}: drawn as an outline: the AGS engine takes windings as closed rings and refuses the open contours of a piece cut at a tile edge ({e})",
                            u.asset
                        )
                    } else {
                        format!("{}: drawn as an outline: {e}", u.asset)
                    });
                }
            }
        }
        out.push(outline(u));
    }
    out
}

/// A placement holding only the use (no engine run).
fn outline(u: &crate::dsf::autogen::AutogenUse) -> Placement {
    let origin = u
        .point
        .or_else(|| u.windings.first().and_then(|w| w.first().copied()))
        .unwrap_or_default();
    let frame = LocalFrame::new(origin);
    Placement {
        kind: u.kind.as_str().to_string(),
        asset: u.asset.clone(),
        origin,
        polygon: u
            .windings
            .iter()
            .map(|w| w.iter().map(|&p| frame.to_local(p)).collect())
            .collect(),
        warnings: vec!["asset not loaded: the use is drawn without its placement".into()],
        ..Placement::default()
    }
}

/// The preview of one tile as SVG (or PNG) bytes, drawn by
/// [`crate::out`].
pub fn render_tile(
    dsf: &Dsf,
    assets: &Assets,
    png: bool,
    notes: &mut Vec<String>,
) -> Result<Vec<u8>, String> {
    let ps = tile_placements(dsf, assets, notes);
    let format = if png { Format::Png } else { Format::Svg };
    crate::out::render_all(&ps, format).map_err(|e| e.to_string())
}
