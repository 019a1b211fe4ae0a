//! What every part names its files with: kept out of `main.rs`, which calls the parts, so that
//! the parts need not reach back into it.

use bench_harness::FigureArgs;

/// File names carry the machine label when one is given (`quant_vm2core_noise`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("quant", name)
}
