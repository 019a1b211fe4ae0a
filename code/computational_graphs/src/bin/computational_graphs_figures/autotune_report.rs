//! The autotuner of the sweeps, and what it did: one row per Linear shape with the tuning time,
//! the winner and the heuristic's kernel timed side by side.

use bench_harness::Figure;
use computational_graphs::compiler::autotune::{AutotuneSettings, Autotuner, Source};
use gpu_context::GpuContext;

use crate::args::Args;
use crate::digits::round_to;

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

/// `{prefix}_autotune.csv` and its sidecar.
pub fn write(
    ctx: &GpuContext,
    args: &Args,
    tuner: &Autotuner,
) -> Result<(), Box<dyn std::error::Error>> {
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
            source: match r.source {
                Source::Tuned => "tuned",
                Source::Cache => "cache",
                Source::Heuristic => "heuristic",
            },
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
