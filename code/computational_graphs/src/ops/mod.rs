//! The operators of our network, each twice: a CPU reference ([`cpu`]) and a WGSL kernel
//! ([`gpu`]). The CPU version is the specification; every GPU kernel is tested against it.

pub mod cpu;
pub mod gpu;

use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

/// Checks that `input · weights + bias` makes sense and returns the output shape, as the
/// crate's [`Error`] of the operator `op`.
///
/// input is m×k, weights k×n, bias 1×n, output m×n.
pub fn linear_shape(
    op: &'static str,
    input: (usize, usize),
    weights: (usize, usize),
    bias: (usize, usize),
) -> Result<(usize, usize), Error> {
    linear_output_shape(input, weights, bias).map_err(|e| Error::shape(op, e))
}

/// The shape rule of [`linear_shape`] on its own, for operators that answer with a
/// [`ShapeError`] (a [`CustomOperator`](crate::graph::CustomOperator) that computes a Linear).
pub fn linear_output_shape(
    input: (usize, usize),
    weights: (usize, usize),
    bias: (usize, usize),
) -> Result<(usize, usize), ShapeError> {
    let (m, n) = (input.0, weights.1);
    if input.1 != weights.0 {
        return Err(ShapeError::InnerDimension { input, weights });
    }
    if bias != (1, n) {
        return Err(ShapeError::Mismatch {
            what: "the bias (one number per output column)",
            got: bias,
            expected: (1, n),
        });
    }
    Ok((m, n))
}

pub(crate) fn shape_of(t: &Tensor2D) -> (usize, usize) {
    t.shape()
}
