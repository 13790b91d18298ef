//! The placement engines fed from fuzzed assets and polygons: never panic,
//! and every coordinate in a placement is finite.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = agkit::r#gen::fuzz_case(data) {
        if let Ok(p) = agkit::place::place(&case.asset, "fuzz", &case.use_, &case.params) {
            assert!(agkit::r#gen::placement_is_finite(&p), "non-finite output: {p:?}");
        }
    }
});
