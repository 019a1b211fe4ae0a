//! What every part names its files with: kept out of `main.rs`, which calls the parts, so that
//! the parts need not reach back into it.

use bench_harness::FigureArgs;

/// File names carry the machine label when one is given (`quant_h100_gemm`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("quant", name)
}

/// `x` with 7 significant digits, as `{:.6e}` prints it (times in seconds, errors in metres).
pub fn seven_digits(x: f64) -> f64 {
    bench_harness::digits::significant(x, 7)
}
