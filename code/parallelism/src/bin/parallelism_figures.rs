//! Writes this crate's figures (`figures/parallel_*.{csv,svg,json}`): `cargo xtask figures`
//! runs it in release mode. `--only NAME` runs one figure (see `parallelism::figures::NAMES`).

#[cfg(not(loom))]
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parallelism::figures::run(&args) {
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
