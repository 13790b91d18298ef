//! The autogen text parser: never panics; the fast lane reads every file
//! exactly as the general reader does, and validation that skips what
//! the reader found clean reports what full validation does; canonical writing is a fixed point
//! (parse → canonical → parse → canonical gives the same text); a model that
//! parses without errors writes text that parses again to the same written
//! text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, _diags) = agkit::xp::check_bytes(data);
    let doc = agkit::xp::Document::parse(&text);
    let (fast, general) = (
        agkit::xp::parse::read(&doc),
        agkit::xp::parse::read_general(&doc),
    );
    assert_eq!(fast.asset, general.asset, "fast lane model differs");
    assert_eq!(fast.diags, general.diags, "fast lane diagnostics differ");
    if let Some(asset) = &general.asset {
        let (mut skipping, mut full) = (fast.diags.clone(), fast.diags.clone());
        fast.validate(&doc, &mut skipping);
        agkit::xp::check::validate(&doc, asset, &mut full);
        assert_eq!(skipping, full, "validation skipping clean annotations differs");
    }
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
