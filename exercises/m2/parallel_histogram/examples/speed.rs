//! How much faster your histogram gets with more threads: 2^25 samples (128 MiB) counted with
//! 1, 2, 4, … threads up to the machine's cores, each result checked against the one-thread
//! result. Run it, once your histogram works, with
//! `cargo run --release -p ex_m2_parallel_histogram --example speed`.
//!
//! Timings on a shared or busy machine wander; the median of several runs is printed, and the
//! tests never look at time.

use std::collections::HashSet;
use std::error::Error;
use std::process::ExitCode;
use std::thread;
use std::time::{Duration, Instant};

use ex_m2_parallel_histogram::{BinSpec, Histogram, parallel_histogram};

const SAMPLES: usize = 1 << 25;
const RUNS: usize = 7;

fn main() -> ExitCode {
    match report() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn report() -> Result<(), Box<dyn Error>> {
    let data = latencies(SAMPLES);
    // Microseconds: 200 bins of 100 µs up to 20 ms; the tail goes to `above`.
    let spec = BinSpec::new(0, 20_000, 200)?;
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    println!("{SAMPLES} samples, {} bins, {cores} cores", spec.bins());

    println!(
        "{:>8} {:>8} {:>11} {:>10} {:>8}",
        "threads", "workers", "median ms", "Msamples/s", "speedup"
    );
    // The one-thread run is the baseline: the same code, so the speedup is the threads' alone.
    let mut baseline: Option<(Histogram, Duration)> = None;
    let mut threads = 1;
    loop {
        let mut workers = 0;
        let (got, time) = median_time(|| {
            let counted = parallel_histogram(&data, &spec, threads)?;
            workers = counted
                .takes
                .iter()
                .map(|t| t.thread)
                .collect::<HashSet<_>>()
                .len();
            Ok(counted.histogram)
        })?;
        let (want, one_thread) = baseline.get_or_insert_with(|| (got.clone(), time));
        if got != *want {
            return Err(format!(
                "with {threads} threads the histogram differs from the one-thread histogram"
            )
            .into());
        }
        print_row(threads, workers, time, *one_thread);
        if threads >= cores {
            break;
        }
        threads = (threads * 2).min(cores);
    }
    Ok(())
}

/// One warm-up run (page faults, thread start-up), then the median of `RUNS`.
fn median_time(
    mut f: impl FnMut() -> Result<Histogram, Box<dyn Error>>,
) -> Result<(Histogram, Duration), Box<dyn Error>> {
    let result = f()?;
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        let again = f()?;
        times.push(start.elapsed());
        if again != result {
            return Err("two runs gave different histograms".into());
        }
    }
    times.sort();
    Ok((result, times[RUNS / 2]))
}

fn print_row(threads: usize, workers: usize, time: Duration, baseline: Duration) {
    let secs = time.as_secs_f64();
    println!(
        "{threads:>8} {workers:>8} {:>11.1} {:>10.0} {:>7.2}x",
        secs * 1e3,
        SAMPLES as f64 / secs / 1e6,
        baseline.as_secs_f64() / secs
    );
}

/// Latency-like values in microseconds: most near 1–3 ms, a few much slower. SplitMix64, so
/// every run counts the same data.
fn latencies(n: usize) -> Vec<u32> {
    let mut state = 0x5EED_u64;
    (0..n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let base = 1_000 + (z % 2_000) as u32;
            // One sample in 64 is a slow one, up to 30 ms.
            if (z >> 58) == 0 {
                base + ((z >> 20) % 28_000) as u32
            } else {
                base
            }
        })
        .collect()
}
