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
    /// Most nodes one 3-D scene holds (a node per placed object, facade,
    /// 3-D tree, draped polygon and line, and per placement); a scene past
    /// it is refused before the node is added.
    pub max_scene_nodes: usize,
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
            max_scene_nodes: 2_000_000,
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

/// Bytes of decoded pixels the whole process may hold at once: the
/// default [`Limits::max_unpacked_bytes`], shared by every thread
/// ([`decoded`]).
pub const DECODED_BYTES: u64 = 1 << 30;

/// A budget of bytes shared by every thread of the process: work that is
/// about to allocate a large buffer reserves its size first
/// ([`Budget::reserve`]) and gives it back when the buffer is dropped (the
/// [`Grant`] is dropped). Parallel work (rayon) therefore holds at most the
/// budget's cap together, however many cores there are.
///
/// A thread that holds nothing waits until enough is given back, so the
/// result does not depend on how threads interleave; a thread that already
/// holds part of the budget does not wait (it could wait for itself) and is
/// refused when the rest is not free. A request larger than the whole cap
/// is refused at once.
#[derive(Debug)]
pub struct Budget {
    cap: u64,
    used: std::sync::Mutex<u64>,
    freed: std::sync::Condvar,
}

std::thread_local! {
    /// Bytes of [`decoded`] the current thread holds.
    static HELD: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The process-wide budget of decoded pixels ([`DECODED_BYTES`]): every
/// texture decoder reserves its output here before allocating it.
pub fn decoded() -> &'static Budget {
    static DECODED: Budget = Budget::new(DECODED_BYTES);
    &DECODED
}

impl Budget {
    /// A budget of `cap` bytes.
    pub const fn new(cap: u64) -> Budget {
        Budget {
            cap,
            used: std::sync::Mutex::new(0),
            freed: std::sync::Condvar::new(),
        }
    }

    /// The most bytes held at once.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// Bytes held now, all threads together.
    pub fn in_use(&self) -> u64 {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves `bytes` for `what` (see the type's docs for when it waits
    /// and when it refuses). The bytes are given back when the grant is
    /// dropped.
    pub fn reserve(&'static self, what: &str, bytes: u64) -> Result<Grant, LimitExceeded> {
        LimitExceeded::check(what, bytes, self.cap)?;
        let mine = HELD.with(std::cell::Cell::get);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used + bytes > self.cap {
            if mine > 0 {
                return Err(LimitExceeded {
                    what: format!("{what} (with what this thread already holds)"),
                    needed: mine + bytes,
                    limit: self.cap,
                });
            }
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        HELD.with(|h| h.set(h.get() + bytes));
        Ok(Grant {
            budget: self,
            bytes,
            thread: std::thread::current().id(),
        })
    }
}

/// Bytes reserved from a [`Budget`], given back when dropped.
#[derive(Debug)]
pub struct Grant {
    budget: &'static Budget,
    bytes: u64,
    thread: std::thread::ThreadId,
}

impl Grant {
    /// The bytes reserved.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Drop for Grant {
    fn drop(&mut self) {
        if std::thread::current().id() == self.thread {
            HELD.with(|h| h.set(h.get().saturating_sub(self.bytes)));
        }
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(self.bytes);
        drop(used);
        self.budget.freed.notify_all();
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

    #[test]
    fn a_budget_refuses_past_its_cap_and_gives_back_on_drop() {
        static B: Budget = Budget::new(100);
        assert!(B.reserve("x", 101).is_err());
        let a = B.reserve("x", 60).unwrap();
        assert_eq!(B.in_use(), 60);
        // This thread holds 60: it is refused rather than waiting for itself.
        let e = B.reserve("x", 50).unwrap_err();
        assert_eq!(e.needed, 110);
        let b = B.reserve("x", 40).unwrap();
        assert_eq!(B.in_use(), 100);
        drop((a, b));
        assert_eq!(B.in_use(), 0);
    }

    #[test]
    fn a_thread_holding_nothing_waits_for_the_budget() {
        static B: Budget = Budget::new(100);
        let a = B.reserve("x", 80).unwrap();
        let t = std::thread::spawn(|| B.reserve("x", 50).map(|g| g.bytes()));
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert_eq!(B.in_use(), 80, "the other thread waits");
        drop(a);
        assert_eq!(t.join().unwrap(), Ok(50));
        assert_eq!(B.in_use(), 0);
    }
}
