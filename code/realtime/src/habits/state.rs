//! Habit: immutable by default, stateless where possible.

// ANCHOR: stateful
/// Before: a level meter that remembers. Each answer depends on every frame it was shown before,
/// so the same frame gets another answer on a replay, and two callers sharing one meter change
/// each other's results.
#[derive(Default)]
pub struct RunningLevel {
    sum: f64,
    samples: u64,
}

impl RunningLevel {
    pub fn level(&mut self, frame: &[f32]) -> f64 {
        for &x in frame {
            self.sum += f64::from(x.abs());
            self.samples += 1;
        }
        if self.samples == 0 {
            0.0
        } else {
            self.sum / self.samples as f64
        }
    }
}
// ANCHOR_END: stateful

// ANCHOR: stateless
/// After: the mean absolute value of this frame, a function of its input alone.
pub fn level(frame: &[f32]) -> f64 {
    let sum: f64 = frame.iter().map(|&x| f64::from(x.abs())).sum();
    if frame.is_empty() {
        0.0
    } else {
        sum / frame.len() as f64
    }
}

/// State that is really needed, a level smoothed across frames, is passed in and returned, so
/// the caller owns it and can see, save and replay it.
pub fn smoothed_level(previous: f64, frame: &[f32], weight: f64) -> f64 {
    previous + weight * (level(frame) - previous)
}
// ANCHOR_END: stateless

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: [f32; 4] = [0.1, -0.1, 0.1, -0.1];
    const LOUD: [f32; 4] = [0.9, -0.9, 0.9, -0.9];

    #[test]
    fn the_meter_with_memory_answers_differently_for_the_same_frame() {
        let mut after_quiet = RunningLevel::default();
        after_quiet.level(&QUIET);
        let mut after_loud = RunningLevel::default();
        after_loud.level(&LOUD);
        // The same quiet frame: 0.1 after a quiet one, 0.5 after a loud one.
        assert!((after_quiet.level(&QUIET) - 0.1).abs() < 1e-6);
        assert!((after_loud.level(&QUIET) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn the_pure_level_depends_on_the_frame_alone() {
        let first = level(&QUIET);
        level(&LOUD);
        assert_eq!(level(&QUIET), first);
        assert!((first - 0.1).abs() < 1e-6);
        assert_eq!(level(&[]), 0.0);
    }

    #[test]
    fn a_smoothed_level_replays_exactly_from_the_same_start() {
        let frames = [QUIET, LOUD, LOUD, QUIET];
        let run = || frames.iter().fold(0.0, |l, f| smoothed_level(l, f, 0.25));
        assert_eq!(run(), run());
        assert!(run() > level(&QUIET) && run() < level(&LOUD));
    }
}
