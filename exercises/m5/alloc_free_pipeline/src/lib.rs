//! Exercise: a streaming pipeline for a sensor or audio signal. Samples arrive in chunks of
//! any size; each is high-pass filtered (the DC offset removed), then every `block_len`
//! filtered samples are summarised as a [`Block`]: RMS level, peak and how many input samples
//! clipped. The pipeline must not allocate while processing: the real-time thread that calls
//! it cannot afford to wait for the allocator.
//!
//! `reference.rs` computes the same thing the simple way, allocating freely: it is the
//! specification. This file and `reference.rs` are given; your work is in `pipeline.rs`.

mod pipeline;
pub mod reference;

use std::fmt;

/// The pipeline's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Samples summarised by one block (at least 1).
    pub block_len: usize,
    /// The DC filter's pole, in `[0, 1)`: `y = x - previous_x + pole * previous_y`.
    pub pole: f32,
    /// An input sample with `|x| >= clip` counts as clipped (must be > 0).
    pub clip: f32,
}

/// The summary of `block_len` filtered samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Block {
    /// `sqrt(sum of y² / block_len)`, the sum taken in `f32` in sample order.
    pub rms: f32,
    /// The largest `|y|`.
    pub peak: f32,
    /// Input samples with `|x| >= clip`.
    pub clipped: u32,
}

/// Why the settings were refused (checked in this order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SettingsError {
    EmptyBlock,
    PoleOutOfRange { pole: f32 },
    ClipNotPositive { clip: f32 },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::EmptyBlock => {
                write!(f, "block_len is 0; use e.g. 480 (10 ms at 48 kHz)")
            }
            SettingsError::PoleOutOfRange { pole } => {
                write!(
                    f,
                    "the DC filter's pole {pole} is outside [0, 1); use e.g. 0.995"
                )
            }
            SettingsError::ClipNotPositive { clip } => {
                write!(f, "the clip level {clip} is not above zero; use e.g. 0.99")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

/// The streaming pipeline. Its fields are yours to choose, in `pipeline.rs`.
pub use pipeline::Pipeline;
