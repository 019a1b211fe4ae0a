//! `cargo run --release -p computational_graphs --bin tensor_view_figures`: what a strided view
//! costs to walk. Sums an n×n f32 matrix three ways with the same loop: through its row-major
//! view, through its transposed view (no copy, stride n), and by copying the transpose to a
//! contiguous buffer first. Writes `tensor_views_walk.{csv,svg,json}` to the figures folder.
//!
//! Part `padded` tests why the transposed walk slows down: it walks the transpose of a matrix
//! whose rows are `n` floats apart and of one whose rows are padded to `n + 16`, and writes
//! `tensor_views_padded_<machine>.{csv,json}`. If the padding removes most of the slowdown, the
//! cost came from cache-set conflicts of a power-of-two stride, not from the cache's capacity.

use std::error::Error;
use std::process::ExitCode;

use bench_harness::digits::round_to;
use bench_harness::{
    Drawn, Figure, FigureArgs, Found, LineChart, MachineInfo, Progress, Series, Sidecar, Stats,
    black_box, rows_to_csv,
};
use computational_graphs::strided::{StridedView, sum_2d, sum_contiguous_copy};
use serde::{Deserialize, Serialize};

const PARTS: [&str; 2] = ["walk", "padded"];

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about(
        "Times summing a matrix through its row-major view, its transposed view, and a copy",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> Result<(), Box<dyn Error>> {
    if args.redraw {
        args.check_parts(&PARTS)?;
        args.redraw("tensor_view_figures", &SOURCES, |found| draw(args, found))?;
        return Ok(());
    }
    args.start(&PARTS)?;
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build measures unoptimised code; use --release for figures");
    }
    let machine = MachineInfo::detect();
    println!("machine: {}", machine.summary());
    if args.wants("walk") {
        walk(args, &machine)?;
    }
    if args.wants("padded") {
        padded(args)?;
    }
    Ok(())
}

/// Each sample sums at least this many elements (small matrices are summed repeatedly).
const ELEMENTS_PER_SAMPLE: usize = 1 << 22;

fn walk(args: &FigureArgs, machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    let (sizes, samples): (Vec<usize>, usize) = if args.quick {
        (vec![64, 256], 5)
    } else {
        (vec![64, 256, 512, 1024, 2048, 4096], 15)
    };
    let mut rows: Vec<WalkRow> = Vec::new();
    let progress = Progress::new(sizes.len() as u64, "strided walks");
    for &n in &sizes {
        // Small integers keep every sum exact, so the three results must be equal.
        let data: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
        let matrix = StridedView::row_major(&data, &[n, n])?;
        let transposed = matrix.transpose(0, 1)?;
        let expected = sum_2d(&matrix)?;
        if sum_2d(&transposed)? != expected || sum_contiguous_copy(&transposed)? != expected {
            return Err("the three sums differ: the views are wrong".into());
        }
        let reps = (ELEMENTS_PER_SAMPLE / (n * n)).max(1);
        let time = |f: &dyn Fn() -> f32| {
            bench_harness::measure(2, samples, || {
                for _ in 0..reps {
                    black_box(f());
                }
            })
        };
        let stats: [Stats; 3] = [
            time(&|| sum_2d(black_box(&matrix)).unwrap_or(f32::NAN)),
            time(&|| sum_2d(black_box(&transposed)).unwrap_or(f32::NAN)),
            time(&|| sum_contiguous_copy(black_box(&transposed)).unwrap_or(f32::NAN)),
        ];
        let per_element = (reps * n * n) as f64;
        let ns = |s: f64| s * 1e9 / per_element;
        let mib = (n * n * 4) as f64 / (1 << 20) as f64;
        for (name, st) in WALK_VARIANTS.iter().zip(&stats) {
            rows.push(WalkRow {
                variant: (*name).to_owned(),
                n,
                matrix_mib: round_to(mib, 3),
                median_ns_per_element: round_to(ns(st.median), 4),
                p10_ns_per_element: round_to(ns(st.p10), 4),
                p90_ns_per_element: round_to(ns(st.p90), 4),
                samples: st.samples,
            });
        }
        progress.step(&format!("n = {n}"));
    }
    progress.finish();
    let mut sidecar = Sidecar::new(
        "tensor_views_walk",
        "sum of an n×n f32 matrix through its row-major view, its transposed view, and a contiguous copy of the transpose; ns per element",
    );
    sidecar.notes.push(format!(
        "each sample sums at least {ELEMENTS_PER_SAMPLE} elements (small matrices repeatedly); one f32 accumulator: every addition waits for the one before"
    ));
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(walk_chart(&machine.cpu_model, &rows))
        .write()?;
    Ok(())
}

/// The walk figure's variants, in the table's and the legend's order.
const WALK_VARIANTS: [&str; 3] = [
    "row-major view",
    "transposed view (stride n)",
    "copy transpose, then sum",
];

