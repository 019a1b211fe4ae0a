//! `profiling_nms`: seven NMS versions on generated boxes (scan for the best, sort once and walk,
//! the same walk over a copy in score order, that walk without a branch in its inner loop, the
//! same kept from computing several IoUs at once, sort once and compact, compact per class): time
//! and work counts.
//!
//! Each version is timed twice: on one scene called again and again, and on a new scene per call.
//! A CPU's branch predictor learns the outcomes of a repeated input, so the first timing shows
//! what a benchmark that repeats its input measures and the second what a detector, which sees a
//! new frame every call, pays.

use std::time::{Duration, Instant};

use bench_harness::{
    Drawn, Figure, Found, LineChart, Series, Sidecar, Stats, black_box, measure, measure_durations,
};
use profiling_lab::yolo::{
    Detection, NmsStats, generated_detections, nms_branchless, nms_branchless_scalar, nms_by_class,
    nms_compacting, nms_scan, nms_sorted, nms_sorted_copied,
};
use serde::{Deserialize, Serialize};

use crate::args::Args;

type Nms = fn(&[Detection], f32, f32) -> (Vec<usize>, NmsStats);

const VERSIONS: [(&str, &str, Nms); 7] = [
    ("scan", "scan for the best", nms_scan),
    ("sorted", "sort once, walk", nms_sorted),
    (
        "sorted_copied",
        "sort once, walk a copy in score order",
        nms_sorted_copied,
    ),
    (
        "branchless",
        "the copied walk without branches",
        nms_branchless,
    ),
    (
        "branchless_scalar",
        "the same, one IoU at a time",
        nms_branchless_scalar,
    ),
    ("compacting", "sort once, compact", nms_compacting),
    ("by_class", "compact per class", nms_by_class),
];
const MIN_SCORE: f32 = 0.25;
const MAX_IOU: f32 = 0.45;
/// The scene whose work counts the table gives and which the same-scene timing repeats.
const SEED: u64 = 42;
/// The new scenes' seeds start here, away from `SEED`.
const FRESH_SEEDS: u64 = 1000;

#[derive(Serialize, Deserialize)]
struct Row {
    boxes: usize,
    objects: usize,
    version: String,
    kept: usize,
    iou_tests: u64,
    scans: u64,
    visits: u64,
    /// The same scene every call.
    us_median: f64,
    us_p10: f64,
    us_p90: f64,
    /// A new scene every call.
    fresh_us_median: f64,
    fresh_us_p10: f64,
    fresh_us_p90: f64,
}

/// Reads every box once, so that a new scene's call finds it in cache as a repeated scene's call
/// does: what is left of the difference is the branch predictor's.
fn touch(scene: &[Detection]) {
    let sum: f32 = scene.iter().map(|d| d.score + d.bbox.x0 + d.bbox.y1).sum();
    black_box(sum);
}

/// One call per scene of `pool`, in turn, the first as warm-up; the scene is touched untimed.
fn measure_fresh(pool: &[Vec<Detection>], nms: Nms) -> Stats {
    let mut next = 0;
    measure_durations(1, pool.len() - 1, || -> Duration {
        let scene = &pool[next % pool.len()];
        next += 1;
        touch(scene);
        let start = Instant::now();
        black_box(nms(black_box(scene), MIN_SCORE, MAX_IOU));
        start.elapsed()
    })
}

fn us(seconds: f64) -> f64 {
    (seconds * 1e6 * 100.0).round() / 100.0
}

const SPREAD: &str = "score ≥ 0.25, IoU ≤ 0.45, per class; median and p10–p90";

/// One line per version over the box counts: `fresh` picks the new-scene times, else the
/// repeated scene's.
fn chart(rows: &[Row], fresh: bool) -> anyhow::Result<String> {
    let mut series = VERSIONS.map(|(_, label, _)| Series::new(label));
    for row in rows {
        let Some(v) = VERSIONS
            .iter()
            .position(|(name, _, _)| *name == row.version)
        else {
            anyhow::bail!("unknown NMS version `{}` in the table", row.version);
        };
        let x = row.boxes as f64;
        if fresh {
            series[v].point_with_spread(x, row.fresh_us_median, row.fresh_us_p10, row.fresh_us_p90);
        } else {
            series[v].point_with_spread(x, row.us_median, row.us_p10, row.us_p90);
        }
    }
    let title = if fresh {
        "Non-maximum suppression, a new scene per call"
    } else {
        "Non-maximum suppression, the same scene every call"
    };
    Ok(LineChart {
        title: title.into(),
        subtitle: SPREAD.into(),
        x_label: "candidate boxes".into(),
        y_label: "µs per call".into(),
        log_x: true,
        log_y: true,
        series: series.into(),
        ..Default::default()
    }
    .to_svg())
}

