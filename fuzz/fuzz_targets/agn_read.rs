//! The AGN reader: never panics; what it reads writes back byte for byte
//! and reads again to the same model.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = agkit::agn::check_bytes(data);
    if let Ok(agn) = agkit::agn::read(data) {
        let bytes = agkit::agn::write(&agn).expect("a model read from bytes writes");
        assert_eq!(bytes, data, "AGN read → write is not lossless");
        let again = agkit::agn::read(&bytes).expect("written AGN reads");
        assert_eq!(again, agn);
    }
});
