//! The real-time basics' figures: priority inversion, page faults, paced loops.

use bench_harness::{BarChart, Figure, LineChart, Series, Sidecar, rows_to_csv};
use realtime::latency::LatencySummary;
use realtime::rt_basics::RtError;
use realtime::rt_basics::s1_priority_inversion::{self as inversion, Protocol, Scene};
use realtime::rt_basics::s2_page_faults::{self as faults, Memory};
use realtime::rt_basics::s3_deadlines::{Pacing, paced_loop};
use realtime::rules::Sizes;
use serde::Serialize;

/// A result, or why this machine could not give one: a missing privilege ("refused"), a
/// missing feature ("unavailable") or a failed system call ("error", e.g. a core that a
/// container's cpuset does not allow). The row says which, and the other rows still run.
enum Row<T> {
    Measured(T),
    NotMeasured { status: &'static str, why: String },
}

fn row<T>(result: Result<T, RtError>) -> anyhow::Result<Row<T>> {
    match result {
        Ok(t) => Ok(Row::Measured(t)),
        Err(e) if e.is_refusal() => Ok(Row::NotMeasured {
            status: "refused",
            why: e.to_string(),
        }),
        Err(e @ (RtError::Unsupported { .. } | RtError::TooFewCpus { .. })) => {
            Ok(Row::NotMeasured {
                status: "unavailable",
                why: e.to_string(),
            })
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(Row::NotMeasured {
                status: "error",
                why: e.to_string(),
            })
        }
    }
}

/// The latency columns every table here ends with: empty, and a note saying why, when the row
/// was not measured.
#[derive(Default)]
struct Quantiles {
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    p999_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

impl Quantiles {
    fn of(s: &LatencySummary) -> Self {
        Self {
            p50_ns: Some(s.p50_ns),
            p99_ns: Some(s.p99_ns),
            p999_ns: Some(s.p999_ns),
            max_ns: Some(s.max_ns),
            mean_ns: Some(one_decimal(s.mean_ns)),
            note: String::new(),
        }
    }

