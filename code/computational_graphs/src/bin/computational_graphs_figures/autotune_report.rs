//! The autotuner of the sweeps, and what it did: one row per Linear shape with the tuning time,
//! the winner and the heuristic's kernel timed side by side.

use bench_harness::{Csv, figures_dir};
use computational_graphs::compiler::autotune::{AutotuneSettings, Autotuner, Source};
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

/// `{prefix}_autotune.csv` and its sidecar.
pub fn write(
    ctx: &GpuContext,
    args: &Args,
    tuner: &Autotuner,
) -> Result<(), Box<dyn std::error::Error>> {
    if tuner.records.is_empty() {
        return Ok(());
    }
    let mut csv = Csv::new(&[
        "m",
        "k",
        "n",
        "epilogue",
        "source",
        "candidates",
        "rejected",
        "tuning_ms",
        "winner",
        "winner_block",
        "winner_us",
        "heuristic_us",
        "heuristic_over_winner",
    ]);
    let us = |s: Option<f64>| s.map_or(String::new(), |s| format!("{:.3}", s * 1e6));
    for r in &tuner.records {
        let c = r.winner;
        let (bm, bn) = c.block();
        let ratio = match (r.heuristic_s, r.winner_s) {
            (Some(h), Some(w)) if w > 0.0 => format!("{:.3}", h / w),
            _ => String::new(),
        };
        csv.row(&[
            r.shape.m.to_string(),
            r.shape.k.to_string(),
            r.shape.n.to_string(),
            format!("{:?}", r.shape.epilogue),
            match r.source {
                Source::Tuned => "tuned",
                Source::Cache => "cache",
                Source::Heuristic => "heuristic",
            }
            .into(),
            r.candidates.to_string(),
            r.rejected.len().to_string(),
            format!("{:.1}", r.tuning_time.as_secs_f64() * 1e3),
            format!(
                "threads {}x{}, {}x{} per invocation, k-step {}{}",
                c.threads.0,
                c.threads.1,
                c.rows,
                4 * c.vec_cols,
                c.bk,
                if c.prefetch { ", prefetch" } else { "" }
            ),
            format!("{bm}x{bn}"),
            us(r.winner_s),
            us(r.heuristic_s),
            ratio,
        ]);
    }
    let name = format!("{}_autotune", args.prefix);
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let mut sidecar = args.sidecar(
        &name,
        "autotuner per Linear shape of the sweeps: candidates checked against the CPU, correct \
         ones timed (median), the fastest kept; tuning time, winner, and the heuristic's kernel \
         timed alongside",
        Some(ctx.report().to_json()),
    );
    sidecar.files = vec![format!("{name}.csv")];
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
