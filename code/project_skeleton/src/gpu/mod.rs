//! The GPU processing stage: each frame's histogram computed on the GPU, read back through a
//! ring of mappable buffers a fixed number of frames later, so the frame loop never waits.
//!
//! - [`poller`]: `device.poll` behind a wrapper that counts non-blocking polls and blocking waits;
//! - [`ring`]: the read-back ring of K buffers;
//! - [`histogram_stage`]: the stage itself, a [`Processor`](crate::pipeline::process::Processor).

pub mod histogram_stage;
pub mod poller;
pub mod ring;

pub use histogram_stage::{GpuHistogram, GpuStageError};
pub use poller::CountingPoller;
pub use ring::ReadbackRing;
