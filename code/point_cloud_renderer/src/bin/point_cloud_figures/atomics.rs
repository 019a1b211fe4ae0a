//! The `atomics` part: one counting frame per splat kernel and point order, three times each
//! (early reject's count depends on the order in which threads reach a pixel).

use bench_harness::digits::round_to;
use bench_harness::{BarChart, Drawn, Figure, FigureArgs, Found, Sidecar};
use gpu_context::GpuContext;
use point_cloud_renderer::reference::covered_pixels;
use point_cloud_renderer::{AtomicCounts, CountedSplat, PointCloud, Renderer, packing_for};
use serde::{Deserialize, Serialize};

const FRAMES: usize = 3;

/// One splat kernel on one cloud in one order: its counts over `FRAMES` counting frames.
#[derive(Serialize, Deserialize)]
struct AtomicRow {
    points: usize,
    order: String,
    kernel: String,
    width: u32,
    height: u32,
    covered_pixels: usize,
    tested: u32,
    issued_median: u32,
    issued_min: u32,
    issued_max: u32,
    won_median: u32,
    won_min: u32,
    won_max: u32,
    issued_per_tested: f64,
    issued_per_covered_pixel: f64,
}

/// Million atomicMins issued per kernel and order at the largest cloud (the table's last).
fn chart(rows: &[AtomicRow], adapter: &str) -> String {
    let largest = rows.last().map_or(0, |r| r.points);
    let millions = |n: u32| f64::from(n) / 1e6;
    BarChart {
        title: format!("atomicMins issued in one frame of {largest} points"),
        subtitle: format!(
            "{adapter}; counted by the splat kernel itself; median of {FRAMES} frames (min–max)"
        ),
        y_label: "million atomicMins".into(),
        log_y: false,
        bars: rows
            .iter()
            .filter(|r| r.points == largest)
            .map(|r| {
                (
                    format!("{}, {} order", r.kernel, r.order),
                    millions(r.issued_median),
                    Some((millions(r.issued_min), millions(r.issued_max))),
                )
            })
            .collect(),
    }
    .to_svg()
}

/// `--redraw`: the chart from the table, the adapter from the sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let svg = chart(&found.rows()?, found.adapter_name().unwrap_or("GPU"));
    Ok(Drawn::chart(found, svg))
}

/// The median of a few counts, and the smallest and largest.
fn spread(values: &mut [u32]) -> (u32, u32, u32) {
    values.sort_unstable();
    (
        values[values.len() / 2],
        values[0],
        values[values.len() - 1],
    )
}

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let (sizes, size): (&[usize], _) = if args.quick {
        (&[1 << 16, 1 << 18], (640, 360))
    } else {
        (&[1 << 20, 1 << 24], (1920, 1080))
    };
    let camera = super::sweep::figure_camera(size);
    let name = args.figure_name("pointcloud", "atomics");
    let mut rows = Vec::new();
    for &n in sizes {
        let scene = PointCloud::scene(n, 1);
        let packing = packing_for(scene.len())?;
        let sorted = scene.sorted_morton()?;
        for (order, cloud) in [("scene", &scene), ("morton", &sorted)] {
            let renderer = Renderer::new(ctx, cloud, &camera, size, packing)?;
            for splat in CountedSplat::ALL {
                let counts: Vec<AtomicCounts> = (0..FRAMES)
                    .map(|_| renderer.count_atomics(ctx, splat))
                    .collect::<Result<_, _>>()?;
                let covered = covered_pixels(&renderer.read_frame(ctx)?);
                let tested = counts[0].tested;
                anyhow::ensure!(
                    counts.iter().all(|c| c.tested == tested),
                    "the tested points changed between frames: {counts:?}"
                );
                let issued = spread(&mut counts.iter().map(|c| c.issued).collect::<Vec<_>>());
                let won = spread(&mut counts.iter().map(|c| c.won).collect::<Vec<_>>());
                rows.push(AtomicRow {
                    points: cloud.len(),
                    order: order.to_string(),
                    kernel: splat.label().to_string(),
                    width: size.0,
                    height: size.1,
                    covered_pixels: covered,
                    tested,
                    issued_median: issued.0,
                    issued_min: issued.1,
                    issued_max: issued.2,
                    won_median: won.0,
                    won_min: won.1,
                    won_max: won.2,
                    issued_per_tested: round_to(f64::from(issued.0) / f64::from(tested.max(1)), 4),
                    issued_per_covered_pixel: round_to(
                        f64::from(issued.0) / covered.max(1) as f64,
                        3,
                    ),
                });
                eprintln!(
                    "{:>9} points, {order:>6}, {:>12}: {tested} tested, {} issued, {} won, {covered} pixels",
                    cloud.len(),
                    splat.label(),
                    issued.0,
                    won.0
                );
            }
        }
    }
    let chart = chart(&rows, &ctx.adapter.get_info().name);
    let mut sidecar = Sidecar::new(
        &name,
        "atomicMins tested, issued and won per frame by the naive and early-reject splats, counted in the kernel",
    );
    sidecar.set_adapter(ctx.report());
    sidecar.notes = vec![
        format!("module 3's scene (seed 1) and the sweep's camera, {}×{} pixels; each row is {FRAMES} counting frames (clear, project, counting splat) on buffers made once", size.0, size.1),
        "tested: points on screen and in depth range; issued: atomicMins executed; won: atomicMins that lowered the pixel; one counter buffer, summed per workgroup in shared memory".into(),
        "the counting kernel is the splat plus its counters: its times are not measured".into(),
    ];
    sidecar.files = vec![format!("{name}.csv"), format!("{name}.svg")];
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    println!("atomics → {name}.csv, {name}.svg");
    Ok(())
}
