use crate::{BoxXyxy, Detection};

/// Intersection over union of two boxes: the area they share divided by the area they cover.
///
/// - 1.0 for two identical boxes with an area, 0.0 for boxes that do not overlap or only touch;
/// - a box without area (zero or negative width or height) has IoU 0.0 with everything, itself
///   included; the result is never NaN.
pub fn iou(a: &BoxXyxy, b: &BoxXyxy) -> f32 {
    // Wrong on purpose: the area is not clamped at zero, and only a zero area is caught, so a box
    // inverted in one axis has a negative area.
    let area = |r: &BoxXyxy| (r.x1 - r.x0) * (r.y1 - r.y0);
    let (area_a, area_b) = (area(a), area(b));
    if area_a == 0.0 || area_b == 0.0 {
        return 0.0;
    }
    let w = (a.x1.min(b.x1) - a.x0.max(b.x0)).max(0.0);
    let h = (a.y1.min(b.y1) - a.y0.max(b.y0)).max(0.0);
    let inter = w * h;
    inter / (area_a + area_b - inter)
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
    let mut order: Vec<usize> = (0..dets.len())
        .filter(|&i| dets[i].score >= min_score)
        .collect();
    // A stable sort keeps equal scores in index order.
    order.sort_by(|&a, &b| dets[b].score.total_cmp(&dets[a].score));
    let mut kept: Vec<usize> = Vec::new();
    for i in order {
        let overlaps = kept.iter().any(|&k| {
            dets[k].class == dets[i].class && iou(&dets[k].bbox, &dets[i].bbox) > max_iou
        });
        if !overlaps {
            kept.push(i);
        }
    }
    kept
}
