use std::time::Instant;

use bench_harness::{
    Bar, BarChart, Csv, FigureArgs, LineChart, Series, Sidecar, Stats, figures_dir,
};
use gpu_context::{GpuContext, GpuScopes, ScopeTiming};
use point_cloud_renderer::reference::covered_pixels;
use point_cloud_renderer::{Camera, Frame, PointCloud, Renderer, Variant, packing_for};

use super::figure_name;

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

/// The median time of each pass and of the whole frame over `frames` frames (after two
/// warm-up frames), in seconds; the frame's own scope, or the CPU clock without timestamps.
fn time_frames(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    renderer: &Renderer,
    variant: Variant,
    frames: usize,
) -> anyhow::Result<(Stats, Vec<Option<f64>>, &'static str)> {
    for _ in 0..2 {
        renderer.render(ctx, scopes, variant)?;
    }
    let mut totals = Vec::new();
    let mut per_pass: Vec<Vec<f64>> = vec![Vec::new(); PASSES.len()];
    let mut source = "gpu_timestamps";
    for _ in 0..frames {
        let start = Instant::now();
        let roots: Vec<ScopeTiming> = renderer.render(ctx, scopes, variant)?;
        let wall = start.elapsed().as_secs_f64();
        match roots.first() {
            Some(frame) => {
                totals.push(frame.duration_s());
                for child in &frame.children {
                    if let Some(k) = PASSES.iter().position(|p| *p == child.label) {
                        per_pass[k].push(child.duration_s());
                    }
                }
            }
            None => {
                totals.push(wall);
                source = "cpu_wall_clock";
            }
        }
    }
    let median = |v: &Vec<f64>| Stats::from_seconds(v).map(|s| s.median);
    let stats = Stats::from_seconds(&totals)
        .ok_or_else(|| anyhow::anyhow!("no frame time was measured"))?;
    Ok((stats, per_pass.iter().map(median).collect(), source))
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
    let (sizes, (width, height), frames): (&[usize], _, usize) = match (args.quick, software) {
        (true, _) => (&[1 << 16, 1 << 18], (640, 360), 3),
        (false, true) => (&[1 << 18, 1 << 20, 1 << 21], (1920, 1080), 5),
        (false, false) => (
            &[1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24],
            (1920, 1080),
            10,
        ),
    };
    let camera = figure_camera((width, height));
    let mut scopes = GpuScopes::new(ctx)?;
    let throughput_name = figure_name(args, "throughput");
    let scopes_name = figure_name(args, "scopes");
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
    ];
    let pass_columns: Vec<String> = PASSES
        .iter()
        .map(|p| format!("{}_ms", p.replace('+', "_")))
        .collect();
    header.extend(pass_columns.iter().map(String::as_str));
    let mut csv = Csv::new(&header);
    let mut series: Vec<Series> = STEPS.iter().map(|s| Series::new(s.label)).collect();
    let mut bars: Vec<Bar> = Vec::new();
    for (n_index, &n) in sizes.iter().enumerate() {
        let cloud = PointCloud::scene(n, 1);
        let sorted = cloud.sorted_morton()?;
        let packing = packing_for(cloud.len())?;
        let plain = Renderer::new(ctx, &cloud, &camera, (width, height), packing)?;
        let morton = Renderer::new(ctx, &sorted, &camera, (width, height), packing)?;
        let mut naive_frame = None;
        for (k, step) in STEPS.iter().enumerate() {
            let renderer = if step.morton { &morton } else { &plain };
            let (stats, passes, source) =
                time_frames(ctx, &mut scopes, renderer, step.variant, frames)?;
            let frame = renderer.read_frame(ctx)?;
            let covered = covered_pixels(&frame);
            // A check beside the timing: the steps on the same cloud draw the same frame (the
            // fused kernel up to roundings of its projection); the sorted cloud has other ids.
            let unlike_naive = match (&naive_frame, step.morton) {
                (None, _) => {
                    naive_frame = Some(frame);
                    "0".to_string()
                }
                (Some(naive), false) => unlike(naive, &frame).to_string(),
                (Some(_), true) => String::new(),
            };
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
                source.to_string(),
                ms(stats.median),
                ms(stats.p10),
                ms(stats.p90),
                format!("{:.4e}", points / stats.median),
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
    let largest = sizes.last().copied().unwrap_or_default();
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
        format!("module 3's scene (3 spheres, 2 planes, 10 m box), seed 1; {frames} frames after 2 warm-up frames, median"),
        "packing: the fewest id bits (>= 8) for the point count, the rest of 32 bits for depth over [0.1, 40) m".into(),
        "fused_morton: the fused kernel on the cloud sorted by 3D Morton code (10 bits per axis)".into(),
    ];
    let mut sidecar = Sidecar::new(
        &throughput_name,
        "Frame time and points/s of the point-cloud renderer per optimization step",
    );
    sidecar.adapter_json = Some(ctx.report().to_json());
    sidecar.notes = notes.clone();
    sidecar.write(&dir.join(format!("{throughput_name}.json")))?;

    BarChart {
        title: format!("GPU scopes per pass at {largest} points"),
        subtitle: format!("{adapter}; median of {frames} frames; {width}×{height}"),
        y_label: "ms per frame".into(),
        log_y: false,
        bars,
    }
    .write(&dir.join(format!("{scopes_name}.svg")))?;
    let mut sidecar = Sidecar::new(
        &scopes_name,
        "Each pass's GPU scope at the largest point count (from the throughput CSV's *_ms columns)",
    );
    sidecar.adapter_json = Some(ctx.report().to_json());
    sidecar.notes = notes;
    sidecar.files = vec![
        format!("{scopes_name}.svg"),
        format!("{throughput_name}.csv"),
    ];
    sidecar.write(&dir.join(format!("{scopes_name}.json")))?;
    println!("sweep → {throughput_name}.csv, {scopes_name}.svg");
    Ok(())
}
