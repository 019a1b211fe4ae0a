//! The course's random graph as a "frame": CPU spans around each stage and GPU scopes around
//! each iteration of the graph, resolved once per frame.

use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{VerifiedGraph, runner_cpu, runner_gpu, validate};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuScopes, ScopeTiming};

/// A seeded random graph (Linear/ReLU/…/Softmax on `size × size` tensors) and its input.
pub struct Workload {
    pub graph: VerifiedGraph,
    pub input: Tensor2D,
}

impl Workload {
    pub fn new(seed: u64, size: usize, depth: usize) -> Result<Self, computational_graphs::Error> {
        let (ops, input) = random_graph(seed, size, depth);
        Ok(Self {
            graph: validate(&ops)?,
            input,
        })
    }

    /// One run of the CPU runner (its spans: `run_cpu`, then one `node` per operator).
    pub fn run_cpu(&self) -> Result<Vec<Tensor2D>, computational_graphs::Error> {
        runner_cpu::run(&self.graph, std::slice::from_ref(&self.input))
    }

    /// One run of the buffer-reusing CPU runner: after the first run with `workspace`, it
    /// allocates nothing. The results are in `workspace.outputs()`.
    pub fn run_cpu_reusing(
        &self,
        workspace: &mut runner_cpu::Workspace,
    ) -> Result<(), computational_graphs::Error> {
        runner_cpu::run_reusing(&self.graph, std::slice::from_ref(&self.input), workspace)
    }

    pub fn build_gpu(&self, ctx: &GpuContext) -> Result<GpuProgram, computational_graphs::Error> {
        runner_gpu::build(ctx, &self.graph, Pipelines::Cached)
    }
}

// ANCHOR: profiled_frame
/// One frame: upload, `iterations` runs of the graph (one GPU scope each, inside a `graph`
/// scope), read-back, one submit. Returns the outputs and the frame's GPU scopes.
pub fn profiled_frame(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    program: &GpuProgram,
    input: &Tensor2D,
    iterations: usize,
) -> anyhow::Result<(Vec<Tensor2D>, Vec<ScopeTiming>)> {
    let _frame = tracing::info_span!("frame", iterations).entered();
    tracing::info_span!("write_inputs")
        .in_scope(|| program.write_inputs(ctx, std::slice::from_ref(input)))?;
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    tracing::info_span!("record").in_scope(|| {
        {
            let mut graph = scopes.profiler().scope("graph", &mut encoder);
            for i in 0..iterations {
                let iteration = graph.scope(format!("iteration {i}"));
                program.record(iteration.recorder, 1);
            }
        }
        {
            let readback = scopes.profiler().scope("read-back copy", &mut encoder);
            program.record_downloads(readback.recorder);
        }
        scopes.resolve(&mut encoder);
    });
    tracing::info_span!("submit").in_scope(|| ctx.queue.submit([encoder.finish()]));
    let timings = tracing::info_span!("wait_and_resolve").in_scope(|| scopes.finish_frame(ctx))?;
    let outputs = tracing::info_span!("read_outputs").in_scope(|| program.read_outputs(ctx))?;
    Ok((outputs, timings))
}
// ANCHOR_END: profiled_frame
