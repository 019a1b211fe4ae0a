//! Rule: sleep precisely, or not at all. `thread::sleep` asks the OS to wake the thread *no
//! earlier* than asked; how much later depends on the timer slack and the scheduler.
//! `spin_sleep` sleeps natively for most of the time and spins for the last stretch.

use std::time::{Duration, Instant};

use crate::latency::{LatencyRecorder, LatencySummary};

/// The ways to wait for a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sleeper {
    /// `std::thread::sleep`.
    Std,
    /// `spin_sleep::sleep`: native sleep, then a spin to the deadline.
    SpinSleep,
}

// ANCHOR: overshoot
/// Sleeps `iterations` times for `period` and records how late each wake-up was.
pub fn overshoot(sleeper: Sleeper, period: Duration, iterations: u64) -> LatencySummary {
    let mut recorder = LatencyRecorder::new();
    for _ in 0..iterations {
        let start = Instant::now();
        match sleeper {
            Sleeper::Std => std::thread::sleep(period),
            Sleeper::SpinSleep => spin_sleep::sleep(period),
        }
        recorder.record(start.elapsed().saturating_sub(period));
    }
    recorder.summary()
}
// ANCHOR_END: overshoot
