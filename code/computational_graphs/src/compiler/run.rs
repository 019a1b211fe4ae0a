//! The last stage: compile the generated sources (cached by source text) and run them.

use gpu_context::GpuContext;

use super::codegen::{GeneratedKernel, Options, generate};
use super::lower::{lower, merge_elementwise};
use crate::Error;
use crate::gpu_program::GpuProgram;
use crate::graph::{NodeKind, VerifiedGraph, custom_dispatch};
use crate::ops::gpu::Dispatch;

/// A graph compiled to generated kernels, ready to run.
pub struct CompiledGraph {
    pub program: GpuProgram,
    pub kernels: Vec<GeneratedKernel>,
}

// ANCHOR: compile
/// validate (done: the graph is verified) → lower → merge → generate → compile → bind.
pub fn compile(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
) -> Result<CompiledGraph, Error> {
    let kernels = merge_elementwise(graph, lower(graph));
    let generated: Vec<GeneratedKernel> = kernels
        .iter()
        .map(|ir| generate(ir, options))
        .collect::<Result<_, _>>()?;
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    if let Some(k) = generated
        .iter()
        .find(|k| k.workgroups.iter().any(|&g| g > max))
    {
        return Err(Error::Unsupported {
            kernel: "generated",
            detail: format!(
                "{:?} workgroups exceed the device's {max} per dimension",
                k.workgroups
            ),
        });
    }
    let buffers = GpuProgram::allocate(ctx, graph)?;
    let mut dispatches = Vec::with_capacity(generated.len());
    for (at, node) in graph.nodes().iter().enumerate() {
        if let NodeKind::Custom(op) = &node.kind {
            dispatches.push((
                at,
                custom_dispatch(ctx, graph, op, &node.buffers, &buffers)?,
            ));
        }
    }
    for k in &generated {
        // Identical sources (same shapes, same op codes) share one compiled pipeline.
        let pipeline = ctx.cached_pipeline("generated", &k.source, "main")?;
        let bound: Vec<_> = k
            .buffers
            .iter()
            .map(|&b| buffers[b].as_ref().expect("allocated"))
            .collect();
        let bind_group = ctx.bind_buffers(&pipeline, &bound);
        dispatches.push((
            k.at,
            Dispatch {
                label: "generated".into(),
                pipeline,
                bind_group,
                workgroups: k.workgroups,
            },
        ));
    }
    let program = GpuProgram::new(ctx, graph, buffers, dispatches)?;
    Ok(CompiledGraph {
        program,
        kernels: generated,
    })
}
// ANCHOR_END: compile
