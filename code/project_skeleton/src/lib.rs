//! Module 5's project skeleton: module 2's egui + winit + wgpu template grown into a
//! source → processing → display pipeline that a real-time project starts from.
//!
//! - [`pipeline`]: the stages without a GPU or a window (clock, source, queues with a
//!   back-pressure policy, fixed timestep, recorder, shutdown);
//! - [`gpu`]: the GPU processing stage and its frame-late read-back ring;
//! - [`display`]: the processed frame and the stages' statistics in the template's panel.

pub mod app;
pub mod display;
pub mod gpu;
pub mod pipeline;
