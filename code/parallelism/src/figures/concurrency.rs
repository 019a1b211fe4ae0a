//! Figures about threads talking to each other: queues, false sharing, histograms, async.

use std::thread;
use std::time::Duration;

use bench_harness::{black_box, measure, measure_durations};
use crossbeam_utils::Backoff;

use bench_harness::{LineChart, Series};
use serde::{Deserialize, Serialize};

use super::output::{BarSpec, BarValue, Figure, interleaved, rate_bars, sig7};
use crate::primitives::spsc;

const MESSAGES: u64 = 2_000_000;
const CAPACITY: usize = 1024;

/// One sample of a queue run: how long it took, and how often each side found the queue in
/// the way (a push that found it full, a pop that found it empty) before it succeeded.
struct QueueRun {
    time: Duration,
    full_waits: u64,
    empty_waits: u64,
}

/// One producer thread sends `MESSAGES` numbers through a bounded queue to this thread; each side
/// backs off while the queue is full (push hands the value back) or empty, and counts its waits.
fn pass_messages(
    mut push: impl FnMut(u64) -> Result<(), u64> + Send,
    mut pop: impl FnMut() -> Option<u64>,
) -> QueueRun {
    let start = std::time::Instant::now();
    let (full_waits, empty_waits) = thread::scope(|s| {
        let producer = s.spawn(move || {
            let mut full_waits = 0u64;
            for i in 0..MESSAGES {
                let mut v = i;
                let backoff = Backoff::new();
                while let Err(back) = push(v) {
                    v = back;
                    full_waits += 1;
                    backoff.snooze();
                }
            }
            full_waits
        });
        let (mut sum, mut got, mut empty_waits) = (0u64, 0, 0u64);
        let backoff = Backoff::new();
        while got < MESSAGES {
            match pop() {
                Some(v) => {
                    sum = sum.wrapping_add(v);
                    got += 1;
                    backoff.reset();
                }
                None => {
                    empty_waits += 1;
                    backoff.snooze();
                }
            }
        }
        black_box(sum);
        (
            producer.join().expect("the producer does not panic"),
            empty_waits,
        )
    });
    QueueRun {
        time: start.elapsed(),
        full_waits,
        empty_waits,
    }
}

fn ring_run() -> QueueRun {
    let (mut tx, mut rx) = spsc::ring_buffer::<u64>(CAPACITY).expect("1024 is a power of two");
    pass_messages(move |v| tx.push(v), move || rx.pop())
}

fn array_queue_run() -> QueueRun {
    let queue = crossbeam_queue::ArrayQueue::<u64>::new(CAPACITY);
    pass_messages(|v| queue.push(v), || queue.pop())
}

const SPSC_SAMPLES: usize = 21;

pub const SPSC: BarSpec = rate_bars(
    "spsc",
    "Messages per second between two threads: this crate's SPSC ring vs crossbeam's ArrayQueue",
    "SPSC ring buffer vs ArrayQueue (u64 messages, capacity 1024)",
    "messages per second",
);

/// The ring against `ArrayQueue` (bars), and every sample of both with its waits (a second
/// figure): a run in which the consumer keeps finding the queue empty passes each message on its
/// own, one in which the producer keeps finding it full passes them in batches.
pub fn spsc() -> Vec<Figure> {
    let mut runs: [Vec<QueueRun>; 2] = [Vec::new(), Vec::new()];
    let stats = {
        let [ring_runs, queue_runs] = &mut runs;
        interleaved(
            SPSC_SAMPLES,
            &mut [&mut || ring_runs.push(ring_run()), &mut || {
                queue_runs.push(array_queue_run())
            }],
        )
    };
    // The warm-up round is not timed; drop its run too.
    for r in &mut runs {
        r.remove(0);
    }
    let (ring, queue) = (stats[0], stats[1]);
    let rate = |s: &bench_harness::Stats| MESSAGES as f64 / s.median;
    let ratio = rate(&ring) / rate(&queue);
    let bars = SPSC.figure(
        vec![
            ("SPSC ring (this crate)".into(), ring, rate(&ring)),
            ("crossbeam ArrayQueue".into(), queue, rate(&queue)),
        ],
        vec![
            format!("{MESSAGES} messages per sample, {SPSC_SAMPLES} samples after 1 warm-up"),
            format!("ring / ArrayQueue = {ratio:.2}"),
        ],
    );
    vec![bars, spsc_regimes(&runs)]
}

