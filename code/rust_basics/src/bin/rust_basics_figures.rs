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
    BarChart, Csv, FigureArgs, LineChart, MachineInfo, Progress, Series, Sidecar, Stats, black_box,
    figures_dir,
};
use gpu_context::GpuContext;
use rust_basics::benchmarking::{compare, first_and_steady};
use rust_basics::gpu_async::{BusyJob, submit_and_wait, timed_on_gpu};
use rust_basics::iterators::{axpy_indexed, axpy_iter, dot_indexed, dot_iter, dot_lanes};

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
    let mut csv = Csv::new(&[
        "kernel",
        "variant",
        "n",
        "median_ns_per_element",
        "p10_ns_per_element",
        "p90_ns_per_element",
        "samples",
    ]);
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
            csv.row(&[
                kernel.into(),
                variant.into(),
                n.to_string(),
                format!("{:.4}", ns(stats.median)),
                format!("{:.4}", ns(stats.p10)),
                format!("{:.4}", ns(stats.p90)),
                stats.samples.to_string(),
            ]);
            series[i].point_with_spread(n as f64, ns(stats.median), ns(stats.p10), ns(stats.p90));
        }
        progress.step(&n.to_string());
    }
    progress.finish();

    let dir = figures_dir();
    csv.write(&dir.join("rust_basics_iterators.csv"))?;
    LineChart {
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
    }
    .write(&dir.join("rust_basics_iterators.svg"))?;
    let mut sidecar = Sidecar::new(
        "rust_basics_iterators",
        "dot product and axpy written as index loops and as iterator chains, ns per element",
    );
    sidecar.notes.push(load_note());
    sidecar.notes.push(format!(
        "each sample runs the kernel on {ELEMENTS_PER_SAMPLE} elements in total (repeating small n); a and b are measured alternately"
    ));
    sidecar.write(&dir.join("rust_basics_iterators.json"))?;
    println!("{}", csv.as_str());
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
    let mut csv = Csv::new(&["what", "ms", "p10_ms", "p90_ms", "samples"]);
    csv.row(&[
        "first call".into(),
        format!("{:.3}", ms(first.as_secs_f64())),
        String::new(),
        String::new(),
        "1".into(),
    ]);
    csv.row(&[
        "steady state (median)".into(),
        format!("{:.3}", ms(steady.median)),
        format!("{:.3}", ms(steady.p10)),
        format!("{:.3}", ms(steady.p90)),
        steady.samples.to_string(),
    ]);
    let dir = figures_dir();
    csv.write(&dir.join("rust_basics_warmup.csv"))?;
    BarChart {
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
    }
    .write(&dir.join("rust_basics_warmup.svg"))?;
    let mut sidecar = Sidecar::new(
        "rust_basics_warmup",
        "first call (allocates, page-faults and fills 16 MiB, then sums) vs median of 21 warm calls (sum only)",
    );
    sidecar.notes.push(load_note());
    sidecar.write(&dir.join("rust_basics_warmup.json"))?;
    println!("{}", csv.as_str());
    Ok(())
}

fn gpu_async(machine: &MachineInfo) -> Result<(), Box<dyn Error>> {
    const LEN: usize = 1 << 14;
    const SAMPLES: usize = 9;
    let ctx = GpuContext::new()?;
    let report = ctx.report();
    println!("adapter: {} ({})", report.name, report.backend);
    let rounds_list = [1u32, 10, 100, 1000];
    let mut csv = Csv::new(&[
        "rounds",
        "elements",
        "submit_returned_us",
        "work_done_us",
        "gpu_timestamps_us",
        "time_commands_wall_us",
        "timing_source",
        "samples",
    ]);
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
        csv.row(&[
            rounds.to_string(),
            LEN.to_string(),
            format!("{:.1}", us(s.median)),
            format!("{:.1}", us(d.median)),
            format!("{:.1}", us(g.median)),
            format!("{:.1}", us(w.median)),
            source,
            SAMPLES.to_string(),
        ]);
        for (series, st) in series.iter_mut().zip([s, d, g]) {
            series.point_with_spread(f64::from(rounds), us(st.median), us(st.p10), us(st.p90));
        }
        progress.step(&format!("{rounds} rounds"));
    }
    progress.finish();
    let dir = figures_dir();
    csv.write(&dir.join("rust_basics_gpu_async.csv"))?;
    LineChart {
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
    }
    .write(&dir.join("rust_basics_gpu_async.svg"))?;
    let mut sidecar = Sidecar::new(
        "rust_basics_gpu_async",
        "time until queue.submit returns, until the wait returns, and the GPU's timestamps, for a kernel of growing cost",
    );
    sidecar.adapter_json = Some(report.to_json());
    sidecar
        .notes
        .push("on a software adapter (lavapipe) the times show asynchrony, not GPU speed".into());
    sidecar.notes.push(load_note());
    sidecar.write(&dir.join("rust_basics_gpu_async.json"))?;
    println!("{}", csv.as_str());
    Ok(())
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
