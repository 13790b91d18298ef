//! Fuzz regressions: the fuzz targets' properties as plain tests, replayed
//! over the fuzz seeds and every crasher kept under
//! `tests/fixtures/crashers/<target>/`. A crasher found by `cargo fuzz` gets
//! its own test below, named after it; so does every other fixed bug.

use std::path::Path;

/// `fuzz/fuzz_targets/xp_text.rs`.
fn xp_text(data: &[u8]) {
    let (text, _diags) = agkit::xp::check_bytes(data);
    assert_eq!(agkit::xp::Document::parse(&text).to_string(), text);
    let once = agkit::xp::Document::parse(&text).to_canonical();
    let twice = agkit::xp::Document::parse(&once).to_canonical();
    assert_eq!(once, twice, "canonical form is not a fixed point");
    if let Ok(asset) = agkit::xp::parse(&text) {
        let written = agkit::xp::write::to_string(&asset);
        let again = agkit::xp::parse(&written)
            .unwrap_or_else(|d| panic!("written model does not parse: {d:?}\n{written}"));
        assert_eq!(written, agkit::xp::write::to_string(&again));
    }
}

/// `fuzz/fuzz_targets/agn_read.rs`.
fn agn_read(data: &[u8]) {
    let _ = agkit::agn::check_bytes(data);
    if let Ok(agn) = agkit::agn::read(data) {
        let bytes = agkit::agn::write(&agn).expect("a model read from bytes writes");
        assert_eq!(bytes, data, "AGN read → write is not lossless");
        assert_eq!(agkit::agn::read(&bytes).expect("written AGN reads"), agn);
    }
}

/// `fuzz/fuzz_targets/dsf_read.rs`.
fn dsf_read(data: &[u8]) {
    agkit::r#gen::fuzz_dsf_read(data);
}

/// `fuzz/fuzz_targets/dsf_build.rs`.
fn dsf_build(data: &[u8]) {
    agkit::r#gen::fuzz_dsf_build(data);
}

/// `fuzz/fuzz_targets/place.rs`; true when a placement was made.
fn place(data: &[u8]) -> bool {
    agkit::r#gen::fuzz_case(data).is_some_and(|case| agkit::r#gen::fuzz_place(&case))
}

