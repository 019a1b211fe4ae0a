//! Times your tiled kernel against the given naive one on square products m = k = n. Each kernel
//! runs as the only node of a graph (`runner_gpu`); `GpuContext::time_commands` times its
//! dispatch with GPU timestamps when the adapter has them (the CPU clock otherwise). A row of the
//! table is the median of several runs after a warm-up, and the two results are compared.
//!
//! ```console
//! cargo run --release -p ex_m1_tiled_linear --example tiled_linear_speed
//! cargo run --release -p ex_m1_tiled_linear --example tiled_linear_speed -- --quick
//! ```

use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{CustomOperator, GraphBuilder, runner_gpu, validate};
use computational_graphs::kernel_speed::{Runs, median_time, ms, open_gpu, rate, source_words};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_tiled_linear::{NaiveLinear, TiledLinear};
use gpu_context::{GpuContext, TimingSource};
use std::error::Error;
use std::process::ExitCode;

/// What the program does and what `--quick` leaves out, for `--help`.
const ABOUT: &str = "Times your tiled Linear kernel against the naive one on square products.";
const QUICK: &str = "sizes 64, 128 and 256 only (enough for a software adapter such as lavapipe)";

fn main() -> ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> Result<(), Box<dyn Error>> {
    let (quick, runs) = Runs::from_args("tiled_linear_speed", ABOUT, QUICK);
    let sizes: &[usize] = if quick {
        &[64, 128, 256]
    } else {
        &[256, 1024, 2048, 4096]
    };
    let ctx =
        open_gpu("a software adapter: it has no fast on-chip memory, so expect no gain here")?;
    let mut rows = Vec::new();
    let mut source = TimingSource::CpuWallClock;
    for &size in sizes {
        let x = random(size, size, 1);
        let w = random(size, size, 2);
        let b = random(1, size, 3);
        let naive = prepare(&ctx, NaiveLinear, &x, &w, &b)?;
        let tiled = prepare(&ctx, TiledLinear, &x, &w, &b)?;
        let (naive_time, _) = median_time(&ctx, &naive, runs)?;
        let (tiled_time, src) = median_time(&ctx, &tiled, runs)?;
        source = src;
        let input = std::slice::from_ref(&x);
        check_agree(
            &tiled.run(&ctx, input)?[0],
            &naive.run(&ctx, input)?[0],
            size,
        )?;
        let flops = 2.0 * (size as f64).powi(3);
        rows.push(format!(
            "| {size} | {:.3} | {} | {:.3} | {} | {:.2}× |",
            ms(naive_time),
            rate(flops / naive_time.as_secs_f64() / 1e9),
            ms(tiled_time),
            rate(flops / tiled_time.as_secs_f64() / 1e9),
            naive_time.as_secs_f64() / tiled_time.as_secs_f64(),
        ));
    }
    println!(
        "times: {}; {}; results of the two kernels agree\n",
        source_words(source),
        runs.describe(),
    );
    println!(
        "| m = k = n | naive ms | naive GFLOP/s | tiled ms | tiled GFLOP/s | tiled speed-up |"
    );
    println!("|---:|---:|---:|---:|---:|---:|");
    for row in rows {
        println!("{row}");
    }
    Ok(())
}

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

/// A graph whose only compute node is `op` on x, w, b, built for the GPU with x uploaded.
fn prepare(
    ctx: &GpuContext,
    op: impl CustomOperator,
    x: &Tensor2D,
    w: &Tensor2D,
    b: &Tensor2D,
) -> Result<GpuProgram, Box<dyn Error>> {
    let mut g = GraphBuilder::new();
    let x_host = g.input("x", x.rows(), x.cols());
    let w = g.parameter("w", w.clone());
    let b = g.parameter("b", b.clone());
    let x_dev = g.to_device(x_host);
    let y = g.custom(op, &[x_dev, w, b]);
    g.to_host(y);
    let graph = validate(&g.finish())?;
    let program = runner_gpu::build(ctx, &graph, Pipelines::Cached)?;
    program.write_inputs(ctx, std::slice::from_ref(x))?;
    Ok(program)
}

/// A fast wrong kernel is no result: both must agree before their times are shown.
fn check_agree(tiled: &Tensor2D, naive: &Tensor2D, size: usize) -> Result<(), Box<dyn Error>> {
    let scale = naive.data().iter().fold(1.0f32, |m, v| m.max(v.abs()));
    let diff = tiled.max_abs_diff(naive);
    // A NaN or infinity anywhere makes the difference infinite.
    if diff <= 1e-4 * scale {
        Ok(())
    } else {
        Err(format!(
            "size {size}: the tiled result differs from the naive one by up to {diff} \
             (largest value {scale}); fix the kernel before timing it"
        )
        .into())
    }
}
