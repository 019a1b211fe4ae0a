//! One camera frame through the whole detector: letterbox → tensor → network → decode → NMS →
//! boxes in the image. Every stage is a `tracing` span and is timed, so a frame's cost can be
//! split by stage.

use std::time::{Duration, Instant};

use super::network::{ANCHORS, FeatureMap, TinyYolo};
use super::{BoxXyxy, Detection, Letterbox, LetterboxError, NmsStats, nms_by_class};

/// The stages of [`detect_frame`], in order, as the spans and [`StageTimes`] name them.
pub const STAGES: [&str; 6] = [
    "letterbox",
    "to_tensor",
    "network",
    "decode",
    "nms",
    "to_image",
];

/// A frame's detections and where its time went.
#[derive(Clone, Debug)]
pub struct FrameResult {
    /// Kept boxes in the original image's pixels, best first.
    pub detections: Vec<Detection>,
    /// Candidates above the score threshold, before NMS.
    pub candidates: usize,
    /// Wall time of each stage, in the order of [`STAGES`].
    pub stage_times: [Duration; 6],
}

fn sigmoid(v: f32) -> f32 {
    1.0 / (1.0 + (-v).exp())
}

/// RGB bytes (row-major, 3 a pixel) as a 3-channel feature map with values in 0–1.
pub fn to_tensor(rgb: &[u8], size: usize) -> FeatureMap {
    let mut data = vec![0.0; 3 * size * size];
    for (pixel, px) in rgb.chunks_exact(3).enumerate() {
        for c in 0..3 {
            data[c * size * size + pixel] = f32::from(px[c]) / 255.0;
        }
    }
    FeatureMap {
        channels: 3,
        height: size,
        width: size,
        data,
    }
}

// ANCHOR: decode
/// The head's outputs as boxes in input pixels: per cell and anchor, a centre offset within
/// the cell, a size relative to the anchor, and a score (objectness × best class), as YOLOv5
/// decodes them. Only boxes scoring at least `min_score` are returned.
pub fn decode(head: &FeatureMap, stride: f32, classes: usize, min_score: f32) -> Vec<Detection> {
    let cells = head.height * head.width;
    let mut out = Vec::new();
    for (a, &(anchor_w, anchor_h)) in ANCHORS.iter().enumerate() {
        let channel = |i: usize| &head.data[(a * (5 + classes) + i) * cells..][..cells];
        for cell in 0..cells {
            let objectness = sigmoid(channel(4)[cell]);
            let (class, best) = (0..classes)
                .map(|c| (c, channel(5 + c)[cell]))
                .fold((0, f32::MIN), |m, (c, v)| if v > m.1 { (c, v) } else { m });
            let score = objectness * sigmoid(best);
            if score < min_score {
                continue;
            }
            let (gx, gy) = ((cell % head.width) as f32, (cell / head.width) as f32);
            let cx = (gx + 2.0 * sigmoid(channel(0)[cell]) - 0.5) * stride;
            let cy = (gy + 2.0 * sigmoid(channel(1)[cell]) - 0.5) * stride;
            let w = anchor_w * (2.0 * sigmoid(channel(2)[cell])).powi(2);
            let h = anchor_h * (2.0 * sigmoid(channel(3)[cell])).powi(2);
            let bbox = BoxXyxy {
                x0: cx - w / 2.0,
                y0: cy - h / 2.0,
                x1: cx + w / 2.0,
                y1: cy + h / 2.0,
            };
            out.push(Detection {
                bbox,
                score,
                class: class as u32,
            });
        }
    }
    out
}
// ANCHOR_END: decode

/// An NMS: candidates, score threshold and IoU threshold in; kept indices, best first, out.
pub type NmsFn = fn(&[Detection], f32, f32) -> (Vec<usize>, NmsStats);

/// Detects objects in an RGB frame of `width × height` with a model input of `size × size`,
/// with the per-class NMS ([`nms_by_class`]).
pub fn detect_frame(
    model: &TinyYolo,
    rgb: &[u8],
    dims: (u32, u32, u32),
    thresholds: (f32, f32),
) -> Result<FrameResult, LetterboxError> {
    detect_frame_with(model, rgb, dims, thresholds, nms_by_class)
}

/// [`detect_frame`] with the NMS given, so that a frame can be timed with each version.
pub fn detect_frame_with(
    model: &TinyYolo,
    rgb: &[u8],
    (width, height, size): (u32, u32, u32),
    (min_score, max_iou): (f32, f32),
    nms: NmsFn,
) -> Result<FrameResult, LetterboxError> {
    // ANCHOR: stages
    let _frame = tracing::info_span!("frame", width, height, size).entered();
    let mut times = [Duration::ZERO; 6];
    let stage = |index: usize| {
        let started = Instant::now();
        let span = tracing::info_span!("stage", name = STAGES[index]).entered();
        move |times: &mut [Duration; 6]| {
            drop(span);
            times[index] = started.elapsed();
        }
    };
    let done = stage(0);
    let fit = Letterbox::fit(width, height, size)?;
    let input = fit.apply(rgb)?;
    done(&mut times);
    let done = stage(1);
    let tensor = to_tensor(&input, size as usize);
    done(&mut times);
    let done = stage(2);
    let head = model.forward(&tensor);
    done(&mut times);
    let done = stage(3);
    let candidates = decode(&head, model.stride() as f32, model.classes, min_score);
    done(&mut times);
    let done = stage(4);
    let (kept, _) = nms(&candidates, min_score, max_iou);
    done(&mut times);
    let done = stage(5);
    let detections = kept
        .iter()
        .map(|&i| Detection {
            bbox: fit.to_image(&candidates[i].bbox),
            ..candidates[i]
        })
        .collect();
    done(&mut times);
    // ANCHOR_END: stages
    Ok(FrameResult {
        detections,
        candidates: candidates.len(),
        stage_times: times,
    })
}

/// A deterministic test picture: smooth colour gradients with a few flat rectangles.
pub fn generated_frame(seed: u64, width: u32, height: u32) -> Vec<u8> {
    let mut rng = bench_harness::rng::SplitMix64::new(seed);
    let rects: Vec<(u32, u32, u32, u32, [u8; 3])> = (0..8)
        .map(|_| {
            let (x, y) = (
                rng.below(u64::from(width)) as u32,
                rng.below(u64::from(height)) as u32,
            );
            let (w, h) = (
                width / 8 + rng.below(u64::from(width / 4)) as u32,
                height / 8,
            );
            (
                x,
                y,
                w,
                h,
                [
                    rng.next_u32() as u8,
                    rng.next_u32() as u8,
                    rng.next_u32() as u8,
                ],
            )
        })
        .collect();
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    for y in 0..height {
        for x in 0..width {
            let inside = rects
                .iter()
                .find(|r| x >= r.0 && x < r.0 + r.2 && y >= r.1 && y < r.1 + r.3);
            rgb.extend(match inside {
                Some(r) => r.4,
                None => [(x * 255 / width) as u8, (y * 255 / height) as u8, 128],
            });
        }
    }
    rgb
}
