//! How the back end runs a custom node: on the CPU with the values it reads, on the GPU bound
//! over the graph's device buffers, and on its own in immediate mode.

use gpu_context::{GpuContext, wgpu};

use crate::Error;
use crate::graph::{BufferId, Custom, VerifiedGraph};
use crate::ops::gpu::Dispatch;
use crate::tensor::Tensor2D;

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
