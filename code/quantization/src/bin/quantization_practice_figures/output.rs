//! What every part names its files with: kept out of `main.rs`, which calls the parts, so that
//! the parts need not reach back into it.

use bench_harness::FigureArgs;

/// File names carry the machine label when one is given (`quant_vm2core_noise`).
pub fn figure_name(args: &FigureArgs, name: &str) -> String {
    args.figure_name("quant", name)
}

/// `x` as the table prints it, `places` digits after the point: rows hold the printed value, so
/// the chart drawn while measuring and the one redrawn from the CSV are the same picture.
pub fn rounded(x: f64, places: usize) -> f64 {
    format!("{x:.places$}").parse().unwrap_or(x)
}

/// `x` with `digits` significant digits, as `{:.e}` prints it (`digits - 1` after the point).
pub fn significant(x: f64, digits: usize) -> f64 {
    let places = digits.saturating_sub(1);
    format!("{x:.places$e}").parse().unwrap_or(x)
}
