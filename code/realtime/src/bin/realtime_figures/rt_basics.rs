//! The real-time basics' figures: priority inversion, page faults, paced loops.

use std::time::Duration;

use bench_harness::{BarChart, Figure, LineChart, Series, Sidecar, rows_to_csv};
use realtime::latency::LatencySummary;
use realtime::rt_basics::RtError;
use realtime::rt_basics::s1_priority_inversion::{self as inversion, Protocol, Scene};
use realtime::rt_basics::s2_page_faults::{self as faults, Memory};
use realtime::rt_basics::s3_deadlines::{Pacing, paced_loop};
use realtime::rules::Sizes;
use serde::{Deserialize, Serialize};

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

/// A measured row's bar: its median, with a whisker to its maximum.
fn bar(label: &str, p50_ns: Option<u64>, max_ns: Option<u64>) -> Option<bench_harness::Bar> {
    let (p50, max) = (p50_ns? as f64, max_ns? as f64);
    Some((label.to_owned(), p50, Some((p50, max))))
}

/// One row of `realtime_priority_inversion*.csv`.
#[derive(Serialize, Deserialize)]
pub struct InversionRow {
    protocol: String,
    status: String,
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
#[derive(Serialize, Deserialize)]
pub struct PageFaultRow {
    buffer: String,
    status: String,
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
#[derive(Serialize, Deserialize)]
pub struct DeadlineRow {
    pacing: String,
    status: String,
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
#[derive(Serialize, Deserialize)]
pub struct TraceRow {
    pacing: String,
    period: usize,
    lateness_ns: u128,
}

/// How long the high-priority thread waits for the lock, with and without inheritance.
pub fn write_inversion(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Priority inversion: how long a high-priority thread waits for a lock";
    let (hold, hog) = (sizes.sleep_period * 2, sizes.sleep_period * 20);
    let mut rows: Vec<InversionRow> = Vec::new();
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
                ("measured", s.iterations, Quantiles::of(&s))
            }
            Row::NotMeasured { status, why } => {
                println!("{label:<48} {status}: {why}");
                (status, 0, Quantiles::not_measured(&why))
            }
        };
        rows.push(InversionRow {
            protocol: label.to_owned(),
            status: status.to_owned(),
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
        .chart(inversion_chart(title, machine, sizes.scenes, &rows))
        .write()?;
    Ok(())
}

/// High's median wait for the lock (whisker: to max) under each protocol that was measured.
/// `scenes` is the number each protocol runs (the table's `scenes` of a measured row).
pub fn inversion_chart(title: &str, machine: &str, scenes: u64, rows: &[InversionRow]) -> String {
    let micros = |us: u128| Duration::from_micros(u64::try_from(us).unwrap_or(u64::MAX));
    let (hold, hog) = rows.first().map_or((Duration::ZERO, Duration::ZERO), |r| {
        (micros(r.hold_us), micros(r.hog_us))
    });
    BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "median wait over {scenes} scenes (whisker: to max); low holds the lock for {hold:?} of CPU, medium spins {hog:?}; {machine}"
        ),
        y_label: "high's wait for the lock (ns)".into(),
        log_y: true,
        bars: rows
            .iter()
            .filter_map(|r| bar(&r.protocol, r.p50_ns, r.max_ns))
            .collect(),
    }
    .to_svg()
}

/// The scenes each protocol ran, from the table; `None` when no protocol was measured (a refused
/// row has 0 scenes, and the table does not say how many were planned).
pub fn inversion_scenes(rows: &[InversionRow]) -> Option<u64> {
    rows.iter().map(|r| r.scenes).max().filter(|&s| s > 0)
}

/// Time per chunk and page faults of a loop filling a fresh, a pre-faulted and a locked buffer.
pub fn write_page_faults(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Page faults in the loop: filling a fresh, a pre-faulted and an mlockall'd buffer";
    let chunk = 64 * 1024;
    let mut rows: Vec<PageFaultRow> = Vec::new();
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
            buffer: label.to_owned(),
            status: status.to_owned(),
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
        .chart(page_faults_chart(title, machine, &rows))
        .write()?;
    Ok(())
}

/// The median time to fill one chunk (whisker: to max) of each buffer that was measured.
pub fn page_faults_chart(title: &str, machine: &str, rows: &[PageFaultRow]) -> String {
    let buffer_bytes = rows.first().map_or(0, |r| r.buffer_bytes);
    BarChart {
        title: title.to_owned(),
        subtitle: format!(
            "median time to fill one 64 KiB chunk of a {} MiB buffer (whisker: to max); {machine}",
            buffer_bytes >> 20
        ),
        y_label: "time per 64 KiB chunk (ns)".into(),
        log_y: true,
        bars: rows
            .iter()
            .filter_map(|r| bar(&r.buffer, r.p50_ns, r.max_ns))
            .collect(),
    }
    .to_svg()
}

/// Lateness against the ideal schedule of a periodic loop paced three ways.
pub fn write_deadlines(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "A 1 ms periodic loop: sleeping a period vs sleeping to absolute deadlines";
    let period = sizes.sleep_period;
    let mut rows: Vec<DeadlineRow> = Vec::new();
    let mut trace: Vec<TraceRow> = Vec::new();
    let step = chart_step(sizes.periods);
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
                    for (i, late) in run.trace.iter().enumerate() {
                        trace.push(TraceRow {
                            pacing: label.to_owned(),
                            period: i + 1,
                            lateness_ns: late.as_nanos(),
                        });
                    }
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
            pacing: label.to_owned(),
            status: status.to_owned(),
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
        .chart(deadlines_chart(
            title,
            machine,
            deadline_periods(&rows),
            &trace,
        ))
        .extra(&trace_name, rows_to_csv(&trace)?)
        .write()?;
    Ok(())
}

/// The chart plots every `step`th period: about 200 points per line.
fn chart_step(periods: u32) -> usize {
    (periods / 200).max(1) as usize
}

/// Lateness of every `step`th wake-up against the ideal schedule, one line per pacing measured
/// (`trace` is the `_trace.csv` table, each pacing's periods in order).
pub fn deadlines_chart(title: &str, machine: &str, periods: u32, trace: &[TraceRow]) -> String {
    let step = chart_step(periods);
    let mut chart = LineChart {
        title: title.to_owned(),
        subtitle: format!("how far behind the ideal schedule each wake-up is; {machine}"),
        x_label: "period".into(),
        y_label: "lateness against start + n × period (µs)".into(),
        log_y: true,
        ..LineChart::default()
    };
    let mut pacings: Vec<&str> = Vec::new();
    for t in trace {
        if !pacings.contains(&t.pacing.as_str()) {
            pacings.push(&t.pacing);
        }
    }
    for pacing in pacings {
        let mut series = Series::new(pacing);
        for (i, t) in trace.iter().filter(|t| t.pacing == pacing).enumerate() {
            if i % step == step - 1 {
                let late = Duration::from_nanos(u64::try_from(t.lateness_ns).unwrap_or(u64::MAX));
                series.point(t.period as f64, (late.as_secs_f64() * 1e6).max(0.01));
            }
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

/// The number of periods each pacing ran (0 for one that was not measured), from the table.
pub fn deadline_periods(rows: &[DeadlineRow]) -> u32 {
    rows.iter().map(|r| r.periods).max().unwrap_or(0)
}
