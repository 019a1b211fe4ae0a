//! Rule: sleep precisely, or not at all. `thread::sleep` asks the OS to wake the thread *no
//! earlier* than asked; how much later depends on the timer slack and the scheduler.
//! `spin_sleep` sleeps natively for most of the time and spins for the last stretch; how it
//! spins (yielding the core, or a busy loop with a spin hint) is measured as two variants.

use std::time::{Duration, Instant};

use crate::latency::{LatencyRecorder, LatencySummary};

/// The ways to wait for a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sleeper {
    /// `std::thread::sleep`.
    Std,
    /// `spin_sleep::sleep`: native sleep, then a spin to the deadline. Its default spin
    /// (outside Windows) calls `thread::yield_now` in a loop, offering the core to others.
    SpinSleep,
    /// The same, spinning with `std::hint::spin_loop` instead: the core is never offered.
    SpinLoopHint,
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
            Sleeper::SpinLoopHint => spin_sleep::SpinSleeper::default()
                .with_spin_strategy(spin_sleep::SpinStrategy::SpinLoopHint)
                .sleep(period),
        }
        recorder.record(start.elapsed().saturating_sub(period));
    }
    recorder.summary()
}
// ANCHOR_END: overshoot
