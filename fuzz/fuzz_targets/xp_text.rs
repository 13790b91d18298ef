//! The autogen text parser: never panics; canonical writing is a fixed point
//! (parse → canonical → parse → canonical gives the same text); a model that
//! parses without errors writes text that parses again to the same written
//! text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, _diags) = agkit::xp::check_bytes(data);
    // The document gives the bytes back.
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
});
