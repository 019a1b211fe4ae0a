use std::time::Instant;

use anyhow::Context;
use bench_harness::{
    Csv, LineChart, Progress, Series, Sidecar, SidecarRecord, figures_dir, git_commit, read_rows,
};
use gpu_context::GpuContext;
use profiling_lab::inference::{PackedModel, Server};
use serde::Deserialize;

use crate::args::{Args, Sizes, figure_name};
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

pub fn run(args: &Args, sizes: Sizes, ctx: &GpuContext) -> anyhow::Result<()> {
    let (hidden, count) = (sizes.hidden, sizes.requests);
    let mlp = model(hidden);
    let requests = Requests::default();
    let name = figure_name(&args.figures, "latency");
    let mut csv = Csv::new(&[
        "server", "format", "batch", "hidden", "requests", "p50_us", "p90_us", "p99_us", "max_us",
        "mean_us",
    ]);
    let mut cdf = Csv::new(&["server", "format", "batch", "quantile", "latency_us"]);
    let mut charts: Vec<Vec<Series>> = vec![Vec::new(); BATCHES.len()];
    let progress = Progress::new((BATCHES.len() * FORMATS.len() * 2) as u64, "latency");
    for format in FORMATS {
        let packed = PackedModel::quantize(&mlp, format)?;
        for (b, &batch) in BATCHES.iter().enumerate() {
            for fused in [false, true] {
                let mut server = start(ctx, fused, packed.clone(), batch)?;
                let label = format!("{} {}", legend(&server_label(&server)), format.label());
                progress.step(&format!("{label}, batch {batch}"));
                let t = latencies(ctx, &mut server, &requests, batch, count)?;
                let us = |q: f64| quantile(&t, q) * 1e6;
                let mean = t.iter().sum::<f64>() / t.len() as f64 * 1e6;
                csv.row(&[
                    server_label(&server),
                    format.label(),
                    batch.to_string(),
                    hidden.to_string(),
                    count.to_string(),
                    format!("{:.1}", us(0.5)),
                    format!("{:.1}", us(0.9)),
                    format!("{:.1}", us(0.99)),
                    format!("{:.1}", us(1.0)),
                    format!("{mean:.1}"),
                ]);
                let mut line = Series::new(&label);
                for q in (1..=100)
                    .map(|p| f64::from(p) / 100.0)
                    .chain([0.995, 0.999])
                {
                    line.point(us(q), q);
                    cdf.row(&[
                        server_label(&server),
                        format.label(),
                        batch.to_string(),
                        format!("{q:.3}"),
                        format!("{:.1}", us(q)),
                    ]);
                }
                charts[b].push(line);
            }
        }
    }
    progress.finish();
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    cdf.write(&dir.join(format!("{name}_cdf.csv")))?;
    let adapter = ctx.adapter.get_info().name;
    draw(charts, &adapter, hidden, count, &name)?;
    let mut sidecar = Sidecar::new(
        &name,
        "Per-request latency (wall clock) of the baseline server and of the server with all three changes",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![format!(
        "hidden width {hidden}, {count} timed requests after at least 10 untimed ones and 0.3 s of them, quantiles by nearest rank"
    )]);
    sidecar.files = [format!("{name}.csv"), format!("{name}_cdf.csv")]
        .into_iter()
        .chain(BATCHES.iter().map(|b| format!("{name}_b{b}.svg")))
        .collect();
    sidecar.write(&dir.join(format!("{name}.json")))?;
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

fn draw(
    charts: Vec<Vec<Series>>,
    adapter: &str,
    hidden: usize,
    count: usize,
    name: &str,
) -> anyhow::Result<()> {
    let dir = figures_dir();
    for (series, batch) in charts.into_iter().zip(BATCHES) {
        LineChart {
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
        .write(&dir.join(format!("{name}_b{batch}.svg")))?;
    }
    Ok(())
}

/// One point of a latency distribution, as `run` writes `{name}_cdf.csv`.
#[derive(Deserialize)]
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

/// `--redraw`: the latency charts drawn again from the measured `{name}_cdf.csv`; nothing is
/// measured, and the sidecar keeps the measuring commit and notes the drawing one.
pub fn redraw(args: &Args) -> anyhow::Result<()> {
    let name = figure_name(&args.figures, "latency");
    let dir = figures_dir();
    let cdf_path = dir.join(format!("{name}_cdf.csv"));
    let points: Vec<CdfRow> = read_rows(&cdf_path).context("--redraw needs the measured CSV")?;
    let sizes: Vec<SizeRow> = read_rows(&dir.join(format!("{name}.csv")))?;
    let Some(size) = sizes.first() else {
        anyhow::bail!("{name}.csv has no rows: measure the latency part first");
    };
    let mut charts: Vec<Vec<Series>> = vec![Vec::new(); BATCHES.len()];
    for p in &points {
        let Some(b) = BATCHES.iter().position(|&x| x == p.batch) else {
            anyhow::bail!(
                "{}: batch {} is not one of {BATCHES:?}",
                cdf_path.display(),
                p.batch
            );
        };
        let label = format!("{} {}", legend(&p.server), p.format);
        if charts[b].last().is_none_or(|s| s.name != label) {
            charts[b].push(Series::new(&label));
        }
        if let Some(line) = charts[b].last_mut() {
            line.point(p.latency_us, p.quantile);
        }
    }
    let json_path = dir.join(format!("{name}.json"));
    let mut record: SidecarRecord = serde_json::from_str(
        &std::fs::read_to_string(&json_path)
            .with_context(|| format!("cannot read the sidecar {}", json_path.display()))?,
    )?;
    let adapter = record.adapter["name"].as_str().unwrap_or("GPU").to_owned();
    draw(charts, &adapter, size.hidden, size.requests, &name)?;
    record.notes.push(format!(
        "SVGs redrawn from {name}_cdf.csv by inference_figures --redraw at commit {} (titles and \
         legends: `unfused` is the baseline, `fused` all three changes)",
        git_commit()
    ));
    let mut json = serde_json::to_string_pretty(&record)?;
    json.push('\n');
    std::fs::write(&json_path, json)?;
    eprintln!("redrew {name}_b*.svg from {}", cdf_path.display());
    Ok(())
}
