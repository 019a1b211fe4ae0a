//! Times your tree-reduction softmax against the given single-pass one at a fixed number of
//! elements, from many short rows to a few long ones. Each kernel runs as the only node of a
//! graph (`runner_gpu`); `GpuContext::time_commands` times its dispatch with GPU timestamps when
//! the adapter has them (the CPU clock otherwise). A row of the table is the median of several
//! runs after a warm-up, once both results match the course's CPU softmax.
//!
//! ```console
//! cargo run --release -p ex_m1_softmax_tree --example softmax_tree_speed
//! cargo run --release -p ex_m1_softmax_tree --example softmax_tree_speed -- --quick
//! ```

use std::error::Error;
use std::process::ExitCode;
use std::time::Duration;

use bench_harness::measure_durations;
use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{CustomOperator, GraphBuilder, runner_gpu, validate};
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_softmax_tree::{SoftmaxSinglePass, SoftmaxTree};
use gpu_context::{GpuContext, TimingSource};

const USAGE: &str = "usage: softmax_tree_speed [--quick]\n  --quick  2^16 elements and rows of \
                     64 to 4096 only (enough for a software adapter such as lavapipe)";

/// What to measure: elements per tensor (a power of two), the longest row, and how many untimed
/// and timed runs per kernel and shape.
struct Plan {
    log2_elements: u32,
    log2_longest_row: u32,
    warmup: usize,
    runs: usize,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan = match args.as_slice() {
        [] => Plan {
            log2_elements: 22,
            log2_longest_row: 16,
            warmup: 2,
            runs: 9,
        },
        [flag] if flag == "--quick" => Plan {
            log2_elements: 16,
            log2_longest_row: 12,
            warmup: 1,
            runs: 5,
        },
        _ => return Err(format!("unexpected arguments {args:?}\n{USAGE}").into()),
    };
    let ctx = GpuContext::new()?;
    let report = ctx.report();
    println!(
        "adapter: {} ({}, {}, driver {})",
        report.name, report.backend, report.device_type, report.driver
    );
    if report.is_software() {
        println!("(a software adapter: its timings say little about a GPU)");
    }
    let elements = 1usize << plan.log2_elements;
    let mut rows_out = Vec::new();
    let mut source = TimingSource::CpuWallClock;
    for log2_cols in 6..=plan.log2_longest_row {
        let cols = 1usize << log2_cols;
        let rows = elements / cols;
        let x = Tensor2D::random(rows, cols, 4.0, &mut SplitMix64::new(log2_cols.into()));
        let single = prepare(&ctx, SoftmaxSinglePass, &x)?;
        let tree = prepare(&ctx, SoftmaxTree, &x)?;
        let (single_time, _) = median_time(&ctx, &single, &plan)?;
        let (tree_time, src) = median_time(&ctx, &tree, &plan)?;
        source = src;
        let input = std::slice::from_ref(&x);
        check_results(
            [
                ("single-pass", &single.run(&ctx, input)?[0]),
                ("tree", &tree.run(&ctx, input)?[0]),
            ],
            &x,
            report.is_software(),
        )?;
        // Each element read once and written once, at best.
        let bytes = 8.0 * elements as f64;
        rows_out.push(format!(
            "| {cols} | {rows} | {:.3} | {} | {:.3} | {} | {:.2}× |",
            ms(single_time),
            rate(bytes / single_time.as_secs_f64() / 1e9),
            ms(tree_time),
            rate(bytes / tree_time.as_secs_f64() / 1e9),
            single_time.as_secs_f64() / tree_time.as_secs_f64(),
        ));
    }
    println!(
        "times: {}; 2^{} elements; median of {} runs after {}; GB/s counts one \
         read and one write per element; both results match the CPU softmax\n",
        match source {
            TimingSource::GpuTimestamps => "GPU timestamps around the dispatch",
            TimingSource::CpuWallClock => "CPU clock around submit and wait (no GPU timestamps)",
        },
        plan.log2_elements,
        plan.runs,
        warmups(plan.warmup)
    );
    println!(
        "| row length | rows | single-pass ms | single-pass GB/s | tree ms | tree GB/s | tree speed-up |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows_out {
        println!("{row}");
    }
    Ok(())
}

/// A graph whose only compute node is `op` on x, built for the GPU with x uploaded.
fn prepare(
    ctx: &GpuContext,
    op: impl CustomOperator,
    x: &Tensor2D,
) -> Result<GpuProgram, Box<dyn Error>> {
    let mut g = GraphBuilder::new();
    let x_host = g.input("x", x.rows(), x.cols());
    let x_dev = g.to_device(x_host);
    let y = g.custom(op, &[x_dev]);
    g.to_host(y);
    let graph = validate(&g.finish())?;
    let program = runner_gpu::build(ctx, &graph, Pipelines::Cached)?;
    program.write_inputs(ctx, std::slice::from_ref(x))?;
    Ok(program)
}

/// The median time of the program's dispatches, each run submitted and waited for on its own.
fn median_time(
    ctx: &GpuContext,
    program: &GpuProgram,
    plan: &Plan,
) -> Result<(Duration, TimingSource), Box<dyn Error>> {
    let mut source = TimingSource::CpuWallClock;
    let mut failed = None;
    let stats = measure_durations(plan.warmup, plan.runs, || {
        match ctx.time_commands(|encoder| program.record(encoder, 1)) {
            Ok(run) => {
                source = run.source;
                run.time
            }
            Err(e) => {
                failed.get_or_insert(e);
                Duration::ZERO
            }
        }
    });
    match failed {
        Some(e) => Err(e.into()),
        None => Ok((Duration::from_secs_f64(stats.median), source)),
    }
}

/// A fast wrong kernel is no result: both must match the course's CPU softmax (and so each
/// other) before their times are shown. Sums run in different orders, so long rows differ in the
/// last bits: the check is relative.
fn check_results(
    results: [(&str, &Tensor2D); 2],
    x: &Tensor2D,
    software: bool,
) -> Result<(), Box<dyn Error>> {
    let want = cpu::softmax(x);
    for (kernel, got) in results {
        let worst = got
            .data()
            .iter()
            .zip(want.data())
            .map(|(g, e)| (g - e).abs() / (e.abs() + 1e-12))
            .fold(0.0f32, f32::max);
        let finite = got.data().iter().all(|v| v.is_finite());
        if got.shape() != want.shape() || !finite || worst > 1e-3 {
            let why = if software && kernel == "single-pass" {
                "; a software adapter such as lavapipe stops a shader invocation after 65 535 \
                 loop iterations, too few for one thread to do three passes over a long row: \
                 use --quick there"
            } else {
                ""
            };
            return Err(format!(
                "{}×{}: the {kernel} result differs from the CPU softmax by up to {worst:.1e} \
                 (relative){why}",
                x.rows(),
                x.cols()
            )
            .into());
        }
    }
    Ok(())
}

fn ms(t: Duration) -> f64 {
    t.as_secs_f64() * 1e3
}

/// About three significant digits, so that slow and fast devices both get readable rates.
fn rate(value: f64) -> String {
    match value {
        v if v >= 100.0 => format!("{v:.0}"),
        v if v >= 10.0 => format!("{v:.1}"),
        v if v >= 1.0 => format!("{v:.2}"),
        v => format!("{v:.3}"),
    }
}

fn warmups(n: usize) -> String {
    if n == 1 {
        "1 warm-up".into()
    } else {
        format!("{n} warm-ups")
    }
}
