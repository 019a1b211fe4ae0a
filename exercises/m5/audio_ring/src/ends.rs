//! The state both ends share, and the two ends. Given; compiled once per set of primitives
//! (`super::sync`), like `ring.rs`.

use super::slot_access::SlotAccess;
use super::sync::{Arc, AtomicU32, AtomicUsize, Ordering};
use crate::CallbackStats;

/// One sample's place in the ring.
struct Slot {
    /// The sample's bits (`f32::to_bits`).
    bits: AtomicU32,
    /// Tells loom that this slot is being read or written (nothing at all over std), so that a
    /// model fails when a write to the slot is not ordered after the read of its old sample.
    access: SlotAccess,
}

/// The state both ends share.
// The ring you write in ring.rs uses these; the stub does not yet.
#[allow(dead_code)]
pub(crate) struct Shared {
    /// Private to this file: `ring.rs` reaches the slots only through `write` and `read`, which
    /// report every access to loom.
    slots: Box<[Slot]>,
    /// `capacity - 1`: the capacity is a power of two, so an index wraps with `& mask`.
    pub(crate) mask: usize,
    /// Next sample to read; written only by the consumer. Counts up forever (wrapping).
    pub(crate) head: AtomicUsize,
    /// Next sample to write; written only by the producer.
    pub(crate) tail: AtomicUsize,
}

#[allow(dead_code)]
impl Shared {
    /// An empty ring of `capacity` slots, `head` and `tail` at 0. `capacity` must be a power of
    /// two: check it before calling this.
    pub(crate) fn new(capacity: usize) -> Shared {
        debug_assert!(capacity.is_power_of_two(), "capacity {capacity}");
        Shared {
            slots: (0..capacity)
                .map(|_| Slot {
                    bits: AtomicU32::new(0),
                    access: SlotAccess::new(),
                })
                .collect(),
            mask: capacity.wrapping_sub(1),
            head: AtomicUsize::new(0),
            tail: AtomicUsize::new(0),
        }
    }

    /// The number of slots.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Producer only: stores `x` in slot `index` (`0..capacity`, already masked). The slot's
    /// previous sample must have been read by the consumer, and that read must happen before
    /// this write: that is the job of your orderings on `head`.
    pub(crate) fn write(&self, index: usize, x: f32) {
        let slot = &self.slots[index];
        slot.access.writing();
        // Relaxed: the ordering comes from publishing `tail` (samples) and `head` (free slots).
        slot.bits.store(x.to_bits(), Ordering::Relaxed);
    }

    /// Consumer only: the sample in slot `index` (`0..capacity`, already masked). The write of
    /// that sample must happen before this read: that is the job of your orderings on `tail`.
    pub(crate) fn read(&self, index: usize) -> f32 {
        let slot = &self.slots[index];
        slot.access.reading();
        f32::from_bits(slot.bits.load(Ordering::Relaxed))
    }
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
