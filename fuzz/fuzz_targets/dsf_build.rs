//! `dsf build` from DSF2Text: whatever the text, parsing and building end
//! with a model or an error (never a panic, a hang or memory out of
//! proportion). A model that builds, kept in order or grouped as `dsf
//! build` writes it, reads back with as many objects, polygons, patches
//! and chains, and the text of what was built parses and builds again (see
//! `agkit::gen::fuzz_dsf_build`, which `tests/regression.rs` replays too).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| agkit::r#gen::fuzz_dsf_build(data));
