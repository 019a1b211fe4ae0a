//! Figures for the threads, locks, channels and false-sharing pages: sweeps over distance,
//! thread count and critical-section length, channel throughput and latency, queue length over
//! time, spawn cost and a measured Amdahl curve.

use std::thread;
use std::time::{Duration, Instant};

use bench_harness::{LineChart, Series, Stats, black_box};
use crossbeam_utils::Backoff;
use serde::{Deserialize, Serialize};

use super::output::{BarSpec, BarValue, Figure, TimingRow, interleaved, rate_bars, row, sig7};

/// How big each sweep is: the full run, or a smoke test (`--quick`).
#[derive(Clone, Copy)]
pub struct Size {
    pub quick: bool,
}

impl Size {
    fn pick<T>(self, full: T, quick: T) -> T {
        if self.quick { quick } else { full }
    }
}

fn line_chart(title: &str, subtitle: &str, x_label: &str, y_label: &str) -> LineChart {
    LineChart {
        title: title.to_owned(),
        subtitle: subtitle.to_owned(),
        x_label: x_label.to_owned(),
        y_label: y_label.to_owned(),
        ..Default::default()
    }
}

/// The variants of timing rows in the order they first appear, each with its rows.
fn by_variant(rows: &[TimingRow]) -> Vec<(&str, Vec<&TimingRow>)> {
    let mut groups: Vec<(&str, Vec<&TimingRow>)> = Vec::new();
    for r in rows {
        match groups.iter_mut().find(|(v, _)| *v == r.variant) {
            Some((_, group)) => group.push(r),
            None => groups.push((&r.variant, vec![r])),
        }
    }
    groups
}

fn cpu_list(path: &str) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_owned())
}

/// The SMT sibling lists of every logical CPU, as Linux reports them (`0,8` means CPUs 0 and 8
/// share one core), and two CPUs on different cores plus, if any, two SMT siblings.
pub fn topology() -> (String, Option<[usize; 2]>, Option<[usize; 2]>) {
    let cpus = crate::threads::worker_count();
    let lists: Vec<String> = (0..cpus)
        .map(|c| {
            cpu_list(&format!(
                "/sys/devices/system/cpu/cpu{c}/topology/thread_siblings_list"
            ))
            .unwrap_or_else(|| "?".into())
        })
        .collect();
    let first = bench_harness::cpu_list(lists.first().map_or("", String::as_str));
    let other_core = (1..cpus).find(|c| !first.contains(c)).map(|c| [0, c]);
    let sibling = first.iter().copied().find(|&c| c != 0).map(|c| [0, c]);
    let mut distinct: Vec<&String> = lists.iter().collect();
    distinct.dedup();
    let summary = format!(
        "SMT sibling lists (/sys/devices/system/cpu/cpu*/topology/thread_siblings_list), cpu0..cpu{}: {}",
        cpus.saturating_sub(1),
        lists.join(" | ")
    );
    (summary, other_core, sibling)
}

// ANCHOR: sweep
pub fn false_sharing_sweep(size: Size) -> Vec<Figure> {
    use crate::false_sharing::hammer_at_distance;
    let n: u64 = size.pick(2_000_000, 50_000);
    let step = size.pick(8, 64);
    let samples = size.pick(5, 2);
    let (topo, other_core, sibling) = topology();
    let mut placements = vec![("unpinned", None)];
    if let Some(c) = other_core {
        placements.push(("pinned to two cores", Some(c)));
    }
    if let Some(c) = sibling {
        placements.push(("pinned to SMT siblings", Some(c)));
    }
    let distances: Vec<usize> = (0..=256).step_by(step).collect();
    let mut csv = Vec::new();
    for (label, cpus) in &placements {
        // Every distance once per round, so that each sees the same background over time.
        let mut times = vec![Vec::new(); distances.len()];
        for round in 0..=samples {
            for (i, &d) in distances.iter().enumerate() {
                let t = hammer_at_distance(d, n, *cpus).expect("multiples of 8 up to 256");
                if round > 0 {
                    times[i].push(t.as_secs_f64());
                }
            }
        }
        for (&d, t) in distances.iter().zip(&times) {
            let s = Stats::from_seconds(t).expect("samples >= 1");
            row(&mut csv, label, d as f64, &s, s.median / n as f64 * 1e9);
        }
    }
    // ANCHOR_END: sweep
    vec![Figure::new(
        "false_sharing_sweep",
        "Two threads each increment an atomic counter; the counters are 0 (the same counter) to 256 bytes apart",
        csv,
        false_sharing_sweep_chart,
        vec![
            format!("{n} Relaxed fetch_add per thread; {samples} samples per point after 1 warm-up round, distances interleaved; rate column = ns per increment (median)"),
            "the first counter starts a 4096-byte-aligned block, so distance d puts the second counter on line d/64".into(),
            format!("placements: {}", placements.iter().map(|(l, c)| format!("{l} {c:?}")).collect::<Vec<_>>().join(", ")),
            topo,
        ],
    )]
}

