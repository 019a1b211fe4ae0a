//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m4_nms::{BoxXyxy, Detection, iou, non_max_suppression};

fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> BoxXyxy {
    BoxXyxy { x0, y0, x1, y1 }
}

fn det(bbox: BoxXyxy, score: f32, class: u32) -> Detection {
    Detection { bbox, score, class }
}

/// SplitMix64, so the tests need no dependency.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Clusters of jittered boxes around a few objects, three classes, some equal scores.
fn generated(seed: u64, count: usize) -> Vec<Detection> {
    let mut rng = Rng(seed);
    let objects: Vec<(f32, f32, f32)> = (0..(count / 15).max(1))
        .map(|_| {
            (
                rng.unit() * 600.0,
                rng.unit() * 600.0,
                20.0 + rng.unit() * 120.0,
            )
        })
        .collect();
    (0..count)
        .map(|i| {
            let (cx, cy, s) = objects[i % objects.len()];
            let (cx, cy) = (
                cx + (rng.unit() - 0.5) * s * 0.4,
                cy + (rng.unit() - 0.5) * s * 0.4,
            );
            let (w, h) = (s * (0.7 + 0.6 * rng.unit()), s * (0.7 + 0.6 * rng.unit()));
            // Scores on a coarse grid, so that ties happen.
            let score = (rng.unit() * 20.0).floor() / 20.0;
            det(
                b(cx - w / 2.0, cy - h / 2.0, cx + w / 2.0, cy + h / 2.0),
                score,
                (i % 3) as u32,
            )
        })
        .collect()
}

/// Boxes with whole-number corners and sides of 2 to 4, a step or two apart, in clusters of one
/// class: IoUs such as 1/3, 1/2 and 1/7 come out exactly, so that an IoU equal to `max_iou`
/// happens often. (Small whole numbers are exact in f32, and one division rounds I/U the same
/// way as it rounds the threshold.)
fn generated_on_grid(seed: u64, count: usize) -> Vec<Detection> {
    let mut rng = Rng(seed);
    let whole = |rng: &mut Rng, n: u32| (rng.unit() * n as f32).floor().min(n as f32 - 1.0);
    let objects: Vec<(f32, f32)> = (0..(count / 12).max(1))
        .map(|_| (4.0 * whole(&mut rng, 40), 4.0 * whole(&mut rng, 40)))
        .collect();
    (0..count)
        .map(|i| {
            let (x, y) = objects[i % objects.len()];
            let (x0, y0) = (x + whole(&mut rng, 3), y + whole(&mut rng, 3));
            let (w, h) = (2.0 + whole(&mut rng, 3), 2.0 + whole(&mut rng, 3));
            let score = (rng.unit() * 10.0).floor() / 10.0;
            det(
                b(x0, y0, x0 + w, y0 + h),
                score,
                (i % objects.len() % 3) as u32,
            )
        })
        .collect()
}

/// The reference, written another way: a suppression matrix over the sorted candidates.
fn reference_iou(a: &BoxXyxy, c: &BoxXyxy) -> f64 {
    let area = |r: &BoxXyxy| f64::from((r.x1 - r.x0).max(0.0)) * f64::from((r.y1 - r.y0).max(0.0));
    if area(a) == 0.0 || area(c) == 0.0 {
        return 0.0;
    }
    let w = f64::from((a.x1.min(c.x1) - a.x0.max(c.x0)).max(0.0));
    let h = f64::from((a.y1.min(c.y1) - a.y0.max(c.y0)).max(0.0));
    w * h / (area(a) + area(c) - w * h)
}

