//! The whole program: the pipeline with its GPU stage, shown in the template's windows.

use std::sync::{Arc, Mutex};

use egui_winit_wgpu_template::error::RunError;
use egui_winit_wgpu_template::{Config, RunReport, run_with};
use gpu_context::{GpuContext, GpuError};

use crate::display::{PipelinePanel, ReportSlot};
use crate::gpu::{GpuHistogram, GpuStageError};
use crate::pipeline::clock::{Clock, SystemClock};
use crate::pipeline::queue::Policy;
use crate::pipeline::recorder::{Recorder, RecorderError, RecorderReport, Summary};
use crate::pipeline::run::{Pipeline, PipelineConfig, PipelineError, PipelineReport};
use crate::pipeline::source::{FrameSource, SourceConfig, SourceError};

// ANCHOR: settings
/// Buffers in the GPU stage's read-back ring: results arrive `RING_SLOTS - 1` frames late.
pub const RING_SLOTS: usize = 3;

/// The skeleton's choices: a project changes these first.
pub const PIPELINE: PipelineConfig = PipelineConfig {
    capacity: 4,
    // A display wants the newest frame, not every frame: drop the oldest, and count it.
    policy: Policy::DropOldest,
};
// ANCHOR_END: settings

/// Room for summaries on their way to the recorder.
const RECORDER_QUEUE: usize = 1024;

/// What can stop the program, step by step.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("the frame source's settings are wrong")]
    Source(#[from] SourceError),
    #[error("could not open a GPU for the processing stage")]
    Gpu(#[from] GpuError),
    #[error("could not set up the GPU processing stage")]
    Stage(#[from] GpuStageError),
    #[error("could not start the recorder thread")]
    Recorder(#[source] std::io::Error),
    #[error("the recorder failed")]
    Recording(#[from] RecorderError),
    #[error("the pipeline failed")]
    Pipeline(#[from] PipelineError),
    #[error("the windows failed")]
    Windows(#[from] RunError),
    #[error("the display ended without shutting the pipeline down (a bug)")]
    NoReport,
}

/// What a run did.
#[derive(Debug)]
pub struct AppReport {
    pub windows: RunReport,
    pub pipeline: PipelineReport,
    pub recorder: RecorderReport,
    /// What the recorder kept (in memory here; a project writes a file with `CsvSink`).
    pub summaries: Vec<Summary>,
}

// ANCHOR: run
/// Starts the pipeline, runs the template's windows with the pipeline's panel, and shuts
/// everything down in order: windows, then pipeline (drained and joined), then recorder.
pub fn run(config: Config) -> Result<AppReport, AppError> {
    let source = FrameSource::new(SourceConfig::DEFAULT)?;
    let SourceConfig { width, height, .. } = source.config();
    let stage = GpuHistogram::new(GpuContext::new()?, width, height, RING_SLOTS)?;
    let recorder = Recorder::spawn(Vec::new(), RECORDER_QUEUE).map_err(AppError::Recorder)?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    let pipeline = Pipeline::start(source, stage, PIPELINE, clock.clone(), recorder.handle())?;

    let slot: ReportSlot = Arc::new(Mutex::new(None));
    let panel = PipelinePanel::new(pipeline, clock, slot.clone());
    let windows = run_with(config, Box::new(panel));
    // The template has dropped the panel by now, and the panel has shut the pipeline down.
    let pipeline = slot.lock().ok().and_then(|mut s| s.take());
    let (summaries, recorder) = recorder.finish()?;
    Ok(AppReport {
        windows: windows?,
        pipeline: pipeline.ok_or(AppError::NoReport)??,
        recorder,
        summaries,
    })
}
// ANCHOR_END: run
