//! Exercise: max pooling at every level — on the CPU, as an immediate GPU kernel, and as a node
//! in the course's graph runners (`computational_graphs`).
//!
//! This file is given (the grader uses the staff copy): the `MaxPool` operator and the two
//! entry points. Your work: `shape.rs`, `cpu.rs`, `launch.rs` and `max_pool.wgsl`.

mod cpu;
mod launch;
mod shape;

pub use shape::pooled_shape;

use computational_graphs::graph::{Custom, CustomKernel, CustomOperator};
use computational_graphs::immediate;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};
use gpu_context::GpuContext;

/// The kernel you write: one invocation per output element.
pub const MAX_POOL_WGSL: &str = include_str!("max_pool.wgsl");

const NAME: &str = "MaxPool";

/// Max pooling of one single-channel `Tensor2D` (h×w): window k×k, stride k, no padding. Each
/// output element is the largest value of its window; the output is `(h / k) × (w / k)`, and
/// rows and columns left over at the bottom and right edges are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxPool {
    pub k: usize,
}

fn shape_error(error: ShapeError) -> Error {
    Error::shape(NAME, error)
}

fn one_input(got: usize) -> ShapeError {
    ShapeError::InputCount {
        expected: 1,
        inputs: "the tensor to pool",
        got,
    }
}

impl CustomOperator for MaxPool {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        match inputs {
            [(rows, cols)] => pooled_shape(*rows, *cols, self.k),
            _ => Err(one_input(inputs.len())),
        }
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        match inputs {
            [input] => max_pool_cpu(input, self.k),
            _ => Err(shape_error(one_input(inputs.len()))),
        }
    }

    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        output: (usize, usize),
    ) -> Result<CustomKernel, Error> {
        let want = self.output_shape(inputs).map_err(shape_error)?;
        if want != output {
            return Err(shape_error(ShapeError::invalid(format!(
                "the output buffer is {}×{} but must be {}×{}: declare it with pooled_shape",
                output.0, output.1, want.0, want.1
            ))));
        }
        Ok(CustomKernel {
            source: MAX_POOL_WGSL.into(),
            entry_point: "main",
            params: launch::params(inputs[0], self.k, output),
            workgroups: launch::workgroups(output),
        })
    }
}

/// Max pooling on the CPU: the reference every GPU result is compared with.
pub fn max_pool_cpu(input: &Tensor2D, k: usize) -> Result<Tensor2D, Error> {
    let (rows, cols) = input.shape();
    let output = pooled_shape(rows, cols, k).map_err(shape_error)?;
    let values = cpu::max_pool(input, k, output);
    Tensor2D::new(output.0, output.1, values)
}

/// Max pooling on the GPU in immediate mode: upload the input, dispatch your kernel, read the
/// result back.
pub fn max_pool_gpu(ctx: &GpuContext, input: &Tensor2D, k: usize) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(MaxPool { k }), &[input])
}