fn reference(dets: &[Detection], min_score: f32, max_iou: f32) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..dets.len())
        .filter(|&i| dets[i].score >= min_score)
        .collect();
    idx.sort_by(|&a, &c| {
        dets[c]
            .score
            .partial_cmp(&dets[a].score)
            .unwrap()
            .then(a.cmp(&c))
    });
    let mut alive = vec![true; idx.len()];
    for r in 0..idx.len() {
        if !alive[r] {
            continue;
        }
        for s in r + 1..idx.len() {
            let (p, q) = (&dets[idx[r]], &dets[idx[s]]);
            if p.class == q.class && iou(&p.bbox, &q.bbox) > max_iou {
                alive[s] = false;
            }
        }
    }
    idx.into_iter()
        .zip(alive)
        .filter(|&(_, a)| a)
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn nms_hidden_iou_known_values() {
    let a = b(0.0, 0.0, 4.0, 4.0);
    assert!((iou(&a, &b(2.0, 2.0, 6.0, 6.0)) - 4.0 / 28.0).abs() < 1e-6);
    assert!(
        (iou(&a, &b(1.0, 1.0, 3.0, 3.0)) - 0.25).abs() < 1e-6,
        "a box inside another"
    );
    assert_eq!(
        iou(&a, &b(4.0, 0.0, 8.0, 4.0)),
        0.0,
        "touching edges share no area"
    );
    assert_eq!(iou(&a, &b(10.0, 10.0, 12.0, 12.0)), 0.0);
    let x = b(0.5, 1.5, 3.0, 7.0);
    assert_eq!(iou(&a, &x), iou(&x, &a), "symmetric");
    grade_ok!("nms_hidden_iou_known_values");
}

#[test]
fn nms_hidden_iou_of_boxes_without_area_is_zero_not_nan() {
    let point = b(1.0, 1.0, 1.0, 1.0);
    let line = b(0.0, 1.0, 4.0, 1.0);
    let inverted = b(4.0, 4.0, 0.0, 0.0);
    // Inverted in x only: a raw (x1 - x0) * (y1 - y0) area is -16, and against a normal box
    // of area 16 the union is 0.
    let inverted_x = b(4.0, 0.0, 0.0, 4.0);
    let square = b(0.0, 0.0, 4.0, 4.0);
    for (p, q) in [
        (point, point),
        (line, line),
        (point, b(0.0, 0.0, 2.0, 2.0)),
        (inverted, inverted),
        (inverted_x, square),
        (square, inverted_x),
    ] {
        let v = iou(&p, &q);
        assert_eq!(v, 0.0, "{p:?} {q:?} gave {v}");
    }
    grade_ok!("nms_hidden_iou_of_boxes_without_area_is_zero_not_nan");
}

#[test]
fn nms_hidden_thresholds_are_inclusive_where_the_rules_say() {
    // IoU exactly 1/3 (two 2×2 squares overlapping by half): equal to max_iou does not suppress.
    let dets = [
        det(b(0.0, 0.0, 2.0, 2.0), 0.9, 0),
        det(b(1.0, 0.0, 3.0, 2.0), 0.8, 0),
    ];
    assert_eq!(non_max_suppression(&dets, 0.0, 0.5), [0, 1]);
    assert_eq!(non_max_suppression(&dets, 0.0, 0.25), [0]);
    // max_iou equal to that IoU (1/3 is the same f32 both ways): the second box stays.
    assert_eq!(non_max_suppression(&dets, 0.0, 1.0 / 3.0), [0, 1]);
    // A score equal to min_score takes part; one below does not.
    assert_eq!(non_max_suppression(&dets, 0.8, 0.5), [0, 1]);
    assert_eq!(non_max_suppression(&dets, 0.85, 0.5), [0]);
    assert!(non_max_suppression(&[], 0.0, 0.5).is_empty());
    grade_ok!("nms_hidden_thresholds_are_inclusive_where_the_rules_say");
}

