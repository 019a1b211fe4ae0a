//! The operators of our network, each twice: a CPU reference ([`cpu`]) and a WGSL kernel
//! ([`gpu`]). The CPU version is the specification; every GPU kernel is tested against it.

pub mod cpu;
pub mod gpu;

use crate::Error;
use crate::tensor::Tensor2D;

/// Checks that `input · weights + bias` makes sense and returns the output shape.
///
/// input is m×k, weights k×n, bias 1×n, output m×n.
pub fn linear_shape(
    op: &'static str,
    input: (usize, usize),
    weights: (usize, usize),
    bias: (usize, usize),
) -> Result<(usize, usize), Error> {
    let ((m, k), (k2, n)) = (input, weights);
    if k != k2 {
        return Err(Error::Shape {
            op,
            detail: format!(
                "the input is {m}×{k} but the weights are {k2}×{n}: the input's columns must equal \
                 the weights' rows"
            ),
        });
    }
    if bias != (1, n) {
        return Err(Error::Shape {
            op,
            detail: format!(
                "the bias is {}×{} but must be 1×{n} (one number per output column)",
                bias.0, bias.1
            ),
        });
    }
    Ok((m, n))
}

pub(crate) fn shape_of(t: &Tensor2D) -> (usize, usize) {
    t.shape()
}
