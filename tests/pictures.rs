//! The pictures people read: snapshots of the SVGs of the bundled demo
//! tile, an AGS around a lake with an island, `scenery at` of the fixture
//! installation and an overlay preview; the structure every picture keeps
//! (closed areas, labels clear of each other and of the markers), checked
//! by reading the SVG written; and the bound on a busy tile's picture.

mod heap_support;

use agkit::out::{self, Format};
use agkit::place::{self, Params, Placement, Use};
use heap_support::peak_of;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

// ------------------------------------------------------------ inputs

fn agkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agkit"))
        .current_dir(ROOT)
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    err
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn asset(path: &str) -> agkit::xp::model::Asset {
    agkit::xp::parse(&read(&Path::new(ROOT).join(path))).unwrap()
}

/// `town_edge.ags` around the lake with its island, as the README places
/// it (`--height 8 --spawning 1`).
fn lake(seed: u64) -> Placement {
    let text = read(&Path::new(ROOT).join("examples/polygons/lake.geojson"));
    let poly = agkit::out::geojson::read_polygon_features(&text).unwrap();
    let params = Params {
        seed,
        height: 8.0,
        low: 1,
        ..Params::default()
    };
    let use_ = Use::Polygon {
        windings: poly[0].windings.clone(),
    };
    place::place(
        &asset("examples/string/town_edge.ags"),
        "town_edge.ags",
        &use_,
        &params,
    )
    .unwrap()
}

/// The demo tile placed and drawn by the command line.
fn demo_svg(dir: &Path) -> String {
    let out = dir.join("demo.svg");
    // The schematic style: its ids, markers and labels are what these
    // tests read (tests/textured.rs holds the textured picture).
    ok(&agkit(&[
        "place",
        "--dsf",
        "examples/dsf/autogen_demo.dsf",
        "--scenery",
        "examples",
        "--style",
        "schematic",
        "-o",
        out.to_str().unwrap(),
    ]));
    read(&out)
}

/// An X-Plane folder with one package holding the demo tile and the
/// example assets it names.
fn demo_installation(dir: &Path) -> PathBuf {
    let pack = dir.join("Custom Scenery/Demo");
    for sub in ["point", "block", "string"] {
        std::fs::create_dir_all(pack.join(sub)).unwrap();
        for e in std::fs::read_dir(Path::new(ROOT).join("examples").join(sub)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, pack.join(sub).join(p.file_name().unwrap())).unwrap();
        }
    }
    let tiles = pack.join("Earth nav data/+40+010");
    std::fs::create_dir_all(&tiles).unwrap();
    std::fs::copy(
        Path::new(ROOT).join("examples/dsf/autogen_demo.dsf"),
        tiles.join("+47+013.dsf"),
    )
    .unwrap();
    std::fs::write(
        dir.join("Custom Scenery/scenery_packs.ini"),
        "I\n1000 Version\nSCENERY\n\nSCENERY_PACK Custom Scenery/Demo/\n",
    )
    .unwrap();
    dir.to_path_buf()
}

/// The example overlay built with SVG previews into `dir`.
fn overlay_previews(dir: &Path) -> Vec<(String, String)> {
    ok(&agkit(&[
        "overlay",
        "build",
        "examples/gis/FEATURES.geojson",
        "--rules",
        "examples/gis/RULES.toml",
        "-o",
        dir.to_str().unwrap(),
        "--preview",
        "svg",
    ]));
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir.join("preview"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                read(&p),
            )
        })
        .collect();
    v.sort();
    v
}

// ------------------------------------------------------------ reading SVG

/// The value of attribute `key` on an element's line.
fn attr<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!(" {key}=\"");
    let at = line.find(&pat)? + pat.len();
    Some(&line[at..at + line[at..].find('"')?])
}

fn num(line: &str, key: &str) -> f64 {
    attr(line, key)
        .unwrap_or_else(|| panic!("no {key} in {line}"))
        .parse()
        .unwrap()
}

