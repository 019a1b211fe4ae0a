//! Stage 1 (broken): the same ring, but every index is stored and loaded with `Relaxed`.

use std::mem::MaybeUninit;

use crossbeam_utils::CachePadded;

use crate::sync::{Arc, AtomicUsize, Ordering, UnsafeCell};

// ANCHOR: relaxed_ring
struct Ring<T> {
    slots: Box<[UnsafeCell<MaybeUninit<T>>]>,
    mask: usize,
    /// Next slot to read; written only by the consumer. Counts up forever (wrapping).
    head: CachePadded<AtomicUsize>,
    /// Next slot to write; written only by the producer.
    tail: CachePadded<AtomicUsize>,
}

// SAFETY: claimed, but wrong: with Relaxed indices the hand-over of a slot is not ordered.
unsafe impl<T: Send> Sync for Ring<T> {}

/// The writing end. Not `Clone`: there is exactly one producer.
pub struct RelaxedProducer<T> {
    ring: Arc<Ring<T>>,
    tail: usize,
    /// The last head we read: the consumer is at least this far, so we only reload it when
    /// the ring looks full. This keeps the consumer's cache line out of our way.
    cached_head: usize,
}

/// The reading end. Not `Clone`: there is exactly one consumer.
pub struct RelaxedConsumer<T> {
    ring: Arc<Ring<T>>,
    head: usize,
    cached_tail: usize,
}
// ANCHOR_END: relaxed_ring

/// A ring of `capacity` slots (a power of two), split into its two ends.
pub fn relaxed_ring_buffer<T>(
    capacity: usize,
) -> Result<(RelaxedProducer<T>, RelaxedConsumer<T>), super::CapacityError> {
    super::check_capacity(capacity)?;
    let slots = (0..capacity)
        .map(|_| UnsafeCell::new(MaybeUninit::uninit()))
        .collect();
    let ring = Arc::new(Ring {
        slots,
        mask: capacity - 1,
        head: CachePadded::new(AtomicUsize::new(0)),
        tail: CachePadded::new(AtomicUsize::new(0)),
    });
    Ok((
        RelaxedProducer {
            ring: ring.clone(),
            tail: 0,
            cached_head: 0,
        },
        RelaxedConsumer {
            ring,
            head: 0,
            cached_tail: 0,
        },
    ))
}

// ANCHOR: relaxed_push_pop
impl<T> RelaxedProducer<T> {
    /// Appends `value`, or gives it back when the ring is full.
    pub fn push(&mut self, value: T) -> Result<(), T> {
        let ring = &*self.ring;
        if self.tail.wrapping_sub(self.cached_head) == ring.slots.len() {
            // BUG: Relaxed does not tell us the consumer has finished reading those slots.
            self.cached_head = ring.head.load(Ordering::Relaxed);
            if self.tail.wrapping_sub(self.cached_head) == ring.slots.len() {
                return Err(value);
            }
        }
        let slot = &ring.slots[self.tail & ring.mask];
        // SAFETY: slots from head to tail-1 belong to the consumer; this one is outside.
        slot.with_mut(|p| unsafe { (*p).write(value) });
        self.tail = self.tail.wrapping_add(1);
        // BUG: Relaxed publishes the index without publishing the slot's contents.
        ring.tail.store(self.tail, Ordering::Relaxed);
        Ok(())
    }
}

impl<T> RelaxedConsumer<T> {
    /// Takes the oldest value, or `None` when the ring is empty.
    pub fn pop(&mut self) -> Option<T> {
        let ring = &*self.ring;
        if self.head == self.cached_tail {
            self.cached_tail = ring.tail.load(Ordering::Relaxed);
            if self.head == self.cached_tail {
                return None;
            }
        }
        let slot = &ring.slots[self.head & ring.mask];
        // BUG: seeing the new tail does not mean seeing the slot's write.
        let value = slot.with(|p| unsafe { (*p).assume_init_read() });
        self.head = self.head.wrapping_add(1);
        // BUG: the producer may overwrite the slot before our read is done.
        ring.head.store(self.head, Ordering::Relaxed);
        Some(value)
    }
}
// ANCHOR_END: relaxed_push_pop

impl<T> Drop for Ring<T> {
    fn drop(&mut self) {
        // Both ends are gone (this is the last Arc): the Arc's own drop orders these loads.
        let head = self.head.load(Ordering::Relaxed);
        let tail = self.tail.load(Ordering::Relaxed);
        let mut i = head;
        while i != tail {
            self.slots[i & self.mask].with_mut(|p| unsafe { (*p).assume_init_drop() });
            i = i.wrapping_add(1);
        }
    }
}
