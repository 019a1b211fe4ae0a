use std::time::Instant;

use bench_harness::{
    BarChart, Drawn, Figure, FigureArgs, Found, LineChart, Series, Sidecar, Stats, read_rows,
};
use gpu_context::{GpuContext, GpuScopes, ScopeTiming};
use point_cloud_renderer::reference::covered_pixels;
use point_cloud_renderer::{Camera, Frame, PointCloud, Renderer, Variant, packing_for};
use serde::{Deserialize, Serialize};

/// One row of the sweep: a kernel variant on a cloud in scene order or in Morton order.
#[derive(Clone, Copy)]
struct Step {
    label: &'static str,
    variant: Variant,
    morton: bool,
}

// ANCHOR: steps
const STEPS: [Step; 4] = [
    Step {
        label: "naive",
        variant: Variant::Naive,
        morton: false,
    },
    Step {
        label: "early_reject",
        variant: Variant::EarlyReject,
        morton: false,
    },
    Step {
        label: "fused",
        variant: Variant::Fused,
        morton: false,
    },
    Step {
        label: "fused_morton",
        variant: Variant::Fused,
        morton: true,
    },
];
// ANCHOR_END: steps

/// The passes a frame's scopes may hold, in CSV column order.
const PASSES: [&str; 5] = ["clear", "project", "splat", "project+splat", "resolve"];

/// One step at one point count: the frame's time, points per second, and each pass's GPU scope
/// (empty where the step has no such pass, or the device no timestamps).
#[derive(Serialize, Deserialize)]
struct ThroughputRow {
    step: String,
    points: usize,
    width: u32,
    height: u32,
    depth_bits: u32,
    covered_pixels: usize,
    /// Empty for the sorted cloud, whose ids differ.
    pixels_unlike_naive: Option<usize>,
    timing: String,
    frame_ms_median: f64,
    frame_ms_p10: f64,
    frame_ms_p90: f64,
    points_per_s: f64,
    /// Each round's median frame time, separated by spaces.
    round_medians_ms: String,
    clear_ms: Option<f64>,
    project_ms: Option<f64>,
    splat_ms: Option<f64>,
    project_splat_ms: Option<f64>,
    resolve_ms: Option<f64>,
}

impl ThroughputRow {
    /// The passes' times in `PASSES` order.
    fn passes(&self) -> [Option<f64>; 5] {
        [
            self.clear_ms,
            self.project_ms,
            self.splat_ms,
            self.project_splat_ms,
            self.resolve_ms,
        ]
    }
}

/// What the sweep measures: point counts, the frame's size, and rounds of (warm-up, timed)
/// frames.
///
/// A GPU frame takes about a millisecond: many warm-up frames cost nothing and let the clocks
/// settle. A software adapter's frame takes tenths of a second. Each round allocates the buffers
/// afresh: on an H100 the large clouds' frame times moved between runs by up to 2x while varying
/// little within one, so the spread between rounds is part of the measurement.
struct Plan {
    sizes: &'static [usize],
    size: (u32, u32),
    rounds: usize,
    warmup: usize,
    frames: usize,
}

