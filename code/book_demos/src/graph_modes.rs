//! Module 1's random graph run three ways on the reader's GPU: immediate mode (a round trip per
//! operator), as a graph (one submission per run, plain and fused) and compiled (generated
//! kernels, a loop of runs in one submission). Every runner is the crate's own, awaited instead
//! of blocked on.

use computational_graphs::compiler::{Options, compile_choosing_kernels, fuse};
use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{VerifiedGraph, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use serde::Serialize;

use crate::DemoError;
use crate::clock::{Timing, time_repeated};
use crate::display::{Display, Row, describe, sig3};
use crate::error::check_offered;
use crate::reference::{Check, check_within};

/// Tensor sizes a reader can pick; both are in the book's H100 and lavapipe sweeps.
pub const SIZES: [usize; 2] = [64, 256];
/// Operators in the graph: the depth of the book's sweep over sizes.
pub const DEPTH: usize = 64;

/// The seed of the figure program's graph for this point (`sweep::seed` in
/// `computational_graphs_figures`), so that the page runs the very graph the book measured.
pub fn figure_seed(size: usize, depth: usize) -> u64 {
    size as u64 * 1000 + depth as u64
}

/// The ways of running the graph, named as the book's CSVs name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    ImmediateCached,
    Graph,
    GraphFused,
    CompiledLoop,
}

impl Mode {
    pub const ALL: [Mode; 4] = [
        Mode::ImmediateCached,
        Mode::Graph,
        Mode::GraphFused,
        Mode::CompiledLoop,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::ImmediateCached => "immediate cached",
            Mode::Graph => "graph",
            Mode::GraphFused => "graph fused",
            Mode::CompiledLoop => "compiled loop, kernels chosen per shape",
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ModeResult {
    pub mode: &'static str,
    pub check: Check,
    /// Time per run of the whole graph.
    pub timing: Timing,
}

#[derive(Debug, Serialize)]
pub struct GraphReport {
    pub size: usize,
    pub depth: usize,
    pub dispatches_fused: usize,
    pub modes: Vec<ModeResult>,
}

/// What runs one mode: the crate's immediate runner, or a program built once.
enum Runner<'g> {
    Immediate(&'g VerifiedGraph),
    Program(GpuProgram),
}

impl Runner<'_> {
    /// `runs` runs of the graph: one after the other, or (`in_one_submission`) recorded as a
    /// loop into one command buffer.
    async fn run(
        &self,
        ctx: &GpuContext,
        inputs: &[Tensor2D],
        runs: u32,
        in_one_submission: bool,
    ) -> Result<Vec<Tensor2D>, DemoError> {
        let mut out = Vec::new();
        match self {
            Runner::Program(p) if in_one_submission => {
                out = p.run_loop_async(ctx, inputs, runs as usize).await?;
            }
            Runner::Program(p) => {
                for _ in 0..runs {
                    out = p.run_loop_async(ctx, inputs, 1).await?;
                }
            }
            Runner::Immediate(g) => {
                for _ in 0..runs {
                    out = immediate::run_graph_async(ctx, g, inputs, Pipelines::Cached).await?;
                }
            }
        }
        Ok(out)
    }
}

/// The depth-64 random graph of the book's size sweep at `size`, run every way.
pub async fn run_graph_modes(ctx: &GpuContext, size: usize) -> Result<GraphReport, DemoError> {
    check_offered("size", size, &SIZES)?;
    let (list, input) = random_graph(figure_seed(size, DEPTH), size, DEPTH);
    let graph = validate(&list).map_err(computational_graphs::Error::from)?;
    let fused = fuse(&graph);
    let inputs = [input];
    let want = runner_cpu::run(&graph, &inputs)?.remove(0);
    // The crate's own tests accept 1e-4 of the output's scale.
    let scale = want.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let want_f64: Vec<f64> = want.data().iter().map(|&x| f64::from(x)).collect();
    let bound = vec![1e-4 * f64::from(scale); want_f64.len()];
    let mut modes = Vec::with_capacity(Mode::ALL.len());
    let mut dispatches_fused = 0;
    for mode in Mode::ALL {
        let runner = match mode {
            Mode::ImmediateCached => Runner::Immediate(&graph),
            Mode::Graph => Runner::Program(runner_gpu::build(ctx, &graph, Pipelines::Cached)?),
            Mode::GraphFused => {
                let program = runner_gpu::build(ctx, &fused, Pipelines::Cached)?;
                dispatches_fused = program.dispatch_count();
                Runner::Program(program)
            }
            Mode::CompiledLoop => {
                Runner::Program(compile_choosing_kernels(ctx, &graph, Options::default())?.program)
            }
        };
        let in_one_submission = mode == Mode::CompiledLoop;
        // The first run compiles what is not compiled yet and is the one checked.
        let got = runner.run(ctx, &inputs, 1, in_one_submission).await?;
        let got = got.first().map_or(&[][..], |t| t.data());
        let check = check_within(got, &want_f64, &bound);
        let timing = time_repeated(|runs| {
            let runner = &runner;
            let inputs = &inputs;
            async move {
                runner.run(ctx, inputs, runs, in_one_submission).await?;
                Ok(())
            }
        })
        .await?;
        modes.push(ModeResult {
            mode: mode.name(),
            check,
            timing,
        });
    }
    Ok(GraphReport {
        size,
        depth: DEPTH,
        dispatches_fused,
        modes,
    })
}

impl GraphReport {
    pub fn display(&self) -> Display {
        let rows = self
            .modes
            .iter()
            .map(|m| Row {
                key: m.mode.into(),
                yours: format!("{} ms", sig3(m.timing.median_ms)),
                check: describe(&m.check, "within 1e-4 of the output's scale"),
                ok: m.check.passed(),
                ran: true,
            })
            .collect();
        Display {
            rows,
            notes: vec![format!(
                "A {s}×{s} input through {d} operators (the book's seed for this size and depth; \
                 {f} dispatches once fused). Time per run of the graph, the median of a few \
                 samples.",
                s = self.size,
                d = self.depth,
                f = self.dispatches_fused,
            )],
        }
    }
}
