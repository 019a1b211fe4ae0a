use bench_harness::{Drawn, Figure, FigureArgs, Found, LineChart, Series, Sidecar};
use path_tracer::RenderSettings;
use serde::{Deserialize, Serialize};

use crate::setup::{Gpu, median_min_max, scene_on_gpu, seven_digits};

/// One renderer at one scene and bounce limit.
#[derive(Serialize, Deserialize)]
pub struct ThroughputRow {
    renderer: String,
    triangles: usize,
    max_depth: u32,
    pixels: u64,
    rays: u64,
    median_s: f64,
    min_s: f64,
    max_s: f64,
    mrays_per_s: f64,
    mpaths_per_s: f64,
}

/// The wavefront's queue at one bounce of the deepest bounce limit: a table without a chart.
#[derive(Serialize)]
struct QueueRow {
    triangles: usize,
    max_depth: u32,
    bounce: usize,
    rays_in: u32,
    terminated: u32,
    continued: u32,
    alive_fraction: f64,
}

/// Million rays per second against the bounce limit, a line per renderer and scene, whiskers
/// from the slowest render to the fastest.
fn chart(rows: &[ThroughputRow], adapter: &str) -> String {
    let mut series: Vec<Series> = Vec::new();
    for row in rows {
        let name = format!("{}, {} triangles", row.renderer, row.triangles);
        let line = match series.iter().position(|s| s.name == name) {
            Some(at) => &mut series[at],
            None => {
                series.push(Series::new(&name));
                series.last_mut().expect("just pushed")
            }
        };
        let mrays = |seconds: f64| row.rays as f64 / seconds / 1e6;
        line.point_with_spread(
            f64::from(row.max_depth),
            mrays(row.median_s),
            mrays(row.max_s),
            mrays(row.min_s),
        );
    }
    // Square images: the side from the pixel count.
    let side = rows
        .first()
        .map_or(0, |r| (r.pixels as f64).sqrt().round() as u64);
    LineChart {
        title: "Path tracing: one megakernel against a wavefront of small kernels".into(),
        subtitle: format!("{adapter}, wgpu 30; {side}×{side} pixels, one path per pixel"),
        x_label: "bounce limit (rays per path at most)".into(),
        y_label: "million rays per second".into(),
        log_x: true,
        log_y: false,
        series,
        markers: vec![],
    }
    .to_svg()
}

/// `--redraw`: the throughput chart from its table, the adapter from the sidecar; the queue
/// lengths have no chart.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    if found.name.ends_with("_queues") {
        return Ok(Drawn::Kept("a table without a chart".into()));
    }
    let svg = chart(&found.rows()?, found.adapter_name().unwrap_or("GPU"));
    Ok(Drawn::chart(found, svg))
}

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
    let (mut rows, mut queues) = (Vec::new(), Vec::new());
    for &confetti in sweep.confetti {
        let (scene, triangles) = scene_on_gpu(&gpu.ctx, confetti)?;
        for &depth in sweep.depths {
            let settings = RenderSettings::new(sweep.side, sweep.side, 1, depth);
            let (_, warm) = gpu.time_wavefront(&scene, settings)?;
            gpu.time_megakernel(&scene, settings)?;
            let rays: u64 = warm.counts.iter().map(|c| u64::from(c.rays_in)).sum();
            let pixels = u64::from(settings.pixels());
            if depth == *sweep.depths.last().unwrap_or(&depth) {
                for (bounce, c) in warm.counts.iter().enumerate() {
                    queues.push(QueueRow {
                        triangles,
                        max_depth: depth,
                        bounce,
                        rays_in: c.rays_in,
                        terminated: c.terminated,
                        continued: c.continued,
                        alive_fraction: (f64::from(c.rays_in) / pixels as f64 * 1e4).round() / 1e4,
                    });
                }
            }
            let mut mega_s = Vec::new();
            let mut wave_s = Vec::new();
            for _ in 0..sweep.repeats {
                mega_s.push(gpu.time_megakernel(&scene, settings)?);
                wave_s.push(gpu.time_wavefront(&scene, settings)?.0);
            }
            for (label, samples) in [("megakernel", mega_s), ("wavefront", wave_s)] {
                let (med, lo, hi) = median_min_max(samples);
                let (med, lo, hi) = (seven_digits(med), seven_digits(lo), seven_digits(hi));
                let mrays = rays as f64 / med / 1e6;
                rows.push(ThroughputRow {
                    renderer: label.into(),
                    triangles,
                    max_depth: depth,
                    pixels,
                    rays,
                    median_s: med,
                    min_s: lo,
                    max_s: hi,
                    mrays_per_s: (mrays * 1e3).round() / 1e3,
                    mpaths_per_s: (pixels as f64 / med / 1e6 * 1e3).round() / 1e3,
                });
                eprintln!("{label} {triangles} triangles, depth {depth}: {mrays:.1} Mrays/s");
            }
        }
    }
    // ANCHOR_END: throughput
    let chart = chart(&rows, &gpu.ctx.adapter.get_info().name);
    let notes = vec![
        format!("timing: {}", gpu.timing_source()),
        format!("median of {} renders, whiskers min and max", sweep.repeats),
        "rays: the wavefront's queue counters summed over bounces (both renderers trace the same paths)".into(),
    ];
    let sidecar = Sidecar::new(
        &name,
        "Rays per second of a megakernel and a wavefront path tracer against the bounce limit",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes.clone());
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    let queues_sidecar = Sidecar::new(
        &queues_name,
        "Length of the wavefront's ray queue at each bounce (the deepest bounce limit of the sweep)",
    )
    .with_adapter(gpu.ctx.report())
    .with_notes(notes)
    // The queue lengths are a table only (no chart of their own).
    .with_files([format!("{queues_name}.csv")]);
    Figure::new(queues_sidecar).rows(&queues)?.write()?;
    Ok(())
}
