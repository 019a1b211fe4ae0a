use std::time::Instant;

use bench_harness::{Bar, BarChart, Csv, FigureArgs, Sidecar, figures_dir};
use path_tracer::bvh::{BuildMethod, Bvh};
use path_tracer::gpu::totals_by_label;
use path_tracer::lane_count::LaneCounter;
use path_tracer::reference::{camera_lane_use, count_walks};
use path_tracer::{GpuScene, RenderSettings, Scene};

use super::throughput::sweep;
use crate::setup::{Gpu, median_min_max};

/// Paths whose walks are counted on the CPU: the same on every machine, so the counts are too.
const COUNTED_SIDE: u32 = 256;
/// Lanes that run in lockstep (a warp on NVIDIA GPUs).
const LANES: u32 = 32;

// ANCHOR: bvh
/// For each scene and each build: the tree's shape, what its walks do on a fixed set of paths
/// (counted on the CPU), and the GPU time of the wavefront's `intersect` kernel, of the whole
/// wavefront render and of the megakernel, both builds timed in turn in the same run.
pub fn run(args: &FigureArgs, gpu: &mut Gpu) -> anyhow::Result<()> {
    let sweep = sweep(args.quick, gpu.ctx.report().is_software());
    let depth = *sweep.depths.last().unwrap_or(&1);
    let settings = RenderSettings::new(sweep.side, sweep.side, 1, depth);
    let counted_side = if args.quick { 32 } else { COUNTED_SIDE };
    let counted = RenderSettings::new(counted_side, counted_side, 1, depth);
    let lanes = open_lane_counter();
    let mut csv = Csv::new(&HEADER);
    let mut bars = Vec::new();
    let mut largest = 0;
    for &confetti in sweep.confetti {
        for method in BuildMethod::ALL {
            let (scene, bvh, build_s) = build(confetti, method);
            let walks = count_walks(&bvh, &scene.materials, &counted);
            let lane_use = camera_lane_use(&bvh, &counted, LANES);
            let ballots = match &lanes {
                Some((ctx, counter)) => {
                    let on = GpuScene::upload(ctx, &bvh, &scene.materials)?;
                    Some(counter.count(ctx, &on, settings)?)
                }
                None => None,
            };
            let on_gpu = GpuScene::upload(&gpu.ctx, &bvh, &scene.materials)?;
            gpu.time_wavefront(&on_gpu, settings)?; // warm-up
            gpu.time_megakernel(&on_gpu, settings)?;
            let (mut intersect, mut wave, mut mega) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..sweep.repeats {
                let (span, out) = gpu.time_wavefront(&on_gpu, settings)?;
                wave.push(span);
                let per_kernel = totals_by_label(&out.timings);
                if let Some((_, s)) = per_kernel.iter().find(|(l, _)| l == "intersect") {
                    intersect.push(*s);
                }
                mega.push(gpu.time_megakernel(&on_gpu, settings)?);
            }
            // ANCHOR_END: bvh
            let per_ray = |x: u64| x as f64 / walks.rays as f64;
            let mut row = vec![
                method.name().to_string(),
                bvh.triangles.len().to_string(),
                depth.to_string(),
                settings.pixels().to_string(),
                bvh.nodes.len().to_string(),
                bvh.depth().to_string(),
                format!("{:.2}", bvh.sah_cost()),
                format!("{:.3}", build_s * 1e3),
                walks.rays.to_string(),
                format!("{:.2}", per_ray(walks.nodes)),
                format!("{:.2}", per_ray(walks.triangles)),
                format!("{lane_use:.4}"),
            ];
            row.extend(match ballots {
                Some(b) => [
                    format!("{:.1}", b.subgroup_size()),
                    format!("{:.4}", b.lane_use()),
                    format!("{:.2}", b.lane_trips as f64 / f64::from(settings.pixels())),
                ],
                None => [String::new(), String::new(), String::new()],
            });
            for (label, samples) in [
                ("intersect", intersect),
                ("wavefront", wave),
                ("megakernel", mega),
            ] {
                if samples.is_empty() {
                    row.extend(["", "", ""].map(String::from));
                    continue;
                }
                let (med, lo, hi) = median_min_max(samples);
                row.extend([med, lo, hi].map(|x| format!("{x:.6e}")));
                if confetti == *sweep.confetti.last().unwrap_or(&0) {
                    largest = bvh.triangles.len();
                    bars.push((
                        format!("{}: {label}", method.name()),
                        med * 1e3,
                        Some((lo * 1e3, hi * 1e3)),
                    ));
                }
            }
            eprintln!("bvh: {}", row.join(", "));
            csv.row(&row);
        }
    }
    write(
        args,
        gpu,
        csv,
        bars,
        largest,
        sweep.side,
        depth,
        sweep.repeats,
        counted_side,
    )
}

