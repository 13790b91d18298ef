//! The placement engines fed from fuzzed assets and polygons (see
//! `agkit::gen::fuzz_case`: holes, scales up to 10^6, origins at the
//! antimeridian, the poles and off the Earth, models read with their
//! errors) under tight limits: never panic, every coordinate in a
//! placement is finite, no more items than the limits allow, and a use
//! `check_use` refuses is never placed. Run under `-rss_limit_mb=1024
//! -timeout=10`: a run that passes either is a finding too.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = agkit::r#gen::fuzz_case(data) {
        agkit::r#gen::fuzz_place(&case);
    }
});
