//! The autotuner of the sweeps, and what it did: one row per Linear shape with the tuning time,
//! the winner and the heuristic's kernel timed side by side; one row per chain layout timed.

use bench_harness::Figure;
use bench_harness::digits::round_to;
use computational_graphs::compiler::autotune::{AutotuneSettings, Autotuner, Source};
use computational_graphs::compiler::chain_block::ChainLayout;
use gpu_context::GpuContext;

use crate::args::Args;

/// The tuner shared by every point of the sweeps: a shape met again is a cache hit.
pub fn tuner(ctx: &GpuContext, args: &Args) -> Result<Autotuner, Box<dyn std::error::Error>> {
    Ok(Autotuner::new(
        ctx,
        AutotuneSettings {
            cache_file: args.tune_cache.clone(),
            tune_software: args.tune_software,
            samples: if args.quick { 3 } else { 5 },
            warm_up: None,
        },
    )?)
}

/// One Linear shape of `{prefix}_autotune.csv`; times the tuner did not take are empty.
#[derive(serde::Serialize)]
struct AutotuneRow {
    m: usize,
    k: usize,
    n: usize,
    epilogue: String,
    source: &'static str,
    candidates: usize,
    rejected: usize,
    tuning_ms: f64,
    winner: String,
    winner_block: String,
    winner_us: Option<f64>,
    heuristic_us: Option<f64>,
    heuristic_over_winner: Option<f64>,
}

/// One layout of one chain in `{prefix}_chain_autotune.csv`.
#[derive(serde::Serialize)]
struct ChainTuneRow {
    rows: usize,
    steps: String,
    source: &'static str,
    layout: String,
    /// Median per run of the chain kernel, GPU timestamps; empty when not timed here.
    median_us: Option<f64>,
    winner: bool,
    /// Why the layout was not timed (does not fit, or differs from the CPU).
    rejected: String,
    tuning_ms: f64,
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Tuned => "tuned",
        Source::Cache => "cache",
        Source::Heuristic => "heuristic",
    }
}

fn layout_name(layout: ChainLayout) -> String {
    match layout {
        ChainLayout::RowPerWorkgroup => "one row per workgroup".into(),
        ChainLayout::Block { rows, k_step } => {
            format!("blocks of {rows} rows, W tiles of {k_step} rows")
        }
        ChainLayout::Stream { rows } => {
            format!("blocks of {rows} rows, W straight into registers")
        }
    }
}

/// `{prefix}_chain_autotune.csv` and its sidecar: every chain layout the tuner met. The name
/// ends in `_autotune`, so that `--redraw` keeps it as a table, like the Linear shapes' one.
fn write_chains(
    ctx: &GpuContext,
    args: &Args,
    tuner: &Autotuner,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut csv = Vec::new();
    for r in &tuner.chain_records {
        let row = |layout: ChainLayout, median_us: Option<f64>, rejected: String| ChainTuneRow {
            rows: r.key.rows,
            steps: r.key.steps.clone(),
            source: source_name(r.source),
            layout: layout_name(layout),
            median_us: median_us.map(|us| round_to(us, 3)),
            winner: layout == r.winner,
            rejected,
            tuning_ms: round_to(r.tuning_time.as_secs_f64() * 1e3, 1),
        };
        if r.timed.is_empty() && r.rejected.is_empty() {
            csv.push(row(r.winner, r.winner_s.map(|s| s * 1e6), String::new()));
        }
        for &(layout, s) in &r.timed {
            csv.push(row(layout, Some(s * 1e6), String::new()));
        }
        for (layout, why) in &r.rejected {
            csv.push(row(*layout, None, why.clone()));
        }
    }
    if csv.is_empty() {
        return Ok(());
    }
    let name = format!("{}_chain_autotune", args.prefix);
    let mut sidecar = args.sidecar(
        &name,
        "autotuner per chain kernel of the sweeps: each layout (one row per workgroup, or blocks \
         of rows) checked against the CPU, the correct ones timed (median of 20-run \
         submissions, GPU timestamps where the adapter has them), the fastest kept",
        Some(ctx.report()),
    );
    sidecar.files = vec![format!("{name}.csv")];
    Figure::new(sidecar).rows(&csv)?.write()?;
    Ok(())
}

/// `{prefix}_autotune.csv`, `{prefix}_chain_autotune.csv` and their sidecars.
pub fn write(
    ctx: &GpuContext,
    args: &Args,
    tuner: &Autotuner,
) -> Result<(), Box<dyn std::error::Error>> {
    write_chains(ctx, args, tuner)?;
    if tuner.records.is_empty() {
        return Ok(());
    }
    let mut csv: Vec<AutotuneRow> = Vec::new();
    let us = |s: Option<f64>| s.map(|s| round_to(s * 1e6, 3));
    for r in &tuner.records {
        let c = r.winner;
        let (bm, bn) = c.block();
        let ratio = match (r.heuristic_s, r.winner_s) {
            (Some(h), Some(w)) if w > 0.0 => Some(round_to(h / w, 3)),
            _ => None,
        };
        csv.push(AutotuneRow {
            m: r.shape.m,
            k: r.shape.k,
            n: r.shape.n,
            epilogue: format!("{:?}", r.shape.epilogue),
            source: source_name(r.source),
            candidates: r.candidates,
            rejected: r.rejected.len(),
            tuning_ms: round_to(r.tuning_time.as_secs_f64() * 1e3, 1),
            winner: format!(
                "threads {}x{}, {}x{} per invocation, k-step {}{}{}",
                c.threads.0,
                c.threads.1,
                c.rows,
                4 * c.vec_cols,
                c.bk,
                if c.prefetch { ", prefetch" } else { "" },
                if c.split_k > 1 {
                    format!(", split-K {}", c.split_k)
                } else {
                    String::new()
                }
            ),
            winner_block: format!("{bm}x{bn}"),
            winner_us: us(r.winner_s),
            heuristic_us: us(r.heuristic_s),
            heuristic_over_winner: ratio,
        });
    }
    let name = format!("{}_autotune", args.prefix);
    let mut sidecar = args.sidecar(
        &name,
        "autotuner per Linear shape of the sweeps: candidates checked against the CPU, correct \
         ones timed (median), the fastest kept; tuning time, winner, and the heuristic's kernel \
         timed alongside",
        Some(ctx.report()),
    );
    sidecar.files = vec![format!("{name}.csv")];
    Figure::new(sidecar).rows(&csv)?.write()?;
    Ok(())
}
