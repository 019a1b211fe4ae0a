//! Figures of the quantization page's practice sections (run from the repository root):
//!
//! - `noise`: measured SQNR against the step²/12 model, 2–8 bits, per tensor and per channel,
//!   on Gaussian weights and on the shipped spiral model's hidden layer (computed exactly);
//! - `schemes`: test accuracy of a spiral MLP trained here, its weights quantized 8-bit and
//!   4-bit per tensor, per channel and in groups (deterministic: seeded data, weights, order);
//! - `outliers`: the int8 error of a Linear product with one loud input channel, per tensor,
//!   with weight groups, per token, with SmoothQuant and with the outlier channel split out.

mod noise;
mod outliers;
mod output;
mod redraw;
mod schemes;

use bench_harness::FigureArgs;

const PARTS: &[&str] = &["noise", "schemes", "outliers"];

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw::run(args, PARTS);
    }
    args.start(PARTS)?;
    if args.wants("noise") {
        noise::run(args)?;
    }
    if args.wants("schemes") {
        schemes::run(args)?;
    }
    if args.wants("outliers") {
        outliers::run(args)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args = FigureArgs::parse_with_about(
        "Quantization noise against the step²/12 model, and accuracy of weight schemes",
    );
    bench_harness::exit_code(run(&args))
}