fn plan(quick: bool, software: bool) -> Plan {
    let (sizes, size, (rounds, warmup, frames)): (&'static [usize], _, _) = match (quick, software)
    {
        (true, _) => (&[1 << 16, 1 << 18], (640, 360), (1, 1, 3)),
        (false, true) => (&[1 << 18, 1 << 20, 1 << 21], (1920, 1080), (1, 2, 5)),
        (false, false) => (
            &[1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24],
            (1920, 1080),
            (5, 50, 20),
        ),
    };
    Plan {
        sizes,
        size,
        rounds,
        warmup,
        frames,
    }
}

/// Billion points per second against the point count, a line per step, whiskers p90 to p10.
fn throughput_chart(rows: &[ThroughputRow], adapter: &str) -> String {
    let mut series: Vec<Series> = STEPS.iter().map(|s| Series::new(s.label)).collect();
    for row in rows {
        let Some(line) = series.iter_mut().find(|s| s.name == row.step) else {
            continue;
        };
        let points = row.points as f64;
        let per_s = |ms: f64| points / (ms / 1e3) / 1e9;
        line.point_with_spread(
            points,
            row.points_per_s / 1e9,
            per_s(row.frame_ms_p90),
            per_s(row.frame_ms_p10),
        );
    }
    let (width, height) = rows.first().map_or((0, 0), |r| (r.width, r.height));
    LineChart {
        title: "Point-cloud renderer: points per second, one line per optimization step".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {width}×{height} frame; clear + project + splat + resolve"
        ),
        x_label: "points".into(),
        y_label: "billion points per second".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .to_svg()
}

/// Each pass's GPU scope at the largest point count (the table's last), per step; `frames` per
/// round as the plan had it.
fn scopes_chart(rows: &[ThroughputRow], adapter: &str, frames: usize) -> String {
    let Some(last) = rows.last() else {
        return BarChart::default().to_svg();
    };
    let largest = last.points;
    let rounds = last.round_medians_ms.split_whitespace().count();
    let (width, height) = (last.width, last.height);
    let mut bars = Vec::new();
    for row in rows.iter().filter(|r| r.points == largest) {
        for (pass, t) in PASSES.iter().zip(row.passes()) {
            if let Some(ms) = t {
                bars.push((format!("{}: {pass}", row.step), ms, None));
            }
        }
    }
    BarChart {
        title: format!("GPU scopes per pass at {largest} points"),
        subtitle: format!("{adapter}; median of {rounds}×{frames} frames; {width}×{height}"),
        y_label: "ms per frame".into(),
        log_y: false,
        bars,
    }
    .to_svg()
}

/// `--redraw`: the throughput chart from its table; the scopes chart from the throughput table
/// its sidecar names, with the frames per round of the plan (`--quick`, software adapter).
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let adapter = found.adapter_name().unwrap_or("GPU");
    if !found.name.ends_with("_scopes") {
        return Ok(Drawn::chart(
            found,
            throughput_chart(&found.rows()?, adapter),
        ));
    }
    let Some(table) = found.sidecar.files.iter().find(|f| f.ends_with(".csv")) else {
        anyhow::bail!("the sidecar names no throughput table");
    };
    let rows: Vec<ThroughputRow> = read_rows(&found.path(table))?;
    let frames = plan(found.measured_with("--quick"), found.software_adapter()).frames;
    Ok(Drawn::chart(found, scopes_chart(&rows, adapter, frames)))
}

/// Frame and pass times of one step, in seconds, gathered over every round.
struct Samples {
    frames: Vec<f64>,
    passes: Vec<Vec<f64>>,
    /// Each round's median frame time: the spread between fresh allocations of the buffers.
    round_medians: Vec<f64>,
    source: &'static str,
}

impl Samples {
    fn new() -> Self {
        Self {
            frames: Vec::new(),
            passes: vec![Vec::new(); PASSES.len()],
            round_medians: Vec::new(),
            source: "gpu_timestamps",
        }
    }

    /// Times `frames` frames after `warmup` untimed ones: the frame's own scope and each pass's,
    /// or the CPU clock around submit-and-wait where the device has no timestamps.
    fn time_round(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        renderer: &Renderer,
        variant: Variant,
        (warmup, frames): (usize, usize),
    ) -> anyhow::Result<()> {
        for _ in 0..warmup {
            renderer.render(ctx, scopes, variant)?;
        }
        let mut round = Vec::new();
        for _ in 0..frames {
            let start = Instant::now();
            let roots: Vec<ScopeTiming> = renderer.render(ctx, scopes, variant)?;
            let wall = start.elapsed().as_secs_f64();
            match roots.first() {
                Some(frame) => {
                    round.push(frame.duration_s());
                    for child in &frame.children {
                        if let Some(k) = PASSES.iter().position(|p| *p == child.label) {
                            self.passes[k].push(child.duration_s());
                        }
                    }
                }
                None => {
                    round.push(wall);
                    self.source = "cpu_wall_clock";
                }
            }
        }
        self.round_medians
            .extend(Stats::from_seconds(&round).map(|s| s.median));
        self.frames.extend(round);
        Ok(())
    }

    fn frame_stats(&self) -> anyhow::Result<Stats> {
        Stats::from_seconds(&self.frames)
            .ok_or_else(|| anyhow::anyhow!("no frame time was measured"))
    }

    fn pass_medians(&self) -> Vec<Option<f64>> {
        self.passes
            .iter()
            .map(|v| Stats::from_seconds(v).map(|s| s.median))
            .collect()
    }
}

/// How many pixels of two frames hold different packed depth|id values.
fn unlike(a: &Frame, b: &Frame) -> usize {
    a.packed
        .iter()
        .zip(&b.packed)
        .filter(|(x, y)| x != y)
        .count()
}

