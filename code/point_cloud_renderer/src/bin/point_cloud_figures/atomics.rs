//! The `atomics` part: one counting frame per splat kernel and point order, three times each
//! (early reject's count depends on the order in which threads reach a pixel).

use bench_harness::{Bar, BarChart, Csv, FigureArgs, Sidecar, figures_dir};
use gpu_context::GpuContext;
use point_cloud_renderer::reference::covered_pixels;
use point_cloud_renderer::{AtomicCounts, CountedSplat, PointCloud, Renderer, packing_for};

const FRAMES: usize = 3;

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
    let mut csv = Csv::new(&[
        "points",
        "order",
        "kernel",
        "width",
        "height",
        "covered_pixels",
        "tested",
        "issued_median",
        "issued_min",
        "issued_max",
        "won_median",
        "won_min",
        "won_max",
        "issued_per_tested",
        "issued_per_covered_pixel",
    ]);
    let mut bars: Vec<Bar> = Vec::new();
    let mut largest = 0;
    for (n_index, &n) in sizes.iter().enumerate() {
        let scene = PointCloud::scene(n, 1);
        largest = scene.len();
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
                csv.row(&[
                    cloud.len().to_string(),
                    order.to_string(),
                    splat.label().to_string(),
                    size.0.to_string(),
                    size.1.to_string(),
                    covered.to_string(),
                    tested.to_string(),
                    issued.0.to_string(),
                    issued.1.to_string(),
                    issued.2.to_string(),
                    won.0.to_string(),
                    won.1.to_string(),
                    won.2.to_string(),
                    format!("{:.4}", f64::from(issued.0) / f64::from(tested.max(1))),
                    format!("{:.3}", f64::from(issued.0) / covered.max(1) as f64),
                ]);
                eprintln!(
                    "{:>9} points, {order:>6}, {:>12}: {tested} tested, {} issued, {} won, {covered} pixels",
                    cloud.len(),
                    splat.label(),
                    issued.0,
                    won.0
                );
                if n_index + 1 == sizes.len() {
                    bars.push((
                        format!("{}, {order} order", splat.label()),
                        f64::from(issued.0) / 1e6,
                        Some((f64::from(issued.1) / 1e6, f64::from(issued.2) / 1e6)),
                    ));
                }
            }
        }
    }
    let dir = figures_dir();
    std::fs::create_dir_all(&dir)?;
    let adapter = ctx.adapter.get_info().name;
    csv.write(&dir.join(format!("{name}.csv")))?;
    BarChart {
        title: format!("atomicMins issued in one frame of {largest} points"),
        subtitle: format!(
            "{adapter}; counted by the splat kernel itself; median of {FRAMES} frames (min–max)"
        ),
        y_label: "million atomicMins".into(),
        log_y: false,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
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
    sidecar.write(&dir.join(format!("{name}.json")))?;
    println!("atomics → {name}.csv, {name}.svg");
    Ok(())
}
