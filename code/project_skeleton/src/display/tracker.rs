//! The simulation a display runs: a marker that follows the frames' mean grey level with a
//! first-order lag, stepped at a fixed rate and drawn between its last two states.

use std::time::Duration;

use crate::pipeline::timestep::{FixedTimestep, interpolate};

/// Steps per second of the simulation, whatever the display's frame rate.
pub const STEP: Duration = Duration::from_millis(10);
/// At most this many steps per displayed frame (the spiral-of-death clamp).
pub const MAX_STEPS: u32 = 8;

// ANCHOR: tracker
#[derive(Clone, Debug)]
pub struct Tracker {
    timestep: FixedTimestep,
    previous: f64,
    current: f64,
    target: f64,
}

impl Tracker {
    pub fn new() -> Self {
        Self {
            timestep: FixedTimestep::new(STEP, MAX_STEPS),
            previous: 0.0,
            current: 0.0,
            target: 0.0,
        }
    }

    /// The value to follow (the latest frame's mean level).
    pub fn follow(&mut self, target: f64) {
        self.target = target;
    }

    /// A displayed frame, `elapsed` after the last: runs the due steps, returns what to draw.
    pub fn frame(&mut self, elapsed: Duration) -> f64 {
        let steps = self.timestep.advance(elapsed);
        for _ in 0..steps.steps {
            self.previous = self.current;
            // Each step closes a fixed fraction of the gap: the same motion at any frame rate.
            self.current += (self.target - self.current) * 0.1;
        }
        interpolate(self.previous, self.current, steps.alpha)
    }
    // ANCHOR_END: tracker

    /// Displayed frames whose backlog the clamp cut.
    pub fn clamped_frames(&self) -> u64 {
        self.timestep.clamped_frames()
    }
}

impl Default for Tracker {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tracker_moves_the_same_at_30_and_at_120_frames_per_second() {
        let run = |fps: u32| {
            let mut t = Tracker::new();
            t.follow(100.0);
            let mut last = 0.0;
            for _ in 0..fps {
                last = t.frame(Duration::from_secs(1) / fps);
            }
            last
        };
        // One second at either rate: the same 100 steps, so the same state.
        assert!(
            (run(30) - run(120)).abs() < 1.0,
            "{} vs {}",
            run(30),
            run(120)
        );
    }
}
