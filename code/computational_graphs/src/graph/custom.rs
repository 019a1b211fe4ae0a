//! Operators defined outside this crate.
//!
//! [`super::Operator`] is a closed enum: the runners, the validator and the compiler know every
//! case. A reader who wants a new operator (max pooling, a convolution, …) should not have to
//! edit all of them, so a graph may also hold a [`CustomOperator`]: a shape rule, a CPU
//! implementation and a WGSL kernel behind one trait. Validation, both runners and the op-code
//! compiler treat it as an opaque node (nothing is fused into it).

use std::fmt;
use std::sync::Arc;

use gpu_context::{GpuContext, wgpu};

use super::{BufferId, VerifiedGraph};
use crate::ops::gpu::Dispatch;
use crate::tensor::Tensor2D;
use crate::{Error, ShapeError};

// ANCHOR: custom_operator
/// A new operator: what shape it produces, how it runs on the CPU, and the kernel that runs it
/// on the GPU. The graph calls these with tensors whose shapes already passed `output_shape`.
pub trait CustomOperator: Send + Sync + 'static {
    /// A short name for errors and traces, e.g. `"MaxPool"`.
    fn name(&self) -> &'static str;

    /// The output's (rows, cols) for inputs of these shapes, or what is wrong with them.
    fn output_shape(&self, inputs: &[(usize, usize)]) -> Result<(usize, usize), ShapeError>;

    /// The CPU implementation: the reference every GPU result is compared with.
    fn run_cpu(&self, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error>;

    /// The GPU kernel for these shapes.
    fn gpu_kernel(
        &self,
        inputs: &[(usize, usize)],
        output: (usize, usize),
    ) -> Result<CustomKernel, Error>;
}

/// A WGSL kernel and how to launch it. Bindings, all in group 0: `@binding(0)` is
/// `params` (read-only storage, `array<u32>`), then one read-only storage buffer per input in
/// order, then the output (`read_write`) last — the same layout as the crate's own kernels.
#[derive(Clone, Debug)]
pub struct CustomKernel {
    pub source: String,
    pub entry_point: &'static str,
    /// Whatever numbers the kernel needs (sizes, window, stride); at least one.
    pub params: Vec<u32>,
    pub workgroups: [u32; 3],
}
// ANCHOR_END: custom_operator

/// A shared handle to a custom operator, as stored in operator lists and verified nodes.
/// Two handles are equal when they point at the same operator object.
#[derive(Clone)]
pub struct Custom(pub Arc<dyn CustomOperator>);

impl Custom {
    pub fn new(op: impl CustomOperator) -> Self {
        Custom(Arc::new(op))
    }

    pub fn name(&self) -> &'static str {
        self.0.name()
    }
}

impl fmt::Debug for Custom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Custom({})", self.0.name())
    }
}

impl PartialEq for Custom {
    fn eq(&self, other: &Self) -> bool {
        // Compare the data pointers only: vtable pointers of one type may differ per crate.
        std::ptr::addr_eq(Arc::as_ptr(&self.0), Arc::as_ptr(&other.0))
    }
}

impl Eq for Custom {}

impl std::hash::Hash for Custom {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as *const () as usize).hash(state);
    }
}

/// Runs a custom node on the CPU with the values it reads.
pub(crate) fn run_cpu(op: &Custom, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
    let result = op.0.run_cpu(inputs)?;
    let shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
    let want =
        op.0.output_shape(&shapes)
            .map_err(|e| Error::shape(op.name(), e))?;
    if result.shape() != want {
        return Err(Error::Shape {
            op: op.name(),
            detail: format!(
                "run_cpu returned {}×{}, but output_shape says {}×{}: make them agree",
                result.rows(),
                result.cols(),
                want.0,
                want.1
            ),
        });
    }
    Ok(result)
}

/// Compiles (cached) and binds a custom node's kernel over the graph's device buffers.
pub(crate) fn dispatch(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    op: &Custom,
    buffers: &[BufferId],
    device: &[Option<wgpu::Buffer>],
) -> Result<Dispatch, Error> {
    let shape = |id: BufferId| (graph.buffer(id).rows, graph.buffer(id).cols);
    let shapes: Vec<_> = buffers.iter().map(|&id| shape(id)).collect();
    let bound: Vec<_> = buffers
        .iter()
        .map(|&id| device[id].as_ref().expect("allocated"))
        .collect();
    bind(ctx, op, &shapes, &bound)
}

/// The kernel for these shapes (inputs…, output last), compiled (cached) and bound to these
/// buffers (same order), with its `params` uploaded in front.
fn bind(
    ctx: &GpuContext,
    op: &Custom,
    shapes: &[(usize, usize)],
    buffers: &[&wgpu::Buffer],
) -> Result<Dispatch, Error> {
    let (output, inputs) = shapes.split_last().expect("a node writes a buffer");
    let kernel = op.0.gpu_kernel(inputs, *output)?;
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    if kernel.workgroups.iter().any(|&g| g > max) {
        return Err(Error::Unsupported {
            kernel: op.name(),
            detail: format!(
                "{:?} workgroups, but this device allows at most {max} per dimension",
                kernel.workgroups
            ),
        });
    }
    let pipeline = ctx.cached_pipeline(op.name(), &kernel.source, kernel.entry_point)?;
    let params = if kernel.params.is_empty() {
        vec![0]
    } else {
        kernel.params
    };
    let params = ctx.upload("params", &params)?;
    let mut bound = vec![&params];
    bound.extend_from_slice(buffers);
    Ok(Dispatch {
        label: op.name().into(),
        bind_group: ctx.bind_buffers(&pipeline, &bound),
        pipeline,
        workgroups: kernel.workgroups,
    })
}

/// Runs one custom node immediately: upload, dispatch, read back (immediate mode). A future,
/// like the built-in operators' `run_op_async`, so that a web page can await it.
pub(crate) async fn run_immediate(
    ctx: &GpuContext,
    op: &Custom,
    inputs: &[&Tensor2D],
) -> Result<Tensor2D, Error> {
    let mut shapes: Vec<_> = inputs.iter().map(|t| t.shape()).collect();
    let out =
        op.0.output_shape(&shapes)
            .map_err(|e| Error::shape(op.name(), e))?;
    shapes.push(out);
    let mut device = Vec::with_capacity(inputs.len() + 1);
    for t in inputs {
        device.push(ctx.upload(op.name(), t.data())?);
    }
    device.push(ctx.storage_buffer(op.name(), (out.0 * out.1 * 4) as u64)?);
    let bound: Vec<_> = device.iter().collect();
    let d = bind(ctx, op, &shapes, &bound)?;
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        d.record(&mut pass);
    }
    ctx.queue.submit([encoder.finish()]);
    let data: Vec<f32> = ctx.download_async(&device[inputs.len()]).await?;
    Tensor2D::new(out.0, out.1, data[..out.0 * out.1].to_vec())
}
