//! The inference case study's measurements (module 4): module 3's quantized classifier, widened,
//! served by the unfused and the fused server; writes CSV + SVG + sidecar JSON to `figures/`.
//!
//! - `latency`: wall-clock latency of many requests per server, format and batch size
//!   (p50/p90/p99/max, and the latency distribution as a chart);
//! - `stages`: GPU timestamp scopes around each stage of a request (dequantize, matmul,
//!   bias+relu, read-back), the median of several profiled requests;
//! - `steps`: the three changes one at a time and together (int8): each variant's latency, its
//!   GPU time, and its time outside the GPU split by the request's `tracing` spans.
//!
//! ```text
//! cargo run --release -p profiling_lab --bin inference_figures -- --help
//! ```

mod args;
mod latency;
mod redraw;
mod stages;
mod steps;
mod workload;

use anyhow::Context;
use args::{Args, PARTS, Sizes};
use clap::Parser;
use gpu_context::{GpuContext, GpuScopes};

fn main() -> std::process::ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> anyhow::Result<()> {
    let args = Args::parse();
    // Before any check of the machine or any adapter: a redraw measures nothing.
    if args.figures.redraw {
        return redraw::run(&args);
    }
    args.figures.start(&PARTS)?;
    // Scopes need the timestamp features; latency alone does not.
    let (ctx, timestamps) = match GpuScopes::open_context() {
        Ok(ctx) => (ctx, true),
        Err(e) => {
            eprintln!("no timestamp scopes ({e}); the stages part is skipped");
            (
                GpuContext::new()
                    .context("the case study needs a GPU adapter (lavapipe will do)")?,
                false,
            )
        }
    };
    eprintln!("GPU: {}", ctx.report().to_json());
    let sizes = Sizes::new(&args, &ctx);
    eprintln!("hidden width {}, {} requests", sizes.hidden, sizes.requests);
    if args.figures.wants("latency") {
        latency::run(&args, sizes, &ctx)?;
    }
    if args.figures.wants("stages") && timestamps {
        stages::run(&args, sizes, &ctx)?;
    }
    if args.figures.wants("steps") {
        steps::run(&args, sizes, &ctx, timestamps)?;
    }
    Ok(())
}
