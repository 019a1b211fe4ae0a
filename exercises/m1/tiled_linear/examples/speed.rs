//! Times your tiled kernel against the given naive one on square products m = k = n. Each kernel
//! runs as the only node of a graph (`runner_gpu`); `GpuContext::time_commands` times its
//! dispatch with GPU timestamps when the adapter has them (the CPU clock otherwise). A row of the
//! table is the median of several runs after a warm-up, and the two results are compared.
//!
//! ```console
//! cargo run --release -p ex_m1_tiled_linear --example tiled_linear_speed
//! cargo run --release -p ex_m1_tiled_linear --example tiled_linear_speed -- --quick
//! ```

use std::error::Error;
use std::process::ExitCode;
use std::time::Duration;

use bench_harness::measure_durations;
use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::{CustomOperator, GraphBuilder, runner_gpu, validate};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_tiled_linear::{NaiveLinear, TiledLinear};
use gpu_context::{GpuContext, TimingSource};

const USAGE: &str = "usage: tiled_linear_speed [--quick]\n  --quick  sizes 64, 128 and 256 only \
                     (enough for a software adapter such as lavapipe)";

/// What to measure: the sizes, and how many untimed and timed runs per kernel and size.
struct Plan {
    sizes: &'static [usize],
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
            sizes: &[256, 1024, 2048, 4096],
            warmup: 2,
            runs: 9,
        },
        [flag] if flag == "--quick" => Plan {
            sizes: &[64, 128, 256],
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
        println!("(a software adapter: it has no fast on-chip memory, so expect no gain here)");
    }
    let mut rows = Vec::new();
    let mut source = TimingSource::CpuWallClock;
    for &size in plan.sizes {
        let x = random(size, size, 1);
        let w = random(size, size, 2);
        let b = random(1, size, 3);
        let naive = prepare(&ctx, NaiveLinear, &x, &w, &b)?;
        let tiled = prepare(&ctx, TiledLinear, &x, &w, &b)?;
        let (naive_time, _) = median_time(&ctx, &naive, &plan)?;
        let (tiled_time, src) = median_time(&ctx, &tiled, &plan)?;
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
        "times: {}; median of {} runs after {}; results of the two kernels agree\n",
        match source {
            TimingSource::GpuTimestamps => "GPU timestamps around the dispatch",
            TimingSource::CpuWallClock => "CPU clock around submit and wait (no GPU timestamps)",
        },
        plan.runs,
        warmups(plan.warmup)
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