/// Every sample: its rate against how often each side waited, per 1000 messages.
fn spsc_regimes(runs: &[Vec<QueueRun>; 2]) -> Figure {
    let mut csv = Vec::new();
    for (name, samples) in ["SPSC ring", "ArrayQueue"].iter().zip(runs) {
        for (i, r) in samples.iter().enumerate() {
            csv.push(SampleRow {
                variant: (*name).to_owned(),
                sample: i,
                seconds: sig7(r.time.as_secs_f64()),
                messages_per_s: sig7(MESSAGES as f64 / r.time.as_secs_f64()),
                full_waits: r.full_waits,
                empty_waits: r.empty_waits,
            });
        }
    }
    Figure::new(
        "spsc_regimes",
        "Every SPSC sample (ring and ArrayQueue): time, rate, failed pushes (queue full) and \
         failed pops (queue empty)",
        csv,
        spsc_regimes_chart,
        vec![format!(
            "{MESSAGES} messages per sample; waits of 0 are drawn at 0.001 per 1000 on the log axis"
        )],
    )
}

/// One sample of `parallel_spsc_regimes.csv`.
#[derive(Serialize, Deserialize)]
pub struct SampleRow {
    variant: String,
    sample: usize,
    seconds: f64,
    messages_per_s: f64,
    full_waits: u64,
    empty_waits: u64,
}

/// The ring's samples, slowest first: rate against waits per 1000 messages on each side.
pub fn spsc_regimes_chart(rows: &[SampleRow], subtitle: &str) -> String {
    let mut chart = LineChart {
        title: "SPSC ring: each sample's rate against how often a side waited".into(),
        subtitle: subtitle.to_owned(),
        x_label: "million messages per second (one sample)".into(),
        y_label: "waits per 1000 messages".into(),
        log_y: true,
        ..Default::default()
    };
    let mut ring: Vec<&SampleRow> = rows.iter().filter(|r| r.variant == "SPSC ring").collect();
    ring.sort_by(|a, b| b.seconds.total_cmp(&a.seconds));
    let per_k = |w: u64| (w as f64 * 1000.0 / MESSAGES as f64).max(1e-3);
    let mut full = Series::new("ring: push found it full");
    let mut empty = Series::new("ring: pop found it empty");
    for r in ring {
        let x = MESSAGES as f64 / r.seconds / 1e6;
        full.point(x, per_k(r.full_waits));
        empty.point(x, per_k(r.empty_waits));
    }
    chart.series.extend([full, empty]);
    chart.to_svg()
}

pub const FALSE_SHARING: BarSpec = rate_bars(
    "false_sharing",
    "Two threads each incrementing their own atomic counter: adjacent vs cache-padded",
    "False sharing: two private counters, same line vs padded",
    "increments per second (both threads)",
);

pub fn false_sharing() -> Figure {
    use crate::false_sharing::{hammer_adjacent, hammer_padded};
    const N: u64 = 20_000_000;
    // Interleaved samples: both layouts see the same background load.
    let stats = interleaved(
        15,
        &mut [
            &mut || {
                black_box(hammer_adjacent(N));
            },
            &mut || {
                black_box(hammer_padded(N));
            },
        ],
    );
    let (adjacent, padded) = (stats[0], stats[1]);
    let rate = |s: &bench_harness::Stats| 2.0 * N as f64 / s.median;
    let ratio = adjacent.median / padded.median;
    FALSE_SHARING.figure(
        vec![
            ("adjacent (one line)".into(), adjacent, rate(&adjacent)),
            ("CachePadded".into(), padded, rate(&padded)),
        ],
        vec![
            format!(
                "{N} Relaxed fetch_add per thread, 2 threads, started together by a barrier; samples interleaved"
            ),
            format!("padded is {ratio:.2}x faster"),
        ],
    )
}

