//! Immediate mode: every operator uploads its inputs, dispatches, waits and reads back, on its
//! own. Simple and easy to debug, and the slowest way to use a GPU.

use gpu_context::GpuContext;

use crate::Error;
use crate::graph::{Custom, NodeKind, VerifiedGraph};
use crate::ops::gpu::{Kernel, Pipelines, dims_buffer, pipeline};
use crate::ops::linear_shape;
use crate::tensor::{GpuTensor, Tensor2D};

// ANCHOR: run_op
/// Runs one operator on the GPU: upload, compile (or look up), dispatch, wait, read back.
/// `params` are the weights and bias of the kernels that have them.
pub fn run_op(
    ctx: &GpuContext,
    mode: Pipelines,
    kernel: Kernel,
    input: &Tensor2D,
    params: Option<(&Tensor2D, &Tensor2D)>,
) -> Result<Tensor2D, Error> {
    gpu_context::block_on(run_op_async(ctx, mode, kernel, input, params))
}

/// The five steps, as a future that a web page can await (a native program blocks on it).
pub async fn run_op_async(
    ctx: &GpuContext,
    mode: Pipelines,
    kernel: Kernel,
    input: &Tensor2D,
    params: Option<(&Tensor2D, &Tensor2D)>,
) -> Result<Tensor2D, Error> {
    let (m, k) = input.shape();
    // 1. Check shapes on the CPU, before any GPU work exists.
    let (m, n) = match (kernel.has_weights(), params) {
        (true, Some((w, b))) => linear_shape(kernel.name(), (m, k), w.shape(), b.shape())?,
        (false, None) => (m, k),
        _ => {
            return Err(Error::Shape {
                op: kernel.name(),
                detail: "weights and bias go with the Linear kernels, and only with them".into(),
            });
        }
    };
    let groups = kernel.workgroups(ctx, m, n)?;
    // 2. Upload everything this operator reads, and make room for what it writes.
    let dims = dims_buffer(ctx, m, k, n)?;
    let x = GpuTensor::upload(ctx, "input", input)?;
    let out = GpuTensor::zeros(ctx, "output", m, n)?;
    let uploaded = match params {
        Some((w, b)) => Some((
            GpuTensor::upload(ctx, "weights", w)?,
            GpuTensor::upload(ctx, "bias", b)?,
        )),
        None => None,
    };
    let mut buffers = vec![&dims, &x.buffer];
    if let Some((w, b)) = &uploaded {
        buffers.extend([&w.buffer, &b.buffer]);
    }
    buffers.push(&out.buffer);
    // 3. Get a pipeline: compiled now, or from the cache.
    let pipeline = pipeline(ctx, kernel, mode)?;
    let bind_group = ctx.bind_buffers(&pipeline, &buffers);
    // 4. Record and submit one dispatch.
    ctx.dispatch(&pipeline, &bind_group, groups);
    // 5. Wait for it and copy the result back through a fresh staging buffer.
    out.download_async(ctx).await
}
// ANCHOR_END: run_op

pub fn linear(
    ctx: &GpuContext,
    mode: Pipelines,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<Tensor2D, Error> {
    run_op(ctx, mode, Kernel::Linear, x, Some((w, b)))
}

pub fn relu(ctx: &GpuContext, mode: Pipelines, x: &Tensor2D) -> Result<Tensor2D, Error> {
    run_op(ctx, mode, Kernel::Relu, x, None)
}

pub fn softmax(ctx: &GpuContext, mode: Pipelines, x: &Tensor2D) -> Result<Tensor2D, Error> {
    run_op(ctx, mode, Kernel::Softmax, x, None)
}

pub fn linear_relu(
    ctx: &GpuContext,
    mode: Pipelines,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<Tensor2D, Error> {
    run_op(ctx, mode, Kernel::LinearRelu, x, Some((w, b)))
}

pub fn linear_relu_softmax(
    ctx: &GpuContext,
    mode: Pipelines,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<Tensor2D, Error> {
    run_op(ctx, mode, Kernel::LinearReluSoftmax, x, Some((w, b)))
}

/// The kernel that runs a compute node (None for transfers).
pub fn kernel_of(kind: &NodeKind) -> Option<Kernel> {
    kind.kernel()
}

// ANCHOR: run_graph
/// A whole graph in immediate mode: node after node, each a round trip to the GPU.
pub fn run_graph(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    inputs: &[Tensor2D],
    mode: Pipelines,
) -> Result<Vec<Tensor2D>, Error> {
    gpu_context::block_on(run_graph_async(ctx, graph, inputs, mode))
}

/// [`run_graph`] as a future (a web page awaits it).
pub async fn run_graph_async(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    inputs: &[Tensor2D],
    mode: Pipelines,
) -> Result<Vec<Tensor2D>, Error> {
    let mut values = graph.bind_inputs(inputs)?;
    for node in graph.nodes() {
        let b = &node.buffers;
        let result = match kernel_of(&node.kind) {
            None if let NodeKind::Custom(op) = &node.kind => {
                let inputs: Vec<_> = node
                    .reads()
                    .iter()
                    .map(|&id| graph.value(&values, id))
                    .collect();
                crate::backend::custom_run_immediate(ctx, op, &inputs).await?
            }
            // Transfers are copies between host values here: the data is on the host anyway.
            None => graph.value(&values, b[0]).clone(),
            Some(kernel) if kernel.has_weights() => {
                let (w, bias) = (graph.value(&values, b[1]), graph.value(&values, b[2]));
                let x = graph.value(&values, b[0]);
                run_op_async(ctx, mode, kernel, x, Some((w, bias))).await?
            }
            Some(kernel) => {
                run_op_async(ctx, mode, kernel, graph.value(&values, b[0]), None).await?
            }
        };
        values[*b.last().expect("every node writes a buffer")] = Some(result);
    }
    Ok(graph.collect_outputs(values))
}
// ANCHOR_END: run_graph

/// A custom operator on its own: upload its inputs, run its kernel, read the result back.
pub fn custom(ctx: &GpuContext, op: &Custom, inputs: &[&Tensor2D]) -> Result<Tensor2D, Error> {
    gpu_context::block_on(crate::backend::custom_run_immediate(ctx, op, inputs))
}

/// The same graph on the CPU, operator by operator (the reference for every runner).
pub fn cpu_reference(graph: &VerifiedGraph, inputs: &[Tensor2D]) -> Result<Vec<Tensor2D>, Error> {
    crate::backend::runner_cpu::run(graph, inputs)
}
