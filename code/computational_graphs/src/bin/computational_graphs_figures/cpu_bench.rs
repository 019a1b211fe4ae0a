//! CPU matrix multiply at 512²: naive, ikj, blocked, parallel, and matrixmultiply.

use bench_harness::{BarChart, Csv, MachineInfo, black_box, figures_dir, measure};
use computational_graphs::cpu_matmul;
use computational_graphs::rng::SplitMix64;

use crate::args::Args;

pub fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let n = 512;
    let mut rng = SplitMix64::new(512);
    let a: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
    let mut c = vec![0.0f32; n * n];
    let flops = 2.0 * (n as f64).powi(3);
    type Matmul = fn(&[f32], &[f32], &mut [f32], usize, usize, usize);
    let variants: [(&str, Matmul); 7] = [
        ("naive ijk", cpu_matmul::naive),
        ("ikj order", cpu_matmul::ikj),
        ("cache-blocked", cpu_matmul::blocked),
        ("blocked + rayon", cpu_matmul::parallel),
        ("packed micro-kernel", cpu_matmul::packed),
        ("packed + rayon", cpu_matmul::packed_parallel),
        ("matrixmultiply", cpu_matmul::reference),
    ];
    let (warmup, samples) = if args.quick { (1, 5) } else { (2, 10) };
    let mut csv = Csv::new(&[
        "variant",
        "size",
        "median_ms",
        "p10_ms",
        "p90_ms",
        "gflops",
        "speedup_vs_naive",
    ]);
    let mut bars = Vec::new();
    let mut naive_median = None;
    let mut table = Vec::new();
    for (name, f) in variants {
        eprintln!("cpu matmul: {name}");
        let stats = measure(warmup, samples, || {
            f(&a, &b, &mut c, n, n, n);
            black_box(&c);
        });
        let base = *naive_median.get_or_insert(stats.median);
        let gflops = flops / stats.median / 1e9;
        csv.row(&[
            name.into(),
            n.to_string(),
            format!("{:.4}", stats.median * 1e3),
            format!("{:.4}", stats.p10 * 1e3),
            format!("{:.4}", stats.p90 * 1e3),
            format!("{gflops:.2}"),
            format!("{:.2}", base / stats.median),
        ]);
        table.push((name, stats.median * 1e3, gflops, base / stats.median));
        bars.push((
            name.to_owned(),
            gflops,
            Some((flops / stats.p90 / 1e9, flops / stats.p10 / 1e9)),
        ));
    }
    let machine = MachineInfo::detect();
    let dir = figures_dir();
    let name = format!("{}_cpu_matmul", args.prefix);
    csv.write(&dir.join(format!("{name}.csv")))?;
    let reference = table.last().map_or(1.0, |r| r.1);
    let mut md = format!(
        "| variant ({n}³ f32) | ms | GFLOP/s | speed-up vs naive | time vs matrixmultiply |\n| --- | ---: | ---: | ---: | ---: |\n"
    );
    for (v, ms, g, speedup) in &table {
        md.push_str(&format!(
            "| {v} | {ms:.2} | {} | {speedup:.1}× | {:.2}× |\n",
            crate::ladder_bench::sig(*g),
            ms / reference
        ));
    }
    md.push_str(&format!(
        "\nMeasured on {}.\n",
        args.machine.clone().unwrap_or_else(|| machine.summary())
    ));
    std::fs::write(dir.join(format!("{name}.md")), md)?;
    BarChart {
        title: format!("CPU matrix multiply {n}×{n}×{n}, f32"),
        subtitle: args.machine.clone().unwrap_or_else(|| machine.summary()),
        y_label: "GFLOP/s (higher is better)".into(),
        log_y: true,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
    args.sidecar(
        &name,
        "CPU matmul variants, median GFLOP/s; whiskers p10–p90",
        None,
    )
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
