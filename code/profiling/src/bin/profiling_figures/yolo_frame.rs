//! `profiling_yolo_frame`: one camera frame through the random-weight YOLO-shaped network, end
//! to end, split by stage (letterbox, tensor, network, decode, NMS, back to the image), with zero
//! head biases and with YOLOv5's starting biases.

use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar, Stats};
use profiling_lab::yolo::network::TinyYolo;
use profiling_lab::yolo::{STAGES, detect_frame_with, generated_frame, nms_by_class, nms_scan};
use serde::{Deserialize, Serialize};

use crate::args::{Args, round_to};

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 720;

#[derive(Serialize, Deserialize)]
struct Row {
    head_biases: String,
    nms: String,
    stage: String,
    ms_median: f64,
    ms_p10: f64,
    ms_p90: f64,
    share_of_median_frame: f64,
    input: u32,
    candidates: usize,
    kept: usize,
}

/// Frames timed per configuration.
fn frames(quick: bool) -> usize {
    if quick { 3 } else { 15 }
}

/// One bar per stage and configuration, p10–p90 as whiskers, on a log axis.
fn chart(rows: &[Row], frames: usize) -> String {
    let size = rows.first().map_or(0, |r| r.input);
    BarChart {
        title: format!("One {WIDTH}×{HEIGHT} frame through a YOLO-shaped network ({size}×{size})"),
        subtitle: format!(
            "random weights, zero or YOLOv5 head biases, per-class NMS (zero biases also with \
             the scan NMS); median of {frames} frames, bars p10–p90"
        ),
        y_label: "ms per frame".into(),
        log_y: true,
        bars: rows
            .iter()
            .map(|r| {
                let label = match r.nms.as_str() {
                    "by_class" => format!("{} ({})", r.stage, r.head_biases),
                    other => format!("{} ({}, {other} NMS)", r.stage, r.head_biases),
                };
                // A log axis needs a positive bar: stages that do nothing still show.
                (label, r.ms_median.max(1e-4), Some((r.ms_p10, r.ms_p90)))
            })
            .collect(),
    }
    .to_svg()
}

/// `--redraw`: the chart from the table; the frame count follows from `--quick`.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let frames = frames(found.measured_with("--quick"));
    Ok(Drawn::chart(found, chart(&found.rows()?, frames)))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (width, height) = (WIDTH, HEIGHT);
    let size = if args.figures.quick { 320 } else { 640 };
    let frames = frames(args.figures.quick);
    let frame = generated_frame(5, width, height);
    let thresholds = (0.25, 0.45);
    let mut rows = Vec::new();
    let zero = TinyYolo::random(2024, 5);
    let yolov5 = TinyYolo::random(2024, 5).with_yolov5_biases();
    // The zero-bias frame twice: with the per-class NMS, and with the textbook scan it replaced,
    // so that the frame itself shows what the NMS change bought.
    let runs = [
        (
            "zero",
            &zero,
            "by_class",
            nms_by_class as profiling_lab::yolo::NmsFn,
        ),
        ("zero", &zero, "scan", nms_scan),
        ("yolov5", &yolov5, "by_class", nms_by_class),
    ];
    for (biases, model, nms_name, nms) in runs {
        let detect = || detect_frame_with(model, &frame, (width, height, size), thresholds, nms);
        detect()?; // warm-up
        let mut per_stage = vec![Vec::new(); STAGES.len()];
        let mut totals = Vec::new();
        let mut counts = (0, 0);
        for _ in 0..frames {
            let result = detect()?;
            for (times, t) in per_stage.iter_mut().zip(result.stage_times) {
                times.push(t.as_secs_f64());
            }
            totals.push(result.stage_times.iter().map(|t| t.as_secs_f64()).sum());
            counts = (result.candidates, result.detections.len());
        }
        let total = Stats::from_seconds(&totals).expect("at least one frame");
        let names = STAGES.iter().copied().chain(["frame"]);
        let stats = per_stage
            .iter()
            .map(|t| Stats::from_seconds(t).expect("frames"))
            .chain([total]);
        for (name, s) in names.zip(stats) {
            // Milliseconds to the nanosecond: a stage of a microsecond keeps its digits.
            let ms = |seconds: f64| round_to(seconds * 1e3, 6);
            rows.push(Row {
                head_biases: biases.into(),
                nms: nms_name.into(),
                stage: name.into(),
                ms_median: ms(s.median),
                ms_p10: ms(s.p10),
                ms_p90: ms(s.p90),
                share_of_median_frame: round_to(s.median / total.median, 4),
                input: size,
                candidates: counts.0,
                kept: counts.1,
            });
        }
    }
    let sidecar = Sidecar::new(
        "profiling_yolo_frame",
        "A generated 1280×720 frame through letterbox, a YOLO-shaped network with random weights \
         (im2col + packed FMA matmul, one thread), decode, per-class NMS and the map back to the \
         image: wall time per stage, with zero head biases (nearly every cell a candidate) and \
         with YOLOv5's starting biases (nearly none); the zero-bias frame also with the scan NMS \
         in place of the per-class one.",
    );
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, frames))
        .write()?;
    Ok(())
}
