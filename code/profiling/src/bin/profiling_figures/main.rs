//! Module 4's measurements; writes CSV + SVG + sidecar JSON (and a trace, a flame graph) to
//! `figures/`.
//!
//! ```text
//! cargo run --release -p profiling_lab --bin profiling_figures -- --help
//! ```

mod args;
mod flamegraph;
mod massif;
mod nms;
mod nms_branches;
mod overheads;
mod redraw;
mod runner_reuse;
mod span_cost;
mod timeline;
mod trace;
mod training_gpu;
mod yolo_frame;

use args::{Args, PARTS};
use clap::Parser;

fn main() -> std::process::ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    // Before any check of the machine: a redraw measures nothing.
    if args.figures.redraw {
        return redraw::run(&args);
    }
    args.figures.start(&PARTS)?;
    if args.figures.wants("span_cost") {
        span_cost::run(&args)?;
    }
    if args.figures.wants("trace") {
        trace::run(&args)?;
    }
    // Drawn from the trace file (after `trace`, when both run), so nothing is measured.
    if args.figures.wants("timeline") {
        timeline::run(&bench_harness::figures_dir())?;
    }
    if args.figures.wants("nms") {
        nms::run(&args)?;
    }
    if args.figures.wants("nms_branches") {
        nms_branches::run(&args)?;
    }
    if args.figures.wants("yolo_frame") {
        yolo_frame::run(&args)?;
    }
    if args.figures.wants("overheads") {
        overheads::run(&args)?;
    }
    if args.figures.wants("massif") {
        massif::run(&args)?;
    }
    if args.figures.wants("flamegraph") {
        flamegraph::run(&args, &[], "profiling_flamegraph")?;
        let reusing = ["--warmup", "1", "--reuse"];
        flamegraph::run(&args, &reusing, "profiling_flamegraph_reusing")?;
    }
    if args.figures.wants("runner_reuse") {
        runner_reuse::run(&args)?;
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
