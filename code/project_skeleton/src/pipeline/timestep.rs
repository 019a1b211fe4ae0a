//! A fixed-timestep simulation step: the simulation always moves by the same `dt`, however long
//! frames take, and the display draws between the last two states with an interpolation factor.

use std::time::Duration;

/// What one frame should do: run `steps` simulation steps, then draw at `alpha` of the way from
/// the previous state to the current one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steps {
    pub steps: u32,
    /// In [0, 1): the part of a step left in the accumulator.
    pub alpha: f64,
}

/// The accumulator of unsimulated time, with a clamp against the spiral of death: when frames
/// take longer than the steps they run, the backlog grows every frame; at most `max_steps` run
/// per frame, and the rest of the backlog is thrown away (and counted) instead.
#[derive(Clone, Debug)]
pub struct FixedTimestep {
    dt: Duration,
    max_steps: u32,
    accumulator: Duration,
    clamped_frames: u64,
    discarded: Duration,
}

impl FixedTimestep {
    /// `dt` must be more than zero and `max_steps` at least 1 (both are raised to that).
    pub fn new(dt: Duration, max_steps: u32) -> Self {
        Self {
            dt: dt.max(Duration::from_nanos(1)),
            max_steps: max_steps.max(1),
            accumulator: Duration::ZERO,
            clamped_frames: 0,
            discarded: Duration::ZERO,
        }
    }

    // ANCHOR: timestep
    /// A frame took `elapsed` since the last one: how many steps to run, and the alpha.
    pub fn advance(&mut self, elapsed: Duration) -> Steps {
        self.accumulator = self.accumulator.saturating_add(elapsed);
        let mut steps = 0;
        while self.accumulator >= self.dt && steps < self.max_steps {
            self.accumulator -= self.dt;
            steps += 1;
        }
        if self.accumulator >= self.dt {
            // Keep the fraction of a step (alpha stays smooth), drop the whole steps.
            // The remainder is below `dt`, so it fits in a u64 of nanoseconds; dividing instead
            // and casting the step count to u32 would wrap after 2^32 missed steps.
            let fraction = self.accumulator.as_nanos() % self.dt.as_nanos();
            let whole = self.accumulator - Duration::from_nanos(fraction as u64);
            self.accumulator -= whole;
            self.discarded += whole;
            self.clamped_frames += 1;
        }
        Steps {
            steps,
            alpha: self.accumulator.as_secs_f64() / self.dt.as_secs_f64(),
        }
    }
    // ANCHOR_END: timestep

    pub fn dt(&self) -> Duration {
        self.dt
    }

    /// Frames whose backlog was cut by the clamp.
    pub fn clamped_frames(&self) -> u64 {
        self.clamped_frames
    }

    /// Simulated time thrown away by the clamp.
    pub fn discarded(&self) -> Duration {
        self.discarded
    }
}

/// Linear interpolation between the previous and the current state.
pub fn interpolate(previous: f64, current: f64, alpha: f64) -> f64 {
    previous + (current - previous) * alpha
}
