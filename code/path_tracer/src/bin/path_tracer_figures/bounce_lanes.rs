//! `bounce_lanes`: how many lanes of a subgroup still have a path to trace at each bounce of the
//! megakernel, counted by a ballot at the top of every bounce, beside the estimate from the
//! fraction of paths alive that assumes paths die independently.

use bench_harness::{Csv, FigureArgs, Sidecar, figures_dir};
use path_tracer::bvh::{BuildMethod, Bvh};
use path_tracer::lane_count::LaneCounter;
use path_tracer::{GpuScene, RenderSettings, Scene};

use super::throughput::sweep;
use crate::setup::Gpu;

/// What both lane-counting parts render: the sweep's deepest bounce limit and most confetti, on a
/// device opened with the subgroup operations the ballots need.
pub struct LaneRun {
    pub side: u32,
    pub depth: u32,
    pub confetti: usize,
    pub settings: RenderSettings,
    pub ctx: gpu_context::GpuContext,
    pub scene: Scene,
}

impl LaneRun {
    pub fn new(args: &FigureArgs, gpu: &Gpu) -> anyhow::Result<Self> {
        let sweep = sweep(args.quick, gpu.ctx.report().is_software());
        let depth = *sweep.depths.last().unwrap_or(&1);
        let confetti = *sweep.confetti.last().unwrap_or(&0);
        Ok(Self {
            side: sweep.side,
            depth,
            confetti,
            settings: RenderSettings::new(sweep.side, sweep.side, 1, depth),
            ctx: LaneCounter::open_context()?,
            scene: Scene::room(confetti, 2026),
        })
    }
}

pub fn run(args: &FigureArgs, gpu: &Gpu) -> anyhow::Result<()> {
    let LaneRun {
        side,
        depth,
        confetti,
        settings,
        ctx,
        scene,
    } = LaneRun::new(args, gpu)?;
    let counter = LaneCounter::new(&ctx)?;
    let mut csv = Csv::new(&[
        "build",
        "triangles",
        "max_depth",
        "pixels",
        "bounce",
        "alive_fraction",
        "subgroup_size",
        "busy_lanes",
        "offered_lanes",
        "counted_lane_use",
        "independent_deaths_estimate",
    ]);
    for method in BuildMethod::ALL {
        let bvh = Bvh::build_with(method, &scene.triangles);
        let on_gpu = GpuScene::upload(&ctx, &bvh, &scene.materials)?;
        let bounces = counter.count_bounces(&ctx, &on_gpu, settings)?;
        for (b, counted) in bounces.iter().enumerate() {
            let f = counted.busy as f64 / f64::from(settings.pixels());
            let size = counted.subgroup_size();
            // A subgroup runs a bounce when any of its lanes is alive there; if paths died
            // independently, a running subgroup would have f / (1 - (1 - f)^size) lanes busy.
            let estimate = f / (1.0 - (1.0 - f).powf(size));
            let row = [
                method.name().to_string(),
                bvh.triangles.len().to_string(),
                depth.to_string(),
                settings.pixels().to_string(),
                b.to_string(),
                format!("{f:.4}"),
                format!("{size:.1}"),
                counted.busy.to_string(),
                counted.offered.to_string(),
                format!("{:.4}", counted.lane_use()),
                if counted.busy == 0 {
                    String::new()
                } else {
                    format!("{estimate:.4}")
                },
            ];
            eprintln!("bounce_lanes: {}", row.join(", "));
            csv.row(&row);
        }
    }
    let name = args.figure_name("path_tracer", "bounce_lanes");
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    Sidecar::new(
        &name,
        "Lanes with a path to trace at each bounce of the megakernel's paths, counted by subgroup ballots, against the independent-deaths estimate",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(vec![
        format!(
            "module's room scene with {confetti} confetti (seed 2026), {}×{} pixels, first sample, bounce limit {depth}",
            side, side
        ),
        "counted_lane_use: busy lanes / (subgroup size × subgroups that ran the bounce); a ballot at the top of every bounce of the megakernel's loop".into(),
        "independent_deaths_estimate: f / (1 - (1 - f)^subgroup_size), f = alive_fraction".into(),
    ])
    // A table with no chart: the sidecar names its one file.
    .with_files([format!("{name}.csv")])
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
