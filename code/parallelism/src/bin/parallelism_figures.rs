//! Writes this crate's figures (`figures/parallel_*.{csv,svg,json}`): `cargo xtask figures`
//! runs it in release mode. `--only NAME,...` runs some (see `parallelism::figures::NAMES`).

#[cfg(not(loom))]
#[cfg(not(loom))]
fn main() -> std::process::ExitCode {
    let args =
        bench_harness::FigureArgs::parse_with_about("Measures the parallelism figures of module 2");
    bench_harness::exit_code(parallelism::figures::run(&args))
}

/// Under `--cfg loom` only the primitives are built; there is nothing to measure.
#[cfg(loom)]
fn main() {}
