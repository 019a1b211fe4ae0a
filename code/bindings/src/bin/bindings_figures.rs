//! `cargo run --release -p bindings --bin bindings_figures` (or `cargo xtask figures`): what one
//! sample costs across each boundary, a call per sample against a call per frame, for Rust, C++
//! (`cxx`) and Python (PyO3), with a plain Python loop for reference. Writes
//! `figures/bindings_call_cost[_<machine>].{csv,svg,json}`.
//!
//! ```console
//! cargo run --release -p bindings --bin bindings_figures -- --quick --allow-dirty --allow-busy --out /tmp/bindings
//! ```

use std::process::ExitCode;

use anyhow::Context;
use bench_harness::{
    Drawn, Figure, FigureArgs, Found, LineChart, MachineInfo, Progress, Series, Sidecar,
};
use bindings::call_cost::{Crossing, Measured, Plan, PythonHarness, measure_native};
use bindings::embedded;
use pyo3::Python;

/// The parts `--only` can name.
const PARTS: [&str; 3] = ["rust", "cpp", "python"];

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about(
        "ns per sample across each language boundary: Rust, C++ (cxx), Python (PyO3); per sample vs per frame",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw(args);
    }
    args.start(&PARTS)?;
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: a debug build measures unoptimised code; use --release for the figures"
        );
    }
    let plan = if args.quick {
        Plan::quick()
    } else {
        Plan::full()
    };
    let crossings: Vec<Crossing> = Crossing::ALL
        .into_iter()
        .filter(|c| args.wants(c.part()))
        .collect();
    let machine = MachineInfo::detect().summary();
    println!("machine: {machine}");

    embedded::start();
    let (rows, python) = Python::attach(|py| -> anyhow::Result<(Vec<Measured>, String)> {
        let python = embedded::python_version(py)?;
        let harness = PythonHarness::load(py)?;
        let progress = Progress::new((plan.sizes.len() * crossings.len()) as u64, "call cost");
        let mut rows = Vec::new();
        for &n in &plan.sizes {
            for &crossing in &crossings {
                progress.step(&format!("{} n={n}", crossing.name()));
                let row = match crossing.part() {
                    "python" => harness.measure(crossing, n, &plan),
                    _ => measure_native(crossing, n, &plan),
                }
                .with_context(|| format!("measuring {} at n = {n}", crossing.name()))?;
                rows.push(row);
            }
        }
        progress.finish();
        Ok((rows, python))
    })?;
    println!("{python}");

    let suffix = args
        .machine
        .as_deref()
        .map_or_else(String::new, |m| format!("_{m}"));
    write(
        &format!("bindings_call_cost{suffix}"),
        &machine,
        &python,
        &plan,
        &rows,
    )
}

/// One crossing at one frame size of `bindings_call_cost*.csv`.
#[derive(serde::Serialize, serde::Deserialize)]
struct CostRow {
    variant: String,
    n: usize,
    reps: usize,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

/// `x` to three decimals, the digits the timing supports.
fn three_decimals(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

const TITLE: &str =
    "What one sample costs across a language boundary: a call per sample vs a call per frame";

fn write(
    name: &str,
    machine: &str,
    python: &str,
    plan: &Plan,
    rows: &[Measured],
) -> anyhow::Result<()> {
    let mut table: Vec<CostRow> = Vec::new();
    // Grouped by crossing, the order the chart's legend follows.
    for crossing in Crossing::ALL {
        for r in rows.iter().filter(|r| r.crossing == crossing) {
            let ns = |s: f64| s * 1e9;
            let s = r.per_element;
            println!(
                "{:<24} n {:>6}  {:>9.2} ns/sample  (p10 {:.2}, p90 {:.2})",
                crossing.name(),
                r.n,
                ns(s.median),
                ns(s.p10),
                ns(s.p90)
            );
            table.push(CostRow {
                variant: crossing.name().to_owned(),
                n: r.n,
                reps: r.reps,
                median_ns_per_element: three_decimals(ns(s.median)),
                p10_ns_per_element: three_decimals(ns(s.p10)),
                p90_ns_per_element: three_decimals(ns(s.p90)),
                samples: s.samples,
            });
        }
    }
    let mut sidecar = Sidecar::new(name, TITLE);
    sidecar.notes.push(python.to_owned());
    sidecar.notes.push(format!(
        "each of {} samples (after {} warm-up ones) scales a frame of n samples max(1, {} / n) times; \
         Python variants are timed in Python with time.perf_counter_ns",
        plan.samples, plan.warmup, plan.elements_per_sample
    ));
    Figure::new(sidecar)
        .rows(&table)?
        .chart(chart(machine, &table))
        .write()?;
    Ok(())
}

/// The chart of one `bindings_call_cost*` table: a line per crossing, ns per sample against the
/// frame size; `machine` is the sidecar's machine summary.
fn chart(machine: &str, table: &[CostRow]) -> String {
    let mut chart = LineChart {
        title: TITLE.to_owned(),
        subtitle: format!("median ns per sample (bars: p10 to p90); {machine}"),
        x_label: "samples per frame (n)".into(),
        y_label: "ns per sample".into(),
        log_x: true,
        log_y: true,
        series: Vec::new(),
        markers: Vec::new(),
    };
    for crossing in Crossing::ALL {
        let mut series = Series::new(crossing.label());
        for r in table.iter().filter(|r| r.variant == crossing.name()) {
            series.point_with_spread(
                r.n as f64,
                r.median_ns_per_element,
                r.p10_ns_per_element,
                r.p90_ns_per_element,
            );
        }
        if !series.points.is_empty() {
            chart.series.push(series);
        }
    }
    chart.to_svg()
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/bindings/src/bin/bindings_figures.rs"];

/// `--redraw`: every `bindings_call_cost*` chart again from its table, measuring nothing.
fn redraw(args: &FigureArgs) -> anyhow::Result<()> {
    args.redraw("bindings_figures", &SOURCES, draw)?;
    Ok(())
}

fn draw(found: &Found) -> anyhow::Result<Drawn> {
    let rows: Vec<CostRow> = found.rows()?;
    Ok(Drawn::chart(found, chart(&found.sidecar.machine, &rows)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn =
            bench_harness::check_committed("bindings_figures", &SOURCES, |_, found| draw(found))
                .unwrap();
        assert_eq!(redrawn.figures.len(), 2, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 2);
    }
}