#[test]
fn nms_hidden_a_suppressed_box_suppresses_nothing() {
    // A overlaps B, B overlaps C, A does not overlap C: A and C are kept.
    let dets = [
        det(b(0.0, 0.0, 10.0, 10.0), 0.9, 0),
        det(b(4.0, 0.0, 14.0, 10.0), 0.8, 0),
        det(b(8.0, 0.0, 18.0, 10.0), 0.7, 0),
    ];
    assert_eq!(non_max_suppression(&dets, 0.0, 0.3), [0, 2]);
    grade_ok!("nms_hidden_a_suppressed_box_suppresses_nothing");
}

#[test]
fn nms_hidden_best_first_and_ties_in_index_order() {
    let far = |k: f32| b(100.0 * k, 0.0, 100.0 * k + 10.0, 10.0);
    let dets = [
        det(far(0.0), 0.5, 0),
        det(far(1.0), 0.9, 1),
        det(far(2.0), 0.5, 0),
        det(far(3.0), 0.7, 2),
    ];
    assert_eq!(non_max_suppression(&dets, 0.0, 0.5), [1, 3, 0, 2]);
    // Identical boxes with equal scores: the lower index wins.
    let same = [det(far(0.0), 0.5, 0), det(far(0.0), 0.5, 0)];
    assert_eq!(non_max_suppression(&same, 0.0, 0.5), [0]);
    grade_ok!("nms_hidden_best_first_and_ties_in_index_order");
}

#[test]
fn nms_hidden_matches_a_reference_on_generated_boxes() {
    for seed in 0..40 {
        let dets = generated(seed, 50 + 37 * seed as usize);
        for (min_score, max_iou) in [(0.25, 0.45), (0.0, 0.7), (0.5, 0.2)] {
            assert_eq!(
                non_max_suppression(&dets, min_score, max_iou),
                reference(&dets, min_score, max_iou),
                "seed {seed}, min_score {min_score}, max_iou {max_iou}"
            );
        }
    }
    // Whole-number boxes at thresholds their IoUs hit exactly: equal to max_iou keeps the box.
    let thresholds = [1.0 / 3.0, 0.5, 1.0 / 7.0, 0.25];
    let mut equal_pairs = 0;
    for seed in 0..40 {
        let dets = generated_on_grid(seed, 30 + 6 * seed as usize);
        for (i, p) in dets.iter().enumerate() {
            for q in &dets[i + 1..] {
                // Intersection and union are whole numbers here, so one f32 division gives
                // the IoU that any correct `iou` returns.
                let w = (p.bbox.x1.min(q.bbox.x1) - p.bbox.x0.max(q.bbox.x0)).max(0.0);
                let h = (p.bbox.y1.min(q.bbox.y1) - p.bbox.y0.max(q.bbox.y0)).max(0.0);
                let area = |r: &BoxXyxy| (r.x1 - r.x0) * (r.y1 - r.y0);
                let union = area(&p.bbox) + area(&q.bbox) - w * h;
                if p.class == q.class && thresholds.contains(&(w * h / union)) {
                    equal_pairs += 1;
                }
            }
        }
        for max_iou in thresholds {
            assert_eq!(
                non_max_suppression(&dets, 0.0, max_iou),
                reference(&dets, 0.0, max_iou),
                "whole-number boxes, seed {seed}, max_iou {max_iou}"
            );
        }
    }
    assert!(
        equal_pairs > 500,
        "the grid scenes should hold many pairs at the threshold, not {equal_pairs}"
    );
    grade_ok!("nms_hidden_matches_a_reference_on_generated_boxes");
}

#[test]
fn nms_hidden_iou_matches_a_reference_on_generated_boxes() {
    let dets = generated(99, 300);
    for p in &dets[..60] {
        for q in &dets[..60] {
            let (got, want) = (
                f64::from(iou(&p.bbox, &q.bbox)),
                reference_iou(&p.bbox, &q.bbox),
            );
            assert!((got - want).abs() < 1e-5, "{p:?} {q:?}: {got} vs {want}");
        }
    }
    grade_ok!("nms_hidden_iou_matches_a_reference_on_generated_boxes");
}
