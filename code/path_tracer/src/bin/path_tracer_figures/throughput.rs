use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use path_tracer::RenderSettings;

use crate::setup::{Gpu, median_min_max, scene_on_gpu};

/// The sweep: image size, random triangles per scene, bounce limits, timed renders per point.
pub struct Sweep {
    pub side: u32,
    pub confetti: &'static [usize],
    pub depths: &'static [u32],
    pub repeats: usize,
}

/// A software adapter (lavapipe runs the kernels on the CPU's cores) renders 128 × 128 pixels
/// instead of 1024 × 1024 (four waves of threads on a large GPU), so that the full sweep stays
/// within a few minutes there.
pub fn sweep(quick: bool, software: bool) -> Sweep {
    if quick {
        Sweep {
            side: 64,
            confetti: &[200],
            depths: &[1, 3],
            repeats: 2,
        }
    } else {
        Sweep {
            side: if software { 128 } else { 1024 },
            confetti: &[1_000, 30_000],
            depths: &[1, 2, 4, 8],
            repeats: 5,
        }
    }
}

// ANCHOR: throughput
/// For each scene and bounce limit: one warm-up render of each kind, then `repeats` timed ones.
/// Both renderers trace the very same paths, so the wavefront's queue counters give the number
/// of rays of both.
pub fn run(args: &FigureArgs, gpu: &mut Gpu) -> anyhow::Result<()> {
    let sweep = sweep(args.quick, gpu.ctx.report().is_software());
    let name = args.figure_name("path_tracer", "throughput");
    let queues_name = args.figure_name("path_tracer", "queues");
    let mut csv = Csv::new(&[
        "renderer",
        "triangles",
        "max_depth",
        "pixels",
        "rays",
        "median_s",
        "min_s",
        "max_s",
        "mrays_per_s",
        "mpaths_per_s",
    ]);
    let mut queues = Csv::new(&[
        "triangles",
        "max_depth",
        "bounce",
        "rays_in",
        "terminated",
        "continued",
        "alive_fraction",
    ]);
    let mut series = Vec::new();
    for &confetti in sweep.confetti {
        let (scene, triangles) = scene_on_gpu(&gpu.ctx, confetti)?;
        let mut mega = Series::new(&format!("megakernel, {triangles} triangles"));
        let mut wave = Series::new(&format!("wavefront, {triangles} triangles"));
        for &depth in sweep.depths {
            let settings = RenderSettings::new(sweep.side, sweep.side, 1, depth);
            let (_, warm) = gpu.time_wavefront(&scene, settings)?;
            gpu.time_megakernel(&scene, settings)?;
            let rays: u64 = warm.counts.iter().map(|c| u64::from(c.rays_in)).sum();
            let pixels = u64::from(settings.pixels());
            if depth == *sweep.depths.last().unwrap_or(&depth) {
                for (bounce, c) in warm.counts.iter().enumerate() {
                    queues.row(&[
                        triangles.to_string(),
                        depth.to_string(),
                        bounce.to_string(),
                        c.rays_in.to_string(),
                        c.terminated.to_string(),
                        c.continued.to_string(),
                        format!("{:.4}", f64::from(c.rays_in) / pixels as f64),
                    ]);
                }
            }
            let mut mega_s = Vec::new();
            let mut wave_s = Vec::new();
            for _ in 0..sweep.repeats {
                mega_s.push(gpu.time_megakernel(&scene, settings)?);
                wave_s.push(gpu.time_wavefront(&scene, settings)?.0);
            }
            for (label, samples, line) in [
                ("megakernel", mega_s, &mut mega),
                ("wavefront", wave_s, &mut wave),
            ] {
                let (med, lo, hi) = median_min_max(samples);
                let mrays = rays as f64 / med / 1e6;
                csv.row(&[
                    label.into(),
                    triangles.to_string(),
                    depth.to_string(),
                    pixels.to_string(),
                    rays.to_string(),
                    format!("{med:.6e}"),
                    format!("{lo:.6e}"),
                    format!("{hi:.6e}"),
                    format!("{mrays:.3}"),
                    format!("{:.3}", pixels as f64 / med / 1e6),
                ]);
                line.point_with_spread(
                    f64::from(depth),
                    mrays,
                    rays as f64 / hi / 1e6,
                    rays as f64 / lo / 1e6,
                );
                eprintln!("{label} {triangles} triangles, depth {depth}: {mrays:.1} Mrays/s");
            }
        }
        series.push(mega);
        series.push(wave);
    }
    // ANCHOR_END: throughput
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    queues.write(&dir.join(format!("{queues_name}.csv")))?;
    let adapter = gpu.ctx.adapter.get_info().name;
    LineChart {
        title: "Path tracing: one megakernel against a wavefront of small kernels".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {0}×{0} pixels, one path per pixel",
            sweep.side
        ),
        x_label: "bounce limit (rays per path at most)".into(),
        y_label: "million rays per second".into(),
        log_x: true,
        log_y: false,
        series,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    let notes = vec![
        format!("timing: {}", gpu.timing_source()),
        format!("median of {} renders, whiskers min and max", sweep.repeats),
        "rays: the wavefront's queue counters summed over bounces (both renderers trace the same paths)".into(),
    ];
    Sidecar::new(
        &name,
        "Rays per second of a megakernel and a wavefront path tracer against the bounce limit",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes.clone())
    .write(&dir.join(format!("{name}.json")))?;
    let mut queues_sidecar = Sidecar::new(
        &queues_name,
        "Length of the wavefront's ray queue at each bounce (the deepest bounce limit of the sweep)",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes);
    // The queue lengths are a table only (no chart of their own).
    queues_sidecar.files = vec![format!("{queues_name}.csv")];
    queues_sidecar.write(&dir.join(format!("{queues_name}.json")))?;
    Ok(())
}
