//! What the panel shows about the stages, as plain data: updated from the results the display
//! receives and from the queues' counters, turned into lines of text.

use std::time::Duration;

use crate::pipeline::process::Processed;
use crate::pipeline::run::LiveStats;
use crate::pipeline::stats::{LatencyWindow, RateMeter};

/// Statistics over the last few hundred frames.
#[derive(Clone, Debug)]
pub struct StageView {
    /// Capture → end of processing (includes the read-back ring's K − 1 frames).
    pub processing: LatencyWindow,
    /// Capture → the display took it.
    pub end_to_end: LatencyWindow,
    /// Displayed (painted) frames.
    pub display_rate: RateMeter,
    /// Results received.
    pub result_rate: RateMeter,
    pub received: u64,
}

impl StageView {
    pub fn new() -> Self {
        Self {
            processing: LatencyWindow::new(300),
            end_to_end: LatencyWindow::new(300),
            display_rate: RateMeter::new(60),
            result_rate: RateMeter::new(60),
            received: 0,
        }
    }

    /// A result arrived at `now`.
    pub fn received(&mut self, result: &Processed, now: Duration) {
        self.processing.push(result.latency());
        self.end_to_end
            .push(now.saturating_sub(result.frame.captured_at));
        self.result_rate.tick(now);
        self.received += 1;
    }

    /// The panel was painted at `now`.
    pub fn painted(&mut self, now: Duration) {
        self.display_rate.tick(now);
    }

    /// One line per statistic, for labels.
    pub fn lines(&self, live: &LiveStats) -> Vec<String> {
        let (frames, results) = (live.frames_queue(), live.results_queue());
        vec![
            format!(
                "display {} fps, results {} fps",
                rate(self.display_rate.per_second()),
                rate(self.result_rate.per_second())
            ),
            format!(
                "frames made {}, received {}",
                live.produced(),
                self.received
            ),
            format!(
                "dropped: before processing {}, before display {}",
                frames.dropped, results.dropped
            ),
            format!(
                "queue depth: frames {}/{}, results {}/{}",
                frames.depth, frames.capacity, results.depth, results.capacity
            ),
            format!(
                "p99 latency: processing {}, end to end {}",
                ms(self.processing.p99()),
                ms(self.end_to_end.p99())
            ),
        ]
    }
}

impl Default for StageView {
    fn default() -> Self {
        Self::new()
    }
}

fn rate(r: Option<f64>) -> String {
    r.map_or_else(|| "–".into(), |r| format!("{r:.0}"))
}

fn ms(d: Option<Duration>) -> String {
    d.map_or_else(
        || "–".into(),
        |d| format!("{:.1} ms", d.as_secs_f64() * 1e3),
    )
}
