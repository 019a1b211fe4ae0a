//! Letterboxing and non-maximum suppression on hand-made and generated boxes.

use profiling_lab::yolo::{
    BoxXyxy, Detection, Letterbox, LetterboxError, generated_detections, nms_scan, nms_sorted,
};

fn det(x0: f32, y0: f32, x1: f32, y1: f32, score: f32, class: u32) -> Detection {
    Detection {
        bbox: BoxXyxy { x0, y0, x1, y1 },
        score,
        class,
    }
}

#[test]
fn iou_of_known_boxes() {
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
    assert_eq!(a.iou(&a), 1.0);
    assert!((a.iou(&b) - 2.0 / 6.0).abs() < 1e-6);
    let far = BoxXyxy {
        x0: 5.0,
        y0: 5.0,
        x1: 6.0,
        y1: 6.0,
    };
    assert_eq!(a.iou(&far), 0.0);
}

#[test]
fn nms_keeps_the_best_of_each_overlapping_group_per_class() {
    let dets = [
        det(0.0, 0.0, 10.0, 10.0, 0.9, 0),
        det(1.0, 1.0, 11.0, 11.0, 0.8, 0), // overlaps the first: suppressed
        det(1.0, 1.0, 11.0, 11.0, 0.7, 1), // same place, other class: kept
        det(50.0, 50.0, 60.0, 60.0, 0.6, 0), // elsewhere: kept
        det(50.0, 50.0, 60.0, 60.0, 0.1, 0), // below the score threshold
    ];
    for nms in [nms_scan, nms_sorted] {
        let (kept, _) = nms(&dets, 0.25, 0.5);
        assert_eq!(kept, [0, 2, 3]);
    }
}

#[test]
fn both_nms_versions_agree_on_generated_boxes_and_sorted_searches_less() {
    for seed in 0..20 {
        let dets = generated_detections(seed, 400, 640.0, 480.0);
        let (a, scan) = nms_scan(&dets, 0.25, 0.45);
        let (b, sorted) = nms_sorted(&dets, 0.25, 0.45);
        assert_eq!(a, b, "seed {seed}");
        assert!(
            a.len() < dets.len() / 2,
            "clusters collapse: {} of {}",
            a.len(),
            dets.len()
        );
        // Sorting saves the search for the next box to keep; it does not save visits (the walk
        // still steps over dead boxes), so only the search is compared here.
        assert!(sorted.scans < scan.scans);
        // Kept boxes of one class never overlap by more than the threshold.
        for (n, &i) in a.iter().enumerate() {
            for &j in &a[n + 1..] {
                if dets[i].class == dets[j].class {
                    assert!(dets[i].bbox.iou(&dets[j].bbox) <= 0.45);
                }
            }
        }
    }
}

#[test]
fn letterbox_maps_boxes_there_and_back() {
    let lb = Letterbox::fit(640, 480, 320).unwrap();
    assert_eq!(lb.scale, 0.5);
    assert_eq!((lb.pad_x, lb.pad_y), (0.0, 40.0));
    let b = BoxXyxy {
        x0: 100.0,
        y0: 50.0,
        x1: 300.0,
        y1: 470.0,
    };
    let back = lb.to_image(&lb.to_input(&b));
    for (x, y) in [
        (back.x0, b.x0),
        (back.y0, b.y0),
        (back.x1, b.x1),
        (back.y1, b.y1),
    ] {
        assert!((x - y).abs() < 1e-3);
    }
    // A box in the padding is clipped to the image.
    let pad = lb.to_image(&BoxXyxy {
        x0: 0.0,
        y0: 0.0,
        x1: 10.0,
        y1: 20.0,
    });
    assert_eq!((pad.y0, pad.y1), (0.0, 0.0));
}

#[test]
fn letterboxed_image_has_grey_bars_and_the_picture_between() {
    let (w, h) = (4u32, 2u32);
    let rgb: Vec<u8> = (0..w * h).flat_map(|p| [p as u8 * 10, 0, 255]).collect();
    let lb = Letterbox::fit(w, h, 4).unwrap();
    let out = lb.apply(&rgb).unwrap();
    assert_eq!(out.len(), 4 * 4 * 3);
    assert_eq!(&out[0..3], &[114, 114, 114], "top bar");
    assert_eq!(&out[(4 * 4 - 1) * 3..], &[114, 114, 114], "bottom bar");
    assert_eq!(
        &out[4 * 3..4 * 3 + 3],
        &[0, 0, 255],
        "first picture row starts at row 1"
    );
}

#[test]
fn bad_sizes_are_errors_that_say_what_is_wrong() {
    assert_eq!(
        Letterbox::fit(0, 10, 320),
        Err(LetterboxError::EmptyImage {
            width: 0,
            height: 10
        })
    );
    let lb = Letterbox::fit(2, 2, 4).unwrap();
    let err = lb.apply(&[0; 5]).unwrap_err();
    assert!(err.to_string().contains("needs 12"), "{err}");
}