const SAME_SCENE_SVG: &str = "profiling_nms_same_scene.svg";

/// `--redraw`: both charts from the table.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let rows: Vec<Row> = found.rows()?;
    Ok(Drawn::Charts(vec![
        (format!("{}.svg", found.name), chart(&rows, true)?),
        (SAME_SCENE_SVG.into(), chart(&rows, false)?),
    ]))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let counts: &[usize] = if args.figures.quick {
        &[250, 1000]
    } else {
        &[250, 500, 1000, 2000, 4000, 8000]
    };
    let samples = if args.figures.quick { 3 } else { 11 };
    let mut rows = Vec::new();
    for &count in counts {
        let dets = generated_detections(SEED, count, 640.0, 640.0);
        // Built before any timing: one warm-up scene and one per timed call, all different.
        let pool: Vec<Vec<Detection>> = (0..=samples as u64)
            .map(|i| generated_detections(FRESH_SEEDS + i, count, 640.0, 640.0))
            .collect();
        for (name, _, nms) in VERSIONS {
            let (kept, work) = nms(&dets, MIN_SCORE, MAX_IOU);
            let repeated = measure(1, samples, || {
                black_box(nms(black_box(&dets), MIN_SCORE, MAX_IOU));
            });
            let new = measure_fresh(&pool, nms);
            rows.push(Row {
                boxes: count,
                objects: (count / 40).max(1),
                version: name.into(),
                kept: kept.len(),
                iou_tests: work.iou_tests,
                scans: work.scans,
                visits: work.visits,
                us_median: us(repeated.median),
                us_p10: us(repeated.p10),
                us_p90: us(repeated.p90),
                fresh_us_median: us(new.median),
                fresh_us_p10: us(new.p10),
                fresh_us_p90: us(new.p90),
            });
        }
    }
    let sidecar = Sidecar::new(
        "profiling_nms",
        "Seven NMS versions on generated scenes of about 40 candidates per object: boxes kept, IoU \
         tests, candidates scanned and boxes visited by the suppression passes (on the seed-42 \
         scene), and wall time per call twice: us_* on the seed-42 scene every call, fresh_us_* \
         on a new scene per call (seeds 1000 on, built before timing, each read once untimed \
         just before its call). The chart shows the new-scene times, the extra chart the \
         repeated scene's.",
    );
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, true)?)
        .extra(SAME_SCENE_SVG, chart(&rows, false)?)
        .write()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;

    thread_local! {
        static SEEN: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    }

    /// Records which scene it was called on (by its first score) and does no work.
    fn recording(dets: &[Detection], _: f32, _: f32) -> (Vec<usize>, NmsStats) {
        SEEN.with(|seen| seen.borrow_mut().push(dets[0].score));
        (Vec::new(), NmsStats::default())
    }

    #[test]
    fn every_fresh_call_gets_a_scene_of_its_own() {
        let pool: Vec<Vec<Detection>> = (0..6)
            .map(|i| generated_detections(FRESH_SEEDS + i, 250, 640.0, 640.0))
            .collect();
        let stats = measure_fresh(&pool, recording);
        assert_eq!(stats.samples, pool.len() - 1, "one call is the warm-up");
        let seen = SEEN.with(|seen| seen.borrow().clone());
        let expected: Vec<f32> = pool.iter().map(|scene| scene[0].score).collect();
        assert_eq!(seen, expected, "each scene once, in turn");
        let mut distinct = expected.clone();
        distinct.sort_by(f32::total_cmp);
        distinct.dedup();
        assert_eq!(distinct.len(), pool.len(), "the pool's scenes differ");
    }
}
