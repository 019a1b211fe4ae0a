//! Time as a trait: the real clock for programs, a fake one for tests that must not depend on
//! how busy the machine is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Where the stages read the time and wait for it. Times are durations since the clock started.
pub trait Clock: Send + Sync + 'static {
    fn now(&self) -> Duration;
    /// Returns at `deadline` or later (at once if it has passed).
    fn sleep_until(&self, deadline: Duration);
}

/// The machine's monotonic clock.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    pub fn new() -> Self {
        Self {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn sleep_until(&self, deadline: Duration) {
        // A plain sleep: it may wake late by the OS's timer slack, which the source absorbs
        // because each frame's due time is computed from its index, not from the last wake-up.
        if let Some(left) = deadline.checked_sub(self.now()) {
            std::thread::sleep(left);
        }
    }
}

// ANCHOR: fake_clock
/// A clock that moves only when told to: `sleep_until` jumps straight to the deadline, so a
/// source paced by it runs as fast as the machine allows, and every time it reports is exact.
#[derive(Debug, Default)]
pub struct FakeClock {
    now_ns: AtomicU64,
}

impl FakeClock {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn advance(&self, by: Duration) {
        self.now_ns.fetch_add(nanos(by), Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.now_ns.load(Ordering::SeqCst))
    }

    fn sleep_until(&self, deadline: Duration) {
        self.now_ns.fetch_max(nanos(deadline), Ordering::SeqCst);
    }
}
// ANCHOR_END: fake_clock

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}
