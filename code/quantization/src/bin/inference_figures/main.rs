//! The spiral classifier as an inference workload (run from the repository root):
//!
//! - `accuracy`: the shipped model on its training points, on the same points re-noised, and on
//!   points drawn at random along the arms (a held-out set), in f32 and int8 (deterministic);
//! - `latency`: one batch through the graph on the CPU runner (one thread) and on the GPU runner
//!   (upload, kernels, read-back), against the batch size, and the GPU's first run.
//!
//! ```text
//! inference_figures --only accuracy
//! inference_figures --only latency --machine h200
//! inference_figures --quick --allow-dirty --allow-busy   a smoke test
//! ```

mod accuracy;
mod latency;
mod redraw;

use std::process::ExitCode;

use bench_harness::FigureArgs;

const PARTS: [&str; 2] = ["accuracy", "latency"];

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about(
        "The spiral classifier: held-out accuracy, and CPU against GPU latency per batch",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw::run(args, &PARTS);
    }
    args.start(&PARTS)?;
    if args.wants("accuracy") {
        accuracy::run(args)?;
    }
    if args.wants("latency") {
        latency::run(args)?;
    }
    Ok(())
}
