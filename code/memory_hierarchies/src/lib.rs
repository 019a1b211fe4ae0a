//! The CPU and its memory hierarchy, one small program per effect.
//!
//! Each module holds the kernels of one chapter of module 1. Every kernel is an ordinary,
//! tested function; the binary `memory_hierarchies_figures` times them over sweeps and runs
//! them under cachegrind for deterministic miss counts.

pub mod access;
pub mod aliasing;
pub mod bandwidth;
pub mod containers;
pub mod error;
pub mod gc;
pub mod hashing;
pub mod inlining;
pub mod latency;
pub mod pipeline;
pub mod pointers;
pub mod rng;
pub mod vec_growth;
pub mod virtual_memory;

pub use error::MemoryError;
