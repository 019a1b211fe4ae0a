//! The GPU runner: the same verified nodes, each turned into a prepared dispatch of a
//! hand-written kernel. Everything is allocated and bound once; a run only records and submits.

use gpu_context::GpuContext;

use super::gpu_program::GpuProgram;
use crate::Error;
use crate::graph::{NodeKind, VerifiedGraph};
use crate::ops::gpu::{Dispatch, Pipelines, dims_buffer, pipeline};

// ANCHOR: build
/// Prepares `graph` for the GPU with the hand-written kernels.
///
/// With [`Pipelines::CompileEveryTime`] every node compiles its own pipeline (a graph of 64
/// nodes compiles 64 times); with [`Pipelines::Cached`] each kernel is compiled once.
pub fn build(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    mode: Pipelines,
) -> Result<GpuProgram, Error> {
    let buffers = GpuProgram::allocate(ctx, graph)?;
    let mut dispatches = Vec::new();
    for (index, node) in graph.nodes().iter().enumerate() {
        if let NodeKind::Custom(op) = &node.kind {
            let dispatch = super::custom_dispatch(ctx, graph, op, &node.buffers, &buffers)?;
            dispatches.push((index, dispatch));
            continue;
        }
        let Some(kernel) = node.kind.kernel() else {
            continue;
        };
        let input = graph.buffer(node.buffers[0]);
        let output = graph.buffer(node.output());
        let (m, k, n) = (input.rows, input.cols, output.cols);
        let workgroups = kernel.workgroups(ctx, m, n)?;
        let pipeline = pipeline(ctx, kernel, mode)?;
        let dims = dims_buffer(ctx, m, k, n)?;
        let mut bound = vec![&dims];
        bound.extend(
            node.buffers
                .iter()
                .map(|&id| buffers[id].as_ref().expect("allocated")),
        );
        let bind_group = ctx.bind_buffers(&pipeline, &bound);
        dispatches.push((
            index,
            Dispatch {
                label: kernel.name().into(),
                pipeline,
                bind_group,
                workgroups,
            },
        ));
    }
    GpuProgram::new(ctx, graph, buffers, dispatches)
}
// ANCHOR_END: build
