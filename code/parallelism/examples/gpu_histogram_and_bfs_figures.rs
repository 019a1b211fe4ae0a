//! Two measurements module 2's GPU-histogram and graph pages quote:
//! - the GPU histogram, global atomics against workgroup-privatised bins, on uniform, skewed
//!   (nine bytes in ten equal) and constant input: `parallel_gpu_histogram[_<machine>]`;
//! - BFS on a wide random graph and on a deep grid, sequential against level-synchronous
//!   parallel with 1, 2, 4, … threads, and the frontier sizes that explain the difference:
//!   `parallel_bfs[_<machine>]` and `parallel_bfs_frontiers[_<machine>]` (CSV only).
//!
//! ```console
//! cargo run --release -p parallelism --example gpu_histogram_and_bfs_figures -- --quick --allow-dirty --allow-busy
//! ```

use bench_harness::digits::round_to;
use bench_harness::rng::SplitMix64;
use bench_harness::{
    BarChart, Drawn, Figure, FigureArgs, FigureError, Found, LineChart, RedrawReport, Series,
    Sidecar, Stats, measure, measure_durations, rows_to_csv,
};
use gpu_context::{GpuContext, TimingSource, wgpu};
use parallelism::gpu_histogram::{GpuHistogramBench, GpuHistogramKind};
use parallelism::graph::{
    Graph, bfs_parallel, bfs_sequential, frontier_sizes, grid_graph, random_graph,
};
use parallelism::histogram::histogram_sequential;
use serde::{Deserialize, Serialize};

const PARTS: [&str; 2] = ["histogram", "bfs"];

fn main() -> anyhow::Result<()> {
    let args = FigureArgs::parse_with_about(
        "GPU histogram (global vs privatised, three inputs) and sequential vs parallel BFS",
    );
    // `--redraw` measures nothing and opens no adapter: it draws the charts from the CSVs.
    if args.redraw {
        redraw(&args)?;
        return Ok(());
    }
    args.start(&PARTS)?;
    let suffix = args
        .machine
        .as_deref()
        .map_or_else(String::new, |m| format!("_{m}"));
    if args.wants("histogram") {
        histogram_figure(&args, &suffix)?;
    }
    if args.wants("bfs") {
        bfs_figure(&args, &suffix)?;
    }
    Ok(())
}

/// One kernel on one input in `parallel_gpu_histogram*.csv`.
#[derive(Serialize, Deserialize)]
struct HistogramRow {
    input: String,
    kernel: String,
    bytes: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    samples: usize,
    gb_per_s: f64,
    timing: String,
}

/// One variant at one thread count in `parallel_bfs*.csv`.
#[derive(Serialize, Deserialize)]
struct BfsRow {
    graph: String,
    variant: String,
    threads: usize,
    nodes: usize,
    levels: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    speedup_vs_sequential: f64,
}

/// One level of one graph in `parallel_bfs_frontiers*.csv`.
#[derive(Serialize)]
struct FrontierRow {
    graph: &'static str,
    level: usize,
    frontier: usize,
}

