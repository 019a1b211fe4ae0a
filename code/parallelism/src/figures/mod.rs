//! The measurements behind this crate's figures. Each figure is a function that measures,
//! then writes `figures/parallel_<name>.{csv,svg,json}` (some write two figures).

mod concurrency;
mod data;
mod output;
mod redraw;
mod sync_figures;

use output::Figure;

/// Every figure, in the order they run.
pub const NAMES: &[&str] = &[
    "spsc",
    "false_sharing",
    "histogram",
    "rayon_chunks",
    "uneven",
    "branchless",
    "simd",
    "sort",
    "csr_vs_dense",
    "async",
    "aos_soa",
    "bump",
    "softmax",
    "false_sharing_sweep",
    "locks",
    "channels",
    "backpressure",
    "spawn_cost",
    "amdahl",
    "monte_carlo",
    "bfs_frontiers",
];

/// Runs every figure, or only those named by `--only`. `--quick` shrinks the sweeps of the
/// threads, locks, channels and false-sharing figures (the others already run in seconds).
/// `--redraw` measures nothing: it draws the charts again from the CSVs in the output folder.
pub fn run(args: &bench_harness::FigureArgs) -> Result<(), Box<dyn std::error::Error>> {
    if args.redraw {
        args.check_parts(NAMES)?;
        redraw::run(args)?;
        return Ok(());
    }
    args.start(NAMES)?;
    let only: Vec<&str> = NAMES.iter().copied().filter(|n| args.wants(n)).collect();
    let progress = bench_harness::Progress::new(only.len() as u64, "parallelism figures");
    for name in only {
        progress.step(name);
        let size = sync_figures::Size { quick: args.quick };
        let figures: Vec<Figure> = match name {
            "false_sharing_sweep" => sync_figures::false_sharing_sweep(size),
            "locks" => sync_figures::locks(size),
            "channels" => sync_figures::channels(size),
            "backpressure" => sync_figures::backpressure(size),
            "spawn_cost" => sync_figures::spawn_cost(size),
            "amdahl" => sync_figures::amdahl(size),
            "spsc" => concurrency::spsc(),
            "monte_carlo" => data::monte_carlo(args.quick),
            "bfs_frontiers" => vec![data::bfs_frontiers(args.quick)],
            other => vec![single(other)],
        };
        for figure in figures {
            figure
                .write()
                .map_err(|e| format!("writing figure {name}: {e}"))?;
        }
    }
    progress.finish();
    Ok(())
}

/// The figures that are one chart each.
fn single(name: &str) -> Figure {
    match name {
        "false_sharing" => concurrency::false_sharing(),
        "histogram" => concurrency::histogram(),
        "async" => concurrency::async_contrast(),
        "rayon_chunks" => data::rayon_chunks(),
        "uneven" => data::uneven(),
        "branchless" => data::branchless(),
        "simd" => data::simd(),
        "sort" => data::sort(),
        "csr_vs_dense" => data::csr_vs_dense(),
        "aos_soa" => data::aos_soa(),
        "bump" => data::bump(),
        "softmax" => data::softmax(),
        _ => unreachable!("names were checked above"),
    }
}
