//! Per-iteration latency: every iteration is timed and recorded in an HDR histogram, so the
//! summary keeps the tail (p99, max) that a mean would hide.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

/// The slowest iteration we can record: one minute. Longer ones are clamped (and would be a bug).
const HIGHEST_NS: u64 = 60_000_000_000;

/// p50, p99, p99.9 and max of one loop, in nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatencySummary {
    pub iterations: u64,
    pub p50_ns: u64,
    pub p99_ns: u64,
    /// One iteration in a thousand is slower: what a rule that acts every 1000th time shows.
    pub p999_ns: u64,
    pub max_ns: u64,
    pub mean_ns: f64,
}

/// Records durations with three significant digits from 1 ns to one minute.
pub struct LatencyRecorder {
    histogram: Histogram<u64>,
}

impl Default for LatencyRecorder {
    fn default() -> Self {
        Self::new()
    }
}

impl LatencyRecorder {
    pub fn new() -> Self {
        // The bounds are constants that hdrhistogram accepts (1 <= low, high >= 2 * low,
        // 0..=5 significant digits), so creation cannot fail.
        let histogram = Histogram::new_with_bounds(1, HIGHEST_NS, 3)
            .expect("constant histogram bounds are valid");
        Self { histogram }
    }

    /// Records one duration; the histogram is preallocated, so this never allocates.
    pub fn record(&mut self, elapsed: Duration) {
        let ns = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        self.histogram.saturating_record(ns.clamp(1, HIGHEST_NS));
    }

    pub fn summary(&self) -> LatencySummary {
        let h = &self.histogram;
        LatencySummary {
            iterations: h.len(),
            p50_ns: h.value_at_quantile(0.50),
            p99_ns: h.value_at_quantile(0.99),
            p999_ns: h.value_at_quantile(0.999),
            max_ns: h.max(),
            mean_ns: h.mean(),
        }
    }
}

// ANCHOR: time_each
/// Runs `step` `warmup + iterations` times and records how long each of the last `iterations`
/// took. `step` gets the iteration number and returns a value that is kept alive, so the
/// optimiser cannot delete the work.
pub fn time_each(warmup: u64, iterations: u64, mut step: impl FnMut(u64) -> f64) -> LatencySummary {
    let mut recorder = LatencyRecorder::new();
    for i in 0..warmup {
        std::hint::black_box(step(i));
    }
    for i in 0..iterations {
        let start = Instant::now();
        std::hint::black_box(step(warmup + i));
        recorder.record(start.elapsed());
    }
    recorder.summary()
}
// ANCHOR_END: time_each

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_follow_the_recorded_values() {
        let mut r = LatencyRecorder::new();
        for us in 1..=100u64 {
            r.record(Duration::from_micros(us));
        }
        let s = r.summary();
        assert_eq!(s.iterations, 100);
        // Three significant digits: values are exact to within 0.1 %.
        assert!((49_900..=50_100).contains(&s.p50_ns), "{s:?}");
        assert!((98_900..=99_100).contains(&s.p99_ns), "{s:?}");
        assert!((99_800..=100_100).contains(&s.p999_ns), "{s:?}");
        assert!((99_900..=100_100).contains(&s.max_ns), "{s:?}");
    }

    #[test]
    fn a_zero_duration_is_recorded_as_one_nanosecond() {
        let mut r = LatencyRecorder::new();
        r.record(Duration::ZERO);
        assert_eq!(r.summary().max_ns, 1);
    }

    #[test]
    fn time_each_calls_the_step_warmup_plus_iterations_times() {
        let mut calls = Vec::new();
        let s = time_each(2, 3, |i| {
            calls.push(i);
            i as f64
        });
        assert_eq!(calls, [0, 1, 2, 3, 4]);
        assert_eq!(s.iterations, 3);
    }
}
