//! Issue 51 item 1: the binary edits of `agkit::dsf::edit`. Each keeps
//! the input's coordinates bit for bit (pools are copied, not
//! re-quantised), and refuses by name a result X-Plane would reject.

use agkit::dsf::edit::{self, Area, EditErrorKind, OverlayOptions, Selection};
use agkit::dsf::{self, Dsf, ElevationMode, Entity, NetworkChain, Object, Polygon, Raster};
use agkit::limits::Limits;

/// A base-mesh tile with a bit of everything: terrain patches, objects
/// (draped and MSL), polygons of three definitions (def 0 a beach), a road
/// chain, an airport filter and an elevation raster.
fn tile() -> Dsf {
    let mut d = Dsf {
        properties: [("west", 13), ("south", 47), ("east", 14), ("north", 48)]
            .iter()
            .map(|(k, v)| (format!("sim/{k}"), v.to_string()))
            .chain([("sim/filter/aptid".to_string(), "LOWI".to_string())])
            .collect(),
        terrain_defs: vec!["terrain/grass.ter".into()],
        object_defs: vec!["lib/tower.obj".into(), "lib/house.agp".into()],
        polygon_defs: vec![
            "lib/beach.bch".into(),
            "lib/forests/pine.for".into(),
            "lib/pave.pol".into(),
        ],
        network_defs: vec!["lib/roads.net".into()],
        raster_defs: vec!["elevation".into()],
        rasters: vec![raster("elevation", 3)],
        ..Dsf::default()
    };
    let tri = |x: f64, y: f64| {
        [
            [x, y, 500.0, 0.1, 0.2],
            [x + 0.01, y, 510.0, 0.1, 0.2],
            [x, y + 0.01, 505.0, 0.1, 0.2],
        ]
        .concat()
    };
    d.entities.push(Entity::Patch(dsf::Patch {
        def: 0,
        flags: 1,
        lod_near: 0.0,
        lod_far: -1.0,
        depth: 5,
        primitives: [tri(13.1, 47.1), tri(13.6, 47.6)]
            .into_iter()
            .map(|vertices| dsf::Primitive {
                kind: dsf::PrimitiveKind::Triangles,
                vertices,
            })
            .collect(),
    }));
    for (k, (lon, lat)) in [(13.2, 47.2), (13.7, 47.7), (13.71, 47.71)]
        .into_iter()
        .enumerate()
    {
        d.entities.push(Entity::Object(Object {
            def: (k % 2) as u32,
            lon,
            lat,
            heading: 30.0 * k as f64,
            elevation: (k == 0).then_some(612.5),
            mode: if k == 0 {
                ElevationMode::Msl
            } else {
                ElevationMode::Draped
            },
        }));
    }
    d.entities.push(Entity::Filter(0));
    for (def, lon) in [(0u32, 13.3), (1, 13.4), (2, 13.8), (1, 13.85)] {
        let ring = vec![lon, 47.3, lon + 0.01, 47.3, lon + 0.01, 47.31];
        d.entities.push(Entity::Polygon(Polygon {
            def,
            param: 0,
            depth: 2,
            windings: vec![ring],
        }));
    }
    d.entities.push(Entity::Filter(-1));
    d.entities.push(Entity::Network(NetworkChain {
        def: 0,
        subtype: 3,
        depth: 4,
        points: vec![
            13.5, 47.5, 0.0, 1.0, 13.51, 47.52, 0.0, 0.0, 13.52, 47.5, 0.0, 2.0,
        ],
    }));
    d
}

fn raster(name: &str, fill: u8) -> Raster {
    Raster {
        name: name.into(),
        version: 1,
        bpp: 2,
        flags: 1 | 4,
        width: 3,
        height: 2,
        scale: 1.0,
        offset: 0.0,
        data: vec![fill; 12],
    }
}

fn bytes(d: &Dsf) -> Vec<u8> {
    dsf::build(d, &Default::default()).unwrap()
}

fn read(b: &[u8]) -> Dsf {
    dsf::read(b).unwrap()
}

/// Entities without filters, for comparing kept ones with the input's.
fn plain(d: &Dsf) -> Vec<Entity> {
    d.entities
        .iter()
        .filter(|e| !matches!(e, Entity::Filter(_)))
        .cloned()
        .collect()
}

