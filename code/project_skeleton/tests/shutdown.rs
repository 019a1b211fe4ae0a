//! Graceful shutdown: every stage drains and joins, no frame is lost between stages, and a slow
//! consumer does not make shutdown slow.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use project_skeleton::pipeline::clock::{FakeClock, SystemClock};
use project_skeleton::pipeline::process::{CpuHistogram, cpu_histogram};
use project_skeleton::pipeline::queue::Policy;

// ANCHOR: slow_consumer_test
#[test]
fn shutdown_with_a_slow_consumer_drains_at_most_the_queues_and_loses_nothing() {
    const CAPACITY: usize = 4;
    const SLOW: Duration = Duration::from_millis(20);
    // A fake clock: the source makes frames as fast as it can, far faster than we consume.
    let (mut pipeline, recorder) = common::start(
        CpuHistogram,
        Arc::new(FakeClock::new()),
        CAPACITY,
        Policy::Block,
    );
    let mut seen = Vec::new();
    for _ in 0..10 {
        let result = pipeline.recv().unwrap();
        std::thread::sleep(SLOW);
        seen.push(result.frame.index);
    }
    let asked = Instant::now();
    let report = pipeline
        .shutdown(|result| {
            std::thread::sleep(SLOW);
            seen.push(result.frame.index);
        })
        .unwrap();
    let took = asked.elapsed();
    let (summaries, _) = recorder.finish().unwrap();
    // ANCHOR_END: slow_consumer_test

    // ANCHOR: slow_consumer_checks
    // Back-pressure held the source to the consumer's pace: what was left at shutdown fits in
    // the two queues plus one frame in each stage's hands, however long the source ran.
    let drained = seen.len() as u64 - 10;
    assert!(
        drained <= 2 * CAPACITY as u64 + 2,
        "drained {drained} frames"
    );
    // So shutdown takes about `drained` slow steps. The bound is loose (a busy machine), yet
    // far below what draining an unbounded backlog at 20 ms a frame would take.
    assert!(took < Duration::from_secs(10), "shutdown took {took:?}");
    // Nothing lost, nothing dropped, everything in order and recorded.
    assert_eq!(report.lost(), 0, "{report:?}");
    assert_eq!(report.delivered, report.produced);
    assert_eq!(report.processed, report.produced);
    assert_eq!(seen, (0..report.produced).collect::<Vec<_>>());
    assert_eq!(summaries.len() as u64, report.processed);
}
// ANCHOR_END: slow_consumer_checks

#[test]
fn shutdown_with_drop_oldest_counts_every_frame_it_dropped() {
    let (mut pipeline, recorder) = common::start(
        CpuHistogram,
        Arc::new(FakeClock::new()),
        2,
        Policy::DropOldest,
    );
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(pipeline.recv().unwrap().frame.index);
        std::thread::sleep(Duration::from_millis(10));
    }
    let report = pipeline
        .shutdown(|result| seen.push(result.frame.index))
        .unwrap();
    recorder.finish().unwrap();
    assert_eq!(report.lost(), 0, "{report:?}");
    assert_eq!(report.delivered, seen.len() as u64);
    assert!(seen.windows(2).all(|w| w[0] < w[1]), "in order: {seen:?}");
}

#[test]
fn a_pipeline_on_the_real_clock_delivers_correct_histograms_and_stops() {
    let (mut pipeline, recorder) =
        common::start(CpuHistogram, Arc::new(SystemClock::new()), 4, Policy::Block);
    let source = common::small_source(Duration::from_millis(1));
    let first = pipeline.recv().unwrap();
    let again = source.frame(first.frame.index, first.frame.captured_at);
    assert_eq!(first.frame, again);
    assert_eq!(first.histogram, cpu_histogram(&again.pixels));
    let report = pipeline.shutdown(|_| {}).unwrap();
    let (summaries, recorded) = recorder.finish().unwrap();
    assert_eq!(report.lost(), 0);
    assert_eq!(recorded.written, summaries.len() as u64);
    assert_eq!(recorded.written + recorded.dropped, report.processed);
}

#[test]
fn dropping_a_pipeline_without_shutdown_still_joins_its_threads() {
    let (mut pipeline, recorder) =
        common::start(CpuHistogram, Arc::new(FakeClock::new()), 2, Policy::Block);
    pipeline.recv().unwrap();
    drop(pipeline);
    // The recorder finishes only when the processing thread has dropped its handle: if it had
    // not been joined (still blocked on a full queue), this would never return.
    recorder.finish().unwrap();
}
