//! Rule: don't copy what you can borrow. A `clone()` of a frame is an allocation and a memcpy.

use crate::workload::mean;

// ANCHOR: clone
/// Before: the frame is cloned on its way into the processing step.
pub fn process_owned(frame: Vec<f32>) -> f64 {
    mean(&frame)
}

pub fn cloning(frame: &[f32]) -> f64 {
    process_owned(frame.to_vec())
}
// ANCHOR_END: clone

// ANCHOR: borrow
/// After: the step borrows the frame; nothing is copied.
pub fn borrowing(frame: &[f32]) -> f64 {
    mean(frame)
}
// ANCHOR_END: borrow
