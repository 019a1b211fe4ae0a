//! Exercise: a Linear layer, `y = x · w + b`, as a WGSL kernel that tiles through shared memory.
//!
//! Given here: the host code (`linear_tiled`, `linear_naive`), the naive kernel to compare with,
//! and a CPU reference. Your work: the kernel in `linear_tiled.wgsl` and the dispatch size in
//! `dispatch.rs`.

mod dispatch;

pub use dispatch::workgroups;

use gpu_context::{GpuContext, GpuError, wgpu};

/// The kernel you write.
pub const TILED_WGSL: &str = include_str!("linear_tiled.wgsl");
/// One thread per output element, every operand read from global memory (given).
pub const NAIVE_WGSL: &str = include_str!("linear_naive.wgsl");

/// What can go wrong.
#[derive(Debug)]
pub enum LinearError {
    /// The slices do not match the shape `m × k`, `k × n`, `n`.
    Shape(String),
    Gpu(GpuError),
}

impl std::fmt::Display for LinearError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinearError::Shape(msg) => write!(f, "wrong shapes: {msg}"),
            LinearError::Gpu(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for LinearError {}

impl From<GpuError> for LinearError {
    fn from(err: GpuError) -> Self {
        LinearError::Gpu(err)
    }
}

/// `y[i][j] = b[j] + Σ_p x[i][p] · w[p][j]` on the CPU, for checking.
pub fn linear_cpu(x: &[f32], w: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut y = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let dot: f32 = (0..k).map(|p| x[i * k + p] * w[p * n + j]).sum();
            y[i * n + j] = b[j] + dot;
        }
    }
    y
}

/// The Linear layer with your tiled kernel.
pub fn linear_tiled(
    ctx: &GpuContext,
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (m, k, n): (usize, usize, usize),
) -> Result<Vec<f32>, LinearError> {
    let (gx, gy) = workgroups(m as u32, n as u32);
    run(ctx, TILED_WGSL, (gx, gy), x, w, b, (m, k, n))
}

/// The Linear layer with the naive kernel (8×8 threads per workgroup, one per output).
pub fn linear_naive(
    ctx: &GpuContext,
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (m, k, n): (usize, usize, usize),
) -> Result<Vec<f32>, LinearError> {
    let groups = ((n as u32).div_ceil(8), (m as u32).div_ceil(8));
    run(ctx, NAIVE_WGSL, groups, x, w, b, (m, k, n))
}

fn run(
    ctx: &GpuContext,
    wgsl: &str,
    (gx, gy): (u32, u32),
    x: &[f32],
    w: &[f32],
    b: &[f32],
    (m, k, n): (usize, usize, usize),
) -> Result<Vec<f32>, LinearError> {
    if m == 0 || k == 0 || n == 0 {
        return Err(LinearError::Shape(format!(
            "m, k and n must be at least 1 (got {m}, {k}, {n})"
        )));
    }
    for (name, len, want) in [
        ("x", x.len(), m * k),
        ("w", w.len(), k * n),
        ("b", b.len(), n),
    ] {
        if len != want {
            return Err(LinearError::Shape(format!(
                "{name} has {len} elements, expected {want}"
            )));
        }
    }
    let pipeline = ctx.cached_pipeline("linear", wgsl, "main")?;
    let dims = [m as u32, k as u32, n as u32, 0];
    let bx = ctx.upload("x", x)?;
    let bw = ctx.upload("w", w)?;
    let bb = ctx.upload("b", b)?;
    let by = ctx.storage_buffer("y", (m * n * 4) as u64)?;
    let bd = ctx.upload("dims", &dims)?;
    let bind = ctx.bind_buffers(&pipeline, &[&bx, &bw, &bb, &by, &bd]);
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(gx, gy, 1);
    }
    ctx.queue.submit([encoder.finish()]);
    Ok(ctx.download::<f32>(&by)?)
}
