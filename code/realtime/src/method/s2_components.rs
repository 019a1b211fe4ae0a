//! Stage 2: the prototype's steps as streaming components, one sample at a time. Still simple
//! (a `VecDeque` window summed every sample, a fresh `Vec` of events per call), still
//! single-threaded, and tested against the prototype.

use std::collections::VecDeque;

use super::{Event, Settings, WINDOW};

// ANCHOR: components
pub struct Calibrate {
    pub gain: i32,
    pub offset: i32,
}

impl Calibrate {
    pub fn step(&self, raw: i16) -> i32 {
        i32::from(raw) * self.gain + self.offset
    }
}

// ANCHOR: despike_average
/// Median of the last three samples (of fewer, repeated, at the start).
#[derive(Default)]
pub struct Despike {
    history: Vec<i32>,
}

impl Despike {
    pub fn step(&mut self, x: i32) -> i32 {
        self.history.push(x);
        let n = self.history.len();
        let mut w = [
            self.history[n.saturating_sub(3)],
            self.history[n.saturating_sub(2)],
            x,
        ];
        w.sort();
        w[1]
    }
}

#[derive(Default)]
pub struct MovingAverage {
    window: VecDeque<i32>,
}

impl MovingAverage {
    pub fn step(&mut self, x: i32) -> i32 {
        self.window.push_back(x);
        if self.window.len() > WINDOW {
            self.window.pop_front();
        }
        self.window.iter().sum::<i32>() / self.window.len() as i32
    }
}
// ANCHOR_END: despike_average

/// Hysteresis: open at `high`, close below `low`.
pub struct Detector {
    high: i32,
    low: i32,
    open: Option<Event>,
}

impl Detector {
    pub fn step(&mut self, index: u64, v: i32) -> Option<Event> {
        match self.open.as_mut() {
            None if v >= self.high => {
                self.open = Some(Event {
                    start: index,
                    end: index,
                    peak: v,
                });
                None
            }
            Some(e) if v < self.low => {
                e.end = index;
                self.open.take()
            }
            Some(e) => {
                e.peak = e.peak.max(v);
                None
            }
            None => None,
        }
    }
}
// ANCHOR_END: components

// ANCHOR: pipeline
/// The components in a row. Feed it chunks of any size; it returns the events they closed.
pub struct Pipeline {
    calibrate: Calibrate,
    despike: Despike,
    smooth: MovingAverage,
    detect: Detector,
    next_index: u64,
}

impl Pipeline {
    pub fn new(s: Settings) -> Self {
        Self {
            calibrate: Calibrate {
                gain: s.gain,
                offset: s.offset,
            },
            despike: Despike::default(),
            smooth: MovingAverage::default(),
            detect: Detector {
                high: s.high,
                low: s.low,
                open: None,
            },
            next_index: 0,
        }
    }

    pub fn process(&mut self, chunk: &[i16]) -> Vec<Event> {
        let mut events = Vec::new();
        for &raw in chunk {
            let v = self
                .smooth
                .step(self.despike.step(self.calibrate.step(raw)));
            events.extend(self.detect.step(self.next_index, v));
            self.next_index += 1;
        }
        events
    }
}
// ANCHOR_END: pipeline
