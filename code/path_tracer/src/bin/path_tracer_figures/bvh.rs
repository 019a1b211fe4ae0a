use std::time::Instant;

use bench_harness::digits::round_to;
use bench_harness::{BarChart, Drawn, Figure, FigureArgs, Found, Sidecar};
use path_tracer::bvh::{BuildMethod, Bvh};
use path_tracer::gpu::totals_by_label;
use path_tracer::lane_count::LaneCounter;
use path_tracer::reference::{camera_lane_use, count_walks};
use path_tracer::{GpuScene, RenderSettings, Scene};
use serde::{Deserialize, Serialize};

use super::throughput::sweep;
use crate::setup::{Gpu, median_min_max, seven_digits};

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
    let mut rows = Vec::new();
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
            let times = |samples: Vec<f64>| -> [Option<f64>; 3] {
                if samples.is_empty() {
                    return [None; 3];
                }
                let (med, lo, hi) = median_min_max(samples);
                [med, lo, hi].map(|x| Some(seven_digits(x)))
            };
            let [intersect_median_s, intersect_min_s, intersect_max_s] = times(intersect);
            let [wavefront_median_s, wavefront_min_s, wavefront_max_s] = times(wave);
            let [megakernel_median_s, megakernel_min_s, megakernel_max_s] = times(mega);
            let row = BvhRow {
                build: method.name().to_string(),
                triangles: bvh.triangles.len(),
                max_depth: depth,
                pixels: settings.pixels(),
                nodes: bvh.nodes.len(),
                tree_depth: bvh.depth(),
                sah_cost: round_to(bvh.sah_cost(), 2),
                build_ms: round_to(build_s * 1e3, 3),
                counted_rays: walks.rays,
                nodes_per_ray: round_to(per_ray(walks.nodes), 2),
                triangle_tests_per_ray: round_to(per_ray(walks.triangles), 2),
                camera_lane_use: round_to(lane_use, 4),
                gpu_subgroup_size: ballots.as_ref().map(|b| round_to(b.subgroup_size(), 1)),
                gpu_camera_lane_use: ballots.as_ref().map(|b| round_to(b.lane_use(), 4)),
                gpu_camera_trips_per_ray: ballots
                    .as_ref()
                    .map(|b| round_to(b.lane_trips as f64 / f64::from(settings.pixels()), 2)),
                intersect_median_s,
                intersect_min_s,
                intersect_max_s,
                wavefront_median_s,
                wavefront_min_s,
                wavefront_max_s,
                megakernel_median_s,
                megakernel_min_s,
                megakernel_max_s,
            };
            eprintln!(
                "bvh: {} {} triangles: {:.2} nodes per ray",
                row.build, row.triangles, row.nodes_per_ray
            );
            rows.push(row);
        }
    }
    write(args, gpu, &rows, sweep.repeats, counted_side)
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

/// One tree of one scene: its shape, what its walks do (counted on the CPU), its lane use (also
/// counted by ballots on the GPU where the adapter has subgroups), and the GPU times (median,
/// min, max) of `intersect`, the wavefront and the megakernel; empty where not measured.
#[derive(Serialize, Deserialize)]
struct BvhRow {
    build: String,
    triangles: usize,
    max_depth: u32,
    pixels: u32,
    nodes: usize,
    tree_depth: usize,
    sah_cost: f64,
    build_ms: f64,
    counted_rays: u64,
    nodes_per_ray: f64,
    triangle_tests_per_ray: f64,
    camera_lane_use: f64,
    gpu_subgroup_size: Option<f64>,
    gpu_camera_lane_use: Option<f64>,
    gpu_camera_trips_per_ray: Option<f64>,
    intersect_median_s: Option<f64>,
    intersect_min_s: Option<f64>,
    intersect_max_s: Option<f64>,
    wavefront_median_s: Option<f64>,
    wavefront_min_s: Option<f64>,
    wavefront_max_s: Option<f64>,
    megakernel_median_s: Option<f64>,
    megakernel_min_s: Option<f64>,
    megakernel_max_s: Option<f64>,
}

/// GPU milliseconds per render of `intersect`, the wavefront and the megakernel, for each build
/// of the largest scene (the last in the table).
fn chart(rows: &[BvhRow], adapter: &str) -> String {
    let largest = rows.last().map_or(0, |r| r.triangles);
    let mut bars = Vec::new();
    let (mut depth, mut side) = (0, 0);
    for row in rows.iter().filter(|r| r.triangles == largest) {
        depth = row.max_depth;
        side = f64::from(row.pixels).sqrt().round() as u32;
        for (label, times) in [
            (
                "intersect",
                [
                    row.intersect_median_s,
                    row.intersect_min_s,
                    row.intersect_max_s,
                ],
            ),
            (
                "wavefront",
                [
                    row.wavefront_median_s,
                    row.wavefront_min_s,
                    row.wavefront_max_s,
                ],
            ),
            (
                "megakernel",
                [
                    row.megakernel_median_s,
                    row.megakernel_min_s,
                    row.megakernel_max_s,
                ],
            ),
        ] {
            if let [Some(med), Some(lo), Some(hi)] = times {
                let label = format!("{}: {label}", row.build);
                bars.push((label, med * 1e3, Some((lo * 1e3, hi * 1e3))));
            }
        }
    }
    BarChart {
        title: "Morton against binned-SAH tree: GPU time per render".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {largest} triangles, bounce limit {depth}, {side}×{side} pixels"
        ),
        y_label: "GPU milliseconds per render (median)".into(),
        log_y: false,
        bars,
    }
    .to_svg()
}

/// `--redraw`: the chart from the table, the adapter from the sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let svg = chart(&found.rows()?, found.adapter_name().unwrap_or("GPU"));
    Ok(Drawn::chart(found, svg))
}

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

fn write(
    args: &FigureArgs,
    gpu: &Gpu,
    rows: &[BvhRow],
    repeats: usize,
    counted_side: u32,
) -> anyhow::Result<()> {
    let name = args.figure_name("path_tracer", "bvh");
    let chart = chart(rows, &gpu.ctx.adapter.get_info().name);
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
    let sidecar = Sidecar::new(
        &name,
        "Morton-code and binned-SAH trees: tree shape, node visits per ray, lane use and GPU time",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes);
    Figure::new(sidecar).rows(rows)?.chart(chart).write()?;
    Ok(())
}
