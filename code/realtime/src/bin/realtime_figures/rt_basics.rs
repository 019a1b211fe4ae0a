//! The real-time basics' figures: priority inversion, page faults, paced loops.

use anyhow::Context;
use bench_harness::{BarChart, Csv, LineChart, Series, Sidecar, figures_dir};
use realtime::latency::LatencySummary;
use realtime::rt_basics::RtError;
use realtime::rt_basics::s1_priority_inversion::{self as inversion, Protocol, Scene};
use realtime::rt_basics::s2_page_faults::{self as faults, Memory};
use realtime::rt_basics::s3_deadlines::{Pacing, paced_loop};
use realtime::rules::Sizes;

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

fn quantiles(s: &LatencySummary) -> [String; 6] {
    [
        s.p50_ns.to_string(),
        s.p99_ns.to_string(),
        s.p999_ns.to_string(),
        s.max_ns.to_string(),
        format!("{:.1}", s.mean_ns),
        String::new(),
    ]
}

fn not_measured(why: &str) -> [String; 6] {
    let mut cells: [String; 6] = Default::default();
    cells[5] = why.to_owned();
    cells
}

fn bar(label: &str, s: &LatencySummary) -> (String, f64, Option<(f64, f64)>) {
    (
        label.to_owned(),
        s.p50_ns as f64,
        Some((s.p50_ns as f64, s.max_ns as f64)),
    )
}

fn write_files(
    name: &str,
    csv: &Csv,
    chart_svg: impl FnOnce(&std::path::Path) -> std::io::Result<()>,
    sidecar: &Sidecar,
) -> anyhow::Result<()> {
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))
        .with_context(|| format!("writing {name}.csv into {}", dir.display()))?;
    chart_svg(&dir.join(format!("{name}.svg")))?;
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}

/// How long the high-priority thread waits for the lock, with and without inheritance.
pub fn write_inversion(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Priority inversion: how long a high-priority thread waits for a lock";
    let (hold, hog) = (sizes.sleep_period * 2, sizes.sleep_period * 20);
    let mut csv = Csv::new(&[
        "protocol", "status", "scenes", "hold_us", "hog_us", "p50_ns", "p99_ns", "p999_ns",
        "max_ns", "mean_ns", "note",
    ]);
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
        let mut cells = vec![label.to_owned()];
        match row(inversion::high_waits(scene, sizes.scenes))? {
            Row::Measured(s) => {
                println!(
                    "{label:<48} p50 {:>10} ns  max {:>10} ns",
                    s.p50_ns, s.max_ns
                );
                cells.extend(["measured".to_owned(), s.iterations.to_string()]);
                cells.extend([hold.as_micros().to_string(), hog.as_micros().to_string()]);
                cells.extend(quantiles(&s));
                chart.bars.push(bar(label, &s));
            }
            Row::NotMeasured { status, why } => {
                println!("{label:<48} {status}: {why}");
                cells.extend([status.to_owned(), "0".to_owned()]);
                cells.extend([hold.as_micros().to_string(), hog.as_micros().to_string()]);
                cells.extend(not_measured(&why));
            }
        }
        csv.row(&cells);
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "three SCHED_FIFO threads on the last core: low (10) takes the lock and works {hold:?} of CPU time, high (30) then waits for the lock, medium (20) spins {hog:?}; the wait is high's, from its lock call to getting the lock; a director thread on core 0 starts them"
    ));
    write_files(name, &csv, |p| chart.write(p), &sidecar)
}

