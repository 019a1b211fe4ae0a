//! The two Linear kernels as custom operators: a node of either runs wherever the course's graph
//! runs (`runner_cpu`, `runner_gpu`, immediate mode, the op-code compiler). On the CPU both are
//! the crate's own `ops::cpu::linear`, the reference the GPU results are checked against.

use computational_graphs::graph::{CustomKernel, CustomOperator};
use computational_graphs::ops::{cpu, linear_output_shape};
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};

use crate::{NAIVE_WGSL, TILED_WGSL, workgroups};

/// `x · w + b` with your tiled kernel. Inputs: x (m×k), w (k×n), b (1×n); output m×n.
#[derive(Clone, Copy, Debug, Default)]
pub struct TiledLinear;

/// `x · w + b` with the given naive kernel (8×8 threads per workgroup, one per output).
#[derive(Clone, Copy, Debug, Default)]
pub struct NaiveLinear;

/// Side of the naive kernel's square workgroup.
const NAIVE_GROUP: u32 = 8;

impl CustomOperator for TiledLinear {
    fn name(&self) -> &'static str {
        "TiledLinear"
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        sizes(inputs).map(|(m, _, n)| (m, n))
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        linear_cpu(self.name(), inputs)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        _output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let (m, k, n) = sizes_u32(self.name(), inputs)?;
        let (gx, gy) = workgroups(m, n);
        Ok(kernel(TILED_WGSL, (m, k, n), [gx, gy, 1]))
    }
}

impl CustomOperator for NaiveLinear {
    fn name(&self) -> &'static str {
        "NaiveLinear"
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        sizes(inputs).map(|(m, _, n)| (m, n))
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        linear_cpu(self.name(), inputs)
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        _output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let (m, k, n) = sizes_u32(self.name(), inputs)?;
        let groups = [n.div_ceil(NAIVE_GROUP), m.div_ceil(NAIVE_GROUP), 1];
        Ok(kernel(NAIVE_WGSL, (m, k, n), groups))
    }
}

/// Both kernels read (m, k, n) from their first binding, the `Dims` struct.
fn kernel(source: &str, (m, k, n): (u32, u32, u32), workgroups: [u32; 3]) -> CustomKernel {
    CustomKernel {
        source: source.into(),
        entry_point: "main",
        params: vec![m, k, n, 0],
        workgroups,
    }
}

/// (m, k, n) of a Linear's input shapes, or what is wrong with them.
fn sizes(inputs: &[(usize, usize)]) -> Result<(usize, usize, usize), ShapeError> {
    let [x, w, b] = inputs else {
        return Err(ShapeError::InputCount {
            expected: 3,
            inputs: "x (m×k), w (k×n) and b (1×n)",
            got: inputs.len(),
        });
    };
    let (m, n) = linear_output_shape(*x, *w, *b)?;
    // An empty matrix has nothing to multiply (k = 0 empties x and w at once).
    if m == 0 || x.1 == 0 {
        return Err(ShapeError::Empty {
            what: "x",
            shape: *x,
        });
    }
    if n == 0 {
        return Err(ShapeError::Empty {
            what: "w",
            shape: *w,
        });
    }
    Ok((m, x.1, n))
}

/// The sizes as the kernels' 32-bit numbers; every element index must fit too.
fn sizes_u32(op: &'static str, inputs: &[(usize, usize)]) -> Result<(u32, u32, u32), Error> {
    let (m, k, n) = sizes(inputs).map_err(|e| Error::shape(op, e))?;
    let fits = |a: usize, b: usize| a.checked_mul(b).is_some_and(|e| u32::try_from(e).is_ok());
    if !(fits(m, k) && fits(k, n) && fits(m, n)) {
        return Err(Error::Unsupported {
            kernel: op,
            detail: format!(
                "{m}×{k} times {k}×{n} has more elements than 32-bit indices reach: split the \
                 product into smaller blocks"
            ),
        });
    }
    // Each size is at most a product that fits, so the conversions cannot fail.
    Ok((m as u32, k as u32, n as u32))
}

fn linear_cpu(op: &'static str, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
    let shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
    sizes(&shapes).map_err(|e| Error::shape(op, e))?;
    cpu::linear(inputs[0], inputs[1], inputs[2])
}
