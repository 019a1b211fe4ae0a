use std::time::Instant;

use bench_harness::{
    Drawn, Figure, Found, LineChart, Progress, Series, Sidecar, read_rows, rows_to_csv,
};
use gpu_context::GpuContext;
use profiling_lab::inference::{PackedModel, Server};
use serde::{Deserialize, Serialize};

use crate::args::{Args, Sizes, figure_name, round_to};
use crate::workload::{BATCHES, FORMATS, Requests, model, server_label, start, warm_up};

/// The latency at quantile `q` (0..=1) of sorted samples, nearest rank.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[at - 1]
}

// ANCHOR: latency_loop
/// Wall-clock time of each request, from the input in CPU memory to the logits in CPU memory.
pub fn latencies(
    ctx: &GpuContext,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
    count: usize,
) -> anyhow::Result<Vec<f64>> {
    warm_up(ctx, server, requests, batch)?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let x = requests.get(i, batch);
        let start = Instant::now();
        std::hint::black_box(server.infer(ctx, &x)?);
        out.push(start.elapsed().as_secs_f64());
    }
    out.sort_by(f64::total_cmp);
    Ok(out)
}
// ANCHOR_END: latency_loop

/// One server, format and batch size: the latency's quantiles over the timed requests.
#[derive(Serialize)]
struct LatencyRow {
    server: String,
    format: String,
    batch: usize,
    hidden: usize,
    requests: usize,
    p50_us: f64,
    p90_us: f64,
    p99_us: f64,
    max_us: f64,
    mean_us: f64,
}

/// One point of a latency distribution, `{name}_cdf.csv`: what the charts draw.
#[derive(Serialize, Deserialize)]
struct CdfRow {
    server: String,
    format: String,
    batch: usize,
    quantile: f64,
    latency_us: f64,
}

/// The sizes of the run, from `{name}.csv` (every row has the same).
#[derive(Deserialize)]
struct SizeRow {
    hidden: usize,
    requests: usize,
}

pub fn run(args: &Args, sizes: Sizes, ctx: &GpuContext) -> anyhow::Result<()> {
    let (hidden, count) = (sizes.hidden, sizes.requests);
    let mlp = model(hidden);
    let requests = Requests::default();
    let name = figure_name(&args.figures, "latency");
    let (mut rows, mut cdf) = (Vec::new(), Vec::new());
    let progress = Progress::new((BATCHES.len() * FORMATS.len() * 2) as u64, "latency");
    for format in FORMATS {
        let packed = PackedModel::quantize(&mlp, format)?;
        for &batch in &BATCHES {
            for fused in [false, true] {
                let mut server = start(ctx, fused, packed.clone(), batch)?;
                let (label, weights) = (server_label(&server), format.label());
                progress.step(&format!("{} {weights}, batch {batch}", legend(&label)));
                let t = latencies(ctx, &mut server, &requests, batch, count)?;
                let us = |q: f64| round_to(quantile(&t, q) * 1e6, 1);
                let mean = t.iter().sum::<f64>() / t.len() as f64 * 1e6;
                rows.push(LatencyRow {
                    server: label.clone(),
                    format: weights.clone(),
                    batch,
                    hidden,
                    requests: count,
                    p50_us: us(0.5),
                    p90_us: us(0.9),
                    p99_us: us(0.99),
                    max_us: us(1.0),
                    mean_us: round_to(mean, 1),
                });
                for q in (1..=100)
                    .map(|p| f64::from(p) / 100.0)
                    .chain([0.995, 0.999])
                {
                    cdf.push(CdfRow {
                        server: label.clone(),
                        format: weights.clone(),
                        batch,
                        quantile: round_to(q, 3),
                        latency_us: us(q),
                    });
                }
            }
        }
    }
    progress.finish();
    let adapter = ctx.adapter.get_info().name;
    let charts = charts(&cdf, &adapter, hidden, count, &name)?;
    let sidecar = Sidecar::new(
        &name,
        "Per-request latency (wall clock) of the baseline server and of the server with all three changes",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![format!(
        "hidden width {hidden}, {count} timed requests after at least 10 untimed ones and 0.3 s of them, quantiles by nearest rank"
    )])
    .with_files([format!("{name}.csv")]);
    let mut figure = Figure::new(sidecar)
        .rows(&rows)?
        .extra(&format!("{name}_cdf.csv"), rows_to_csv(&cdf)?);
    for (file, svg) in charts {
        figure = figure.extra(&file, svg);
    }
    figure.write()?;
    Ok(())
}

/// The CSV's server names (`unfused`, `fused`) as the charts and the book name them.
fn legend(server: &str) -> &str {
    match server {
        "unfused" => "baseline",
        "fused" => "all three",
        other => other,
    }
}

/// One chart per batch size, `{name}_b{batch}.svg`: a line per server and format, the fraction
/// of requests at most as slow as each latency.
fn charts(
    points: &[CdfRow],
    adapter: &str,
    hidden: usize,
    count: usize,
    name: &str,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut lines: Vec<Vec<Series>> = vec![Vec::new(); BATCHES.len()];
    for p in points {
        let Some(b) = BATCHES.iter().position(|&x| x == p.batch) else {
            anyhow::bail!("batch {} is not one of {BATCHES:?}", p.batch);
        };
        let label = format!("{} {}", legend(&p.server), p.format);
        if lines[b].last().is_none_or(|s| s.name != label) {
            lines[b].push(Series::new(&label));
        }
        if let Some(line) = lines[b].last_mut() {
            line.point(p.latency_us, p.quantile);
        }
    }
    Ok(lines
        .into_iter()
        .zip(BATCHES)
        .map(|(series, batch)| {
            let svg = LineChart {
                title: format!("Latency per request, batch {batch}: baseline vs all three changes"),
                subtitle: format!(
                    "{adapter}, wgpu 30; MLP 2→{hidden}→{hidden}→{hidden}→3; {count} requests each, wall clock"
                ),
                x_label: "latency (µs)".into(),
                y_label: "fraction of requests at most this slow".into(),
                log_x: true,
                log_y: false,
                series,
                markers: vec![],
            }
            .to_svg();
            (format!("{name}_b{batch}.svg"), svg)
        })
        .collect())
}

/// `--redraw`: the latency charts from the measured `{name}_cdf.csv`, the sizes from
/// `{name}.csv`, the adapter from the sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let name = &found.name;
    let points: Vec<CdfRow> = read_rows(&found.path(&format!("{name}_cdf.csv")))?;
    let sizes: Vec<SizeRow> = found.rows()?;
    let Some(size) = sizes.first() else {
        anyhow::bail!("{name}.csv has no rows: measure the latency part again");
    };
    let adapter = found.adapter_name().unwrap_or("GPU");
    let charts = charts(&points, adapter, size.hidden, size.requests, name)?;
    Ok(Drawn::Charts(charts))
}