/// Time per chunk and page faults of a loop filling a fresh, a pre-faulted and a locked buffer.
pub fn write_page_faults(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "Page faults in the loop: filling a fresh, a pre-faulted and an mlockall'd buffer";
    let chunk = 64 * 1024;
    let mut csv = Csv::new(&[
        "buffer",
        "status",
        "buffer_bytes",
        "chunk_bytes",
        "chunks",
        "minor_faults",
        "setup_us",
        "p50_ns",
        "p99_ns",
        "p999_ns",
        "max_ns",
        "mean_ns",
        "note",
    ]);
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
        let mut cells = vec![label.to_owned()];
        match row(faults::fill_loop(memory, sizes.fault_buffer, chunk))? {
            Row::Measured(r) => {
                let s = r.per_chunk;
                let faults = r.minor_faults.map_or_else(String::new, |f| f.to_string());
                println!(
                    "{label:<40} faults {faults:>7}  p50 {:>9} ns  max {:>10} ns",
                    s.p50_ns, s.max_ns
                );
                cells.extend(["measured".to_owned(), sizes.fault_buffer.to_string()]);
                cells.extend([chunk.to_string(), s.iterations.to_string(), faults]);
                cells.push(format!("{:.1}", r.setup.as_secs_f64() * 1e6));
                cells.extend(quantiles(&s));
                chart.bars.push(bar(label, &s));
            }
            Row::NotMeasured { status, why } => {
                println!("{label:<40} {status}: {why}");
                cells.extend([status.to_owned(), sizes.fault_buffer.to_string()]);
                cells.extend([
                    chunk.to_string(),
                    "0".to_owned(),
                    String::new(),
                    String::new(),
                ]);
                cells.extend(not_measured(&why));
            }
        }
        csv.row(&cells);
    }
    let mut sidecar = Sidecar::new(name, title);
    sidecar.notes.push(format!(
        "minor_faults: this thread's minor page faults during the loop (getrusage RUSAGE_THREAD); setup_us: allocation plus pre-faulting or mlockall; transparent huge pages: {}",
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .map_or_else(|_| "unknown".to_owned(), |s| s.trim().to_owned())
    ));
    write_files(name, &csv, |p| chart.write(p), &sidecar)
}

/// Lateness against the ideal schedule of a periodic loop paced three ways.
pub fn write_deadlines(name: &str, machine: &str, sizes: &Sizes) -> anyhow::Result<()> {
    let title = "A 1 ms periodic loop: sleeping a period vs sleeping to absolute deadlines";
    let period = sizes.sleep_period;
    let mut csv = Csv::new(&[
        "pacing",
        "status",
        "periods",
        "period_us",
        "final_drift_ns",
        "p50_ns",
        "p99_ns",
        "p999_ns",
        "max_ns",
        "mean_ns",
        "note",
    ]);
    let mut trace = Csv::new(&["pacing", "period", "lateness_ns"]);
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
        let mut cells = vec![label.to_owned()];
        match row(paced_loop(pacing, period, sizes.periods))? {
            Row::Measured(run) => {
                let s = run.lateness;
                println!(
                    "{label:<32} drift after {} periods {:?}  p50 {} ns",
                    sizes.periods, run.final_drift, s.p50_ns
                );
                cells.extend(["measured".to_owned(), sizes.periods.to_string()]);
                cells.extend([
                    period.as_micros().to_string(),
                    run.final_drift.as_nanos().to_string(),
                ]);
                cells.extend(quantiles(&s));
                let mut series = Series::new(label);
                for (i, late) in run.trace.iter().enumerate() {
                    trace.row(&[
                        label.to_owned(),
                        (i + 1).to_string(),
                        late.as_nanos().to_string(),
                    ]);
                    if i % step == step - 1 {
                        series.point((i + 1) as f64, (late.as_secs_f64() * 1e6).max(0.01));
                    }
                }
                chart.series.push(series);
            }
            Row::NotMeasured { status, why } => {
                println!("{label:<32} {status}: {why}");
                cells.extend([status.to_owned(), "0".to_owned()]);
                cells.extend([period.as_micros().to_string(), String::new()]);
                cells.extend(not_measured(&why));
            }
        }
        csv.row(&cells);
    }
    let trace_name = format!("{name}_trace.csv");
    trace
        .write(&figures_dir().join(&trace_name))
        .with_context(|| format!("writing {trace_name}"))?;
    let mut sidecar = Sidecar::new(name, title);
    // Listing `files` replaces the default pair, so name all three.
    sidecar.files = vec![format!("{name}.csv"), format!("{name}.svg"), trace_name];
    sidecar.notes.push(format!(
        "{} periods of {period:?} per pacing, no work in the loop; lateness of wake-up n is its time minus start + n × period; the chart plots every {step}th period, the trace CSV has all",
        sizes.periods
    ));
    write_files(name, &csv, |p| chart.write(p), &sidecar)
}
