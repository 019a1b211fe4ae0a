//! The measurements and their files. See `main.rs` for what is measured.

use std::error::Error;
use std::process::Command;
use std::time::Duration;

use bench_harness::digits::round_to;
use bench_harness::{
    Figure, FigureArgs, LineChart, MachineInfo, Progress, Series, Sidecar, SidecarRecord, Stats,
};
use parallelism::async_bottom::memory::{
    WaitersSample, executor_waiters, rss_and_vm_kib, thread_waiters, tokio_waiters,
};
use parallelism::async_bottom::s1_future_by_hand::future_sizes;
use parallelism::async_bottom::starvation::{BlockingCall, ticker_beside_blocking_call};
use serde::{Deserialize, Serialize};

#[derive(clap::Parser, Debug)]
#[command(
    about = "Measures async from the bottom: sizes of futures, memory per waiting task against \
             per waiting thread, and a ticker starved by a blocking call"
)]
pub struct Args {
    #[command(flatten)]
    pub common: FigureArgs,
    /// Appended to every figure's name, e.g. `_16core` for a second machine's copy.
    #[arg(long, default_value = "")]
    pub suffix: String,
    /// Used by this program itself: measure one set of waiters (`tokio:N`, `executor:N` or
    /// `threads:N`) in this fresh process and print the sample on one line.
    #[arg(long, hide = true, value_name = "KIND:N")]
    pub child: Option<String>,
}

pub const PARTS: &[&str] = &["sizes", "memory", "starvation"];

pub fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    if let Some(spec) = &args.child {
        return child(spec);
    }
    if !args
        .suffix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "--suffix `{}` may hold only letters, digits, `_` and `-` (it becomes part of file names)",
            args.suffix
        )
        .into());
    }
    args.common.start(PARTS)?;
    let parts: Vec<&str> = PARTS
        .iter()
        .copied()
        .filter(|p| args.common.wants(p))
        .collect();
    let progress = Progress::new(parts.len() as u64, "async figures");
    for part in parts {
        progress.step(part);
        match part {
            "sizes" => sizes(&args.suffix)?,
            "memory" => memory(&args.suffix, args.common.quick)?,
            "starvation" => starvation(&args.suffix, args.common.quick)?,
            _ => unreachable!("parts were checked by start()"),
        }
    }
    progress.finish();
    Ok(())
}

/// The 1-minute load average (Linux), to tell a quiet run from one that shared its cores.
fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".into())
}

/// The sidecar note that records the load average the charts' subtitle shows.
const LOAD_NOTE: &str = "1-minute load average after the run: ";

fn subtitle(logical_cpus: usize, cpu: &str, load: &str) -> String {
    format!("{logical_cpus} logical CPUs ({cpu}), load average {load} when measured; release build")
}

/// The subtitle of a measured chart and the sidecar note that records its load average.
fn subtitle_and_note() -> (String, String) {
    let (m, load) = (MachineInfo::detect(), load());
    (
        subtitle(m.logical_cpus, &m.cpu_model, &load),
        format!("{LOAD_NOTE}{load}"),
    )
}

/// The subtitle a measured chart had, from its sidecar: the load average of its note (an older
/// note holds the whole subtitle), else the one the sidecar recorded as it was written.
pub fn subtitle_of(sidecar: &SidecarRecord) -> String {
    let noted = sidecar.notes.iter().find_map(|n| n.strip_prefix(LOAD_NOTE));
    match noted {
        Some(whole) if whole.contains("when measured") => whole.to_owned(),
        Some(load) => subtitle(sidecar.logical_cpus, &sidecar.cpu, load),
        None => {
            let load = sidecar
                .load_average
                .map_or_else(|| "unknown".into(), |l| format!("{:.2}", l[0]));
            subtitle(sidecar.logical_cpus, &sidecar.cpu, &load)
        }
    }
}

/// One future of `parallel_async_sizes*.csv`.
#[derive(Serialize)]
struct SizeRow {
    future: &'static str,
    bytes: usize,
}

