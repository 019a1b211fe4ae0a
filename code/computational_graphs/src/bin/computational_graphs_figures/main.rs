//! Benchmarks for module 1's graph chapters; writes CSV + SVG + sidecar JSON to `figures/`.
//!
//! ```text
//! cargo run --release -p computational_graphs --bin computational_graphs_figures -- --help
//! ```
//!
//! Parts for `--only`: sizes, depths (both include the autotuned compiler; `--tune-cache FILE`
//! keeps its winners between runs), ladder, floor, cpu, cpu_kernel (one core: the packed
//! kernels against matrixmultiply), roofline, transfers (host↔device
//! bandwidth against size), overlap (a chunked batch, serial against pipelined); add `loops` to
//! time only the one-submission variants in the sweeps, `compiled` only the compiled loops,
//! `chains` only the chain kernels' loops (one row or tuned blocks of rows per workgroup) and
//! the autotuned loop without them;
//! phases (one submission of the compiled loops at every size of the size sweep, step by step).
//! `--redraw` draws every chart in the output folder again from its CSV without measuring (every
//! prefix at once; with `--only`, those parts' charts).

mod args;
mod autotune_report;
mod charts;
mod cpu_bench;
mod cpu_kernel_bench;
mod cpu_roofs;
mod floor_bench;
mod ladder_bench;
mod matrixmultiply_worker;
mod overlap_bench;
mod phases_bench;
mod redraw;
mod roofline;
mod roofline_model;
mod sweep;
mod tables;
mod transfer_bench;
mod variants;

use std::process::ExitCode;

use gpu_context::GpuContext;

fn main() -> ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // A child started by `matrixmultiply_worker::time`: it times and exits, nothing else.
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some(matrixmultiply_worker::WORKER_ARG) {
        return matrixmultiply_worker::run_worker(&argv[1..]);
    }
    let args = args::Args::parse()?;
    if let Some(path) = &args.export_graphs {
        std::fs::write(path, sweep::export(&args))?;
        eprintln!("wrote {path}");
        return Ok(());
    }
    if args.redraw {
        return redraw::run(&args);
    }
    let mut ctx = GpuContext::new()?;
    eprintln!("{}", ctx.report());
    if ctx.report().is_software() {
        eprintln!(
            "note: a software adapter measures the CPU, not a GPU; use its numbers for shape, not speed"
        );
    }
    if args.wants("sizes") || args.wants("depths") {
        sweep::run(&mut ctx, &args)?;
    }
    if args.wants("phases") {
        phases_bench::run(&ctx, &args)?;
    }
    if args.wants("ladder") {
        ladder_bench::run(&ctx, &args)?;
    }
    if args.wants("floor") {
        floor_bench::run(&ctx, &args)?;
    }
    if args.wants("roofline") {
        roofline::run(ctx.report(), &args)?;
    }
    if args.wants("cpu") {
        cpu_bench::run(&args)?;
    }
    if args.wants("cpu_kernel") {
        cpu_kernel_bench::run(&args)?;
    }
    if args.wants("transfers") {
        transfer_bench::run(&ctx, &args)?;
    }
    if args.wants("overlap") {
        overlap_bench::run(&ctx, &args)?;
    }
    Ok(())
}
