//! Two faster NMS versions that the sorted walk's counts point at: compact the survivors after
//! each kept box, so that suppressed boxes are never visited again, and split the boxes by class
//! first, so that a kept box meets only the boxes it could suppress.

use super::Detection;
use super::nms::{NmsStats, by_score, candidates};

/// Sort once, then let each kept box suppress its overlaps among the survivors and close the gaps
/// in place: the next box kept is the first survivor, and dead boxes are never visited again.
pub fn nms_compacting(dets: &[Detection], min_score: f32, max_iou: f32) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut order = candidates(dets, min_score);
    order.sort_by(|&a, &b| by_score(dets, b, a));
    let kept = suppress_compacting(dets, &mut order, max_iou, true, &mut stats);
    (kept, stats)
}

/// [`nms_compacting`] on each class alone: a kept box never visits boxes of other classes. The
/// kept boxes are then merged back into score order.
pub fn nms_by_class(dets: &[Detection], min_score: f32, max_iou: f32) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut order = candidates(dets, min_score);
    // One sort by class, then by score within a class.
    order.sort_by(|&a, &b| {
        dets[a]
            .class
            .cmp(&dets[b].class)
            .then_with(|| by_score(dets, b, a))
    });
    let mut kept = Vec::new();
    for class in order.chunk_by_mut(|&a, &b| dets[a].class == dets[b].class) {
        kept.extend(suppress_compacting(dets, class, max_iou, false, &mut stats));
    }
    kept.sort_by(|&a, &b| by_score(dets, b, a));
    (kept, stats)
}

// ANCHOR: compact
/// Keeps the first live box of `order` (sorted best first), removes the boxes it suppresses by
/// moving the survivors down, and repeats. `mixed_classes`: whether to skip other classes.
fn suppress_compacting(
    dets: &[Detection],
    order: &mut [usize],
    max_iou: f32,
    mixed_classes: bool,
    stats: &mut NmsStats,
) -> Vec<usize> {
    let mut kept = Vec::new();
    let mut live = order.len();
    let mut next = 0;
    while next < live {
        let best = order[next];
        kept.push(best);
        stats.scans += 1;
        stats.visits += (live - next - 1) as u64;
        let mut write = next + 1;
        for read in next + 1..live {
            let j = order[read];
            let survives = (mixed_classes && dets[j].class != dets[best].class) || {
                stats.iou_tests += 1;
                dets[j].bbox.iou(&dets[best].bbox) <= max_iou
            };
            if survives {
                order[write] = j;
                write += 1;
            }
        }
        live = write;
        next += 1;
    }
    kept
}
// ANCHOR_END: compact
