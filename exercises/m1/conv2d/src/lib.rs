//! Exercise: a 2D convolution at every level — on the CPU, as an immediate GPU kernel, and as a
//! node that the course's graph runners (and its op-code compiler) execute.
//!
//! This file is given (the grader always uses the staff's copy). Your work: `shape.rs`, `cpu.rs`,
//! `conv2d.wgsl` and `launch.rs`.

mod cpu;
mod launch;
mod shape;

pub use shape::conv2d_shape;

use computational_graphs::graph::{Custom, CustomKernel, CustomOperator};
use computational_graphs::immediate;
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};
use gpu_context::GpuContext;

/// The kernel you write: one invocation per output element.
pub const CONV2D_WGSL: &str = include_str!("conv2d.wgsl");

const NAME: &str = "Conv2d";

/// A single-channel 2D convolution without padding ("valid"), as deep-learning frameworks define
/// it: the kernel slides over the image `stride` elements at a time, and each output element is
/// the sum of the kernel times the window under it (no flip: a cross-correlation).
///
/// Two inputs, in this order: the image (h×w) and the kernel (kh×kw), usually a graph parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conv2d {
    pub stride: usize,
}

fn shape_error(error: ShapeError) -> Error {
    Error::shape(NAME, error)
}

fn two_inputs(got: usize) -> ShapeError {
    ShapeError::InputCount {
        expected: 2,
        inputs: "the image then the kernel (&[image, kernel])",
        got,
    }
}

impl CustomOperator for Conv2d {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError> {
        match inputs {
            [image, kernel] => conv2d_shape(*image, *kernel, self.stride),
            _ => Err(two_inputs(inputs.len())),
        }
    }

    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
        match inputs {
            [image, kernel] => conv2d_cpu(image, kernel, self.stride),
            _ => Err(shape_error(two_inputs(inputs.len()))),
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
                "the output buffer is {}×{} but must be {}×{}: declare it with conv2d_shape",
                output.0, output.1, want.0, want.1
            ))));
        }
        let (image, kernel) = (inputs[0], inputs[1]);
        // The kernel indexes with u32: refuse sizes it cannot address instead of wrapping.
        let fits = |n: Option<usize>| n.is_some_and(|n| u32::try_from(n).is_ok());
        let sizes = [
            image.0.checked_mul(image.1),
            kernel.0.checked_mul(kernel.1),
            Some(self.stride),
        ];
        if !sizes.into_iter().all(fits) {
            return Err(Error::Unsupported {
                kernel: NAME,
                detail: format!(
                    "a {}×{} image, a {}×{} kernel and stride {} do not fit 32-bit indices: \
                     split the image into tiles",
                    image.0, image.1, kernel.0, kernel.1, self.stride
                ),
            });
        }
        Ok(CustomKernel {
            source: CONV2D_WGSL.into(),
            entry_point: "main",
            params: launch::params(image, kernel, self.stride, output),
            workgroups: launch::workgroups(output),
        })
    }
}

/// The convolution on the CPU: the reference every GPU result is compared with.
pub fn conv2d_cpu(image: &Tensor2D, kernel: &Tensor2D, stride: usize) -> Result<Tensor2D, Error> {
    let output = conv2d_shape(image.shape(), kernel.shape(), stride).map_err(shape_error)?;
    let values = cpu::conv2d(image, kernel, stride, output);
    Tensor2D::new(output.0, output.1, values)
}

/// The convolution on the GPU in immediate mode: upload both inputs, dispatch your kernel, read
/// the result back.
pub fn conv2d_gpu(
    ctx: &GpuContext,
    image: &Tensor2D,
    kernel: &Tensor2D,
    stride: usize,
) -> Result<Tensor2D, Error> {
    immediate::custom(ctx, &Custom::new(Conv2d { stride }), &[image, kernel])
}
