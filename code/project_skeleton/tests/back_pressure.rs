//! Back-pressure: what a fast source does to a slow consumer under each policy.

mod common;

use std::sync::Arc;
use std::time::Duration;

use project_skeleton::pipeline::clock::FakeClock;
use project_skeleton::pipeline::process::CpuHistogram;
use project_skeleton::pipeline::queue::Policy;

/// Consumes `n` results, `pause` apart, and returns their frame indices and the report.
fn slow_consumer(
    policy: Policy,
    n: usize,
    pause: Duration,
) -> (Vec<u64>, project_skeleton::pipeline::run::PipelineReport) {
    let (mut pipeline, recorder) =
        common::start(CpuHistogram, Arc::new(FakeClock::new()), 3, policy);
    let mut seen = Vec::new();
    for _ in 0..n {
        seen.push(pipeline.recv().unwrap().frame.index);
        std::thread::sleep(pause);
    }
    let report = pipeline.shutdown(|r| seen.push(r.frame.index)).unwrap();
    recorder.finish().unwrap();
    (seen, report)
}

// ANCHOR: back_pressure_test
#[test]
fn block_slows_the_source_to_the_consumer_and_drops_nothing() {
    let (seen, report) = slow_consumer(Policy::Block, 20, Duration::from_millis(5));
    assert_eq!(
        report.dropped_before_processing + report.dropped_before_consumer,
        0
    );
    // Every frame made was delivered, in order: the source waited instead of running ahead.
    assert_eq!(seen, (0..report.produced).collect::<Vec<_>>());
    // The fake-clocked source would make thousands of frames meanwhile; it made no more than
    // the 20 consumed plus what fits in two queues of 3 and the two stages' hands.
    assert!(report.produced <= 20 + 2 * 3 + 2, "{report:?}");
}

#[test]
fn drop_oldest_keeps_the_source_at_its_pace_and_counts_what_the_consumer_missed() {
    let (seen, report) = slow_consumer(Policy::DropOldest, 20, Duration::from_millis(5));
    // The fake-clocked source makes frames as fast as it can: far more than 20 in 100 ms.
    let dropped = report.dropped_before_processing + report.dropped_before_consumer;
    assert!(dropped > 0, "{report:?}");
    assert_eq!(report.lost(), 0, "{report:?}");
    assert_eq!(seen.len() as u64 + dropped, report.produced);
    // What does arrive is in order, and the consumer sees newer frames than it could keep up
    // with: gaps between consecutive indices.
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert!(seen.windows(2).any(|w| w[1] - w[0] > 1), "{seen:?}");
}
// ANCHOR_END: back_pressure_test

#[test]
fn on_a_fake_clock_every_frame_is_captured_exactly_when_it_is_due() {
    let (mut pipeline, recorder) =
        common::start(CpuHistogram, Arc::new(FakeClock::new()), 3, Policy::Block);
    let source = common::small_source(Duration::from_millis(1));
    for _ in 0..10 {
        let frame = pipeline.recv().unwrap().frame;
        assert_eq!(frame.captured_at, source.due(frame.index));
    }
    pipeline.shutdown(|_| {}).unwrap();
    recorder.finish().unwrap();
}

#[test]
fn a_consumer_that_keeps_its_frames_empties_the_pool_and_the_source_makes_buffers_not_waits() {
    for policy in [Policy::Block, Policy::DropOldest] {
        let (mut pipeline, recorder) =
            common::start(CpuHistogram, Arc::new(FakeClock::new()), 3, policy);
        // 40 results kept: more frames than the pool has buffers for two queues of 3.
        let kept: Vec<_> = (0..40).map(|_| pipeline.recv().unwrap()).collect();
        let report = pipeline.shutdown(drop).unwrap();
        recorder.finish().unwrap();
        assert!(
            report.made_when_pool_empty >= 40 - 12,
            "{policy:?}: {report:?}"
        );
        assert_eq!(report.lost(), 0, "{policy:?}: {report:?}");
        drop(kept);
    }
}
