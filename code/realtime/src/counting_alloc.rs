//! A global allocator that counts the allocations made by the current thread, so a test can
//! check that a hot loop allocates nothing: install it with
//! `#[global_allocator] static ALLOC: CountingAllocator = CountingAllocator;`.
//!
//! The count is per thread because a test harness runs other threads (and other tests) at the
//! same time; only the loop's own thread matters. The allocators live in
//! `bench_harness::counting_alloc` (beside one that counts every thread, for pipelines) and are
//! re-exported here, where module 5's tests and exercises name them.

pub use bench_harness::counting_alloc::{
    CountingAllocator, allocations_on_this_thread, count_allocations,
};
