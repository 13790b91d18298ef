//! Real art followed by placement: an AGP written here naming every OBJ8
//! and every forest of the corpus by a path relative to it (in a temp
//! dir), placed as `agkit place` places it. Each object that reads carries
//! its real footprint (the area of the OBJ's footprint, within the reach of
//! its bounds from its position) and height; each that does not says
//! `"art": "invalid"` with one warning per file; each forest's trees come
//! from its own table, layer and height ranges, at its spacing.

use super::support;
use agkit::limits::Limits;
use agkit::place::art::ArtState;
use agkit::place::{self, Params, Placement, Use};
use agkit::scenery::Scenery;
use std::path::{Component, Path};

/// `to` as a path relative to the folder `from` (both made canonical),
/// written with `/` as X-Plane paths are.
fn relative(from: &Path, to: &Path) -> String {
    let (from, to) = (from.canonicalize().unwrap(), to.canonicalize().unwrap());
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = vec!["..".to_string(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// An AGP in `dir` (1 px = 1 m, one 1000 m tile) naming `vegetation` and
/// `objects`, with `body` as its annotations, placed with its art read
/// beside it; and the line of the AGP each line of `body` is.
fn place_agp(
    dir: &Path,
    vegetation: Option<&str>,
    objects: &[String],
    body: &str,
) -> (Placement, usize) {
    let mut text = String::from(
        "A\n1000\nAG_POINT\n\nTEXTURE ground.png\nTEXTURE_SCALE 1000 1000\nTEXTURE_WIDTH 1000\n",
    );
    if let Some(v) = vegetation {
        text.push_str(&format!("VEGETATION {v}\n"));
    }
    for o in objects {
        text.push_str(&format!("OBJECT {o}\n"));
    }
    // A blank line and the TILE, then the body.
    let first = text.lines().count() + 3;
    text.push_str(&format!("\nTILE 0 0 1000 1000\n{body}"));
    let file = dir.join("real_art.agp");
    std::fs::write(&file, &text).unwrap();
    let asset = agkit::xp::parse(&text).unwrap_or_else(|d| panic!("{d:?}"));
    let scenery = Scenery::without_libraries(Default::default());
    let params = Params {
        seed: 11,
        art: Some(scenery.asset_art(&file, &asset, None)),
        ..Params::default()
    };
    let p = place::place(
        &asset,
        "real_art.agp",
        &Use::Point {
            at: [13.5, 47.5],
            heading: 20.0,
        },
        &params,
    )
    .unwrap();
    (p, first)
}

/// The area of a ring, either way round.
fn shoelace(ring: &[[f64; 2]]) -> f64 {
    agkit::overlay::orient::signed_area(ring).abs()
}

#[test]
fn real_objects_are_placed_with_their_footprints() {
    let files = support::nonempty(support::files_of(&["obj"]), "obj");
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = files.iter().map(|f| relative(dir.path(), f)).collect();
    let mut body = String::new();
    // A square grid over the tile.
    let columns = (files.len() as f64).sqrt().ceil() as usize;
    let step = 900 / columns;
    for i in 0..files.len() {
        let (x, y) = (50 + (i % columns) * step, 50 + (i / columns) * step);
        body.push_str(&format!("OBJ_GRADED {x} {y} {} {i}\n", (i * 37) % 360));
    }
    let (p, _) = place_agp(dir.path(), None, &names, &body);
    assert_eq!(p.objects.len(), files.len());
    let (mut with_footprint, mut invalid) = (0, 0);
    for o in &p.objects {
        let i = usize::try_from(o.index).unwrap();
        let f = &files[i];
        let bytes = std::fs::read(f).unwrap();
        match agkit::obj::read(&bytes, &names[i], &Limits::default()) {
            Ok(obj) => {
                assert_eq!(o.art, Some(ArtState::Found), "{}", f.display());
                assert_eq!(o.object_height, obj.height(), "{}", f.display());
                let fp = obj.footprint();
                if fp.len() < 3 {
                    assert!(o.footprint.is_empty(), "{}", f.display());
                    continue;
                }
                with_footprint += 1;
                assert_eq!(o.footprint.len(), fp.len());
                assert_eq!(o.footprint_lonlat.len(), fp.len());
                let (a, b) = (shoelace(&o.footprint), shoelace(&fp));
                assert!(
                    (a - b).abs() <= 1e-6 * (1.0 + b),
                    "{}: {a} ≠ {b}",
                    f.display()
                );
                // No corner farther from the position than the bounds
                // reach in x and z.
                let bounds = obj.bounds().unwrap();
                let reach = [bounds.min, bounds.max]
                    .iter()
                    .flat_map(|x| [bounds.min, bounds.max].map(|z| x[0].hypot(z[2])))
                    .fold(0.0, f64::max);
                for q in &o.footprint {
                    let d = (q[0] - o.x).hypot(q[1] - o.y);
                    assert!(d <= reach + 1e-6, "{}: {d} > {reach}", f.display());
                }
            }
            Err(_) => {
                invalid += 1;
                assert_eq!(o.art, Some(ArtState::Invalid), "{}", f.display());
                assert!(o.footprint.is_empty());
                let w: Vec<&agkit::place::Warning> = p
                    .warnings
                    .iter()
                    .filter(|w| {
                        w.message()
                            .starts_with(&format!("{}: unreadable", names[i]))
                    })
                    .collect();
                assert_eq!(w.len(), 1, "{}: {:?}", f.display(), p.warnings);
                assert_eq!(w[0].code(), Some("AG0087"), "{}", w[0]);
            }
        }
    }
    assert!(with_footprint > 0, "no corpus object has a footprint");
    assert_eq!(p.warnings.len(), invalid, "{:?}", p.warnings);
}

#[test]
fn real_forests_give_their_trees() {
    let files = support::nonempty(support::files_of(&["for"]), "for");
    let mut placed = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let Ok(forest) = agkit::forest::read(&bytes, "forest", &Limits::default()) else {
            continue;
        };
        // The first layer with a tree to draw.
        let Some(layer) = forest
            .layers()
            .into_iter()
            .find(|&l| forest.layer(l).iter().any(|t| t.percentage > 0.0))
        else {
            continue;
        };
        let dir = tempfile::tempdir().unwrap();
        let name = relative(dir.path(), f);
        let body = format!("TREE_LINE 100 500 900 500 {layer}\nTREE 500 100 0 8 {layer}\n");
        // The TREE_LINE is the body's first line, the TREE its second.
        let (p, line) = place_agp(dir.path(), Some(&name), &[], &body);
        assert!(p.warnings.is_empty(), "{}: {:?}", f.display(), p.warnings);
        assert!(p.trees.len() >= 2, "{}", f.display());
        for t in &p.trees {
            assert_eq!(t.art, Some(ArtState::Found));
            let tree = &forest.trees[t.forest_tree.expect("a tree of the forest")];
            assert_eq!(i64::from(tree.layer), t.layer, "{}", f.display());
            assert!(tree.percentage > 0.0);
            assert_eq!(t.tree_name, tree.name);
            let h = t.height.unwrap();
            if t.source_line == line + 1 {
                // The TREE: scaled to its 8 m width.
                assert_eq!(t.width, 8.0);
            } else {
                let (lo, hi) = (
                    tree.min_height.min(tree.max_height),
                    tree.min_height.max(tree.max_height),
                );
                assert!(h >= lo - 1e-9 && h <= hi + 1e-9, "{}: {h}", f.display());
            }
        }
        // The line's steps: the forest's spacing ± its randomness.
        let s = if forest.spacing[0] > 0.0 {
            forest.spacing[0]
        } else {
            30.0
        };
        let r = forest.random[0].max(0.0);
        let mut row: Vec<[f64; 2]> = p
            .trees
            .iter()
            .filter(|t| t.source_line == line)
            .map(|t| [t.x, t.y])
            .collect();
        assert!(!row.is_empty());
        row.sort_by(|a, b| a[0].total_cmp(&b[0]));
        let (lo, hi) = ((s - r).max(s / 10.0), s + r);
        for w in row.windows(2) {
            let step = (w[1][0] - w[0][0]).hypot(w[1][1] - w[0][1]);
            assert!(
                step >= lo - 1e-6 && step <= hi + 1e-6,
                "{}: a step of {step} m, spacing {s} ± {r}",
                f.display()
            );
        }
        placed += 1;
    }
    assert!(placed > 0, "no corpus forest has a tree to draw");
}
