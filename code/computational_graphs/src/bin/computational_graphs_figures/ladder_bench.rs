//! The matmul ladder at one large size, timed with GPU timestamps where available.

use bench_harness::{BarChart, Csv, figures_dir, measure_durations};
use computational_graphs::matmul_ladder::{PreparedMatmul, Rung};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

use crate::args::Args;
use crate::charts::subtitle;
use crate::tables::read_pytorch;

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = args.ladder_size;
    let mut rng = SplitMix64::new(4096);
    let a = Tensor2D::random(n, n, 1.0, &mut rng);
    let b = Tensor2D::random(n, n, 1.0, &mut rng);
    let flops = 2.0 * (n as f64).powi(3);
    let (warmup, samples) = if args.quick { (1, 3) } else { (2, 7) };
    // Repeat the dispatch inside one submission so that submit overhead does not count.
    let repeats = if args.quick { 2 } else { 10 };
    let mut csv = Csv::new(&[
        "kernel",
        "size",
        "median_ms",
        "p10_ms",
        "p90_ms",
        "gflops",
        "timing",
        "max_abs_diff_vs_naive",
    ]);
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
        csv.row(&[
            rung.name().into(),
            n.to_string(),
            format!("{:.4}", stats.median * 1e3),
            format!("{:.4}", stats.p10 * 1e3),
            format!("{:.4}", stats.p90 * 1e3),
            format!("{gflops:.1}"),
            source.into(),
            format!("{diff:.3e}"),
        ]);
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
            csv.row(&[
                r.variant,
                n.to_string(),
                format!("{:.4}", r.median_ms),
                format!("{:.4}", r.p10_ms),
                format!("{:.4}", r.p90_ms),
                format!("{g:.1}"),
                "cuda-events".into(),
                String::new(),
            ]);
        }
    }
    let dir = figures_dir();
    let name = format!("{}_matmul_ladder", args.prefix);
    csv.write(&dir.join(format!("{name}.csv")))?;
    std::fs::write(
        dir.join(format!("{name}.md")),
        ladder_table(&table, n, &subtitle(ctx, args)),
    )?;
    BarChart {
        title: format!("Matrix multiply {n}×{n}×{n}, f32: the ladder"),
        subtitle: subtitle(ctx, args),
        y_label: "GFLOP/s (higher is better)".into(),
        log_y: true,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
    args.sidecar(
        &name,
        "WGSL matmul kernels, median GFLOP/s; whiskers p10–p90",
        Some(ctx.report().to_json()),
    )
    .write(&dir.join(format!("{name}.json")))?;
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