/// The art fuzz targets (`fuzz/fuzz_targets/{obj_read,fac_read,for_read,
/// texture_decode}.rs`), by target name.
type Property = fn(&[u8]);
const ART: [(&str, Property); 4] = [
    ("obj_read", agkit::r#gen::fuzz_obj_read),
    ("fac_read", agkit::r#gen::fuzz_fac_read),
    ("for_read", agkit::r#gen::fuzz_for_read),
    ("texture_decode", agkit::r#gen::fuzz_texture_decode),
];

fn replay(dir: &str, f: impl Fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut n = 0;
    for e in entries {
        let p = e.unwrap().path();
        let data = std::fs::read(&p).unwrap();
        eprintln!("replaying {}", p.display());
        f(&data);
        n += 1;
    }
    n
}

#[test]
fn fuzz_seeds_satisfy_the_fuzz_properties() {
    assert!(replay("fuzz/seeds/xp_text", xp_text) >= 6);
    assert!(replay("fuzz/seeds/agn_read", agn_read) >= 1);
    assert!(replay("fuzz/seeds/dsf_read", dsf_read) >= 1);
    assert!(replay("fuzz/seeds/dsf_build", dsf_build) >= 4);
    for (target, f) in ART {
        assert!(replay(&format!("fuzz/seeds/{target}"), f) >= 2, "{target}");
    }
    // The framed examples do place (the harness is not vacuous).
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds/place");
    let mut placed = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        placed += usize::from(place(&std::fs::read(e.unwrap().path()).unwrap()));
    }
    assert!(placed >= 6, "only {placed} seeds placed");
}

#[test]
fn extension_seeds_place_holes_and_odd_places_and_refuse_what_they_must() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/place");
    let seed = |name: &str| place(&std::fs::read(dir.join(name)).unwrap());
    for placed in [
        "town_edge.ags_lake",
        "town_edge.ags_lake_spacing",
        "town_edge.ags_square_hole",
        "garden_fence.ags_pole",
        "city_block.agb_antimeridian",
    ] {
        assert!(seed(placed), "{placed}");
    }
    // 120 km wide; an AG0080 model read leniently; a point whose
    // longitude is NaN.
    for refused in [
        "garden_fence.ags_x1000",
        "town_edge.ags_scale_0.0001_lenient",
        "plaza.agp_off_earth",
    ] {
        assert!(!seed(refused), "{refused}");
    }
}

#[test]
fn kept_crashers_no_longer_crash() {
    replay("tests/fixtures/crashers/xp_text", xp_text);
    replay("tests/fixtures/crashers/agn_read", agn_read);
    replay("tests/fixtures/crashers/dsf_read", dsf_read);
    replay("tests/fixtures/crashers/dsf_build", dsf_build);
    for (target, f) in ART {
        replay(&format!("tests/fixtures/crashers/{target}"), f);
    }
    replay("tests/fixtures/crashers/place", |d| {
        place(d);
    });
}

#[test]
fn hostile_bytes_of_every_kind_do_not_panic() {
    // Truncations of every seed at every length up to 512 bytes.
    for (dir, f) in [
        ("fuzz/seeds/agn_read", agn_read as fn(&[u8])),
        ("fuzz/seeds/dsf_read", dsf_read),
        ("fuzz/seeds/xp_text", xp_text),
        ("fuzz/seeds/obj_read", ART[0].1),
        ("fuzz/seeds/fac_read", ART[1].1),
        ("fuzz/seeds/for_read", ART[2].1),
        ("fuzz/seeds/texture_decode", ART[3].1),
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for e in std::fs::read_dir(dir).unwrap() {
            let data = std::fs::read(e.unwrap().path()).unwrap();
            for n in (0..data.len().min(512)).step_by(7) {
                f(&data[..n]);
            }
        }
    }
}

/// Issue 24 ("Text"): a lone CR ends a line for X-Plane's text scanner, but
/// agkit's AGP/AGB/AGS reader read past it, so `# note<CR>OBJ_DRAPED …`
/// hid the object inside the comment.
#[test]
fn lone_cr_after_a_comment_hid_the_next_directive() {
    let lf = "A\n1000\nAG_POINT\nTEXTURE_SCALE 64 64\nTEXTURE_WIDTH 64\nOBJECT car.obj\nTILE 0 0 64 64\n# note\nOBJ_DRAPED 10 10 0 0\n";
    let one_cr = lf.replace("# note\n", "# note\r");
    let all_cr = lf.replace('\n', "\r");
    let want = agkit::xp::parse(lf).unwrap();
    assert_eq!(want.tiles[0].annotations.len(), 1);
    for src in [one_cr, all_cr] {
        assert_eq!(agkit::xp::parse(&src).unwrap(), want, "{src:?}");
        assert_eq!(agkit::xp::Document::parse(&src).to_string(), src);
    }
}

/// The fixture with the features of a shipped AGP (`Row_of_Cars_10.agp` of
/// a public X-Plane library: HIDE_TILES, two OBJECTs, one TILE, a
/// counter-clockwise CROP_POLY, eleven OBJ_DRAPED, no TEXTURE_SCALE or
/// TEXTURE_WIDTH), written for these tests.
fn row_of_parked_cars() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agp/row_of_parked_cars.agp"),
    )
    .unwrap()
}

