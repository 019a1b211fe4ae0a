//! Writes this crate's figures (`figures/parallel_*.{csv,svg,json}`): `cargo xtask figures`
//! runs it in release mode. `--only NAME,...` runs some (see `parallelism::figures::NAMES`).

#[cfg(not(loom))]
#[derive(clap::Parser)]
#[command(about = "Measures the parallelism figures of module 2")]
struct Cli {
    #[command(flatten)]
    figures: bench_harness::FigureArgs,
}

#[cfg(not(loom))]
fn main() -> std::process::ExitCode {
    let cli = <Cli as clap::Parser>::parse();
    match parallelism::figures::run(&cli.figures) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parallelism_figures: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Under `--cfg loom` only the primitives are built; there is nothing to measure.
#[cfg(loom)]
fn main() {}
