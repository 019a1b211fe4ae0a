//! The quantized and sparse Linear layers as custom operators of the course's graphs: each has
//! a shape rule, a CPU implementation and a WGSL kernel, so the CPU and GPU runners, immediate
//! mode and the compiler all run it.
//!
//! The graph's buffers hold f32 tensors. These operators own their weights in a compressed form
//! (int8, CSR, 2:4), so the packed words travel in the kernel's `params` buffer, which the GPU
//! runner uploads once when the graph is built.

mod quant_linear;
mod sparse_linear;

pub use quant_linear::{DotKind, QuantLinear, RowQuant};
pub use sparse_linear::SparseLinear;

use computational_graphs::{Error, ShapeError};

/// m of the one input, an m×k matrix, of a layer with k×n weights.
fn one_input(inputs: &[(usize, usize)], (k, n): (usize, usize)) -> Result<usize, ShapeError> {
    match inputs {
        [(m, cols)] if *cols == k => Ok(*m),
        [input] => Err(ShapeError::InnerDimension {
            input: *input,
            weights: (k, n),
        }),
        _ => Err(ShapeError::InputCount {
            expected: 1,
            inputs: "x (m×k)",
            got: inputs.len(),
        }),
    }
}

/// The output shape the inputs call for, once the runner's output buffer is checked to have it.
fn checked_output(
    op: &'static str,
    want: Result<(usize, usize), ShapeError>,
    got: (usize, usize),
) -> Result<(usize, usize), Error> {
    let want = want.map_err(|e| Error::shape(op, e))?;
    if want == got {
        Ok(want)
    } else {
        Err(Error::shape(
            op,
            ShapeError::Mismatch {
                what: "the output buffer",
                got,
                expected: want,
            },
        ))
    }
}

fn u32_of(op: &'static str, n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error::Unsupported {
        kernel: op,
        detail: format!("{n} does not fit the kernel's 32-bit indices: split the layer"),
    })
}

/// 16×16 workgroups over (columns, rows).
fn grid(m: usize, n: usize) -> [u32; 3] {
    [n.div_ceil(16) as u32, m.div_ceil(16) as u32, 1]
}
