//! The per-dispatch floor: chains of empty kernels recorded into one compute pass.
//!
//! Two chains: a kernel with no bindings (nothing to order, so no barriers between dispatches)
//! and one that writes a storage buffer (wgpu orders each dispatch after the previous write
//! with a barrier). The difference is what one barrier costs; the first is the floor that
//! every dispatch of a graph pays however small its kernel.

use bench_harness::digits::round_to;
use bench_harness::{Figure, measure_durations};
use gpu_context::GpuContext;

use crate::args::Args;

const NO_BINDINGS: &str = "@compute @workgroup_size(64) fn main() {}";
const WRITES_A_BUFFER: &str = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x == 0u { out[0] = out[0] + 1u; }
}";

/// One chain of `{prefix}_dispatch_floor.csv`.
#[derive(serde::Serialize)]
struct FloorRow {
    kernel: &'static str,
    dispatches: usize,
    total_us: f64,
    per_dispatch_us: f64,
    timing: &'static str,
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let lengths: &[usize] = if args.quick {
        &[1, 10, 100]
    } else {
        &[1, 10, 100, 1000]
    };
    let (warmup, samples) = if args.quick { (1, 3) } else { (3, 10) };
    let buffer = ctx.storage_buffer("counter", 256)?;
    let mut csv: Vec<FloorRow> = Vec::new();
    for (name, source) in [
        ("empty, no bindings", NO_BINDINGS),
        ("empty, writes a buffer", WRITES_A_BUFFER),
    ] {
        let pipeline = ctx.cached_pipeline(name, source, "main")?;
        let bind_group =
            (source == WRITES_A_BUFFER).then(|| ctx.bind_buffers(&pipeline, &[&buffer]));
        for &len in lengths {
            eprintln!("dispatch floor: {name} × {len}");
            let mut timing = "cpu-wall-clock";
            let stats = measure_durations(warmup, samples, || {
                let run = ctx
                    .time_commands(|enc| {
                        let mut pass = enc.begin_compute_pass(&Default::default());
                        pass.set_pipeline(&pipeline);
                        if let Some(bg) = &bind_group {
                            pass.set_bind_group(0, bg, &[]);
                        }
                        for _ in 0..len {
                            pass.dispatch_workgroups(1, 1, 1);
                        }
                    })
                    .expect("timing a dispatch chain");
                if run.source == gpu_context::TimingSource::GpuTimestamps {
                    timing = "gpu-timestamps";
                }
                run.time
            });
            csv.push(FloorRow {
                kernel: name,
                dispatches: len,
                total_us: round_to(stats.median * 1e6, 2),
                per_dispatch_us: round_to(stats.median * 1e6 / len as f64, 3),
                timing,
            });
        }
    }
    let name = format!("{}_dispatch_floor", args.prefix);
    let mut sidecar = args.sidecar(
        &name,
        "chains of empty dispatches in one compute pass: median total and per-dispatch time",
        Some(ctx.report()),
    );
    // A table in the book, no chart.
    sidecar.files = vec![format!("{name}.csv")];
    Figure::new(sidecar).rows(&csv)?.write()?;
    Ok(())
}
