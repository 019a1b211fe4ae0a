//! Case study: the processing around an object detector such as YOLO.
//!
//! Before the model: letterboxing, which scales an image to the model's square input without
//! distorting it and pads the rest. After the model: thousands of candidate boxes, most of them
//! duplicates of one another, which non-maximum suppression (NMS) reduces to one per object.
//! Both are plain CPU code around a model the student supplies, so they are tested and measured
//! here on generated boxes. A network of YOLO's shape with random weights (`network`) closes the
//! loop: its cost is real, its boxes are not.

mod boxes;
mod detector;
mod letterbox;
pub mod network;
mod nms;
mod nms_fast;

pub use boxes::{BoxXyxy, Detection, generated_detections};
pub use detector::{
    FrameResult, NmsFn, STAGES, decode, detect_frame, detect_frame_with, generated_frame, to_tensor,
};
pub use letterbox::{Letterbox, LetterboxError};
pub use nms::{
    NmsStats, nms_branchless, nms_branchless_scalar, nms_scan, nms_sorted, nms_sorted_copied,
};
pub use nms_fast::{nms_by_class, nms_compacting};
