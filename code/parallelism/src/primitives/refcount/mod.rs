//! An `Arc`-like shared pointer with an atomic reference count.
//!
//! 1. [`s1_relaxed`]: decrements with `Relaxed`: the thread that frees the value may not see
//!    the other threads' last uses of it;
//! 2. [`s2_correct`]: `Release` on every decrement, and an `Acquire` fence before freeing.

pub mod s1_relaxed;
pub mod s2_correct;

pub use s2_correct::MiniArc;
