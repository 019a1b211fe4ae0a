use std::time::{Duration, Instant};

/// Summary of repeated measurements, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// 10th and 90th percentiles: the spread without the one-off outliers.
    pub p10: f64,
    pub p90: f64,
    pub samples: usize,
}

impl Stats {
    /// Summarises samples given in seconds. Returns `None` for an empty slice or a NaN.
    pub fn from_seconds(samples: &[f64]) -> Option<Self> {
        if samples.is_empty() || samples.iter().any(|s| s.is_nan()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let pos = q * (sorted.len() - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
        };
        Some(Self {
            median: at(0.5),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
            p10: at(0.1),
            p90: at(0.9),
            samples: sorted.len(),
        })
    }

    /// Relative spread (p90 − p10) / median: how much to trust the median.
    pub fn relative_spread(&self) -> f64 {
        if self.median > 0.0 {
            (self.p90 - self.p10) / self.median
        } else {
            0.0
        }
    }
}

/// Runs `f` `warmup` times untimed, then `samples` times timed, and summarises the timings.
///
/// Warm-up matters: the first runs pay for page faults, cold caches, lazy initialisation and
/// CPU frequency ramp-up, none of which the steady state pays.
///
/// ```
/// let stats = bench_harness::measure(2, 5, || {
///     bench_harness::black_box((0..1000u64).sum::<u64>());
/// });
/// assert_eq!(stats.samples, 5);
/// assert!(stats.min <= stats.median && stats.median <= stats.max);
/// ```
pub fn measure(warmup: usize, samples: usize, mut f: impl FnMut()) -> Stats {
    measure_durations(warmup, samples, || {
        let start = Instant::now();
        f();
        start.elapsed()
    })
}

/// Like [`measure`], for work that times itself (GPU timestamps, a per-item time, …).
pub fn measure_durations(warmup: usize, samples: usize, mut f: impl FnMut() -> Duration) -> Stats {
    for _ in 0..warmup {
        f();
    }
    let times: Vec<f64> = (0..samples.max(1)).map(|_| f().as_secs_f64()).collect();
    Stats::from_seconds(&times).expect("durations are never NaN and there is at least one")
}
