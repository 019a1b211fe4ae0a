use super::Detection;

/// How much work an NMS did: the deterministic measure next to the clock's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NmsStats {
    /// Intersection-over-union computations.
    pub iou_tests: u64,
    /// Candidates looked at while searching for the next best one.
    pub scans: u64,
    /// Boxes a kept box's suppression pass looks at, whether still live or already suppressed:
    /// the inner loop's length, which the IoU count alone does not show.
    pub visits: u64,
}

pub(super) fn candidates(dets: &[Detection], min_score: f32) -> Vec<usize> {
    (0..dets.len())
        .filter(|&i| dets[i].score >= min_score)
        .collect()
}

// ANCHOR: nms_scan
/// The textbook version: repeatedly find the best remaining box by scanning, keep it, and drop
/// every remaining box of its class that overlaps it by more than `max_iou`.
pub fn nms_scan(dets: &[Detection], min_score: f32, max_iou: f32) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut remaining = candidates(dets, min_score);
    let mut kept = Vec::new();
    while !remaining.is_empty() {
        stats.scans += remaining.len() as u64;
        let best_at = (0..remaining.len())
            .max_by(|&a, &b| by_score(dets, remaining[a], remaining[b]))
            .expect("not empty");
        let best = remaining.swap_remove(best_at);
        kept.push(best);
        stats.visits += remaining.len() as u64;
        remaining.retain(|&i| {
            if dets[i].class != dets[best].class {
                return true;
            }
            stats.iou_tests += 1;
            dets[i].bbox.iou(&dets[best].bbox) <= max_iou
        });
    }
    (kept, stats)
}
// ANCHOR_END: nms_scan

// ANCHOR: nms_sorted
/// The same result with one sort: walk the boxes from best to worst, and let each kept box
/// suppress the later ones of its class.
pub fn nms_sorted(dets: &[Detection], min_score: f32, max_iou: f32) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut order = candidates(dets, min_score);
    order.sort_by(|&a, &b| by_score(dets, b, a));
    let mut suppressed = vec![false; order.len()];
    let mut kept = Vec::new();
    for (rank, &i) in order.iter().enumerate() {
        if suppressed[rank] {
            continue;
        }
        kept.push(i);
        stats.visits += (order.len() - rank - 1) as u64;
        for (later, &j) in order.iter().enumerate().skip(rank + 1) {
            if suppressed[later] || dets[j].class != dets[i].class {
                continue;
            }
            stats.iou_tests += 1;
            if dets[j].bbox.iou(&dets[i].bbox) > max_iou {
                suppressed[later] = true;
            }
        }
    }
    stats.scans = order.len() as u64;
    (kept, stats)
}
// ANCHOR_END: nms_sorted

/// [`nms_sorted`] with the candidates first copied into score order, so that the walk reads the
/// boxes one after another instead of jumping through `order` into `dets`. It looks at the same
/// boxes and makes the same IoU tests; only where the boxes sit in memory differs. A probe of
/// what one look costs, for the case study, more than a faster NMS.
pub fn nms_sorted_copied(
    dets: &[Detection],
    min_score: f32,
    max_iou: f32,
) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut order = candidates(dets, min_score);
    order.sort_by(|&a, &b| by_score(dets, b, a));
    let ranked: Vec<Detection> = order.iter().map(|&i| dets[i]).collect();
    let mut suppressed = vec![false; ranked.len()];
    let mut kept = Vec::new();
    for (rank, best) in ranked.iter().enumerate() {
        if suppressed[rank] {
            continue;
        }
        kept.push(order[rank]);
        stats.visits += (ranked.len() - rank - 1) as u64;
        for (later, other) in ranked.iter().enumerate().skip(rank + 1) {
            if suppressed[later] || other.class != best.class {
                continue;
            }
            stats.iou_tests += 1;
            if other.bbox.iou(&best.bbox) > max_iou {
                suppressed[later] = true;
            }
        }
    }
    stats.scans = order.len() as u64;
    (kept, stats)
}

// ANCHOR: nms_branchless
/// [`nms_sorted_copied`] without a data-dependent branch in the inner loop: every later box gets
/// its IoU computed, and the test's outcome is folded into its flag with `&` and `|=` (a box
/// already suppressed stays suppressed; one of another class is never suppressed). It keeps the
/// same boxes and makes many more IoU tests (every later box, suppressed or of another class:
/// about ten times as many on the 8000-box scene). With no branch in the loop, the compiler is
/// also free to compute several IoUs at once in SIMD registers.
pub fn nms_branchless(dets: &[Detection], min_score: f32, max_iou: f32) -> (Vec<usize>, NmsStats) {
    branch_free_walk(dets, min_score, max_iou, |other| other)
}

/// [`nms_branchless`] with each box passed through [`std::hint::black_box`] before its IoU: the
/// optimiser can no longer see the loads, so it computes one IoU at a time, as the copied walk
/// does. The control that separates the branches' cost from the vector arithmetic's gain.
pub fn nms_branchless_scalar(
    dets: &[Detection],
    min_score: f32,
    max_iou: f32,
) -> (Vec<usize>, NmsStats) {
    branch_free_walk(dets, min_score, max_iou, |other| {
        std::hint::black_box(other)
    })
}

fn branch_free_walk(
    dets: &[Detection],
    min_score: f32,
    max_iou: f32,
    look: impl Fn(&Detection) -> &Detection,
) -> (Vec<usize>, NmsStats) {
    let mut stats = NmsStats::default();
    let mut order = candidates(dets, min_score);
    order.sort_by(|&a, &b| by_score(dets, b, a));
    let ranked: Vec<Detection> = order.iter().map(|&i| dets[i]).collect();
    let mut suppressed = vec![false; ranked.len()];
    let mut kept = Vec::new();
    for rank in 0..ranked.len() {
        if suppressed[rank] {
            continue;
        }
        kept.push(order[rank]);
        let best = ranked[rank];
        let later = rank + 1..ranked.len();
        stats.visits += later.len() as u64;
        stats.iou_tests += later.len() as u64;
        for (flag, other) in suppressed[later.clone()].iter_mut().zip(&ranked[later]) {
            let other = look(other);
            let same_class = other.class == best.class;
            let overlaps = other.bbox.iou(&best.bbox) > max_iou;
            *flag |= same_class & overlaps;
        }
    }
    stats.scans = order.len() as u64;
    (kept, stats)
}
// ANCHOR_END: nms_branchless

/// Higher score first; ties go to the lower index, so both versions agree exactly.
pub(super) fn by_score(dets: &[Detection], a: usize, b: usize) -> std::cmp::Ordering {
    dets[a]
        .score
        .total_cmp(&dets[b].score)
        .then_with(|| b.cmp(&a))
}