/// The lines of each top-level group `<g id=…>`, by id, in order.
fn groups(svg: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut depth = 0;
    for line in svg.lines() {
        if depth == 0 {
            if let Some(id) = line.strip_prefix("<g id=\"") {
                out.push((id[..id.find('"').unwrap()].to_string(), Vec::new()));
                depth = 1;
            }
            continue;
        }
        if line.starts_with("<g ") {
            depth += 1;
        } else if line == "</g>" {
            depth -= 1;
            if depth == 0 {
                continue;
            }
        }
        out.last_mut().unwrap().1.push(line);
    }
    out
}

fn group<'a>(svg: &'a str, id: &str) -> Vec<&'a str> {
    groups(svg)
        .into_iter()
        .filter(|(g, _)| g == id)
        .flat_map(|(_, lines)| lines)
        .collect()
}

type Bbox = [f64; 4];

fn overlaps(a: &Bbox, b: &Bbox) -> bool {
    a[0] < b[2] - 1e-6 && b[0] < a[2] - 1e-6 && a[1] < b[3] - 1e-6 && b[1] < a[3] - 1e-6
}

/// The box a `<text>` line's words take at most: the stroke font's width
/// or 0.62 em a character, whichever is wider; an em tall.
fn text_box(line: &str) -> Bbox {
    let (x, y, size) = (num(line, "x"), num(line, "y"), num(line, "font-size"));
    let text = &line[line.find('>').unwrap() + 1..line.rfind("</text>").unwrap()];
    let n = text.chars().count() as f64;
    let w = agkit::out::strokefont::width(text, 0.9 * size).max(0.62 * size * n);
    let x0 = if attr(line, "text-anchor") == Some("middle") {
        x - w / 2.0
    } else {
        x
    };
    let (y0, y1) = if attr(line, "dominant-baseline") == Some("middle") {
        (y - size / 2.0, y + size / 2.0)
    } else {
        (y - 0.8 * size, y + 0.25 * size)
    };
    [x0, y0, x0 + w, y1]
}

/// The box of a marker element: a circle, a rectangle or a polyline.
fn shape_box(line: &str) -> Option<Bbox> {
    if line.starts_with("<circle") {
        let (x, y, r) = (num(line, "cx"), num(line, "cy"), num(line, "r"));
        return Some([x - r, y - r, x + r, y + r]);
    }
    if line.starts_with("<rect") {
        let (x, y) = (num(line, "x"), num(line, "y"));
        return Some([x, y, x + num(line, "width"), y + num(line, "height")]);
    }
    if line.starts_with("<polyline") {
        let mut b = [
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ];
        for p in attr(line, "points")?.split(' ') {
            let (x, y) = p.split_once(',')?;
            let (x, y): (f64, f64) = (x.parse().ok()?, y.parse().ok()?);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        }
        return Some(b);
    }
    None
}

/// Every area of the picture is closed: each `<path>` other than words
/// drawn as strokes is rings `M … Z`. Returns how many rings there are.
fn assert_areas_closed(svg: &str) -> usize {
    let mut rings = 0;
    for line in svg.lines().filter(|l| l.starts_with("<path ")) {
        if attr(line, "class") == Some("word") {
            continue;
        }
        let d = attr(line, "d").unwrap();
        assert!(d.starts_with('M'), "{line}");
        for ring in d.split('M').skip(1) {
            assert!(ring.ends_with('Z'), "an open ring: {line}");
            rings += 1;
        }
    }
    rings
}

/// Labels overlap neither each other nor any marker (objects, points).
/// Returns how many labels there are.
fn assert_labels_clear(svg: &str) -> usize {
    let labels: Vec<Bbox> = group(svg, "labels")
        .into_iter()
        .filter(|l| l.starts_with("<text"))
        .map(text_box)
        .collect();
    let markers: Vec<Bbox> = ["objects", "points"]
        .iter()
        .flat_map(|g| group(svg, g))
        .filter_map(shape_box)
        .collect();
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!overlaps(a, b), "labels at {a:?} and {b:?} overlap");
        }
        for m in &markers {
            assert!(
                !overlaps(a, m),
                "the label at {a:?} covers a marker at {m:?}"
            );
        }
    }
    labels.len()
}

// ------------------------------------------------------------ snapshots

