//! Module 5 of the course: real-time systems.
//!
//! - [`rules`]: every hot-loop rule as a before/after pair, timed per iteration into an HDR
//!   histogram ([`latency`]) so the tail (p99, max) is reported, not the mean;
//! - [`method`]: a small sensor pipeline built the way the chapter recommends, in stages:
//!   a prototype, its components in a single-threaded tested version, an allocation-free one;
//! - [`rt_basics`]: priority inversion and inheritance, page faults and `mlockall`, sleeping
//!   to absolute deadlines, each in a small staged file;
//! - [`habits`]: the engineering habits as before/after pairs with tests: typed settings checked
//!   at the edge, explicit conversions, counters that say what happens at their limit, a first
//!   draft with `todo!()`;
//! - [`counting_alloc`]: an allocator that counts, so tests can prove a loop allocates nothing;
//! - [`spsc`]: the module 2 ring buffer, re-exported from `parallelism`.

pub mod counting_alloc;
pub mod habits;
pub mod latency;
pub mod method;
pub mod rt_basics;
pub mod rules;
pub mod workload;

// The module 2 SPSC ring, from the crate that teaches it (one source, one set of loom models).
pub use parallelism::primitives::spsc;
