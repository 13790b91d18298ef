//! Previews of an overlay: one SVG (and optionally PNG) per tile.
//!
//! Each preview draws the tile's autogen uses read back from its DSF model
//! (AGB/AGS windings as outlines, spawning contours solid and cut contours
//! dashed; AGP points as dots with a heading tick) and, when the rule names
//! a local copy of the asset (`preview_file`), what the placement engine
//! lays down for the use (`place::place`: tiles, facades, objects, trees).
//! The view is the bounding box of the uses, in an equirectangular
//! projection scaled by cos(latitude) so shapes are not stretched.

use crate::dsf::{Dsf, autogen::AutogenKind, autogen_uses};
use crate::geom::LonLat;
use crate::place::{self, Params, Placement, Use};
use std::collections::BTreeMap;
use std::fmt::Write;
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

/// The SVG preview of one tile's DSF. `notes` collects placement errors.
pub fn tile_svg(dsf: &Dsf, assets: &Assets, notes: &mut Vec<String>) -> String {
    let uses = autogen_uses(dsf);
    let mut placements: Vec<Placement> = Vec::new();
    for u in &uses {
        let Some(asset) = assets.get(&u.asset) else {
            continue;
        };
        let use_ = match u.kind {
            AutogenKind::Agp => Use::Point {
                at: u.point.unwrap_or_default(),
                heading: u.heading.unwrap_or(0.0),
            },
            _ => Use::Polygon {
                windings: u.windings.clone(),
            },
        };
        let params = Params::default().with_dsf_param(u.param.unwrap_or(0));
        match place::place(asset, &u.asset, &use_, &params) {
            Ok(p) => placements.push(p),
            Err(e) => notes.push(format!("{}: {e}", u.asset)),
        }
    }
    // View box: all points of uses and placements.
    let mut pts: Vec<LonLat> = Vec::new();
    for u in &uses {
        pts.extend(u.point);
        for w in &u.windings {
            pts.extend(w.iter().copied());
        }
    }
    if pts.is_empty() {
        pts.push([0.0, 0.0]);
    }
    let (mut w, mut s, mut e, mut n) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in &pts {
        w = w.min(p[0]);
        e = e.max(p[0]);
        s = s.min(p[1]);
        n = n.max(p[1]);
    }
    let k = ((s + n) / 2.0).to_radians().cos().max(0.01);
    let span = ((e - w) * k).max(n - s).max(1e-6);
    let margin = span * 0.05;
    let size = 1024.0;
    let scale = size / (span + 2.0 * margin);
    let x = |lon: f64| (lon - w) * k * scale + margin * scale;
    let y = |lat: f64| (n - lat) * scale + margin * scale;
    let width = ((e - w) * k + 2.0 * margin) * scale;
    let height = ((n - s) + 2.0 * margin) * scale;
    let path = |ring: &[LonLat], close: bool| -> String {
        let mut d = String::new();
        for (i, p) in ring.iter().enumerate() {
            let _ = write!(
                d,
                "{}{:.2},{:.2} ",
                if i == 0 { "M" } else { "L" },
                x(p[0]),
                y(p[1])
            );
        }
        if close {
            d.push('Z');
        }
        d
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.2} {height:.2}">"#
    );
    let _ = writeln!(
        svg,
        r##"<rect width="100%" height="100%" fill="#f4f1e8"/>"##
    );
    for p in &placements {
        for t in p.tiles.iter().filter(|t| !t.hidden) {
            let _ = writeln!(
                svg,
                r##"<path d="{}" fill="#c9b79c" stroke="#8a7558" stroke-width="0.5"/>"##,
                path(&t.lonlat, true)
            );
        }
        for f in &p.facades {
            let _ = writeln!(
                svg,
                r##"<path d="{}" fill="#b0a8a0" stroke="#555" stroke-width="0.7"/>"##,
                path(&f.lonlat, true)
            );
        }
        for o in &p.objects {
            let _ = writeln!(
                svg,
                r##"<circle cx="{:.2}" cy="{:.2}" r="2" fill="#3b5ba5"/>"##,
                x(o.lon),
                y(o.lat)
            );
        }
        for t in &p.trees {
            let _ = writeln!(
                svg,
                r##"<circle cx="{:.2}" cy="{:.2}" r="2.5" fill="#4f8a3c"/>"##,
                x(t.lon),
                y(t.lat)
            );
        }
    }
    for u in &uses {
        match u.kind {
            AutogenKind::Agp => {
                let p = u.point.unwrap_or_default();
                let h = u.heading.unwrap_or(0.0).to_radians();
                let (cx, cy) = (x(p[0]), y(p[1]));
                let _ = writeln!(
                    svg,
                    r##"<circle cx="{cx:.2}" cy="{cy:.2}" r="5" fill="#d04a02"><title>{}</title></circle><line x1="{cx:.2}" y1="{cy:.2}" x2="{:.2}" y2="{:.2}" stroke="#d04a02" stroke-width="2"/>"##,
                    esc(&u.asset),
                    cx + 12.0 * h.sin(),
                    cy - 12.0 * h.cos()
                );
            }
            kind => {
                let colour = if kind == AutogenKind::Agb {
                    "#1b6ec2"
                } else {
                    "#7a2ea0"
                };
                let spawning = if kind == AutogenKind::Ags {
                    usize::from(u.low.unwrap_or(0))
                } else {
                    u.windings.len()
                };
                for (i, wd) in u.windings.iter().enumerate() {
                    let closed = kind == AutogenKind::Agb || is_ring(u, i);
                    let dash = if i >= spawning {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        svg,
                        r#"<path d="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}><title>{}</title></path>"#,
                        path(wd, closed),
                        esc(&u.asset)
                    );
                }
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A winding is drawn closed when no other winding shares its end points
/// (it was not split into open contours).
fn is_ring(u: &crate::dsf::autogen::AutogenUse, i: usize) -> bool {
    let w = &u.windings[i];
    let (Some(a), Some(b)) = (w.first(), w.last()) else {
        return false;
    };
    !u.windings
        .iter()
        .enumerate()
        .any(|(j, o)| j != i && (o.first() == Some(b) || o.last() == Some(a)))
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Renders an SVG to PNG bytes (resvg).
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, String> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .map_err(|e| format!("SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width().max(1), size.height().max(1))
        .ok_or("empty image")?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| format!("PNG: {e}"))
}