    fn not_measured(why: &str) -> Self {
        Self {
            note: why.to_owned(),
            ..Self::default()
        }
    }
}

fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn bar(label: &str, s: &LatencySummary) -> (String, f64, Option<(f64, f64)>) {
    (
        label.to_owned(),
        s.p50_ns as f64,
        Some((s.p50_ns as f64, s.max_ns as f64)),
    )
}

/// One row of `realtime_priority_inversion*.csv`.
#[derive(Serialize)]
struct InversionRow {
    protocol: &'static str,
    status: &'static str,
    scenes: u64,
    hold_us: u128,
    hog_us: u128,
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    p999_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

/// One row of `realtime_page_faults*.csv`.
#[derive(Serialize)]
struct PageFaultRow {
    buffer: &'static str,
    status: &'static str,
    buffer_bytes: usize,
    chunk_bytes: usize,
    chunks: u64,
    minor_faults: Option<u64>,
    setup_us: Option<f64>,
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    p999_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

/// One row of `realtime_deadlines*.csv`.
#[derive(Serialize)]
struct DeadlineRow {
    pacing: &'static str,
    status: &'static str,
    periods: u32,
    period_us: u128,
    final_drift_ns: Option<u128>,
    p50_ns: Option<u64>,
    p99_ns: Option<u64>,
    p999_ns: Option<u64>,
    max_ns: Option<u64>,
    mean_ns: Option<f64>,
    note: String,
}

/// One wake-up of `realtime_deadlines*_trace.csv`.
#[derive(Serialize)]
struct TraceRow {
    pacing: &'static str,
    period: usize,
    lateness_ns: u128,
}

/// How long the high-priority thread waits for the lock, with and without inheritance.
pub fn write_inversion(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Priority inversion: how long a high-priority thread waits for a lock";
    let (hold, hog) = (sizes.sleep_period * 2, sizes.sleep_period * 20);
    let mut rows: Vec<InversionRow> = Vec::new();
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "median wait over {} scenes (whisker: to max); low holds the lock for {hold:?} of CPU, medium spins {hog:?}; {machine}",
            sizes.scenes
        ),
        y_label: "high's wait for the lock (ns)".into(),
        log_y: true,
        bars: Vec::new(),
    };
    for protocol in [Protocol::None, Protocol::Inherit] {
        let label = protocol.label();
        let scene = Scene {
            protocol,
            hold,
            hog,
        };
        let (status, scenes, q) = match row(inversion::high_waits(scene, sizes.scenes))? {
            Row::Measured(s) => {
                println!(
                    "{label:<48} p50 {:>10} ns  max {:>10} ns",
                    s.p50_ns, s.max_ns
                );
                chart.bars.push(bar(label, &s));
                ("measured", s.iterations, Quantiles::of(&s))
            }
            Row::NotMeasured { status, why } => {
                println!("{label:<48} {status}: {why}");
                (status, 0, Quantiles::not_measured(&why))
            }
        };
        rows.push(InversionRow {
            protocol: label,
            status,
            scenes,
            hold_us: hold.as_micros(),
            hog_us: hog.as_micros(),
            p50_ns: q.p50_ns,
            p99_ns: q.p99_ns,
            p999_ns: q.p999_ns,
            max_ns: q.max_ns,
            mean_ns: q.mean_ns,
            note: q.note,
        });
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "three SCHED_FIFO threads on the last core: low (10) takes the lock and works {hold:?} of CPU time, high (30) then waits for the lock, medium (20) spins {hog:?}; the wait is high's, from its lock call to getting the lock; a director thread on core 0 starts them"
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// Time per chunk and page faults of a loop filling a fresh, a pre-faulted and a locked buffer.
pub fn write_page_faults(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Page faults in the loop: filling a fresh, a pre-faulted and an mlockall'd buffer";
    let chunk = 64 * 1024;
    let mut rows: Vec<PageFaultRow> = Vec::new();
    let mut chart = BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "median time to fill one 64 KiB chunk of a {} MiB buffer (whisker: to max); {machine}",
            sizes.fault_buffer >> 20
        ),
        y_label: "time per 64 KiB chunk (ns)".into(),
        log_y: true,
        bars: Vec::new(),
    };
    for memory in [Memory::Fresh, Memory::Prefaulted, Memory::Locked] {
        let label = memory.label();
        let (status, chunks, minor_faults, setup_us, q) =
            match row(faults::fill_loop(memory, sizes.fault_buffer, chunk))? {
                Row::Measured(r) => {
                    let s = r.per_chunk;
                    let faults = r.minor_faults.map_or_else(String::new, |f| f.to_string());
                    println!(
                        "{label:<40} faults {faults:>7}  p50 {:>9} ns  max {:>10} ns",
                        s.p50_ns, s.max_ns
                    );
                    chart.bars.push(bar(label, &s));
                    (
                        "measured",
                        s.iterations,
                        r.minor_faults,
                        Some(one_decimal(r.setup.as_secs_f64() * 1e6)),
                        Quantiles::of(&s),
                    )
                }
                Row::NotMeasured { status, why } => {
                    println!("{label:<40} {status}: {why}");
                    (status, 0, None, None, Quantiles::not_measured(&why))
                }
            };
        rows.push(PageFaultRow {
            buffer: label,
            status,
            buffer_bytes: sizes.fault_buffer,
            chunk_bytes: chunk,
            chunks,
            minor_faults,
            setup_us,
            p50_ns: q.p50_ns,
            p99_ns: q.p99_ns,
            p999_ns: q.p999_ns,
            max_ns: q.max_ns,
            mean_ns: q.mean_ns,
            note: q.note,
        });
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "minor_faults: this thread's minor page faults during the loop (getrusage RUSAGE_THREAD); setup_us: allocation plus pre-faulting or mlockall; transparent huge pages: {}",
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .map_or_else(|_| "unknown".to_owned(), |s| s.trim().to_owned())
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// Lateness against the ideal schedule of a periodic loop paced three ways.
pub fn write_deadlines(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "A 1 ms periodic loop: sleeping a period vs sleeping to absolute deadlines";
    let period = sizes.sleep_period;
    let mut rows: Vec<DeadlineRow> = Vec::new();
    let mut trace: Vec<TraceRow> = Vec::new();
    let mut chart = LineChart {
        title: title.to_owned(),
        subtitle: format!("how far behind the ideal schedule each wake-up is; {machine}"),
        x_label: "period".into(),
        y_label: "lateness against start + n × period (µs)".into(),
        log_y: true,
        ..LineChart::default()
    };
    let step = (sizes.periods / 200).max(1) as usize;
    for pacing in Pacing::ALL {
        let label = pacing.label();
        let (status, periods, final_drift_ns, q) =
            match row(paced_loop(pacing, period, sizes.periods))? {
                Row::Measured(run) => {
                    let s = run.lateness;
                    println!(
                        "{label:<32} drift after {} periods {:?}  p50 {} ns",
                        sizes.periods, run.final_drift, s.p50_ns
                    );
                    let mut series = Series::new(label);
                    for (i, late) in run.trace.iter().enumerate() {
                        trace.push(TraceRow {
                            pacing: label,
                            period: i + 1,
                            lateness_ns: late.as_nanos(),
                        });
                        if i % step == step - 1 {
                            series.point((i + 1) as f64, (late.as_secs_f64() * 1e6).max(0.01));
                        }
                    }
                    chart.series.push(series);
                    (
                        "measured",
                        sizes.periods,
                        Some(run.final_drift.as_nanos()),
                        Quantiles::of(&s),
                    )
                }
                Row::NotMeasured { status, why } => {
                    println!("{label:<32} {status}: {why}");
                    (status, 0, None, Quantiles::not_measured(&why))
                }
            };
        rows.push(DeadlineRow {
            pacing: label,
            status,
            periods,
            period_us: period.as_micros(),
            final_drift_ns,
            p50_ns: q.p50_ns,
            p99_ns: q.p99_ns,
            p999_ns: q.p999_ns,
            max_ns: q.max_ns,
            mean_ns: q.mean_ns,
            note: q.note,
        });
    }
    let trace_name = format!("{name}_trace.csv");
    let mut sidecar = Sidecar::new(name, title);
    // Listing `files` replaces the default pair, so name all three.
    sidecar.files = vec![
        format!("{name}.csv"),
        format!("{name}.svg"),
        trace_name.clone(),
    ];
    sidecar.notes.push(format!(
        "{} periods of {period:?} per pacing, no work in the loop; lateness of wake-up n is its time minus start + n × period; the chart plots every {step}th period, the trace CSV has all",
        sizes.periods
    ));
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .extra(&trace_name, rows_to_csv(&trace)?)
        .write()?;
    Ok(())
}
