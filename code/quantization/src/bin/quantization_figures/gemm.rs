use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use gpu_context::GpuContext;
use quantization::gemm::{GemmKind, GemmOnDevice};

use crate::output::{figure_name, seven_digits};

// ANCHOR: gemm_sweep
/// Square products n×n·n×n; each point is the median of several timed submissions, each
/// submission `reps` back-to-back dispatches (GPU timestamps where the adapter has them).
pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let sizes: &[usize] = if args.quick {
        &[128, 256]
    } else {
        &[512, 1024, 2048, 4096]
    };
    let name = figure_name(args, "gemm");
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for kind in GemmKind::ALL {
        for &n in sizes {
            let gemm = match GemmOnDevice::new(ctx, kind, n, n, n, 1) {
                Ok(g) => g,
                Err(e) => {
                    notes.push(format!("{}: not measured: {e}", kind.label()));
                    break;
                }
            };
            let reps = if n >= 2048 { 3 } else { 10 };
            gemm.time(ctx, reps)?; // warm-up: pipeline, caches, clocks
            let mut samples: Vec<f64> = (0..5)
                .map(|_| gemm.time(ctx, reps))
                .collect::<Result<_, _>>()?;
            samples.sort_by(f64::total_cmp);
            let (p10, med, p90) = (samples[0], samples[2], samples[4]);
            let tops = gemm.ops() / med / 1e12;
            rows.push(Row {
                kind: kind.label().into(),
                n,
                median_s: seven_digits(med),
                p10_s: seven_digits(p10),
                p90_s: seven_digits(p90),
                tops: printed(tops, 4),
            });
            eprintln!("gemm {} n={n}: {:.1} G(FL)OP/s", kind.label(), tops * 1e3);
        }
    }
    // ANCHOR_END: gemm_sweep
    notes.push("min of 5 samples as p10, max as p90".into());
    let sidecar = Sidecar::new(
        &name,
        "GEMM throughput of f32, f16 and int8 tiled WGSL kernels",
    )
    .with_adapter(ctx.report())
    .with_notes(notes);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, &ctx.adapter.get_info().name))
        .write()?;
    Ok(())
}

/// One row of the table: one format's product of two n×n matrices (seconds, tera-ops/s).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub kind: String,
    pub n: usize,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
    pub tops: f64,
}

/// A point of an n×n·n×n product: tera-operations per second at the median, with the range
/// from the slowest (p90) to the fastest (p10) sample. From the times, which the table keeps to
/// 7 digits (its `tops` column has 4 decimals: 2 digits on a software rasteriser).
pub(super) fn point_tops(s: &mut Series, n: usize, (median_s, p10_s, p90_s): (f64, f64, f64)) {
    let ops = 2.0 * (n as f64).powi(3);
    let tops = |seconds: f64| ops / seconds / 1e12;
    s.point_with_spread(n as f64, tops(median_s), tops(p90_s), tops(p10_s));
}

/// The chart: tera-operations per second against n for each format; `adapter` names the GPU.
pub fn chart(rows: &[Row], adapter: &str) -> String {
    let series = GemmKind::ALL
        .iter()
        .map(|kind| {
            let mut s = Series::new(kind.label());
            for r in rows.iter().filter(|r| r.kind == kind.label()) {
                point_tops(&mut s, r.n, (r.median_s, r.p10_s, r.p90_s));
            }
            s
        })
        .collect();
    LineChart {
        title: "One tiled WGSL GEMM kernel, four number formats".into(),
        subtitle: format!("{adapter}, wgpu 30 (Vulkan); multiply-adds count as 2 operations"),
        x_label: "n (n×n · n×n)".into(),
        y_label: "tera-operations per second".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .to_svg()
}
