//! The quantized Linear's GPU kernel with each thread quantizing its own row (`PerThread`)
//! against the workgroup sharing that work (`Shared`), on the same layers and inputs.

use anyhow::ensure;
use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar};
use computational_graphs::graph::CustomOperator;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use quantization::ops::{DotKind, QuantLinear, RowQuant};

use crate::output::{figure_name, seven_digits};

/// Median seconds per layer call and the output of one call.
fn time_kernel(
    ctx: &GpuContext,
    op: &QuantLinear,
    x: &Tensor2D,
    reps: usize,
) -> anyhow::Result<(Vec<f64>, Vec<f32>)> {
    let (m, n) = (x.rows(), op.weights.n);
    let kernel = op.gpu_kernel(&[x.shape()], (m, n))?;
    let pipeline = ctx.cached_pipeline(op.name(), &kernel.source, kernel.entry_point)?;
    let params = ctx.upload("params", &kernel.params)?;
    let input = ctx.upload("x", x.data())?;
    let out = ctx.storage_buffer("y", (m * n * 4) as u64)?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&params, &input, &out]);
    let [gx, gy, gz] = kernel.workgroups;
    let run = |times: usize| {
        ctx.time_commands(|e| {
            let mut pass = e.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            for _ in 0..times {
                pass.dispatch_workgroups(gx, gy, gz);
            }
        })
        .map(|t| t.time.as_secs_f64() / times as f64)
    };
    run(reps)?; // warm-up
    let mut samples = (0..5).map(|_| run(reps)).collect::<Result<Vec<_>, _>>()?;
    samples.sort_by(f64::total_cmp);
    Ok((samples, ctx.download(&out)?))
}

pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    // (m rows of activations, k inputs, n outputs): one token up to a large batch.
    let shapes: &[(usize, usize, usize)] = if args.quick {
        &[(1, 256, 256), (64, 256, 256)]
    } else {
        &[
            (1, 4096, 4096),
            (16, 4096, 4096),
            (256, 4096, 4096),
            (2048, 4096, 4096),
        ]
    };
    let name = figure_name(args, "linear_kernels");
    let mut rows = Vec::new();
    let mut rng = SplitMix64::new(11);
    for &(m, k, n) in shapes {
        let w = Tensor2D::random(k, n, 1.0, &mut rng);
        let b = Tensor2D::random(1, n, 1.0, &mut rng);
        let x = Tensor2D::random(m, k, 1.0, &mut rng);
        let shared = QuantLinear::new(&w, &b, DotKind::Builtin)?;
        let per_thread = shared.clone().with_row_quant(RowQuant::PerThread);
        let reps = if m >= 256 { 3 } else { 20 };
        let mut outputs = Vec::new();
        for (label, op) in KERNELS.into_iter().zip([&per_thread, &shared]) {
            let (s, y) = time_kernel(ctx, op, &x, reps)?;
            let gops = 2.0 * (m * k * n) as f64 / s[2] / 1e9;
            eprintln!("quant-linear {label} {m}×{k}×{n}: {:.3} ms", s[2] * 1e3);
            rows.push(Row {
                kernel: label.into(),
                m,
                k,
                n,
                median_s: seven_digits(s[2]),
                p10_s: seven_digits(s[0]),
                p90_s: seven_digits(s[4]),
                gops: printed(gops, 2),
            });
            outputs.push(y);
        }
        // Same integer sums and scales, so the two kernels must agree to the bit.
        ensure!(
            outputs[0] == outputs[1],
            "the kernels disagree at {m}×{k}×{n}"
        );
        if m <= 16 {
            let cpu = shared.forward(&x);
            let worst = cpu
                .data()
                .iter()
                .zip(&outputs[1])
                .map(|(c, g)| (c - g).abs())
                .fold(0.0f32, f32::max);
            ensure!(worst < 1e-3, "GPU and CPU differ by {worst} at {m}×{k}×{n}");
        }
    }
    let sidecar = Sidecar::new(
        &name,
        "Quantized Linear on the GPU: every thread quantizing its row vs the workgroup sharing it",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![
        "median of 5 timed submissions (min as p10, max as p90), each of several dispatches".into(),
        "gops counts 2·m·k·n operations; both kernels' outputs are checked equal, and \
             against the CPU path for m ≤ 16"
            .into(),
    ]);
    Figure::new(sidecar)
        .rows(&rows)?
        .chart(chart(&rows, &ctx.adapter.get_info().name)?)
        .write()?;
    Ok(())
}

/// The two kernels, in the order of the chart's lines.
const KERNELS: [&str; 2] = ["per-thread", "shared"];

/// One row of the table: one kernel on one layer shape (seconds per call, giga-ops/s).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub kernel: String,
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
    pub gops: f64,
}

/// The chart: milliseconds per call against m for each kernel; `adapter` names the GPU.
pub fn chart(rows: &[Row], adapter: &str) -> anyhow::Result<String> {
    let first = rows
        .first()
        .ok_or_else(|| anyhow::anyhow!("the table has no rows"))?;
    let (k, n) = (first.k, first.n);
    let series = KERNELS
        .map(|kernel| {
            let mut s = Series::new(kernel);
            for r in rows.iter().filter(|r| r.kernel == kernel) {
                s.point_with_spread(r.m as f64, r.median_s * 1e3, r.p10_s * 1e3, r.p90_s * 1e3);
            }
            s
        })
        .into();
    Ok(LineChart {
        title: format!("int8 Linear (k = {k}, n = {n}): who quantizes the input row"),
        subtitle: format!("{adapter}, wgpu 30"),
        x_label: "m (rows of activations)".into(),
        y_label: "milliseconds per call".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .to_svg())
}
