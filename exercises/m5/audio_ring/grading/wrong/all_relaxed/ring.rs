//! Wrong: every ordering Relaxed (passes on x86's strong memory model).
//! Your work: making the ring, the producer's push and the callback's fill.
//!
//! Take every synchronisation type from `super::sync` (e.g. `use super::sync::{Arc, Ordering};`),
//! never from `std::sync` directly: this file is compiled once over std and once over loom.
//! The slots are reached through `Shared::write` and `Shared::read` (in `ends.rs`), and a ring
//! is made with `Shared::new`.

use super::sync::{Arc, Ordering};
use super::{Consumer, Producer, Shared};
use crate::{CallbackStats, RingError};

/// A ring of `capacity` samples (a power of two), split into its two ends.
pub fn audio_ring(capacity: usize) -> Result<(Producer, Consumer), RingError> {
    if !capacity.is_power_of_two() {
        return Err(RingError::CapacityNotPowerOfTwo { capacity });
    }
    let shared = Arc::new(Shared::new(capacity));
    Ok((
        Producer {
            shared: Arc::clone(&shared),
            tail: 0,
        },
        Consumer {
            shared,
            head: 0,
            stats: CallbackStats::default(),
        },
    ))
}

impl Producer {
    /// Appends as many of `samples` as fit; returns how many were taken.
    pub fn push_slice(&mut self, samples: &[f32]) -> usize {
        let s = &*self.shared;
        // Acquire: pairs with the consumer's Release store of `head`, so its reads of the slots
        // before this head happen before the writes below reuse them.
        let head = s.head.load(Ordering::Relaxed);
        let free = s.capacity() - self.tail.wrapping_sub(head);
        let n = free.min(samples.len());
        for (i, &x) in samples[..n].iter().enumerate() {
            s.write(self.tail.wrapping_add(i) & s.mask, x);
        }
        self.tail = self.tail.wrapping_add(n);
        // Release: the samples written above are visible to whoever Acquire-loads this tail.
        s.tail.store(self.tail, Ordering::Relaxed);
        n
    }

    /// Room left for samples right now.
    pub fn free(&self) -> usize {
        let s = &*self.shared;
        s.capacity() - self.tail.wrapping_sub(s.head.load(Ordering::Relaxed))
    }
}

impl Consumer {
    /// The audio callback: fills `out` from the ring, and with silence where the ring ran dry.
    pub fn fill(&mut self, out: &mut [f32]) {
        let s = &*self.shared;
        let tail = s.tail.load(Ordering::Relaxed);
        let n = tail.wrapping_sub(self.head).min(out.len());
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = s.read(self.head.wrapping_add(i) & s.mask);
        }
        self.head = self.head.wrapping_add(n);
        // Release: our reads happen-before the producer reuses these slots.
        s.head.store(self.head, Ordering::Relaxed);
        let missing = out.len() - n;
        if missing > 0 {
            out[n..].fill(0.0);
            self.stats.underruns += 1;
            self.stats.missing_samples += missing as u64;
        }
    }

    /// Samples queued right now.
    pub fn available(&self) -> usize {
        self.shared
            .tail
            .load(Ordering::Relaxed)
            .wrapping_sub(self.head)
    }
}