#[test]
fn extract_overlay_keeps_polygons_and_roads_exactly_as_ortho4xp_does() {
    let src = bytes(&tile());
    let input = read(&src);
    let out =
        read(&edit::extract_overlay(&src, &OverlayOptions::default(), &Limits::default()).unwrap());
    assert_eq!(out.property("sim/overlay"), Some("1"));
    assert_eq!(out.patches().count() + out.objects().count(), 0);
    assert!(out.rasters.is_empty() && out.terrain_defs.is_empty() && out.object_defs.is_empty());
    // Ortho4XP keeps every POLYGON_DEF (numbers unchanged) and drops def 0.
    assert_eq!(out.polygon_defs, input.polygon_defs);
    let want: Vec<&Polygon> = input.polygons().filter(|p| p.def != 0).collect();
    let got: Vec<&Polygon> = out.polygons().collect();
    assert_eq!(got, want, "kept polygons are the input's, bit for bit");
    assert_eq!(
        out.chains().collect::<Vec<_>>(),
        input.chains().collect::<Vec<_>>()
    );
    // No FILTER line survives Ortho4XP's filter.
    assert!(
        !out.entities
            .iter()
            .any(|e| matches!(e, Entity::Filter(f) if *f >= 0))
    );
    // Objects on request; road subtypes and polygon texts excluded.
    let opts = OverlayOptions {
        exclude_polygons: vec!["!.for".into()],
        exclude_roads: vec!["3".into()],
        objects: true,
    };
    let out = read(&edit::extract_overlay(&src, &opts, &Limits::default()).unwrap());
    assert_eq!(
        out.objects().collect::<Vec<_>>(),
        input.objects().collect::<Vec<_>>()
    );
    assert!(out.polygons().all(|p| p.def == 1));
    assert_eq!(out.chains().count(), 0);
}

#[test]
fn an_overlay_of_nothing_is_refused_by_name() {
    let mut d = tile();
    d.entities.retain(|e| matches!(e, Entity::Patch(_)));
    let e = edit::extract_overlay(&bytes(&d), &OverlayOptions::default(), &Limits::default())
        .unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Empty);
    assert!(e.message.contains("no entity"), "{e}");
}

/// Regression: merging or filtering a tile of exclusions alone (as
/// WorldEditor writes them; three such tiles are in the corpus) was
/// refused as empty.
#[test]
fn a_tile_of_exclusions_alone_merges_and_filters() {
    let mut a = Dsf::overlay(13, 47);
    a.properties
        .push(("sim/exclude_for".into(), "13.1/47.1/13.2/47.2".into()));
    let mut b = Dsf::overlay(13, 47);
    b.properties
        .push(("sim/exclude_obj".into(), "13.3/47.3/13.4/47.4".into()));
    let (a, b) = (bytes(&a), bytes(&b));
    let m = read(&edit::merge(&[&a, &b], &Limits::default()).unwrap());
    assert!(m.entities.is_empty());
    assert_eq!(m.property("sim/exclude_for"), Some("13.1/47.1/13.2/47.2"));
    assert_eq!(m.property("sim/exclude_obj"), Some("13.3/47.3/13.4/47.4"));
    let sel = edit::Selection {
        drop: vec!["object".parse().unwrap()],
        ..Default::default()
    };
    let f = read(&edit::filter(&a, &sel, &Limits::default()).unwrap());
    assert_eq!(f.property("sim/exclude_for"), Some("13.1/47.1/13.2/47.2"));
    // Without the exclusion it is still refused.
    let bare = bytes(&Dsf::overlay(13, 47));
    let e = edit::filter(&bare, &sel, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Empty);
}

#[test]
fn filter_keeps_by_kind_pattern_and_area() {
    let src = bytes(&tile());
    let input = read(&src);
    let keep = |sel: Selection| read(&edit::filter(&src, &sel, &Limits::default()).unwrap());
    let forests = keep(Selection {
        keep: vec!["polygon:*.for".parse().unwrap()],
        ..Default::default()
    });
    assert_eq!(forests.polygons().count(), 2);
    assert_eq!(plain(&forests).len(), 2);
    // The filter state comes along: the forests are under LOWI's filter.
    assert!(forests.entities.contains(&Entity::Filter(0)));
    // Dropping patches leaves everything else, as it was.
    let no_mesh = keep(Selection {
        drop: vec!["patch".parse().unwrap()],
        ..Default::default()
    });
    let want: Vec<Entity> = plain(&input)
        .into_iter()
        .filter(|e| !matches!(e, Entity::Patch(_)))
        .collect();
    assert_eq!(plain(&no_mesh), want);
    // A box keeps the objects (point by point) and the patch primitives in it.
    let east = keep(Selection {
        area: Some(Area::Box([13.65, 47.65, 14.0, 48.0])),
        ..Default::default()
    });
    assert_eq!(east.objects().count(), 2);
    assert_eq!(east.patches().count(), 0, "no primitive is in the box");
    let ne = keep(Selection {
        area: Some(Area::Box([13.5, 47.5, 14.0, 48.0])),
        ..Default::default()
    });
    let p: Vec<_> = ne.patches().collect();
    assert_eq!(p.len(), 1);
    assert!(p[0].primitives.iter().all(|pr| pr.vertices[0] >= 13.5));
    let e = edit::filter(
        &src,
        &Selection {
            area: Some(Area::Box([0.0, 0.0, 1.0, 1.0])),
            ..Default::default()
        },
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Empty);
}

