use bench_harness::{BarChart, Drawn, Figure, FigureArgs, Found, Sidecar};
use path_tracer::RenderSettings;
use path_tracer::gpu::totals_by_label;
use serde::{Deserialize, Serialize};

use super::throughput::sweep;
use crate::setup::{Gpu, median_min_max, scene_on_gpu, seven_digits};

/// One wavefront kernel (its passes added up), or a whole render.
#[derive(Serialize, Deserialize)]
struct KernelRow {
    scope: String,
    triangles: usize,
    max_depth: u32,
    median_s: f64,
    min_s: f64,
    max_s: f64,
}

/// GPU milliseconds per render of each kernel and of the whole renders; `side` is the image's.
fn chart(rows: &[KernelRow], adapter: &str, side: u32) -> String {
    let (triangles, depth) = rows.first().map_or((0, 0), |r| (r.triangles, r.max_depth));
    BarChart {
        title: "Where the wavefront's time goes".into(),
        subtitle: format!(
            "{adapter}, wgpu 30; {triangles} triangles, bounce limit {depth}, {side}×{side} pixels"
        ),
        y_label: "GPU milliseconds per render (median)".into(),
        log_y: false,
        bars: rows
            .iter()
            .map(|r| {
                let ms = |s: f64| s * 1e3;
                (
                    r.scope.clone(),
                    ms(r.median_s),
                    Some((ms(r.min_s), ms(r.max_s))),
                )
            })
            .collect(),
    }
    .to_svg()
}

/// `--redraw`: the chart from the table, the adapter from the sidecar; the image's side is the
/// sweep's, which follows from `--quick` and whether the adapter was a software one.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let side = sweep(found.measured_with("--quick"), found.software_adapter()).side;
    let svg = chart(&found.rows()?, found.adapter_name().unwrap_or("GPU"), side);
    Ok(Drawn::chart(found, svg))
}

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
    let rows: Vec<KernelRow> = rows
        .into_iter()
        .map(|(scope, samples)| {
            let (med, lo, hi) = median_min_max(samples);
            KernelRow {
                scope,
                triangles,
                max_depth: depth,
                median_s: seven_digits(med),
                min_s: seven_digits(lo),
                max_s: seven_digits(hi),
            }
        })
        .collect();
    let chart = chart(&rows, &gpu.ctx.adapter.get_info().name, sweep.side);
    let notes = vec![
        "GPU timestamps from a scope around every pass; a kernel's row sums its passes".into(),
        format!("median of {} renders, whiskers min and max", sweep.repeats),
        "whole render: first scope's start to last scope's end (gaps between passes included)"
            .into(),
    ];
    let sidecar = Sidecar::new(&name, "GPU time per wavefront kernel and of the megakernel")
        .with_adapter(gpu.ctx.report())
        .with_notes(notes);
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    Ok(())
}
