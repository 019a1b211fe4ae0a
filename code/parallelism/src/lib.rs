//! Module 2 of the course: parallelism and concurrency.
//!
//! - [`primitives`]: a spin lock, an SPSC ring buffer, a one-shot channel and an `Arc`-like
//!   reference count, each staged from broken to correct and checked with loom
//!   (`tests/loom.rs`); [`sync`] picks loom's or std's types.
//! - The rest (threads, data parallelism, histograms, locks, false sharing, channels, async,
//!   GPU histogram, graphs, SIMD, branchless code, sorting, sparsity, Monte Carlo and the
//!   specialisations demos) is plain std code, left out of the loom build.

pub mod primitives;
pub(crate) mod sync;

#[cfg(not(loom))]
pub mod async_bottom;
#[cfg(not(loom))]
pub mod async_waiting;
#[cfg(not(loom))]
pub mod branchless;
#[cfg(not(loom))]
pub mod channels;
#[cfg(not(loom))]
pub mod contention;
#[cfg(not(loom))]
pub mod data_parallel;
#[cfg(not(loom))]
pub mod false_sharing;
#[cfg(not(loom))]
pub mod figures;
#[cfg(not(loom))]
pub mod gpu_histogram;
#[cfg(not(loom))]
pub mod graph;
#[cfg(not(loom))]
pub mod histogram;
#[cfg(not(loom))]
pub mod lock_hazards;
#[cfg(not(loom))]
pub mod locks;
#[cfg(not(loom))]
pub mod monte_carlo;
#[cfg(not(loom))]
pub mod simd;
#[cfg(not(loom))]
pub mod sort;
#[cfg(not(loom))]
pub mod sparse;
#[cfg(not(loom))]
pub mod specialisations;
#[cfg(not(loom))]
pub mod threads;
