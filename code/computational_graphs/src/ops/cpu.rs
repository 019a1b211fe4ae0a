//! CPU reference implementations. Plain loops, in an order that is kind to the cache (i, k, j):
//! the innermost loop walks along a row of the weights and a row of the output.

use super::{linear_shape, shape_of};
use crate::Error;
use crate::tensor::Tensor2D;

// ANCHOR: linear
/// `input · weights + bias`: input m×k, weights k×n, bias 1×n, output m×n.
pub fn linear(input: &Tensor2D, weights: &Tensor2D, bias: &Tensor2D) -> Result<Tensor2D, Error> {
    let mut out = Tensor2D::zeros(0, 0);
    linear_then("linear", input, weights, bias, &mut out, |_row| {})?;
    Ok(out)
}

/// Computes the output row by row into `out` and hands each finished row to `epilogue` while
/// it is still in the cache: that is what makes the fused operators below one pass over memory.
/// `out` is reallocated only when its shape is wrong, so a caller can reuse it run after run.
fn linear_then(
    op: &'static str,
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
    out: &mut Tensor2D,
    epilogue: impl Fn(&mut [f32]),
) -> Result<(), Error> {
    let (m, n) = linear_shape(op, shape_of(input), shape_of(weights), shape_of(bias))?;
    let k = input.cols();
    reshape_for_writing(out, m, n);
    let (x, w, b) = (input.data(), weights.data(), bias.data());
    for (i, out_row) in out.data_mut().chunks_exact_mut(n.max(1)).enumerate() {
        out_row.copy_from_slice(b);
        for p in 0..k {
            let x_ip = x[i * k + p];
            let w_row = &w[p * n..(p + 1) * n];
            for (o, w_pj) in out_row.iter_mut().zip(w_row) {
                *o += x_ip * w_pj;
            }
        }
        epilogue(out_row);
    }
    Ok(())
}
// ANCHOR_END: linear

// ANCHOR: relu
/// max(x, 0), element by element.
pub fn relu(input: &Tensor2D) -> Tensor2D {
    let mut out = input.clone();
    out.data_mut().iter_mut().for_each(|v| *v = v.max(0.0));
    out
}
// ANCHOR_END: relu

// ANCHOR: softmax
/// Softmax along each row: every row becomes a probability distribution over its columns.
///
/// A row is one sample of the batch and a column one class, so the axis is the columns.
/// Subtracting the row's maximum first changes nothing mathematically (it cancels in the
/// division) but keeps `exp` from overflowing: the largest exponent is exp(0) = 1.
pub fn softmax(input: &Tensor2D) -> Tensor2D {
    let mut out = input.clone();
    let cols = input.cols().max(1);
    for row in out.data_mut().chunks_exact_mut(cols) {
        softmax_row(row);
    }
    out
}

fn softmax_row(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for v in row.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in row.iter_mut() {
        *v /= sum;
    }
}
// ANCHOR_END: softmax

// ANCHOR: fused
/// Linear followed by ReLU in one pass: each output row is finished while it is still in cache.
pub fn linear_relu(
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
) -> Result<Tensor2D, Error> {
    let mut out = Tensor2D::zeros(0, 0);
    linear_relu_into(input, weights, bias, &mut out)?;
    Ok(out)
}

/// Linear, ReLU and a row-wise softmax, one row at a time.
pub fn linear_relu_softmax(
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
) -> Result<Tensor2D, Error> {
    let mut out = Tensor2D::zeros(0, 0);
    linear_relu_softmax_into(input, weights, bias, &mut out)?;
    Ok(out)
}

fn relu_row(row: &mut [f32]) {
    row.iter_mut().for_each(|v| *v = v.max(0.0));
}
// ANCHOR_END: fused

// The same operators writing into a tensor the caller keeps: the buffer-reusing runner
// (`runner_cpu::run_reusing`) calls these, and allocates nothing once every buffer has its shape.

/// [`linear`] into `out` (reallocated only if its shape is wrong).
pub fn linear_into(
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
    out: &mut Tensor2D,
) -> Result<(), Error> {
    linear_then("linear", input, weights, bias, out, |_row| {})
}

/// [`linear_relu`] into `out`.
pub fn linear_relu_into(
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
    out: &mut Tensor2D,
) -> Result<(), Error> {
    linear_then("linear_relu", input, weights, bias, out, relu_row)
}

/// [`linear_relu_softmax`] into `out`.
pub fn linear_relu_softmax_into(
    input: &Tensor2D,
    weights: &Tensor2D,
    bias: &Tensor2D,
    out: &mut Tensor2D,
) -> Result<(), Error> {
    linear_then("linear_relu_softmax", input, weights, bias, out, |row| {
        relu_row(row);
        softmax_row(row);
    })
}

/// [`relu`] into `out`.
pub fn relu_into(input: &Tensor2D, out: &mut Tensor2D) {
    copy_into(input, out);
    relu_row(out.data_mut());
}

/// [`softmax`] into `out`.
pub fn softmax_into(input: &Tensor2D, out: &mut Tensor2D) {
    copy_into(input, out);
    let cols = input.cols().max(1);
    for row in out.data_mut().chunks_exact_mut(cols) {
        softmax_row(row);
    }
}

/// Copies `input` into `out`, reallocating `out` only if its shape is wrong.
pub fn copy_into(input: &Tensor2D, out: &mut Tensor2D) {
    reshape_for_writing(out, input.rows(), input.cols());
    out.data_mut().copy_from_slice(input.data());
}

/// Gives `out` the shape `rows × cols`; its old contents are kept only if the shape was right
/// (every caller overwrites all of it).
fn reshape_for_writing(out: &mut Tensor2D, rows: usize, cols: usize) {
    if out.shape() != (rows, cols) {
        *out = Tensor2D::zeros(rows, cols);
    }
}
