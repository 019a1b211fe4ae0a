//! Exercise: row-wise softmax with tree reductions in workgroup memory.
//!
//! Given here: the host code, the single-pass kernel to compare with (one thread per row), and a
//! CPU reference. Your work: the kernel in `softmax_tree.wgsl` and the dispatch grid in
//! `dispatch.rs`.

mod dispatch;

pub use dispatch::workgroup_grid;

use gpu_context::{GpuContext, GpuError, wgpu};

/// The kernel you write: one workgroup of 64 threads per row.
pub const TREE_WGSL: &str = include_str!("softmax_tree.wgsl");
/// One thread per row, looping over the row three times (given).
pub const SINGLE_PASS_WGSL: &str = include_str!("softmax_single_pass.wgsl");

/// The most workgroups one dispatch dimension may hold (WebGPU's default limit).
pub const MAX_GROUPS_PER_DIMENSION: u32 = 65_535;

#[derive(Debug)]
pub enum SoftmaxError {
    /// `x` does not hold `rows × cols` values, or a dimension is zero.
    Shape(String),
    Gpu(GpuError),
}

impl std::fmt::Display for SoftmaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SoftmaxError::Shape(msg) => write!(f, "wrong shape: {msg}"),
            SoftmaxError::Gpu(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for SoftmaxError {}

impl From<GpuError> for SoftmaxError {
    fn from(err: GpuError) -> Self {
        SoftmaxError::Gpu(err)
    }
}

/// Softmax of each row on the CPU, subtracting the row's maximum first (for checking).
pub fn softmax_cpu(x: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut y = Vec::with_capacity(rows * cols);
    for row in x.chunks(cols).take(rows) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = row.iter().map(|v| (v - max).exp()).sum();
        y.extend(row.iter().map(|v| (v - max).exp() / sum));
    }
    y
}

/// Softmax with your tree-reduction kernel.
pub fn softmax_tree(
    ctx: &GpuContext,
    x: &[f32],
    rows: usize,
    cols: usize,
) -> Result<Vec<f32>, SoftmaxError> {
    check(x, rows, cols)?;
    let (gx, gy) = workgroup_grid(rows as u32);
    run(ctx, TREE_WGSL, (gx, gy), x, rows, cols)
}

/// Softmax with the single-pass kernel: 64 rows per workgroup, one per thread.
pub fn softmax_single_pass(
    ctx: &GpuContext,
    x: &[f32],
    rows: usize,
    cols: usize,
) -> Result<Vec<f32>, SoftmaxError> {
    check(x, rows, cols)?;
    let groups = (rows as u32).div_ceil(64);
    let gx = groups.min(MAX_GROUPS_PER_DIMENSION);
    run(
        ctx,
        SINGLE_PASS_WGSL,
        (gx, groups.div_ceil(gx)),
        x,
        rows,
        cols,
    )
}

fn check(x: &[f32], rows: usize, cols: usize) -> Result<(), SoftmaxError> {
    if rows == 0 || cols == 0 {
        return Err(SoftmaxError::Shape(format!(
            "rows and cols must be at least 1 (got {rows}×{cols})"
        )));
    }
    if x.len() != rows * cols {
        return Err(SoftmaxError::Shape(format!(
            "x has {} values, expected {rows}×{cols}",
            x.len()
        )));
    }
    Ok(())
}

fn run(
    ctx: &GpuContext,
    wgsl: &str,
    (gx, gy): (u32, u32),
    x: &[f32],
    rows: usize,
    cols: usize,
) -> Result<Vec<f32>, SoftmaxError> {
    let pipeline = ctx.cached_pipeline("softmax", wgsl, "main")?;
    let dims = [rows as u32, cols as u32, gx, 0];
    let bx = ctx.upload("x", x)?;
    let by = ctx.storage_buffer("y", (rows * cols * 4) as u64)?;
    let bd = ctx.upload("dims", &dims)?;
    let bind = ctx.bind_buffers(&pipeline, &[&bx, &by, &bd]);
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
