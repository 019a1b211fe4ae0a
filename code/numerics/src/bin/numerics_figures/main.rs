//! Every figure and table of module 3's first part: float spacing and rounding error, summation
//! error against n, the fast inverse square root's error, the byte entropy of the compression
//! data, and the timed parts (inverse square root, integer division, compression decode).
//! Writes `figures/numerics_*.{csv,svg,json}`.
//!
//! ```text
//! numerics_figures                      every part
//! numerics_figures --only spacing,summation
//! numerics_figures --quick --allow-dirty --allow-busy   a smoke test
//! ```

mod floats_parts;
mod gpu_part;
mod redraw;
mod timed_parts;

use std::process::ExitCode;

use bench_harness::FigureArgs;

/// The deterministic parts (computed, the same on every machine) and the timed ones.
const PARTS: [&str; 8] = [
    "spacing",
    "summation",
    "inv_sqrt_error",
    "gpu_dot",
    "entropy",
    "inv_sqrt_time",
    "division",
    "compression",
];

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about(
        "Module 3 part one: floats, summation, bit tricks, integers, compression",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw::run(args, &PARTS);
    }
    args.start(&PARTS)?;
    let quick = args.quick;
    if args.wants("spacing") {
        floats_parts::spacing()?;
        floats_parts::rounding_error()?;
    }
    if args.wants("summation") {
        floats_parts::summation(quick)?;
    }
    if args.wants("inv_sqrt_error") {
        floats_parts::inv_sqrt_error(quick)?;
    }
    if args.wants("gpu_dot") {
        gpu_part::gpu_dot_table(quick)?;
    }
    if args.wants("entropy") {
        floats_parts::entropy()?;
    }
    if args.wants("inv_sqrt_time") {
        timed_parts::inv_sqrt_time(quick)?;
    }
    if args.wants("division") {
        timed_parts::division(quick)?;
    }
    if args.wants("compression") {
        timed_parts::compression(quick)?;
    }
    Ok(())
}
