//! A source that wakes late (a descheduled thread, a blocking call) under `DropOldest` skips to
//! the newest due frame instead of bursting the missed ones out back to back; under `Block`,
//! where every frame matters, it makes them all.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use project_skeleton::pipeline::clock::{Clock, FakeClock};
use project_skeleton::pipeline::process::CpuHistogram;
use project_skeleton::pipeline::queue::Policy;

const PERIOD: Duration = Duration::from_millis(1); // `common::start`'s source
const STALL_AT: Duration = Duration::from_millis(10);

// ANCHOR: stalling_clock
/// A fake clock that oversleeps once: asked to wake at `STALL_AT`, it wakes 100 periods later,
/// as a thread descheduled for that long would.
#[derive(Default)]
struct StallingClock {
    clock: FakeClock,
    stalled: AtomicBool,
}

impl Clock for StallingClock {
    fn now(&self) -> Duration {
        self.clock.now()
    }

    fn sleep_until(&self, deadline: Duration) {
        self.clock.sleep_until(deadline);
        if deadline == STALL_AT && !self.stalled.swap(true, Ordering::SeqCst) {
            self.clock.advance(PERIOD * 100);
        }
    }
}
// ANCHOR_END: stalling_clock

/// Runs a pipeline on the stalling clock, reads `frames` results, shuts down; returns the
/// indices delivered, the frames made and the frames skipped.
fn run(policy: Policy, frames: usize) -> (Vec<u64>, u64, u64) {
    let clock = Arc::new(StallingClock::default());
    let (mut pipeline, recorder) = common::start(CpuHistogram, clock, 4, policy);
    let mut seen = Vec::new();
    while seen.len() < frames {
        seen.push(pipeline.recv().unwrap().frame.index);
    }
    let report = pipeline.shutdown(|r| seen.push(r.frame.index)).unwrap();
    recorder.finish().unwrap();
    assert_eq!(report.lost(), 0, "{policy:?}: {report:?}");
    (seen, report.produced, report.skipped_at_source)
}

// ANCHOR: stall_test
#[test]
fn after_a_stall_drop_oldest_skips_to_the_newest_due_frame() {
    let (seen, produced, skipped) = run(Policy::DropOldest, 150);
    // Frame 10 was due at the stall; it woke when frame 110 was due: 100 frames skipped, once,
    // and none of them was made. (The queue's own drops are counted elsewhere, and the newest
    // frame, delivered last, is never dropped: every index up to it was made or skipped.)
    assert_eq!(skipped, 100);
    assert!(seen.iter().all(|i| !(10..110).contains(i)), "{seen:?}");
    assert_eq!(produced + skipped, seen.iter().max().unwrap() + 1);
}

#[test]
fn after_a_stall_block_makes_every_frame() {
    let (seen, _, skipped) = run(Policy::Block, 150);
    assert_eq!(skipped, 0);
    // Every frame, in order, the late ones included.
    assert_eq!(seen, (0..seen.len() as u64).collect::<Vec<_>>());
}
// ANCHOR_END: stall_test
