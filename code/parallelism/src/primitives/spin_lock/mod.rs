//! A spin lock in three stages:
//!
//! 1. [`s1_racy`]: checks the flag, then sets it: two threads can both see "free" (check-then-act);
//! 2. [`s2_relaxed`]: one atomic compare-exchange, but with `Relaxed` ordering, so the data
//!    written inside the lock is not guaranteed to be visible to the next owner;
//! 3. [`s3_correct`]: compare-exchange with `Acquire`, unlock with `Release`.

pub mod s1_racy;
pub mod s2_relaxed;
pub mod s3_correct;

pub use s3_correct::SpinLock;
