//! Rule: cross a boundary once per batch, not once per item. A call into Python through PyO3,
//! into C++ through `cxx`, to the GPU or to the kernel has a fixed cost per call; here the
//! boundary is a Rust function the optimiser may not inline (`#[inline(never)]` plus
//! `black_box`), the cheapest boundary there is, so the figure is a lower bound for the others.

use std::hint::black_box;

/// One sample per call.
#[inline(never)]
pub fn scale_one(x: f32, gain: f32) -> f32 {
    black_box(x) * gain
}

/// A whole frame per call.
#[inline(never)]
pub fn scale_frame(input: &[f32], gain: f32, out: &mut [f32]) {
    for (o, &x) in out.iter_mut().zip(black_box(input)) {
        *o = x * gain;
    }
}

// ANCHOR: per_item
/// Before: the loop calls across the boundary for every sample.
pub fn per_sample(input: &[f32], gain: f32, out: &mut [f32]) -> f32 {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = scale_one(x, gain);
    }
    out.last().copied().unwrap_or(0.0)
}
// ANCHOR_END: per_item

// ANCHOR: batched
/// After: one call per frame.
pub fn per_frame(input: &[f32], gain: f32, out: &mut [f32]) -> f32 {
    scale_frame(input, gain, out);
    out.last().copied().unwrap_or(0.0)
}
// ANCHOR_END: batched
