//! Habit: decide the shape first, fill in the details second. A first draft names its types and
//! its flow and leaves `todo!()` where details go; the compiler checks the shape before a detail
//! is written, and each hole panics with its note if it is ever reached, so it cannot pass for a
//! result. The finished stage below replaced the holes one at a time, each with its test.

/// The finished stage: the mean square of the last `window_len` samples (a band's power, once
/// a band-pass filter runs before it), `None` until the window is full.
pub struct BandPower {
    window: Vec<f32>,
    pushed: usize,
}

impl BandPower {
    /// `window_len` must be at least 1; 0 is treated as 1.
    pub fn new(window_len: usize) -> Self {
        Self {
            window: vec![0.0; window_len.max(1)],
            pushed: 0,
        }
    }

    pub fn push(&mut self, sample: f32) -> Option<f32> {
        let len = self.window.len();
        self.window[self.pushed % len] = sample;
        self.pushed += 1;
        (self.pushed >= len).then(|| self.mean_square())
    }

    fn mean_square(&self) -> f32 {
        let sum: f64 = self
            .window
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum();
        (sum / self.window.len() as f64) as f32
    }
}

#[cfg(test)]
mod first_draft {
    // ANCHOR: draft
    /// The first draft: the state, the flow and the result type are decided; how to store a
    /// sample and how to compute the power are not, and say so.
    pub struct BandPower {
        window: Vec<f32>,
        pushed: usize,
    }

    impl BandPower {
        pub fn new(window_len: usize) -> Self {
            Self {
                window: vec![0.0; window_len],
                pushed: 0,
            }
        }

        pub fn push(&mut self, sample: f32) -> Option<f32> {
            self.store(sample);
            (self.pushed >= self.window.len()).then(|| self.mean_square())
        }

        fn store(&mut self, _sample: f32) {
            todo!("overwrite the oldest sample, count it")
        }

        fn mean_square(&self) -> f32 {
            todo!("sum of squares over the window, in f64, divided by its length")
        }
    }

    /// A caller written against the draft: it type-checks today.
    pub fn powers(samples: &[f32], window_len: usize) -> Vec<f32> {
        let mut stage = BandPower::new(window_len);
        samples.iter().filter_map(|&x| stage.push(x)).collect()
    }
    // ANCHOR_END: draft
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "not yet implemented: overwrite the oldest sample")]
    fn the_draft_compiles_and_its_first_hole_says_what_is_missing() {
        first_draft::powers(&[1.0, 2.0], 2);
    }

    #[test]
    fn the_finished_stage_waits_for_a_full_window() {
        let mut stage = BandPower::new(3);
        assert_eq!(stage.push(1.0), None);
        assert_eq!(stage.push(2.0), None);
        assert_eq!(stage.push(2.0), Some(3.0), "(1 + 4 + 4) / 3");
        assert_eq!(
            stage.push(0.0),
            Some(8.0 / 3.0),
            "the oldest sample, 1, is gone"
        );
    }

    #[test]
    fn a_unit_sine_has_a_mean_square_of_one_half_over_whole_periods() {
        let period = 32;
        let mut stage = BandPower::new(4 * period);
        let mut last = None;
        for i in 0..8 * period {
            let phase = i as f32 / period as f32 * std::f32::consts::TAU;
            last = stage.push(phase.sin());
        }
        let power = last.expect("the window is full");
        assert!((power - 0.5).abs() < 1e-5, "{power}");
    }
}
