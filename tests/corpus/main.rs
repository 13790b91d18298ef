//! The real-file suite: tests that read files agkit did not write — the
//! corpus of real DSF tiles, library.txt, scenery_packs.ini, assets and art
//! (`../shared/corpus`, listed in its `MANIFEST.tsv`) and the published
//! format texts (`../shared/specs`).
//!
//! These tests are a test target of their own, built only with the `corpus`
//! feature, so that a plain clone passes `cargo test` with nothing beside
//! it:
//!
//! ```sh
//! cargo test --features corpus --test corpus
//! ```
//!
//! The corpus is found at `AGKIT_CORPUS` (default `../shared/corpus` beside
//! the repository), the specifications at `AGKIT_SPECS` (default
//! `../shared/specs`). When either is missing every test that needs it fails
//! with one message naming the path it looked for: the suite never passes
//! without the files it is about.
//!
//! What each test expects is derived from `MANIFEST.tsv` and the files
//! themselves, so that adding a real file to the corpus never breaks a test
//! that is not about that file.

mod support;

mod agn;
mod apt;
mod art;
mod built;
mod conflicts;
mod dsf;
mod dsf_edit;
mod dsftool;
mod gltf;
mod packages;
mod place_art;
mod place_point;
mod place_whole;
mod scenery;
mod serve;
mod textured;
mod xp;
