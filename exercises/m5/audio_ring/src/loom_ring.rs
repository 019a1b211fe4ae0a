//! The ring over `loom::sync`: the same `ring.rs`, for loom models. Its types panic outside
//! `loom::model`. Given; the code is in `ring.rs`.

/// The primitives `ends.rs` and `ring.rs` may use, from loom (same names and methods as std's).
pub mod sync {
    pub use loom::sync::Arc;
    pub use loom::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
}

#[path = "ends.rs"]
mod ends;
#[path = "ring.rs"]
mod ring;

pub use ends::{Consumer, Producer};
// The stub's `ring.rs` does not use it yet.
#[allow(unused_imports)]
pub(crate) use ends::Shared;
pub use ring::audio_ring;
