//! Exercise: a fixed-timestep loop. The simulation always advances in steps of exactly `dt`,
//! however irregular the frames are; the display interpolates between the last two states;
//! and after a long stall the loop catches up only a bounded number of steps, so it can never
//! fall into the "spiral of death" (each frame slower than the last because it owes more steps).
//!
//! Time comes from a [`FakeClock`] in the tests, so every test is exact and instant.
//!
//! This file is given: the grader always uses the course's copy. Your work is in `timestep.rs`.

mod timestep;

pub use timestep::interpolate;

use std::fmt;
use std::time::Duration;

/// What one frame did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameReport {
    /// Simulation steps run during this frame.
    pub steps: u32,
    /// Whole steps that were owed but skipped because of the per-frame cap.
    pub dropped_steps: u64,
    /// How far the display is between the previous and the current state, in `[0, 1)`.
    pub alpha: f64,
}

/// Why the loop's settings were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestepError {
    /// `dt` was zero: the loop would step forever.
    ZeroStep,
    /// `max_steps_per_frame` was zero: the simulation would never advance.
    NoStepsAllowed,
}

impl fmt::Display for TimestepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimestepError::ZeroStep => {
                write!(f, "the time step is zero; use e.g. 1/120 s (8.333 ms)")
            }
            TimestepError::NoStepsAllowed => write!(
                f,
                "max_steps_per_frame is zero, so the simulation never advances; use e.g. 5"
            ),
        }
    }
}

impl std::error::Error for TimestepError {}

/// The fixed-timestep driver. Made by `FixedTimestep::new` (in `timestep.rs`).
#[derive(Clone, Debug)]
pub struct FixedTimestep {
    dt: Duration,
    max_steps_per_frame: u32,
    last_frame: Option<Duration>,
    accumulator: Duration,
}

impl FixedTimestep {
    pub fn dt(&self) -> Duration {
        self.dt
    }

    pub fn max_steps_per_frame(&self) -> u32 {
        self.max_steps_per_frame
    }
}

/// A clock the test moves by hand: `now()` is the time since the clock started.
#[derive(Clone, Copy, Debug, Default)]
pub struct FakeClock {
    now: Duration,
}

impl FakeClock {
    pub fn now(&self) -> Duration {
        self.now
    }

    pub fn advance(&mut self, by: Duration) {
        self.now += by;
    }

    /// Sets the time, even backwards (some clocks do that).
    pub fn set(&mut self, to: Duration) {
        self.now = to;
    }
}

/// A falling body: what the tests simulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub position: f64,
    pub velocity: f64,
}

impl Body {
    /// One explicit Euler step under gravity.
    pub fn step(&mut self, dt: Duration) {
        let dt = dt.as_secs_f64();
        self.velocity -= 9.81 * dt;
        self.position += self.velocity * dt;
    }
}
