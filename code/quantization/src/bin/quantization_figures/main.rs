//! Figures of module 3, part 2 (run from the repository root):
//!
//! - `bits`: the spiral model's accuracy against weight bit width (deterministic, any machine);
//! - `gemm`: GEMM throughput of f32, f16 and int8 in WGSL on the GPU;
//! - `energy`: joules per inference and latency against batch size (NVML, `--features nvml`);
//! - `cpu-energy`: which CPU energy counters (RAPL) and DVFS controls exist; joules where readable;
//! - `sparse`: dense vs CSR vs 2:4 Linear time against sparsity, on the GPU and on the CPU;
//! - `point-cloud`: position error of a quantised point cloud against bits (deterministic);
//! - `pruning`: a spiral MLP's accuracy against sparsity, pruned and retrained (deterministic);
//! - `sparse-tuned-cpu`: CSR and 2:4 against a tuned dense CPU product, at each thread count;
//! - `quant-linear`: the quantized Linear's kernel, each thread quantizing its row vs sharing it;
//! - `gemm-layout`: the tiled GEMM with `tile_b` strided and padded in workgroup memory;
//! - `coop-matrix`: wgpu's experimental cooperative matrices, reported and, where offered, timed;
//! - `small-formats`: octahedral normals' largest angle error, and a colour in RGB9E5 and
//!   R11G11B10F (deterministic);
//! - `narrowed-cpu`: the tuned dense product with neurons pruned away, beside CSR at the same
//!   sparsity, at every thread count.

mod bits;
mod coop_matrix;
mod cpu_energy;
mod energy;
mod gemm;
mod gemm_layout;
mod narrowed;
mod output;
mod point_cloud;
mod pruning;
mod quant_linear;
mod redraw;
mod small_formats;
mod sparse;
mod sparse_tuned;

use anyhow::Context;
use bench_harness::FigureArgs;
use gpu_context::{GpuContext, Requirements, wgpu};

const PARTS: &[&str] = &[
    "bits",
    "gemm",
    "energy",
    "cpu-energy",
    "sparse-gpu",
    "sparse-cpu",
    "point-cloud",
    "pruning",
    "sparse-tuned-cpu",
    "quant-linear",
    "gemm-layout",
    "coop-matrix",
    "small-formats",
    "narrowed-cpu",
];

/// f16 when the adapter offers it, without it otherwise.
fn open_gpu() -> anyhow::Result<GpuContext> {
    let f16 = Requirements {
        features: wgpu::Features::SHADER_F16,
        ..Default::default()
    };
    GpuContext::with_requirements(&f16)
        .or_else(|_| GpuContext::new())
        .context("the GPU parts need an adapter (lavapipe will do for a smoke test)")
}

fn main() -> std::process::ExitCode {
    let args = FigureArgs::parse_with_about(
        "Quantization, sparsity and energy figures (see the crate README)",
    );
    bench_harness::exit_code(run(&args))
}

fn run(args: &FigureArgs) -> anyhow::Result<()> {
    if args.redraw {
        return redraw::run(args, PARTS);
    }
    args.start(PARTS)?;
    if args.wants("bits") {
        bits::run(args)?;
    }
    if args.wants("point-cloud") {
        point_cloud::run(args)?;
    }
    if args.wants("small-formats") {
        small_formats::run(args)?;
    }
    if args.wants("pruning") {
        pruning::run(args)?;
    }
    if args.wants("cpu-energy") {
        cpu_energy::run(args)?;
    }
    if args.wants("narrowed-cpu") {
        narrowed::run(args)?;
    }
    if args.wants("sparse-tuned-cpu") {
        sparse_tuned::run(args)?;
    }
    let gpu_parts = [
        "gemm",
        "energy",
        "sparse-gpu",
        "quant-linear",
        "gemm-layout",
        "coop-matrix",
    ];
    if gpu_parts.iter().any(|p| args.wants(p)) {
        let ctx = open_gpu()?;
        eprintln!("GPU: {}", ctx.report().to_json());
        if args.wants("gemm") {
            gemm::run(args, &ctx)?;
        }
        if args.wants("energy") {
            energy::run(args, &ctx)?;
        }
        if args.wants("sparse-gpu") {
            sparse::run_gpu(args, &ctx)?;
        }
        if args.wants("quant-linear") {
            quant_linear::run(args, &ctx)?;
        }
        if args.wants("gemm-layout") {
            gemm_layout::run(args, &ctx)?;
        }
        if args.wants("coop-matrix") {
            coop_matrix::run(args, &ctx)?;
        }
    }
    if args.wants("sparse-cpu") {
        sparse::run_cpu(args)?;
    }
    Ok(())
}
