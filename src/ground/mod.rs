//! The ground floor: what every stage of the pipeline shares, and nothing
//! else.
//!
//! - [`limits`]: the one [`limits::Limits`] value bounding what an input may
//!   make agkit allocate or compute, and its error;
//! - [`diag`]: the diagnostics model (a code from a `rules!` table, a
//!   severity, a byte span or offset) every reader and checker reports in;
//! - [`words`]: counts and numbers as messages write them;
//! - [`rng`]: the seeded random generator the resolver and the engines draw
//!   from.
//!
//! **Invariant.** Nothing here imports anything else of the crate
//! (`tests/floors.rs` keeps it so): a change to a format, the placement or
//! a view never reaches the ground.

pub mod diag;
pub mod limits;
pub mod rng;
pub mod words;
