//! The GPU stage and its read-back ring, on whatever adapter there is (lavapipe on a machine without a GPU): results
//! in order, equal to the CPU's, at least K − 1 frames late, and no blocking poll in the loop.

use std::sync::Arc;
use std::time::Duration;

use gpu_context::GpuContext;
use project_skeleton::gpu::{GpuHistogram, GpuStageError};
use project_skeleton::pipeline::clock::SystemClock;
use project_skeleton::pipeline::process::{Processor, cpu_histogram};
use project_skeleton::pipeline::queue::Policy;
use project_skeleton::pipeline::recorder::Recorder;
use project_skeleton::pipeline::run::{Pipeline, PipelineConfig};
use project_skeleton::pipeline::source::{FrameSource, SourceConfig};

const K: usize = 3;

// ANCHOR: ring_test
#[test]
fn gpu_ring_results_are_in_order_k_minus_1_frames_late_correct_and_never_waited_for() {
    let source = FrameSource::new(SourceConfig::DEFAULT).unwrap();
    let cfg = source.config();
    let mut stage = GpuHistogram::new(GpuContext::for_tests(), cfg.width, cfg.height, K).unwrap();
    let mut ready = Vec::new();
    const FRAMES: u64 = 24;
    for i in 0..FRAMES {
        let now = Duration::from_millis(i);
        let before = ready.len();
        stage
            .process(source.frame(i, now), now, &mut ready)
            .unwrap();
        for result in &ready[before..] {
            // Read no earlier than K − 1 frames after it was submitted.
            assert!(
                result.frame.index + K as u64 - 1 <= i,
                "frame {} at {i}",
                result.frame.index
            );
        }
        // The rest of a frame's work; the GPU runs meanwhile.
        std::thread::sleep(Duration::from_millis(5));
    }
    // The steady state: one non-blocking poll per frame, and not a single wait.
    assert_eq!(stage.poller().polls(), FRAMES);
    assert_eq!(stage.poller().waits(), 0);
    assert!(
        !ready.is_empty(),
        "results came back while frames were flowing"
    );

    stage.flush(Duration::ZERO, &mut ready).unwrap();
    assert_eq!(stage.ring().in_flight(), 0);
    assert_eq!(ready.len() as u64 + stage.dropped(), FRAMES);
    assert!(
        ready
            .windows(2)
            .all(|w| w[0].frame.index < w[1].frame.index)
    );
    for result in &ready {
        let again = source.frame(result.frame.index, Duration::ZERO);
        assert_eq!(
            result.histogram,
            cpu_histogram(&again.pixels),
            "frame {}",
            result.frame.index
        );
    }
}
// ANCHOR_END: ring_test

#[test]
fn gpu_stage_refuses_a_frame_of_the_wrong_size() {
    let mut stage = GpuHistogram::new(GpuContext::for_tests(), 64, 48, K).unwrap();
    let small = FrameSource::new(SourceConfig {
        width: 16,
        height: 8,
        ..SourceConfig::DEFAULT
    })
    .unwrap();
    let err = stage
        .process(
            small.frame(0, Duration::ZERO),
            Duration::ZERO,
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            GpuStageError::FrameSize {
                expected: 3072,
                got: 128
            }
        ),
        "{err}"
    );
}

#[test]
fn gpu_pipeline_delivers_correct_histograms_and_shuts_down_without_losing_a_frame() {
    let source = FrameSource::new(SourceConfig {
        period: Duration::from_millis(2),
        ..SourceConfig::DEFAULT
    })
    .unwrap();
    let check = source.clone();
    let cfg = source.config();
    let stage = GpuHistogram::new(GpuContext::for_tests(), cfg.width, cfg.height, K).unwrap();
    let recorder = Recorder::spawn(Vec::new(), 256).unwrap();
    let config = PipelineConfig {
        capacity: 4,
        policy: Policy::Block,
    };
    let mut pipeline = Pipeline::start(
        source,
        stage,
        config,
        Arc::new(SystemClock::new()),
        recorder.handle(),
    )
    .unwrap();
    let mut seen = Vec::new();
    let mut check_one = |result: project_skeleton::pipeline::process::Processed| {
        let again = check.frame(result.frame.index, Duration::ZERO);
        assert_eq!(result.histogram, cpu_histogram(&again.pixels));
        seen.push(result.frame.index);
    };
    for _ in 0..20 {
        check_one(pipeline.recv().unwrap());
    }
    let report = pipeline.shutdown(&mut check_one).unwrap();
    recorder.finish().unwrap();
    assert_eq!(report.lost(), 0, "{report:?}");
    assert_eq!(report.delivered, seen.len() as u64);
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
}
