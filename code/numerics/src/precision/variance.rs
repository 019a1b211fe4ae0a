//! Variance in one pass: the textbook formula E[x²] − E[x]² subtracts two large, rounded numbers;
//! Welford's update never forms them.

// ANCHOR: two_moment
/// Population variance as mean of squares minus square of mean, in one pass in f32. When the
/// mean is large against the spread, both terms are huge and nearly equal: their rounding errors
/// are the answer, and it can even come out negative.
pub fn variance_two_moment(xs: &[f32]) -> f32 {
    let n = xs.len() as f32;
    let (sum, sum_sq) = xs
        .iter()
        .fold((0.0f32, 0.0f32), |(s, q), &x| (s + x, q + x * x));
    let mean = sum / n;
    sum_sq / n - mean * mean
}
// ANCHOR_END: two_moment

// ANCHOR: welford
/// Welford's online variance (population), in f32: it keeps the running mean and the sum of
/// squared deviations from it, so it only ever subtracts numbers of the data's spread.
pub fn variance_welford(xs: &[f32]) -> f32 {
    let (mut mean, mut m2) = (0.0f32, 0.0f32);
    for (i, &x) in xs.iter().enumerate() {
        let delta = x - mean;
        mean += delta / (i + 1) as f32;
        // The old and the new deviation: their product is the exact increment of m2.
        m2 += delta * (x - mean);
    }
    m2 / xs.len() as f32
}
// ANCHOR_END: welford

/// The reference: two passes in f64 (mean first, then squared deviations).
pub fn variance_f64(xs: &[f32]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
    xs.iter()
        .map(|&x| (f64::from(x) - mean).powi(2))
        .sum::<f64>()
        / n
}

/// Measurements around `offset` with a spread of about 1: a pattern of -1.5, -0.5, 0.5, 1.5.
pub fn offset_data(n: usize, offset: f32) -> Vec<f32> {
    (0..n).map(|i| offset + (i % 4) as f32 - 1.5).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_offset_both_agree() {
        let xs = offset_data(10_000, 0.0);
        assert_eq!(variance_f64(&xs), 1.25);
        assert!((variance_two_moment(&xs) - 1.25).abs() < 1e-5);
        assert!((variance_welford(&xs) - 1.25).abs() < 1e-5);
    }

    #[test]
    fn large_offset_ruins_the_two_moment_formula() {
        let xs = offset_data(10_000, 10_000.0);
        assert_eq!(variance_f64(&xs), 1.25);
        // E[x²] ≈ 1e8, where f32 steps by 8: the difference is noise, here far from 1.25.
        let naive = variance_two_moment(&xs);
        assert!((naive - 1.25).abs() > 1.0, "{naive}");
        // Welford stays within 1e-3 of the truth.
        let welford = variance_welford(&xs);
        assert!((welford - 1.25).abs() < 1e-3, "{welford}");
    }
}