/// Nanoseconds per increment against the distance, one line per placement (the rate column is
/// the median in ns; p10 and p90 are scaled the same way).
pub fn false_sharing_sweep_chart(rows: &[TimingRow], subtitle: &str) -> String {
    let mut chart = line_chart(
        "False sharing: ns per increment vs distance between two counters",
        subtitle,
        "distance between the two counters (bytes)",
        "ns per increment (each thread)",
    );
    chart.markers = vec![(64.0, "64 B line".into()), (128.0, "128 B".into())];
    for (label, rows) in by_variant(rows) {
        let mut series = Series::new(label);
        for r in rows {
            let ns = r.rate / r.median_s;
            series.point_with_spread(r.param, r.rate, r.p10_s * ns, r.p90_s * ns);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

// ANCHOR: locks_sweep
pub fn locks(size: Size) -> Vec<Figure> {
    use crate::contention::{Sharing, contend, rounds_for};
    let cpus = crate::threads::worker_count();
    let mut threads: Vec<usize> = [1, 2, 4, 8, 16, 32, 64]
        .into_iter()
        .filter(|&t| t <= cpus)
        .collect();
    if !threads.contains(&cpus) {
        threads.push(cpus);
    }
    let samples = size.pick(5, 1);
    let budget = size.pick(20e-3, 1e-3); // seconds of critical sections per run, one thread
    let mut figures = Vec::new();
    for (name, cs_ns) in LOCKS {
        let rounds = rounds_for(Duration::from_nanos(cs_ns));
        let ops_total = (budget / ((cs_ns as f64 + 20.0) * 1e-9)) as u64;
        let mut csv = Vec::new();
        let mut notes = vec![format!(
            "{ops_total} operations per run split over the threads; work = {rounds} xorshift rounds (calibrated to ~{cs_ns} ns); {samples} samples after 1 warm-up; rate = operations per second (median)"
        )];
        for sharing in Sharing::ALL {
            for &t in &threads {
                let ops = ops_total.div_ceil(t as u64);
                let mut retries = 0;
                let mut run = || {
                    let r = contend(sharing, t, ops, rounds);
                    retries = r.cas_retries;
                    r.elapsed
                };
                let s = bench_harness::measure_durations(1, samples, &mut run);
                let rate = (ops * t as u64) as f64 / s.median;
                row(&mut csv, sharing.label(), t as f64, &s, rate);
                if sharing == Sharing::CasLoop {
                    notes.push(format!(
                        "CAS loop, {t} threads: {retries} failed compare-exchanges in the last run"
                    ));
                }
            }
        }
        figures.push(Figure::new(
            name,
            "Operations per second on one shared value: Mutex, read-mostly RwLock, fetch_add, CAS loop",
            csv,
            move |rows, subtitle| locks_chart(cs_ns, rows, subtitle),
            notes,
        ));
    }
    figures
}
// ANCHOR_END: locks_sweep

/// The lock figures: (name, nanoseconds of work per operation).
pub const LOCKS: [(&str, u64); 3] = [
    ("locks_0ns", 0),
    ("locks_100ns", 100),
    ("locks_1000ns", 1000),
];

/// Million operations per second against the thread count, one line per kind of sharing.
pub fn locks_chart(cs_ns: u64, rows: &[TimingRow], subtitle: &str) -> String {
    let mut chart = line_chart(
        &format!("Shared counter under contention: {cs_ns} ns of work per operation"),
        subtitle,
        "threads",
        "million operations per second (all threads)",
    );
    for (label, rows) in by_variant(rows) {
        let mut series = Series::new(label);
        for r in rows {
            let scale = r.rate * r.median_s / 1e6;
            series.point_with_spread(r.param, r.rate / 1e6, scale / r.p90_s, scale / r.p10_s);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

/// Sends `messages` numbers from one thread to this one through `send`/`recv` closures that
/// block, and returns the wall time.
fn blocking_transfer<S: FnMut(u64) + Send>(
    messages: u64,
    send: S,
    mut recv: impl FnMut() -> u64,
) -> Duration {
    let start = Instant::now();
    thread::scope(|s| {
        let mut send = send;
        s.spawn(move || (0..messages).for_each(&mut send));
        let mut sum = 0u64;
        for _ in 0..messages {
            sum = sum.wrapping_add(recv());
        }
        black_box(sum);
    });
    start.elapsed()
}

/// The same through this crate's SPSC ring: both sides spin (with backoff) instead of blocking.
fn ring_transfer(messages: u64) -> Duration {
    let (mut tx, mut rx) = crate::primitives::spsc::ring_buffer::<u64>(1024).expect("power of two");
    blocking_transfer(
        messages,
        move |mut v| {
            let backoff = Backoff::new();
            while let Err(back) = tx.push(v) {
                v = back;
                backoff.snooze();
            }
        },
        move || {
            let backoff = Backoff::new();
            loop {
                if let Some(v) = rx.pop() {
                    return v;
                }
                backoff.snooze();
            }
        },
    )
}

const CHANNELS: [&str; 5] = [
    "std mpsc (unbounded)",
    "std sync_channel(1024)",
    "crossbeam unbounded",
    "crossbeam bounded(1024)",
    "SPSC ring(1024) spinning",
];

fn transfer(kind: usize, messages: u64) -> Duration {
    use std::sync::mpsc;
    match kind {
        0 => {
            let (tx, rx) = mpsc::channel();
            blocking_transfer(
                messages,
                move |v| tx.send(v).unwrap(),
                move || rx.recv().unwrap(),
            )
        }
        1 => {
            let (tx, rx) = mpsc::sync_channel(1024);
            blocking_transfer(
                messages,
                move |v| tx.send(v).unwrap(),
                move || rx.recv().unwrap(),
            )
        }
        2 => {
            let (tx, rx) = crossbeam_channel::unbounded();
            blocking_transfer(
                messages,
                move |v| tx.send(v).unwrap(),
                move || rx.recv().unwrap(),
            )
        }
        3 => {
            let (tx, rx) = crossbeam_channel::bounded(1024);
            blocking_transfer(
                messages,
                move |v| tx.send(v).unwrap(),
                move || rx.recv().unwrap(),
            )
        }
        _ => ring_transfer(messages),
    }
}

/// One-way latency: the sender stamps each message with the time since a shared start, waits
/// `gap` (spinning) and sends the next; the receiver subtracts the stamp from its own clock.
fn latencies(kind: usize, messages: usize, gap: Duration) -> Vec<f64> {
    let origin = Instant::now();
    let stamp = move || origin.elapsed().as_nanos() as u64;
    let mut seen = Vec::with_capacity(messages);
    let pace = move |i: usize| {
        let due = gap * i as u32;
        while origin.elapsed() < due {
            std::hint::spin_loop();
        }
    };
    let mut record = |sent: u64| seen.push((stamp() - sent) as f64 * 1e-9);
    macro_rules! run {
        ($tx:ident, $rx:ident) => {
            thread::scope(|s| {
                s.spawn(move || {
                    for i in 0..messages {
                        pace(i);
                        $tx.send(stamp()).unwrap();
                    }
                });
                for _ in 0..messages {
                    record($rx.recv().unwrap());
                }
            })
        };
    }
    match kind {
        0 => {
            let (tx, rx) = std::sync::mpsc::channel();
            run!(tx, rx)
        }
        1 => {
            let (tx, rx) = std::sync::mpsc::sync_channel(1024);
            run!(tx, rx)
        }
        2 => {
            let (tx, rx) = crossbeam_channel::unbounded();
            run!(tx, rx)
        }
        3 => {
            let (tx, rx) = crossbeam_channel::bounded(1024);
            run!(tx, rx)
        }
        _ => {
            let (mut tx, mut rx) =
                crate::primitives::spsc::ring_buffer::<u64>(1024).expect("power of two");
            thread::scope(|s| {
                s.spawn(move || {
                    for i in 0..messages {
                        pace(i);
                        let mut v = stamp();
                        while let Err(back) = tx.push(v) {
                            v = back;
                            std::hint::spin_loop();
                        }
                    }
                });
                for _ in 0..messages {
                    let backoff = Backoff::new();
                    loop {
                        if let Some(v) = rx.pop() {
                            record(v);
                            break;
                        }
                        backoff.snooze();
                    }
                }
            })
        }
    }
    seen
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((q * (sorted.len() - 1) as f64).round() as usize).min(sorted.len() - 1)]
}

pub fn channels(size: Size) -> Vec<Figure> {
    let messages: u64 = size.pick(1_000_000, 20_000);
    let samples = size.pick(5, 1);
    let stats = {
        let mut runs: Vec<Box<dyn FnMut()>> = (0..CHANNELS.len())
            .map(|k| Box::new(move || _ = black_box(transfer(k, messages))) as Box<dyn FnMut()>)
            .collect();
        let mut refs: Vec<&mut dyn FnMut()> = runs
            .iter_mut()
            .map(|b| &mut **b as &mut dyn FnMut())
            .collect();
        interleaved(samples, &mut refs)
    };
    let bars = CHANNELS
        .iter()
        .zip(&stats)
        .map(|(name, s)| (name.to_string(), *s, messages as f64 / s.median))
        .collect();
    let throughput = CHANNEL_THROUGHPUT.figure(
        bars,
        vec![format!(
            "{messages} messages per sample, {samples} samples interleaved after 1 warm-up round"
        )],
    );
    let count = size.pick(20_000, 500);
    let gap = Duration::from_micros(10);
    let qs = [0.5, 0.9, 0.99, 0.999];
    let mut csv = Vec::new();
    for (k, name) in CHANNELS.iter().enumerate() {
        latencies(k, count / 10, gap); // warm-up
        let mut l = latencies(k, count, gap);
        l.sort_by(f64::total_cmp);
        for q in qs {
            csv.push(LatencyRow {
                variant: (*name).to_owned(),
                percentile: q,
                latency_s: sig7(percentile(&l, q)),
                messages: count,
            });
        }
    }
    let latency = Figure::new(
        "channel_latency",
        "One-way latency of one message sent every 10 µs: p50, p90, p99, p99.9",
        csv,
        channel_latency_chart,
        vec![format!(
            "{count} messages per channel after {} warm-up; the receiver blocks in recv() (std, crossbeam) or spins with backoff (SPSC ring)",
            count / 10
        )],
    );
    vec![throughput, latency]
}

pub const CHANNEL_THROUGHPUT: BarSpec = rate_bars(
    "channel_throughput",
    "Messages per second from one thread to another (u64 messages), five channels",
    "Channel throughput, one producer and one consumer",
    "messages per second",
);

/// One percentile of one channel in `parallel_channel_latency.csv`.
#[derive(Serialize, Deserialize)]
pub struct LatencyRow {
    variant: String,
    percentile: f64,
    latency_s: f64,
    messages: usize,
}

/// Latency in µs at each percentile (p50, p90, p99, p99.9 at x = 0..3), one line per channel.
pub fn channel_latency_chart(rows: &[LatencyRow], subtitle: &str) -> String {
    let mut chart = line_chart(
        "One-way channel latency, one message every 10 µs",
        subtitle,
        "percentile (0 = p50, 1 = p90, 2 = p99, 3 = p99.9)",
        "latency (µs)",
    );
    chart.log_y = true;
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.variant.as_str()) {
            names.push(&r.variant);
        }
    }
    for name in names {
        let mut series = Series::new(name);
        for (i, r) in rows.iter().filter(|r| r.variant == name).enumerate() {
            series.point(i as f64, r.latency_s * 1e6);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

pub fn backpressure(size: Size) -> Vec<Figure> {
    use crate::channels::queue_length_trace;
    let messages = size.pick(20_000, 2_000);
    let every = size.pick(100, 50);
    let rounds = crate::contention::rounds_for(Duration::from_micros(1));
    let mut csv = Vec::new();
    for (label, capacity) in [("bounded(64)", Some(64)), ("unbounded", None)] {
        for s in queue_length_trace(capacity, messages, every, rounds) {
            csv.push(QueueRow {
                variant: label.to_owned(),
                sent: s.sent,
                elapsed_s: sig7(s.elapsed.as_secs_f64()),
                queued: s.queued,
            });
        }
    }
    vec![Figure::new(
        "backpressure",
        "Queue length over time: a producer sending as fast as it can, a consumer doing ~1 µs of work per message, crossbeam bounded(64) vs unbounded",
        csv,
        backpressure_chart,
        vec![format!(
            "{messages} messages, length sampled by the producer every {every}; consumer work = {rounds} xorshift rounds (~1 µs)"
        )],
    )]
}

/// One sample of the queue length in `parallel_backpressure.csv`.
#[derive(Serialize, Deserialize)]
pub struct QueueRow {
    variant: String,
    sent: usize,
    elapsed_s: f64,
    queued: usize,
}

/// Messages waiting against the time since the first send, one line per channel.
pub fn backpressure_chart(rows: &[QueueRow], subtitle: &str) -> String {
    let mut chart = line_chart(
        "Back-pressure: messages waiting in the channel, fast producer, slow consumer",
        subtitle,
        "time since the first send (ms)",
        "messages in the queue",
    );
    for label in ["bounded(64)", "unbounded"] {
        let mut series = Series::new(label);
        for r in rows.iter().filter(|r| r.variant == label) {
            series.point(r.elapsed_s * 1e3, r.queued as f64);
        }
        chart.series.push(series);
    }
    chart.to_svg()
}

/// A function the optimiser may not inline: the cost of an ordinary call, for scale.
#[inline(never)]
fn plain_call(i: usize) -> usize {
    black_box(i)
}

// ANCHOR: spawn_cost
pub fn spawn_cost(size: Size) -> Vec<Figure> {
    let n = size.pick(2_000, 100);
    let samples = size.pick(7, 1);
    let stats = interleaved(
        samples,
        &mut [
            &mut || {
                (0..n).for_each(|i| {
                    thread::spawn(move || black_box(i))
                        .join()
                        .map(drop)
                        .unwrap()
                })
            },
            &mut || {
                thread::scope(|s| (0..n).for_each(|i| _ = s.spawn(move || black_box(i)).join()))
            },
            &mut || (0..n).for_each(|i| _ = rayon::join(|| black_box(i), || black_box(i))),
            &mut || (0..n).for_each(|i| _ = black_box(plain_call(i))),
        ],
    );
    // ANCHOR_END: spawn_cost
    let labels = [
        "thread::spawn + join",
        "scoped spawn + join",
        "rayon::join (pool)",
        "plain call",
    ];
    let figure = SPAWN_COST.figure(
        labels
            .iter()
            .zip(&stats)
            .map(|(l, s)| (l.to_string(), *s, s.median / n as f64 * 1e6))
            .collect(),
        vec![format!(
            "{n} spawn+join in a row per sample, {samples} samples interleaved; rate = µs per spawn+join (median / {n})"
        )],
    );
    vec![figure]
}

/// Bars of microseconds per spawn + join on a log axis (the rate column holds the median / n).
pub const SPAWN_COST: BarSpec = BarSpec {
    name: "spawn_cost",
    description: "Time to start a thread and wait for it, against handing work to rayon's pool and a plain call",
    title: "Cost of one spawn + join (µs, lower is better)",
    y_label: "microseconds per spawn + join",
    value: BarValue::Time,
    log_y: true,
};

// ANCHOR: amdahl_fig
pub fn amdahl(size: Size) -> Vec<Figure> {
    use crate::threads::{amdahl_job, fit_serial_fraction, worker_count};
    let cpus = worker_count();
    let items: u64 = size.pick(40_000, 2_000);
    let rounds = 1_000; // about 1–3 µs per item
    let serial_rounds = size.pick(2_000_000, 100_000);
    let samples = size.pick(5, 1);
    let mut counts: Vec<usize> = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64]
        .into_iter()
        .filter(|&p| p <= cpus)
        .collect();
    if !counts.contains(&cpus) {
        counts.push(cpus);
    }
    counts.push(2 * cpus); // oversubscribed: more threads than CPUs
    let serial_alone = bench_harness::measure(1, samples, || {
        black_box(crate::contention::work(black_box(1), serial_rounds));
    });
    let times: Vec<Stats> = counts
        .iter()
        .map(|&p| {
            bench_harness::measure(1, samples, || {
                _ = black_box(amdahl_job(p, items, rounds, serial_rounds))
            })
        })
        .collect();
    let t1 = times[0].median;
    let points: Vec<(f64, f64)> = counts
        .iter()
        .zip(&times)
        .filter(|(p, _)| **p <= cpus)
        .map(|(&p, s)| (p as f64, t1 / s.median))
        .collect();
    let fitted = fit_serial_fraction(&points);
    let designed = serial_alone.median / t1;
    // ANCHOR_END: amdahl_fig
    let mut csv = Vec::new();
    for (&p, s) in counts.iter().zip(&times) {
        row(&mut csv, "measured", p as f64, s, t1 / s.median);
    }
    row(&mut csv, "serial step alone", 1.0, &serial_alone, designed);
    vec![Figure::new(
        "amdahl",
        "Speed-up of a job with a parallel part and a serial step, 1 thread to twice the CPUs, against Amdahl's law",
        csv,
        amdahl_chart,
        vec![
            format!(
                "{items} items x {rounds} rounds in parallel, then one chain of {serial_rounds} rounds; {samples} samples per point"
            ),
            format!(
                "serial step alone: {:.4e} s = fraction {designed:.4} of the 1-thread time {t1:.4e} s",
                serial_alone.median
            ),
            format!(
                "least-squares serial fraction over 2..={cpus} threads: {}",
                fitted.map_or("none (one CPU)".into(), |s| format!("{s:.4}"))
            ),
            format!(
                "thread counts: {counts:?}; the last is 2x the CPUs and is left out of the fit"
            ),
        ],
    )]
}

/// The measured speed-ups against Amdahl's law with the serial step's own fraction, the fraction
/// fitted over 2..=CPUs threads, and the ideal line. The last thread count is twice the CPUs.
pub fn amdahl_chart(rows: &[TimingRow], subtitle: &str) -> String {
    use crate::threads::{amdahl_speedup, fit_serial_fraction};
    let measured_rows: Vec<&TimingRow> = rows.iter().filter(|r| r.variant == "measured").collect();
    let t1 = measured_rows.first().map_or(1.0, |r| r.median_s);
    let max_p = measured_rows.last().map_or(1, |r| r.param as usize);
    let cpus = (max_p / 2).max(1);
    let mut chart = line_chart(
        "Amdahl's law: measured speed-up vs the fitted formula",
        subtitle,
        "threads",
        "speed-up over 1 thread",
    );
    let mut measured = Series::new("measured");
    for r in &measured_rows {
        measured.point_with_spread(r.param, t1 / r.median_s, t1 / r.p90_s, t1 / r.p10_s);
    }
    chart.series.push(measured);
    let points: Vec<(f64, f64)> = measured_rows
        .iter()
        .filter(|r| r.param <= cpus as f64)
        .map(|r| (r.param, t1 / r.median_s))
        .collect();
    let designed = rows
        .iter()
        .find(|r| r.variant == "serial step alone")
        .map(|r| r.rate);
    let mut model = |label: &str, s: f64| {
        let mut series = Series::new(&format!("{label} s = {s:.3}"));
        for p in 1..=max_p {
            series.point(p as f64, amdahl_speedup(s, p as f64));
        }
        chart.series.push(series);
    };
    if let Some(s) = designed {
        model("serial step alone:", s);
    }
    if let Some(s) = fit_serial_fraction(&points) {
        model("fitted:", s);
    }
    let mut ideal = Series::new("ideal (s = 0)");
    for p in 1..=cpus {
        ideal.point(p as f64, p as f64);
    }
    chart.series.push(ideal);
    chart.markers = vec![(cpus as f64, format!("{cpus} CPUs"))];
    chart.to_svg()
}
