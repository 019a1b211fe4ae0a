//! The last stage: compile the generated sources (cached by source text) and run them.

use gpu_context::GpuContext;

use super::autotune::{Autotuner, LinearBuffers, LinearKernel, ShapeKey};
use super::chain;
use super::chain_block::{ChainLayout, generate_with_layout};
use super::codegen::{GeneratedKernel, Options, generate};
use super::lower::{KernelIr, OpCode, lower, merge_elementwise};
use crate::Error;
use crate::backend::custom_dispatch;
use crate::backend::gpu_program::GpuProgram;
use crate::graph::{NodeKind, VerifiedGraph};
use crate::matmul_ladder::tuned::Epilogue;
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
/// Element-wise op codes are merged first, so a ReLU after a Linear still costs no dispatch.
/// A Linear that carries a softmax is cut in two ([`split_softmax`]): the tuned matmul, then
/// the generated row kernel in place on its output.
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

// ANCHOR: split_softmax
/// A Linear (with ReLUs) that carries a row softmax, cut in two: the Linear alone, which a tuned
/// matmul can run, and the softmax in place on its output. Fused, the product would run inside
/// the row kernel (one workgroup per row, no tiles), far slower than a tuned matmul on any but
/// the smallest shapes; the cut costs one more dispatch and one round trip of the output.
fn split_softmax(ir: &KernelIr) -> Option<(KernelIr, KernelIr)> {
    let first_reduction = ir.ops.iter().position(OpCode::is_row_reduction)?;
    let Some(&OpCode::Store { buffer }) = ir.ops.last() else {
        return None;
    };
    let mut linear_ops = ir.ops[..first_reduction].to_vec();
    linear_ops.push(OpCode::Store { buffer });
    let linear = KernelIr {
        ops: linear_ops,
        ..ir.clone()
    };
    as_linear(&linear)?;
    let mut softmax_ops = vec![OpCode::Load { buffer }];
    softmax_ops.extend_from_slice(&ir.ops[first_reduction..]);
    let softmax = KernelIr {
        ops: softmax_ops,
        ..ir.clone()
    };
    Some((linear, softmax))
}
// ANCHOR_END: split_softmax

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
    linears: LinearKernels<'_>,
) -> Result<CompiledGraph, Error> {
    // ANCHOR_END: linear_kernels
    compile_program(ctx, graph, options, linears, Chains::Off)
}

/// [`compile_with`], and every run of small Linears (with their ReLUs and a final softmax)
/// that [`chain::find_chains`] finds runs as one chain kernel, a single dispatch. Its layout
/// (one row or a block of rows per workgroup) is the autotuner's choice when the Linears are
/// autotuned, else [`ChainLayout::heuristic`]'s.
pub fn compile_with_chains(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
    linears: LinearKernels<'_>,
) -> Result<CompiledGraph, Error> {
    compile_program(ctx, graph, options, linears, Chains::Chosen)
}

/// [`compile_with_chains`] with every chain in `layout`.
pub fn compile_with_chain_layout(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
    linears: LinearKernels<'_>,
    layout: ChainLayout,
) -> Result<CompiledGraph, Error> {
    compile_program(ctx, graph, options, linears, Chains::Fixed(layout))
}

/// Whether runs of small Linears become chain kernels, and in which layout.
#[derive(Clone, Copy, PartialEq)]
enum Chains {
    Off,
    Chosen,
    Fixed(ChainLayout),
}

