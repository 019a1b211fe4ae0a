use crate::{BoxXyxy, Detection};

/// Intersection over union of two boxes: the area they share divided by the area they cover.
///
/// - 1.0 for two identical boxes with an area, 0.0 for boxes that do not overlap or only touch;
/// - a box without area (zero or negative width or height) has IoU 0.0 with everything, itself
///   included; the result is never NaN.
pub fn iou(a: &BoxXyxy, b: &BoxXyxy) -> f32 {
    todo!("intersection over union of {a:?} and {b:?}")
}

/// Greedy, per-class non-maximum suppression. Returns the indices (into `dets`) of the kept
/// detections, best first.
///
/// 1. Only detections with `score >= min_score` take part.
/// 2. Rank them by score, highest first; equal scores keep their order in `dets` (lower index
///    first).
/// 3. Walk the ranking: a detection is kept unless a detection that was *kept* before it, of the
///    *same class*, overlaps it with `iou > max_iou` (an IoU equal to `max_iou` does not
///    suppress). A suppressed detection suppresses nothing.
pub fn non_max_suppression(dets: &[Detection], min_score: f32, max_iou: f32) -> Vec<usize> {
    todo!(
        "NMS of {} detections, min_score {min_score}, max_iou {max_iou}",
        dets.len()
    )
}
