//! Your work: making the ring, the producer's push and the callback's fill.
//!
//! Take every synchronisation type from `super::sync` (e.g. `use super::sync::{Arc, Ordering};`),
//! never from `std::sync` directly: this file is compiled once over std and once over loom.
//! The slots are reached through `Shared::write` and `Shared::read` (in `ends.rs`), and a ring
//! is made with `Shared::new`.

use super::{Consumer, Producer};
use crate::RingError;

/// A ring of `capacity` samples (a power of two), split into its two ends.
pub fn audio_ring(capacity: usize) -> Result<(Producer, Consumer), RingError> {
    todo!("check the capacity, build the shared slots and hand out both ends ({capacity})")
}

impl Producer {
    /// Appends as many of `samples` as fit; returns how many were taken.
    pub fn push_slice(&mut self, samples: &[f32]) -> usize {
        let _ = (&self.shared, self.tail);
        todo!(
            "write what fits, then publish the tail ({} samples)",
            samples.len()
        )
    }

    /// Room left for samples right now.
    pub fn free(&self) -> usize {
        todo!()
    }
}

impl Consumer {
    /// The audio callback: fills `out` from the ring, and with silence where the ring ran dry.
    pub fn fill(&mut self, out: &mut [f32]) {
        let _ = (&self.shared, self.head, self.stats);
        todo!(
            "copy what is there, publish the head, zero and count the rest ({})",
            out.len()
        )
    }

    /// Samples queued right now.
    pub fn available(&self) -> usize {
        todo!()
    }
}
