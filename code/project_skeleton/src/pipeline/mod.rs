//! The pipeline's stages, one idea per file, with no GPU and no window: each is tested alone.
//!
//! - [`clock`]: time as a trait, so tests run on a fake clock;
//! - [`source`]: what a source is, and a generated sensor that makes one frame per period;
//! - [`player`]: frames recorded to a file and played back as a source;
//! - [`process`]: what a processing stage is, and a CPU one to check the others against;
//! - [`pool`]: frame buffers that return to the source when a frame is dropped;
//! - [`queue`]: a bounded channel between stages, with an explicit back-pressure policy;
//! - [`timestep`]: a fixed-timestep simulation step (accumulator, alpha, spiral-of-death clamp);
//! - [`recorder`]: writes frame summaries off the hot path, through a queue it never waits on;
//! - [`stats`]: frames per second and p99 latency over a recent window;
//! - [`run`]: the stages on their threads, and a shutdown that drains and joins them.

pub mod clock;
pub mod player;
pub mod pool;
pub mod process;
pub mod queue;
pub mod recorder;
pub mod run;
pub mod source;
pub mod stats;
pub mod timestep;