/// Issue 25, "A real, shipped asset is refused": no TEXTURE_SCALE and no
/// TEXTURE_WIDTH were errors (AG0013, AG0014) and a counter-clockwise
/// CROP_POLY too (AG0032), so `check` failed and `place` refused a file
/// X-Plane loads. They are warnings naming the simulator's default, and the
/// cars are placed one pixel to the metre, as WorldEditor reads the file:
/// ten cars 2.5 m apart and the bay markings.
#[test]
fn shipped_agp_without_texture_scale_or_width_was_refused() {
    let src = row_of_parked_cars();
    let diags = agkit::xp::check(&src);
    let codes: Vec<_> = diags
        .iter()
        .map(|d| (d.code.as_str(), d.severity))
        .collect();
    use agkit::diag::Severity::Warning;
    assert_eq!(
        codes,
        [
            ("AG0013", Warning),
            ("AG0014", Warning),
            ("AG0032", Warning)
        ],
        "{diags:?}"
    );
    for d in &diags {
        assert!(
            d.message.contains("specification") && d.message.contains("WorldEditor"),
            "{}",
            d.message
        );
    }
    let asset = agkit::xp::parse(&src).unwrap();
    assert_eq!(asset.common.metres_per_pixel(), Some([1.0, 1.0]));
    let at = agkit::place::Use::Point {
        at: [19.0, 47.5],
        heading: 0.0,
    };
    let p = agkit::place::place(&asset, "row.agp", &at, &Default::default()).unwrap();
    assert_eq!(p.objects.len(), 11);
    assert!(
        p.warnings[0].message().contains("1 × 1 m per pixel"),
        "{:?}",
        p.warnings
    );
    let mut cars: Vec<_> = p.objects.iter().filter(|o| o.index == 0).collect();
    assert_eq!(cars.len(), 10);
    assert!(cars.iter().all(|c| c.asset == "cars/parked_car.obj"));
    cars.sort_by(|a, b| a.y.total_cmp(&b.y));
    for pair in cars.windows(2) {
        let gap = (pair[1].x - pair[0].x).hypot(pair[1].y - pair[0].y);
        assert!((gap - 2.5).abs() < 1e-6, "cars {gap} m apart");
    }
    // The tile is the crop polygon, reoriented counter-clockwise, 8 × 30 m.
    let t = &p.tiles[0];
    assert!(t.hidden);
    let area: f64 = (0..t.polygon.len())
        .map(|i| {
            let (a, b) = (t.polygon[i], t.polygon[(i + 1) % t.polygon.len()]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    assert!((area / 2.0 - 240.0).abs() < 1e-6, "area {area}");
}

/// Issue 25: `DITHER_ALPHA` (written by Laminar's XPlaneForExporter) was an
/// unknown directive (AG0009). It is typed, kept and written back.
#[test]
fn dither_alpha_was_an_unknown_directive() {
    let src = row_of_parked_cars().replace("HIDE_TILES\n", "HIDE_TILES\nDITHER_ALPHA 0.1 0.5\n");
    let asset = agkit::xp::parse(&src).unwrap();
    assert!(asset.unknown.is_empty());
    assert_eq!(
        asset.common.dither_alpha.as_ref().unwrap().value,
        [0.1, 0.5]
    );
    assert!(!agkit::xp::check(&src).iter().any(|d| d.code == "AG0009"));
    let written = agkit::xp::write::to_string(&asset);
    assert!(written.contains("\nDITHER_ALPHA 0.1 0.5\n"), "{written}");
    let again = agkit::xp::parse(&written).unwrap().common.dither_alpha;
    assert_eq!(again.map(|d| d.value), Some([0.1, 0.5]));
}

/// Issue 25, "any other such rule": X-Plane's readers (WorldEditor's
/// `MFS_double`/`MFS_string_eol` scanning) read the arguments a directive
/// takes and skip the rest of the line; an extra value was an error
/// (AG0005). It is a warning, and the model is the one without it.
#[test]
fn too_many_arguments_were_an_error() {
    let src = row_of_parked_cars();
    let extra = src
        .replace(
            "OBJ_DRAPED 603 305 -91 0\n",
            "OBJ_DRAPED 603 305 -91 0 2 5 9\n",
        )
        .replace("HIDE_TILES\n", "HIDE_TILES 1\n");
    let diags = agkit::xp::check(&extra);
    let five: Vec<_> = diags.iter().filter(|d| d.code == "AG0005").collect();
    assert_eq!(five.len(), 2, "{diags:?}");
    assert!(five.iter().all(|d| !d.is_error()));
    let (a, b) = (
        agkit::xp::parse(&src).unwrap(),
        agkit::xp::parse(&extra).unwrap(),
    );
    let show = |a: &agkit::xp::model::Asset| match &a.tiles[0].annotations[2].kind {
        agkit::xp::model::AnnotationKind::Object(o) => o.show,
        _ => None,
    };
    assert_eq!(show(&a), None);
    // The show levels are read; only the value after them is ignored.
    assert_eq!(show(&b), Some([2, 5]));
    assert_eq!(a.common.hide_tiles, b.common.hide_tiles);
}

/// Issue 25: "Check what the AGB and AGS engines need and apply the same
/// default there". Without TEXTURE_SCALE and TEXTURE_WIDTH both engines
/// size their grids and tiles at WorldEditor's default, 1 pixel = 1 metre:
/// they place exactly what `TEXTURE_SCALE 1 1` and `TEXTURE_WIDTH 1` place,
/// and say which default they applied (the engines refused the asset).
#[test]
fn agb_and_ags_without_texture_scale_or_width_were_refused() {
    use agkit::place::{Params, Use};
    // A 2.4 km × 1.6 km rectangle, counter-clockwise, near 47.5° N.
    let (w, h) = (2400.0 / 75_000.0, 1600.0 / 111_000.0);
    let windings = vec![vec![
        [13.0, 47.5],
        [13.0 + w, 47.5],
        [13.0 + w, 47.5 + h],
        [13.0, 47.5 + h],
    ]];
    for rel in ["block/city_block.agb", "string/town_edge.ags"] {
        let src = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("examples")
                .join(rel),
        )
        .unwrap();
        // The two directives become comments, so that lines keep their
        // numbers.
        let keep: Vec<&str> = src
            .lines()
            .map(
                |l| match l.starts_with("TEXTURE_SCALE") || l.starts_with("TEXTURE_WIDTH") {
                    true => "# left out",
                    false => l,
                },
            )
            .collect();
        let missing = keep.join("\n");
        let scale_w = src
            .lines()
            .find_map(|l| l.strip_prefix("TEXTURE_SCALE "))
            .and_then(|v| v.split_whitespace().next())
            .unwrap();
        let explicit: Vec<String> = src
            .lines()
            .map(|l| match l.starts_with("TEXTURE_WIDTH") {
                true => format!("TEXTURE_WIDTH {scale_w}"),
                false => l.to_string(),
            })
            .collect();
        let explicit = explicit.join("\n");
        assert!(
            explicit.contains(&format!("TEXTURE_WIDTH {scale_w}")),
            "{rel}"
        );
        let place = |text: &str| {
            let asset = agkit::xp::parse(text).unwrap_or_else(|d| panic!("{rel}: {d:?}"));
            let at = Use::Polygon {
                windings: windings.clone(),
            };
            agkit::place::place(&asset, rel, &at, &Params::default().with_dsf_param(0x0400))
                .unwrap_or_else(|e| panic!("{rel}: {e}"))
        };
        let (mut a, b) = (place(&missing), place(&explicit));
        assert!(!a.tiles.is_empty(), "{rel}: nothing placed");
        let w = a.warnings.remove(0);
        assert!(
            w.message()
                .contains("no TEXTURE_SCALE or TEXTURE_WIDTH: placed at 1 × 1 m per pixel"),
            "{rel}: {w}"
        );
        assert_eq!(a.tiles, b.tiles, "{rel}");
        assert_eq!(a.objects, b.objects, "{rel}");
        assert_eq!(a.warnings, b.warnings, "{rel}");
    }
}

/// Issue 25: the overlay preview of a tile and `place --dsf` of the same
/// tile with seed 0 placed different things (55 vs 45 objects): the
/// preview seeded use i with i, `place --dsf` every use with the run's
/// seed, and the preview placed the uses before the DSF's pools rounded
/// them. Now every face seeds use i with `seed XOR i`, and the preview
/// places the tile as written: item by item, the preview is what `place
/// --dsf` writes, and what the library's `Scenery::place_tile` returns.
#[test]
fn overlay_preview_and_place_dsf_of_the_same_tile_place_different_things() {
    use agkit::overlay::{self, BuildOptions, Rules};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gis = root.join("examples/gis");
    let rules = Rules::parse(&std::fs::read_to_string(gis.join("RULES.toml")).unwrap()).unwrap();
    let features =
        overlay::read_features(&std::fs::read_to_string(gis.join("FEATURES.geojson")).unwrap())
            .unwrap();
    let mut built = overlay::build_overlay(&features, &rules, &BuildOptions::default()).unwrap();
    let encoded = built.encode().unwrap();
    let as_written = built.read_back(&encoded).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("scenery");
    overlay::write_encoded_overlay(&mut built, encoded, &package, Vec::new()).unwrap();
    // The rules' assets as files of the package, for `place --dsf`.
    std::fs::create_dir_all(package.join("assets")).unwrap();
    for from in [
        "block/city_block.agb",
        "string/town_edge.ags",
        "point/plaza.agp",
    ] {
        let name = Path::new(from).file_name().unwrap();
        std::fs::copy(
            root.join("examples").join(from),
            package.join("assets").join(name),
        )
        .unwrap();
    }
    let (mut assets, notes) = overlay::preview::load_assets(&rules, &gis);
    assert!(notes.is_empty(), "{notes:?}");
    // Compared without art: the package holds the assets without the art
    // beside them (the examples' art folders share file names), so the
    // preview reads none either.
    for a in assets.values_mut() {
        a.art = Default::default();
    }
    let scenery = agkit::scenery::Scenery::packages(
        Some(&package),
        &[],
        agkit::scenery::resolve::Conditions::default(),
    )
    .unwrap()
    .with_art(false);
    let json = |ps: &[agkit::place::Placement]| {
        String::from_utf8(agkit::out::render_all(ps, agkit::out::Format::Json).unwrap()).unwrap()
    };
    let mut objects = 0;
    for &tile in as_written.tiles.keys() {
        let mut warnings = Vec::new();
        let preview = overlay::preview::place_tile(&as_written, tile, &assets, &mut warnings);
        // Only the art the examples name and do not bundle (AG0085).
        warnings.retain(|w| !w.ends_with("[AG0085]"));
        assert!(warnings.is_empty(), "{warnings:?}");
        objects += preview.iter().map(|p| p.objects.len()).sum::<usize>();
        let want = json(&preview);
        let dsf = package.join(tile.relative_path());
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args([
                "place", "--seed", "0", "--no-art", "--format", "json", "--dsf",
            ])
            .arg(&dsf)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{tile}");
        let placed = scenery
            .place_tile(&dsf, &agkit::place::Params::default())
            .unwrap();
        assert_eq!(json(&placed.placements), want, "{tile}");
    }
    assert!(objects > 0, "the example places objects");
}

// ------------------------------------------------------------ pictures

/// A `scenery at` report of one package placing `items` around 47.5 N,
/// 13.5 E (radius 100 m).
fn at_report(items: Vec<agkit::place::at::Item>) -> agkit::place::at::AtReport {
    agkit::place::at::AtReport {
        packages: vec![agkit::place::at::PackageInfo {
            name: "Town".into(),
            path: "Custom Scenery/Town/".into(),
            priority: 0,
            enabled: true,
        }],
        items,
        center: [13.5, 47.5],
        radius_m: 100.0,
        warnings: Vec::new(),
        ground: None,
    }
}

/// An item of kind `kind` at lon/lat `shape` (one point, or rings),
/// resolved or not.
fn at_item(
    kind: agkit::place::at::ItemKind,
    shape: Vec<Vec<[f64; 2]>>,
    resolved: bool,
) -> agkit::place::at::Item {
    agkit::place::at::Item {
        package: "Town".into(),
        dsf: "Earth nav data/+40+010/+47+013.dsf".into(),
        kind,
        definition: "lib/x".into(),
        resolved: resolved.then(|| agkit::place::at::Resolved {
            package: "Town".into(),
            file: "Custom Scenery/Town/x".into(),
        }),
        lon: shape[0][0][0],
        lat: shape[0][0][1],
        excluded_by: None,
        rule: String::new(),
        conditions: Vec::new(),
        exclusion: None,
        placed_by: None,
        art: None,
        height: None,
        shape,
        open: false,
        source: None,
        z: None,
        dsf_elevation: None,
    }
}

/// The SVG elements of a picture's group `id`, one a line.
fn svg_group<'a>(svg: &'a str, id: &str) -> Vec<&'a str> {
    let at = svg.find(&format!("<g id=\"{id}\"")).unwrap();
    let g = &svg[at..];
    g[..g.find("\n</g>").unwrap()].lines().skip(1).collect()
}

