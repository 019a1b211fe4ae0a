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

// The host code's one rule: left out of the loom build, and behind the feature `host`. Written
// with `cfg_if!` rather than a home-made macro because rustfmt follows the `mod` lines inside
// `cfg_if!` to their files (it does not inside other macros).
cfg_if::cfg_if! {
    if #[cfg(all(not(loom), feature = "host"))] {
        pub mod async_bottom;
        pub mod async_waiting;
        pub mod branchless;
        pub mod channels;
        pub mod contention;
        pub mod data_parallel;
        pub mod false_sharing;
        pub mod figures;
        pub mod gpu_histogram;
        pub mod graph;
        pub mod histogram;
        pub mod lock_hazards;
        pub mod locks;
        pub mod monte_carlo;
        pub mod simd;
        pub mod sort;
        pub mod sparse;
        pub mod specialisations;
        pub mod threads;
    }
}
