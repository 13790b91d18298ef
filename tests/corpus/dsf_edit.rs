//! Issue 51 on real tiles: every corpus DSF rebuilt through its text has
//! no crack (a vertex shared by pools at two positions) and keeps its
//! texture coordinates exactly when DSFTool wrote them; the binary edits
//! keep every coordinate bit for bit.

use super::support;
use agkit::dsf::{self, Entity, TextOptions, edit};
use agkit::limits::Limits;

use super::dsf::dsf_support;

/// Tiles with UV-mapped polygons on DSFTool's whole-unit grid.
const DSFLIB_UV: [&str; 4] = ["EDDB-SAM", "KIND-Indianapolis", "OEJN4XPL", "KEYW"];

/// The corpus tiles that read (damaged ones are `dsf.rs`'s business).
fn tiles() -> Vec<(String, Vec<u8>, dsf::Dsf)> {
    let mut out = Vec::new();
    for row in support::nonempty(support::rows_of(&["dsf"]), "dsf") {
        let b = std::fs::read(&row.path).unwrap();
        if let Ok(d) = dsf::read(&b) {
            out.push((row.path.display().to_string(), b, d));
        }
    }
    assert!(out.len() >= 20, "{} tiles", out.len());
    out
}

#[test]
fn every_corpus_tile_rebuilt_through_text_has_no_crack_and_keeps_its_uvs() {
    for (name, _, d) in tiles() {
        let t = dsf::to_text(&d, &TextOptions::default());
        let (m, mut o) = dsf::from_text(&t, &mut |_| Err("no rasters".into())).unwrap();
        (o.group, o.strip) = (true, true);
        let back = dsf::read(&dsf::build(&m, &o).unwrap()).unwrap();
        let (cracked, _, unpaired) = dsf_support::cracks(&d, &back, 1e-5);
        assert_eq!((cracked, unpaired), (0, 0), "{name}");
        let e = dsf_support::plane_errors(&d, &back).unwrap();
        let uv = e.of(dsf_support::PlaneKind::Uv);
        // Within a 16-bit step of 0..1 on every tile; on the tiles whose
        // texture coordinates lie on DSFTool's grid (written by WorldEditor
        // through DSFLib), exactly up to the text's decimals, where a
        // fitted grid moved them by up to 7.6e-6 (EDDB).
        assert!(uv <= 1.6e-5, "{name}: {e:?}");
        if DSFLIB_UV.iter().any(|t| name.contains(t)) {
            assert!(uv <= 1e-9, "{name}: {e:?}");
        }
    }
}

#[test]
fn every_corpus_tile_filtered_whole_is_itself_and_its_overlay_its_polygons() {
    for (name, b, d) in tiles() {
        let all = edit::filter(&b, &edit::Selection::default(), &Limits::default());
        let plain = |x: &dsf::Dsf| -> Vec<Entity> {
            x.entities
                .iter()
                .filter(|e| !matches!(e, Entity::Filter(_)))
                .cloned()
                .collect()
        };
        match all {
            Ok(out) => assert_eq!(plain(&dsf::read(&out).unwrap()), plain(&d), "{name}"),
            Err(e) => {
                assert_eq!(e.kind, edit::EditErrorKind::Empty, "{name}: {e}");
                assert!(plain(&d).is_empty(), "{name}");
            }
        }
        let opts = edit::OverlayOptions {
            exclude_polygons: vec![],
            objects: true,
            ..Default::default()
        };
        match edit::extract_overlay(&b, &opts, &Limits::default()) {
            Ok(out) => {
                let o = dsf::read(&out).unwrap();
                let want: Vec<Entity> = plain(&d)
                    .into_iter()
                    .filter(|e| !matches!(e, Entity::Patch(_)))
                    .collect();
                assert_eq!(plain(&o), want, "{name}");
                assert_eq!(o.property("sim/overlay"), Some("1"));
            }
            Err(e) => assert!(
                matches!(
                    e.kind,
                    edit::EditErrorKind::Empty | edit::EditErrorKind::Bounds
                ),
                "{name}: {e}"
            ),
        }
    }
}
