use bench_harness::{BarChart, Csv, figures_dir};
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::inference::{PackedModel, stage_totals};

use super::{
    Args, BATCHES, FORMATS, Requests, Server, Sizes, figure_name, model, sidecar, warm_up,
};

/// Profiled requests per server, format and batch size; each stage's median is reported.
const PROFILED: usize = 9;

// ANCHOR: stage_medians
/// Each stage's GPU time (all layers added up), the median over `PROFILED` requests.
fn stage_medians(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
) -> anyhow::Result<Vec<(String, f64)>> {
    warm_up(ctx, server, requests, batch)?;
    server.infer_profiled(ctx, scopes, &requests.get(0, batch))?; // the profiler's queries
    let mut runs: Vec<Vec<(String, f64)>> = Vec::new();
    for i in 0..PROFILED {
        let timings = server.infer_profiled(ctx, scopes, &requests.get(i, batch))?;
        runs.push(stage_totals(&timings));
    }
    let labels: Vec<String> = runs[0].iter().map(|(l, _)| l.clone()).collect();
    Ok(labels
        .into_iter()
        .map(|label| {
            let mut t: Vec<f64> = runs
                .iter()
                .filter_map(|r| r.iter().find(|(l, _)| *l == label).map(|(_, s)| *s))
                .collect();
            t.sort_by(f64::total_cmp);
            let median = t[t.len() / 2];
            (label, median)
        })
        .collect())
}
// ANCHOR_END: stage_medians

pub fn run(args: &Args, sizes: Sizes, ctx: &GpuContext) -> anyhow::Result<()> {
    let hidden = sizes.hidden;
    let mlp = model(hidden);
    let requests = Requests::default();
    let mut scopes = GpuScopes::new(ctx)?;
    let name = figure_name(&args.figures, "stages");
    let mut csv = Csv::new(&["server", "format", "batch", "hidden", "stage", "gpu_us"]);
    let mut charts = vec![BarChart::default(); BATCHES.len()];
    for format in FORMATS {
        let packed = PackedModel::quantize(&mlp, format)?;
        for (b, &batch) in BATCHES.iter().enumerate() {
            for fused in [false, true] {
                let mut server = Server::start(ctx, fused, packed.clone(), batch)?;
                let stages = stage_medians(ctx, &mut scopes, &mut server, &requests, batch)?;
                let total: f64 = stages.iter().map(|(_, s)| s).sum();
                for (stage, s) in stages.iter().chain([&("GPU total".to_string(), total)]) {
                    csv.row(&[
                        server.label().into(),
                        format.label(),
                        batch.to_string(),
                        hidden.to_string(),
                        stage.clone(),
                        format!("{:.2}", s * 1e6),
                    ]);
                    let bar = format!("{} {}: {stage}", server.label(), format.label());
                    charts[b].bars.push((bar, s * 1e6, None));
                }
                eprintln!(
                    "stages {} {} batch {batch}: {:.1} µs on the GPU",
                    server.label(),
                    format.label(),
                    total * 1e6
                );
            }
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = ctx.adapter.get_info().name;
    for (mut chart, batch) in charts.into_iter().zip(BATCHES) {
        chart.title = format!("Where a request's GPU time goes, batch {batch}");
        chart.subtitle = format!(
            "{adapter}, wgpu 30, timestamp scopes; MLP 2→{hidden}→{hidden}→{hidden}→3; median of {PROFILED} requests"
        );
        chart.y_label = "GPU time (µs)".into();
        chart.log_y = true;
        chart.write(&dir.join(format!("{name}_b{batch}.svg")))?;
    }
    let mut sidecar = sidecar(
        &name,
        "GPU time per stage of one request, unfused and fused inference servers",
        ctx,
        vec![format!(
            "hidden width {hidden}; each stage summed over the layers, median of {PROFILED} profiled requests"
        )],
    );
    sidecar.files = std::iter::once(format!("{name}.csv"))
        .chain(BATCHES.iter().map(|b| format!("{name}_b{b}.svg")))
        .collect();
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
