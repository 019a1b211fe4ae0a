//! Exercise: the ring buffer between an audio decoder (the producer, any thread) and the audio
//! callback (the consumer, called by the sound system on its real-time thread every few
//! milliseconds). The callback must never wait and never allocate: if it is late, the speaker
//! clicks. When the ring runs dry, the callback plays silence and counts an *underrun*.
//!
//! Your methods are in `ring.rs`. This file compiles `ends.rs` (the shared state and the two
//! ends) and `ring.rs` twice, against two sets of primitives with the same names:
//! - [`std_ring`]: `std::sync`, for real threads (and for your program);
//! - [`loom_ring`]: `loom::sync`, whose types only work inside `loom::model`, where loom tries
//!   every interleaving of the threads and every value a load may legally return.
//!
//! This file, `ends.rs`, `std_ring.rs` and `loom_ring.rs` are given: the grader always uses the
//! course's copies.

// Loading `ring.rs` twice is the point: one source, two sets of primitives.
#![allow(clippy::duplicate_mod)]

use std::fmt;

pub mod loom_ring;
pub mod std_ring;

pub use std_ring::{Consumer, Producer, audio_ring};

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
