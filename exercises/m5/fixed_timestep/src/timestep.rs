//! Your work: `FixedTimestep::new`, `FixedTimestep::frame` and `interpolate`.

use std::time::Duration;

use crate::{Body, FixedTimestep, FrameReport, TimestepError};

impl FixedTimestep {
    /// A loop that steps by `dt` and runs at most `max_steps_per_frame` steps in one frame.
    pub fn new(dt: Duration, max_steps_per_frame: u32) -> Result<Self, TimestepError> {
        todo!(
            "check the settings, then start with no previous frame and nothing owed ({dt:?}, {max_steps_per_frame})"
        )
    }

    /// One frame at clock time `now`: runs `step(dt)` as many times as the time owed allows
    /// (at most `max_steps_per_frame`), drops whole steps beyond the cap, and says how far
    /// the display is between the last two states.
    pub fn frame(&mut self, now: Duration, step: impl FnMut(Duration)) -> FrameReport {
        let _ = (self.last_frame, self.accumulator, step);
        todo!("accumulate the time since the last frame, step, cap, drop, report ({now:?})")
    }
}

/// The state to display: `alpha` of the way from `previous` to `current`.
pub fn interpolate(previous: Body, current: Body, alpha: f64) -> Body {
    todo!("blend {previous:?} and {current:?} by {alpha}")
}
