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

use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{CustomOperator, GraphBuilder, runner_gpu, validate};
use computational_graphs::kernel_speed::{Runs, median_time, ms, open_gpu, rate, source_words};
use computational_graphs::ops::cpu;
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_softmax_tree::{SoftmaxSinglePass, SoftmaxTree};
use gpu_context::{GpuContext, TimingSource};
use std::error::Error;
use std::process::ExitCode;

/// What the program does and what `--quick` leaves out, for `--help`.
const ABOUT: &str = "Times your tree-reduction softmax against the single-pass one.";
const QUICK: &str = "2^16 elements and rows of 64 to 4096 only (enough for a software adapter \
                     such as lavapipe)";

fn main() -> ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> Result<(), Box<dyn Error>> {
    let (quick, runs) = Runs::from_args("softmax_tree_speed", ABOUT, QUICK);
    // Elements per tensor (a power of two), spread over rows of 64 up to the longest row.
    let (log2_elements, log2_longest_row): (u32, u32) = if quick { (16, 12) } else { (22, 16) };
    let ctx = open_gpu("a software adapter: its timings say little about a GPU")?;
    let software = ctx.report().is_software();
    let elements = 1usize << log2_elements;
    let mut rows_out = Vec::new();
    let mut source = TimingSource::CpuWallClock;
    for log2_cols in 6..=log2_longest_row {
        let cols = 1usize << log2_cols;
        let rows = elements / cols;
        let x = Tensor2D::random(rows, cols, 4.0, &mut SplitMix64::new(log2_cols.into()));
        let single = prepare(&ctx, SoftmaxSinglePass, &x)?;
        let tree = prepare(&ctx, SoftmaxTree, &x)?;
        let (single_time, _) = median_time(&ctx, &single, runs)?;
        let (tree_time, src) = median_time(&ctx, &tree, runs)?;
        source = src;
        let input = std::slice::from_ref(&x);
        check_results(
            [
                ("single-pass", &single.run(&ctx, input)?[0]),
                ("tree", &tree.run(&ctx, input)?[0]),
            ],
            &x,
            software,
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
        "times: {}; 2^{log2_elements} elements; {}; GB/s counts one read and one write per \
         element; both results match the CPU softmax\n",
        source_words(source),
        runs.describe(),
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
