//! The method, on a small system: a sensor stream whose events (stretches where the smoothed
//! signal is high) must be reported as the samples arrive.
//!
//! 1. [`s1_prototype`]: the whole recording at once, the plainest code that works. It is the
//!    specification: its output on a fixed recording is the golden output.
//! 2. [`s2_components`]: the same computation split into streaming components (calibrate,
//!    despike, smooth, detect) that take samples one at a time, single-threaded and tested
//!    against the prototype.
//! 3. [`s3_allocation_free`]: the optimised version: running sums, fixed arrays, a reused
//!    output buffer. Property tests check it against stage 2 on any input, in any chunking.
//!
//! [`timing`] times stage 2 against stage 3 per chunk, for the figure program.
//!
//! All arithmetic is on integers, so the stages agree exactly, not just approximately.

pub mod s1_prototype;
pub mod s2_components;
pub mod s3_allocation_free;
pub mod timing;

use bench_harness::rng::SplitMix64;

/// A stretch of samples `[start, end)` where the smoothed signal stayed high.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub start: u64,
    pub end: u64,
    /// The highest smoothed value inside the event.
    pub peak: i32,
}

/// The settings shared by every stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Calibrated value = raw * gain + offset.
    pub gain: i32,
    pub offset: i32,
    /// An event starts when the smoothed value reaches `high`, and ends below `low`.
    pub high: i32,
    pub low: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            gain: 2,
            offset: -100,
            high: 1000,
            low: 600,
        }
    }
}

/// Samples in the moving average.
pub const WINDOW: usize = 8;

/// A deterministic test recording: slow bumps, noise and a few single-sample spikes.
pub fn recording(len: usize, seed: u64) -> Vec<i16> {
    let mut rng = SplitMix64::new(seed);
    (0..len)
        .map(|i| {
            let noise = rng.below(200) as i32 - 100;
            let bump = if (i / 150) % 3 == 1 { 600 } else { 100 };
            let spike = if rng.below(97) == 0 { 3000 } else { 0 };
            (bump + noise + spike).clamp(i16::MIN as i32, i16::MAX as i32) as i16
        })
        .collect()
}
