//! Frames per second and latency percentiles over a recent window: the numbers a real-time
//! display shows (a p99 and a max, never only a mean).

use std::collections::VecDeque;
use std::time::Duration;

/// The last `capacity` latencies of one stage.
#[derive(Clone, Debug)]
pub struct LatencyWindow {
    samples: VecDeque<Duration>,
    capacity: usize,
}

impl LatencyWindow {
    pub fn new(capacity: usize) -> Self {
        Self {
            samples: VecDeque::with_capacity(capacity.max(1)),
            capacity: capacity.max(1),
        }
    }

    pub fn push(&mut self, latency: Duration) {
        if self.samples.len() == self.capacity {
            self.samples.pop_front();
        }
        self.samples.push_back(latency);
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The `q` quantile (0 to 1) by the nearest-rank method; `None` with no samples.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        let mut sorted: Vec<Duration> = self.samples.iter().copied().collect();
        sorted.sort_unstable();
        let rank = (q.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
        sorted.get(rank.saturating_sub(1)).copied()
    }

    pub fn p99(&self) -> Option<Duration> {
        self.quantile(0.99)
    }
}

/// Frames per second, from the times of the last `capacity` frames.
#[derive(Clone, Debug)]
pub struct RateMeter {
    times: VecDeque<Duration>,
    capacity: usize,
}

impl RateMeter {
    pub fn new(capacity: usize) -> Self {
        Self {
            times: VecDeque::with_capacity(capacity.max(2)),
            capacity: capacity.max(2),
        }
    }

    pub fn tick(&mut self, at: Duration) {
        if self.times.len() == self.capacity {
            self.times.pop_front();
        }
        self.times.push_back(at);
    }

    pub fn per_second(&self) -> Option<f64> {
        let (first, last) = (self.times.front()?, self.times.back()?);
        let span = last.saturating_sub(*first).as_secs_f64();
        (span > 0.0).then(|| (self.times.len() - 1) as f64 / span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_of_a_hundred_samples_is_the_99th_and_old_samples_leave_the_window() {
        let mut w = LatencyWindow::new(100);
        assert_eq!(w.p99(), None);
        for ms in 1..=100 {
            w.push(Duration::from_millis(ms));
        }
        assert_eq!(w.p99(), Some(Duration::from_millis(99)));
        w.push(Duration::from_millis(1000));
        assert_eq!(w.len(), 100);
        assert_eq!(w.quantile(1.0), Some(Duration::from_millis(1000)));
        assert_eq!(w.quantile(0.0), Some(Duration::from_millis(2)));
    }

    #[test]
    fn ten_ticks_at_100_ms_are_10_per_second() {
        let mut r = RateMeter::new(10);
        for i in 0..10 {
            r.tick(Duration::from_millis(100 * i));
        }
        assert!((r.per_second().unwrap() - 10.0).abs() < 1e-9);
    }
}
