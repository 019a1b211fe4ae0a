//! The three changes one at a time and together (int8 weights): for each set of changes, the
//! wall-clock latency of many requests, the GPU time of a few profiled ones, and the time of a
//! few traced ones split by the request's `tracing` spans.

use anyhow::Context;
use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar, figures_dir};
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::chrome_trace::{ChromeTrace, read_events, span_totals};
use profiling_lab::inference::{Changes, PackedModel, Server, WeightFormat, stage_totals};
use serde::{Deserialize, Serialize};
use tracing_subscriber::filter::LevelFilter;

use crate::args::{Args, Sizes, figure_name};
use crate::latency::{latencies, quantile};
use crate::workload::{BATCHES, Requests, model};

/// Requests recorded into a Chrome trace per configuration, and profiled on the GPU.
const TRACED: usize = 20;
const PROFILED: usize = 9;

/// One set of changes at one batch size.
#[derive(Serialize, Deserialize)]
struct StepRow {
    variant: String,
    fuse: bool,
    once: bool,
    gemv: bool,
    batch: usize,
    hidden: usize,
    requests: usize,
    /// The fastest timed request (the chart's whisker starts there); absent from tables measured
    /// before it was kept.
    #[serde(default)]
    min_us: Option<f64>,
    p50_us: f64,
    p90_us: f64,
    p99_us: f64,
    /// The median GPU time of the profiled requests (every pass and the read-back copy).
    gpu_us: f64,
    /// The median wall time of the traced requests (the spans cost a little).
    traced_p50_us: f64,
}

/// One span of the traced requests of one set of changes at one batch size.
#[derive(Serialize)]
struct SpanRow {
    variant: String,
    batch: usize,
    span: String,
    /// Per request, the span's time added up (a span can run several times in a request).
    median_us: f64,
    mean_us: f64,
    /// `mean_us` over the mean traced request.
    share: f64,
}

/// One chart per batch size, `{name}_b{batch}.svg`: each set of changes' median latency, whiskers
/// from the fastest request to p99. `None` where a row lacks the fastest request.
fn charts(rows: &[StepRow], adapter: &str, name: &str) -> Option<Vec<(String, String)>> {
    let (hidden, count) = rows.first().map_or((0, 0), |r| (r.hidden, r.requests));
    BATCHES
        .iter()
        .map(|&batch| {
            let bars = rows
                .iter()
                .filter(|r| r.batch == batch)
                .map(|r| Some((r.variant.clone(), r.p50_us, Some((r.min_us?, r.p99_us)))))
                .collect::<Option<Vec<_>>>()?;
            let chart = BarChart {
                title: format!("Median latency per request, batch {batch}, by the changes made"),
                subtitle: format!(
                    "{adapter}, wgpu 30; int8 MLP 2→{hidden}→{hidden}→{hidden}→3; {count} \
                     requests, whiskers fastest to p99"
                ),
                y_label: "latency (µs)".into(),
                log_y: true,
                bars,
            };
            Some((format!("{name}_b{batch}.svg"), chart.to_svg()))
        })
        .collect()
}

