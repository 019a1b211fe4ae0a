//! The tiled GEMM with `tile_b` strided (16 words a row) and padded (17), same inputs.

use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use gpu_context::GpuContext;
use quantization::gemm::{GemmKind, GemmOnDevice, TileLayout};

use crate::gemm::point_tops;
use crate::output::{figure_name, seven_digits};

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let sizes: &[usize] = if args.quick {
        &[128, 256]
    } else {
        &[1024, 2048, 4096]
    };
    let name = figure_name(args, "gemm_layout");
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for kind in KINDS {
        for layout in LAYOUTS {
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
                eprintln!(
                    "gemm-layout {} {layout:?} n={n}: {:.1} G(FL)OP/s",
                    kind.label(),
                    tops * 1e3
                );
                rows.push(Row {
                    kind: kind.label().into(),
                    layout: layout_name(layout),
                    n,
                    median_s: seven_digits(s[2]),
                    p10_s: seven_digits(s[0]),
                    p90_s: seven_digits(s[4]),
                    tops: printed(tops, 4),
                });
            }
        }
    }
    notes.push("median of 5 timed submissions (min as p10, max as p90)".into());
    notes.push("strided: tile_b is 16×16 words; padded: 16×17 words, nothing else changes".into());
    let sidecar = Sidecar::new(
        &name,
        "Tiled WGSL GEMM with tile_b strided or padded in workgroup memory",
    )
    .with_adapter(ctx.report())
    .with_notes(notes);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, &ctx.adapter.get_info().name))
        .write()?;
    Ok(())
}

const KINDS: [GemmKind; 3] = [GemmKind::F32, GemmKind::F16, GemmKind::Int8];
const LAYOUTS: [TileLayout; 2] = [TileLayout::Strided, TileLayout::Padded];

/// The layout as the table and the legend name it (`strided`, `padded`).
fn layout_name(layout: TileLayout) -> String {
    format!("{layout:?}").to_lowercase()
}

/// One row of the table: one format and layout at one n (seconds, tera-ops/s).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub kind: String,
    pub layout: String,
    pub n: usize,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
    pub tops: f64,
}

/// The chart: tera-operations per second against n, one line per format and layout.
pub fn chart(rows: &[Row], adapter: &str) -> String {
    let mut series = Vec::new();
    for kind in KINDS {
        for layout in LAYOUTS.map(layout_name) {
            let mut line = Series::new(&format!("{} {layout}", kind.label()));
            for r in rows
                .iter()
                .filter(|r| r.kind == kind.label() && r.layout == layout)
            {
                point_tops(&mut line, r.n, (r.median_s, r.p10_s, r.p90_s));
            }
            series.push(line);
        }
    }
    LineChart {
        title: "Tiled GEMM: tile_b strided (16 words a row) or padded (17)".into(),
        subtitle: format!("{adapter}, wgpu 30; multiply-adds count as 2 operations"),
        x_label: "n (n×n · n×n)".into(),
        y_label: "tera-operations per second".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .to_svg()
}
