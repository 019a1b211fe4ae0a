//! `--redraw`: every figure of this crate drawn again from its CSV through the chart functions
//! the measuring run used, with the subtitle from its sidecar. Nothing is measured.

use bench_harness::{Drawn, FigureArgs, FigureError, Found, RedrawError, RedrawReport};

use super::output::{BarSpec, subtitle_of};
use super::{concurrency, data, sync_figures};

/// The source files that write this crate's figures (their sidecars' `program`).
const SOURCES: &[&str] = &["code/parallelism/src/figures/"];

/// The bar figures: their CSV is [`super::output::TimingRow`]s and their chart [`BarSpec::chart`].
const BARS: [&BarSpec; 12] = [
    &concurrency::SPSC,
    &concurrency::FALSE_SHARING,
    &concurrency::HISTOGRAM,
    &concurrency::ASYNC,
    &data::UNEVEN,
    &data::BRANCHLESS,
    &data::SIMD,
    &data::AOS_SOA,
    &data::BUMP,
    &data::SOFTMAX,
    &data::MONTE_CARLO_THREADS,
    &sync_figures::CHANNEL_THROUGHPUT,
];

/// Which part of `parallelism_figures` (a name of `--only`) writes each figure.
fn part_of(figure: &str) -> &str {
    match figure {
        "spsc_regimes" => "spsc",
        "channel_throughput" | "channel_latency" => "channels",
        "monte_carlo_error" | "monte_carlo_threads" => "monte_carlo",
        "bfs_frontier_sizes" => "bfs_frontiers",
        f if f.starts_with("locks_") => "locks",
        f => f,
    }
}

/// Redraws the figures in the output folder (`--only` picks parts by their measuring names).
pub fn run(args: &FigureArgs) -> Result<RedrawReport, RedrawError> {
    args.redraw("parallelism_figures", SOURCES, |found| {
        let name = found
            .sidecar
            .figure
            .strip_prefix("parallel_")
            .unwrap_or(&found.sidecar.figure);
        if !args.wants(part_of(name)) {
            return Ok(Drawn::Kept("not a part --only asked for".into()));
        }
        draw(found, name)
    })
}

/// The chart of one figure (`name` without the `parallel_` prefix), from its CSV.
fn draw(found: &Found, name: &str) -> Result<Drawn, FigureError> {
    let subtitle = subtitle_of(&found.sidecar);
    let svg = if let Some(spec) = BARS.iter().find(|b| b.name == name) {
        spec.chart(&found.rows()?, &subtitle)
    } else if let Some((_, cs_ns)) = sync_figures::LOCKS.iter().find(|(n, _)| *n == name) {
        sync_figures::locks_chart(*cs_ns, &found.rows()?, &subtitle)
    } else {
        match name {
            "spawn_cost" => sync_figures::SPAWN_COST.chart(&found.rows()?, &subtitle),
            "spsc_regimes" => concurrency::spsc_regimes_chart(&found.rows()?, &subtitle),
            "rayon_chunks" => data::rayon_chunks_chart(&found.rows()?, &subtitle),
            "sort" => data::sort_chart(&found.rows()?, &subtitle),
            "csr_vs_dense" => data::csr_vs_dense_chart(&found.rows()?, &subtitle),
            "monte_carlo_error" => data::monte_carlo_error_chart(&found.rows()?),
            "bfs_frontier_sizes" => data::bfs_frontiers_chart(&found.rows()?),
            "false_sharing_sweep" => {
                sync_figures::false_sharing_sweep_chart(&found.rows()?, &subtitle)
            }
            "channel_latency" => sync_figures::channel_latency_chart(&found.rows()?, &subtitle),
            "backpressure" => sync_figures::backpressure_chart(&found.rows()?, &subtitle),
            "amdahl" => sync_figures::amdahl_chart(&found.rows()?, &subtitle),
            other => {
                return Ok(Drawn::Kept(format!(
                    "no chart of parallelism_figures is named {other}"
                )));
            }
        }
    };
    Ok(Drawn::chart(found, svg))
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let committed = CommittedFigures::copy("parallelism_figures", SOURCES).unwrap();
        assert_eq!(committed.names().len(), 50, "{:?}", committed.names());
        let report = run(&committed.args()).unwrap();
        assert!(report.kept.is_empty(), "{:?}", report.kept);
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 50);
    }
}
