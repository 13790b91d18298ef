//! Real FSX/P3D AGN files: every one the manifest lists reads and writes
//! back byte for byte, and through JSON and the text form to the same
//! model. (The corpus holds none yet; the test watches for the first.)

use super::support;
use agkit::agn::{json, read, text, write};

#[test]
fn corpus_agn_files_round_trip_byte_identical() {
    for f in support::files_of(&["agn"]) {
        let bytes = std::fs::read(&f).unwrap();
        let m = read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(write(&m).unwrap(), bytes, "{}", f.display());
        assert_eq!(json::from_json(&json::to_json(&m)).unwrap(), m);
        assert_eq!(text::from_text(&text::to_text(&m)).unwrap(), m);
    }
}
