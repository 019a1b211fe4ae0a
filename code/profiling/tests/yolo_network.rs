//! The random-weight YOLO-shaped network: its im2col convolution against a direct one, and a
//! frame end to end.

use bench_harness::rng::SplitMix64;
use profiling_lab::yolo::network::{Conv, FeatureMap, TinyYolo};
use profiling_lab::yolo::{LetterboxError, STAGES, detect_frame, generated_frame};

/// The convolution by its definition: a sum over channels and the kernel window.
fn direct(conv: &Conv, input: &FeatureMap) -> Vec<f32> {
    let (oh, ow) = (conv.out_side(input.height), conv.out_side(input.width));
    let (k, pad) = (conv.kernel as isize, (conv.kernel / 2) as isize);
    let mut out = Vec::new();
    for o in 0..conv.out_channels {
        for y in 0..oh as isize {
            for x in 0..ow as isize {
                let mut sum = conv.bias[o];
                for c in 0..conv.in_channels as isize {
                    for ky in 0..k {
                        for kx in 0..k {
                            let sy = y * conv.stride as isize + ky - pad;
                            let sx = x * conv.stride as isize + kx - pad;
                            if sy < 0
                                || sx < 0
                                || sy >= input.height as isize
                                || sx >= input.width as isize
                            {
                                continue;
                            }
                            let w = conv.weights[((o as isize * conv.in_channels as isize + c) * k
                                + ky) as usize
                                * k as usize
                                + kx as usize];
                            let v = input.data[((c * input.height as isize + sy)
                                * input.width as isize
                                + sx) as usize];
                            sum += w * v;
                        }
                    }
                }
                out.push(if conv.silu {
                    sum / (1.0 + (-sum).exp())
                } else {
                    sum
                });
            }
        }
    }
    out
}

#[test]
fn im2col_convolution_equals_the_direct_one() {
    let mut rng = SplitMix64::new(3);
    for (io, kernel, stride, side) in [((3, 5), 3, 2, 9), ((4, 7), 3, 1, 6), ((6, 4), 1, 1, 5)] {
        let mut conv = Conv::random(&mut rng, io, kernel, stride);
        conv.bias = (0..io.1).map(|_| rng.symmetric(0.5)).collect();
        let input = FeatureMap {
            channels: io.0,
            height: side,
            width: side + 1,
            data: (0..io.0 * side * (side + 1))
                .map(|_| rng.symmetric(1.0))
                .collect(),
        };
        let fast = conv.forward(&input, &mut Vec::new());
        assert_eq!(
            (fast.height, fast.width),
            (conv.out_side(side), conv.out_side(side + 1))
        );
        for (a, b) in fast.data.iter().zip(direct(&conv, &input)) {
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
    }
}

#[test]
fn the_head_predicts_every_anchor_on_a_stride_8_grid() {
    let model = TinyYolo::random(1, 5);
    assert_eq!(model.stride(), 8);
    let input = FeatureMap {
        channels: 3,
        height: 64,
        width: 64,
        data: vec![0.5; 3 * 64 * 64],
    };
    let head = model.forward(&input);
    assert_eq!((head.channels, head.height, head.width), (3 * 10, 8, 8));
    assert!(head.data.iter().all(|v| v.is_finite()));
}

#[test]
fn a_frame_goes_through_every_stage_to_boxes_inside_the_image() {
    let model = TinyYolo::random(7, 5);
    let (w, h) = (320, 240);
    let frame = generated_frame(1, w, h);
    let result = detect_frame(&model, &frame, (w, h, 160), (0.25, 0.45)).unwrap();
    assert!(!result.detections.is_empty() && result.detections.len() <= result.candidates);
    assert_eq!(result.stage_times.len(), STAGES.len());
    assert!(
        result.stage_times[2] > std::time::Duration::ZERO,
        "the network takes time"
    );
    for pair in result.detections.windows(2) {
        assert!(pair[0].score >= pair[1].score, "best first");
    }
    for d in &result.detections {
        assert!(
            d.bbox.x0 >= 0.0 && d.bbox.x1 <= w as f32 && d.bbox.y0 >= 0.0 && d.bbox.y1 <= h as f32
        );
        assert!(d.score >= 0.25);
    }
    // The same frame gives the same boxes.
    let again = detect_frame(&model, &frame, (w, h, 160), (0.25, 0.45)).unwrap();
    assert_eq!(again.detections, result.detections);
}

#[test]
fn a_frame_of_the_wrong_size_is_an_error() {
    let model = TinyYolo::random(7, 5);
    let err = detect_frame(&model, &[0; 10], (4, 4, 32), (0.25, 0.45)).unwrap_err();
    assert!(
        matches!(err, LetterboxError::WrongLength { needed: 48, .. }),
        "{err}"
    );
}

#[test]
fn a_zero_head_decodes_to_the_anchor_centred_on_its_cell() {
    // All logits 0: every sigmoid is ½, so the centre is the cell's middle, the size the anchor's,
    // and the score ½ · ½.
    let head = FeatureMap {
        channels: 3 * 6,
        height: 1,
        width: 2,
        data: vec![0.0; 3 * 6 * 2],
    };
    let boxes = profiling_lab::yolo::decode(&head, 8.0, 1, 0.25);
    assert_eq!(boxes.len(), 6);
    let first = boxes[1].bbox; // anchor 0, cell (1, 0)
    assert_eq!((first.x0 + first.x1) / 2.0, 12.0);
    assert_eq!((first.y0 + first.y1) / 2.0, 4.0);
    assert_eq!((first.x1 - first.x0, first.y1 - first.y0), (10.0, 13.0));
    assert_eq!(boxes[1].score, 0.25);
    assert!(profiling_lab::yolo::decode(&head, 8.0, 1, 0.3).is_empty());
}

#[test]
fn yolov5_starting_biases_leave_an_untrained_head_without_candidates() {
    let model = TinyYolo::random(7, 5).with_yolov5_biases();
    let (w, h) = (320, 240);
    let result =
        detect_frame(&model, &generated_frame(1, w, h), (w, h, 160), (0.25, 0.45)).unwrap();
    assert_eq!(result.candidates, 0);
}
