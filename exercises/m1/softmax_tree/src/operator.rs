//! The two softmax kernels as custom operators: a node of either runs wherever the course's graph
//! runs (`runner_cpu`, `runner_gpu`, immediate mode, the op-code compiler). On the CPU both are
//! the crate's own `ops::cpu::softmax`, the reference the GPU results are checked against.

use computational_graphs::graph::{CustomKernel, CustomOperator};
use computational_graphs::ops::cpu;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};

use crate::{MAX_GROUPS_PER_DIMENSION, SINGLE_PASS_WGSL, TREE_WGSL, workgroup_grid};

/// Row-wise softmax with your tree-reduction kernel: one input, output of the same shape.
#[derive(Clone, Copy, Debug, Default)]
pub struct SoftmaxTree;

/// Row-wise softmax with the given single-pass kernel (64 rows per workgroup, one per thread).
#[derive(Clone, Copy, Debug, Default)]
pub struct SoftmaxSinglePass;

/// Threads per workgroup of the single-pass kernel, one row each.
const SINGLE_PASS_ROWS: u32 = 64;

impl CustomOperator for SoftmaxTree {
    fn name(&self) -> &'static str {
        "SoftmaxTree"
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        shape(inputs)
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        softmax_cpu(self.name(), inputs)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        _output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let (rows, cols) = shape_u32(self.name(), inputs)?;
        let (gx, gy) = workgroup_grid(rows);
        Ok(kernel(TREE_WGSL, (rows, cols), (gx, gy)))
    }
}

impl CustomOperator for SoftmaxSinglePass {
    fn name(&self) -> &'static str {
        "SoftmaxSinglePass"
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        shape(inputs)
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        softmax_cpu(self.name(), inputs)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        _output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let (rows, cols) = shape_u32(self.name(), inputs)?;
        let groups = rows.div_ceil(SINGLE_PASS_ROWS);
        let gx = groups.min(MAX_GROUPS_PER_DIMENSION);
        Ok(kernel(
            SINGLE_PASS_WGSL,
            (rows, cols),
            (gx, groups.div_ceil(gx)),
        ))
    }
}

/// Both kernels read rows, cols and the grid's width from their first binding, `dims`.
fn kernel(source: &str, (rows, cols): (u32, u32), (gx, gy): (u32, u32)) -> CustomKernel {
    CustomKernel {
        source: source.into(),
        entry_point: "main",
        params: vec![rows, cols, gx, 0],
        workgroups: [gx, gy, 1],
    }
}

fn shape(inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
    match inputs {
        [(rows, cols)] if *rows > 0 && *cols > 0 => Ok((*rows, *cols)),
        [input] => Err(ShapeError::Empty {
            what: "the input of a softmax",
            shape: *input,
        }),
        _ => Err(ShapeError::InputCount {
            expected: 1,
            inputs: "the tensor whose rows to normalise",
            got: inputs.len(),
        }),
    }
}

/// The shape as the kernels' 32-bit numbers; every element index must fit too.
fn shape_u32(op: &'static str, inputs: &[(usize, usize)]) -> Result<(u32, u32), Error> {
    let (rows, cols) = shape(inputs).map_err(|e| Error::shape(op, e))?;
    if rows
        .checked_mul(cols)
        .is_none_or(|n| u32::try_from(n).is_err())
    {
        return Err(Error::Unsupported {
            kernel: op,
            detail: format!(
                "{rows}×{cols} has more elements than 32-bit indices reach: split it by rows"
            ),
        });
    }
    // Each is at most the product, which fits.
    Ok((rows as u32, cols as u32))
}

fn softmax_cpu(op: &'static str, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
    let shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
    shape(&shapes).map_err(|e| Error::shape(op, e))?;
    Ok(cpu::softmax(inputs[0]))
}
