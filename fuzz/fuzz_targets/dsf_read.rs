//! The DSF reader: never panics, whatever the bytes; a tile that reads also
//! converts to DSF2Text, lists its autogen uses, and goes back through the
//! text reader and the builder. The raw command parser and encoder are
//! exercised on the same bytes: whatever parses encodes back to them.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agkit::dsf::check_bytes(data);
    if let Ok(dsf) = agkit::dsf::read(data) {
        let text = agkit::dsf::to_text(&dsf, &agkit::dsf::TextOptions::default());
        let _ = agkit::dsf::autogen_uses(&dsf);
        let mut no_raster = |_: &str| -> Result<Vec<u8>, String> { Err("no rasters".into()) };
        if let Ok((model, opts)) = agkit::dsf::from_text(&text, &mut no_raster) {
            if let Ok(bytes) = agkit::dsf::build(&model, &opts) {
                let _ = agkit::dsf::read(&bytes);
            }
        }
    }
    if let Ok(cmds) = agkit::dsf::cmd::parse_all(data, 0) {
        let cmds: Vec<_> = cmds.into_iter().map(|(_, c)| c).collect();
        assert_eq!(agkit::dsf::cmd::encode_all(&cmds).unwrap(), data);
    }
});
