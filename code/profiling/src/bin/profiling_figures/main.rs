//! Module 4's measurements; writes CSV + SVG + sidecar JSON (and a trace, a flame graph) to
//! `figures/`.
//!
//! ```text
//! cargo run --release -p profiling_lab --bin profiling_figures -- --help
//! ```

mod flamegraph;
mod nms;
mod overheads;
mod span_cost;
mod trace;
mod training_gpu;

use clap::Parser;

pub const PARTS: [&str; 7] = [
    "span_cost",
    "trace",
    "nms",
    "overheads",
    "flamegraph",
    "training_gpu",
    "training_scopes",
];

#[derive(Parser)]
#[command(
    about = "Module 4's figures: span cost, a CPU+GPU trace, NMS, profiler overheads, a flame graph, \
             the training step on CPU and GPU"
)]
pub struct Args {
    #[command(flatten)]
    pub figures: bench_harness::FigureArgs,
    /// The workload binary the profilers run (overheads, flamegraph): `cargo build --release -p
    /// profiling_lab --bin profiling_workload`, or the `profiling` build (line tables, and frame
    /// pointers through RUSTFLAGS), at target/profiling/profiling_workload.
    #[arg(long, default_value = "target/release/profiling_workload")]
    pub workload: std::path::PathBuf,
}

fn main() -> std::process::ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    args.figures.start(&PARTS)?;
    if args.figures.wants("span_cost") {
        span_cost::run(&args)?;
    }
    if args.figures.wants("trace") {
        trace::run(&args)?;
    }
    if args.figures.wants("nms") {
        nms::run(&args)?;
    }
    if args.figures.wants("overheads") {
        overheads::run(&args)?;
    }
    if args.figures.wants("flamegraph") {
        flamegraph::run(&args)?;
    }
    if args.figures.wants("training_gpu") {
        let ctx = gpu_context::GpuContext::new()?;
        eprintln!("{}", ctx.report());
        training_gpu::run_sweep(&args.figures, &ctx)?;
    }
    if args.figures.wants("training_scopes") {
        training_gpu::run_scopes(&args.figures)?;
    }
    Ok(())
}
