//! `wavefront_lanes`: lane use inside the wavefront's own `intersect`, bounce by bounce, over the
//! Morton and the binned-SAH tree: subgroup ballots at every trip round the walk count the lanes
//! taking part, so the trips of lanes (node visits) and of subgroups (what a SIMT GPU pays for)
//! can be set beside the kernel's time.

use bench_harness::{Csv, FigureArgs, Sidecar, figures_dir};
use path_tracer::GpuScene;
use path_tracer::bvh::{BuildMethod, Bvh};
use path_tracer::lane_count::LaneCounts;
use path_tracer::wavefront::Wavefront;

use super::bounce_lanes::LaneRun;
use crate::setup::Gpu;

pub fn run(args: &FigureArgs, gpu: &Gpu) -> anyhow::Result<()> {
    let LaneRun {
        side,
        depth,
        confetti,
        settings,
        ctx,
        scene,
    } = LaneRun::new(args, gpu)?;
    let wavefront = Wavefront::new(&ctx)?;
    let mut csv = Csv::new(&[
        "build",
        "triangles",
        "bounce",
        "lane_trips",
        "subgroup_trips",
        "busy_lanes",
        "offered_lanes",
        "lane_use",
    ]);
    for method in BuildMethod::ALL {
        let bvh = Bvh::build_with(method, &scene.triangles);
        let on_gpu = GpuScene::upload(&ctx, &bvh, &scene.materials)?;
        let (_, bounces) = wavefront.render_counting_lanes(&ctx, &on_gpu, settings)?;
        let mut all = LaneCounts::default();
        for (bounce, c) in bounces.iter().enumerate() {
            all.busy += c.busy;
            all.offered += c.offered;
            all.lane_trips += c.lane_trips;
            all.subgroup_trips += c.subgroup_trips;
            csv.row(&row(method, bvh.triangles.len(), &bounce.to_string(), c));
        }
        let total = row(method, bvh.triangles.len(), "all", &all);
        eprintln!("wavefront_lanes: {}", total.join(", "));
        csv.row(&total);
    }
    let name = args.figure_name("path_tracer", "wavefront_lanes");
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    Sidecar::new(
        &name,
        "Lanes taking part in the wavefront's intersect kernel at every bounce, counted by subgroup ballots at each trip round the walk, Morton against binned-SAH tree",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(vec![
        format!(
            "module's room scene with {confetti} confetti (seed 2026), {}×{} pixels, first sample, bounce limit {depth}; each tree in its own render",
            side, side
        ),
        "lane_trips: trips round the walk's loop summed over rays (node visits); subgroup_trips: the same summed over subgroups (ballots taken); lane_use: busy lanes / (subgroup size × subgroup trips); bounce 'all' sums the bounces".into(),
    ])
    // A table with no chart: the sidecar names its one file.
    .with_files([format!("{name}.csv")])
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}

fn row(method: BuildMethod, triangles: usize, bounce: &str, c: &LaneCounts) -> [String; 8] {
    [
        method.name().to_string(),
        triangles.to_string(),
        bounce.to_string(),
        c.lane_trips.to_string(),
        c.subgroup_trips.to_string(),
        c.busy.to_string(),
        c.offered.to_string(),
        format!("{:.4}", c.lane_use()),
    ]
}
