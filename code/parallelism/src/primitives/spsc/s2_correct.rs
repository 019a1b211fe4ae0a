//! Stage 2 (correct): Release/Acquire on the indices, cached indices, padded counters.

use std::mem::MaybeUninit;

use crossbeam_utils::CachePadded;

use crate::sync::{Arc, AtomicUsize, Ordering, UnsafeCell};

// ANCHOR: ring
struct Ring<T> {
    slots: Box<[UnsafeCell<MaybeUninit<T>>]>,
    mask: usize,
    /// Next slot to read; written only by the consumer. Counts up forever (wrapping).
    head: CachePadded<AtomicUsize>,
    /// Next slot to write; written only by the producer.
    tail: CachePadded<AtomicUsize>,
}

// SAFETY: a slot is touched by one side at a time; the index protocol below hands it over.
unsafe impl<T: Send> Sync for Ring<T> {}

/// The writing end. Not `Clone`: there is exactly one producer.
pub struct Producer<T> {
    ring: Arc<Ring<T>>,
    tail: usize,
    /// The last head we read: the consumer is at least this far, so we only reload it when
    /// the ring looks full. This keeps the consumer's cache line out of our way.
    cached_head: usize,
}

/// The reading end. Not `Clone`: there is exactly one consumer.
pub struct Consumer<T> {
    ring: Arc<Ring<T>>,
    head: usize,
    cached_tail: usize,
}
// ANCHOR_END: ring

/// A ring of `capacity` slots (a power of two), split into its two ends.
pub fn ring_buffer<T>(capacity: usize) -> Result<(Producer<T>, Consumer<T>), super::CapacityError> {
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
        Producer {
            ring: ring.clone(),
            tail: 0,
            cached_head: 0,
        },
        Consumer {
            ring,
            head: 0,
            cached_tail: 0,
        },
    ))
}

// ANCHOR: push_pop
impl<T> Producer<T> {
    /// Appends `value`, or gives it back when the ring is full.
    pub fn push(&mut self, value: T) -> Result<(), T> {
        let ring = &*self.ring;
        if self.tail.wrapping_sub(self.cached_head) == ring.slots.len() {
            // Acquire: the consumer has finished reading every slot before this head.
            self.cached_head = ring.head.load(Ordering::Acquire);
            if self.tail.wrapping_sub(self.cached_head) == ring.slots.len() {
                return Err(value);
            }
        }
        let slot = &ring.slots[self.tail & ring.mask];
        // SAFETY: slots from head to tail-1 belong to the consumer; this one is outside.
        slot.with_mut(|p| unsafe { (*p).write(value) });
        self.tail = self.tail.wrapping_add(1);
        // Release: the slot's contents are visible to whoever Acquire-loads this tail.
        ring.tail.store(self.tail, Ordering::Release);
        Ok(())
    }
}

impl<T> Consumer<T> {
    /// Takes the oldest value, or `None` when the ring is empty.
    pub fn pop(&mut self) -> Option<T> {
        let ring = &*self.ring;
        if self.head == self.cached_tail {
            self.cached_tail = ring.tail.load(Ordering::Acquire);
            if self.head == self.cached_tail {
                return None;
            }
        }
        let slot = &ring.slots[self.head & ring.mask];
        // SAFETY: head < tail, and the Acquire load of tail saw this slot's write.
        let value = slot.with(|p| unsafe { (*p).assume_init_read() });
        self.head = self.head.wrapping_add(1);
        // Release: our read of the slot happens-before the producer reuses it.
        ring.head.store(self.head, Ordering::Release);
        Some(value)
    }
}
// ANCHOR_END: push_pop

impl<T> Drop for Ring<T> {
    fn drop(&mut self) {
        // Both ends are gone (this is the last Arc), so plain loads are enough.
        let head = self.head.load(Ordering::Acquire);
        let tail = self.tail.load(Ordering::Acquire);
        let mut i = head;
        while i != tail {
            self.slots[i & self.mask].with_mut(|p| unsafe { (*p).assume_init_drop() });
            i = i.wrapping_add(1);
        }
    }
}
