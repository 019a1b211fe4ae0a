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
    BarChart, Figure, FigureArgs, LineChart, MachineInfo, Progress, Series, Sidecar, Stats,
    black_box, rows_to_csv,
};
use gpu_context::GpuContext;
use rust_basics::benchmarking::{compare, first_and_steady};
use rust_basics::gpu_async::{BusyJob, submit_and_wait, timed_on_gpu};
use rust_basics::iterators::{axpy_indexed, axpy_iter, dot_indexed, dot_iter, dot_lanes};
use serde::Serialize;

fn main() -> ExitCode {
    let args = FigureArgs::parse_with_about("Measures the figures of module 0's Rust chapters");
    bench_harness::exit_code(run(&args))
}

fn run(figures: &FigureArgs) -> Result<(), Box<dyn Error>> {
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
    let mut series: Vec<Series> = [
        "dot, index loop",
        "dot, iterator",
        "dot, 8 partial sums",
        "axpy, index loop",
        "axpy, iterator",
    ]
    .iter()
    .map(|name| Series::new(name))
    .collect();
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
        for (i, (kernel, variant, stats)) in [
            ("dot", "index loop", dot_loop),
            ("dot", "iterator", dot_chain),
            ("dot", "8 partial sums", lanes),
            ("axpy", "index loop", axpy_loop),
            ("axpy", "iterator", axpy_chain),
        ]
        .into_iter()
        .enumerate()
        {
            let ns = |s: f64| s * 1e9 / per_element;
            rows.push(IteratorRow {
                kernel,
                variant,
                n,
                median_ns_per_element: round(ns(stats.median), 4),
                p10_ns_per_element: round(ns(stats.p10), 4),
                p90_ns_per_element: round(ns(stats.p90), 4),
                samples: stats.samples,
            });
            series[i].point_with_spread(n as f64, ns(stats.median), ns(stats.p10), ns(stats.p90));
        }
        progress.step(&n.to_string());
    }
    progress.finish();

    let chart = LineChart {
        title: "Index loop vs iterator chain (f32, release build)".into(),
        subtitle: format!(
            "{} — median of {ITER_SAMPLES}, whiskers p10–p90",
            machine.cpu_model
        ),
        x_label: "elements n".into(),
        y_label: "ns per element".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    };
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
        .chart(chart.to_svg())
        .write()?;
    Ok(())
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
            what: "first call",
            ms: round(ms(first.as_secs_f64()), 3),
            p10_ms: None,
            p90_ms: None,
            samples: 1,
        },
        WarmupRow {
            what: "steady state (median)",
            ms: round(ms(steady.median), 3),
            p10_ms: Some(round(ms(steady.p10), 3)),
            p90_ms: Some(round(ms(steady.p90), 3)),
            samples: steady.samples,
        },
    ];
    let chart = BarChart {
        title: "Summing 16 MiB of f32: the first call vs the steady state".into(),
        subtitle: format!(
            "{} — the first call also allocates and fills the buffer",
            machine.cpu_model
        ),
        y_label: "ms".into(),
        log_y: false,
        bars: vec![
            ("first call".into(), ms(first.as_secs_f64()), None),
            (
                "steady state".into(),
                ms(steady.median),
                Some((ms(steady.p10), ms(steady.p90))),
            ),
        ],
    };
    let mut sidecar = Sidecar::new(
        "rust_basics_warmup",
        "first call (allocates, page-faults and fills 16 MiB, then sums) vs median of 21 warm calls (sum only)",
    );
    sidecar.notes.push(load_note());
    println!("{}", rows_to_csv(&rows)?);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

fn gpu_async(machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const LEN: usize = 1 << 14;
    const SAMPLES: usize = 9;
    let ctx = GpuContext::new()?;
    let report = ctx.report();
    println!("adapter: {} ({})", report.name, report.backend);
    let rounds_list = [1u32, 10, 100, 1000];
    let mut rows: Vec<GpuAsyncRow> = Vec::new();
    let names = [
        "submit returned (CPU clock)",
        "submit + wait (CPU clock)",
        "GPU timestamps",
    ];
    let mut series: Vec<Series> = names.iter().map(|n| Series::new(n)).collect();
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
        let us = |x: f64| x * 1e6;
        rows.push(GpuAsyncRow {
            rounds,
            elements: LEN,
            submit_returned_us: round(us(s.median), 1),
            work_done_us: round(us(d.median), 1),
            gpu_timestamps_us: round(us(g.median), 1),
            time_commands_wall_us: round(us(w.median), 1),
            timing_source: source,
            samples: SAMPLES,
        });
        for (series, st) in series.iter_mut().zip([s, d, g]) {
            series.point_with_spread(f64::from(rounds), us(st.median), us(st.p10), us(st.p90));
        }
        progress.step(&format!("{rounds} rounds"));
    }
    progress.finish();
    let chart = LineChart {
        title: "queue.submit returns before the GPU is done".into(),
        subtitle: format!(
            "{} on {} — median of {SAMPLES}",
            report.name, machine.cpu_model
        ),
        x_label: format!("rounds per element ({LEN} elements)"),
        y_label: "µs".into(),
        log_x: true,
        log_y: true,
        series,
        markers: Vec::new(),
    };
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
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart.to_svg())
        .write()?;
    Ok(())
}

/// One row of `rust_basics_iterators.csv`.
#[derive(Serialize)]
struct IteratorRow {
    kernel: &'static str,
    variant: &'static str,
    n: usize,
    median_ns_per_element: f64,
    p10_ns_per_element: f64,
    p90_ns_per_element: f64,
    samples: usize,
}

/// One row of `rust_basics_warmup.csv`: the first call has no spread.
#[derive(Serialize)]
struct WarmupRow {
    what: &'static str,
    ms: f64,
    p10_ms: Option<f64>,
    p90_ms: Option<f64>,
    samples: usize,
}

/// One row of `rust_basics_gpu_async.csv`.
#[derive(Serialize)]
struct GpuAsyncRow {
    rounds: u32,
    elements: usize,
    submit_returned_us: f64,
    work_done_us: f64,
    gpu_timestamps_us: f64,
    time_commands_wall_us: f64,
    timing_source: String,
    samples: usize,
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