/// Issue 25, "Pictures": `scenery at -o x.svg` drew an autogen string's
/// rings as open paths, so the picture lost a side of the demo string.
#[test]
fn scenery_at_drew_autogen_strings_as_open_paths() {
    use agkit::place::at::ItemKind;
    let ring = vec![
        [13.4995, 47.4995],
        [13.5005, 47.4995],
        [13.5005, 47.5005],
        [13.4995, 47.5005],
    ];
    let hole = vec![[13.4998, 47.4998], [13.4998, 47.5002], [13.5002, 47.5002]];
    let report = at_report(vec![at_item(
        ItemKind::AutogenString,
        vec![ring, hole],
        true,
    )]);
    let svg = agkit::out::at_picture::to_svg(&report, agkit::out::at_picture::Words::Text);
    let items = svg_group(&svg, "items");
    assert_eq!(items.len(), 1);
    let d = items[0].split("d=\"").nth(1).unwrap();
    let d = &d[..d.find('"').unwrap()];
    assert_eq!(d.matches('M').count(), 2);
    assert!(d.split('M').skip(1).all(|r| r.ends_with('Z')), "{d}");
}

/// Issue 25, "Pictures": in `scenery at`'s picture objects and trees were
/// the same dots, and unresolved items looked like resolved ones.
#[test]
fn scenery_at_drew_objects_and_trees_alike_and_unresolved_as_resolved() {
    use agkit::place::at::ItemKind;
    let point = |dx: f64| vec![vec![[13.5 + dx, 47.5]]];
    let report = at_report(vec![
        at_item(ItemKind::Object, point(0.0), true),
        at_item(ItemKind::Tree, point(0.0002), true),
        at_item(ItemKind::Object, point(0.0004), false),
    ]);
    let svg = agkit::out::at_picture::to_svg(&report, agkit::out::at_picture::Words::Text);
    let items = svg_group(&svg, "items");
    assert!(items[0].starts_with("<rect") && items[1].starts_with("<circle"));
    assert!(!items[0].contains("stroke-dasharray"), "{}", items[0]);
    assert!(items[2].starts_with("<rect") && items[2].contains("stroke-dasharray"));
    assert!(items[2].contains(r#"fill="none""#));
    let legend = &svg[svg.find("<g id=\"legend\"").unwrap()..];
    assert!(legend.contains(">unresolved (no file)</text>") && legend.contains(">tree</text>"));
}

/// An AGP of one 24 m tile with an object 0.4 m south of its centre (the
/// DSF point), where the tile's id used to go, placed in +47+013.
fn tile_with_an_object_under_its_id() -> agkit::place::Placement {
    let text = "A\n1000\nAG_POINT\nTEXTURE_SCALE 64 64\nTEXTURE_WIDTH 24\nOBJECT o.obj\n\
                TILE 0 0 64 64\nOBJ_DRAPED 32 30.9 180 0\n";
    let asset = agkit::xp::parse(text).unwrap();
    let at = agkit::place::Use::Point {
        at: [13.04, 47.8],
        heading: 0.0,
    };
    let params = agkit::place::Params::default();
    agkit::place::place(&asset, "block/b.agp", &at, &params).unwrap()
}

/// Issue 25, "Pictures": tile ids were drawn where they fell, over the
/// object markers.
#[test]
fn tile_ids_were_drawn_over_object_markers() {
    let p = tile_with_an_object_under_its_id();
    let svg =
        String::from_utf8(agkit::out::render_one(&p, agkit::out::Format::Svg).unwrap()).unwrap();
    let num = |l: &str, k: &str| -> f64 {
        let v = l.split(&format!(" {k}=\"")).nth(1).unwrap();
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    let label = svg_group(&svg, "labels")[0];
    assert!(label.ends_with(">0</text>"), "{label}");
    let (x, y) = (num(label, "x"), num(label, "y"));
    // 11 px text, centred both ways: "0" is at most 7 px wide.
    let text = [x - 3.5, y - 5.5, x + 3.5, y + 5.5];
    let marker = svg_group(&svg, "objects")
        .into_iter()
        .find_map(|l| l.find("<circle").map(|at| &l[at..]))
        .unwrap();
    let (cx, cy, r) = (num(marker, "cx"), num(marker, "cy"), num(marker, "r"));
    let apart = text[2] <= cx - r || cx + r <= text[0] || text[3] <= cy - r || cy + r <= text[1];
    assert!(apart, "the id at {text:?} covers the marker at {cx},{cy}");
}

/// Issue 25, "Pictures": the picture of a DSF tile's uses was titled
/// "3 autogen uses", naming neither the tile nor the assets.
#[test]
fn dsf_pictures_named_neither_tile_nor_assets() {
    let a = tile_with_an_object_under_its_id();
    let mut b = a.clone();
    b.asset = "string/s.agp".into();
    b.origin = [13.041, 47.8];
    let svg = agkit::out::render_all(&[a, b], agkit::out::Format::Svg).unwrap();
    let svg = String::from_utf8(svg).unwrap();
    let title = svg_group(&svg, "title").join("\n");
    assert!(
        title.contains(">DSF tile +47+013: 2 autogen uses</text>"),
        "{title}"
    );
    assert!(
        title.contains("assets: block/b.agp, string/s.agp"),
        "{title}"
    );
}

/// Issue 24, "Totals not capped where each piece is": `place --dsf TILE -o
/// tile.png` of a busy tile drew every item (a 1 GB peak, then the SVG
/// library's "nodes limit reached"). Past `Limits::max_drawn_items` the
/// picture is an overview of the uses.
#[test]
fn busy_tile_pictures_drew_every_item() {
    let mut one = tile_with_an_object_under_its_id();
    one.objects = (0..100)
        .map(|k| agkit::place::PlacedObject {
            x: (k % 10) as f64 * 2.0,
            y: (k / 10) as f64 * 2.0,
            ..one.objects[0].clone()
        })
        .collect();
    let ps: Vec<_> = (0..600)
        .map(|i| agkit::place::Placement {
            origin: [
                13.1 + 0.001 * (i % 30) as f64,
                47.1 + 0.001 * (i / 30) as f64,
            ],
            ..one.clone()
        })
        .collect();
    let items: usize = ps.iter().map(|p| p.items()).sum();
    assert!(items > agkit::limits::Limits::default().max_drawn_items);
    let svg = agkit::out::render_all(&ps, agkit::out::Format::Svg).unwrap();
    assert!(svg.len() < 1 << 20, "{} bytes", svg.len());
    let svg = String::from_utf8(svg).unwrap();
    assert!(svg_group(&svg, "title").join("\n").contains(">overview: "));
    assert!(agkit::out::picture_note(&ps, agkit::out::Format::Png).is_some());
}

/// Issue 25, "Pictures": an overlay preview did not draw its tile's edge.
#[test]
fn overlay_previews_drew_no_tile_edge() {
    let mut p = tile_with_an_object_under_its_id();
    // 10 m west of lon 13: the tile's east edge crosses the map.
    p.origin = [12.99985, 47.8];
    let tile = agkit::overlay::TileId {
        south: 47,
        west: 12,
    };
    let svg = agkit::overlay::preview::render(tile, &[p], false, &mut Vec::new()).unwrap();
    let svg = String::from_utf8(svg).unwrap();
    assert_eq!(svg_group(&svg, "tile-edge").len(), 1);
    assert!(svg.contains(">edge of tile +47+012</text>"));
    assert!(
        svg_group(&svg, "locator")
            .join("\n")
            .contains(">+47+012</text>")
    );
}

/// An object's footprint went into GeoJSON clockwise: the placed footprint
/// turns clockwise in x east / y north (the OBJ's counter-clockwise hull in
/// x and z, z south), and RFC 7946 (3.1.6) asks exterior rings to turn
/// counter-clockwise. The model keeps its order; GeoJSON reverses it.
#[test]
fn geojson_object_footprints_were_clockwise() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/placeart/village.agp");
    let asset = agkit::xp::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let scenery = agkit::scenery::Scenery::without_libraries(Default::default());
    let params = agkit::place::Params {
        art: Some(scenery.asset_art(&file, &asset, None)),
        ..Default::default()
    };
    let at = agkit::place::Use::Point {
        at: [13.5, 47.5],
        heading: 75.0,
    };
    let p = agkit::place::place(&asset, "village.agp", &at, &params).unwrap();
    let signed = agkit::overlay::orient::signed_area;
    let house = &p.objects[0];
    assert_eq!(house.asset, "house.obj");
    assert!(signed(&house.footprint) < 0.0, "the model turns clockwise");
    let g = agkit::out::render_all(&[p], agkit::out::Format::Geojson).unwrap();
    let g: serde_json::Value = serde_json::from_slice(&g).unwrap();
    let f = g["features"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["properties"]["asset"] == "house.obj")
        .unwrap();
    assert_eq!(f["geometry"]["type"], "Polygon");
    assert_eq!(f["properties"]["obj_height"], 5.0);
    let ring: Vec<[f64; 2]> = f["geometry"]["coordinates"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| [q[0].as_f64().unwrap(), q[1].as_f64().unwrap()])
        .collect();
    assert_eq!((ring.len(), ring[0]), (5, ring[4]), "closed");
    assert!(signed(&ring[..4]) > 0.0, "counter-clockwise: {ring:?}");
}
