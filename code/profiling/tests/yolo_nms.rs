//! The box generator's clusters, and the faster NMS versions against the reference on random
//! boxes.

use profiling_lab::yolo::{
    BoxXyxy, Detection, generated_detections, nms_branchless, nms_branchless_scalar, nms_by_class,
    nms_compacting, nms_scan, nms_sorted, nms_sorted_copied,
};
use proptest::prelude::*;

#[test]
fn jitter_is_relative_to_box_size_so_scenes_scale_with_the_image() {
    let small = generated_detections(7, 800, 640.0, 480.0);
    let large = generated_detections(7, 800, 6400.0, 4800.0);
    for (a, b) in small.iter().zip(&large) {
        for (x, y) in [
            (a.bbox.x0, b.bbox.x0),
            (a.bbox.y0, b.bbox.y0),
            (a.bbox.x1, b.bbox.x1),
            (a.bbox.y1, b.bbox.y1),
        ] {
            assert!((x * 10.0 - y).abs() <= 1e-3 * y.max(1.0), "{x} vs {y}");
        }
        assert_eq!((a.score, a.class), (b.score, b.class));
    }
}

#[test]
fn one_object_collapses_to_about_one_box() {
    // 40 candidates of one object: all near the best one, whatever the object's size.
    let mut kept_total = 0;
    for seed in 0..50 {
        let dets = generated_detections(seed, 40, 640.0, 640.0);
        let (kept, _) = nms_scan(&dets, 0.0, 0.45);
        assert!(kept.len() <= 3, "seed {seed}: {} kept", kept.len());
        kept_total += kept.len();
    }
    assert!(kept_total <= 60, "{kept_total} kept for 50 objects");
}

#[test]
fn compacting_visits_what_the_scan_visits_and_less_than_the_walk() {
    let dets = generated_detections(42, 4000, 640.0, 640.0);
    let (_, scan) = nms_scan(&dets, 0.25, 0.45);
    let (_, sorted) = nms_sorted(&dets, 0.25, 0.45);
    let (_, compact) = nms_compacting(&dets, 0.25, 0.45);
    let (_, by_class) = nms_by_class(&dets, 0.25, 0.45);
    let (_, copied) = nms_sorted_copied(&dets, 0.25, 0.45);
    assert_eq!(
        copied, sorted,
        "copying the boxes changes where they are, not the work"
    );
    let (kept_branchless, branchless) = nms_branchless(&dets, 0.25, 0.45);
    assert_eq!(kept_branchless, nms_sorted(&dets, 0.25, 0.45).0);
    assert_eq!(
        nms_branchless_scalar(&dets, 0.25, 0.45),
        (kept_branchless, branchless),
        "one IoU at a time: the same boxes kept, the same work"
    );
    assert_eq!(branchless.visits, sorted.visits, "the same walk");
    assert_eq!(
        branchless.iou_tests, branchless.visits,
        "no branch: an IoU for every box visited"
    );
    assert_eq!(compact.visits, scan.visits);
    assert!(compact.visits < sorted.visits, "{compact:?} {sorted:?}");
    // The same IoU tests in all three: only the boxes visited between them differ.
    assert_eq!(compact.iou_tests, sorted.iou_tests);
    assert_eq!(by_class.iou_tests, sorted.iou_tests);
    assert_eq!(by_class.visits, by_class.iou_tests);
    assert!(by_class.visits < compact.visits);
}

fn detection() -> impl Strategy<Value = Detection> {
    // Coarse coordinates and scores, so that equal IoUs, equal scores and touching boxes occur.
    (0u8..8, 0u8..8, 1u8..6, 1u8..6, 0u8..6, 0u32..3).prop_map(|(x, y, w, h, s, class)| {
        let (x0, y0) = (f32::from(x), f32::from(y));
        Detection {
            bbox: BoxXyxy {
                x0,
                y0,
                x1: x0 + f32::from(w),
                y1: y0 + f32::from(h),
            },
            score: f32::from(s) / 5.0,
            class,
        }
    })
}

proptest! {
    #[test]
    fn every_version_keeps_what_the_reference_keeps(
        dets in prop::collection::vec(detection(), 0..120),
        min_score in prop::sample::select(vec![0.0f32, 0.2, 0.5, 1.0]),
        max_iou in prop::sample::select(vec![0.0f32, 0.25, 1.0 / 3.0, 0.45, 0.5, 1.0]),
    ) {
        let (reference, reference_work) = nms_scan(&dets, min_score, max_iou);
        for nms in [nms_sorted, nms_sorted_copied, nms_compacting, nms_by_class] {
            let (kept, work) = nms(&dets, min_score, max_iou);
            prop_assert_eq!(&kept, &reference);
            prop_assert!(work.iou_tests <= reference_work.iou_tests);
        }
        for nms in [nms_branchless, nms_branchless_scalar] {
            let (kept, _) = nms(&dets, min_score, max_iou);
            prop_assert_eq!(&kept, &reference);
        }
    }
}
