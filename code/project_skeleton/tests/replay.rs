//! Develop against a recording: frames written by `FrameWriter` and played back by `Player` go
//! through the same pipeline as live ones, and the pipeline ends when the recording does.

mod common;

use std::sync::Arc;
use std::time::Duration;

use project_skeleton::pipeline::clock::FakeClock;
use project_skeleton::pipeline::player::{FrameWriter, Player};
use project_skeleton::pipeline::process::{CpuHistogram, cpu_histogram};
use project_skeleton::pipeline::queue::Policy;

// ANCHOR: replay_test
#[test]
fn a_recording_replays_through_the_pipeline_and_ends_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.rec");
    let live = common::small_source(Duration::from_millis(5));
    let mut writer = FrameWriter::create(&path).unwrap();
    for i in 0..30 {
        writer.write(&live.frame(i, live.due(i))).unwrap();
    }
    writer.finish().unwrap();

    let player = Player::open(&path).unwrap();
    let (mut pipeline, recorder) = common::start_with(
        player,
        CpuHistogram,
        Arc::new(FakeClock::new()),
        4,
        Policy::Block,
    );
    let mut replayed = Vec::new();
    while let Some(result) = pipeline.recv() {
        replayed.push(result); // `None` once the recording has run out and the queues are empty
    }
    let report = pipeline.shutdown(|_| {}).unwrap();
    recorder.finish().unwrap();

    assert_eq!(report.produced, 30);
    assert_eq!(replayed.len(), 30);
    for (i, result) in replayed.iter().enumerate() {
        let recorded = live.frame(i as u64, live.due(i as u64));
        assert_eq!(result.frame.pixels, recorded.pixels);
        assert_eq!(result.histogram, cpu_histogram(&recorded.pixels));
        // Played at the recorded pace, on the pipeline's clock.
        assert_eq!(result.frame.captured_at, live.due(i as u64));
    }
}
// ANCHOR_END: replay_test