/// The three inputs: how many bytes fall on one bin decides how much the atomics contend.
fn inputs(len: usize) -> [(&'static str, Vec<u8>); 3] {
    let mut rng = SplitMix64::new(42);
    let uniform: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    let skewed: Vec<u8> = (0..len)
        .map(|_| {
            if rng.below(10) == 0 {
                rng.next_u64() as u8
            } else {
                0
            }
        })
        .collect();
    [
        ("uniform", uniform),
        ("skewed (90% one byte)", skewed),
        ("constant", vec![7; len]),
    ]
}

fn histogram_figure(args: &FigureArgs, suffix: &str) -> anyhow::Result<()> {
    let ctx = GpuContext::new()?;
    let info = ctx.adapter.get_info();
    // A software adapter does the GPU's work on the CPU: a smaller input keeps it to seconds.
    let software = info.device_type == wgpu::DeviceType::Cpu;
    let len: usize = match (args.quick, software) {
        (true, _) => 1 << 20,
        (false, true) => 16 << 20,
        (false, false) => 256 << 20,
    };
    let samples = if args.quick { 3 } else { 15 };
    let name = format!("parallel_gpu_histogram{suffix}");
    let mut rows: Vec<HistogramRow> = Vec::new();
    for (input, data) in inputs(len) {
        let bench = GpuHistogramBench::new(&ctx, &data)?;
        let expected = histogram_sequential(&data).map(|c| c as u32);
        for (kind, label) in [
            (GpuHistogramKind::GlobalAtomics, "global atomics"),
            (GpuHistogramKind::Privatised, "privatised"),
        ] {
            let mut source = TimingSource::CpuWallClock;
            let stats: Stats = measure_durations(2, samples, || {
                let run = bench.time(&ctx, kind).expect("a timed histogram");
                source = run.source;
                run.time
            });
            anyhow::ensure!(
                bench.bins(&ctx)? == expected,
                "{label} on {input}: the GPU's bins differ from the CPU's"
            );
            let gbps = len as f64 / stats.median / 1e9;
            println!(
                "{input:<22} {label:<15} median {:>9.3} ms  {gbps:>7.2} GB/s",
                stats.median * 1e3
            );
            rows.push(HistogramRow {
                input: input.to_owned(),
                kernel: label.to_owned(),
                bytes: len,
                median_ms: round_to(stats.median * 1e3, 4),
                p10_ms: round_to(stats.p10 * 1e3, 4),
                p90_ms: round_to(stats.p90 * 1e3, 4),
                samples: stats.samples,
                gb_per_s: round_to(gbps, 3),
                timing: format!("{source:?}"),
            });
        }
    }
    let adapter = format!("{} ({:?})", info.name, info.device_type);
    let mut sidecar = Sidecar::new(&name, "GPU histogram: global atomics vs privatised bins");
    sidecar.set_adapter(ctx.report());
    sidecar.notes.push(format!(
        "{len} bytes per input; each sample clears the bins and runs one dispatch, timed by \
         GPU timestamps where the adapter has them (column timing); bins checked against the CPU"
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(histogram_chart(&rows, &adapter))
        .write()?;
    Ok(())
}

/// Input bytes per second of each kernel on each input, under the adapter's name and type.
fn histogram_chart(rows: &[HistogramRow], adapter: &str) -> String {
    let (bytes, samples) = rows.first().map_or((0, 0), |r| (r.bytes, r.samples));
    let bars = rows
        .iter()
        .map(|r| {
            // Bytes per millisecond / 1e6 = GB/s; from the times, which keep more digits than
            // the rounded gb_per_s column.
            let gbps = |ms: f64| r.bytes as f64 / ms / 1e6;
            let spread = (gbps(r.p90_ms), gbps(r.p10_ms));
            (
                format!("{}, {}", r.kernel, r.input),
                gbps(r.median_ms),
                Some(spread),
            )
        })
        .collect();
    BarChart {
        title: format!(
            "GPU byte histogram of {} MiB: input bytes per second",
            bytes >> 20
        ),
        subtitle: format!("{adapter}, median of {samples} (whisker: p10 to p90)"),
        y_label: "GB/s".into(),
        log_y: true,
        bars,
    }
    .to_svg()
}

/// The BFS run's sizes, the full one's or `--quick`'s: random-graph nodes, grid side, samples.
fn bfs_plan(quick: bool) -> (usize, usize, usize) {
    if quick {
        (1 << 14, 128, 3)
    } else {
        (1 << 21, 1024, 9)
    }
}

fn bfs_figure(args: &FigureArgs, suffix: &str) -> anyhow::Result<()> {
    let (nodes, side, samples) = bfs_plan(args.quick);
    let graphs: [(&str, Graph); 2] = [
        ("random (degree 8)", random_graph(nodes, 8, 7)),
        ("grid", grid_graph(side)),
    ];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<usize> = std::iter::successors(Some(1), |t| Some(t * 2))
        .take_while(|&t| t <= cores)
        .collect();
    let name = format!("parallel_bfs{suffix}");
    let mut rows: Vec<BfsRow> = Vec::new();
    let mut frontiers: Vec<FrontierRow> = Vec::new();
    for (graph_name, graph) in &graphs {
        let reference = bfs_sequential(graph, 0);
        let sizes = frontier_sizes(&reference);
        for (level, size) in sizes.iter().enumerate() {
            frontiers.push(FrontierRow {
                graph: graph_name,
                level,
                frontier: *size,
            });
        }
        let sequential = measure(1, samples, || {
            std::hint::black_box(bfs_sequential(graph, 0));
        });
        let mut row = |variant: &'static str, t: usize, s: &Stats| {
            rows.push(BfsRow {
                graph: (*graph_name).to_owned(),
                variant: variant.to_owned(),
                threads: t,
                nodes: graph.nodes(),
                levels: sizes.len(),
                median_ms: round_to(s.median * 1e3, 4),
                p10_ms: round_to(s.p10 * 1e3, 4),
                p90_ms: round_to(s.p90 * 1e3, 4),
                speedup_vs_sequential: round_to(sequential.median / s.median, 3),
            });
        };
        row("sequential", 1, &sequential);
        for &t in &threads {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build()?;
            let got = pool.install(|| bfs_parallel(graph, 0));
            anyhow::ensure!(got == reference, "parallel BFS differs on {graph_name}");
            let s = measure(1, samples, || {
                pool.install(|| std::hint::black_box(bfs_parallel(graph, 0)));
            });
            println!(
                "{graph_name:<18} {t:>2} threads  median {:>9.3} ms  speed-up {:.2}",
                s.median * 1e3,
                sequential.median / s.median
            );
            row("parallel", t, &s);
        }
    }
    let mut sidecar = Sidecar::new(&name, "Sequential vs level-synchronous parallel BFS");
    sidecar.notes.push(format!(
        "random graph: {nodes} nodes, 8 out-edges each, seed 7; grid: {side} x {side}, edges \
         right and down; BFS from node 0; distances checked against sequential BFS"
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(bfs_chart(&rows, cores))
        .extra(
            &format!("parallel_bfs_frontiers{suffix}.csv"),
            rows_to_csv(&frontiers)?,
        )
        .write()?;
    Ok(())
}

/// Speed-up of the parallel BFS over the sequential one against the thread count, one line per
/// graph. The random graph's size tells which run's sample count the medians are of.
fn bfs_chart(rows: &[BfsRow], cores: usize) -> String {
    let random_nodes = rows.iter().find(|r| r.graph != "grid").map(|r| r.nodes);
    let samples = [false, true]
        .map(bfs_plan)
        .into_iter()
        .find(|(nodes, _, _)| Some(*nodes) == random_nodes)
        .map_or_else(|| "runs".to_owned(), |(_, _, samples)| samples.to_string());
    let mut chart = LineChart {
        title: "Level-synchronous parallel BFS: speed-up over sequential BFS".into(),
        subtitle: format!("{cores} logical CPUs, median of {samples}"),
        x_label: "threads".into(),
        y_label: "speed-up".into(),
        log_x: true,
        ..Default::default()
    };
    let mut graphs: Vec<&str> = Vec::new();
    for r in rows {
        if !graphs.contains(&r.graph.as_str()) {
            graphs.push(&r.graph);
        }
    }
    for graph in graphs {
        let of_graph = || rows.iter().filter(move |r| r.graph == graph);
        let Some(sequential) = of_graph().find(|r| r.variant == "sequential") else {
            continue;
        };
        let seq_ms = sequential.median_ms;
        let mut series = Series::new(graph);
        for r in of_graph().filter(|r| r.variant == "parallel") {
            series.point_with_spread(
                r.threads as f64,
                seq_ms / r.median_ms,
                seq_ms / r.p90_ms,
                seq_ms / r.p10_ms,
            );
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

/// `--redraw`: both charts of every run in the folder, from their CSVs and sidecars.
fn redraw(args: &FigureArgs) -> anyhow::Result<RedrawReport> {
    args.check_parts(&PARTS)?;
    Ok(
        args.redraw("gpu_histogram_and_bfs_figures", &SOURCES, |found| {
            redraw_one(args, found)
        })?,
    )
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/parallelism/examples/gpu_histogram_and_bfs_figures.rs"];

fn redraw_one(args: &FigureArgs, found: &Found) -> Result<Drawn, FigureError> {
    let figure = found.sidecar.figure.as_str();
    let part = if figure.starts_with("parallel_gpu_histogram") {
        "histogram"
    } else {
        "bfs"
    };
    if !args.wants(part) {
        return Ok(Drawn::Kept("not a part --only asked for".into()));
    }
    let svg = if part == "histogram" {
        histogram_chart(&found.rows()?, &found.adapter_label())
    } else {
        bfs_chart(&found.rows()?, found.sidecar.logical_cpus)
    };
    Ok(Drawn::chart(found, svg))
}

#[cfg(test)]
mod tests {
    use bench_harness::CommittedFigures;

    use super::*;

    #[test]
    fn redrawing_the_committed_figures_reproduces_every_svg() {
        let committed = CommittedFigures::copy("gpu_histogram_and_bfs_figures", &SOURCES).unwrap();
        assert_eq!(committed.names().len(), 4, "{:?}", committed.names());
        let report = redraw(&committed.args()).unwrap();
        assert!(report.kept.is_empty(), "{:?}", report.kept);
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 4);
    }
}
