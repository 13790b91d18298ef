//! Fuzz regressions: the fuzz targets' properties as plain tests, replayed
//! over the fuzz seeds and every crasher kept under
//! `tests/fixtures/crashers/<target>/`. A crasher found by `cargo fuzz` gets
//! its own test below, named after it; so does every other fixed bug.

use std::path::Path;

/// `fuzz/fuzz_targets/xp_text.rs`.
fn xp_text(data: &[u8]) {
    let (text, _diags) = agkit::xp::check_bytes(data);
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
    let built = overlay::build_overlay(&features, &rules, &BuildOptions::default()).unwrap();
    let encoded = built.encode().unwrap();
    let as_written = built.read_back(&encoded).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let package = dir.path().join("scenery");
    overlay::write_encoded_overlay(&built, encoded, &package, Vec::new()).unwrap();
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
    let (assets, notes) = overlay::preview::load_assets(&rules, &gis);
    assert!(notes.is_empty(), "{notes:?}");
    let scenery = agkit::scenery::Scenery::packages(
        Some(&package),
        &[],
        agkit::scenery::resolve::Conditions::default(),
    )
    .unwrap();
    let json = |ps: &[agkit::place::Placement]| {
        String::from_utf8(agkit::out::render_all(ps, agkit::out::Format::Json).unwrap()).unwrap()
    };
    let mut objects = 0;
    for &tile in as_written.tiles.keys() {
        let mut warnings = Vec::new();
        let preview = overlay::preview::place_tile(&as_written, tile, &assets, &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        objects += preview.iter().map(|p| p.objects.len()).sum::<usize>();
        let want = json(&preview);
        let dsf = package.join(tile.relative_path());
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_agkit"))
            .args(["place", "--seed", "0", "--format", "json", "--dsf"])
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