/// The view of every figure: module 3's 10 m box from above one corner.
pub fn figure_camera(size: (u32, u32)) -> Camera {
    Camera::look_at(
        [15.0, 12.0, -9.0],
        [5.0, 5.0, 4.0],
        [0.0, 1.0, 0.0],
        50.0,
        size,
    )
}

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let Plan {
        sizes,
        size: (width, height),
        rounds,
        warmup,
        frames,
    } = plan(args.quick, ctx.report().is_software());
    let camera = figure_camera((width, height));
    let mut scopes = GpuScopes::new(ctx)?;
    let throughput_name = args.figure_name("pointcloud", "throughput");
    let scopes_name = args.figure_name("pointcloud", "scopes");
    let mut rows = Vec::new();
    // The scene draws n / 5 points on each of its five shapes, up to four fewer than n: titles
    // give the count drawn.
    for &n in sizes {
        let cloud = PointCloud::scene(n, 1);
        let sorted = cloud.sorted_morton()?;
        let packing = packing_for(cloud.len())?;
        let mut samples: Vec<Samples> = STEPS.iter().map(|_| Samples::new()).collect();
        let mut last_frames = Vec::new();
        for _ in 0..rounds {
            let plain = Renderer::new(ctx, &cloud, &camera, (width, height), packing)?;
            let morton = Renderer::new(ctx, &sorted, &camera, (width, height), packing)?;
            last_frames.clear();
            for (step, samples) in STEPS.iter().zip(&mut samples) {
                let renderer = if step.morton { &morton } else { &plain };
                samples.time_round(ctx, &mut scopes, renderer, step.variant, (warmup, frames))?;
                last_frames.push(renderer.read_frame(ctx)?);
            }
        }
        for (k, step) in STEPS.iter().enumerate() {
            let (stats, passes) = (samples[k].frame_stats()?, samples[k].pass_medians());
            let covered = covered_pixels(&last_frames[k]);
            // A check beside the timing: the steps on the same cloud draw the same frame as the
            // naive step (the fused kernel up to roundings of its projection); the sorted cloud
            // has other ids.
            let unlike_naive = (!step.morton).then(|| unlike(&last_frames[0], &last_frames[k]));
            let rounds_ms: Vec<String> = samples[k]
                .round_medians
                .iter()
                .map(|t| format!("{:.4}", t * 1e3))
                .collect();
            let points = cloud.len() as f64;
            // Milliseconds to the nanosecond: a pass of 10 µs keeps three digits and more.
            let ms = |s: f64| (s * 1e3 * 1e6).round() / 1e6;
            rows.push(ThroughputRow {
                step: step.label.to_string(),
                points: cloud.len(),
                width,
                height,
                depth_bits: packing.depth_bits(),
                covered_pixels: covered,
                pixels_unlike_naive: unlike_naive,
                timing: samples[k].source.to_string(),
                frame_ms_median: ms(stats.median),
                frame_ms_p10: ms(stats.p10),
                frame_ms_p90: ms(stats.p90),
                // Five significant digits.
                points_per_s: format!("{:.4e}", points / stats.median).parse()?,
                round_medians_ms: rounds_ms.join(" "),
                clear_ms: passes[0].map(ms),
                project_ms: passes[1].map(ms),
                splat_ms: passes[2].map(ms),
                project_splat_ms: passes[3].map(ms),
                resolve_ms: passes[4].map(ms),
            });
            eprintln!(
                "{:>12} {:>9} points: {:8.3} ms/frame, {:.1} M points/s",
                step.label,
                cloud.len(),
                stats.median * 1e3,
                points / stats.median / 1e6
            );
        }
    }
    let adapter = ctx.adapter.get_info().name;
    let throughput_svg = throughput_chart(&rows, &adapter);
    let scopes_svg = scopes_chart(&rows, &adapter, frames);
    let notes = vec![
        format!("module 3's scene (3 spheres, 2 planes, 10 m box), seed 1; {rounds} rounds (buffers allocated afresh each), each {frames} frames after {warmup} warm-up frames; median and p10/p90 over all frames"),
        "packing: the fewest id bits (>= 8) for the point count, the rest of 32 bits for depth over [0.1, 40) m".into(),
        "fused_morton: the fused kernel on the cloud sorted by 3D Morton code (10 bits per axis)".into(),
    ];
    let mut sidecar = Sidecar::new(
        &throughput_name,
        "Frame time and points/s of the point-cloud renderer per optimization step",
    );
    sidecar.set_adapter(ctx.report());
    sidecar.notes = notes.clone();
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(throughput_svg)
        .write()?;

    let mut sidecar = Sidecar::new(
        &scopes_name,
        "Each pass's GPU scope at the largest point count (from the throughput CSV's *_ms columns)",
    );
    sidecar.set_adapter(ctx.report());
    sidecar.notes = notes;
    sidecar.files = vec![
        format!("{scopes_name}.svg"),
        format!("{throughput_name}.csv"),
    ];
    // The table is the throughput figure's: this figure writes its chart and sidecar only.
    Figure::new(sidecar).chart(scopes_svg).write()?;
    println!("sweep → {throughput_name}.csv, {scopes_name}.svg");
    Ok(())
}
