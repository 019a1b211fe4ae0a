//! Compensated summation: a sum of f64 values whose error does not grow with their number.
//! The work goes in `neumaier.rs`.

mod neumaier;

pub use neumaier::neumaier_sum;

/// The plain left-to-right sum, for comparison.
pub fn naive_sum(xs: &[f64]) -> f64 {
    xs.iter().sum()
}
