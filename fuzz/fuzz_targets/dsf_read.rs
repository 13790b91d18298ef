//! The DSF reader: never panics, whatever the bytes; a tile that reads also
//! converts to DSF2Text and lists its autogen uses.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agkit::dsf::check_bytes(data);
    if let Ok(dsf) = agkit::dsf::read(data) {
        let _ = agkit::dsf::to_text(&dsf, &agkit::dsf::TextOptions::default());
        let _ = agkit::dsf::autogen_uses(&dsf);
    }
});
