//! Rule: no allocation in the hot loop. Allocate once, before the loop, and reuse.

use crate::workload::{find_peaks_into, sensor_frame, smooth_into};

// ANCHOR: before
/// Before: every iteration builds two fresh vectors, and `smoothed` grows from empty by `push`:
/// about ten reallocations up to 4 KiB, then the peaks' allocation, then the frees.
pub fn allocating(input: &[f32]) -> usize {
    let mut smoothed = Vec::new();
    smooth_into(input, &mut smoothed);
    let mut peaks = Vec::new();
    find_peaks_into(&smoothed, 0.5, &mut peaks);
    peaks.len()
}
// ANCHOR_END: before

// ANCHOR: after
/// After: the buffers live outside the loop and only their contents change.
pub struct Preallocated {
    smoothed: Vec<f32>,
    peaks: Vec<usize>,
}

impl Preallocated {
    pub fn new(frame_len: usize) -> Self {
        Self {
            smoothed: Vec::with_capacity(frame_len),
            peaks: Vec::with_capacity(frame_len),
        }
    }

    pub fn step(&mut self, input: &[f32]) -> usize {
        smooth_into(input, &mut self.smoothed);
        find_peaks_into(&self.smoothed, 0.5, &mut self.peaks);
        self.peaks.len()
    }
}
// ANCHOR_END: after

/// The frame both variants process.
pub fn input() -> Vec<f32> {
    sensor_frame(7)
}
