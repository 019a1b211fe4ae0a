//! `WeightSlot` over `std::sync`: for real threads. Given; the code is in `slot.rs`.

/// The primitives `slot.rs` may use, from std.
pub mod sync {
    pub use std::sync::atomic::{AtomicU64, Ordering};
    pub use std::sync::{Arc, Mutex, PoisonError, RwLock};
}

/// A snapshot whose weights are shared through std's `Arc`.
pub type Snapshot = crate::Snapshot<sync::Arc<crate::Weights>>;

#[path = "slot.rs"]
mod slot;

pub use slot::WeightSlot;
