//! A whole DSF tile placed (`Params::whole_tile`, `place --dsf --all`) on
//! every real tile of the corpus: its rows per kind are the rows `dsf
//! totext` lists, counted from that text here; every row is placed or
//! counted as not drawn; every object stands where the DSF says to the
//! centimetre; draped polygons keep their holes.

use super::support;
use agkit::dsf::{self, Entity, text::TextOptions};
use agkit::geom::LocalFrame;
use agkit::place::{Params, PlacementKind};
use agkit::scenery::Scenery;
use agkit::scenery::resolve::Conditions;
use std::collections::BTreeMap;

/// The lower-case extension of a definition path.
fn ext(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// An object line of the text: its definition's kind, lon and lat.
type ObjectLine = (String, f64, f64);

/// Rows per kind as the DSF2Text lists them: an `OBJECT*` line per object,
/// a `BEGIN_POLYGON` per polygon (a `BEGIN_WINDING` per winding of a
/// `.lin` or `.str`, each a line of its own), a `BEGIN_PATCH` per terrain
/// patch, a `RASTER_DEF` per raster; kinds by the definition's extension.
/// Also every object line's def, lon and lat, in order.
fn text_rows(text: &str) -> (BTreeMap<String, usize>, Vec<ObjectLine>) {
    let (mut objs, mut polys) = (Vec::new(), Vec::new());
    let mut rows: BTreeMap<String, usize> = BTreeMap::new();
    let mut objects = Vec::new();
    let mut open: Option<String> = None;
    for l in text.lines() {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w.first().copied() {
            Some("OBJECT_DEF") => objs.push(ext(&w[1..].join(" "))),
            Some("POLYGON_DEF") => polys.push(ext(&w[1..].join(" "))),
            Some("OBJECT" | "OBJECT_AGL" | "OBJECT_MSL") => {
                let def: usize = w[1].parse().unwrap();
                let kind = objs[def].clone();
                *rows.entry(kind.clone()).or_default() += 1;
                objects.push((kind, w[2].parse().unwrap(), w[3].parse().unwrap()));
            }
            Some("BEGIN_POLYGON") => {
                let kind = polys[w[1].parse::<usize>().unwrap()].clone();
                if kind != "lin" && kind != "str" {
                    *rows.entry(kind.clone()).or_default() += 1;
                }
                open = Some(kind);
            }
            Some("BEGIN_WINDING") => {
                if let Some(k) = open.as_ref().filter(|k| *k == "lin" || *k == "str") {
                    *rows.entry(k.clone()).or_default() += 1;
                }
            }
            Some("END_POLYGON") => open = None,
            Some("BEGIN_PATCH") => *rows.entry("terrain".into()).or_default() += 1,
            Some("RASTER_DEF") => *rows.entry("raster".into()).or_default() += 1,
            _ => {}
        }
    }
    (rows, objects)
}

/// Every corpus tile that reads, placed whole without art (the counts do
/// not depend on art; one tile with art is below).
fn tiles() -> Vec<(support::Row, dsf::Dsf)> {
    support::nonempty(support::rows_of(&["dsf"]), "dsf")
        .into_iter()
        .filter_map(|r| {
            let bytes = std::fs::read(&r.path).unwrap();
            dsf::read(&bytes).ok().map(|d| (r, d))
        })
        .collect()
}

fn whole(scenery: &Scenery, path: &std::path::Path) -> agkit::place::TilePlacement {
    let params = Params {
        whole_tile: true,
        ..Params::default()
    };
    scenery.place_tile(path, &params).unwrap()
}

/// Counts per kind equal DSF2Text's rows; every row is placed or not
/// drawn (with a reason); the placements hold what the counts say.
#[test]
fn whole_tile_counts_equal_totext_rows_on_every_corpus_tile() {
    let all = tiles();
    assert!(all.len() >= 20, "only {} corpus tiles read", all.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (row, d) in &all {
        let name = &row.rel;
        let text = dsf::to_text(d, &TextOptions::default());
        let (rows, _) = text_rows(&text);
        let scenery = Scenery::packages(None, &[], Conditions::default())
            .unwrap()
            .with_art(false);
        let t = whole(&scenery, &row.path);
        let w = t.whole.as_ref().expect("whole");
        // Network chains are counted by the chain, not by the text's
        // segments.
        let in_dsf: BTreeMap<String, usize> = w
            .counts
            .iter()
            .filter(|(k, c)| *k != "net" && c.in_dsf > 0)
            .map(|(k, c)| (k.clone(), c.in_dsf))
            .collect();
        let text_rows: BTreeMap<String, usize> =
            rows.into_iter().filter(|(k, _)| k != "net").collect();
        assert_eq!(in_dsf, text_rows, "{name}");
        for (kind, c) in &w.counts {
            assert_eq!(c.placed + c.not_drawn, c.in_dsf, "{name}: {kind}");
            *seen.entry(kind.clone()).or_default() += c.in_dsf;
        }
        // Whatever is not drawn is named with a reason, as many rows.
        let named: usize = w
            .not_drawn
            .iter()
            .filter(|n| !n.why.contains("hole") && !n.why.contains("objects are not laid"))
            .map(|n| n.items)
            .sum();
        assert_eq!(named, w.not_drawn_items(), "{name}: {:?}", w.not_drawn);
        // The placements hold the placed rows.
        let count = |kind: &str, f: &dyn Fn(&agkit::place::Placement) -> usize| -> usize {
            t.placements
                .iter()
                .filter(|p| p.kind.as_str() == kind)
                .map(f)
                .sum()
        };
        let placed = |k: &str| w.counts.get(k).map_or(0, |c| c.placed);
        assert_eq!(count("obj", &|p| p.objects.len()), placed("obj"), "{name}");
        assert_eq!(count("fac", &|p| p.facades.len()), placed("fac"), "{name}");
        assert_eq!(count("pol", &|p| p.draped.len()), placed("pol"), "{name}");
        assert_eq!(count("lin", &|p| p.lines.len()), placed("lin"), "{name}");
        assert_eq!(count("str", &|p| p.lines.len()), placed("str"), "{name}");
        // One placement per definition: no two share kind and asset.
        let mut defs: Vec<(&str, &str)> = t
            .placements
            .iter()
            .filter(|p| !matches!(p.kind.as_str(), "agp" | "agb" | "ags"))
            .map(|p| (p.kind.as_str(), p.asset.as_str()))
            .collect();
        let n = defs.len();
        defs.sort();
        defs.dedup();
        assert_eq!(defs.len(), n, "{name}");
    }
    // The corpus exercises the kinds this is about.
    for kind in ["obj", "fac", "for", "pol", "lin"] {
        assert!(
            seen.get(kind).is_some_and(|n| *n > 0),
            "no {kind} in the corpus: {seen:?}"
        );
    }
}

/// Every object of every tile is where the DSF2Text says, to the
/// centimetre: its lon/lat, and its local x, y taken back to lon/lat.
#[test]
fn every_object_stands_where_the_dsf_says_to_the_centimetre() {
    let mut checked = 0;
    for (row, d) in tiles() {
        let text = dsf::to_text(&d, &TextOptions::default());
        let (_, lines) = text_rows(&text);
        let want: Vec<(f64, f64)> = lines
            .iter()
            .filter(|(k, _, _)| k == "obj")
            .map(|&(_, lon, lat)| (lon, lat))
            .collect();
        let scenery = Scenery::packages(None, &[], Conditions::default())
            .unwrap()
            .with_art(false);
        let t = whole(&scenery, &row.path);
        // In entity order (the text's order).
        let mut got: Vec<(usize, f64, f64, LocalFrame, [f64; 2])> = t
            .placements
            .iter()
            .filter(|p| p.kind == PlacementKind::Obj)
            .flat_map(|p| {
                let frame = LocalFrame::new(p.origin);
                p.objects
                    .iter()
                    .map(move |o| (o.entity.unwrap(), o.lon, o.lat, frame, [o.x, o.y]))
            })
            .collect();
        got.sort_by_key(|g| g.0);
        assert_eq!(got.len(), want.len(), "{}", row.rel);
        for ((e, lon, lat, frame, xy), (wlon, wlat)) in got.iter().zip(&want) {
            let m = |dlon: f64, dlat: f64| {
                let k = 111_320.0;
                (dlon * k * wlat.to_radians().cos()).hypot(dlat * k)
            };
            assert!(m(lon - wlon, lat - wlat) < 0.01, "{} entity {e}", row.rel);
            let back = frame.to_lonlat(*xy);
            assert!(
                m(back[0] - wlon, back[1] - wlat) < 0.01,
                "{} entity {e}: local {xy:?} is {back:?}, the DSF says {wlon}, {wlat}",
                row.rel
            );
            assert!(matches!(d.entities[*e], Entity::Object(_)));
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} objects checked");
}

/// Draped polygons keep every winding of the DSF as a ring: the outer ring
/// and each hole (but holes of fewer than three points, which `features`
/// drops with a note).
#[test]
fn draped_polygons_keep_their_holes() {
    let (mut polys, mut holes) = (0, 0);
    for (row, d) in tiles() {
        let scenery = Scenery::packages(None, &[], Conditions::default())
            .unwrap()
            .with_art(false);
        let t = whole(&scenery, &row.path);
        for p in t.placements.iter().filter(|p| p.kind == PlacementKind::Pol) {
            for dr in &p.draped {
                let Entity::Polygon(e) = &d.entities[dr.entity] else {
                    panic!("{}: entity {} is no polygon", row.rel, dr.entity)
                };
                let kept = (0..e.windings.len())
                    .filter(|&k| {
                        let mut pts: Vec<[f64; 2]> = e.points(k).map(|q| [q[0], q[1]]).collect();
                        pts.dedup();
                        if pts.len() > 1 && pts.first() == pts.last() {
                            pts.pop();
                        }
                        pts.len() >= 3
                    })
                    .count();
                assert_eq!(dr.rings.len(), kept, "{} entity {}", row.rel, dr.entity);
                assert_eq!(dr.lonlat.len(), dr.rings.len());
                polys += 1;
                holes += dr.rings.len() - 1;
            }
        }
    }
    assert!(
        polys > 100 && holes > 0,
        "{polys} draped polygons, {holes} holes"
    );
}

/// A tile placed whole with its package's art: objects whose OBJ is in the
/// package have footprints, and the JSON form carries the whole counts.
#[test]
fn a_whole_tile_with_art_reads_its_objects_and_serializes() {
    let row = support::rows_of(&["dsf"])
        .into_iter()
        .find(|r| r.rel.contains("OSJW_openSAM_demo_airport"))
        .expect("the openSAM demo tile");
    let scenery = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let t = whole(&scenery, &row.path);
    let w = t.whole.as_ref().unwrap();
    assert!(w.counts["obj"].placed > 0, "{:?}", w.counts);
    let json = serde_json::to_value(&t).unwrap();
    assert!(json["whole"]["counts"]["obj"]["in_dsf"].as_u64().unwrap() > 0);
    // Objects carry the state of their OBJ; the ones not found are named
    // once per file among the placement's warnings, never silently.
    for p in t.placements.iter().filter(|p| p.kind == PlacementKind::Obj) {
        for o in &p.objects {
            assert!(o.art.is_some(), "{}", p.asset);
        }
        if p.objects
            .iter()
            .any(|o| o.art != Some(agkit::place::art::ArtState::Found))
        {
            assert!(!p.warnings.is_empty(), "{}", p.asset);
        }
    }
}

/// A real airport package with its own art (medmatix/BCATP-Picton_Aerodrome,
/// MIT licence, as `MANIFEST.tsv` gives it): its DSF and the OBJs and
/// textures of it the corpus keeps, laid out as the package lays them out
/// (objects beside `Earth nav data`). Placed whole, the metal shed the DSF
/// names is read with its texture: it has a footprint and a height, stands
/// where the DSF says, and the 3-D scene draws it as its own textured mesh;
/// the objects whose OBJ the corpus does not keep are named, not dropped.
#[test]
fn a_real_package_with_its_own_art_is_placed_and_drawn_whole() {
    let root = support::root();
    let dsf_rel = "medmatix__BCATP-Picton_Aerodrome/Earth nav data/+40-080/+43-078.dsf";
    let art = root.join("art/medmatix__BCATP-Picton_Aerodrome");
    let pkg = tempfile::tempdir().unwrap();
    let tile = pkg.path().join("Earth nav data/+40-080/+43-078.dsf");
    std::fs::create_dir_all(tile.parent().unwrap()).unwrap();
    std::fs::copy(root.join(dsf_rel), &tile).unwrap();
    for e in std::fs::read_dir(&art).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), pkg.path().join(e.file_name())).unwrap();
        }
    }
    let scenery = Scenery::packages(None, &[], Conditions::default()).unwrap();
    let t = whole(&scenery, &tile);
    let shed = t
        .placements
        .iter()
        .find(|p| p.kind == PlacementKind::Obj && p.asset == "OSXmetalShed1.obj")
        .expect("the metal shed's placement");
    assert!(!shed.objects.is_empty());
    // Where the DSF puts it: the text's OBJECT line for definition 16.
    let d = dsf::read(&std::fs::read(&tile).unwrap()).unwrap();
    let text = dsf::to_text(&d, &TextOptions::default());
    let line = text
        .lines()
        .find(|l| l.starts_with("OBJECT 16 "))
        .expect("an OBJECT of the shed");
    let f: Vec<f64> = line
        .split_whitespace()
        .skip(2)
        .map(|v| v.parse().unwrap())
        .collect();
    let o = &shed.objects[0];
    assert_eq!(o.art, Some(agkit::place::art::ArtState::Found));
    assert!(o.footprint.len() >= 3, "{:?}", o.footprint);
    assert!(
        o.object_height.is_some_and(|h| h > 1.0),
        "{:?}",
        o.object_height
    );
    let metres = |a: f64, b: f64| (a - b).abs() * 111_320.0;
    assert!(
        metres(o.lon, f[0]) < 0.01 && metres(o.lat, f[1]) < 0.01,
        "{o:?} {f:?}"
    );
    // The 3-D scene: the shed as a node with its own mesh, textured with
    // the package's shades.png.
    let scene = agkit::scene::build(&t.placements, &agkit::limits::Limits::default()).unwrap();
    let node = scene
        .nodes
        .iter()
        .find(|n| {
            scene
                .placement_of(n)
                .is_some_and(|p| p.asset == "OSXmetalShed1.obj")
                && n.mesh.is_some()
        })
        .expect("a node drawing the shed");
    let mesh = &scene.meshes[node.mesh.unwrap()];
    assert!(
        mesh.parts
            .iter()
            .map(|p| p.mesh.triangles.len())
            .sum::<usize>()
            > 10
    );
    let textured = mesh.parts.iter().any(|p| {
        scene.materials[p.material]
            .texture
            .is_some_and(|t| scene.textures[t].name.contains("shades"))
    });
    assert!(
        textured,
        "{:?}",
        mesh.parts
            .iter()
            .map(|p| &scene.materials[p.material])
            .collect::<Vec<_>>()
    );
    // The objects the corpus does not keep are placed as points and named.
    let missing: Vec<&str> = t
        .placements
        .iter()
        .filter(|p| p.kind == PlacementKind::Obj)
        .filter(|p| {
            p.objects
                .iter()
                .any(|o| o.art != Some(agkit::place::art::ArtState::Found))
        })
        .map(|p| p.asset.as_str())
        .collect();
    assert!(missing.contains(&"MessHall.obj"), "{missing:?}");
    for p in t
        .placements
        .iter()
        .filter(|p| missing.contains(&p.asset.as_str()))
    {
        assert!(
            p.warnings.iter().any(|w| w.message().contains("not found")),
            "{}: {:?}",
            p.asset,
            p.warnings
        );
    }
}

