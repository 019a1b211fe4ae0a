//! A bounded single-producer single-consumer ring buffer in two stages:
//!
//! 1. [`s1_relaxed`]: the indices are published with `Relaxed`, so the consumer can see a new
//!    tail before the slot it points at is written;
//! 2. [`s2_correct`]: `Release` when publishing an index, `Acquire` when reading the other
//!    side's, plus cached copies of the other side's index and padding between the two.
//!
//! Both split into a [`Producer`](s2_correct::Producer) and a [`Consumer`](s2_correct::Consumer)
//! handle: the type system, not a convention, keeps it single-producer and single-consumer.

pub mod s1_relaxed;
pub mod s2_correct;

pub use s2_correct::{Consumer, Producer, ring_buffer};

/// A ring buffer capacity that is zero or not a power of two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "ring buffer capacity {capacity} is not a power of two: use e.g. {}",
    (*capacity).max(1).next_power_of_two()
)]
pub struct CapacityError {
    pub capacity: usize,
}

/// The capacity must be a power of two (so wrapping is a mask) and not zero.
pub fn check_capacity(capacity: usize) -> Result<(), CapacityError> {
    if capacity == 0 || !capacity.is_power_of_two() {
        return Err(CapacityError { capacity });
    }
    Ok(())
}
