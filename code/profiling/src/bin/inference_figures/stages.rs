use anyhow::bail;
use bench_harness::{BarChart, Drawn, Figure, Found, Sidecar};
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::inference::{PackedModel, Server, WeightFormat, stage_totals};
use quantization::energy::EnergyMeter;
use serde::{Deserialize, Serialize};

use crate::args::{Args, Order, Sizes, figure_name};
use crate::workload::{BATCHES, FORMATS, Requests, model, server_label, start, warm_up};

/// Profiled requests per server, format and batch size; each stage's median is reported.
const PROFILED: usize = 9;

/// One row of the stages table: what `run` writes and `redraw` reads back.
#[derive(Debug, Serialize, Deserialize)]
struct StageRow {
    server: String,
    format: String,
    batch: usize,
    hidden: usize,
    stage: String,
    /// The median over the profiled requests; `min_us` and `max_us` the fastest and slowest.
    gpu_us: f64,
    min_us: f64,
    max_us: f64,
    /// Empty where the GPU's clock cannot be read (no NVIDIA driver, or built without `nvml`).
    sm_clock_min_mhz: Option<u32>,
    sm_clock_max_mhz: Option<u32>,
}

impl StageRow {
    fn bar(&self) -> bench_harness::Bar {
        let name = format!("{} {}: {}", self.server, self.format, self.stage);
        (name, self.gpu_us, Some((self.min_us, self.max_us)))
    }
}

/// One configuration under measurement and the stage times of its profiled requests.
struct Profiled {
    format: WeightFormat,
    batch: usize,
    server: Server,
    /// One entry per profiled request: each stage's GPU time in seconds, all layers added up.
    runs: Vec<Vec<(String, f64)>>,
    /// The SM clock (MHz) read after each profiled request, where the GPU reports it.
    clocks: Vec<u32>,
}

impl Profiled {
    /// Warm-up requests, then one profiled request that sets up the profiler's queries and is
    /// not kept.
    fn prepare(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        requests: &Requests,
    ) -> anyhow::Result<()> {
        warm_up(ctx, &mut self.server, requests, self.batch)?;
        self.server
            .infer_profiled(ctx, scopes, &requests.get(0, self.batch))?;
        Ok(())
    }

    fn profile_one(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        requests: &Requests,
        i: usize,
        meter: Option<&EnergyMeter>,
    ) -> anyhow::Result<()> {
        let (_, timings) = self
            .server
            .infer_profiled(ctx, scopes, &requests.get(i, self.batch))?;
        self.runs.push(stage_totals(&timings));
        if let Some(mhz) = meter.and_then(|m| m.sm_clock_mhz().ok()) {
            self.clocks.push(mhz);
        }
        Ok(())
    }
}

/// Every configuration's profiled requests, in `order`. In turns, round `r` profiles one request
/// of each server before round `r + 1` begins: the GPU's clock is not held fixed, so whatever it
/// does over the run reaches every configuration alike. One after another, the order that looks
/// natural, favours whichever configuration happens to be measured when the GPU is warm.
fn profile(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    all: &mut [Profiled],
    requests: &Requests,
    meter: Option<&EnergyMeter>,
    order: Order,
) -> anyhow::Result<()> {
    match order {
        Order::Turns => {
            for p in all.iter_mut() {
                p.prepare(ctx, scopes, requests)?;
            }
            for round in 0..PROFILED {
                for p in all.iter_mut() {
                    p.profile_one(ctx, scopes, requests, round, meter)?;
                }
            }
        }
        Order::Sequential => {
            for p in all.iter_mut() {
                p.prepare(ctx, scopes, requests)?;
                for i in 0..PROFILED {
                    p.profile_one(ctx, scopes, requests, i, meter)?;
                }
            }
        }
    }
    Ok(())
}

/// Each stage's median, fastest and slowest time over the profiled requests, with the total.
fn stage_summary(runs: &[Vec<(String, f64)>]) -> Vec<(String, [f64; 3])> {
    let summary = |mut t: Vec<f64>| {
        t.sort_by(f64::total_cmp);
        [t[t.len() / 2], t[0], t[t.len() - 1]]
    };
    let labels: Vec<String> = runs[0].iter().map(|(l, _)| l.clone()).collect();
    let mut out: Vec<(String, [f64; 3])> = labels
        .into_iter()
        .map(|label| {
            let t = runs
                .iter()
                .filter_map(|r| r.iter().find(|(l, _)| *l == label).map(|(_, s)| *s))
                .collect();
            (label, summary(t))
        })
        .collect();
    let totals = runs
        .iter()
        .map(|r| r.iter().map(|(_, s)| s).sum())
        .collect();
    out.push(("GPU total".to_string(), summary(totals)));
    out
}

