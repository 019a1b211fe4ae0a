/// The Neumaier (improved Kahan–Babuška) sum of `xs`: the rounding error of each addition is
/// caught and added back at the end. 0.0 for an empty slice; NaN or infinity when an input is.
pub fn neumaier_sum(xs: &[f64]) -> f64 {
    let _ = xs;
    todo!("keep a running sum and a compensation term")
}
