//! Exercise: the ring buffer between an audio decoder (the producer, any thread) and the audio
//! callback (the consumer, called by the sound system on its real-time thread every few
//! milliseconds). The callback must never wait and never allocate: if it is late, the speaker
//! clicks. When the ring runs dry, the callback plays silence and counts an *underrun*.
//!
//! The shared state holds atomics only, and the ends hold what their side needs; your methods
//! are in `ring.rs`. This file is given: the grader always uses the course's copy.

mod ring;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicUsize};

pub use ring::audio_ring;

/// The state both ends share. Samples are stored as their bits (`f32::to_bits`).
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

/// What the callback could not deliver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallbackStats {
    /// Callbacks that had to play some silence.
    pub underruns: u64,
    /// Samples replaced by silence, in all.
    pub missing_samples: u64,
}

/// Why a ring could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingError {
    CapacityNotPowerOfTwo { capacity: usize },
}

impl fmt::Display for RingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RingError::CapacityNotPowerOfTwo { capacity } => write!(
                f,
                "ring capacity {capacity} is not a power of two; use e.g. {}",
                (*capacity).max(1).next_power_of_two()
            ),
        }
    }
}

impl std::error::Error for RingError {}

impl Consumer {
    pub fn stats(&self) -> CallbackStats {
        self.stats
    }
}
