//! Limits: one value bounding what agkit allocates or computes for one input.
//!
//! Every reader that unpacks (7z, run-length pools), every placement engine
//! and the previewer take a [`Limits`] and check it *before* allocating or
//! looping on a count read from input. Exceeding a limit is an ordinary error
//! ([`LimitExceeded`]) that the caller wraps with the file and place it came
//! from — never an abort, never memory out of proportion to the input.
//!
//! The defaults describe real scenery with a wide margin; tools that serve
//! many users at once (`agkit serve`) may choose tighter ones.

/// Bounds on the work and memory one input may cause.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most bytes one compressed or run-length-coded input may unpack to.
    pub max_unpacked_bytes: u64,
    /// Most bytes unpacked per byte packed (a decompression-bomb guard that
    /// scales with the input, checked together with the absolute cap).
    pub max_unpack_ratio: u64,
    /// Most items (tiles, objects, facades, trees) one placement may
    /// produce.
    pub max_placed_items: usize,
    /// Most units of work one placement may spend: one per candidate
    /// position tried (a tile slid along a side, a spelling weighed at a
    /// cursor, a tree-line or fill point, an annotation copied) plus one per
    /// polygon segment visited to cut or test a candidate. Bounds the time
    /// of a placement whatever the asset asks for: a unit is at most about
    /// a microsecond (cutting wide tiles out of a comb-like polygon), so
    /// the default stops a run after about ten seconds; real placements
    /// spend far less (a 100,000-vertex ring 0.3 M, 50,000 holes 3.5 M).
    pub max_work: u64,
    /// Largest extent of one placement's polygon or point neighbourhood, in
    /// metres.
    pub max_extent_m: f64,
    /// Most bytes read from one input file or from standard input
    /// ([`crate::fsutil::read_input`]): a device or an endless pipe on
    /// standard input stops here instead of filling memory.
    pub max_input_bytes: u64,
    /// Most bytes one built file may hold where its size is not bounded by
    /// its input's: an AGN whose texture names ask for padding, a DSF's
    /// raster files together. Checked before anything is written.
    pub max_output_bytes: u64,
    /// Most vertices plus indices one art file (an OBJ8 object, a facade's
    /// meshes, a forest's 3-D trees) may declare or hold, counted over the
    /// whole file. Real objects hold a few hundred thousand.
    pub max_mesh_elements: u64,
    /// Most pixels (width × height, all mipmaps left out) one texture may
    /// have to be decoded; checked against its header before any pixel is
    /// decoded. Decoded textures take 4 bytes a pixel.
    pub max_texture_pixels: u64,
    /// Most items (tiles, objects, facades, trees) one picture draws one
    /// by one; a picture of more is an overview (each use's outline and
    /// count), so its memory stays bounded whatever the placement holds.
    pub max_drawn_items: usize,
    /// Most bytes of PNG one 3-D scene ([`crate::out::gltf`]) embeds,
    /// all textures together; a texture past it is drawn in a plain
    /// colour, with a warning.
    pub max_scene_texture_bytes: u64,
    /// Most triangles one 3-D scene holds (each mesh counted once,
    /// however many objects use it); a scene past it is refused.
    pub max_scene_triangles: u64,
    /// Most bytes of images (PNG crops of tile textures) one textured
    /// picture embeds, counted over the whole picture; tiles past it are
    /// drawn in the flat mean colour of their crop (and the picture says
    /// so).
    pub max_picture_image_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_unpacked_bytes: 1 << 30,
            max_unpack_ratio: 1000,
            max_placed_items: 1_000_000,
            max_work: 10_000_000,
            max_extent_m: 10_000.0,
            max_input_bytes: 2 << 30,
            max_output_bytes: 256 << 20,
            max_mesh_elements: 50_000_000,
            max_texture_pixels: 16384 * 16384,
            max_drawn_items: 50_000,
            max_scene_texture_bytes: 256 << 20,
            max_scene_triangles: 20_000_000,
            max_picture_image_bytes: 24 << 20,
        }
    }
}

/// A limit of [`Limits`] that an input would exceed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{what}: {needed} exceeds the limit of {limit}")]
pub struct LimitExceeded {
    /// What was being counted, e.g. "unpacked bytes of the 7z archive".
    pub what: String,
    /// What the input asks for (at least; counting may stop early).
    pub needed: u64,
    /// The limit it exceeds.
    pub limit: u64,
}

impl LimitExceeded {
    /// Checks `needed <= limit`, naming `what` in the error.
    pub fn check(what: impl Into<String>, needed: u64, limit: u64) -> Result<(), LimitExceeded> {
        if needed <= limit {
            Ok(())
        } else {
            Err(LimitExceeded {
                what: what.into(),
                needed,
                limit,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_passes_at_the_limit_and_fails_past_it() {
        assert!(LimitExceeded::check("x", 10, 10).is_ok());
        let e = LimitExceeded::check("unpacked bytes", 11, 10).unwrap_err();
        assert_eq!(e.to_string(), "unpacked bytes: 11 exceeds the limit of 10");
    }
}
