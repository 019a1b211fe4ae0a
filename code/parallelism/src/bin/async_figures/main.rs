//! Measures the async-from-the-bottom figures: the sizes of a few futures
//! (`figures/parallel_async_sizes*.csv`), memory per waiting task against memory per waiting
//! thread (`parallel_async_memory*`), and a ticker starved by a blocking call
//! (`parallel_async_starvation*`). Each memory measurement runs in a fresh child process (this
//! program again, with `--child`), so that no measurement starts from another's leftovers.

#[cfg(not(loom))]
mod measure;
#[cfg(not(loom))]
mod redraw;

#[cfg(not(loom))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    let args = measure::Args::parse();
    // `--redraw` measures nothing: it draws the charts again from the CSVs.
    if args.common.redraw {
        return bench_harness::exit_code(redraw::run(&args.common).map(drop));
    }
    bench_harness::exit_code(measure::run(&args))
}

/// Under `--cfg loom` only the primitives are built; there is nothing to measure.
#[cfg(loom)]
fn main() {}
