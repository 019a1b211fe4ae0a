//! `profiling_span_cost`: nanoseconds per entered span, for each listener.

use bench_harness::{BarChart, Csv, Sidecar, figures_dir, measure_durations};
use profiling_lab::span_cost::{Listener, time_per_span};

use crate::args::Args;

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (spans, samples) = if args.figures.quick {
        (20_000, 5)
    } else {
        (200_000, 21)
    };
    let mut csv = Csv::new(&[
        "listener",
        "spans",
        "ns_median",
        "ns_p10",
        "ns_p90",
        "samples",
    ]);
    let mut chart = BarChart {
        title: "What one tracing span costs".into(),
        subtitle: format!("{spans} DEBUG spans entered and exited; median of {samples} runs"),
        y_label: "ns per span".into(),
        log_y: true,
        bars: Vec::new(),
    };
    for listener in Listener::ALL {
        let stats = measure_durations(2, samples, || time_per_span(listener, spans));
        let ns = |s: f64| s * 1e9;
        eprintln!("{:28} {:8.2} ns", listener.name(), ns(stats.median));
        csv.row(&[
            listener.name().into(),
            spans.to_string(),
            format!("{:.3}", ns(stats.median)),
            format!("{:.3}", ns(stats.p10)),
            format!("{:.3}", ns(stats.p90)),
            stats.samples.to_string(),
        ]);
        chart.bars.push((
            listener.name().into(),
            ns(stats.median).max(0.01),
            Some((ns(stats.p10).max(0.01), ns(stats.p90).max(0.01))),
        ));
    }
    let dir = figures_dir();
    csv.write(&dir.join("profiling_span_cost.csv"))?;
    chart.write(&dir.join("profiling_span_cost.svg"))?;
    let mut sidecar = Sidecar::new(
        "profiling_span_cost",
        "Time per entered-and-exited tracing span, minus the same loop without spans.",
    );
    sidecar.notes.push(
        "one thread; the subscriber is set with tracing::subscriber::with_default (thread-local)"
            .into(),
    );
    sidecar.write(&dir.join("profiling_span_cost.json"))?;
    Ok(())
}
