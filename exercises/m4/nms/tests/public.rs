//! Public tests: `cargo nextest run -p ex_m4_nms`.

use ex_m4_nms::{BoxXyxy, Detection, iou, non_max_suppression};

fn det(x0: f32, y0: f32, x1: f32, y1: f32, score: f32, class: u32) -> Detection {
    Detection {
        bbox: BoxXyxy { x0, y0, x1, y1 },
        score,
        class,
    }
}

#[test]
fn nms_public_iou_of_half_overlapping_squares() {
    let a = BoxXyxy {
        x0: 0.0,
        y0: 0.0,
        x1: 2.0,
        y1: 2.0,
    };
    let b = BoxXyxy {
        x0: 1.0,
        y0: 0.0,
        x1: 3.0,
        y1: 2.0,
    };
    assert!((iou(&a, &b) - 1.0 / 3.0).abs() < 1e-6);
    assert_eq!(iou(&a, &a), 1.0);
}

#[test]
fn nms_public_duplicates_collapse_to_the_best() {
    let dets = [
        det(0.0, 0.0, 10.0, 10.0, 0.6, 0),
        det(0.5, 0.5, 10.5, 10.5, 0.9, 0),
        det(40.0, 40.0, 50.0, 50.0, 0.8, 0),
    ];
    assert_eq!(non_max_suppression(&dets, 0.25, 0.5), [1, 2]);
}

#[test]
fn nms_public_other_classes_are_not_suppressed() {
    let dets = [
        det(0.0, 0.0, 10.0, 10.0, 0.9, 0),
        det(0.0, 0.0, 10.0, 10.0, 0.8, 1),
    ];
    assert_eq!(non_max_suppression(&dets, 0.25, 0.5), [0, 1]);
}
