//! Set-up shared by the pipeline tests.
#![allow(dead_code)] // each test file uses a part of it

use std::sync::Arc;
use std::time::Duration;

use project_skeleton::pipeline::clock::Clock;
use project_skeleton::pipeline::process::Processor;
use project_skeleton::pipeline::queue::Policy;
use project_skeleton::pipeline::recorder::{Recorder, Summary};
use project_skeleton::pipeline::run::{Pipeline, PipelineConfig};
use project_skeleton::pipeline::source::{FrameSource, Source, SourceConfig};

/// Small frames, so a debug build makes thousands a second.
pub fn small_source(period: Duration) -> FrameSource {
    FrameSource::new(SourceConfig {
        seed: 7,
        width: 16,
        height: 8,
        period,
    })
    .unwrap()
}

pub fn start<P: Processor>(
    processor: P,
    clock: Arc<dyn Clock>,
    capacity: usize,
    policy: Policy,
) -> (Pipeline, Recorder<Vec<Summary>>) {
    start_with(
        small_source(Duration::from_millis(1)),
        processor,
        clock,
        capacity,
        policy,
    )
}

pub fn start_with<S: Source, P: Processor>(
    source: S,
    processor: P,
    clock: Arc<dyn Clock>,
    capacity: usize,
    policy: Policy,
) -> (Pipeline, Recorder<Vec<Summary>>) {
    let recorder = Recorder::spawn(Vec::new(), 1024).unwrap();
    let pipeline = Pipeline::start(
        source,
        processor,
        PipelineConfig { capacity, policy },
        clock,
        recorder.handle(),
    )
    .unwrap();
    (pipeline, recorder)
}