/// One run of one kind of waiter in `parallel_async_memory*.csv`.
#[derive(Serialize, Deserialize)]
pub struct MemoryRow {
    waiter: String,
    requested: usize,
    started: usize,
    repeat: usize,
    rss_before_kib: u64,
    rss_after_kib: u64,
    vm_before_kib: u64,
    vm_after_kib: u64,
    rss_per_waiter_bytes: f64,
    vm_per_waiter_bytes: f64,
    create_s: f64,
    create_per_waiter_us: f64,
}

/// One tick of one run in `parallel_async_starvation*.csv`.
#[derive(Serialize, Deserialize)]
pub struct TickRow {
    call: String,
    run: usize,
    tick: usize,
    due_ms: f64,
    late_ms: f64,
}

/// What a `--child` process measured, as the one JSON line it prints.
#[derive(Serialize, Deserialize)]
struct ChildSample {
    requested: usize,
    started: usize,
    rss_before_kib: u64,
    vm_before_kib: u64,
    rss_after_kib: u64,
    vm_after_kib: u64,
    create_s: f64,
}

fn sizes(suffix: &str) -> Result<(), Box<dyn Error>> {
    let stem = format!("parallel_async_sizes{suffix}");
    let rows: Vec<SizeRow> = future_sizes()
        .into_iter()
        .map(|(future, bytes)| SizeRow { future, bytes })
        .collect();
    let notes =
        vec!["size_of_val of each future before its first poll (x86-64, release build)".into()];
    let sidecar = Sidecar::new(&stem, "Sizes in bytes of a few futures")
        .with_notes(notes)
        .with_files(vec![format!("{stem}.csv")]);
    Figure::new(sidecar).rows(&rows)?.write()?;
    Ok(())
}

/// Runs this program again with `--child kind:n` and reads its one-line sample.
fn sample_in_child(kind: &str, n: usize) -> Result<WaitersSample, Box<dyn Error>> {
    let out = Command::new(std::env::current_exe()?)
        .arg("--child")
        .arg(format!("{kind}:{n}"))
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "child {kind}:{n} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let s: ChildSample = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "child {kind}:{n} printed `{}`, not its sample: {e}",
            String::from_utf8_lossy(&out.stdout).trim()
        )
    })?;
    Ok(WaitersSample {
        requested: s.requested,
        started: s.started,
        before_kib: (s.rss_before_kib, s.vm_before_kib),
        after_kib: (s.rss_after_kib, s.vm_after_kib),
        create_s: s.create_s,
    })
}

