//! Condition numbers: how much a problem amplifies a relative error in its input, whatever the
//! algorithm. A result can be only as accurate as the condition number times the input's
//! rounding; a good algorithm gets close to that, a bad one (cancellation) does worse.

// ANCHOR: sum_condition
/// κ of a sum: Σ|xᵢ| / |Σxᵢ|. It is 1 when all terms have one sign and grows without bound when
/// they cancel. A naive sum's relative error is at most about (n − 1)·u·κ.
pub fn sum_condition(xs: &[f64]) -> f64 {
    let magnitude: f64 = xs.iter().map(|x| x.abs()).sum();
    let sum: f64 = xs.iter().sum();
    magnitude / sum.abs()
}

/// κ of a function f at x: |x·f′(x) / f(x)|, the relative change of f(x) per relative change of
/// x. `df` is the derivative, given exactly.
pub fn function_condition(f: impl Fn(f64) -> f64, df: impl Fn(f64) -> f64, x: f64) -> f64 {
    (x * df(x) / f(x)).abs()
}
// ANCHOR_END: sum_condition

/// `n` terms that cancel: `n/2` values uniform in [0, 1), then the same values negated and shrunk
/// by the factor (1 − `shrink`). The sum is `shrink` times the first half's, and κ is about
/// 2/`shrink`; the partial sums climb to about n/4 and come back down, as in a sorted list.
pub fn cancelling_terms(n: usize, shrink: f32, seed: u64) -> Vec<f32> {
    let mut rng = bench_harness::rng::SplitMix64::new(seed);
    let half: Vec<f32> = (0..n / 2).map(|_| rng.next_f32()).collect();
    let negated = half.iter().map(|&x| -x * (1.0 - shrink));
    half.iter().copied().chain(negated).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summation::naive;

    #[test]
    fn one_signed_sums_are_perfectly_conditioned() {
        assert_eq!(sum_condition(&[1.0, 2.0, 3.0]), 1.0);
        assert_eq!(sum_condition(&[1e8, 1.0, -1e8]), 2e8 + 1.0);
    }

    #[test]
    fn naive_sum_error_grows_with_kappa_under_its_bound() {
        let u = f64::from(f32::EPSILON) / 2.0;
        let errors: Vec<f64> = [1.0f32, 1e-1, 1e-2, 1e-3, 1e-4]
            .into_iter()
            .map(|shrink| {
                let xs = cancelling_terms(10_000, shrink, 7);
                let wide: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
                let exact: f64 = wide.iter().sum();
                let kappa = sum_condition(&wide);
                let error = ((f64::from(naive(&xs)) - exact) / exact).abs();
                assert!(
                    error <= 9_999.0 * u * kappa,
                    "shrink {shrink}: {error}, κ {kappa}"
                );
                error
            })
            .collect();
        // The same rounding errors, divided by an ever smaller sum.
        assert!(errors[4] > 1e4 * errors[0], "{errors:?}");
    }

    #[test]
    fn one_minus_cos_is_well_conditioned_but_x_minus_one_is_not() {
        // 1 − cos x near 0: κ → 2, so the lost digits of the naive formula are the algorithm's.
        let k = function_condition(|x| 1.0 - x.cos(), f64::sin, 1e-3);
        assert!((k - 2.0).abs() < 1e-6, "{k}");
        // x − 1 near 1: κ = x / (x − 1) = 10 001 at x = 1.0001; no algorithm can do better.
        let k = function_condition(|x| x - 1.0, |_| 1.0, 1.0001);
        assert!((k - 10_001.0).abs() < 1e-3, "{k}");
    }
}
