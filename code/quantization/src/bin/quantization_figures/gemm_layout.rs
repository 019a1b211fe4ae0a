//! The tiled GEMM with `tile_b` strided (16 words a row) and padded (17), same inputs.

use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use gpu_context::GpuContext;
use quantization::gemm::{GemmKind, GemmOnDevice, TileLayout};

use crate::output::figure_name;

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let sizes: &[usize] = if args.quick {
        &[128, 256]
    } else {
        &[1024, 2048, 4096]
    };
    let name = figure_name(args, "gemm_layout");
    let mut csv = Csv::new(&["kind", "layout", "n", "median_s", "p10_s", "p90_s", "tops"]);
    let mut notes = Vec::new();
    let mut series = Vec::new();
    for kind in [GemmKind::F32, GemmKind::F16, GemmKind::Int8] {
        for layout in [TileLayout::Strided, TileLayout::Padded] {
            let mut line = Series::new(&format!(
                "{} {}",
                kind.label(),
                format!("{layout:?}").to_lowercase()
            ));
            for &n in sizes {
                let gemm = match GemmOnDevice::new_with_layout(ctx, kind, layout, (n, n, n), 1) {
                    Ok(g) => g,
                    Err(e) => {
                        notes.push(format!("{} {layout:?}: not measured: {e}", kind.label()));
                        continue;
                    }
                };
                let reps = if n >= 2048 { 3 } else { 10 };
                gemm.time(ctx, reps)?; // warm-up
                let mut s = (0..5)
                    .map(|_| gemm.time(ctx, reps))
                    .collect::<Result<Vec<_>, _>>()?;
                s.sort_by(f64::total_cmp);
                let tops = gemm.ops() / s[2] / 1e12;
                line.point_with_spread(
                    n as f64,
                    tops,
                    gemm.ops() / s[4] / 1e12,
                    gemm.ops() / s[0] / 1e12,
                );
                eprintln!(
                    "gemm-layout {} {layout:?} n={n}: {:.1} G(FL)OP/s",
                    kind.label(),
                    tops * 1e3
                );
                csv.row(&[
                    kind.label().into(),
                    format!("{layout:?}").to_lowercase(),
                    n.to_string(),
                    format!("{:.6e}", s[2]),
                    format!("{:.6e}", s[0]),
                    format!("{:.6e}", s[4]),
                    format!("{tops:.4}"),
                ]);
            }
            series.push(line);
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    LineChart {
        title: "Tiled GEMM: tile_b strided (16 words a row) or padded (17)".into(),
        subtitle: format!(
            "{}, wgpu 30; multiply-adds count as 2 operations",
            ctx.adapter.get_info().name
        ),
        x_label: "n (n×n · n×n)".into(),
        y_label: "tera-operations per second".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    notes.push("median of 5 timed submissions (min as p10, max as p90)".into());
    notes.push("strided: tile_b is 16×16 words; padded: 16×17 words, nothing else changes".into());
    Sidecar::new(
        &name,
        "Tiled WGSL GEMM with tile_b strided or padded in workgroup memory",
    )
    .with_adapter(ctx.report())
    .with_notes(notes)
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}