/// A second device, with subgroup operations, for the ballot counters; none when the adapter
/// lacks them (the table then leaves their columns empty).
fn open_lane_counter() -> Option<(gpu_context::GpuContext, LaneCounter)> {
    let opened = LaneCounter::open_context().and_then(|ctx| Ok((LaneCounter::new(&ctx)?, ctx)));
    match opened {
        Ok((counter, ctx)) => Some((ctx, counter)),
        Err(e) => {
            eprintln!("bvh: no ballot counters ({e})");
            None
        }
    }
}

const HEADER: [&str; 24] = [
    "build",
    "triangles",
    "max_depth",
    "pixels",
    "nodes",
    "tree_depth",
    "sah_cost",
    "build_ms",
    "counted_rays",
    "nodes_per_ray",
    "triangle_tests_per_ray",
    "camera_lane_use",
    "gpu_subgroup_size",
    "gpu_camera_lane_use",
    "gpu_camera_trips_per_ray",
    "intersect_median_s",
    "intersect_min_s",
    "intersect_max_s",
    "wavefront_median_s",
    "wavefront_min_s",
    "wavefront_max_s",
    "megakernel_median_s",
    "megakernel_min_s",
    "megakernel_max_s",
];

/// The scene, its tree built by `method`, and the build's CPU time (best of three).
fn build(confetti: usize, method: BuildMethod) -> (Scene, Bvh, f64) {
    let scene = Scene::room(confetti, 2026);
    let mut best = f64::INFINITY;
    let mut bvh = None;
    for _ in 0..3 {
        let start = Instant::now();
        let built = Bvh::build_with(method, &scene.triangles);
        best = best.min(start.elapsed().as_secs_f64());
        bvh = Some(built);
    }
    let bvh = bvh.unwrap_or_else(|| Bvh::build_with(method, &scene.triangles));
    (scene, bvh, best)
}

#[allow(clippy::too_many_arguments)]
fn write(
    args: &FigureArgs,
    gpu: &Gpu,
    csv: Csv,
    bars: Vec<Bar>,
    triangles: usize,
    side: u32,
    depth: u32,
    repeats: usize,
    counted_side: u32,
) -> anyhow::Result<()> {
    let name = args.figure_name("path_tracer", "bvh");
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = gpu.ctx.adapter.get_info().name;
    BarChart {
        title: "Morton against binned-SAH tree: GPU time per render".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {triangles} triangles, bounce limit {depth}, {side}×{side} pixels"
        ),
        y_label: "GPU milliseconds per render (median)".into(),
        log_y: false,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
    let notes = vec![
        format!("timing: {}", gpu.timing_source()),
        format!(
            "median of {repeats} renders per build, whiskers min and max; builds timed in turn"
        ),
        format!(
            "counts: every walk of the paths of a {counted_side}×{counted_side} render (one path per pixel), on the CPU"
        ),
        format!(
            "camera_lane_use: camera rays in groups of {LANES} consecutive pixels; trips round the walk loop summed over lanes / ({LANES} × the group's longest walk)"
        ),
        "gpu_camera_lane_use: one camera ray per pixel of the timed image walks the tree on the GPU; at each trip round the walk loop a subgroup ballot counts the lanes taking part; busy lanes / (subgroup size × subgroup trips)".into(),
        "build_ms: CPU time of the build, best of three".into(),
    ];
    Sidecar::new(
        &name,
        "Morton-code and binned-SAH trees: tree shape, node visits per ray, lane use and GPU time",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes)
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
