//! Helpers shared by the test files (each test file includes this with `mod common;`).
#![allow(dead_code)]

use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;

// ANCHOR: shapes
/// Shapes (m, k, n) that are square and not, tiny, and not multiples of any workgroup size.
pub const SHAPES: [(usize, usize, usize); 5] = [
    (1, 1, 1),
    (3, 5, 7),
    (16, 16, 16),
    (17, 33, 20),
    (70, 9, 130),
];
// ANCHOR_END: shapes

pub fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

/// Asserts two tensors agree to a tolerance relative to the reference's magnitude.
pub fn assert_close(got: &Tensor2D, want: &Tensor2D, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shapes differ");
    let scale = want.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let diff = got.max_abs_diff(want);
    assert!(
        diff <= 1e-4 * scale,
        "{what}: max difference {diff} (scale {scale})"
    );
}
