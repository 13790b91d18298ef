//! The DSF reader: never panics, whatever the bytes; a tile that reads also
//! converts to DSF2Text, lists its autogen uses, and goes back through the
//! text reader and the builder. The raw command parser and encoder are
//! exercised on the same bytes: whatever parses encodes back to them (see
//! `agkit::gen::fuzz_dsf_read`, which `tests/regression.rs` replays too).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| agkit::r#gen::fuzz_dsf_read(data));
