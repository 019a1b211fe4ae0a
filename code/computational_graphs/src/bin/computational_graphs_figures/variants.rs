//! Running one random graph with one variant, and timing it.

use std::time::{Duration, Instant};

use bench_harness::{Stats, measure, measure_durations};
use computational_graphs::compiler::autotune::Autotuner;
use computational_graphs::compiler::chain_block::ChainLayout;
use computational_graphs::compiler::{
    LinearKernels, Options, compile, compile_choosing_kernels, compile_with,
    compile_with_chain_layout, compile_with_chains, fuse,
};
use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{OpList, VerifiedGraph, runner_cpu, runner_gpu, validate};
use computational_graphs::immediate;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, PipelineCache};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Cpu,
    CpuFused,
    Immediate,
    ImmediateCached,
    Graph,
    GraphFused,
    GraphLoop,
    GraphLoopFused,
    Compiled,
    /// The op-code compiler with a tuned matmul chosen per Linear shape.
    CompiledChosen,
    /// The same, the matmul for each shape picked by the autotuner's measurements.
    CompiledAutotuned,
    /// Autotuned, and runs of narrow layers (up to 256 columns) in one chain kernel each, one
    /// workgroup per row.
    CompiledChained,
    /// The same, each chain's layout (one row or a block of rows per workgroup) tuned.
    CompiledBlockChained,
}

impl Variant {
    pub const ALL: [Variant; 13] = [
        Variant::Cpu,
        Variant::CpuFused,
        Variant::Immediate,
        Variant::ImmediateCached,
        Variant::Graph,
        Variant::GraphFused,
        Variant::GraphLoop,
        Variant::GraphLoopFused,
        Variant::Compiled,
        Variant::CompiledChosen,
        Variant::CompiledAutotuned,
        Variant::CompiledChained,
        Variant::CompiledBlockChained,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Cpu => "CPU",
            Variant::CpuFused => "CPU fused",
            Variant::Immediate => "GPU immediate",
            Variant::ImmediateCached => "immediate cached",
            Variant::Graph => "graph",
            Variant::GraphFused => "graph fused",
            Variant::GraphLoop => "graph loop",
            Variant::GraphLoopFused => "graph loop fused",
            Variant::Compiled => "op-code compiled loop (tiled)",
            Variant::CompiledChosen => "compiled loop, kernels chosen per shape",
            Variant::CompiledAutotuned => "compiled loop, autotuned kernels",
            Variant::CompiledChained => "compiled loop, autotuned, narrow chains in one dispatch",
            Variant::CompiledBlockChained => {
                "compiled loop, autotuned, chains in tuned blocks of rows"
            }
        }
    }

    /// The variants that record a loop of runs into one submission.
    pub fn is_loop(self) -> bool {
        matches!(
            self,
            Variant::GraphLoop
                | Variant::GraphLoopFused
                | Variant::Compiled
                | Variant::CompiledChosen
                | Variant::CompiledAutotuned
                | Variant::CompiledChained
                | Variant::CompiledBlockChained
        )
    }

    /// The op-code compiler's loops, whatever runs their Linears.
    pub fn is_compiled(self) -> bool {
        matches!(
            self,
            Variant::Compiled
                | Variant::CompiledChosen
                | Variant::CompiledAutotuned
                | Variant::CompiledChained
                | Variant::CompiledBlockChained
        )
    }

    /// The compiled loops that run chain kernels, and the autotuned loop without them.
    pub fn is_chain_comparison(self) -> bool {
        matches!(
            self,
            Variant::CompiledAutotuned | Variant::CompiledChained | Variant::CompiledBlockChained
        )
    }

    pub fn is_cpu(self) -> bool {
        matches!(self, Variant::Cpu | Variant::CpuFused)
    }
}

pub struct Measured {
    /// One-time cost: validation, fusion, pipeline compilation, buffer creation, parameter upload
    /// (tuning excluded).
    pub setup: Duration,
    /// Time the autotuner spent measuring candidates during set-up (zero on a cache hit).
    pub tuning: Duration,
    /// Time per run of the graph (per iteration for the loop variants), CPU clock.
    pub per_run: Stats,
    /// GPU timestamps per iteration (loop variants on adapters with timestamps).
    pub gpu_per_run: Option<Duration>,
}

/// How long the loop variants run before their samples are taken.
const GPU_WARMUP: Duration = Duration::from_millis(200);

pub struct Effort {
    pub warmup: usize,
    pub samples: usize,
    pub loop_iterations: usize,
}

