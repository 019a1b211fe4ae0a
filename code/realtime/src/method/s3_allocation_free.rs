//! Stage 3: optimised only now, with stage 2 as the reference. The despiker keeps two samples,
//! the moving average a fixed array and a running sum, and events go into a buffer the caller
//! owns and reuses. From the first call on, `process` allocates nothing as long as that buffer has
//! room (a test counts).

use super::{Event, Settings, WINDOW};

// ANCHOR: optimised
pub struct Pipeline {
    s: Settings,
    /// The two previous calibrated samples (the first sample repeated at the start).
    previous: Option<[i32; 2]>,
    window: [i32; WINDOW],
    filled: usize,
    oldest: usize,
    sum: i32,
    open: Option<Event>,
    next_index: u64,
}

impl Pipeline {
    pub fn new(s: Settings) -> Self {
        Self {
            s,
            previous: None,
            window: [0; WINDOW],
            filled: 0,
            oldest: 0,
            sum: 0,
            open: None,
            next_index: 0,
        }
    }

    // ANCHOR: process
    /// Appends the events this chunk closed to `events` (which the caller clears and reuses).
    pub fn process(&mut self, chunk: &[i16], events: &mut Vec<Event>) {
        for &raw in chunk {
            let x = i32::from(raw) * self.s.gain + self.s.offset;
            let [a, b] = self.previous.unwrap_or([x, x]);
            self.previous = Some([b, x]);
            let median = a.max(b).min(a.min(b).max(x));
            let v = self.smooth(median);
            self.detect(v, events);
            self.next_index += 1;
        }
    }

    fn smooth(&mut self, x: i32) -> i32 {
        if self.filled < WINDOW {
            self.window[self.filled] = x;
            self.filled += 1;
        } else {
            self.sum -= self.window[self.oldest];
            self.window[self.oldest] = x;
            self.oldest = (self.oldest + 1) % WINDOW;
        }
        self.sum += x;
        self.sum / self.filled as i32
    }
    // ANCHOR_END: process

    fn detect(&mut self, v: i32, events: &mut Vec<Event>) {
        let i = self.next_index;
        match self.open.as_mut() {
            None if v >= self.s.high => {
                self.open = Some(Event {
                    start: i,
                    end: i,
                    peak: v,
                })
            }
            Some(e) if v < self.s.low => {
                e.end = i;
                events.push(*e);
                self.open = None;
            }
            Some(e) => e.peak = e.peak.max(v),
            None => {}
        }
    }
}
// ANCHOR_END: optimised
