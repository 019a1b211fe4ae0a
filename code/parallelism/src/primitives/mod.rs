//! Four small concurrent primitives, each staged from broken to correct, in the style of
//! *Rust Atomics and Locks*: a spin lock, a single-producer single-consumer ring buffer, a
//! one-shot channel and an `Arc`-like reference count; and a flag published with fences
//! ([`fence_flag`]).
//!
//! Every stage builds on the sync shim (`crate::sync`), so `tests/loom.rs` can explore all the
//! interleavings of the very same code. The broken stages are kept on purpose: the loom tests
//! show that they are broken.

pub mod fence_flag;
pub mod oneshot;
pub mod refcount;
pub mod spin_lock;
pub mod spsc;
