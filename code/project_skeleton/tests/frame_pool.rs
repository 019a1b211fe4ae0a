//! After a warm-up, the pipeline allocates nothing per frame: every frame's buffer comes back
//! to the source from wherever the frame was dropped. The pipeline's stages run on threads of
//! their own, so this file's allocator counts every thread of the process; it holds one test,
//! so no other test's work is counted.

use std::sync::Arc;
use std::time::Duration;

use bench_harness::counting_alloc::{EveryThreadCountingAllocator, allocations_in_process};
use project_skeleton::pipeline::clock::SystemClock;
use project_skeleton::pipeline::process::CpuHistogram;
use project_skeleton::pipeline::queue::Policy;
use project_skeleton::pipeline::recorder::{RecordSink, Recorder, Summary};
use project_skeleton::pipeline::run::{Pipeline, PipelineConfig};
use project_skeleton::pipeline::source::{FrameSource, SourceConfig};

#[global_allocator]
static ALLOC: EveryThreadCountingAllocator = EveryThreadCountingAllocator;

/// Counts summaries without keeping them: a growing `Vec` would allocate now and then.
struct CountingSink(u64);

impl RecordSink for CountingSink {
    fn write(&mut self, _: &Summary) -> std::io::Result<()> {
        self.0 += 1;
        Ok(())
    }
}

const WARM_UP: usize = 100;
const FRAMES: usize = 300;

/// Allocations made while the consumer took `FRAMES` results, after a warm-up, in each of three
/// rounds; and the pipeline's report.
fn allocations_per_round(policy: Policy) -> ([u64; 3], u64) {
    let source = FrameSource::new(SourceConfig {
        seed: 3,
        width: 64,
        height: 48,
        period: Duration::from_micros(200),
    })
    .unwrap();
    let recorder = Recorder::spawn(CountingSink(0), 1024).unwrap();
    let config = PipelineConfig {
        capacity: 4,
        policy,
    };
    let clock = Arc::new(SystemClock::new());
    let mut pipeline =
        Pipeline::start(source, CpuHistogram, config, clock, recorder.handle()).unwrap();
    // Each result is dropped as soon as it is taken: its frame's buffer goes back to the pool.
    let mut take = |n| {
        for _ in 0..n {
            pipeline.recv().expect("the generator never ends");
        }
    };
    take(WARM_UP);
    let rounds = [0; 3].map(|_| {
        let before = allocations_in_process();
        take(FRAMES);
        allocations_in_process() - before
    });
    let report = pipeline.shutdown(drop).unwrap();
    recorder.finish().unwrap();
    (rounds, report.made_when_pool_empty)
}

#[test]
fn after_warm_up_the_pipeline_allocates_nothing_per_frame() {
    for policy in [Policy::Block, Policy::DropOldest] {
        let (rounds, made) = allocations_per_round(policy);
        // A cost per frame makes at least FRAMES allocations in every round. On a loaded machine
        // the process allocates now and then for other reasons (a thread's first use of a lazily
        // made structure, a blocked channel operation): one or two in a round were seen while
        // the whole workspace's tests ran in parallel. So every round must stay far below one
        // allocation per frame, and well below one per 50.
        let limit = (FRAMES / 50) as u64;
        assert!(
            rounds.iter().all(|&n| n < limit),
            "{policy:?}: allocations per round of {FRAMES} frames: {rounds:?} (limit {limit})"
        );
        // A consumer that drops each result at once never leaves the pool empty.
        assert_eq!(
            made, 0,
            "{policy:?}: buffers made because the pool was empty"
        );
    }
}
