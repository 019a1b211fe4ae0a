//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

/// The student's sum, recorded for the grader (which compares it, exactly, with the reference
/// solution's outside this process).
fn neumaier_sum(xs: &[f64]) -> f64 {
    let sum = ex_m3_compensated_sum::neumaier_sum(xs);
    grade_record!("sum", sum, 0.0);
    sum
}

/// SplitMix64, so the inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The exact sum, rounded once: every f64 is a multiple of 2^-1074, so summing scaled i128
/// parts of moderate-exponent values is exact. Inputs here stay within [2^-60, 2^60].
fn exact_sum(xs: &[f64]) -> f64 {
    let scale = 2f64.powi(70);
    let mut hi: i128 = 0;
    let mut lo: f64 = 0.0;
    for &x in xs {
        let whole = (x * scale).trunc();
        hi += whole as i128;
        lo += x * scale - whole;
    }
    (hi as f64 + lo) / scale
}

#[test]
fn compensated_sum_hidden_exact_on_cancellation() {
    // Sums whose exact value is small while the terms are huge.
    let xs = [1e16, 1.0, -1e16, 3.0, 1e16, -1e16, 0.5];
    assert_eq!(neumaier_sum(&xs), 4.5);
    let xs = [3.0, 1e20, -1e20, 2.0, 1e-5];
    assert_eq!(neumaier_sum(&xs), 5.00001);
    grade_ok!("compensated_sum_hidden_exact_on_cancellation");
}

#[test]
fn compensated_sum_hidden_large_addend_first() {
    // A huge first term: every 1.0 is lost by the plain sum and must come back from c.
    let mut xs = vec![1e17];
    xs.extend(std::iter::repeat_n(1.0, 1000));
    xs.push(-1e17);
    assert_eq!(neumaier_sum(&xs), 1000.0);
    grade_ok!("compensated_sum_hidden_large_addend_first");
}

#[test]
fn compensated_sum_hidden_error_bound_on_random_data() {
    // |error| <= 2ε|sum| + nε² sum|x| with ε = f64::EPSILON = 2u: a few ulps of the result here.
    let mut rng = Rng(7);
    for n in [10, 1000, 100_000] {
        let xs: Vec<f64> = (0..n)
            .map(|_| (rng.unit() - 0.5) * 2f64.powi((rng.next() % 40) as i32 - 20))
            .collect();
        let exact = exact_sum(&xs);
        let got = neumaier_sum(&xs);
        let abs_sum: f64 = xs.iter().map(|x| x.abs()).sum();
        let bound = 2.0 * f64::EPSILON * exact.abs() + n as f64 * f64::EPSILON.powi(2) * abs_sum;
        assert!(
            (got - exact).abs() <= bound,
            "n = {n}: got {got:e}, exact {exact:e}, bound {bound:e}"
        );
    }
    grade_ok!("compensated_sum_hidden_error_bound_on_random_data");
}

#[test]
fn compensated_sum_hidden_order_barely_matters() {
    let mut rng = Rng(11);
    let mut xs: Vec<f64> = (0..20_000).map(|_| rng.unit() * 1e6 - 3e5).collect();
    let forward = neumaier_sum(&xs);
    xs.reverse();
    let backward = neumaier_sum(&xs);
    xs.sort_by(f64::total_cmp);
    let sorted = neumaier_sum(&xs);
    let ulp = forward.abs() * f64::EPSILON;
    assert!((forward - backward).abs() <= 2.0 * ulp && (forward - sorted).abs() <= 2.0 * ulp);
    grade_ok!("compensated_sum_hidden_order_barely_matters");
}

#[test]
fn compensated_sum_hidden_empty_and_non_finite() {
    assert_eq!(neumaier_sum(&[]), 0.0);
    assert_eq!(neumaier_sum(&[5.0]), 5.0);
    assert!(neumaier_sum(&[1.0, f64::NAN, 2.0]).is_nan());
    assert_eq!(neumaier_sum(&[1.0, f64::INFINITY]), f64::INFINITY);
    assert_eq!(neumaier_sum(&[f64::NEG_INFINITY, 1.0]), f64::NEG_INFINITY);
    grade_ok!("compensated_sum_hidden_empty_and_non_finite");
}
