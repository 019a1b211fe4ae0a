//! `cargo run --release -p rust_basics --bin rust_basics_figures` (or `cargo xtask figures`):
//! the measurements behind module 0's "Rust for this course" and "The GPU is asynchronous"
//! pages. Writes, under `figures/`:
//!
//! - `rust_basics_iterators.{csv,svg,json}`: index loops vs iterator chains, ns per element;
//! - `rust_basics_warmup.{csv,svg,json}`: a first call vs the steady state;
//! - `rust_basics_gpu_async.{csv,svg,json}`: when `submit` returns, when the work is done, and
//!   what the GPU's timestamps say.

use std::error::Error;
use std::process::ExitCode;

use bench_harness::{
    BarChart, Drawn, Figure, FigureArgs, Found, LineChart, MachineInfo, Progress, Series, Sidecar,
    Stats, black_box, rows_to_csv,
};
use gpu_context::GpuContext;
use rust_basics::benchmarking::{compare, first_and_steady};
use rust_basics::gpu_async::{BusyJob, submit_and_wait, timed_on_gpu};
use rust_basics::iterators::{axpy_indexed, axpy_iter, dot_indexed, dot_iter, dot_lanes};
use serde::{Deserialize, Serialize};

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about("Measures the figures of module 0's Rust chapters");
    bench_harness::exit_code(run(&args))
}

fn run(figures: &FigureArgs) -> Result<(), Box<dyn Error>> {
    if figures.redraw {
        figures.check_parts(&PARTS)?;
        figures.redraw("rust_basics_figures", &SOURCES, |found| {
            draw(figures, found)
        })?;
        return Ok(());
    }
    figures.start(&PARTS)?;
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: a debug build measures the unoptimised code; use --release for the figures"
        );
    }
    let machine = MachineInfo::detect();
    println!("machine: {}", machine.summary());
    if figures.wants("iterators") {
        iterators(&machine)?;
    }
    if figures.wants("warmup") {
        warmup(&machine)?;
    }
    if figures.wants("gpu_async") {
        gpu_async(&machine)?;
    }
    Ok(())
}

/// The parts `--only` can name, in the order they run.
const PARTS: [&str; 3] = ["iterators", "warmup", "gpu_async"];

/// Elements processed per timed sample, so that small sizes are repeated enough to be timed.
/// Short samples (a fraction of a millisecond) are rarely interrupted by other programs, so on a
/// shared machine more of them measure the code rather than the scheduler.
const ELEMENTS_PER_SAMPLE: usize = 1 << 18;
const ITER_SAMPLES: usize = 51;

fn iterators(machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    let sizes: Vec<usize> = (10..=20).step_by(2).map(|p| 1usize << p).collect();
    let mut rows: Vec<IteratorRow> = Vec::new();
    let progress = Progress::new(sizes.len() as u64, "index loop vs iterator");
    for &n in &sizes {
        let x: Vec<f32> = (0..n).map(|i| (i % 100) as f32 * 0.01).collect();
        let y0: Vec<f32> = (0..n).map(|i| 1.0 - (i % 10) as f32 * 0.1).collect();
        let reps = (ELEMENTS_PER_SAMPLE / n).max(1);
        let per_element = (reps * n) as f64;

        let (dot_loop, dot_chain) = compare(
            5,
            ITER_SAMPLES,
            || {
                for _ in 0..reps {
                    black_box(dot_indexed(black_box(&x), black_box(&y0)));
                }
            },
            || {
                for _ in 0..reps {
                    black_box(dot_iter(black_box(&x), black_box(&y0)));
                }
            },
        );
        let lanes = bench_harness::measure(5, ITER_SAMPLES, || {
            for _ in 0..reps {
                black_box(dot_lanes(black_box(&x), black_box(&y0)));
            }
        });
        let (mut y1, mut y2) = (y0.clone(), y0.clone());
        let (axpy_loop, axpy_chain) = compare(
            5,
            ITER_SAMPLES,
            || {
                for _ in 0..reps {
                    axpy_indexed(black_box(1e-7), black_box(&x), black_box(&mut y1));
                }
            },
            || {
                for _ in 0..reps {
                    axpy_iter(black_box(1e-7), black_box(&x), black_box(&mut y2));
                }
            },
        );
        for ((kernel, variant), stats) in ITERATOR_LINES
            .into_iter()
            .zip([dot_loop, dot_chain, lanes, axpy_loop, axpy_chain])
        {
            let ns = |s: f64| s * 1e9 / per_element;
            rows.push(IteratorRow {
                kernel: kernel.into(),
                variant: variant.into(),
                n,
                median_ns_per_element: round(ns(stats.median), 4),
                p10_ns_per_element: round(ns(stats.p10), 4),
                p90_ns_per_element: round(ns(stats.p90), 4),
                samples: stats.samples,
            });
        }
        progress.step(&n.to_string());
    }
    progress.finish();

    let mut sidecar = Sidecar::new(
        "rust_basics_iterators",
        "dot product and axpy written as index loops and as iterator chains, ns per element",
    );
    sidecar.notes.push(load_note());
    sidecar.notes.push(format!(
        "each sample runs the kernel on {ELEMENTS_PER_SAMPLE} elements in total (repeating small n); a and b are measured alternately"
    ));
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(iterators_chart(&machine.cpu_model, &rows))
        .write()?;
    Ok(())
}

