//! `profiling_nms`: seven NMS versions on generated boxes (scan for the best, sort once and walk,
//! the same walk over a copy in score order, that walk without a branch in its inner loop, the
//! same kept from computing several IoUs at once, sort once and compact, compact per class): time
//! and work counts.

use bench_harness::{Csv, LineChart, Series, Sidecar, black_box, figures_dir, measure};
use profiling_lab::yolo::{
    generated_detections, nms_branchless, nms_branchless_scalar, nms_by_class, nms_compacting,
    nms_scan, nms_sorted, nms_sorted_copied,
};

use crate::args::Args;

pub fn run(args: &Args) -> anyhow::Result<()> {
    let counts: &[usize] = if args.figures.quick {
        &[250, 1000]
    } else {
        &[250, 500, 1000, 2000, 4000, 8000]
    };
    let samples = if args.figures.quick { 3 } else { 11 };
    let mut csv = Csv::new(&[
        "boxes",
        "objects",
        "version",
        "kept",
        "iou_tests",
        "scans",
        "visits",
        "us_median",
        "us_p10",
        "us_p90",
    ]);
    let names = [
        "scan",
        "sorted",
        "sorted_copied",
        "branchless",
        "branchless_scalar",
        "compacting",
        "by_class",
    ];
    let mut series = [
        Series::new("scan for the best"),
        Series::new("sort once, walk"),
        Series::new("sort once, walk a copy in score order"),
        Series::new("the copied walk without branches"),
        Series::new("the same, one IoU at a time"),
        Series::new("sort once, compact"),
        Series::new("compact per class"),
    ];
    for &count in counts {
        let dets = generated_detections(42, count, 640.0, 640.0);
        let versions = [
            nms_scan,
            nms_sorted,
            nms_sorted_copied,
            nms_branchless,
            nms_branchless_scalar,
            nms_compacting,
            nms_by_class,
        ];
        for (version, nms) in versions.into_iter().enumerate() {
            let (kept, work) = nms(&dets, 0.25, 0.45);
            let stats = measure(1, samples, || {
                black_box(nms(black_box(&dets), 0.25, 0.45));
            });
            let us = |s: f64| s * 1e6;
            series[version].point_with_spread(
                count as f64,
                us(stats.median),
                us(stats.p10),
                us(stats.p90),
            );
            csv.row(&[
                count.to_string(),
                (count / 40).max(1).to_string(),
                names[version].into(),
                kept.len().to_string(),
                work.iou_tests.to_string(),
                work.scans.to_string(),
                work.visits.to_string(),
                format!("{:.2}", us(stats.median)),
                format!("{:.2}", us(stats.p10)),
                format!("{:.2}", us(stats.p90)),
            ]);
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join("profiling_nms.csv"))?;
    LineChart {
        title: "Non-maximum suppression on generated boxes".into(),
        subtitle: "score ≥ 0.25, IoU ≤ 0.45, per class; median and p10–p90".into(),
        x_label: "candidate boxes".into(),
        y_label: "µs per call".into(),
        log_x: true,
        log_y: true,
        series: series.into(),
        ..Default::default()
    }
    .write(&dir.join("profiling_nms.svg"))?;
    Sidecar::new(
        "profiling_nms",
        "Seven NMS versions on generated scenes of about 40 candidates per object: wall time per call, \
         boxes kept, IoU tests, candidates scanned and boxes visited by the suppression passes.",
    )
    .write(&dir.join("profiling_nms.json"))?;
    Ok(())
}
