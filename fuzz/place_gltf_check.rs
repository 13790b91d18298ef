//! The property of the `place_gltf` fuzz target, shared with its replay in
//! `tests/hostile_art.rs` (both include this file as a module): a
//! placement written as a 3-D scene, with art read from fuzzed files.
//!
//! Input layout: for each of `a.obj`, `a.fac` and `a.for` a little-endian
//! u16 length and that many bytes, written into a folder beside the asset
//! (seeds name those files); then the bytes `agkit::gen::fuzz_case`
//! decodes into an asset, a polygon and settings. Whatever the bytes, the
//! run never panics, and a scene that is written is finite: every
//! accessor's `min`/`max` is a finite number (not `null`) and every float
//! its buffer holds is finite, as the Khronos validator demands.

use std::path::Path;
use std::sync::Arc;

/// `len: u16 LE` then that many bytes; the rest.
fn block(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let (len, rest) = data.split_at_checked(2)?;
    rest.split_at_checked(usize::from(u16::from_le_bytes([len[0], len[1]])))
}

/// Runs one input in `dir` (a folder of the caller's, its art files
/// overwritten). `None` when the bytes make no placement run; else whether
/// a scene was written (and found finite).
///
/// # Panics
/// When a written scene is not finite (that is the finding).
pub fn run(data: &[u8], dir: &Path) -> Option<bool> {
    let (obj, rest) = block(data)?;
    let (fac, rest) = block(rest)?;
    let (forest, rest) = block(rest)?;
    let mut case = agkit::r#gen::fuzz_case(rest)?;
    for (name, bytes) in [("a.obj", obj), ("a.fac", fac), ("a.for", forest)] {
        std::fs::write(dir.join(name), bytes).expect("write art");
    }
    let limits = case.params.limits;
    let store = agkit::scenery::art::ArtStore::new(limits);
    let art = store.art_for(&dir.join("fuzz.agp"), &case.asset, None);
    case.params.art = Some(Arc::clone(&art));
    let Ok(p) = agkit::place::place(&case.asset, "fuzz", &case.use_, &case.params) else {
        return Some(false);
    };
    let Ok(w) = agkit::out::gltf::write_scene(
        std::slice::from_ref(&p),
        agkit::out::gltf::Container::Glb,
        &limits,
    ) else {
        return Some(false);
    };
    if let Err(why) = glb_is_finite(&w.bytes) {
        panic!("the scene is not finite: {why}");
    }
    Some(true)
}

/// The fuzz input of art files `obj`, `fac`, `forest` and the
/// `fuzz_case` bytes `case` (seeds and tests frame theirs so; the fuzz
/// target itself only reads inputs).
#[allow(dead_code)]
pub fn input(obj: &str, fac: &str, forest: &str, case: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for b in [obj, fac, forest] {
        let b = &b.as_bytes()[..b.len().min(usize::from(u16::MAX))];
        out.extend_from_slice(&(b.len() as u16).to_le_bytes());
        out.extend_from_slice(b);
    }
    out.extend_from_slice(case);
    out
}

/// Checks a GLB's accessors: `min`/`max` finite numbers, every float of
/// every FLOAT accessor finite.
pub fn glb_is_finite(glb: &[u8]) -> Result<(), String> {
    let u32_at = |o: usize| -> Option<usize> {
        Some(u32::from_le_bytes(glb.get(o..o + 4)?.try_into().ok()?) as usize)
    };
    let json_len = u32_at(12).ok_or("no JSON chunk")?;
    let json = glb.get(20..20 + json_len).ok_or("JSON chunk cut")?;
    let bin_at = 20 + json_len;
    let bin: &[u8] = match u32_at(bin_at) {
        Some(n) => glb.get(bin_at + 8..bin_at + 8 + n).ok_or("BIN chunk cut")?,
        None => &[],
    };
    let doc: serde_json::Value = serde_json::from_slice(json).map_err(|e| format!("JSON: {e}"))?;
    let views = doc["bufferViews"].as_array().cloned().unwrap_or_default();
    for (i, acc) in doc["accessors"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        for key in ["min", "max"] {
            for v in acc[key].as_array().into_iter().flatten() {
                if !v.as_f64().is_some_and(f64::is_finite) {
                    return Err(format!("accessor {i} {key} holds {v}"));
                }
            }
        }
        if acc["componentType"] != 5126 {
            continue;
        }
        let comps = match acc["type"].as_str() {
            Some("SCALAR") => 1,
            Some("VEC2") => 2,
            Some("VEC3") => 3,
            Some("VEC4") => 4,
            Some("MAT4") => 16,
            other => return Err(format!("accessor {i} of type {other:?}")),
        };
        let view = acc["bufferView"]
            .as_u64()
            .and_then(|v| views.get(v as usize))
            .ok_or(format!("accessor {i} without a view"))?;
        let base = view["byteOffset"].as_u64().unwrap_or(0) as usize
            + acc["byteOffset"].as_u64().unwrap_or(0) as usize;
        let stride = view["byteStride"]
            .as_u64()
            .map_or(comps * 4, |s| s as usize);
        for k in 0..acc["count"].as_u64().unwrap_or(0) as usize {
            for c in 0..comps {
                let o = base + k * stride + c * 4;
                let b = bin
                    .get(o..o + 4)
                    .ok_or(format!("accessor {i} past the buffer"))?;
                let v = f32::from_le_bytes(b.try_into().expect("4 bytes"));
                if !v.is_finite() {
                    return Err(format!("accessor {i} element {k} holds {v}"));
                }
            }
        }
    }
    Ok(())
}