fn child(spec: &str) -> Result<(), Box<dyn Error>> {
    let bad = || {
        format!(
            "--child takes KIND:N with KIND tokio, executor, threads or threads64k, got `{spec}`"
        )
    };
    let (kind, n) = spec.split_once(':').ok_or_else(bad)?;
    let n: usize = n.parse().map_err(|_| bad())?;
    if rss_and_vm_kib().is_none() {
        return Err("/proc/self/status is not readable: memory is measured on Linux only".into());
    }
    let s = match kind {
        "tokio" => tokio_waiters(n),
        "executor" => executor_waiters(n),
        "threads" => thread_waiters(n, None),
        "threads64k" => thread_waiters(n, Some(64 * 1024)),
        _ => return Err(bad().into()),
    };
    let sample = ChildSample {
        requested: s.requested,
        started: s.started,
        rss_before_kib: s.before_kib.0,
        vm_before_kib: s.before_kib.1,
        rss_after_kib: s.after_kib.0,
        vm_after_kib: s.after_kib.1,
        create_s: s.create_s,
    };
    println!("{}", serde_json::to_string(&sample)?);
    Ok(())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn memory(suffix: &str, quick: bool) -> Result<(), Box<dyn Error>> {
    let stem = format!("parallel_async_memory{suffix}");
    let (task_counts, thread_counts, repeats): (&[usize], &[usize], usize) = if quick {
        (&[1_000, 10_000], &[100, 1_000], 1)
    } else {
        (&[1_000, 10_000, 100_000], &[100, 1_000, 10_000], 3)
    };
    let kinds = [
        ("tokio", "tokio task", task_counts),
        ("executor", "course executor task", task_counts),
        ("threads", "OS thread", thread_counts),
        ("threads64k", "OS thread, 64 KiB stack", thread_counts),
    ];
    let mut rows: Vec<MemoryRow> = Vec::new();
    let mut notes = vec![format!(
        "each sample in a fresh process; VmRSS and VmSize from /proc/self/status before the first \
         spawn and once every waiter waits; {repeats} run(s) per point; tasks wait on a shared \
         tokio::sync::Notify, threads on a shared Mutex+Condvar gate; threads have the default stack (2 MiB) or 64 KiB"
    )];
    for (kind, label, counts) in kinds {
        for &n in counts {
            for repeat in 0..repeats {
                let s = sample_in_child(kind, n)?;
                if s.started < s.requested {
                    notes.push(format!(
                        "{label}: only {} of {} started (the OS refused more)",
                        s.started, s.requested
                    ));
                }
                let per_us = s.create_s * 1e6 / s.started.max(1) as f64;
                rows.push(MemoryRow {
                    waiter: label.to_owned(),
                    requested: n,
                    started: s.started,
                    repeat,
                    rss_before_kib: s.before_kib.0,
                    rss_after_kib: s.after_kib.0,
                    vm_before_kib: s.before_kib.1,
                    vm_after_kib: s.after_kib.1,
                    rss_per_waiter_bytes: round_to(s.rss_per_waiter(), 1),
                    vm_per_waiter_bytes: round_to(s.vm_per_waiter(), 1),
                    create_s: format!("{:.6e}", s.create_s).parse()?,
                    create_per_waiter_us: round_to(per_us, 4),
                });
            }
        }
    }
    let (subtitle, load_note) = subtitle_and_note();
    notes.push(load_note);
    let [rss_chart, create_chart] = memory_charts(&rows, &subtitle);
    let files: Vec<String> = ["csv", "svg"]
        .iter()
        .map(|e| format!("{stem}.{e}"))
        .chain([format!("{stem}_create.svg")])
        .collect();
    let sidecar = Sidecar::new(
        &stem,
        "Memory and start-up time per waiting task (tokio, course executor) and per waiting OS thread",
    )
    .with_notes(notes)
    .with_files(files);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(rss_chart)
        .extra(&format!("{stem}_create.svg"), create_chart)
        .write()?;
    Ok(())
}

/// The waiters' labels in the order measured, each with its rows.
fn by_waiter(rows: &[MemoryRow]) -> Vec<(&str, Vec<&MemoryRow>)> {
    let mut groups: Vec<(&str, Vec<&MemoryRow>)> = Vec::new();
    for r in rows {
        match groups.iter_mut().find(|(w, _)| *w == r.waiter) {
            Some((_, group)) => group.push(r),
            None => groups.push((&r.waiter, vec![r])),
        }
    }
    groups
}

/// The two memory charts, from the table: resident (and, for threads, reserved) bytes per
/// waiter, and microseconds to start each waiter; each point the median of its runs.
pub fn memory_charts(rows: &[MemoryRow], subtitle: &str) -> [String; 2] {
    let mut rss_chart = LineChart {
        title: "Resident memory per waiting task or thread".into(),
        subtitle: subtitle.to_owned(),
        x_label: "waiters".into(),
        y_label: "bytes per waiter (median of runs)".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let mut create_chart = LineChart {
        title: "Time to start each waiter (until all wait)".into(),
        subtitle: subtitle.to_owned(),
        x_label: "waiters".into(),
        y_label: "microseconds per waiter (median of runs)".into(),
        log_x: true,
        log_y: true,
        ..Default::default()
    };
    let mut thread_vm = Series::new("OS thread: address space");
    let mut small_vm = Series::new("OS thread, 64 KiB stack: address space");
    for (label, runs) in by_waiter(rows) {
        let mut rss_series = Series::new(&format!("{label}: resident"));
        let mut create_series = Series::new(label);
        let mut counts: Vec<usize> = runs.iter().map(|r| r.requested).collect();
        counts.dedup();
        for n in counts {
            let at_n = || runs.iter().filter(move |r| r.requested == n);
            let mut rss: Vec<f64> = at_n().map(|r| r.rss_per_waiter_bytes).collect();
            let mut vm: Vec<f64> = at_n().map(|r| r.vm_per_waiter_bytes).collect();
            let create: Vec<f64> = at_n().map(|r| r.create_per_waiter_us).collect();
            rss_series.point(n as f64, median(&mut rss).max(1.0));
            if let Some(c) = Stats::from_seconds(&create) {
                create_series.point_with_spread(n as f64, c.median, c.p10, c.p90);
            }
            match label {
                "OS thread" => thread_vm.point(n as f64, median(&mut vm)),
                "OS thread, 64 KiB stack" => small_vm.point(n as f64, median(&mut vm)),
                _ => {}
            }
        }
        rss_chart.series.push(rss_series);
        create_chart.series.push(create_series);
    }
    rss_chart.series.push(thread_vm);
    rss_chart.series.push(small_vm);
    [rss_chart.to_svg(), create_chart.to_svg()]
}

fn starvation(suffix: &str, quick: bool) -> Result<(), Box<dyn Error>> {
    let stem = format!("parallel_async_starvation{suffix}");
    let (period, ticks, block_at, block_for) = (
        Duration::from_millis(10),
        30,
        Duration::from_millis(45),
        Duration::from_millis(150),
    );
    let runs = if quick { 1 } else { 5 };
    let mut rows: Vec<TickRow> = Vec::new();
    let mut notes = vec![format!(
        "single-threaded tokio runtime; {ticks} ticks every 10 ms; at 45 ms another task calls \
         std::thread::sleep(150 ms), in the task or through spawn_blocking; {runs} run(s)"
    )];
    for (call, label) in [
        (BlockingCall::InTask, "blocking call in the task"),
        (BlockingCall::SpawnBlocking, "spawn_blocking"),
    ] {
        let mut summary = Vec::new();
        for run in 0..runs {
            let t = ticker_beside_blocking_call(call, period, ticks, block_at, block_for);
            for (i, (due, late)) in t.due.iter().zip(&t.late).enumerate() {
                let (d, l) = (due.as_secs_f64() * 1e3, late.as_secs_f64() * 1e3);
                rows.push(TickRow {
                    call: label.to_owned(),
                    run,
                    tick: i,
                    due_ms: round_to(d, 1),
                    late_ms: round_to(l, 3),
                });
            }
            summary.push(format!(
                "run {run}: max {:.1} ms late, {} of {ticks} ticks > 5 ms late",
                t.max_late().as_secs_f64() * 1e3,
                t.late_by_more_than(Duration::from_millis(5))
            ));
        }
        notes.push(format!("{label}: {}", summary.join("; ")));
    }
    let (subtitle, load_note) = subtitle_and_note();
    notes.push(load_note);
    let sidecar = Sidecar::new(
        &stem,
        "Lateness of a ticker task beside a blocking call, in the task and through spawn_blocking",
    )
    .with_notes(notes);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(starvation_chart(&rows, &subtitle))
        .write()?;
    Ok(())
}

/// How late each tick woke against when it was due (run 0's due times), the median over the
/// runs, one line per way of making the blocking call.
pub fn starvation_chart(rows: &[TickRow], subtitle: &str) -> String {
    let mut chart = LineChart {
        title: "A ticker due every 10 ms beside one 150 ms blocking call".into(),
        subtitle: subtitle.to_owned(),
        x_label: "tick due at (ms)".into(),
        y_label: "woke late by (ms, median of runs)".into(),
        ..Default::default()
    };
    let mut calls: Vec<&str> = Vec::new();
    for r in rows {
        if !calls.contains(&r.call.as_str()) {
            calls.push(&r.call);
        }
    }
    for call in calls {
        let ticks: Vec<&TickRow> = rows.iter().filter(|r| r.call == call).collect();
        let mut series = Series::new(call);
        for first in ticks.iter().filter(|r| r.run == 0) {
            let mut late: Vec<f64> = ticks
                .iter()
                .filter(|r| r.tick == first.tick)
                .map(|r| r.late_ms)
                .collect();
            series.point(first.due_ms, median(&mut late));
        }
        chart.series.push(series);
    }
    chart.to_svg()
}