pub const HISTOGRAM: BarSpec = rate_bars(
    "histogram",
    "A 256-bin byte histogram of 8 MiB of random bytes, five ways",
    "Parallel histogram of 8 MiB random bytes",
    "MB per second",
);

pub fn histogram() -> Figure {
    use crate::histogram::*;
    const BYTES: usize = 8 << 20;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let data: Vec<u8> = (0..BYTES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect();
    let threads = thread::available_parallelism().map_or(2, |n| n.get());
    type Variant<'a> = (&'static str, Box<dyn Fn() -> Histogram + 'a>);
    let variants: Vec<Variant> = vec![
        ("sequential", Box::new(|| histogram_sequential(&data))),
        (
            "per-thread bins",
            Box::new(|| histogram_per_thread(&data, threads).bins),
        ),
        ("rayon fold/reduce", Box::new(|| histogram_rayon(&data))),
        (
            "shared atomics",
            Box::new(|| histogram_shared_atomic(&data, threads)),
        ),
        (
            "mutex per byte",
            Box::new(|| histogram_mutex(&data, threads)),
        ),
    ];
    let bars = variants
        .iter()
        .map(|(name, f)| {
            let s = measure(1, 9, || {
                black_box(f());
            });
            (name.to_string(), s, BYTES as f64 / s.median / 1e6)
        })
        .collect();
    HISTOGRAM.figure(
        bars,
        vec![format!("{threads} threads for the parallel variants")],
    )
}

/// Bars of wall time in milliseconds (the rate column holds 1000 × the median): whiskers are
/// p10..p90 scaled the same way.
pub const ASYNC: BarSpec = BarSpec {
    name: "async",
    description: "Async for many waiting tasks vs CPU work: wall time of each program",
    title: "Async: many waits vs CPU work (wall time, lower is better)",
    y_label: "milliseconds",
    value: BarValue::Time,
    log_y: false,
};

pub fn async_contrast() -> Figure {
    use crate::async_waiting::*;
    const WAITERS: usize = 1000;
    let wait = Duration::from_millis(50);
    let tokio_wait = measure_durations(1, 5, || wait_with_tokio(WAITERS, wait, 2));
    let thread_wait = measure_durations(1, 5, || wait_with_threads(WAITERS, wait));
    const JOBS: u64 = 2000;
    const ROUNDS: u32 = 20_000;
    let data: Vec<u64> = (0..JOBS).collect();
    let cpu = interleaved(
        7,
        &mut [
            &mut || {
                black_box(crate::data_parallel::sequential_sum(&data, ROUNDS));
            },
            &mut || {
                black_box(cpu_work_with_tokio(JOBS, ROUNDS, 1));
            },
            &mut || {
                black_box(cpu_work_with_tokio(JOBS, ROUNDS, 2));
            },
            &mut || {
                black_box(crate::data_parallel::rayon_sum(&data, ROUNDS));
            },
        ],
    );
    let (seq, tokio_cpu_1, tokio_cpu, rayon_cpu) = (cpu[0], cpu[1], cpu[2], cpu[3]);
    // Bars show the time in milliseconds (lower is better) via rate = 1000 × median.
    let ms = |s: bench_harness::Stats| (s, s.median * 1e3);
    let entries = [
        ("1000 waits of 50 ms: tokio, 2 workers", ms(tokio_wait)),
        ("1000 waits of 50 ms: 1000 threads", ms(thread_wait)),
        ("CPU jobs: sequential", ms(seq)),
        ("CPU jobs: tokio, 1 worker", ms(tokio_cpu_1)),
        ("CPU jobs: tokio, 2 workers", ms(tokio_cpu)),
        ("CPU jobs: rayon", ms(rayon_cpu)),
    ];
    ASYNC.figure(
        entries
            .into_iter()
            .map(|(n, (s, v))| (n.to_owned(), s, v))
            .collect(),
        vec![format!(
            "CPU jobs: {JOBS} jobs of {ROUNDS} hash rounds each; waits: {WAITERS} tasks each sleeping 50 ms"
        )],
    )
}
