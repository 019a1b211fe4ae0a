use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use gpu_context::GpuContext;
use quantization::gemm::{GemmKind, GemmOnDevice};

use crate::output::figure_name;

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
    let mut csv = Csv::new(&["kind", "n", "median_s", "p10_s", "p90_s", "tops"]);
    let mut series = Vec::new();
    let mut notes = Vec::new();
    for kind in GemmKind::ALL {
        let mut s = Series::new(kind.label());
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
            csv.row(&[
                kind.label().into(),
                n.to_string(),
                format!("{med:.6e}"),
                format!("{p10:.6e}"),
                format!("{p90:.6e}"),
                format!("{tops:.4}"),
            ]);
            s.point_with_spread(
                n as f64,
                tops,
                gemm.ops() / p90 / 1e12,
                gemm.ops() / p10 / 1e12,
            );
            eprintln!("gemm {} n={n}: {:.1} G(FL)OP/s", kind.label(), tops * 1e3);
        }
        series.push(s);
    }
    // ANCHOR_END: gemm_sweep
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = ctx.adapter.get_info().name;
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
    .write(&dir.join(format!("{name}.svg")))?;
    notes.push("min of 5 samples as p10, max as p90".into());
    Sidecar::new(
        &name,
        "GEMM throughput of f32, f16 and int8 tiled WGSL kernels",
    )
    .with_adapter(ctx.report())
    .with_notes(notes)
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