/// The chart of `tensor_views_walk`: ns per element against n, a line per variant; `cpu` is
/// the measuring machine's CPU.
fn walk_chart(cpu: &str, rows: &[WalkRow]) -> String {
    let series = WALK_VARIANTS
        .iter()
        .map(|variant| {
            let mut line = Series::new(variant);
            for r in rows.iter().filter(|r| r.variant == *variant) {
                line.point_with_spread(
                    r.n as f64,
                    r.median_ns_per_element,
                    r.p10_ns_per_element,
                    r.p90_ns_per_element,
                );
            }
            line
        })
        .collect();
    let samples = rows.first().map_or(0, |r| r.samples);
    LineChart {
        title: "Summing an n×n f32 matrix through a view: same loop, other strides".into(),
        subtitle: format!("{cpu} — median of {samples}, whiskers p10–p90"),
        x_label: "n (matrix is n×n)".into(),
        y_label: "ns per element".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

/// Floats added to every row of the padded matrix: 64 bytes, one cache line.
const ROW_PAD: usize = 16;

fn padded(args: &FigureArgs) -> Result<(), Box<dyn Error>> {
    let (sizes, samples): (Vec<usize>, usize) = if args.quick {
        (vec![256], 5)
    } else {
        (vec![256, 512, 1024, 2048], 15)
    };
    let mut rows: Vec<PaddedRow> = Vec::new();
    let progress = Progress::new(sizes.len() as u64, "padded transposed walks");
    for &n in &sizes {
        let reps = (ELEMENTS_PER_SAMPLE / (n * n)).max(1);
        let mut sums = Vec::new();
        for row_stride in [n, n + ROW_PAD] {
            // n rows of `row_stride` floats holding the same values as the walk figure's matrix; the
            // pad columns are zero and never read.
            let data: Vec<f32> = (0..n * row_stride)
                .map(|i| {
                    let (r, c) = (i / row_stride, i % row_stride);
                    if c < n { ((r * n + c) % 7) as f32 } else { 0.0 }
                })
                .collect();
            let matrix = StridedView::from_parts(&data, 0, &[n, n], &[row_stride, 1])?;
            let transposed = matrix.transpose(0, 1)?;
            sums.push(sum_2d(&transposed)?);
            let st = bench_harness::measure(2, samples, || {
                for _ in 0..reps {
                    black_box(sum_2d(black_box(&transposed)).unwrap_or(f32::NAN));
                }
            });
            let ns = |s: f64| s * 1e9 / (reps * n * n) as f64;
            rows.push(PaddedRow {
                n,
                row_stride,
                median_ns_per_element: round_to(ns(st.median), 4),
                p10_ns_per_element: round_to(ns(st.p10), 4),
                p90_ns_per_element: round_to(ns(st.p90), 4),
                samples: st.samples,
            });
        }
        if sums[0] != sums[1] {
            return Err(
                "the padded and unpadded matrices sum differently: the views are wrong".into(),
            );
        }
        progress.step(&format!("n = {n}"));
    }
    progress.finish();
    let label = args.machine.as_deref().unwrap_or("local");
    let name = format!("tensor_views_padded_{label}");
    let mut sidecar = Sidecar::new(
        &name,
        "sum of an n×n f32 matrix through its transposed view, rows n floats apart or padded to n + 16; ns per element",
    );
    sidecar.notes.push(format!(
        "each sample sums at least {ELEMENTS_PER_SAMPLE} elements; the pad is {ROW_PAD} floats (one 64-byte line) per row"
    ));
    // A table with no chart: the sidecar names its one data file.
    sidecar.files = vec![format!("{name}.csv")];
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}

/// One variant at one size in `tensor_views_walk.csv`.
#[derive(Serialize, Deserialize)]
struct WalkRow {
    variant: String,
    n: usize,
    matrix_mib: f64,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

/// One row stride at one size in `tensor_views_padded_<machine>.csv`.
#[derive(Serialize)]
struct PaddedRow {
    n: usize,
    row_stride: usize,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/computational_graphs/src/bin/tensor_view_figures.rs"];

/// `--redraw`: the walk chart again from its table; the padded tables have no chart.
fn draw(args: &FigureArgs, found: &Found) -> Result<Drawn, bench_harness::FigureError> {
    let part = if found.name.starts_with("tensor_views_padded") {
        "padded"
    } else {
        "walk"
    };
    if !args.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    if part == "padded" {
        return Ok(Drawn::Kept("a table without a chart".into()));
    }
    let rows: Vec<WalkRow> = found.rows()?;
    Ok(Drawn::chart(found, walk_chart(&found.sidecar.cpu, &rows)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_chart() {
        let redrawn =
            bench_harness::check_committed("tensor_view_figures", &SOURCES, draw).unwrap();
        assert_eq!(redrawn.figures.len(), 3, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 1);
        assert_eq!(report.kept.len(), 2);
    }
}