fn file_name(args: &Args) -> String {
    match args.order {
        Order::Turns => figure_name(&args.figures, "stages"),
        Order::Sequential => figure_name(&args.figures, "stages_sequential"),
    }
}

fn order_text(order: Order) -> &'static str {
    match order {
        Order::Turns => "taken in turns",
        Order::Sequential => "one configuration after another",
    }
}

/// One chart per batch size, `{name}_b{batch}.svg`: a bar per server, format and stage.
fn charts(
    rows: &[StageRow],
    adapter: &str,
    order: &str,
    name: &str,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut bars = vec![Vec::new(); BATCHES.len()];
    for row in rows {
        let Some(b) = BATCHES.iter().position(|&x| x == row.batch) else {
            bail!("batch {} is not one of {BATCHES:?}", row.batch);
        };
        bars[b].push(row.bar());
    }
    let hidden = rows.first().map_or(0, |r| r.hidden);
    Ok(bars
        .into_iter()
        .zip(BATCHES)
        .map(|(bars, batch)| {
            let chart = BarChart {
                title: format!("Where a request's GPU time goes, batch {batch}"),
                subtitle: format!(
                    "{adapter}, wgpu 30, timestamp scopes; MLP 2→{hidden}→{hidden}→{hidden}→3; \
                     median of {PROFILED} requests {order}, whiskers fastest to slowest"
                ),
                y_label: "GPU time (µs)".into(),
                log_y: true,
                bars,
            };
            (format!("{name}_b{batch}.svg"), chart.to_svg())
        })
        .collect())
}

/// `--redraw`: the charts from the measured `{name}.csv`; the order from the figure's name, the
/// adapter from its sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let order = if found.name.ends_with("_sequential") {
        Order::Sequential
    } else {
        Order::Turns
    };
    let adapter = found.adapter_name().unwrap_or("GPU");
    let charts = charts(&found.rows()?, adapter, order_text(order), &found.name)?;
    Ok(Drawn::Charts(charts))
}

pub fn run(args: &Args, sizes: Sizes, ctx: &GpuContext) -> anyhow::Result<()> {
    let hidden = sizes.hidden;
    let mlp = model(hidden);
    let requests = Requests::default();
    let mut scopes = GpuScopes::new(ctx)?;
    let name = file_name(args);
    let meter = EnergyMeter::open();
    let clock_note = match &meter {
        Ok(_) => "sm_clock_*_mhz: the SM clock (NVML) read after each profiled request, lowest \
                  and highest"
            .to_string(),
        Err(e) => format!("no SM clock: {e}"),
    };
    eprintln!("{clock_note}");
    let meter = meter.ok();
    let mut all = Vec::new();
    for format in FORMATS {
        let packed = PackedModel::quantize(&mlp, format)?;
        for &batch in &BATCHES {
            for fused in [false, true] {
                let server = start(ctx, fused, packed.clone(), batch)?;
                all.push(Profiled {
                    format,
                    batch,
                    server,
                    runs: Vec::with_capacity(PROFILED),
                    clocks: Vec::with_capacity(PROFILED),
                });
            }
        }
    }
    profile(
        ctx,
        &mut scopes,
        &mut all,
        &requests,
        meter.as_ref(),
        args.order,
    )?;

    let mut rows = Vec::new();
    let us = |s: f64| (s * 1e8).round() / 100.0;
    for p in &all {
        let (server, format) = (server_label(&p.server), p.format.label());
        for (stage, [median, min, max]) in stage_summary(&p.runs) {
            let row = StageRow {
                server: server.clone(),
                format: format.clone(),
                batch: p.batch,
                hidden,
                stage,
                gpu_us: us(median),
                min_us: us(min),
                max_us: us(max),
                sm_clock_min_mhz: p.clocks.iter().min().copied(),
                sm_clock_max_mhz: p.clocks.iter().max().copied(),
            };
            if row.stage == "GPU total" {
                eprintln!(
                    "stages {server} {format} batch {}: {} µs on the GPU",
                    p.batch, row.gpu_us
                );
            }
            rows.push(row);
        }
    }
    let order = order_text(args.order);
    let charts = charts(&rows, &ctx.adapter.get_info().name, order, &name)?;
    let mut sidecar = Sidecar::new(
        &name,
        "GPU time per stage of one request, unfused and fused inference servers",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![
        format!(
            "hidden width {hidden}; each stage summed over the layers; {PROFILED} profiled \
                 requests per configuration, {order}; gpu_us is the median, min_us and max_us \
                 the fastest and slowest"
        ),
        clock_note,
    ]);
    sidecar.files = vec![format!("{name}.csv")];
    let mut figure = Figure::new(sidecar).rows(&rows)?;
    for (file, svg) in charts {
        figure = figure.extra(&file, svg);
    }
    figure.write()?;
    Ok(())
}
