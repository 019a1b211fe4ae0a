//! Cancellation: subtracting two nearly equal numbers. The subtraction itself is exact (Sterbenz:
//! `a - b` is exact when `b/2 <= a <= 2b`); what it does is expose the rounding errors its
//! operands already carry. If the operands are the inputs, nothing is lost (benign); if they were
//! computed and rounded first, their errors become the leading digits (catastrophic).

// ANCHOR: squares
/// x² − y² as written: each square is rounded to f32 first, and when x ≈ y the subtraction
/// leaves mostly those two rounding errors (catastrophic cancellation).
pub fn squares_difference_naive(x: f32, y: f32) -> f32 {
    x * x - y * y
}

/// (x − y)(x + y): the subtraction acts on the exact inputs, so it is exact when x ≈ y (benign
/// cancellation); what remains is two roundings of well-conditioned operations.
pub fn squares_difference_factored(x: f32, y: f32) -> f32 {
    (x - y) * (x + y)
}
// ANCHOR_END: squares

// ANCHOR: one_minus_cos
/// 1 − cos x as written: for small x, cos x rounds to a number just below 1 whose error is as
/// large as the answer, and below about 2.4e-4 it rounds to 1 exactly and the result is 0.
pub fn one_minus_cos_naive(x: f32) -> f32 {
    1.0 - x.cos()
}

/// The same value as 2 sin²(x/2): no subtraction, so every step keeps its relative accuracy.
pub fn one_minus_cos_stable(x: f32) -> f32 {
    let s = (x / 2.0).sin();
    2.0 * s * s
}
// ANCHOR_END: one_minus_cos

/// Relative error of an f32 result against an f64 reference.
pub fn relative_error(got: f32, exact: f64) -> f64 {
    ((f64::from(got) - exact) / exact).abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_close_numbers_cancel_catastrophically() {
        // x is 4 f32 steps above y = 3000 (steps of 2^-12 there); both are exact inputs.
        let (x, y) = (3000.0f32 + 4.0 * 2f32.powi(-12), 3000.0f32);
        let exact = (f64::from(x) - f64::from(y)) * (f64::from(x) + f64::from(y));
        // x² ≈ 9 000 005.86 rounds to a multiple of 1 (the f32 spacing at 9e6): the naive
        // difference is 6, 2.4 % off.
        assert_eq!(squares_difference_naive(x, y), 6.0);
        assert!(relative_error(squares_difference_naive(x, y), exact) > 0.02);
        // The factored form rounds once, at the end: within one unit roundoff.
        assert!(relative_error(squares_difference_factored(x, y), exact) < 6e-8);
    }

    #[test]
    fn one_minus_cos_loses_everything_below_2e_minus_4() {
        for x in [1e-2f32, 1e-3, 1e-4, 1e-5] {
            let exact = 1.0 - f64::from(x).cos();
            assert!(relative_error(one_minus_cos_stable(x), exact) < 1e-6, "{x}");
        }
        // At 1e-3 the naive result keeps only about one correct digit...
        assert!(relative_error(one_minus_cos_naive(1e-3), 1.0 - 1e-3f64.cos()) > 1e-2);
        // ...and at 1e-4 none: cos rounds to 1.
        assert_eq!(one_minus_cos_naive(1e-4), 0.0);
    }
}