fn compile_program(
    ctx: &GpuContext,
    graph: &VerifiedGraph,
    options: Options,
    mut linears: LinearKernels<'_>,
    fuse_chains: Chains,
) -> Result<CompiledGraph, Error> {
    let kernels = merge_elementwise(graph, lower(graph));
    let chains = if fuse_chains != Chains::Off {
        chain::find_chains(graph, &kernels)
    } else {
        Vec::new()
    };
    let mut chain_of = vec![None; kernels.len()];
    for (c, &(first, last)) in chains.iter().enumerate() {
        for slot in &mut chain_of[first..=last] {
            *slot = Some(c);
        }
    }
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
    // Choose every Linear's kernel first: split-K kernels share one scratch buffer (dispatches
    // run one after the other), as large as the largest of them needs.
    let mut chosen = Vec::with_capacity(kernels.len());
    let mut softmaxes = Vec::with_capacity(kernels.len());
    for (i, ir) in kernels.iter().enumerate() {
        if chain_of[i].is_some() {
            chosen.push(None);
            softmaxes.push(None);
            continue;
        }
        let split = split_softmax(ir).filter(|_| !matches!(linears, LinearKernels::Generated));
        let (ir, softmax) = match split {
            Some((linear, softmax)) => (linear, Some(softmax)),
            None => (ir.clone(), None),
        };
        softmaxes.push(softmax);
        let linear = as_linear(&ir).filter(|_| !matches!(linears, LinearKernels::Generated));
        chosen.push(match linear {
            Some((ids, depth, epilogue)) => {
                let kernel = match &mut linears {
                    LinearKernels::Autotuned(tuner) => {
                        let shape = ShapeKey {
                            m: ir.rows,
                            k: depth,
                            n: ir.cols,
                            epilogue,
                        };
                        tuner.choose(ctx, shape)?
                    }
                    _ => LinearKernel::Tiled(linear_tuning(ir.rows, depth, ir.cols, epilogue)),
                };
                Some((ids, depth, kernel))
            }
            None => None,
        });
    }
    let scratch_floats = chosen
        .iter()
        .flatten()
        .map(|(_, _, kernel)| kernel.scratch_floats())
        .max()
        .unwrap_or(0);
    let scratch = (scratch_floats > 0)
        .then(|| ctx.storage_buffer("split-K partial products", (scratch_floats * 4) as u64))
        .transpose()?;
    let bound = |id: usize| buffers[id].as_ref().expect("allocated");
    let units = kernels.iter().zip(&generated).zip(chosen).zip(softmaxes);
    for (i, (((ir, k), choice), softmax)) in units.enumerate() {
        if let Some(c) = chain_of[i] {
            let (first, last) = chains[c];
            if i == last {
                let links: Vec<_> = kernels[first..=last]
                    .iter()
                    .map(|ir| chain::as_link(graph, ir).expect("found as a link"))
                    .collect();
                let (widest, limits) = (chain::widest(&links), ctx.device.limits());
                let layout = match (fuse_chains, &mut linears) {
                    (Chains::Fixed(layout), _) => match layout.unusable(widest, &limits) {
                        None => layout,
                        Some(why) => {
                            return Err(Error::Unsupported {
                                kernel: "chain",
                                detail: format!("{layout:?} cannot run here: {why}"),
                            });
                        }
                    },
                    (_, LinearKernels::Autotuned(tuner)) => {
                        tuner.choose_chain(ctx, graph, &links)?
                    }
                    _ => ChainLayout::heuristic(links[0].rows, widest, &limits),
                };
                let kernel = generate_with_layout(graph, &links, layout)?;
                let d = kernel.dispatch(ctx, bound(kernel.input), bound(kernel.output))?;
                dispatches.push((k.at, d));
            }
            continue;
        }
        match choice {
            Some((ids, depth, kernel)) => {
                let linear_buffers = LinearBuffers {
                    a: bound(ids[0]),
                    b: bound(ids[1]),
                    bias: Some(bound(ids[2])),
                    c: bound(ids[3]),
                    scratch: scratch.as_ref(),
                };
                for d in kernel.dispatches(ctx, (ir.rows, depth, ir.cols), &linear_buffers)? {
                    dispatches.push((k.at, d));
                }
                if let Some(softmax) = softmax {
                    let row = generate(&softmax, options)?;
                    let pipeline = ctx.cached_pipeline("generated softmax", &row.source, "main")?;
                    let bound: Vec<_> = row.buffers.iter().map(|&b| bound(b)).collect();
                    let bind_group = ctx.bind_buffers(&pipeline, &bound);
                    dispatches.push((
                        k.at,
                        Dispatch {
                            label: "generated softmax".into(),
                            pipeline,
                            bind_group,
                            workgroups: row.workgroups,
                        },
                    ));
                }
            }
            None => {
                // Identical sources (same shapes, same op codes) share one compiled pipeline.
                let pipeline = ctx.cached_pipeline("generated", &k.source, "main")?;
                let bound: Vec<_> = k.buffers.iter().map(|&b| bound(b)).collect();
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
        }
    }
    let program = GpuProgram::new(ctx, graph, buffers, dispatches)?;
    Ok(CompiledGraph {
        program,
        kernels: generated,
    })
}
