//! A source that wakes late (after a stall under `Block`, or a descheduled thread) skips to the
//! newest due frame: it does not burst the missed frames out back to back.

mod common;

use std::sync::Arc;
use std::time::Duration;

use project_skeleton::pipeline::clock::FakeClock;
use project_skeleton::pipeline::process::CpuHistogram;
use project_skeleton::pipeline::queue::Policy;

// ANCHOR: stall_test
#[test]
fn after_a_stall_the_source_skips_to_the_newest_due_frame() {
    const PERIOD: Duration = Duration::from_millis(1); // `common::start`'s source
    let clock = Arc::new(FakeClock::new());
    let (mut pipeline, recorder) = common::start(CpuHistogram, clock.clone(), 1, Policy::Block);
    // Nobody reads: the queues fill and the source waits for room. Meanwhile 100 periods pass.
    std::thread::sleep(Duration::from_millis(50));
    clock.advance(PERIOD * 100);
    let mut seen = Vec::new();
    for _ in 0..20 {
        seen.push(pipeline.recv().unwrap().frame.index);
    }
    let report = pipeline.shutdown(|r| seen.push(r.frame.index)).unwrap();
    recorder.finish().unwrap();

    // One jump over the missed frames (99, or 100 if the source had not started yet), then
    // one frame per period again; every frame made was delivered.
    let jumps: Vec<u64> = seen
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|&d| d > 1)
        .collect();
    assert_eq!(jumps.len(), 1, "{seen:?}");
    assert!((99..=101).contains(&report.skipped_at_source), "{report:?}");
    assert_eq!(jumps[0], report.skipped_at_source + 1, "{seen:?}");
    assert_eq!(report.lost(), 0);
    assert_eq!(report.delivered, report.produced);
}
// ANCHOR_END: stall_test