/// Twice a ring's signed area (independent of agkit's geometry code).
fn shoelace(r: &[[f64; 2]]) -> f64 {
    (0..r.len())
        .map(|k| {
            let (a, b) = (r[k], r[(k + 1) % r.len()]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum()
}

/// On every corpus tile the 3-D scene draws each draped polygon and
/// painted line of the whole tile as a node of its own, the counts those
/// of the placements (less the items with nothing to draw, which the
/// scene's warnings count); a drawn polygon's triangles face up and, on
/// rings that do not cross themselves, cover its outer ring less its holes.
#[test]
fn draped_polygons_and_lines_draw_in_the_3d_scene() {
    use agkit::scene::ItemKind;
    let (mut polys, mut drawn, mut matched, mut lines) = (0usize, 0usize, 0usize, 0usize);
    let mut worst: Vec<String> = Vec::new();
    for (row, _) in tiles() {
        let scenery = Scenery::packages(None, &[], Conditions::default())
            .unwrap()
            .with_art(false);
        let t = whole(&scenery, &row.path);
        let Ok(scene) = agkit::scene::build(&t.placements, &agkit::limits::Limits::default())
        else {
            continue;
        };
        let count = |k: ItemKind| scene.nodes.iter().filter(|n| n.item.kind == k).count();
        let empty = |what: &str| -> usize {
            scene
                .warnings
                .iter()
                .filter(|w| w.contains(what))
                .filter_map(|w| {
                    w.split(": ")
                        .nth(1)?
                        .split(' ')
                        .next()?
                        .parse::<usize>()
                        .ok()
                })
                .sum()
        };
        let placed: usize = t
            .placements
            .iter()
            .filter(|p| p.kind == PlacementKind::Pol)
            .map(|p| p.draped.len())
            .sum();
        let placed_lines: usize = t
            .placements
            .iter()
            .filter(|p| p.kind == PlacementKind::Lin)
            .map(|p| p.lines.len())
            .sum();
        assert_eq!(
            count(ItemKind::Draped) + empty("draped polygon(s) with no area"),
            placed,
            "{}",
            row.rel
        );
        assert_eq!(
            count(ItemKind::Line) + empty("line(s) with fewer than two distinct points"),
            placed_lines,
            "{}",
            row.rel
        );
        polys += placed;
        lines += placed_lines;
        for n in scene
            .nodes
            .iter()
            .filter(|n| n.item.kind == ItemKind::Draped)
        {
            drawn += 1;
            let p = &t.placements[n.item.placement];
            let d = &p.draped[n.item.index];
            let m = &scene.meshes[n.mesh.unwrap()].parts[0].mesh;
            assert!(m.normals.iter().all(|q| *q == [0.0, 0.0, 1.0]));
            let area: f64 = m
                .triangles
                .iter()
                .map(|t| {
                    let [a, b, c] = t.map(|i| m.positions[i as usize]);
                    ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2.0
                })
                .sum();
            let want = shoelace(&d.rings[0]).abs() / 2.0
                - d.rings[1..]
                    .iter()
                    .map(|r| shoelace(r).abs() / 2.0)
                    .sum::<f64>();
            if ((area - want) / want.max(1e-9)).abs() < 1e-6 {
                matched += 1;
            } else if worst.len() < 5 {
                worst.push(format!(
                    "{} entity {}: {area:.3} m² against {want:.3}",
                    row.rel, d.entity
                ));
            }
        }
    }
    eprintln!(
        "{polys} draped polygons placed, {drawn} drawn, {matched} with the area of their rings; {lines} lines; e.g. {worst:#?}"
    );
    assert!(polys > 100 && lines > 0, "{polys} polygons, {lines} lines");
    // Rings that cross themselves or holes that touch their ring are
    // triangulated as ear clipping can: the area may differ on those few.
    assert!(
        matched as f64 >= 0.95 * drawn as f64,
        "{matched} of {drawn}: {worst:#?}"
    );
}
