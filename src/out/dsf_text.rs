//! `--format dsf-text`: DSF2Text, the text form DSFTool turns into a DSF
//! (`DSFTool --text2dsf out.txt out.dsf`).
//!
//! The tile is the 1° square holding the first placement's origin
//! (`sim/west`, `sim/south`, … written last, as the DSFTool README asks);
//! `sim/overlay 1`. Every distinct OBJ becomes an `OBJECT_DEF` and every
//! distinct facade a `POLYGON_DEF`, in order of first use. Objects with a
//! vertical offset (OBJ_DELTA, a raised OBJ_SCRAPER) are written as
//! `OBJECT_AGL` with that offset — the offset then counts from the terrain
//! under the object, not from the tile's ground point —, all others as
//! draped `OBJECT`. Facades are `BEGIN_POLYGON def height 2` (height in whole
//! metres) with one winding, or depth 3 carrying the wall types of
//! FAC_WALLS. Tiles and trees have no DSF form here and are left out, as is
//! anything outside the tile (counted in a comment). Numbers use DSFTool's
//! printf formats (`%.9lf` for coordinates, `%.3lf` for headings).
//!
//! Definition paths are written as the asset names them (OBJ and FAC paths
//! of an AGP are relative to the AGP's folder): the DSF works where those
//! paths resolve from its package, or as library paths.

use crate::place::Placement;
use std::fmt::Write;

/// A heading as DSF2Text writes it (`%.3lf`), in `0 ≤ h < 360` as
/// written: rounded to the thousandth first, so that 359.9996 is `0.000`,
/// never `360.000`, and −0.0001 is `0.000`, never `-0.000`.
///
/// ```
/// use agkit::out::dsf_text::heading;
/// assert_eq!(heading(359.9996), "0.000");
/// assert_eq!(heading(359.9994), "359.999");
/// assert_eq!(heading(-90.0), "270.000");
/// assert_eq!(heading(-0.0001), "0.000");
/// ```
pub fn heading(h: f64) -> String {
    let thousandths = (h * 1000.0).round().rem_euclid(360_000.0);
    // `+ 0.0` turns −0 into 0.
    format!("{:.3}", thousandths / 1000.0 + 0.0)
}

/// All placements as one DSF2Text document.
pub fn to_dsf_text(ps: &[Placement]) -> String {
    let origin = ps.first().map_or([0.0, 0.0], |p| p.origin);
    let west = origin[0].floor().clamp(-180.0, 179.0);
    let south = origin[1].floor().clamp(-90.0, 89.0);
    let inside =
        |lon: f64, lat: f64| lon >= west && lon <= west + 1.0 && lat >= south && lat <= south + 1.0;

    let mut objs: Vec<&str> = Vec::new();
    let mut facs: Vec<&str> = Vec::new();
    let mut body = String::new();
    let mut skipped = 0usize;
    let mut agl: Vec<f64> = Vec::new();
    for p in ps {
        for o in &p.objects {
            if !inside(o.lon, o.lat) {
                skipped += 1;
                continue;
            }
            let def = index_of(&mut objs, &o.asset);
            if o.height != 0.0 {
                agl.push(o.height);
                let _ = writeln!(
                    body,
                    "OBJECT_AGL {def} {:.9} {:.9} {:.5} {}",
                    o.lon,
                    o.lat,
                    o.height,
                    heading(o.heading)
                );
            } else {
                let _ = writeln!(
                    body,
                    "OBJECT {def} {:.9} {:.9} {}",
                    o.lon,
                    o.lat,
                    heading(o.heading)
                );
            }
        }
        for f in &p.facades {
            if f.lonlat.len() < 2 || !f.lonlat.iter().all(|q| inside(q[0], q[1])) {
                skipped += 1;
                continue;
            }
            let def = index_of(&mut facs, &f.asset);
            let walls = f.walls.as_ref().filter(|w| w.len() == f.lonlat.len());
            let depth = if walls.is_some() { 3 } else { 2 };
            let _ = writeln!(
                body,
                "BEGIN_POLYGON {def} {} {depth}\nBEGIN_WINDING",
                f.height.round().clamp(0.0, 65535.0) as i64
            );
            for (k, q) in f.lonlat.iter().enumerate() {
                match walls {
                    Some(w) => {
                        let _ = writeln!(
                            body,
                            "POLYGON_POINT {:.9} {:.9} {:.9}",
                            q[0], q[1], w[k] as f64
                        );
                    }
                    None => {
                        let _ = writeln!(body, "POLYGON_POINT {:.9} {:.9}", q[0], q[1]);
                    }
                }
            }
            body.push_str("END_WINDING\nEND_POLYGON\n");
        }
    }

    let mut s = String::new();
    s.push_str("A\n800 written by agkit ");
    s.push_str(env!("CARGO_PKG_VERSION"));
    s.push_str("\nDSF2TEXT\n\n");
    for p in ps {
        let _ = writeln!(s, "# placed: {} (seed {})", sanitize(&p.asset), p.seed);
    }
    if skipped > 0 {
        let _ = writeln!(s, "# {skipped} items outside the tile left out");
    }
    s.push('\n');
    if !agl.is_empty() {
        let lo = agl.iter().copied().fold(0.0f64, f64::min).floor();
        let hi = agl.iter().copied().fold(lo + 1.0, f64::max);
        let res = ((((hi - lo) / 65535.0) * 1e5).ceil() / 1e5).max(0.001);
        let _ = writeln!(s, "HEIGHTS {res:.5} {lo:.1}");
    }
    s.push_str("PROPERTY sim/overlay 1\n");
    let _ = writeln!(
        s,
        "PROPERTY sim/creation_agent agkit {}",
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(s, "PROPERTY sim/west {}", west as i64);
    let _ = writeln!(s, "PROPERTY sim/east {}", west as i64 + 1);
    let _ = writeln!(s, "PROPERTY sim/north {}", south as i64 + 1);
    let _ = writeln!(s, "PROPERTY sim/south {}", south as i64);
    for o in &objs {
        let _ = writeln!(s, "OBJECT_DEF {}", sanitize(o));
    }
    for f in &facs {
        let _ = writeln!(s, "POLYGON_DEF {}", sanitize(f));
    }
    s.push_str(&body);
    s
}

/// The index of `name` in `defs`, appending it when new.
fn index_of<'a>(defs: &mut Vec<&'a str>, name: &'a str) -> usize {
    match defs.iter().position(|d| *d == name) {
        Some(i) => i,
        None => {
            defs.push(name);
            defs.len() - 1
        }
    }
}

/// DSF2Text drops everything from `#` and cannot hold line breaks.
fn sanitize(s: &str) -> String {
    s.replace(['#', '\n', '\r'], "_")
}
