//! One core against one core: the packed multiply with its portable (SSE2) micro-kernel, with
//! the AVX2+FMA one and (where the CPU has it) the AVX-512 one, against single-threaded
//! `matrixmultiply`, at 256³, 512³ and 1024³.

use bench_harness::digits::round_to;
use bench_harness::{Drawn, Figure, Found, LineChart, MachineInfo, Series, black_box, measure};
use computational_graphs::cpu_matmul::{self, packed_fma};
use computational_graphs::rng::SplitMix64;

use crate::args::Args;
use crate::charts::cpu_subtitle;

/// One variant at one size of `{prefix}_cpu_kernel.csv`; the chart is drawn from these rows.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct KernelRow {
    variant: String,
    size: usize,
    median_ms: f64,
    p10_ms: f64,
    p90_ms: f64,
    gflops: f64,
    time_vs_matrixmultiply: f64,
}

pub fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    use packed_fma::{Kernel, packed_with};
    type Matmul = fn(&[f32], &[f32], &mut [f32], usize, usize, usize);
    let mut variants: Vec<(&str, Matmul)> = vec![("packed, SSE2 kernel 4x8", cpu_matmul::packed)];
    if packed_fma::kernel() != Kernel::Portable {
        variants.push(("packed, AVX2+FMA kernel 6x16", |a, b, c, m, k, n| {
            packed_with(Kernel::Avx2Fma, a, b, c, m, k, n)
        }));
    }
    if packed_fma::kernel() == Kernel::Avx512 {
        variants.push(("packed, AVX-512 kernel 8x32", |a, b, c, m, k, n| {
            packed_with(Kernel::Avx512, a, b, c, m, k, n)
        }));
    }
    let sizes: &[usize] = if args.quick {
        &[128]
    } else {
        &[256, 512, 1024]
    };
    let (warmup, samples) = if args.quick { (1, 3) } else { (2, 11) };
    let mut csv: Vec<KernelRow> = Vec::new();
    // matrixmultiply last, timed in a worker process held to one thread.
    let mm_name = "matrixmultiply (one thread)";
    for &n in sizes {
        let mut rng = SplitMix64::new(n as u64);
        let a: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
        let b: Vec<f32> = (0..n * n).map(|_| rng.symmetric(1.0)).collect();
        let mut c = vec![0.0f32; n * n];
        let flops = 2.0 * (n as f64).powi(3);
        let mut stats: Vec<_> = variants
            .iter()
            .map(|(name, f)| {
                eprintln!("cpu kernel: {name} at {n}");
                measure(warmup, samples, || {
                    f(&a, &b, &mut c, n, n, n);
                    black_box(&c);
                })
            })
            .collect();
        eprintln!("cpu kernel: {mm_name} at {n}");
        stats.push(crate::matrixmultiply_worker::time(n, 1, warmup, samples)?.stats);
        let reference = stats[stats.len() - 1].median;
        let names = variants.iter().map(|(v, _)| *v).chain([mm_name]);
        for (name, s) in names.zip(&stats) {
            csv.push(KernelRow {
                variant: name.to_owned(),
                size: n,
                median_ms: round_to(s.median * 1e3, 4),
                p10_ms: round_to(s.p10 * 1e3, 4),
                p90_ms: round_to(s.p90 * 1e3, 4),
                gflops: round_to(flops / s.median / 1e9, 2),
                time_vs_matrixmultiply: round_to(s.median / reference, 3),
            });
        }
    }
    let name = format!("{}_cpu_kernel", args.prefix);
    let subtitle = cpu_subtitle(args.machine.as_deref(), &MachineInfo::detect().summary());
    let mut sidecar = args.sidecar(
        &name,
        "Single-threaded CPU matmul: portable vs AVX2+FMA micro-kernel vs matrixmultiply",
        None,
    );
    sidecar.notes.push(format!(
        "widest micro-kernel on this CPU: {:?} (matrixmultiply picks its own at run time, \
         AVX-512 included); median of {samples} after {warmup} warm-ups",
        packed_fma::kernel()
    ));
    Figure::new(sidecar)
        .rows(&csv)?
        .chart(chart(subtitle, &csv).to_svg())
        .write()?;
    Ok(())
}

/// GFLOP/s against size, one line per variant in the table's order; whiskers p10–p90.
pub fn chart(subtitle: String, rows: &[KernelRow]) -> LineChart {
    let mut series: Vec<Series> = Vec::new();
    for r in rows {
        let line = match series.iter().position(|s| s.name == r.variant) {
            Some(i) => &mut series[i],
            None => {
                series.push(Series::new(&r.variant));
                series.last_mut().expect("just pushed")
            }
        };
        let gflops = |ms: f64| 2.0 * (r.size as f64).powi(3) / (ms / 1e3) / 1e9;
        // The slowest samples give the fewest GFLOP/s: the whisker's low end is p90's time.
        line.point_with_spread(r.size as f64, r.gflops, gflops(r.p90_ms), gflops(r.p10_ms));
    }
    LineChart {
        title:
            "One core: packed matmul with an SSE2 and an AVX2+FMA micro-kernel, and matrixmultiply"
                .into(),
        subtitle,
        x_label: "n (n×n×n, f32)".into(),
        y_label: "GFLOP/s".into(),
        log_x: true,
        series,
        ..Default::default()
    }
}

/// `--redraw` of `{prefix}_cpu_kernel`: the chart again from its rows, subtitled from the sidecar.
pub fn redraw(found: &Found) -> Result<Drawn, Box<dyn std::error::Error>> {
    let rows: Vec<KernelRow> = found.rows()?;
    let record = &found.sidecar;
    let subtitle = cpu_subtitle(record.machine_label.as_deref(), &record.machine);
    Ok(Drawn::chart(found, chart(subtitle, &rows).to_svg()))
}