#[test]
fn the_demo_tile_picture() {
    let dir = tempfile::tempdir().unwrap();
    let svg = demo_svg(dir.path());
    // The title names the tile and the assets.
    let title = group(&svg, "title").join("\n");
    assert!(
        title.contains(">DSF tile +47+013: 3 autogen uses</text>"),
        "{title}"
    );
    assert!(title.contains("assets: point/plaza.agp, block/city_block.agb, string/town_edge.ags"));
    assert!(
        assert_areas_closed(&svg) >= 36 + 4 + 3,
        "tiles, facades, uses"
    );
    assert!(assert_labels_clear(&svg) > 20);
    insta::assert_snapshot!("demo_tile_svg", svg);
}

#[test]
fn an_ags_around_a_lake_with_an_island() {
    let p = lake(0);
    assert_eq!(p.polygon.len(), 2, "the shore and the island");
    let svg = String::from_utf8(out::render_one(&p, Format::Svg).unwrap()).unwrap();
    // The DSF polygon is one path of two closed rings (even-odd: the
    // island is a hole).
    let polygon = group(&svg, "dsf-polygon");
    assert_eq!(polygon.len(), 1);
    assert_eq!(polygon[0].matches('Z').count(), 2);
    assert_eq!(attr(polygon[0], "fill-rule"), Some("evenodd"));
    assert_areas_closed(&svg);
    assert_labels_clear(&svg);
    insta::assert_snapshot!("lake_ags_svg", svg);
}

#[test]
fn scenery_at_the_fixture_installation() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("at.svg");
    ok(&agkit(&[
        "scenery",
        "at",
        "47.5,13.5",
        "--xplane",
        "tests/fixtures/xplane",
        "--radius",
        "200",
        "-o",
        out.to_str().unwrap(),
    ]));
    let svg = read(&out);
    let items = group(&svg, "items");
    // Four objects, as squares: the excluded shed grey and dashed.
    assert_eq!(items.iter().filter(|l| l.starts_with("<rect")).count(), 4);
    let excluded: Vec<&&str> = items
        .iter()
        .filter(|l| l.contains(r##"stroke="#b0b0b0""##))
        .collect();
    assert_eq!(excluded.len(), 1);
    assert!(excluded[0].contains("stroke-dasharray"));
    let legend = group(&svg, "legend").join("\n");
    for word in [
        "object",
        "#0 Airport: 2 items",
        "#1 Town: 2 items",
        "excluded",
    ] {
        assert!(
            legend.contains(&format!(">{word}</text>")),
            "{word}: {legend}"
        );
    }
    assert!(!legend.contains(">tree</text>"), "no tree here");
    assert_areas_closed(&svg);
    insta::assert_snapshot!("scenery_at_fixture_svg", svg);
}

#[test]
fn an_overlay_preview() {
    let dir = tempfile::tempdir().unwrap();
    let previews = overlay_previews(dir.path());
    let names: Vec<&str> = previews.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["+47+012.svg", "+47+013.svg"]);
    for (name, svg) in &previews {
        let tile = name.trim_end_matches(".svg");
        assert!(svg.contains(&format!(">DSF tile {tile}: ")), "{name}");
        // The features cross lon 13: the edge is drawn in both tiles, and
        // the locator names the tile.
        assert_eq!(group(svg, "tile-edge").len(), 1, "{name}");
        assert!(
            group(svg, "locator")
                .join("\n")
                .contains(&format!(">{tile}</text>"))
        );
        assert!(svg.contains(&format!(">edge of tile {tile}</text>")));
        assert_areas_closed(svg);
        assert_labels_clear(svg);
    }
    insta::assert_snapshot!("overlay_preview_svg", previews[0].1);
}

// ------------------------------------------------------------ structure

