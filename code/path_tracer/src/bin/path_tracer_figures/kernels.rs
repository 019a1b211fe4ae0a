use bench_harness::{BarChart, Csv, FigureArgs, Sidecar, figures_dir};
use path_tracer::RenderSettings;
use path_tracer::gpu::totals_by_label;

use super::throughput::sweep;
use crate::setup::{Gpu, median_min_max, scene_on_gpu};

// ANCHOR: kernels
/// The largest scene at the deepest bounce limit: each wavefront kernel's GPU time summed over
/// its passes (median over renders), and the megakernel's whole time beside them.
pub fn run(args: &FigureArgs, gpu: &mut Gpu) -> anyhow::Result<()> {
    let name = args.figure_name("path_tracer", "kernels");
    if gpu.scopes.is_none() {
        eprintln!("kernels: this adapter has no timestamps, so no per-kernel times; skipped");
        return Ok(());
    }
    let sweep = sweep(args.quick, gpu.ctx.report().is_software());
    let confetti = *sweep.confetti.last().unwrap_or(&0);
    let depth = *sweep.depths.last().unwrap_or(&1);
    let (scene, triangles) = scene_on_gpu(&gpu.ctx, confetti)?;
    let settings = RenderSettings::new(sweep.side, sweep.side, 1, depth);
    gpu.time_wavefront(&scene, settings)?; // warm-up
    gpu.time_megakernel(&scene, settings)?;
    let mut per_kernel: Vec<(String, Vec<f64>)> = Vec::new();
    let mut whole = Vec::new();
    let mut mega = Vec::new();
    for _ in 0..sweep.repeats {
        let (span, out) = gpu.time_wavefront(&scene, settings)?;
        whole.push(span);
        for (label, total) in totals_by_label(&out.timings) {
            match per_kernel.iter_mut().find(|(l, _)| *l == label) {
                Some((_, v)) => v.push(total),
                None => per_kernel.push((label, vec![total])),
            }
        }
        mega.push(gpu.time_megakernel(&scene, settings)?);
    }
    // ANCHOR_END: kernels
    let mut rows: Vec<(String, Vec<f64>)> = per_kernel
        .into_iter()
        .map(|(l, v)| (format!("wavefront: {l}"), v))
        .collect();
    rows.push(("wavefront: whole render".into(), whole));
    rows.push(("megakernel: whole render".into(), mega));
    let mut csv = Csv::new(&[
        "scope",
        "triangles",
        "max_depth",
        "median_s",
        "min_s",
        "max_s",
    ]);
    let mut bars = Vec::new();
    for (label, samples) in rows {
        let (med, lo, hi) = median_min_max(samples);
        csv.row(&[
            label.clone(),
            triangles.to_string(),
            depth.to_string(),
            format!("{med:.6e}"),
            format!("{lo:.6e}"),
            format!("{hi:.6e}"),
        ]);
        bars.push((label, med * 1e3, Some((lo * 1e3, hi * 1e3))));
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = gpu.ctx.adapter.get_info().name;
    BarChart {
        title: "Where the wavefront's time goes".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {triangles} triangles, bounce limit {depth}, {0}×{0} pixels",
            sweep.side
        ),
        y_label: "GPU milliseconds per render (median)".into(),
        log_y: false,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
    let notes = vec![
        "GPU timestamps from a scope around every pass; a kernel's row sums its passes".into(),
        format!("median of {} renders, whiskers min and max", sweep.repeats),
        "whole render: first scope's start to last scope's end (gaps between passes included)"
            .into(),
    ];
    Sidecar::new(&name, "GPU time per wavefront kernel and of the megakernel")
        .with_adapter(gpu.ctx.report())
        .with_notes(notes)
        .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
