//! `WeightSlot` over `loom::sync`: the same `slot.rs`, for loom models. Its types panic outside
//! `loom::model`. Given; the code is in `slot.rs`.

/// The primitives `slot.rs` may use, from loom (same names and methods as std's).
pub mod sync {
    pub use loom::sync::atomic::{AtomicU64, Ordering};
    pub use loom::sync::{Arc, Mutex, RwLock};
    // loom's locks return std's `LockResult`.
    pub use std::sync::PoisonError;
}

/// A snapshot whose weights are shared through loom's `Arc`.
pub type Snapshot = crate::Snapshot<sync::Arc<crate::Weights>>;

#[path = "slot.rs"]
mod slot;

pub use slot::WeightSlot;