pub fn measure_variant(
    ctx: &mut GpuContext,
    v: Variant,
    list: &OpList,
    input: &Tensor2D,
    e: &Effort,
    tuner: &mut Autotuner,
) -> Result<Measured, computational_graphs::Error> {
    let tuned_before = tuner.tuning_time();
    // A fresh pipeline cache: each variant's setup pays its own compilations.
    ctx.pipelines = PipelineCache::default();
    let ctx: &GpuContext = ctx;
    let inputs = [input.clone()];
    let start = Instant::now();
    let graph = validate(list)?;
    let fused = fuse(&graph);
    let run_stats = |f: &mut dyn FnMut()| measure(e.warmup, e.samples, f);
    let (setup, per_run, gpu) = match v {
        Variant::Cpu | Variant::CpuFused => {
            let g = if v == Variant::Cpu { &graph } else { &fused };
            let setup = start.elapsed();
            let stats = run_stats(&mut || {
                runner_cpu::run(g, &inputs).expect("validated");
            });
            (setup, stats, None)
        }
        Variant::Immediate | Variant::ImmediateCached => {
            let mode = if v == Variant::Immediate {
                Pipelines::CompileEveryTime
            } else {
                Pipelines::Cached
            };
            // The first run fills the cache (cached variant): that is its one-time cost.
            let first = Instant::now();
            immediate::run_graph(ctx, &graph, &inputs, mode)?;
            let setup = if mode == Pipelines::Cached {
                first.elapsed()
            } else {
                Duration::ZERO
            };
            // Compiling every pipeline of every run is slow enough that fewer samples do.
            let (w, n) = if mode == Pipelines::CompileEveryTime {
                (0, e.samples.min(5))
            } else {
                (e.warmup, e.samples)
            };
            let stats = measure(w, n, || {
                immediate::run_graph(ctx, &graph, &inputs, mode).expect("ran once already");
            });
            (setup, stats, None)
        }
        Variant::Graph | Variant::GraphFused => {
            let g = if v == Variant::Graph { &graph } else { &fused };
            let program = runner_gpu::build(ctx, g, Pipelines::Cached)?;
            let setup = start.elapsed();
            let stats = run_stats(&mut || {
                program.run(ctx, &inputs).expect("built");
            });
            (setup, stats, None)
        }
        Variant::GraphLoop
        | Variant::GraphLoopFused
        | Variant::Compiled
        | Variant::CompiledChosen
        | Variant::CompiledAutotuned
        | Variant::CompiledChained
        | Variant::CompiledBlockChained => {
            let program = build_loop_program(ctx, v, &graph, &fused, tuner)?;
            let setup = start.elapsed();
            let n = e.loop_iterations;
            warm_up_gpu(ctx, &program, &inputs, n)?;
            let stats = measure_durations(e.warmup, e.samples, || {
                let t = Instant::now();
                program.run_loop(ctx, &inputs, n).expect("built");
                t.elapsed() / n as u32
            });
            (setup, stats, gpu_time(ctx, &program, n)?)
        }
    };
    let tuning = tuner.tuning_time() - tuned_before;
    Ok(Measured {
        setup: setup.saturating_sub(tuning),
        tuning,
        per_run,
        gpu_per_run: gpu,
    })
}

/// The program of a loop variant (`v.is_loop()`): `graph` as validated, `fused` its fusion.
pub fn build_loop_program(
    ctx: &GpuContext,
    v: Variant,
    graph: &VerifiedGraph,
    fused: &VerifiedGraph,
    tuner: &mut Autotuner,
) -> Result<GpuProgram, computational_graphs::Error> {
    assert!(v.is_loop(), "{} does not run as one program", v.name());
    Ok(match v {
        Variant::GraphLoop => runner_gpu::build(ctx, graph, Pipelines::Cached)?,
        Variant::GraphLoopFused => runner_gpu::build(ctx, fused, Pipelines::Cached)?,
        Variant::CompiledChosen => {
            compile_choosing_kernels(ctx, graph, Options::default())?.program
        }
        Variant::CompiledAutotuned => {
            let linears = LinearKernels::Autotuned(tuner);
            compile_with(ctx, graph, Options::default(), linears)?.program
        }
        Variant::CompiledChained => {
            let linears = LinearKernels::Autotuned(tuner);
            let one_row = ChainLayout::RowPerWorkgroup;
            compile_with_chain_layout(ctx, graph, Options::default(), linears, one_row)?.program
        }
        Variant::CompiledBlockChained => {
            let linears = LinearKernels::Autotuned(tuner);
            compile_with_chains(ctx, graph, Options::default(), linears)?.program
        }
        _ => compile(ctx, graph, Options::default())?.program,
    })
}

/// Keeps the GPU busy with `program` for a moment: after a set-up that left it mostly idle
/// (compiling, or tuning), its clocks need time to come back up, and the first samples would
/// measure that instead of the graph.
pub fn warm_up_gpu(
    ctx: &GpuContext,
    program: &GpuProgram,
    inputs: &[Tensor2D],
    iterations: usize,
) -> Result<(), computational_graphs::Error> {
    let busy_until = Instant::now() + GPU_WARMUP;
    while Instant::now() < busy_until {
        program.run_loop(ctx, inputs, iterations)?;
    }
    Ok(())
}

/// Median of 3 GPU-timestamped submissions of `n` iterations, per iteration.
pub fn gpu_time(
    ctx: &GpuContext,
    program: &GpuProgram,
    n: usize,
) -> Result<Option<Duration>, computational_graphs::Error> {
    if !ctx.has_timestamps() {
        return Ok(None);
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        times.push(ctx.time_commands(|enc| program.record(enc, n))?.time / n as u32);
    }
    times.sort();
    Ok(Some(times[1]))
}
