//! A placement written as a 3-D scene, with art read from fuzzed files:
//! the property is `fuzz/place_gltf_check.rs` (never a panic; every
//! accessor bound and float of a written scene finite).
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../place_gltf_check.rs"]
mod check;

fuzz_target!(|data: &[u8]| {
    // A folder of this process's own, reused run after run.
    let dir = std::env::temp_dir().join(format!("agkit-fuzz-place-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let _ = check::run(data, &dir);
});
