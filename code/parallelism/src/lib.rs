//! Module 2 of the course: parallelism and concurrency.
//!
//! - [`primitives`]: a spin lock, an SPSC ring buffer, a one-shot channel and an `Arc`-like
//!   reference count, each staged from broken to correct and checked with loom
//!   (`tests/loom.rs`); [`sync`] picks loom's or std's types.
//! - The rest (threads, data parallelism, histograms, locks, false sharing, channels, async,
//!   GPU histogram, graphs, SIMD, branchless code, sorting, sparsity, Monte Carlo and the
//!   specialisations demos) is plain std code, left out of the loom build and behind the
//!   default feature `host`; [`HISTOGRAM_WGSL`] stays without it, for a web page's build.

pub mod primitives;
pub(crate) mod sync;

/// The GPU histogram's kernels (global atomics, and workgroup-privatised bins): the WGSL text
/// of `histogram.wgsl`, exported for crates that run it without this crate's host code.
pub const HISTOGRAM_WGSL: &str = include_str!("histogram.wgsl");

#[cfg(all(not(loom), feature = "host"))]
pub mod async_bottom;
#[cfg(all(not(loom), feature = "host"))]
pub mod async_waiting;
#[cfg(all(not(loom), feature = "host"))]
pub mod branchless;
#[cfg(all(not(loom), feature = "host"))]
pub mod channels;
#[cfg(all(not(loom), feature = "host"))]
pub mod contention;
#[cfg(all(not(loom), feature = "host"))]
pub mod data_parallel;
#[cfg(all(not(loom), feature = "host"))]
pub mod false_sharing;
#[cfg(all(not(loom), feature = "host"))]
pub mod figures;
#[cfg(all(not(loom), feature = "host"))]
pub mod gpu_histogram;
#[cfg(all(not(loom), feature = "host"))]
pub mod graph;
#[cfg(all(not(loom), feature = "host"))]
pub mod histogram;
#[cfg(all(not(loom), feature = "host"))]
pub mod lock_hazards;
#[cfg(all(not(loom), feature = "host"))]
pub mod locks;
#[cfg(all(not(loom), feature = "host"))]
pub mod monte_carlo;
#[cfg(all(not(loom), feature = "host"))]
pub mod simd;
#[cfg(all(not(loom), feature = "host"))]
pub mod sort;
#[cfg(all(not(loom), feature = "host"))]
pub mod sparse;
#[cfg(all(not(loom), feature = "host"))]
pub mod specialisations;
#[cfg(all(not(loom), feature = "host"))]
pub mod threads;
