/// The Neumaier (improved Kahan–Babuška) sum of `xs`: the rounding error of each addition is
/// caught and added back at the end. 0.0 for an empty slice; NaN or infinity when an input is.
pub fn neumaier_sum(xs: &[f64]) -> f64 {
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for &x in xs {
        let t = sum + x;
        // The smaller operand is the one whose low bits fell off.
        // Wrong on purpose: Kahan's correction, which assumes |sum| >= |x| and loses the small
        // part when a large addend comes after small ones.
        c += (sum - t) + x;
        sum = t;
    }
    if !sum.is_finite() {
        return sum;
    }
    sum + c
}
