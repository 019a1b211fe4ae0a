//! The ring over `loom::sync`: the same `ring.rs`, for loom models. Its types panic outside
//! `loom::model`. Given; the code is in `ring.rs`.

/// The primitives `ends.rs` and `ring.rs` may use, from loom (same names and methods as std's).
pub mod sync {
    pub use loom::sync::Arc;
    pub use loom::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
}

/// Over loom, a slot access is recorded on a `loom::cell::UnsafeCell` that holds nothing. Loom
/// fails the model ("Causality violation") when a write is not ordered after every earlier access
/// to the slot, or a read after the last write: ordered meaning happens-before, through a
/// Release store read by an Acquire load.
mod slot_access {
    pub(crate) struct SlotAccess(loom::cell::UnsafeCell<()>);

    impl SlotAccess {
        pub(crate) fn new() -> Self {
            SlotAccess(loom::cell::UnsafeCell::new(()))
        }
        pub(crate) fn reading(&self) {
            self.0.with(|_| ());
        }
        pub(crate) fn writing(&self) {
            self.0.with_mut(|_| ());
        }
    }
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
