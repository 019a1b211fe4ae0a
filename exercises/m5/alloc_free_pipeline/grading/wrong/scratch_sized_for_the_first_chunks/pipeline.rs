//! Your work: the streaming pipeline, which allocates nothing.

use crate::reference::check;
use crate::{Block, Settings, SettingsError};

pub struct Pipeline {
    s: Settings,
    previous_x: f32,
    previous_y: f32,
    /// The current block so far.
    seen: usize,
    sum: f32,
    peak: f32,
    clipped: u32,
    /// Wrong: a scratch copy of the chunk, reserved for 10 ms at 48 kHz and grown when a
    /// larger chunk comes (an allocation in the callback).
    scratch: Vec<f32>,
}

impl Pipeline {
    pub fn new(s: Settings) -> Result<Self, SettingsError> {
        check(&s)?;
        Ok(Self {
            s,
            previous_x: 0.0,
            previous_y: 0.0,
            seen: 0,
            sum: 0.0,
            peak: 0.0,
            clipped: 0,
            scratch: Vec::with_capacity(480),
        })
    }

    /// Filters `chunk` and pushes a `Block` onto `out` for every block it completes.
    pub fn process(&mut self, chunk: &[f32], out: &mut Vec<Block>) {
        self.scratch.clear();
        self.scratch.extend_from_slice(chunk);
        for i in 0..self.scratch.len() {
            let x = self.scratch[i];
            let y = x - self.previous_x + self.s.pole * self.previous_y;
            (self.previous_x, self.previous_y) = (x, y);
            self.sum += y * y;
            self.peak = self.peak.max(y.abs());
            self.clipped += u32::from(x.abs() >= self.s.clip);
            self.seen += 1;
            if self.seen == self.s.block_len {
                out.push(Block {
                    rms: (self.sum / self.s.block_len as f32).sqrt(),
                    peak: self.peak,
                    clipped: self.clipped,
                });
                (self.seen, self.sum, self.peak, self.clipped) = (0, 0.0, 0.0, 0);
            }
        }
    }
}
