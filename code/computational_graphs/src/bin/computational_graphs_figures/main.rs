//! Benchmarks for module 1's graph chapters; writes CSV + SVG + sidecar JSON to `figures/`.
//!
//! ```text
//! cargo run --release -p computational_graphs --bin computational_graphs_figures -- --quick
//!   --quick               small sweeps that finish in minutes on lavapipe
//!   --prefix NAME         file name prefix (default "graphs"; the H100 run uses "graphs_h100")
//!   --machine TEXT        a name for the machine, written into every sidecar
//!   --only LIST           comma-separated parts: sizes,depths,ladder,floor,cpu,roofline (default: all);
//!                         add `loops` to time only the one-submission variants in the sweeps
//!   --export-graphs FILE  write the sweeps' random graphs as JSON (for the PyTorch script) and exit
//!   --pytorch-csv FILE    add the PyTorch script's measurements to the charts
//!   --ladder-size N       matrix size of the matmul ladder (default 4096, 256 with --quick)
//! ```

mod args;
mod charts;
mod cpu_bench;
mod floor_bench;
mod ladder_bench;
mod roofline;
mod sweep;
mod variants;

use std::process::ExitCode;

use gpu_context::GpuContext;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args = args::Args::parse()?;
    if let Some(path) = &args.export_graphs {
        std::fs::write(path, sweep::export(&args))?;
        eprintln!("wrote {path}");
        return Ok(());
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
    if args.wants("ladder") {
        ladder_bench::run(&ctx, &args)?;
    }
    if args.wants("floor") {
        floor_bench::run(&ctx, &args)?;
    }
    if args.wants("roofline") {
        roofline::run(&args)?;
    }
    if args.wants("cpu") {
        cpu_bench::run(&args)?;
    }
    Ok(())
}
