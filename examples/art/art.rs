//! The art of the bundled examples, drawn by code: the objects, facades,
//! forests and ground textures that `examples/point`, `examples/block` and
//! `examples/string` name, and the textures they share in `examples/art`.
//!
//! `cargo run --example make_art` writes every file; `tests/example_art.rs`
//! includes this module too and holds the committed files to what it
//! draws today. Everything is deterministic: no clock, no randomness but
//! integer hashes of pixel and cell coordinates.

#[path = "canvas.rs"]
pub mod canvas;
#[path = "facades.rs"]
pub mod facades;
#[path = "ground.rs"]
pub mod ground;
#[path = "mesh.rs"]
pub mod mesh;
#[path = "objects.rs"]
pub mod objects;
#[path = "paint.rs"]
pub mod paint;
#[path = "trees.rs"]
pub mod trees;

/// Every file of the examples' art: its path under `examples/` and its
/// bytes.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = vec![
        ("art/objects.png".into(), objects::atlas_png()),
        ("art/facades.png".into(), facades::texture_png()),
        ("art/trees.png".into(), trees::sheet_png()),
    ];
    let texts = objects::objects()
        .into_iter()
        .chain(facades::files())
        .chain(trees::files());
    out.extend(texts.map(|(p, t)| (p.to_string(), t.into_bytes())));
    out.extend(ground::files().into_iter().map(|(p, b)| (p.to_string(), b)));
    out
}
