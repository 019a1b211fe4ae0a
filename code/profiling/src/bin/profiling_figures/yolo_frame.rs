//! `profiling_yolo_frame`: one camera frame through the random-weight YOLO-shaped network, end
//! to end, split by stage (letterbox, tensor, network, decode, NMS, back to the image), with zero
//! head biases and with YOLOv5's starting biases.

use bench_harness::{BarChart, Csv, Sidecar, Stats, figures_dir};
use profiling_lab::yolo::network::TinyYolo;
use profiling_lab::yolo::{STAGES, detect_frame_with, generated_frame, nms_by_class, nms_scan};

use crate::args::Args;

pub fn run(args: &Args) -> anyhow::Result<()> {
    let (width, height) = (1280, 720);
    let size = if args.figures.quick { 320 } else { 640 };
    let frames = if args.figures.quick { 3 } else { 15 };
    let frame = generated_frame(5, width, height);
    let thresholds = (0.25, 0.45);
    let mut csv = Csv::new(&[
        "head_biases",
        "nms",
        "stage",
        "ms_median",
        "ms_p10",
        "ms_p90",
        "share_of_median_frame",
        "input",
        "candidates",
        "kept",
    ]);
    let mut chart = BarChart {
        title: format!("One {width}×{height} frame through a YOLO-shaped network ({size}×{size})"),
        subtitle: format!(
            "random weights, zero or YOLOv5 head biases, per-class NMS (zero biases also with \
             the scan NMS); median of {frames} frames, bars p10–p90"
        ),
        y_label: "ms per frame".into(),
        log_y: true,
        bars: Vec::new(),
    };
    let ms = |s: f64| s * 1e3;
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
            // A log axis needs a positive bar: stages that do nothing still show.
            let bar = (ms(s.median).max(1e-4), Some((ms(s.p10), ms(s.p90))));
            let label = match nms_name {
                "by_class" => format!("{name} ({biases})"),
                other => format!("{name} ({biases}, {other} NMS)"),
            };
            chart.bars.push((label, bar.0, bar.1));
            csv.row(&[
                biases.into(),
                nms_name.into(),
                name.into(),
                format!("{:.4}", ms(s.median)),
                format!("{:.4}", ms(s.p10)),
                format!("{:.4}", ms(s.p90)),
                format!("{:.4}", s.median / total.median),
                size.to_string(),
                counts.0.to_string(),
                counts.1.to_string(),
            ]);
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join("profiling_yolo_frame.csv"))?;
    chart.write(&dir.join("profiling_yolo_frame.svg"))?;
    Sidecar::new(
        "profiling_yolo_frame",
        "A generated 1280×720 frame through letterbox, a YOLO-shaped network with random weights \
         (im2col + packed FMA matmul, one thread), decode, per-class NMS and the map back to the \
         image: wall time per stage, with zero head biases (nearly every cell a candidate) and \
         with YOLOv5's starting biases (nearly none); the zero-bias frame also with the scan NMS \
         in place of the per-class one.",
    )
    .write(&dir.join("profiling_yolo_frame.json"))?;
    Ok(())
}