/// `scenery at` draws an autogen string (the demo's, with its park) as
/// closed rings, and tells unresolved items from resolved ones.
#[test]
fn scenery_at_draws_every_area_closed_and_unresolved_items_dashed() {
    let dir = tempfile::tempdir().unwrap();
    let root = demo_installation(dir.path());
    // Two of the objects the string places go missing from the package.
    for f in ["string/house_a.obj", "string/house_b.obj"] {
        std::fs::remove_file(root.join("Custom Scenery/Demo").join(f)).unwrap();
    }
    let out = dir.path().join("at.svg");
    ok(&agkit(&[
        "scenery",
        "at",
        "47.8008,13.0425",
        "--xplane",
        root.to_str().unwrap(),
        "--radius",
        "150",
        "-o",
        out.to_str().unwrap(),
    ]));
    let svg = read(&out);
    let items = group(&svg, "items");
    // The string is an outer contour and a park: one path, two rings.
    let string: Vec<&&str> = items
        .iter()
        .filter(|l| l.starts_with("<path") && l.contains(r#"fill-opacity="0.06""#))
        .collect();
    assert_eq!(string.len(), 1, "{items:?}");
    assert_eq!(string[0].matches('Z').count(), 2);
    assert!(assert_areas_closed(&svg) >= 5);
    // What resolves nowhere (the two removed objects, wherever the string
    // places them) is drawn as a dashed outline; what the package holds (the
    // assets, the other objects, facades, forests) solid.
    let dashed =
        |l: &&&str| attr(l, "stroke-dasharray").is_some() && attr(l, "fill") == Some("none");
    let n_dashed = items.iter().filter(dashed).count();
    assert!(n_dashed > 0, "{items:?}");
    assert!(items.len() > n_dashed + 20, "{n_dashed} of {}", items.len());
    assert!(
        items
            .iter()
            .any(|l| l.starts_with("<circle") && !dashed(&l)),
        "the AGP"
    );
    let legend = group(&svg, "legend").join("\n");
    for word in [
        "object",
        "autogen point",
        "autogen string",
        "unresolved (no file)",
    ] {
        assert!(legend.contains(&format!(">{word}</text>")), "{word}");
    }
}

prop_compose! {
    fn a_use()(kind in 0..3usize, seed in 0u64..1000, heading in 0.0f64..360.0)
              -> (usize, u64, f64) {
        (kind, seed, heading)
    }
}

/// A placement of one of the example assets: the plaza at `heading`, the
/// city block on the demo's block turned by `heading`, or the lake string.
fn example_placement(kind: usize, seed: u64, heading: f64) -> Placement {
    let params = Params {
        seed,
        height: 12.0,
        ..Params::default()
    };
    match kind {
        0 => place::place(
            &asset("examples/point/plaza.agp"),
            "plaza.agp",
            &Use::Point {
                at: [13.0, 47.5],
                heading,
            },
            &params,
        )
        .unwrap(),
        1 => {
            // The demo's block (about 102 × 59 m), turned by `heading`.
            let frame = agkit::geom::LocalFrame::new([13.0, 47.5]);
            let (sin, cos) = heading.to_radians().sin_cos();
            let ring = [[0.0, 0.0], [102.0, 0.0], [102.0, 59.0], [0.0, 59.0]]
                .map(|[x, y]| frame.to_lonlat([x * cos - y * sin, x * sin + y * cos]));
            let use_ = Use::Polygon {
                windings: vec![ring.to_vec()],
            };
            place::place(
                &asset("examples/block/city_block.agb"),
                "city_block.agb",
                &use_,
                &params,
            )
            .unwrap()
        }
        _ => lake(seed),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Pictures of one to three example uses, close up or spread over a
    /// kilometre: every area closed, every label clear of the others and
    /// of the markers.
    #[test]
    fn areas_are_closed_and_labels_clear_markers(uses in proptest::collection::vec(a_use(), 1..4),
                                                 spread in 0.0f64..0.01) {
        let ps: Vec<Placement> = uses
            .iter()
            .enumerate()
            .map(|(i, &(k, seed, heading))| {
                let mut p = example_placement(k, seed, heading);
                let shift = spread * i as f64;
                p.origin = [p.origin[0] + shift, p.origin[1] + shift / 2.0];
                p
            })
            .collect();
        let svg = String::from_utf8(out::render_all(&ps, Format::Svg).unwrap()).unwrap();
        prop_assert!(assert_areas_closed(&svg) > 0);
        assert_labels_clear(&svg);
    }
}

// ------------------------------------------------------------ the bound

/// `n` copies of the lake string (some 130 items each) side by side in
/// tile +47+013.
fn busy(n: usize) -> Vec<Placement> {
    let p = lake(0);
    (0..n)
        .map(|i| {
            let mut q = p.clone();
            q.origin = [
                13.1 + 0.004 * (i % 40) as f64,
                47.2 + 0.003 * (i / 40) as f64,
            ];
            q
        })
        .collect()
}

/// A scene with more items than one picture draws is an overview: each
/// use's outline and count, a note in the header, and a picture (PNG
/// included) whose memory does not grow with the items.
#[test]
fn a_scene_beyond_the_drawn_item_bound_is_an_overview() {
    let bound = agkit::limits::Limits::default().max_drawn_items;
    let ps = busy(500);
    let items: usize = ps.iter().map(Placement::items).sum();
    assert!(items > bound, "{items} items");
    let note = out::picture_note(&ps, Format::Png).expect("a note for stderr");
    assert!(
        note.starts_with("overview: ") && note.contains("500 uses"),
        "{note}"
    );
    assert!(out::picture_note(&ps, Format::Json).is_none());

    let svg = String::from_utf8(out::render_all(&ps, Format::Svg).unwrap()).unwrap();
    let title = group(&svg, "title").join("\n");
    assert!(title.contains(">overview: "), "{title}");
    // One outline per use (two rings each), its count where it fits, the
    // frame: about a thousand elements, not tens of thousands.
    let elements = svg.lines().filter(|l| l.starts_with('<')).count();
    assert!(elements < 2 * 500 + 200, "{elements} elements");
    assert_eq!(group(&svg, "uses").len(), 500);
    assert!(group(&svg, "objects").is_empty() && group(&svg, "trees").is_empty());
    assert!(svg.len() < 400_000, "{} bytes", svg.len());
    let legend = group(&svg, "legend").join("\n");
    assert!(legend.contains(&format!(
        ">town_edge.ags: 500 uses, {} items</text>",
        agkit::out::thousands(items)
    )));
    assert_areas_closed(&svg);
    assert_labels_clear(&svg);

    // Drawing every item of these placements (some 65,000) as a PNG took
    // 214 MB of heap, most of it the SVG library's tree; the overview
    // takes 8 MB.
    let (png, peak) = peak_of(|| out::render_all(&ps, Format::Png).unwrap());
    assert_eq!(&png[1..4], b"PNG");
    assert!(peak < 24 << 20, "peak heap {} MB", peak >> 20);
}

/// More uses than the bound: the map is counts per cell.
#[test]
fn more_uses_than_the_bound_are_counted_per_cell() {
    let ps = busy(300);
    let scene = agkit::out::svg::Sheet::of(&ps);
    let opts = agkit::out::svg::Options {
        max_items: 100,
        ..Default::default()
    };
    let pic = agkit::out::svg::draw(&scene, &opts);
    assert!(pic.overview.is_some());
    let svg = pic.drawing.to_svg(agkit::out::svg::TextMode::Text);
    let cells = group(&svg, "cells");
    assert!(
        !cells.is_empty() && cells.len() <= 300,
        "{} cells",
        cells.len()
    );
    assert!(group(&svg, "uses").is_empty());
    assert!(
        group(&svg, "legend")
            .join("\n")
            .contains("items in a cell of ")
    );
}

/// The command line on a tile of 1,500 uses (the demo's three, 500 times
/// over: `gen::busy_demo_tile`): the picture is an overview, stderr says
/// so, the pictures are small.
#[test]
fn a_busy_tile_gives_an_overview_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tile = dir.path().join("busy.dsf");
    std::fs::write(&tile, agkit::r#gen::busy_demo_tile(500).unwrap()).unwrap();
    let examples = Path::new(ROOT).join("examples");
    for ext in ["svg", "png"] {
        let out = dir.path().join(format!("busy.{ext}"));
        let err = ok(&agkit(&[
            "place",
            "--dsf",
            tile.to_str().unwrap(),
            "--scenery",
            examples.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]));
        assert!(err.contains("note: overview: "), "{err}");
        assert!(err.contains("1,500 uses"), "{err}");
        let bytes = std::fs::read(&out).unwrap();
        assert!(bytes.len() < 1 << 20, "{ext}: {} bytes", bytes.len());
        if ext == "svg" {
            let svg = String::from_utf8(bytes).unwrap();
            assert!(svg.contains(">DSF tile +47+013: 1,500 autogen uses</text>"));
            assert_eq!(group(&svg, "uses").len(), 1500);
        }
    }
}
