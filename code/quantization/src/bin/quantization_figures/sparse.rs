use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar, measure};
use computational_graphs::graph::CustomOperator;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, wgpu};
use quantization::gemm::{GemmKind, GemmOnDevice};
use quantization::ops::SparseLinear;
use quantization::prune::{prune_2_4, prune_magnitude};
use quantization::sparse::{Csr, Sparse24, Weights};

use crate::output::{figure_name, seven_digits};

const SPARSITIES: [f64; 7] = [0.0, 0.5, 0.75, 0.875, 0.95, 0.98, 0.99];

struct Sizes {
    m: usize,
    k: usize,
    n: usize,
}

fn sizes(quick: bool, gpu: bool) -> Sizes {
    match (quick, gpu) {
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

/// One row of the GPU table: one layout at one sparsity (seconds per dispatch).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct GpuRow {
    pub layout: String,
    pub sparsity: f64,
    pub median_s: f64,
}

/// One row of the CPU table: one layout at one sparsity (seconds per product).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CpuRow {
    pub layout: String,
    pub sparsity: f64,
    pub median_s: f64,
    pub p10_s: f64,
    pub p90_s: f64,
}

/// The layouts' lines, in the order `layouts` returns them.
const LAYOUTS: [&str; 3] = ["dense", "CSR", "2:4"];
/// The GPU table's row for the crate's tiled GEMM, and its line.
const TILED: (&str, &str) = ("dense tiled GEMM", "dense, tiled GEMM (gemm.rs)");

fn chart(series: Vec<Series>, subtitle: String) -> String {
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
    .to_svg()
}

/// The GPU chart: each layout's time against sparsity, and the tiled GEMM's as a level line.
/// `quick` says which shape was measured; `adapter` names the GPU.
pub fn gpu_chart(rows: &[GpuRow], quick: bool, adapter: &str) -> String {
    let mut series: Vec<Series> = LAYOUTS
        .map(|layout| {
            let mut s = Series::new(layout);
            for r in rows.iter().filter(|r| r.layout == layout) {
                s.point(r.sparsity, r.median_s * 1e3);
            }
            s
        })
        .into();
    let mut tiled = Series::new(TILED.1);
    for r in rows.iter().filter(|r| r.layout == TILED.0) {
        tiled.point(0.0, r.median_s * 1e3);
        tiled.point(0.99, r.median_s * 1e3);
    }
    series.push(tiled);
    let s = sizes(quick, true);
    let sub = format!("{adapter}, wgpu 30; x {}×{} · W {}×{}", s.m, s.k, s.k, s.n);
    chart(series, sub)
}

/// The CPU chart: each layout's time against sparsity with its p10–p90 range, on `threads`
/// rayon threads; `quick` says which shape was measured.
pub fn cpu_chart(rows: &[CpuRow], quick: bool, threads: usize) -> String {
    let series = LAYOUTS
        .map(|layout| {
            let mut s = Series::new(layout);
            for r in rows.iter().filter(|r| r.layout == layout) {
                s.point_with_spread(r.sparsity, r.median_s * 1e3, r.p10_s * 1e3, r.p90_s * 1e3);
            }
            s
        })
        .into();
    let s = sizes(quick, false);
    let sub = format!(
        "CPU, {threads} rayon threads; x {}×{} · W {}×{}",
        s.m, s.k, s.k, s.n
    );
    chart(series, sub)
}

fn sidecar(name: &str) -> Sidecar {
    Sidecar::new(
        name,
        "Time of x·W for dense, CSR and 2:4 weights against sparsity",
    )
}

// ANCHOR: sparse_sweep
pub fn run_gpu(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let s = sizes(args.quick, true);
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(s.m, s.k, 1.0, &mut rng),
        Tensor2D::random(s.k, s.n, 1.0, &mut rng),
    );
    let mut rows = Vec::new();
    for sparsity in SPARSITIES {
        for (label, weights) in layouts(&w, sparsity)? {
            let op = SparseLinear {
                weights,
                bias: vec![0.0; s.n],
            };
            let t = time_kernel(ctx, &op, &x, if args.quick { 2 } else { 5 })?;
            rows.push(GpuRow {
                layout: label.into(),
                sparsity,
                median_s: seven_digits(t),
            });
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
    rows.push(GpuRow {
        layout: TILED.0.into(),
        sparsity: 0.0,
        median_s: seven_digits(tiled),
    });
    eprintln!("sparse gpu tiled GEMM: {:.3} ms", tiled * 1e3);
    let svg = gpu_chart(&rows, args.quick, &ctx.adapter.get_info().name);
    Figure::new(sidecar(&figure_name(args, "sparse_gpu")).with_adapter(ctx.report()))
        .rows(&rows)?
        .chart(svg)
        .write()?;
    Ok(())
}
// ANCHOR_END: sparse_sweep

pub fn run_cpu(args: &FigureArgs) -> anyhow::Result<()> {
    let s = sizes(args.quick, false);
    let mut rng = SplitMix64::new(3);
    let (x, w) = (
        Tensor2D::random(s.m, s.k, 1.0, &mut rng),
        Tensor2D::random(s.k, s.n, 1.0, &mut rng),
    );
    let mut rows = Vec::new();
    for sparsity in SPARSITIES {
        for (label, weights) in layouts(&w, sparsity)? {
            let st = measure(2, if args.quick { 3 } else { 9 }, || {
                bench_harness::black_box(weights.matmul(&x));
            });
            rows.push(CpuRow {
                layout: label.into(),
                sparsity,
                median_s: seven_digits(st.median),
                p10_s: seven_digits(st.p10),
                p90_s: seven_digits(st.p90),
            });
        }
    }
    let svg = cpu_chart(&rows, args.quick, rayon::current_num_threads());
    Figure::new(sidecar(&figure_name(args, "sparse_cpu")))
        .rows(&rows)?
        .chart(svg)
        .write()?;
    Ok(())
}
