//! The hot-loop rules, each as a before/after pair (logging has three variants), and
//! [`measure_all`], which times every variant the same way.

pub mod allocation;
pub mod batching;
pub mod casts;
pub mod copying;
pub mod handoff;
pub mod keys;
pub mod logging;
pub mod priority;
pub mod sleeping;
pub mod syscalls;
pub mod validation;
pub mod vectorisation;

mod measure;
mod rule;

pub use measure::{MeasureError, measure_all, measure_rule};
pub use rule::{Rule, UnknownRule};

use std::time::Duration;

use crate::latency::LatencySummary;

/// One measured variant of one rule.
#[derive(Clone, Debug)]
pub struct Measured {
    pub rule: &'static str,
    pub variant: &'static str,
    pub summary: LatencySummary,
    /// Records the off-thread logger dropped because its ring was full (logging only).
    pub dropped: Option<u64>,
}

impl Measured {
    pub(crate) fn new(rule: &'static str, variant: &'static str, summary: LatencySummary) -> Self {
        Self {
            rule,
            variant,
            summary,
            dropped: None,
        }
    }

    /// Is this variant's median within `FLOOR_FACTOR` times the median of an empty step? Then
    /// the number says more about the clock than about the code.
    pub fn near_floor(&self, floor: &LatencySummary) -> bool {
        self.summary.p50_ns < FLOOR_FACTOR * floor.p50_ns
    }
}

/// A median below this many empty steps is flagged as "at the timer's floor".
pub const FLOOR_FACTOR: u64 = 2;

/// Taps of the filter the vectorisation rule runs.
pub const FIR_TAPS: usize = 16;

/// How much to measure.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub warmup: u64,
    pub iterations: u64,
    /// Messages for the hand-off rule.
    pub messages: u64,
    /// Sleeps for the sleeping rule (each about `sleep_period`).
    pub sleeps: u64,
    pub sleep_period: Duration,
    /// Runs of the priority-inversion scene per protocol.
    pub scenes: u64,
    /// Bytes of the buffer the page-fault loop fills.
    pub fault_buffer: usize,
    /// Periods of each paced loop (each `sleep_period` long).
    pub periods: u32,
}

impl Sizes {
    pub fn full() -> Self {
        Self {
            warmup: 2_000,
            iterations: 100_000,
            messages: 100_000,
            sleeps: 2_000,
            sleep_period: Duration::from_millis(1),
            scenes: 20,
            fault_buffer: 64 << 20,
            periods: 2_000,
        }
    }

    pub fn quick() -> Self {
        Self {
            warmup: 100,
            iterations: 2_000,
            messages: 2_000,
            sleeps: 50,
            sleep_period: Duration::from_millis(1),
            scenes: 2,
            fault_buffer: 4 << 20,
            periods: 50,
        }
    }
}