/// The iterator figure's lines, (kernel, variant), in the table's and the legend's order.
const ITERATOR_LINES: [(&str, &str); 5] = [
    ("dot", "index loop"),
    ("dot", "iterator"),
    ("dot", "8 partial sums"),
    ("axpy", "index loop"),
    ("axpy", "iterator"),
];

/// ns per element against n, a line per kernel and variant; `cpu` names the measuring CPU.
fn iterators_chart(cpu: &str, rows: &[IteratorRow]) -> String {
    let series = ITERATOR_LINES
        .iter()
        .map(|(kernel, variant)| {
            let mut line = Series::new(&format!("{kernel}, {variant}"));
            for r in rows
                .iter()
                .filter(|r| r.kernel == *kernel && r.variant == *variant)
            {
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
        title: "Index loop vs iterator chain (f32, release build)".into(),
        subtitle: format!("{cpu} — median of {samples}, whiskers p10–p90"),
        x_label: "elements n".into(),
        y_label: "ns per element".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    }
    .to_svg()
}

fn warmup(machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const LEN: usize = 4 << 20; // 4 Mi f32 = 16 MiB
    // Allocated and filled on the first call only, like a lazily built cache or pipeline.
    let mut buffer: Vec<f32> = Vec::new();
    let (first, steady) = first_and_steady(3, 21, || {
        if buffer.is_empty() {
            buffer = vec![1.0; LEN];
        }
        black_box(black_box(&buffer).iter().sum::<f32>());
    });
    let ms = |s: f64| s * 1e3;
    let rows = [
        WarmupRow {
            what: "first call".into(),
            ms: round(ms(first.as_secs_f64()), 3),
            p10_ms: None,
            p90_ms: None,
            samples: 1,
        },
        WarmupRow {
            what: "steady state (median)".into(),
            ms: round(ms(steady.median), 3),
            p10_ms: Some(round(ms(steady.p10), 3)),
            p90_ms: Some(round(ms(steady.p90), 3)),
            samples: steady.samples,
        },
    ];
    let mut sidecar = Sidecar::new(
        "rust_basics_warmup",
        "first call (allocates, page-faults and fills 16 MiB, then sums) vs median of 21 warm calls (sum only)",
    );
    sidecar.notes.push(load_note());
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(warmup_chart(&machine.cpu_model, &rows))
        .write()?;
    Ok(())
}

/// A bar for the first call and one for the steady state (with its spread).
fn warmup_chart(cpu: &str, rows: &[WarmupRow]) -> String {
    BarChart {
        title: "Summing 16 MiB of f32: the first call vs the steady state".into(),
        subtitle: format!("{cpu} — the first call also allocates and fills the buffer"),
        y_label: "ms".into(),
        log_y: false,
        bars: rows
            .iter()
            .map(|r| {
                let spread = r.p10_ms.zip(r.p90_ms);
                // "steady state (median)" in the table; the bar's whiskers say it is a median.
                let name = r.what.trim_end_matches(" (median)").to_owned();
                (name, r.ms, spread)
            })
            .collect(),
    }
    .to_svg()
}

fn gpu_async(machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const LEN: usize = 1 << 14;
    const SAMPLES: usize = 9;
    let ctx = GpuContext::new()?;
    let report = ctx.report();
    println!("adapter: {} ({})", report.name, report.backend);
    let rounds_list = [1u32, 10, 100, 1000];
    let mut rows: Vec<GpuAsyncRow> = Vec::new();
    let progress = Progress::new(rounds_list.len() as u64, "GPU asynchrony");
    for &rounds in &rounds_list {
        let job = BusyJob::new(&ctx, LEN, rounds)?;
        for _ in 0..2 {
            submit_and_wait(&ctx, &job)?;
        }
        let mut submits = Vec::new();
        let mut dones = Vec::new();
        let mut gpus = Vec::new();
        let mut walls = Vec::new();
        let mut source = String::new();
        for _ in 0..SAMPLES {
            let t = submit_and_wait(&ctx, &job)?;
            submits.push(t.submit_returned.as_secs_f64());
            dones.push(t.work_done.as_secs_f64());
            let run = timed_on_gpu(&ctx, &job)?;
            gpus.push(run.time.as_secs_f64());
            walls.push(run.wall.as_secs_f64());
            source = format!("{:?}", run.source);
        }
        let stats = |v: &[f64]| Stats::from_seconds(v).ok_or("no samples");
        let (s, d, g, w) = (
            stats(&submits)?,
            stats(&dones)?,
            stats(&gpus)?,
            stats(&walls)?,
        );
        let us = |x: f64| round(x * 1e6, 1);
        rows.push(GpuAsyncRow {
            rounds,
            elements: LEN,
            submit_returned_us: us(s.median),
            work_done_us: us(d.median),
            gpu_timestamps_us: us(g.median),
            time_commands_wall_us: us(w.median),
            timing_source: source,
            samples: SAMPLES,
            submit_returned_p10_us: Some(us(s.p10)),
            submit_returned_p90_us: Some(us(s.p90)),
            work_done_p10_us: Some(us(d.p10)),
            work_done_p90_us: Some(us(d.p90)),
            gpu_timestamps_p10_us: Some(us(g.p10)),
            gpu_timestamps_p90_us: Some(us(g.p90)),
        });
        progress.step(&format!("{rounds} rounds"));
    }
    progress.finish();
    let chart = gpu_async_chart(&report.name, &machine.cpu_model, &rows)
        .ok_or("a freshly measured table always has its spreads")?;
    let mut sidecar = Sidecar::new(
        "rust_basics_gpu_async",
        "time until queue.submit returns, until the wait returns, and the GPU's timestamps, for a kernel of growing cost",
    );
    sidecar.set_adapter(report);
    sidecar
        .notes
        .push("on a software adapter (lavapipe) the times show asynchrony, not GPU speed".into());
    sidecar.notes.push(load_note());
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    Ok(())
}

/// µs against the kernel's rounds, a line per clock with whiskers p10–p90; `None` for a table
/// measured before it kept the spreads (the chart cannot be drawn from its medians alone).
fn gpu_async_chart(adapter: &str, cpu: &str, rows: &[GpuAsyncRow]) -> Option<String> {
    type Clock = fn(&GpuAsyncRow) -> (f64, Option<f64>, Option<f64>);
    let clocks: [(&str, Clock); 3] = [
        ("submit returned (CPU clock)", |r| {
            let (p10, p90) = (r.submit_returned_p10_us, r.submit_returned_p90_us);
            (r.submit_returned_us, p10, p90)
        }),
        ("submit + wait (CPU clock)", |r| {
            (r.work_done_us, r.work_done_p10_us, r.work_done_p90_us)
        }),
        ("GPU timestamps", |r| {
            let (p10, p90) = (r.gpu_timestamps_p10_us, r.gpu_timestamps_p90_us);
            (r.gpu_timestamps_us, p10, p90)
        }),
    ];
    let mut series = Vec::new();
    for (name, clock) in clocks {
        let mut line = Series::new(name);
        for r in rows {
            let (median, p10, p90) = clock(r);
            line.point_with_spread(f64::from(r.rounds), median, p10?, p90?);
        }
        series.push(line);
    }
    let first = rows.first()?;
    Some(
        LineChart {
            title: "queue.submit returns before the GPU is done".into(),
            subtitle: format!("{adapter} on {cpu} — median of {}", first.samples),
            x_label: format!("rounds per element ({} elements)", first.elements),
            y_label: "µs".into(),
            log_x: true,
            log_y: true,
            series,
            markers: Vec::new(),
        }
        .to_svg(),
    )
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
const SOURCES: [&str; 1] = ["code/rust_basics/src/bin/rust_basics_figures.rs"];

/// `--redraw`: one figure's chart again from its table and sidecar, measuring nothing.
fn draw(figures: &FigureArgs, found: &Found) -> Result<Drawn, bench_harness::FigureError> {
    let part = found
        .name
        .strip_prefix("rust_basics_")
        .unwrap_or(&found.name);
    if !figures.wants(part) {
        return Ok(Drawn::Kept(format!("part `{part}` not in --only")));
    }
    let cpu = &found.sidecar.cpu;
    let svg = match part {
        "iterators" => iterators_chart(cpu, &found.rows()?),
        "warmup" => warmup_chart(cpu, &found.rows()?),
        _ => {
            let adapter = found.adapter_name().unwrap_or("unknown adapter");
            match gpu_async_chart(adapter, cpu, &found.rows()?) {
                Some(svg) => svg,
                None => {
                    return Ok(Drawn::Kept(
                        "measured before the table kept each clock's p10 and p90, which the \
                         chart's whiskers show; measure it again to redraw it"
                            .into(),
                    ));
                }
            }
        }
    };
    Ok(Drawn::chart(found, svg))
}

/// One row of `rust_basics_iterators.csv`.
#[derive(Serialize, Deserialize)]
struct IteratorRow {
    kernel: String,
    variant: String,
    n: usize,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

/// One row of `rust_basics_warmup.csv`: the first call has no spread.
#[derive(Serialize, Deserialize)]
struct WarmupRow {
    what: String,
    ms: f64,
    p10_ms: Option<f64>,
    p90_ms: Option<f64>,
    samples: usize,
}

/// One row of `rust_basics_gpu_async.csv`: medians, then the spreads the chart's whiskers show
/// (absent from tables measured before they were kept).
#[derive(Serialize, Deserialize)]
struct GpuAsyncRow {
    rounds: u32,
    elements: usize,
    submit_returned_us: f64,
    work_done_us: f64,
    gpu_timestamps_us: f64,
    time_commands_wall_us: f64,
    timing_source: String,
    samples: usize,
    #[serde(default)]
    submit_returned_p10_us: Option<f64>,
    #[serde(default)]
    submit_returned_p90_us: Option<f64>,
    #[serde(default)]
    work_done_p10_us: Option<f64>,
    #[serde(default)]
    work_done_p90_us: Option<f64>,
    #[serde(default)]
    gpu_timestamps_p10_us: Option<f64>,
    #[serde(default)]
    gpu_timestamps_p90_us: Option<f64>,
}

/// `x` rounded to `places` decimals: the table keeps the digits the timing can support.
fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// The load average when the measurement ran: on a shared machine, other programs compete for
/// the cores and widen the spread.
fn load_note() -> String {
    match std::fs::read_to_string("/proc/loadavg") {
        Ok(text) => format!(
            "load average (1, 5, 15 min) at the end of this measurement: {}",
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Err(_) => "load average unknown (no /proc/loadavg)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redraw_reproduces_the_committed_charts() {
        let redrawn =
            bench_harness::check_committed("rust_basics_figures", &SOURCES, draw).unwrap();
        assert_eq!(redrawn.figures.len(), 3, "{:?}", redrawn.figures);
        let report = redrawn.report;
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len(), 2);
        // The GPU timing table was measured before it kept the whiskers' spreads.
        assert_eq!(report.kept.len(), 1, "{:?}", report.kept);
    }
}
