//! A roofline of the GPU matmul ladder, from the ladder CSV written earlier with the same prefix.
//!
//! x: operational intensity, FLOP per byte of device memory, modelled per kernel from its block:
//! a BM×BN block reads (BM + BN)·K floats for 2·BM·BN·K FLOP, so I = BM·BN / (2·(BM + BN)),
//! with no reuse between blocks (caches can only do better, which puts a point above the roof).
//! PyTorch's cuBLAS kernel is placed at the whole problem's intensity, n/6.
//! y: achieved FLOP/s. Roofs: min(peak FP32, intensity × memory bandwidth).

use bench_harness::{Csv, LineChart, Series, figures_dir};

use crate::args::Args;

/// (name, FP32 FLOP/s, bytes/s, source) for the GPUs the course measures on.
const PEAKS: [(&str, f64, f64, &str); 2] = [
    (
        "H100",
        67e12,
        3.35e12,
        "NVIDIA H100 SXM5 datasheet (nvidia.com/en-us/data-center/h100): FP32 67 TFLOPS, HBM3 3.35 TB/s",
    ),
    (
        "H200",
        67e12,
        4.8e12,
        "NVIDIA H200 SXM datasheet (nvidia.com/en-us/data-center/h200): FP32 67 TFLOPS, HBM3e 4.8 TB/s",
    ),
];

fn intensity(kernel: &str, n: f64) -> Option<f64> {
    let block = |bm: f64, bn: f64| bm * bn / (2.0 * (bm + bn));
    Some(match kernel {
        "naive" | "coalesced" => block(1.0, 1.0),
        "tiled 16x16" => block(16.0, 16.0),
        "register-blocked 4x4" => block(64.0, 64.0),
        k if k.starts_with("PyTorch") => n / 6.0,
        k if k.contains("8x8") => block(128.0, 128.0),
        _ => return None,
    })
}

pub fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let dir = figures_dir();
    let ladder = dir.join(format!("{}_matmul_ladder.csv", args.prefix));
    let text = std::fs::read_to_string(&ladder)
        .map_err(|e| format!("{}: {e} (run --only ladder first)", ladder.display()))?;
    let gpu = if args.prefix.contains("h200") {
        PEAKS[1]
    } else {
        PEAKS[0]
    };
    let (name, peak, bandwidth, source) = gpu;
    let mut csv = Csv::new(&[
        "kernel",
        "intensity_flop_per_byte",
        "achieved_gflops",
        "roof_gflops",
    ]);
    let mut series = Vec::new();
    let mut roof = Series::new(&format!("{name} roof (FP32 peak, memory bandwidth)"));
    for i in 0..=40 {
        let x = 0.1 * 10f64.powf(i as f64 / 10.0);
        roof.point(x, (x * bandwidth).min(peak) / 1e9);
    }
    series.push(roof);
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let (Some(kernel), Some(size), Some(gflops)) = (cells.first(), cells.get(1), cells.get(5))
        else {
            continue;
        };
        let (Ok(n), Ok(g)) = (size.parse::<f64>(), gflops.parse::<f64>()) else {
            continue;
        };
        let Some(x) = intensity(kernel, n) else {
            continue;
        };
        let mut s = Series::new(kernel);
        s.point(x, g);
        series.push(s);
        let roof_g = (x * bandwidth).min(peak) / 1e9;
        csv.row(&[
            kernel.to_string(),
            format!("{x:.3}"),
            format!("{g:.1}"),
            format!("{roof_g:.0}"),
        ]);
    }
    let out = format!("{}_roofline", args.prefix);
    csv.write(&dir.join(format!("{out}.csv")))?;
    LineChart {
        title: format!("Roofline: the matmul ladder on the {name}"),
        subtitle: format!("peaks: {source}"),
        x_label: "operational intensity (FLOP per byte of device memory, block model)".into(),
        y_label: "GFLOP/s".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![(peak / bandwidth, "ridge".into())],
    }
    .write(&dir.join(format!("{out}.svg")))?;
    let mut sidecar = args.sidecar(
        &out,
        "matmul ladder kernels on the GPU's roofline; intensity from each kernel's block size",
        None,
    );
    sidecar.notes.push(format!("peaks: {source}"));
    sidecar.notes.push(format!("data: {}", ladder.display()));
    sidecar.write(&dir.join(format!("{out}.json")))?;
    Ok(())
}