#[test]
fn merge_renumbers_definitions_and_filters() {
    let full = bytes(&tile());
    let a = edit::filter(
        &full,
        &Selection {
            keep: vec!["polygon:*.for".parse().unwrap()],
            ..Default::default()
        },
        &Limits::default(),
    )
    .unwrap();
    let b = edit::filter(
        &full,
        &Selection {
            keep: vec!["object".parse().unwrap(), "polygon:*.pol".parse().unwrap()],
            ..Default::default()
        },
        &Limits::default(),
    )
    .unwrap();
    let m = read(&edit::merge(&[&a, &b], &Limits::default()).unwrap());
    assert_eq!(m.polygons().count(), 3);
    assert_eq!(m.objects().count(), 3);
    // One table, each path once.
    assert_eq!(m.polygon_defs.len(), 3);
    let names: Vec<&str> = m
        .polygons()
        .map(|p| m.polygon_defs[p.def as usize].as_str())
        .collect();
    assert_eq!(names.iter().filter(|n| n.ends_with(".for")).count(), 2);
    // A tile of another square is refused.
    let mut other = tile();
    other.properties[0].1 = "12".into();
    other.properties[2].1 = "13".into();
    let e = edit::merge(&[&a, &bytes(&other)], &Limits::default()).unwrap_err();
    assert_eq!((e.kind, e.input), (EditErrorKind::Bounds, Some(1)));
}

#[test]
fn props_set_and_unset_keeping_everything_else() {
    let src = bytes(&tile());
    let input = read(&src);
    let edits = edit::PropertyEdits {
        set: vec![
            ("sim/exclude_obj".into(), "13.0/47.0/13.5/47.5".into()),
            ("sim/exclude_obj".into(), "13.5/47.5/14.0/48.0".into()),
            ("sim/overlay".into(), "1".into()),
        ],
        unset: vec!["sim/filter/aptid".into()],
    };
    let out = read(&edit::props(&src, &edits, &Limits::default()).unwrap());
    assert_eq!(
        out.properties
            .iter()
            .filter(|(n, _)| n == "sim/exclude_obj")
            .count(),
        2
    );
    assert_eq!(out.property("sim/overlay"), Some("1"));
    assert_eq!(out.entities, input.entities);
    assert_eq!(out.rasters, input.rasters);
    let e = edit::props(
        &src,
        &edit::PropertyEdits {
            unset: vec!["sim/north".into()],
            ..Default::default()
        },
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Bounds);
}

#[test]
fn rasters_copy_seasons_as_autoortho_does_and_check_the_tiles() {
    let mut ortho = tile();
    ortho.rasters.clear();
    ortho.raster_defs.clear();
    let mut global = tile();
    global.rasters = vec![
        raster("elevation", 1),
        raster("sea_level", 2),
        raster("spr1", 3),
        raster("soundscape", 4),
    ];
    global.raster_defs = global.rasters.iter().map(|r| r.name.clone()).collect();
    let (o, g) = (bytes(&ortho), bytes(&global));
    let out = read(&edit::rasters(&o, Some(&g), &Default::default(), &Limits::default()).unwrap());
    let names: Vec<&str> = out.rasters.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        ["elevation", "spr1", "soundscape"],
        "AutoOrtho's SAFE_RASTERS"
    );
    assert_eq!(out.raster_defs, names);
    assert_eq!(out.entities, read(&o).entities);
    let only = edit::RasterEdits {
        layers: vec!["sea_level".into()],
        drop: vec![],
    };
    let out = read(
        &edit::rasters(
            &out_bytes(&o, &g, &only),
            None,
            &edit::RasterEdits {
                layers: vec![],
                drop: vec!["sea_level".into()],
            },
            &Limits::default(),
        )
        .unwrap(),
    );
    assert!(out.rasters.is_empty());
    let missing = edit::RasterEdits {
        layers: vec!["win9".into()],
        drop: vec![],
    };
    let e = edit::rasters(&o, Some(&g), &missing, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Raster);
    // Regression: the missing layer was reported against the tile being
    // changed, not the source tile that lacks it.
    assert_eq!(e.input, Some(1), "{e}");
    let mut far = global.clone();
    far.properties[1].1 = "46".into();
    far.properties[3].1 = "47".into();
    let e = edit::rasters(
        &o,
        Some(&bytes(&far)),
        &Default::default(),
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, EditErrorKind::Bounds);
}

