//! Fuzz regressions: the fuzz targets' properties as plain tests, replayed
//! over the fuzz seeds and every crasher kept under
//! `tests/fixtures/crashers/<target>/`. A crasher found by `cargo fuzz` gets
//! its own test below, named after it.

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
