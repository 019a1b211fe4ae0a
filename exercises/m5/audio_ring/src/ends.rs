//! The state both ends share, and the two ends. Given; compiled once per set of primitives
//! (`super::sync`), like `ring.rs`.

use super::sync::{Arc, AtomicU32, AtomicUsize};
use crate::CallbackStats;

/// The state both ends share: atomics only. Samples are stored as their bits (`f32::to_bits`).
// The ring you write in ring.rs reads these fields; the stub does not yet.
#[allow(dead_code)]
pub(crate) struct Shared {
    pub(crate) slots: Box<[AtomicU32]>,
    /// `capacity - 1`: the capacity is a power of two, so an index wraps with `& mask`.
    pub(crate) mask: usize,
    /// Next sample to read; written only by the consumer. Counts up forever (wrapping).
    pub(crate) head: AtomicUsize,
    /// Next sample to write; written only by the producer.
    pub(crate) tail: AtomicUsize,
}

/// The decoder's end. Not `Clone`: exactly one producer.
pub struct Producer {
    pub(crate) shared: Arc<Shared>,
    /// The producer's own copy of `tail`.
    pub(crate) tail: usize,
}

/// The audio callback's end. Not `Clone`: exactly one consumer.
pub struct Consumer {
    pub(crate) shared: Arc<Shared>,
    /// The consumer's own copy of `head`.
    pub(crate) head: usize,
    pub(crate) stats: CallbackStats,
}

impl Consumer {
    pub fn stats(&self) -> CallbackStats {
        self.stats
    }
}
