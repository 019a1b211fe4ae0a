use bench_harness::{Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir, measure};
use computational_graphs::graph::CustomOperator;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, wgpu};
use quantization::gemm::{GemmKind, GemmOnDevice};
use quantization::ops::SparseLinear;
use quantization::prune::{prune_2_4, prune_magnitude};
use quantization::sparse::{Csr, Sparse24, Weights};

use crate::output::figure_name;

const SPARSITIES: [f64; 7] = [0.0, 0.5, 0.75, 0.875, 0.95, 0.98, 0.99];

struct Sizes {
    m: usize,
    k: usize,
    n: usize,
}

fn sizes(args: &FigureArgs, gpu: bool) -> Sizes {
    match (args.quick, gpu) {
        (true, _) => Sizes {
            m: 16,
            k: 128,
            n: 128,
        },
        (false, true) => Sizes {
            m: 256,
            k: 2048,
            n: 2048,
        },
        (false, false) => Sizes {
            m: 64,
            k: 2048,
            n: 2048,
        },
    }
}

/// The three layouts at one sparsity (2:4 is always 50 %, made from the same dense weights).
fn layouts(w: &Tensor2D, sparsity: f64) -> anyhow::Result<[(&'static str, Weights); 3]> {
    let pruned = prune_magnitude(w, sparsity);
    Ok([
        ("dense", Weights::dense(&pruned)),
        ("CSR", Weights::Csr(Csr::from_dense(&pruned))),
        (
            "2:4",
            Weights::Sparse24(Sparse24::from_pruned(&prune_2_4(w)?)?),
        ),
    ])
}

/// Seconds per dispatch of the operator's own kernel, `reps` dispatches per timed submission.
fn time_kernel(
    ctx: &GpuContext,
    op: &SparseLinear,
    x: &Tensor2D,
    reps: usize,
) -> anyhow::Result<f64> {
    let out_shape = op.output_shape(&[x.shape()])?;
    let kernel = op.gpu_kernel(&[x.shape()], out_shape)?;
    let pipeline = ctx.cached_pipeline(op.name(), &kernel.source, kernel.entry_point)?;
    let params = ctx.upload("params", &kernel.params)?;
    let xb = ctx.upload("x", x.data())?;
    let yb = ctx.storage_buffer("y", (out_shape.0 * out_shape.1 * 4) as u64)?;
    let bind = ctx.bind_buffers(&pipeline, &[&params, &xb, &yb]);
    let record = |e: &mut wgpu::CommandEncoder| {
        let mut pass = e.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        for _ in 0..reps {
            pass.dispatch_workgroups(
                kernel.workgroups[0],
                kernel.workgroups[1],
                kernel.workgroups[2],
            );
        }
    };
    ctx.time_commands(record)?;
    let mut samples: Vec<f64> = (0..5)
        .map(|_| {
            ctx.time_commands(record)
                .map(|r| r.time.as_secs_f64() / reps as f64)
        })
        .collect::<Result<_, _>>()?;
    samples.sort_by(f64::total_cmp);
    Ok(samples[2])
}

fn write(
    args: &FigureArgs,
    name: &str,
    csv: &Csv,
    series: Vec<Series>,
    subtitle: String,
    ctx: Option<&GpuContext>,
) -> anyhow::Result<()> {
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    LineChart {
        title: "Dense, CSR and 2:4 Linear against sparsity".into(),
        subtitle,
        x_label: "fraction of weights pruned (2:4 is always 0.5)".into(),
        y_label: "milliseconds per product".into(),
        log_x: false,
        log_y: true,
        series,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    let _ = args;
    let mut sidecar = Sidecar::new(
        name,
        "Time of x·W for dense, CSR and 2:4 weights against sparsity",
    );
    if let Some(ctx) = ctx {
        sidecar.set_adapter(ctx.report());
    }
    sidecar.write(&dir.join(format!("{name}.json")))?;
    Ok(())
}

// ANCHOR: sparse_sweep
pub fn run_gpu(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let s = sizes(args, true);
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(s.m, s.k, 1.0, &mut rng),
        Tensor2D::random(s.k, s.n, 1.0, &mut rng),
    );
    let mut csv = Csv::new(&["layout", "sparsity", "median_s"]);
    let mut series: Vec<Series> = ["dense", "CSR", "2:4"].map(Series::new).into();
    for sparsity in SPARSITIES {
        for (i, (label, weights)) in layouts(&w, sparsity)?.into_iter().enumerate() {
            let op = SparseLinear {
                weights,
                bias: vec![0.0; s.n],
            };
            let t = time_kernel(ctx, &op, &x, if args.quick { 2 } else { 5 })?;
            csv.row(&[label.into(), sparsity.to_string(), format!("{t:.6e}")]);
            series[i].point(sparsity, t * 1e3);
            eprintln!("sparse gpu {label} at {sparsity}: {:.3} ms", t * 1e3);
        }
    }
    // The crate's tiled GEMM on the same shapes: what a dense product costs when its kernel
    // reuses tiles of x and W from workgroup memory instead of one output per invocation.
    let gemm = GemmOnDevice::new(ctx, GemmKind::F32, s.m, s.n, s.k, 3)?;
    let reps = if args.quick { 2 } else { 5 };
    gemm.time(ctx, reps)?; // warm-up: pipeline, caches, clocks
    let mut samples = (0..5)
        .map(|_| gemm.time(ctx, reps))
        .collect::<Result<Vec<_>, _>>()?;
    samples.sort_by(f64::total_cmp);
    let tiled = samples[2];
    csv.row(&[
        "dense tiled GEMM".into(),
        "0".into(),
        format!("{tiled:.6e}"),
    ]);
    let mut tiled_series = Series::new("dense, tiled GEMM (gemm.rs)");
    tiled_series.point(0.0, tiled * 1e3);
    tiled_series.point(0.99, tiled * 1e3);
    series.push(tiled_series);
    eprintln!("sparse gpu tiled GEMM: {:.3} ms", tiled * 1e3);
    let adapter = ctx.adapter.get_info().name;
    let sub = format!("{adapter}, wgpu 30; x {}×{} · W {}×{}", s.m, s.k, s.k, s.n);
    write(
        args,
        &figure_name(args, "sparse_gpu"),
        &csv,
        series,
        sub,
        Some(ctx),
    )
}
// ANCHOR_END: sparse_sweep

pub fn run_cpu(args: &FigureArgs) -> anyhow::Result<()> {
    let s = sizes(args, false);
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(s.m, s.k, 1.0, &mut rng),
        Tensor2D::random(s.k, s.n, 1.0, &mut rng),
    );
    let mut csv = Csv::new(&["layout", "sparsity", "median_s", "p10_s", "p90_s"]);
    let mut series: Vec<Series> = ["dense", "CSR", "2:4"].map(Series::new).into();
    let threads = rayon::current_num_threads();
    for sparsity in SPARSITIES {
        for (i, (label, weights)) in layouts(&w, sparsity)?.into_iter().enumerate() {
            let st = measure(2, if args.quick { 3 } else { 9 }, || {
                bench_harness::black_box(weights.matmul(&x));
            });
            csv.row(&[
                label.into(),
                sparsity.to_string(),
                format!("{:.6e}", st.median),
                format!("{:.6e}", st.p10),
                format!("{:.6e}", st.p90),
            ]);
            series[i].point_with_spread(sparsity, st.median * 1e3, st.p10 * 1e3, st.p90 * 1e3);
        }
    }
    let sub = format!(
        "CPU, {threads} rayon threads; x {}×{} · W {}×{}",
        s.m, s.k, s.k, s.n
    );
    write(
        args,
        &figure_name(args, "sparse_cpu"),
        &csv,
        series,
        sub,
        None,
    )
}
