//! The matmul ladder at one large size, timed with GPU timestamps where available.

use bench_harness::{BarChart, Figure, measure_durations};
use computational_graphs::matmul_ladder::{PreparedMatmul, Rung};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

use crate::args::Args;
use crate::charts::subtitle;
use crate::digits::{round_to, significant};
use crate::tables::read_pytorch;

/// One kernel of `{prefix}_matmul_ladder.csv` (PyTorch's rows have no difference to the naive
/// kernel: it is not run here).
#[derive(serde::Serialize)]
struct LadderRow {
    kernel: String,
    size: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    gflops: f64,
    timing: &'static str,
    max_abs_diff_vs_naive: Option<f64>,
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = args.ladder_size;
    let mut rng = SplitMix64::new(4096);
    let a = Tensor2D::random(n, n, 1.0, &mut rng);
    let b = Tensor2D::random(n, n, 1.0, &mut rng);
    let flops = 2.0 * (n as f64).powi(3);
    let (warmup, samples) = if args.quick { (1, 3) } else { (2, 7) };
    // Repeat the dispatch inside one submission so that submit overhead does not count.
    let repeats = if args.quick { 2 } else { 10 };
    let mut csv: Vec<LadderRow> = Vec::new();
    let mut bars = Vec::new();
    let mut table: Vec<(String, f64, f64)> = Vec::new(); // (kernel, ms, GFLOP/s)
    let mut naive: Option<Tensor2D> = None;
    for rung in Rung::ALL {
        eprintln!("matmul ladder: {} at {n}²", rung.name());
        let prepared = PreparedMatmul::new(ctx, rung, &a, &b)?;
        let mut source = "cpu-wall-clock";
        let stats = measure_durations(warmup, samples, || {
            let run = ctx
                .time_commands(|enc| prepared.record(enc, repeats))
                .expect("timing a prepared matmul");
            if run.source == gpu_context::TimingSource::GpuTimestamps {
                source = "gpu-timestamps";
            }
            run.time / repeats as u32
        });
        let result = prepared.result(ctx)?;
        let diff = naive.as_ref().map_or(0.0, |r| r.max_abs_diff(&result));
        if naive.is_none() {
            naive = Some(result);
        }
        let gflops = flops / stats.median / 1e9;
        csv.push(LadderRow {
            kernel: rung.name().into(),
            size: n,
            median_ms: round_to(stats.median * 1e3, 4),
            p10_ms: round_to(stats.p10 * 1e3, 4),
            p90_ms: round_to(stats.p90 * 1e3, 4),
            gflops: round_to(gflops, 1),
            timing: source,
            max_abs_diff_vs_naive: Some(significant(f64::from(diff), 4)),
        });
        table.push((rung.name().to_owned(), stats.median * 1e3, gflops));
        bars.push((
            rung.name().to_owned(),
            gflops,
            Some((flops / stats.p90 / 1e9, flops / stats.p10 / 1e9)),
        ));
    }
    if let Some(path) = &args.pytorch_csv {
        for r in read_pytorch(std::path::Path::new(path))?
            .into_iter()
            .filter(|r| r.sweep == "matmul" && r.size == n)
        {
            let g = flops / (r.median_ms / 1e3) / 1e9;
            bars.push((r.variant.clone(), g, None));
            table.push((r.variant.clone(), r.median_ms, g));
            csv.push(LadderRow {
                kernel: r.variant,
                size: n,
                median_ms: round_to(r.median_ms, 4),
                p10_ms: round_to(r.p10_ms, 4),
                p90_ms: round_to(r.p90_ms, 4),
                gflops: round_to(g, 1),
                timing: "cuda-events",
                max_abs_diff_vs_naive: None,
            });
        }
    }
    let name = format!("{}_matmul_ladder", args.prefix);
    let chart = BarChart {
        title: format!("Matrix multiply {n}×{n}×{n}, f32: the ladder"),
        subtitle: subtitle(ctx, args),
        y_label: "GFLOP/s (higher is better)".into(),
        log_y: true,
        bars,
    };
    let mut sidecar = args.sidecar(
        &name,
        "WGSL matmul kernels, median GFLOP/s; whiskers p10–p90",
        Some(ctx.report()),
    );
    // The Markdown table beside the chart: listing it names the usual pair too.
    sidecar.files = vec![format!("{name}.csv"), format!("{name}.svg")];
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart.to_svg())
        .extra(
            &format!("{name}.md"),
            ladder_table(&table, n, &subtitle(ctx, args)),
        )
        .write()?;
    Ok(())
}

/// Markdown: each kernel's time, GFLOP/s, share of the best non-WGSL entry and of the FP32 peak.
fn ladder_table(rows: &[(String, f64, f64)], n: usize, sub: &str) -> String {
    let h100 = sub.contains("H100");
    // The H100 SXM's dense FP32 peak; the share is only meaningful on that GPU.
    const H100_FP32_PEAK_GFLOPS: f64 = 67_000.0;
    let pytorch = rows
        .iter()
        .find(|r| r.0.starts_with("PyTorch"))
        .map(|r| r.2);
    let mut t = format!(
        "| kernel ({n}³ f32) | ms | GFLOP/s | share of PyTorch | share of H100 FP32 peak |\n| --- | ---: | ---: | ---: | ---: |\n"
    );
    for (name, ms, g) in rows {
        let share = pytorch.map_or("–".into(), |p| format!("{:.1} %", 100.0 * g / p));
        t.push_str(&format!(
            "| {name} | {ms:.3} | {} | {share} | {} |\n",
            sig(*g),
            if h100 {
                format!("{:.1} %", 100.0 * g / H100_FP32_PEAK_GFLOPS)
            } else {
                "–".into()
            }
        ));
    }
    t.push_str(&format!("\nMeasured on {sub}.\n"));
    t
}

/// Three significant digits, without scientific notation: 0.0612, 1.56, 2660.
pub fn sig(x: f64) -> String {
    let digits = if x >= 100.0 {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else {
        3
    };
    format!("{x:.digits$}")
}
