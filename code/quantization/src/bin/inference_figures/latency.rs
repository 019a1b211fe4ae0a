//! The time one batch takes through the model's graph, on the CPU and on the GPU.

use std::time::Instant;

use bench_harness::digits::printed;
use bench_harness::{Figure, FigureArgs, LineChart, Series, Sidecar, Stats, measure};
use computational_graphs::graph::runner_cpu::{self, Workspace};
use computational_graphs::graph::{fuse, runner_gpu, validate};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use quantization::model::{GraphLayer, model_graph, shipped};

fn points(batch: usize) -> Tensor2D {
    let mut rng = SplitMix64::new(3);
    let data = (0..2 * batch).map(|_| rng.symmetric(1.0)).collect();
    Tensor2D::new(batch, 2, data).expect("two numbers per point")
}

/// Enough samples for a stable median. The CPU's largest batch takes about 0.1 s a run and its
/// times spread widely, so it gets more runs than a fixed 15, not fewer.
fn samples(batch: usize, quick: bool) -> usize {
    match (quick, batch) {
        (true, _) => 5,
        (false, b) if b >= 16_384 => 41,
        _ => 51,
    }
}

/// One row of the table: a runner's times for one batch size; `first_run_us` is the GPU
/// runner's build (pipelines, buffers) and first run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Row {
    pub runner: String,
    pub batch: usize,
    pub samples: usize,
    pub median_us: f64,
    pub p10_us: f64,
    pub p90_us: f64,
    pub ns_per_point: f64,
    pub first_run_us: Option<f64>,
}

impl Row {
    fn new(runner: &str, batch: usize, s: Stats, first: Option<f64>) -> Self {
        Self {
            runner: runner.into(),
            batch,
            samples: s.samples,
            median_us: printed(s.median * 1e6, 2),
            p10_us: printed(s.p10 * 1e6, 2),
            p90_us: printed(s.p90 * 1e6, 2),
            ns_per_point: printed(s.median * 1e9 / batch as f64, 3),
            first_run_us: first.map(|f| printed(f, 0)),
        }
    }
}

/// The chart: median time per batch of each runner; `adapter` names the GPU in the subtitle.
pub fn chart(rows: &[Row], adapter: &str) -> String {
    let line = |runner: &str, label: &str| {
        let mut s = Series::new(label);
        for r in rows.iter().filter(|r| r.runner == runner) {
            s.point(r.batch as f64, r.median_us);
        }
        s
    };
    LineChart {
        title: "Spiral MLP (2→64→64→3): time per batch".into(),
        subtitle: format!("f32 graph, fused; GPU time includes upload and read-back; {adapter}"),
        x_label: "batch (points)".into(),
        y_label: "median time per batch (µs)".into(),
        log_x: true,
        log_y: true,
        series: vec![
            line("cpu", "CPU runner, 1 thread"),
            line("gpu", "GPU runner"),
        ],
        markers: vec![],
    }
    .to_svg()
}

pub fn run(args: &FigureArgs) -> anyhow::Result<()> {
    let ctx = GpuContext::new()?;
    eprintln!("GPU: {}", ctx.report().to_json());
    let model = shipped();
    let batches: &[usize] = if args.quick {
        &[1, 16, 256, 4096]
    } else {
        // 32, 64 and 128 bracket the batch where the GPU starts to win.
        &[1, 16, 32, 64, 128, 256, 4096, 65_536]
    };
    let mut rows = Vec::new();
    for &batch in batches {
        let graph = fuse(&validate(&model_graph(&model, batch, GraphLayer::F32)?)?);
        let inputs = [points(batch)];
        let n = samples(batch, args.quick);

        let mut workspace = Workspace::new(&graph);
        let cpu = measure(3, n, || {
            runner_cpu::run_reusing(&graph, &inputs, &mut workspace).expect("shapes checked");
        });

        let start = Instant::now();
        let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached)?;
        program.run(&ctx, &inputs)?;
        let first = start.elapsed().as_secs_f64() * 1e6;
        let gpu = measure(3, n, || {
            program.run(&ctx, &inputs).expect("shapes checked");
        });

        println!(
            "latency batch {batch:>6}: cpu {:>10.1} µs, gpu {:>10.1} µs (first run {first:.0} µs)",
            cpu.median * 1e6,
            gpu.median * 1e6
        );
        rows.push(Row::new("cpu", batch, cpu, None));
        rows.push(Row::new("gpu", batch, gpu, Some(first)));
    }
    let report = ctx.report();
    let name = args.figure_name("inference", "latency");
    let mut sidecar = Sidecar::new(
        &name,
        "One batch through the spiral MLP's fused f32 graph: CPU runner (one thread, reused \
         buffers) against the GPU runner (upload, kernels, read-back), median of repeated runs \
         after 3 warm-up runs",
    );
    let svg = chart(&rows, &report.name);
    sidecar.set_adapter(report);
    sidecar.notes = vec![format!("quick mode: {}", args.quick)];
    Figure::new(sidecar).rows(&rows)?.chart(svg).write()?;
    Ok(())
}
