use std::time::Instant;

use bench_harness::{
    Bar, BarChart, Csv, FigureArgs, LineChart, Series, Sidecar, Stats, figures_dir,
};
use gpu_context::{GpuContext, GpuScopes, ScopeTiming};
use point_cloud_renderer::reference::covered_pixels;
use point_cloud_renderer::{Camera, Frame, PointCloud, Renderer, Variant, packing_for};

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
    let software = ctx.report().is_software();
    // A GPU frame takes about a millisecond: many warm-up frames cost nothing and let the
    // clocks settle. A software adapter's frame takes tenths of a second.
    // Each round allocates the buffers afresh: on an H100 the large clouds' frame times moved
    // between runs by up to 2x while varying little within one, so the spread between rounds
    // is part of the measurement.
    let (sizes, (width, height), (rounds, warmup, frames)): (&[usize], _, _) =
        match (args.quick, software) {
            (true, _) => (&[1 << 16, 1 << 18], (640, 360), (1, 1, 3)),
            (false, true) => (&[1 << 18, 1 << 20, 1 << 21], (1920, 1080), (1, 2, 5)),
            (false, false) => (
                &[1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24],
                (1920, 1080),
                (5, 50, 20),
            ),
        };
    let camera = figure_camera((width, height));
    let mut scopes = GpuScopes::new(ctx)?;
    let throughput_name = args.figure_name("pointcloud", "throughput");
    let scopes_name = args.figure_name("pointcloud", "scopes");
    let mut header = vec![
        "step",
        "points",
        "width",
        "height",
        "depth_bits",
        "covered_pixels",
        "pixels_unlike_naive",
        "timing",
        "frame_ms_median",
        "frame_ms_p10",
        "frame_ms_p90",
        "points_per_s",
        "round_medians_ms",
    ];
    let pass_columns: Vec<String> = PASSES
        .iter()
        .map(|p| format!("{}_ms", p.replace('+', "_")))
        .collect();
    header.extend(pass_columns.iter().map(String::as_str));
    let mut csv = Csv::new(&header);
    let mut series: Vec<Series> = STEPS.iter().map(|s| Series::new(s.label)).collect();
    let mut bars: Vec<Bar> = Vec::new();
    // The scene draws n / 5 points on each of its five shapes, up to four fewer than n: titles
    // give the count drawn.
    let mut largest = 0;
    for (n_index, &n) in sizes.iter().enumerate() {
        let cloud = PointCloud::scene(n, 1);
        largest = cloud.len();
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
            let unlike_naive = if step.morton {
                String::new()
            } else {
                unlike(&last_frames[0], &last_frames[k]).to_string()
            };
            let rounds_ms: Vec<String> = samples[k]
                .round_medians
                .iter()
                .map(|t| format!("{:.4}", t * 1e3))
                .collect();
            let points = cloud.len() as f64;
            let ms = |s: f64| format!("{:.4}", s * 1e3);
            let mut row = vec![
                step.label.to_string(),
                cloud.len().to_string(),
                width.to_string(),
                height.to_string(),
                packing.depth_bits().to_string(),
                covered.to_string(),
                unlike_naive,
                samples[k].source.to_string(),
                ms(stats.median),
                ms(stats.p10),
                ms(stats.p90),
                format!("{:.4e}", points / stats.median),
                rounds_ms.join(" "),
            ];
            row.extend(passes.iter().map(|p| p.map(ms).unwrap_or_default()));
            csv.row(&row);
            series[k].point_with_spread(
                points,
                points / stats.median / 1e9,
                points / stats.p90 / 1e9,
                points / stats.p10 / 1e9,
            );
            eprintln!(
                "{:>12} {:>9} points: {:8.3} ms/frame, {:.1} M points/s",
                step.label,
                cloud.len(),
                stats.median * 1e3,
                points / stats.median / 1e6
            );
            if n_index + 1 == sizes.len() {
                for (pass, t) in PASSES.iter().zip(&passes) {
                    if let Some(t) = t {
                        bars.push((format!("{}: {pass}", step.label), t * 1e3, None));
                    }
                }
            }
        }
    }
    let dir = figures_dir();
    let adapter = ctx.adapter.get_info().name;
    csv.write(&dir.join(format!("{throughput_name}.csv")))?;
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
    .write(&dir.join(format!("{throughput_name}.svg")))?;
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
    sidecar.write(&dir.join(format!("{throughput_name}.json")))?;

    BarChart {
        title: format!("GPU scopes per pass at {largest} points"),
        subtitle: format!("{adapter}; median of {rounds}×{frames} frames; {width}×{height}"),
        y_label: "ms per frame".into(),
        log_y: false,
        bars,
    }
    .write(&dir.join(format!("{scopes_name}.svg")))?;
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
    sidecar.write(&dir.join(format!("{scopes_name}.json")))?;
    println!("sweep → {throughput_name}.csv, {scopes_name}.svg");
    Ok(())
}
