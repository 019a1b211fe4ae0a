//! `matrixmultiply` timed in a child process of this program, with its thread count set there.
//!
//! With its `threading` feature, `matrixmultiply` reads `MATMUL_NUM_THREADS` once, at its first
//! call, and keeps that count for the life of the process (it uses at most 4 threads; unset, it
//! takes the number of physical cores). One process therefore cannot time it both on one thread
//! and on several. Every timing of it in this program runs in a fresh child, started with the
//! variable set, so the count is the one asked for and not whatever the shell exported.

use std::process::Command;

use bench_harness::{Stats, black_box};
use computational_graphs::cpu_matmul;
use computational_graphs::rng::SplitMix64;

/// The first argument that turns this program into the worker.
pub const WORKER_ARG: &str = "matrixmultiply-worker";

/// `matrixmultiply`'s own cap on its threads.
pub const MAX_THREADS: usize = 4;

/// One timing from a worker.
pub struct Timing {
    pub stats: Stats,
    /// The threads `matrixmultiply` was allowed (`MATMUL_NUM_THREADS`, capped as it caps it).
    pub threads: usize,
    /// Threads alive in the worker after its last multiply (Linux), main thread included: the
    /// count `matrixmultiply` really started.
    pub os_threads: Option<usize>,
}

/// Times an n×n×n `matrixmultiply::sgemm` on `threads` threads in a child process.
pub fn time(
    n: usize,
    threads: usize,
    warmup: usize,
    samples: usize,
) -> Result<Timing, Box<dyn std::error::Error>> {
    let out = Command::new(std::env::current_exe()?)
        .args([
            WORKER_ARG,
            &n.to_string(),
            &warmup.to_string(),
            &samples.to_string(),
        ])
        .env("MATMUL_NUM_THREADS", threads.to_string())
        .output()?;
    if !out.status.success() {
        return Err(format!(
            "the matrixmultiply worker failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let text = String::from_utf8(out.stdout)?;
    let mut seconds = Vec::new();
    let mut os_threads = None;
    for line in text.lines() {
        match line.split_once(' ') {
            Some(("sample", s)) => seconds.push(s.parse::<f64>()?),
            Some(("os_threads", t)) => os_threads = Some(t.parse()?),
            _ => return Err(format!("the worker wrote an unexpected line: {line:?}").into()),
        }
    }
    let stats = Stats::from_seconds(&seconds).ok_or("the worker wrote no samples")?;
    Ok(Timing {
        stats,
        threads: threads.clamp(1, MAX_THREADS),
        os_threads,
    })
}

/// The worker's side: `<program> matrixmultiply-worker N WARMUP SAMPLES` prints one
/// `sample <seconds>` line per sample, then `os_threads <count>` where the OS says.
pub fn run_worker(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let [n, warmup, samples] = args else {
        return Err(format!("usage: {WORKER_ARG} N WARMUP SAMPLES").into());
    };
    let (n, warmup, samples): (usize, usize, usize) =
        (n.parse()?, warmup.parse()?, samples.parse()?);
    let mut rng = SplitMix64::new(n as u64);
    let a: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let mut c = vec![0.0f32; n * n];
    let mut times = Vec::with_capacity(samples);
    for i in 0..warmup + samples {
        let start = std::time::Instant::now();
        cpu_matmul::reference(&a, &b, &mut c, n, n, n);
        black_box(&c);
        if i >= warmup {
            times.push(start.elapsed().as_secs_f64());
        }
    }
    for t in times {
        println!("sample {t}");
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(t) = status.lines().find_map(|l| l.strip_prefix("Threads:")) {
        println!("os_threads {}", t.trim());
    }
    Ok(())
}
