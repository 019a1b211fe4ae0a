//! The last stage: compile the generated sources (cached by source text) and run them.

use gpu_context::GpuContext;

use super::autotune::{Autotuner, ShapeKey};
use super::codegen::{GeneratedKernel, Options, generate};
use super::lower::{KernelIr, OpCode, lower, merge_elementwise};
use crate::Error;
use crate::backend::custom_dispatch;
use crate::backend::gpu_program::GpuProgram;
use crate::graph::{NodeKind, VerifiedGraph};
use crate::matmul_ladder::tuned::Epilogue;
use crate::matmul_ladder::{tuned_grid, tuned_pipeline};
use crate::ops::gpu::{Dispatch, linear_tuning};

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
    compile_with(ctx, graph, options, LinearKernels::Generated)
}
// ANCHOR_END: compile

// ANCHOR: compile_choosing
/// Like [`compile`], but every kernel that is a Linear with its bias (and ReLU) runs on the
/// tuned matmul chosen for its shape by [`linear_tuning`], the bias and ReLU as its epilogue.
/// Element-wise op codes are merged first, so a ReLU after a Linear still costs no dispatch;
/// kernels with a row reduction (softmax) keep their generated code.
pub fn compile_choosing_kernels(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
) -> Result<CompiledGraph, Error> {
    compile_with(ctx, graph, options, LinearKernels::Heuristic)
}

/// The Linear inside a merged kernel, if the kernel is exactly MatMul, AddBias, ReLU?, Store.
fn as_linear(ir: &KernelIr) -> Option<(Vec<usize>, usize, Epilogue)> {
    match ir.ops.as_slice() {
        [
            OpCode::MatMul { input, weights, k },
            OpCode::AddBias { bias },
            rest @ ..,
        ] => {
            // ReLU is idempotent: any number of merged ReLUs is one max(·, 0).
            let (relu, store) = match rest.split_last() {
                Some((OpCode::Store { buffer }, relus))
                    if relus.iter().all(|op| *op == OpCode::Relu) =>
                {
                    (!relus.is_empty(), *buffer)
                }
                _ => return None,
            };
            let epilogue = if relu {
                Epilogue::BiasRelu
            } else {
                Epilogue::Bias
            };
            Some((vec![*input, *weights, *bias, store], *k, epilogue))
        }
        _ => None,
    }
}
// ANCHOR_END: compile_choosing

// ANCHOR: linear_kernels
/// What runs a kernel that is exactly a Linear (with its bias and ReLUs).
pub enum LinearKernels<'a> {
    /// The generated kernel, like every other node ([`compile`]).
    Generated,
    /// The tuned matmul that [`linear_tuning`] picks for the shape ([`compile_choosing_kernels`]):
    /// deterministic, no measurement.
    Heuristic,
    /// The tuned matmul that measured fastest on this adapter for the shape, from the tuner's
    /// cache or tuned now (see [`Autotuner::choose`]).
    Autotuned(&'a mut Autotuner),
}

/// [`compile`] with the choice of Linear kernels spelled out.
pub fn compile_with(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
    mut linears: LinearKernels<'_>,
) -> Result<CompiledGraph, Error> {
    // ANCHOR_END: linear_kernels
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
    for (ir, k) in kernels.iter().zip(&generated) {
        let linear = as_linear(ir).filter(|_| !matches!(linears, LinearKernels::Generated));
        let (pipeline, bound_ids, workgroups) = match linear {
            Some((ids, depth, epilogue)) => {
                let t = match &mut linears {
                    LinearKernels::Autotuned(tuner) => {
                        let shape = ShapeKey {
                            m: ir.rows,
                            k: depth,
                            n: ir.cols,
                            epilogue,
                        };
                        tuner.choose(ctx, shape)?
                    }
                    _ => linear_tuning(ir.rows, depth, ir.cols, epilogue),
                };
                let grid = tuned_grid(ctx, &t, ir.rows, depth, ir.cols)?;
                // The program's buffers hold exactly the verified shapes (see tuned_pipeline).
                let pipeline = tuned_pipeline(ctx, "tuned linear", &t, ir.rows, depth, ir.cols)?;
                (pipeline, ids, grid)
            }
            // Identical sources (same shapes, same op codes) share one compiled pipeline.
            None => (
                ctx.cached_pipeline("generated", &k.source, "main")?,
                k.buffers.clone(),
                k.workgroups,
            ),
        };
        let bound: Vec<_> = bound_ids
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
                workgroups,
            },
        ));
    }
    let program = GpuProgram::new(ctx, graph, buffers, dispatches)?;
    Ok(CompiledGraph {
        program,
        kernels: generated,
    })
}