fn out_bytes(o: &[u8], g: &[u8], e: &edit::RasterEdits) -> Vec<u8> {
    edit::rasters(o, Some(g), e, &Limits::default()).unwrap()
}

#[test]
fn edits_read_7z_tiles_and_their_results_pack_to_7z() {
    let src = bytes(&tile());
    let packed = dsf::pack_7z(&src, "+47+013.dsf").unwrap();
    assert!(packed.len() < src.len());
    let out =
        edit::extract_overlay(&packed, &OverlayOptions::default(), &Limits::default()).unwrap();
    let again = dsf::pack_7z(&out, "+47+013.dsf").unwrap();
    let back = read(&again);
    assert!(back.compressed);
    assert_eq!(back.entities, read(&out).entities);
}

#[test]
fn a_broken_input_is_a_read_error_naming_the_byte() {
    let mut b = bytes(&tile());
    let n = b.len();
    b.truncate(n / 2);
    let e = edit::filter(&b, &Selection::default(), &Limits::default()).unwrap_err();
    assert_eq!((e.kind, e.input), (EditErrorKind::Read, Some(0)));
    assert!(e.offset.is_some());
}

/// The command line: a refusal exits 1 naming its kind, nothing is written
/// over an input, `--7z` writes an archive the reader takes.
#[test]
fn the_commands_refuse_by_name_and_never_write_over_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let tile_path = dir.path().join("+47+013.dsf");
    std::fs::write(&tile_path, bytes(&tile())).unwrap();
    let run = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = dir.path().join("out.dsf");
    let o = run(&[
        "dsf".as_ref(),
        "extract-overlay".as_ref(),
        tile_path.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--7z".as_ref(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let packed = std::fs::read(&out).unwrap();
    assert!(read(&packed).compressed);
    let o = run(&[
        "dsf".as_ref(),
        "filter".as_ref(),
        tile_path.as_os_str(),
        "--drop".as_ref(),
        "any".as_ref(),
        "-o".as_ref(),
        dir.path().join("empty.dsf").as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("DSF-EDIT-empty"));
    assert!(!dir.path().join("empty.dsf").exists());
    let before = std::fs::read(&tile_path).unwrap();
    let o = run(&[
        "dsf".as_ref(),
        "props".as_ref(),
        tile_path.as_os_str(),
        "--set".as_ref(),
        "a=b".as_ref(),
        "-o".as_ref(),
        tile_path.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read(&tile_path).unwrap(), before);
}

/// `dsf::decode_head` reads what `decode` reads of a tile's head, plain
/// or packed, without its pools or commands: the source of `rasters` is
/// read no further (issue 51, the season step's memory on small tiles).
#[test]
fn the_head_alone_is_the_decoded_head_without_pools_or_commands() {
    let mut t = tile();
    t.rasters.push(raster("spr1", 7));
    t.raster_defs.push("spr1".into());
    let plain = bytes(&t);
    let packed = dsf::pack_7z(&plain, "+47+013.dsf").unwrap();
    for b in [&plain, &packed] {
        let whole = dsf::read::decode(b, &Limits::default()).unwrap().head;
        let head = dsf::decode_head(b, &Limits::default()).unwrap();
        assert_eq!(head.properties, whole.properties);
        assert_eq!(
            (&head.terrain_defs, &head.object_defs, &head.polygon_defs),
            (&whole.terrain_defs, &whole.object_defs, &whole.polygon_defs)
        );
        assert_eq!(head.network_defs, whole.network_defs);
        assert_eq!(head.raster_defs, whole.raster_defs);
        assert_eq!(head.rasters, whole.rasters);
        assert_eq!(head.md5, whole.md5);
        assert_eq!(head.compressed, whole.compressed);
        assert!(head.pools.is_empty() && head.entities.is_empty());
        assert!(!whole.pools.is_empty());
    }
    // A command stream that `decode` refuses: the head is still read, so
    // its rasters can be copied (AutoOrtho copies them from the text).
    let mut broken = plain.clone();
    let at = broken.windows(4).rposition(|w| w == b"SDMC").unwrap() + 8;
    broken[at] = 0xFF;
    assert!(dsf::read::decode(&broken, &Limits::default()).is_err());
    let head = dsf::decode_head(&broken, &Limits::default()).unwrap();
    assert_eq!(head.rasters, t.rasters);
    let out = edit::rasters(
        &bytes(&tile()),
        Some(&broken),
        &Default::default(),
        &Limits::default(),
    )
    .unwrap();
    let names: Vec<String> = read(&out).rasters.into_iter().map(|r| r.name).collect();
    assert_eq!(names, ["elevation", "spr1"]);
}
