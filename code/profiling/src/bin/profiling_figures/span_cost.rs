//! `profiling_span_cost`: nanoseconds per entered span, for each listener.

use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar, measure_durations};
use profiling_lab::span_cost::{Listener, time_per_span};
use serde::{Deserialize, Serialize};

use crate::args::{Args, round_to};

#[derive(Serialize, Deserialize)]
struct Row {
    listener: String,
    spans: u64,
    ns_median: f64,
    ns_p10: f64,
    ns_p90: f64,
    samples: usize,
}

/// One bar per listener, on a log axis (a listener that costs nothing still shows).
fn chart(rows: &[Row]) -> String {
    let (spans, samples) = rows.first().map_or((0, 0), |r| (r.spans, r.samples));
    BarChart {
        title: "What one tracing span costs".into(),
        subtitle: format!("{spans} DEBUG spans entered and exited; median of {samples} runs"),
        y_label: "ns per span".into(),
        log_y: true,
        bars: rows
            .iter()
            .map(|r| {
                (
                    r.listener.clone(),
                    r.ns_median.max(0.01),
                    Some((r.ns_p10.max(0.01), r.ns_p90.max(0.01))),
                )
            })
            .collect(),
    }
    .to_svg()
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (spans, samples) = if args.figures.quick {
        (20_000, 5)
    } else {
        (200_000, 21)
    };
    let mut rows = Vec::new();
    for listener in Listener::ALL {
        let stats = measure_durations(2, samples, || time_per_span(listener, spans));
        let ns = |s: f64| round_to(s * 1e9, 3);
        eprintln!("{:28} {:8.2} ns", listener.name(), ns(stats.median));
        rows.push(Row {
            listener: listener.name().into(),
            spans,
            ns_median: ns(stats.median),
            ns_p10: ns(stats.p10),
            ns_p90: ns(stats.p90),
            samples: stats.samples,
        });
    }
    let sidecar = Sidecar::new(
        "profiling_span_cost",
        "Time per entered-and-exited tracing span, minus the same loop without spans.",
    )
    .with_notes([
        "one thread; the subscriber is set with tracing::subscriber::with_default (thread-local)"
            .into(),
    ]);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows))
        .write()?;
    Ok(())
}

/// `--redraw`: the chart from the table.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    Ok(Drawn::chart(found, chart(&found.rows()?)))
}
