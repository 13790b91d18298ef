//! The texture prober and decoder: never panics, and what it reads holds the properties of
//! `agkit::gen::fuzz_texture_decode` (shared with tests/regression.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    agkit::r#gen::fuzz_texture_decode(data);
});
