//! The ring over `std::sync`: for real threads. Given; the code is in `ring.rs`.

/// The primitives `ends.rs` and `ring.rs` may use, from std.
pub mod sync {
    pub use std::sync::Arc;
    pub use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
}

/// Over std, marking a slot access does nothing: a type of size zero whose calls compile away,
/// so the ring on real threads pays nothing for the loom build's checks.
mod slot_access {
    pub(crate) struct SlotAccess;

    impl SlotAccess {
        pub(crate) fn new() -> Self {
            SlotAccess
        }
        #[inline(always)]
        pub(crate) fn reading(&self) {}
        #[inline(always)]
        pub(crate) fn writing(&self) {}
    }
}

// A slot over std is its atomic alone.
const _: () = assert!(std::mem::size_of::<slot_access::SlotAccess>() == 0);

#[path = "ends.rs"]
mod ends;
#[path = "ring.rs"]
mod ring;

pub use ends::{Consumer, Producer};
// The stub's `ring.rs` does not use it yet.
#[allow(unused_imports)]
pub(crate) use ends::Shared;
pub use ring::audio_ring;
