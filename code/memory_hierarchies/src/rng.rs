//! The seeded generator behind every sweep's "random" data: the course's one SplitMix64, which
//! lives in `bench_harness` so that every crate's benchmark data comes from the same numbers.

pub use bench_harness::rng::{SplitMix64, shuffled};
