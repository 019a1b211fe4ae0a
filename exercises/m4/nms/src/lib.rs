//! Exercise: non-maximum suppression, the last step of an object detector.
//!
//! This file is given (the grader uses the staff copy): the box and detection types. Your work:
//! `src/nms.rs`.

mod nms;

pub use nms::{iou, non_max_suppression};

/// An axis-aligned box by its corners, in pixels. A well-formed box has `x0 <= x1` and
/// `y0 <= y1`; a box with `x1 <= x0` or `y1 <= y0` has no area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxXyxy {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

/// One candidate from the detector: where, how sure, and which class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Detection {
    pub bbox: BoxXyxy,
    pub score: f32,
    pub class: u32,
}