/// `--redraw`: the charts from the table, the adapter from the sidecar; the spans' table has no
/// chart.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    if found.name.ends_with("_spans") {
        return Ok(Drawn::Kept("a table without a chart".into()));
    }
    let adapter = found.adapter_name().unwrap_or("GPU");
    Ok(match charts(&found.rows()?, adapter, &found.name) {
        Some(charts) => Drawn::Charts(charts),
        None => Drawn::Kept(
            "the table has no min_us column (measured before it was kept), and the whiskers \
             start at the fastest request"
                .into(),
        ),
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Each span's time in every traced request, by name.
type SpanSamples = Vec<(String, Vec<f64>)>;

/// The traced requests' spans, one row per span name and `untraced` for the rest of the request.
fn traced(
    ctx: &GpuContext,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
    count: usize,
) -> anyhow::Result<(SpanSamples, Vec<f64>)> {
    let path = std::env::temp_dir().join(format!("infer_steps_{}.json", std::process::id()));
    {
        let _trace = ChromeTrace::record_to(&path, LevelFilter::INFO)?;
        for i in 0..count {
            server.infer(ctx, &requests.get(i, batch))?;
        }
    }
    let frames = span_totals(&read_events(&path)?, "request");
    std::fs::remove_file(&path).ok();
    let mut spans: SpanSamples = Vec::new();
    let mut totals = Vec::new();
    for frame in &frames {
        let total = frame
            .iter()
            .find(|(n, _)| n == "request")
            .map_or(0.0, |s| s.1);
        let children: f64 = frame
            .iter()
            .filter(|(n, _)| n != "request")
            .map(|s| s.1)
            .sum();
        totals.push(total);
        let parts = frame.iter().filter(|(n, _)| n != "request");
        for (name, us) in parts.chain([&("untraced".to_owned(), total - children)]) {
            match spans.iter_mut().find(|(n, _)| n == name) {
                Some((_, v)) => v.push(*us),
                None => spans.push((name.clone(), vec![*us])),
            }
        }
    }
    Ok((spans, totals))
}

/// The median GPU time of `PROFILED` requests (after one that sets the profiler up).
fn gpu_time(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
) -> anyhow::Result<f64> {
    server.infer_profiled(ctx, scopes, &requests.get(0, batch))?;
    let mut totals = Vec::with_capacity(PROFILED);
    for i in 0..PROFILED {
        let (_, timings) = server.infer_profiled(ctx, scopes, &requests.get(i, batch))?;
        totals.push(stage_totals(&timings).iter().map(|(_, s)| s * 1e6).sum());
    }
    Ok(median(totals))
}

pub fn run(args: &Args, sizes: Sizes, ctx: &GpuContext, timestamps: bool) -> anyhow::Result<()> {
    let (hidden, count) = (sizes.hidden, sizes.requests);
    let traced_count = if args.figures.quick { 3 } else { TRACED };
    let packed = PackedModel::quantize(&model(hidden), WeightFormat::Int8)?;
    let requests = Requests::default();
    let mut scopes = if timestamps {
        Some(GpuScopes::new(ctx)?)
    } else {
        None
    };
    let (mut rows, mut span_rows) = (Vec::new(), Vec::new());
    for &batch in &BATCHES {
        for changes in Changes::STEPS {
            let variant = changes.label();
            let mut server = Server::new(ctx, packed.clone(), changes, batch)?;
            let t = latencies(ctx, &mut server, &requests, batch, count)?;
            let (spans, totals) = traced(ctx, &mut server, &requests, batch, traced_count)?;
            let gpu_us = match scopes.as_mut() {
                Some(s) => gpu_time(ctx, s, &mut server, &requests, batch)?,
                None => f64::NAN,
            };
            let us = |q: f64| round2(quantile(&t, q) * 1e6);
            let mean_total = totals.iter().sum::<f64>() / totals.len().max(1) as f64;
            for (span, v) in spans {
                let mean = v.iter().sum::<f64>() / v.len() as f64;
                span_rows.push(SpanRow {
                    variant: variant.clone(),
                    batch,
                    span,
                    median_us: round2(median(v)),
                    mean_us: round2(mean),
                    share: (mean / mean_total * 1e4).round() / 1e4,
                });
            }
            eprintln!(
                "steps {variant} batch {batch}: p50 {} µs, GPU {gpu_us:.1} µs",
                us(0.5)
            );
            rows.push(StepRow {
                variant,
                fuse: changes.fuse,
                once: changes.once,
                gemv: changes.gemv,
                batch,
                hidden,
                requests: count,
                min_us: Some(us(0.0)),
                p50_us: us(0.5),
                p90_us: us(0.9),
                p99_us: us(0.99),
                gpu_us: round2(gpu_us),
                traced_p50_us: round2(median(totals)),
            });
        }
    }
    write(args, ctx, hidden, count, traced_count, (rows, span_rows))
}

fn write(
    args: &Args,
    ctx: &GpuContext,
    hidden: usize,
    count: usize,
    traced_count: usize,
    (rows, span_rows): (Vec<StepRow>, Vec<SpanRow>),
) -> anyhow::Result<()> {
    let dir = figures_dir();
    let name = figure_name(&args.figures, "steps");
    let adapter = ctx.adapter.get_info().name;
    let notes = vec![format!(
        "int8 weights, hidden width {hidden}; per set of changes, one after another: warm-up (at \
         least 10 requests and 0.3 s), {count} timed requests (p50/p90/p99 by nearest rank), \
         {traced_count} requests traced with tracing-chrome (traced_p50_us), {PROFILED} profiled \
         with GPU timestamp scopes after one untimed (gpu_us, median)"
    )];
    let mut figure = Figure::new(Sidecar::new(
        &name,
        "The inference case study's three changes one at a time and together: latency and GPU time",
    )
    .with_adapter(ctx.report())
    .with_notes(notes.clone())
    .with_files([format!("{name}.csv")]))
    .rows(&rows)?;
    let charts = charts(&rows, &adapter, &name).expect("every measured row has min_us");
    for (file, svg) in charts {
        figure = figure.extra(&file, svg);
    }
    figure
        .write_to(&dir)
        .with_context(|| format!("writing {name} into {}", dir.display()))?;
    let spans_name = format!("{name}_spans");
    let mut span_notes = notes;
    span_notes.push(
        "per traced request, each direct child span of `request` added up by name; `untraced` is \
         the rest of the request; share = mean_us / the mean traced request"
            .into(),
    );
    let mut spans_sidecar = Sidecar::new(
        &spans_name,
        "Where a request's wall time goes, by tracing span, for each set of changes",
    )
    .with_adapter(ctx.report())
    .with_notes(span_notes);
    // A table without a chart: the sidecar names it.
    spans_sidecar.files = vec![format!("{spans_name}.csv")];
    Figure::new(spans_sidecar)
        .rows(&span_rows)?
        .write_to(&dir)
        .with_context(|| format!("writing {spans_name} into {}", dir.display()))?;
    Ok(())
}
