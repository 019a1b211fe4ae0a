//! One blocking call inside a task stops every other task on its thread: a ticker that should
//! wake every `period` is late by as long as the call blocks. Moving the call to tokio's
//! blocking pool (`spawn_blocking`) keeps the runtime's thread free, and the ticker on time.

use std::time::{Duration, Instant};

/// Where the blocking call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockingCall {
    /// `std::thread::sleep` inside an async task: the runtime's only thread is blocked.
    InTask,
    /// The same call handed to `tokio::task::spawn_blocking`, awaited by the task.
    SpawnBlocking,
}

/// What the ticker measured: for each tick, when it was due and how late it woke.
#[derive(Clone, Debug)]
pub struct Ticks {
    pub due: Vec<Duration>,
    pub late: Vec<Duration>,
}

impl Ticks {
    pub fn max_late(&self) -> Duration {
        self.late.iter().copied().max().unwrap_or_default()
    }
    pub fn late_by_more_than(&self, limit: Duration) -> usize {
        self.late.iter().filter(|l| **l > limit).count()
    }
}

// ANCHOR: starve
/// A single-threaded tokio runtime runs a ticker (`ticks` ticks, one per `period`) and a
/// task that, after `block_at`, makes one blocking call of `block_for`.
pub fn ticker_beside_blocking_call(
    call: BlockingCall,
    period: Duration,
    ticks: u32,
    block_at: Duration,
    block_for: Duration,
) -> Ticks {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime with a timer");
    runtime.block_on(async move {
        let start = Instant::now();
        let blocker = tokio::spawn(async move {
            tokio::time::sleep(block_at).await;
            match call {
                BlockingCall::InTask => std::thread::sleep(block_for),
                BlockingCall::SpawnBlocking => {
                    tokio::task::spawn_blocking(move || std::thread::sleep(block_for))
                        .await
                        .expect("the blocking call does not panic")
                }
            }
        });
        // ANCHOR_END: starve
        // ANCHOR: ticker
        let ticker = tokio::spawn(async move {
            let mut ticks_seen = Ticks {
                due: Vec::new(),
                late: Vec::new(),
            };
            for k in 1..=ticks {
                let due = start + period * k;
                tokio::time::sleep_until(due.into()).await;
                ticks_seen.due.push(due - start);
                ticks_seen
                    .late
                    .push(Instant::now().saturating_duration_since(due));
            }
            ticks_seen
        });
        blocker.await.expect("the blocker does not panic");
        ticker.await.expect("the ticker does not panic")
    })
}
// ANCHOR_END: ticker

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD: Duration = Duration::from_millis(10);
    const BLOCK_AT: Duration = Duration::from_millis(45);
    const BLOCK_FOR: Duration = Duration::from_millis(150);

    // ANCHOR: starve_test
    #[test]
    fn a_blocking_call_in_a_task_makes_the_ticker_late_and_spawn_blocking_fixes_it() {
        let run = |call| ticker_beside_blocking_call(call, PERIOD, 30, BLOCK_AT, BLOCK_FOR);
        let starved = run(BlockingCall::InTask);
        // The tick due at 50 ms cannot run before the call ends at 195 ms or later.
        assert!(
            starved.max_late() >= Duration::from_millis(140),
            "{starved:?}"
        );
        assert!(
            starved.late_by_more_than(Duration::from_millis(20)) >= 10,
            "{starved:?}"
        );
        let fixed = run(BlockingCall::SpawnBlocking);
        // Generous bounds: on a busy 2-core machine a wake-up can be tens of milliseconds late.
        assert!(fixed.max_late() < Duration::from_millis(100), "{fixed:?}");
        assert!(
            fixed.late_by_more_than(Duration::from_millis(20)) <= 4,
            "{fixed:?}"
        );
    }
    // ANCHOR_END: starve_test
}
