//! The processing stage's contract, and the CPU version of it that every other is checked
//! against. The result here is a frame's 256-bin histogram of grey levels.

use std::time::Duration;

use crate::pipeline::source::Frame;

/// A frame and what processing found in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Processed {
    pub frame: Frame,
    pub histogram: [u32; 256],
    /// When processing finished, on the pipeline's clock.
    pub processed_at: Duration,
}

impl Processed {
    /// From capture to the end of processing.
    pub fn latency(&self) -> Duration {
        self.processed_at.saturating_sub(self.frame.captured_at)
    }

    /// The mean grey level, from the histogram.
    pub fn mean_level(&self) -> f64 {
        let (sum, n) = self
            .histogram
            .iter()
            .enumerate()
            .fold((0u64, 0u64), |(s, n), (level, &c)| {
                (s + level as u64 * u64::from(c), n + u64::from(c))
            });
        if n == 0 { 0.0 } else { sum as f64 / n as f64 }
    }
}

// ANCHOR: processor
/// A processing stage. `process` must not wait for slow work (a GPU): it starts the work and
/// returns whatever results are ready, oldest first, which may be results of earlier frames.
/// At shutdown, `flush` waits for the rest. Every frame given is either returned once, in order,
/// or counted in `dropped`.
pub trait Processor: Send + 'static {
    type Error: std::error::Error + Send + Sync + 'static;

    fn process(
        &mut self,
        frame: Frame,
        now: Duration,
        ready: &mut Vec<Processed>,
    ) -> Result<(), Self::Error>;

    fn flush(&mut self, now: Duration, ready: &mut Vec<Processed>) -> Result<(), Self::Error>;

    /// Frames this stage had to give up on (its own back-pressure), so far.
    fn dropped(&self) -> u64 {
        0
    }
}
// ANCHOR_END: processor

/// The histogram on the CPU, at once: the reference for the GPU stage.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuHistogram;

/// The CPU stage cannot fail.
#[derive(Debug, thiserror::Error)]
#[error("unreachable")]
pub enum Infallible {}

impl Processor for CpuHistogram {
    type Error = Infallible;

    fn process(
        &mut self,
        frame: Frame,
        now: Duration,
        ready: &mut Vec<Processed>,
    ) -> Result<(), Infallible> {
        let histogram = cpu_histogram(&frame.pixels);
        ready.push(Processed {
            frame,
            histogram,
            processed_at: now,
        });
        Ok(())
    }

    fn flush(&mut self, _: Duration, _: &mut Vec<Processed>) -> Result<(), Infallible> {
        Ok(())
    }
}

/// Module 2's sequential histogram, narrowed to the GPU's u32 counters.
pub fn cpu_histogram(pixels: &[u8]) -> [u32; 256] {
    parallelism::histogram::histogram_sequential(pixels).map(|c| c as u32)
}
