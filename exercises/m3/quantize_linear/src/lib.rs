//! Exercise: an int8 Linear layer, `y = x · W + b`, as inference libraries run it: weights
//! symmetric with one scale per output channel, activations asymmetric (scale and zero point),
//! products summed exactly in i32, then one dequantisation step per output. On the CPU and, in
//! WGSL, on the GPU.
//!
//! This file, `layer.rs` and `gpu.rs` are given (the grader always uses the staff's copies). Your work:
//! `int8.rs`, `weights.rs`, `activations.rs`, `epilogue.rs` and the kernel `linear_int8.wgsl`.

mod activations;
mod epilogue;
mod gpu;
mod int8;
mod layer;
mod weights;

pub use activations::{asymmetric_params, quantize_asymmetric};
pub use epilogue::dequantize_accumulators;
pub use gpu::{LINEAR_INT8_WGSL, LinearError, linear_int8_gpu, quantized_linear_gpu};
pub use int8::{dequantize, gemm_i8, quantize, symmetric_scale};
pub(crate) use layer::check_length;
pub use layer::linear_int8;
pub use weights::quantize_weights;

/// The deepest `k` the layer accepts: `Σ (qx − zx)·qw` is at most 255 · 127 · k in magnitude,
/// which stays below 2³¹ up to k = 66 311.
pub const MAX_DEPTH: usize = 66_000;

/// Shapes that do not fit together, and what to do.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    #[error("{name} has {got} values but a {rows}×{cols} matrix needs {}: pass rows * cols values", rows * cols)]
    WrongLength {
        name: &'static str,
        rows: usize,
        cols: usize,
        got: usize,
    },
    #[error("k = {k} is deeper than {max}: the i32 sums could overflow; split the product along k")]
    TooDeep { k: usize, max: usize },
}

/// How a tensor of activations maps to int8: `x ≈ scale · (q − zero_point)`, q in [-128, 127].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Asymmetric {
    pub scale: f32,
    pub zero_point: i8,
}

/// A k×n weight matrix quantized symmetrically, one scale per output channel (column):
/// `w[p][j] ≈ scales[j] · values[p * n + j]`, values in [-127, 127].
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedWeights {
    pub k: usize,
    pub n: usize,
    /// k×n, row-major, like the f32 matrix it came from.
    pub values: Vec<i8>,
    /// One per column.
    pub scales: Vec<f32>,
    /// `Σ_p values[p * n + j]` for each column j: the epilogue's zero-point correction needs it.
    pub column_sums: Vec<i32>,
}
