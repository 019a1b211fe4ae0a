//! Rule: give the compiler an inner loop it can turn into SIMD. The work is a FIR filter
//! (each output sample is a weighted sum of the last `taps` input samples), written three ways
//! that compute the same bits.
//!
//! The filter's taps are a slice known only at run time, as they are when a filter is designed
//! at start-up; with a constant tap count the compiler unrolls the inner loop and vectorises
//! across output samples by itself, and the pair would show nothing.

/// A low-pass filter's taps: a short window whose weights sum to one.
pub fn smoothing_taps(taps: usize) -> Vec<f32> {
    let weights: Vec<f32> = (0..taps)
        .map(|k| 1.0 + (k as f32 + 0.5) * (taps as f32 - k as f32 - 0.5))
        .collect();
    let total: f32 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

/// How many outputs a filter of `taps` taps gives for `input_len` samples (only the outputs
/// whose whole window lies inside the input).
pub fn output_len(input_len: usize, taps: usize) -> usize {
    (input_len + 1).saturating_sub(taps)
}

// ANCHOR: indexed
/// Before: the formula typed as it is written on paper. The inner loop adds into one
/// accumulator, so each step waits for the previous one (a loop-carried dependency), and
/// floating-point addition may not be reordered; every `x[i + k]` is also bounds-checked.
pub fn fir_indexed(x: &[f32], h: &[f32], out: &mut [f32]) {
    for i in 0..out.len() {
        let mut acc = 0.0f32;
        for k in 0..h.len() {
            acc += h[k] * x[i + k];
        }
        out[i] = acc;
    }
}
// ANCHOR_END: indexed

// ANCHOR: iterators
/// Also before: iterators remove the bounds checks, but the inner loop still carries `acc`
/// from one step to the next, so it stays scalar.
pub fn fir_iterators(x: &[f32], h: &[f32], out: &mut [f32]) {
    for (o, window) in out.iter_mut().zip(x.windows(h.len())) {
        *o = window
            .iter()
            .zip(h)
            .fold(0.0, |acc, (&xk, &hk)| acc + hk * xk);
    }
}
// ANCHOR_END: iterators

// ANCHOR: by_tap
/// After: the loops swapped. The inner loop now runs over output samples, and no step depends
/// on another: `out` is a `&mut` slice and `x` a shared one, so the compiler knows they do not
/// overlap, and `zip` ends at the shorter one, so there is no bounds check. Each output still
/// adds its terms in the order k = 0, 1, 2, …, so the result is bit for bit the same.
pub fn fir_by_tap(x: &[f32], h: &[f32], out: &mut [f32]) {
    out.fill(0.0);
    for (k, &hk) in h.iter().enumerate() {
        for (o, &xk) in out.iter_mut().zip(&x[k..]) {
            *o += hk * xk;
        }
    }
}
// ANCHOR_END: by_tap
